package guard

import (
	"path"
	"strings"
)

// Rules for macOS's own protections and remote access: the firewall,
// FileVault, quarantine of downloads, the unified log, remote login and
// screen sharing, authorization rights and hidden accounts. Their tools
// (socketfilterfw, fdesetup, systemsetup, kickstart, security, dscl) have
// no Linux counterpart the other rules would catch.
var macosRules = []*rule{
	{ID: "password-prompt-sent", Level: LevelCritical, Category: CategoryExfiltration, Description: "asking for the user's password in a dialog of the script's own and sending the answer away",
		Suggestions: []string{"Let the system ask for the password (sudo, the keychain's own prompt)", "Never collect the user's password in a script"},
		names:       names("osascript"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := lower(joinWords(c.args()))
			if !strings.Contains(j, "hidden answer") {
				return false, ""
			}
			// do shell script "curl … " & p, or | curl -d @-
			if callsOut(j) {
				return true, "a password dialog whose answer a shell script sends"
			}
			for s := nextStage(c); s != nil; s = nextStage(s) {
				if slicesContains(netSinks, s.name) {
					return true, "a password dialog piped to " + s.name
				}
			}
			return false, ""
		}},
	{ID: "macos-privacy-grant", Level: LevelHigh, Category: CategorySystem, Description: "writing a privacy grant (full disk access, screen recording, accessibility) into macOS's TCC database behind the user's back",
		Suggestions: []string{"Let the user grant the permission in System Settings"},
		names:       names("sqlite3", "sqlite"),
		match: func(a *analysis, c *cmd) (bool, string) {
			db := false
			for _, w := range c.operands() {
				if path.Base(w.s) == "TCC.db" {
					db = true
				}
			}
			if !db {
				return false, ""
			}
			sql := lower(c.argsText())
			if c.in.kind == flowText {
				sql += " " + lower(c.in.text)
			}
			for _, v := range [...]string{"insert ", "replace ", "update ", "insert or replace"} {
				if strings.Contains(sql, v) {
					return true, "TCC.db " + strings.TrimSpace(v)
				}
			}
			return false, ""
		}},
	{ID: "macos-protection-off", Level: LevelHigh, Category: CategorySystem, Description: "turning off a macOS protection (firewall, FileVault, SIP, Gatekeeper, download quarantine, logging, backups, the login password) or hiding an account",
		Suggestions: []string{"Allow the one application through the firewall instead", "Leave FileVault, quarantine and logging on"},
		names: names("socketfilterfw", "fdesetup", "defaults", "log", "softwareupdate", "dsenableroot", "brew", "xattr", "csrutil", "sysadminctl", "launchctl", "installer",
			"pwpolicy", "tccutil", "security", "jamf", "tmutil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			j := joinWords(args)
			switch c.name {
			case "xattr":
				// the quarantine flag stripped from something fetched (a
				// download, a mounted image, a temporary copy): Gatekeeper
				// never checks it; the project's own build output is not that
				if !strings.Contains(j, "com.apple.quarantine") && !shortCluster(args, 'c') {
					return false, ""
				}
				if !shortCluster(args, 'd') && !shortCluster(args, 'c') {
					return false, ""
				}
				for _, w := range c.operands() {
					if w.s == "com.apple.quarantine" {
						continue
					}
					p := a.absPath(w.s, c.cwd)
					if a.isDownloaded(w.s, c.cwd) || p != "" && (underTemp(p) || strings.HasPrefix(p, "/Volumes/") || strings.Contains(p+"/", "/Downloads/") ||
						strings.HasPrefix(p, "/Applications/*")) { // (every installed app at once)
						return true, "download quarantine stripped from " + w.s
					}
				}
				return false, ""
			case "socketfilterfw":
				for i, w := range args {
					if strings.HasPrefix(w.s, "--set") && i+1 < len(args) && lower(args[i+1].s) == "off" {
						return true, w.s + " off"
					}
					// --unblockapp X: every connection to X let in
					if w.s == "--unblockapp" && i+1 < len(args) {
						return true, "incoming connections allowed to " + args[i+1].s
					}
				}
			case "pwpolicy":
				// every account's password and lock-out rules removed
				return hasWord(args, "-clearaccountpolicies"), "account password policies cleared"
			case "tccutil":
				// tccutil reset Accessibility: every app's grant revoked
				// (with a bundle id, one app's own)
				// (before a write into TCC.db, macos-privacy-grant judges
				// the line)
				ops := c.operands()
				return len(ops) == 2 && ops[0].s == "reset" && !a.srcHas("TCC.db"), "every app's " + lastWord(args) + " permission reset"
			case "security":
				// set-key-partition-list -S …unsigned:: any unsigned
				// program reads the keychain's keys without a prompt
				if len(args) > 0 && args[0].s == "set-keychain-settings" && !hasWord(args, "-t") && !hasWord(args, "-l") && !hasWord(args, "-u") && !shortCluster(args[1:], 't') {
					// no -t, -l or -u: the keychain stays unlocked for good
					return true, "keychain auto-lock removed"
				}
				if len(args) > 0 && args[0].s == "set-key-partition-list" {
					if v, ok := optValue(args, "-S", ""); ok && strings.Contains(v, "unsigned:") {
						return true, "unsigned programs given the keychain's keys"
					}
				}
			case "jamf":
				// the management framework (and what it enforces) removed
				return len(args) > 0 && (args[0].s == "removeFramework" || args[0].s == "removeMdmProfile"), "device management removed"
			case "fdesetup":
				// disable: FileVault off; removerecovery: the way back in
				// when the password is lost
				return len(args) > 0 && (args[0].s == "disable" || args[0].s == "removerecovery"), "FileVault " + args[0].s
			case "tmutil":
				// tmutil addexclusion -p ~/Documents: the user's files left
				// out of every backup from now on
				if len(args) > 0 && args[0].s == "addexclusion" {
					for _, w := range positional(args[1:]) {
						if p := a.absPath(w.s, c.cwd); p != "" && (p == a.home || strings.HasPrefix(p, a.home+"/") && strings.Count(strings.TrimPrefix(p, a.home+"/"), "/") == 0 && userFolder(path.Base(p))) {
							return true, "Time Machine told to skip " + w.s
						}
					}
				}
			case "csrutil":
				// csrutil enable --without fs: SIP back on with holes cut
				// in it; disable: off
				if len(args) > 0 && (args[0].s == "disable" || args[0].s == "enable" && hasWord(args, "--without")) {
					return true, "System Integrity Protection " + j
				}
			case "sysadminctl":
				// -autologin set: the machine opens without a password
				if i := indexWord(args, "-autologin"); i >= 0 && i+1 < len(args) && args[i+1].s == "set" {
					return true, "automatic log-in"
				}
			case "launchctl":
				// launchctl config system umask 000: every file a service
				// makes writable by everyone
				if len(args) > 3 && args[0].s == "config" && args[2].s == "umask" && strings.HasSuffix(args[3].s, "00") && args[3].s != "022" {
					return true, "services' umask " + args[3].s
				}
				// launchctl config user path DIR:...: every program launchd
				// starts (apps, agents) finds its commands in DIR first
				if len(args) > 3 && args[0].s == "config" && args[2].s == "path" {
					first, _, _ := strings.Cut(args[3].s, ":")
					switch {
					case strings.HasPrefix(first, "/usr/"), strings.HasPrefix(first, "/bin"), strings.HasPrefix(first, "/sbin"), strings.HasPrefix(first, "/opt/homebrew/"), strings.HasPrefix(first, "/opt/local/"):
					default:
						return true, "every launched program's PATH starting with " + first
					}
				}
			case "installer":
				// installer -pkg X -allowUntrusted: a package whose
				// signature is not trusted installed as root
				if hasWord(args, "-allowUntrusted") || hasWord(args, "-allowuntrusted") {
					return true, "a package with an untrusted signature installed"
				}
			case "defaults":
				if len(args) < 3 || args[0].s != "write" {
					return false, ""
				}

				l := lower(j)
				off := strings.HasSuffix(l, " false") || strings.HasSuffix(l, " no") || strings.HasSuffix(l, " 0")
				switch {
				case strings.Contains(l, "lsquarantine") && off:
					return true, "download quarantine off"
				case strings.Contains(l, "com.apple.alf") && strings.Contains(l, "globalstate") && off:
					return true, "application firewall off"
				case (strings.Contains(l, "guestaccess") || strings.Contains(l, "allowguestaccess")) && (strings.HasSuffix(l, " yes") || strings.HasSuffix(l, " true") || strings.HasSuffix(l, " 1")):
					return true, "file sharing open to guests"
				}
				if k := macSecurityKey(args); k != "" {
					return true, k
				}
			case "softwareupdate":
				if i := indexWord(args, "--schedule"); i >= 0 && i+1 < len(args) && lower(args[i+1].s) == "off" {
					return true, "automatic updates off"
				}
			case "brew":
				// the app runs without Gatekeeper's first-launch check
				return hasWord(args, "--no-quarantine"), "download quarantine off for " + lastWord(args)
			case "dsenableroot":
				return !hasWord(args, "-d"), "the root account enabled"
			case "log":
				if len(args) > 0 && args[0].s == "config" {
					l := lower(j)
					return strings.Contains(l, "level:off") || strings.Contains(l, "--mode off"), j
				}
			}
			return false, ""
		}},
	{ID: "macos-launchd-job-written", Level: LevelHigh, Category: CategoryPersistence, Description: "writing a launchd job key by key (what it runs starts at every boot or log-in)",
		Suggestions: []string{"Install the project's agent from a reviewed plist, or ask the user"}, names: names("defaults", "plutil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) < 3 || args[0].s != "write" && !(c.name == "plutil" && strings.HasPrefix(args[0].s, "-")) {
				return false, ""
			}
			if c.name == "plutil" && (args[0].s == "-extract" || args[0].s == "-p" || args[0].s == "-lint") && (args[0].s != "-extract" || hasWord(args, "-o") && (hasWord(args, "-") || hasWord(args, "/dev/stdout"))) {
				return false, "" // plutil -extract KEY json -o - F: a value read and printed
			}
			for _, w := range args {
				d := lower(w.s)
				if (strings.Contains(d, "/launchdaemons/") || strings.Contains(d, "/launchagents/")) && (hasWord(args, "ProgramArguments") || hasWord(args, "Program")) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "macos-backup-sent-away", Level: LevelCritical, Category: CategoryExfiltration, Description: "making a server nobody named the destination of the Mac's backups (the whole disk copied to it)",
		Suggestions: []string{"Back up to the organisation's own backup server, set up by its administrators"}, names: names("tmutil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) < 2 || args[0].s != "setdestination" {
				return false, ""
			}
			for _, w := range args[1:] {
				if strings.Contains(w.s, "://") {
					if h := hostOf(w.s); h != "" && isPublicIP(h) {
						return true, "Time Machine backups sent to " + h
					}
				}
			}
			return false, ""
		}},
	{ID: "macos-log-erase", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "erasing the macOS unified log",
		Suggestions: []string{"Leave the system log alone", "Filter what you read with log show --predicate"}, names: names("log"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			return len(args) > 0 && args[0].s == "erase", "log erase"
		}},
	{ID: "macos-remote-access-on", Level: LevelHigh, Category: CategorySystem, Description: "opening this Mac to remote login, screen sharing or remote Apple events",
		Suggestions: []string{"Let the owner turn on remote access in System Settings", "Reach the machine through an existing, reviewed channel"},
		names:       names("systemsetup", "kickstart", "sharing"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "sharing":
				// sharing -a /Users/dev: the whole home (or the disk) shared
				// over the network
				if len(args) > 1 && args[0].s == "-a" {
					if p := a.absPath(args[1].s, c.cwd); p == "/" || p == "/Users" || p == "/home" || a.home != "" && p == a.home || strings.HasPrefix(p, "/Users/") && strings.Count(p, "/") == 2 {
						return true, "sharing -a " + args[1].s
					}
				}
			case "systemsetup":
				for i, w := range args {
					l := lower(w.s)
					if (l == "-setremotelogin" || l == "-setremoteappleevents" || l == "-setwakeonnetworkaccess") && i+1 < len(args) && lower(args[i+1].s) == "on" {
						return true, w.s + " on"
					}
				}
			case "kickstart":
				// -activate, or -configure -clientopts turning on legacy
				// VNC with a password of its own
				return hasWord(args, "-activate") || hasWord(args, "-on") || hasWord(args, "-configure") && (hasWord(args, "-setvncpw") || hasWord(args, "-vnclegacy") && hasWord(args, "yes")), "Apple Remote Desktop"
			}
			return false, ""
		}},
	{ID: "macos-schedule-power", Level: LevelHigh, Category: CategorySystem, Description: "scheduling a shutdown, restart or sleep of the machine",
		Suggestions: []string{"Leave power scheduling to the owner"}, names: names("pmset"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			for i, w := range ops {
				if (w.s == "schedule" || w.s == "repeat") && i+1 < len(ops) {
					switch lower(ops[i+1].s) {
					case "shutdown", "restart", "sleep":
						return true, w.s + " " + ops[i+1].s
					}
				}
				if w.s == "sleepnow" || w.s == "disablesleep" {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "macos-authorization-open", Level: LevelHigh, Category: CategoryPrivilege, Description: "granting an authorization right to everyone (security authorizationdb write ... allow)",
		Suggestions: []string{"Leave authorization rights at their defaults"}, names: names("security"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) >= 4 && ops[0].s == "authorizationdb" && ops[1].s == "write" {
				switch lower(ops[len(ops)-1].s) {
				case "allow", "authenticate-session-owner-or-admin", "is-admin":
					return true, ops[2].s
				}
			}
			return false, ""
		}},
	{ID: "macos-create-account", Level: LevelHigh, Category: CategoryPrivilege, Description: "creating a user account by hand (hidden, below UID 500, or with a password set on the command line)",
		Suggestions: []string{"Let an administrator create accounts in System Settings"}, names: names("dscl", "sysadminctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "sysadminctl" {
				return hasWord(args, "-addUser") && (hasWord(args, "-admin") || hasWord(args, "-password")), "sysadminctl -addUser"
			}
			for i, w := range args {
				if i+1 >= len(args) || !strings.HasPrefix(args[i+1].s, "/Users/") {
					continue
				}
				user := strings.TrimPrefix(args[i+1].s, "/Users/")
				switch w.s {
				case "-passwd":
					return true, "password of " + user
				case "-create":
					if strings.HasPrefix(user, ".") {
						return true, "hidden account " + user
					}
					if i+3 < len(args) && args[i+2].s == "UniqueID" {
						if n := args[i+3].s; len(n) < 3 || n < "500" && len(n) == 3 {
							return true, "system-range UID " + n
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "applescript-persistence", Level: LevelHigh, Category: CategoryPersistence, Description: "an AppleScript that adds a login item or a folder action (runs again later by itself)",
		Suggestions: []string{"Let the user add login items in System Settings"}, names: names("osascript"),
		match: func(a *analysis, c *cmd) (bool, string) {
			l := lower(c.argsText())
			return strings.Contains(l, "login item") && strings.Contains(l, "make ") || strings.Contains(l, "attach action to") ||
				strings.Contains(l, "folder actions enabled to true"), "AppleScript"
		}},
	{ID: "applescript-quit-all", Level: LevelModerate, Category: CategorySystem, Description: "an AppleScript that quits every application (unsaved work is lost)",
		Suggestions: []string{"Quit the one application you started"}, names: names("osascript"),
		match: func(a *analysis, c *cmd) (bool, string) {
			l := lower(c.argsText())
			return (strings.Contains(l, "every application process") || strings.Contains(l, "every process")) && (strings.Contains(l, " quit") || strings.Contains(l, "kill")), "AppleScript"
		}},
}

func init() { ruleSets = append(ruleSets, macosRules) }

// macSecurityKey returns the setting a defaults write turns against the
// machine's protection: updates that stop installing, a screen that no
// longer asks for the password, a user logged in with no password, the
// guest account; "" for any other setting.
func macSecurityKey(args []word) string {
	ops := positional(args[1:])
	if len(ops) < 2 {
		return ""
	}
	key := lower(ops[1].s)
	val := ""
	if len(ops) > 2 {
		val = lower(ops[len(ops)-1].s)
	}
	off := val == "false" || val == "no" || val == "0"
	on := val == "true" || val == "yes" || val == "1"
	switch key {
	case "askforpassword", "criticalupdateinstall", "configdatainstall", "automaticcheckenabled", "automaticdownload",
		"automaticallyinstallmacosupdates", "autoupdate", "requirepassword":
		if off {
			return ops[1].s + " off"
		}
	case "autologinuser":
		return "automatic log-in as " + val
	case "guestenabled":
		if on {
			return "the guest account on"
		}
	case "disablelibraryvalidation", "allowidentifiedsoftware", "allowunsignedapplications":
		if on {
			return ops[1].s + " on" // any library loaded into signed programs, unsigned programs allowed
		}
	case "gkautorearm":
		if off {
			return "Gatekeeper no longer switched back on (GKAutoRearm off)"
		}
	case "ocspstyle", "crlstyle":
		if val == "none" {
			return "certificate revocation checks off (" + ops[1].s + " None)"
		}
	case "warnaboutfraudulentwebsites":
		if off {
			return "Safari's fraudulent-website warning off"
		}
	case "autoopensafedownloads":
		if on {
			return "Safari opening downloads by itself"
		}
	case "ideskipmacrofingerprintvalidation", "ideskippackagepluginfingerprintvalidatation", "ideskippackagepluginfingerprintvalidation":
		if on {
			return "Xcode running packages' macros and plugins without asking (" + ops[1].s + ")"
		}
	case "com.apple.screensharing":
		// launchd's overrides: the screen-sharing service no longer
		// disabled
		if off && strings.Contains(lower(joinWords(ops)), "disabled") {
			return "screen sharing enabled through launchd's overrides"
		}
	case "autobackup":
		if off && strings.Contains(lower(ops[0].s), "timemachine") {
			return "automatic Time Machine backups off"
		}
	case "hiddenuserslist":
		// an account kept off the login window: how a backdoor user hides
		return "an account hidden from the login window"
	}
	return ""
}

// indexWord returns the index of the first word equal to s, or -1.
func indexWord(args []word, s string) int {
	for i, w := range args {
		if w.s == s {
			return i
		}
	}
	return -1
}

func lastWord(args []word) string {
	if len(args) == 0 {
		return ""
	}
	return args[len(args)-1].s
}

// userFolder reports a folder of the home that holds the user's own
// files (Documents, work), not downloads, caches or hidden settings.
func userFolder(base string) bool {
	l := lower(base)
	return base != "" && !strings.HasPrefix(base, ".") && l != "downloads" && !hasAny(l, "cache", "tmp", "temp", "trash", "vm", "virtual")
}
