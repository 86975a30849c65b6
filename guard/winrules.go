package guard

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Rules for Windows programs and PowerShell cmdlets. Those without a
// match function are reported by the Windows front ends, which know the
// pipeline, the working directory and what was downloaded.

// wargs are a command's arguments in lower case, with Git Bash's //x
// written /x. The slice is the command's cached one: read it, never
// change it.
func wargs(c *cmd) []string { return c.winArgs() }

// hasSw reports a switch /x or -x (also /x:value).
func hasSw(args []string, names ...string) bool {
	for _, a := range args {
		if len(a) < 2 || a[0] != '/' && a[0] != '-' {
			continue
		}
		k := a[1:]
		if i := strings.IndexAny(k, ":="); i >= 0 {
			k = k[:i]
		}
		for _, n := range names {
			if k == n {
				return true
			}
		}
	}
	return false
}

// swVal returns the value of /x v, /x:v or -x v.
func swVal(args []string, names ...string) (string, bool) {
	for i, a := range args {
		if len(a) < 2 || a[0] != '/' && a[0] != '-' {
			continue
		}
		k, v, hasV := strings.Cut(a[1:], ":")
		for _, n := range names {
			if k == n {
				if hasV {
					return v, true
				}
				if i+1 < len(args) {
					return args[i+1], true
				}
				return "", true
			}
		}
	}
	return "", false
}

func anyContains(args []string, subs ...string) bool {
	for _, a := range args {
		for _, s := range subs {
			if strings.Contains(a, s) {
				return true
			}
		}
	}
	return false
}

func hasURL(args []string) bool {
	return anyContains(args, "http://", "https://", "ftp://", `\\`) || anyContains(args, "://")
}

// psFlag reports a PowerShell switch or parameter given by any prefix of
// name at least min letters long.
func psFlag(args []string, name string, minLen int) (string, bool) {
	for i, a := range args {
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		k, v, hasV := strings.Cut(a[1:], ":")
		if len(k) >= minLen && strings.HasPrefix(name, k) {
			if hasV {
				return v, true
			}
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				return args[i+1], true
			}
			return "", true
		}
	}
	return "", false
}

func psTrue(v string, present bool) bool {
	if !present {
		return false
	}
	v = strings.Trim(v, `"'`)
	return v == "" || v == "$true" || v == "1" || v == "true"
}

var criticalProcs = map[string]bool{"csrss": true, "wininit": true, "winlogon": true, "lsass": true, "smss": true,
	"services": true, "svchost": true, "system": true, "ntoskrnl": true, "lsm": true, "dwm": false}

var securityServices = map[string]bool{"windefend": true, "wdnissvc": true, "sense": true, "mpssvc": true, "wscsvc": true,
	"bfe": true, "securityhealthservice": true, "wdfilter": true, "wdboot": true, "sysmon": true, "sysmon64": true,
	"mpsdrv": true, "wuauserv": true, "vss": true, "wbengine": true, "sdrsvc": true, "eventlog": true, "wecsvc": true,
	"windows defender": true, "splunkforwarder": true, "splunkd": true}

// readRegTarget returns the registry key and data a registry command writes
// (reg add, Set-ItemProperty, New-ItemProperty, Remove-ItemProperty).
func readRegTarget(c *cmd) (key, data, verb string, ok bool) {
	args := c.args()
	switch c.name {
	case "reg":
		if len(args) < 2 {
			return "", "", "", false
		}
		verb = strings.ToLower(args[0].s)
		k, ok := normRegKey(args[1].s)
		if !ok {
			return "", "", "", false
		}
		d, _ := swVal(wargs(c), "d")
		if v, ok := swVal(wargs(c), "v"); ok && verb == "add" {
			// which value is saved decides what it does (BootExecute,
			// a variable, a signing switch), as for Set-ItemProperty -Name
			k += "/" + v
		}
		return k, d, verb, true
	case "set-gpregistryvalue", "set-gpprefregistryvalue":
		// a group policy that writes the key on every machine it links to
		pa := parsePSArgs(args, []string{"name", "guid", "key", "valuename", "value", "type", "context", "action"}, nil)
		kw, ok := pa.get("key")
		if !ok {
			return "", "", "", false
		}
		k, ok := normRegKey(kw.s)
		if !ok {
			return "", "", "", false
		}
		if n, ok := pa.get("valuename"); ok {
			k += "/" + strings.ToLower(n.s)
		}
		v, _ := pa.get("value")
		return k, v.s, "add", true
	case "set-itemproperty", "new-itemproperty", "remove-itemproperty", "set-item", "new-item", "remove-item":
		pa := parsePSArgs(args, []string{"path", "literalpath", "name", "value", "propertytype", "type"}, []string{"force"})
		p := psPathArg(pa)
		if p == nil {
			return "", "", "", false
		}
		k, ok := normRegKey(p.s)
		if !ok {
			return "", "", "", false
		}
		v, hasV := pa.get("value")
		if !strings.Contains(p.s, ":") && !strings.HasPrefix(strings.ToLower(p.s), "registry::") {
			return "", "", "", false
		}
		verb = "add"
		if strings.HasPrefix(c.name, "remove") {
			verb = "delete"
		}
		n, hasN := pa.get("name")
		if _, named := pa.named["path"]; !named && c.name != "remove-item" && c.name != "new-item" {
			// Set-ItemProperty PATH NAME VALUE: by position
			if _, lp := pa.named["literalpath"]; !lp {
				if !hasN && len(pa.pos) > 1 {
					n, hasN = pa.pos[1], true
				}
				if !hasV && len(pa.pos) > 2 {
					v = pa.pos[2]
				}
			}
		}
		if hasN && verb == "add" {
			k += "/" + strings.ToLower(n.s)
		}
		return k, v.s, verb, true
	}
	return "", "", "", false
}

func regRule(class regClass) func(a *analysis, c *cmd) (bool, string) {
	return func(a *analysis, c *cmd) (bool, string) {
		k, d, verb, ok := regTarget(c)
		if !ok || verb != "add" && verb != "import" {
			return false, ""
		}
		cl := c.regClass(k)
		if class == regSecurity && cl == regNone && strings.Contains(k, "/.netframework/") && strings.TrimSpace(d) == "0" {
			// SchUseStrongCrypto 0, SystemDefaultTlsVersions 0: .NET's
			// programs allowed SSL 3 and TLS 1.0 again
			if l := lower(c.line()); strings.Contains(l, "schusestrongcrypto") || strings.Contains(l, "systemdefaulttlsversions") {
				return true, k
			}
		}
		if cl != class {
			return false, ""
		}
		if class == regRDP && strings.TrimSpace(d) != "0" {
			return false, ""
		}
		if strings.Contains(k, "/pointandprint") && strings.HasSuffix(k, "restrictdriverinstallationtoadministrators") && strings.TrimSpace(d) != "0" {
			return false, "" // the restriction set: the protection on
		}
		return true, k
	}
}

