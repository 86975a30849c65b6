package guard

import (
	"strings"
)

// A cluster's own guards loosened through kubectl: admission policies
// moved to audit or dry run, namespaces exempted from them, webhooks
// made to fail open or to skip production, a mesh's sidecars or its
// authentication taken off workloads, a GitOps server opened to anyone;
// and the custom resources that stand for infrastructure outside the
// cluster (Crossplane's managed resources, secret stores) deleted. A
// server-side dry run, a local cluster and a policy tightened pass.
var clusterPolicyRules = []*rule{
	{ID: "cluster-guard-weakened", Level: LevelHigh, Category: CategorySystem, Description: "loosening a cluster's guards: admission policies set to audit or dry run, namespaces exempted from them, webhooks failing open, a mesh's sidecar or authentication removed, a GitOps server opened to every user or to anonymous ones",
		Suggestions: []string{"Change the policy in its repository, through review", "Make an exception for one workload, with a reason and an end date"},
		names:       names("kubectl", "oc", "consul"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "consul" {
				// consul intention create -allow '*' '*': every service may
				// call every other
				ops := c.operands()
				if len(ops) > 3 && ops[0].s == "intention" && ops[1].s == "create" && hasWord(args, "-allow") && ops[len(ops)-2].s == "*" && ops[len(ops)-1].s == "*" {
					return true, "consul intention allowing every service to every service"
				}
				return false, ""
			}
			sub, _ := subcommand(args, kubectlGlobal)
			if sub != "patch" && sub != "label" && sub != "annotate" || hasPrefixWord(args, "--dry-run") || a.localCluster(c) {
				return false, ""
			}
			low := lower(c.argsText())
			compact := compactPatch(low)
			for _, g := range clusterGuardMarks {
				if strings.Contains(compact, g.all[0]) && (len(g.all) < 2 || strings.Contains(compact, g.all[1])) && (len(g.all) < 3 || strings.Contains(compact, g.all[2])) {
					return true, g.what
				}
			}
			if sub == "label" || sub == "annotate" {
				for _, w := range c.operands() {
					// istio-injection-, istio.io/rev-: the label removed,
					// and with it the sidecar
					if k, ok := strings.CutSuffix(lower(w.s), "-"); ok && (k == "istio-injection" || k == "istio.io/rev" || k == "linkerd.io/inject") {
						return true, "the mesh's injection label removed (" + w.s + ")"
					}
				}
			}
			return false, ""
		}},
	{ID: "node-root-shell", Level: LevelHigh, Category: CategoryPrivilege, Description: "opening a root shell on a cluster's node (kubectl node-shell, debug node/): a privileged pod with the node's file system, processes and credentials",
		Suggestions: []string{"Read the node's state through kubectl describe and logs", "Ask the cluster's operators for break-glass access"},
		names:       names("kubectl", "oc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) < 2 || a.localCluster(c) {
				return false, ""
			}
			node := ""
			switch {
			case ops[0].s == "node-shell":
				node = ops[1].s
			case ops[0].s == "debug" && strings.HasPrefix(ops[1].s, "node/"):
				node = ops[1].s[len("node/"):]
			}
			if node == "" || strings.HasPrefix(node, "kind-") || strings.HasPrefix(node, "minikube") || strings.HasPrefix(node, "k3d-") || node == "docker-desktop" {
				return false, ""
			}
			return true, c.base + " " + ops[0].s + " " + ops[1].s
		}},
	{ID: "cluster-infrastructure-deleted", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "deleting the custom resources that stand for infrastructure outside the cluster (Crossplane's managed resources and providers, a database operator's instances, shared secret stores): the cloud databases and buckets behind them go too, or stop being managed",
		Suggestions: []string{"Set the managed resource's deletionPolicy to Orphan first if the cloud resource must stay", "Delete one named resource after checking what uses it"},
		names:       names("kubectl", "oc"),
		partial:     true, // the other kinds' deletes are the orchestrator rules'
		match: func(a *analysis, c *cmd) (bool, string) {
			if a.localCluster(c) || hasPrefixWord(c.args(), "--dry-run") {
				return false, ""
			}
			if ops := c.operands(); len(ops) > 2 && ops[0].s == "cnpg" && ops[1].s == "destroy" {
				return true, "kubectl cnpg destroy " + ops[2].s
			}
			sub, _ := subcommand(c.args(), kubectlGlobal)
			if sub == "patch" {
				// a managed resource's finalizers cleared: its cloud resource
				// is no longer deleted or updated by anyone
				low := compactPatch(lower(c.argsText()))
				if (strings.Contains(low, ".upbound.io") || strings.Contains(low, ".crossplane.io")) && strings.Contains(low, `"finalizers":null`) {
					return true, "a managed resource's finalizers cleared"
				}
				return false, ""
			}
			_, kinds, _, _, _, ok := kubectlDelete(c)
			if !ok {
				return false, ""
			}
			for _, k := range kinds {
				l := strings.ToLower(k)
				base, _, _ := strings.Cut(l, ".")
				switch {
				case strings.HasSuffix(l, ".upbound.io") || strings.HasSuffix(l, ".crossplane.io") && !strings.HasPrefix(l, "nop"):
					return true, k
				case base == "managed" || base == "clustersecretstore" || base == "clustersecretstores":
					return true, k
				}
			}
			return false, ""
		}},
}

// compactPatch returns a patch's lowered text without spaces, its quotes
// as JSON writes them whichever shell escaped them (\" in POSIX shells,
// a bare \ left by PowerShell).
func compactPatch(low string) string {
	return strings.NewReplacer(" ", "", `\"`, `"`, `\`, `"`).Replace(low)
}

// clusterGuardMarks are what a patch, label or annotation says when it
// loosens a guard: every string of all, in its compacted, lowered text.
var clusterGuardMarks = []struct {
	all  []string
	what string
}{
	{[]string{`policy.default`, `role:admin`}, "every Argo CD user made an admin"},
	{[]string{`users.anonymous.enabled`, `true`}, "anonymous access to Argo CD"},
	{[]string{`validationfailureaction`, `audit`}, "a Kyverno policy moved to Audit"},
	{[]string{`enforcementaction`, `dryrun`}, "a Gatekeeper constraint moved to dry run"},
	{[]string{`enforcementaction`, `warn`}, "a Gatekeeper constraint moved to warn"},
	{[]string{`excludednamespaces`, `"*"`}, "every namespace excluded from Gatekeeper"},
	{[]string{`admission.gatekeeper.sh/ignore=true`}, "a namespace exempted from Gatekeeper"},
	{[]string{`webhook`, `failurepolicy`, `ignore`}, "an admission webhook failing open"},
	{[]string{`webhookconfiguration`, `namespaceselector`, `notin`}, "an admission webhook told to skip namespaces"},
	{[]string{`authorizationpolicy`, `"action":"allow"`, `"rules":[{}]`}, "an authorization policy allowing everything"},
	{[]string{`linkerd.io/inject=disabled`}, "a workload taken out of the mesh"},
	{[]string{`sidecar.istio.io/inject=false`}, "a workload taken out of the mesh"},
	{[]string{`default-inbound-policy=all-unauthenticated`}, "unauthenticated traffic allowed in by default"},
	{[]string{`pod-security.kubernetes.io/enforce=privileged`}, "a namespace's pod security set to privileged"},
}

func init() { ruleSets = append(ruleSets, clusterPolicyRules) }
