package guard

import (
	"strings"
)

// Database failovers and replica promotions: a replica promoted stops
// following its primary for good (two primaries when the old one still
// takes writes), a forced failover loses what the old primary had not
// shipped, and a cluster manager told to forget its members leaves the
// database without one. Listing members, their lag and the history of
// switchovers passes, and so do a developer's and a test's clusters.
var failoverRules = []*rule{
	{ID: "database-failover", prodAware: true, Level: LevelHigh, Category: CategorySystem, Description: "failing a database over, promoting a replica or removing a cluster's membership (writes the old primary had not shipped are lost; two primaries if it still takes writes)",
		Suggestions: []string{"Fail over through the incident's runbook, with the database's owners", "Check the replicas' lag first (patronictl list, SHOW REPLICA STATUS)"},
		names: names("aws", "gcloud", "az", "patronictl", "pg_ctl", "pg_ctlcluster", "repmgr", "orchestrator-client",
			"switch-azsqldatabasefailovergroup", "invoke-azsqldatabasefailover", "invoke-azsqlinstancefailover"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			ops := plainWords(low)
			if scratchTarget(c) && !touchesProduction(c) {
				return false, "" // a test's or a developer's cluster
			}
			if hasWord(c.args(), "-h") || len(ops) == 0 && !strings.HasPrefix(c.name, "switch-") && !strings.HasPrefix(c.name, "invoke-") {
				return false, ""
			}
			switch c.name {
			case "aws":
				if len(ops) > 1 && ops[0] == "rds" {
					switch ops[1] {
					case "promote-read-replica", "promote-read-replica-db-cluster", "failover-db-cluster", "failover-global-cluster", "switchover-global-cluster", "switchover-read-replica":
						return true, "aws rds " + ops[1]
					}
				}
			case "gcloud":
				if len(ops) > 2 && ops[0] == "sql" && ops[1] == "instances" && (ops[2] == "failover" || ops[2] == "promote-replica" || ops[2] == "switchover") {
					return true, "gcloud sql instances " + ops[2]
				}
			case "az":
				j := strings.Join(ops, " ")
				switch {
				case strings.Contains(j, "failover-group set-primary"):
					return true, "az " + j
				case strings.HasSuffix(ops[0], "sql") || ops[0] == "postgres" || ops[0] == "mysql":
					if v, ok := optValue(c.args(), "", "failover"); ok && strings.EqualFold(v, "forced") {
						return true, "a forced failover (" + j + ")"
					}
					if strings.Contains(j, "replica promote") || strings.Contains(j, "replica stop-replication") {
						return true, "az " + j
					}
				}
			case "patronictl":
				for _, v := range ops {
					switch v {
					case "failover", "switchover", "remove", "reinit":
						return true, "patronictl " + v
					}
				}
			case "pg_ctl", "pg_ctlcluster":
				if slicesContains(ops, "promote") {
					return true, c.name + " promote (a replica made a primary)"
				}
			case "repmgr":
				j := strings.Join(ops, " ")
				for _, v := range [...]string{"standby promote", "standby switchover", "primary unregister", "standby unregister", "cluster cleanup"} {
					if strings.Contains(j, v) {
						return true, "repmgr " + v
					}
				}
			case "orchestrator-client":
				if v, ok := optValue(c.args(), "-c", "command"); ok {
					switch v {
					case "force-master-failover", "force-master-takeover", "graceful-master-takeover", "graceful-master-takeover-auto", "recover", "make-co-master", "reset-replica", "detach-replica":
						return true, "orchestrator " + v
					}
				}
			case "switch-azsqldatabasefailovergroup", "invoke-azsqldatabasefailover", "invoke-azsqlinstancefailover":
				if psWhatIf(c.name, c.args()) {
					return false, ""
				}
				if _, ok := psFlag(low, "allowdataloss", 6); ok {
					return true, c.base + " -AllowDataLoss"
				}
				return true, c.base
			}
			return false, ""
		}},
	{ID: "traffic-cut", Level: LevelHigh, Category: CategorySystem, Description: "turning a live endpoint's traffic off at the global load balancer (a region's users sent elsewhere or nowhere)",
		Suggestions: []string{"Shift traffic in steps through the incident's runbook", "Check the other endpoints' health and capacity first"},
		names:       names("aws", "az", "gcloud"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			j := strings.Join(plainWords(c.lowerArgs()), " ")
			switch c.name {
			case "aws":
				if strings.HasPrefix(j, "globalaccelerator update-endpoint-group") {
					if v, ok := optValue(args, "", "traffic-dial-percentage"); ok && strings.TrimLeft(v, "0.") == "" {
						return true, "a Global Accelerator endpoint group dialled to 0%"
					}
				}
			case "az":
				if strings.HasPrefix(j, "network traffic-manager endpoint update") || strings.HasPrefix(j, "network traffic-manager profile update") {
					for _, k := range [...]string{"endpoint-status", "status"} {
						if v, ok := optValue(args, "", k); ok && strings.EqualFold(v, "disabled") {
							return true, "a Traffic Manager " + strings.Fields(j)[2] + " disabled"
						}
					}
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, failoverRules) }
