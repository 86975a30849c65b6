package guard

import (
	"strings"
)

// Mail servers and mail administration: Postfix (postsuper, postconf),
// Exim, Dovecot (doveadm), Google Workspace's GAM and Exchange Online's
// cmdlets. Queued and stored mail deleted, every message copied to
// another address, the relay opened or its checks dropped, mailboxes
// exported tenant-wide (GAM's deletions are directory-account-deleted's,
// compliance purges mail-purge-cmdlet's). Reading the queue, searching,
// counting, previews and -WhatIf pass, and so does a test server's mail
// (a Dovecot started with the project's own configuration, a test
// compose file).
var mailRules = []*rule{
	{ID: "mail-destroyed", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "deleting queued or stored mail on a mail server (messages, whole mailboxes, a reverse sync from an empty folder)",
		Suggestions: []string{"Hold or requeue messages instead (postsuper -h, -r) and delete only the one stuck message", "Search first (doveadm search) and back the mailbox up before expunging"},
		names:       names("postsuper", "exim", "exim4", "doveadm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if mailTestServer(c) {
				return false, ""
			}
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "postsuper":
				if v, ok := optValue(args, "-d", ""); ok {
					return true, "postsuper -d " + v
				}
			case "exim", "exim4":
				for _, w := range args {
					if w.s == "-Mrm" {
						return true, c.name + " -Mrm"
					}
				}
			case "doveadm":
				if len(ops) == 0 {
					break
				}
				switch {
				case ops[0].s == "expunge":
					return true, "doveadm expunge " + mailUsers(args)
				case ops[0].s == "mailbox" && len(ops) > 1 && ops[1].s == "delete":
					return true, "doveadm mailbox delete " + mailUsers(args)
				case (ops[0].s == "backup" || ops[0].s == "sync") && hasWord(args, "-R"):
					return true, "doveadm " + ops[0].s + " -R (the mailbox made like the other side)"
				}
			}
			return false, ""
		}},
	{ID: "mail-copied-out", Level: LevelCritical, Category: CategoryExfiltration, Description: "copying every message (or a mailbox's) to another address: a BCC map, an added recipient, forwarding or a redirect to an outside account",
		Suggestions: []string{"Use the organisation's journaling and retention features, set up by the mail admins", "Forward nothing automatically outside the organisation"},
		names:       names("postconf", "exim", "exim4", "doveadm", "gam", "set-remotedomain", "set-hostedoutboundspamfilterpolicy"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "postconf":
				for _, st := range postconfSettings(args) {
					switch k, v := st.k, st.v; k {
					case "always_bcc", "sender_bcc_maps", "recipient_bcc_maps":
						if v != "" {
							return true, "postconf " + k + " = " + v
						}
					}
				}
			case "exim", "exim4":
				// exim -Mar ID ADDRESS: a recipient added to a queued message
				for i, w := range args {
					if w.s == "-Mar" && i+2 < len(args) {
						return true, c.name + " -Mar " + args[i+2].s
					}
				}
			case "doveadm":
				// doveadm sieve put ... <<< 'redirect "x@outlook.com"'
				ops := c.operands()
				if len(ops) > 1 && ops[0].s == "sieve" && ops[1].s == "put" && c.in.kind == flowText && strings.Contains(lower(c.in.text), "redirect") {
					if e := outsideEmailIn(lower(c.in.text)); e != "" {
						return true, "a sieve redirect to " + e
					}
				}
			case "gam":
				// gam user X forward on ADDRESS, gam user X filter ...
				// forward ADDRESS: to a personal mailbox, or to another
				// domain than the user's own
				low := c.lowerArgs()
				own := ""
				if len(low) > 1 && (low[0] == "user" || low[0] == "users") {
					_, own, _ = strings.Cut(low[1], "@")
				}
				for i, l := range low {
					if l == "forward" && i+1 < len(low) {
						to := low[i+1]
						if to == "on" && i+2 < len(low) {
							to = low[i+2]
						}
						if e := outsideEmailIn(to); e != "" {
							return true, "gam forwarding to " + e
						}
						if _, dom, ok := strings.Cut(to, "@"); ok && own != "" && dom != own && !strings.HasSuffix(dom, "."+own) {
							return true, "gam forwarding to " + to
						}
					}
				}
			case "set-remotedomain":
				if v, ok := psFlag(c.lowerArgs(), "autoforwardenabled", 6); psTrue(v, ok) {
					return true, "automatic forwarding outside the organisation allowed"
				}
			case "set-hostedoutboundspamfilterpolicy":
				if v, ok := psFlag(c.lowerArgs(), "autoforwardingmode", 6); ok && strings.EqualFold(v, "on") {
					return true, "automatic forwarding outside the organisation allowed"
				}
			}
			return false, ""
		}},
	{ID: "mail-relay-weakened", Level: LevelHigh, Category: CategorySystem, Description: "opening a mail relay to every address or dropping its checks (TLS, content filtering, sender restrictions, DKIM signing, malware filtering, mailbox auditing)",
		Suggestions: []string{"Relay only for the networks and users that need it", "Keep TLS, filtering, signing and auditing on; change one setting at a time in a reviewed change"},
		names:       names("postconf", "postsuper", "set-dkimsigningconfig", "set-malwarefilterpolicy", "set-mailbox"),
		match: func(a *analysis, c *cmd) (bool, string) {
			switch c.name {
			case "postconf":
				for _, st := range postconfSettings(c.args()) {
					switch k, v := st.k, st.v; {
					case k == "mynetworks" && (strings.Contains(v, "0.0.0.0/0") || strings.Contains(v, "::/0") || strings.Contains(v, "0/0")):
						return true, "mynetworks = " + v + " (an open relay)"
					case (k == "smtpd_tls_security_level" || k == "smtp_tls_security_level") && v == "none":
						return true, k + " = none"
					case k == "content_filter" && v == "":
						return true, "the content filter unhooked"
					case k == "smtpd_milters" && v == "", k == "non_smtpd_milters" && v == "":
						return true, "the milters (filtering, signing) unhooked"
					case (k == "smtpd_sender_restrictions" || k == "smtpd_relay_restrictions" || k == "smtpd_recipient_restrictions") && (v == "" || v == "permit"):
						return true, k + " dropped"
					case k == "disable_vrfy_command" && v == "no":
						return true, "VRFY allowed (addresses can be enumerated)"
					case k == "smtpd_tls_auth_only" && v == "no":
						return true, "passwords accepted without TLS"
					}
				}
			case "postsuper":
				// postsuper -h ALL: every queued message held
				if v, ok := optValue(c.args(), "-h", ""); ok && strings.EqualFold(v, "all") {
					return true, "every queued message put on hold"
				}
			case "set-dkimsigningconfig":
				if v, ok := psFlag(c.lowerArgs(), "enabled", 6); ok && psOff(v) {
					return true, "DKIM signing switched off"
				}
			case "set-malwarefilterpolicy":
				for _, p := range [...]string{"enablefilefilter", "zapenabled"} {
					if v, ok := psFlag(c.lowerArgs(), p, len(p)); ok && psOff(v) {
						return true, "malware filtering weakened (-" + p + " off)"
					}
				}
			case "set-mailbox":
				if v, ok := psFlag(c.lowerArgs(), "auditenabled", 6); ok && psOff(v) {
					return true, "mailbox auditing switched off"
				}
			}
			return false, ""
		}},
	{ID: "mailbox-exported", Level: LevelCritical, Category: CategoryExfiltration, Description: "exporting mailboxes in bulk (a compliance search's export, a mailbox exported to a share); purges are mail-purge-cmdlet's",
		Suggestions: []string{"Run exports through the compliance team's reviewed process", "Preview the search's results first (-Preview)"},
		names:       names("new-compliancesearchaction", "new-mailboxexportrequest"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if psWhatIf(c.name, c.args()) {
				return false, ""
			}
			switch c.name {
			case "new-compliancesearchaction":
				if _, ok := psFlag(c.lowerArgs(), "export", 6); ok {
					return true, "a compliance search's matches exported"
				}
			case "new-mailboxexportrequest":
				// a share open to guests or to everyone (a bare address's
				// is another rule's); the Exchange server's own pst share
				// is where exports go
				if v, ok := psFlag(c.lowerArgs(), "filepath", 6); ok && (strings.HasPrefix(v, `\\`) || strings.HasPrefix(v, "//")) && hasAny(v, "guest", "public", "everyone", "anonymous") {
					return true, "a mailbox exported to " + v
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, mailRules) }

// postconfSetting is one name = value a postconf command writes.
type postconfSetting struct{ k, v string }

// postconfSettings returns the settings a postconf command writes (its
// name=value words, given to -e or -o), names in lower case.
func postconfSettings(args []word) []postconfSetting {
	var out []postconfSetting
	for _, w := range args {
		if strings.HasPrefix(w.s, "-") {
			continue
		}
		if k, v, ok := strings.Cut(w.s, "="); ok {
			out = append(out, postconfSetting{lower(strings.TrimSpace(k)), strings.TrimSpace(v)})
		}
	}
	return out
}

// mailTestServer reports a mail tool pointed at the project's own test
// server: doveadm -c with a configuration inside the project.
func mailTestServer(c *cmd) bool {
	if v, ok := optValue(c.args(), "-c", ""); ok && (strings.HasPrefix(v, "/work/project/") || !strings.HasPrefix(v, "/") || testName(v)) {
		return true
	}
	return false
}

// mailUsers returns whose mail a doveadm command reaches (-A: everyone's).
func mailUsers(args []word) string {
	if hasWord(args, "-A") {
		return "(every user)"
	}
	if v, ok := optValue(args, "-u", ""); ok {
		return "(" + v + ")"
	}
	return ""
}

// psOff reports a PowerShell argument that switches something off:
// $false, false, 0, off.
func psOff(v string) bool {
	switch lower(strings.Trim(v, `"'`)) {
	case "$false", "false", "0", "off":
		return true
	}
	return false
}
