package guard

import (
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// --- deletions ---

type delTarget struct {
	w     word
	class pclass
	rec   bool
	glob  bool
}

var deleters = names("rm", "unlink", "shred", "srm", "wipe", "find", "mv", "rsync", "rmdir")

// posArgs returns the operands of a command whose options may be mixed
// with operands; options in spec.short/long take an argument.
func posArgs(args []word, spec optSpec) []word {
	var out []word
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if s == "--" {
			out = append(out, args[i+1:]...)
			break
		}
		if len(s) > 1 && s[0] == '-' && args[i].ok {
			if strings.HasPrefix(s, "--") {
				name := s[2:]
				if strings.IndexByte(name, '=') < 0 {
					for _, l := range spec.long {
						if l == name {
							i++
							break
						}
					}
				}
				continue
			}
			for j := 1; j < len(s); j++ {
				if strings.IndexByte(spec.short, s[j]) >= 0 {
					if j == len(s)-1 {
						i++
					}
					break
				}
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// deletions lists what a command deletes, classified.
func (a *analysis) deletions(c *cmd) []delTarget {
	if c.delDone {
		return c.dels
	}
	c.delDone = true
	args := c.args()
	var out []delTarget
	add := func(w word, rec bool) {
		if w.ok && isBlockDevice(a.absPath(w.s, c.cwd)) {
			return // judged by the disk rules
		}
		cls := a.classifyDelete(w, c.cwd)
		if w.find != nil && !w.find.filtered {
			rec = true // every file find visits
		}
		if !rec && !w.glob && (cls == pcSystemCrit || cls == pcRoot || cls == pcHome) {
			cls = pcSystemSub // a single file (a directory needs -r)
		}
		out = append(out, delTarget{w: w, class: cls, rec: rec, glob: w.glob})
	}
	switch c.name {
	case "rm", "srm", "wipe":
		o := c.opts()
		rec := o.has("rR", "recursive")
		for _, w := range posArgs(args, optSpec{}) {
			add(w, rec)
		}
	case "unlink":
		for _, w := range posArgs(args, optSpec{}) {
			add(w, false)
		}
	case "shred":
		// shred destroys the content even without -u
		for _, w := range posArgs(args, optSpec{short: "ns", long: []string{"iterations", "size", "random-source"}}) {
			add(w, false)
		}
	case "find":
		if c.findDelete && c.find != nil {
			add(word{s: c.find.roots[0].s, ok: true, find: c.find}, true)
		}
	case "mv":
		ops := posArgs(args, optSpec{short: "tS", long: []string{"target-directory", "suffix"}})
		if len(ops) < 2 {
			break
		}
		dest := ops[len(ops)-1]
		for _, w := range ops[:len(ops)-1] {
			cls := a.classifyDelete(w, c.cwd)
			if dest.s == "/dev/null" {
				out = append(out, delTarget{w: w, class: cls, rec: true})
				continue
			}
			switch cls {
			case pcRoot, pcHome, pcSystemCrit, pcCritFile, pcSecretsHome, pcHistory, pcLogs, pcProtected:
				out = append(out, delTarget{w: w, class: cls, rec: true})
			}
		}
	case "rsync":
		o := c.opts()
		if !hasPrefixWord(args, "--delete") && !o.has("", "del", "remove-source-files") {
			break
		}
		ops := posArgs(args, optSpec{short: "eBfT", long: []string{"rsh", "rsync-path", "exclude", "include", "filter", "files-from", "temp-dir", "compare-dest", "link-dest", "backup-dir", "chmod", "chown", "port", "password-file"}})
		if len(ops) < 2 {
			break
		}
		dest := ops[len(ops)-1]
		if strings.Contains(dest.s, ":") {
			break // remote destination
		}
		// --delete removes whatever the destination holds that the
		// source lacks: all of it when the source is empty.
		switch cls := a.classifyUnder(dest, c.cwd, false); cls {
		case pcNone, pcInside, pcTemp, pcHomeCache:
		default:
			out = append(out, delTarget{w: dest, class: cls, rec: true})
		}
	}
	c.dels = out
	return out
}

func delRule(id string, level DangerLevel, cat, desc string, sugg []string, rec int, classes ...pclass) *rule {
	return &rule{ID: id, Level: level, Category: cat, Description: desc, Suggestions: sugg, names: deleters,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.deletions(c) {
				if rec == 1 && !t.rec || rec == 0 && t.rec {
					continue
				}
				for _, cl := range classes {
					if t.class == cl {
						return true, t.w.s
					}
				}
			}
			return false, ""
		}}
}

// recursive selectors for delRule
const (
	nonRec  = 0
	recOnly = 1
	anyRec  = 2
)

var suggDeleteScoped = []string{"Delete only the specific paths inside the project, e.g. rm -rf ./build", "Use a relative path inside the work directory", "Move files to a trash directory instead of deleting them"}

var fsRules = []*rule{
	delRule("rm-recursive-root", LevelCritical, CategoryFileDelete, "recursive deletion of the filesystem root",
		[]string{"Never delete /; name the directory you mean inside the project", "Use rm -rf ./dir for project files"}, anyRec, pcRoot),
	delRule("rm-recursive-home", LevelCritical, CategoryFileDelete, "recursive deletion of a home directory",
		[]string{"Delete only the specific subdirectory you mean", "Use a path inside the project instead of ~"}, recOnly, pcHome),
	delRule("rm-recursive-system", LevelCritical, CategoryFileDelete, "deletion of a system directory",
		[]string{"Do not delete system directories; use the package manager to remove software", "Limit the deletion to the project directory"}, recOnly, pcSystemCrit),
	delRule("rm-system-contents", LevelCritical, CategoryFileDelete, "deletion of every file in a system or home directory",
		[]string{"Name the specific files you mean", "Limit the deletion to the project directory"}, nonRec, pcRoot, pcHome, pcSystemCrit),
	delRule("rm-critical-file", LevelCritical, CategoryFileDelete, "deletion of a critical system file",
		[]string{"Do not delete system files such as /etc/passwd", "Edit configuration through the proper tool (visudo, vipw) with a backup"}, anyRec, pcCritFile),
	delRule("rm-database-files", LevelCritical, CategoryDatabaseDestroy, "deletion of a database's data files",
		[]string{"Drop data through the database after a backup", "Stop and back up the database first"}, anyRec, pcDBData),
	delRule("rm-ssh-keys", LevelCritical, CategoryFileDelete, "deletion of SSH or GPG keys",
		[]string{"Keep keys; rotate them with ssh-keygen if needed", "Back up ~/.ssh before changing it"}, recOnly, pcSecretsHome),
	delRule("rm-home-config", LevelHigh, CategoryFileDelete, "deletion of credentials or configuration in the home directory",
		[]string{"Back the file up first", "Edit the file instead of deleting it"}, anyRec, pcHomeConfig),
	delRule("rm-key-file", LevelHigh, CategoryFileDelete, "deletion of a private key",
		[]string{"Keep the key; rotate it with ssh-keygen if needed", "Back up ~/.ssh before changing it"}, nonRec, pcSecretsHome),
	delRule("rm-system-file", LevelHigh, CategoryFileDelete, "deletion of files in a system directory",
		[]string{"Use the package manager to remove installed software", "Limit the deletion to the project directory"}, nonRec, pcSystemSub),
	delRule("rm-recursive-outside-workdir", LevelHigh, CategoryFileDelete, "recursive deletion outside the work directory",
		suggDeleteScoped, recOnly, pcOutside, pcHomeSub, pcSystemSub, pcEscape),
	delRule("rm-tmp-root", LevelHigh, CategoryFileDelete, "deletion of a whole temporary directory",
		[]string{"Delete only your own files, e.g. rm -rf /tmp/myjob-*", "Use mktemp -d and remove that directory"}, recOnly, pcTempRoot),
	delRule("rm-git-dir", LevelHigh, CategoryGitDestroy, "deletion of a git repository's history (.git)",
		[]string{"Keep .git; use git clean or git reset to tidy the work tree", "Back the repository up (git bundle) first"}, recOnly, pcGitDir),
	delRule("rm-history", LevelHigh, CategoryHistoryTamper, "deletion of shell history",
		[]string{"Leave shell history in place", "Remove a single entry with history -d N if it holds a secret"}, anyRec, pcHistory),
	delRule("rm-logs", LevelHigh, CategoryHistoryTamper, "deletion of system logs",
		[]string{"Rotate logs with logrotate instead of deleting them", "Use journalctl --vacuum-time with a sensible retention"}, anyRec, pcLogs),
	delRule("rm-file-outside-workdir", LevelModerate, CategoryFileDelete, "deletion of files outside the work directory",
		suggDeleteScoped, nonRec, pcOutside, pcHomeSub, pcEscape),
	delRule("rm-workdir", LevelHigh, CategoryFileDelete, "deletion of the whole work directory",
		[]string{"Delete specific build outputs instead, e.g. rm -rf ./dist", "Use git clean -n to preview what would go"}, recOnly, pcWorkDir),
	delRule("rm-tmp-contents", LevelModerate, CategoryFileDelete, "deletion of everything in a temporary directory",
		[]string{"Delete only your own files, e.g. rm -rf /tmp/myjob-*", "Use mktemp -d and remove that directory"}, anyRec, pcTempContents),
	delRule("rm-unset-variable", LevelModerate, CategoryFileDelete, "recursive deletion of \"$VAR/\": if the variable is empty this deletes from /",
		[]string{"Guard the variable: rm -rf \"${DIR:?}\"/*", "Check the variable is set before deleting"}, recOnly, pcVarRoot),
	delRule("rm-unknown-input", LevelModerate, CategoryFileDelete, "recursive deletion of paths read from input",
		[]string{"List the paths first, then delete specific ones", "Restrict the producer (find . -name ...) to the project"}, recOnly, pcUnknownInput),
	delRule("rm-protected", LevelCritical, CategoryFileDelete, "deletion of what HotPlex owns (its data, its database, other sessions' work directories)",
		[]string{"Delete only paths inside this session's work directory", "Leave HotPlex's data to HotPlex"}, anyRec, pcProtected),
	{ID: "rm-no-preserve-root", Level: LevelCritical, Category: CategoryFileDelete, Description: "rm --no-preserve-root disables the protection of /",
		Suggestions: []string{"Never pass --no-preserve-root", "Name the directory you mean inside the project"}, names: names("rm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			return hasWord(c.args(), "--no-preserve-root"), ""
		}},

	// --- disk wipe ---
	{ID: "dd-block-device", Level: LevelCritical, Category: CategoryDiskWipe, Description: "dd writing to a disk device",
		Suggestions: []string{"Write to an image file instead (of=disk.img)", "Double-check the device with lsblk; never script this"}, names: names("dd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				if strings.HasPrefix(w.s, "of=") {
					p := w.s[3:]
					if isBlockDevice(p) || p == "/dev/mem" || p == "/dev/kmem" {
						return true, p
					}
					if !w.ok && strings.HasPrefix(p, "/dev/") {
						return true, p
					}
				}
			}
			return false, ""
		}},
	{ID: "mkfs-device", Level: LevelCritical, Category: CategoryDiskWipe, Description: "creating a filesystem on a device erases it",
		Suggestions: []string{"Format an image file for testing (mkfs.ext4 disk.img)", "Verify the device with lsblk and do this by hand"}, names: names("mkfs", "mkswap", "mkdosfs", "mkntfs", "mkexfatfs"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range positional(c.args()) {
				if strings.HasPrefix(w.s, "/dev/") || !w.ok {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "wipefs", Level: LevelCritical, Category: CategoryDiskWipe, Description: "wiping filesystem signatures from a device",
		Suggestions: []string{"Use wipefs --no-act to inspect", "Do this by hand after checking lsblk"}, names: names("wipefs", "blkdiscard", "sg_format"),
		match: func(a *analysis, c *cmd) (bool, string) {
			o := c.opts()
			if c.name == "wipefs" && !o.has("a", "all") && !o.has("o", "offset") {
				return false, ""
			}
			for _, w := range positional(c.args()) {
				if strings.HasPrefix(w.s, "/dev/") || !w.ok {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "partition-table", Level: LevelCritical, Category: CategoryDiskWipe, Description: "rewriting a disk's partition table",
		Suggestions: []string{"List partitions read-only (fdisk -l, parted -l, lsblk)", "Do partitioning by hand after a backup"}, names: names("fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted", "partprobe"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			o := c.opts()
			if c.name == "partprobe" || o.has("l", "list") || hasWord(args, "print") || hasWord(args, "-p") || hasWord(args, "--print") || hasWord(args, "-d") || hasWord(args, "--dump") || hasWord(args, "--verify") {
				if c.name != "sgdisk" || !o.has("Zozd", "zap-all", "zap", "clear", "delete") {
					return false, ""
				}
			}
			for _, w := range positional(args) {
				if isBlockDevice(w.s) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "disk-erase", Level: LevelCritical, Category: CategoryDiskWipe, Description: "erasing a disk or volume",
		Suggestions: []string{"Do secure erasure by hand after checking the device", "Detach the disk you mean to keep"}, names: names("hdparm", "nvme", "cryptsetup", "zpool", "lvremove", "vgremove", "pvremove", "mdadm", "diskutil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "hdparm":
				return hasPrefixWord(args, "--security-erase") || hasWord(args, "--trim-sector-ranges"), ""
			case "nvme":
				return len(args) > 0 && (args[0].s == "format" || args[0].s == "sanitize"), ""
			case "cryptsetup":
				return len(args) > 0 && (args[0].s == "luksFormat" || args[0].s == "luksErase" || args[0].s == "erase"), ""
			case "zpool":
				return len(args) > 0 && (args[0].s == "destroy" || args[0].s == "labelclear"), ""
			case "lvremove", "vgremove", "pvremove":
				return true, ""
			case "mdadm":
				return hasWord(args, "--zero-superblock"), ""
			case "diskutil":
				return len(args) > 0 && (lower(args[0].s) == "erasedisk" || lower(args[0].s) == "erasevolume" || lower(args[0].s) == "secureerase" || lower(args[0].s) == "zerodisk" || lower(args[0].s) == "partitiondisk"), ""
			}
			return false, ""
		}},
	{ID: "shred-device", Level: LevelCritical, Category: CategoryDiskWipe, Description: "overwriting a disk device",
		Suggestions: []string{"Shred individual files inside the project instead", "Do device erasure by hand after checking lsblk"}, names: names("shred", "wipe", "srm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range positional(c.args()) {
				if isBlockDevice(w.s) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "zfs-destroy", Level: LevelHigh, Category: CategoryDiskWipe, Description: "destroying ZFS datasets or snapshots",
		Suggestions: []string{"Use zfs destroy -n (dry run) first", "Snapshot before destroying"}, names: names("zfs"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			return len(args) > 0 && args[0].s == "destroy" && !hasWord(args, "-n"), ""
		}},

	// --- permissions ---
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
				if c.name == "chown" || c.name == "setfacl" {
					if secret && t.class == pcCritFile {
						return true, d
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
	{ID: "chmod-root", Level: LevelCritical, Category: CategoryPermission, Description: "permission change on / or a system directory",
		Suggestions: []string{"Do not change permissions of system directories", "Limit the change to the project directory"}, names: names("chmod", "setfacl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			mode := chmodMode(c)
			for _, t := range a.permTargets(c) {
				if !t.rec && (t.class == pcRoot || (t.class == pcSystemCrit || t.class == pcCritFile) && (modeWorldWritable(mode) || modeRemovesAll(mode))) {
					return true, t.w.s
				}
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
	{ID: "chmod-protected", Level: LevelHigh, Category: CategoryPermission, Description: "changing the owner or mode of what HotPlex owns",
		Suggestions: []string{"Change permissions only inside this session's work directory"}, names: names("chmod", "chown", "chgrp", "setfacl", "chattr"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ws := chmodTargets(c)
			if c.name == "chattr" {
				ws = positional(c.args())
			}
			for _, w := range ws {
				if w.ok && a.classifyDelete(w, c.cwd) == pcProtected {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "chmod-world-writable-outside", Level: LevelHigh, Category: CategoryPermission, Description: "making files outside the work directory world-writable",
		Suggestions: []string{"Grant only what is needed (chmod u+x, 644, 755)", "Limit the change to the project directory"}, names: names("chmod"),
		match: func(a *analysis, c *cmd) (bool, string) {
			mode := chmodMode(c)
			if !modeWorldWritable(mode) {
				return false, ""
			}
			for _, t := range a.permTargets(c) {
				switch t.class {
				case pcSystemSub, pcHome, pcHomeConfig, pcLogs:
					return true, t.w.s
				case pcHomeSub, pcOutside, pcEscape:
					if t.rec {
						return true, t.w.s
					}
				}
			}
			return false, ""
		}},
	{ID: "chmod-home-recursive", Level: LevelHigh, Category: CategoryPermission, Description: "recursive permission or owner change on a home directory",
		Suggestions: []string{"Change permissions only where needed", "Limit the change to the project directory"}, names: names("chmod", "chown", "chgrp"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.permTargets(c) {
				if t.rec && (t.class == pcHome || t.class == pcSecretsHome && c.name == "chmod" && (modeWorldWritable(chmodMode(c)) || modeOthersRead(chmodMode(c)))) {
					return true, t.w.s
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
				if strings.Contains(l, "cap_setuid") || strings.Contains(l, "cap_sys_admin") || strings.Contains(l, "cap_dac_override") ||
					strings.Contains(l, "cap_sys_ptrace") || strings.Contains(l, "cap_setgid") || strings.Contains(l, "=ep") && strings.HasPrefix(l, "all") {
					return true, w.s
				}
			}
			return false, ""
		}},

	// --- writes to system and start-up files ---
	writeRule("write-block-device", LevelCritical, CategoryDiskWipe, "writing directly to a disk device",
		[]string{"Write to an image file instead", "Check the device with lsblk and do this by hand"}, false, wBlockDev),
	writeRule("write-device-memory", LevelCritical, CategorySystem, "writing to kernel memory devices",
		[]string{"Do not write to /dev/mem or /dev/kmem"}, false, wDevMem),
	writeRule("write-sysrq", LevelCritical, CategorySystem, "writing to /proc/sysrq-trigger (crash, reboot or power-off)",
		[]string{"Use shutdown -r with a delay if a reboot is really needed"}, false, wSysrq),
	writeRule("write-passwd", LevelCritical, CategoryPrivilege, "modifying the user database (/etc/passwd, /etc/shadow)",
		[]string{"Use useradd/usermod with the least privileges", "Ask an administrator to create accounts"}, false, wPasswd),
	writeRule("write-sudoers", LevelCritical, CategoryPrivilege, "modifying sudo rules",
		[]string{"Edit sudo rules with visudo after review", "Grant a specific command, never NOPASSWD: ALL"}, false, wSudoers),
	writeRule("write-pam", LevelCritical, CategoryPrivilege, "modifying PAM authentication",
		[]string{"Leave PAM configuration to an administrator"}, false, wPam),
	writeRule("write-ld-preload", LevelCritical, CategoryPersistence, "installing a library preloaded into every program (/etc/ld.so.preload)",
		[]string{"Use LD_PRELOAD for a single command instead", "Do not modify /etc/ld.so.preload"}, false, wLdPreload),
	writeRule("write-boot", LevelCritical, CategorySystem, "modifying the boot loader or kernel",
		[]string{"Use the distribution's tools (update-grub, kernel packages)"}, false, wBoot),
	writeRule("write-shell-startup", LevelHigh, CategoryPersistence, "modifying a shell start-up file",
		[]string{"Put project settings in a project-local .envrc or script", "Show the line to add and let the user add it"}, false, wShellRC),
	writeRule("write-cron", LevelHigh, CategoryPersistence, "installing a scheduled job",
		[]string{"Show the cron entry and let the user install it", "Use a CI schedule for project tasks"}, false, wCron),
	writeRule("write-service", LevelHigh, CategoryPersistence, "installing a service or autostart entry",
		[]string{"Show the unit file and let the user install it", "Run the program in the foreground instead"}, false, wService),
	writeRule("write-authorized-keys", LevelCritical, CategoryPersistence, "adding SSH login keys or login commands (a remote backdoor)",
		[]string{"Let the user add keys to authorized_keys", "Use ssh-copy-id interactively"}, false, wAuthKeys),
	writeRule("write-ssh-config", LevelHigh, CategoryPersistence, "modifying SSH configuration or keys",
		[]string{"Let the user edit SSH configuration", "Use a project-local ssh config with -F"}, false, wSSHConfig),
	writeRule("write-sshd-config", LevelHigh, CategoryPrivilege, "changing the SSH server's authentication settings",
		[]string{"Let an administrator change sshd_config", "Keep root login and password authentication disabled"}, false, wSSHDConfig),
	writeRule("write-system-binaries", LevelHigh, CategorySystem, "overwriting system programs or libraries",
		[]string{"Install software with the package manager", "Install to /usr/local or ~/.local instead"}, false, wSysBin),
	writeRule("write-etc", LevelHigh, CategorySystem, "modifying system configuration in /etc",
		[]string{"Show the change and let an administrator apply it", "Use a project-local configuration file"}, false, wEtc),
	writeRule("write-proc-sys", LevelModerate, CategorySystem, "changing kernel parameters",
		[]string{"Use sysctl with a reviewed configuration"}, false, wProcSys),
	writeRule("overwrite-protected", LevelCritical, CategoryFileDelete, "overwriting or truncating what HotPlex owns (its data, its database, other sessions' files)",
		[]string{"Write only inside this session's work directory"}, true, wProtected),
	writeRule("write-protected", LevelHigh, CategoryFileDelete, "writing into what HotPlex owns (its data, its database, other sessions' work directories)",
		[]string{"Write only inside this session's work directory"}, false, wProtected),
	writeRule("truncate-history", LevelHigh, CategoryHistoryTamper, "erasing or redirecting shell history",
		[]string{"Leave shell history in place", "Remove a single entry with history -d N if it holds a secret"}, true, wHistory),
	writeRule("truncate-logs", LevelHigh, CategoryHistoryTamper, "erasing system logs",
		[]string{"Rotate logs with logrotate", "Use journalctl --vacuum-time with a sensible retention"}, true, wLogs),
	{ID: "persistence-remote-payload", Level: LevelCritical, Category: CategoryPersistence, Description: "installing downloaded code to run automatically",
		Suggestions: []string{"Download, review and install scripts by hand", "Pin and verify what is installed"}},
	{ID: "persistence-suspicious-job", Level: LevelHigh, Category: CategoryPersistence, Description: "scheduling a job that runs at boot or from a temporary or hidden location",
		Suggestions: []string{"Show the cron entry and let the user install it", "Keep scheduled programs in reviewed, permanent locations"}},
	{ID: "persistence-malicious-payload", Level: LevelCritical, Category: CategoryPersistence, Description: "installing a dangerous command to run automatically",
		Suggestions: []string{"Review what is installed into start-up files and schedules", "Do not install network shells or downloads as jobs"}},
	{ID: "crontab-remove", Level: LevelHigh, Category: CategorySystem, Description: "removing every cron job of a user",
		Suggestions: []string{"Edit the crontab (crontab -e) to remove single entries", "Back it up first: crontab -l > cron.bak"}, names: names("crontab"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				if w.s == "-r" || w.s == "-ir" || w.s == "-ri" || w.s == "--remove" {
					return true, ""
				}
			}
			return false, ""
		}},
	{ID: "crontab-install", Level: LevelModerate, Category: CategoryPersistence, Description: "replacing the user's crontab",
		Suggestions: []string{"Show the cron entry and let the user install it", "Use a CI schedule for project tasks"}, names: names("crontab"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			for _, w := range args {
				switch w.s {
				case "-l", "-e", "-r", "-ir", "-ri", "--list", "--remove", "-V", "--help":
					return false, ""
				}
			}
			ops := positional(args)
			if len(ops) > 0 || c.in.kind != flowNone {
				return true, ""
			}
			return false, ""
		}},

	// --- history tampering ---
	{ID: "history-clear", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "clearing the shell history",
		Suggestions: []string{"Leave shell history in place", "Remove a single entry with history -d N if it holds a secret"}, names: names("history"),
		match: func(a *analysis, c *cmd) (bool, string) {
			o := c.opts()
			if o.has("c") {
				return true, ""
			}
			if o.has("w") || o.has("a") {
				for _, w := range positional(c.args()) {
					if w.s == "/dev/null" {
						return true, ""
					}
				}
			}
			return false, ""
		}},
	{ID: "history-disable", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "disabling shell history",
		Suggestions: []string{"Leave history enabled", "Start the command with a space only if HISTCONTROL=ignorespace is already set by the user"},
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, as := range c.assigns {
				if histVarDisabled(as.name, as.val.s) {
					return true, as.name + "=" + as.val.s
				}
			}
			switch c.name {
			case "unset":
				for _, w := range c.args() {
					if w.s == "HISTFILE" || w.s == "HISTSIZE" || w.s == "HISTFILESIZE" {
						return true, w.s
					}
				}
			case "set":
				args := c.args()
				for i, w := range args {
					if w.s == "+o" && i+1 < len(args) && args[i+1].s == "history" {
						return true, "set +o history"
					}
				}
			}
			return false, ""
		}},
	{ID: "journal-wipe", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "deleting nearly all of the system journal",
		Suggestions: []string{"Keep a sensible retention (e.g. --vacuum-time=30d)", "Let journald manage retention"}, names: names("journalctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				if v, ok := strings.CutPrefix(w.s, "--vacuum-time="); ok {
					if strings.HasSuffix(v, "s") || strings.HasSuffix(v, "min") || strings.HasSuffix(v, "m") || strings.HasSuffix(v, "h") || v == "1d" || v == "0" {
						return true, w.s
					}
				}
				if v, ok := strings.CutPrefix(w.s, "--vacuum-size="); ok && parseSize(v) < 64<<20 {
					return true, w.s
				}
				if v, ok := strings.CutPrefix(w.s, "--vacuum-files="); ok && (v == "0" || v == "1") {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "audit-disable", Level: LevelHigh, Category: CategoryHistoryTamper, Description: "disabling or deleting audit rules",
		Suggestions: []string{"Leave auditing enabled", "Change audit rules through reviewed configuration"}, names: names("auditctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			for i, w := range args {
				if w.s == "-D" || w.s == "-e" && i+1 < len(args) && args[i+1].s == "0" {
					return true, w.s
				}
			}
			return false, ""
		}},
}

func histVarDisabled(name, val string) bool {
	switch name {
	case "HISTFILE":
		return val == "/dev/null" || val == ""
	case "HISTSIZE", "HISTFILESIZE", "SAVEHIST":
		return val == "0" || val == ""
	case "HISTIGNORE":
		return val == "*" || strings.HasPrefix(val, "*:") || strings.HasSuffix(val, ":*")
	}
	return false
}

var dangerousSUID = map[string]bool{
	"bash": true, "sh": true, "dash": true, "zsh": true, "ksh": true, "fish": true, "csh": true, "tcsh": true, "ash": true,
	"python": true, "python2": true, "python3": true, "perl": true, "ruby": true, "node": true, "php": true, "lua": true,
	"find": true, "vim": true, "vi": true, "nano": true, "less": true, "more": true, "env": true, "nmap": true, "cp": true,
	"mv": true, "tee": true, "awk": true, "gawk": true, "sed": true, "tar": true, "zip": true, "busybox": true, "socat": true,
	"nc": true, "docker": true, "rsync": true, "git": true, "xargs": true, "dd": true, "chmod": true, "chown": true, "su": true,
	"rootbash": true, "emacs": true, "gdb": true, "strace": true, "openssl": true, "wget": true, "curl": true, "make": true,
}

// --- permissions helpers ---

type permTarget struct {
	w     word
	class pclass
	rec   bool
}

func chmodTargets(c *cmd) []word {
	ops := posArgs(c.args(), optSpec{long: []string{"reference"}})
	switch c.name {
	case "chmod", "chown", "chgrp":
		if len(ops) > 0 && !hasPrefixWord(c.args(), "--reference") {
			ops = ops[1:] // the mode / owner
		}
	case "setfacl":
		ops = posArgs(c.args(), optSpec{short: "mMxX", long: []string{"modify", "modify-file", "remove", "remove-file", "set", "set-file"}})
	}
	return ops
}

func (a *analysis) permTargets(c *cmd) []permTarget {
	o := c.opts()
	rec := o.has("R", "recursive")
	if c.name == "setfacl" {
		rec = o.has("R", "recursive")
	}
	var out []permTarget
	for _, w := range chmodTargets(c) {
		r := rec || w.find != nil && !w.find.filtered
		out = append(out, permTarget{w: w, class: a.classifyDelete(w, c.cwd), rec: r})
	}
	return out
}

// chmodMode returns chmod's mode operand.
func chmodMode(c *cmd) string {
	if c.name != "chmod" {
		return ""
	}
	args := c.args()
	for _, w := range args {
		s := w.s
		if s == "--" {
			continue
		}
		if len(s) > 1 && s[0] == '-' && !strings.ContainsAny(s[1:], "rwxXst=") {
			continue // an option such as -R
		}
		if strings.HasPrefix(s, "--") {
			continue
		}
		return s
	}
	return ""
}

func octalMode(m string) (int, bool) {
	if m == "" || len(m) > 5 {
		return 0, false
	}
	n, err := strconv.ParseUint(m, 8, 16)
	return int(n), err == nil
}

func modeWorldWritable(m string) bool {
	if n, ok := octalMode(m); ok {
		return n&0o002 != 0
	}
	for _, cl := range strings.Split(m, ",") {
		who, perm, ok := cutOp(cl)
		if ok && perm[0] != '-' && (who == "" || strings.ContainsAny(who, "oa")) && strings.Contains(perm[1:], "w") {
			return true
		}
	}
	return false
}

func modeOthersRead(m string) bool {
	if n, ok := octalMode(m); ok {
		return n&0o004 != 0
	}
	for _, cl := range strings.Split(m, ",") {
		who, perm, ok := cutOp(cl)
		if ok && perm[0] != '-' && (who == "" || strings.ContainsAny(who, "oa")) && strings.Contains(perm[1:], "r") {
			return true
		}
	}
	return false
}

func modeRemovesAll(m string) bool {
	if n, ok := octalMode(m); ok {
		return n&0o777 == 0
	}
	return m == "a-rwx" || m == "-rwx" || m == "ugo-rwx" || m == "a=" || m == "ugo="
}

func modeSetuid(m string) bool {
	if n, ok := octalMode(m); ok {
		return len(m) == 4 && n&0o4000 != 0
	}
	for _, cl := range strings.Split(m, ",") {
		who, perm, ok := cutOp(cl)
		if ok && perm[0] != '-' && strings.Contains(perm[1:], "s") && (who == "" || strings.ContainsAny(who, "ua")) {
			return true
		}
	}
	return false
}

// cutOp splits a symbolic chmod clause "u+s" into "u" and "+s".
func cutOp(cl string) (string, string, bool) {
	i := strings.IndexAny(cl, "+-=")
	if i < 0 || i == len(cl)-1 && cl[i] != '=' {
		return "", "", false
	}
	who := cl[:i]
	if strings.Trim(who, "ugoa") != "" {
		return "", "", false
	}
	return who, cl[i:], true
}

// --- writes ---

type writeTarget struct {
	path    string // resolved path ("" when unknown)
	raw     string
	class   wclass
	trunc   bool // the file is replaced or truncated (not appended to)
	appends bool // the file is only appended to
	content flow
}

// writeTargets lists the files a command writes.
func (a *analysis) writeTargets(c *cmd) []writeTarget {
	if c.writesDone {
		return c.writes
	}
	c.writesDone = true
	var out []writeTarget
	add := func(w word, trunc bool, content flow) {
		if !w.ok || w.s == "" {
			return
		}
		p := a.absPath(w.s, c.cwd)
		out = append(out, writeTarget{path: p, raw: w.s, class: a.classifyWrite(p), trunc: trunc, content: content})
	}
	addAppend := func(w word, content flow) {
		add(w, false, content)
		if len(out) > 0 && out[len(out)-1].raw == w.s {
			out[len(out)-1].appends = true
		}
	}
	for i := range c.redirs {
		r := &c.redirs[i]
		if !r.isOutput() {
			continue
		}
		var content flow
		if r.n == "" || r.n == "1" || r.op == syntax.RdrAll || r.op == syntax.AppAll {
			content = a.computeOut(c)
		}
		if r.isAppend() {
			addAppend(r.w, content)
		} else {
			add(r.w, true, content)
		}
	}
	args := c.args()
	switch c.name {
	case "tee":
		o := c.opts()
		app := o.has("a", "append")
		for _, w := range posArgs(args, optSpec{}) {
			if app {
				addAppend(w, c.in)
			} else {
				add(w, true, c.in)
			}
		}
	case "cp", "install", "ln", "mv":
		ops := posArgs(args, optSpec{short: "tSmogT", long: []string{"target-directory", "suffix", "mode", "owner", "group"}})
		if t, ok := optValue(args, "-t", "target-directory"); ok {
			ops = append(ops, lit(t))
		}
		if len(ops) >= 2 || c.name == "ln" && len(ops) == 2 {
			dest := ops[len(ops)-1]
			src := ops[0]
			content := a.fileFlow(c, src)
			if c.name == "ln" {
				content = flow{kind: flowLocal, what: src.s}
			}
			p := a.absPath(dest.s, c.cwd)
			if p != "" && a.classifyWrite(p) == wNone && (strings.HasSuffix(dest.s, "/") || a.classifyWrite(p+"/x") != wNone) {
				// copying into a directory
				dest = lit(strings.TrimSuffix(dest.s, "/") + "/" + path.Base(src.s))
			}
			add(dest, true, content)
		}
	case "dd":
		for _, w := range args {
			if strings.HasPrefix(w.s, "of=") {
				add(word{s: w.s[3:], ok: w.ok}, !hasWord(args, "oflag=append"), c.in)
			}
		}
	case "sed", "perl":
		if c.name == "perl" && !hasPrefixWord(args, "-pi") && !hasPrefixWord(args, "-i") && !hasPrefixWord(args, "-ni") {
			break
		}
		if c.name == "sed" && !hasPrefixWord(args, "-i") && !hasWord(args, "--in-place") && !hasPrefixWord(args, "--in-place=") {
			break
		}
		ops := posArgs(args, optSpec{short: "efEI", long: []string{"expression", "file"}})
		if !hasWord(args, "-e") && !hasWord(args, "--expression") && !hasWord(args, "-f") && len(ops) > 0 {
			ops = ops[1:] // the script
		}
		for _, w := range ops {
			add(w, false, flow{kind: flowUnknown})
		}
	case "truncate":
		for _, w := range posArgs(args, optSpec{short: "sr", long: []string{"size", "reference"}}) {
			add(w, true, flow{kind: flowText})
		}
	case "curl", "wget":
		for _, f := range a.downloadTargets(c) {
			add(lit(f), true, flow{kind: flowRemote, what: c.base + " " + firstURL(args)})
		}
	case "sudoedit", "visudo", "vipw", "vigr":
		ops := posArgs(args, optSpec{short: "fu"})
		switch c.name {
		case "visudo":
			f, ok := optValue(args, "-f", "file")
			if !ok {
				f = "/etc/sudoers"
			}
			if hasWord(args, "-c") || hasWord(args, "--check") {
				break
			}
			ops = []word{lit(f)}
		case "vipw":
			ops = []word{lit("/etc/passwd")}
		case "vigr":
			ops = []word{lit("/etc/group")}
		}
		for _, w := range ops {
			add(w, false, flow{kind: flowUnknown})
		}
	case "sudo":
		if hasShortBefore(c.words, len(c.words), 'e') {
			for _, w := range positional(args) {
				add(w, false, flow{kind: flowUnknown})
			}
		}
	case "tar":
		if d, ok := optValue(args, "-C", "directory"); ok && (hasPrefixWord(args, "-x") || hasWord(args, "--extract") || len(args) > 0 && strings.Contains(args[0].s, "x") && !strings.HasPrefix(args[0].s, "-")) {
			p := a.absPath(d, c.cwd)
			if p == "/" || p == "/etc" || p == "/usr" || p == "/boot" || p == "/bin" {
				out = append(out, writeTarget{path: p + "/etc/x", raw: d, class: wEtc, trunc: true})
			}
		}
	}
	c.writes = out
	return out
}

func writeRule(id string, level DangerLevel, cat, desc string, sugg []string, truncOnly bool, classes ...wclass) *rule {
	return &rule{ID: id, Level: level, Category: cat, Description: desc, Suggestions: sugg, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.writeTargets(c) {
				if truncOnly && t.appends {
					continue
				}
				if c.remote && t.class == wAuthKeys && t.appends {
					continue // authorising oneself on a host one already reaches
				}
				for _, cl := range classes {
					if t.class == cl {
						return true, t.raw
					}
				}
			}
			return false, ""
		}}
}

var writerNames = map[string]bool{"tee": true, "cp": true, "install": true, "ln": true, "mv": true, "dd": true, "sed": true, "perl": true,
	"truncate": true, "curl": true, "wget": true, "sudoedit": true, "visudo": true, "vipw": true, "vigr": true, "sudo": true, "tar": true}

func init() { ruleSets = append(ruleSets, fsRules) }
