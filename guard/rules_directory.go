package guard

import "strings"

// A company's user directory administered from the command line (GAM
// for Google Workspace): people deleted with their mail and files, and
// changes applied to every user at once. GAM reads its words in order:
// a selector (user X, all users, ou /Sales, group g), then a verb and
// what it acts on; bulk mail deletion only happens with "doit".
var directoryRules = []*rule{
	{ID: "directory-account-deleted", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting a person's account, group or organisational unit from the company directory (their mail and files go with it)",
		Suggestions: []string{"Suspend the account instead, and let an administrator delete it after review", "Transfer the person's files first"},
		names:       names("gam", "gamadv-xtd3"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			if len(low) < 3 {
				return false, ""
			}
			if low[0] == "delete" || low[0] == "del" {
				switch low[1] {
				case "user", "users", "group", "groups", "org", "ou", "orgunit", "domain", "alias", "resource", "building":
					if throwawayName(low[2]) {
						return false, ""
					}
					return true, "gam delete " + low[1] + " " + low[2]
				}
			}
			return false, ""
		}},
	{ID: "directory-bulk-destroy", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "deleting mail, files or accounts of every user of the company directory at once",
		Suggestions: []string{"Run the command for one user first, without doit, to see what it selects", "Let the directory's administrators run bulk deletions"},
		names:       names("gam", "gamadv-xtd3"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			if len(low) < 4 {
				return false, ""
			}
			// all users, or every user of an organisational unit, a
			// group or a domain
			everyone := low[0] == "all" && (low[1] == "users" || low[1] == "users_ns" || low[1] == "users_susp") ||
				(low[0] == "ou" || low[0] == "ou_and_children" || low[0] == "group" || low[0] == "domain") && !strings.HasPrefix(low[1], "-")
			if !everyone {
				return false, ""
			}
			for i, l := range low[2:] {
				switch l {
				case "delete", "trash", "purge", "wipe", "deprovision":
					// mail deletion is a preview unless doit is given
					if i+3 < len(low) && (low[i+3] == "messages" || low[i+3] == "message") && !hasAnyWord(low, "doit") {
						return false, ""
					}
					return true, "gam " + low[0] + " " + low[1] + " " + l
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, directoryRules) }
