package guard

import (
	"strings"
	"time"
)

// Rules for destroying containers, volumes, clusters and deployments (category container_destroy).
var containerDestroyRules = []*rule{
	{ID: "database-container-volumes-removed", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "removing a database container together with its anonymous volumes (the data it held is gone)",
		Suggestions: []string{"Remove the container without -v, or dump the database first", "Use a named volume for data you keep"},
		names:       names("docker", "podman", "nerdctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) < 2 || !(ops[0].s == "rm" || ops[0].s == "container" && len(ops) > 2 && (ops[1].s == "rm" || ops[1].s == "remove")) {
				return false, ""
			}
			o := c.opts()
			if !o.has("v", "volumes") {
				return false, ""
			}
			for _, w := range ops[1:] {
				// (a development stack's is the developer's data: only a
				// test's or a scratch one's is throwaway)
				if w.s == "rm" || w.s == "remove" || !w.ok || testName(w.s) || scratchName(w.s) && !devNamed(w.s) {
					continue
				}
				for _, part := range nameWords(w.s) {
					switch part {
					case "postgres", "postgresql", "pg", "mysql", "mariadb", "mongo", "mongodb", "redis", "db", "database", "elasticsearch", "opensearch", "clickhouse", "cassandra", "minio", "mssql", "sqlserver", "neo4j",
						"sql", "localstack", "kafka", "rabbitmq", "valkey", "couchdb", "influxdb", "timescaledb", "cockroach":
						return true, c.base + " rm -v " + w.s
					}
				}
			}
			return false, ""
		}},
	{ID: "k8s-delete-production", prodAware: true, Level: LevelHigh, Category: CategoryContainerDestroy, Description: "deleting workloads or data in a production namespace",
		Suggestions: []string{"Roll out changes through the deployment pipeline", "Scale or restart instead of deleting", "Confirm the namespace and resources by hand"}, names: names("kubectl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ns, kinds, objs, _, _, ok := kubectlDelete(c)
			if !ok {
				return false, ""
			}
			ctx, _ := optValue(c.args(), "", "context")
			if !isProdName(ns) && !isProdName(ctx) {
				return false, ""
			}
			if !isProdName(ns) && len(kinds) == 1 && (kinds[0] == "namespace" || kinds[0] == "ns" || kinds[0] == "namespaces") && len(objs) > 0 {
				// kubectl --context prod delete namespace pr-1842-preview:
				// a pull request's own preview namespace
				throwaway := true
				for _, o := range objs {
					throwaway = throwaway && (throwawayName(o) || strings.Contains(lower(o), "preview") || ciRunName(o))
				}
				if throwaway {
					return false, ""
				}
			}
			for _, k := range kinds {
				switch strings.ToLower(k) {
				case "pod", "pods", "po", "job", "jobs", "event", "events", "ev", "":
					continue
				}
				return true, ns + " " + k
			}
			return false, ""
		}},
	{ID: "k8s-scale-to-zero", prodAware: true, Level: LevelHigh, Category: CategoryContainerDestroy, Description: "scaling every workload to zero replicas",
		Suggestions: []string{"Scale a specific deployment", "Use the deployment pipeline for production changes"}, names: names("kubectl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, _ := subcommand(c.args(), kubectlGlobal)
			if sub == "patch" && (touchesProduction(c) || sharedTarget(c.args())) {
				// kubectl patch deploy api -p '{"spec":{"replicas":0}}',
				// an autoscaler's maximum patched to 0: the service gone
				j := strings.ReplaceAll(c.argsText(), " ", "")
				for _, k := range [...]string{`"replicas":0`, `"maxReplicas":0`, `"maxreplicas":0`} {
					if strings.Contains(j, k+"}") || strings.Contains(j, k+",") {
						return true, "replicas patched to 0 in a shared or production environment"
					}
				}
			}
			if sub != "scale" {
				return false, ""
			}
			zero := hasWord(c.args(), "--replicas=0") || hasWord(c.args(), "--replicas") && hasWord(c.args(), "0")
			all := hasWord(c.args(), "--all") || hasWord(c.args(), "-A") || hasWord(c.args(), "--all-namespaces")
			ns, _ := optValue(c.args(), "-n", "namespace")
			if zero && !all && !isProdName(ns) && ns != "" && !scratchName(ns) && !testName(lower(ns)) && !branchNamespace(ns) && !localKubeContext(c.args()) && !a.localKubeSwitched() {
				// kubectl scale statefulset/kafka --replicas=0 -n
				// messaging: a shared data store's every replica stopped
				// (a developer's own namespace is theirs)
				ops := c.operands()
				if l := lower(joinWords(ops)); len(ops) > 1 && (strings.HasPrefix(lower(ops[1].s), "statefulset") || strings.HasPrefix(lower(ops[1].s), "sts")) &&
					!hasAny(lower(ns), "dev", "local", "sandbox", "preview") {
					for _, k := range [...]string{"kafka", "postgres", "redis", "mysql", "mariadb", "mongo", "elasticsearch", "opensearch", "rabbitmq", "zookeeper", "etcd", "cassandra", "nats", "clickhouse"} {
						if strings.Contains(l, k) {
							return true, joinWords(ops[1:]) + " in " + ns
						}
					}
				}
			}
			return zero && (all || isProdName(ns)), ns
		}},
	{ID: "k8s-drain", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "draining a node (evicts every pod on it)",
		Suggestions: []string{"Cordon the node first and drain during a maintenance window", "Check PodDisruptionBudgets"}, names: names("kubectl", "docker"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "docker" {
				// docker node update --availability drain NODE: a swarm
				// node's tasks moved off it
				if !hasWord(args, "node") {
					return false, ""
				}
				if ops := posArgs(args, dockerGlobal); len(ops) > 1 && ops[0].s == "node" && ops[1].s == "update" {
					if v, ok := optValue(args, "", "availability"); ok && (v == "drain" || v == "pause") {
						return true, "swarm node " + v
					}
				}
				return false, ""
			}
			sub, _ := subcommand(args, kubectlGlobal)
			if sub == "taint" && hasWord(args, "--all") {
				// every node tainted NoExecute: every pod evicted
				for _, w := range args {
					if strings.HasSuffix(w.s, ":NoExecute") && !strings.HasSuffix(w.s, "-") {
						return true, "taint --all " + w.s
					}
				}
			}
			if sub != "drain" {
				return false, ""
			}
			return disruptiveDrain(a, c), ""
		}},
	{ID: "helm-uninstall-production", prodAware: true, Level: LevelHigh, Category: CategoryContainerDestroy, Description: "uninstalling a production release",
		Suggestions: []string{"Roll back instead (helm rollback)", "Uninstall by hand after confirming the release"}, names: names("helm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := posArgs(args, helmGlobal)
			if len(ops) == 0 || !(ops[0].s == "uninstall" || ops[0].s == "delete" || ops[0].s == "del" || ops[0].s == "un") {
				return false, ""
			}
			ns, _ := optValue(args, "-n", "namespace")
			ctx, _ := optValue(args, "", "kube-context")
			if isProdName(ns) || isProdName(ctx) {
				return true, ns
			}
			for _, w := range ops[1:] {
				if isProdName(w.s) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "vm-destroy", prodAware: true, Level: LevelHigh, Category: CategoryContainerDestroy, Description: "deleting a virtual machine or system container with its storage",
		Suggestions: []string{"Stop the instance instead", "Snapshot it before deleting"},
		names:       names("virsh", "lxc", "incus", "vagrant", "multipass", "VBoxManage", "vboxmanage", "qm", "pct", "qmrestore", "pvesh", "pvesm", "vmkfstools", "vim-cmd", "govc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 {
				return false, ""
			}
			switch c.name {
			case "virsh":
				if ops[0].s == "undefine" && (hasPrefixWord(args, "--remove-all-storage") || hasPrefixWord(args, "--storage") || hasWord(args, "--wipe-storage")) {
					return true, ""
				}
			case "lxc", "incus":
				return ops[0].s == "delete" && (hasWord(args, "--force") || hasWord(args, "-f") || len(ops) > 1 && isProdName(ops[1].s)), ""
			case "vagrant":
				return ops[0].s == "destroy" && (hasWord(args, "-f") || hasWord(args, "--force")) && len(ops) > 1 && isProdName(ops[1].s), ""
			case "multipass":
				return ops[0].s == "delete" && (hasWord(args, "--purge") || hasWord(args, "-p")) && (hasWord(args, "--all") || len(ops) > 1 && isProdName(ops[1].s)), ""
			}
			if what := guestDestroyed(c); what != "" {
				return true, what // Proxmox, libvirt's volumes, VirtualBox's disks, ESXi
			}
			return false, ""
		}},
	{ID: "vm-power-off", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "forcing a virtual machine off",
		Suggestions: []string{"Shut the guest down cleanly (virsh shutdown, Stop-VM without -TurnOff)"}, names: names("virsh", "stop-vm", "govc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "govc" {
				// vm.power -off is the plug pulled (-s shuts the guest
				// down), as is -reset
				ops := c.operands()
				low := c.lowerArgs()
				return len(ops) > 0 && ops[0].s == "vm.power" && (optGiven(low, "-off") || optGiven(low, "-reset")) && !optGiven(low, "-s"), "govc vm.power -off"
			}
			if c.name == "stop-vm" {
				// -TurnOff pulls the plug: what the guest had unsaved is lost
				// (a test machine's name exempts it, as for every
				// container's)
				args := wargs(c)
				return hasSw(args, "turnoff") && !hasSw(args, "whatif"), "Stop-VM -TurnOff"
			}
			ops := c.operands()
			return len(ops) > 0 && (ops[0].s == "destroy" || ops[0].s == "undefine"), ""
		}},
	{ID: "win-vm-remove", Level: LevelHigh, Category: CategoryContainerDestroy, Description: "deleting a Hyper-V virtual machine",
		Suggestions: []string{"Stop the machine instead (Stop-VM)", "Export or checkpoint it before deleting"}, names: names("remove-vm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			return !hasWord(c.args(), "-WhatIf") && !hasWord(c.args(), "-whatif"), c.base
		}},
	{ID: "cluster-node-reset", Level: LevelHigh, Category: CategoryContainerDestroy, Description: "tearing down the Kubernetes node or cluster on this machine (every workload and its state on it is gone)",
		Suggestions: []string{"Drain and remove the node through the cluster's own tooling", "Let the cluster's administrator do it"},
		names:       names("kubeadm", "microk8s", "k3s-uninstall.sh", "k3s-agent-uninstall.sh", "rke2-uninstall.sh", "k0s"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			switch c.name {
			case "kubeadm", "microk8s":
				return len(ops) > 0 && ops[0].s == "reset", c.name + " reset"
			case "k0s":
				return len(ops) > 0 && ops[0].s == "reset", "k0s reset"
			}
			return true, c.name
		}},
	{ID: "cluster-component-uninstall", Level: LevelHigh, Category: CategoryContainerDestroy, Description: "uninstalling a cluster-wide component (a service mesh, the backup or GitOps controller, the network plugin): every workload relying on it is cut off",
		Suggestions: []string{"Upgrade or reconfigure the component instead", "Let the cluster's administrator do it"},
		names:       names("istioctl", "velero", "flux", "cilium", "linkerd", "dapr", "consul-k8s", "osm", "kumactl", "kubectl-kots", "argocd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if hasWord(args, "--dry-run") || hasWord(args, "--help") || hasWord(args, "-h") {
				return false, ""
			}
			p := cliPath(c)
			if len(p) > 0 && p[0] == "x" || len(p) > 0 && p[0] == "experimental" {
				p = p[1:] // istioctl x uninstall
			}
			if len(p) == 0 || p[0] != "uninstall" && !(c.name == "osm" && len(p) > 1 && p[0] == "uninstall") {
				return false, ""
			}
			if c.name == "linkerd" {
				return false, "" // it prints the manifests; the kubectl delete they go to is judged
			}
			if c.name == "dapr" && !hasWord(args, "-k") && !hasWord(args, "--kubernetes") {
				return false, "" // dapr uninstall without -k: the local sidecar binaries
			}
			for _, k := range [...]string{"context", "kube-context", "kubecontext"} {
				if v, ok := optValue(args, "", k); ok && scratchName(v) && !isProdName(v) {
					return false, "" // kind-dev, a local cluster
				}
			}
			return true, c.name + " uninstall"
		}},
	{ID: "gitops-reconciler-removed", Level: LevelHigh, Category: CategoryContainerDestroy, Description: "deleting or suspending what a GitOps controller reconciles (a Kustomization or HelmRelease deleted prunes every workload it made; suspended, the cluster drifts from Git)",
		Suggestions: []string{"Change the manifests in Git and let the controller apply them", "Suspend only for a reviewed maintenance, and resume after"},
		names:       names("flux"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if hasWord(args, "--dry-run") || hasWord(args, "--help") || hasWord(args, "-h") {
				return false, ""
			}
			p := cliPath(c)
			if len(p) < 2 {
				return false, ""
			}
			switch p[0] {
			case "delete", "suspend":
			default:
				return false, ""
			}
			switch p[1] {
			case "kustomization", "ks", "helmrelease", "hr", "source", "image":
			default:
				return false, ""
			}
			for _, o := range p[2:] {
				if scratchName(o) {
					return false, "" // a preview's or a test's own
				}
			}
			return true, "flux " + p[0] + " " + p[1]
		}},
	{ID: "helm-force-production", prodAware: true, Level: LevelHigh, Category: CategoryContainerDestroy, Description: "forcing a production release's resources to be replaced (deleted and made again) or reset to the chart's defaults",
		Suggestions: []string{"Upgrade without --force and --reset-values", "Diff the release first (helm diff upgrade)"}, names: names("helm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 || ops[0].s != "upgrade" || !hasWord(args, "--force") && !hasWord(args, "--reset-values") || hasWord(args, "--dry-run") {
				return false, ""
			}
			ns, _ := optValue(args, "-n", "namespace")
			ctx, _ := optValue(args, "", "kube-context")
			if isProdName(ns) || isProdName(ctx) {
				return true, "helm upgrade --force in " + ns + " " + ctx
			}
			return false, ""
		}},
	{ID: "docker-container-prune", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "removing every stopped container",
		Suggestions: suggContainer, names: names("docker"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, rest := dockerSub(c)
			return sub == "container prune" && !prunesAgedOnly(rest), ""
		}},
	{ID: "k8s-finalizers-removed", Level: LevelHigh, Category: CategoryContainerDestroy, Description: "stripping finalizers to force a namespace or volume away, or setting a volume to be deleted with its claim (what guards its data is skipped)",
		Suggestions: []string{"Find what holds the finalizer and let it finish", "Delete the namespace normally and wait"}, names: names("kubectl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) == 0 {
				return false, ""
			}
			j := joinWords(args)
			switch args[0].s {
			case "patch", "edit", "replace", "apply":
				if strings.Contains(j, "/finalize") || strings.Contains(j, "finalizers") && (strings.Contains(j, "ns ") || strings.Contains(j, "namespace") || strings.Contains(j, "pv") || strings.Contains(j, "-f -")) {
					return true, "finalizers"
				}
				// a volume's reclaim policy set to Delete: its data goes with
				// its claim
				if strings.Contains(j, "persistentVolumeReclaimPolicy") && strings.Contains(j, `"Delete"`) && !scratchName(j) {
					return true, "reclaim policy Delete"
				}
			}
			return false, ""
		}},
	{ID: "docker-image-prune-all", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "removing every image no container uses (tagged ones included: they must be pulled or built again)",
		Suggestions: []string{"Prune dangling images only (docker image prune)", "Remove the specific images by name"}, names: names("docker", "podman", "nerdctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, rest := dockerSub(c)
			if sub != "image prune" && sub != "system prune" {
				return false, ""
			}
			for _, w := range rest {
				if strings.HasPrefix(w.s, "label=") || strings.HasPrefix(w.s, "--filter=label=") {
					return false, "" // only the images of one project's label
				}
				if v, ok := strings.CutPrefix(strings.TrimPrefix(w.s, "--filter="), "until="); ok {
					if d, err := time.ParseDuration(v); err == nil && d >= 24*time.Hour {
						return false, "" // only images unused for a day or more
					}
				}
			}
			for _, w := range rest {
				if w.s == "--all" || strings.HasPrefix(w.s, "-") && !strings.HasPrefix(w.s, "--") && strings.Contains(w.s, "a") {
					return true, sub + " --all"
				}
			}
			return false, ""
		}},
	{ID: "docker-remove-all", Level: LevelHigh, Category: CategoryContainerDestroy, Description: "removing every container",
		Suggestions: suggContainer, names: names("docker"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, rest := dockerSub(c)
			switch sub {
			case "rm", "container rm", "container remove":
				for _, w := range rest {
					if w.s == "--all" || strings.HasPrefix(w.s, "-") && !strings.HasPrefix(w.s, "--") && strings.Contains(w.s, "a") {
						return true, "--all"
					}
				}
				return wordFlowList(rest, "containers"), ""
			case "service rm", "service remove", "stack rm", "stack remove":
				return wordFlowList(rest, "services"), "every service"
			case "volume rm", "volume remove":
				// every volume at once (podman volume rm --all)
				for _, w := range rest {
					if w.s == "--all" || strings.HasPrefix(w.s, "-") && !strings.HasPrefix(w.s, "--") && strings.Contains(w.s, "a") {
						return true, sub + " --all"
					}
				}
			}
			return false, ""
		}},
	{ID: "docker-stop-all", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "stopping or killing every container",
		Suggestions: suggContainer, names: names("docker"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, rest := dockerSub(c)
			switch sub {
			case "kill", "stop", "container kill", "container stop":
				return wordFlowList(rest, "containers"), ""
			case "service scale":
				// docker service ls -q | xargs -I{} docker service scale {}=0
				for _, w := range rest {
					if strings.HasSuffix(w.s, "=0") && w.flow != nil && w.flow.kind == flowList && w.flow.what == "services" {
						return true, "every service scaled to zero"
					}
				}
			}
			return false, ""
		}},
	{ID: "docker-remove-all-images", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "removing every image",
		Suggestions: suggContainer, names: names("docker"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, rest := dockerSub(c)
			switch sub {
			case "rmi", "image rm", "image remove":
				return wordFlowList(rest, "images"), ""
			}
			return false, ""
		}},
	{ID: "docker-system-prune", Level: LevelHigh, Category: CategoryContainerDestroy, Description: "pruning all unused images, containers and volumes",
		Suggestions: suggContainer, names: names("docker"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, rest := dockerSub(c)
			if sub == "system reset" {
				return true, "system reset"
			}
			if sub != "system prune" {
				return false, ""
			}
			for _, w := range rest {
				if w.s == "--volumes" || w.s == "--all" || strings.HasPrefix(w.s, "-") && !strings.HasPrefix(w.s, "--") && strings.Contains(w.s, "a") {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "docker-volume-prune", Level: LevelHigh, Category: CategoryContainerDestroy, Description: "deleting all unused volumes (their data is lost)",
		Suggestions: suggContainer, names: names("docker"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, rest := dockerSub(c)
			if sub == "volume prune" {
				return true, ""
			}
			if sub == "volume rm" || sub == "volume remove" {
				return wordFlowList(rest, "volumes"), "every volume"
			}
			return false, ""
		}},
	{ID: "docker-production-engine", prodAware: true, Level: LevelHigh, Category: CategoryContainerDestroy, Description: "removing or stopping containers, volumes or images on a production engine",
		Suggestions: suggContainer, names: names("docker", "podman", "nerdctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if !touchesProduction(c) {
				return false, ""
			}
			sub, rest := dockerSub(c)
			switch sub {
			case "rm", "rmi", "kill", "stop", "container rm", "container kill", "container stop", "container prune", "volume rm", "volume remove",
				"volume prune", "image rm", "image prune", "system prune", "compose down", "compose rm", "compose kill", "pod rm", "network rm":
				return true, sub + " " + joinWords(positional(rest))
			}
			return false, ""
		}},
	{ID: "docker-volume-rm", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "deleting a volume (its data is lost)",
		Suggestions: suggContainer, names: names("docker"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, rest := dockerSub(c)
			if (sub == "volume rm" || sub == "volume remove") && !wordFlowList(rest, "volumes") && len(positional(rest)) > 0 {
				for _, w := range positional(rest) {
					if !w.ok || !rebuildableVolume(w.s) {
						return true, joinWords(positional(rest))
					}
				}
			}
			return false, ""
		}},
	{ID: "compose-down-volumes", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "taking a compose project down with its volumes (data is lost)",
		Suggestions: []string{"Use docker compose down without -v to keep data", "Back up volumes first"}, names: names("docker", "docker-compose", "supabase"), devOwn: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "supabase" {
				// the local stack stopped without keeping its volumes: the
				// local database's data goes with them
				ops := positional(args)
				return len(ops) > 0 && ops[0].s == "stop" && hasWord(args, "--no-backup"), "supabase stop --no-backup"
			}
			if p, ok := optValue(args, "-p", "project-name"); ok && (scratchName(p) || ciRunName(p)) {
				return false, "" // a test run's or a CI job's own project
			}
			if c.name == "docker" {
				sub, rest := dockerSub(c)
				if sub != "compose down" && sub != "compose rm" {
					return false, ""
				}
				args = rest
			} else {
				sub, i := subcommand(args, optSpec{short: "fp", long: []string{"file", "project-name", "env-file", "profile"}})
				if sub != "down" && sub != "rm" {
					return false, ""
				}
				args = args[i+1:]
			}
			for _, w := range args {
				if w.s == "-v" || w.s == "--volumes" || strings.HasPrefix(w.s, "--volumes=") && w.s != "--volumes=false" {
					return true, w.s
				}
			}
			// compose rm -svf: the services' anonymous volumes go with them
			if shortCluster(args, 'v') {
				return true, "-v"
			}
			return false, ""
		}},
	{ID: "k8s-delete-namespace", Level: LevelHigh, Category: CategoryContainerDestroy, Description: "deleting a Kubernetes namespace and everything in it",
		Suggestions: []string{"Delete the specific resources instead", "Check with kubectl get all -n NS first"}, names: names("kubectl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			_, kinds, objs, _, _, ok := kubectlDelete(c)
			if !ok {
				return false, ""
			}
			scratch := len(objs) > 0
			for _, o := range objs {
				scratch = scratch && (scratchName(o) || branchNamespace(o))
			}
			if scratch {
				return false, "" // a preview's, a branch's or a test run's namespace
			}
			for _, k := range kinds {
				if isNSKind(k) {
					return true, strings.Join(objs, " ")
				}
			}
			return false, ""
		}},
	{ID: "k8s-delete-cluster-wide", Level: LevelCritical, Category: CategoryContainerDestroy, Description: "deleting cluster-wide Kubernetes resources (system namespaces, all namespaces, resource definitions, nodes)",
		Suggestions: []string{"Delete resources by name in one namespace", "Preview with kubectl get first"}, names: names("kubectl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			_, kinds, _, all, allNS, ok := kubectlDelete(c)
			if !ok {
				return false, ""
			}
			_, _, objs, _, _, _ := kubectlDelete(c)
			for _, k := range kinds {
				lk := strings.ToLower(k)
				if isNSKind(lk) {
					for _, o := range objs {
						if o == "kube-system" || o == "kube-public" || o == "kube-node-lease" || o == "default" {
							return true, o
						}
					}
				}
				if allNS && (lk == "all" || all) || all && (isNSKind(lk) || lk == "crd" || lk == "crds" || lk == "customresourcedefinition" || lk == "customresourcedefinitions" || lk == "node" || lk == "nodes" || lk == "pv" || lk == "persistentvolume" || lk == "persistentvolumes") {
					return true, k
				}
			}
			return false, ""
		}},
	{ID: "k8s-delete-all", Level: LevelHigh, Category: CategoryContainerDestroy, Description: "deleting every Kubernetes resource of a kind, or in every namespace",
		Suggestions: []string{"Delete resources by name or label selector", "Preview with kubectl get first"}, names: names("kubectl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			_, kinds, _, all, allNS, ok := kubectlDelete(c)
			if !ok {
				return false, ""
			}
			if (all || allNS) && len(kinds) > 0 && (localKubeContext(c.args()) || a.localKubeSwitched() && !hasPrefixWord(c.args(), "--context")) {
				// jobs, pods, events of a cluster on this machine: made
				// again by what runs there, nothing of anyone's lost
				passing := true
				for _, k := range kinds {
					switch strings.ToLower(k) {
					case "job", "jobs", "pod", "pods", "po", "event", "events", "ev", "replicaset", "replicasets", "rs":
					default:
						passing = false
					}
				}
				if passing {
					return false, ""
				}
			}
			if all || allNS {
				return true, "--all"
			}
			for _, k := range kinds {
				if k == "all" {
					return true, "all"
				}
			}
			return false, ""
		}},
	{ID: "k8s-delete-system", Level: LevelHigh, Category: CategoryContainerDestroy, Description: "deleting resources in a system namespace",
		Suggestions: []string{"Leave kube-system to the cluster administrators", "Delete resources in your own namespace"}, names: names("kubectl", "helm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "helm" {
				args := c.args()
				if len(args) > 0 && (args[0].s == "uninstall" || args[0].s == "delete" || args[0].s == "del" || args[0].s == "un") {
					if ns, ok := optValue(args, "-n", "namespace"); ok && systemNamespaces[ns] && ns != "default" {
						return true, ns
					}
				}
				return false, ""
			}
			ns, kinds, objs, _, _, ok := kubectlDelete(c)
			if !ok {
				return false, ""
			}
			if systemNamespaces[ns] && ns != "default" {
				return true, ns
			}
			for _, k := range kinds {
				if isNSKind(k) {
					for _, o := range objs {
						if systemNamespaces[o] {
							return true, o
						}
					}
				}
				if kind, _, _ := strings.Cut(strings.ToLower(k), "."); kind == "clusterrole" || kind == "clusterroles" || kind == "clusterrolebinding" || kind == "clusterrolebindings" {
					// kubectl delete clusterrolebinding cluster-admin: the
					// cluster's built-in roles and the bindings its own
					// components run under
					for _, o := range objs {
						if builtinClusterRole(o) {
							return true, o
						}
					}
				}
			}
			return false, ""
		}},
	// without names: crictl's other deletions are the generic rules'
	{ID: "runtime-system-pods-stopped", Level: LevelHigh, Category: CategoryContainerDestroy, Description: "stopping or removing a node's system pods at the container runtime",
		Suggestions: []string{"Leave kube-system to the cluster administrators", "Restart one pod of your own through kubectl"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name != "crictl" {
				return false, ""
			}
			// crictl stopp $(crictl pods -q --namespace kube-system): the
			// node's DNS, network and control-plane pods, listed and
			// stopped under the cluster's feet
			ops := c.operands()
			if len(ops) < 2 || !strings.Contains(a.src, "kube-system") {
				return false, ""
			}
			switch ops[0].s {
			case "stopp", "rmp", "stop", "rm":
				for _, w := range ops[1:] {
					if !w.ok { // the IDs a listing substituted
						return true, "kube-system pods, crictl " + ops[0].s
					}
				}
			}
			return false, ""
		}},
	{ID: "k8s-delete-storage", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "deleting Kubernetes storage, nodes or resource definitions",
		Suggestions: []string{"Back the data up first", "Delete by hand after checking what uses it"}, names: names("kubectl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			_, kinds, _, _, _, ok := kubectlDelete(c)
			if !ok {
				return false, ""
			}
			for _, k := range kinds {
				switch strings.ToLower(k) {
				case "pv", "pvc", "persistentvolume", "persistentvolumes", "persistentvolumeclaim", "persistentvolumeclaims",
					"node", "nodes", "no", "crd", "crds", "customresourcedefinition", "customresourcedefinitions", "storageclass", "sc", "storageclasses":
					return true, k
				}
			}
			return false, ""
		}},
	{ID: "orchestrator-teardown", prodAware: true, Level: LevelHigh, Category: CategoryContainerDestroy, Description: "tearing down a stack, swarm, pods or deployed resources",
		Suggestions: []string{"Remove the one service you mean", "Review with --dry-run or diff first"},
		names:       append(names("docker", "podman", "kubectl", "oc", "helm", "nomad", "kind", "k3d", "minikube", "eksctl"), devDeployTools()...),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			j := joinWords(args)
			if verbs, ok := devDeployTeardown[c.name]; ok {
				// a deploy tool's teardown of what it deployed: a local
				// cluster's is routine, a production or shared one's is not
				// the verb is the first operand, or the second after an
				// option's value (helmfile -e prod destroy)
				ops := c.operands()
				if !(len(ops) > 0 && slicesContains(verbs, ops[0].s) || len(ops) > 1 && slicesContains(verbs, ops[1].s)) {
					return false, ""
				}
				return touchesProduction(c) || hasWord(args, "--delete-namespaces") || hasWord(args, "--all"), j
			}
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
				case (sub == "pod rm" || sub == "pod remove" || sub == "pod prune") && (hasWord(rest, "--all") || shortCluster(rest, 'a') || sub == "pod prune"):
					return true, j
				}
			case "podman":
				if strings.HasPrefix(j, "pod rm") && (hasWord(args, "--all") || hasWord(args, "-a")) || strings.HasPrefix(j, "system reset") {
					return true, j
				}
			case "kubectl", "oc":
				ops := c.operands()
				// apply --prune deletes what the manifests leave out;
				// replace --force deletes and recreates
				if len(ops) > 0 && ops[0].s == "apply" && hasPrefixWord(args, "--prune") {
					return true, j
				}
				if len(ops) > 0 && ops[0].s == "replace" && hasWord(args, "--force") && touchesProduction(c) {
					return true, j
				}
				if hasWord(args, "delete") && (hasWord(args, "-f") || hasWord(args, "-k") || hasPrefixWord(args, "--filename") || hasPrefixWord(args, "--kustomize")) {
					return touchesProduction(c) || renderedFromProduction(c), j
				}
				if len(ops) > 0 && (ops[0].s == "drain" && disruptiveDrain(a, c) || ops[0].s == "cordon" && touchesProduction(c) && manyNodes(a, c)) {
					return true, j
				}
				if len(ops) <= 2 && len(ops) > 0 && ops[0].s == "cordon" && (len(ops) == 1 || ops[1].s == "<stdin>") && strings.Contains(a.src, "get nodes") && strings.Contains(a.src, "xargs") {
					return true, "every node listed, cordoned" // kubectl get nodes -o name | xargs kubectl cordon
				}
			case "helm":
				if len(args) > 0 && (args[0].s == "uninstall" || args[0].s == "delete" || args[0].s == "del") {
					if a.localCluster(c) && !touchesProduction(c) {
						return false, "" // helm uninstall pg --kube-context minikube
					}
					if ops := positional(args[1:]); len(ops) > 0 && !touchesProduction(c) {
						all := true // a pull request's or a test's release
						for _, o := range ops {
							all = all && (throwawayName(o.s) || ciRunName(o.s))
						}
						if all {
							return false, ""
						}
					}
					return !touchesProduction(c), j // production: helm-uninstall-production
				}
			case "nomad":
				// (the agent on this machine, run with -dev, is the
				// developer's own)
				if addr, ok := a.optOrEnv(c, "address", "NOMAD_ADDR"); ok && isLocalHost(hostOf(addr)) && !touchesProduction(c) {
					return false, ""
				}
				for _, w := range args {
					if v, ok := strings.CutPrefix(w.s, "-address="); ok && isLocalHost(hostOf(v)) && !touchesProduction(c) {
						return false, ""
					}
				}
				if _, ok := a.optOrEnv(c, "address", "NOMAD_ADDR"); !ok && strings.Contains(a.src, "nomad agent -dev") {
					return false, "" // nomad agent -dev & ... nomad job stop: the agent the line started
				}
				return strings.HasPrefix(j, "job stop") && hasWord(args, "-purge") || strings.HasPrefix(j, "system gc"), j
			case "kind", "k3d", "minikube":
				// one throwaway cluster on this machine is what these are
				// for; every cluster, or a shared one, is not
				all := hasWord(args, "--all") || hasWord(args, "-a") || strings.Contains(j, "delete clusters")
				return all || (strings.Contains(j, "delete") && touchesProduction(c)), j
			case "eksctl":
				// a cluster, or a node group whose workloads go with it
				return strings.Contains(j, "delete cluster") || strings.Contains(j, "delete nodegroup") || strings.Contains(j, "delete ng "), j
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, containerDestroyRules) }

