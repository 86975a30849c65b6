package guard

import (
	"strings"
)

// Business-intelligence and orchestration servers run from their own
// command lines: a Tableau site deleted or a server restored from an old
// backup, Superset's metadata downgraded, Power BI objects deleted
// through its REST cmdlet, Dagster's run history wiped, public sharing
// switched on through Metabase's or Power BI's settings. Listings,
// backups and a developer's local instance pass.
var biRules = []*rule{
	{ID: "bi-server-destroyed", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "deleting a BI server's sites or workbooks, restoring it over its live content, downgrading its metadata database, or wiping an orchestrator's run history",
		Suggestions: []string{"Back the server up first (tsm maintenance backup) and restore onto a test server", "Delete one named workbook after checking who uses it"},
		names:       names("tabcmd", "tsm", "superset", "dagster", "invoke-powerbirestmethod"),
		partial:     true, // (dagster asset wipe --all stays the clients' rules')
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := plainWords(c.lowerArgs())
			switch c.name {
			case "tabcmd":
				if len(ops) > 1 && (ops[0] == "deletesite" || ops[0] == "delete" || ops[0] == "deleteproject" || ops[0] == "deleteworkbook") && !scratchName(ops[1]) {
					return true, "tabcmd " + ops[0] + " " + ops[1]
				}
			case "tsm":
				if len(ops) > 1 && ops[0] == "maintenance" && ops[1] == "restore" {
					return true, "tsm maintenance restore (the server's content replaced by the backup's)"
				}
			case "superset":
				if len(ops) > 1 && ops[0] == "db" && ops[1] == "downgrade" {
					return true, "superset db downgrade (the metadata database's tables dropped)"
				}
			case "dagster":
				if len(ops) > 1 && ops[0] == "run" && ops[1] == "wipe" && (c.in.kind == flowText && strings.Contains(c.in.text, "DELETE") || hasWord(c.args(), "--force")) {
					for _, as := range c.assigns {
						if p := a.absPath(as.val.s, c.cwd); as.name == "DAGSTER_HOME" && p != "" && a.inWork(p) {
							return false, "" // the project's own instance
						}
					}
					return true, "dagster run wipe (every run's history)"
				}
			case "invoke-powerbirestmethod":
				if m, ok := swVal(c.lowerArgs(), "method"); ok && m == "delete" {
					u, _ := swVal(c.lowerArgs(), "url")
					return true, "Power BI DELETE " + u
				}
			}
			return false, ""
		}},
	{ID: "bi-public-sharing-on", Level: LevelHigh, Category: CategoryPermission, Description: "switching on public links or publish-to-web for a BI server (any dashboard can then be shared with the whole internet)",
		Suggestions: []string{"Share dashboards with named people or groups", "Ask the BI administrators"},
		names:       append(names("invoke-powerbirestmethod"), httpClients...),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.ReplaceAll(strings.Join(c.lowerArgs(), " "), " ", "")
			for _, k := range [...]string{"enable-public-sharing", "enable-embedding", "publishtoweb", "public_role_like"} {
				if strings.Contains(j, k) && (strings.Contains(j, `"value":true`) || strings.Contains(j, `"enabled":true`)) {
					return true, k + " switched on"
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, biRules) }
