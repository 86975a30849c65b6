package guard

import (
	"path"
	"strings"
)

// Learning platforms' administration from the command line: Moodle's
// admin/cli scripts and moosh deleting users or courses, weakening the
// site's security settings, setting an administrator's password in the
// command, naming site administrators, printing stored secrets,
// uninstalling plugins, taking the live site offline. Listings, cache
// purges and an ordinary setting shown pass.
var learningRules = []*rule{
	{ID: "lms-records-deleted", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "deleting a learning platform's users, courses or grades from its command line (moosh, Moodle's admin scripts)",
		Suggestions: []string{"Suspend the accounts or hide the courses; delete after the retention period", "Back the site up first (admin/cli/backup.php)"},
		names:       names("moosh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			for i, w := range ops {
				if i > 0 && ops[i-1].s == "-p" {
					continue
				}
				switch w.s {
				case "user-delete", "course-delete", "category-delete", "cohort-delete", "gradebook-delete", "course-reset":
					return true, "moosh " + w.s
				}
			}
			return false, ""
		}},
	{ID: "lms-security-weakened", Level: LevelHigh, Category: CategorySystem, Description: "weakening a learning platform's security settings (password policy off, debugging shown to users, guests or self-registration let in) or setting an administrator's password in the command",
		Suggestions: []string{"Change site settings in the administration pages, through the change process", "Reset passwords with --random or by mail, never in the command"},
		names:       names("php"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) == 0 {
				return false, ""
			}
			script := path.Base(ops[0].s)
			if !strings.Contains(ops[0].s, "admin/cli/") {
				return false, ""
			}
			args := c.args()
			switch script {
			case "cfg.php":
				name, _ := optValue(args, "", "name")
				v, ok := optValue(args, "", "set")
				if !ok {
					return false, ""
				}
				switch strings.ToLower(name) {
				case "passwordpolicy", "forcelogin", "cronclionly", "preventexecpath", "lockoutthreshold", "cookiesecure", "cookiehttponly":
					if v == "0" || v == "false" {
						return true, "cfg.php --name=" + name + " --set=" + v
					}
				case "debugdisplay", "allowframembedding", "guestloginbutton", "autologinguests", "allowindexing":
					if v == "1" || v == "true" {
						return true, "cfg.php --name=" + name + " --set=" + v
					}
				case "debug":
					if v == "32767" || v == "6143" || v == "2047" {
						return true, "cfg.php --name=debug --set=" + v + " (developer messages)"
					}
				case "registerauth":
					if v != "" {
						return true, "cfg.php --name=registerauth --set=" + v + " (self-registration)"
					}
				}
			case "reset_password.php":
				if u, ok := optValue(args, "", "username"); ok {
					if _, pw := optValue(args, "", "password"); pw {
						return true, "reset_password.php setting " + u + "'s password in the command"
					}
				}
			}
			return false, ""
		}},
	// Moodle's administration scripts that change who administers the
	// site, print a stored password or key, uninstall a plugin, or take
	// the production site offline (maintenance, every session killed).
	{ID: "lms-admin-cli", Level: LevelHigh, Category: CategorySystem, Description: "changing who administers a learning platform, printing its stored passwords, uninstalling its plugins, or taking the live site offline from its command line",
		Suggestions: []string{"Change administrators and plugins in the site's administration pages", "Put the site in maintenance in the announced window"},
		names:       names("php"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) == 0 {
				return false, ""
			}
			script := strings.ReplaceAll(ops[0].s, `\`, "/")
			if !strings.Contains(script, "admin/cli/") && !strings.HasPrefix(script, "cli/") {
				return false, ""
			}
			args := c.args()
			name, _ := optValue(args, "", "name")
			set, setting := optValue(args, "", "set")
			switch path.Base(script) {
			case "cfg.php":
				switch {
				case setting && name == "siteadmins":
					return true, "Moodle's site administrators set to " + set
				case !setting && !hasWord(args, "--unset") && name != "" && storedSecretName(name):
					return true, "Moodle's stored " + name + " printed"
				}
			case "uninstall_plugins.php":
				if hasWord(args, "--run") {
					p, _ := optValue(args, "", "plugins")
					return true, "Moodle plugins uninstalled: " + p
				}
			case "maintenance.php", "kill_all_sessions.php":
				if path.Base(script) == "maintenance.php" && !hasWord(args, "--enable") && !hasWord(args, "--enablelater") {
					return false, ""
				}
				if c.remote && a.prodTarget > 0 || touchesProduction(c) {
					return true, "the live site taken offline (" + path.Base(script) + ")"
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, learningRules) }

// storedSecretName reports a setting's name that holds a password, key or
// token (bind_pw, smtppass, apikey), not a policy about them
// (passwordpolicy, minpasswordlength).
func storedSecretName(name string) bool {
	l := lower(name)
	return hasAny(l, "pw", "pass", "secret", "token", "key") && !hasAny(l, "policy", "length", "expir", "lockout", "rotat", "reset", "hint", "keyboard")
}