// renderedFromProduction reports kubectl reading its manifests from a
// pipe whose previous stage renders production's (kustomize build
// overlays/production, helm template -f values-prod.yaml): what they
// name is deleted there.
func renderedFromProduction(c *cmd) bool {
	if f, ok := optValue(c.args(), "-f", "filename"); !ok || f != "-" || c.pipe == nil || c.stage == 0 {
		return false
	}
	p := c.pipe[c.stage-1]
	if p == nil || p.synthetic != "" {
		return false
	}
	ops := positional(p.args())
	renders := p.name == "kustomize" && len(ops) > 0 && ops[0].s == "build" ||
		p.name == "kubectl" && len(ops) > 0 && ops[0].s == "kustomize" || p.name == "helm" && len(ops) > 0 && ops[0].s == "template"
	return renders && touchesProduction(p)
}

// devDeployTeardown are deploy tools' verbs that delete what they
// deployed to a cluster.
var devDeployTeardown = map[string][]string{
	"skaffold": {"delete"}, "tilt": {"down"}, "devspace": {"purge"}, "garden": {"delete", "cleanup"}, "helmfile": {"destroy", "delete"},
	"okteto": {"destroy"}, "kapp": {"delete"}, "tk": {"delete"}, "werf": {"dismiss"}, "waypoint": {"destroy"},
}

