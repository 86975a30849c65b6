package guard

import (
	"path"
	"strconv"
	"strings"
)

// --- privilege: roles, groups and bits that grant root or admin ---

// broadSubject reports a Kubernetes subject that is everyone.
func broadSubject(s string) bool {
	return strings.Contains(s, "system:anonymous") || strings.Contains(s, "system:authenticated") || strings.Contains(s, "system:unauthenticated") ||
		strings.Contains(s, "system:serviceaccounts")
}

// Rules for gaining root or admin rights (category privilege).
var privilegeRules = []*rule{
	{ID: "vault-access-widened", Level: LevelCritical, Category: CategoryPrivilege, Description: "widening a Vault server's access: a policy granting every path with sudo, or the default policy every token carries given more; an unseal that one key share opens",
		Suggestions: []string{"Grant the paths the application needs, in a policy of its own", "Keep several unseal key shares and a threshold above one"},
		names:       names("vault"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if a.hashiLocalServer(c) {
				return false, "" // a development server on this machine
			}
			// vault operator rekey -key-shares=1 -key-threshold=1
			if len(ops) > 1 && ops[0].s == "operator" && (ops[1].s == "rekey" || ops[1].s == "init") {
				for _, w := range args {
					if k, v, ok := strings.Cut(strings.TrimLeft(w.s, "-"), "="); ok && (k == "key-shares" || k == "key-threshold") && v == "1" {
						return true, "vault operator " + ops[1].s + " -" + k + "=1"
					}
				}
				return false, ""
			}
			// echo 'path "*" { capabilities = ["sudo", ...] }' | vault
			// policy write NAME -
			if len(ops) > 2 && ops[0].s == "policy" && ops[1].s == "write" {
				text := c.in.text
				if c.in.kind != flowText {
					text = ""
				}
				l := strings.ReplaceAll(lower(text), " ", "")
				if strings.Contains(l, `path"*"`) && (strings.Contains(l, `"sudo"`) || strings.Contains(l, `"root"`)) || ops[2].s == "default" && strings.Contains(l, `path"*"`) {
					return true, "vault policy " + ops[2].s + " granting every path"
				}
			}
			return false, ""
		}},
	{ID: "password-attack", Level: LevelCritical, Category: CategoryPrivilege, Description: "guessing another system's passwords (a brute-force or word-list attack on its logins)",
		Suggestions: []string{"Test only systems you own, with their owner's written leave", "Use the organisation's sanctioned testing tools and scope"},
		names:       names("hydra", "medusa", "ncrack", "patator", "crowbar", "kerbrute", "crackmapexec", "netexec", "nxc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) == 0 || len(args) == 1 && hasWord(args, "-h") || hasWord(args, "--help") || adLabTarget(args) {
				return false, "" // (a lab's domain or hosts are what the tools are practised on)
			}
			if c.name == "medusa" && (!strings.HasPrefix(args[0].s, "-") || len(c.wrappers) > 0) {
				return false, "" // Medusa's commerce CLI (npx medusa develop, medusa user -e ...)
			}
			for _, w := range c.operands() {
				if h := lower(hostOf(w.s)); h != "" && (loopback(h) || h == "localhost") {
					return false, "" // a service on this machine, the developer's own
				}
				if l := lower(w.s); l == "127.0.0.1" || l == "localhost" {
					return false, ""
				}
			}
			return true, c.name + " " + joinWords(args)
		}},
	{ID: "intrusive-scan", Level: LevelHigh, Category: CategoryPrivilege, Description: "running intrusive scans (vulnerability probes, exploits, brute force) against hosts that are not this machine",
		Suggestions: []string{"Scan only hosts you are allowed to test", "Scan this machine (127.0.0.1), or a lab host"},
		names:       names("nmap"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			script := ""
			for i, w := range args {
				if v, ok := strings.CutPrefix(w.s, "--script="); ok {
					script = v
				} else if w.s == "--script" && i+1 < len(args) {
					script = args[i+1].s
				}
			}
			if l := lower(script); !hasAny(l, "vuln", "exploit", "brute", "dos", "intrusive", "malware") {
				return false, ""
			}
			for _, w := range c.operands() {
				if w.s == script {
					continue
				}
				h := lower(strings.TrimSuffix(w.s, "/"))
				if !w.ok || !(loopback(h) || isLocalHost(h)) {
					return true, "nmap --script " + script + " " + w.s
				}
			}
			return false, ""
		}},
	{ID: "network-sweep", Level: LevelHigh, Category: CategoryPrivilege, Description: "scanning other people's networks: public address ranges swept, the whole internet, or decoy and evasion scans of someone else's host",
		Suggestions: []string{"Scan only ranges in a written engagement scope", "Practise on this machine, a lab range or scanme.nmap.org"},
		names:       names("masscan", "nmap", "zmap"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			low := c.lowerArgs()
			evasive := hasWord(args, "-D") || hasWord(args, "-f") && c.name == "nmap" || optGiven(low, "--data-length") || optGiven(low, "--spoof-mac")
			for _, w := range c.operands() {
				t := lower(w.s)
				if t == "scanme.nmap.org" || adLabTarget([]word{w}) {
					continue
				}
				host, bits, cidr := strings.Cut(t, "/")
				n := 32
				if cidr {
					if v, err := strconv.Atoi(bits); err == nil {
						n = v
					}
				}
				if _, ip := parseIP(host); ip {
					if !isPublicIP(host) && host != "0.0.0.0" {
						continue
					}
					if c.name != "nmap" || n <= 16 || host == "0.0.0.0" {
						return true, c.name + " " + w.s + " (a public range swept)"
					}
				}
				if evasive && c.name == "nmap" && !isLocalHost(host) && (strings.Contains(host, ".") || cidr) {
					return true, "nmap decoy or evasion scan of " + w.s
				}
			}
			return false, ""
		}},
	{ID: "admin-password-guessable", Level: LevelHigh, Category: CategoryPrivilege, Description: "giving a production service's administrator a password anyone would guess (admin, password, admin123)",
		Suggestions: []string{"Generate the password (openssl rand -base64 24) and keep it in the secrets manager", "Let the chart create a random password"},
		names:       names("helm", "argocd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if !touchesProduction(c) {
				return false, ""
			}
			args := c.args()
			switch c.name {
			case "helm":
				// --set adminPassword=admin, --set auth.postgresPassword=postgres
				for i, w := range args {
					v := w.s
					if (v == "--set" || v == "--set-string") && i+1 < len(args) {
						v = args[i+1].s
					} else if !strings.HasPrefix(v, "--set=") && !strings.HasPrefix(v, "--set-string=") {
						continue
					}
					if strings.HasPrefix(v, "--set") {
						v = v[strings.IndexByte(v, '=')+1:]
					}
					for kv := range strings.SplitSeq(v, ",") {
						k, pw, ok := strings.Cut(kv, "=")
						if ok && strings.HasSuffix(lower(k), "password") && guessablePassword("admin", strings.Trim(pw, `'"`)) {
							return true, k + "=" + pw
						}
					}
				}
			case "argocd":
				// argocd account update-password --new-password admin123
				if v, ok := optValue(args, "", "new-password"); ok && guessablePassword("admin", v) {
					return true, "--new-password " + v
				}
			}
			return false, ""
		}},
	{ID: "sudoedit-extra-file", Level: LevelCritical, Category: CategoryPrivilege, Description: "sudoedit given an editor variable that names another file after --: sudo opens that file for writing as root (CVE-2023-22809)",
		Suggestions: []string{"Edit only the file sudoedit was asked for", "Update sudo (1.9.12p2 and later refuse the extra file)"},
		names:       names("sudoedit", "sudo"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "sudo" && !hasWord(c.args(), "-e") && !hasWord(c.args(), "--edit") {
				return false, ""
			}
			// SUDO_EDITOR='vim -- /etc/sudoers' sudoedit notes.txt
			for _, as := range c.assigns {
				if as.name != "SUDO_EDITOR" && as.name != "VISUAL" && as.name != "EDITOR" {
					continue
				}
				if _, extra, ok := strings.Cut(as.val.s, " -- "); ok && strings.TrimSpace(extra) != "" {
					return true, as.name + "=" + as.val.s
				}
			}
			return false, ""
		}},
	{ID: "account-shell-change", Level: LevelModerate, Category: CategoryPrivilege, Description: "changing another account's login shell or unlocking an account",
		Suggestions: []string{"Leave system accounts locked with nologin", "Ask an administrator"}, names: names("chsh", "usermod", "passwd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "chsh":
				ops := posArgs(args, optSpec{short: "s", long: []string{"shell"}})
				return len(ops) > 0, "account " + joinWords(ops)
			case "usermod":
				if hasWord(args, "-U") || hasWord(args, "--unlock") {
					return true, "unlock"
				}
				if v, ok := optValue(args, "-s", "shell"); ok && !strings.HasSuffix(v, "nologin") && !strings.HasSuffix(v, "false") {
					return true, "shell " + v
				}
			case "passwd":
				return hasWord(args, "-u") || hasWord(args, "--unlock"), "unlock"
			}
			return false, ""
		}},
	{ID: "docker-socket-open", Level: LevelHigh, Category: CategoryPrivilege, Description: "opening the container runtime socket to everyone (root for every user)",
		Suggestions: []string{"Add the user to the docker group instead", "Use rootless containers"}, names: names("chmod", "chown", "setfacl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range chmodTargets(c) {
				b := path.Base(w.s)
				if b == "docker.sock" || b == "containerd.sock" || b == "podman.sock" || b == "crio.sock" {
					if c.name != "chmod" || modeWorldWritable(chmodMode(c)) || modeOthersRead(chmodMode(c)) {
						return true, w.s
					}
				}
			}
			return false, ""
		}},
	{ID: "setuid-shell", Level: LevelCritical, Category: CategoryPrivilege, Description: "setting the setuid bit on a shell or interpreter (a root backdoor)",
		Suggestions: []string{"Never make shells setuid", "Use sudo rules for the specific command instead"}, names: names("chmod"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if !modeSetuid(chmodMode(c)) {
				return false, ""
			}
			for _, w := range chmodTargets(c) {
				if dangerousSUID[path.Base(w.s)] || strings.HasPrefix(path.Base(w.s), "python") || strings.HasPrefix(path.Base(w.s), "perl") {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "setuid-binary", Level: LevelHigh, Category: CategoryPrivilege, Description: "setting the setuid bit on a file",
		Suggestions: []string{"Avoid setuid programs", "Grant a capability or a sudo rule for the specific command instead"}, names: names("chmod"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if !modeSetuid(chmodMode(c)) {
				return false, ""
			}
			for _, w := range chmodTargets(c) {
				return true, w.s
			}
			return false, ""
		}},
	{ID: "setcap-privileged", Level: LevelCritical, Category: CategoryPrivilege, Description: "granting root-equivalent capabilities to a program",
		Suggestions: []string{"Grant the narrowest capability (e.g. cap_net_bind_service) to a specific binary", "Use sudo rules instead"}, names: names("setcap"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				l := lower(w.s)
				if grantsBroadCap(l) {
					return true, w.s
				}
				if strings.Contains(l, "cap_setuid") || strings.Contains(l, "cap_sys_admin") || strings.Contains(l, "cap_dac_override") ||
					strings.Contains(l, "cap_sys_ptrace") || strings.Contains(l, "cap_setgid") || strings.Contains(l, "=ep") && strings.HasPrefix(l, "all") {
					return true, w.s
				}
			}
			return false, ""
		}},
	writeRule("write-passwd", LevelCritical, CategoryPrivilege, "modifying the user database (/etc/passwd, /etc/shadow)",
		[]string{"Use useradd/usermod with the least privileges", "Ask an administrator to create accounts"}, false, wPasswd),
	writeRule("write-sudoers", LevelCritical, CategoryPrivilege, "modifying sudo or polkit rules (who may act as root)",
		[]string{"Edit sudo rules with visudo after review", "Grant a specific command, never NOPASSWD: ALL"}, false, wSudoers),
	writeRule("write-pam", LevelCritical, CategoryPrivilege, "modifying PAM authentication",
		[]string{"Leave PAM configuration to an administrator"}, false, wPam),
	{ID: "pam-profile-disabled", Level: LevelCritical, Category: CategoryPrivilege, Description: "switching a PAM authentication profile off (log-in checks change for every user)",
		Suggestions: []string{"Leave PAM configuration to an administrator"}, names: names("pam-auth-update"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// pam-auth-update --disable unix: password checks gone from
			// every service's stack
			for _, w := range c.args() {
				if w.s == "--disable" || w.s == "--remove" || strings.HasPrefix(w.s, "--disable=") || strings.HasPrefix(w.s, "--remove=") {
					return true, "pam-auth-update " + c.argsText()
				}
			}
			return false, ""
		}},
	writeRule("write-sshd-config", LevelHigh, CategoryPrivilege, "changing the SSH server's authentication settings",
		[]string{"Let an administrator change sshd_config", "Keep root login and password authentication disabled"}, false, wSSHDConfig),
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
				for _, w := range c.operands() {
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
	{ID: "root-shell-escape", Level: LevelHigh, Category: CategoryPrivilege, Description: "running as root a program that opens a shell on request (a pager, an editor, awk)",
		Suggestions: []string{"Read files as root with sudo cat or sudoedit", "Run the specific command with sudo instead"},
		names:       names("less", "more", "most", "man", "vi", "vim", "nvim", "view", "vimdiff", "ex", "ed", "emacs", "git", "awk", "gawk", "mawk", "nawk", "busybox"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if !c.asRoot {
				return false, ""
			}
			args := c.args()
			switch c.name {
			case "git":
				// git's pager (-p, help) runs as root, and !sh in it too
				if hasWord(args, "-p") || hasWord(args, "--paginate") || len(c.operands()) > 0 && c.operands()[0].s == "help" {
					return true, "git pager"
				}
				return false, ""
			case "awk", "gawk", "mawk", "nawk":
				j := joinWords(args)
				if i := strings.Index(j, "system("); i >= 0 {
					call := strings.TrimSpace(j[i+len("system("):])
					if end := strings.IndexByte(call, ')'); end >= 0 {
						call = call[:end]
					}
					call = strings.Trim(call, `"' `)
					first := strings.Fields(call + " ")[0]
					if isShellName(path.Base(first)) && !strings.Contains(call, " -c") {
						return true, "awk system() shell"
					}
				}
				return false, ""
			case "busybox":
				return len(args) > 0 && (args[0].s == "sh" || args[0].s == "ash") && len(args) == 1, "busybox sh"
			}
			return true, c.base + " as root"
		}},
	{ID: "credentials-destroyed", Level: LevelModerate, Category: CategoryPrivilege, Description: "deleting stored keys, tickets or credentials (sign-ins and signatures stop working; private keys may be gone for good)",
		Suggestions: []string{"Leave the user's keys and stored credentials alone", "Remove the one entry that is wrong, with the user"},
		names:       names("gpg", "gpg2", "security", "klist", "cmdkey", "git", "ssh-add", "kdestroy"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "gpg", "gpg2":
				for _, w := range args {
					if strings.HasPrefix(w.s, "--delete-secret-key") || strings.HasPrefix(w.s, "--delete-secret-and-public-key") {
						return true, w.s
					}
				}
			case "security":
				if len(args) > 0 && (args[0].s == "delete-keychain" || args[0].s == "delete-generic-password" || args[0].s == "delete-internet-password" ||
					args[0].s == "delete-certificate" || args[0].s == "delete-identity") {
					// (an item a test run made: -s myapp-test-fixture)
					if svc, ok := optValue(args, "-s", ""); ok && testNameBesidesDev(svc) && args[0].s != "delete-keychain" {
						return false, ""
					}
					if ops := positional(args[1:]); args[0].s == "delete-keychain" && len(ops) == 1 && (madeKeychain(a.src, ops[0].s) || tempKeychain(ops[0].s)) {
						return false, "" // a keychain the line made for a test, or a CI job's temporary one
					}
					return true, args[0].s
				}
			case "klist":
				// (-li 0x3e7: the machine account's tickets, fetched
				// again at once)
				if v, ok := optValue(args, "-li", ""); ok && lower(v) == "0x3e7" {
					return false, ""
				}
				return hasWord(args, "purge"), "Kerberos tickets"
			case "kdestroy":
				return hasWord(args, "-A") || hasWord(args, "--all"), "every Kerberos ticket cache"
			case "cmdkey":
				for _, w := range args {
					if l := lower(w.s); strings.HasPrefix(l, "/delete") || strings.HasPrefix(l, "-delete") {
						// one named entry is the user's own housekeeping; every
						// entry a listing printed (a loop's variable), or all
						// of them, is not
						target := l[len("/delete"):]
						// (a saved Remote Desktop login, TERMSRV/host, is a
						// server's password the user typed once)
						if !w.ok || target == "" || strings.ContainsAny(target, "%$(*") || strings.Contains(target, "/ras") || strings.Contains(target, "termsrv/") {
							return true, w.s
						}
					}
				}
			case "git":
				sub, rest := gitSub(c)
				return sub == "credential" && len(rest) > 0 && (rest[0].s == "reject" || rest[0].s == "erase"), "git credential " + sub
			case "ssh-add":
				return hasWord(args, "-D"), "every identity of the agent"
			}
			return false, ""
		}},
	{ID: "user-admin-group", Level: LevelHigh, Category: CategoryPrivilege, Description: "adding a user to an administrator group",
		Suggestions: []string{"Grant a specific sudo rule instead of admin membership", "Ask an administrator"}, names: names("usermod", "gpasswd", "adduser", "addgroup", "dseditgroup", "useradd", "dscl"),
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
				ops := c.operands()
				if len(ops) == 2 && admin(ops[1].s) {
					return true, ops[1].s
				}
			case "dseditgroup":
				// -a everyone -t group _developer: every account may debug
				// any process (read other programs' memory)
				if v, ok := optValue(args, "-a", ""); ok && lower(v) == "everyone" && hasWord(args, "edit") {
					return true, "everyone added to " + lastWord(args)
				}
				return hasWord(args, "admin") && hasWord(args, "-a"), ""
			case "dscl":
				// dscl . -create /Users/X PrimaryGroupID 80: the admin
				// group (80) or wheel (0) as the account's own
				for i, w := range args {
					if w.s == "PrimaryGroupID" && i+1 < len(args) && (args[i+1].s == "80" || args[i+1].s == "0") && (hasWord(args, "-create") || hasWord(args, "-change")) {
						return true, "PrimaryGroupID " + args[i+1].s
					}
				}
				// dscl . -append /Groups/admin GroupMembership USER
				for i, w := range args {
					if (w.s == "-append" || w.s == "-create" || w.s == "-merge") && i+1 < len(args) {
						g := strings.TrimPrefix(args[i+1].s, "/Groups/")
						if g != args[i+1].s && admin(g) {
							return true, args[i+1].s
						}
					}
				}
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
				ops := c.operands()
				if c.name == "passwd" && (hasWord(args, "-l") || hasWord(args, "--lock") || hasWord(args, "-S") || hasWord(args, "--status")) {
					return false, "" // passwd -l root: the password locked, or its state shown
				}
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
				ops := c.operands()
				if hasWord(args, "-d") || hasWord(args, "--delete") || hasWord(args, "-u") && len(ops) > 0 {
					return true, "password removed or unlocked"
				}
				if hasWord(args, "-l") || hasWord(args, "--lock") || hasWord(args, "-S") || hasWord(args, "--status") {
					return false, ""
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
		Suggestions: []string{"Mount only the project directory (-v \"$PWD\":/work)", "Drop --privileged and host namespaces"}, names: names("docker", "podman", "nerdctl", "nsenter", "curl", "ctr", "lxc", "incus"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "lxc" || c.name == "incus" {
				// lxc config device add c1 root disk source=/ path=/mnt,
				// lxc init IMAGE c1 -c security.privileged=true: the lxd
				// group's way to root on the host
				for _, w := range args {
					if w.s == "source=/" || strings.HasPrefix(w.s, "security.privileged=true") || w.s == "security.nesting=true" && hasWord(args, "security.privileged=true") {
						return true, c.name + " " + w.s
					}
				}
				return false, ""
			}
			if c.name == "curl" {
				// the engine's API through its socket: POST
				// /containers/create with the host's root bound or
				// privileged
				sock, _ := optValue(args, "", "unix-socket")
				j := strings.ReplaceAll(joinWords(args), " ", "")
				if (strings.Contains(sock, "docker.sock") || strings.Contains(sock, "podman.sock")) && strings.Contains(j, "/containers/create") &&
					(strings.Contains(j, `"Privileged":true`) || strings.Contains(j, `"PidMode":"host"`) || strings.Contains(j, `"/:/`)) {
					return true, "the engine's API: a container with the host's root"
				}
				return false, ""
			}
			if (c.name == "docker" || c.name == "podman") && (hasWord(args, "buildx") || hasWord(args, "build")) {
				// buildx create --allow-insecure-entitlement security.insecure,
				// build --allow security.insecure: build steps run
				// privileged, as root on the builder's host
				for i, w := range args {
					v := ""
					if i+1 < len(args) {
						v = args[i+1].s
					}
					if (w.s == "--allow" || w.s == "--allow-insecure-entitlement") && v == "security.insecure" ||
						w.s == "--buildkitd-flags" && strings.Contains(v, "security.insecure") || w.s == "--allow=security.insecure" {
						return true, c.name + " build steps allowed to run privileged (security.insecure)"
					}
				}
			}
			if c.name == "nsenter" {
				if v, ok := optValue(args, "-t", "target"); ok && v == "1" {
					return true, "host init namespaces"
				}
				return false, ""
			}
			sub, rest := dockerSub(c)
			if c.name == "ctr" {
				// containerd's ctr run (and -n NAMESPACE before it)
				ops := posArgs(args, optSpec{short: "na", long: []string{"namespace", "address", "timeout", "connect-timeout"}})
				if len(ops) == 0 || ops[0].s != "run" && !(len(ops) > 1 && ops[0].s == "container" && ops[1].s == "create") {
					return false, ""
				}
				sub, rest = "run", args
			}
			if sub != "run" && sub != "container run" && sub != "create" && sub != "container create" {
				return false, ""
			}
			priv, hostPID, hostNet := false, false, false
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
				case (s == "--device" || s == "--cap-add") && i+1 < len(rest), strings.HasPrefix(s, "--device="), strings.HasPrefix(s, "--cap-add="):
					// a host disk handed in raw, or root's own powers
					opt, val, ok := strings.Cut(s, "=")
					if !ok {
						val = rest[i+1].s
					}
					if opt == "--device" {
						dev, _, _ := strings.Cut(val, ":")
						if isBlockDevice(dev) || dev == "/dev/mem" || dev == "/dev/kmem" {
							return true, "host " + dev + " given to the container"
						}
					} else {
						switch strings.ToUpper(strings.TrimPrefix(strings.ToUpper(val), "CAP_")) {
						case "ALL", "SYS_ADMIN", "SYS_MODULE", "SYS_RAWIO", "DAC_READ_SEARCH":
							return true, "--cap-add " + val
						}
					}
				case s == "--pid=host" || s == "--pid" && i+1 < len(rest) && rest[i+1].s == "host":
					hostPID = true
				case s == "--net=host" || s == "--network=host" || (s == "--net" || s == "--network") && i+1 < len(rest) && rest[i+1].s == "host":
					// privileged on the host's network: its interfaces,
					// firewall and every local service the container's
					hostNet = true
				}
				if v != "" {
					src := volumeSource(v)
					src = path.Clean(src)
					if src == "/" || src == "/etc" || src == "/root" || src == "/boot" || src == "/usr" || src == "/var" || src == "/dev" {
						return true, "host " + src + " mounted"
					}
					// the whole home (every key and repository in it), the
					// directory of all homes, or a credential file or folder
					if ap := a.absPath(src, c.cwd); ap != "" && !a.inWork(ap) {
						if a.home != "" && (ap == a.home || strings.HasPrefix(a.home, ap+"/")) || ap == "/home" || ap == "/Users" || ap == "/run" || ap == "/proc" || ap == "/sys" {
							return true, "host " + ap + " mounted"
						}
						if d, crit := a.sensitive(ap, c.cwd); crit {
							return true, d + " mounted"
						}
					}
				}
				if !strings.HasPrefix(s, "-") && i > 0 && !strings.Contains(rest[i-1].s, "=") && !strings.HasPrefix(rest[i-1].s, "-") {
					break // image reached
				}
			}
			if priv && hostPID {
				return true, "--privileged --pid=host"
			}
			if priv && hostNet {
				return true, "--privileged --net=host"
			}
			return false, ""
		}},
	{ID: "password-on-stdin", Level: LevelHigh, Category: CategoryPrivilege, Description: "feeding a password written in the command to sudo -S or su (it lands in history, logs and the agent's context)",
		Suggestions: []string{"Let the user type the password", "Use a sudoers rule for the one command that needs root"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.in.kind != flowText || strings.TrimSpace(c.in.text) == "" || len(c.wrappers) == 0 && c.name != "su" {
				return false, ""
			}
			if c.name == "su" {
				return true, "su"
			}
			for _, w := range c.wrappers {
				f := strings.Fields(w)
				if len(f) == 0 || path.Base(f[0]) != "sudo" {
					continue
				}
				for _, o := range f[1:] {
					if o == "--stdin" || len(o) > 1 && o[0] == '-' && o[1] != '-' && strings.IndexByte(o, 'S') > 0 {
						return true, "sudo -S"
					}
				}
			}
			return false, ""
		}},
	{ID: "k8s-impersonate-admin", Level: LevelHigh, Category: CategoryPrivilege, Description: "acting as a cluster administrator or a system identity by impersonation",
		Suggestions: []string{"Run as your own identity and ask for the role you need", "Use kubectl auth can-i to check permissions"}, names: names("kubectl", "oc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if ops := posArgs(args, kubectlGlobal); len(ops) > 1 && ops[0].s == "auth" && ops[1].s == "can-i" {
				return false, "" // kubectl auth can-i --as=...: asks what the identity may do
			}
			if g, ok := optValue(args, "", "as-group"); ok && (g == "system:masters" || strings.Contains(g, "admin")) {
				return true, "--as-group=" + g
			}
			if u, ok := optValue(args, "", "as"); ok && (strings.HasPrefix(u, "system:") && !strings.HasPrefix(u, "system:serviceaccount:") || strings.Contains(u, "admin")) {
				return true, "--as=" + u
			}
			return false, ""
		}},
	{ID: "forge-settings-raised", Level: LevelHigh, Category: CategoryPrivilege, Description: "making a repository public, granting admin on it, archiving it or moving its default branch through the forge's API",
		Suggestions: []string{"Change repository settings in the web interface, as an owner", "Ask a maintainer"}, names: names("gh", "glab", "curl", "http", "https", "xh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "gh" || c.name == "glab" {
				if len(args) > 1 && args[0].s == "repo" && (args[1].s == "edit" || args[1].s == "update") {
					// gh repo edit --default-branch x: the branch every
					// clone, pull request and deployment starts from
					if v, ok := optValue(args, "", "default-branch"); ok && v != "main" && v != "master" {
						return true, "default branch " + v
					}
					return false, ""
				}
				if len(args) == 0 || args[0].s != "api" {
					return false, ""
				}
				if forgeAPIReads(c) {
					return false, "" // gh api "orgs/acme/members?role=admin": a GET
				}
			} else {
				switch httpMethod(c) {
				case "PUT", "PATCH", "POST":
				default:
					return false, ""
				}
			}
			if c.name != "gh" && c.name != "glab" {
				if h, ok := readHTTPCall(c); ok && h.scratch() {
					return false, "" // a test's or a scratch page's own settings
				}
			}
			for _, w := range args {
				if f := forgeSettingField(w.s); f != "" {
					return true, f
				}
			}
			return false, ""
		}},
	{ID: "directory-role-granted", Level: LevelHigh, Category: CategoryPrivilege, Description: "granting a directory role (Entra ID) through Microsoft Graph",
		Suggestions: []string{"Ask an administrator to assign the role through Privileged Identity Management"}, names: names("az", "curl", "http", "https", "xh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			method := httpMethod(c)
			if c.name == "az" {
				if len(args) == 0 || args[0].s != "rest" {
					return false, ""
				}
				if v, ok := optValue(args, "-m", "method"); ok {
					method = strings.ToUpper(v)
				}
			}
			if method != "POST" && method != "PUT" && method != "PATCH" {
				return false, ""
			}
			for _, w := range args {
				l := strings.ToLower(w.s)
				if strings.Contains(l, "graph.microsoft.com") && (strings.Contains(l, "/directoryroles/") && strings.Contains(l, "/members") ||
					strings.Contains(l, "/rolemanagement/directory/roleassignments")) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "aws-iam-admin", Level: LevelHigh, Category: CategoryPrivilege, Description: "granting administrator access in AWS IAM",
		Suggestions: []string{"Grant a least-privilege policy", "Ask the account administrator"}, names: names("aws"),
		match: func(a *analysis, c *cmd) (bool, string) {
			op, rest := awsOp(c)
			if strings.HasPrefix(op, "iam attach-") || strings.HasPrefix(op, "iam put-") || op == "iam create-policy-version" && hasWord(rest, "--set-as-default") {
				for _, w := range rest {
					// (cmd keeps the backslashes of \"Action\":\"*\" and
					// drops the quotes)
					v := strings.NewReplacer(`\`, "", " ", "", `"`, "").Replace(w.s)
					if strings.Contains(v, "AdministratorAccess") || strings.Contains(v, `Action:*`) || strings.Contains(v, `Action:[*]`) {
						return true, op
					}
				}
			}
			return false, ""
		}},
	{ID: "cloud-user-password-set", Level: LevelCritical, Category: CategoryPrivilege, Description: "setting another person's password in a cloud directory or user pool (their account is then whoever knows it)",
		Suggestions: []string{"Send the user a reset link through the directory's own flow", "Let an administrator reset it, with the user told"},
		names:       append(names("aws", "az", "gam", "gamadv-xtd3"), httpClients...),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			var user string
			switch c.name {
			case "gam", "gamadv-xtd3":
				return gamPasswordSet(c)
			case "aws":
				op, _ := awsOp(c)
				if op != "cognito-idp admin-set-user-password" && op != "iam update-login-profile" {
					return false, ""
				}
				if op == "iam update-login-profile" && !hasPrefixWord(args, "--password") {
					return false, ""
				}
				user, _ = optValue(args, "", "username")
				if user == "" {
					user, _ = optValue(args, "", "user-name")
				}
			case "az":
				ops := c.operands()
				if len(ops) < 3 || ops[0].s != "ad" || ops[1].s != "user" || ops[2].s != "update" || !hasPrefixWord(args, "--password") {
					return false, ""
				}
				user, _ = optValue(args, "", "id")
			default:
				// a directory's API given the password itself:
				// {"credentials":{"password":{"value":"..."}}} to a user
				h, ok := readHTTPCall(c)
				if !ok || h.method == "GET" || h.method == "DELETE" || h.scratch() || !strings.Contains(h.url, "/users/") ||
					!strings.Contains(compactJSON(h.body), `"password":{"value":`) {
					return false, ""
				}
				return true, h.method + " " + h.url
			}
			if user == "" || testName(lower(user)) || scratchName(user) || hasAny(lower(user), "test", "demo", "e2e") {
				return false, "" // a test user of the project's own pool
			}
			return true, user
		}},
	{ID: "role-trust-opened", Level: LevelCritical, Category: CategoryPrivilege, Description: "letting anyone assume a cloud role: a trust policy for every principal, or a federated identity trusted with no condition on who it is",
		Suggestions: []string{"Trust one named account or role", "Keep a condition on the token's subject (repo:ORG/REPO:ref:refs/heads/main)"}, names: names("aws", "gcloud"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := c.argsText()
			switch c.name {
			case "aws":
				op, _ := awsOp(c)
				if op != "iam update-assume-role-policy" && op != "iam create-role" {
					return false, ""
				}
				b := lower(compactJSON(j))
				if strings.Contains(b, `"principal":"*"`) || strings.Contains(b, `"principal":{"aws":"*"}`) || strings.Contains(b, `"aws":["*"]`) {
					return true, op + " for every principal"
				}
				// a production role handed to a whole account (its root:
				// every identity there the account lets assume roles)
				// (or an administrators' role: OrganizationAccountAccessRole,
				// *Admin*)
				if role, _ := optValue(c.args(), "", "role-name"); (isProdName(role) || prodMarker(role) || strings.Contains(lower(role), "admin") || role == "OrganizationAccountAccessRole") &&
					strings.Contains(b, `"principal":{"aws":"arn:aws:iam::`) && strings.Contains(b, `:root"`) {
					return true, op + " " + role + " for a whole account"
				}
				// a web identity (GitHub's OIDC) trusted with no condition
				// on the token's subject: every repository on it
				if strings.Contains(b, `"federated"`) && strings.Contains(b, "assumerolewithwebidentity") && (!strings.Contains(b, ":sub") ||
					hasAny(b, `:sub":"*"`, `:sub":"repo:*"`, `:sub":"repo:*:*"`, `:sub":["repo:*"]`)) {
					return true, op + " for every holder of the identity provider's tokens"
				}
			case "gcloud":
				p := cliPath(c)
				if containsStr(p, "workload-identity-pools") && containsStr(p, "providers") {
					if v, ok := optValue(c.args(), "", "attribute-condition"); ok && (strings.TrimSpace(strings.Trim(v, `"'`)) == "true" || strings.TrimSpace(v) == "") {
						return true, "workload identity provider accepting every token"
					}
				}
			}
			return false, ""
		}},
	{ID: "k8s-masters-group-granted", Level: LevelHigh, Category: CategoryPrivilege, Description: "mapping an identity to the cluster's system:masters group (administrator of the cluster, past every role binding)",
		Suggestions: []string{"Map the identity to a group bound to a narrow role", "Use EKS access entries with a scoped policy"}, names: names("kubectl", "oc", "eksctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := c.argsText()
			if !strings.Contains(j, "system:masters") {
				return false, ""
			}
			if c.name == "eksctl" {
				return strings.Contains(j, "create iamidentitymapping"), "eksctl identity mapped to system:masters"
			}
			args := kubectlSubArgs(c.args())
			if len(args) > 0 {
				switch args[0].s {
				case "patch", "apply", "create", "replace", "set", "edit":
					return true, "kubectl " + args[0].s + " granting system:masters"
				}
			}
			return false, ""
		}},
	{ID: "k8s-admission-policy-removed", Level: LevelHigh, Category: CategorySystem, Description: "deleting a cluster's admission policies or their webhook (Gatekeeper, Kyverno): what they refused is admitted",
		Suggestions: []string{"Change the policy through its own reviewed configuration", "Put the one resource in an exempt namespace"}, names: names("kubectl", "oc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := kubectlSubArgs(c.args())
			if len(args) < 2 || args[0].s != "delete" {
				return false, ""
			}
			// kubectl delete clusterpolicy disallow-privileged-containers:
			// Kyverno's or Gatekeeper's rules themselves (a local
			// cluster's are the developer's)
			if kind, _, _ := strings.Cut(lower(args[1].s), "."); admissionPolicyKind(strings.SplitN(kind, "/", 2)[0]) && !localKubeContext(c.args()) {
				return true, "kubectl delete " + args[1].s
			}
			j := lower(joinWords(args))
			if !strings.Contains(j, "webhookconfiguration") {
				return false, ""
			}
			if hasAny(j, "gatekeeper", "kyverno", "policy", "opa", "kubewarden", "pod-security", "admission") {
				return true, "kubectl " + joinWords(args)
			}
			return false, ""
		}},
	{ID: "k8s-network-guard-removed", Level: LevelHigh, Category: CategoryPermission, Description: "deleting a namespace's deny-by-default network policy, or every policy of it (every pod may then reach every other)",
		Suggestions: []string{"Change the policy through the reviewed manifests", "Add an allow rule for the one flow you need"}, names: names("kubectl", "oc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := posArgs(c.args(), kubectlGlobal)
			if len(args) < 2 || args[0].s != "delete" || dryRun(c) || localKubeContext(c.args()) {
				return false, ""
			}
			kind, name, _ := strings.Cut(lower(args[1].s), "/")
			if kind != "networkpolicy" && kind != "networkpolicies" && kind != "netpol" && kind != "networkpolicy.networking.k8s.io" {
				return false, ""
			}
			if ns, _ := optValue(c.args(), "-n", "namespace"); testName(lower(ns)) || ns == "dev" || ns == "default" && !touchesProduction(c) {
				return false, "" // a test or the developer's own namespace
			}
			names := []string{name}
			for _, w := range args[2:] {
				names = append(names, lower(w.s))
			}
			if hasWord(c.args(), "--all") {
				names = append(names, "--all")
			}
			for _, n := range names {
				if n == "--all" || strings.Contains(n, "deny") {
					return true, "kubectl delete " + args[1].s + " " + n
				}
			}
			return false, ""
		}},
	{ID: "k8s-cluster-admin-everyone", Level: LevelCritical, Category: CategoryPrivilege, Description: "making anonymous or every authenticated identity cluster-admin",
		Suggestions: []string{"Bind a narrow role to one named subject", "Never bind system:anonymous or system:authenticated"}, names: names("kubectl", "oc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := c.argsText()
			if strings.Contains(j, "clusterrolebinding") && broadSubject(j) {
				return true, j
			}
			return false, ""
		}},
	{ID: "k8s-cluster-admin-binding", Level: LevelHigh, Category: CategoryPrivilege, Description: "granting cluster-admin (or admin) through a role binding",
		Suggestions: []string{"Bind a role with only the verbs and resources needed", "Scope the binding to one namespace"}, names: names("kubectl", "oc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := kubectlSubArgs(c.args()) // kubectl -n kube-system create ...
			if len(args) < 2 || (args[0].s != "create" && args[0].s != "adm" && args[0].s != "patch") || localKubeContext(c.args()) {
				return false, "" // (a kind or minikube cluster of the developer's own)
			}
			j := joinWords(args)
			if args[0].s == "patch" {
				// kubectl patch clusterrolebinding cluster-admin ... "subjects":
				// someone added to the cluster's own admin binding
				if len(args) > 2 && strings.Contains(args[1].s, "rolebinding") && (builtinClusterRole(args[2].s) && !strings.HasPrefix(args[2].s, "system:") || strings.HasSuffix(args[1].s, "/cluster-admin")) &&
					strings.Contains(j, "subjects") && !strings.Contains(j, `"remove"`) {
					return true, j
				}
				return false, ""
			}
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
			args := posArgs(c.args(), kubectlGlobal) // kubectl --context prod patch ...
			if len(args) < 2 {
				return false, ""
			}
			j := c.argsText()
			switch args[0].s {
			case "patch", "edit", "apply":
				if (strings.Contains(args[1].s, "clusterrole") || strings.Contains(args[1].s, "role")) && strings.Contains(j, `"*"`) && strings.Contains(j, "verbs") {
					return true, args[1].s
				}
				// kubectl patch clusterrole view ... "resources":["secrets"]:
				// a role everyone holds given the secrets
				if args[0].s == "patch" && (strings.Contains(args[1].s, "clusterrole") || strings.HasPrefix(args[1].s, "role")) && strings.Contains(j, `"secrets"`) &&
					(strings.Contains(j, `"get"`) || strings.Contains(j, `"list"`)) {
					return true, args[1].s + " given the secrets"
				}
				// an ingress's authentication annotation removed by a JSON
				// patch (/metadata/annotations/...auth-url)
				if args[0].s == "patch" && strings.Contains(j, `"remove"`) && hasAny(j, "auth-url", "auth-type", "auth-secret", "whitelist-source-range", "allowlist-source-range") && !localKubeContext(c.args()) {
					return true, "ingress protection removed by a patch"
				}
				// a pod template made privileged by a patch
				if args[0].s == "patch" && hasAny(strings.ReplaceAll(j, " ", ""), `"privileged":true`, `"allowPrivilegeEscalation":true`, `"hostPID":true`, `"hostNetwork":true`) && !localKubeContext(c.args()) {
					return true, "a workload made privileged by a patch"
				}
			case "label", "annotate":
				if strings.Contains(j, "pod-security.kubernetes.io/enforce=privileged") {
					return true, "pod-security privileged"
				}
				// the enforce label removed: nothing enforced there any more
				// (a development namespace's own is its owner's)
				if strings.Contains(j, "pod-security.kubernetes.io/enforce-") && !localKubeContext(c.args()) {
					return true, "pod-security enforcement removed"
				}
				// an ingress's rate limits, allow-list or authentication
				// annotations removed: the service open to every client
				if !localKubeContext(c.args()) {
					for _, k := range [...]string{"/limit-rps-", "/limit-rpm-", "/limit-connections-", "/whitelist-source-range-", "/allowlist-source-range-", "/auth-url-", "/auth-type-", "/auth-secret-"} {
						if strings.Contains(j+" ", k+" ") || strings.HasSuffix(j, k) {
							return true, "ingress protection removed (" + strings.Trim(k, "/-") + ")"
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "k8s-privileged-pod", Level: LevelCritical, Category: CategoryPrivilege, Description: "starting a privileged pod with the host's namespaces (root on the node)",
		Suggestions: []string{"Run pods unprivileged", "Use kubectl debug node with an approved profile"}, names: names("kubectl", "oc", "helm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "helm" {
				// helm install X --set privileged=true,hostNetwork=true:
				// the chart's pods given the node (a local cluster's are
				// the developer's)
				if ops := c.operands(); len(ops) == 0 || ops[0].s != "install" && ops[0].s != "upgrade" || localKubeContext(args) {
					return false, ""
				}
				for _, w := range args {
					for _, kv := range strings.Split(lower(w.s), ",") {
						k, v, ok := strings.Cut(kv, "=")
						if !ok || v != "true" {
							continue
						}
						if k = k[strings.LastIndexByte(k, '.')+1:]; k == "privileged" || k == "hostnetwork" || k == "hostpid" || k == "hostipc" || k == "allowprivilegeescalation" {
							return true, "helm --set " + kv
						}
					}
				}
				return false, ""
			}
			ops := posArgs(args, kubectlGlobal) // kubectl --context prod run ...
			if len(ops) == 0 || ops[0].s != "run" && ops[0].s != "debug" {
				return false, ""
			}
			j := strings.ReplaceAll(joinWords(args), " ", "")
			if strings.Contains(j, `"privileged":true`) || strings.Contains(j, `"hostPID":true`) || strings.Contains(j, `"hostNetwork":true`) && strings.Contains(j, "nsenter") ||
				ops[0].s == "debug" && strings.Contains(j, "--profile=sysadmin") && strings.Contains(j, "node/") {
				return true, "privileged pod"
			}
			// kubectl debug node/N -it --image=busybox -- chroot /host: the
			// node's own root file system, entered as root (a cluster on
			// this machine is the developer's)
			if ops[0].s == "debug" && len(ops) > 1 && strings.HasPrefix(ops[1].s, "node/") && !localKubeContext(args) && !a.localKubeSwitched() {
				// (a command given to the chroot is judged as itself)
				for i, w := range args {
					if w.s == "chroot" && i+1 < len(args) && args[i+1].s == "/host" && (i+2 == len(args) || i+3 == len(args) && shellNameSet[path.Base(args[i+2].s)]) {
						return true, "a root shell on " + ops[1].s
					}
				}
			}
			return false, ""
		}},
	{ID: "suid-hunt", Level: LevelHigh, Category: CategoryPrivilege, Description: "searching the system for setuid or setgid programs (privilege-escalation reconnaissance)",
		Suggestions: []string{"Search only the project directory", "Audit setuid files with the distribution's tools"}, names: names("find", "getcap"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "getcap" {
				// a recursive capability scan of the system: the same hunt
				// for programs that grant more than their caller has
				if !hasWord(args, "-r") {
					return false, ""
				}
				for _, w := range c.operands() {
					// the whole system or a top folder (/, /usr, /opt); the
					// program folders (/usr/bin) are where one looks up a
					// tool's own capabilities
					if p := a.absPath(w.s, c.cwd); p != "" && !a.inWork(p) && strings.Count(strings.Trim(p, "/"), "/") < 1 {
						return true, "getcap -r " + w.s
					}
				}
				return false, ""
			}
			if len(c.findExecs) > 0 || c.findDelete {
				return false, "" // what it does with them is judged
			}
			// the hunt is a sweep of the system: a search of one program
			// folder (/usr/local/bin, /opt) or of the project is a review of
			// what is installed there
			sweep := false
			for _, w := range args {
				if strings.HasPrefix(w.s, "-") || w.s == "!" || w.s == "(" {
					break
				}
				if p := a.absPath(w.s, c.cwd); p != "" && (p == a.home || suidSweepRoots[p]) {
					sweep = true
				}
			}
			if !sweep {
				return false, ""
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
		names:       names("gcloud", "aws", "az", "gh", "oci"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := c.argsText()
			lj := strings.ToLower(j)
			switch c.name {
			case "oci":
				// oci iam policy create --statements '["Allow any-user to
				// manage all-resources in tenancy"]'
				if strings.Contains(lj, "iam policy") && (strings.Contains(lj, "allow any-user") || strings.Contains(lj, "manage all-resources in tenancy")) {
					return true, "an OCI policy over the whole tenancy"
				}
			case "aws":
				// create-policy-version --set-as-default with iam:* or every
				// action (from a file named for it): the policy's holders
				// administrators from now on
				if op, rest := awsOp(c); op == "iam create-policy-version" && hasWord(rest, "--set-as-default") {
					doc, _ := optValue(rest, "", "policy-document")
					d := strings.ReplaceAll(lower(doc), " ", "")
					if strings.Contains(d, `"iam:*"`) || strings.Contains(d, `"action":"*"`) || strings.Contains(d, `"action":["*"`) || strings.HasPrefix(d, "file://") && strings.Contains(d, "admin") {
						return true, op + " --set-as-default (administrator rights)"
					}
				}
				if op, rest := awsOp(c); op == "iot create-policy" || op == "iot create-policy-version" {
					doc, _ := optValue(rest, "", "policy-document")
					if d := strings.ReplaceAll(lower(doc), " ", ""); strings.Contains(d, `"iot:*"`) && strings.Contains(d, `"resource":"*"`) {
						return true, op + " allowing every IoT action on every device"
					}
				}
				if strings.Contains(j, "iam ") && (strings.Contains(j, "AdministratorAccess") || strings.Contains(j, "IAMFullAccess") || strings.Contains(j, `"Action":"*"`) ||
					strings.Contains(j, `"Principal":"*"`) || strings.Contains(j, "add-user-to-group") && strings.Contains(lj, "admin")) {
					return true, j
				}
			case "gcloud":
				if strings.Contains(j, "add-iam-policy-binding") && (strings.Contains(j, "roles/owner") || strings.Contains(j, "roles/editor") ||
					strings.Contains(j, "allUsers") || strings.Contains(j, "allAuthenticatedUsers") || strings.Contains(j, "Admin")) {
					return true, j
				}
			case "az":
				if (strings.Contains(j, "role assignment create") || strings.Contains(j, "create-for-rbac")) && (strings.Contains(j, "Owner") || strings.Contains(j, "Contributor") || strings.Contains(j, "User Access Administrator")) {
					return true, j
				}
			case "gh":
				if strings.Contains(j, "collaborators/") && (strings.Contains(j, "permission=admin") || strings.Contains(j, "permission=maintain")) {
					return true, j
				}
			}
			return false, ""
		}},
	{ID: "device-root-unlocked", Level: LevelHigh, Category: CategoryPrivilege, Description: "making a phone's system writable or its boot loader unlocked (root on the device, verified boot off)",
		Suggestions: []string{"Use an emulator image for work that needs root"}, names: names("adb", "fastboot"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) == 0 {
				return false, ""
			}
			switch c.name {
			case "adb":
				switch ops[0].s {
				case "root", "disable-verity", "remount":
					return true, "adb " + ops[0].s
				}
			case "fastboot":
				if ops[0].s == "oem" && len(ops) > 1 && ops[1].s == "unlock" || ops[0].s == "flashing" && len(ops) > 1 && (ops[1].s == "unlock" || ops[1].s == "unlock_critical") {
					return true, "fastboot " + joinWords(ops[:2])
				}
			}
			return false, ""
		}},
	{ID: "db-superuser-grant", Level: LevelHigh, Category: CategoryPrivilege, Description: "making a database account all-powerful, turning row-level security off, opening the server to every address, or deleting the logs replicas and restores need",
		Suggestions: []string{"Grant the narrowest role the task needs", "Leave server settings to the database's administrators"},
		names:       dbClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			if h, ok := optValue(c.args(), "-h", "host"); ok && isLocalHost(h) && a.testScoped(c) {
				return false, "" // a test's database on this machine (app_test)
			}
			return sqlFinding(func(s *sqlScan) string { return s.serverPriv })(a, c)
		}},
	{ID: "cloud-root-access", Level: LevelHigh, Category: CategoryPrivilege, Description: "root on a cloud machine or a cluster's credentials handed out: a key pushed for root, root's password set, a certificate request approved, a tenant-wide consent given",
		Suggestions: []string{"Connect as your own user and use sudo", "Leave approvals and consents to the administrators"}, names: names("aws", "az", "kubectl", "oc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			j := joinWords(args)
			switch c.name {
			case "aws":
				if strings.Contains(j, "ec2-instance-connect send-ssh-public-key") {
					if u, ok := optValue(args, "", "instance-os-user"); ok && u == "root" {
						return true, "a key pushed for root"
					}
				}
			case "az":
				if strings.Contains(j, "vm user update") {
					if u, ok := optValue(args, "-u", "username"); ok && u == "root" {
						return true, "root's password set on a VM"
					}
				}
				if strings.Contains(j, "ad app permission admin-consent") {
					return true, "a tenant-wide consent"
				}
			case "kubectl", "oc":
				ops := posArgs(args, kubectlGlobal)
				if len(ops) > 2 && ops[0].s == "certificate" && ops[1].s == "approve" {
					return true, "a certificate request approved"
				}
			}
			return false, ""
		}},
	{ID: "identity-admin-grant", Level: LevelHigh, Category: CategoryPrivilege, Description: "granting an administrator or root role in a secrets server, identity provider, access proxy, password manager or forge",
		Suggestions: []string{"Grant the narrowest role the task needs", "Have an administrator review the grant"},
		names:       names("vault", "kcadm.sh", "kcadm", "tctl", "bw", "curl", "http", "https", "xh", "az", "net"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "az":
				// az ad group member add --group "Subscription Owners":
				// a directory group that holds administrators' rights
				ops := c.operands()
				if len(ops) < 4 || ops[0].s != "ad" || ops[1].s != "group" || ops[2].s != "member" || ops[3].s != "add" {
					return false, ""
				}
				if g, _ := optValue(args, "-g", "group"); adminGroupName(g) {
					return true, "az ad group member add --group " + g
				}
				return false, ""
			case "net":
				// Samba's net rpc group addmem "Domain Admins" USER
				low := c.lowerArgs()
				for i := 0; i+3 < len(low); i++ {
					if low[i] == "rpc" && low[i+1] == "group" && low[i+2] == "addmem" && adminGroupName(low[i+3]) {
						return true, "net rpc group addmem " + low[i+3]
					}
				}
				return false, ""
			case "vault":
				// -policy=root, policies=admin,root, token_policies=root
				for i, w := range args {
					k, v, ok := strings.Cut(strings.TrimLeft(w.s, "-"), "=")
					if !ok && (w.s == "-policy" || w.s == "--policy") && i+1 < len(args) {
						k, v, ok = "policy", args[i+1].s, true
					}
					if ok && (k == "policy" || k == "policies" || k == "token_policies") && privilegedRole(v, "root", "admin") {
						return true, "vault " + k + "=" + v
					}
				}
			case "kcadm.sh", "kcadm":
				// a realm's admin role, or any role in the master realm
				ops := c.operands()
				if len(ops) == 0 || ops[0].s != "add-roles" {
					return false, ""
				}
				if v, ok := optValue(args, "", "rolename"); ok && privilegedRole(v, "admin", "realm-admin", "manage-users", "manage-realm") {
					return true, "kcadm add-roles --rolename " + v
				}
			case "tctl":
				for _, o := range [...]string{"roles", "set-roles"} {
					if v, ok := optValue(args, "", o); ok && privilegedRole(v, "editor", "admin") {
						return true, "tctl --" + o + "=" + v
					}
				}
			case "bw":
				// organisation member types: 0 owner, 1 admin
				if hasWord(args, "org-member") {
					if v, ok := optValue(args, "", "type"); ok && (v == "0" || v == "1") {
						return true, "bw org-member --type " + v
					}
				}
			default:
				for _, u := range urlArgs(args) {
					// GitLab: PUT /users/:id?admin=true
					if strings.Contains(u, "/api/v4/users/") && strings.Contains(u, "admin=true") {
						return true, u
					}
				}
				if j := joinWords(args); strings.Contains(j, "_security/role_mapping") && strings.Contains(j, "superuser") {
					return true, "an Elasticsearch role mapping to superuser"
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
	{ID: "docker-socket-mount", Level: LevelHigh, Category: CategoryPrivilege, Description: "giving a container the container runtime's socket (root on the host)",
		Suggestions: []string{"Use rootless tooling or a narrowly scoped API proxy", "Do not mount docker.sock into untrusted images"}, names: names("docker", "podman", "nerdctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, rest := dockerSub(c)
			if sub != "run" && sub != "create" && sub != "container run" && sub != "container create" {
				return false, ""
			}
			for _, w := range rest {
				if strings.Contains(w.s, "docker.sock:") || strings.Contains(w.s, "containerd.sock:") || strings.Contains(w.s, "podman.sock:") ||
					strings.Contains(w.s, "src=/var/run/docker.sock") || strings.Contains(w.s, "source=/var/run/docker.sock") {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "ssh-agent-hijack", Level: LevelHigh, Category: CategoryPrivilege, Description: "using another user's SSH agent socket",
		Suggestions: []string{"Use your own agent (ssh-add)", "Ask for access to the host"}, names: nil,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, as := range c.assigns {
				if as.name != "SSH_AUTH_SOCK" && as.name != "GPG_AGENT_INFO" {
					continue
				}
				if foreignAgentSocket(as.val) {
					return true, as.val.s
				}
				// a value computed by searching for sockets: read what the
				// substitution searches in the command's text
				if !as.val.ok {
					if i := strings.Index(a.src, as.name+"=$("); i >= 0 {
						frag := a.src[i+len(as.name)+1:]
						if j := strings.Index(frag, ")"); j >= 0 {
							frag = frag[:j+1]
						}
						if strings.Contains(frag, "/tmp") || strings.Contains(frag, "agent.") {
							return true, truncate(frag, 80)
						}
					}
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, privilegeRules) }

// narrowCaps are capabilities that give a program no way to read, write
// or control what is not its own.
var narrowCaps = map[string]bool{
	"cap_net_bind_service": true, "cap_net_raw": true, "cap_sys_nice": true, "cap_ipc_lock": true, "cap_perfmon": true,
	"cap_wake_alarm": true, "cap_block_suspend": true, "cap_audit_write": true, "cap_sys_resource": true,
}

// grantsBroadCap reports a capability text (cap_x,cap_y+ep or =eip)
// granting, in the effective or permitted set, any capability but the
// narrow ones: cap_dac_read_search on tar reads every file.
func grantsBroadCap(l string) bool {
	i := strings.IndexAny(l, "+=")
	if i <= 0 || !strings.ContainsAny(l[i:], "ep") || strings.Contains(l[i:], "-") {
		return false
	}
	for _, c := range strings.Split(l[:i], ",") {
		if strings.HasPrefix(c, "cap_") && !narrowCaps[c] {
			return true
		}
	}
	return false
}

// foreignAgentSocket reports an agent socket in the shared temporary
// directories or root's runtime directory: a forwarded agent there
// belongs to another login, and its keys open that login's hosts.
func foreignAgentSocket(w word) bool {
	for _, p := range [...]string{"/tmp/ssh-", "/tmp/ssh_", "/var/tmp/ssh-", "/run/user/0/", "/root/"} {
		if strings.Contains(w.s, p) {
			return true
		}
	}
	return false
}

// kubectlSubArgs drops kubectl's global options before the subcommand
// (-n NS, --context CTX, --kubeconfig FILE).
func kubectlSubArgs(args []word) []word {
	for len(args) > 0 && strings.HasPrefix(args[0].s, "-") {
		switch args[0].s {
		case "-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--as", "--token":
			if len(args) < 2 {
				return nil
			}
			args = args[2:]
		default:
			args = args[1:]
		}
	}
	return args
}

// forgeSettingField returns a field of a forge API call (gh api -f
// k=v, a query string, a JSON body) that publishes the repository, grants
// admin, archives it or moves its default branch, or "".
func forgeSettingField(s string) string {
	l := strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(s, `"`, ""), " ", ""))
	for _, f := range [...]string{"visibility=public", "visibility:public", "private=false", "private:false", "archived=true", "archived:true",
		"role=admin", "role:admin", "role=owner", "permission=admin", "permission:admin", "access_level=50", "default_branch="} {
		if strings.Contains(l, f) {
			return f
		}
	}
	return ""
}

// privilegedRole reports a comma-separated role or policy list holding
// one of the given privileged names.
func privilegedRole(list string, privileged ...string) bool {
	for _, r := range strings.Split(strings.Trim(list, `"'`), ",") {
		r = strings.ToLower(strings.TrimSpace(r))
		for _, p := range privileged {
			if r == p {
				return true
			}
		}
	}
	return false
}

// suidSweepRoots are the folders whose search for setuid programs is a
// sweep of the whole system rather than a look at one install.
var suidSweepRoots = map[string]bool{"/": true, "/usr": true, "/home": true, "/var": true, "/etc": true, "/root": true, "/bin": true, "/sbin": true, "/lib": true}

// volumeSource is the host side of a -v SRC:DST[:MODE] specification; a
// Windows drive's colon (C:\Users\dev:/host, /c:/users/dev:/host) is
// part of the source.
func volumeSource(v string) string {
	skip := 0
	switch {
	case len(v) >= 3 && isLetters(v[:1]) && v[1] == ':' && (v[2] == '\\' || v[2] == '/'):
		skip = 2
	case len(v) >= 4 && v[0] == '/' && isLetters(v[1:2]) && v[2] == ':' && v[3] == '/':
		skip = 3
	}
	if i := strings.IndexByte(v[skip:], ':'); i >= 0 {
		return v[:skip+i]
	}
	return v
}

// admissionPolicyKind reports a Kubernetes kind that holds a cluster's
// admission rules: Kyverno's cluster policies, Gatekeeper's constraint
// templates, admission policies.
func admissionPolicyKind(kind string) bool {
	switch kind {
	case "clusterpolicy", "clusterpolicies", "constrainttemplate", "constrainttemplates", "validatingadmissionpolicy", "validatingadmissionpolicies",
		"validatingadmissionpolicybinding", "validatingadmissionpolicybindings", "podsecuritypolicy", "podsecuritypolicies", "psp":
		return true
	}
	return false
}

// madeKeychain reports a line that makes the keychain name itself
// (security create-keychain -p test build.keychain) before deleting it.
func madeKeychain(src, name string) bool {
	i := strings.Index(src, "create-keychain")
	if i < 0 || name == "" {
		return false
	}
	rest := src[i:]
	j := strings.Index(rest, "delete-keychain")
	if j < 0 {
		return false
	}
	for _, f := range strings.Fields(rest[:j]) {
		if strings.Trim(f, `"';&`) == name {
			return true
		}
	}
	return false
}

// tempKeychain reports a keychain path in a CI job's or the system's
// temporary folder ($RUNNER_TEMP, $TMPDIR, /tmp).
func tempKeychain(p string) bool {
	p = strings.Trim(p, `"'`)
	return strings.HasPrefix(p, "$RUNNER_TEMP/") || strings.HasPrefix(p, "${RUNNER_TEMP}/") || strings.HasPrefix(p, "$TMPDIR") ||
		strings.HasPrefix(p, "${TMPDIR") || strings.HasPrefix(p, "/tmp/") || strings.HasPrefix(p, "$AGENT_TEMPDIRECTORY/")
}

// gamPasswordSet reads GAM's "update user(s) ... password VALUE": a
// password the operator chose, given to one account or to every account
// of an organisational unit or group (random ones pass).
func gamPasswordSet(c *cmd) (bool, string) {
	low := c.lowerArgs()
	for i := 0; i+1 < len(low); i++ {
		if low[i] != "update" || low[i+1] != "user" && low[i+1] != "users" {
			continue
		}
		for j := i + 2; j+1 < len(low); j++ {
			if low[j] != "password" {
				continue
			}
			switch v := low[j+1]; v {
			case "random", "uniquerandom", "blocklogin":
				return false, ""
			}
			target := strings.Join(low[:i], " ") // gam ou /Students update user password X
			if i == 0 {
				target = low[2] // gam update user NAME password X
			}
			if testName(target) || scratchName(target) {
				return false, ""
			}
			return true, "password set for " + target
		}
	}
	return false, ""
}

// adminGroupName reports a directory group named for administrators or
// owners (Domain Admins, SG-Azure-Subscription-Owners, Global
// Administrators, Privileged Role ...).
func adminGroupName(g string) bool {
	l := lower(g)
	return !scratchName(l) && hasAny(l, "admin", "owner", "privileged", "enterprise key", "schema")
}
