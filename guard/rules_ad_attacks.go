package guard

import (
	"path"
	"strings"
)

// Attacks on a Windows domain from a workstation: Impacket's remote
// shells and directory-abuse scripts, Certipy's requests for another
// identity's certificate, poisoning the local network (Responder,
// mitm6). The tools are a security team's, and what decides is the
// target: a lab domain or host (lab, test, ctf, a range) is what they are
// practised on; a production domain or a colleague's machine is an
// intrusion. Responder's analyse mode only listens.
var adAttackRules = []*rule{
	{ID: "win-fleet-exec", Level: LevelCritical, Category: CategoryRemoteExec, Description: "running a program on every machine of the domain or of a list (psexec \\\\* or @file)",
		Suggestions: []string{"Deploy through the software distribution the machines are managed with", "Run it on one named test machine first"},
		names:       names("psexec", "psexec64", "paexec"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if helpAsked(c.lowerArgs()) {
				return false, ""
			}
			for _, w := range c.args() {
				if w.s == `\\*` || strings.HasPrefix(w.s, "@") && len(w.s) > 1 {
					return len(c.args()) > 1, w.s
				}
			}
			return false, ""
		}},
	{ID: "domain-attack", Level: LevelCritical, Category: CategoryPrivilege, Description: "attacking a Windows domain or its hosts (a remote shell, stolen or roasted credentials, rights written into the directory, forged certificates, poisoned name resolution)",
		Suggestions: []string{"Attack only the lab domain, or targets in a written engagement scope", "Run Responder in analyse mode (-A) to see what would be captured"},
		names:       adAttackNames(),
		match: func(a *analysis, c *cmd) (bool, string) {
			tool, args := adAttackTool(c)
			if tool == "" || adLabTarget(args) || hasWord(args, "-h") || hasWord(args, "--help") {
				return false, ""
			}
			low := make([]string, len(args))
			for i, w := range args {
				low[i] = lower(w.s)
			}
			switch tool {
			case "psexec", "wmiexec", "smbexec", "atexec", "dcomexec":
				return true, tool + ": a remote shell on " + adTarget(args)
			case "secretsdump", "ntlmrelayx", "ticketer", "raisechild", "goldenpac", "mimikatz":
				return true, tool + ": credentials stolen or forged"
			case "getuserspns":
				if hasAnyWord(low, "-request", "-request-user") {
					return true, "GetUserSPNs -request: service tickets roasted for cracking"
				}
			case "getnpusers":
				return true, "GetNPUsers: accounts without pre-authentication roasted"
			case "dacledit", "rbcd", "owneredit":
				if i := indexWord(args, "-action"); i >= 0 && i+1 < len(low) && low[i+1] == "write" || hasAnyWord(low, "-action=write") {
					return true, tool + " -action write: rights written into the directory"
				}
			case "addcomputer", "changepasswd":
				return true, tool + ": the directory changed"
			case "certipy":
				if len(low) > 0 {
					switch low[0] {
					case "req":
						if optGiven(low, "-upn") || optGiven(low, "-dns") || optGiven(low, "-on-behalf-of") {
							return true, "certipy req: a certificate for another identity"
						}
					case "template", "shadow", "account", "relay", "forge":
						return true, "certipy " + low[0]
					}
				}
			case "responder":
				if !hasWord(args, "-A") && !optGiven(low, "--analyze") {
					return true, "Responder poisoning the network's name resolution"
				}
			case "mitm6":
				return true, "mitm6 taking over the network's IPv6 DNS"
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, adAttackRules) }

// adAttackTools are the tools the rule knows, by their base name in
// lower case without .py.
var adAttackTools = []string{"psexec", "wmiexec", "smbexec", "atexec", "dcomexec", "secretsdump", "ntlmrelayx", "ticketer", "raisechild",
	"goldenpac", "getuserspns", "getnpusers", "dacledit", "rbcd", "owneredit", "addcomputer", "changepasswd", "certipy", "responder", "mitm6"}

// adAttackNames returns the command names the tools go by: Impacket's
// scripts as shipped (GetUserSPNs.py), as packaged (impacket-GetUserSPNs)
// and the interpreters that run them.
func adAttackNames() []string {
	out := []string{"python", "python3", "py", "certipy-ad", "Responder.py", "GetUserSPNs.py", "GetNPUsers.py", "raiseChild.py", "goldenPac.py",
		"impacket-GetUserSPNs", "impacket-GetNPUsers", "impacket-raiseChild", "impacket-goldenPac"}
	for _, t := range adAttackTools {
		out = append(out, t+".py", "impacket-"+t)
		if t != "psexec" {
			out = append(out, t) // (a bare psexec is Sysinternals', judged as a Windows tool)
		}
	}
	return out
}

// adAttackTool returns which tool c runs (a key of adAttackTools) and its
// arguments, or "".
func adAttackTool(c *cmd) (string, []word) {
	name, args := c.name, c.args()
	switch name {
	case "python", "python3", "py":
		if len(args) == 0 || strings.HasPrefix(args[0].s, "-") {
			return "", nil
		}
		name, args = path.Base(strings.ReplaceAll(args[0].s, `\`, "/")), args[1:]
	case "certipy-ad":
		name = "certipy"
	}
	b := lower(path.Base(name))
	if b == "psexec" || b == "psexec.exe" || b == "psexec64.exe" {
		return "", nil // Sysinternals' PsExec, judged as a Windows tool
	}
	n := strings.TrimSuffix(strings.TrimPrefix(b, "impacket-"), ".py")
	for _, t := range adAttackTools {
		if n == t {
			return t, args
		}
	}
	return "", nil
}

// adLabTarget reports arguments naming a lab: a domain or host with lab,
// test, ctf or range among its words, or this machine.
func adLabTarget(args []word) bool {
	for _, w := range args {
		for _, p := range nameWords(lower(w.s)) {
			switch p {
			case "lab", "labs", "test", "testing", "ctf", "htb", "range", "sandbox", "localhost":
				return true
			}
		}
		if h := hostOf(w.s); h != "" && loopback(h) {
			return true
		}
	}
	return false
}

// adTarget returns the target of an Impacket command (domain/user@host).
func adTarget(args []word) string {
	for _, w := range args {
		if !strings.HasPrefix(w.s, "-") && strings.Contains(w.s, "@") {
			return w.s[strings.LastIndexByte(w.s, '@')+1:]
		}
	}
	return "another host"
}
