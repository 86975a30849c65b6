package guard

import "strings"

// Clustered services and message brokers: Pacemaker's high-availability
// clusters, IBM MQ's queue managers and Kafka's clusters.

// High-availability cluster managers (Pacemaker's crm and pcs): a
// clustered resource stopped or deleted, a node fenced, the whole cluster
// stopped or its configuration erased, fencing switched off. Status,
// showing the configuration and cleaning a resource's failures pass.
var haRules = []*rule{
	{ID: "ha-cluster-disrupted", Level: LevelHigh, Category: CategorySystem, Description: "stopping, deleting or fencing what a high-availability cluster runs, or switching its fencing off",
		Suggestions: []string{"Put the node in standby in a change window, through the cluster's runbook", "Read the cluster's state with crm status or pcs status"},
		names:       names("crm", "pcs"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := plainWords(c.lowerArgs())
			if len(ops) < 2 || hasAnyWord(c.lowerArgs(), "-h", "--help") {
				return false, ""
			}
			j := strings.Join(ops, " ")
			for _, w := range ops {
				// crm configure property stonith-enabled=false, pcs property
				// set stonith-enabled=false: nothing fences a node that
				// hangs, and two nodes write one disk
				if strings.HasPrefix(w, "stonith-enabled=") && strings.TrimPrefix(w, "stonith-enabled=") != "true" ||
					w == "no-quorum-policy=ignore" {
					return true, c.name + " " + j + " (fencing or quorum switched off)"
				}
			}
			switch ops[0] {
			case "resource":
				if len(ops) > 2 {
					switch ops[1] {
					case "stop", "delete", "remove", "disable", "ban", "kill", "unmanage":
						return true, c.name + " resource " + ops[1] + " " + ops[2]
					}
				}
			case "node":
				if len(ops) > 2 && (ops[1] == "fence" || ops[1] == "delete" || ops[1] == "remove") {
					return true, c.name + " node " + ops[1] + " " + ops[2]
				}
			case "stonith":
				if len(ops) > 2 && (ops[1] == "fence" || ops[1] == "delete" || ops[1] == "disable") {
					return true, c.name + " stonith " + ops[1] + " " + ops[2]
				}
			case "cluster":
				if len(ops) > 1 && (ops[1] == "destroy" || (ops[1] == "stop" || ops[1] == "kill") && hasAnyWord(c.lowerArgs(), "--all")) {
					return true, c.name + " " + j
				}
			case "configure":
				if len(ops) > 1 && (ops[1] == "erase" || ops[1] == "delete" && len(ops) > 2) {
					return true, c.name + " " + j
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, haRules) }

// Message brokers. IBM MQ: a queue manager stopped or deleted (endmqm,
// dltmqm), or MQSC commands given to runmqsc that empty or delete a queue
// or switch the channel authentication records off; displays pass, as do
// a test's or a developer's own queue managers. Kafka: see its rule.
var brokerRules = []*rule{
	{ID: "mq-queue-manager-disrupted", Level: LevelHigh, Category: CategorySystem, Description: "stopping or deleting an IBM MQ queue manager, emptying or deleting its queues, or switching its channel authentication off",
		Suggestions: []string{"Display the queues' depths first (DISPLAY QLOCAL(*) CURDEPTH)", "Change a shared queue manager through its owners' change process"},
		names:       names("runmqsc", "endmqm", "dltmqm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) > 0 && (scratchName(ops[len(ops)-1].s) || hasAny(lower(ops[len(ops)-1].s), "_dev", "dev_", "-dev")) {
				return false, ""
			}
			switch c.name {
			case "dltmqm":
				return len(ops) > 0, "dltmqm (a queue manager deleted with its queues and messages)"
			case "endmqm":
				return len(ops) > 0, "endmqm (a queue manager stopped)"
			}
			if c.in.kind != flowText {
				return false, ""
			}
			u := strings.Join(strings.Fields(strings.ToUpper(c.in.text)), " ")
			for _, m := range [...]string{"CLEAR QLOCAL", "DELETE QLOCAL", "DELETE QMODEL", "DELETE CHANNEL", "CHLAUTH(DISABLED)", "STOP CHANNEL", "STOP LISTENER"} {
				if strings.Contains(u, m) {
					return true, "runmqsc: " + strings.ToLower(m)
				}
			}
			return false, ""
		}},
	{ID: "kafka-cluster-changed", Level: LevelHigh, Category: CategorySystem, Description: "a production Kafka cluster changed in a way that cannot be taken back or that stops its clients (partitions added to a keyed topic, every partition moved, a user's credentials removed)",
		Suggestions: []string{"Plan partition changes and reassignments with the cluster's owners, throttled", "Try the change on a staging cluster first"},
		names:       names("kafka-topics", "kafka-topics.sh", "kafka-topics.bat", "kafka-reassign-partitions", "kafka-reassign-partitions.sh", "kafka-reassign-partitions.bat", "kafka-configs", "kafka-configs.sh", "kafka-configs.bat"),
		partial:     true,
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch strings.TrimSuffix(strings.TrimSuffix(c.name, ".sh"), ".bat") {
			case "kafka-topics":
				// more partitions: a key's messages go elsewhere from now
				// on, and partitions are never taken away
				if hasWord(args, "--alter") && hasPrefixWord(args, "--partitions") && touchesProduction(c) {
					return true, "partitions added to a production topic"
				}
			case "kafka-reassign-partitions":
				if hasWord(args, "--execute") && touchesProduction(c) {
					return true, "a production cluster's partitions moved"
				}
			case "kafka-configs":
				if v, ok := optValue(args, "", "delete-config"); ok && hasWord(args, "--alter") && strings.HasPrefix(strings.ToUpper(v), "SCRAM-") {
					name, _ := optValue(args, "", "entity-name")
					return !scratchName(name), "the SCRAM credentials of " + name + " removed"
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, brokerRules) }