var winRules = []*rule{
	{ID: "win-directory-rights", Level: LevelCritical, Category: CategoryPrivilege, Description: "granting directory-replication or full-control rights in Active Directory (every password hash can then be pulled)",
		Suggestions: []string{"Leave directory rights to the domain administrators"}, names: names("add-adpermission", "add-domainobjectacl", "dsacls", "set-acl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(wargs(c), " ")
			if c.name == "set-acl" && !strings.Contains(j, "ad:") {
				return false, ""
			}
			for _, r := range [...]string{"replicating directory changes", "ds-replication-get-changes", "dcsync", "genericall", "writedacl", "writeowner", "generic all", ":ga", ";ga"} {
				if strings.Contains(j, r) {
					return true, r
				}
			}
			return false, ""
		}},
	{ID: "win-acl-reset-outside", Level: LevelModerate, Category: CategoryPermission, Description: "resetting the permissions of a whole folder tree outside the project (the access its owner set is lost)",
		Suggestions: []string{"Change the one entry that needs it", "Keep to the project's folder"}, names: names("icacls"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if !hasSw(args, "reset") || !hasSw(args, "t") || len(c.args()) == 0 {
				return false, ""
			}
			p := a.winAbs(c.args()[0].s)
			if p == "" || a.inWork(p) {
				return false, ""
			}
			return true, winNative(p)
		}},
	// cmd keeps its history only in memory: clearing it leaves no trace of
	// what ran (PowerShell's Clear-History does not touch PSReadLine's
	// file, so it hides nothing).
	{ID: "win-history-clear", Level: LevelModerate, Category: CategoryHistoryTamper, Description: "clearing cmd's command history",
		Suggestions: []string{"Leave the history; remove one entry that holds a secret"}, names: names("doskey"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range wargs(c) {
				if w == "/reinstall" || strings.HasPrefix(w, "/listsize=0") {
					return true, w
				}
			}
			return false, ""
		}},
	{ID: "win-kill-by-name-forced", Level: LevelModerate, Category: CategorySystem, Description: "force-killing every process of a name or of a user (unsaved work in each is lost)",
		Suggestions: []string{"Stop the one process you started by its PID", "Close the program normally so it can save its state"},
		names:       names("taskkill", "stop-process", "wmic", "invoke-cimmethod", "invoke-wmimethod"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			switch c.name {
			case "wmic":
				// wmic process where name="node.exe" call terminate: every
				// process of the name, killed without warning
				j := strings.Join(args, " ")
				if strings.HasPrefix(j, "process ") && strings.Contains(j, "call terminate") && strings.Contains(j, "name") && !strings.Contains(j, "processid") && !strings.Contains(j, "commandline") {
					return !statelessHost(j), j
				}
				return false, ""
			case "invoke-cimmethod", "invoke-wmimethod":
				// Get-CimInstance Win32_Process -Filter "Name='python.exe'"
				// | Invoke-CimMethod -MethodName Terminate
				if v, ok := psFlag(args, "methodname", 1); !ok || !strings.EqualFold(strings.Trim(v, `"'`), "terminate") {
					if v, ok := psFlag(args, "name", 1); !ok || !strings.EqualFold(strings.Trim(v, `"'`), "terminate") {
						return false, ""
					}
				}
				for _, s := range c.pipe {
					if s != nil && s != c && (s.name == "where-object" || s.name == "where" || s.name == "?") && a.namesProject(s.line()) {
						return false, "" // Where-Object picks the project's own processes
					}
				}
				for _, s := range c.pipe {
					if s != nil && s != c && (s.name == "get-ciminstance" || s.name == "get-wmiobject" || s.name == "gwmi") {
						l := strings.Join(wargs(s), " ")
						// (a filter on the command line picks the project's own)
						if strings.Contains(l, "win32_process") && strings.Contains(l, "name") && !strings.Contains(l, "processid") && !strings.Contains(l, "commandline") && !statelessHost(l) {
							return true, "every process of " + l
						}
					}
				}
				return false, ""
			case "taskkill":
				if !hasSw(args, "f") {
					return false, ""
				}
				if v, ok := swVal(args, "s"); ok && !loopback(v) && !strings.EqualFold(v, "localhost") && !strings.EqualFold(v, ".") {
					// taskkill /S buildsrv02 /F /IM msbuild.exe: another
					// machine's processes
					return true, "on " + v
				}
				if v, ok := swVal(args, "im"); ok {
					if statelessHost(v) {
						return false, ""
					}
					if f, ok := swVal(args, "fi"); ok && !strings.Contains(f, "username") && !strings.Contains(f, "session") {
						// /fi "WINDOWTITLE eq api*", /fi "PID gt 100": the
						// filter picks the processes, not the name alone
						return false, ""
					}
					return true, v
				}
				if v, ok := swVal(args, "fi"); ok && strings.Contains(v, "username") {
					return true, v
				}
			case "stop-process":
				if !hasSw(args, "force") {
					return false, ""
				}
				if v, ok := psFlag(args, "name", 2); ok && statelessHost(v) {
					return false, ""
				}
				if hasSw(args, "name") || hasSw(args, "processname") {
					return true, strings.Join(args, " ")
				}
				filtered := false
				for _, s := range c.pipe {
					if s != nil && s != c && (s.name == "where-object" || s.name == "where" || s.name == "?") && a.namesProject(s.line()) {
						filtered = true // Where-Object picks the project's own processes
					}
				}
				for _, s := range c.pipe {
					if s != nil && s != c && s.name == "get-process" && len(s.args()) > 0 && !hasSw(wargs(s), "id") && !filtered {
						return true, "every process of " + strings.Join(wargs(s), " ")
					}
				}
			}
			return false, ""
		}},
	{ID: "win-protection-weakened", Level: LevelHigh, Category: CategorySystem, Description: "weakening Windows' own protections (disk encryption, application control, updates, legacy insecure features, system tasks and services)",
		Suggestions: []string{"Leave the machine's protections to its administrators", "Change the one setting the task needs, reversibly, with the user's consent"},
		names: names("disable-bitlocker", "suspend-bitlocker", "remove-computer", "remove-netroute", "set-applockerpolicy", "disable-scheduledtask",
			"wusa", "dism", "enable-windowsoptionalfeature", "sc", "reg", "set-itemproperty", "new-itemproperty", "set-smbserverconfiguration", "set-smbclientconfiguration"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "disable-bitlocker", "suspend-bitlocker":
				return true, "BitLocker off"
			case "remove-computer":
				return true, "leaving the domain"
			case "remove-netroute":
				return strings.Contains(j, "0.0.0.0/0") || strings.Contains(j, "::/0") || !strings.Contains(j, "-destinationprefix"), "the default route"
			case "set-applockerpolicy":
				return !hasSw(args, "merge"), "the application-control policy replaced"
			case "disable-scheduledtask":
				if strings.Contains(j, `\microsoft\windows\`) {
					return true, j
				}
				for _, s := range c.pipe {
					if s == nil || s == c || s.name != "get-scheduledtask" {
						continue
					}
					// (Get-ScheduledTask -TaskName 'Windows Defender*': the
					// antivirus's own scans and updates)
					if sj := strings.Join(wargs(s), " "); len(s.args()) == 0 || strings.Contains(sj, `\microsoft\windows\`) || strings.Contains(sj, "windows defender") || strings.Contains(sj, "microsoft defender") {
						return true, "Windows' own scheduled tasks"
					}
				}
			case "set-smbserverconfiguration", "set-smbclientconfiguration":
				// guest logons, SMB1 and unsigned sessions: shares open to
				// anyone on the network, or to a relay in the middle
				for i, w := range args {
					if i+1 >= len(args) {
						break
					}
					v := strings.TrimPrefix(args[i+1], "$")
					switch w {
					case "-enableinsecureguestlogons", "-enablesmb1protocol":
						if v == "true" || v == "1" {
							return true, w
						}
					case "-requiresecuritysignature", "-enablesecuritysignature", "-encryptdata", "-rejectunencryptedaccess":
						if v == "false" || v == "0" {
							return true, w
						}
					}
				}
			case "wusa":
				return hasSw(args, "uninstall"), "uninstalling an update"
			case "dism":
				if hasSw(args, "enable-feature") && legacyFeature(j) {
					return true, "a legacy, insecure feature"
				}
				return hasSw(args, "disable-feature", "remove-package", "remove-capability") || strings.Contains(j, "/remove"), j
			case "enable-windowsoptionalfeature":
				return legacyFeature(j), "a legacy, insecure feature"
			case "sc":
				// sc config NAME start= disabled
				return len(args) > 2 && args[0] == "config" && strings.Contains(j, "start= disabled"), j
			case "reg", "set-itemproperty", "new-itemproperty":
				k, d, verb, ok := regTarget(c)
				if ok && verb == "add" && c.regClass(k) == regServices && strings.HasSuffix(k, "/start") && strings.TrimSpace(d) == "4" {
					return true, "a service disabled: " + k
				}
				if ok && verb == "add" && strings.Contains(k, "windows error reporting/localdumps/") {
					// full memory dumps of every program that crashes
					// (DumpType 2), or dumps put on a share: the passwords
					// and tokens each held go with them
					d = strings.Trim(strings.TrimSpace(strings.ToLower(d)), `"'`)
					if strings.HasSuffix(k, "/dumptype") && (d == "2" || d == "0x2") || strings.HasSuffix(k, "/dumpfolder") && (strings.HasPrefix(d, `\\`) || strings.HasPrefix(d, "//")) {
						return true, "full crash dumps kept: " + k
					}
				}
				if ok && verb == "add" && strings.Contains(k, "lanmanworkstation/parameters") && strings.Contains(strings.ToLower(c.argsText()), "allowinsecureguestauth") {
					return true, "insecure guest access to shares"
				}
				if ok && verb == "add" && (strings.Contains(k, "/lanmanserver/parameters/") || strings.Contains(k, "/lanmanworkstation/parameters/")) {
					// the values behind Set-SmbServerConfiguration's switches
					d = strings.TrimPrefix(strings.TrimSpace(strings.ToLower(d)), "0x")
					switch k[strings.LastIndexByte(k, '/')+1:] {
					case "requiresecuritysignature", "enablesecuritysignature", "encryptdata", "rejectunencryptedaccess", "restrictnullsessaccess":
						return d == "0" || d == "00000000", "SMB signing or encryption off: " + k
					case "smb1", "enableplaintextpassword", "enableinsecureguestlogons", "nullsessionshares", "nullsessionpipes":
						return d != "0" && d != "00000000" && d != "", "insecure SMB access: " + k
					}
				}
			}
			return false, ""
		}},
	{ID: "win-logging-policy", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "turning off PowerShell logging or clearing recent-command history in the registry",
		Suggestions: []string{"Leave logging policy alone"}, names: names("reg", "set-itemproperty", "new-itemproperty", "remove-item", "remove-itemproperty"),
		match: func(a *analysis, c *cmd) (bool, string) {
			k, _, verb, ok := regTarget(c)
			if !ok {
				// New-Item HKLM:\...\ScriptBlockLogging | New-ItemProperty
				// -Name EnableScriptBlockLogging -Value 0: the key piped in
				if c.name == "new-itemproperty" || c.name == "set-itemproperty" {
					if c.pipe != nil && c.stage > 0 && c.pipe[c.stage-1] != nil {
						j := strings.ToLower(joinWords(c.pipe[c.stage-1].args()) + " " + c.argsText())
						if hasAny(j, "scriptblocklogging", "modulelogging", "\\transcription") && hasAny(j, "-value 0", "-value:0", "-value '0'", `-value "0"`) {
							return true, "PowerShell logging switched off"
						}
					}
				}
				return false, ""
			}
			switch c.regClass(k) {
			case regLogging:
				return true, k
			case regHistory:
				return verb == "delete", k
			}
			return false, ""
		}},
	{ID: "win-attrib-system", Level: LevelHigh, Category: CategoryPermission, Description: "changing system, hidden or read-only attributes outside the project",
		Suggestions: []string{"Change attributes only inside the project"}, names: names("attrib", "cmd:attrib"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				if strings.HasPrefix(w.s, "+") || strings.HasPrefix(w.s, "-") || strings.HasPrefix(w.s, "/") {
					continue
				}
				p := w.s
				if i := strings.IndexAny(p, "*?"); i >= 0 {
					p = p[:i]
				}
				cl, _ := a.winClassify(a.winAbs(p))
				switch cl {
				case wpRoot, wpSystem, wpHome, wpHomeSub, wpSecrets, wpSystemSub:
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "win-security-policy", Level: LevelHigh, Category: CategoryPermission, Description: "applying a security template or changing local security policy",
		Suggestions: []string{"Let an administrator change security policy"}, names: names("secedit", "lgpo", "set-localgrouppolicy"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			return c.name != "secedit" || hasSw(args, "configure", "import"), ""
		}},
	{ID: "win-firewall-open", Level: LevelHigh, Category: CategorySystem, Description: "opening every port or program in the firewall",
		Suggestions: []string{"Open only the port that needs it, for the local network"}, names: names("netsh", "new-netfirewallrule", "set-netfirewallrule"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(wargs(c), " ")
			allow := strings.Contains(j, "action=allow") || strings.Contains(j, "-action allow")
			any := strings.Contains(j, "localport=any") || strings.Contains(j, "1-65535") || strings.Contains(j, "localport any") ||
				strings.Contains(j, "-localport any") || strings.Contains(j, "protocol=any") && !strings.Contains(j, "localport") || strings.Contains(j, "program=") && strings.Contains(j, "temp")
			if c.name == "netsh" {
				return allow && any && strings.Contains(j, "add rule"), j
			}
			if allow && !any && c.name == "new-netfirewallrule" && !strings.Contains(j, "outbound") {
				// -LocalPort 5432 or a wide range (30000-32767) let in from
				// every address (no -RemoteAddress)
				if port, ok := swVal(wargs(c), "localport"); ok && !hasSw(wargs(c), "remoteaddress") {
					if lo, hi, rng := strings.Cut(port, "-"); rng {
						l, e1 := strconv.Atoi(lo)
						h, e2 := strconv.Atoi(hi)
						if e1 == nil && e2 == nil && h-l >= 1000 {
							return true, "inbound ports " + port + " from every address"
						}
					}
					if port != "22" && sensitivePorts(port) {
						return true, "inbound port " + port + " from every address"
					}
				}
			}
			return allow && any, j
		}},
	{ID: "win-remove-apps", Level: LevelHigh, Category: CategorySystem, Description: "uninstalling system or every user's applications",
		Suggestions: []string{"Uninstall only what the project installed"}, names: names("remove-appxpackage", "remove-appxprovisionedpackage", "wmic", "uninstall-package", "disable-windowsoptionalfeature"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(wargs(c), " ")
			if c.name == "wmic" {
				return strings.Contains(j, "product") && strings.Contains(j, "uninstall"), j
			}
			if c.name == "uninstall-package" {
				return strings.Contains(j, "*") || securityAgentName(j) || securityAgentName(strings.ToLower(c.in.what)), j
			}
			if c.name == "remove-appxpackage" && ownAppxPackage(c) {
				return false, "" // the project's own sideloaded app, by name
			}
			if c.name == "disable-windowsoptionalfeature" && legacyInsecureFeature(j) {
				return false, "" // SMB1, PowerShell 2.0: switched off to harden
			}
			return true, j
		}},
	{ID: "win-network-off", Level: LevelHigh, Category: CategorySystem, Description: "releasing the network address or deleting the default route",
		Suggestions: []string{"Leave the network configuration alone"}, names: names("ipconfig", "route", "netsh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "ipconfig":
				return hasSw(args, "release", "release6"), j
			case "route":
				return anyContains(args, "delete") && anyContains(args, "0.0.0.0") || hasSw(args, "f"), j
			}
			return strings.Contains(j, "winsock reset") || strings.Contains(j, "int ip reset") || strings.Contains(j, "delete route"), j
		}},
	{ID: "win-remote-access", Level: LevelHigh, Category: CategoryPersistence, Description: "opening the machine to remote shells (WinRM, OpenSSH server, RDP)",
		Suggestions: []string{"Ask the user to enable remote access"}, names: names("enable-psremoting", "add-windowscapability", "winrm", "enable-wsmancredssp", "set-item", "start-service", "set-service", "sc", "set-wsmaninstance"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(wargs(c), " ")
			switch c.name {
			case "sc":
				// sc config TermService start= auto (or sshd): the
				// remote shell started with the machine
				args := wargs(c)
				return len(args) > 1 && args[0] == "config" && (args[1] == "termservice" || args[1] == "sshd") &&
					(strings.Contains(j, "start= auto") || strings.Contains(j, "start=auto")), j
			case "add-windowscapability":
				return strings.Contains(j, "openssh.server"), j
			case "winrm":
				// (basic="true": passwords sent for Basic authentication;
				// trustedhosts="*": credentials handed to any host; a
				// listener on every address over plain HTTP)
				return strings.Contains(j, "quickconfig") || strings.Contains(j, "qc") || strings.Contains(j, "allowunencrypted") ||
					strings.Contains(j, "basic") && strings.Contains(j, "true") || strings.Contains(j, "trustedhosts") && strings.Contains(j[strings.Index(j, "trustedhosts"):], "*") ||
					strings.Contains(j, "listener?address=*") && strings.Contains(j, "transport=http") && !strings.Contains(j, "transport=https"), j
			case "set-wsmaninstance":
				return (strings.Contains(j, "allowunencrypted") || strings.Contains(j, "basic")) && (strings.Contains(j, "$true") || strings.Contains(j, "= true")) && !strings.Contains(j, "whatif"), j
			case "set-item":
				// TrustedHosts '*', or WinRM's traffic and credentials in
				// the clear (AllowUnencrypted, Basic)
				return strings.Contains(j, "wsman:") && (strings.Contains(j, "trustedhosts") && strings.Contains(j, "*") ||
					(strings.Contains(j, "allowunencrypted") || strings.Contains(j, `\auth\basic`)) && strings.Contains(j, "true")), j
			case "start-service", "set-service":
				return strings.Contains(j, "sshd") && (c.name == "start-service" || strings.Contains(j, "automatic")) || strings.Contains(j, "termservice") && strings.Contains(j, "automatic"), j
			}
			return true, j
		}},
	{ID: "win-package-source", Level: LevelHigh, Category: CategoryPersistence, Description: "pointing a package manager or git at a bare IP or plain HTTP source",
		Suggestions: []string{"Use the official registry over HTTPS"}, names: names("pip", "npm", "yarn", "pnpm", "git", "nuget", "choco", "conda", "gem", "cargo", "go"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if !anyContains(args, "http://") && !winHasBareIP(j) {
				return false, ""
			}
			remote := false
			for _, s := range args {
				for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == '=' || r == ' ' || r == '"' || r == '\'' }) {
					if (strings.Contains(f, "://") || winHasBareIP(f)) && !loopback(hostOf(f)) {
						remote = true
					}
				}
			}
			if !remote {
				return false, "" // npm config set registry http://localhost:4873/: the developer's own Verdaccio
			}
			switch c.name {
			case "git":
				if strings.Contains(j, "config") && strings.Contains(j, "http.proxy") && !strings.Contains(j, "insteadof") && !strings.Contains(j, "core.sshcommand") {
					// a proxy of the organisation's, by its internal name
					for _, s := range args {
						if strings.Contains(s, "://") && strangerProxy(s) != "" {
							return true, j
						}
					}
					return false, ""
				}
				return strings.Contains(j, "config") && (strings.Contains(j, "insteadof") || strings.Contains(j, "core.sshcommand")), j
			case "go":
				return strings.Contains(j, "env") && (strings.Contains(j, "goproxy") || strings.Contains(j, "gonosumdb") || strings.Contains(j, "goinsecure")), j
			}
			return strings.Contains(j, "config") && (strings.Contains(j, "registry") || strings.Contains(j, "index-url") || strings.Contains(j, "extra-index-url") || strings.Contains(j, "channels") || strings.Contains(j, "source")) ||
				strings.Contains(j, "source add") || strings.Contains(j, "sources add"), j
		}},
	{ID: "win-run-downloaded", Level: LevelCritical, Category: CategoryRemoteExec, Description: "running a program, library or project downloaded or cloned earlier",
		Suggestions: []string{"Check what was downloaded before running it", "Install the tool from its official package instead"},
		names: names("msiexec", "rundll32", "regsvr32", "wscript", "cscript", "mshta", "installutil", "regasm", "regsvcs", "msbuild", "cmstp",
			"pcalua", "java", "javaw", "dotnet", "add-appxpackage", "appinstaller", "presentationhost", "ieexec", "cmd:start", "start-process", "explorer"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "rundll32" && rundllOpensPage(wargs(c)) {
				return false, ""
			}
			for _, w := range args {
				l := lower(strings.Trim(w.s, `"'`))
				if strings.HasPrefix(l, "ms-appinstaller:") && strings.Contains(l, "source=") {
					return true, w.s // App Installer fetches and installs the package the URL names
				}
				if k := strings.IndexByte(l, ':'); k > 0 && (l[0] == '/' || l[0] == '-') && !strings.HasPrefix(l[k:], "://") {
					l = l[k+1:] // /i:URL, -url:URL
				}
				if h := hostOf(l); h != "" && !isLocalHost(h) && urlRunners[c.name] && strings.Contains(l, "://") {
					return true, c.base + " " + w.s // the program fetches the code it runs
				}
			}
			if c.name == "cmd:start" || c.name == "start-process" || c.name == "explorer" {
				return false, ""
			}
			if u := dotnetScriptURL(args); u != "" {
				return true, c.base + " script " + u
			}
			if c.name == "dotnet" && (len(args) == 0 || args[0].s != "run" && args[0].s != "exec" && !strings.HasSuffix(lower(args[0].s), ".dll")) {
				return false, "" // dotnet build, test, restore of a folder run its build only
			}
			for _, w := range args {
				if !w.ok {
					continue
				}
				// rundll32 FILE,Entry; msiexec /i:FILE; --project=DIR
				f, _, _ := strings.Cut(w.s, ",")
				if k := strings.IndexAny(f, "=:"); k > 0 && strings.HasPrefix(f, "-") || strings.HasPrefix(f, "/") && k > 1 && !strings.HasPrefix(f, "/c:") {
					f = f[k+1:]
				}
				if f == "" || strings.HasPrefix(f, "-") {
					continue
				}
				if a.isDownloaded(f, c.cwd) || a.isDownloaded(strings.TrimSuffix(f, "/")+"/\x00probe", c.cwd) && len(a.downloadDirs) > 0 {
					return true, c.base + " " + f
				}
				if p := a.winAbs(f); p != "" && p != f && (a.downloads[p] || a.isDownloaded(p, c.cwd)) {
					return true, c.base + " " + f
				}
			}
			return false, ""
		}},
	{ID: "win-package-untrusted", Level: LevelHigh, Category: CategoryRemoteExec, Description: "installing a package from a bare IP, plain HTTP or a feed someone else runs",
		Suggestions: []string{"Install from the official repository over HTTPS"}, names: names("choco", "winget", "scoop", "nuget", "install-package", "install-module", "install-script", "install-psresource", "dotnet"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if c.name == "install-module" || c.name == "install-script" || c.name == "install-psresource" {
				// -Repository NAME other than PSGallery: a feed registered
				// by whoever set it up (every blind label agrees)
				if r, ok := swVal(args, "repository"); ok && strings.Trim(r, `"'`) != "psgallery" && !hasSw(args, "whatif") {
					return true, c.base + " -Repository " + r
				}
			}
			if c.name == "dotnet" || c.name == "nuget" {
				// dotnet tool install --add-source URL, nuget install
				// -Source URL: a package (and its build targets) from a
				// feed someone else runs
				if !strings.Contains(j, "install") && !strings.Contains(j, "add package") && !strings.Contains(j, "restore") && !strings.Contains(j, "tool run") {
					return false, ""
				}
				for _, k := range [...]string{"-add-source", "-source", "source", "s"} {
					if v, ok := swVal(args, k); ok && strings.Contains(v, "://") {
						h := hostOf(v)
						if !isLocalHost(h) && !trustedIndexHosts[h] && !nugetHosts[h] {
							return true, v
						}
					}
				}
				return false, ""
			}
			if c.name == "winget" {
				// winget's own sources are named (winget, msstore): a URL
				// is a REST source someone else runs
				if v, ok := swVal(args, "-source", "s"); ok && strings.Contains(v, "://") && !isLocalHost(hostOf(v)) {
					return true, j
				}
				if len(args) > 2 && args[0] == "source" && args[1] == "add" && anyContains(args, "://") {
					return true, j
				}
			}
			if !anyContains(args, "http://") && !winHasBareIP(j) {
				return false, ""
			}
			return strings.Contains(j, "install") || c.name == "install-package" || c.name == "install-module" || c.name == "scoop" && strings.Contains(j, "bucket add"),
				j
		}},
	{ID: "win-path-change", Level: LevelModerate, Category: CategoryPersistence, Description: "changing the saved PATH (commands resolve to other programs from now on)",
		Suggestions: []string{"Change $env:PATH for this session only"}, names: names("setx"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if len(args) > 1 && args[0] == "path" && pathAppended(args[1]) {
				return false, "" // the old PATH first, a permanent folder after it
			}
			return len(args) > 1 && (args[0] == "path" || args[0] == "pathext" || args[0] == "psmodulepath" || args[0] == "comspec") && !hasSw(args, "m"), args[0]
		}},
	{ID: "win-dll-planted", Level: LevelCritical, Category: CategoryPersistence, Description: "putting a DLL beside an installed program or into Windows' folders (the program loads it in place of the system's, every time it starts)",
		Suggestions: []string{"Leave installed programs' folders to their installers", "Load a plugin through the program's own plugin mechanism"},
		names:       names("copy-item", "move-item", "cmd:copy", "cmd:move", "xcopy", "robocopy", "cp", "mv"),
		match: func(a *analysis, c *cmd) (bool, string) {
			var ops []string
			for _, w := range c.args() {
				if !strings.HasPrefix(w.s, "-") && !strings.HasPrefix(w.s, "/") || strings.Contains(w.s[1:], "/") && !strings.HasPrefix(w.s, "/") {
					ops = append(ops, w.s)
				}
			}
			if len(ops) < 2 || !strings.HasSuffix(strings.ToLower(strings.Trim(ops[0], `"'`)), ".dll") {
				return false, ""
			}
			dst := strings.ReplaceAll(strings.ToLower(a.winAbs(strings.Trim(ops[len(ops)-1], `"'`))), `\`, "/")
			dst = strings.TrimPrefix(dst, "/")
			if strings.HasPrefix(dst, "c:/program files") || strings.HasPrefix(dst, "c:/windows/") || strings.HasPrefix(dst, "c:/programdata/microsoft/windows/") {
				return true, ops[0] + " to " + ops[len(ops)-1]
			}
			return false, ""
		}},
	{ID: "win-env-hijack", Level: LevelHigh, Category: CategoryPersistence, Description: "saving a variable that makes every later program load code or packages from elsewhere",
		Suggestions: []string{"Set the variable for this session only ($env:NAME or set NAME=)"}, names: names("setx"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// setx [/M] NAME VALUE: the switch may come first
			var ops []string
			for _, w := range wargs(c) {
				if !strings.HasPrefix(w, "/") {
					ops = append(ops, w)
				}
			}
			if len(ops) < 2 {
				return false, ""
			}
			return runtimeHookVar(ops[0], ops[1]), ops[0]
		}},
	{ID: "win-kill-protection", Level: LevelHigh, Category: CategorySystem, Description: "killing the desktop shell, antivirus or every process of a user",
		Suggestions: []string{"Stop only the process you started"}, names: names("taskkill", "stop-process", "wmic"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if c.name == "wmic" && !strings.Contains(j, "terminate") && !strings.Contains(j, "delete") {
				return false, ""
			}
			for _, p := range [...]string{"explorer", "msmpeng", "mssense", "sense", "nissrv", "securityhealthservice", "sysmon", "sysmon64", "csfalconservice", "cb.exe", "sentinelagent"} {
				if strings.Contains(j, p) {
					return true, p
				}
			}
			if c.name == "taskkill" {
				f, _ := swVal(args, "fi")
				return strings.Contains(f, "username"), f
			}
			return false, ""
		}},
	{ID: "win-recycle-bin", Level: LevelHigh, Category: CategoryFileDelete, Description: "emptying the recycle bin (deleted files can no longer be restored)",
		Suggestions: []string{"Leave the recycle bin to the user"}, names: names("clear-recyclebin"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// without -Force the cmdlet asks first, and nobody answers an
			// agent's prompt: nothing is emptied
			args := wargs(c)
			return !hasSw(args, "whatif") && (hasSw(args, "force") || psConfirmOff(args)), ""
		}},
	{ID: "win-partition-change", Level: LevelHigh, Category: CategoryDiskWipe, Description: "resizing partitions or removing drive mounts",
		Suggestions: []string{"Let the user manage disks"}, names: names("resize-partition", "mountvol", "remove-partitionaccesspath", "set-partition", "dismount-diskimage"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "mountvol" {
				return hasSw(wargs(c), "d", "p", "r"), ""
			}
			return c.name != "dismount-diskimage", ""
		}},
	{ID: "win-file-zero", Level: LevelCritical, Category: CategoryDiskWipe, Description: "overwriting file or volume contents with zeros",
		Suggestions: []string{"Delete the file normally"}, names: names("fsutil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(wargs(c), " ")
			return strings.Contains(j, "setzerodata") || strings.Contains(j, "setvaliddata") || strings.Contains(j, "dismount"), j
		}},
	{ID: "win-disk-fill", Level: LevelHigh, Category: CategoryForkBomb, Description: "filling the disk with a huge file",
		Suggestions: []string{"Create test files of a reasonable size"}, names: names("fsutil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if len(args) < 4 || args[0] != "file" || args[1] != "createnew" {
				return false, ""
			}
			return len(args[3]) >= 11, args[3]
		}},
	{ID: "win-endless-loop", Level: LevelHigh, Category: CategoryForkBomb, Description: "an endless loop writing files or using every CPU",
		Suggestions: []string{"Bound the loop"}},
	{ID: "win-monitor-remove", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "uninstalling system monitoring (Sysmon)",
		Suggestions: []string{"Leave monitoring installed"}, names: names("sysmon", "sysmon64"),
		match: func(a *analysis, c *cmd) (bool, string) { return hasSw(wargs(c), "u"), "" }},
	{ID: "win-list-credentials", Level: LevelModerate, Category: CategoryExfiltration, Description: "printing stored credentials or Wi-Fi keys",
		Suggestions: []string{"Do not print credentials"}, names: names("cmdkey", "netsh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if c.name == "cmdkey" {
				// /list:TARGET only says whether one credential exists
				for _, w := range args {
					if l := lower(w); l == "/list" || l == "-list" {
						return !listFiltered(a.src, "/list"), j
					}
				}
				return false, ""
			}
			return strings.Contains(j, "key=clear"), j
		}},
	{ID: "win-ftp-script", Level: LevelHigh, Category: CategoryExfiltration, Description: "an unattended file transfer to another host",
		Suggestions: []string{"Transfer files with the user's consent"}, names: names("ftp", "tftp"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if c.name == "ftp" {
				for _, w := range c.args() {
					if p, ok := strings.CutPrefix(w.s, "-s:"); ok {
						if t, known := a.writtenText(p, c.cwd); known && ftpScriptReadsOnly(t) {
							return false, "" // a script written on the line that only lists
						}
					}
				}
			}
			return anyContains(args, "-s:") || c.name == "tftp" && anyContains(args, "put"), strings.Join(args, " ")
		}},
	{ID: "win-tunnel", Level: LevelHigh, Category: CategoryReverseShell, Description: "exposing a local port to the internet through a tunnel",
		Suggestions: []string{"Do not expose local services"}, names: names("ngrok", "plink", "cloudflared", "chisel", "frpc", "lt", "localtunnel"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if len(args) > 0 && (args[0] == "verify" || args[0] == "version" || args[0] == "--version" || args[0] == "-v" || args[0] == "--help" || args[0] == "-h") {
				return false, "" // checks its configuration or prints its version
			}
			switch c.name {
			case "plink":
				return hasSw(args, "r"), j
			case "ngrok":
				// raw TCP (SSH, RDP), TLS and files are what a tunnel should
				// not carry; an HTTP tunnel to a local dev server is a demo
				// or a webhook's way in
				if anyContains(args, "tcp", "tls", "start", "file:") {
					return true, j
				}
				// ngrok http 8888: a notebook's, a console's or a
				// database's port, not a development server's
				if len(args) > 1 && args[0] == "http" {
					if p := tunnelPort(args[1]); p != "" && !devServerPort(p) {
						return true, j
					}
				}
				return false, ""
			case "cloudflared":
				// a quick tunnel to a local HTTP server, a named tunnel of
				// the user's, and the managing subcommands (list, info,
				// login, create, delete, route, token, cleanup) are not
				// what this is about; a tunnel to SSH, RDP or raw TCP is
				for i, w := range args {
					if w != "tunnel" {
						continue
					}
					u, ok := "", false
					for k, x := range args[i+1:] {
						if x == "--url" && i+1+k+1 < len(args) {
							u, ok = args[i+1+k+1], true
						} else if v, cut := strings.CutPrefix(x, "--url="); cut {
							u, ok = v, true
						}
					}
					if ok {
						if p := tunnelPort(u); p != "" && !devServerPort(p) {
							return true, j // http://localhost:2019: an admin API's port
						}
						return !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "localhost:"), j
					}
					return false, ""
				}
				return false, ""
			}
			return true, j
		}},
	// --- walker-reported ---
	{ID: "win-delete-system", Level: LevelCritical, Category: CategoryFileDelete, Description: "deleting a whole drive, Windows or a system folder",
		Suggestions: []string{"Delete only paths inside the project", "Name the exact files to remove"}},
	{ID: "win-delete-system-file", Level: LevelCritical, Category: CategorySystem, Description: "deleting a Windows system file",
		Suggestions: []string{"Leave Windows files alone", "Ask an administrator"}},
	{ID: "win-delete-profile", Level: LevelCritical, Category: CategoryFileDelete, Description: "deleting a user profile",
		Suggestions: []string{"Delete only paths inside the project"}},
	{ID: "win-delete-credentials", Level: LevelCritical, Category: CategoryFileDelete, Description: "deleting or overwriting keys and credentials",
		Suggestions: []string{"Let the user manage their credentials"}},
	{ID: "win-history-delete", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "deleting or overwriting shell history",
		Suggestions: []string{"Leave history untouched"}},
	{ID: "win-delete-outside", Level: LevelHigh, Category: CategoryFileDelete, Description: "recursive delete outside the work directory",
		Suggestions: []string{"Delete only paths inside the project", "Ask the user before deleting elsewhere"}},
	{ID: "win-write-autorun", Level: LevelHigh, Category: CategoryPersistence, Description: "writing a file that runs at log-on (Startup folder, PowerShell profile, SSH keys)",
		Suggestions: []string{"Show the change and let the user apply it"}},
	{ID: "win-write-system", Level: LevelCritical, Category: CategorySystem, Description: "writing into Windows or a system folder",
		Suggestions: []string{"Write files inside the project directory"}},
	{ID: "win-registry-hive", Level: LevelCritical, Category: CategorySystem, Description: "deleting a registry hive or a service",
		Suggestions: []string{"Leave the registry alone", "Ask an administrator"}},
	{ID: "win-cert-keys-deleted", Level: LevelCritical, Category: CategoryFileDelete, Description: "deleting certificates together with their private keys (Remove-Item -DeleteKey): what they signed or unlocked cannot be used again",
		Suggestions: []string{"Export the certificate with its key (Export-PfxCertificate) first", "Remove one expired certificate by its thumbprint, without -DeleteKey"}},
	{ID: "win-reverse-shell", Level: LevelCritical, Category: CategoryReverseShell, Description: "a shell wired to a network connection",
		Suggestions: []string{"Do not open remote shells"}, names: names("powercat", "invoke-powershelltcp", "invoke-powershelltcponeline"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name != "powercat" {
				return true, ""
			}
			return hasSw(wargs(c), "e", "ep", "exec"), ""
		}},
	{ID: "win-fork-bomb", Level: LevelCritical, Category: CategoryForkBomb, Description: "a fork bomb: a script that keeps starting copies of itself",
		Suggestions: []string{"Start a bounded number of processes and wait for them"}},
	{ID: "win-exfil-secrets", Level: LevelCritical, Category: CategoryExfiltration, Description: "sending credentials or the environment over the network",
		Suggestions: []string{"Never send secrets off the machine"}},
	{ID: "win-exfil-userdata", Level: LevelCritical, Category: CategoryExfiltration, Description: "copying the user's own files (documents, desktop, pictures) to another machine, or anything of this one to a machine known only by its address",
		Suggestions: []string{"Back up to the user's own share or cloud drive, with their consent"}},
	{ID: "win-config-hijack", Level: LevelHigh, Category: CategoryPersistence, Description: "changing what a tool runs or installs from through its settings file",
		Suggestions: []string{"Pass the setting on the command line for this run only"}},
	{ID: "win-read-secrets", Level: LevelModerate, Category: CategoryExfiltration, Description: "printing private keys or credentials (they end up in the agent's context and logs)",
		Suggestions: []string{"Check that the file exists without printing it"}},
	{ID: "win-kill-all", Level: LevelHigh, Category: CategorySystem, Description: "killing every process",
		Suggestions: []string{"Stop only the process you started, by name or ID"}},
	{ID: "win-system-env", Level: LevelModerate, Category: CategorySystem, Description: "changing the machine-wide PATH or shell variables",
		Suggestions: []string{"Change the variable for this session only ($env:PATH)"}, names: names("setx"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			return hasSw(args, "m") && len(args) > 0 && (args[0] == "path" || args[0] == "comspec" || args[0] == "pathext" || args[0] == "psmodulepath"), ""
		}},
	{ID: "win-acl-everyone", Level: LevelHigh, Category: CategoryPermission, Description: "granting everyone full control",
		Suggestions: []string{"Grant access to the account that needs it"}},
	{ID: "win-elevated-shell", Level: LevelHigh, Category: CategoryPrivilege, Description: "opening an administrator shell",
		Suggestions: []string{"Ask the user to run the command as administrator"}, names: names("runas"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			u, _ := swVal(args, "user", "u")
			return strings.Contains(u, "admin") || strings.Contains(u, "system") || hasSw(args, "trustlevel") || anyContains(args, "cmd", "powershell", "pwsh"), u
		}},
	{ID: "win-diskpart", Level: LevelCritical, Category: CategoryDiskWipe, Description: "diskpart erasing or repartitioning a disk",
		Suggestions: []string{"Let the user manage disks"}},
	{ID: "win-diskpart-piped", Level: LevelCritical, Category: CategoryDiskWipe, Description: "diskpart reading commands that erase or repartition a disk from a pipe",
		Suggestions: []string{"Let the user manage disks"}, names: names("diskpart"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// printf 'select disk 1\nclean\n' | diskpart, from Git Bash
			if c.in.kind != flowText || diskpartReadOnly(c.in.text) {
				return c.in.kind == flowRemote || c.in.kind == flowUnknown && c.pipe != nil, "diskpart script"
			}
			return true, strings.TrimSpace(strings.ReplaceAll(c.in.text, "\n", "; "))
		}},

	// --- by command ---
	{ID: "win-format", Level: LevelCritical, Category: CategoryDiskWipe, Description: "formatting or erasing a drive",
		Suggestions: []string{"Let the user manage disks"},
		names:       names("format", "format-volume", "clear-disk", "remove-partition", "initialize-disk", "reset-physicaldisk", "remove-physicaldisk", "set-disk"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if c.name != "format" && pipedVirtualDisk(a, c) {
				return false, "" // a virtual disk made from a file in the project
			}
			switch c.name {
			case "format":
				for _, s := range args {
					if len(s) == 2 && s[1] == ':' || len(s) == 3 && s[1] == ':' {
						return true, s
					}
				}
				return false, ""
			case "set-disk":
				v, ok := psFlag(args, "isoffline", 3)
				return psTrue(v, ok), ""
			}
			return !hasSw(args, "whatif"), ""
		}},
	{ID: "win-wipe-free-space", Level: LevelModerate, Category: CategoryDiskWipe, Description: "wiping a disk's free space or securely deleting files",
		Suggestions: []string{"Delete files normally"}, names: names("cipher", "sdelete", "sdelete64"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "cipher" {
				return hasSw(wargs(c), "w"), ""
			}
			// sdelete of named files inside the project (a scratch fixture
			// shredded) passes; free space (-z, -c), a drive, a folder
			// tree (-s) or files elsewhere do not
			w := wargs(c)
			if hasSw(w, "z") || hasSw(w, "c") || hasSw(w, "s") || hasSw(w, "r") {
				return true, ""
			}
			files := 0
			for _, op := range c.operands() {
				p := a.winAbs(op.s)
				if p == "" || !a.inWork(p) || strings.ContainsAny(op.s, "*?") {
					return true, ""
				}
				files++
			}
			return files == 0, ""
		}},
	{ID: "win-backup-delete", Level: LevelHigh, Category: CategorySystem, Description: "deleting shadow copies, backups or recovery (what ransomware does first)",
		Suggestions: []string{"Leave backups and restore points alone"}, names: names("vssadmin", "wbadmin", "wmic", "bcdedit", "remove-wmiobject", "remove-ciminstance", "disable-computerrestore", "delete-computerrestorepoint", "fhmanagew"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "fhmanagew":
				// -cleanup 0: every File History version older than today
				for i, w := range args {
					if (w == "-cleanup" || w == "/cleanup") && i+1 < len(args) && (args[i+1] == "0" || args[i+1] == "1") {
						return true, "File History versions deleted (fhmanagew -cleanup " + args[i+1] + ")"
					}
				}
				return false, ""
			case "vssadmin":
				return len(args) > 0 && (args[0] == "delete" || args[0] == "resize"), j
			case "wbadmin":
				return len(args) > 0 && (args[0] == "delete" || args[0] == "disable"), j
			case "wmic":
				return strings.Contains(j, "shadowcopy") && strings.Contains(j, "delete") ||
					strings.Contains(j, "systemrestore") && strings.Contains(j, "disable"), j
			case "bcdedit":
				return strings.Contains(j, "recoveryenabled") && strings.Contains(j, "no") || strings.Contains(j, "bootstatuspolicy") && strings.Contains(j, "ignore"), j
			case "remove-wmiobject", "remove-ciminstance":
				if strings.Contains(j, "shadowcopy") {
					return true, j
				}
				// Get-CimInstance Win32_ShadowCopy | ... | Remove-CimInstance:
				// the shadow copies listed earlier in the pipeline
				for _, s := range c.pipe[:min(c.stage, len(c.pipe))] {
					if s != nil && (s.name == "get-ciminstance" || s.name == "get-wmiobject") && strings.Contains(strings.ToLower(joinWords(s.args())), "shadowcopy") {
						return true, "shadow copies listed by " + s.base + ", removed"
					}
				}
				return false, ""
			}
			return true, ""
		}},
	{ID: "win-boot-config", Level: LevelHigh, Category: CategorySystem, Description: "changing or deleting boot configuration",
		Suggestions: []string{"Leave boot configuration to an administrator"}, names: names("bcdedit", "bcdboot", "bootsect"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name != "bcdedit" {
				return true, ""
			}
			args := wargs(c)
			j := strings.ToLower(strings.Join(args, " "))
			// the hypervisor switched on for WSL 2 and Docker is routine
			return hasSw(args, "delete", "set", "deletevalue", "import", "default", "bootsequence", "createstore") && !strings.Contains(j, "recoveryenabled") &&
				!strings.Contains(j, "hypervisorlaunchtype auto"), ""
		}},
	{ID: "win-vm-power-production", prodAware: true, Level: LevelHigh, Category: CategorySystem, Description: "turning off, restarting or pausing production virtual machines",
		Suggestions: []string{"Leave production machines to their operators", "Act on a test machine by its name"}, names: names("stop-vm", "restart-vm", "suspend-vm", "save-vm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if hasSw(wargs(c), "whatif") {
				return false, ""
			}
			return touchesProduction(c) || lineNamesProduction(a.src), ""
		}},
	{ID: "win-shutdown", Level: LevelHigh, Category: CategorySystem, Description: "shutting down or restarting the machine",
		Suggestions: []string{"Ask the user to restart when convenient"}, names: names("stop-computer", "restart-computer"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if m, ok := swVal(args, "computername"); ok && !strings.Contains(m, ",") && !isLocalHost(m) && m != "." && !strings.Contains(m, "localhost") && scratchName(m) && !isProdName(m) {
				return false, "" // a development or test machine, named
			}
			return !hasSw(args, "whatif"), ""
		}},
	{ID: "win-kill-critical", Level: LevelCritical, Category: CategorySystem, Description: "killing a process Windows needs (the machine crashes)",
		Suggestions: []string{"Stop only the process you started"}, names: names("taskkill", "stop-process", "tskill", "pskill", "wmic"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if c.name == "wmic" {
				j := strings.Join(args, " ")
				if !strings.Contains(j, "delete") && !strings.Contains(j, "terminate") {
					return false, ""
				}
				for p := range criticalProcs {
					if criticalProcs[p] && strings.Contains(j, p+".exe") {
						return true, p
					}
				}
				return false, ""
			}
			for _, s := range args {
				for _, part := range strings.Split(s, ",") {
					p := strings.TrimSuffix(strings.Trim(part, `"'`), ".exe")
					if criticalProcs[p] {
						return true, p
					}
				}
			}
			if c.name == "taskkill" {
				if v, _ := swVal(args, "pid"); v == "4" || v == "0" {
					return true, "pid " + v
				}
			}
			if c.name == "stop-process" {
				if v, ok := psFlag(args, "id", 2); ok && (v == "4" || v == "0") {
					return true, "the System process"
				}
			}
			return false, ""
		}},
	{ID: "win-kill-everything", Level: LevelHigh, Category: CategorySystem, Description: "killing every process",
		Suggestions: []string{"Stop only the process you started"}, names: names("taskkill", "stop-process", "wmic"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if c.name == "wmic" {
				return wmicKillsAll(args), strings.Join(args, " ")
			}
			if c.name == "taskkill" {
				v, _ := swVal(args, "im")
				if v == "*" || v == "*.exe" {
					return true, v
				}
				f, _ := swVal(args, "fi")
				// PID ge 1, PID gt 4: a filter every process passes
				return strings.Contains(f, "ne ") && strings.Contains(f, "imagename") || strings.Contains(f, "pid ge") || strings.Contains(f, "pid gt"), f
			}
			for _, s := range args {
				if s == "*" {
					return true, "*"
				}
			}
			return false, ""
		}},
	{ID: "win-security-service", Level: LevelHigh, Category: CategorySystem, Description: "stopping or disabling a security, update or backup service",
		Suggestions: []string{"Leave security services running"},
		names:       names("sc", "net", "net1", "stop-service", "set-service", "remove-service", "suspend-service", "wmic", "fltmc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			var svc string
			switch c.name {
			case "fltmc":
				// a file-system filter unloaded or detached: what it
				// watched (antivirus, Sysmon, backup) sees nothing more
				if len(args) >= 2 && (args[0] == "unload" || args[0] == "detach") {
					return true, strings.Join(args, " ")
				}
				return false, ""
			case "wmic":
				// wmic service where "name='WinDefend'" call ChangeStartMode Disabled
				j := strings.Join(args, " ")
				if len(args) == 0 || args[0] != "service" || !(strings.Contains(j, "changestartmode") && strings.Contains(j, "disabled") || strings.Contains(j, "stopservice") || strings.Contains(j, "call delete")) {
					return false, ""
				}
				for _, m := range wmiServiceName.FindAllStringSubmatch(j, -1) {
					if securityServices[m[1]] && m[1] != "eventlog" {
						return true, m[1]
					}
				}
				return false, ""
			case "sc":
				if len(args) >= 2 && (args[0] == "stop" || args[0] == "delete" || args[0] == "config" && anyContains(args, "disabled")) {
					svc = args[1]
				}
			case "net", "net1":
				if len(args) >= 2 && args[0] == "stop" {
					svc = args[1]
				}
			case "set-service":
				if !anyContains(args, "disabled", "stopped") {
					return false, ""
				}
				fallthrough
			default:
				for i, s := range args {
					if !strings.HasPrefix(s, "-") && (i == 0 || !strings.HasPrefix(args[i-1], "-st") && !strings.HasPrefix(args[i-1], "-status")) {
						svc = s
						break
					}
					if strings.HasPrefix(s, "-n") && i+1 < len(args) {
						svc = args[i+1]
						break
					}
				}
			}
			svc = strings.Trim(svc, `"'`)
			for _, s := range strings.Split(svc, ",") {
				if securityServices[strings.TrimSpace(s)] && s != "eventlog" {
					return true, s
				}
			}
			// display names: "Windows Defender Antivirus Service"
			for _, k := range [...]string{"defender", "antivirus", "firewall", "security center", "windows update", "threat protection", "backup"} {
				if strings.Contains(svc, k) {
					return true, svc
				}
			}
			return false, ""
		}},
	{ID: "win-remote-service-stopped", Level: LevelHigh, Category: CategorySystem, Description: "stopping, disabling or deleting a service on another machine (sc \\\\host, -ComputerName)",
		Suggestions: []string{"Change other machines' services through their owners' tooling", "Query it first: sc \\\\host query NAME"},
		names:       names("sc", "stop-service", "set-service", "get-service"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if c.name == "sc" {
				// (sc \\host ...: the front end takes the host off and
				// marks the command remote)
				if c.remote && len(args) >= 2 {
					switch args[0] {
					case "stop", "delete", "pause":
						return true, "sc \\\\… " + strings.Join(args[:2], " ")
					case "config":
						if anyContains(args, "disabled") {
							return true, "sc \\\\… " + strings.Join(args[:2], " ")
						}
					}
				}
				return false, ""
			}
			host, ok := swVal(args, "computername")
			if !ok || host == "" || host == "." || host == "localhost" || strings.EqualFold(host, "$env:computername") {
				return false, ""
			}
			switch c.name {
			case "stop-service":
				return true, "Stop-Service on " + host
			case "set-service":
				return anyContains(args, "disabled", "stopped"), "Set-Service on " + host
			}
			return false, ""
		}},
	{ID: "win-remote-process", Level: LevelHigh, Category: CategoryRemoteExec, Description: "starting a process on another Windows machine through WMI (wmic /node: process call create)",
		Suggestions: []string{"Run the command on that machine through its own management, where it is logged and reviewed", "Spell the command out instead of encoding it"},
		names:       names("wmic"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			host, ok := swVal(args, "node")
			if !ok || host == "" || host == "." || host == "localhost" || host == "127.0.0.1" || strings.EqualFold(host, "%computername%") {
				return false, ""
			}
			for i := 0; i+2 < len(args); i++ {
				if args[i] == "process" && args[i+1] == "call" && args[i+2] == "create" {
					return true, "wmic /node:" + host + " process call create"
				}
			}
			return false, ""
		}},
	{ID: "win-privilege-right-granted", Level: LevelHigh, Category: CategoryPrivilege, Description: "granting an account a privilege that reaches every process or file (SeDebug, SeTcb, SeBackup, SeRestore, SeTakeOwnership, SeLoadDriver, SeImpersonate)",
		Suggestions: []string{"Grant the narrowest right the service needs", "Leave user rights assignment to the domain's policy"},
		names:       names("grant-cprivilege", "grant-privilege", "ntrights", "add-localgrouppolicyright", "grant-userright", "set-userrightsassignment"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if c.name == "ntrights" && !anyContains(args, "+r") {
				return false, ""
			}
			for _, w := range args {
				for _, p := range [...]string{"sedebugprivilege", "setcbprivilege", "sebackupprivilege", "serestoreprivilege", "setakeownershipprivilege",
					"seloaddriverprivilege", "seimpersonateprivilege", "seassignprimarytokenprivilege", "secreatetokenprivilege", "semanagevolumeprivilege"} {
					if strings.Contains(w, p) {
						return true, p
					}
				}
			}
			return false, ""
		}},
	{ID: "win-secret-stored-machine-wide", Level: LevelHigh, Category: CategoryExfiltration, Description: "storing a secret in a machine-wide environment variable (readable by every user and process, kept in the registry in clear)",
		Suggestions: []string{"Keep the secret in a vault or the Credential Manager", "Set it for the one process that needs it"},
		names:       names("setx"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if !hasSw(args, "m") || len(args) < 2 {
				return false, ""
			}
			name, val := strings.ToUpper(strings.Trim(args[0], `"'`)), strings.Trim(args[1], `"'`)
			if secretVarName(name) && val != "" && !strings.ContainsAny(val, "%$") {
				return true, "setx " + name + " /M"
			}
			return false, ""
		}},
	{ID: "win-remote-admin-on", Level: LevelHigh, Category: CategorySystem, Description: "turning on remote administration of the machine (the remote registry, telnet) or switching exploit mitigations off for the whole system",
		Suggestions: []string{"Leave remote administration to the user's IT"}, names: names("set-service", "start-service", "sc", "set-processmitigation"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if c.name == "set-processmitigation" {
				return strings.Contains(j, "-system") && strings.Contains(j, "-disable"), j
			}
			if !strings.Contains(j, "remoteregistry") && !strings.Contains(j, "tlntsvr") {
				return false, ""
			}
			switch c.name {
			case "start-service":
				return true, j
			case "set-service":
				return strings.Contains(j, "automatic") || strings.Contains(j, "manual") || strings.Contains(j, "running"), j
			case "sc":
				return len(args) > 0 && (args[0] == "start" || args[0] == "config" && (strings.Contains(j, "auto") || strings.Contains(j, "demand"))), j
			}
			return false, ""
		}},
	{ID: "win-eventlog-service", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "stopping the event log service",
		Suggestions: []string{"Leave logging running"}, names: names("sc", "net", "net1", "stop-service", "set-service"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			return strings.Contains(j, "eventlog") && (strings.Contains(j, "stop") || strings.Contains(j, "disabled") || c.name == "stop-service"), ""
		}},
	{ID: "win-log-clear", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "clearing or disabling event logs, auditing or history",
		Suggestions: []string{"Leave logs and history untouched"},
		names:       names("wevtutil", "clear-eventlog", "remove-eventlog", "limit-eventlog", "auditpol", "fsutil", "set-psreadlineoption", "clear-winevent", "wmic"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "wmic":
				// wmic nteventlog where ... call ClearEventlog
				return slices.Contains(args, "nteventlog") && strings.Contains(j, "cleareventlog"), j
			case "wevtutil":
				if len(args) < 2 || !winSystemEventLog(args[1]) && (len(c.args()) < 2 || c.args()[1].ok) {
					return false, "" // the project's own log
				}
				return args[0] == "cl" || args[0] == "clear-log" ||
					(args[0] == "sl" || args[0] == "set-log") && (strings.Contains(j, "/e:false") || strings.Contains(j, "/enabled:false") || winLogShrunk(args)), j
			case "auditpol":
				return hasSw(args, "clear", "remove") || strings.Contains(j, ":disable"), j
			case "fsutil":
				return strings.Contains(j, "usn") && strings.Contains(j, "deletejournal"), j
			case "set-psreadlineoption":
				return strings.Contains(j, "savenothing") || psHistoryDiscarded(args), j
			case "limit-eventlog":
				return strings.Contains(j, "overwriteolder") || strings.Contains(j, "maximumsize"), j
			case "clear-eventlog", "remove-eventlog":
				if c.name == "remove-eventlog" && hasSw(args, "source") && !hasSw(args, "logname", "log") {
					return false, "" // an application's event source unregistered; the log stays
				}
				for i, w := range c.args() {
					if !w.ok {
						return true, j
					}
					if l := args[i]; !strings.HasPrefix(l, "-") && (i == 0 || args[i-1] == "-logname" || args[i-1] == "-log") {
						for _, n := range strings.Split(l, ",") {
							if winSystemEventLog(n) {
								return true, j
							}
						}
						return false, "" // the project's own log
					}
				}
			}
			return true, j
		}},
	{ID: "win-delete-cache-root", Level: LevelModerate, Category: CategoryFileDelete, Description: "deleting a whole cache or the temporary folder of the profile (every tool's files, open ones included)",
		Suggestions: []string{"Delete the one tool's cache you mean", "Use the tool's own cleanup (dotnet nuget locals, npm cache clean)"}},
	{ID: "win-delete-project", Level: LevelModerate, Category: CategoryFileDelete, Description: "deleting the project's sources, data or secrets (not build output)",
		Suggestions: []string{"Delete only build output", "Commit or stash first"}},
	{ID: "win-delete-git", Level: LevelModerate, Category: CategoryGitDestroy, Description: "deleting the repository's history (.git)",
		Suggestions: []string{"Keep .git; use git commands to undo changes"}},
	{ID: "win-truncate", Level: LevelModerate, Category: CategoryFileDelete, Description: "emptying a project file",
		Suggestions: []string{"Edit the file instead of emptying it"}},
	{ID: "win-execution-policy", Level: LevelHigh, Category: CategoryPrivilege, Description: "letting every script run on the machine (execution policy)",
		Suggestions: []string{"Use -Scope Process for this session only"}},
	{ID: "win-cloud-bulk-change", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "removing, wiping, retiring or disabling every object a cloud or directory listing printed (Get-X -All | ForEach-Object { Remove-X ... })",
		Suggestions: []string{"Filter the listing to the objects you mean and review it first", "Run the change with -WhatIf"}},
	{ID: "win-production-objects-removed", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "removing what a listing of a production machine's objects printed (its checkpoints, snapshots, disks)",
		Suggestions: []string{"Remove one named object after checking it", "Let the machine's owner prune production"}},
	{ID: "win-cloud-delete", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting cloud infrastructure from PowerShell",
		Suggestions: []string{"Delete cloud resources through reviewed infrastructure code"}},
	{ID: "win-password-policy", Level: LevelHigh, Category: CategoryPrivilege, Description: "weakening the password or lockout policy",
		Suggestions: []string{"Leave account policy to an administrator"}, names: names("net", "net1", "set-addefaultdomainpasswordpolicy"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if c.name == "net" || c.name == "net1" {
				return len(args) > 1 && args[0] == "accounts" && (strings.Contains(j, "minpwlen:0") || strings.Contains(j, "maxpwage:unlimited") || strings.Contains(j, "lockoutthreshold:0")), j
			}
			return true, j
		}},
	{ID: "win-shutdown-exe", Level: LevelHigh, Category: CategorySystem, Description: "shutting down, restarting or logging off the machine",
		Suggestions: []string{"Ask the user to restart when convenient"}, names: names("shutdown.exe"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			for i, w := range args {
				if (w == "/m" || w == "-m") && i+1 < len(args) && strings.HasPrefix(args[i+1], `\\`) && throwawayName(strings.TrimPrefix(args[i+1], `\\`)) {
					return false, "" // shutdown /r /m \\LAB-TEST-01: a test machine restarted
				}
			}
			return hasSw(args, "s", "r", "p", "h", "l", "g", "sg", "hybrid", "o") && !hasSw(args, "a", "?"), ""
		}},
	{ID: "win-startup-copy", Level: LevelHigh, Category: CategoryPersistence, Description: "putting a program in the Startup folder",
		Suggestions: []string{"Show the change and let the user apply it"}, names: names("cp", "mv", "install", "ln", "tee", "cmd:copy", "cmd:xcopy", "cmd:move", "robocopy"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				if l := strings.ToLower(w.s); strings.Contains(l, "start menu/programs/startup") || strings.Contains(l, `start menu\programs\startup`) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "win-defender-disable", Level: LevelHigh, Category: CategorySystem, Description: "disabling or blinding antivirus (Defender)",
		Suggestions: []string{"Leave antivirus on; ask the user to add a narrow exclusion"},
		names: names("set-mppreference", "add-mppreference", "remove-mppreference", "mpcmdrun", "uninstall-windowsfeature", "remove-windowsfeature", "disable-windowsoptionalfeature", "reg", "set-itemproperty", "new-itemproperty",
			"new-netfirewallrule", "set-netfirewallrule", "netsh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "new-netfirewallrule", "set-netfirewallrule", "netsh":
				// a block rule on the security agent's program cuts it off
				// from its console and its signature updates
				block := strings.Contains(j, "-action block") || strings.Contains(j, "action=block")
				return block && securityAgentProgram(j), j
			case "set-mppreference":
				for i, s := range args {
					if i+1 < len(args) && (strings.HasPrefix(s, "-enable") || strings.HasSuffix(s, "_actions") || strings.HasSuffix(s, "threatdefaultaction") || s == "-puaprotection") {
						// -EnableControlledFolderAccess Disabled,
						// -AttackSurfaceReductionRules_Actions Disabled
						switch strings.Trim(args[i+1], `"'`) {
						case "allow", "6", "noaction", "9":
							// -ThreatIDDefaultAction_Actions Allow: a
							// detected threat let through
							if strings.HasSuffix(s, "_actions") || strings.HasSuffix(s, "threatdefaultaction") {
								// (-SevereThreatDefaultAction Allow: every
								// threat of that severity let through)
								return true, s + " " + args[i+1]
							}
						case "disabled", "0", "$false", "false", "auditmode", "2":
							if s != "-enablecontrolledfolderaccess" || args[i+1] != "2" {
								return true, s + " " + args[i+1]
							}
						}
					}
					if strings.HasPrefix(s, "-disable") {
						v := "$true"
						if k, val, ok := strings.Cut(s, ":"); ok {
							_ = k
							v = val
						} else if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
							v = args[i+1]
						}
						if psTrue(v, true) {
							return true, s
						}
					}
					if strings.HasPrefix(s, "-exclusion") {
						return true, s
					}
				}
				// Set-MpPreference @h with the switches named elsewhere on
				// the line ($h[$_]=$true for each of 'DisableRealtime...')
				if src := a.srcLow(); strings.Contains(src, "set-mppreference @") {
					for _, sw := range [...]string{"disablerealtimemonitoring", "disablebehaviormonitoring", "disableioavprotection", "disablescriptscanning",
						"disableblockatfirstseen", "disableintrusionpreventionsystem", "disablearchivescanning"} {
						if strings.Contains(src, sw) {
							return true, "@splat of " + sw
						}
					}
				}
				// cloud protection and sample submission off: new threats
				// go unrecognised
				return strings.Contains(j, "-mapsreporting 0") || strings.Contains(j, "-mapsreporting disabled") || strings.Contains(j, "submitsamplesconsent 2") ||
					strings.Contains(j, "submitsamplesconsent neversend") || strings.Contains(j, "-cloudblocklevel 0"), j
			case "add-mppreference":
				// exclusions, or attack surface reduction rules added as
				// disabled or audit only
				return strings.Contains(j, "-exclusion") || strings.Contains(j, "_actions disabled") || strings.Contains(j, "_actions 0") ||
					strings.Contains(j, "_actions auditmode"), j
			case "remove-mppreference":
				// attack surface reduction rules or threat actions removed
				return strings.Contains(j, "-attacksurfacereductionrules") || strings.Contains(j, "-threatiddefaultaction"), j
			case "mpcmdrun":
				return strings.Contains(j, "removedefinitions"), j
			case "reg", "set-itemproperty", "new-itemproperty":
				return regRule(regDefender)(a, c)
			}
			return strings.Contains(j, "defender"), j
		}},
	{ID: "win-firewall-off", Level: LevelHigh, Category: CategorySystem, Description: "turning the firewall off",
		Suggestions: []string{"Add a narrow rule for the port that needs it"}, names: names("netsh", "set-netfirewallprofile", "disable-netfirewallrule", "set-ciminstance"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "set-ciminstance":
				// Get-CimInstance ... MSFT_NetFirewallProfile |
				// Set-CimInstance -Property @{ Enabled = 0 }
				prev := prevStage(c)
				if prev == nil || !strings.Contains(strings.Join(wargs(prev), " "), "msft_netfirewallprofile") {
					return false, ""
				}
				k := strings.ReplaceAll(j, " ", "")
				return strings.Contains(k, "enabled=0") || strings.Contains(k, "enabled=false") || strings.Contains(k, "enabled=$false"), j
			case "netsh":
				return strings.Contains(j, "state off") || strings.Contains(j, "opmode disable") || strings.Contains(j, "opmode mode=disable") || strings.Contains(j, "advfirewall reset") ||
					strings.Contains(j, "firewallpolicy") && strings.Contains(j, "blockoutbound") && strings.Contains(j, "allprofiles"), j // every connection out cut
			case "set-netfirewallprofile":
				v, ok := psFlag(args, "enabled", 2)
				return ok && (v == "false" || v == "$false" || v == "0"), j
			}
			return strings.Contains(j, "*") || !strings.Contains(j, "-name"), j
		}},
	{ID: "win-firewall-inbound", Level: LevelHigh, Category: CategorySystem, Description: "letting every host reach this machine through the firewall",
		Suggestions: []string{"Limit the rule to 127.0.0.1, the local subnet or the Private profile"},
		names:       names("netsh", "new-netfirewallrule", "set-netfirewallrule", "set-netfirewallprofile"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "netsh":
				if strings.Contains(j, "firewallpolicy") && strings.Contains(j, "allowinbound") {
					return true, j
				}
				if !strings.Contains(j, "firewall") || !strings.Contains(j, "rule") || !strings.Contains(j, "dir=in") || !strings.Contains(j, "action=allow") {
					return false, ""
				}
				kv := map[string]string{}
				for _, s := range args {
					if k, v, ok := strings.Cut(s, "="); ok {
						kv[k] = v
					}
				}
				return firewallOpened(kv["remoteip"], kv["localip"], kv["profile"], kv["localport"]), j
			case "set-netfirewallprofile":
				v, ok := psFlag(args, "defaultinboundaction", 8)
				return ok && v == "allow", j
			}
			if d, _ := psFlag(args, "direction", 3); d != "inbound" && d != "in" {
				return false, ""
			}
			if v, _ := psFlag(args, "action", 2); v != "allow" {
				return false, ""
			}
			ra, _ := psFlag(args, "remoteaddress", 7)
			la, _ := psFlag(args, "localaddress", 6)
			pr, _ := psFlag(args, "profile", 3)
			lp, _ := psFlag(args, "localport", 6)
			return firewallOpened(ra, la, pr, lp), j
		}},
	{ID: "win-network-down", Level: LevelHigh, Category: CategorySystem, Description: "taking a network adapter down",
		Suggestions: []string{"Leave the network up"}, names: names("netsh", "disable-netadapter", "remove-netipaddress"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(wargs(c), " ")
			if c.name == "netsh" {
				return strings.Contains(j, "interface") && (strings.Contains(j, "disable") || strings.Contains(j, "admin=disabled")), j
			}
			return true, j
		}},
	{ID: "win-acl-grant-system", Level: LevelCritical, Category: CategoryPermission, Description: "granting everyone access to, or taking over, a drive, Windows or a profile",
		Suggestions: []string{"Change permissions only inside the project"}, names: names("icacls", "cacls", "takeown", "set-acl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			lvl, note := aclFinding(a, c)
			return lvl == LevelCritical, note
		}},
	{ID: "win-acl-grant", Level: LevelHigh, Category: CategoryPermission, Description: "granting everyone access to files, or taking ownership outside the project",
		Suggestions: []string{"Grant access to the account that needs it, inside the project"}, names: names("icacls", "cacls", "takeown", "set-acl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			lvl, note := aclFinding(a, c)
			return lvl == LevelHigh, note
		}},
	{ID: "win-service-acl-open", Level: LevelHigh, Category: CategoryPermission, Description: "letting everyone reconfigure a service (whoever changes its program runs as the service's account)",
		Suggestions: []string{"Leave services' security descriptors as Windows set them"}, names: names("sc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			raw := c.args()
			if len(raw) < 3 || !strings.EqualFold(raw[0].s, "sdset") {
				return false, ""
			}
			for _, m := range sddlOpenACE.FindAllStringSubmatch(strings.ToUpper(raw[2].s), -1) {
				for i := 0; i+1 < len(m[1]); i += 2 {
					switch m[1][i : i+2] {
					case "DC", "WD", "WO", "GA", "GW":
						return true, raw[1].s + " " + m[0]
					}
				}
			}
			return false, ""
		}},
	{ID: "win-share-everyone", Level: LevelHigh, Category: CategoryPermission, Description: "sharing a folder with everyone",
		Suggestions: []string{"Share with named accounts only"}, names: names("net", "net1", "new-smbshare", "grant-smbshareaccess"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			// (Authenticated Users and Domain Users: every account of the
			// organisation, everyone by another name)
			all := strings.Contains(j, "everyone") || strings.Contains(j, "authenticated users") || strings.Contains(j, "domain users")
			if c.name == "net" || c.name == "net1" {
				return len(args) > 1 && args[0] == "share" && all, j
			}
			return all, j
		}},
	{ID: "win-admin-group", Level: LevelHigh, Category: CategoryPrivilege, Description: "adding an account to an administrator or remote access group",
		Suggestions: []string{"Ask an administrator to grant the access"}, names: names("net", "net1", "add-localgroupmember", "add-adgroupmember", "add-iamusertogroup", "new-azroleassignment"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			// docker-users and Hyper-V Administrators run containers and
			// machines with the host's rights: administrators by another name
			admin := strings.Contains(j, "administrators") || strings.Contains(j, "admins") || strings.Contains(j, "remote desktop users") ||
				strings.Contains(j, "remote management users") || strings.Contains(j, "backup operators") || strings.Contains(j, "s-1-5-32-544") ||
				strings.Contains(j, "docker-users") || strings.Contains(j, "hyper-v administrators") || strings.Contains(j, "dnsadmins") ||
				strings.Contains(j, "server operators") || strings.Contains(j, "account operators")
			if c.name == "net" || c.name == "net1" {
				// net group "LIMS_Approvers" dev /add /domain: any domain
				// group's rights (approvers, share owners) handed out
				domainGroup := args[0] == "group" && hasSw(args, "domain")
				return len(args) > 2 && (args[0] == "localgroup" || args[0] == "group") && (admin || domainGroup) && hasSw(args, "add"), j
			}
			if m, ok := swVal(args, "members"); c.name == "add-adgroupmember" && ok && hasAny(strings.Trim(m, `'"`), "domain users", "authenticated users", "everyone") {
				// -Members 'Domain Users': every account given the group's rights
				return true, j
			}
			if c.name == "new-azroleassignment" {
				// Owner and User Access Administrator hand out every right
				return strings.Contains(j, "owner") || strings.Contains(j, "user access administrator"), j
			}
			return admin, j
		}},
	{ID: "win-admin-enable", Level: LevelHigh, Category: CategoryPrivilege, Description: "enabling the built-in Administrator or Guest account",
		Suggestions: []string{"Leave built-in accounts disabled"}, names: names("net", "net1", "enable-localuser", "wmic"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if c.name == "enable-localuser" {
				return strings.Contains(j, "administrator") || strings.Contains(j, "guest"), j
			}
			if c.name == "wmic" {
				return strings.Contains(j, "useraccount") && strings.Contains(j, "disabled=false"), j
			}
			return len(args) > 1 && args[0] == "user" && strings.Contains(j, "/active:yes"), j
		}},
	{ID: "win-user-password", Level: LevelHigh, Category: CategoryPrivilege, Description: "changing an account's password",
		Suggestions: []string{"Let the account's owner change the password"}, names: names("net", "net1", "set-localuser", "set-adaccountpassword"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if c.name == "net" || c.name == "net1" {
				if len(args) < 3 || args[0] != "user" || hasSw(args, "add", "delete", "del", "domain") && !hasSw(args, "domain") {
					return false, ""
				}
				pos := 0
				for _, s := range args[1:] {
					if !strings.HasPrefix(s, "/") {
						pos++
					}
				}
				return pos >= 2, args[1]
			}
			_, ok := psFlag(args, "password", 2)
			return ok || c.name == "set-adaccountpassword", ""
		}},
	{ID: "win-user-create", Level: LevelModerate, Category: CategoryPrivilege, Description: "creating or deleting an account",
		Suggestions: []string{"Ask an administrator to manage accounts"}, names: names("net", "net1", "new-localuser", "remove-localuser", "new-aduser"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if c.name == "net" || c.name == "net1" {
				return len(args) > 1 && args[0] == "user" && hasSw(args, "add", "delete", "del"), strings.Join(args, " ")
			}
			if v, ok := swVal(args, "name"); ok && (scratchName(v) || ciRunName(v)) {
				return false, "" // a throwaway account for a test run
			}
			if c.name == "new-aduser" && psTrue(psFlag(args, "changepasswordatlogon", 7)) && strings.Contains(strings.Join(args, " "), "read-host") {
				// a joiner's domain account: its first password typed at
				// a prompt and changed at the first logon
				return false, ""
			}
			return true, ""
		}},
	{ID: "win-registry-autorun", Level: LevelHigh, Category: CategoryPersistence, Description: "making a program run at log-on or start-up through the registry",
		Suggestions: []string{"Show the change and let the user apply it"}, names: names("reg", "set-itemproperty", "new-itemproperty", "set-gpregistryvalue", "set-gpprefregistryvalue"),
		match: regRule(regAutorun)},
	{ID: "win-uac-disable", Level: LevelHigh, Category: CategoryPrivilege, Description: "disabling User Account Control",
		Suggestions: []string{"Leave UAC on"}, names: names("reg", "set-itemproperty", "new-itemproperty"), match: regRule(regUAC)},
	{ID: "win-lsa-weaken", Level: LevelHigh, Category: CategoryPrivilege, Description: "weakening credential protection (LSA, WDigest)",
		Suggestions: []string{"Leave credential protection on"}, names: names("reg", "set-itemproperty", "new-itemproperty"), match: regRule(regLSA)},
	{ID: "win-security-weaken", Level: LevelHigh, Category: CategorySystem, Description: "weakening the machine's security settings in the registry (its PowerShell execution policy, retired TLS or SSL versions)",
		Suggestions: []string{"Set the execution policy for the process only (-Scope Process)", "Leave the machine's TLS settings to an administrator"},
		names:       names("reg", "set-itemproperty", "new-itemproperty"), match: regRule(regSecurity)},
	{ID: "win-rdp-enable", Level: LevelModerate, Category: CategoryPrivilege, Description: "opening Remote Desktop to the machine",
		Suggestions: []string{"Ask the user to enable remote access"}, names: names("reg", "set-itemproperty", "new-itemproperty"), match: regRule(regRDP)},
	{ID: "win-registry-delete", Level: LevelCritical, Category: CategorySystem, Description: "deleting a registry hive, a service or system settings",
		Suggestions: []string{"Delete only the application's own key"}, names: names("reg", "remove-itemproperty", "remove-item"),
		match: func(a *analysis, c *cmd) (bool, string) {
			k, _, verb, ok := regTarget(c)
			if !ok || verb != "delete" {
				return false, ""
			}
			cl := c.regClass(k)
			if cl == regDefender && strings.HasPrefix(k, "hklm/software/policies/microsoft/windows/deviceguard") {
				// Remove-Item HKLM:\SOFTWARE\Policies\Microsoft\Windows\
				// DeviceGuard: the administrators' virtualization-based
				// security and Credential Guard policy, gone with its key
				// (a removed Defender policy may as well restore what it
				// switched off: not judged here)
				return true, k
			}
			if c.name == "reg" && (cl == regNone && winSettingsBranch(k) || coreSystemKey(k)) && !hasSw(wargs(c), "v", "ve", "va") {
				return true, k // the whole key, not one value of it
			}
			// reg delete …\Winlogon /v Userinit: the values log-on starts
			// the desktop with; without them nobody can log on
			if v, ok := swVal(wargs(c), "v"); c.name == "reg" && ok && strings.HasSuffix(k, "windows nt/currentversion/winlogon") {
				switch lower(strings.Trim(v, `"`)) {
				case "userinit", "shell":
					return true, k + " " + v
				}
			}
			return cl == regHive || cl == regCredHive || cl == regServices && strings.Count(k, "/") <= 5, k
		}},
	{ID: "win-cloud-admin-grant", Level: LevelHigh, Category: CategoryPrivilege, Description: "granting administrator rights or new credentials in a cloud account from PowerShell",
		Suggestions: []string{"Grant the narrowest role through reviewed infrastructure code"},
		names: names("register-iamuserpolicy", "register-iamrolepolicy", "register-iamgrouppolicy", "write-iamuserpolicy", "write-iamrolepolicy",
			"new-iamaccesskey", "new-mgapplicationpassword", "add-mgapplicationpassword", "new-mgserviceprincipalpassword", "add-mgserviceprincipalpassword",
			"new-azadappcredential", "new-azadspcredential", "new-azroleassignment", "new-mgdirectoryrolemember", "new-mgrolemanagementdirectoryroleassignment"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(wargs(c), " ")
			switch c.name {
			case "register-iamuserpolicy", "register-iamrolepolicy", "register-iamgrouppolicy":
				return strings.Contains(j, "administratoraccess") || strings.Contains(j, "iamfullaccess") || strings.Contains(j, "poweruseraccess"), j
			case "write-iamuserpolicy", "write-iamrolepolicy":
				return strings.Contains(j, `"action":"*"`) || strings.Contains(j, `"action": "*"`) || strings.Contains(j, "action = '*'"), j
			case "new-azroleassignment":
				return strings.Contains(j, "owner") || strings.Contains(j, "contributor") || strings.Contains(j, "user access administrator"), j
			}
			// a password or key added to an application or service
			// principal: a way in that outlives the session
			return true, c.base
		}},
	{ID: "win-cloud-complete-deploy", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "a complete-mode deployment (every resource the template does not name is deleted)",
		Suggestions: []string{"Deploy in incremental mode", "Run what-if first and review what would be deleted"},
		names:       names("new-azresourcegroupdeployment", "new-azdeployment", "az"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if c.name == "az" && !(strings.Contains(j, "deployment") && strings.Contains(j, " create")) {
				return false, ""
			}
			if hasSw(args, "whatif", "-what-if") || strings.Contains(j, "what-if") {
				return false, ""
			}
			return strings.Contains(j, "-mode complete") || strings.Contains(j, "--mode complete") || strings.Contains(j, "--mode=complete") || strings.Contains(j, "-mode:complete"), j
		}},
	{ID: "win-vm-destroy", Level: LevelHigh, Category: CategoryContainerDestroy, Description: "deleting virtual machines' disks or checkpoints, or powering off every virtual machine",
		Suggestions: []string{"Remove only the checkpoint you made", "Shut the one VM down from inside"},
		names:       names("remove-vmsnapshot", "remove-vmcheckpoint", "stop-vm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if c.name == "stop-vm" {
				// -TurnOff pulls the plug: what each VM had unsaved is lost
				if !hasSw(args, "turnoff") {
					return false, ""
				}
				for _, s := range c.pipe {
					if s != nil && s != c && s.name == "get-vm" && len(s.args()) == 0 {
						return true, "every virtual machine"
					}
				}
				return strings.Contains(j, "*"), j
			}
			// checkpoints are the VMs' restore points: every VM's, or
			// those of VMs picked by a wildcard
			if strings.Contains(j, "*") {
				return true, j
			}
			if len(c.pipe) > 0 && c.pipe[0] != nil && c.pipe[0] != c {
				// the pipeline's source picks the VMs
				if s := c.pipe[0]; s.name == "get-vm" || s.name == "get-vmsnapshot" || s.name == "get-vmcheckpoint" {
					if len(s.args()) == 0 || strings.Contains(strings.Join(wargs(s), " "), "*") {
						return true, "the checkpoints of every virtual machine"
					}
				}
			}
			return false, ""
		}},
	{ID: "win-time-or-arp", Level: LevelHigh, Category: CategorySystem, Description: "pointing the clock at another time source or pinning ARP entries (log-ons, certificates and traffic follow)",
		Suggestions: []string{"Leave time sync and the ARP table to the network's administrators"}, names: names("w32tm", "arp", "set-date"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "w32tm":
				return hasSw(args, "config") && (strings.Contains(j, "manualpeerlist") || strings.Contains(j, "syncfromflags:manual") || strings.Contains(j, "syncfromflags:no")), j
			case "arp":
				return hasSw(args, "s", "d"), j
			case "set-date":
				return !hasSw(args, "whatif"), j
			}
			return false, ""
		}},
	{ID: "win-session-logoff", Level: LevelModerate, Category: CategorySystem, Description: "logging off or resetting another session (its unsaved work is lost)",
		Suggestions: []string{"Ask the session's user to log off"}, names: names("logoff", "rwinsta", "reset", "tsdiscon"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if c.name == "reset" && (len(args) == 0 || args[0] != "session") {
				return false, ""
			}
			for _, w := range args {
				if w != "" && w[0] != '/' && w != "session" {
					return true, strings.Join(args, " ") // a session named: not this one
				}
			}
			return false, ""
		}},
	{ID: "win-attack-tool", Level: LevelHigh, Category: CategoryPrivilege, Description: "running a known privilege-escalation or token-theft tool",
		Suggestions: []string{"These tools exist to take rights the account does not have: leave them out of development work"},
		names: names("juicypotato", "juicypotatong", "roguepotato", "sweetpotato", "godpotato", "efspotato", "badpotato", "localpotato",
			"printspoofer", "printspoofer64", "rubeus", "kekeo", "incognito", "tokenvator", "sharpup", "invoke-privesccheck",
			"invoke-allchecks", "invoke-tokenmanipulation", "invoke-kerberoast", "krbrelayup", "certify", "whisker", "sharpgpoabuse"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// (a lab domain is where the tools are practised)
			for _, w := range wargs(c) {
				if _, v, ok := strings.Cut(w, ":"); ok && strings.HasPrefix(w, "/domain") && adLabTarget([]word{{s: v, ok: true}}) {
					return false, ""
				}
			}
			return true, c.base
		}},
	{ID: "win-user-right-grant", Level: LevelHigh, Category: CategoryPrivilege, Description: "granting a powerful user right (debug, impersonation, backup, driver loading) to a broad group",
		Suggestions: []string{"Leave user rights to the administrators"}, names: names("ntrights", "grant-userright", "add-userright"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(wargs(c), " ")
			if c.name == "ntrights" && !strings.Contains(j, "+r") {
				return false, "" // -r revokes
			}
			for _, r := range [...]string{"sedebugprivilege", "seimpersonateprivilege", "seassignprimarytokenprivilege", "setcbprivilege",
				"sebackupprivilege", "serestoreprivilege", "seloaddriverprivilege", "setakeownershipprivilege", "secreatetokenprivilege"} {
				if strings.Contains(j, r) {
					return true, r
				}
			}
			return false, ""
		}},
	{ID: "win-credential-dump", Level: LevelCritical, Category: CategoryExfiltration, Description: "dumping Windows credentials (SAM, LSASS, NTDS)",
		Suggestions: []string{"Never copy credential stores"},
		names:       names("reg", "procdump", "procdump64", "rundll32", "ntdsutil", "mimikatz", "invoke-mimikatz", "esentutl", "copy-item", "cmd:copy", "out-minidump", "sqldumper", "createdump", "comsvcs", "vaultcmd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "reg":
				if len(args) >= 2 && (args[0] == "save" || args[0] == "export") {
					k, _ := normRegKey(args[1])
					return k == "hklm/sam" || k == "hklm/security" || k == "hklm/system", k
				}
				return false, ""
			case "procdump", "procdump64", "sqldumper", "createdump", "out-minidump":
				return strings.Contains(j, "lsass"), j
			case "rundll32":
				return strings.Contains(j, "comsvcs") && strings.Contains(j, "minidump"), j
			case "ntdsutil":
				// an IFM copy or a snapshot of the directory's database
				// (activate instance ... files info only shows where it is)
				return strings.Contains(j, "ifm") || strings.Contains(j, "create full") || strings.Contains(j, "snapshot") ||
					(strings.Contains(j, "ac i ntds") || strings.Contains(j, "activate instance")) && !strings.Contains(j, "files info") && !strings.Contains(j, "file info"), j
			case "esentutl", "copy-item", "cmd:copy":
				// (the SYSTEM hive holds the key that decrypts SAM's hashes)
				return strings.Contains(j, "ntds.dit") || strings.Contains(j, `config\sam`) || strings.Contains(j, "config/sam") || strings.Contains(j, `config\security`) ||
					strings.Contains(j, "/vss") && (strings.Contains(j, `config\system`) || strings.Contains(j, "config/system")), j
			case "vaultcmd":
				// /listcreds alone names the entries and their users;
				// /all adds their properties
				return strings.Contains(j, "listcreds") && strings.Contains(j, "/all"), j
			}
			return true, j
		}},
	{ID: "win-scheduled-task-suspicious", Level: LevelHigh, Category: CategoryPersistence, Description: "scheduling a task that runs at log-on, as SYSTEM or from a temporary or hidden location",
		Suggestions: []string{"Run the job once now instead", "Let the user schedule it"}, names: names("schtasks", "register-scheduledtask", "new-scheduledtasktrigger", "at", "set-scheduledtask", "register-scheduledjob"),
		match: func(a *analysis, c *cmd) (bool, string) {
			lvl, note := taskFinding(c)
			return lvl == LevelHigh, note
		}},
	{ID: "win-scheduled-task", Level: LevelModerate, Category: CategoryPersistence, Description: "creating or deleting a scheduled task",
		Suggestions: []string{"Run the job once now instead", "Let the user schedule it"}, names: names("schtasks", "register-scheduledtask", "unregister-scheduledtask", "at", "set-scheduledtask", "register-scheduledjob"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "at" && c.in.kind != flowNone {
				return false, "" // POSIX at reading its job: judged as the job it runs
			}
			lvl, note := taskFinding(c)
			return lvl == LevelModerate, note
		}},
	{ID: "win-service-create", Level: LevelHigh, Category: CategoryPersistence, Description: "installing a service",
		Suggestions: []string{"Run the program directly", "Let the user install services"}, names: names("sc", "new-service"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if c.name == "sc" {
				// sc failure NAME actions= run/... command= PROG: the program
				// runs whenever the service fails
				if len(args) > 1 && args[0] == "create" && devServiceInProject(a, c) {
					return false, ""
				}
				return len(args) > 1 && (args[0] == "create" || args[0] == "config" && anyContains(args, "binpath") ||
					args[0] == "failure" && anyContains(args, "command=")), strings.Join(args, " ")
			}
			return true, ""
		}},
	{ID: "win-wmi-persistence", Level: LevelCritical, Category: CategoryPersistence, Description: "a WMI event subscription that runs a command",
		Suggestions: []string{"Do not register WMI event consumers"}, names: names("wmic", "set-wmiinstance", "new-ciminstance", "set-ciminstance", "register-wmievent", "register-cimindicationevent"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if c.name == "wmic" && wmicReadOnly(args) {
				return false, "" // listing the subscriptions registers none
			}
			return strings.Contains(j, "subscription") || strings.Contains(j, "commandlineeventconsumer") || strings.Contains(j, "__eventfilter") ||
				c.name == "register-wmievent" && strings.Contains(j, "-action"), j
		}},
	{ID: "win-lolbin-download", Level: LevelHigh, Category: CategoryRemoteExec, Description: "downloading or decoding an executable with a Windows system tool (a malware technique)",
		Suggestions: []string{"Download with Invoke-WebRequest or curl and check the file"}, names: names("certutil", "bitsadmin", "expand", "esentutl", "hh", "desktopimgdownldr", "mpcmdrun"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "desktopimgdownldr" {
				return anyContains(wargs(c), "://"), "desktopimgdownldr /lockscreenurl" // exists only to fetch a picture from a URL
			}
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "certutil":
				if hasSw(args, "urlcache", "verifyctl", "url") && hasURL(args) {
					return true, j
				}
				if hasSw(args, "decode", "decodehex") {
					for _, s := range args {
						for _, ext := range [...]string{".exe", ".dll", ".ps1", ".bat", ".cmd", ".vbs", ".js", ".hta", ".scr"} {
							if strings.HasSuffix(s, ext) {
								return true, j
							}
						}
					}
				}
				return false, ""
			case "bitsadmin":
				if n := len(args); n > 0 && hasSw(args, "transfer") && winDataFile(args[n-1]) {
					// a data set or an archive fetched to a file: what uses
					// it later is judged as using a download
					return false, ""
				}
				if hasSw(args, "transfer") && fromReleaseSite(c) {
					// nodejs.org's installer fetched by BITS: a release
					// site's own build (running it is judged apart)
					return false, ""
				}
				return hasSw(args, "transfer", "addfile", "create") && (hasURL(args) || hasSw(args, "transfer")), j
			case "mpcmdrun":
				// the antivirus's own downloader: what it fetches is trusted
				return hasSw(args, "downloadfile") && hasURL(args), j
			}
			return hasURL(args), j
		}},
	{ID: "win-lolbin-exec", Level: LevelCritical, Category: CategoryRemoteExec, Description: "running remote or script code through a Windows system binary (mshta, regsvr32, rundll32, msiexec)",
		Suggestions: []string{"Download the installer, check it, then run it"},
		names: names("mshta", "regsvr32", "rundll32", "msiexec", "bitsadmin", "cmstp", "installutil", "regasm", "regsvcs", "msxsl", "odbcconf", "pcalua", "wmic", "msbuild", "control",
			"xwizard", "wscript", "cscript"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "mshta":
				return len(args) > 0 && (hasURL(args) || anyContains(args, "vbscript:", "javascript:", "about:")), j
			case "regsvr32":
				return anyContains(args, "scrobj", "http:", "https:") || hasSw(args, "i") && hasURL(args), j
			case "rundll32":
				if rundllOpensPage(args) {
					return false, "" // a web page opened in the browser, as start URL does
				}
				// advpack/setupapi/ieadvpack install an INF from a share:
				// whatever it names runs
				return anyContains(args, "javascript:", "vbscript:", "runhtmlapplication", "http:", "https:") || len(args) > 0 && strings.HasPrefix(args[0], `\\`) ||
					anyContains(args, "launchinfsection", "installhinfsection", "registerocx") && (strings.Contains(j, `\\`) || strings.Contains(j, "http")), j
			case "msiexec":
				return hasURL(args), j
			case "bitsadmin":
				return hasSw(args, "setnotifycmdline"), j
			case "cmstp":
				return hasSw(args, "s", "au", "ns"), j
			case "installutil", "regasm", "regsvcs":
				return hasSw(args, "u") && anyContains(args, ".dll", ".exe") && (anyContains(args, "temp", "appdata", "public", "downloads") || hasURL(args)), j
			case "odbcconf":
				return anyContains(args, "regsvr"), j
			case "wmic":
				// /format: with a style sheet from a URL or a share runs
				// its script (/namespace:\\root\subscription is WMI's own)
				for _, s := range args {
					if i := strings.Index(s, "format:"); i >= 0 && hasURL([]string{s[i:]}) {
						return true, j
					}
				}
				return false, ""
			case "msbuild":
				return hasURL(args), j
			case "control":
				return anyContains(args, ".cpl") && anyContains(args, "temp", "appdata", "downloads", `\\`), j
			case "wscript", "cscript":
				// a script taken from another machine's share or a URL,
				// whatever its extension: //E: names the engine
				for _, s := range args {
					if strings.HasPrefix(s, `\\`) || strings.Contains(s, "://") {
						return true, s
					}
				}
				return false, ""
			}
			return hasURL(args), j
		}},
	{ID: "win-mshta-local", Level: LevelHigh, Category: CategoryRemoteExec, Description: "running an HTML application or script host file",
		Suggestions: []string{"Read the script before running it"}, names: names("mshta", "wscript", "cscript"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if c.name == "mshta" {
				return len(args) > 0 && !hasURL(args) && !anyContains(args, "vbscript:", "javascript:"), ""
			}
			// //E:JScript runs a file of any name (r.txt, r.log) as a script
			engine := hasSw(args, "e")
			for _, s := range args {
				if (strings.Contains(s, "temp") || strings.Contains(s, "appdata") || strings.Contains(s, "public") || strings.Contains(s, "downloads") || hasURL([]string{s})) &&
					(engine && !strings.HasPrefix(s, "/") || strings.HasSuffix(s, ".vbs") || strings.HasSuffix(s, ".js") || strings.HasSuffix(s, ".jse") || strings.HasSuffix(s, ".vbe") || strings.HasSuffix(s, ".wsf")) {
					return true, s
				}
			}
			return false, ""
		}},
}

