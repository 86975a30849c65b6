package guard

import (
	"path"
	"strings"
)

// Learning platforms' administration from the command line: Moodle's
// admin/cli scripts and moosh deleting users or courses, weakening the
// site's security settings, setting an administrator's password in the
// command. Listings, cache purges and a setting shown pass.
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
}

func init() { ruleSets = append(ruleSets, learningRules) }
