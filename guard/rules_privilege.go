package guard

import (
	"strings"
)

// --- privilege: roles, groups and bits that grant root or admin ---

// broadSubject reports a Kubernetes subject that is everyone.
func broadSubject(s string) bool {
	return strings.Contains(s, "system:anonymous") || strings.Contains(s, "system:authenticated") || strings.Contains(s, "system:unauthenticated") ||
		strings.Contains(s, "system:serviceaccounts")
}

var privilegeRules = []*rule{
	{ID: "k8s-cluster-admin-everyone", Level: LevelCritical, Category: CategoryPrivilege, Description: "making anonymous or every authenticated identity cluster-admin",
		Suggestions: []string{"Bind a narrow role to one named subject", "Never bind system:anonymous or system:authenticated"}, names: names("kubectl", "oc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := joinWords(c.args())
			if strings.Contains(j, "clusterrolebinding") && broadSubject(j) {
				return true, j
			}
			return false, ""
		}},
	{ID: "k8s-cluster-admin-binding", Level: LevelHigh, Category: CategoryPrivilege, Description: "granting cluster-admin (or admin) through a role binding",
		Suggestions: []string{"Bind a role with only the verbs and resources needed", "Scope the binding to one namespace"}, names: names("kubectl", "oc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) < 2 || (args[0].s != "create" && args[0].s != "adm") {
				return false, ""
			}
			j := joinWords(args)
			if strings.Contains(j, "rolebinding") && (strings.Contains(j, "--clusterrole=cluster-admin") || strings.Contains(j, "--clusterrole cluster-admin") ||
				strings.Contains(j, "--clusterrole=admin") || strings.Contains(j, "--role=admin")) {
				return true, j
			}
			if args[0].s == "adm" && strings.Contains(j, "add-cluster-role-to") && strings.Contains(j, "cluster-admin") {
				return true, j
			}
			return false, ""
		}},
	{ID: "k8s-widen-role", Level: LevelHigh, Category: CategoryPrivilege, Description: "widening a role to every verb and resource, or disabling pod security",
		Suggestions: []string{"Add only the rules needed", "Keep pod security at baseline or restricted"}, names: names("kubectl", "oc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) < 2 {
				return false, ""
			}
			j := joinWords(args)
			switch args[0].s {
			case "patch", "edit", "apply":
				if (strings.Contains(args[1].s, "clusterrole") || strings.Contains(args[1].s, "role")) && strings.Contains(j, `"*"`) && strings.Contains(j, "verbs") {
					return true, args[1].s
				}
			case "label", "annotate":
				if strings.Contains(j, "pod-security.kubernetes.io/enforce=privileged") {
					return true, "pod-security privileged"
				}
			}
			return false, ""
		}},
	{ID: "k8s-privileged-pod", Level: LevelCritical, Category: CategoryPrivilege, Description: "starting a privileged pod with the host's namespaces (root on the node)",
		Suggestions: []string{"Run pods unprivileged", "Use kubectl debug node with an approved profile"}, names: names("kubectl", "oc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) == 0 || args[0].s != "run" && args[0].s != "debug" {
				return false, ""
			}
			j := strings.ReplaceAll(joinWords(args), " ", "")
			if strings.Contains(j, `"privileged":true`) || strings.Contains(j, `"hostPID":true`) || strings.Contains(j, `"hostNetwork":true`) && strings.Contains(j, "nsenter") ||
				args[0].s == "debug" && strings.Contains(j, "--profile=sysadmin") && strings.Contains(j, "node/") {
				return true, "privileged pod"
			}
			return false, ""
		}},
	{ID: "suid-hunt", Level: LevelHigh, Category: CategoryPrivilege, Description: "searching the system for setuid or setgid programs (privilege-escalation reconnaissance)",
		Suggestions: []string{"Search only the project directory", "Audit setuid files with the distribution's tools"}, names: names("find"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(c.findExecs) > 0 || c.findDelete {
				return false, "" // what it does with them is judged
			}
			for i, w := range args {
				if w.s != "-perm" || i+1 >= len(args) {
					continue
				}
				m := strings.TrimLeft(args[i+1].s, "-/+")
				if strings.Contains(m, "u=s") || strings.Contains(m, "g=s") || strings.Contains(m, "u+s") || strings.Contains(m, "g+s") ||
					len(m) == 4 && (m[0] == '4' || m[0] == '2' || m[0] == '6') {
					return true, args[i+1].s
				}
			}
			return false, ""
		}},
	{ID: "install-setuid", Level: LevelHigh, Category: CategoryPrivilege, Description: "installing a setuid or setgid program",
		Suggestions: []string{"Install with mode 755", "Grant a sudo rule for the specific command instead"}, names: names("install"),
		match: func(a *analysis, c *cmd) (bool, string) {
			m, ok := optValue(c.args(), "-m", "mode")
			if ok && modeSetuid(m) || ok && len(m) == 4 && (m[0] == '2' || m[0] == '6') {
				return true, m
			}
			return false, ""
		}},
	{ID: "cloud-owner-grant", Level: LevelHigh, Category: CategoryPrivilege, Description: "granting an owner, admin or full-access role in a cloud account or repository",
		Suggestions: []string{"Grant the narrowest predefined role", "Have an administrator review IAM changes"},
		names:       names("gcloud", "aws", "az", "gh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := joinWords(c.args())
			lj := strings.ToLower(j)
			switch c.name {
			case "gcloud":
				if strings.Contains(j, "add-iam-policy-binding") && (strings.Contains(j, "roles/owner") || strings.Contains(j, "roles/editor") ||
					strings.Contains(j, "allUsers") || strings.Contains(j, "allAuthenticatedUsers") || strings.Contains(j, "Admin")) {
					return true, j
				}
			case "aws":
				if strings.Contains(j, "iam ") && (strings.Contains(j, "AdministratorAccess") || strings.Contains(j, "IAMFullAccess") || strings.Contains(j, `"Action":"*"`) ||
					strings.Contains(j, `"Principal":"*"`) || strings.Contains(j, "add-user-to-group") && strings.Contains(lj, "admin")) {
					return true, j
				}
			case "az":
				if strings.Contains(j, "role assignment create") && (strings.Contains(j, "Owner") || strings.Contains(j, "Contributor") || strings.Contains(j, "User Access Administrator")) {
					return true, j
				}
			case "gh":
				if strings.Contains(j, "collaborators/") && (strings.Contains(j, "permission=admin") || strings.Contains(j, "permission=maintain")) {
					return true, j
				}
			}
			return false, ""
		}},
	{ID: "preload-into-root", Level: LevelHigh, Category: CategoryPrivilege, Description: "loading a library from a temporary or unknown place into a program run as root",
		Suggestions: []string{"Do not combine LD_PRELOAD with sudo", "Install libraries through the package manager"}, names: nil,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, as := range c.assigns {
				if as.name == "LD_PRELOAD" || as.name == "LD_LIBRARY_PATH" || as.name == "DYLD_INSERT_LIBRARIES" {
					if c.asRoot || len(c.wrappers) > 0 && strings.HasPrefix(c.wrappers[0], "sudo") || c.name == "sudo" {
						return true, as.val.s
					}
				}
			}
			return false, ""
		}},
	{ID: "security-module-off", Level: LevelHigh, Category: CategorySystem, Description: "disabling AppArmor or SELinux protection",
		Suggestions: []string{"Fix the profile that blocks the program", "Put one profile in complain mode after review"},
		names:       names("aa-disable", "aa-teardown", "aa-complain", "setenforce", "apparmor_parser"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "setenforce":
				return len(args) > 0 && (args[0].s == "0" || strings.EqualFold(args[0].s, "permissive")), "setenforce 0"
			case "apparmor_parser":
				return hasWord(args, "-R") || hasWord(args, "--remove"), "apparmor_parser -R"
			case "aa-complain":
				for _, w := range args {
					if strings.Contains(w.s, "*") || w.s == "/etc/apparmor.d" || w.s == "/etc/apparmor.d/" {
						return true, w.s
					}
				}
				return false, ""
			}
			return true, c.name
		}},
}

func init() { ruleSets = append(ruleSets, privilegeRules) }