// aclFinding judges icacls, cacls, takeown and Set-Acl.
func aclFinding(a *analysis, c *cmd) (DangerLevel, string) {
	args := wargs(c)
	raw := c.args()
	j := strings.Join(args, " ")
	var target string
	for i, w := range raw {
		if !strings.HasPrefix(w.s, "/") && !strings.HasPrefix(w.s, "-") && !strings.Contains(w.s, ":(") && !strings.Contains(w.s, ":f") && w.ok {
			if i > 0 && (args[i-1] == "/grant" || args[i-1] == "/grant:r" || args[i-1] == "/deny" || args[i-1] == "/remove" || args[i-1] == "/setowner" || args[i-1] == "/save" || args[i-1] == "/restore" || args[i-1] == "-aclobject") {
				continue
			}
			target = w.s
			break
		}
	}
	if c.name == "takeown" {
		v, _ := swVal(args, "f")
		target = v
		for _, w := range raw {
			if strings.EqualFold(w.s, "/f") || strings.EqualFold(w.s, "-f") {
				continue
			}
		}
	}
	if c.name == "set-acl" {
		if v, ok := psFlag(args, "path", 1); ok {
			target = v
		}
	}
	p := a.winAbs(strings.TrimSuffix(strings.TrimSuffix(target, "*"), `\`))
	cl, _ := a.winClassify(p)
	if target == "" {
		cl = wpUnknown
	}
	broad := cl == wpRoot || cl == wpSystem || cl == wpHome || cl == wpDevice
	switch c.name {
	case "takeown":
		if broad {
			return LevelCritical, target
		}
		if cl == wpSystemSub || cl == wpSecrets || cl == wpHomeSub && hasSw(args, "r") {
			return LevelHigh, target
		}
		return LevelSafe, ""
	case "set-acl":
		if broad {
			return LevelCritical, target
		}
		// another object's ACL on keys or system files: whatever it
		// grants now applies to them
		if d, _ := a.winSensitive(p); d != "" || cl == wpSecrets || cl == wpSystemSub {
			return LevelHigh, target
		}
		return LevelSafe, ""
	}
	everyone := strings.Contains(j, "everyone") || strings.Contains(j, "*s-1-1-0") || strings.Contains(j, "users:") || strings.Contains(j, "authenticated users") ||
		strings.Contains(j, "guest") || strings.Contains(j, "*s-1-5-32-545") || strings.Contains(j, "anonymous")
	grant := hasSw(args, "grant", "g", "e") || strings.Contains(j, "/grant")
	full := strings.Contains(j, ":f") || strings.Contains(j, ":(f)") || strings.Contains(j, "(f)") || strings.Contains(j, ":m") || strings.Contains(j, "(m)") || strings.Contains(j, ":w") || strings.Contains(j, "(w)") || strings.Contains(j, "(oi)(ci)f") || strings.Contains(j, "full") ||
		strings.Contains(j, ")m") || strings.Contains(j, ")f") || strings.Contains(j, ")w") || // Everyone:(OI)(CI)M
		c.name == "cacls" && strings.Contains(j, ":c") // cacls' Change
	if grant && everyone && full {
		if broad || cl == wpSecrets {
			return LevelCritical, target
		}
		if cl == wpInside {
			return LevelHigh, target
		}
		return LevelHigh, target
	}
	if broad && (hasSw(args, "reset", "setowner", "remove", "deny", "inheritance") && (hasSw(args, "t") || cl == wpRoot || cl == wpSystem)) {
		return LevelCritical, target
	}
	if broad && grant && hasSw(args, "t") {
		return LevelHigh, target
	}
	if cl == wpSecrets && grant && everyone {
		return LevelCritical, target
	}
	if d, _ := a.winSensitive(p); d != "" && grant && !((cl == wpSecrets || cl == wpHomeSub) && grantsSelfOnly(a, args)) {
		return LevelHigh, target
	}
	return LevelSafe, ""
}

// wmiServiceName finds the services a wmic where clause names, in order.
var wmiServiceName = regexp.MustCompile(`name\s*=\s*['"]?([a-z0-9_.-]+)`)

// sddlOpenACE matches an SDDL entry allowing rights to everyone, any
// authenticated or interactive user, the local users or anonymous.
var sddlOpenACE = regexp.MustCompile(`\(A;[^;]*;([A-Z]+);[^;]*;[^;]*;(?:WD|AU|BU|AN|IU)\)`)

// grantsSelfOnly reports icacls /grant entries that all name the
// current user, SYSTEM or Administrators: tightening a key to its owner.
func grantsSelfOnly(a *analysis, args []string) bool {
	user := strings.ToLower(path.Base(strings.ReplaceAll(a.winHome(), `\`, "/")))
	n := 0
	for i := 0; i+1 < len(args); i++ {
		if args[i] != "/grant" && args[i] != "/grant:r" {
			continue
		}
		who := strings.Trim(args[i+1], `"'`)
		if j := strings.LastIndexByte(who, ':'); j > 0 {
			who = who[:j]
		}
		who = strings.Trim(who, `"'`)
		if j := strings.LastIndexByte(who, '\\'); j >= 0 {
			who = who[j+1:]
		}
		switch who {
		case "$env:username", "${env:username}", "$($env:username)", "%username%", "system", "administrators", "nt authority\\system", "*s-1-5-18", "*s-1-5-32-544":
		default:
			if who != user || user == "" || user == "." {
				return false
			}
		}
		n++
	}
	return n > 0
}

// taskFinding judges schtasks, Register-ScheduledTask and at.
func taskFinding(c *cmd) (DangerLevel, string) {
	args := wargs(c)
	j := strings.Join(args, " ")
	switch c.name {
	case "schtasks":
		_, hasTR := swVal(args, "tr")
		_, hasRU := swVal(args, "ru")
		if hasSw(args, "change") && !hasSw(args, "create") && !hasTR && !hasRU && (hasSw(args, "disable") || hasSw(args, "enable")) {
			// switching a task on or off changes nothing it runs: only
			// Windows' own tasks (or all of them) matter, as when deleted
			tn, _ := swVal(args, "tn")
			return taskDeletion(tn), j
		}
		if hasSw(args, "create") || hasSw(args, "change") {
			sc, _ := swVal(args, "sc")
			tr, _ := swVal(args, "tr")
			ru, _ := swVal(args, "ru")
			if sc == "onlogon" || sc == "onstart" || sc == "onidle" || sc == "minute" || strings.Contains(ru, "system") ||
				strings.Contains(tr, "temp") || strings.Contains(tr, "appdata") || strings.Contains(tr, "public") || strings.Contains(tr, "powershell") ||
				strings.Contains(strings.ReplaceAll(tr, ".cmd", ""), "cmd") || strings.Contains(tr, "http") || strings.Contains(tr, "mshta") || strings.Contains(tr, "rundll32") || strings.Contains(tr, "regsvr32") {
				return LevelHigh, tr
			}
			if _, hasRU := swVal(args, "ru"); !hasRU && plainSchedule(sc) && plainTaskProgram(tr) {
				return LevelSafe, ""
			}
			return LevelModerate, tr
		}
		if hasSw(args, "delete") {
			tn, _ := swVal(args, "tn")
			return taskDeletion(tn), j
		}
		return LevelSafe, ""
	case "register-scheduledjob":
		// a PowerShell job on a trigger: at start-up or log-on, or
		// elevated, it comes back on its own
		l := strings.ToLower(c.line())
		if strings.Contains(l, "atstartup") || strings.Contains(l, "atlogon") || strings.Contains(l, "runelevated") {
			return LevelHigh, j
		}
		return LevelModerate, j
	case "at":
		if len(args) > 0 && strings.Contains(args[0], ":") {
			return LevelModerate, j
		}
		return LevelSafe, ""
	case "set-scheduledtask":
		// a task of Windows' own given another program: it runs as
		// that task, often as SYSTEM, on its schedule
		if strings.Contains(j, `\microsoft\windows\`) || strings.Contains(j, "-taskpath") && strings.Contains(j, `\microsoft\`) {
			return LevelHigh, j
		}
		if strings.Contains(j, "-action") {
			return LevelModerate, j
		}
		return LevelSafe, ""
	case "new-scheduledtasktrigger":
		if strings.Contains(j, "-atlogon") || strings.Contains(j, "-atstartup") {
			return LevelHigh, j
		}
		return LevelSafe, ""
	case "unregister-scheduledtask":
		name := ""
		for i, w := range args {
			if (w == "-taskname" || w == "-taskpath") && i+1 < len(args) {
				name += args[i+1]
			}
		}
		if name == "" && len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			name = args[0]
		}
		if name == "" {
			name = "*" // tasks piped in: any of them
		}
		return taskDeletion(name), j
	}
	if strings.Contains(j, "system") || strings.Contains(j, "highest") || strings.Contains(j, "atlogon") || strings.Contains(j, "atstartup") {
		return LevelHigh, j
	}
	if c.name == "register-scheduledtask" && (strings.Contains(j, "-daily") || strings.Contains(j, "-weekly")) &&
		!strings.Contains(j, "-repetitioninterval") {
		if i := strings.Index(j, "-execute "); i >= 0 {
			prog := strings.Trim(strings.Fields(j[i+len("-execute "):])[0], `'"()`)
			if plainTaskProgram(prog) && !strings.ContainsAny(prog, "$%") {
				return LevelSafe, ""
			}
			if k := strings.Index(j, "-argument "); k >= 0 && psScriptFileOnly(prog, quotedArg(j[k+len("-argument "):])) {
				return LevelSafe, ""
			}
		}
	}
	return LevelModerate, j
}

// psScriptFileOnly reports PowerShell started to run one script file
// kept in a project folder (pwsh -File C:\work\app\nightly.ps1): the
// file, not a command line, is what runs, as for a .cmd task.
func psScriptFileOnly(prog, argv string) bool {
	switch strings.TrimSuffix(prog, ".exe") {
	case "pwsh", "powershell":
	default:
		return false
	}
	before, after, ok := strings.Cut(" "+argv+" ", " -file ")
	if !ok {
		return false
	}
	script := strings.Fields(after)
	if len(script) == 0 || !strings.HasSuffix(strings.Trim(script[0], `'"`), ".ps1") {
		return false
	}
	for _, w := range strings.Fields(before) {
		switch w {
		case "-noprofile", "-nologo", "-noninteractive", "-nop":
		default:
			return false // -command, -encodedcommand, -windowstyle hidden
		}
	}
	return plainTaskProgram(strings.TrimSuffix(strings.Trim(script[0], `'"`), ".ps1") + ".cmd")
}

// quotedArg is the argument at the start of s: up to its closing quote
// when quoted, else its first field.
func quotedArg(s string) string {
	if s != "" && (s[0] == '\'' || s[0] == '"') {
		if i := strings.IndexByte(s[1:], s[0]); i >= 0 {
			return s[1 : i+1]
		}
	}
	if f := strings.Fields(s); len(f) > 0 {
		return strings.Trim(f[0], "()")
	}
	return ""
}

// plainSchedule reports a schedule by the calendar (daily, weekly,
// monthly, once), not one that fires every few minutes or at log-on.
func plainSchedule(sc string) bool {
	switch sc {
	case "daily", "weekly", "monthly", "once":
		return true
	}
	return false
}

// plainTaskProgram reports a task's program (lower case) that is a
// system copy tool or a script or program kept in a project folder, not
// one in a profile, a temporary or shared folder, an interpreter with a
// command line, or a download.
func plainTaskProgram(tr string) bool {
	tr = strings.Trim(strings.TrimSpace(tr), `'"`)
	if tr == "" || strings.ContainsAny(tr, "%$&|") {
		return false
	}
	for _, bad := range [...]string{"\\users\\", "/users/", "appdata", "temp", "public", "programdata", "powershell", "pwsh", "wscript", "cscript",
		"mshta", "rundll32", "regsvr32", "http", "\\\\", "cmd.exe", "cmd /", "bash", "wsl"} {
		if strings.Contains(tr, bad) {
			return false
		}
	}
	prog := strings.Fields(tr)[0]
	switch prog {
	case "robocopy", "robocopy.exe", "xcopy", "git", "git.exe", "npm", "dotnet", "python", "py":
		return true
	}
	if !strings.Contains(prog, `\`) && !strings.Contains(prog, "/") {
		return false
	}
	for _, ext := range [...]string{".cmd", ".bat", ".exe"} {
		if strings.HasSuffix(prog, ext) {
			return true
		}
	}
	return false
}

// taskDeletion judges deleting the scheduled task named name (lower
// case): removing a job someone scheduled for their own work loses nothing
// that matters, while the tasks under \Microsoft\ keep Windows updated,
// defended and backed up, and a wildcard takes all of them.
func taskDeletion(name string) DangerLevel {
	n := strings.TrimLeft(strings.ReplaceAll(name, "/", `\`), `\`)
	if n == "" || strings.ContainsAny(n, "*?") || strings.HasPrefix(n, `microsoft\`) {
		return LevelModerate
	}
	if l := strings.ToLower(n); strings.Contains(l, "backup") || strings.Contains(l, "snapshot") || strings.Contains(l, "replicat") {
		return LevelModerate // NightlyBackup: the backups stop being taken
	}
	return LevelSafe
}

func init() { ruleSets = append(ruleSets, winRules, winVerbRules) }

// winVerbRules judge destructive verbs of Windows tools by what they do,
// whatever the spelling of the target.
var winVerbRules = []*rule{
	{ID: "win-service-imagepath", Level: LevelHigh, Category: CategoryPersistence, Description: "pointing a service at a program through the registry",
		Suggestions: []string{"Let the user install services"}, names: names("reg", "set-itemproperty", "new-itemproperty"),
		match: func(a *analysis, c *cmd) (bool, string) {
			k, _, verb, ok := regTarget(c)
			if !ok || verb != "add" || c.regClass(k) != regServices {
				return false, ""
			}
			j := strings.Join(wargs(c), " ")
			return strings.Contains(j, "imagepath") || strings.Contains(j, "servicedll") || strings.Contains(j, "failurecommand"), k
		}},
	{ID: "win-netsh-helper", Level: LevelHigh, Category: CategoryPersistence, Description: "registering a netsh helper DLL (loaded whenever netsh runs)",
		Suggestions: []string{"Leave netsh helpers alone"}, names: names("netsh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(wargs(c), " ")
			return strings.Contains(j, "add helper"), j
		}},
	{ID: "win-cert-export", Level: LevelHigh, Category: CategoryExfiltration, Description: "exporting certificates with their private keys",
		Suggestions: []string{"Export only the public certificate"}, names: names("export-pfxcertificate", "certutil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if c.name == "certutil" {
				return hasSw(args, "exportpfx"), strings.Join(args, " ")
			}
			return true, strings.Join(args, " ")
		}},
	{ID: "win-credential-hunt", Level: LevelModerate, Category: CategoryExfiltration, Description: "searching files outside the project for passwords, keys or tokens",
		Suggestions: []string{"Search only the project's own files"}, names: names("findstr", "select-string"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if !strings.Contains(j, "pwd=") && !strings.Contains(j, "credential") && !secretPattern(j) {
				return false, "" // passwords, private keys, tokens
			}
			for _, w := range c.args() {
				if p := strings.Trim(w.s, `'"`); (strings.HasPrefix(p, `^\[`) || strings.HasPrefix(p, "^[")) && !secretPattern(lower(p)) {
					return false, "" // findstr "^\[" credentials: the section headers, the profiles' names
				}
			}
			if c.name == "findstr" && findstrPicksPlain(c.args()) {
				return false, "" // findstr /b /c:"[": the same, spelt with /c:
			}
			for _, w := range c.args() {
				s := w.s
				if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "/") && !(len(s) > 3 && s[2] == ':' && s[3] == '/') {
					continue // a switch (/s, /c:"PRIVATE KEY"), not a path (/c:/users)
				}
				if i := strings.IndexAny(s, "*?"); i >= 0 {
					s = s[:i]
				}
				if s == "" || !strings.ContainsAny(s, `\/:`) {
					continue
				}
				switch cl, _ := a.winClassify(a.winAbs(s)); cl {
				case wpRoot, wpSystem, wpSystemSub, wpHome, wpHomeSub, wpOutside, wpSecrets:
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "win-diskpart-script", Level: LevelCritical, Category: CategoryDiskWipe, Description: "diskpart running a script (it can erase or repartition any disk)",
		Suggestions: []string{"Let the user manage disks"}, names: names("diskpart"),
		match: func(a *analysis, c *cmd) (bool, string) {
			return hasSw(wargs(c), "s") && !c.scriptKnown, strings.Join(wargs(c), " ")
		}},
	{ID: "win-raw-disk-write", Level: LevelCritical, Category: CategoryDiskWipe, Description: "writing straight to a physical disk or volume (partition table and file system destroyed)",
		Suggestions: []string{"Let the user manage disks"}},
	{ID: "win-timestomp", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "setting a file's timestamps to another date (hides when it was changed)",
		Suggestions: []string{"Leave file times alone; touching a file to now is fine"}},
	{ID: "win-wsl-unregister", Level: LevelCritical, Category: CategoryContainerDestroy, Description: "unregistering a WSL distribution (its whole file system is deleted)",
		Suggestions: []string{"Export the distribution first (wsl --export)"}, names: names("wsl", "wslconfig"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if c.name == "wslconfig" {
				return hasSw(args, "unregister", "u"), strings.Join(args, " ")
			}
			return hasSw(args, "-unregister", "-uninstall"), strings.Join(args, " ")
		}},
	{ID: "win-bitlocker-lockout", Level: LevelHigh, Category: CategoryDiskWipe, Description: "forcing BitLocker recovery or removing its key protectors (the disk stays locked without the recovery key)",
		Suggestions: []string{"Let the user manage BitLocker"}, names: names("manage-bde", "remove-bitlockerkeyprotector", "clear-bitlockerautounlock", "lock-bitlocker"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if c.name != "manage-bde" {
				return true, j
			}
			// -off decrypts the volume: a stolen disk is then readable
			return hasSw(args, "forcerecovery", "fr", "lock", "off") || hasSw(args, "protectors") && hasSw(args, "delete", "disable"), j
		}},
	{ID: "win-sudo-enable", Level: LevelHigh, Category: CategoryPrivilege, Description: "turning on Windows sudo, so later commands can elevate",
		Suggestions: []string{"Ask the user to enable sudo"}, names: names("sudo", "gsudo"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			return len(args) > 1 && args[0] == "config" && hasSw(args, "-enable"), strings.Join(args, " ")
		}},
	{ID: "win-vault-dump", Level: LevelHigh, Category: CategoryExfiltration, Description: "printing the passwords stored in the Windows credential vault",
		Suggestions: []string{"Do not print credentials"}, names: names("vaultcmd", "get-storedcredential", "get-vaultcredential"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if c.name == "vaultcmd" {
				return hasSw(args, "listcreds") && hasSw(args, "all"), strings.Join(args, " ")
			}
			// | Select-Object TargetName, UserName, Type: the entries
			// named, no password among the columns
			// (the stages after a cmdlet are read from the line: they are
			// not built when it is judged)
			if cols := psProjection(a.srcLow()); cols != nil && credentialColumnsOnly(cols) {
				return false, ""
			}
			// one named target is a lookup; without one, every entry
			_, target := psFlag(args, "target", 1)
			return !target, strings.Join(args, " ")
		}},
	{ID: "win-dns-redirect", Level: LevelHigh, Category: CategorySystem, Description: "sending name resolution to another DNS server",
		Suggestions: []string{"Leave the DNS configuration alone"}, names: names("set-dnsclientserveraddress", "add-dnsclientnrptrule", "set-dnsclientnrptrule", "netsh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "netsh":
				return (strings.Contains(j, " set dns") || strings.Contains(j, " add dns") || strings.Contains(j, "set dnsservers") || strings.Contains(j, "add dnsservers")) &&
					!strings.Contains(j, "dhcp"), j
			case "set-dnsclientserveraddress":
				_, reset := psFlag(args, "resetserveraddresses", 2)
				return !reset && !hasSw(args, "whatif"), j
			}
			return !hasSw(args, "whatif"), j
		}},
	{ID: "win-mail-forwarded-out", Level: LevelCritical, Category: CategoryExfiltration, Description: "forwarding, redirecting or blind-copying a mailbox's or the organisation's mail to an address",
		Suggestions: []string{"Leave mail flow rules to the mail administrators"},
		names:       names("new-inboxrule", "set-inboxrule", "set-mailbox", "new-transportrule", "set-transportrule"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			for i, w := range args {
				switch strings.TrimSuffix(w, ":") {
				case "-forwardto", "-redirectto", "-forwardasattachmentto", "-forwardingsmtpaddress", "-forwardingaddress", "-blindcopyto", "-redirectmessageto", "-addtorecipients":
					if i+1 == len(args) || psCleared(args[i+1]) {
						continue // forwarding taken off ($null)
					}
					return true, c.base + " " + w
				}
			}
			return false, ""
		}},
	{ID: "win-mirror-over", Level: LevelCritical, Category: CategoryFileDelete, Description: "mirroring a folder over a profile, a system folder or a drive (whatever the source lacks is deleted there)",
		Suggestions: []string{"Mirror into a new folder of the project", "Copy without /MIR or /PURGE"}, names: names("robocopy"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if !hasSw(args, "mir", "purge") || hasSw(args, "l") {
				return false, "" // (/L only lists what it would do)
			}
			ops := robocopyOperands(c.args())
			if len(ops) < 2 || !ops[1].ok {
				return false, ""
			}
			cl, _ := a.winClassify(a.winAbs(ops[1].s))
			if ops[0].ok && a.emptySource(ops[0].s, a.cwd) && cl != wpInside {
				// an empty folder mirrored over anything but the project's
				// own folders (robocopy empty node_modules /MIR is how
				// Windows deletes a tree of paths too long): all of it goes
				return true, ops[1].s + " mirrored from the empty " + ops[0].s
			}
			switch cl {
			case wpHome, wpSystem, wpRoot, wpSecrets:
				return true, ops[1].s
			case wpHomeSub:
				// Documents, Desktop: everything the source lacks is
				// deleted there (a deploy or backup folder elsewhere is
				// what mirrors are for)
				return !strings.HasPrefix(strings.ToLower(ops[0].s), strings.ToLower(ops[1].s)), ops[1].s
			}
			return false, ""
		}},
	{ID: "win-copy-profile-away", Level: LevelCritical, Category: CategoryExfiltration, Description: "copying a whole profile or its keys to another machine's share",
		Suggestions: []string{"Copy only the project's own files", "Let the user move personal files"}, names: names("robocopy", "xcopy"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := robocopyOperands(c.args())
			if len(ops) < 2 || !ops[0].ok || !ops[1].ok {
				return false, ""
			}
			dst := strings.ReplaceAll(ops[1].s, "/", `\`)
			if !winRemotePath(dst) {
				return false, ""
			}
			sp := a.winAbs(ops[0].s)
			cl, _ := a.winClassify(sp)
			if d, crit := a.winSensitive(sp); d != "" && crit || cl == wpHome || cl == wpSecrets {
				return true, ops[0].s + " to " + ops[1].s
			}
			// the project, or a folder of the profile, copied to a share
			// of a machine known only by its address
			if host, _ := uncHost(dst); isPublicIP(host) && (cl == wpWorkDir || cl == wpInside || cl == wpHomeSub) {
				return true, ops[0].s + " to " + ops[1].s
			}
			return false, ""
		}},
	{ID: "win-wmic-profile-delete", Level: LevelCritical, Category: CategoryFileDelete, Description: "deleting user profiles through WMI (every file of those users goes)",
		Suggestions: []string{"Let an administrator remove accounts and their profiles"}, names: names("wmic", "remove-ciminstance", "remove-wmiobject"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(wargs(c), " ")
			if !strings.Contains(j, "win32_userprofile") {
				for _, s := range c.pipe {
					if s != nil && s != c && strings.Contains(strings.Join(wargs(s), " "), "win32_userprofile") {
						j += " win32_userprofile"
					}
				}
			}
			return strings.Contains(j, "win32_userprofile") && (c.name != "wmic" || strings.Contains(j, "delete")), "user profiles"
		}},
	{ID: "win-subinacl-everyone", Level: LevelHigh, Category: CategoryPermission, Description: "granting everyone rights on files, keys or services with subinacl",
		Suggestions: []string{"Grant the one account that needs it"}, names: names("subinacl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(wargs(c), " ")
			return strings.Contains(j, "/grant=everyone") || strings.Contains(j, "/grant=users") || strings.Contains(j, "/grant=guest"), j
		}},
	{ID: "win-wmic-startup", Level: LevelHigh, Category: CategoryPersistence, Description: "adding a start-up command through WMI",
		Suggestions: []string{"Show the change and let the user apply it"}, names: names("wmic"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(wargs(c), " ")
			return strings.Contains(j, "startup") && strings.Contains(j, "create"), j
		}},
	{ID: "win-wmi-shutdown", Level: LevelHigh, Category: CategorySystem, Description: "shutting down, restarting or logging off the machine through WMI",
		Suggestions: []string{"Ask the user to restart when convenient"}, names: names("invoke-cimmethod", "invoke-wmimethod"),
		match: func(a *analysis, c *cmd) (bool, string) {
			m := wmiMethod(c)
			return m == "win32shutdown" || m == "win32shutdowntracker" || m == "shutdown" || m == "reboot", m
		}},
	{ID: "win-wmi-format", Level: LevelCritical, Category: CategoryDiskWipe, Description: "formatting a volume through WMI",
		Suggestions: []string{"Format a virtual disk made for the test instead", "Let the user format drives by hand"}, names: names("invoke-cimmethod", "invoke-wmimethod"),
		match: func(a *analysis, c *cmd) (bool, string) {
			m := wmiMethod(c)
			return m == "format" || m == "clear" && strings.Contains(strings.Join(wargs(c), " "), "msft_disk"), m
		}},
	{ID: "win-traffic-redirect", Level: LevelHigh, Category: CategorySystem, Description: "sending the machine's traffic through another proxy or gateway",
		Suggestions: []string{"Set a proxy for one command (HTTPS_PROXY=... cmd) instead", "Leave the network configuration alone"},
		names:       names("netsh", "route", "reg", "set-itemproperty", "new-itemproperty"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "netsh":
				// every WinHTTP client goes through the proxy named
				return strings.Contains(j, "winhttp set proxy") && !winLoopbackProxy(j), j
			case "route":
				// a new default route: every packet leaves through that gateway
				if len(args) > 2 && (hasSw(args, "add") || hasSw(args, "change") || args[0] == "add" || args[0] == "change") {
					for i, w := range args {
						if (w == "0.0.0.0" || w == "0.0.0.0/0") && i+2 < len(args) && (args[i+1] != "mask" || args[i+2] == "0.0.0.0") {
							return true, j
						}
					}
				}
				return false, ""
			}
			k, d, verb, ok := regTarget(c)
			if !ok || verb != "add" || !strings.Contains(k, "internet settings") {
				return false, ""
			}
			if v, ok := swVal(args, "v"); ok {
				k += "/" + v
			}
			for _, n := range [...]string{"/proxyserver", "/autoconfigurl"} {
				if strings.HasSuffix(k, n) && !winLoopbackProxy(strings.ToLower(d)) {
					return true, k + " = " + d
				}
			}
			return false, ""
		}},
	{ID: "win-services-all", Level: LevelHigh, Category: CategorySystem, Description: "stopping or disabling every service",
		Suggestions: []string{"Stop only the service you started, by name"}, names: names("stop-service", "set-service", "suspend-service"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if hasSw(args, "whatif") {
				return false, ""
			}
			if c.name == "set-service" {
				v, _ := psFlag(args, "startuptype", 2)
				if v != "disabled" && v != "manual" {
					s, _ := psFlag(args, "status", 2)
					if s != "stopped" && s != "paused" {
						return false, ""
					}
				}
			}
			named := false
			for i := 0; i < len(args); i++ {
				w := args[i]
				if strings.HasPrefix(w, "-") {
					k, _, hasV := strings.Cut(w[1:], ":")
					if len(k) >= 1 && strings.HasPrefix("name", k) || strings.HasPrefix("displayname", k) && len(k) >= 2 || strings.HasPrefix("inputobject", k) && len(k) >= 2 {
						if i+1 < len(args) && strings.Trim(args[i+1], `"'`) == "*" {
							return true, "every service"
						}
						named = true
					}
					switch k {
					case "force", "passthru", "nowait", "confirm", "whatif", "f":
					default:
						if !hasV {
							i++ // the parameter's value
						}
					}
					continue
				}
				if strings.Trim(w, `"'`) == "*" {
					return true, "every service"
				}
				named = true
			}
			return !named && c.in.kind == flowList && c.in.what == "every service", "every service"
		}},
}

// msysNorm turns a path as Git Bash or a POSIX tool on Windows writes it
// (C:/x, C:\x, /c/x when the session's paths are in that form) into the
// normal Windows form; "" for other paths.
func msysNorm(s string, msys bool) string {
	if len(s) >= 2 && isDriveLetter(s[0]) && s[1] == ':' && (len(s) == 2 || s[2] == '/' || s[2] == '\\') {
		return normWinAbs(s)
	}
	if msys && len(s) >= 2 && s[0] == '/' && isDriveLetter(s[1]) && (len(s) == 2 || s[2] == '/') {
		return normWinAbs(s[1:2] + ":" + s[2:])
	}
	return ""
}

// msysDeleteLevel classifies what rm deletes when it is given Windows
// paths (Git Bash, MSYS, Cygwin).
func msysDeleteLevel(a *analysis, c *cmd) (DangerLevel, string) {
	o := c.opts()
	recursive := o.has("rR", "recursive")
	wd, home := a.workDir, a.home
	msys := len(wd) >= 3 && wd[0] == '/' && wd[2] == '/' || len(home) >= 3 && home[0] == '/' && home[2] == '/'
	if n := msysNorm(wd, msys); n != "" {
		a.workDir = n
	}
	if n := msysNorm(home, msys); n != "" {
		a.home = n
	}
	defer func() { a.workDir, a.home = wd, home }()
	worst, what := LevelSafe, ""
	for _, w := range c.operands() {
		s := w.s
		glob := false
		if i := strings.IndexAny(s, "*?"); i >= 0 {
			s, glob = s[:i], true
		}
		p := msysNorm(s, msys)
		if p == "" {
			continue
		}
		cl, _ := a.winClassify(p)
		if cl == wpWorkDir && w.find != nil && w.find.filtered {
			continue // find /c/work/project -name __pycache__ -exec rm -rf {} +: what it picks in the project
		}
		lv := LevelSafe
		switch cl {
		case wpRoot, wpSystem, wpHome, wpDevice, wpSecrets:
			if recursive || glob || cl == wpSecrets {
				lv = LevelCritical
			} else if cl == wpSystem {
				lv = LevelCritical
			}
		case wpHomeSub, wpSystemSub, wpOutside, wpWorkDir, wpHistory:
			if recursive || glob || cl == wpHistory {
				lv = LevelHigh
			}
		}
		if lv > worst {
			worst, what = lv, winPathNames[cl]+": "+w.s
		}
	}
	return worst, what
}

func init() {
	ruleSets = append(ruleSets, []*rule{
		{ID: "win-path-delete", Level: LevelCritical, Category: CategoryFileDelete, Description: "deleting a Windows drive, system folder, profile or credentials",
			Suggestions: []string{"Delete only paths inside the project"}, names: names("rm", "rmdir", "shred"),
			match: func(a *analysis, c *cmd) (bool, string) {
				lv, what := msysDeleteLevel(a, c)
				return lv == LevelCritical, what
			}},
		{ID: "win-path-delete-outside", Level: LevelHigh, Category: CategoryFileDelete, Description: "recursive delete of Windows paths outside the work directory",
			Suggestions: []string{"Delete only paths inside the project"}, names: names("rm", "rmdir", "shred"),
			match: func(a *analysis, c *cmd) (bool, string) {
				lv, what := msysDeleteLevel(a, c)
				return lv == LevelHigh, what
			}},
	})
}

// psConfirmOff reports -Confirm:$false among a cmdlet's arguments (as
// wargs gives them): the prompt a cmdlet would show is answered ahead.
func psConfirmOff(args []string) bool {
	for _, a := range args {
		l := lower(a)
		if strings.HasPrefix(l, "-confirm:") && strings.Contains(l, "false") || l == "-confirm:0" {
			return true
		}
	}
	return false
}

// pathAppended reports a new PATH value (lower case) that keeps the old
// one first and only adds folders after it that are not temporary,
// shared or hidden: nothing it adds can shadow a program found before.
func pathAppended(v string) bool {
	v = strings.Trim(v, `"'`)
	for _, old := range [...]string{"$env:path;", "%path%;"} {
		if rest, ok := strings.CutPrefix(v, old); ok {
			for _, dir := range strings.Split(rest, ";") {
				if dir == "" {
					continue
				}
				if winUntrustedPlace(dir+`\`) || strings.Contains(dir, `\.`) || strings.Contains(dir, "downloads") || strings.ContainsAny(dir, "$%") {
					return false
				}
			}
			return true
		}
	}
	return false
}

// pipedVirtualDisk reports a disk cmdlet fed by New-VHD or Mount-VHD of a
// file inside the work directory: the disk is that file, made for a test.
func pipedVirtualDisk(a *analysis, c *cmd) bool {
	if len(c.pipe) < 2 || c.pipe[0] == nil {
		return false
	}
	first := c.pipe[0]
	if first.name == "get-disk" {
		// Get-Disk | Where-Object Location -like '*C:\work\app\test.vhdx*':
		// the disk picked by the image file behind it
		for _, s := range c.pipe[1:] {
			if s == nil || s == c {
				break
			}
			if s.name != "where-object" {
				continue
			}
			for _, w := range s.args() {
				l := lower(strings.Trim(w.s, `*"'`))
				if strings.HasSuffix(l, ".vhd") || strings.HasSuffix(l, ".vhdx") || strings.HasSuffix(l, ".iso") {
					if p := a.winAbs(l); p != "" && a.inWork(p) {
						return true
					}
				}
			}
		}
		return false
	}
	if first.name != "new-vhd" && first.name != "mount-vhd" && first.name != "mount-diskimage" {
		return false
	}
	fargs := first.args()
	for i, w := range fargs {
		l := lower(w.s)
		image := ""
		switch {
		case (l == "-path" || l == "-imagepath") && i+1 < len(fargs):
			image = fargs[i+1].s
		case i == 0 && !strings.HasPrefix(l, "-") && (strings.HasSuffix(l, ".vhd") || strings.HasSuffix(l, ".vhdx") || strings.HasSuffix(l, ".iso")):
			image = w.s // Mount-VHD C:\work\app\tmp\test.vhdx -Passthru
		default:
			continue
		}
		p := a.winAbs(image)
		if p == "" {
			return false
		}
		if first.name == "new-vhd" {
			// a disk the line has just made: nothing on it yet,
			// wherever its file lives
			return true
		}
		cl, _ := a.winClassify(p)
		// an image in the project or the temporary folder, or one named
		// for tests
		return cl == wpInside || throwawayName(p)
	}
	return false
}

// winSystemEventLog reports an event log Windows or its components keep
// (Security, System, a Microsoft-Windows-* channel), as opposed to one an
// application registered for itself, which its developer may clear.
func winSystemEventLog(name string) bool {
	l := strings.Trim(strings.ToLower(name), `"'`)
	switch l {
	case "security", "system", "application", "setup", "forwardedevents", "windows powershell", "hardwareevents", "internet explorer",
		"key management service", "directory service", "dns server", "dfs replication", "file replication service", "operationalevents":
		return true
	}
	if _, kind, ok := strings.Cut(l, "/"); ok && !testName(l) {
		// Vendor-Product/Operational: the channels services and
		// security agents write to (an application's own test channel
		// excepted)
		return kind != "debug"
	}
	return strings.Contains(l, "microsoft") || strings.Contains(l, "windows") || strings.Contains(l, "sysmon") || strings.Contains(l, "powershell") ||
		strings.ContainsAny(l, "%$*")
}

// winLogShrunk reports wevtutil sl /ms:N with a maximum size too small to
// hold a day of events (under 4 MB): older entries are overwritten at once.
func winLogShrunk(args []string) bool {
	for _, a := range args {
		v, ok := strings.CutPrefix(a, "/ms:")
		if !ok {
			v, ok = strings.CutPrefix(a, "/maxsize:")
		}
		if n, err := strconv.ParseInt(v, 10, 64); ok && err == nil && n < 4<<20 {
			return true
		}
	}
	return false
}

// psHistoryDiscarded reports Set-PSReadLineOption arguments (lower case)
// that keep the session's commands from the history file: a save path of
// the null device, or a history of at most one command.
func psHistoryDiscarded(args []string) bool {
	if v, ok := psFlag(args, "historysavepath", 8); ok {
		switch strings.Trim(v, `"'`) {
		case "", "nul", "nul:", `\\.\nul`, "$null", "/dev/null": // "" is $null
			return true
		}
	}
	v, ok := psFlag(args, "maximumhistorycount", 4)
	return ok && (v == "0" || v == "1")
}

// wmicKillsAll reports wmic process ... call terminate (lower case
// arguments) over every process: no where clause, or one that only
// excludes (name!='System', not name='x').
func wmicKillsAll(args []string) bool {
	if len(args) == 0 || args[0] != "process" || !anyContains(args, "terminate", "delete") {
		return false
	}
	for i, a := range args {
		if a != "where" || i+1 >= len(args) {
			continue
		}
		f := args[i+1]
		return strings.Contains(f, "!=") || strings.Contains(f, "<>") || strings.HasPrefix(f, "not ") || strings.Contains(f, "like '%'")
	}
	return true
}

// winLoopbackProxy reports a proxy setting that names only this machine
// (a local debugging proxy such as Fiddler on 127.0.0.1:8888).
func winLoopbackProxy(s string) bool {
	return strings.Contains(s, "127.0.0.1") || strings.Contains(s, "localhost") || strings.Contains(s, "[::1]")
}

// wmiMethod returns the method Invoke-CimMethod or Invoke-WmiMethod calls
// (-MethodName, -Name), lower case.
func wmiMethod(c *cmd) string {
	args := wargs(c)
	for i, w := range args {
		if (w == "-methodname" || w == "-name" || w == "-method") && i+1 < len(args) {
			return strings.Trim(args[i+1], `"'`)
		}
	}
	return ""
}

// winSettingsBranch reports a whole branch of Windows' own settings under
// HKLM (...\CurrentVersion\Uninstall, App Paths): every program or
// setting it records goes with it.
func winSettingsBranch(k string) bool {
	return strings.HasPrefix(k, "hklm/software/microsoft/windows/currentversion/") && strings.Count(k, "/") <= 5
}

// robocopyOperands are robocopy's and xcopy's source and destination (and
// file names): every word that is not a switch (/E, /MIR, Git Bash's //MIR).
func robocopyOperands(args []word) []word {
	var out []word
	for _, w := range args {
		t := strings.TrimPrefix(w.s, "/")
		if strings.HasPrefix(w.s, "/") && !strings.Contains(strings.TrimPrefix(t, "/"), "/") && !winDrivePath(w.s) {
			continue // a switch
		}
		out = append(out, w)
	}
	return out
}

// statelessHost reports build and test host processes that keep no
// user state: killing every one of them loses nothing but a stuck run.
func statelessHost(image string) bool {
	switch strings.TrimSuffix(strings.Trim(strings.ToLower(image), `"'`), ".exe") {
	case "testhost", "testhost.x86", "testhost.net472", "vstest.console", "vbcscompiler", "mspdbsrv", "msbuild", "ngrok",
		// front-end build tools and dev servers: they serve and rebuild
		// from disk, holding no unsaved work
		"vite", "esbuild", "webpack", "nodemon", "tsc", "jest", "vitest", "turbo", "parcel", "rollup", "storybook",
		// IIS Express and the Dev Proxy serve the project being worked on
		"iisexpress", "devproxy":
		return true
	}
	// a development server (acme-devserver, webpack-dev-server) serves
	// files from disk and holds no work of its own; nor does a debug or
	// development build of the project's app (AcmeApp.Dev.exe)
	l := strings.ToLower(image)
	if strings.Contains(l, "devserver") || strings.Contains(l, "dev-server") {
		return true
	}
	for _, w := range nameWords(strings.TrimSuffix(l, ".exe")) {
		if w == "dev" || w == "debug" {
			return true
		}
	}
	return false
}

// urlRunners are Windows programs that fetch code from a URL they are
// given and run it (XBAP applications, App Installer packages, HTAs,
// scriptlets, installers).
var urlRunners = map[string]bool{"presentationhost": true, "ieexec": true, "msiexec": true, "mshta": true, "regsvr32": true,
	"add-appxpackage": true, "appinstaller": true, "cmstp": true, "installutil": true, "rundll32": true}

// dotnetScriptURL returns the URL that dotnet script (the dotnet-script
// tool) is told to fetch and run, or "".
func dotnetScriptURL(args []word) string {
	if len(args) < 2 || args[0].s != "script" {
		return ""
	}
	for _, w := range args[1:] {
		if l := lower(w.s); strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") {
			if !isLocalHost(hostOf(l)) {
				return w.s
			}
		}
	}
	return ""
}

// legacyFeature reports a Windows feature kept only for old software
// that opens a hole: PowerShell 2 (no logging, no AMSI), SMB1, telnet,
// TFTP.
func legacyFeature(j string) bool {
	return strings.Contains(j, "powershellv2") || strings.Contains(j, "smb1") || strings.Contains(j, "telnet") || strings.Contains(j, "tftp")
}

// securityAgentProgram reports a command line naming the program of an
// antivirus or endpoint-detection agent.
// securityAgentName reports a package or product named as an endpoint
// security agent (EDR, antivirus, a vendor's sensor).
func securityAgentName(j string) bool {
	for _, s := range [...]string{" edr", "edr agent", "antivirus", "anti-virus", "endpoint protection", "endpoint security", "crowdstrike",
		"falcon sensor", "sentinelone", "sentinel agent", "carbon black", "sophos", "symantec", "mcafee", "trellix", "eset ", "trend micro",
		"cylance", "tanium", "defender for endpoint", "malwarebytes", "bitdefender", "kaspersky", "webroot", "cortex xdr", "elastic agent", "wazuh", "osquery"} {
		if strings.Contains(j, s) {
			return true
		}
	}
	return false
}

func securityAgentProgram(j string) bool {
	for _, s := range [...]string{"msmpeng.exe", "mssense.exe", "sensecncproxy.exe", "nissrv.exe", "csfalconservice", `\crowdstrike\`,
		`\windows defender`, `\sentinelone\`, "sentinelagent", `\carbon black\`, `\sophos\`, `\symantec`, `\mcafee\`, `\eset\`,
		`\trend micro\`, `\cylance\`, `\tanium\`, "elastic-agent", "/crowdstrike/", "/windows defender"} {
		if strings.Contains(j, s) {
			return true
		}
	}
	return false
}

// nugetHosts are NuGet feeds run by the platform: nuget.org, GitHub's
// and Azure DevOps' package hosting.
var nugetHosts = map[string]bool{"api.nuget.org": true, "www.nuget.org": true, "nuget.org": true, "nuget.pkg.github.com": true,
	"pkgs.dev.azure.com": true, "www.myget.org": true}

// firewallOpened reports an inbound allow rule that lets any host reach
// this machine: one that says so (remote address any, the Public or every
// profile), or one that opens a remote-access or listener port (RDP,
// WinRM, SMB, SSH, VNC, a bind shell) without limiting who may connect.
// A development port with no scope is a setting.
func firewallOpened(remote, local, profile, port string) bool {
	if local == "127.0.0.1" || local == "::1" || local == "localhost" {
		return false
	}
	anyRemote := remote == "any" || remote == "*" || remote == "internet" || strings.Contains(remote, "0.0.0.0")
	if remote != "" && !anyRemote {
		return false // localsubnet, 127.0.0.1, a named range
	}
	if anyRemote || strings.Contains(profile, "public") || profile == "any" || strings.Contains(profile, "all") {
		return true
	}
	for _, p := range strings.Split(port, ",") {
		switch strings.TrimSpace(p) {
		case "22", "23", "135", "139", "445", "3389", "4444", "5900", "5985", "5986", "1337", "31337":
			return true
		}
	}
	return false
}

// wmicReadOnly reports a wmic command line whose verb only reads (get,
// list, assoc) and that names no verb that writes (create, set, delete,
// call).
func wmicReadOnly(args []string) bool {
	reads := false
	for _, a := range args {
		switch a {
		case "create", "set", "delete", "call":
			return false
		case "get", "list", "assoc":
			reads = true
		}
	}
	return reads
}

// devServiceInProject reports sc create of a service that starts only on
// demand and whose program is built inside the project: the service a
// developer debugs, started and stopped by hand, not one that runs at
// boot or from elsewhere.
func devServiceInProject(a *analysis, c *cmd) bool {
	args := c.args()
	var bin, start string
	for i, w := range args {
		l := strings.ToLower(w.s)
		if i+1 >= len(args) {
			break
		}
		switch l {
		case "binpath=":
			bin = args[i+1].s
		case "start=":
			start = strings.ToLower(args[i+1].s)
		case "obj=":
			return false // another account
		}
	}
	if start != "demand" || bin == "" || strings.ContainsAny(bin, " %$") {
		return false
	}
	p := a.winAbs(bin)
	return p != "" && a.inWork(p) && strings.HasSuffix(p, ".exe")
}

// winDataFile reports a file name (lower case) whose type is data or an
// archive, not a program or a script Windows runs.
func winDataFile(s string) bool {
	for _, ext := range [...]string{".csv", ".json", ".txt", ".xml", ".zip", ".tar.gz", ".tgz", ".7z", ".png", ".jpg", ".jpeg", ".gif",
		".svg", ".pdf", ".md", ".yaml", ".yml", ".parquet", ".sqlite", ".db", ".nupkg", ".whl"} {
		if strings.HasSuffix(s, ext) {
			return true
		}
	}
	return false
}

// lineNamesProduction reports whether any word of a command line names
// a production environment (the machines a pipeline's first command
// listed, for one that acts on them).
func lineNamesProduction(src string) bool {
	for _, f := range strings.FieldsFunc(src, func(r rune) bool { return r == ' ' || r == '|' || r == ';' || r == '\'' || r == '"' || r == ',' }) {
		if isProdName(f) {
			return true
		}
	}
	return false
}

// namesProject reports text that names the work directory (a filter
// keeping the processes started from it).
func (a *analysis) namesProject(text string) bool {
	if a.workDir == "" {
		return false
	}
	t := strings.ToLower(strings.ReplaceAll(text, `\`, "/"))
	wd := strings.TrimPrefix(strings.ToLower(strings.ReplaceAll(a.workDir, `\`, "/")), "/")
	return wd != "" && strings.Contains(t, wd) || strings.Contains(t, "$pwd")
}

// ownAppxPackage reports Remove-AppxPackage of one package the user
// made, named (Get-AppxPackage -Name Acme.Desktop.Dev | Remove-AppxPackage,
// -Package Acme.Desktop_1.0...): not Windows' own apps, not every user's.
func ownAppxPackage(c *cmd) bool {
	args := wargs(c)
	if hasSw(args, "allusers") {
		return false
	}
	name, ok := swVal(args, "package")
	if !ok && len(c.pipe) > 1 && c.pipe[0] != nil && c.pipe[0] != c && c.pipe[0].name == "get-appxpackage" {
		up := wargs(c.pipe[0])
		if hasSw(up, "allusers") {
			return false
		}
		name, ok = swVal(up, "name")
		if !ok {
			for _, s := range up {
				if !strings.HasPrefix(s, "-") {
					name, ok = s, true
					break
				}
			}
		}
	}
	name = strings.Trim(name, `"'*`)
	if !ok || len(name) < 4 {
		return false
	}
	return !hasAny(name, "microsoft", "windows", "xbox", "store", "bing", "zune", "skype", "office", "cortana", "edge", "teams", "onenote",
		"people", "photos", "calculator", "camera", "maps", "alarms", "solitaire", "candy", "spotify", "disney", "netflix", "tiktok", "clipchamp", "defender", "security")
}

// listFiltered reports a line whose listing (the first "what" in src) is
// piped into a text filter (findstr, Select-String, grep) that ends the
// line: only the matching lines are shown, and they go nowhere else.
func listFiltered(src, what string) bool {
	l := lower(src)
	i := strings.Index(l, what)
	if i < 0 {
		return false
	}
	rest := strings.TrimLeft(l[i+len(what):], " ")
	if !strings.HasPrefix(rest, "|") {
		return false
	}
	rest = strings.TrimLeft(rest[1:], " ")
	f := strings.Fields(rest)
	if len(f) == 0 || strings.ContainsAny(rest, "|>&;`$(") {
		return false
	}
	switch f[0] {
	case "findstr", "findstr.exe", "find", "select-string", "sls", "grep":
		return true
	}
	return false
}

// tunnelPort returns the local port a tunnel is pointed at (8080,
// localhost:8080, http://localhost:8080/), or "".
func tunnelPort(s string) string {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "http://"), "https://")
	s, _, _ = strings.Cut(s, "/")
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		if !isLocalHost(s[:i]) {
			return ""
		}
		s = s[i+1:]
	}
	if _, err := strconv.Atoi(s); err != nil {
		return ""
	}
	return s
}

