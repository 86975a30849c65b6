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
			case "psexec", "wmiexec", "smbexec", "atexec", "dcomexec", "evil-winrm":
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

// The domain's certificate authority weakened, and BitLocker's recovery
// keys read out of the directory.
var adcsRules = []*rule{
	{ID: "adcs-weakened", Level: LevelCritical, Category: CategoryPrivilege, Description: "letting certificate requests name any subject, or trusting a certificate as a root or for logons across the forest",
		Suggestions: []string{"Leave the CA's flags and templates to the PKI administrators", "Publish roots through the reviewed Group Policy"},
		names:       names("certutil", "certutil.exe", "set-adobject"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "set-adobject":
				// a template's msPKI-Certificate-Name-Flag: the requester
				// supplies the subject (ESC1)
				if strings.Contains(j, "cn=certificate templates") && strings.Contains(j, "mspki-certificate-name-flag") && !psHas(args, "whatif", 2) {
					return true, "a certificate template lets requesters name the subject"
				}
			default:
				if hasSw(args, "setreg") && strings.Contains(j, "editf_attributesubjectaltname2") && !strings.Contains(j, "-editf_attributesubjectaltname2") {
					return true, "the CA takes any subject alternative name a requester asks for (EDITF_ATTRIBUTESUBJECTALTNAME2)"
				}
				if hasSw(args, "dspublish") && (strings.Contains(j, "rootca") || strings.Contains(j, "ntauthca")) {
					return true, "a certificate published as a root or logon authority for the whole forest"
				}
			}
			return false, ""
		}},
	{ID: "bitlocker-keys-exported", Level: LevelHigh, Category: CategoryExfiltration, Description: "exporting BitLocker recovery keys from the directory to a file (each unlocks a machine's disk)",
		Suggestions: []string{"Look up the one key a user asked for, in the admin console", "Count the keys instead of exporting them"},
		names:       names("get-adobject"), // (Graph's recovery-key cmdlet is the generic cmdlet rule's)
		match: func(a *analysis, c *cmd) (bool, string) {
			// (printed, they are the secret-printing rules'; written to a
			// file, a share or a synced folder, they outlive the task)
			if len(c.pipe) == 0 {
				return false, ""
			}
			switch c.pipe[len(c.pipe)-1].name {
			case "export-csv", "out-file", "set-content", "add-content", "export-clixml", "tee-object", "convertto-csv":
			default:
				return false, ""
			}
			j := strings.Join(wargs(c), " ")
			if strings.Contains(j, "msfve-recoverypassword") && strings.Contains(j, "-properties") {
				return true, "BitLocker recovery passwords (msFVE-RecoveryPassword)"
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, adAttackRules, adcsRules) }

// adAttackTools are the tools the rule knows, by their base name in
// lower case without .py.
var adAttackTools = []string{"psexec", "wmiexec", "smbexec", "atexec", "dcomexec", "secretsdump", "ntlmrelayx", "ticketer", "raisechild",
	"goldenpac", "getuserspns", "getnpusers", "dacledit", "rbcd", "owneredit", "addcomputer", "changepasswd", "certipy", "responder", "mitm6", "evil-winrm"}

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
