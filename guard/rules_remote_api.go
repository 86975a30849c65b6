package guard

import (
	"strings"
)

// --- destruction through remote APIs, forge CLIs and orchestrators ---

// httpMethod returns the method a curl, wget, httpie or gh api call uses
// ("" for the default GET/POST).
func httpMethod(c *cmd) string {
	args := c.args()
	switch c.name {
	case "curl":
		if v, ok := optValue(args, "-X", "request"); ok {
			return strings.ToUpper(v)
		}
	case "wget":
		for _, w := range args {
			if v, ok := strings.CutPrefix(w.s, "--method="); ok {
				return strings.ToUpper(v)
			}
		}
		if v, ok := optValue(args, "", "method"); ok {
			return strings.ToUpper(v)
		}
	case "http", "https", "xh":
		for _, w := range args {
			switch u := strings.ToUpper(w.s); u {
			case "DELETE", "PUT", "PATCH", "POST":
				return u
			}
		}
	case "gh", "glab":
		if v, ok := optValue(args, "-X", "method"); ok {
			return strings.ToUpper(v)
		}
	}
	return ""
}

var remoteAPIRules = []*rule{
	{ID: "http-delete-remote", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "a raw DELETE call against a remote API (repositories, DNS, indices, resources)",
		Suggestions: []string{"Use the provider's CLI with a dry run first", "Delete through the web console after confirming the target"},
		names:       names("curl", "wget", "http", "https", "xh", "gh", "glab"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if httpMethod(c) != "DELETE" {
				return false, ""
			}
			if c.name == "gh" || c.name == "glab" {
				return len(c.args()) > 0 && c.args()[0].s == "api", joinWords(c.args())
			}
			for _, w := range c.args() {
				if !strings.Contains(w.s, "://") && !strings.Contains(w.s, ":9200") {
					continue
				}
				h := hostOf(w.s)
				if !isLocalHost(h) || strings.Contains(w.s, "*") || strings.Contains(w.s, "_all") {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "repo-made-public", Level: LevelHigh, Category: CategoryExfiltration, Description: "making a private repository or bucket public",
		Suggestions: []string{"Keep it private and share access with named people", "Publish a reviewed copy instead"}, names: names("gh", "glab", "aws", "gsutil", "gcloud", "az"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := joinWords(c.args())
			switch {
			case (c.name == "gh" || c.name == "glab") && (strings.Contains(j, "visibility=public") || strings.Contains(j, "--visibility public") || strings.Contains(j, "--visibility=public") || strings.Contains(j, "private=false")):
				return true, j
			case c.name == "aws" && (strings.Contains(j, "public-read") || strings.Contains(j, "delete-public-access-block") || strings.Contains(j, `"Principal":"*"`) || strings.Contains(j, `"Principal": "*"`)):
				return true, j
			case (c.name == "gsutil" || c.name == "gcloud") && (strings.Contains(j, "allUsers") || strings.Contains(j, "public-read")):
				return true, j
			case c.name == "az" && strings.Contains(j, "--public-access blob") || strings.Contains(j, "--public-access container"):
				return true, j
			}
			return false, ""
		}},
	{ID: "forge-delete", Level: LevelHigh, Category: CategoryGitDestroy, Description: "deleting releases, issues, runs, branches or settings on the code forge",
		Suggestions: []string{"Edit or close instead of deleting", "Let a maintainer delete it in the web interface"}, names: names("gh", "glab", "tea", "hub"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) < 2 {
				return false, ""
			}
			switch args[1].s {
			case "delete", "delete-asset", "rm", "remove":
				switch args[0].s {
				case "release", "issue", "run", "cache", "variable", "secret", "label", "ruleset", "deploy-key", "gist", "project", "environment", "repo", "ssh-key", "gpg-key", "mr", "pr", "snippet":
					return true, args[0].s + " " + args[1].s
				}
			}
			return false, ""
		}},
	{ID: "remote-ref-delete-input", Level: LevelHigh, Category: CategoryGitDestroy, Description: "deleting remote branches or tags taken from a list",
		Suggestions: []string{"Delete named refs one by one after review", "Keep release tags"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "push" || !hasWord(args, "--delete") && !hasWord(args, "-d") {
				return false, ""
			}
			for _, w := range args {
				if !w.ok {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "orchestrator-teardown", prodAware: true, Level: LevelHigh, Category: CategoryContainerDestroy, Description: "tearing down a stack, swarm, pods or deployed resources",
		Suggestions: []string{"Remove the one service you mean", "Review with --dry-run or diff first"}, names: names("docker", "podman", "kubectl", "oc", "helm", "nomad", "kind", "k3d", "minikube", "eksctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			j := joinWords(args)
			switch c.name {
			case "docker":
				sub, rest := dockerSub(c)
				switch {
				case sub == "stack rm" || sub == "stack remove" || sub == "stack down":
					return true, j
				case sub == "swarm leave" && (hasWord(rest, "--force") || hasWord(rest, "-f")):
					return true, j
				case sub == "node rm" || sub == "service rm" || sub == "secret rm" || sub == "config rm":
					return true, j
				case (sub == "pod rm" || sub == "pod prune") && (hasWord(rest, "--all") || hasWord(rest, "-a") || sub == "pod prune"):
					return true, j
				}
			case "podman":
				if strings.HasPrefix(j, "pod rm") && (hasWord(args, "--all") || hasWord(args, "-a")) || strings.HasPrefix(j, "system reset") {
					return true, j
				}
			case "kubectl", "oc":
				ops := positional(args)
				if hasWord(args, "delete") && (hasWord(args, "-f") || hasWord(args, "-k") || hasPrefixWord(args, "--filename") || hasPrefixWord(args, "--kustomize")) {
					return touchesProduction(c), j
				}
				if len(ops) > 0 && (ops[0].s == "drain" || ops[0].s == "cordon" && touchesProduction(c)) {
					return true, j
				}
			case "helm":
				if len(args) > 0 && (args[0].s == "uninstall" || args[0].s == "delete" || args[0].s == "del") {
					return !touchesProduction(c), j // production: helm-uninstall-production
				}
			case "nomad":
				return strings.HasPrefix(j, "job stop") && hasWord(args, "-purge") || strings.HasPrefix(j, "system gc"), j
			case "kind", "k3d", "minikube", "eksctl":
				return strings.Contains(j, "delete cluster") || strings.HasPrefix(j, "cluster delete") || c.name == "minikube" && strings.HasPrefix(j, "delete") && hasWord(args, "--all"), j
			}
			return false, ""
		}},
	{ID: "data-service-delete", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "deleting topics, secrets, images or remote tables",
		Suggestions: []string{"Back up or snapshot first", "Delete one named item after review"},
		names:       names("kafka-topics", "kafka-topics.sh", "vault", "aws", "wrangler", "redis-cli", "rabbitmqctl", "rabbitmqadmin", "etcdctl", "consul", "gcloud", "az"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			j := joinWords(args)
			switch c.name {
			case "kafka-topics", "kafka-topics.sh":
				return hasWord(args, "--delete"), j
			case "vault":
				return strings.HasPrefix(j, "kv metadata delete") || strings.HasPrefix(j, "kv destroy") || strings.HasPrefix(j, "secrets disable") ||
					strings.HasPrefix(j, "delete ") || strings.HasPrefix(j, "auth disable"), j
			case "aws":
				return strings.Contains(j, "ecr batch-delete-image") || strings.Contains(j, "ecr delete-repository") || strings.Contains(j, "secretsmanager delete-secret") ||
					strings.Contains(j, "kms schedule-key-deletion") || strings.Contains(j, "ssm delete-parameter"), j
			case "wrangler":
				l := strings.ToUpper(j)
				return strings.Contains(j, "d1 execute") && (strings.Contains(l, "DROP ") || strings.Contains(l, "TRUNCATE") || strings.Contains(l, "DELETE FROM")) ||
					strings.Contains(j, "d1 delete") || strings.Contains(j, "kv namespace delete") || strings.Contains(j, "r2 bucket delete") || strings.Contains(j, "delete"), j
			case "rabbitmqctl", "rabbitmqadmin":
				return hasWord(args, "delete_queue") || hasWord(args, "purge_queue") || hasWord(args, "delete_vhost") || hasWord(args, "reset") || hasWord(args, "force_reset") || strings.HasPrefix(j, "delete queue"), j
			case "etcdctl":
				return strings.HasPrefix(j, "del") && (hasWord(args, "--prefix") || hasWord(args, "--from-key")), j
			case "consul":
				return strings.HasPrefix(j, "kv delete") && hasWord(args, "-recurse"), j
			case "gcloud":
				return strings.Contains(j, "secrets delete") || strings.Contains(j, "kms keys versions destroy") || strings.Contains(j, "artifacts docker images delete"), j
			case "az":
				return strings.Contains(j, "keyvault secret purge") || strings.Contains(j, "keyvault delete") || strings.Contains(j, "acr repository delete"), j
			}
			return false, ""
		}},
	{ID: "service-stop", Level: LevelHigh, Category: CategorySystem, Description: "stopping or disabling a system service",
		Suggestions: []string{"Restart the service instead of stopping it", "Stop only the service you started for the task"},
		names:       names("systemctl", "service", "rc-service", "launchctl", "sv"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if hasWord(args, "--user") {
				return false, ""
			}
			ops := positional(args)
			switch c.name {
			case "systemctl":
				if len(ops) >= 2 && (ops[0].s == "stop" || ops[0].s == "disable" || ops[0].s == "mask" || ops[0].s == "kill") {
					return true, ops[1].s
				}
			case "service", "rc-service", "sv":
				if len(ops) >= 2 && (ops[1].s == "stop" || ops[0].s == "stop" || ops[1].s == "disable") {
					return true, ops[0].s
				}
			case "launchctl":
				if len(ops) >= 2 && (ops[0].s == "bootout" || ops[0].s == "unload" || ops[0].s == "disable") && (strings.Contains(joinWords(ops), "system") || strings.HasPrefix(ops[len(ops)-1].s, "/Library/LaunchDaemons") || strings.HasPrefix(ops[len(ops)-1].s, "/System/")) {
					return true, ops[len(ops)-1].s
				}
			}
			return false, ""
		}},
	{ID: "user-delete", Level: LevelHigh, Category: CategorySystem, Description: "deleting a user account (and its files)",
		Suggestions: []string{"Lock the account instead (usermod -L)", "Let an administrator remove accounts"}, names: names("userdel", "deluser", "dscl", "sysadminctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := joinWords(c.args())
			switch c.name {
			case "dscl":
				return strings.Contains(j, "-delete /Users/"), j
			case "sysadminctl":
				return strings.Contains(j, "-deleteUser"), j
			}
			return len(positional(c.args())) > 0, j
		}},
	{ID: "history-delete", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "deleting history entries or sending history nowhere",
		Suggestions: []string{"Leave shell history in place", "Remove one entry holding a secret by hand"}, names: names("history", "fc", "set"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "history":
				if len(args) > 0 && (args[0].s == "clear" || args[0].s == "delete" && (hasWord(args, "--all") || hasPrefixWord(args, "--prefix") || hasPrefixWord(args, "--contains"))) {
					return true, "history " + args[0].s
				}
				if len(args) > 1 && args[0].s == "-d" && !args[1].ok {
					return true, "history -d " + args[1].s
				}
			case "fc":
				if (hasWord(args, "-p") || hasWord(args, "-P")) && hasWord(args, "/dev/null") {
					return true, "fc -p /dev/null"
				}
			case "set":
				ops := positional(args)
				if len(ops) >= 1 && ops[0].s == "fish_history" && (len(ops) == 1 || ops[1].s == "") {
					return true, "fish_history"
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, remoteAPIRules) }