func devDeployTools() []string {
	out := make([]string, 0, len(devDeployTeardown))
	for n := range devDeployTeardown {
		out = append(out, n)
	}
	return out
}

// shortCluster reports a short option letter alone or in a cluster
// (-a, -af, -fa) among args.
func shortCluster(args []word, letter byte) bool {
	for _, w := range args {
		if len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && isLetters(w.s[1:]) && strings.IndexByte(w.s[1:], letter) >= 0 {
			return true
		}
	}
	return false
}

// prunesAgedOnly reports a prune of stopped containers filtered to those
// older than a day or more (--filter until=24h): retention, which never
// reaches the work of the day. Images are another matter: pruning every
// unused one older than an hour is pruning them all.
func prunesAgedOnly(rest []word) bool {
	for i, w := range rest {
		v, ok := strings.CutPrefix(w.s, "--filter=")
		if !ok && w.s == "--filter" && i+1 < len(rest) {
			v, ok = rest[i+1].s, true
		}
		if !ok {
			continue
		}
		if age, ok := strings.CutPrefix(v, "until="); ok {
			d, err := time.ParseDuration(age)
			return err == nil && d >= 24*time.Hour
		}
		if l, ok := strings.CutPrefix(v, "label="); ok && (strings.HasPrefix(l, "project=") || strings.HasPrefix(l, "com.docker.compose.project=")) && len(l) > len("project=") {
			return true // the containers labelled as one project's (label=project=webapp)
		}
	}
	return false
}

