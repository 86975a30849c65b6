package guard

import (
	"strings"
)

// Rules for erasing shell history and logs (category history_tamper).
var historyTamperRules = []*rule{
	{ID: "login-records-cleared", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "clearing the records of who logged in, or starting a shell that keeps no history",
		Suggestions: []string{"Leave login records and history alone"}, names: names("lastlog", "fish"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "lastlog":
				return hasWord(args, "--clear") || hasWord(args, "-C"), "lastlog --clear"
			case "fish":
				// fish --private: nothing typed from here on is recorded
				return hasWord(args, "--private") || hasWord(args, "-P"), "fish --private"
			}
			return false, ""
		}},
	{ID: "timestomp-system", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "setting a system file's timestamps to another date (hides when it was changed)",
		Suggestions: []string{"Leave system files' timestamps alone", "Touch only project files, to the current time"}, names: names("touch"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			o := c.opts()
			if !o.has("rdt", "reference", "date") && !hasPrefixWord(args, "--reference=") && !hasPrefixWord(args, "--date=") {
				return false, "" // now: what touch is for
			}
			for _, w := range posArgs(args, optSpec{short: "rdt", long: []string{"reference", "date", "time"}}) {
				p := a.absPath(w.s, c.cwd)
				if p == "" || a.inWork(p) {
					continue
				}
				if cl := a.classifyWrite(p); cl != wNone || strings.HasPrefix(p, "/usr/") || strings.HasPrefix(p, "/var/log/") {
					return true, p
				}
			}
			return false, ""
		}},
	delRule("rm-history", LevelHigh, CategoryHistoryTamper, "deletion of shell history",
		[]string{"Leave shell history in place", "Remove a single entry with history -d N if it holds a secret"}, anyRec, pcHistory),
	delRule("rm-logs", LevelHigh, CategoryHistoryTamper, "deletion of system logs",
		[]string{"Rotate logs with logrotate instead of deleting them", "Use journalctl --vacuum-time with a sensible retention"}, anyRec, pcLogs),
	writeRule("truncate-history", LevelHigh, CategoryHistoryTamper, "erasing or redirecting shell history",
		[]string{"Leave shell history in place", "Remove a single entry with history -d N if it holds a secret"}, true, wHistory),
	writeRule("truncate-logs", LevelHigh, CategoryHistoryTamper, "erasing system logs",
		[]string{"Rotate logs with logrotate", "Use journalctl --vacuum-time with a sensible retention"}, true, wLogs),
	{ID: "history-clear", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "clearing the shell history",
		Suggestions: []string{"Leave shell history in place", "Remove a single entry with history -d N if it holds a secret"}, names: names("history"),
		match: func(a *analysis, c *cmd) (bool, string) {
			o := c.opts()
			if o.has("c") {
				return true, ""
			}
			if o.has("d") {
				// history -d N (or -1, the last): one entry, what a secret
				// typed by mistake needs; a range, a loop or a forged
				// replacement hides what was run
				// (not in a loop, and not beside history -s, which forges
				// an entry in place of the one deleted)
				l := a.src
				if v, ok := optValue(c.args(), "-d", ""); ok && strings.Trim(strings.TrimPrefix(v, "-"), "0123456789") == "" && len(strings.TrimPrefix(v, "-")) > 0 &&
					!strings.Contains(l, "history -s") && !strings.Contains(l, "for ") && !strings.Contains(l, "while ") && !strings.Contains(l, "xargs") {
					return false, ""
				}
				return true, "deleting entries" // hiding what was run
			}
			if o.has("w") || o.has("a") {
				for _, w := range c.operands() {
					if w.s == "/dev/null" {
						return true, ""
					}
				}
			}
			return false, ""
		}},
	{ID: "history-options-off", Level: LevelModerate, Category: CategoryHistoryTamper, Description: "telling zsh to keep commands out of the history",
		Suggestions: []string{"Leave history options as the user set them"}, names: names("setopt", "unsetopt"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				o := strings.ReplaceAll(lower(w.s), "_", "")
				if c.name == "setopt" && (o == "histnostore" || o == "histignorespace" || o == "nohistsave" || o == "noappendhistory" || o == "noincappendhistory") ||
					c.name == "unsetopt" && (o == "incappendhistory" || o == "appendhistory" || o == "histsave" || o == "sharehistory" && len(c.args()) > 1) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "kernel-log-clear", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "clearing the kernel's message buffer",
		Suggestions: []string{"Read it without clearing (dmesg, journalctl -k)"}, names: names("dmesg"),
		match: func(a *analysis, c *cmd) (bool, string) {
			o := c.opts()
			return o.has("cC", "clear", "read-clear"), ""
		}},
	{ID: "history-disable", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "disabling shell history",
		Suggestions: []string{"Leave history enabled", "Start the command with a space only if HISTCONTROL=ignorespace is already set by the user"},
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, as := range c.assigns {
				if oneProgramEnv(c) {
					break // HISTFILE= ./job.sh: only that program's environment
				}
				if histVarDisabled(as.name, as.val.s) {
					return true, as.name + "=" + as.val.s
				}
			}
			switch c.name {
			case "unset":
				for _, w := range c.args() {
					if w.s == "HISTFILE" || w.s == "HISTSIZE" || w.s == "HISTFILESIZE" {
						return true, w.s
					}
				}
			case "set":
				args := c.args()
				for i, w := range args {
					if w.s == "+o" && i+1 < len(args) && args[i+1].s == "history" {
						return true, "set +o history"
					}
				}
				// fish: set -gx HISTFILE /dev/null, set -e fish_history
				ops := c.operands()
				erase := hasWord(args, "-e") || hasWord(args, "--erase")
				if len(ops) >= 1 && erase && (ops[0].s == "fish_history" || ops[0].s == "HISTFILE") {
					return true, "set -e " + ops[0].s
				}
				if len(ops) >= 1 && !erase {
					val := ""
					if len(ops) >= 2 {
						val = ops[1].s
					}
					if ops[0].s == "fish_history" && (val == "" || val == "/dev/null") || histVarDisabled(ops[0].s, val) {
						return true, "set " + ops[0].s + " " + val
					}
				}
			}
			return false, ""
		}},
	{ID: "journal-wipe", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "deleting nearly all of the system journal",
		Suggestions: []string{"Keep a sensible retention (e.g. --vacuum-time=30d)", "Let journald manage retention"}, names: names("journalctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				if v, ok := strings.CutPrefix(w.s, "--vacuum-time="); ok {
					if strings.HasSuffix(v, "s") || strings.HasSuffix(v, "min") || strings.HasSuffix(v, "m") || strings.HasSuffix(v, "h") || v == "1d" || v == "0" {
						return true, w.s
					}
				}
				if v, ok := strings.CutPrefix(w.s, "--vacuum-size="); ok && parseSize(v) < 64<<20 {
					return true, w.s
				}
				if v, ok := strings.CutPrefix(w.s, "--vacuum-files="); ok && (v == "0" || v == "1") {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "audit-disable", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "disabling or deleting audit rules",
		Suggestions: []string{"Leave auditing enabled", "Change audit rules through reviewed configuration"}, names: names("auditctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			for i, w := range args {
				if w.s == "-D" || w.s == "-e" && i+1 < len(args) && args[i+1].s == "0" {
					return true, w.s
				}
				// -W: a watch taken off (on the accounts, sudoers, the
				// SSH server's settings: who changes them goes unrecorded)
				if w.s == "-W" && i+1 < len(args) {
					if p := args[i+1].s; strings.HasPrefix(p, "/etc/") || strings.HasPrefix(p, "/var/log") || strings.HasPrefix(p, "/usr/bin") || strings.HasPrefix(p, "/usr/sbin") {
						return true, "-W " + p
					}
				}
			}
			return false, ""
		}},
	{ID: "logging-disable", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "stopping system logging or auditing",
		Suggestions: []string{"Leave logging and auditing running", "Change log levels through configuration instead"}, names: names("systemctl", "service"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) < 2 {
				return false, ""
			}
			if c.name == "service" {
				return ops[1].s == "stop" && loggingServices[unitName(ops[0].s)], ops[0].s
			}
			switch ops[0].s {
			case "stop", "disable", "mask", "kill":
				for _, w := range ops[1:] {
					if loggingServices[unitName(w.s)] {
						return true, w.s
					}
				}
			}
			return false, ""
		}},
	{ID: "log-retention-cut", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "cutting a cloud log store's retention to a day or two (its history is deleted)",
		Suggestions: []string{"Keep the organisation's retention; export what you need instead"}, names: names("gcloud", "aws"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			for _, o := range [...]string{"retention-days", "retention-in-days"} {
				if v, ok := optValue(args, "", o); ok && (v == "0" || v == "1" || v == "2" || v == "3") {
					return true, "--" + o + " " + v
				}
			}
			return false, ""
		}},
	{ID: "log-store-delete", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "deleting logs or metrics from a central store (Loki's delete requests, Prometheus's TSDB admin deletes)",
		Suggestions: []string{"Let retention expire old logs and series", "Delete one stream's logs after review"}, names: httpClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			h, ok := readHTTPCall(c)
			if !ok || h.method != "POST" && h.method != "PUT" {
				return false, "" // a GET lists the delete requests; a DELETE cancels one
			}
			u := h.url
			// Loki's delete API: every line its selector matches goes;
			// Prometheus's admin API: the series its matcher selects
			if strings.Contains(u, "/loki/api/v1/delete") || strings.Contains(u, "/api/v1/admin/tsdb/delete_series") || strings.Contains(u, "/api/v1/admin/tsdb/clean_tombstones") {
				h := hostOf(u)
				if isLocalHost(h) && pullRequestName(lower(u)) || strings.Contains(u, "/admin/tsdb/") && (h == "localhost" || loopback(h)) {
					return false, "" // a pull request's load test, or this machine's own Prometheus
				}
				return true, u
			}
			return false, ""
		}},
	{ID: "log-index-cleaned", Level: LevelCritical, Category: CategoryHistoryTamper, Description: "erasing a log platform's indexed events (Splunk's clean eventdata, an index removed)",
		Suggestions: []string{"Let the index's retention expire old events", "Ask the platform's administrators to delete what must go"},
		names:       names("splunk"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) > 1 && ops[0].s == "clean" && (ops[1].s == "eventdata" || ops[1].s == "all") {
				return true, "splunk clean " + ops[1].s
			}
			if len(ops) > 2 && ops[0].s == "remove" && ops[1].s == "index" {
				return true, "splunk remove index " + ops[2].s
			}
			return false, ""
		}},
	{ID: "cloud-logging-disable", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "disabling or deleting cloud audit logs",
		Suggestions: []string{"Leave audit logging on", "Change retention through reviewed configuration"}, names: names("aws", "gcloud", "az"),
		match: func(a *analysis, c *cmd) (bool, string) {
			switch c.name {
			case "aws":
				op, _ := awsOp(c)
				if v, ok := optValue(c.args(), "", "log-group-name"); ok && (throwawayName(v) || ciRunName(v)) {
					return false, "" // a pull request's or a test's function's logs
				}
				if op == "guardduty update-detector" && hasWord(c.args(), "--no-enable") || awsDetectorOff[op] {
					return true, op // threat detection turned off
				}
				return awsLogOps[op], op
			case "gcloud":
				p := cliPath(c)
				// logging sinks update AUDIT-SINK --log-filter='...
				// severity>=ERROR': the audit trail cut to what fails
				if len(p) >= 3 && p[0] == "logging" && p[1] == "sinks" && p[2] == "update" && len(p) > 3 && strings.Contains(lower(p[3]), "audit") {
					if f, ok := optValue(c.args(), "", "log-filter"); ok && hasAny(strings.ToUpper(f), "SEVERITY>=ERROR", "SEVERITY>=CRITICAL", "SEVERITY>=ALERT", "SEVERITY>=EMERGENCY", "SEVERITY>=WARNING") {
						return true, "audit sink " + p[3] + " filtered to " + f
					}
				}
				return len(p) >= 3 && p[0] == "logging" && containsStr(p, "delete"), ""
			case "az":
				p := cliPath(c)
				return len(p) >= 3 && p[0] == "monitor" && containsStr(p, "delete"), ""
			}
			return false, ""
		}},
	{ID: "history-delete", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "deleting history entries or sending history nowhere",
		Suggestions: []string{"Leave shell history in place", "Remove one entry holding a secret by hand"}, names: names("history", "fc", "set", "atuin", "mcfly", "hishtory", "hstr", "resh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "history":
				if len(args) > 0 && (args[0].s == "clear" || args[0].s == "clear-session" || args[0].s == "delete" && (hasWord(args, "--all") || hasPrefixWord(args, "--prefix") || hasPrefixWord(args, "--contains"))) {
					return true, "history " + args[0].s
				}
				if len(args) > 1 && args[0].s == "delete" {
					for _, w := range positional(args[1:]) {
						if !w.ok {
							return true, "history delete " + w.s // entries picked by a search or a loop
						}
						// fish: history delete --exact 'scp ~/.ssh/id_ed25519
						// backup@203.0.113.9:': the trace of a dangerous
						// command removed (one entry holding a typed secret
						// is the user's to remove)
						if v := a.d.CheckCommand(w.s, Context{WorkDir: a.workDir, Home: a.home}); v.Blocked && v.Level >= LevelHigh {
							return true, "history delete of a " + v.Level.String() + " command (" + v.Pattern + ")"
						}
					}
				}
			case "atuin", "mcfly", "hishtory", "hstr", "resh":
				// a history manager's own database: deleting from it, or
				// pruning it, hides what was run
				for _, w := range args {
					l := lower(w.s)
					if strings.HasPrefix(l, "--delete") || l == "delete" || l == "prune" || l == "clear" || l == "purge" {
						return true, c.name + " " + w.s
					}
				}
				if len(args) > 1 && args[0].s == "-d" && !args[1].ok {
					return true, "history -d " + args[1].s
				}
			case "fc":
				if (hasWord(args, "-p") || hasWord(args, "-P")) && hasWord(args, "/dev/null") {
					return true, "fc -p /dev/null"
				}
			case "set":
				ops := c.operands()
				if len(ops) >= 1 && ops[0].s == "fish_history" && (len(ops) == 1 || ops[1].s == "") {
					return true, "fish_history"
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, historyTamperRules) }

// oneProgramEnv reports assignments written before a program other than
// a shell: they are that program's environment, the shell's own history
// settings are not changed.
func oneProgramEnv(c *cmd) bool {
	if len(c.words) == 0 || shellNameSet[c.name] {
		return false
	}
	switch c.name {
	case "export", "declare", "typeset", "local", "readonly", "setenv", "set", "env":
		return false
	}
	return true
}
