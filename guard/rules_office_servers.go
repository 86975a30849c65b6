package guard

import (
	"path"
	"strings"
)

// An office's servers reached from the command line: the phone system
// (Asterisk, FreeSWITCH, Kamailio), the print server (CUPS), file shares
// (Samba) and the storage appliance (Synology, TrueNAS). Judged by what
// the console command, the share operation or the admin call does to
// everyone who relies on them; status, listings and reads pass.
var officeServerRules = []*rule{
	{ID: "pbx-disrupted", Level: LevelHigh, Category: CategorySystem, Description: "stopping a phone system, hanging up every call, deleting its user database, trusting every address, listening in on calls, or running a shell command through it",
		Suggestions: []string{"Restart the PBX gracefully in a maintenance window (core restart when convenient)", "Hang up the one channel that is stuck"},
		names:       names("asterisk", "fs_cli", "kamctl", "kamdbctl", "fwconsole"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if a.testScoped(c) {
				return false, "" // a test container's PBX
			}
			args := c.args()
			switch c.name {
			case "asterisk", "fs_cli":
				x, ok := optValue(args, "-rx", "")
				if !ok {
					x, ok = optValue(args, "-x", "execute")
				}
				if !ok {
					return false, ""
				}
				l := strings.ToLower(strings.Trim(x, `"' `))
				for _, p := range [...]string{"core stop now", "core restart now", "core stop gracefully", "channel request hangup all", "hangup request all",
					"database deltree", "hupall", "fsctl shutdown", "shutdown now", "module unload"} {
					if strings.Contains(l, p) {
						return true, c.name + " " + p
					}
				}
				if strings.Contains(l, "application system") || strings.Contains(l, "system(") || strings.Contains(l, "&system(") {
					return true, "a shell command run by the PBX (" + truncate(x, 60) + ")"
				}
				if strings.Contains(l, "eavesdrop") || strings.Contains(l, "chanspy") {
					return true, "calls listened in on (" + truncate(x, 60) + ")"
				}
			case "kamctl":
				ops := plainWords(c.lowerArgs())
				switch {
				case len(ops) > 0 && ops[0] == "rm":
					return true, "kamctl rm (a subscriber deleted)"
				case len(ops) > 2 && ops[0] == "address" && ops[1] == "add" && (slicesContains(ops, "0.0.0.0") || slicesContains(ops, "0.0.0.0/0")):
					return true, "every address trusted by the SIP proxy"
				}
			case "kamdbctl":
				if ops := plainWords(c.lowerArgs()); len(ops) > 0 && (ops[0] == "drop" || ops[0] == "reinit") {
					return true, "kamdbctl " + ops[0] + " (the SIP proxy's database)"
				}
			case "fwconsole":
				// fwconsole ma downloadinstall URL: a module from anywhere
				if ops := plainWords(c.lowerArgs()); len(ops) > 2 && ops[0] == "ma" && ops[1] == "downloadinstall" && strings.Contains(ops[2], "://") {
					return true, "a PBX module installed from " + ops[2]
				}
			}
			return false, ""
		}},
	{ID: "print-server-changed", Level: LevelHigh, Category: CategorySystem, Description: "deleting another machine's printers or every print job, or opening a print server's administration to every address",
		Suggestions: []string{"Change the print server through its administrators", "Cancel your own job by its id"},
		names:       names("lpadmin", "cupsctl", "cancel"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			h, _ := optValue(args, "-h", "")
			remote := h != "" && !loopback(hostOf("//"+h)) && !strings.HasPrefix(h, "localhost") && !strings.HasPrefix(h, "/")
			switch c.name {
			case "lpadmin":
				if remote && hasPrefixWord(args, "-x") {
					return true, "a printer deleted on " + h
				}
			case "cupsctl":
				for _, w := range args {
					switch w.s {
					case "--remote-admin", "--remote-any", "--user-cancel-any":
						return true, "cupsctl " + w.s
					}
				}
			case "cancel":
				if hasWord(args, "-a") && (remote || hasWord(args, "-x")) {
					return true, "every print job cancelled"
				}
			}
			return false, ""
		}},
	{ID: "file-share-destroyed", Level: LevelCritical, Category: CategoryFileDelete, Description: "deleting a network share's folders or files, closing it under its users, or removing its accounts or its server from the domain",
		Suggestions: []string{"Copy what must go into an archive folder and let the share's owners delete", "Leave accounts and domain membership to the server's administrators"},
		names:       names("smbclient", "smbcontrol", "net", "pdbedit"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			low := c.lowerArgs()
			switch c.name {
			case "smbclient":
				script, ok := optValue(args, "-c", "command")
				if !ok {
					return false, ""
				}
				for part := range strings.SplitSeq(strings.ToLower(script), ";") {
					f := strings.Fields(part)
					if len(f) == 0 {
						continue
					}
					switch f[0] {
					case "deltree", "rmdir", "rd", "mdel", "del", "rm":
						return true, "smbclient " + strings.TrimSpace(part)
					}
				}
			case "smbcontrol":
				j := strings.Join(low, " ")
				if strings.Contains(j, "close-share") || strings.Contains(j, "shutdown") {
					return true, "smbcontrol " + j
				}
			case "net":
				ops := plainWords(low)
				if len(ops) > 1 && ops[0] == "share" && hasAnyWord(low, "/delete", "/d") && c.remote {
					// psexec \\FS01 net share Finance /delete: a file
					// server's share taken away from its users
					return true, "the network share " + ops[1] + " removed on another machine"
				}
				if len(ops) > 1 && ops[0] == "share" && hasAnyWord(low, "/delete", "/d") && !scratchName(ops[1]) && !projectShare(a, ops[1]) {
					// net share Engineering /delete: the share its users
					// map (a share named for the project, or a scratch
					// one, is the project's own)
					return true, "the network share " + ops[1] + " removed"
				}
				switch {
				case len(ops) > 1 && ops[0] == "ads" && ops[1] == "leave":
					return true, "the file server taken out of the domain"
				}
			case "pdbedit":
				if hasWord(args, "-x") || hasWord(args, "--delete") {
					return true, "a share account deleted"
				}
			}
			return false, ""
		}},
	{ID: "nas-admin-changed", Level: LevelHigh, Category: CategorySystem, Description: "deleting a storage appliance's shares, users or backup application, setting its administrator's password, or letting root log in by password",
		Suggestions: []string{"Change the appliance through its administrators' console", "Take a snapshot first"},
		names:       names("synoshare", "synouser", "synogroup", "synopkg", "midclt"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			j := strings.Join(low, " ")
			switch c.name {
			case "synoshare", "synouser", "synogroup":
				if hasAnyWord(low, "--del", "--delete", "--setpw") {
					return true, c.name + " " + truncate(j, 60)
				}
			case "synopkg":
				if ops := plainWords(low); len(ops) > 1 && ops[0] == "uninstall" {
					return true, "synopkg uninstall " + ops[1]
				}
			case "midclt":
				if strings.Contains(j, "ssh.update") && strings.Contains(strings.ReplaceAll(j, " ", ""), `"rootlogin":true`) {
					return true, "root allowed to log in by SSH"
				}
				for _, m := range [...]string{"pool.dataset.delete", "pool.export", "pool.snapshottask.delete", "replication.delete", "user.delete", "sharing.smb.delete"} {
					if strings.Contains(j, m) {
						return true, "midclt call " + m
					}
				}
			}
			return false, ""
		}},
}

// projectShare reports a share named for the project (its work
// directory's last element, or a name that contains it).
func projectShare(a *analysis, name string) bool {
	base := strings.ToLower(path.Base(strings.ReplaceAll(a.workDir, `\`, "/")))
	return base != "" && base != "/" && base != "." && strings.Contains(strings.ToLower(name), base)
}

func init() { ruleSets = append(ruleSets, officeServerRules) }
