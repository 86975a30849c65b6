package guard

import (
	"path"
	"strings"
)

// Rules for Windows protections and machine state that have their own
// tools: the recovery environment, firewall rules that let everything in,
// port forwarding from every address, SMBv1, AMSI, power and restarts,
// and stopping services by hand.
var winProtectRules = []*rule{
	{ID: "win-driver-installed", Level: LevelHigh, Category: CategorySystem, Description: "installing a device driver into Windows (kernel code, loaded at every boot)",
		Suggestions: []string{"Install drivers from the vendor's signed installer, with the user's consent", "Test a driver you build in a virtual machine"},
		names:       names("pnputil", "add-windowsdriver"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if c.name == "add-windowsdriver" {
				return hasSw(args, "online"), "Add-WindowsDriver -Online " + j
			}
			// pnputil /add-driver X.inf /install (or the older -i -a X.inf)
			return (hasSw(args, "add-driver") || hasSw(args, "a")) && (hasSw(args, "install") || hasSw(args, "i")), "pnputil " + j
		}},
	{ID: "win-core-service-deleted", Level: LevelHigh, Category: CategorySystem, Description: "deleting a service Windows itself needs, or a shared server's",
		Suggestions: []string{"Delete only the service the project installed"}, names: names("sc", "remove-service"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			var svc string
			if c.name == "sc" {
				for i, s := range args {
					if s == "delete" && i+1 < len(args) {
						svc = args[i+1] // sc [\\host] delete NAME
					}
				}
			} else if v, ok := psFlag(args, "name", 1); ok {
				svc = v
			} else if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
				svc = args[0]
			}
			svc = strings.Trim(svc, `"'`)
			// a shared server's registration (SQL Server, PostgreSQL,
			// Docker): what stops it for good
			return coreServices[svc] || securityServices[svc] || sharedService(svc), svc
		}},
	{ID: "win-run-from-share", Level: LevelCritical, Category: CategoryRemoteExec, Description: "opening a program, shortcut or control-panel item kept on another machine's share (it runs here)",
		Suggestions: []string{"Copy the file, check it, then run the local copy"}, names: names("rundll32", "control", "invoke-item", "explorer", "cmd:start"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, s := range wargs(c) {
				s = strings.Trim(s, `"'`)
				if i := strings.Index(s, `\\`); i > 0 && (s[i-1] == ',' || s[i-1] == '=') {
					s = s[i:] // rundll32 DLL,Entry \\host\x
				}
				if remoteRunnable(s) {
					return true, s
				}
			}
			return false, ""
		}},
	{ID: "win-localdb-delete", Level: LevelModerate, Category: CategoryDatabaseDestroy, Description: "deleting a local SQL Server instance (its databases go with it)",
		Suggestions: []string{"Drop only the test database you created"}, names: names("sqllocaldb"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if len(args) < 2 || args[0] != "delete" && args[0] != "d" {
				return false, ""
			}
			n := strings.Trim(args[1], `"'`)
			// every instance is local: "LocalDB" in its name says nothing
			return !scratchName(strings.ReplaceAll(n, "localdb", "")), n
		}},
	{ID: "win-psresource-feed", Level: LevelHigh, Category: CategoryRemoteExec, Description: "adding a PowerShell module feed on an arbitrary web site (its modules run on import)",
		Suggestions: []string{"Install from the PowerShell Gallery", "Ask the user before adding a third-party feed"},
		names:       names("register-psresourcerepository", "set-psresourcerepository"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			u, ok := psFlag(args, "uri", 1)
			if !ok {
				return false, ""
			}
			u = strings.Trim(u, `"'`)
			if !strings.Contains(u, "://") && !strings.HasPrefix(u, `\\`) {
				return false, "" // a local folder of modules
			}
			h := hostOf(u)
			if strings.HasPrefix(u, `\\`) {
				h, _, _ = strings.Cut(u[2:], `\`)
			}
			if h == "www.powershellgallery.com" || h == "powershellgallery.com" || isLocalHost(h) && !strings.Contains(h, ".") {
				return false, ""
			}
			return true, u
		}},
	{ID: "win-tpm-cleared", Level: LevelCritical, Category: CategoryDiskWipe, Description: "clearing the TPM, which destroys the keys it holds (BitLocker drives go to recovery, Windows Hello and smart-card keys are lost)",
		Suggestions: []string{"Let the user clear the TPM from the security settings, with the recovery keys at hand"},
		names:       names("clear-tpm", "initialize-tpm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if c.name == "initialize-tpm" {
				v, ok := psFlag(args, "allowclear", 6)
				return psTrue(v, ok), c.base + " -AllowClear"
			}
			return !hasSw(args, "whatif"), c.base
		}},
	{ID: "win-recovery-off", Level: LevelHigh, Category: CategorySystem, Description: "turning off the Windows recovery environment",
		Suggestions: []string{"Leave recovery on"}, names: names("reagentc"),
		match: func(a *analysis, c *cmd) (bool, string) { return hasSw(wargs(c), "disable"), "reagentc /disable" }},
	{ID: "win-firewall-inbound-any", Level: LevelHigh, Category: CategorySystem, Description: "a firewall rule or port forward that lets any traffic in",
		Suggestions: []string{"Allow one program or one port, from the addresses that need it"},
		names:       names("new-netfirewallrule", "set-netfirewallrule", "enable-netfirewallrule", "netsh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if c.name == "enable-netfirewallrule" {
				// the built-in groups that open file sharing, remote
				// desktop and remote management to the network
				if hasSw(args, "whatif") {
					return false, ""
				}
				for _, g := range [...]string{"file and printer sharing", "remote desktop", "windows remote management", "remote service management",
					"remote event log", "remote scheduled tasks", "network discovery", "filesharing", "remotedesktop", "remote administration"} {
					if strings.Contains(j, g) {
						return true, j
					}
				}
				return false, ""
			}
			if c.name == "netsh" {
				switch {
				case strings.Contains(j, "advfirewall import "):
					// the whole policy replaced by a file's
					return true, j
				case strings.HasPrefix(j, "firewall ") && (strings.Contains(j, "portopening") || strings.Contains(j, "allowedprogram")) &&
					hasAnyWord(args, "add", "set") && !strings.Contains(j, "mode=disable") && (strings.Contains(j, "scope=all") || !strings.Contains(j, "scope=")):
					// the old syntax: a port opened to every address
					return true, j
				case strings.Contains(j, "portproxy") && hasAnyWord(args, "add", "set") && (strings.Contains(j, "listenaddress=0.0.0.0") || strings.Contains(j, "listenaddress=*") || !strings.Contains(j, "listenaddress=")):
					return true, j
				case strings.Contains(j, "firewall") && strings.Contains(j, "add rule") && strings.Contains(j, "action=allow") && strings.Contains(j, "dir=in") &&
					!strings.Contains(j, "localport=") && !strings.Contains(j, "program="):
					return true, j
				}
				return false, ""
			}
			if r, ok := psFlag(args, "remoteaddress", 2); c.name == "set-netfirewallrule" && ok && !hasSw(args, "whatif") {
				// an existing rule (Remote Desktop's, WinRM's) opened to
				// every address
				switch strings.Trim(r, `"'`) {
				case "any", "internet", "*", "0.0.0.0/0", "::/0":
					return true, j
				}
			}
			v, _ := psFlag(args, "action", 2)
			d, _ := psFlag(args, "direction", 3)
			if v != "allow" || d != "inbound" {
				return false, ""
			}
			p, _ := psFlag(args, "protocol", 3)
			_, port := psFlag(args, "localport", 6)
			_, prog := psFlag(args, "program", 4)
			return p == "any" || !port && !prog, j
		}},
	{ID: "win-smb1-on", Level: LevelHigh, Category: CategorySystem, Description: "turning on SMBv1, the protocol worms spread through",
		Suggestions: []string{"Use SMB2 or later"}, names: names("enable-windowsoptionalfeature", "dism", "set-smbserverconfiguration"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(wargs(c), " ")
			if c.name == "set-smbserverconfiguration" {
				return strings.Contains(j, "enablesmb1protocol") && !strings.Contains(j, "$false"), j
			}
			return strings.Contains(j, "smb1protocol") && !strings.Contains(j, "/disable-feature"), j
		}},
	{ID: "win-power-off", Level: LevelHigh, Category: CategorySystem, Description: "shutting down, restarting or suspending the machine",
		Suggestions: []string{"Ask the user to restart when convenient"}, names: names("wmic", "rundll32", "rename-computer", "add-computer"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "wmic":
				return strings.Contains(j, "os ") && (strings.Contains(j, "call shutdown") || strings.Contains(j, "call reboot") || strings.Contains(j, "win32shutdown")), j
			case "rundll32":
				return strings.Contains(j, "setsuspendstate") || strings.Contains(j, "exitwindowsex"), j
			}
			return hasSw(args, "restart"), j
		}},
	{ID: "win-service-stop", Level: LevelModerate, Category: CategorySystem, Description: "stopping a shared service (a database server, Docker, IIS), or a service with everything that depends on it",
		Suggestions: []string{"Stop only the service you started for the task", "Restart without -Force or /y"},
		names:       names("net", "net1", "sc", "stop-service", "restart-service"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			switch c.name {
			case "net", "net1", "sc":
				if len(args) < 2 || args[0] != "stop" {
					return false, ""
				}
				if l := strings.NewReplacer(`"`, "", "'", "").Replace(a.srcLow()); (strings.Contains(l, "net start "+args[1]) || strings.Contains(l, "sc start "+args[1])) && !strings.Contains(args[1], "docker") {
					// stopped to be started again: a restart, which its
					// clients ride out (Docker's is not: every container
					// it runs is stopped)
					return false, ""
				}
				return hasSw(args, "y") || sharedService(args[1]), args[1]
			case "restart-service":
				// (a developer's own SQL Server Express or LocalDB instance
				// restarted with what depends on it)
				return hasSw(args, "force") && !strings.Contains(lower(j), "sqlexpress") && !strings.Contains(lower(j), "localdb"), j
			}
			if hasSw(args, "whatif") {
				return false, ""
			}
			if hasSw(args, "force") {
				return true, j
			}
			for _, s := range args {
				if !strings.HasPrefix(s, "-") && sharedService(s) {
					return true, s
				}
			}
			return false, ""
		}},
	{ID: "win-iis-stopped", Level: LevelHigh, Category: CategorySystem, Description: "stopping an IIS site or application pool (every site of it is down for its users)",
		Suggestions: []string{"Recycle the pool instead (Restart-WebAppPool)", "Stop only the developer's own site"},
		names:       names("stop-webapppool", "stop-website", "appcmd", "iisreset"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if c.name == "iisreset" {
				// iisreset web02 /stop: every site of that server down
				// (a plain iisreset restarts them)
				return hasSw(args, "stop") || hasSw(args, "reboot"), "iisreset " + j
			}
			if c.name == "appcmd" {
				return len(args) > 1 && args[0] == "stop" && (args[1] == "apppool" || args[1] == "site"), "appcmd " + j
			}
			// the developer's own pool, or one started again on the line,
			// is not down for long
			if hasSw(args, "whatif") || !isProdName(j) && (testName(j) || hasAny(j, "dev", "local") || strings.Contains(a.srcLow(), "start-web")) {
				return false, ""
			}
			return true, c.base + " " + j
		}},
	{ID: "win-exploit-protection-off", Level: LevelHigh, Category: CategorySystem, Description: "turning off exploit protections (DEP, ASLR, CFG, SEHOP) for a program or the whole system",
		Suggestions: []string{"Leave exploit protection on; report the crash to the program's vendor", "Ask the machine's owner"},
		names:       names("set-processmitigation"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			v, ok := psFlag(args, "disable", 3)
			if !ok || hasSw(args, "whatif") || hasSw(args, "system") { // (-System: win-remote-admin-on's)
				return false, ""
			}
			return true, "Set-ProcessMitigation -Disable " + v
		}},
	{ID: "win-wsl-shutdown", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "stopping every WSL distribution and what runs in them",
		Suggestions: []string{"Stop the one distribution you started (wsl --terminate NAME)"}, names: names("wsl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, s := range wargs(c) {
				if s == "--shutdown" {
					return true, s
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, winProtectRules) }

// sharedService reports a Windows service other work on the machine leans
// on: database servers, Docker and WSL, the web server, printing and
// remote management.
func sharedService(name string) bool {
	n := strings.Trim(lower(name), `"'`)
	for _, s := range [...]string{"sql", "postgres", "mongo", "redis", "rabbitmq", "elasticsearch", "docker", "lxssmanager", "wslservice", "vmms", "hns"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	switch n {
	case "w3svc", "was", "iisadmin", "spooler", "winrm", "lanmanserver", "lanmanworkstation", "dnscache", "dhcp", "bits", "termservice", "sshd",
		// the same services by the names net stop also takes
		"world wide web publishing service", "windows process activation service", "iis admin service", "print spooler",
		"windows remote management (ws-management)", "windows remote management", "remote desktop services", "openssh ssh server",
		"background intelligent transfer service", "dns client", "dhcp client":
		return true
	}
	return false
}

// coreServices are services every Windows installation runs: the event
// log, RPC and COM, networking, updates, time, scheduling, profiles.
// Deleting one breaks the machine until it is reinstalled or repaired.
var coreServices = map[string]bool{"eventlog": true, "rpcss": true, "rpceptmapper": true, "dcomlaunch": true, "winmgmt": true,
	"lanmanserver": true, "lanmanworkstation": true, "dnscache": true, "dhcp": true, "nsi": true, "bfe": true, "cryptsvc": true,
	"schedule": true, "wuauserv": true, "usosvc": true, "bits": true, "trustedinstaller": true, "samss": true, "netlogon": true,
	"plugplay": true, "power": true, "profsvc": true, "lsm": true, "termservice": true, "w32time": true, "winrm": true, "vss": true,
	"eventsystem": true, "gpsvc": true, "nlasvc": true, "netprofm": true, "audiosrv": true, "themes": true, "sysmain": true,
	"wlansvc": true, "seclogon": true, "keyiso": true, "vaultsvc": true, "appinfo": true, "brokerinfrastructure": true, "systemeventsbroker": true,
	"coremessagingregistrar": true, "staterepository": true, "msiserver": true, "spooler": true, "tapisrv": true, "wersvc": true}

// remoteRunnable reports a path on another machine's share (not this
// machine's own, \\localhost or \\127.0.0.1) whose kind Windows runs when
// it is opened: programs, libraries, shortcuts, control-panel items,
// scripts and installers.
func remoteRunnable(s string) bool {
	if !strings.HasPrefix(s, `\\`) || strings.HasPrefix(s, `\\.\`) || strings.HasPrefix(s, `\\?\`) {
		return false
	}
	host, _, _ := strings.Cut(s[2:], `\`)
	if host == "localhost" || host == "127.0.0.1" || host == "." || host == "" {
		return false
	}
	switch path.Ext(strings.ReplaceAll(s, `\`, "/")) {
	case ".exe", ".dll", ".cpl", ".lnk", ".url", ".hta", ".bat", ".cmd", ".ps1", ".vbs", ".js", ".jse", ".wsf", ".msi", ".scr", ".pif", ".com", ".appref-ms", ".jar", ".library-ms", ".searchconnector-ms":
		return true
	}
	return false
}
