package guard

import (
	"path"
	"strings"
)

// --- helpers ---

// gitSub returns git's subcommand and its arguments, skipping global
// options.
func gitSub(c *cmd) (string, []word) {
	if c.subDone {
		return c.sub, c.subArgs
	}
	c.subDone = true
	c.sub, c.subArgs = gitSubParse(c)
	return c.sub, c.subArgs
}

func gitSubParse(c *cmd) (string, []word) {
	args := c.args()
	i := skipOpts(args, 0, optSpec{short: "Cc", long: []string{"git-dir", "work-tree", "namespace", "exec-path", "config-env", "super-prefix"}})
	if i >= len(args) {
		return "", nil
	}
	return args[i].s, args[i+1:]
}

var protectedBranches = map[string]bool{"main": true, "master": true, "trunk": true, "develop": true, "production": true, "prod": true,
	"release": true, "stable": true, "live": true, "default": true}

func isProtectedBranch(ref string) bool {
	ref = strings.TrimPrefix(ref, "+")
	if i := strings.LastIndexByte(ref, ':'); i >= 0 {
		ref = ref[i+1:]
	}
	ref = strings.TrimPrefix(ref, "refs/heads/")
	return protectedBranches[ref] || strings.HasPrefix(ref, "release/") || strings.HasPrefix(ref, "release-")
}

// gitPush describes a git push.
type gitPush struct {
	force, all, mirror, delete, tags bool
	leaseOnly                        bool     // only --force-with-lease
	refs                             []string // refspecs after the remote
}

func parseGitPush(args []word) gitPush {
	var p gitPush
	var ops []string
	for i := 0; i < len(args); i++ {
		s := args[i].s
		switch {
		case s == "--force-with-lease" || strings.HasPrefix(s, "--force-with-lease=") || s == "--force-if-includes":
			if !p.force {
				p.leaseOnly = true
			}
			p.force = true
		case s == "--force":
			p.force, p.leaseOnly = true, false
		case s == "--all" || s == "--branches":
			p.all = true
		case s == "--mirror":
			p.mirror = true
		case s == "--tags":
			p.tags = true
		case s == "--delete":
			p.delete = true
		case s == "--repo" || s == "--receive-pack" || s == "--exec" || s == "-o" || s == "--push-option":
			i++
		case strings.HasPrefix(s, "--"):
		case len(s) > 1 && s[0] == '-':
			if strings.IndexByte(s, 'f') >= 0 {
				p.force, p.leaseOnly = true, false
			}
			if strings.IndexByte(s, 'd') >= 0 {
				p.delete = true
			}
		default:
			ops = append(ops, s)
		}
	}
	if len(ops) > 1 {
		p.refs = ops[1:]
	}
	for _, r := range p.refs {
		if strings.HasPrefix(r, "+") {
			p.force, p.leaseOnly = true, false
		}
	}
	return p
}

var rootShells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "csh": true, "tcsh": true}

var criticalServices = map[string]bool{
	"ssh": true, "sshd": true, "networking": true, "network": true, "NetworkManager": true, "systemd-networkd": true, "systemd-resolved": true,
	"dbus": true, "systemd-logind": true, "docker": true, "containerd": true, "kubelet": true, "cron": true, "crond": true, "polkit": true,
	"firewalld": true, "ufw": true, "nftables": true, "iptables": true, "apparmor": true, "systemd-udevd": true, "getty@tty1": true,
}

var loggingServices = map[string]bool{"rsyslog": true, "syslog": true, "auditd": true, "systemd-journald": true, "syslog-ng": true, "journald": true}

func unitName(s string) string {
	s = strings.TrimSuffix(s, ".service")
	s = strings.TrimSuffix(s, ".socket")
	return s
}

var criticalPackages = map[string]bool{
	"libc6": true, "glibc": true, "libc-bin": true, "systemd": true, "systemd-sysv": true, "bash": true, "coreutils": true, "sudo": true,
	"openssh-server": true, "apt": true, "dpkg": true, "rpm": true, "yum": true, "dnf": true, "linux-image-generic": true, "kernel": true,
	"grub-pc": true, "grub2": true, "grub-efi-amd64": true, "util-linux": true, "login": true, "passwd": true, "base-files": true,
	"init": true, "python3-minimal": true, "libpam0g": true, "pam": true, "perl-base": true, "shadow-utils": true, "filesystem": true,
	"initscripts": true, "sysvinit": true, "procps": true, "mount": true, "e2fsprogs": true, "zlib1g": true,
}

func isAWSDelete(op string) bool {
	for _, p := range [...]string{"delete-", "terminate-", "remove-", "deregister-", "purge-", "destroy-", "schedule-key-deletion", "disable-", "stop-", "reboot-"} {
		if strings.HasPrefix(op, p) {
			return true
		}
	}
	return false
}

var awsHighOps = map[string]bool{
	"ec2 terminate-instances": true, "rds delete-db-instance": true, "rds delete-db-cluster": true, "dynamodb delete-table": true,
	"eks delete-cluster": true, "cloudformation delete-stack": true, "route53 delete-hosted-zone": true, "kms schedule-key-deletion": true,
	"ecr delete-repository": true, "efs delete-file-system": true, "elasticache delete-cache-cluster": true, "elasticache delete-replication-group": true,
	"redshift delete-cluster": true, "opensearch delete-domain": true, "es delete-domain": true, "ec2 delete-volume": true, "ec2 delete-snapshot": true,
	"s3api delete-bucket": true, "lambda delete-function": true, "ecs delete-cluster": true, "ecs delete-service": true, "iam delete-user": true,
	"iam delete-role": true, "secretsmanager delete-secret": true, "backup delete-backup-vault": true, "rds delete-db-snapshot": true,
	"docdb delete-db-cluster": true, "neptune delete-db-cluster": true, "glacier delete-vault": true, "ec2 delete-vpc": true,
	"organizations delete-organization": true, "s3api delete-objects": true, "elbv2 delete-load-balancer": true, "autoscaling delete-auto-scaling-group": true,
}

