package guard

import (
	"path"
	"strings"
)

// Moodle's command-line scripts (php admin/cli/NAME.php): a site
// administrator named, a stored password or key printed, an installed
// plugin uninstalled, or the live site put in maintenance and every user
// signed out. Reading other settings, purging caches, upgrades' checks
// and the plugin's own tests pass.
var lmsRules = []*rule{
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

func init() { ruleSets = append(ruleSets, lmsRules) }

// storedSecretName reports a setting's name that holds a password, key or
// token (bind_pw, smtppass, apikey), not a policy about them
// (passwordpolicy, minpasswordlength).
func storedSecretName(name string) bool {
	l := lower(name)
	return hasAny(l, "pw", "pass", "secret", "token", "key") && !hasAny(l, "policy", "length", "expir", "lockout", "rotat", "reset", "hint", "keyboard")
}
