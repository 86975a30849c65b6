package guard

import "strings"

// Kubernetes manifests and LDAP changes written into the line (a
// here-document or echo piped to kubectl apply -f -, ldapmodify): judged
// by what they ask. Pods given the node (privileged, its process,
// network or root folder), cluster-admin bound to anonymous or every
// signed-in user, workloads scheduled in kube-system, mutual TLS made
// optional, a namespace's pod security set to privileged.
var manifestRules = []*rule{
	{ID: "manifest-host-access", Level: LevelCritical, Category: CategoryPrivilege, Description: "a manifest applied from the line that gives pods the node (privileged, the host's processes, network or root folder), binds cluster-admin to anonymous or every signed-in user, or runs a workload in kube-system",
		Suggestions: []string{"Keep workloads unprivileged and out of kube-system; review manifests in a pull request", "Bind narrow roles to named service accounts"},
		names:       names("kubectl", "oc"),
		match: manifestMatch(func(text string) string {
			switch {
			case strings.Contains(text, "privileged: true"):
				return "a privileged container"
			case strings.Contains(text, "hostpid: true"), strings.Contains(text, "hostnetwork: true"), strings.Contains(text, "hostipc: true"):
				return "a pod in the node's namespaces"
			case strings.Contains(text, "hostpath:") && manifestRootHostPath(text):
				return "the node's root folder mounted"
			case strings.Contains(text, "kind: clusterrolebinding") && strings.Contains(text, "name: cluster-admin") &&
				(strings.Contains(text, "system:anonymous") || strings.Contains(text, "system:unauthenticated") || strings.Contains(text, "system:authenticated")):
				return "cluster-admin bound to every caller"
			case strings.Contains(text, "namespace: kube-system") && (strings.Contains(text, "kind: cronjob") || strings.Contains(text, "kind: daemonset") || strings.Contains(text, "kind: pod\n")):
				return "a workload in kube-system"
			}
			return ""
		})},
	{ID: "manifest-security-weakened", Level: LevelHigh, Category: CategorySystem, Description: "a manifest applied from the line that weakens the cluster's security: mutual TLS made optional or off, a namespace's pod security set to privileged",
		Suggestions: []string{"Keep mTLS STRICT and pod security at baseline or restricted", "Change security settings through the reviewed configuration"},
		names:       names("kubectl", "oc"),
		match: manifestMatch(func(text string) string {
			switch {
			case strings.Contains(text, "kind: peerauthentication") && (strings.Contains(text, "mode: permissive") || strings.Contains(text, "mode: disable")):
				return "mutual TLS made optional"
			case strings.Contains(text, "pod-security.kubernetes.io/enforce: privileged"):
				return "pod security set to privileged"
			}
			return ""
		})},
}

func init() { ruleSets = append(ruleSets, manifestRules) }

// manifestMatch is a rule's match over the manifest a command applies:
// what judge finds in it (lower case), "" for nothing.
func manifestMatch(judge func(text string) string) func(a *analysis, c *cmd) (bool, string) {
	return func(a *analysis, c *cmd) (bool, string) {
		text, ok := appliedManifest(c)
		if !ok {
			return false, ""
		}
		note := judge(text)
		return note != "", note
	}
}

// appliedManifest returns, in lower case, the manifest kubectl apply,
// create or replace -f - reads from text the line holds.
func appliedManifest(c *cmd) (string, bool) {
	args := c.args()
	if len(args) == 0 || args[0].s != "apply" && args[0].s != "create" && args[0].s != "replace" {
		return "", false
	}
	if f, ok := optValue(args, "-f", "filename"); !ok || f != "-" || dryRun(c) {
		return "", false
	}
	if c.in.kind != flowText || c.in.text == "" {
		return "", false
	}
	return strings.ToLower(strings.ReplaceAll(c.in.text, "\r", "")), true
}

// manifestRootHostPath reports a hostPath volume whose path is the node's
// root.
func manifestRootHostPath(text string) bool {
	for _, ln := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(ln), "path:"); ok {
			if p := strings.Trim(strings.TrimSpace(v), `"'`); p == "/" {
				return true
			}
		}
	}
	return false
}

// LDAP changes written into the line (ldapmodify <<< $'dn: ...'): an
// access rule letting everyone write the directory, or an account added
// to an administrators' group.
var ldapChangeRule = &rule{ID: "ldap-directory-opened", Level: LevelHigh, Category: CategoryPrivilege, Description: "changing a directory so that anyone may write it, or adding an account to an administrators' group, from the command line",
	Suggestions: []string{"Change access rules and admin groups through the directory's reviewed process", "Grant the narrowest group the task needs"},
	names:       names("ldapmodify", "ldapadd"),
	match: func(a *analysis, c *cmd) (bool, string) {
		if c.in.kind != flowText || c.in.text == "" {
			return false, ""
		}
		t := strings.ToLower(c.in.text)
		if strings.Contains(t, "olcaccess") && (strings.Contains(t, "by * write") || strings.Contains(t, "by anonymous write") || strings.Contains(t, "by * manage") || strings.Contains(t, "by users write")) {
			return true, "the directory's access rule gives everyone write"
		}
		if (strings.Contains(t, "add: member") || strings.Contains(t, "add: uniquemember") || strings.Contains(t, "add: memberuid")) &&
			hasAny(t, "cn=admins", "cn=admin", "cn=administrators", "cn=domain admins", "cn=sudo", "cn=wheel") {
			return true, "an account added to an administrators' group"
		}
		return false, ""
	}}

func init() { ruleSets = append(ruleSets, []*rule{ldapChangeRule}) }
