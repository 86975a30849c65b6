package guard

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Rules for changing or stopping the system itself (category system).
var systemRules = []*rule{
	{ID: "kernel-module-load", Level: LevelHigh, Category: CategorySystem, Description: "loading a kernel module from a file",
		Suggestions: []string{"Load only modules shipped with the kernel (modprobe NAME)", "Let an administrator install kernel modules"}, names: names("insmod", "modprobe", "kldload", "kextload", "kextutil", "mokutil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if c.name == "mokutil" {
				// mokutil --import KEY: a key Secure Boot will trust to
				// load kernels and modules signed with it
				return hasWord(c.args(), "--import") || hasWord(c.args(), "-i"), "a Secure Boot key enrolled"
			}
			if c.name == "insmod" || c.name == "kextload" {
				return len(ops) > 0, ""
			}
			if c.name == "kextutil" {
				// kextutil -t X.kext checks it; with -n it is not loaded
				return len(ops) > 0 && !hasWord(c.args(), "-n") && !hasWord(c.args(), "-no-load"), ops[len(ops)-1].s
			}
			for _, w := range ops {
				if strings.HasSuffix(w.s, ".ko") || strings.Contains(w.s, "/") {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "remount-system", Level: LevelHigh, Category: CategorySystem, Description: "remounting or unmounting system filesystems",
		Suggestions: []string{"Leave system mounts alone", "Mount scratch filesystems under /mnt instead"}, names: names("mount", "umount"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "umount" {
				if hasWord(args, "-a") || hasWord(args, "--all") {
					return true, "-a"
				}
				for _, w := range c.operands() {
					if p := a.absPath(w.s, c.cwd); p == "/" || p == "/usr" || p == "/boot" || p == "/home" || p == "/var" || p == "/proc" || p == "/sys" || p == "/dev" {
						return true, p
					}
				}
				return false, ""
			}
			o, _ := optValue(args, "-o", "options")
			if hasWord(args, "--bind") || hasWord(args, "-B") || hasWord(args, "--rbind") || strings.Contains(o, "bind") {
				// mounting over a process's /proc entry hides it from
				// ps and top; over a system directory it replaces it
				ops := c.operands()
				if len(ops) > 1 {
					p := a.absPath(ops[len(ops)-1].s, c.cwd)
					if strings.HasPrefix(p, "/proc/") || p == "/etc" || p == "/usr" || p == "/bin" || p == "/sbin" || p == "/boot" || strings.HasPrefix(p, "/etc/") ||
						// over a system program (mount --bind ./x /usr/bin/sudo)
						strings.HasPrefix(p, "/usr/") || strings.HasPrefix(p, "/bin/") || strings.HasPrefix(p, "/sbin/") || strings.HasPrefix(p, "/lib") {
						return true, p
					}
				}
			}
			if !strings.Contains(o, "remount") {
				// mount -t tmpfs tmpfs /var/lib/postgresql: a new file
				// system over a service's data (it sees an empty one)
				if t, ok := optValue(args, "-t", "types"); ok && (t == "tmpfs" || t == "ramfs" || t == "overlay") {
					if ops := c.operands(); len(ops) > 1 {
						if p := a.absPath(ops[len(ops)-1].s, c.cwd); strings.HasPrefix(p, "/var/lib/") || p == "/etc" || p == "/usr" || p == "/home" || p == "/var" || p == "/srv" || strings.HasPrefix(p, "/srv/") {
							return true, t + " over " + p
						}
					}
				}
				return false, ""
			}
			if ops := c.operands(); len(ops) > 0 && (mountOption(o, "exec") || mountOption(o, "suid")) {
				// remount,exec,suid /tmp: the world-writable directories'
				// hardening taken off
				if p := a.absPath(ops[len(ops)-1].s, c.cwd); p == "/tmp" || p == "/var/tmp" || p == "/dev/shm" {
					return true, o + " " + p
				}
			}
			for _, w := range c.operands() {
				// (remount,ro /var/lib/docker: every container's storage)
				if p := a.absPath(w.s, c.cwd); p == "/" || p == "/usr" || p == "/boot" || p == "/home" || p == "/var" || p == "/etc" ||
					strings.HasPrefix(p, "/var/lib/") || p == "/srv" || strings.HasPrefix(p, "/srv/") || p == "/opt" {
					return true, p
				}
			}
			return false, ""
		}},
	{ID: "boot-entry-delete", Level: LevelCritical, Category: CategorySystem, Description: "deleting the firmware's boot entries (the machine no longer starts)",
		Suggestions: []string{"List entries with efibootmgr -v and leave them to the administrator"}, names: names("efibootmgr", "bootctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "bootctl" {
				// bootctl remove: systemd-boot taken off the EFI partition
				ops := c.operands()
				return len(ops) > 0 && ops[0].s == "remove", "bootctl remove"
			}
			for _, w := range c.args() {
				if w.s == "-B" || w.s == "--delete-bootnum" || w.s == "-A" || w.s == "--inactive" || w.s == "-O" || w.s == "--delete-bootorder" {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "system-settings", Level: LevelModerate, Category: CategorySystem, Description: "changing the system clock, host name or boot target",
		Suggestions: []string{"Leave machine-wide settings to an administrator"}, names: names("timedatectl", "date", "hostnamectl", "hostname", "systemctl", "hwclock", "scutil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "timedatectl":
				return len(ops) > 0 && (ops[0].s == "set-time" || ops[0].s == "set-timezone" || ops[0].s == "set-ntp"), ops[0].s
			case "date":
				return hasWord(args, "-s") || hasPrefixWord(args, "--set"), "date -s"
			case "hostnamectl":
				return len(ops) > 0 && (ops[0].s == "set-hostname" || ops[0].s == "hostname") && len(ops) > 1, "hostname"
			case "hostname":
				return len(ops) == 1 && !strings.HasPrefix(ops[0].s, "-") && (c.asRoot || len(c.wrappers) > 0), "hostname"
			case "systemctl":
				return len(ops) > 0 && ops[0].s == "set-default", "default target"
			case "hwclock":
				return hasWord(args, "--set") || hasWord(args, "-w") || hasWord(args, "--systohc"), ""
			case "scutil":
				return hasWord(args, "--set"), ""
			}
			return false, ""
		}},
	writeRule("write-device-memory", LevelCritical, CategorySystem, "writing to kernel memory devices",
		[]string{"Do not write to /dev/mem or /dev/kmem"}, false, wDevMem),
	writeRule("write-sysrq", LevelCritical, CategorySystem, "writing to /proc/sysrq-trigger (crash, reboot or power-off)",
		[]string{"Use shutdown -r with a delay if a reboot is really needed"}, false, wSysrq),
	writeRule("write-boot", LevelCritical, CategorySystem, "modifying the boot loader or kernel",
		[]string{"Use the distribution's tools (update-grub, kernel packages)"}, false, wBoot),
	writeRule("write-system-binaries", LevelHigh, CategorySystem, "overwriting system programs or libraries",
		[]string{"Install software with the package manager", "Install to /usr/local or ~/.local instead"}, false, wSysBin),
	writeRule("write-etc", LevelHigh, CategorySystem, "modifying system configuration in /etc",
		[]string{"Show the change and let an administrator apply it", "Use a project-local configuration file"}, false, wEtc),
	writeRule("write-proc-sys", LevelModerate, CategorySystem, "changing kernel parameters",
		[]string{"Use sysctl with a reviewed configuration"}, false, wProcSys),
	{ID: "crontab-remove", Level: LevelHigh, Category: CategorySystem, Description: "removing every cron job of a user",
		Suggestions: []string{"Edit the crontab (crontab -e) to remove single entries", "Back it up first: crontab -l > cron.bak"}, names: names("crontab", "incrontab"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				if w.s == "-r" || w.s == "-ir" || w.s == "-ri" || w.s == "--remove" {
					return true, ""
				}
			}
			return false, ""
		}},
	{ID: "system-shutdown", Level: LevelHigh, Category: CategorySystem, Description: "shutting down or rebooting the machine",
		Suggestions: []string{"Ask the user to reboot when convenient", "Restart only the service that needs it"},
		names:       names("shutdown", "reboot", "halt", "poweroff", "init", "telinit", "systemctl", "loginctl", "kexec", "launchctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "launchctl":
				// launchctl reboot [system|userspace|halt|logout]: every
				// application closed, unsaved work with it
				return len(args) > 0 && args[0].s == "reboot", "launchctl " + joinWords(args)
			case "shutdown":
				// -c cancels a pending shutdown, and so does Windows' -a (/a)
				return !hasWord(args, "-c") && !hasWord(args, "--cancel") && !hasWord(args, "-k") && !hasWord(args, "--help") &&
					!hasWord(args, "-a") && !hasWord(args, "/a") && !hasWord(args, "/A"), ""
			case "reboot", "halt", "poweroff":
				return !hasWord(args, "--help") && !hasWord(args, "-w") && !hasWord(args, "--wtmp-only"), ""
			case "init", "telinit":
				return len(args) > 0 && (args[0].s == "0" || args[0].s == "6" || args[0].s == "1" || args[0].s == "s" || args[0].s == "S"), ""
			case "kexec":
				return hasWord(args, "-e") || hasWord(args, "--exec"), ""
			case "systemctl", "loginctl":
				for _, w := range c.operands() {
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
			ops := c.operands()
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
						// kill -STOP $(pgrep -u builder): every process of
						// another account (the user's own are theirs)
						if u, ok := strings.CutPrefix(w.flow.what, "pids:user:"); ok && u != "$USER" && u != "${USER}" && u != "$LOGNAME" && u != "$(whoami)" && u != "$(id -u)" && u != "$UID" && u != path.Base(a.home) {
							return true, "every process of " + u
						}
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
				for _, w := range c.operands() {
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
				// selected by user alone: every process the user runs,
				// the session and shell included
				if v, ok := optValue(args, "-u", "user"); ok && v != "" && len(positional(killSelectors(args))) == 0 {
					return true, "every process of user " + v
				}
				if v, ok := optValue(args, "-U", "uid"); ok && v != "" && len(positional(killSelectors(args))) == 0 {
					return true, "every process of user " + v
				}
			}
			return false, ""
		}},
	{ID: "kill-by-name-forced", Level: LevelModerate, Category: CategorySystem, Description: "killing processes by name without letting them clean up, or as root",
		Suggestions: []string{"Stop the one process you started by its PID", "Send TERM first (pkill -f 'exact command line') so it can save its state"},
		names:       names("killall", "pkill", "kill"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			sig := killSignal(args)
			if sig == "0" {
				return false, ""
			}
			if c.name == "kill" {
				// kill -9 $(pgrep -f redis), pgrep -f postgres | xargs kill -9:
				// processes chosen by name, as pkill chooses them
				forced := sig == "9" || sig == "KILL" || sig == "SIGKILL" || sig == "STOP" || sig == "SIGSTOP" || sig == "19"
				if forced && (strings.Contains(a.src, "pgrep ") || strings.Contains(a.src, "pidof ")) {
					if p := pgrepPattern(a.src); p != "" && !devServerPattern(pgrepText(a.src)) {
						return true, "SIG" + strings.TrimPrefix(sig, "SIG") + ": " + p
					}
				}
				if forced {
					// kill -9 $(lsof -t -i :5432): whatever serves a
					// database's or a broker's port (a dev server's port
					// is the developer's own); kill -9 $(cat
					// /var/run/haproxy.pid): a system daemon, by its pid file
					if port := lsofPort(a.src); servicePort[port] {
						return true, "the process serving port " + port
					}
					for _, pre := range [...]string{"/var/run/", "/run/"} {
						if i := strings.Index(a.src, pre); i >= 0 && strings.Contains(a.src[i:], ".pid") && (strings.Contains(a.src, "cat ") || strings.Contains(a.src, "$(<")) {
							return true, "a system daemon by its pid file"
						}
					}
				}
				// kill -9 $(nvidia-smi --query-compute-apps=pid ...): every
				// process on the GPUs, everyone's jobs
				if strings.Contains(a.src, "nvidia-smi") && strings.Contains(a.src, "--query-compute-apps=pid") && !strings.Contains(a.src, "grep") && !strings.Contains(a.src, "awk") && !strings.Contains(a.src, "| head") {
					return true, "every process on the GPUs"
				}
				return false, ""
			}
			pats := positional(killSelectors(args))
			if len(pats) == 0 || devServerPattern(pats[0].s) {
				return false, "" // (pkill -9 -f 'next dev': the project's own dev server)
			}
			switch {
			case sig == "9" || sig == "KILL":
				return true, "SIGKILL: " + pats[0].s
			case (sig == "HUP" || sig == "1" || sig == "USR1") && reloadsOnHUP(pats):
				return false, "" // a daemon told to reload (killall -HUP mDNSResponder)
			case c.asRoot:
				return true, "as root: " + pats[0].s
			}
			return false, ""
		}},
	{ID: "security-updates-blocked", Level: LevelHigh, Category: CategorySystem, Description: "holding back or downgrading security-critical packages (known holes stay open)",
		Suggestions: []string{"Pin the application's own dependencies instead", "Leave the system's security updates on"},
		names:       names("apt-mark", "apt-get", "apt", "dnf", "yum", "nvram"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "nvram":
				// firmware variables: boot arguments, security settings
				for _, w := range ops {
					if strings.Contains(w.s, "=") || w.s == "-c" {
						return true, "firmware variable " + w.s
					}
				}
				return hasWord(args, "-c") || hasWord(args, "-d"), "firmware variables"
			case "apt-mark":
				if len(ops) > 1 && ops[0].s == "hold" {
					for _, p := range ops[1:] {
						if securityPackage(p.s) {
							return true, "hold " + p.s
						}
					}
				}
			case "apt-get", "apt":
				if hasWord(args, "--allow-downgrades") {
					for _, p := range ops {
						if name, _, ok := strings.Cut(p.s, "="); ok && securityPackage(name) {
							return true, "downgrading " + p.s
						}
					}
				}
			case "dnf", "yum":
				if len(ops) > 1 && (ops[0].s == "downgrade" || ops[0].s == "versionlock") {
					for _, p := range ops[1:] {
						if securityPackage(strings.SplitN(p.s, "-", 2)[0]) || securityPackage(p.s) {
							return true, ops[0].s + " " + p.s
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "deletion-protection-off", Level: LevelHigh, Category: CategorySystem, Description: "switching off a resource's deletion protection (what stops it being deleted by mistake)",
		Suggestions: []string{"Leave deletion protection on; ask the user to lift it for a planned removal"},
		names:       names("aws", "gcloud", "az", "terraform"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for i, w := range c.lowerArgs() {
				switch w {
				case "--no-deletion-protection", "--no-enable-deletion-protection", "--deletion-protection=false", "--enable-deletion-protection=false",
					"--no-termination-protection", "--disable-api-termination=false", "--no-disable-api-termination":
					return true, c.args()[i].s
				case "--deletion-protection", "--enable-deletion-protection":
					if args := c.lowerArgs(); i+1 < len(args) && falseWord(args[i+1]) {
						return true, w + " " + args[i+1]
					}
				}
			}
			// aws cloudformation update-termination-protection --no-enable-termination-protection
			return hasWord(c.args(), "--no-enable-termination-protection"), "termination protection off"
		}},
	{ID: "cloud-ssh-keys-added", Level: LevelHigh, Category: CategoryPersistence, Description: "adding SSH keys to a project's or an instance's metadata (a login to every machine that reads it)",
		Suggestions: []string{"Use OS Login or IAP; let the user manage project SSH keys"},
		names:       names("gcloud", "az"),
		match: func(a *analysis, c *cmd) (bool, string) {
			p := cliPath(c)
			if c.name == "az" {
				// az vm user update --ssh-key-value KEY: a login for
				// whoever holds KEY; the developer's own public key file
				// is theirs
				if len(p) < 3 || p[0] != "vm" || p[1] != "user" || p[2] != "update" && p[2] != "reset-ssh" {
					return false, ""
				}
				v, ok := optValue(c.args(), "", "ssh-key-value")
				if !ok {
					return false, ""
				}
				if f := a.absPath(strings.Trim(v, `"'`), c.cwd); !strings.HasPrefix(strings.TrimSpace(v), "ssh-") && f != "" {
					if rel, _, home := a.homeRel(f); home && strings.HasPrefix(rel, ".ssh/") && strings.HasSuffix(rel, ".pub") {
						return false, ""
					}
				}
				return true, "az vm user update --ssh-key-value"
			}
			if len(p) < 3 || p[0] != "compute" || !containsStr(p, "add-metadata") {
				return false, ""
			}
			for _, w := range c.args() {
				if strings.Contains(w.s, "ssh-keys=") || strings.Contains(w.s, "sshKeys=") {
					return true, "ssh-keys metadata"
				}
			}
			return false, ""
		}},
	{ID: "db-server-opened", Level: LevelHigh, Category: CategorySystem, Description: "a database server opened to the network (protection off, every address, no password)",
		Suggestions: []string{"Keep the server on its private address with its protection on", "Reach it through an SSH tunnel or port-forward"},
		names:       dbClients,
		match:       sqlFinding(func(s *sqlScan) string { return s.serverOpened })},
	{ID: "secrets-server-sealed", Level: LevelHigh, Category: CategorySystem, Description: "sealing a shared Vault (no service can read a secret until it is unsealed by hand)",
		Suggestions: []string{"Leave sealing to the Vault's operators, for an incident"}, names: names("vault", "bao"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) < 2 || ops[0].s != "operator" || ops[1].s != "seal" || hasWord(c.args(), "-h") || hasWord(c.args(), "--help") {
				return false, ""
			}
			if addr, ok := a.optOrEnv(c, "address", "VAULT_ADDR"); ok && isLocalHost(hostOf(addr)) && !c.remote {
				return false, "" // a dev server on this machine
			}
			return true, c.base + " operator seal"
		}},
	{ID: "nomad-anonymous-write", Level: LevelCritical, Category: CategoryPermission, Description: "giving Nomad's anonymous policy write rights (anyone who reaches the cluster runs jobs on it)",
		Suggestions: []string{"Give the rights to a named token's policy"}, names: names("nomad"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) < 4 || ops[0].s != "acl" || ops[1].s != "policy" || ops[2].s != "apply" {
				return false, ""
			}
			for _, w := range ops[3:] {
				if w.s == "anonymous" && (strings.Contains(a.src, "write") || strings.Contains(a.src, "submit-job")) {
					return true, "the anonymous policy given write rights"
				}
			}
			return false, ""
		}},
	{ID: "db-server-disrupted", Level: LevelHigh, Category: CategorySystem, Description: "taking a shared database server out of service or weakening its copies and safeguards (shut down, sessions killed, a replica made writable, replication cut, its audit or triggers off)",
		Suggestions: []string{"Leave the server's operation to its administrators", "Try it on a local or staging server"},
		names:       dbClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			s := a.scanSQLOf(c)
			if s == nil || s.serverStopped == "" || a.testScoped(c) || localDevScoped(c) {
				return false, ""
			}
			// (ssh pg-prod-02 "psql -c ...": run on a production host)
			if !touchesProduction(c) && !namesOtherServer(c) && !connectionFromVariable(c) && a.prodTarget == 0 {
				return false, ""
			}
			return true, s.serverStopped
		}},
	{ID: "shared-environment-change", Level: LevelModerate, Category: CategorySystem, Description: "changing production or staging by hand without review (deleting, scaling down, rolling back, or applying with approval skipped)",
		Suggestions: []string{"Change shared environments through the deployment pipeline", "Show the plan and let the user apply it"},
		names:       names("kubectl", "terraform", "pulumi", "ansible-playbook", "flux", "argocd", "cdk", "cdktf", "sam"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if !touchesProduction(c) && !namesStaging(c) {
				return false, ""
			}
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 {
				return false, ""
			}
			switch c.name {
			case "kubectl":
				ops = posArgs(args, kubectlGlobal)
				if len(ops) == 0 {
					return false, ""
				}
				switch ops[0].s {
				case "delete":
					// a pod or a job by name comes back or was done; pods
					// by selector, or anything else, do not
					kind := ""
					if len(ops) > 1 {
						kind = strings.SplitN(ops[1].s, "/", 2)[0]
					}
					switch kind {
					case "pod", "pods", "po", "job", "jobs":
						return hasWord(args, "--all") || hasWord(args, "-l") || hasPrefixWord(args, "--selector") || hasPrefixWord(args, "-l="), "pods by selector"
					}
					if len(ops) > 2 && (!touchesProduction(c) || kind == "namespace" || kind == "ns") {
						// staging's pull-request previews (or a preview's
						// namespace on production's cluster) are made and
						// thrown away by the hour
						previews := true
						for _, o := range ops[2:] {
							previews = previews && pullRequestName(lower(o.s))
						}
						if previews {
							return false, ""
						}
					}
					return true, "delete " + kind
				case "scale":
					return hasWord(args, "--replicas=0") || hasWord(args, "--replicas") && hasWord(args, "0"), "scaled to zero"
				case "drain":
					return disruptiveDrain(a, c), "drain"
				case "cordon":
					return manyNodes(a, c), "cordon" // one node cordoned for maintenance evicts nothing
				case "taint":
					return true, ops[0].s
				case "rollout":
					// (staging rolled back to its last revision is how a bad
					// deploy there is undone)
					return len(ops) > 1 && (ops[1].s == "undo" && touchesProduction(c) || ops[1].s == "pause"), "rollout " + ops[1].s
				}
			case "sam":
				// sam deploy --no-confirm-changeset: the change set goes
				// out unread (staging's is how teams deploy there)
				return ops[0].s == "deploy" && touchesProduction(c) && hasWord(args, "--no-confirm-changeset"), "deploy with the change set unconfirmed"
			case "terraform", "pulumi": // (tofu and terragrunt are named terraform)
				if !touchesProduction(c) && scratchTargetsOnly(args) {
					return false, "" // -target=module.preview_env: a preview's own resources in staging
				}
				if len(ops) > 1 && (ops[0].s == "run-all" || ops[0].s == "run" && hasWord(args, "--all")) {
					// terragrunt run-all apply --terragrunt-non-interactive:
					// every module's plan applied with no prompt
					quiet := hasWord(args, "--terragrunt-non-interactive") || hasWord(args, "--non-interactive") || hasWord(args, "-auto-approve") || hasWord(args, "--auto-approve")
					return (ops[1].s == "apply" || ops[1].s == "destroy") && quiet, ops[0].s + " " + ops[1].s
				}
				switch ops[0].s {
				case "apply", "up", "destroy", "import", "taint", "refresh":
					return hasWord(args, "-auto-approve") || hasWord(args, "--auto-approve") || hasWord(args, "--yes") || hasWord(args, "-y") ||
						ops[0].s == "destroy" || ops[0].s == "taint", ops[0].s
				}
			case "cdk", "cdktf":
				// cdk deploy --require-approval never: security-relevant
				// changes go out unreviewed
				return ops[0].s == "deploy" && touchesProduction(c) && (hasWord(args, "--require-approval=never") || hasWord(args, "--require-approval") && hasWord(args, "never") || hasWord(args, "--auto-approve")), "deploy with approval skipped"
			case "ansible-playbook":
				// --check, --syntax-check and the --list-* options
				// change nothing
				for _, w := range args {
					switch w.s {
					case "--check", "-C", "--syntax-check", "--list-tasks", "--list-hosts", "--list-tags":
						return false, ""
					}
				}
				return true, "a playbook run"
			case "flux", "argocd":
				// a sync deploys what the repository holds, reviewed: on
				// staging it is the point of staging; forced, or on
				// production by hand, it is not
				sync := len(ops) > 1 && ops[1].s == "sync" && (touchesProduction(c) || hasWord(args, "--force") || hasWord(args, "--replace"))
				return ops[0].s == "suspend" || ops[0].s == "delete" || len(ops) > 1 && (ops[1].s == "delete" || ops[1].s == "rollback") || sync, ops[0].s
			}
			return false, ""
		}},
	{ID: "load-generator", Level: LevelModerate, Category: CategoryForkBomb, Description: "loading the machine with a stress tool (processes, CPU, memory or disk)",
		Suggestions: []string{"Benchmark the project's own code with a bounded load", "Keep the worker count and duration small"}, names: names("stress", "stress-ng"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			for i, w := range args {
				f, v, hasV := strings.Cut(w.s, "=")
				if !hasV && i+1 < len(args) {
					v = args[i+1].s
				}
				switch f {
				case "--fork", "--all", "--class", "--sequential":
					return true, w.s // every stressor, or process creation itself
				case "--cpu", "--vm", "--io", "--hdd", "-c", "-m", "-i", "-d":
					// a couple of workers for a short test is a benchmark;
					// dozens, or none (one per CPU), load the whole machine
					if n, err := strconv.Atoi(v); err != nil || n == 0 || n >= 8 {
						return true, w.s + " " + v
					}
				}
			}
			return false, ""
		}},
	{ID: "service-disruption", Level: LevelModerate, Category: CategorySystem, Description: "interrupting what others rely on: every process of a name, a user's sessions, open connections, a shared daemon or a production deployment",
		Suggestions: []string{"Stop the one process you started by its PID", "Restart only the application's own service", "Leave production to its deployment pipeline"},
		names:       names("killall", "systemctl", "service", "ss", "loginctl", "fuser", "docker", "docker-compose", "podman", "helm", "renice", "nvidia-smi"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "nvidia-smi":
				// a GPU reset, its power or clocks changed, ECC or the
				// compute mode switched: every job on it is killed or
				// slowed, the settings stay until someone notices
				if len(args) > 0 && !strings.HasPrefix(args[0].s, "-") {
					return false, "" // nvidia-smi pmon, dmon, topo: monitoring subcommands
				}
				o := c.opts()
				if o.has("r", "gpu-reset") || o.has("", "power-limit") || hasWord(args, "-pl") || hasWord(args, "-lgc") || hasWord(args, "-lmc") ||
					hasPrefixWord(args, "--lock-gpu-clocks") || hasPrefixWord(args, "--lock-memory-clocks") || hasPrefixWord(args, "--ecc-config") ||
					hasWord(args, "-e") || hasWord(args, "-c") || hasPrefixWord(args, "--compute-mode") || hasWord(args, "-mig") || hasPrefixWord(args, "--multi-instance-gpu") {
					return true, "nvidia-smi " + joinWords(args)
				}
				return false, ""
			case "killall":
				pats := positional(killSelectors(args))
				if sig := killSignal(args); len(pats) == 0 || sig == "0" || (sig == "HUP" || sig == "1" || sig == "USR1") && reloadsOnHUP(pats) {
					return false, "" // nothing sent, or a daemon told to reload
				}
				for _, p := range pats {
					if !relaunchingAgents[p.s] {
						return true, "every " + p.s + " process"
					}
				}
			case "systemctl", "service":
				verb, unit := "", ""
				if c.name == "systemctl" && len(ops) > 1 {
					verb, unit = ops[0].s, ops[1].s
				} else if c.name == "service" && len(ops) > 1 {
					unit, verb = ops[0].s, ops[1].s
				}
				if hasWord(args, "--user") {
					return false, ""
				}
				switch verb {
				case "restart", "stop", "reload-or-restart", "try-restart", "kill":
					if sharedDaemons[strings.TrimSuffix(unit, ".service")] {
						return true, verb + " " + unit
					}
				}
			case "ss":
				return hasWord(args, "-K") || hasWord(args, "--kill"), "killing open connections"
			case "renice":
				// every process of a user or group: a database server's, say
				return hasWord(args, "-u") || hasWord(args, "--user") || hasWord(args, "-g") || hasWord(args, "--pgrp"), "every process of a user"
			case "loginctl":
				if len(ops) > 0 && (ops[0].s == "terminate-user" || ops[0].s == "terminate-session" || ops[0].s == "kill-user" || ops[0].s == "kill-session" || ops[0].s == "terminate-seat") {
					return true, ops[0].s
				}
			case "fuser":
				o := c.opts()
				if o.has("k", "kill") {
					for _, w := range ops {
						if strings.HasPrefix(w.s, "/dev/nvidia") || strings.HasPrefix(w.s, "/dev/dri/") {
							return true, "every process using the GPUs"
						}
					}
				}
				return o.has("k", "kill") && (o.has("mM", "mount", "ismountpoint")), "every process using a file system"
			case "docker", "docker-compose", "podman", "helm":
				if !touchesProduction(c) {
					return false, ""
				}
				for _, w := range ops {
					switch w.s {
					case "stop", "restart", "kill", "pause", "rollback":
						return true, w.s + " in production"
					case "scale":
						// docker service scale api=8: more replicas; =0 stops
						// the service
						for _, v := range ops {
							if strings.HasSuffix(v.s, "=0") || v.s == "0" || !v.ok {
								return true, "scaled to zero in production"
							}
						}
						for _, v := range args {
							if v.s == "--replicas=0" || v.s == "--replicas" && hasWord(args, "0") {
								return true, "scaled to zero in production"
							}
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "kill-init", Level: LevelCritical, Category: CategorySystem, Description: "killing init (PID 1) takes the whole system down",
		Suggestions: []string{"Kill the specific process by PID or name", "Restart a service with systemctl restart"}, names: names("kill"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.operands() {
				if w.s == "1" {
					return true, "PID 1"
				}
			}
			return false, ""
		}},
	{ID: "firewall-flush", Level: LevelHigh, Category: CategorySystem, Description: "flushing or disabling the firewall",
		Suggestions: []string{"Add or remove a single rule instead", "Save the rules first (iptables-save > rules.bak)"},
		names:       names("iptables", "ip6tables", "nft", "ufw", "iptables-legacy", "iptables-nft", "firewall-cmd", "pfctl", "iptables-restore", "ip6tables-restore"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if hasWord(args, "--dry-run") {
				return false, "" // ufw --dry-run: what would change, printed
			}
			switch c.name {
			case "iptables-restore", "ip6tables-restore":
				// a rule set with no rule in it, or one from the network,
				// in place of the machine's
				switch c.in.kind {
				case flowRemote:
					return true, "rules from " + c.in.what
				case flowText:
					if t := c.in.text; strings.Contains(t, "*filter") && !strings.Contains(t, "-A ") && !strings.Contains(t, ":INPUT DROP") && !strings.Contains(t, ":INPUT REJECT") {
						return true, "an empty filter table"
					}
				}
				return false, ""
			case "nft":
				// nft flush ruleset; nft 'flush chain inet filter input; ...':
				// the rules that filter what comes in, gone
				for stmt := range strings.SplitSeq(joinWords(args), ";") {
					f := strings.Fields(stmt)
					if len(f) > 1 && (f[0] == "flush" || f[0] == "delete") && (f[1] == "ruleset" || f[1] == "table" || f[1] == "chain" && slices.Contains(f, "input")) {
						return true, strings.TrimSpace(stmt)
					}
				}
				return false, ""
			case "ufw":
				ops := c.operands() // ufw --force disable
				if len(ops) > 0 && (ops[0].s == "disable" || ops[0].s == "reset") {
					return true, ""
				}
				// ufw deny 22, ufw deny ssh, ufw reject OpenSSH: remote
				// administration cut off
				if len(ops) == 2 && (ops[0].s == "deny" || ops[0].s == "reject") && (ops[1].s == "22" || ops[1].s == "22/tcp" || ops[1].s == "ssh" || ops[1].s == "OpenSSH") {
					return true, "SSH denied"
				}
				// ufw default allow incoming; ufw allow from any to any port 22,3306
				if len(ops) > 1 && ops[0].s == "default" && ops[1].s == "allow" && (len(ops) == 2 || ops[2].s != "outgoing" && ops[2].s != "routed") {
					return true, "default allow incoming"
				}
				if len(ops) > 0 && ops[0].s == "allow" {
					from, hasFrom := optWordAfter(ops, "from")
					if hasFrom && from != "any" && from != "0.0.0.0/0" && from != "::/0" {
						return false, "" // from one network (10.0.0.0/8, the office's address)
					}
					if iface, ok := optWordAfter(ops, "on"); ok && privateIface(iface) {
						return false, "" // in on lo, in on wg0: this machine's or its tunnel's
					}
					if _, port := optWordAfter(ops, "port"); hasFrom && !port && !hasWord(ops, "app") {
						return true, "every connection from anywhere" // ufw allow from any to any
					}
					for i, w := range ops {
						if w.s == "port" && i+1 < len(ops) && ops[i+1].s != "22" && openedPortRisky(ops[i+1].s) && !hasWord(args, "127.0.0.1") {
							return true, "allow port " + ops[i+1].s
						}
					}
				}
				return false, ""
			case "firewall-cmd":
				// the trusted zone, panic mode off, or a database or remote
				// administration port opened in the default zone
				if hasWord(args, "--panic-on") || hasPrefixWord(args, "--set-default-zone=trusted") {
					return true, ""
				}
				// every address let in: a rich rule accepting 0.0.0.0/0,
				// the whole internet added to a zone, a zone's target ACCEPT
				for _, w := range args {
					l := strings.ReplaceAll(lower(w.s), `"`, "")
					switch {
					case strings.HasPrefix(l, "--add-rich-rule=") && (strings.Contains(l, "address=0.0.0.0/0") || strings.Contains(l, "address=::/0")) && strings.HasSuffix(strings.TrimSpace(l), "accept"):
						return true, "every address accepted"
					case l == "--add-source=0.0.0.0/0" || l == "--add-source=::/0":
						return true, w.s
					case l == "--set-target=accept" && !hasPrefixWord(args, "--zone=trusted") && !hasPrefixWord(args, "--zone=internal"):
						return true, w.s
					}
				}
				scoped := hasPrefixWord(args, "--zone=internal") || hasPrefixWord(args, "--zone=trusted") || hasPrefixWord(args, "--add-source=")
				for _, w := range args {
					if p, ok := strings.CutPrefix(w.s, "--add-port="); ok && !scoped {
						port, _, _ := strings.Cut(p, "/")
						if sensitivePorts(port) && port != "22" {
							return true, w.s
						}
					}
					// a database or remote-desktop service by its name
					if svc, ok := strings.CutPrefix(w.s, "--add-service="); ok && exposedServices[svc] && !hasPrefixWord(args, "--zone=internal") && !hasPrefixWord(args, "--zone=trusted") {
						return true, w.s
					}
				}
				return false, ""
			case "pfctl":
				// echo 'pass in ... from any to any port 5432' | pfctl -f -:
				// a rule read from the input letting everyone in
				if t := lower(c.in.text); c.in.kind == flowText && hasWord(args, "-") && strings.Contains(t, "pass in") && strings.Contains(t, "from any") {
					if _, p, ok := strings.Cut(t, " port "); ok {
						if f := strings.Fields(p); len(f) > 0 && f[0] != "22" && openedPortRisky(f[0]) {
							return true, "pf passing port " + f[0] + " from anywhere"
						}
					}
				}
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
			// -A INPUT -p tcp --dport 22 -j DROP: remote administration cut
			// off for everyone (one source dropped is a ban, not a lockout)
			chain, _ := optValue(args, "-A", "append")
			if chain == "" {
				chain, _ = optValue(args, "-I", "insert")
			}
			target, _ := optValue(args, "-j", "jump")
			port, _ := optValue(args, "", "dport", "destination-port")
			src, hasSrc := optValue(args, "-s", "source")
			// -I INPUT 1 -j ACCEPT with nothing to match: every packet
			// let in before the rules that would stop it
			if chain == "INPUT" && target == "ACCEPT" && !hasSrc && port == "" && !hasWord(args, "-p") && !hasWord(args, "-i") && !hasWord(args, "-m") &&
				!hasWord(args, "--protocol") && !hasWord(args, "--in-interface") && !hasWord(args, "--match") {
				return true, "every packet accepted"
			}
			if chain == "INPUT" && (target == "DROP" || target == "REJECT") && (port == "22" || port == "ssh") && (!hasSrc || src == "0.0.0.0/0" || src == "::/0") {
				return true, "SSH dropped for every source"
			}
			// -t nat: traffic sent elsewhere (DNAT to another machine's
			// address), or every source masqueraded (this machine made a
			// router for whatever reaches it)
			if table, _ := optValue(args, "-t", "table"); table == "nat" && (chain == "PREROUTING" || chain == "OUTPUT" || chain == "POSTROUTING") {
				if target == "DNAT" {
					if to, _ := optValue(args, "", "to-destination", "to"); to != "" && !isLocalHost(strings.Split(to, ":")[0]) && !internalHost(strings.Split(to, ":")[0]) {
						return true, "traffic redirected to " + to
					}
				}
				if target == "MASQUERADE" && !hasSrc {
					if _, iface := optValue(args, "-o", "out-interface"); !iface {
						return true, "every source masqueraded"
					}
				}
			}
			return false, ""
		}},
	{ID: "pip-uninstall-everything", Level: LevelHigh, Category: CategorySystem, Description: "uninstalling every Python package of the system (the tools written in Python stop working)",
		Suggestions: []string{"Uninstall inside a virtual environment", "Remove only the packages the project installed"}, names: names("pip", "pip3"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) == 0 || args[0].s != "uninstall" || !c.asRoot && !hasWord(args, "--break-system-packages") {
				return false, ""
			}
			// pip uninstall -r <(pip freeze), pip freeze | xargs sudo pip uninstall
			return strings.Contains(a.src, "pip freeze") || strings.Contains(a.src, "pip3 freeze") || strings.Contains(a.src, "pip list"), "every installed package"
		}},
	{ID: "pip-into-system-python", Level: LevelHigh, Category: CategorySystem, Description: "installing Python packages over the system's own (the distribution's tools run on them)",
		Suggestions: []string{"Install into a virtual environment", "Use pipx for command-line tools"}, names: names("pip", "pip3"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) == 0 || args[0].s != "install" {
				return false, ""
			}
			// sudo pip install --break-system-packages X: as root, into the
			// system's own site-packages, past the distribution's guard
			if c.asRoot && hasWord(args, "--break-system-packages") && !hasWord(args, "--user") {
				return true, "sudo pip install --break-system-packages"
			}
			// pip install --target /usr/lib/python3/dist-packages X: the
			// distribution's packages replaced underneath apt
			for _, o := range []string{"target", "prefix", "root"} {
				short := ""
				if o == "target" {
					short = "-t"
				}
				if v, ok := optValue(args, short, o); ok {
					p := path.Clean(v)
					if strings.HasPrefix(p, "/usr/lib/python3") || p == "/usr" || p == "/" {
						return true, "--" + o + " " + v
					}
				}
			}
			return false, ""
		}},
	{ID: "tool-tls-off-config", Level: LevelHigh, Category: CategorySystem, Description: "writing a setting that turns off certificate checks into a tool's configuration file (every later download can be swapped in transit)",
		Suggestions: []string{"Give the tool the CA bundle it needs", "Turn the check off for one command only, if at all"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.writeTargets(c) {
				if t.content.kind == flowText && tlsOffConfig(path.Base(t.raw), t.content.text) {
					return true, t.raw
				}
			}
			return false, ""
		}},
	{ID: "fetch-checks-off", Level: LevelHigh, Category: CategorySystem, Description: "fetching packages or code with certificate or checksum checks turned off (what arrives can have been swapped in transit, and it is then built and run)",
		Suggestions: []string{"Give the tool the CA bundle it needs, or fix the mirror's certificate", "Keep checksum verification on; update the lock file if it is stale"},
		names: names("git", "go", "npm", "npx", "yarn", "pnpm", "pip", "pip3", "uv", "poetry", "pipenv", "cargo", "mvn", "mvnw", "./mvnw", "gradle", "gradlew", "./gradlew",
			"bundle", "gem", "composer", "nuget", "dotnet", "scoop", "choco", "winget", "brew", "conda", "mamba", "micromamba",
			"apt", "apt-get", "dnf", "yum", "zypper", "nix", "nix-env", "nix-shell", "nix-build", "gradlew.bat", "mvnw.cmd", "aws", "docker", "podman", "pipx"),
		match: func(a *analysis, c *cmd) (bool, string) {
			found, what := fetchChecksOff(c)
			if !found && c.name == "pipx" {
				// pipx install --pip-args='--trusted-host H ...': pip's
				// own options, given through pipx
				if v, ok := optValue(c.args(), "", "pip-args"); ok {
					inner := &cmd{name: "pip"}
					inner.words = append(inner.words, lit("pip"))
					for _, f := range strings.Fields(strings.Trim(v, `"'`)) {
						inner.words = append(inner.words, lit(f))
					}
					found, what = fetchChecksOff(inner)
				}
			}
			if !found && a.srcLowHas("node_tls_reject_unauthorized") && nodeTLSOff.MatchString(a.srcLow()) && (installVerb(c) || c.name == "npx" || c.name == "pnpm" && hasWord(c.args(), "dlx")) {
				// $env:NODE_TLS_REJECT_UNAUTHORIZED='0'; npm install, set
				// NODE_TLS_REJECT_UNAUTHORIZED=0 && npm install: set for
				// the session earlier on the line
				found, what = true, "NODE_TLS_REJECT_UNAUTHORIZED=0 earlier on the line"
			}
			if found && localFetchOnly(c.args()) {
				return false, "" // a mirror or a repository on this machine
			}
			return found, what
		}},
	{ID: "git-push-host-unchecked", Level: LevelHigh, Category: CategorySystem, Description: "pushing over ssh with the server's host key unchecked (whoever answers at that address receives the code)",
		Suggestions: []string{"Add the server's key to known_hosts (ssh-keyscan, checked against its fingerprint)", "Push over a connection whose host key is checked"},
		names:       names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if sub, _ := gitSub(c); sub != "push" {
				return false, ""
			}
			ssh := gitCommandSetting(c, "GIT_SSH_COMMAND", "core.sshcommand")
			if l := strings.ReplaceAll(lower(ssh), " ", ""); strings.Contains(l, "stricthostkeychecking=no") || strings.Contains(l, "userknownhostsfile=/dev/null") {
				return true, "GIT_SSH_COMMAND " + ssh
			}
			return false, ""
		}},
	{ID: "tool-tls-off", Level: LevelHigh, Category: CategorySystem, Description: "turning off certificate checks or trusting any host for a package manager or git, for good (every later download can be swapped in transit)",
		Suggestions: []string{"Give the tool the CA bundle it needs (cafile, http.sslCAInfo)", "Turn the check off for one command only, if at all"},
		names:       names("git", "npm", "yarn", "pnpm", "pip", "pip3", "conda", "gem", "composer", "poetry", "cargo", "go", "kubectl", "setx", "export", "bundle", "set", "cmd:set", "gcloud", "launchctl", "mise", "rtx", "sdkmanager", "micromamba", "mamba", "p4", "zowe"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "zowe":
				// zowe config set profiles.X.properties.rejectUnauthorized
				// false: the mainframe's certificate no longer checked
				if len(ops) > 3 && ops[0].s == "config" && ops[1].s == "set" && strings.HasSuffix(lower(ops[2].s), "rejectunauthorized") && falseWord(lower(ops[3].s)) {
					return true, "zowe " + ops[2].s + " false"
				}
				return false, ""
			case "p4":
				// p4 trust -f -y: a changed server fingerprint accepted
				// (what a man in the middle presents)
				if len(ops) > 0 && ops[0].s == "trust" && hasWord(args, "-f") && (hasWord(args, "-y") || hasWord(args, "-r")) {
					return true, "p4 trust -f (a changed fingerprint accepted)"
				}
				return false, ""
			case "micromamba", "mamba":
				// micromamba config set ssl_verify false: channels fetched
				// without their certificates checked, from now on
				if len(ops) > 3 && ops[0].s == "config" && ops[1].s == "set" && lower(ops[2].s) == "ssl_verify" && falseWord(lower(ops[3].s)) {
					return true, c.name + " config set ssl_verify " + ops[3].s
				}
				return false, ""
			case "sdkmanager":
				// sdkmanager --no_https --install ...: the SDK's packages
				// fetched over plain HTTP
				return hasWord(args, "--no_https"), "sdkmanager --no_https"
			case "mise", "rtx":
				// mise settings set node.gpg_verify false: runtimes
				// installed without their signatures checked, from now on
				if len(ops) > 3 && ops[0].s == "settings" && ops[1].s == "set" && (strings.Contains(lower(ops[2].s), "verify") || strings.Contains(lower(ops[2].s), "checksum")) && falseWord(lower(ops[3].s)) {
					return true, c.name + " settings set " + ops[2].s + " " + ops[3].s
				}
				return false, ""
			case "launchctl":
				// launchctl setenv GIT_SSL_NO_VERIFY true: every program
				// launchd starts from now on
				return len(ops) > 2 && ops[0].s == "setenv" && tlsCheckOffVar(ops[1].s, ops[2].s), "launchctl setenv " + joinWords(ops[1:])
			case "gcloud":
				// gcloud config set auth/disable_ssl_validation True: the
				// cloud's API called with credentials and no check
				if len(ops) > 3 && ops[0].s == "config" && ops[1].s == "set" && lower(ops[2].s) == "auth/disable_ssl_validation" && (lower(ops[3].s) == "true" || ops[3].s == "1") {
					return true, "gcloud auth/disable_ssl_validation"
				}
				return false, ""
			case "export":
				// export NODE_TLS_REJECT_UNAUTHORIZED=0 GIT_SSL_NO_VERIFY=1:
				// every later command of the session goes unchecked
				var env map[string]string
				for _, w := range args {
					if k, v, ok := strings.Cut(w.s, "="); ok {
						if tlsCheckOffVar(k, v) {
							return true, w.s
						}
						if strings.HasPrefix(k, "GIT_CONFIG_") {
							if env == nil {
								env = map[string]string{}
							}
							env[k] = v
						}
					}
				}
				if k := gitConfigEnvTLSOff(env); k != "" {
					return true, k
				}
				return false, ""
			case "cmd:set":
				// cmd: set GIT_SSL_NO_VERIFY=1 (set "X=1"), for the rest
				// of the session like export
				if len(args) > 0 {
					// (NODE_TLS_REJECT_UNAUTHORIZED is judged with the
					// command it precedes, by fetch-checks-off)
					if k, v, ok := strings.Cut(strings.Trim(args[0].s, `"`), "="); ok && tlsCheckOffVar(k, v) && k != "NODE_TLS_REJECT_UNAUTHORIZED" {
						return true, k + "=" + v
					}
				}
				return false, ""
			case "set":
				// fish: set -gx NODE_TLS_REJECT_UNAUTHORIZED 0, or -Ux, kept
				// for every later shell
				if len(ops) > 1 && strings.HasPrefix(args[0].s, "-") && strings.ContainsAny(args[0].s, "xU") && tlsCheckOffVar(ops[0].s, ops[1].s) {
					return true, ops[0].s + " " + ops[1].s
				}
				for _, as := range c.assigns {
					// set -x GOFLAGS -insecure (a value that starts with a
					// dash)
					if tlsCheckOffVar(as.name, as.val.s) {
						return true, as.name + " " + as.val.s
					}
				}
				return false, ""
			case "poetry":
				// poetry config certificates.NAME.cert false: that
				// source's certificate goes unchecked
				if len(ops) > 2 && ops[0].s == "config" && strings.HasPrefix(ops[1].s, "certificates.") && strings.HasSuffix(ops[1].s, ".cert") && falseWord(lower(ops[2].s)) {
					return true, ops[1].s + " " + ops[2].s
				}
			case "bundle":
				// bundle config set --global ssl_verify_mode 0
				if len(ops) >= 3 && ops[0].s == "config" && hasWord(args, "--global") {
					for i, w := range ops {
						if (w.s == "ssl_verify_mode" || w.s == "BUNDLE_SSL_VERIFY_MODE") && i+1 < len(ops) && ops[i+1].s == "0" {
							return true, "ssl_verify_mode 0"
						}
					}
				}
				return false, ""
			case "go":
				// go env -w GOINSECURE=* GOSUMDB=off: modules fetched
				// unchecked from now on
				if len(ops) > 1 && ops[0].s == "env" && hasWord(args, "-w") {
					for _, w := range ops[1:] {
						if k, v, ok := strings.Cut(w.s, "="); ok && tlsCheckOffVar(k, v) {
							return true, w.s
						}
					}
				}
				return false, ""
			case "kubectl":
				// kubectl config set-cluster X --insecure-skip-tls-verify=true
				// (kubectl config set clusters.X.insecure-skip-tls-verify true)
				return len(ops) > 0 && ops[0].s == "config" && (hasWord(args, "--insecure-skip-tls-verify=true") || hasWord(args, "--insecure-skip-tls-verify") ||
					len(ops) > 3 && ops[1].s == "set" && strings.HasSuffix(ops[2].s, ".insecure-skip-tls-verify") && ops[3].s == "true"), "insecure-skip-tls-verify"
			case "setx":
				// setx NODE_TLS_REJECT_UNAUTHORIZED 0: saved for every later session
				return len(ops) > 1 && tlsCheckOffVar(strings.ToUpper(ops[0].s), ops[1].s), ops[0].s
			case "composer":
				// composer config -g secure-http false / disable-tls true
				if len(ops) > 2 && ops[0].s == "config" {
					if k, v := lower(ops[1].s), lower(ops[2].s); k == "secure-http" && falseWord(v) || k == "disable-tls" && v == "true" {
						return true, k + " " + v
					}
				}
				return false, ""
			}
			if len(ops) < 2 {
				return false, ""
			}
			key, val := "", ""
			switch c.name {
			case "git":
				// git config --global http.sslVerify false (a repository's
				// own .git/config reaches that repository only)
				k, v, ok := gitConfigSet(c)
				if !ok || !a.gitConfigUserWide(c) {
					return false, ""
				}
				key, val = k, lower(v)
				if (key == "http.sslverify" || strings.HasPrefix(key, "http.") && strings.HasSuffix(key, ".sslverify") || key == "http.schannelcheckrevoke") && falseWord(val) {
					return true, key + " " + val // (http.https://host/.sslVerify: that host's)
				}
				// protocol.file.allow always: undoes the fix that keeps a
				// cloned repository's submodules from reading local paths
				if (key == "protocol.file.allow" || key == "protocol.allow" || key == "protocol.ext.allow") && val == "always" {
					return true, key + " " + val // (ext:: runs a local command as the transport)
				}
				// safe.directory '*': git no longer refuses repositories
				// another user owns (their hooks and settings then run)
				if key == "safe.directory" && strings.Trim(val, `"'`) == "*" {
					return true, key + " *"
				}
				// every host key accepted over ssh: a swapped server is not noticed
				if key == "core.sshcommand" && (strings.Contains(val, "stricthostkeychecking=no") || strings.Contains(val, "userknownhostsfile=/dev/null")) {
					return true, "core.sshCommand " + v
				}
				return false, ""
			case "conda":
				// conda config --set ssl_verify false
				for i := 0; i+2 < len(args); i++ {
					if args[i].s == "--set" && lower(args[i+1].s) == "ssl_verify" && falseWord(lower(args[i+2].s)) {
						return true, "ssl_verify " + args[i+2].s
					}
				}
				return false, ""
			}
			if ops[0].s == "set" && (c.name == "npm" || c.name == "pnpm") {
				// npm set strict-ssl=false: npm config set's short form
				ops = append([]word{{s: "config", ok: true}}, ops...)
			}
			if ops[0].s != "config" || len(ops) < 3 || ops[1].s != "set" {
				return false, ""
			}
			key = lower(ops[2].s)
			if k, v, ok := strings.Cut(key, "="); ok {
				key, val = k, v
			} else if len(ops) > 3 {
				val = lower(ops[3].s)
			}
			switch strings.TrimPrefix(strings.TrimPrefix(key, "global."), "install.") {
			case "strict-ssl", "strictssl", "enablestrictssl", "ssl_verify", "sslverify", "cert-check", "disable-tls":
				if falseWord(val) || key == "disable-tls" && val == "true" {
					return true, key + " " + val
				}
			case "trusted-host":
				return val != "" && !isLocalHost(val), key + " " + val
			case "checksumbehavior":
				// yarn config set checksumBehavior ignore (reset: every
				// recorded checksum replaced by what is downloaded now)
				return val == "ignore" || val == "update" || val == "reset", key + " " + val
			case "verify-store-integrity":
				// pnpm config set verify-store-integrity false: packages in
				// the store no longer checked against their hashes
				return falseWord(val), key + " " + val
			case "cafile", "cert", "ca":
				// npm config set cafile /tmp/proxy-ca.pem: every download
				// trusted to whoever holds that certificate's key
				return strings.HasPrefix(val, "/tmp/") || strings.HasPrefix(val, "/var/tmp/") || strings.Contains(val, "/downloads/"), key + " " + val
			case "break-system-packages":
				return val == "true" || val == "1", key + " " + val
			}
			return false, ""
		}},
	{ID: "trust-root-certificate", Level: LevelHigh, Category: CategorySystem, Description: "adding a root certificate authority the machine trusts (whoever holds its key can impersonate any site)",
		Suggestions: []string{"Trust a development CA for one tool only (NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE)", "Let the user install root certificates"},
		names:       names("certutil", "import-certificate", "security", "trust", "keytool", "cp", "install", "mv", "tee", "ln", "dd", "git", "npm", "yarn", "pip", "pip3", "export", "curl", "wget"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			j := lower(joinWords(args))
			if strings.Contains(j, "mkcert") || strings.Contains(a.src, "mkcert -CAROOT") {
				return false, "" // the developer's own mkcert CA, made on this machine
			}
			// REQUESTS_CA_BUNDLE=/tmp/mitm.pem pip install ...: this run
			// trusts whatever that file says
			for _, as := range c.assigns {
				switch as.name {
				case "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "CURL_CA_BUNDLE", "GIT_SSL_CAINFO", "PIP_CERT", "AWS_CA_BUNDLE":
					if f := as.val.s; f != "" && (a.isDownloaded(f, c.cwd) || untrustedPlace(a.absPath(f, c.cwd)) && !a.inWork(a.absPath(f, c.cwd))) {
						return true, as.name + "=" + f
					}
				}
			}
			switch c.name {
			case "git", "npm", "yarn", "pip", "pip3", "export":
				// git config --global http.sslCAInfo ~/.ca/x.pem after
				// downloading it: the tool trusts what that file says
				for i, w := range args {
					l := lower(w.s)
					k, v, ok := strings.Cut(l, "=")
					if !ok && i+1 < len(args) {
						k, v = l, args[i+1].s
					} else if ok {
						v = w.s[len(k)+1:]
					}
					switch k {
					case "http.sslcainfo", "https.sslcainfo", "cafile", "ca", "global.cert", "cert", "node_extra_ca_certs", "requests_ca_bundle", "ssl_cert_file", "curl_ca_bundle", "git_ssl_cainfo":
						if f := strings.Trim(v, `"'`); f != "" && (a.isDownloaded(f, c.cwd) || untrustedPlace(a.absPath(f, c.cwd)) && !a.inWork(a.absPath(f, c.cwd))) {
							return true, w.s + " (a CA from " + f + ")"
						}
					}
				}
				return false, ""
			case "cp", "install", "mv", "tee", "ln", "dd", "curl", "wget":
				// a certificate dropped where the system's trust store
				// is built from (update-ca-certificates, update-ca-trust),
				// or downloaded straight there
				for _, t := range a.writeTargets(c) {
					for _, d := range caAnchorDirs {
						if strings.HasPrefix(t.path+"/", d) {
							return true, t.raw
						}
					}
				}
			case "certutil":
				// NSS: certutil -d sql:$HOME/.pki/nssdb -A -t "C,," -i FILE,
				// a CA for every site the browser visits
				if hasWord(args, "-A") {
					if t, ok := optValue(args, "-t", ""); ok && strings.Contains(strings.SplitN(strings.Trim(t, `"'`), ",", 2)[0], "C") {
						return true, "certutil -A -t " + t
					}
				}
				// certutil -addstore [-f] [-enterprise] Root FILE
				if !strings.Contains(j, "-addstore") && !strings.Contains(j, "/addstore") {
					return false, ""
				}
				for _, w := range args {
					if l := lower(w.s); l == "root" || l == "authroot" || l == "trustedpublisher" {
						return true, "certutil -addstore " + w.s
					}
				}
			case "import-certificate":
				for i, w := range args {
					if lower(w.s) == "-certstorelocation" && i+1 < len(args) && strings.HasSuffix(strings.TrimRight(lower(args[i+1].s), `\/`), "root") {
						return true, args[i+1].s
					}
				}
			case "security":
				return len(args) > 0 && args[0].s == "add-trusted-cert", "add-trusted-cert"
			case "trust":
				return len(args) > 0 && (args[0].s == "anchor" && !hasWord(args, "--remove")), "trust anchor"
			case "keytool":
				return (hasWord(args, "-importcert") || hasWord(args, "-import")) && (hasWord(args, "-cacerts") || strings.Contains(j, "/cacerts") || strings.Contains(j, `\cacerts`)), "keytool -importcert into cacerts"
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
					if k, v, ok := strings.Cut(w.s, "="); ok && !strings.HasPrefix(k, "-") && securityKnob(k) && !hardeningValue(k, v) {
						return true, w.s
					}
				}
			}
			return false, ""
		}},
	{ID: "system-file-frozen", Level: LevelHigh, Category: CategorySystem, Description: "making system files immutable, so that updates and the tools managing them fail",
		Suggestions: []string{"Leave system files' flags to the administrator", "Fix the setting that keeps rewriting the file instead"}, names: names("chattr", "chflags"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			on := false
			for _, w := range args {
				on = on || c.name == "chattr" && strings.HasPrefix(w.s, "+") && strings.ContainsAny(w.s[1:], "ia") ||
					c.name == "chflags" && (w.s == "schg" || w.s == "uchg" || w.s == "sappnd")
			}
			if !on {
				return false, ""
			}
			for _, w := range c.operands() {
				if p := a.absPath(w.s, c.cwd); p != "" && !a.inWork(p) && systemTree(p) {
					return true, p
				}
			}
			return false, ""
		}},
	{ID: "dns-arbitrary-resolver", Level: LevelHigh, Category: CategorySystem, Description: "sending the machine's name lookups to an arbitrary server",
		Suggestions: []string{"Use the network's resolver or a well-known public one", "Change DNS for one lookup with dig @server instead"},
		names:       names("networksetup", "resolvectl", "nmcli", "systemd-resolve"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if !hasWord(args, "-setdnsservers") && !hasWord(args, "dns") && !hasWord(args, "--set-dns") && !hasWord(args, "ipv4.dns") && !hasWord(args, "ipv6.dns") {
				return false, ""
			}
			for _, w := range args {
				if isPublicIP(w.s) && !wellKnownResolvers[w.s] {
					return true, w.s
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
				if len(args) > 1 && (args[0].s == "route" || args[0].s == "r" || args[0].s == "addr" || args[0].s == "address" || args[0].s == "a") &&
					(args[1].s == "flush" || args[0].s[0] == 'r' && (args[1].s == "del" || args[1].s == "delete") && hasWord(args, "default")) {
					// every route (or address) gone: the machine is cut off
					return !hasWord(args, "cache") && !hasWord(args, "lo"), args[0].s + " " + args[1].s
				}
				// (a test's own virtual interface: veth-test, dummy0)
				return len(args) > 3 && args[0].s == "link" && args[1].s == "set" && hasWord(args, "down") && !hasWord(args, "lo") && !scratchIface(args[2].s), ""
			case "ifdown":
				return len(args) > 0 && !hasWord(args, "lo"), ""
			case "nmcli":
				return hasWord(args, "off") && hasWord(args, "networking") || hasWord(args, "down") && hasWord(args, "connection"), ""
			}
			return false, ""
		}},
	{ID: "security-agent-remove", Level: LevelHigh, Category: CategorySystem, Description: "removing a security or monitoring agent (EDR, antivirus, audit)",
		Suggestions: []string{"Leave security agents to the administrators who installed them"},
		names:       names("apt", "apt-get", "aptitude", "yum", "dnf", "zypper", "pacman", "rpm", "dpkg", "apk", "brew", "snap", "winget", "choco"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "winget" || c.name == "choco" {
				// winget uninstall --id CrowdStrike.FalconSensor: the id is
				// an option's value
				if ops := c.operands(); len(ops) == 0 || ops[0].s != "uninstall" && ops[0].s != "remove" {
					return false, ""
				}
				for _, w := range args {
					if securityAgent(w.s) {
						return true, w.s
					}
				}
				return false, ""
			}
			removing := false
			for _, w := range args {
				switch w.s {
				case "remove", "purge", "erase", "autoremove", "uninstall", "-R", "-Rns", "-Rs", "-e", "--erase", "-r", "-P", "--purge", "--remove":
					removing = true
				}
			}
			if !removing {
				return false, ""
			}
			for _, w := range c.operands() {
				if securityAgent(w.s) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "security-agent-stopped", Level: LevelHigh, Category: CategorySystem, Description: "stopping or unloading a security or monitoring agent through its own control program",
		Suggestions: []string{"Leave security agents to the administrators who run them"},
		// no names: every agent ships its own control program
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 2 {
				return false, ""
			}
			switch c.name {
			case "csuninstalltool":
				return true, "CrowdStrike's uninstaller"
			case "sysmon", "sysmon64":
				// sysmon -u: the driver removed; -c with a downloaded
				// configuration: what it records replaced
				low := c.lowerArgs()
				if hasAnyWord(low, "-u", "/u") {
					return true, c.name + " -u"
				}
				if v, ok := optValue(c.args(), "-c", ""); ok && (strings.Contains(lower(v), `\downloads\`) || strings.Contains(lower(v), `	emp\`) || strings.Contains(lower(v), "/downloads/")) {
					return true, c.name + " -c " + v
				}
				return false, ""
			}
			for i, l := range c.lowerArgs() {
				if i > 2 {
					break
				}
				switch l {
				case "stop", "disable", "unload", "kill", "shutdown", "uninstall", "--stop", "--disable", "--unload", "-stop":
					// the name last: most commands have no such word
					if securityAgent(c.name) || securityAgent(c.words[0].s) {
						// (/opt/splunkforwarder/bin/splunk stop: the
						// forwarder by its folder)
						return true, c.name + " " + l
					}
					// systemextensionsctl uninstall TEAM com.crowdstrike.falcon.Agent:
					// the agent's system extension removed
					if c.name == "systemextensionsctl" && l == "uninstall" {
						for _, w := range c.lowerArgs() {
							if hasAny(w, "crowdstrike", "falcon", "sentinel", "carbonblack", "defender", "jamf", "sophos", "eset", "kandji", "santa", "osquery", "elastic") {
								return true, "systemextensionsctl uninstall " + w
							}
						}
					}
					return false, ""
				}
			}
			return false, ""
		}},
	{ID: "kernel-module-unload", Level: LevelHigh, Category: CategorySystem, Description: "unloading a kernel module (the disk, network or security driver it is goes away)",
		Suggestions: []string{"Leave loaded modules alone", "Let an administrator change kernel modules"}, names: names("rmmod", "modprobe", "kextunload"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "modprobe" && !hasWord(args, "-r") && !hasWord(args, "--remove") {
				return false, ""
			}
			ops := c.operands()
			return len(ops) > 0, strings.Join(wordsText(ops), " ")
		}},
	{ID: "shared-environment-removed", Level: LevelHigh, Category: CategorySystem, Description: "removing a production environment or store paths programs still use (conda env remove of a production environment, nix-store --delete --ignore-liveness)",
		Suggestions: []string{"Remove only environments you created for this task", "Let the garbage collector remove what nothing uses (nix-collect-garbage)"},
		names:       names("conda", "mamba", "micromamba", "nix-store"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "nix-store" {
				return hasWord(args, "--delete") && hasWord(args, "--ignore-liveness"), "nix-store --delete --ignore-liveness"
			}
			sub := clientSubWords(c).list()
			if !(len(sub) > 1 && sub[0] == "env" && (sub[1] == "remove" || sub[1] == "rm")) && !(len(sub) > 0 && sub[0] == "remove" && hasWord(args, "--all")) {
				return false, ""
			}
			for _, o := range [...][2]string{{"-n", "name"}, {"-p", "prefix"}} {
				if name, ok := optValue(args, o[0], o[1]); ok && (isProdName(name) || sharedEnvironment(name) && !scratchName(name)) {
					return true, c.name + " " + strings.Join(sub, " ") + " " + name
				}
			}
			return false, ""
		}},
	{ID: "hdfs-opened-or-purged", Level: LevelHigh, Category: CategoryPermission, Description: "opening a shared file system's tree to every user, or deleting from it past the trash (hdfs dfs -chmod -R 777, -rm -r -skipTrash)",
		Suggestions: []string{"Grant the group that needs it", "Delete into the trash, which keeps files for a while"},
		names:       names("hdfs", "hadoop"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) < 3 || args[0].s != "dfs" && args[0].s != "fs" {
				return false, ""
			}
			op := args[1].s
			ops := positional(args[2:])
			if len(ops) == 0 {
				return false, ""
			}
			target := ops[len(ops)-1].s
			if scratchName(target) || strings.HasPrefix(target, "/tmp/") || strings.HasPrefix(target, "/user/") && !isProdName(target) && !strings.HasPrefix(target, "/user/hive/warehouse") {
				return false, ""
			}
			switch op {
			case "-chmod":
				if (hasWord(args, "-R") || hasWord(args, "-r")) && len(ops) > 1 && (ops[0].s == "777" || ops[0].s == "a+rwx" || ops[0].s == "o+w") {
					return true, "hdfs dfs -chmod -R " + ops[0].s + " " + target
				}
			case "-rm", "-rmr":
				if hasWord(args, "-skipTrash") && (hasWord(args, "-r") || hasWord(args, "-R") || op == "-rmr") {
					return true, "hdfs dfs -rm -r -skipTrash " + target
				}
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
				case "rm":
					removing = removing || c.name == "zypper" // zypper rm
				}
			}
			if !removing {
				return false, ""
			}
			for _, w := range c.operands() {
				n := w.s
				if g, ok := strings.CutSuffix(n, "*"); ok && (criticalPackages[g] || g == "python3" || g == "libc6" || g == "systemd" || g == "perl") {
					return true, n // a glob over a critical package and its kin
				}
				// lib*, py*, *: a pattern so broad it takes the libraries
				// everything links against
				if g, ok := strings.CutSuffix(n, "*"); ok && w.ok && c.name != "brew" && (len(strings.Trim(g, "*")) <= 3 || g == "lib" || strings.HasPrefix(g, "*")) {
					return true, n
				}
				if criticalPackages[n] || strings.HasPrefix(n, "linux-image") || strings.HasPrefix(n, "kernel-") && !strings.Contains(n, "devel") || n == "python3" && (c.name == "apt" || c.name == "apt-get" || c.name == "aptitude" || c.name == "dpkg") {
					return true, n
				}
			}
			if hasWord(args, "--nodeps") && (c.name == "rpm") || (hasWord(args, "--force-all") || hasWord(args, "--force-depends") || hasWord(args, "--force-remove-essential")) && c.name == "dpkg" {
				return true, "forced removal"
			}
			return false, ""
		}},
	{ID: "endpoint-protection-off", Level: LevelCritical, Category: CategorySystem, Description: "switching off the machine's malware protection (Defender for Endpoint, SentinelOne)",
		Suggestions: []string{"Add an exclusion for the project's folder through the security team", "Leave real-time protection on"}, names: names("mdatp", "sentinelctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if c.name == "sentinelctl" {
				return len(ops) > 0 && (ops[0].s == "unload" || ops[0].s == "unprotect"), "sentinelctl " + joinWords(ops[:min(1, len(ops))])
			}
			// mdatp exclusion folder add --path /: the whole disk unscanned
			if len(ops) > 2 && ops[0].s == "exclusion" && (ops[1].s == "folder" || ops[1].s == "process") && ops[2].s == "add" {
				if v, ok := optValue(args, "", "path", "name"); ok && (v == "/" || v == "/home" || v == "/usr" || v == "/tmp" || v == "/etc" || v == "~" || v == "*" || v == "/usr/bin" || v == "/bin") {
					return true, "mdatp exclusion " + ops[1].s + " add " + v
				}
			}
			// mdatp config real-time-protection --value disabled
			if len(ops) > 1 && ops[0].s == "config" && (ops[1].s == "real-time-protection" || ops[1].s == "behavior-monitoring" || ops[1].s == "network-protection" ||
				ops[1].s == "cloud-delivered-protection" || ops[1].s == "tamper-protection") {
				if v, ok := optValue(args, "", "value"); ok && (v == "disabled" || v == "disable" || v == "audit") {
					return true, "mdatp config " + ops[1].s + " " + v
				}
			}
			return false, ""
		}},
	{ID: "browser-protections-off", Level: LevelHigh, Category: CategorySystem, Description: "starting a browser or editor with its protections off: certificate errors ignored, the same-origin policy off, an unpacked extension from a download, workspace trust off",
		Suggestions: []string{"Use a separate, throwaway browser profile for testing, and keep its checks on", "Trust the one folder you reviewed"},
		names: names("google-chrome", "google-chrome-stable", "chromium", "chromium-browser", "chrome", "chrome.exe", "msedge", "msedge.exe", "brave", "brave-browser",
			"code", "code-insiders", "cursor", "codium"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if v, ok := optValue(c.args(), "", "user-data-dir"); ok {
				// a throwaway profile made for the test: no cookies,
				// logins or extensions of the user's behind it
				if p := a.absPath(strings.Trim(v, `"'`), c.cwd); p != "" && (underTemp(p) || a.inWork(p)) || strings.Contains(v, "mktemp") || strings.Contains(lower(v), "temp") {
					return false, ""
				}
			}
			for _, w := range c.args() {
				l := lower(w.s)
				switch {
				case l == "--ignore-certificate-errors" || l == "--disable-web-security" || l == "--disable-workspace-trust":
					return true, c.base + " " + w.s
				case strings.HasPrefix(l, "--load-extension="):
					for _, p := range strings.Split(w.s[len("--load-extension="):], ",") {
						if ap := a.absPath(strings.Trim(p, `"'`), c.cwd); ap != "" && !a.inWork(ap) && (strings.Contains(lower(ap), "/downloads/") || strings.Contains(lower(ap), `\downloads\`) || underTemp(ap)) {
							return true, c.base + " " + w.s
						}
						if l := lower(p); strings.Contains(l, `\downloads\`) || strings.Contains(l, "/downloads/") {
							return true, c.base + " " + w.s
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "security-module-off", Level: LevelHigh, Category: CategorySystem, Description: "disabling AppArmor, SELinux, Gatekeeper or System Integrity Protection",
		Suggestions: []string{"Fix the profile that blocks the program", "Put one profile in complain mode after review"},
		names:       names("aa-disable", "aa-teardown", "aa-complain", "setenforce", "apparmor_parser", "spctl", "csrutil", "mokutil", "semanage", "setsebool", "chcon"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "semanage":
				// semanage permissive -a httpd_t: a confined domain let do
				// anything (logged, not stopped)
				ops := c.operands()
				return len(ops) > 0 && ops[0].s == "permissive" && (hasWord(args, "-a") || hasWord(args, "--add")), "SELinux domain made permissive"
			case "setsebool":
				// setsebool -P httpd_execmem on: a protection given up for good
				if !hasWord(args, "-P") {
					return false, ""
				}
				for i, w := range args {
					if riskyBooleans[w.s] && (i+1 >= len(args) || !falseWord(lower(args[i+1].s))) || strings.HasSuffix(w.s, "=1") && riskyBooleans[strings.TrimSuffix(w.s, "=1")] {
						return true, "setsebool -P " + w.s
					}
				}
				return false, ""
			case "chcon":
				// chcon -t unconfined_exec_t: programs run outside SELinux
				for _, w := range args {
					if strings.Contains(w.s, "unconfined_exec_t") || strings.Contains(w.s, "unconfined_t") {
						return true, "chcon " + w.s
					}
				}
				return false, ""
			case "spctl":
				// Gatekeeper: unsigned downloads run unchecked; kernel
				// extensions load without the user's consent
				if hasWord(args, "--add") {
					// spctl --add ~/Downloads/X.app: Gatekeeper told to let a
					// downloaded program run unchecked
					for _, w := range c.operands() {
						if a.inDownloads(a.absPath(w.s, c.cwd)) || a.isDownloaded(w.s, c.cwd) {
							return true, "Gatekeeper exception for " + w.s
						}
					}
				}
				return hasWord(args, "--master-disable") || hasWord(args, "--global-disable") ||
					len(args) > 1 && args[0].s == "kext-consent" && args[1].s == "disable", "Gatekeeper off"
			case "mokutil":
				// Secure Boot stops checking what the machine boots
				return hasWord(args, "--disable-validation"), "Secure Boot validation off"
			case "csrutil":
				// csrutil disable, and csrutil authenticated-root disable
				// (the sealed system volume may then be changed)
				return len(args) > 0 && args[0].s == "disable" || len(args) > 1 && args[0].s == "authenticated-root" && args[1].s == "disable",
					"System Integrity Protection off"
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
	{ID: "boot-security-off", Level: LevelHigh, Category: CategorySystem, Description: "booting with security switched off (SELinux, AppArmor, lockdown, module signatures, exploit mitigations) or into a root shell",
		Suggestions: []string{"Leave the kernel command line as it is", "Fix the policy that gets in the way instead"}, names: names("grubby", "kernelstub", "grub-editenv", "grub2-editenv"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				for _, f := range strings.Fields(strings.Trim(w.s, `"'`)) {
					// (grub-editenv - set kernelopts="... init=/bin/bash")
					f = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(f, "--args="), "--add-options="), "kernelopts=")
					switch f {
					case "selinux=0", "enforcing=0", "apparmor=0", "security=none", "lockdown=none", "module.sig_enforce=0", "mitigations=off",
						"nokaslr", "init=/bin/bash", "init=/bin/sh", "rd.break", "single":
						return true, f
					}
				}
			}
			return false, ""
		}},
	{ID: "traffic-redirected", Level: LevelHigh, Category: CategorySystem, Description: "sending the machine's traffic through an address on the internet (a default route, a web proxy)",
		Suggestions: []string{"Leave the network settings to the user"}, names: names("ip", "route", "networksetup", "set"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "set":
				// fish's set -U HTTPS_PROXY URL: every later session's web
				// traffic through that proxy
				if !hasWord(args, "-U") && !hasWord(args, "-Ux") && !hasWord(args, "-xU") && !hasWord(args, "--universal") {
					return false, ""
				}
				ops := c.operands()
				if len(ops) < 2 {
					return false, ""
				}
				if up := strings.ToUpper(ops[0].s); up == "HTTP_PROXY" || up == "HTTPS_PROXY" || up == "ALL_PROXY" {
					if h := hostOf(ops[1].s); h != "" && !isLocalHost(h) && !localOnlyName(h) && !strings.HasSuffix(h, ".internal") {
						return true, ops[0].s + " " + ops[1].s
					}
				}
			case "ip", "route":
				// ip route add|replace default via PUBLIC
				j := joinWords(args)
				if !strings.Contains(j, "default") {
					return false, ""
				}
				for i, w := range args {
					if (w.s == "via" || w.s == "gw") && i+1 < len(args) && isPublicIP(args[i+1].s) {
						return true, "default route via " + args[i+1].s
					}
				}
			case "networksetup":
				// -setwebproxy SERVICE HOST PORT and its HTTPS and SOCKS kin
				for i, w := range args {
					l := lower(w.s)
					if (l == "-setwebproxy" || l == "-setsecurewebproxy" || l == "-setsocksfirewallproxy") && i+2 < len(args) && isPublicIP(args[i+2].s) {
						return true, w.s + " " + args[i+2].s
					}
					// -setautoproxyurl SERVICE URL: a proxy script from a
					// site outside the organisation decides where every
					// request goes
					if l == "-setautoproxyurl" && i+2 < len(args) {
						if h := lower(hostOf(args[i+2].s)); h != "" && !isLocalHost(h) && !internalHost(h) && !localOnlyName(h) {
							return true, w.s + " " + args[i+2].s
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "alternative-untrusted", Level: LevelHigh, Category: CategorySystem, Description: "making a system command name run a program from a temporary or hidden place",
		Suggestions: []string{"Install the program properly before making it an alternative"}, names: names("update-alternatives", "alternatives"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				if strings.HasPrefix(w.s, "/") && untrustedPlace(w.s) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "monitoring-silenced", Level: LevelHigh, Category: CategorySystem, Description: "silencing every alert or monitor (outages and intrusions then page nobody)",
		Suggestions: []string{"Silence the one alert you are working on, for a short time", "Use a maintenance window scoped to one service"},
		names:       names("amtool", "curl", "http", "https", "xh", "wget", "kubectl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "kubectl" {
				// kubectl -n monitoring scale deploy prometheus-server
				// --replicas=0: the watchers stopped (a local cluster's
				// are the developer's)
				ops := posArgs(args, kubectlGlobal)
				if len(ops) >= 2 && ops[0].s == "delete" && !localKubeContext(args) && !hasPrefixWord(args, "--dry-run") {
					// kubectl -n falco delete daemonset falco: the watcher
					// removed from every node
					kind, name, _ := strings.Cut(lower(ops[1].s), "/")
					switch kind {
					case "daemonset", "daemonsets", "ds", "deployment", "deployments", "deploy", "namespace", "namespaces", "ns":
						for _, v := range append([]string{name}, wordStrings(ops[2:])...) {
							if v != "" && (securityAgent(v) || monitoringName(v)) {
								return true, "kubectl delete " + kind + " " + v
							}
						}
					}
				}
				if len(ops) < 2 || ops[0].s != "scale" || !hasWord(args, "--replicas=0") && !(hasWord(args, "--replicas") && hasWord(args, "0")) || localKubeContext(args) {
					return false, ""
				}
				ns, _ := optValue(args, "-n", "namespace")
				for _, v := range append([]string{ns}, wordStrings(ops[1:])...) {
					if monitoringName(v) {
						return true, "kubectl scale " + v + " to 0"
					}
				}
				return false, ""
			}
			if c.name == "amtool" {
				// a matcher every alert matches
				ops := c.operands()
				if len(ops) < 2 || ops[0].s != "silence" || ops[1].s != "add" {
					return false, ""
				}
				// (or matchers that name no alert, instance or service:
				// severity=critical silences every critical page)
				specific := false
				for _, w := range ops[2:] {
					k, v, ok := strings.Cut(w.s, "=~")
					if ok && (strings.Trim(v, `"'`) == ".+" || strings.Trim(v, `"'`) == ".*") {
						return true, "amtool silence add " + w.s
					}
					if !ok {
						k, _, ok = strings.Cut(w.s, "=")
					}
					switch strings.TrimSuffix(strings.TrimSpace(k), "!") {
					case "severity", "env", "environment", "cluster", "team", "priority", "region":
					default:
						specific = specific || ok
					}
				}
				if !specific && len(ops) > 2 {
					return true, "amtool silence add " + joinWords(ops[2:])
				}
				return false, ""
			}
			if m := httpMethod(c); m != "POST" && m != "PUT" && !hasWord(args, "-d") && !hasWord(args, "--data") && !hasPrefixWord(args, "--data") {
				return false, "" // a read of the monitors or windows
			}
			for _, w := range args {
				// Datadog's mute-everything and bulk-mute endpoints,
				// PagerDuty's and Opsgenie's maintenance windows
				if !strings.Contains(w.s, "://") {
					continue
				}
				l := lower(w.s)
				if strings.Contains(l, "/monitor/mute_all") || strings.Contains(l, "/monitor/bulk_mute") ||
					strings.Contains(l, "pagerduty.com/maintenance_windows") || strings.Contains(l, "opsgenie.com/v1/maintenance") ||
					strings.Contains(l, "/api/v1/downtime") && strings.Contains(l, "datadoghq") {
					if d, ok := windowLength(a.src); ok && d <= 4*time.Hour {
						return false, "" // a window of a few hours for planned work
					}
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "init-script-stop", Level: LevelHigh, Category: CategorySystem, Description: "stopping a system service through its init script",
		Suggestions: []string{"Restart the service instead of stopping it", "Stop only the service you started for the task"},
		match: func(a *analysis, c *cmd) (bool, string) {
			// /etc/init.d/nginx stop: service nginx stop, spelled as the
			// script it runs
			if len(c.words) < 2 || !strings.HasPrefix(c.words[0].s, "/etc/") || !strings.Contains(c.words[0].s, "init.d/") && !strings.HasPrefix(c.words[0].s, "/etc/rc.d/") {
				return false, ""
			}
			switch c.words[1].s {
			case "stop", "force-stop", "disable":
				return true, c.words[0].s + " " + c.words[1].s
			}
			return false, ""
		}},
	{ID: "service-stop", Level: LevelHigh, Category: CategorySystem, Description: "stopping or disabling a system service",
		Suggestions: []string{"Restart the service instead of stopping it", "Stop only the service you started for the task"},
		names:       names("systemctl", "service", "rc-service", "launchctl", "sv", "profiles", "nginx", "apachectl", "apache2ctl", "httpd", "pg_ctl", "pg_ctlcluster", "rabbitmqctl", "gitlab-runner"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if hasWord(args, "--user") {
				return false, ""
			}
			ops := c.operands()
			switch c.name {
			case "nginx", "httpd":
				// nginx -s stop, httpd -k stop: the web server this
				// machine serves with, shut down (reload keeps serving)
				if v, ok := optValue(args, "-s", ""); ok && c.name == "nginx" && (v == "stop" || v == "quit") {
					return true, "nginx -s " + v
				}
				if v, ok := optValue(args, "-k", ""); ok && c.name == "httpd" && (v == "stop" || v == "graceful-stop") {
					return true, "httpd -k " + v
				}
			case "apachectl", "apache2ctl":
				if len(ops) > 0 && (ops[0].s == "stop" || ops[0].s == "graceful-stop") {
					return true, c.name + " " + ops[0].s
				}
			case "pg_ctl", "pg_ctlcluster":
				// pg_ctl -D /opt/homebrew/var/postgresql@16 stop: a
				// database server outside the project (one the line
				// started in a scratch folder is the task's own)
				if !hasAnyWord(c.lowerArgs(), "stop", "kill", "restart") {
					return false, ""
				}
				if c.name == "pg_ctlcluster" {
					return true, "pg_ctlcluster " + joinWords(ops)
				}
				d, ok := optValue(args, "-D", "pgdata")
				if !ok {
					return c.asRoot, "pg_ctl stop of the server's data directory"
				}
				if p := a.absPath(d, c.cwd); p != "" && !a.inWork(p) && !strings.HasPrefix(p, "/tmp/") && !testName(lower(p)) {
					if _, _, home := a.homeRel(p); !home {
						return true, "pg_ctl stop of " + d
					}
				}
			case "gitlab-runner":
				// the machine's CI runner: every pipeline queued for it waits
				if len(ops) > 0 && (ops[0].s == "stop" || ops[0].s == "uninstall") {
					return true, "gitlab-runner " + ops[0].s
				}
			case "rabbitmqctl":
				// rabbitmqctl stop_app, reset: the broker every producer
				// and consumer of this machine uses
				if len(ops) > 0 && (ops[0].s == "stop_app" || ops[0].s == "stop" || ops[0].s == "reset" || ops[0].s == "force_reset" || ops[0].s == "shutdown") {
					if n, ok := optValue(args, "-n", "node"); !ok || !strings.Contains(n, "@localhost") {
						return true, "rabbitmqctl " + ops[0].s
					}
				}
			case "systemctl":
				// -H user@host: the same on another machine, over ssh
				ops = posArgs(args, optSpec{short: "HMtpnos", long: []string{"host", "machine", "type", "property", "lines", "output", "signal", "kill-whom", "root", "state", "job-mode"}})
				if len(ops) >= 2 && (ops[0].s == "stop" || ops[0].s == "disable" || ops[0].s == "mask" || ops[0].s == "kill") {
					return true, ops[1].s
				}
				if h, ok := optValue(args, "-H", "host"); ok && isProdName(h) && len(ops) >= 2 && (ops[0].s == "restart" || ops[0].s == "try-restart" || ops[0].s == "reload-or-restart") {
					return true, ops[0].s + " " + ops[1].s + " on " + h
				}
				// ssh deploy@prod-web-01 'sudo systemctl restart nginx': a
				// production server's service interrupted by hand (this
				// machine's own services restart for the developer)
				if len(ops) >= 2 && (ops[0].s == "restart" || ops[0].s == "try-restart" || ops[0].s == "reload-or-restart") && c.remote && a.prodTarget > 0 {
					return true, ops[0].s + " " + ops[1].s + " on a production machine"
				}
			case "service", "rc-service", "sv":
				if len(ops) >= 2 && (ops[1].s == "stop" || ops[0].s == "stop" || ops[1].s == "disable") {
					return true, ops[0].s
				}
			case "launchctl":
				if len(ops) >= 2 && (ops[0].s == "bootout" || ops[0].s == "unload" || ops[0].s == "disable") && (strings.Contains(joinWords(ops), "system") || strings.HasPrefix(ops[len(ops)-1].s, "/Library/LaunchDaemons") ||
					strings.HasPrefix(ops[len(ops)-1].s, "/Library/LaunchAgents") || strings.HasPrefix(ops[len(ops)-1].s, "/System/")) {
					return true, ops[len(ops)-1].s
				}
				// launchctl kickstart -k system/com.openssh.sshd: a system
				// daemon killed and started again (a gui/ job is the user's)
				if len(ops) >= 2 && ops[0].s == "kickstart" && strings.HasPrefix(ops[len(ops)-1].s, "system/") && (hasWord(args, "-k") || hasBundledFlag(args, 'k')) {
					return true, ops[len(ops)-1].s
				}
				// launchctl remove com.apple.X: one of the system's own jobs
				if len(ops) >= 2 && (ops[0].s == "remove" || ops[0].s == "kill") && strings.HasPrefix(ops[len(ops)-1].s, "com.apple.") {
					return true, ops[len(ops)-1].s
				}
			case "profiles":
				// removing the configuration profiles that enrol the Mac in
				// its organisation's management
				if len(ops) >= 1 && (ops[0].s == "remove" || ops[0].s == "-R") && (hasWord(args, "-all") || hasWord(args, "-forced") || hasWord(args, "-identifier")) {
					return true, "profiles remove"
				}
			}
			return false, ""
		}},
	{ID: "shared-services-stopped", Level: LevelHigh, Category: CategorySystem, Description: "stopping every program a supervisor runs, draining a node from service discovery, restarting every deployment of a shared namespace, or taking down a compose stack that lives outside the project",
		Suggestions: []string{"Stop only the program you started for the task", "Ask the stack's owner before taking it down"},
		names:       names("supervisorctl", "consul", "docker", "docker-compose", "podman-compose", "kubectl", "tc", "pm2", "iptables", "ip6tables"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "iptables" || c.name == "ip6tables" {
				// iptables -I OUTPUT -p tcp --dport 5432 -j DROP: every
				// connection to or from a database's or broker's port cut
				low := c.lowerArgs()
				if !hasAnyWord(low, "-a", "-i", "--append", "--insert") || !hasAnyWord(low, "drop", "reject") {
					return false, ""
				}
				for _, o := range [...]string{"dport", "sport"} {
					if p, ok := optValue(args, "", o); ok && servicePort[p] && p != "22" && p != "80" && p != "443" {
						if s, ok := optValue(args, "-s", "source"); ok && !strings.HasPrefix(s, "0.0.0.0") {
							return false, "" // one address kept out
						}
						if d, ok := optValue(args, "-d", "destination"); ok && !strings.HasPrefix(d, "0.0.0.0") {
							return false, ""
						}
						return true, c.name + " dropping port " + p
					}
				}
				return false, ""
			}
			ops := c.operands()
			switch c.name {
			case "pm2":
				// pm2 kill, pm2 stop all: every app the daemon runs, not
				// only this project's
				if len(ops) > 0 && (ops[0].s == "kill" || len(ops) > 1 && (ops[0].s == "stop" || ops[0].s == "delete" || ops[0].s == "del") && ops[1].s == "all") {
					return true, "pm2 " + joinWords(ops)
				}
				return false, ""
			case "tc":
				// tc qdisc ... netem loss 100%: every packet of the
				// interface dropped
				if hasWord(args, "netem") && (hasWord(args, "100%") || hasWord(args, "100")) && hasWord(args, "loss") && !hasWord(args, "lo") {
					return true, "tc netem loss 100%"
				}
				return false, ""
			case "kubectl":
				// kubectl scale deploy X -n gatekeeper-system --replicas=0:
				// a component the whole cluster relies on, stopped
				if ops := posArgs(args, kubectlGlobal); len(ops) > 0 && ops[0].s == "scale" && (hasWord(args, "--replicas=0") || hasWord(args, "--replicas") && hasWord(args, "0")) {
					if ns, _ := optValue(args, "-n", "namespace"); systemNamespaces[ns] && ns != "default" {
						return true, "a system component of " + ns + " scaled to zero"
					}
				}
				// kubectl rollout restart deployment -n shared-services:
				// every deployment of a namespace others use, at once
				if !touchesProduction(c) && !sharedTarget(args) {
					return false, ""
				}
				ops = posArgs(args, kubectlGlobal)
				if len(ops) == 3 && ops[0].s == "rollout" && ops[1].s == "restart" && (ops[2].s == "deployment" || ops[2].s == "deployments" || ops[2].s == "deploy" || ops[2].s == "statefulset" || ops[2].s == "daemonset") {
					return true, "every " + ops[2].s + " restarted"
				}
				if touchesProduction(c) && len(ops) >= 3 && ops[0].s == "delete" && (ops[1].s == "pod" || ops[1].s == "pods" || ops[1].s == "po") &&
					(hasWord(args, "--force") || hasWord(args, "--grace-period=0") || hasWord(args, "--now")) {
					// kubectl delete pod X -n prod --grace-period=0 --force:
					// killed mid-request, with no shutdown
					return true, "a production pod killed without its shutdown"
				}
			case "supervisorctl":
				// supervisorctl stop all, shutdown: every managed program
				if len(ops) > 0 && (ops[0].s == "shutdown" || len(ops) > 1 && (ops[0].s == "stop" || ops[0].s == "remove") && ops[1].s == "all") {
					return true, "supervisorctl " + joinWords(ops)
				}
			case "consul":
				// consul maint -enable: the node's services leave
				// discovery (an agent of this machine's own dev cluster
				// is the developer's)
				if len(ops) > 0 && ops[0].s == "maint" && (hasWord(args, "-enable") || hasWord(args, "--enable")) {
					if addr, ok := a.optOrEnv(c, "http-addr", "CONSUL_HTTP_ADDR"); ok && isLocalHost(hostOf(addr)) {
						return false, ""
					}
					return true, "consul maint -enable"
				}
			default:
				// docker compose -f /srv/shared/infra/compose.yml down:
				// a stack someone else runs on this machine
				sub := ""
				if c.name == "docker" {
					sub, _ = dockerSub(c)
				} else if len(ops) > 0 {
					sub = "compose " + ops[len(ops)-1].s
				}
				if sub != "compose down" && sub != "compose stop" && sub != "compose kill" && sub != "compose rm" {
					return false, ""
				}
				if p, ok := optValue(args, "-p", "project-name"); ok && sharedTarget([]word{lit(p)}) || ok && strings.Contains(lower(p), "infra") {
					return true, c.base + " " + sub + " of the project " + p // docker compose -p shared-infra down
				}
				f, ok := optValue(args, "-f", "file")
				if !ok || !knownFilePath(f) {
					return false, ""
				}
				if p := a.absPath(f, c.cwd); p != "" && !a.inWork(p) && !strings.HasPrefix(p, "/tmp/") {
					if _, _, home := a.homeRel(p); !home {
						return true, c.base + " " + sub + " of " + f
					}
				}
			}
			return false, ""
		}},
	{ID: "user-delete", Level: LevelHigh, Category: CategorySystem, Description: "deleting a user account (and its files)",
		Suggestions: []string{"Lock the account instead (usermod -L)", "Let an administrator remove accounts"}, names: names("userdel", "deluser", "dscl", "sysadminctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := c.argsText()
			switch c.name {
			case "dscl":
				return strings.Contains(j, "-delete /Users/"), j
			case "sysadminctl":
				return strings.Contains(j, "-deleteUser"), j
			}
			return len(c.operands()) > 0, j
		}},
	{ID: "production-host-crippled", Level: LevelHigh, Category: CategorySystem, Description: "removing a production server's packages or dropping the traffic it serves, on that server",
		Suggestions: []string{"Change production servers through their configuration management", "Try it on a staging server first"},
		match: func(a *analysis, c *cmd) (bool, string) {
			// ssh root@sbc1.prod.example.com 'iptables -I INPUT -p udp
			// --dport 5060 -j DROP', ssh root@pbx01.prod 'yum -y remove
			// asterisk*': run on a host that names production
			if !c.remote || !touchesProduction(c) && a.prodTarget == 0 || c.dryRun {
				return false, ""
			}
			low := c.lowerArgs()
			switch c.name {
			case "iptables", "ip6tables":
				// a chain's traffic dropped (one source address blocked
				// is an answer to an attack)
				if (hasWord(c.args(), "-I") || hasWord(c.args(), "-A")) && (hasWord(c.args(), "DROP") || hasWord(c.args(), "REJECT")) &&
					!hasWord(c.args(), "-s") && !hasWord(c.args(), "--source") {
					return true, c.name + " " + joinWords(c.args())
				}
			case "rpm":
				if hasWord(c.args(), "-e") || hasWord(c.args(), "--erase") {
					return true, "rpm " + joinWords(c.args())
				}
			case "yum", "dnf", "apt-get", "apt", "zypper", "apk":
				ops := plainWords(low)
				if len(ops) > 1 && (ops[0] == "remove" || ops[0] == "purge" || ops[0] == "erase" || ops[0] == "del") && !hasWord(c.args(), "--assumeno") {
					return true, c.name + " " + strings.Join(ops, " ")
				}
			default:
				// kamctl stop, opensips-cli -x mi kill, a server's own
				// control program told to stop it
				if ops := plainWords(low); len(ops) > 0 && len(ops) <= 3 && ctlName(c.name) && (ops[len(ops)-1] == "stop" || ops[len(ops)-1] == "shutdown" || ops[len(ops)-1] == "kill" || ops[len(ops)-1] == "halt") {
					return true, c.name + " " + strings.Join(ops, " ")
				}
			}
			return false, ""
		}},
}

// ctlName reports a server's control program by its name (kamctl,
// opensips-cli, rabbitmqctl, asadmin).
func ctlName(n string) bool {
	return strings.HasSuffix(n, "ctl") || strings.HasSuffix(n, "-cli") || strings.HasSuffix(n, "admin") || strings.HasSuffix(n, "adm")
}

// nodeTLSOff is Node's certificate check turned off in a session
// (export, set, $env:).
var nodeTLSOff = regexp.MustCompile(`node_tls_reject_unauthorized\s*=\s*['"]?0`)

// installVerb reports a package manager told to fetch and install or
// publish (npm install, yarn add, pnpm i, npm run publish:x).
func installVerb(c *cmd) bool {
	for i, w := range c.args() {
		if i > 2 {
			break
		}
		switch w.s {
		case "install", "i", "ci", "add", "update", "upgrade", "publish", "restore", "fetch", "get":
			return true
		}
		if strings.HasPrefix(w.s, "publish") {
			return true
		}
	}
	return hasWord(c.args(), "run") && strings.Contains(c.argsText(), "publish")
}

// tlsOffRules judge one command that turns a certificate or host key
// check off while it sends credentials or code to another machine: git
// pushing with http.sslVerify=false, a cluster login or a chart
// repository added with --insecure-skip-tls-verify, ssh trusting any host
// key, Vault's client told to skip verification before a login, curl -k
// with a token. Against this machine, a local cluster or a test VM the
// check guards nothing.
var tlsOffRules = []*rule{
	{ID: "tls-off-with-credentials", Level: LevelHigh, Category: CategorySystem, Description: "turning a certificate or host-key check off while sending credentials or code to another machine (anyone in the path can read or change them)",
		Suggestions: []string{"Give the tool the server's CA or host key", "Fix the server's certificate instead of the check"},
		names:       names("git", "helm", "oc", "kubectl", "ssh", "scp", "sftp", "vault", "curl", "invoke-restmethod", "invoke-webrequest", "argocd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			low := c.lowerArgs()
			target := ""
			switch c.name {
			case "invoke-restmethod", "invoke-webrequest":
				// -SkipCertificateCheck with a token, credentials or a body
				w := wargs(c)
				if !hasSw(w, "skipcertificatecheck") || !hasSw(w, "headers") && !hasSw(w, "credential") && !hasSw(w, "token") && !hasSw(w, "authentication") && !hasSw(w, "body") {
					return false, ""
				}
				target = firstURLHost(args)
			case "argocd":
				// argocd login HOST --insecure: the password sent unchecked
				if ops := c.operands(); len(ops) < 2 || ops[0].s != "login" || !hasWord(args, "--insecure") {
					return false, ""
				} else {
					target = hostOf("https://" + ops[1].s)
				}
			case "git":
				sub, sargs := gitSub(c)
				if !hasAnyWord(low, "http.sslverify=false", "http.sslverify=0") || (sub != "push" && sub != "clone" && sub != "fetch" && sub != "pull" && sub != "ls-remote") {
					return false, ""
				}
				for _, w := range positional(sargs) {
					if strings.Contains(w.s, "://") {
						target = hostOf(w.s)
					}
				}
				if target == "" {
					target = "origin"
				}
			case "helm", "oc", "kubectl":
				if !hasAnyWord(low, "--insecure-skip-tls-verify", "--insecure-skip-tls-verify=true") {
					return false, ""
				}
				ops := c.operands()
				if c.name == "helm" && len(ops) >= 3 && ops[0].s == "push" {
					// helm push CHART oci://registry: the registry's
					// login and the chart sent unchecked
					target = hostOf(ops[2].s)
				} else if c.name == "helm" && (len(ops) < 3 || ops[0].s != "repo" || ops[1].s != "add") {
					return false, ""
				} else if c.name == "helm" {
					target = hostOf(ops[2].s)
				} else {
					target = firstURLHost(args)
					if target == "" {
						if v, ok := optValue(args, "", "server"); ok {
							target = hostOf(v)
						}
					}
					if target == "" && touchesProduction(c) {
						target = "production"
					}
				}
			case "ssh", "scp", "sftp":
				j := strings.Join(low, " ")
				if !strings.Contains(j, "stricthostkeychecking=no") || !strings.Contains(j, "userknownhostsfile=/dev/null") {
					return false, ""
				}
				for _, w := range posArgs(args, optSpec{short: "bcDEeFIiJLlmOoPpQRSWw"}) {
					h := w.s
					if i := strings.IndexByte(h, '@'); i >= 0 {
						h = h[i+1:]
					}
					if i := strings.IndexByte(h, ':'); i >= 0 {
						h = h[:i]
					}
					target = h
					break
				}
			case "vault":
				ops := c.operands()
				if len(ops) == 0 || ops[0].s != "login" || !(a.srcHas("VAULT_SKIP_VERIFY=true") || a.srcHas("VAULT_SKIP_VERIFY=1")) {
					return false, ""
				}
				target = "the Vault server"
			case "curl":
				if !hasAnyWord(low, "-k", "--insecure") || !hasAny(strings.Join(low, " "), "authorization:", "private-token:", "x-api-key:") {
					return false, ""
				}
				target = firstURLHost(args)
			}
			if target == "" || thisMachine(target) || testName(lower(target)) || hasAny(lower(target), "kind", "minikube", "localstack", ".test") {
				return false, "" // (a private address or a .local name is another machine)
			}
			return true, c.name + " with the check off, to " + target
		}},
	{ID: "download-tls-off", Level: LevelHigh, Category: CategorySystem, Description: "downloading a file or fetching code from another machine with its certificate unchecked (anyone in the path can swap what arrives)",
		Suggestions: []string{"Give the tool the server's CA (--cacert, --ca-certificate, a CA bundle)", "Fix the server's certificate instead of the check"},
		names:       names("curl", "wget", "aria2c", "invoke-webrequest", "invoke-restmethod", "svn", "deno", "ansible-galaxy", "helm", "skopeo", "podman", "buildah", "docker"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			target, what := "", ""
			switch c.name {
			case "skopeo", "podman", "buildah", "docker": // (podman is read as docker)
				// skopeo copy --src-tls-verify=false docker://HOST/...: an
				// image pulled without its registry's certificate checked
				for _, l := range c.lowerArgs() {
					if l == "--src-tls-verify=false" || l == "--tls-verify=false" {
						what = l
					}
				}
				for _, w := range c.operands() {
					if h, ok := strings.CutPrefix(w.s, "docker://"); ok {
						target = h[:strings.IndexAny(h+"/", "/")]
						break
					}
					if c.name != "skopeo" && strings.Contains(w.s, "/") && strings.ContainsAny(strings.Split(w.s, "/")[0], ".:") {
						target = strings.Split(w.s, "/")[0] // podman pull HOST:5000/app
						break
					}
				}
				if i := strings.LastIndexByte(target, ':'); i > 0 {
					target = target[:i]
				}
			case "curl":
				// curl -k -o tool.zip https://...: saved to be used later
				// (a page printed to the terminal is only read)
				if !hasAnyWord(c.lowerArgs(), "-k", "--insecure") && !hasBundledFlag(args, 'k') || !a.savesFile(c) {
					return false, ""
				}
				target, what = firstURLHost(args), "curl -k"
			case "wget":
				if !hasWord(args, "--no-check-certificate") || hasWord(args, "--spider") {
					return false, ""
				}
				target, what = firstURLHost(args), "wget --no-check-certificate"
			case "aria2c":
				if !hasWord(args, "--check-certificate=false") {
					return false, ""
				}
				target, what = firstURLHost(args), "aria2c --check-certificate=false"
			case "invoke-webrequest", "invoke-restmethod":
				// iwr ... -OutFile setup.msi -SkipCertificateCheck
				w := wargs(c)
				if !hasSw(w, "skipcertificatecheck") || !hasSw(w, "outfile") {
					return false, ""
				}
				target, what = firstURLHost(args), "-SkipCertificateCheck"
			case "svn":
				// svn checkout --trust-server-cert-failures=unknown-ca,...
				for _, l := range c.lowerArgs() {
					if l == "--trust-server-cert" || strings.HasPrefix(l, "--trust-server-cert-failures") {
						what = l
					}
				}
				target = firstURLHost(args)
			case "deno":
				// --unsafely-ignore-certificate-errors (=host,... names
				// the hosts; a bare flag is every host)
				if hasWord(args, "--unsafely-ignore-certificate-errors") {
					target, what = "every host", "--unsafely-ignore-certificate-errors"
				}
			case "ansible-galaxy":
				if hasAnyWord(c.lowerArgs(), "--ignore-certs", "-c") && hasWord(args, "install") {
					target, what = "the Galaxy server", "--ignore-certs"
				}
			case "helm":
				// helm upgrade ... --kube-insecure-skip-tls-verify: the
				// cluster that receives the release and its secrets
				if hasAnyWord(c.lowerArgs(), "--kube-insecure-skip-tls-verify", "--kube-insecure-skip-tls-verify=true") {
					target, what = "the cluster", "--kube-insecure-skip-tls-verify"
					if touchesProduction(c) {
						target = "production"
					}
				}
			}
			if what == "" || target == "" || thisMachine(target) || testName(lower(target)) || hasAny(lower(target), "kind", "minikube", "localstack", ".test") {
				return false, ""
			}
			return true, what + ", from " + target
		}},
}

// thisMachine reports a host that is this machine itself (localhost, a
// loopback address, Docker's name for the host): a certificate check
// against it guards nothing. A private address is another machine.
func thisMachine(h string) bool {
	h = strings.ToLower(h)
	return loopback(h) || strings.HasSuffix(h, ".localhost") || h == "host.docker.internal"
}

// savesFile reports a command that writes what it fetches into a file
// (curl -o F, -O, -kfsSLo F, > F), the null device aside.
func (a *analysis) savesFile(c *cmd) bool {
	for _, t := range a.writeTargets(c) {
		if t.path != "/dev/null" {
			return true
		}
	}
	return false
}

// firstURLHost returns the host of the first URL among args, or "".
func firstURLHost(args []word) string {
	for _, w := range args {
		if i := strings.Index(w.s, "://"); i > 0 {
			return hostOf(w.s[strings.LastIndex(w.s[:i], "=")+1:])
		}
	}
	return ""
}

// sharedHostRules judge what cuts a shared machine's users off from
// what they rely on: a mount taken from under them, a shared database's
// port emptied, the daily maintenance jobs switched off, a team's data
// taken over, quotas lifted or clamped, every ban lifted, the team's CI
// runner unregistered.
var sharedHostRules = []*rule{
	{ID: "cluster-member-removed", Level: LevelHigh, Category: CategorySystem, Description: "removing a server from a shared cluster's consensus, or making a remote server leave (a lost quorum stops the cluster)",
		Suggestions: []string{"Let the cluster's operators change its membership", "Check the cluster's health (operator raft list-peers) and ask first"},
		names:       names("consul", "nomad", "vault"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if a.hashiLocalServer(c) {
				return false, "" // a development server on this machine
			}
			// consul|nomad|vault operator raft remove-peer
			if len(ops) > 2 && ops[0].s == "operator" && ops[1].s == "raft" && ops[2].s == "remove-peer" {
				return true, c.name + " operator raft remove-peer"
			}
			// consul leave -http-addr=REMOTE: that server made to leave
			if c.name == "consul" && len(ops) > 0 && ops[0].s == "leave" && a.hashiRemoteServer(c) {
				return true, "consul leave on another server"
			}
			return false, ""
		}},
	{ID: "shared-host-disrupted", Level: LevelHigh, Category: CategorySystem, Description: "cutting a shared machine's users off from what they rely on (a shared mount, a database's port, maintenance jobs, their data, their quota, a CI runner)",
		Suggestions: []string{"Change only what the project owns", "Ask the machine's administrator"},
		names:       names("umount", "fuser", "chmod", "chown", "quotaoff", "setquota", "edquota", "gitlab-runner", "fail2ban-client"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			o := c.opts()
			outside := func(w word) (string, bool) {
				p := a.absPath(w.s, c.cwd)
				if p == "" || a.inWork(p) || strings.HasPrefix(p, "/tmp/") || p == "/tmp" {
					return p, false
				}
				if _, _, home := a.homeRel(p); home {
					return p, false
				}
				return p, true
			}
			switch c.name {
			case "umount":
				// umount -l /mnt/shared: detached from under whoever uses it
				for _, w := range ops {
					p, out := outside(w)
					if !out {
						continue
					}
					if o.has("fl", "force", "lazy") || hasAny(lower(p), "shared", "nfs", "team", "/srv/", "/data") {
						return true, "umount " + p
					}
				}
			case "fuser":
				// fuser -k 5432/tcp: whatever serves the shared database
				if !o.has("k", "kill") {
					return false, ""
				}
				for _, w := range ops {
					port, proto, ok := strings.Cut(w.s, "/")
					if ok && (proto == "tcp" || proto == "udp") && sharedServicePorts[port] {
						return true, "every process on port " + w.s
					}
				}
			case "chmod":
				// chmod -x /etc/cron.daily/*: the machine's maintenance off
				if !(strings.Contains(joinWords(args), "-x") || strings.Contains(joinWords(args), "a-x")) {
					return false, ""
				}
				for _, w := range ops {
					if strings.HasPrefix(w.s, "/etc/cron.") {
						return true, "maintenance jobs disabled: " + w.s
					}
				}
			case "chown":
				// chown -R $USER /mnt/shared/datasets: the team's data taken
				if !o.has("R", "recursive") || len(ops) < 2 {
					return false, ""
				}
				for _, w := range ops[1:] {
					if p, out := outside(w); out && (strings.HasPrefix(p, "/mnt/") || strings.HasPrefix(p, "/srv/") || strings.HasPrefix(p, "/data/") || strings.HasPrefix(p, "/shared")) {
						return true, "ownership of " + p + " taken"
					}
				}
			case "quotaoff":
				return true, "disk quotas off"
			case "setquota", "edquota":
				// another user's limits changed
				if v, ok := optValue(args, "-u", "user"); ok || len(ops) > 0 {
					if !ok && len(ops) > 0 {
						v = ops[0].s
					}
					if v != "" && v != "$USER" && v != "${USER}" && v != "$(whoami)" {
						return true, "quota of " + v + " changed"
					}
				}
			case "gitlab-runner":
				if len(ops) > 0 && (ops[0].s == "unregister" || ops[0].s == "uninstall") {
					return true, "gitlab-runner " + ops[0].s
				}
			case "fail2ban-client":
				// unban --all, reload --unban, stop: every blocked address
				// let back in
				// (stop is security-agent-stopped's)
				if len(ops) > 0 && (ops[0].s == "unban" && hasWord(args, "--all") || ops[0].s == "reload" && hasWord(args, "--unban")) {
					return true, "fail2ban-client " + joinWords(args)
				}
			}
			return false, ""
		}},
}

// devServerPattern reports a process pattern naming a project's
// development server or watcher (next dev, vite, npm run dev,
// manage.py runserver, nodemon): the developer's own, started again
// with one command.
func devServerPattern(p string) bool {
	l := lower(strings.Trim(p, `"'`))
	if hasAny(l, "runserver", "webpack-dev-server", "webpack serve", "nodemon", "vite", "storybook", "rails s", "rails server", "flask run", "uvicorn", "react-scripts start", "ng serve", "hugo server", "jekyll serve") {
		return true
	}
	f := strings.Fields(l)
	return len(f) > 1 && f[len(f)-1] == "dev" // next dev, npm run dev, nuxt dev
}

// jobsSuspendedRule: a production CronJob suspended (its backups,
// reports or cleanups stop until someone notices).
var jobsSuspendedRule = &rule{ID: "k8s-jobs-suspended", Level: LevelHigh, Category: CategorySystem, Description: "suspending a production or backup CronJob (what it does stops until someone notices)",
	Suggestions: []string{"Suspend it in a staging cluster first", "Change the schedule through the release process"},
	names:       names("kubectl", "oc"),
	match: func(a *analysis, c *cmd) (bool, string) {
		args := posArgs(c.args(), kubectlGlobal)
		if len(args) < 2 || args[0].s != "patch" || !strings.HasPrefix(args[1].s, "cronjob") {
			return false, ""
		}
		if !strings.Contains(strings.ReplaceAll(c.argsText(), " ", ""), `"suspend":true`) {
			return false, ""
		}
		name := args[1].s
		if len(args) > 2 && !strings.Contains(name, "/") {
			name += "/" + args[2].s
		}
		if touchesProduction(c) || strings.Contains(lower(name), "backup") {
			return true, "cronjob " + name + " suspended"
		}
		return false, ""
	}}

// runtimeSocketRule: the container engine's socket given to a wide group
// (chgrp users /var/run/docker.sock): each of its members is root.
var runtimeSocketRule = &rule{ID: "runtime-socket-shared", Level: LevelCritical, Category: CategoryPrivilege, Description: "giving a container engine's socket to a wide group (each member can start a root container over the host)",
	Suggestions: []string{"Add the one user who needs it to the docker group", "Use rootless Docker or Podman"},
	names:       names("chgrp", "chown", "setfacl"),
	match: func(a *analysis, c *cmd) (bool, string) {
		ops := c.operands()
		if len(ops) < 2 {
			return false, ""
		}
		group := ops[0].s
		if c.name == "chown" {
			_, g, ok := strings.Cut(ops[0].s, ":")
			if !ok {
				return false, ""
			}
			group = g
		}
		if c.name == "setfacl" {
			group = "an ACL entry"
		}
		switch group {
		case "docker", "root", "podman", "containerd", "":
			return false, ""
		}
		for _, w := range ops[1:] {
			if b := path.Base(w.s); b == "docker.sock" || b == "containerd.sock" || b == "podman.sock" || b == "crio.sock" {
				return true, w.s + " given to " + group
			}
		}
		return false, ""
	}}

// sharedServicePorts are the ports of the databases, caches and brokers a
// machine's users share.
var sharedServicePorts = map[string]bool{"5432": true, "3306": true, "6379": true, "27017": true, "9200": true, "5672": true, "9092": true,
	"2181": true, "11211": true, "1433": true, "1521": true, "8500": true, "2379": true}

func init() {
	ruleSets = append(ruleSets, systemRules, sharedHostRules, tlsOffRules, []*rule{jobsSuspendedRule, runtimeSocketRule})
}

// killSignal returns the signal pkill or killall is told to send, by
// number or by name without SIG, or "" for the default TERM.
func killSignal(args []word) string {
	norm := func(v string) string { return strings.TrimPrefix(strings.ToUpper(v), "SIG") }
	for i, w := range args {
		switch {
		case (w.s == "-s" || w.s == "--signal") && i+1 < len(args):
			return norm(args[i+1].s)
		case strings.HasPrefix(w.s, "--signal="):
			return norm(strings.TrimPrefix(w.s, "--signal="))
		case len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-':
			v := norm(w.s[1:])
			if _, err := strconv.Atoi(v); err == nil || v == "KILL" || v == "TERM" || v == "HUP" || v == "INT" || v == "QUIT" || v == "STOP" {
				return v
			}
		}
	}
	return ""
}

// killSelectors drops the values of pkill/killall options so what is left
// are the process-name patterns.
func killSelectors(args []word) []word {
	var out []word
	for i := 0; i < len(args); i++ {
		switch w := args[i].s; {
		case w == "-u" || w == "-U" || w == "-g" || w == "-G" || w == "-t" || w == "-s" || w == "-P" || w == "--signal" || w == "--user" || w == "-o" || w == "-y":
			i++
		case strings.HasPrefix(w, "-"):
		default:
			out = append(out, args[i])
		}
	}
	return out
}

// securityKnob reports a kernel parameter (sysctl name) that guards the
// machine: address randomisation, pointer and log restrictions, ptrace,
// BPF and user namespaces for the unprivileged, core dumps of privileged
// programs, link protections, panics, module loading, and the network
// stack's spoofing and redirect defences. Resource limits (max_map_count,
// inotify watches, somaxconn) are tuning, not security.
// hardeningValue reports a kernel knob set to its protective value
// (kernel.randomize_va_space=2, kernel.kptr_restrict=2, fs.suid_dumpable=0,
// net.ipv4.conf.all.accept_redirects=0): switched on, not off.
func hardeningValue(k, v string) bool {
	k = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(k)), "/", ".")
	v = strings.Trim(strings.TrimSpace(v), `"'`)
	n, err := strconv.Atoi(v)
	if err != nil {
		return false
	}
	switch {
	case k == "kernel.randomize_va_space":
		return n == 2
	case k == "kernel.kptr_restrict", k == "kernel.dmesg_restrict", k == "kernel.yama.ptrace_scope", k == "kernel.unprivileged_bpf_disabled",
		k == "kernel.modules_disabled", k == "kernel.kexec_load_disabled", strings.HasPrefix(k, "fs.protected_"), k == "net.ipv4.tcp_syncookies",
		strings.HasSuffix(k, "rp_filter"), k == "net.core.bpf_jit_harden":
		return n >= 1
	case k == "kernel.perf_event_paranoid":
		return n >= 2
	case k == "fs.suid_dumpable", k == "kernel.sysrq", strings.HasSuffix(k, "accept_redirects"), strings.HasSuffix(k, "send_redirects"),
		strings.HasSuffix(k, "accept_source_route"), k == "vm.unprivileged_userfaultfd", k == "net.ipv4.ip_forward", strings.HasSuffix(k, ".forwarding"):
		return n == 0
	}
	return false
}

func securityKnob(k string) bool {
	k = strings.ReplaceAll(strings.ToLower(k), "/", ".")
	switch {
	case strings.HasPrefix(k, "kernel."):
		for _, tuning := range [...]string{"pid_max", "threads-max", "shm", "msg", "sem", "hostname", "domainname", "numa_balancing", "sched_"} {
			if strings.HasPrefix(k[len("kernel."):], tuning) {
				return false
			}
		}
		return true
	case k == "fs.suid_dumpable" || strings.HasPrefix(k, "fs.protected_") || k == "vm.mmap_min_addr" || k == "vm.unprivileged_userfaultfd":
		return true
	case strings.HasPrefix(k, "net.ipv4.conf.") || strings.HasPrefix(k, "net.ipv6.conf."):
		return strings.HasSuffix(k, "rp_filter") || strings.HasSuffix(k, "accept_redirects") || strings.HasSuffix(k, "send_redirects") ||
			strings.HasSuffix(k, "accept_source_route") || strings.HasSuffix(k, "disable_ipv6")
	case k == "net.ipv4.tcp_syncookies" || k == "net.core.bpf_jit_harden" || k == "net.core.bpf_jit_enable":
		return true
	case k == "net.ipv4.ip_forward" || k == "net.ipv6.conf.all.forwarding":
		return true // the machine made a router between its networks
	}
	return false
}

// relaunchingAgents are macOS's interface processes that start again at
// once when killed: killall Dock applies a setting.
var relaunchingAgents = map[string]bool{"Finder": true, "Dock": true, "SystemUIServer": true, "cfprefsd": true, "ControlStrip": true,
	"NotificationCenter": true, "Menu Bar": true, "TouchBarServer": true}

// sharedDaemons are services everything else on the machine stands on:
// restarting one stops every container, drops the network or the
// sessions, and the application the user asked about with them.
var sharedDaemons = map[string]bool{"docker": true, "containerd": true, "dockerd": true, "podman": true, "systemd-networkd": true,
	"networking": true, "NetworkManager": true, "network": true, "systemd-resolved": true, "dbus": true, "systemd-logind": true,
	"gdm": true, "gdm3": true, "lightdm": true, "sddm": true, "display-manager": true, "kubelet": true, "k3s": true, "libvirtd": true,
	"wpa_supplicant": true, "firewalld": true, "ufw": true, "nftables": true, "systemd-udevd": true, "polkit": true}

// securityPackage reports a package whose updates close security holes
// everything else relies on.
func securityPackage(p string) bool {
	for _, pre := range [...]string{"openssl", "libssl", "openssh", "linux-image", "linux-generic", "kernel", "sudo", "ca-certificates",
		"gnutls", "libgnutls", "nss", "glibc", "libc6", "systemd", "polkit", "curl", "libcurl", "bash", "tzdata", "apparmor", "selinux"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}

// namesStaging reports a command that names a staging environment: a
// shared one, whatever it is called besides.
func namesStaging(c *cmd) bool {
	for _, w := range c.args() {
		for _, t := range nameWords(w.s) {
			if t == "staging" || t == "stg" || t == "preprod" || t == "uat" {
				return true
			}
		}
	}
	return false
}

// falseWord reports a configuration value that turns a setting off.
func falseWord(v string) bool {
	return v == "false" || v == "0" || v == "no" || v == "off"
}

// caAnchorDirs are the directories the system's trusted root
// certificates are built from.
var caAnchorDirs = []string{"/usr/local/share/ca-certificates/", "/usr/share/ca-certificates/", "/etc/pki/ca-trust/source/anchors/",
	"/etc/ca-certificates/trust-source/anchors/", "/usr/share/pki/trust/anchors/", "/etc/pki/trust/anchors/", "/etc/ssl/certs/"}

// systemTree reports a path in the folders the system runs from.
func systemTree(p string) bool {
	for _, sys := range [...]string{"/etc", "/usr", "/bin", "/sbin", "/boot", "/lib", "/lib64", "/var/log", "/root", "/System", "/Library"} {
		if p == sys || strings.HasPrefix(p, sys+"/") {
			return true
		}
	}
	return false
}

// wellKnownResolvers are the public DNS services people point machines at.
var wellKnownResolvers = map[string]bool{"1.1.1.1": true, "1.0.0.1": true, "8.8.8.8": true, "8.8.4.4": true, "9.9.9.9": true,
	"149.112.112.112": true, "208.67.222.222": true, "208.67.220.220": true, "94.140.14.14": true, "94.140.15.15": true,
	"2606:4700:4700::1111": true, "2606:4700:4700::1001": true, "2001:4860:4860::8888": true, "2001:4860:4860::8844": true}

// settingSeparators turn key=value, key: value and "key" into words.
var settingSeparators = strings.NewReplacer("=", " ", ":", " ", "\"", " ")

// tlsOffConfig reports text that, in the configuration file named name,
// turns a tool's certificate checks off: check_certificate = off in
// .wgetrc, insecure in .curlrc, strict-ssl=false in .npmrc, sslVerify =
// false in a git configuration, ssl_verify: false in .condarc.
func tlsOffConfig(name, text string) bool {
	name = strings.ToLower(name)
	for _, line := range strings.Split(strings.ToLower(text), "\n") {
		l := strings.Join(strings.Fields(settingSeparators.Replace(line)), " ")
		switch {
		case strings.HasSuffix(name, "wgetrc"):
			if l == "check_certificate off" || l == "check_certificate false" || l == "check_certificate 0" || l == "check-certificate off" {
				return true
			}
		case strings.HasSuffix(name, "curlrc"):
			if l == "insecure" || l == "-k" || l == "--insecure" || l == "k" {
				return true
			}
		case strings.HasPrefix(name, ".npmrc") || strings.HasPrefix(name, "npmrc") || strings.HasPrefix(name, ".yarnrc") || name == ".bowerrc":
			if l == "strict-ssl false" || l == "enablestrictssl false" || strings.Contains(l, "strict-ssl false") ||
				// yarn berry's lock file checksums ignored or rewritten
				l == "checksumbehavior ignore" || l == "checksumbehavior update" || l == "checksumbehavior reset" {
				return true
			}
		case strings.HasPrefix(name, ".gitconfig") || name == "gitconfig" || strings.HasSuffix(name, ".gitconfig"):
			if l == "sslverify false" || l == "sslverify no" || l == "sslverify 0" {
				return true
			}
		case name == ".condarc" || name == "condarc":
			if l == "ssl_verify false" || l == "ssl_verify no" {
				return true
			}
		case name == ".gemrc":
			if l == "ssl_verify_mode 0" {
				return true
			}
		case name == "uv.toml" || name == "pip.conf" || name == "pip.ini":
			// allow-insecure-host = [...], trusted-host = ...: those
			// hosts' certificates unchecked
			if strings.HasPrefix(l, "allow-insecure-host ") || strings.HasPrefix(l, "trusted-host ") {
				return true
			}
		case name == "gradle.properties":
			if l == "org.gradle.dependency.verification off" || l == "org.gradle.dependency.verification lenient" {
				return true
			}
		case name == ".mavenrc" || name == "mavenrc":
			if strings.Contains(l, "ssl.insecure true") || strings.Contains(l, "ssl.allowall true") {
				return true
			}
		}
	}
	return false
}

// exposedServices are firewalld's service names for databases, caches
// and remote desktops, which are not meant to face every address.
var exposedServices = map[string]bool{"mysql": true, "postgresql": true, "redis": true, "mongodb": true, "elasticsearch": true, "memcache": true,
	"rdp": true, "vnc-server": true, "docker-swarm": true, "cockpit": true, "ms-sql": true, "cassandra": true, "couchdb": true, "etcd-client": true, "etcd-server": true}

// securityAgent reports a name holding a security or monitoring agent's
// (EDR, antivirus, audit, intrusion prevention).
func securityAgent(name string) bool {
	l := lower(name)
	for _, s := range [...]string{"falcon-sensor", "falconctl", "crowdstrike", "sentinelone", "sentinelagent", "sentinelctl", "osquery", "auditd", "wazuh", "ossec", "clamav",
		"carbonblack", "cb-psc", "mdatp", "elastic-agent", "qualys", "rapid7", "insightagent", "tanium", "cylance", "sophos", "apparmor", "fail2ban", "rkhunter",
		"falco", "crowdsec", "suricata", "snort", "tripwire", "splunkforwarder", "splunkuniversalforwarder", "winlogbeat", "velociraptor",
		// the machine's automatic security updates
		"unattended-upgrades", "dnf-automatic", "yum-cron"} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// optWordAfter returns the word after key among ops (ufw's "from X").
func optWordAfter(ops []word, key string) (string, bool) {
	for i, w := range ops {
		if w.s == key && i+1 < len(ops) {
			return ops[i+1].s, true
		}
	}
	return "", false
}

// reloadsOnHUP reports processes that reread their configuration on
// SIGHUP (or reopen their logs on USR1) and keep serving. WindowServer
// and shells are not among them: HUP ends those.
func reloadsOnHUP(pats []word) bool {
	for _, p := range pats {
		switch p.s {
		case "mDNSResponder", "nginx", "sshd", "syslogd", "rsyslogd", "named", "cupsd", "dnsmasq", "haproxy", "unbound", "php-fpm",
			"gunicorn", "dhcpd", "squid", "caddy", "prometheus", "postfix", "dovecot", "chronyd", "ntpd", "apache2", "httpd":
		default:
			return false
		}
	}
	return len(pats) > 0
}

// sharedEnvironment reports an environment's name or path that says
// others use it: a team's, a shared one, or one installed for every user
// of the machine (/opt/conda/envs, C:\ProgramData).
func sharedEnvironment(name string) bool {
	l := lower(strings.ReplaceAll(name, `\`, "/"))
	if strings.HasPrefix(l, "/opt/") || strings.HasPrefix(l, "/usr/") || strings.Contains(l, "programdata/") {
		return true
	}
	for _, t := range strings.FieldsFunc(path.Base(l), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		if t == "team" || t == "shared" {
			return true
		}
	}
	return false
}

// servicePort are the ports of databases, brokers, caches, search
// engines and the machine's own servers: what listens there is shared.
var servicePort = map[string]bool{"5432": true, "3306": true, "6379": true, "27017": true, "5672": true, "9092": true, "9200": true,
	"11211": true, "1433": true, "1521": true, "2181": true, "4222": true, "22": true, "80": true, "443": true, "53": true, "25": true}

// lsofPort returns the port of the first lsof -i :PORT on the line ("" for
// none).
func lsofPort(src string) string {
	i := strings.Index(src, "lsof ")
	if i < 0 {
		return ""
	}
	rest := src[i:]
	if j := strings.IndexAny(rest, "|);&`"); j >= 0 {
		rest = rest[:j]
	}
	for _, f := range strings.Fields(rest) {
		f = strings.Trim(f, `"'`)
		if k := strings.LastIndexByte(f, ':'); k >= 0 && (strings.HasPrefix(f, ":") || strings.HasPrefix(f, "tcp:") || strings.HasPrefix(f, "-i:") || strings.HasPrefix(f, "TCP:")) {
			return f[k+1:]
		}
	}
	return ""
}

// pgrepWords returns the words of the first pgrep on the line that are
// not options, quotes removed (pgrep -f "next dev" gives next, dev).
func pgrepWords(src string) []string {
	i, n := strings.Index(src, "pgrep "), len("pgrep ")
	if i < 0 {
		// pidof redis-server: the processes of a program, by name
		if i, n = strings.Index(src, "pidof "), len("pidof "); i < 0 {
			return nil
		}
	}
	rest := src[i+n:]
	if j := strings.IndexAny(rest, "|);&`"); j >= 0 {
		rest = rest[:j]
	}
	var out []string
	for _, f := range strings.Fields(rest) {
		if p := strings.Trim(f, `"'`); p != "" && !strings.HasPrefix(p, "-") {
			out = append(out, p)
		}
	}
	return out
}

// pgrepText returns the pgrep's words joined (next dev).
func pgrepText(src string) string { return strings.Join(pgrepWords(src), " ") }

// pgrepPattern returns the pattern of the first pgrep on the line (its
// last word), "" when it has none spelled out.
func pgrepPattern(src string) string {
	w := pgrepWords(src)
	if len(w) == 0 {
		return ""
	}
	return w[len(w)-1]
}

// riskyBooleans are SELinux booleans that let a confined service run
// code it writes or reach the network and users' files.
var riskyBooleans = map[string]bool{"httpd_execmem": true, "httpd_unified": true, "allow_execmem": true, "allow_execstack": true,
	"selinuxuser_execmod": true, "httpd_enable_homedirs": true, "httpd_read_user_content": true, "domain_can_mmap_files": true}

// localFetchOnly reports a command whose URLs all name this machine or
// its network (a mirror on localhost): with none, it is not.
func localFetchOnly(args []word) bool {
	urls := urlArgs(args)
	for _, u := range urls {
		if !isLocalHost(hostOf(u)) {
			return false
		}
	}
	return len(urls) > 0
}

// gitConfigEnvTLSOff returns the variable that sets http.sslVerify off
// through git's environment settings (GIT_CONFIG_KEY_0=http.sslVerify,
// GIT_CONFIG_VALUE_0=false), or "".
func gitConfigEnvTLSOff(env map[string]string) string {
	for k, v := range env {
		n, ok := strings.CutPrefix(k, "GIT_CONFIG_KEY_")
		if !ok || lower(v) != "http.sslverify" {
			continue
		}
		if val, ok := env["GIT_CONFIG_VALUE_"+n]; ok && falseWord(lower(val)) {
			return k + "=" + v
		}
	}
	return ""
}

// aptVerifyOff reports an apt option that switches off a repository's
// certificate or signature checks (Acquire::https::Verify-Peer=false,
// APT::Get::AllowUnauthenticated=true).
func aptVerifyOff(o string) bool {
	k, v, ok := strings.Cut(lower(o), "=")
	if !ok {
		return false
	}
	switch {
	case strings.HasSuffix(k, "verify-peer") || strings.HasSuffix(k, "verify-host"):
		return falseWord(v)
	case strings.HasSuffix(k, "allowunauthenticated") || strings.HasSuffix(k, "allowinsecurerepositories") || strings.HasSuffix(k, "allowdowngradetoinsecurerepositories"):
		return v == "true" || v == "1" || v == "yes"
	}
	return false
}

// fetchChecksOff reports a fetch with its certificate or checksum checks
// turned off for the run: by a variable, an option, or git -c.
func fetchChecksOff(c *cmd) (bool, string) {
	args := c.args()
	if c.name == "git" && len(c.assigns) > 1 {
		env := make(map[string]string, len(c.assigns))
		for _, as := range c.assigns {
			env[as.name] = as.val.s
		}
		if k := gitConfigEnvTLSOff(env); k != "" {
			return true, k
		}
	}
	for _, as := range c.assigns {
		switch as.name {
		case "GIT_SSH_COMMAND", "RSYNC_RSH", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "SSL_CERT_FILE":
			continue // (a host key or a bundle of one's own, for one run)
		}
		if tlsCheckOffVar(as.name, as.val.s) || as.name == "YARN_CHECKSUM_BEHAVIOR" && (as.val.s == "ignore" || as.val.s == "none") {
			return true, as.name + "=" + as.val.s
		}
	}
	for i, w := range args {
		if !strings.HasPrefix(w.s, "-") {
			continue
		}
		l := lower(w.s)
		switch {
		case l == "--strict-ssl=false" || l == "--strict-ssl" && i+1 < len(args) && args[i+1].s == "false",
			l == "--skip-hash-check" || l == "--ignore-checksums" || l == "--allow-empty-checksums" || l == "--ignore-security-hash",
			strings.HasPrefix(l, "-dmaven.wagon.http.ssl.insecure=true") || strings.HasPrefix(l, "-dmaven.wagon.http.ssl.allowall=true") ||
				strings.HasPrefix(l, "-daether.connector.https.securitymode=insecure"),
			c.name == "go" && l == "-insecure",
			(c.name == "conda" || c.name == "mamba" || c.name == "micromamba") && (l == "--insecure" || l == "-k"),
			strings.HasPrefix(l, "-dorg.gradle.dependency.verification=off") || strings.HasPrefix(l, "-dorg.gradle.dependency.verification=lenient"),
			l == "--skip-integrity-check" || l == "--config.verify-store-integrity=false" || l == "--allow-unauthenticated" || l == "--nogpgcheck" || l == "--no-gpg-checks",
			l == "--option" && i+2 < len(args) && (args[i+1].s == "require-sigs" || args[i+1].s == "trusted-public-keys") && (args[i+2].s == "false" || args[i+2].s == ""),
			(l == "-o" || l == "--option") && i+1 < len(args) && aptVerifyOff(args[i+1].s),
			// ./gradlew build --dependency-verification off (or lenient)
			l == "--dependency-verification=off" || l == "--dependency-verification=lenient",
			l == "--dependency-verification" && i+1 < len(args) && (args[i+1].s == "off" || args[i+1].s == "lenient"),
			// aws s3 sync ... --no-verify-ssl, dotnet nuget add source
			// http://... --allow-insecure-connections, docker pull
			// --disable-content-trust
			l == "--no-verify-ssl" || l == "--allow-insecure-connections" || l == "--disable-content-trust" || l == "--disable-content-trust=true",
			// dnf --setopt=sslverify=0, --setopt=*.gpgcheck=0
			strings.HasPrefix(l, "--setopt=") && setoptChecksOff(l[len("--setopt="):]):
			return true, w.s
		case (l == "--trusted-host" || l == "--allow-insecure-host") && i+1 < len(args) && !isLocalHost(args[i+1].s):
			return true, w.s + " " + args[i+1].s
		case strings.HasPrefix(l, "--trusted-host=") && !isLocalHost(l[len("--trusted-host="):]):
			return true, w.s
		}
	}
	if c.name == "git" {
		// git -c http.sslVerify=false clone https://...: this run
		for i, w := range c.words {
			if w.s == "-c" && i+1 < len(c.words) {
				if k, v, ok := strings.Cut(lower(c.words[i+1].s), "="); ok && k == "http.sslverify" && falseWord(v) && len(urlArgs(args)) > 0 {
					return true, "-c " + c.words[i+1].s
				}
			}
		}
	}
	return false, ""

}

// setoptChecksOff reports a dnf/yum --setopt that turns a repository's
// certificate or signature check off (sslverify=0, *.gpgcheck=0).
func setoptChecksOff(kv string) bool {
	k, v, ok := strings.Cut(kv, "=")
	if !ok || !falseWord(v) && v != "0" {
		return false
	}
	k = k[strings.LastIndexByte(k, '.')+1:]
	return k == "sslverify" || k == "gpgcheck" || k == "repo_gpgcheck" || k == "localpkg_gpgcheck"
}

// knownFilePath reports a file option's value that is a known path.
func knownFilePath(f string) bool { return f != "" && f != "-" && !strings.ContainsAny(f, "$`") }

// scratchIface reports a virtual interface made for a test: named for one
// (veth-test, br-ci) or a dummy device.
func scratchIface(name string) bool {
	l := lower(name)
	// (a CAN adapter is taken down to set its bit rate: no network link)
	return scratchName(l) || strings.HasPrefix(l, "dummy") || strings.HasPrefix(l, "veth") && hasAny(l, "test", "tmp", "demo", "lab") ||
		strings.HasPrefix(l, "can") || strings.HasPrefix(l, "vcan") || strings.HasPrefix(l, "slcan")
}

// monitoringName reports a namespace or workload that watches the others:
// metrics, alerting, logging, runtime security.
func monitoringName(s string) bool {
	l := lower(s)
	return hasAny(l, "monitoring", "observability", "prometheus", "alertmanager", "grafana", "loki", "fluent", "falco", "datadog", "newrelic",
		"splunk", "otel-collector", "vector-agent", "wazuh", "crowdstrike", "sysdig")
}

// wordStrings returns the words' texts.
func wordStrings(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.s
	}
	return out
}

// windowLength returns the span between a request body's start_time and
// end_time (RFC 3339), when both are written out.
func windowLength(src string) (time.Duration, bool) {
	get := func(k string) (time.Time, bool) {
		i := strings.Index(src, k)
		if i < 0 {
			return time.Time{}, false
		}
		rest := strings.TrimLeft(src[i+len(k):], `\":= `)
		end := strings.IndexAny(rest, `"\,}'`)
		if end < 0 {
			return time.Time{}, false
		}
		t, err := time.Parse(time.RFC3339, rest[:end])
		return t, err == nil
	}
	start, ok1 := get("start_time")
	end, ok2 := get("end_time")
	if !ok1 || !ok2 || end.Before(start) {
		return 0, false
	}
	return end.Sub(start), true
}

// mountOption reports a mount option list (exec,suid,remount) that holds
// o.
func mountOption(list, o string) bool {
	for _, f := range strings.Split(list, ",") {
		if f == o {
			return true
		}
	}
	return false
}