// rebuildableVolume reports a volume named for what an install or a build
// fills again (web_node_modules, gradle-cache): removing it costs a
// reinstall, never data.
func rebuildableVolume(name string) bool {
	l := lower(name)
	if strings.Contains(l, "node_modules") || strings.Contains(l, "node-modules") {
		return true
	}
	for _, t := range nameWords(l) {
		switch t {
		case "cache", "caches", "buildcache", "vendor", "venv", "site-packages", "gomod", "gocache", "m2", "gradle", "nuget", "pip", "npm", "yarn", "pnpm":
			return true
		}
	}
	return false
}

// helmGlobal are helm's options that take a value, which may come before
// its subcommand.
var helmGlobal = optSpec{short: "n", long: []string{"namespace", "kube-context", "kubeconfig", "kube-apiserver", "kube-token", "kube-as-user",
	"kube-as-group", "kube-ca-file", "registry-config", "repository-config", "repository-cache", "burst-limit", "qps"}}

// devNamed reports a name that says development (dev-postgres,
// shop_dev): the developer's own copy, not a throwaway one.
func devNamed(s string) bool {
	for _, p := range nameWords(s) {
		if p == "dev" || p == "development" || p == "local" {
			return true
		}
	}
	return false
}

// manyNodes reports a node command (cordon, drain) given every node or
// a set of them: a selector, --all, names computed or piped, a loop.
func manyNodes(a *analysis, c *cmd) bool {
	args := c.args()
	if hasWord(args, "--all") || hasWord(args, "-l") || hasPrefixWord(args, "--selector") || hasPrefixWord(args, "-l=") {
		return true
	}
	for _, w := range c.operands() {
		if !w.ok || w.s == "<stdin>" {
			return true // $(kubectl get nodes -o name): every node
		}
	}
	return c.in.kind != flowNone && c.in.kind != flowText || strings.Contains(a.src, "xargs") || strings.Contains(a.src, "for ") || strings.Contains(a.src, "while ")
}