// credentialColumnsOnly reports a projection of stored credentials to
// columns that hold no secret: the target, the user, the type.
func credentialColumnsOnly(args []word) bool {
	n := 0
	for _, w := range args {
		for _, f := range strings.Split(lower(w.s), ",") {
			switch strings.TrimSpace(f) {
			case "", "-property", "-autosize":
			case "targetname", "target", "username", "user", "type", "comment", "persist", "lastwritten", "name", "resource":
				n++
			default:
				return false
			}
		}
	}
	return n > 0
}

// psProjection returns the columns a pipeline's Select-Object or
// Format-Table keeps (src in lower case), or nil when there is none.
func psProjection(src string) []word {
	for _, k := range [...]string{"| select-object ", "| select ", "| format-table ", "| ft "} {
		i := strings.Index(src, k)
		if i < 0 {
			continue
		}
		rest := src[i+len(k):]
		if j := strings.IndexAny(rest, "|;"); j >= 0 {
			rest = rest[:j]
		}
		var out []word
		for _, f := range strings.FieldsFunc(rest, func(r rune) bool { return r == ' ' || r == ',' }) {
			out = append(out, lit(f))
		}
		return out
	}
	return nil
}

// rundllOpensPage reports rundll32 url.dll,FileProtocolHandler (or
// OpenURL) given a web page: the browser opens it, as start URL does. A
// URL naming a program or a script (setup.exe, x.hta) is not a page.
func rundllOpensPage(args []string) bool {
	j := strings.ToLower(strings.Join(args, " "))
	if !strings.Contains(j, "url.dll,fileprotocolhandler") && !strings.Contains(j, "url.dll,openurl") {
		return false
	}
	for _, s := range args {
		l := strings.ToLower(strings.Trim(s, `"'`))
		if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") {
			continue
		}
		u := l
		if i := strings.IndexAny(u, "?#"); i >= 0 {
			u = u[:i]
		}
		switch path.Ext(u) {
		case ".exe", ".msi", ".hta", ".ps1", ".bat", ".cmd", ".vbs", ".js", ".jse", ".wsf", ".jar", ".scr", ".dll", ".lnk", ".appinstaller", ".msix", ".zip", ".iso":
			return false
		}
		return true
	}
	return false
}