var awsLogOps = map[string]bool{"cloudtrail stop-logging": true, "cloudtrail delete-trail": true, "logs delete-log-group": true,
	"logs delete-log-stream": true, "guardduty delete-detector": true, "config stop-configuration-recorder": true,
	"config delete-configuration-recorder": true, "cloudwatch delete-alarms": true, "securityhub disable-security-hub": true}

// awsOp returns "service operation" of an aws CLI call and the words
// after the operation.
func awsOp(c *cmd) (string, []word) {
	args := c.args()
	spec := []string{"profile", "region", "output", "endpoint-url", "query", "cli-read-timeout", "cli-connect-timeout", "ca-bundle", "color"}
	var parts []string
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if strings.HasPrefix(s, "--") {
			if !strings.Contains(s, "=") && containsStr(spec, s[2:]) {
				i++
			}
			continue
		}
		if strings.HasPrefix(s, "-") {
			continue
		}
		parts = append(parts, s)
		if len(parts) == 2 {
			return parts[0] + " " + parts[1], args[i+1:]
		}
	}
	return "", nil
}

// gcloudPath returns the positional words of a gcloud/az/doctl call.
func cliPath(c *cmd) []string {
	var out []string
	for _, w := range c.args() {
		if strings.HasPrefix(w.s, "-") {
			break
		}
		out = append(out, w.s)
		if len(out) > 6 {
			break
		}
	}
	return out
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// kubectlDelete describes a kubectl delete.
func kubectlDelete(c *cmd) (ns string, kinds []string, objs []string, all, allNS, ok bool) {
	args := c.args()
	sub, i := subcommand(args, kubectlGlobal)
	if sub != "delete" {
		return
	}
	ok = true
	for j := 0; j < len(args); j++ {
		s := args[j].s
		switch {
		case s == "-n" || s == "--namespace":
			if j+1 < len(args) {
				ns = args[j+1].s
			}
		case strings.HasPrefix(s, "--namespace="):
			ns = s[len("--namespace="):]
		case strings.HasPrefix(s, "-n") && len(s) > 2 && !strings.HasPrefix(s, "--"):
			ns = s[2:]
		case s == "--all":
			all = true
		case s == "-A" || s == "--all-namespaces":
			allNS = true
		}
	}
	rest := args[i+1:]
	for j := 0; j < len(rest); j++ {
		s := rest[j].s
		if strings.HasPrefix(s, "-") {
			if s == "-n" || s == "--namespace" || s == "-l" || s == "--selector" || s == "-f" || s == "--filename" || s == "--context" || s == "-o" || s == "--grace-period" || s == "--timeout" || s == "-k" || s == "--field-selector" {
				j++
			}
			continue
		}
		if len(kinds) == 0 {
			for _, k := range strings.Split(s, ",") {
				if kk, name, has := strings.Cut(k, "/"); has {
					kinds = append(kinds, kk)
					objs = append(objs, name)
				} else {
					kinds = append(kinds, k)
				}
			}
			continue
		}
		objs = append(objs, s)
	}
	return
}

func isNSKind(k string) bool { return k == "ns" || k == "namespace" || k == "namespaces" }

var systemNamespaces = map[string]bool{"kube-system": true, "kube-public": true, "kube-node-lease": true, "default": true,
	"istio-system": true, "cert-manager": true, "ingress-nginx": true, "argocd": true, "gatekeeper-system": true}

// wordFlowList reports whether any argument is a list of every container,
// image or volume (from "docker ps -aq" and friends).
func wordFlowList(ws []word, what string) bool {
	for _, w := range ws {
		if w.flow != nil && w.flow.kind == flowList && w.flow.what == what {
			return true
		}
	}
	return false
}

// dockerSub returns the docker subcommand path ("rm", "container rm",
// "system prune") and its arguments.
func dockerSub(c *cmd) (string, []word) {
	args := c.args()
	sub, i := subcommand(args, dockerGlobal)
	rest := args[min(i+1, len(args)):]
	switch sub {
	case "container", "image", "volume", "system", "network", "builder", "compose", "buildx", "service", "stack", "swarm", "node", "secret", "config", "plugin", "context":
		if len(rest) > 0 {
			j := 0
			for j < len(rest) && strings.HasPrefix(rest[j].s, "-") {
				j++
			}
			if j < len(rest) {
				return sub + " " + rest[j].s, rest[j+1:]
			}
		}
	}
	return sub, rest
}

var suggDB = []string{"Back up first (pg_dump, mysqldump) and run destructive statements by hand", "Add a WHERE clause that selects only the rows you mean", "Use a transaction and check the row count before COMMIT"}

var suggGit = []string{"Push to a feature branch and open a pull request", "Use --force-with-lease on your own branch only", "Create a backup branch first"}

var suggCloud = []string{"Review the plan first (terraform plan -destroy, --dry-run)", "Delete specific resources by hand after confirming their names", "Protect production resources with deletion protection"}

var suggContainer = []string{"Remove specific containers or volumes by name", "Use docker system df / docker ps -a to review first"}

var opsRules = []*rule{
	// --- fork bombs ---
	{ID: "fork-bomb-function", Level: LevelCritical, Category: CategoryForkBomb, Description: "a fork bomb: a function that keeps spawning copies of itself",
		Suggestions: []string{"Do not run fork bombs", "Limit processes with ulimit -u when testing"}, names: names("<function>"),
		match: func(a *analysis, c *cmd) (bool, string) { return c.forkBomb, "" }},
	{ID: "fork-bomb-loop", Level: LevelCritical, Category: CategoryForkBomb, Description: "an endless loop spawning background processes",
		Suggestions: []string{"Add a sleep and a bound to the loop", "Limit processes with ulimit -u when testing"}, names: names("<loop>"),
		match: func(a *analysis, c *cmd) (bool, string) { return c.forkBomb, "" }},
	{ID: "fork-bomb-script", Level: LevelCritical, Category: CategoryForkBomb, Description: "interpreter code forking without end",
		Suggestions: []string{"Do not run fork bombs", "Bound the number of processes"}, names: interpNames,
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.scan != nil && c.scan.forkBomb != "" {
				return true, c.scan.forkBomb
			}
			return false, ""
		}},

	// --- system ---
	{ID: "system-shutdown", Level: LevelHigh, Category: CategorySystem, Description: "shutting down or rebooting the machine",
		Suggestions: []string{"Ask the user to reboot when convenient", "Restart only the service that needs it"},
		names:       names("shutdown", "reboot", "halt", "poweroff", "init", "telinit", "systemctl", "loginctl", "kexec"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "shutdown":
				return !hasWord(args, "-c") && !hasWord(args, "--cancel") && !hasWord(args, "-k") && !hasWord(args, "--help"), ""
			case "reboot", "halt", "poweroff":
				return !hasWord(args, "--help") && !hasWord(args, "-w") && !hasWord(args, "--wtmp-only"), ""
			case "init", "telinit":
				return len(args) > 0 && (args[0].s == "0" || args[0].s == "6" || args[0].s == "1" || args[0].s == "s" || args[0].s == "S"), ""
			case "kexec":
				return hasWord(args, "-e") || hasWord(args, "--exec"), ""
			case "systemctl", "loginctl":
				for _, w := range positional(args) {
					switch w.s {
					case "poweroff", "reboot", "halt", "kexec", "emergency", "rescue", "soft-reboot":
						return true, w.s
					case "isolate":
						return true, w.s
					}
					break
				}
			}
			return false, ""
		}},
	{ID: "system-stop-critical-service", Level: LevelHigh, Category: CategorySystem, Description: "stopping or disabling a critical system service",
		Suggestions: []string{"Restart the service instead (systemctl restart)", "Leave system services to an administrator"}, names: names("systemctl", "service"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := positional(c.args())
			if c.name == "service" {
				if len(ops) >= 2 && (ops[1].s == "stop") && criticalServices[unitName(ops[0].s)] {
					return true, ops[0].s
				}
				return false, ""
			}
			if len(ops) < 2 {
				return false, ""
			}
			switch ops[0].s {
			case "stop", "disable", "mask", "kill":
				for _, w := range ops[1:] {
					if criticalServices[unitName(w.s)] {
						return true, w.s
					}
				}
			}
			return false, ""
		}},
	{ID: "logging-disable", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "stopping system logging or auditing",
		Suggestions: []string{"Leave logging and auditing running", "Change log levels through configuration instead"}, names: names("systemctl", "service"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := positional(c.args())
			if len(ops) < 2 {
				return false, ""
			}
			if c.name == "service" {
				return ops[1].s == "stop" && loggingServices[unitName(ops[0].s)], ops[0].s
			}
			switch ops[0].s {
			case "stop", "disable", "mask", "kill":
				for _, w := range ops[1:] {
					if loggingServices[unitName(w.s)] {
						return true, w.s
					}
				}
			}
			return false, ""
		}},
	{ID: "kill-all-processes", Level: LevelHigh, Category: CategorySystem, Description: "killing every process or init",
		Suggestions: []string{"Kill the specific process by PID or name (pkill -f myserver)", "Stop the service with systemctl stop"},
		names:       names("kill", "killall", "pkill", "killall5"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "killall5":
				return true, ""
			case "kill":
				for _, w := range args {
					if w.flow != nil && w.flow.kind == flowList && strings.HasPrefix(w.flow.what, "pids:") {
						switch strings.TrimPrefix(w.flow.what, "pids:") {
						case "init", "systemd", "sshd", "dbus-daemon", "systemd-journald", "containerd", "dockerd", "kubelet", "rsyslogd", "auditd", "cron", "crond", "NetworkManager":
							return true, w.flow.what
						}
					}
				}
				dash := false
				for i, w := range args {
					if w.s == "--" {
						dash = true
						continue
					}
					if w.s == "-1" && (i > 0 || dash) {
						if i > 0 && (args[i-1].s == "-s" || args[i-1].s == "-n") {
							continue
						}
						return true, w.s
					}
				}
			case "killall", "pkill":
				for _, w := range positional(args) {
					switch w.s {
					case "init", "systemd", "sshd", "dbus-daemon", "systemd-journald", "containerd", "dockerd", "kubelet", "Xorg", "-1":
						return true, w.s
					}
				}
				if c.name == "pkill" && (hasWord(args, "-u") || hasPrefixWord(args, "--euid")) {
					if v, _ := optValue(args, "-u", "euid"); v == "root" || v == "0" {
						return true, "all root processes"
					}
				}
			}
			return false, ""
		}},
	{ID: "kill-init", Level: LevelCritical, Category: CategorySystem, Description: "killing init (PID 1) takes the whole system down",
		Suggestions: []string{"Kill the specific process by PID or name", "Restart a service with systemctl restart"}, names: names("kill"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range positional(c.args()) {
				if w.s == "1" {
					return true, "PID 1"
				}
			}
			return false, ""
		}},
	{ID: "firewall-flush", Level: LevelHigh, Category: CategorySystem, Description: "flushing or disabling the firewall",
		Suggestions: []string{"Add or remove a single rule instead", "Save the rules first (iptables-save > rules.bak)"},
		names:       names("iptables", "ip6tables", "nft", "ufw", "iptables-legacy", "iptables-nft", "firewall-cmd", "pfctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "nft":
				return len(args) > 1 && args[0].s == "flush" && args[1].s == "ruleset", ""
			case "ufw":
				return len(args) > 0 && (args[0].s == "disable" || args[0].s == "reset"), ""
			case "firewall-cmd":
				return hasWord(args, "--panic-on") || hasPrefixWord(args, "--set-default-zone=trusted"), ""
			case "pfctl":
				return hasWord(args, "-F") || hasWord(args, "-d"), ""
			}
			for i, w := range args {
				if w.s == "-F" || w.s == "--flush" || w.s == "-X" && hasWord(args, "-F") {
					return true, w.s
				}
				if (w.s == "-P" || w.s == "--policy") && i+2 < len(args) && args[i+2].s == "DROP" && (args[i+1].s == "INPUT" || args[i+1].s == "OUTPUT") {
					return true, "default policy DROP"
				}
			}
			return false, ""
		}},
	{ID: "security-disable", Level: LevelModerate, Category: CategorySystem, Description: "disabling a kernel security mechanism",
		Suggestions: []string{"Add a targeted policy exception instead", "Leave SELinux/AppArmor enforcing"}, names: names("setenforce", "aa-teardown", "swapoff", "sysctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "setenforce":
				return len(args) > 0 && (args[0].s == "0" || lower(args[0].s) == "permissive"), ""
			case "aa-teardown":
				return true, ""
			case "swapoff":
				return hasWord(args, "-a") || hasWord(args, "--all"), ""
			case "sysctl":
				for _, w := range args {
					if strings.HasPrefix(w.s, "kernel.randomize_va_space=0") || strings.HasPrefix(w.s, "kernel.kptr_restrict=0") || strings.HasPrefix(w.s, "kernel.yama.ptrace_scope=0") {
						return true, w.s
					}
				}
			}
			return false, ""
		}},
	{ID: "network-down", Level: LevelHigh, Category: CategorySystem, Description: "taking a network interface down",
		Suggestions: []string{"Change the interface configuration without taking it down", "Do this from a local console"}, names: names("ifconfig", "ip", "ifdown", "nmcli"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "ifconfig":
				return len(args) > 1 && args[len(args)-1].s == "down" && args[0].s != "lo", ""
			case "ip":
				return len(args) > 3 && args[0].s == "link" && args[1].s == "set" && hasWord(args, "down") && !hasWord(args, "lo"), ""
			case "ifdown":
				return len(args) > 0 && !hasWord(args, "lo"), ""
			case "nmcli":
				return hasWord(args, "off") && hasWord(args, "networking") || hasWord(args, "down") && hasWord(args, "connection"), ""
			}
			return false, ""
		}},
	{ID: "package-remove-critical", Level: LevelHigh, Category: CategorySystem, Description: "removing a package the system needs to run",
		Suggestions: []string{"Remove only the application packages you installed", "Check with apt-get -s remove (simulate) first"},
		names:       names("apt", "apt-get", "aptitude", "yum", "dnf", "zypper", "pacman", "rpm", "dpkg", "apk", "brew"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			removing := false
			for _, w := range args {
				switch w.s {
				case "remove", "purge", "erase", "autoremove", "del", "uninstall", "-R", "-Rns", "-Rs", "-Rdd", "-e", "--erase", "-r", "-P", "--purge", "--remove":
					removing = true
				}
			}
			if !removing {
				return false, ""
			}
			for _, w := range positional(args) {
				n := w.s
				if criticalPackages[n] || strings.HasPrefix(n, "linux-image") || strings.HasPrefix(n, "kernel-") && !strings.Contains(n, "devel") || n == "python3" && (c.name == "apt" || c.name == "apt-get") {
					return true, n
				}
			}
			if hasWord(args, "--nodeps") && (c.name == "rpm") || hasWord(args, "--force-all") && c.name == "dpkg" {
				return true, "forced removal"
			}
			return false, ""
		}},

	// --- privilege ---
	{ID: "root-shell", Level: LevelHigh, Category: CategoryPrivilege, Description: "opening an interactive root shell",
		Suggestions: []string{"Run the specific command with sudo instead", "Ask the user to run privileged steps"}, names: append(names("sudo", "su", "doas", "pkexec"), shellNames...),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "sudo":
				o := c.opts()
				if o.has("is", "login", "shell") {
					for _, w := range args {
						if !strings.HasPrefix(w.s, "-") {
							return false, ""
						}
					}
					return true, ""
				}
			case "su":
				for _, w := range args {
					if w.s == "-c" || w.s == "--command" || strings.HasPrefix(w.s, "--command=") || w.s == "-h" || w.s == "--help" {
						return false, ""
					}
				}
				for _, w := range positional(args) {
					if w.s != "root" && w.s != "-" {
						return false, ""
					}
				}
				return true, ""
			case "doas", "pkexec":
				return len(args) == 0 || hasWord(args, "-s"), ""
			default:
				if c.asRoot && c.script != nil && c.script.kind == scriptStdin && c.in.kind == flowNone {
					return true, strings.Join(c.wrappers, " ")
				}
			}
			return false, ""
		}},
	{ID: "user-admin-group", Level: LevelHigh, Category: CategoryPrivilege, Description: "adding a user to an administrator group",
		Suggestions: []string{"Grant a specific sudo rule instead of admin membership", "Ask an administrator"}, names: names("usermod", "gpasswd", "adduser", "addgroup", "dseditgroup", "useradd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			admin := func(s string) bool {
				for _, g := range strings.Split(s, ",") {
					switch g {
					case "sudo", "wheel", "admin", "root", "adm", "shadow", "disk", "sudoers", "docker", "lxd", "lxc", "libvirt", "microk8s":
						return true
					}
				}
				return false
			}
			switch c.name {
			case "usermod", "useradd":
				if v, ok := optValue(args, "-G", "groups"); ok && admin(v) {
					return true, v
				}
				if v, ok := optValue(args, "-aG", ""); ok && admin(v) {
					return true, v
				}
				for i, w := range args {
					if strings.HasPrefix(w.s, "-") && strings.HasSuffix(w.s, "G") && i+1 < len(args) && admin(args[i+1].s) {
						return true, args[i+1].s
					}
					if (w.s == "-g" || w.s == "--gid") && i+1 < len(args) && (args[i+1].s == "0" || args[i+1].s == "root") {
						return true, "group root"
					}
				}
			case "gpasswd":
				if (hasWord(args, "-a") || hasWord(args, "--add") || hasWord(args, "-M")) && len(args) > 0 && admin(args[len(args)-1].s) {
					return true, args[len(args)-1].s
				}
			case "adduser", "addgroup":
				ops := positional(args)
				if len(ops) == 2 && admin(ops[1].s) {
					return true, ops[1].s
				}
			case "dseditgroup":
				return hasWord(args, "admin") && hasWord(args, "-a"), ""
			}
			return false, ""
		}},
	{ID: "user-uid-zero", Level: LevelCritical, Category: CategoryPrivilege, Description: "creating or changing a user to UID 0 (a second root)",
		Suggestions: []string{"Never give accounts UID 0", "Grant specific sudo rules instead"}, names: names("useradd", "usermod", "adduser"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if v, ok := optValue(c.args(), "-u", "uid"); ok && (v == "0" || v == "00") {
				return true, "uid 0"
			}
			return false, ""
		}},
	{ID: "password-root", Level: LevelCritical, Category: CategoryPrivilege, Description: "setting or removing the root password",
		Suggestions: []string{"Leave the root account locked", "Use sudo rules instead of a root password"}, names: names("passwd", "chpasswd", "usermod"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "chpasswd":
				if c.in.kind == flowText {
					for _, l := range strings.Split(c.in.text, "\n") {
						if strings.HasPrefix(strings.TrimSpace(l), "root:") {
							return true, "root"
						}
					}
				}
			case "passwd", "usermod":
				ops := positional(args)
				if len(ops) > 0 && ops[len(ops)-1].s == "root" && (c.name == "passwd" || hasWord(args, "-p") || hasPrefixWord(args, "--password")) {
					return true, "root"
				}
			}
			return false, ""
		}},
	{ID: "password-change", Level: LevelHigh, Category: CategoryPrivilege, Description: "changing or removing an account password",
		Suggestions: []string{"Let the user change passwords themselves", "Use SSH keys for automation instead of passwords"}, names: names("passwd", "chpasswd", "usermod"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "passwd":
				ops := positional(args)
				if hasWord(args, "-d") || hasWord(args, "--delete") || hasWord(args, "-u") && len(ops) > 0 {
					return true, "password removed or unlocked"
				}
				for _, w := range ops {
					if w.s == "root" {
						return true, "root"
					}
				}
				if c.in.kind != flowNone && len(ops) > 0 {
					return true, "scripted password change"
				}
			case "chpasswd":
				return true, ""
			case "usermod":
				if _, ok := optValue(args, "-p", "password"); ok {
					return true, "password set"
				}
			}
			return false, ""
		}},
	{ID: "nsenter-host", Level: LevelHigh, Category: CategoryPrivilege, Description: "entering the host's namespaces (escaping a container)",
		Suggestions: []string{"Run commands inside the container", "Ask an administrator for host access"},
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.wrappers {
				if strings.HasPrefix(w, "nsenter ") && (strings.Contains(w, " -t 1 ") || strings.HasSuffix(w, " -t 1") || strings.Contains(w, "--target=1") || strings.Contains(w, "--target 1") || strings.Contains(w, " -t1")) {
					return true, w
				}
			}
			if c.name == "nsenter" {
				if v, ok := optValue(c.args(), "-t", "target"); ok && v == "1" {
					return true, "host init namespaces"
				}
			}
			return false, ""
		}},
	{ID: "container-host-escape", Level: LevelHigh, Category: CategoryPrivilege, Description: "a container given the host's root filesystem or namespaces",
		Suggestions: []string{"Mount only the project directory (-v \"$PWD\":/work)", "Drop --privileged and host namespaces"}, names: names("docker", "nsenter"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "nsenter" {
				if v, ok := optValue(args, "-t", "target"); ok && v == "1" {
					return true, "host init namespaces"
				}
				return false, ""
			}
			sub, rest := dockerSub(c)
			if sub != "run" && sub != "container run" && sub != "create" && sub != "container create" {
				return false, ""
			}
			priv, hostPID := false, false
			for i, w := range rest {
				s := w.s
				v := ""
				switch {
				case (s == "-v" || s == "--volume") && i+1 < len(rest):
					v = rest[i+1].s
				case strings.HasPrefix(s, "--volume=") || strings.HasPrefix(s, "-v") && len(s) > 2 && s[2] != '-':
					v = strings.TrimPrefix(strings.TrimPrefix(s, "--volume="), "-v")
				case s == "--mount" && i+1 < len(rest):
					v = mountSource(rest[i+1].s)
				case strings.HasPrefix(s, "--mount="):
					v = mountSource(s[len("--mount="):])
				case s == "--privileged":
					priv = true
				case s == "--pid=host" || s == "--pid" && i+1 < len(rest) && rest[i+1].s == "host":
					hostPID = true
				}
				if v != "" {
					src, _, _ := strings.Cut(v, ":")
					src = path.Clean(src)
					if src == "/" || src == "/etc" || src == "/root" || src == "/boot" || src == "/usr" || src == "/var" || src == "/dev" {
						return true, "host " + src + " mounted"
					}
				}
				if !strings.HasPrefix(s, "-") && i > 0 && !strings.Contains(rest[i-1].s, "=") && !strings.HasPrefix(rest[i-1].s, "-") {
					break // image reached
				}
			}
			if priv && hostPID {
				return true, "--privileged --pid=host"
			}
			return false, ""
		}},

	// --- databases ---
	{ID: "db-drop-database", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "dropping a whole database",
		Suggestions: suggDB, names: dbClients,
		match: sqlFinding(func(s *sqlScan) string { return s.dropDB })},
	{ID: "db-drop-table", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "dropping tables or collections",
		Suggestions: suggDB, names: dbClients,
		match: sqlFinding(func(s *sqlScan) string { return s.dropTable })},
	{ID: "db-truncate", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "emptying tables (TRUNCATE)",
		Suggestions: suggDB, names: dbClients,
		match: sqlFinding(func(s *sqlScan) string { return s.truncate })},
	{ID: "db-delete-all", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "deleting every row of a table (DELETE without WHERE)",
		Suggestions: suggDB, names: dbClients,
		match: sqlFinding(func(s *sqlScan) string { return s.deleteAll })},
	{ID: "db-update-all", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "changing every row or dropping columns",
		Suggestions: suggDB, names: dbClients,
		match: sqlFinding(func(s *sqlScan) string { return s.updateAll })},
	{ID: "db-dropdb", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "dropping a whole database",
		Suggestions: suggDB, names: names("dropdb", "mysqladmin", "influx", "pg_dropcluster"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "dropdb", "pg_dropcluster":
				return len(positional(args)) > 0, ""
			case "mysqladmin":
				return hasWord(args, "drop"), ""
			case "influx":
				return hasWord(args, "delete") && (hasWord(args, "bucket") || hasWord(args, "org")), ""
			}
			return false, ""
		}},
	{ID: "db-framework-drop", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "dropping or wiping an application database",
		Suggestions: []string{"Back the database up first", "Run resets only against a local development database, by hand"},
		names:       names("rails", "rake", "php", "python", "dotnet", "npx", "prisma", "sequelize", "bin/rails", "knex", "artisan", "manage.py", "supabase", "mix"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				switch w.s {
				case "db:drop", "db:drop:all", "db:wipe", "db:purge", "db:purge:all", "migrate:fresh", "migrate:reset", "flush", "reset_db", "--force-reset",
					"ecto.drop", "ecto.reset", "drop":
					if w.s == "drop" && !(hasWord(c.args(), "database") && c.name == "dotnet") {
						continue
					}
					if w.s == "flush" && !hasWord(c.args(), "manage.py") && c.name != "manage.py" {
						continue
					}
					return true, w.s
				case "reset":
					if c.name == "prisma" || hasWord(c.args(), "prisma") && hasWord(c.args(), "migrate") || c.name == "supabase" && hasWord(c.args(), "--linked") {
						return true, "migrate reset"
					}
				}
			}
			return false, ""
		}},

	// --- git ---
	{ID: "git-force-push-protected", Level: LevelHigh, Category: CategoryGitDestroy, Description: "force-pushing over a shared branch (rewrites its history)",
		Suggestions: suggGit, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "push" {
				return false, ""
			}
			p := parseGitPush(args)
			if !p.force {
				return false, ""
			}
			if p.all {
				return true, "--all"
			}
			if p.tags {
				return true, "--tags"
			}
			for _, r := range p.refs {
				if isProtectedBranch(r) {
					return true, r
				}
			}
			return false, ""
		}},
	{ID: "git-push-mirror", Level: LevelHigh, Category: CategoryGitDestroy, Description: "mirror-pushing (overwrites and deletes every remote ref)",
		Suggestions: suggGit, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			return sub == "push" && parseGitPush(args).mirror, ""
		}},
	{ID: "git-delete-protected-branch", Level: LevelHigh, Category: CategoryGitDestroy, Description: "deleting a shared branch on the remote",
		Suggestions: suggGit, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "push" {
				return false, ""
			}
			p := parseGitPush(args)
			for _, r := range p.refs {
				if (p.delete || strings.HasPrefix(r, ":")) && isProtectedBranch(strings.TrimPrefix(r, ":")) {
					return true, r
				}
			}
			return false, ""
		}},
	{ID: "git-force-push", Level: LevelModerate, Category: CategoryGitDestroy, Description: "force-pushing the current branch (it may be shared)",
		Suggestions: suggGit, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "push" {
				return false, ""
			}
			p := parseGitPush(args)
			if !p.force || p.leaseOnly || p.all || p.mirror || p.tags {
				return false, ""
			}
			if len(p.refs) == 0 {
				return true, "current branch"
			}
			for _, r := range p.refs {
				if r == "HEAD" || r == "+HEAD" || r == "@" {
					return true, r
				}
			}
			return false, ""
		}},
	{ID: "git-history-rewrite", Level: LevelHigh, Category: CategoryGitDestroy, Description: "rewriting the whole repository history",
		Suggestions: []string{"Back the repository up first (git clone --mirror)", "Rewrite only a local branch with git rebase -i"}, names: names("git", "bfg", "git-filter-repo"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "bfg" || c.name == "git-filter-repo" {
				return true, c.name
			}
			sub, _ := gitSub(c)
			return sub == "filter-branch" || sub == "filter-repo", sub
		}},
	{ID: "git-reflog-expire", Level: LevelHigh, Category: CategoryGitDestroy, Description: "expiring the reflog (destroys the way to recover lost commits)",
		Suggestions: []string{"Leave the reflog alone; git gc expires it safely over time", "Back the repository up first"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "reflog" || len(args) == 0 || args[0].s != "expire" {
				return false, ""
			}
			for _, w := range args {
				if w.s == "--expire=now" || w.s == "--expire=all" || w.s == "--expire=0" || w.s == "--expire-unreachable=now" || w.s == "--expire-unreachable=all" {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "git-clean-ignored", Level: LevelModerate, Category: CategoryGitDestroy, Description: "git clean deleting untracked and ignored files (.env, local data)",
		Suggestions: []string{"Preview with git clean -n first", "Drop -x to keep ignored files such as .env"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "clean" {
				return false, ""
			}
			force, wide, dry := false, false, false
			for _, w := range args {
				s := w.s
				if s == "--force" {
					force = true
				}
				if s == "--dry-run" {
					dry = true
				}
				if len(s) > 1 && s[0] == '-' && s[1] != '-' {
					force = force || strings.Contains(s, "f")
					wide = wide || strings.ContainsAny(s, "xX")
					dry = dry || strings.Contains(s, "n")
				}
			}
			return force && wide && !dry, ""
		}},
	{ID: "git-delete-main-branch", Level: LevelModerate, Category: CategoryGitDestroy, Description: "force-deleting a main branch",
		Suggestions: suggGit, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "branch" || !(hasWord(args, "-D") || hasWord(args, "--delete") && hasWord(args, "--force")) {
				return false, ""
			}
			for _, w := range positional(args) {
				if protectedBranches[w.s] {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "gh-repo-delete", Level: LevelCritical, Category: CategoryGitDestroy, Description: "deleting a hosted repository",
		Suggestions: []string{"Archive the repository instead (gh repo archive)", "Delete repositories by hand in the web UI"}, names: names("gh", "glab"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) > 1 && args[0].s == "repo" && args[1].s == "delete" {
				return true, ""
			}
			if len(args) > 0 && args[0].s == "api" {
				if v, ok := optValue(args, "-X", "method"); ok && strings.EqualFold(v, "DELETE") {
					for _, w := range args {
						if strings.Contains(w.s, "repos/") && strings.Count(strings.Trim(w.s, "/"), "/") <= 2 {
							return true, w.s
						}
					}
				}
			}
			return false, ""
		}},

	// --- containers ---
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
	{ID: "docker-volume-rm", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "deleting a volume (its data is lost)",
		Suggestions: suggContainer, names: names("docker"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, rest := dockerSub(c)
			if (sub == "volume rm" || sub == "volume remove") && !wordFlowList(rest, "volumes") && len(positional(rest)) > 0 {
				return true, joinWords(positional(rest))
			}
			return false, ""
		}},
	{ID: "compose-down-volumes", Level: LevelModerate, Category: CategoryContainerDestroy, Description: "taking a compose project down with its volumes (data is lost)",
		Suggestions: []string{"Use docker compose down without -v to keep data", "Back up volumes first"}, names: names("docker", "docker-compose"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "docker" {
				sub, rest := dockerSub(c)
				if sub != "compose down" {
					return false, ""
				}
				args = rest
			} else {
				sub, i := subcommand(args, optSpec{short: "fp", long: []string{"file", "project-name", "env-file", "profile"}})
				if sub != "down" {
					return false, ""
				}
				args = args[i+1:]
			}
			for _, w := range args {
				if w.s == "-v" || w.s == "--volumes" || strings.HasPrefix(w.s, "--volumes=") && w.s != "--volumes=false" {
					return true, w.s
				}
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

	// --- cloud ---
	{ID: "aws-s3-delete", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting S3 buckets or every object under a prefix",
		Suggestions: suggCloud, names: names("aws", "s3cmd", "mc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "s3cmd":
				return len(args) > 0 && (args[0].s == "rb" || (args[0].s == "del" || args[0].s == "rm") && (hasWord(args, "-r") || hasWord(args, "--recursive"))), ""
			case "mc":
				return len(args) > 0 && (args[0].s == "rb" || args[0].s == "rm" && (hasWord(args, "--recursive") || hasWord(args, "-r")) && hasWord(args, "--force")), ""
			}
			op, rest := awsOp(c)
			switch op {
			case "s3 rm":
				return hasWord(rest, "--recursive"), ""
			case "s3 rb":
				return true, ""
			case "s3api delete-bucket":
				return true, ""
			}
			return false, ""
		}},
	{ID: "aws-destroy-resource", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "terminating or deleting AWS infrastructure",
		Suggestions: suggCloud, names: names("aws"),
		match: func(a *analysis, c *cmd) (bool, string) {
			op, rest := awsOp(c)
			if awsHighOps[op] && !hasWord(rest, "--dry-run") {
				return true, op
			}
			return false, ""
		}},
	{ID: "aws-delete", Level: LevelModerate, Category: CategoryCloudDestroy, Description: "deleting or stopping an AWS resource",
		Suggestions: suggCloud, names: names("aws"),
		match: func(a *analysis, c *cmd) (bool, string) {
			op, rest := awsOp(c)
			svc, verb, _ := strings.Cut(op, " ")
			if op == "" || awsHighOps[op] || awsLogOps[op] || hasWord(rest, "--dry-run") || svc == "s3" {
				return false, ""
			}
			return isAWSDelete(verb), op
		}},
	{ID: "cloud-logging-disable", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "disabling or deleting cloud audit logs",
		Suggestions: []string{"Leave audit logging on", "Change retention through reviewed configuration"}, names: names("aws", "gcloud", "az"),
		match: func(a *analysis, c *cmd) (bool, string) {
			switch c.name {
			case "aws":
				op, _ := awsOp(c)
				return awsLogOps[op], op
			case "gcloud":
				p := cliPath(c)
				return len(p) >= 3 && p[0] == "logging" && containsStr(p, "delete"), ""
			case "az":
				p := cliPath(c)
				return len(p) >= 3 && p[0] == "monitor" && containsStr(p, "delete"), ""
			}
			return false, ""
		}},
	{ID: "aws-iam-admin", Level: LevelHigh, Category: CategoryPrivilege, Description: "granting administrator access in AWS IAM",
		Suggestions: []string{"Grant a least-privilege policy", "Ask the account administrator"}, names: names("aws"),
		match: func(a *analysis, c *cmd) (bool, string) {
			op, rest := awsOp(c)
			if strings.HasPrefix(op, "iam attach-") || strings.HasPrefix(op, "iam put-") {
				for _, w := range rest {
					if strings.Contains(w.s, "AdministratorAccess") || strings.Contains(w.s, `"Action":"*"`) || strings.Contains(w.s, `"Action": "*"`) {
						return true, op
					}
				}
			}
			return false, ""
		}},
	{ID: "gcloud-delete", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting Google Cloud infrastructure",
		Suggestions: suggCloud, names: names("gcloud", "gsutil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "gsutil" {
				ops := positional(args)
				for i, w := range ops {
					if w.s == "rb" || w.s == "rm" && (hasWord(args, "-r") || hasWord(args, "-R") || hasWord(args, "-a") || i+1 < len(ops) && strings.HasSuffix(ops[i+1].s, "**")) {
						return true, w.s
					}
				}
				return false, ""
			}
			p := cliPath(c)
			if len(p) >= 2 && p[0] == "storage" && (p[1] == "rm" && (hasWord(args, "-r") || hasWord(args, "--recursive")) || p[1] == "buckets" && containsStr(p, "delete")) {
				return true, "storage"
			}
			if !containsStr(p, "delete") || hasWord(args, "--dry-run") {
				return false, ""
			}
			switch {
			case p[0] == "projects", p[0] == "sql", p[0] == "spanner", p[0] == "bigtable", p[0] == "firestore", p[0] == "redis", p[0] == "filestore",
				len(p) > 1 && p[0] == "container" && p[1] == "clusters", len(p) > 1 && p[0] == "compute" && (p[1] == "instances" || p[1] == "disks" || p[1] == "snapshots" || p[1] == "images"),
				p[0] == "alloydb", p[0] == "run" || p[0] == "functions" || p[0] == "app":
				return true, strings.Join(p, " ")
			}
			return false, ""
		}},
	{ID: "cloud-delete", Level: LevelModerate, Category: CategoryCloudDestroy, Description: "deleting or stopping a cloud resource",
		Suggestions: suggCloud, names: names("gcloud", "az", "doctl", "linode-cli", "hcloud", "vultr-cli", "scw", "oci", "ibmcloud"),
		match: func(a *analysis, c *cmd) (bool, string) {
			p := cliPath(c)
			if !(containsStr(p, "delete") || containsStr(p, "destroy") || containsStr(p, "rm") || containsStr(p, "remove") || containsStr(p, "terminate") ||
				containsStr(p, "stop") || containsStr(p, "deallocate") || containsStr(p, "reset")) {
				return false, ""
			}
			return true, strings.Join(p, " ")
		}},
	{ID: "cloud-delete-everything", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "deleting a whole cloud project or resource group with everything in it",
		Suggestions: suggCloud, names: names("gcloud", "az", "doctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			p := cliPath(c)
			if len(p) < 2 {
				return false, ""
			}
			switch c.name {
			case "gcloud":
				return p[0] == "projects" && p[1] == "delete", "project"
			case "az":
				return p[0] == "group" && p[1] == "delete", "resource group"
			case "doctl":
				return len(p) > 2 && p[0] == "projects" && p[1] == "delete", "project"
			}
			return false, ""
		}},
	{ID: "azure-delete", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting Azure infrastructure",
		Suggestions: suggCloud, names: names("az"),
		match: func(a *analysis, c *cmd) (bool, string) {
			p := cliPath(c)
			if !containsStr(p, "delete") && !containsStr(p, "purge") {
				return false, ""
			}
			switch p[0] {
			case "group", "vm", "sql", "aks", "cosmosdb", "keyvault", "webapp", "postgres", "mysql", "vmss", "disk", "snapshot", "account", "redis", "functionapp", "acr":
				return true, strings.Join(p, " ")
			case "storage":
				return len(p) > 1 && (p[1] == "account" || p[1] == "container"), strings.Join(p, " ")
			}
			return false, ""
		}},
	{ID: "iac-destroy", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "destroying infrastructure managed as code",
		Suggestions: suggCloud, names: names("terraform", "pulumi", "cdk", "cdktf", "serverless", "sls", "sam", "eksctl", "copilot", "heroku", "fly", "flyctl", "doctl", "firebase", "vercel", "netlify", "kind", "minikube"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := positional(args)
			first := ""
			if len(ops) > 0 {
				first = ops[0].s
			}
			switch c.name {
			case "terraform":
				if first == "destroy" || first == "apply" && (hasWord(args, "-destroy") || hasWord(args, "--destroy")) || len(ops) > 1 && ops[0].s == "run-all" && ops[1].s == "destroy" {
					if hasPrefixWord(args, "-target") || hasPrefixWord(args, "--target") {
						return false, "" // iac-destroy-targeted
					}
					return !hasWord(args, "-help"), first
				}
			case "pulumi", "cdk", "cdktf", "serverless", "sls":
				if first == "destroy" || first == "remove" || c.name == "pulumi" && first == "stack" && len(ops) > 1 && ops[1].s == "rm" {
					return true, first
				}
			case "sam", "copilot":
				return first == "delete" || len(ops) > 1 && ops[1].s == "delete", first
			case "eksctl":
				return first == "delete" && len(ops) > 1 && ops[1].s == "cluster", "cluster"
			case "heroku":
				return first == "apps:destroy" || first == "apps:delete" || first == "pg:reset" || first == "destroy", first
			case "fly", "flyctl":
				return first == "destroy" || first == "apps" && len(ops) > 1 && (ops[1].s == "destroy" || ops[1].s == "delete"), first
			case "doctl":
				return containsStr(cliPath(c), "delete") && (containsStr(cliPath(c), "droplet") || containsStr(cliPath(c), "databases") || containsStr(cliPath(c), "cluster")), ""
			case "firebase":
				return first == "firestore:delete" && (hasWord(args, "--all-collections") || hasWord(args, "-r") || hasWord(args, "--recursive")) || first == "database:remove" || first == "projects:delete", first
			}
			return false, ""
		}},
	{ID: "iac-destroy-targeted", Level: LevelModerate, Category: CategoryCloudDestroy, Description: "destroying selected infrastructure resources",
		Suggestions: suggCloud, names: names("terraform"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := positional(args)
			if len(ops) == 0 || !(ops[0].s == "destroy" || ops[0].s == "apply" && hasWord(args, "-destroy")) {
				return false, ""
			}
			return hasPrefixWord(args, "-target") || hasPrefixWord(args, "--target"), ""
		}},
	{ID: "iac-destroy-unattended", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "destroying all infrastructure without confirmation",
		Suggestions: suggCloud, names: names("terraform", "pulumi", "cdk", "cdktf"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := positional(args)
			if len(ops) == 0 {
				return false, ""
			}
			destroy := ops[0].s == "destroy" || c.name == "terraform" && ops[0].s == "apply" && hasWord(args, "-destroy") || len(ops) > 1 && ops[0].s == "run-all" && ops[1].s == "destroy"
			if !destroy {
				return false, ""
			}
			yes := hasWord(args, "-auto-approve") || hasWord(args, "--auto-approve") || hasWord(args, "-auto-approve=true") || hasWord(args, "--yes") || hasWord(args, "-y") || hasWord(args, "--force") || hasWord(args, "-f") || hasWord(args, "--skip-preview") || hasWord(args, "--require-approval=never")
			targeted := hasPrefixWord(args, "-target") || hasPrefixWord(args, "--target")
			return yes && !targeted, ""
		}},
	{ID: "rclone-purge", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting a remote storage path and all its contents",
		Suggestions: suggCloud, names: names("rclone"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := positional(c.args())
			return len(ops) > 0 && (ops[0].s == "purge" || ops[0].s == "delete" && !hasWord(c.args(), "--dry-run")), ""
		}},
}

// mountSource returns the source of a --mount specification.
func mountSource(s string) string {
	for _, kv := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(kv, "=")
		if k == "source" || k == "src" {
			return v + ":"
		}
	}
	return ""
}

func init() { ruleSets = append(ruleSets, opsRules) }

// sqlFinding matches a database client whose SQL holds the finding pick
// returns (the offending statement, or "").
func sqlFinding(pick func(*sqlScan) string) func(a *analysis, c *cmd) (bool, string) {
	return func(a *analysis, c *cmd) (bool, string) {
		if s := a.scanSQLOf(c); s != nil {
			if f := pick(s); f != "" {
				return true, f
			}
		}
		return false, ""
	}
}