// disruptiveDrain reports a kubectl drain that takes services down: forced,
// with the disruption budgets bypassed, or of every node. One named node
// drained the polite way (evictions that respect the budgets, a timeout)
// is maintenance.
func disruptiveDrain(a *analysis, c *cmd) bool {
	args := c.args()
	if hasWord(args, "--force") || hasPrefixWord(args, "--force=true") || hasWord(args, "--disable-eviction") || hasPrefixWord(args, "--disable-eviction=true") {
		return true
	}
	if manyNodes(a, c) {
		return true
	}
	if hasPrefixWord(args, "--timeout") || hasPrefixWord(args, "--pod-selector") || hasPrefixWord(args, "--grace-period") {
		return false
	}
	for _, w := range args {
		if l := lower(w.s); scratchName(l) || strings.Contains(l, "staging") || strings.Contains(l, "kind-") || strings.Contains(l, "minikube") {
			return false // --context aks-dev, staging-worker-2, kind-worker
		}
	}
	return true
}

// branchNamespace reports a namespace named for a branch or a merge
// request (feature-x, pr-42, review-login): made for it, deleted with it.
func branchNamespace(ns string) bool {
	l := lower(ns)
	for _, p := range [...]string{"feature-", "feat-", "pr-", "mr-", "review-", "branch-"} {
		if strings.HasPrefix(l, p) && len(l) > len(p) && !isProdName(l) {
			return true
		}
	}
	return false
}

// builtinClusterRole reports whether name is one of the roles or role
// bindings a Kubernetes cluster creates for itself.
func builtinClusterRole(name string) bool {
	switch name {
	case "cluster-admin", "admin", "edit", "view":
		return true
	}
	return strings.HasPrefix(name, "system:")
}