// legacyInsecureFeature reports Disable-WindowsOptionalFeature's
// arguments (lower case) naming only features hardening guides switch
// off: SMB 1.0, PowerShell 2.0, the Telnet and TFTP clients.
func legacyInsecureFeature(j string) bool {
	name := ""
	f := strings.Fields(j)
	for i, w := range f {
		if (w == "-featurename" || w == "-name") && i+1 < len(f) {
			name = strings.Trim(f[i+1], `"'`)
		}
	}
	switch name {
	case "smb1protocol", "smb1protocol-client", "smb1protocol-server", "microsoftwindowspowershellv2", "microsoftwindowspowershellv2root", "telnetclient", "tftp":
		return true
	}
	return false
}

// ftpScriptReadsOnly reports an ftp -s: script that only signs in, moves
// around and lists: no file leaves or arrives, nothing is deleted.
func ftpScriptReadsOnly(t string) bool {
	for _, l := range strings.Split(t, "\n") {
		f := strings.Fields(strings.ToLower(l))
		if len(f) < 2 {
			continue // an empty line, a password, quit
		}
		switch f[0] {
		case "open", "user", "ls", "dir", "cd", "lcd", "pwd", "binary", "ascii", "prompt", "verbose", "hash", "status", "quit", "bye", "close":
		default:
			return false
		}
	}
	return true
}
