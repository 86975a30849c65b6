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
		names:       names("gam", "gamadv-xtd3", "dsrm", "dsrm.exe", "remove-gpo"),
		match: func(a *analysis, c *cmd) (bool, string) {
			switch c.name {
			case "dsrm", "dsrm.exe":
				// dsrm DN -subtree -noprompt, dsquery ... | dsrm -noprompt:
				// Active Directory objects (a whole OU with -subtree)
				// deleted without a question
				args := wargs(c)
				if hasSw(args, "noprompt") || hasSw(args, "subtree") {
					for _, w := range args {
						if !strings.HasPrefix(w, "-") && throwawayName(w) {
							return false, ""
						}
					}
					return true, "dsrm " + strings.Join(args, " ")
				}
				return false, ""
			case "remove-gpo":
				// Remove-GPO: a Group Policy object, and what it enforced
				// on every computer it was linked to
				args := wargs(c)
				if hasSw(args, "whatif") || cmdletScratch(args) {
					return false, ""
				}
				return true, "Remove-GPO " + strings.Join(args, " ")
			}
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
			if len(low) < 3 {
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
	{ID: "directory-user-data-changed", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting a person's mail or files through the directory's administration (purged, or by a query), switching their second factor off, signing them out everywhere, or sharing their files with anyone",
		Suggestions: []string{"Run the selection without doit first, and move to trash rather than purge", "Share with named people; leave security settings to the directory's administrators"},
		names:       names("gam", "gamadv-xtd3", "gyb"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			if c.name == "gyb" {
				// gyb --action purge (or purge-labels): mail deleted from
				// the account
				if v, ok := optValue(c.args(), "", "action"); ok && strings.HasPrefix(strings.ToLower(v), "purge") {
					return true, "gyb --action " + v
				}
				return false, ""
			}
			if inner, ok := gamBatch(low); ok {
				if len(inner) > 1 && (inner[0] == "delete" || inner[0] == "del") && !hasAnyWord(inner, "preview") {
					switch inner[1] {
					case "user", "users", "group", "groups", "course", "courses", "shareddrive", "teamdrive", "org", "ou", "resource", "alias":
						return true, "gam csv ... gam delete " + inner[1] + " (every one the file lists)"
					}
				}
				if len(inner) > 3 && (inner[0] == "user" || inner[0] == "users") && inner[2] == "add" && inner[3] == "drivefileacl" && aclOutside(inner) {
					return true, "every listed file shared outside the organisation"
				}
				return false, ""
			}
			if len(low) < 3 || low[0] != "user" && low[0] != "users" {
				return false, ""
			}
			who, rest := low[1], low[2:]
			j := strings.Join(rest, " ")
			switch {
			case strings.HasPrefix(j, "delete drivefile") || strings.HasPrefix(j, "purge drivefile"):
				if hasAnyWord(rest, "purge") || strings.HasPrefix(j, "purge") || strings.Contains(j, " query ") && hasAnyWord(rest, "doit") {
					return true, "files of " + who + " deleted for good"
				}
			case strings.HasPrefix(j, "delete messages") || strings.HasPrefix(j, "trash messages") || strings.HasPrefix(j, "delete message"):
				if hasAnyWord(rest, "doit") {
					return true, "mail of " + who + " deleted"
				}
			case j == "turnoff2sv" || strings.HasPrefix(j, "turnoff2sv "):
				return true, "two-step verification switched off for " + who
			case j == "deprovision" || strings.HasPrefix(j, "deprovision "):
				return true, who + " deprovisioned (signed out, app passwords and backup codes removed)"
			case strings.HasPrefix(j, "add drivefileacl") && hasAnyWord(rest, "anyone"):
				return true, "a file of " + who + " shared with anyone who has the link"
			case strings.HasPrefix(j, "add delegate ") || strings.HasPrefix(j, "delegate to "):
				return true, "the mailbox of " + who + " delegated to another account"
			}
			return false, ""
		}},
	{ID: "workspace-data-wiped", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "wiping a Google Workspace calendar, a managed phone or a classroom's courses through GAM",
		Suggestions: []string{"Delete single events or one course after checking with its owner", "Retire the device from the console, where its owner is told"},
		names:       names("gam", "gamadv-xtd3"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(c.lowerArgs(), " ")
			switch {
			case strings.HasPrefix(j, "calendar ") && strings.HasSuffix(j, " wipe"):
				return true, "every event of a calendar wiped"
			case strings.Contains(j, "update mobile ") && (strings.Contains(j, "action admin_remote_wipe") || strings.Contains(j, "action admin_account_wipe")):
				return true, "a managed phone wiped"
			case strings.HasPrefix(j, "delete course ") || strings.HasPrefix(j, "delete courses "):
				return true, "a classroom course deleted"
			}
			return false, ""
		}},
	{ID: "workspace-setting-weakened", Level: LevelHigh, Category: CategoryPermission, Description: "weakening a Google Workspace policy through GAM: Chrome policies lifted for an organisational unit, a group opened to anyone, Chromebooks deprovisioned or wiped, an account suspended",
		Suggestions: []string{"Change policies in the console for a test OU first", "Ask the Workspace administrators"},
		names:       names("gam", "gamadv-xtd3"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(c.lowerArgs(), " ")
			switch {
			case strings.HasPrefix(j, "delete chromepolicy "):
				return true, "a Chrome policy removed from an organisational unit"
			case strings.HasPrefix(j, "update chromepolicy ") && chromePolicyRelaxed(c.lowerArgs()):
				return true, "a Chrome policy relaxed"
			case strings.Contains(j, "update group ") && hasAny(j, "anyone_can_post", "anyone_can_join", "allow_external_members true", "all_in_domain_can_view") ||
				strings.Contains(j, "update group ") && strings.Contains(j, "who_can_view_membership anyone"):
				return true, "a group opened to anyone"
			case (strings.Contains(j, "update cros ") || strings.HasPrefix(j, "cros")) && hasAny(j, "action deprovision", "action disable", "wipe_users", "remote_powerwash", "powerwash"),
				strings.Contains(j, "issuecommand") && hasAny(j, "wipe_users", "remote_powerwash"):
				return true, "Chromebooks deprovisioned or wiped"
			case strings.Contains(j, "update user ") && strings.Contains(j, "suspended on"):
				return true, "an account suspended"
			}
			return false, ""
		}},
	{ID: "shared-drive-opened", Level: LevelHigh, Category: CategoryPermission, Description: "letting a shared drive's files be shared outside the organisation",
		Suggestions: []string{"Share the one file that must go out, with the people it is for"},
		names:       names("gam", "gamadv-xtd3"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(c.lowerArgs(), " ")
			if strings.HasPrefix(j, "update shareddrive") || strings.HasPrefix(j, "update teamdrive") {
				if strings.Contains(j, "domainusersonly false") || strings.Contains(j, "drivemembersonly false") {
					return true, "a shared drive's restriction to the domain lifted"
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, directoryRules) }

// chromePolicyRelaxed reports a Chrome policy value that allows what the
// policy restricts (AVAILABLE, ALWAYS_ALLOW_DEVELOPER_TOOLS, false,
// UNRESTRICTED).
func chromePolicyRelaxed(low []string) bool {
	for _, w := range low {
		if w == "available" || w == "false" || w == "unrestricted" || strings.HasPrefix(w, "always_allow") || strings.HasPrefix(w, "allow_all") || w == "no_protection" {
			return true
		}
	}
	return false
}

// Group Policy made weaker from the command line: a policy unlinked from
// the computers it hardens, or its control given to one account.
var groupPolicyRules = []*rule{
	{ID: "group-policy-weakened", Level: LevelHigh, Category: CategorySystem, Description: "unlinking a Group Policy from the computers it applies to, or giving one account the right to edit or delete it",
		Suggestions: []string{"Change Group Policy through the domain's change process", "Try it on a test OU first"},
		names:       names("set-gplink", "set-gppermission", "remove-gplink"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if hasSw(args, "whatif") || cmdletScratch(args) {
				return false, ""
			}
			switch c.name {
			case "set-gplink":
				// -LinkEnabled No: the policy stops applying
				if v, ok := swVal(args, "linkenabled"); ok && (strings.Trim(v, `"'`) == "no" || v == "$false") {
					return true, "Set-GPLink -LinkEnabled No"
				}
			case "remove-gplink":
				return true, "Remove-GPLink"
			case "set-gppermission":
				// -PermissionLevel GpoEditDeleteModifySecurity (or GpoEdit)
				// -TargetType User: one account controls what the policy
				// runs on every computer it applies to
				if v, ok := swVal(args, "permissionlevel"); ok && strings.HasPrefix(strings.Trim(v, `"'`), "gpoedit") {
					return true, "Set-GPPermission -PermissionLevel " + v
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, groupPolicyRules) }

// gamBatch returns the GAM command a batch runs for every row of a file
// or of another GAM listing piped in ("gam csv FILE gam CMD ~field ...",
// "gam print groups | gam csv - gam delete group ~email").
func gamBatch(low []string) ([]string, bool) {
	if len(low) < 3 || low[0] != "csv" && low[0] != "loop" {
		return nil, false
	}
	for i := 2; i < len(low); i++ {
		if low[i] == "gam" {
			return low[i+1:], true
		}
	}
	return nil, false
}

// aclOutside reports a GAM drive ACL ("user WHO add drivefileacl ID
// domain D|user E|group E ...") that names a domain other than WHO's.
func aclOutside(low []string) bool {
	if len(low) < 2 {
		return false
	}
	_, own, ok := strings.Cut(low[1], "@")
	if !ok {
		return false
	}
	for i := 4; i+1 < len(low); i++ {
		var d string
		switch low[i] {
		case "domain":
			d = low[i+1]
		case "user", "group":
			_, d, _ = strings.Cut(low[i+1], "@")
		default:
			continue
		}
		if d != "" && d != own && !strings.HasSuffix(d, "."+own) && !strings.HasPrefix(d, "~") {
			return true
		}
	}
	return false
}
