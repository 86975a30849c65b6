package guard

import (
	"path"
	"strings"
)

// Rules for erasing disks, partitions and volumes (category disk_wipe).
var diskWipeRules = []*rule{
	{ID: "disk-fill", Level: LevelModerate, Category: CategoryDiskWipe, Description: "filling the disk",
		Suggestions: []string{"Limit the size (dd count=, fallocate -l 10M)", "Write test files into the project directory"}, names: names("dd", "fallocate", "truncate", "yes", "cat", "head"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "dd":
				src := ""
				dst := ""
				hasCount := false
				for _, w := range args {
					switch {
					case strings.HasPrefix(w.s, "if="):
						src = w.s[3:]
					case strings.HasPrefix(w.s, "of="):
						dst = w.s[3:]
					case strings.HasPrefix(w.s, "count="):
						hasCount = true
					}
				}
				// /dev/shm is memory: filling it starves the machine; yes |
				// dd of=F reads an endless stream too
				endless := src == "/dev/zero" || src == "/dev/urandom" || src == "/dev/random" || src == "" && endlessInput(c) != ""
				return endless && dst != "" && (!strings.HasPrefix(dst, "/dev/") || strings.HasPrefix(dst, "/dev/shm/")) && !hasCount, dst
			case "fallocate", "truncate":
				v, ok := optValue(args, "-l", "length")
				if c.name == "truncate" {
					v, ok = optValue(args, "-s", "size")
				}
				return ok && parseSize(v) >= 50<<30, v
			case "head":
				// head -c 100G /dev/zero > f: a bounded read, but of a size
				// no disk holds
				v, ok := optValue(args, "-c", "bytes")
				if !ok || parseSize(v) < 50<<30 || endlessInput(c) == "" {
					return false, ""
				}
				for _, r := range c.redirs {
					if r.isOutput() && !strings.HasPrefix(r.w.s, "/dev/") {
						return true, r.w.s
					}
				}
			case "yes", "cat":
				if c.name == "cat" && !hasWord(args, "/dev/zero") && !hasWord(args, "/dev/urandom") {
					return false, ""
				}
				for _, r := range c.redirs {
					if r.isOutput() && !strings.HasPrefix(r.w.s, "/dev/") {
						return true, r.w.s
					}
				}
			}
			return false, ""
		}},
	{ID: "device-storage-erased", Level: LevelCritical, Category: CategoryDiskWipe, Description: "wiping a phone's or tablet's user data or system partitions, or restoring it to factory state",
		Suggestions: []string{"Reset an emulator or a device set aside for tests instead", "Back the device up and let its owner reset it"},
		names:       names("fastboot", "adb", "idevicerestore", "cfgutil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if (c.name == "adb" || c.name == "fastboot") && deviceIsEmulator(args) {
				return false, ""
			}
			ops := c.operands()
			switch c.name {
			case "fastboot":
				// erase or format a partition; the boot loader unlocked or
				// locked (each wipes the user data too)
				for i, o := range ops {
					if (o.s == "erase" || o.s == "format" || strings.HasPrefix(o.s, "format:")) && i+1 < len(ops) {
						return true, "fastboot " + o.s + " " + ops[len(ops)-1].s
					}
					if (o.s == "flashing" || o.s == "oem") && i+1 < len(ops) && (ops[i+1].s == "unlock" || ops[i+1].s == "lock") {
						return true, "fastboot " + o.s + " " + ops[i+1].s
					}
				}
				return hasWord(args, "-w"), "fastboot -w"
			case "adb":
				// adb shell cmd testharness enable: reset to a clean state
				j := lower(joinWords(args))
				return strings.Contains(j, "testharness enable") || strings.Contains(j, "--wipe_data"), "adb " + truncate(j, 60)
			case "idevicerestore":
				return hasWord(args, "--erase") || hasWord(args, "-e"), "idevicerestore --erase"
			default: // cfgutil [--ecid ID] erase, restore, revive
				for _, o := range ops {
					if o.s == "erase" || o.s == "restore" || o.s == "revive" {
						return true, "cfgutil " + o.s
					}
				}
				return false, ""
			}
		}},
	{ID: "image-onto-disk", Level: LevelCritical, Category: CategoryDiskWipe, Description: "an imaging or rescue tool writing over a disk device (what it held is gone)",
		Suggestions: []string{"Write to an image file instead", "Verify the device with lsblk and do this by hand"},
		names:       names("qemu-img", "bmaptool", "ddrescue", "dcfldd", "dc3dd", "flashrom", "balena", "etcher", "pv", "rpi-imager"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "flashrom" {
				// the machine's own firmware rewritten
				if (hasWord(args, "-w") || hasPrefixWord(args, "--write")) && strings.Contains(joinWords(args), "internal") {
					return true, "firmware"
				}
				return false, ""
			}
			for _, w := range args {
				if v, ok := strings.CutPrefix(w.s, "of="); ok && isBlockDevice(v) {
					return true, v
				}
			}
			ops := c.operands()
			if len(ops) < 2 || c.name == "pv" {
				return false, ""
			}
			if c.name == "qemu-img" && ops[0].s != "create" && ops[0].s != "convert" && ops[0].s != "dd" {
				return false, ""
			}
			if last := ops[len(ops)-1].s; isBlockDevice(last) {
				return true, last
			}
			// qemu-img create -f raw /dev/sdb 1G: the device before the size
			if c.name == "qemu-img" && ops[0].s == "create" && len(ops) >= 3 && isBlockDevice(ops[len(ops)-2].s) {
				return true, ops[len(ops)-2].s
			}
			return false, ""
		}},
	{ID: "dd-block-device", Level: LevelCritical, Category: CategoryDiskWipe, Description: "dd writing to a disk device",
		Suggestions: []string{"Write to an image file instead (of=disk.img)", "Double-check the device with lsblk; never script this"}, names: names("dd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			image := false
			for _, w := range c.args() {
				if v, ok := strings.CutPrefix(w.s, "if="); ok {
					l := lower(v)
					image = strings.HasSuffix(l, ".iso") || strings.HasSuffix(l, ".img") || strings.HasSuffix(l, ".raw")
				}
			}
			for _, w := range c.args() {
				if strings.HasPrefix(w.s, "of=") {
					p := w.s[3:]
					if image && strings.HasPrefix(p, "/dev/disk/by-id/usb-") && w.ok {
						// an installer image written to the USB stick named
						// by its serial: what by-id names are for
						continue
					}
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
			for _, w := range c.operands() {
				if loopDevice(w.s) {
					if disk := a.links[w.s]; disk != "" {
						return true, w.s + " (" + disk + ")" // a loop device set up over a disk
					}
					continue
				}
				if strings.HasPrefix(w.s, "/dev/") || !w.ok {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "wipefs", Level: LevelCritical, Category: CategoryDiskWipe, Description: "wiping filesystem signatures from a device",
		Suggestions: []string{"Use wipefs --no-act to inspect", "Do this by hand after checking lsblk"}, names: names("wipefs", "blkdiscard", "sg_format", "flash_erase", "flash_eraseall"),
		match: func(a *analysis, c *cmd) (bool, string) {
			o := c.opts()
			if c.name == "wipefs" && (!o.has("a", "all") && !o.has("o", "offset") || o.has("n", "no-act")) {
				return false, "" // (--no-act: what would be wiped, listed)
			}
			for _, w := range c.operands() {
				if loopDevice(w.s) {
					continue
				}
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
			if c.name == "sgdisk" && sgdiskReadsOnly(args) {
				return false, "" // --backup copies the table out; the disk is untouched
			}
			for _, w := range c.operands() {
				if isBlockDevice(w.s) && !a.loopsOnly([]word{w}) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "disk-erase", Level: LevelCritical, Category: CategoryDiskWipe, Description: "erasing a disk or volume",
		Suggestions: []string{"Do secure erasure by hand after checking the device", "Detach the disk you mean to keep"}, names: names("hdparm", "nvme", "cryptsetup", "zpool", "lvremove", "vgremove", "pvremove", "mdadm", "diskutil", "badblocks", "blkdiscard", "sg_format", "lvreduce", "xfs_repair", "debugfs", "asr", "gpt", "mt", "mkltfs"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "mt":
				// mt -f /dev/nst0 erase (or weof at the tape's start): the
				// archive on the cartridge gone
				for _, v := range plainWords(c.lowerArgs()) {
					if v == "erase" || v == "weof" || v == "eof" || v == "wset" {
						return true, "mt " + v + " (a tape's contents overwritten)"
					}
				}
				return false, ""
			case "mkltfs":
				// mkltfs --force: a cartridge formatted over what it held
				if hasWord(args, "--force") || hasWord(args, "-f") {
					return true, "mkltfs --force"
				}
				return false, ""
			case "asr":
				// asr restore --target VOLUME --erase: the volume wiped and
				// replaced by the image (a volume of the developer's own
				// test image under the project passes)
				if len(args) > 0 && args[0].s == "restore" && hasWord(args, "--erase") {
					t, _ := optValue(args, "", "target")
					return !hasWord(args, "--help"), "asr restore --erase --target " + t
				}
				return false, ""
			case "gpt":
				// gpt destroy disk2: the partition table gone
				if len(args) > 1 && args[0].s == "destroy" {
					return true, "gpt destroy " + args[1].s
				}
				return false, ""
			case "badblocks":
				// -w overwrites every block with test patterns
				for _, w := range args {
					if len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && strings.Contains(w.s, "w") {
						return true, "badblocks -w"
					}
				}
				return false, ""
			case "blkdiscard", "sg_format":
				// (a loop device is an image file seen as a disk, unless
				// it was set up over one)
				if ops := c.operands(); len(ops) > 0 && c.name == "blkdiscard" && a.loopsOnly(ops) {
					return false, ""
				}
				return true, c.name
			case "hdparm":
				return hasPrefixWord(args, "--security-erase") || hasWord(args, "--trim-sector-ranges"), ""
			case "nvme":
				return len(args) > 0 && (args[0].s == "format" || args[0].s == "sanitize"), ""
			case "cryptsetup":
				// (cryptsetup -q luksKillSlot DEV 0: the action is the
				// first operand)
				ops := c.operands()
				return len(ops) > 0 && (ops[0].s == "luksFormat" || ops[0].s == "luksErase" || ops[0].s == "erase" ||
					// a key slot removed without its passphrase: the last one
					// gone, the volume's data with it
					ops[0].s == "luksKillSlot" || ops[0].s == "luksRemoveKey"), ""
			case "lvreduce":
				// a logical volume shrunk under its file system (-r,
				// --resizefs, shrinks the file system first)
				return !hasWord(args, "-r") && !hasWord(args, "--resizefs") && !hasWord(args, "-t") && !hasWord(args, "--test"), "lvreduce"
			case "debugfs":
				// debugfs -w -R 'rm /etc/passwd' /dev/sda1: the file system
				// edited under its own checks
				if !hasWord(args, "-w") {
					return false, ""
				}
				req, _ := optValue(args, "-R", "")
				for _, f := range strings.Fields(req) {
					switch f {
					case "rm", "unlink", "kill_file", "clri", "freeb", "freei", "rmdir", "mkfs", "set_super_value", "ssv":
						return true, "debugfs -w " + req
					}
				}
				return hasWord(args, "-f"), "debugfs -w -f"
			case "xfs_repair":
				// -L zeroes the log: what it held of recent writes is lost
				return hasWord(args, "-L") && !hasWord(args, "-n"), "xfs_repair -L"
			case "zpool":
				return len(args) > 0 && (args[0].s == "destroy" || args[0].s == "labelclear"), ""
			case "lvremove", "vgremove", "pvremove":
				// a snapshot or volume a CI run or a test made for itself
				for _, w := range c.operands() {
					if !(throwawayName(w.s) || strings.Contains(lower(w.s), "-snap-ci") || strings.HasSuffix(lower(w.s), "-ci")) {
						return true, ""
					}
				}
				return len(c.operands()) == 0, ""
			case "mdadm":
				return hasWord(args, "--zero-superblock"), ""
			case "diskutil":
				if strings.Contains(a.src, "ram://") {
					return false, "" // a RAM disk made on the line (hdiutil attach -nomount ram://...)
				}
				return diskutilErases(args), ""
			}
			return false, ""
		}},
	{ID: "shred-device", Level: LevelCritical, Category: CategoryDiskWipe, Description: "overwriting a disk device",
		Suggestions: []string{"Shred individual files inside the project instead", "Do device erasure by hand after checking lsblk"}, names: names("shred", "wipe", "srm", "scrub"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.operands() {
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
			if len(args) == 0 || args[0].s != "destroy" {
				return false, ""
			}
			for _, w := range args[1:] {
				if len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && strings.Contains(w.s, "n") {
					return false, "" // -n, -nv, -nvr: a dry run
				}
			}
			return true, ""
		}},
	{ID: "machine-reverted", Level: LevelModerate, Category: CategoryDiskWipe, Description: "reverting a machine or dataset to a snapshot, or resetting a VM manager, losing everything done since",
		Suggestions: []string{"Take a snapshot of the current state first", "Copy what you need out of the snapshot instead"},
		names:       names("multipass", "zfs", "podman", "docker", "tf"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) == 0 {
				return false, ""
			}
			// a checkpoint restored by name is how test machines are reset
			// (Restore-VMCheckpoint, virsh snapshot-revert); these drop
			// the current state without a way back
			switch c.name {
			case "multipass":
				return args[0].s == "restore" && hasWord(args, "--destructive"), "multipass restore --destructive"
			case "zfs":
				for _, w := range positional(args[1:]) {
					if scratchName(w.s) || strings.Contains(w.s, "/ci/") || strings.HasPrefix(w.s, "ci/") {
						return false, "" // a CI or scratch dataset reset to its clean state
					}
				}
				return args[0].s == "rollback", "zfs rollback"
			case "podman", "docker":
				return len(args) > 1 && args[0].s == "machine" && args[1].s == "reset", "machine reset"
			case "tf":
				// Team Foundation: pending changes undone
				return args[0].s == "undo" && (hasWord(args, "/recursive") || hasWord(args, "-recursive")), "tf undo /recursive"
			}
			return false, ""
		}},
	{ID: "zfs-rollback-destroys", Level: LevelHigh, Category: CategoryDiskWipe, Description: "rolling a ZFS dataset back past later snapshots, or forcing a received stream over it (its later snapshots and changes are destroyed)",
		Suggestions: []string{"Clone the snapshot (zfs clone) and copy what you need from it", "Roll back only to the latest snapshot; receive into a new dataset"}, names: names("zfs"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) > 1 && (args[0].s == "recv" || args[0].s == "receive") && hasShortFlag(args[1:], 'F') {
				// zfs recv -F tank/home: the dataset rolled back and
				// replaced by the stream (a new or scratch one is not)
				if ops := positional(args[1:]); len(ops) > 0 && !testName(ops[len(ops)-1].s) && !hasShortFlag(args[1:], 'n') {
					return true, "zfs " + joinWords(args)
				}
				return false, ""
			}
			if len(args) == 0 || args[0].s != "rollback" {
				return false, ""
			}
			if !hasWord(args, "-r") && !hasWord(args, "-R") && !hasWord(args, "-rf") && !hasWord(args, "-Rf") {
				return false, ""
			}
			return true, "zfs rollback " + joinWords(args[1:])
		}},
	{ID: "disk-image-overwrite", Level: LevelModerate, Category: CategoryDiskWipe, Description: "overwriting a virtual machine's disk image (the machine's file system inside is lost)",
		Suggestions: []string{"Copy the image and work on the copy", "Shut the machine down and snapshot it first"}, names: names("dd", "truncate", "shred", "qemu-img"),
		match: func(a *analysis, c *cmd) (bool, string) {
			var targets []string
			for _, w := range c.args() {
				if v, ok := strings.CutPrefix(w.s, "of="); ok && c.name == "dd" {
					targets = append(targets, v)
				} else if c.name != "dd" && !strings.HasPrefix(w.s, "-") {
					targets = append(targets, w.s)
				}
			}
			if c.name == "qemu-img" && (len(targets) == 0 || targets[0] != "create" && targets[0] != "resize") {
				return false, ""
			}
			if c.name == "dd" && readsDevice(c.args()) {
				return false, "" // imaging a disk into a file: a backup being made
			}
			for _, t := range targets {
				p := a.absPath(t, c.cwd)
				if p == "" || a.inWork(p) || strings.HasPrefix(p, "/tmp/") {
					continue
				}
				switch path.Ext(p) {
				case ".qcow2", ".vmdk", ".vdi", ".vhd", ".vhdx", ".img", ".raw":
					return true, p
				}
			}
			return false, ""
		}},
	{ID: "snapshot-delete", Level: LevelHigh, Category: CategoryDiskWipe, Description: "deleting backups or file-system snapshots (what a restore would need)",
		Suggestions: []string{"Let the backup tool's own retention prune old snapshots", "Delete one named snapshot after checking it is not needed"},
		names:       names("btrfs", "tmutil", "snapper", "timeshift"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			switch c.name {
			case "btrfs":
				if len(ops) > 1 && strings.HasPrefix("subvolume", ops[0].s) && len(ops[0].s) >= 3 && (ops[1].s == "delete" || ops[1].s == "del") {
					scratch := len(ops) > 2
					for _, w := range ops[2:] {
						// /mnt/scratch/test-subvol: a test's subvolume on a
						// scratch file system
						if !w.ok || !testName(w.s) && !strings.Contains(w.s, "/scratch/") {
							scratch = false
						}
					}
					if !scratch {
						return true, "btrfs subvolume delete"
					}
				}
			case "tmutil":
				if len(ops) > 0 {
					switch ops[0].s {
					case "delete", "deletelocalsnapshots", "thinlocalsnapshots", "disable", "removedestination", "deleteinprogress":
						return true, "tmutil " + ops[0].s
					}
				}
			case "snapper":
				// (-c home: the configuration, a value before the command)
				ops = posArgs(c.args(), optSpec{short: "cr", long: []string{"config", "root", "machine-readable", "csvout", "jsonout", "separator", "utc", "iso"}})
				if len(ops) > 0 && (ops[0].s == "delete" || ops[0].s == "rm" || ops[0].s == "remove") {
					return true, "snapper " + ops[0].s
				}
			case "timeshift":
				if hasWord(c.args(), "--delete") || hasWord(c.args(), "--delete-all") {
					return true, "timeshift --delete"
				}
			}
			return false, ""
		}},
	writeRule("write-block-device", LevelCritical, CategoryDiskWipe, "writing directly to a disk device",
		[]string{"Write to an image file instead", "Check the device with lsblk and do this by hand"}, false, wBlockDev),
}

func init() { ruleSets = append(ruleSets, diskWipeRules) }

// diskutilErases reports a diskutil verb that erases, repartitions or
// deletes a disk, volume or container, also under its apfs, cs (Core
// Storage) and appleRAID families (diskutil apfs deleteContainer).
func diskutilErases(args []word) bool {
	ops := positional(args)
	if len(ops) > 1 {
		switch lower(ops[0].s) {
		case "apfs", "cs", "corestorage", "appleraid", "ar":
			ops = ops[1:]
		}
	}
	if len(ops) == 0 {
		return false
	}
	v := lower(ops[0].s)
	switch {
	case strings.HasPrefix(v, "erase"), strings.HasPrefix(v, "delete"), strings.HasPrefix(v, "zero"), v == "secureerase",
		v == "partitiondisk", v == "reformat", v == "splitpartition", v == "mergepartitions", v == "resizecontainer" && len(ops) > 2 && ops[2].s == "0":
		return true
	}
	return false
}

// loopsOnly reports operands that are all loop devices not set up over
// a disk (losetup /dev/loop9 /dev/sda makes /dev/loop9 that disk).
func (a *analysis) loopsOnly(ops []word) bool {
	for _, w := range ops {
		if !w.ok || !loopDevice(w.s) || a.links[w.s] != "" {
			return false
		}
	}
	return true
}

// loopDevice reports a loop device (/dev/loop7): a file seen as a disk,
// the scratch image a developer formats, never a physical disk.
func loopDevice(p string) bool {
	n, ok := strings.CutPrefix(p, "/dev/loop")
	if !ok || n == "" {
		return false
	}
	for _, r := range n {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// sgdiskReadsOnly reports sgdisk given only options that read the table
// (--backup to a file, --print, --info, --verify).
func sgdiskReadsOnly(args []word) bool {
	any := false
	for _, w := range args {
		if !strings.HasPrefix(w.s, "-") {
			continue
		}
		switch {
		case strings.HasPrefix(w.s, "--backup=") || strings.HasPrefix(w.s, "-b") || w.s == "--backup",
			w.s == "--print" || w.s == "-p" || strings.HasPrefix(w.s, "--info") || strings.HasPrefix(w.s, "-i") || w.s == "--verify" || w.s == "-v":
			any = true
		default:
			return false
		}
	}
	return any
}

// readsDevice reports dd reading a whole device (if=/dev/sdb), not zeros
// or random bytes: what it writes is a copy of that disk.
func readsDevice(args []word) bool {
	for _, w := range args {
		if v, ok := strings.CutPrefix(w.s, "if=/dev/"); ok {
			return v != "zero" && v != "urandom" && v != "random" && v != "null" && !strings.HasPrefix(v, "std") && !strings.HasPrefix(v, "fd/")
		}
	}
	return false
}
