package guard

import (
	"slices"
	"strconv"
	"strings"
)

// Rules for opening up permissions and ownership (category permission).
var permissionRules = []*rule{
	{ID: "cloud-firewall-open", Level: LevelHigh, Category: CategoryPermission, Description: "opening every port, or a remote-administration or database port, of cloud machines to the whole internet",
		Suggestions: []string{"Allow only the addresses that need access (your office or VPN range)", "Open only the web ports (80, 443) to everyone"},
		names:       names("aws", "az", "gcloud", "doctl", "hcloud"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			j := lower(joinWords(args))
			switch c.name {
			case "doctl":
				// a managed database's trusted sources opened to all
				if strings.Contains(j, "databases firewalls") && (strings.Contains(j, "ip_addr:0.0.0.0/0") || strings.Contains(j, "ip_addr:::/0")) {
					return true, "database firewall open to every address"
				}
				if !strings.Contains(j, "compute firewall") {
					return false, ""
				}
				v, _ := optValue(args, "", "inbound-rules")
				return doctlRuleOpen(v), "firewall rule from anywhere: " + v
			case "hcloud":
				if !strings.Contains(j, "firewall add-rule") || strings.Contains(j, "--direction out") {
					return false, ""
				}
				port, _ := optValue(args, "", "port")
				for i, w := range args {
					if w.s == "--source-ips" && i+1 < len(args) && worldCIDR(args[i+1].s) && sensitivePorts(port) {
						return true, "firewall rule from anywhere: port " + port
					}
				}
				return false, ""
			case "aws":
				if strings.Contains(j, "rds modify-db-instance") || strings.Contains(j, "rds create-db-instance") ||
					strings.Contains(j, "redshift modify-cluster") || strings.Contains(j, "redshift create-cluster") {
					return hasWord(args, "--publicly-accessible"), "database instance made public"
				}
				if !strings.Contains(j, "authorize-security-group-ingress") || !strings.Contains(j, "0.0.0.0/0") && !strings.Contains(j, "::/0") {
					return false, ""
				}
				proto, _ := optValue(args, "", "protocol")
				port, _ := optValue(args, "", "port")
				if _, rest, ok := strings.Cut(j, "fromport="); ok && port == "" {
					// --ip-permissions 'IpProtocol=tcp,FromPort=5432,...'
					port = rest[:strings.IndexFunc(rest+",", func(r rune) bool { return r < '0' || r > '9' })]
				}
				if proto == "-1" || proto == "all" || sensitivePorts(port) || strings.Contains(j, "ipprotocol=-1") {
					return true, "security group ingress from anywhere"
				}
			case "az":
				// a key vault or storage account opened to every network
				if (strings.Contains(j, "keyvault update") || strings.Contains(j, "storage account update")) &&
					(strings.Contains(j, "--default-action allow") || strings.Contains(j, "--public-network-access enabled")) {
					return true, "opened to every network"
				}
				if strings.Contains(j, "firewall-rule create") || strings.Contains(j, "firewall-rule update") {
					// a managed database or cache's firewall from 0.0.0.0 to 255.255.255.255
					start, _ := optValue(args, "", "start-ip-address")
					end, _ := optValue(args, "", "end-ip-address")
					return start == "0.0.0.0" && end == "255.255.255.255", "database firewall from anywhere"
				}
				if !strings.Contains(j, "nsg rule create") && !strings.Contains(j, "nsg rule update") || strings.Contains(j, "--access deny") {
					return false, ""
				}
				src, _ := optValue(args, "", "source-address-prefixes")
				if src == "" {
					src, _ = optValue(args, "", "source-address-prefix")
				}
				dst, _ := optValue(args, "", "destination-port-ranges")
				if dst == "" {
					dst, _ = optValue(args, "", "destination-port-range")
				}
				if (src == "*" || lower(src) == "internet" || src == "0.0.0.0/0" || lower(src) == "any") && sensitivePorts(dst) {
					return true, "network security rule from anywhere"
				}
			case "gcloud":
				// a managed database's allowed networks: its port, open to all
				if strings.Contains(j, "sql instances") {
					if v, ok := optValue(args, "", "authorized-networks"); ok && (strings.Contains(v, "0.0.0.0/0") || strings.Contains(v, "::/0")) {
						return true, "database reachable from anywhere: " + v
					}
					return false, ""
				}
				if !strings.Contains(j, "firewall-rules create") && !strings.Contains(j, "firewall-rules update") {
					return false, ""
				}
				src, _ := optValue(args, "", "source-ranges")
				allow, _ := optValue(args, "", "allow")
				if strings.Contains(src, "0.0.0.0/0") || src == "" && strings.Contains(j, "firewall-rules create") {
					for _, p := range strings.Split(lower(allow), ",") {
						_, port, _ := strings.Cut(p, ":")
						if p == "all" || p == "tcp" || p == "udp" || sensitivePorts(port) {
							return true, "firewall rule from anywhere: " + allow
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "chmod-weaken-credentials", Level: LevelModerate, Category: CategoryPermission, Description: "opening up permissions on SSH keys or personal configuration",
		Suggestions: []string{"Keep ~/.ssh at 700 and its files at 600", "Grant access to a specific file only"}, names: names("chmod"),
		match: func(a *analysis, c *cmd) (bool, string) {
			mode := chmodMode(c)
			writeGO := false
			if n, ok := octalMode(mode); ok {
				writeGO = n&0o022 != 0
			} else {
				for _, cl := range strings.Split(mode, ",") {
					who, perm, ok := cutOp(cl)
					if ok && perm[0] != '-' && (who == "" || strings.ContainsAny(who, "goa")) && strings.Contains(perm[1:], "w") {
						writeGO = true
					}
				}
			}
			for _, t := range a.permTargets(c) {
				if t.class != pcSecretsHome && t.class != pcHomeConfig && !(t.class == pcHomeSub && strings.Contains(t.w.s, "/.ssh/")) {
					continue
				}
				if writeGO || t.rec && modeOthersRead(mode) {
					return true, t.w.s
				}
			}
			return false, ""
		}},
	{ID: "chmod-recursive-system", Level: LevelCritical, Category: CategoryPermission, Description: "recursive permission or owner change on a system directory",
		Suggestions: []string{"Change permissions only on the files that need it", "Limit the change to the project directory"}, names: names("chmod", "chown", "chgrp", "setfacl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.permTargets(c) {
				if t.rec && (t.class == pcRoot || t.class == pcSystemCrit || t.class == pcCritFile) {
					return true, t.w.s
				}
			}
			return false, ""
		}},
	{ID: "chmod-sensitive-file", Level: LevelCritical, Category: CategoryPermission, Description: "making a credentials file (shadow, sudoers, keys) accessible to others",
		Suggestions: []string{"Keep /etc/shadow at 640 and keys at 600", "Use sudo to read protected files instead"}, names: names("chmod", "chown", "setfacl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			mode := chmodMode(c)
			for _, t := range a.permTargets(c) {
				p := a.absPath(t.w.s, c.cwd)
				if p == "" {
					continue
				}
				d, crit := a.sensitive(t.w.s, c.cwd)
				secret := crit && (t.class == pcCritFile || t.class == pcSecretsHome || strings.HasPrefix(p, "/etc/"))
				if f, ok := a.writtenFile(t.w.s, c.cwd); ok && f.kind == flowSecret && f.crit && c.name == "chmod" {
					// cp /etc/rancher/k3s/k3s.yaml /tmp/k && chmod 644 /tmp/k:
					// the copy holds what the original does
					secret, d = true, "a copy of "+f.what
				}
				if c.name == "setfacl" && crit && t.class != pcHome && setfaclGrantsOthers(c.args()) {
					return true, d // setfacl -m o::r ~/.ssh/id_rsa
				}
				if c.name == "chown" || c.name == "setfacl" {
					if secret && t.class == pcCritFile {
						return true, d
					}
					// sudo chown dev /etc/passwd: the account files given to
					// a user, who can then make any account root
					if c.name == "chown" && !chownsToRoot(c) && (p == "/etc/passwd" || p == "/etc/shadow" || p == "/etc/group" || p == "/etc/gshadow" ||
						p == "/etc/sudoers" || strings.HasPrefix(p, "/etc/sudoers.d")) {
						return true, p
					}
					continue
				}
				if secret && (modeWorldWritable(mode) || modeOthersRead(mode)) {
					return true, d
				}
				if (p == "/etc/passwd" || p == "/etc/group") && modeWorldWritable(mode) {
					return true, p
				}
			}
			return false, ""
		}},
	{ID: "chmod-secret-readable", Level: LevelModerate, Category: CategoryPermission, Description: "letting other users or the group read a file of credentials or keys",
		Suggestions: []string{"Keep credentials readable by their owner only (chmod 600)", "Share the one value needed through a secret store"}, names: names("chmod"),
		match: func(a *analysis, c *cmd) (bool, string) {
			mode := chmodMode(c)
			if !modeSharesRead(mode) {
				return false, ""
			}
			_, octal := octalMode(mode)
			for _, t := range a.permTargets(c) {
				if octal && !modeOthersRead(mode) && !modeWorldWritable(mode) && strings.HasPrefix(a.absPath(t.w.s, c.cwd), "/etc/") {
					continue // 640: the system's own group (shadow, ssl-cert) reads it
				}
				if d, crit := a.sensitive(t.w.s, c.cwd); crit && !strings.HasPrefix(d, "the home directory") {
					return true, d
				}
				if t.class == pcHistory && modeOthersRead(mode) {
					return true, "shell history " + t.w.s // the tokens typed into commands, for every user to read
				}
			}
			return false, ""
		}},
	{ID: "chmod-root", Level: LevelCritical, Category: CategoryPermission, Description: "permission change on / or a system directory",
		Suggestions: []string{"Do not change permissions of system directories", "Limit the change to the project directory"}, names: names("chmod", "setfacl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			mode := chmodMode(c)
			for _, t := range a.permTargets(c) {
				if !t.rec && (t.class == pcRoot || (t.class == pcSystemCrit || t.class == pcCritFile) && (modeWorldWritable(mode) || modeRemovesAll(mode)) ||
					c.name == "chmod" && systemProgram(t.w.s) && modeRemovesExec(mode)) {
					return true, t.w.s
				}
			}
			return false, ""
		}},
	{ID: "chown-system-program", Level: LevelHigh, Category: CategoryPermission, Description: "giving a system program or library to an ordinary user (who can then replace what root runs)",
		Suggestions: []string{"Leave system programs owned by root", "Install your own build under /usr/local or the home directory"}, names: names("chown", "chgrp"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "chown" && chownsToRoot(c) {
				return false, ""
			}
			for _, t := range a.permTargets(c) {
				p := a.absPath(t.w.s, c.cwd)
				if systemProgram(p) && !strings.HasPrefix(p, "/usr/local/") {
					return true, p
				}
			}
			return false, ""
		}},
	{ID: "nfs-export-opened", Level: LevelHigh, Category: CategoryPermission, Description: "exporting a file system over NFS with root's rights kept (no_root_squash), from any port, or to every host",
		Suggestions: []string{"Export to the named hosts that need it, with root_squash", "Keep backups' exports read-only"},
		names:       names("zfs", "exportfs"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := lower(c.argsText())
			switch c.name {
			case "zfs":
				if !strings.Contains(j, "set sharenfs=") {
					return false, ""
				}
			case "exportfs":
				if !strings.Contains(j, "-o") {
					return false, ""
				}
			}
			if strings.Contains(j, "no_root_squash") || strings.Contains(j, "insecure") || strings.Contains(j, "rw=*") || strings.Contains(j, "rw=@0.0.0.0/0") || strings.Contains(j, " *:/") {
				return true, c.argsText()
			}
			return false, ""
		}},
	{ID: "immutable-flag-off", Level: LevelHigh, Category: CategoryPermission, Description: "removing the immutable or append-only flag from system files",
		Suggestions: []string{"Leave system files' flags to the administrator who set them"}, names: names("chattr", "chflags"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			off := false
			for _, w := range args {
				if c.name == "chattr" && strings.HasPrefix(w.s, "-") && strings.ContainsAny(w.s[1:], "ia") && w.s != "-R" && w.s != "-f" && w.s != "-V" {
					off = true
				}
				if c.name == "chflags" && (w.s == "noschg" || w.s == "nouchg" || w.s == "nosappnd" || w.s == "nosunlnk") {
					off = true
				}
			}
			if !off {
				return false, ""
			}
			for _, w := range c.operands() {
				p := a.absPath(w.s, c.cwd)
				if p == "" || a.inWork(p) {
					continue
				}
				for _, sys := range [...]string{"/etc", "/usr", "/bin", "/sbin", "/boot", "/lib", "/var/log", "/root"} {
					if p == sys || strings.HasPrefix(p, sys+"/") {
						return true, p
					}
				}
				// /srv/immutable-backups: backups made immutable so that
				// nothing (ransomware included) deletes them
				if l := lower(p); strings.Contains(l, "backup") || strings.Contains(l, "immutable") {
					return true, p + " (backups)"
				}
			}
			return false, ""
		}},
	{ID: "chmod-protected", Level: LevelHigh, Category: CategoryPermission, Description: "changing the owner or mode of what HotPlex owns",
		Suggestions: []string{"Change permissions only inside this session's work directory"}, names: names("chmod", "chown", "chgrp", "setfacl", "chattr"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ws := chmodTargets(c)
			if c.name == "chattr" {
				ws = c.operands()
			}
			for _, w := range ws {
				if w.ok && a.classifyDelete(w, c.cwd) == pcProtected {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "chmod-world-writable-outside", Level: LevelHigh, Category: CategoryPermission, Description: "making files outside the work directory world-writable",
		Suggestions: []string{"Grant only what is needed (chmod u+x, 644, 755)", "Limit the change to the project directory"}, names: names("chmod", "setfacl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			mode := chmodMode(c)
			if c.name == "chmod" && everyoneACL(c.args()) {
				// macOS: chmod +a "everyone allow read,write,delete" DIR
				mode = "777"
			}
			if !modeWorldWritable(mode) {
				return false, ""
			}
			if c.name == "chmod" && (mode == "777" || mode == "0777" || mode == "666" || mode == "0666") {
				// chmod 777 /tmp: the sticky bit dropped, so that every
				// user may delete or replace the others' files there
				for _, w := range c.operands() {
					if p := strings.TrimRight(w.s, "/"); p == "/tmp" || p == "/var/tmp" || p == "/dev/shm" || p == "/private/tmp" {
						return true, mode + " " + w.s + " (its sticky bit dropped)"
					}
				}
			}
			for _, w := range c.operands() {
				// chmod 666 "$SSH_AUTH_SOCK": every local user signs with
				// the loaded keys through the agent
				if strings.Contains(w.s, "SSH_AUTH_SOCK") || strings.Contains(w.s, "/agent.") && strings.Contains(w.s, "/ssh-") {
					return true, w.s
				}
			}
			for _, t := range a.permTargets(c) {
				switch t.class {
				case pcSystemSub, pcHome, pcHomeConfig, pcLogs, pcDBData:
					return true, t.w.s
				case pcHomeSub, pcOutside, pcEscape:
					if t.rec {
						return true, t.w.s
					}
				}
			}
			return false, ""
		}},
	{ID: "install-world-writable", Level: LevelHigh, Category: CategoryPermission, Description: "installing a system file or directory writable by everyone",
		Suggestions: []string{"Install with -m 0755 or 0644", "Keep writable folders inside the project"}, names: names("install"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			mode, ok := optValue(args, "-m", "mode")
			if !ok || !modeWorldWritable(mode) {
				return false, ""
			}
			for _, w := range posArgs(args, optSpec{short: "mogtS", long: []string{"mode", "owner", "group", "target-directory", "suffix"}}) {
				p := a.absPath(w.s, c.cwd)
				if p == "" || underTemp(p) || a.inWork(p) {
					continue
				}
				for _, root := range [...]string{"/etc/", "/usr/", "/var/", "/opt/", "/srv/", "/bin/", "/sbin/", "/lib/", "/boot/", "/root/"} {
					if strings.HasPrefix(p+"/", root) {
						return true, mode + " " + w.s
					}
				}
			}
			return false, ""
		}},
	{ID: "chmod-project-exposed", Level: LevelModerate, Category: CategoryPermission, Description: "making the project writable by everyone, a private key readable by others, or the project root's own",
		Suggestions: []string{"Grant only what is needed (chmod -R u+w, g+w for a shared group)", "Keep keys at 600"}, names: names("chmod", "chown"),
		match: func(a *analysis, c *cmd) (bool, string) {
			mode := chmodMode(c)
			for _, t := range a.permTargets(c) {
				inProject := t.class == pcInside || t.class == pcWorkDir || t.class == pcWorkSource || t.class == pcWorkContents
				switch {
				case !inProject:
				case c.name == "chmod" && t.rec && modeWorldWritable(mode) && (t.class != pcInside || servedDir(t.w.s)):
					return true, "world-writable: " + t.w.s
				case c.name == "chmod" && privateKeyName(t.w.s) && (modeOthersRead(mode) || modeWorldWritable(mode)):
					return true, "private key readable by others: " + t.w.s
				case c.name == "chown" && t.rec && (t.class == pcWorkDir || t.class == pcWorkContents) && chownsToRoot(c):
					return true, "the project given to root: " + t.w.s
				}
			}
			return false, ""
		}},
	{ID: "chmod-home-recursive", Level: LevelHigh, Category: CategoryPermission, Description: "recursive permission or owner change on a home directory",
		Suggestions: []string{"Change permissions only where needed", "Limit the change to the project directory"}, names: names("chmod", "chown", "chgrp", "setfacl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.permTargets(c) {
				if t.rec && (t.class == pcHome || t.class == pcSecretsHome && c.name == "chmod" && (modeWorldWritable(chmodMode(c)) || modeOthersRead(chmodMode(c)))) {
					return true, t.w.s
				}
				if c.name == "setfacl" && t.class == pcHome && setfaclGrantsOthers(c.args()) {
					return true, t.w.s // setfacl -m o::rx /home/dev: the home opened to the other users
				}
				if t.rec && c.name != "chmod" && chownsToRoot(c) {
					// chown -R root ~/Library, ~/.config: the user's own
					// settings no longer theirs to write
					if p := a.absPath(t.w.s, c.cwd); p != "" && !a.inWork(p) && !underTemp(p) {
						if rel, _, ok := a.homeRel(p); ok && rel != "" && !strings.HasPrefix(rel, "..") {
							return true, t.w.s
						}
					}
				}
			}
			return false, ""
		}},
}

// serviceDataRules: a service's own data directory given to another
// owner or closed to it: the service no longer starts.
var serviceDataRules = []*rule{
	{ID: "folder-shared-with-everyone", Level: LevelHigh, Category: CategoryPermission, Description: "sharing a folder of the home, or a server's data, over the network with everyone or guests (every key, repository and record in it readable)",
		Suggestions: []string{"Share only a folder made for it, with named users", "Keep guest access off"},
		names:       names("net"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// net usershare add home /home/dev "dev home" Everyone:F guest_ok=y
			ops := c.operands()
			if len(ops) < 4 || ops[0].s != "usershare" || ops[1].s != "add" {
				return false, ""
			}
			open := false
			for _, w := range ops[4:] {
				l := lower(w.s)
				open = open || strings.HasPrefix(l, "everyone:") && !strings.HasSuffix(l, ":d") || l == "guest_ok=y"
			}
			if !open {
				return false, ""
			}
			if p := a.absPath(ops[3].s, c.cwd); p != "" {
				if _, _, home := a.homeRel(p); home || a.home != "" && p == a.home || serverDataPath(p) {
					return true, "net usershare " + ops[2].s + " " + p
				}
			}
			return false, ""
		}},
	{ID: "service-data-ownership", Level: LevelHigh, Category: CategorySystem, Description: "changing the owner or permissions of a service's data directory (the service stops being able to read it)",
		Suggestions: []string{"Leave a service's data to its package and its own user", "Fix one file's owner, named, if that is what is wrong"}, names: names("chown", "chmod", "chgrp"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.permTargets(c) {
				p := a.absPath(t.w.s, c.cwd)
				rest, ok := strings.CutPrefix(p, "/var/lib/")
				if !ok || !t.rec {
					continue
				}
				svc, _, _ := strings.Cut(rest, "/")
				if serviceDataDirs[svc] {
					return true, t.w.s
				}
			}
			return false, ""
		}},
}

// serviceDataDirs are the services whose data lives in /var/lib/NAME,
// owned by the service's user.
var serviceDataDirs = map[string]bool{"mysql": true, "postgresql": true, "pgsql": true, "docker": true, "containerd": true, "redis": true,
	"mongodb": true, "elasticsearch": true, "etcd": true, "kubelet": true, "rabbitmq": true, "cassandra": true, "clickhouse": true,
	"influxdb": true, "grafana": true, "prometheus": true, "jenkins": true, "gitlab": true, "mariadb": true, "minio": true, "couchdb": true}

func init() { ruleSets = append(ruleSets, permissionRules, serviceDataRules) }

// systemProgram reports a program in a system bin directory: taking its
// execute bit away breaks everything that runs it (chmod -x /bin/chmod).
func systemProgram(p string) bool {
	for _, d := range [...]string{"/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/usr/local/bin/", "/usr/local/sbin/", "/usr/libexec/", "/lib/", "/usr/lib/"} {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

// privateKeyName reports a file named like a private key (deploy_key,
// id_ed25519, server.key, cert.pem), not its .pub half.
func privateKeyName(p string) bool {
	b := lower(p[strings.LastIndexByte(p, '/')+1:])
	if strings.HasSuffix(b, ".pub") {
		return false
	}
	return strings.HasSuffix(b, "_key") || strings.HasPrefix(b, "id_rsa") || strings.HasPrefix(b, "id_ed25519") || strings.HasPrefix(b, "id_ecdsa") ||
		strings.HasSuffix(b, ".key") || strings.HasSuffix(b, ".pem") && strings.Contains(b, "key") || strings.HasSuffix(b, ".p12") || strings.HasSuffix(b, ".pfx")
}

// setfaclGrantsOthers reports an ACL modification (-m, --modify) that
// lets others, a group or another user read or write: o::r, u:bob:rw.
func setfaclGrantsOthers(args []word) bool {
	for i, w := range args {
		spec := ""
		switch {
		case (w.s == "-m" || w.s == "--modify" || len(w.s) > 2 && w.s[0] == '-' && w.s[1] != '-' && strings.HasSuffix(w.s, "m")) && i+1 < len(args):
			spec = args[i+1].s
		case strings.HasPrefix(w.s, "--modify="):
			spec = w.s[len("--modify="):]
		default:
			continue
		}
		for _, e := range strings.Split(spec, ",") {
			f := strings.Split(strings.TrimPrefix(e, "d:"), ":")
			if len(f) < 2 {
				continue
			}
			perms := f[len(f)-1]
			if !strings.ContainsAny(perms, "rw") {
				continue
			}
			switch f[0] {
			case "o", "other", "g", "group":
				return true
			case "u", "user":
				if len(f) == 3 && f[1] != "" {
					return true
				}
			}
		}
	}
	return false
}

// chownsToRoot reports chown giving files to root (root, root:root, 0:0).
func chownsToRoot(c *cmd) bool {
	for _, w := range c.operands() {
		owner, _, _ := strings.Cut(w.s, ":")
		return owner == "root" || owner == "0"
	}
	return false
}

// servedDir reports a path through a directory a web server serves or
// stores uploads in: world-writable, anyone on the host plants files the
// site then serves or runs. Scratch directories (./tmp-data) are not.
func servedDir(p string) bool {
	for _, c := range strings.Split(lower(p), "/") {
		switch c {
		case "public", "uploads", "upload", "www", "static", "htdocs", "storage", "media":
			return true
		}
	}
	return false
}

// sensitivePorts reports a port list that opens everything or a port for
// remote administration or a database (22, 3389, 5432, 6379, 0-65535, *).
// worldCIDR reports a source range meaning every address.
func worldCIDR(s string) bool {
	s = strings.Trim(s, `"'`)
	return s == "0.0.0.0/0" || s == "::/0"
}

// doctlRuleOpen reports a DigitalOcean firewall rule list
// ('protocol:tcp,ports:22,address:0.0.0.0/0 ...') with a rule that lets
// every address reach all ports or an administration or database port.
func doctlRuleOpen(rules string) bool {
	for _, r := range strings.Fields(strings.Trim(rules, `"'`)) {
		ports, world := "", false
		for _, kv := range strings.Split(r, ",") {
			k, v, _ := strings.Cut(kv, ":")
			switch k {
			case "ports":
				ports = v
			case "address":
				world = world || worldCIDR(v)
			}
		}
		if world && sensitivePorts(ports) {
			return true
		}
	}
	return false
}

func sensitivePorts(p string) bool {
	p = strings.Trim(p, `"' `)
	for _, part := range strings.Split(p, ",") {
		part = strings.TrimSpace(part)
		switch part {
		case "*", "0-65535", "1-65535", "all", "any", "0", "-1":
			return true
		}
		if lo, hi, ok := strings.Cut(part, "-"); ok && lo != "" {
			// a range (9200-9300) holding one of them
			l, err1 := strconv.Atoi(lo)
			h, err2 := strconv.Atoi(hi)
			if err1 == nil && err2 == nil {
				for _, s := range sensitivePortList {
					if l <= s && s <= h {
						return true
					}
				}
			}
			continue
		}
		if n, err := strconv.Atoi(part); err == nil && slices.Contains(sensitivePortList, n) {
			return true
		}
	}
	return false
}

// sensitivePortList are remote administration's, databases', brokers',
// container engines' and cluster agents' ports, and the notebooks' and
// dashboards' that run code or show data to whoever reaches them
// (Jupyter, TensorBoard, Ray, Kibana).
var sensitivePortList = []int{22, 23, 3389, 9090, 445, 139, 2049, 111, 5984, 9042, 5985, 5986, 3306, 5432, 5439, 6379, 27017, 9200, 2375, 2376, 11211, 1433, 5900,
	2379, 10250, 9092, 5672, 15672, 7474, 8500, 8200, 5601, 8888, 8889, 6006, 8265}

// everyoneACL reports chmod's macOS ACL entry that lets everyone write or
// delete (+a "everyone allow read,write,delete").
func everyoneACL(args []word) bool {
	for i, w := range args {
		if (w.s == "+a" || w.s == "=a" || strings.HasPrefix(w.s, "+a#") || strings.HasPrefix(w.s, "=a#")) && i+1 < len(args) {
			l := lower(args[i+1].s)
			if strings.Contains(l, "everyone") && strings.Contains(l, "allow") && hasAny(l, "write", "delete", "add_file", "append") {
				return true
			}
		}
	}
	return false
}
