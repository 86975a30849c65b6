package guard

import (
	"strings"
)

// Backup servers' and storage replication's own tools: NetBackup,
// Commvault, Bacula and Bareos, Amanda and Veeam expiring, deleting or
// relabelling what they keep; tapes written over from their start; a
// DRBD node told to throw its data away. Listings, status calls, dry runs
// and reads from a tape pass.
var backupSoftwareRules = []*rule{
	{ID: "backup-catalog-destroyed", Level: LevelCritical, Category: CategoryFileDelete, Description: "expiring, deleting, purging or relabelling a backup server's backups or tapes (their data can no longer be restored)",
		Suggestions: []string{"List the images or volumes first and expire one named image after a second look", "Let the retention policy expire backups"},
		names:       names("bpexpdate", "bpexpdate.exe", "bplabel", "bplabel.exe", "nbdelete", "amlabel", "qdelete", "bconsole", "erase-vbrtapemedium", "tar", "rman"),
		partial:     true, // tar's other deletes stay the file rules'
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			low := c.lowerArgs()
			switch c.name {
			case "bpexpdate", "bpexpdate.exe":
				// -d 0: the images expire now, and with them the catalog's
				// record of what they hold
				for i, w := range args[:max(len(args)-1, 0)] {
					if w.s == "-d" && args[i+1].s == "0" {
						return true, "bpexpdate -d 0 (backups expired now)"
					}
				}
			case "bplabel", "bplabel.exe":
				if hasWord(args, "-o") {
					return true, "bplabel -o (a labelled tape written over)"
				}
			case "nbdelete":
				return hasWord(args, "-allvolumes") || hasWord(args, "-force"), "nbdelete"
			case "amlabel":
				if hasWord(args, "-f") {
					return true, "amlabel -f (a tape holding backups relabelled)"
				}
			case "qdelete":
				return true, "qdelete " + strings.Join(plainWords(low), " ")
			case "bconsole":
				if c.in.kind != flowText {
					return false, ""
				}
				for _, l := range strings.Split(c.in.text, "\n") {
					f := strings.Fields(strings.ToLower(l))
					if len(f) == 0 {
						continue
					}
					switch f[0] {
					case "purge", "relabel", "truncate":
						return true, "bconsole " + strings.TrimSpace(l)
					case "delete":
						if len(f) > 1 && (strings.HasPrefix(f[1], "volume") || strings.HasPrefix(f[1], "jobid") || strings.HasPrefix(f[1], "job") || strings.HasPrefix(f[1], "pool")) {
							return true, "bconsole " + strings.TrimSpace(l)
						}
					}
				}
			case "rman":
				// echo "DELETE NOPROMPT BACKUP;" | rman target /: Oracle's
				// backups or archived logs deleted (DELETE OBSOLETE and
				// DELETE EXPIRED keep to the retention policy)
				if c.in.kind != flowText {
					return false, ""
				}
				for _, st := range strings.Split(strings.ToUpper(c.in.text), ";") {
					f := strings.Fields(st)
					if len(f) < 2 || f[0] != "DELETE" && !(f[0] == "DROP" && f[1] == "DATABASE") {
						continue
					}
					if f[0] == "DROP" || !hasAnyWord(f, "OBSOLETE", "EXPIRED") && hasAnyWord(f, "BACKUP", "BACKUPSET", "ARCHIVELOG", "COPY", "DATAFILECOPY") {
						return true, "rman " + strings.Join(f, " ")
					}
				}
			case "erase-vbrtapemedium":
				return true, "Erase-VBRTapeMedium"
			case "tar":
				// tar -cf /dev/st0: a tape written from where it stands,
				// over what it holds (reading one, -x and -t, passes)
				f, _, ok := tarArchive(args)
				if !ok || !tapeDevice(f) {
					return false, ""
				}
				for i, w := range args {
					s := w.s
					if s == "--create" || i == 0 && s != "" && s[0] != '-' && strings.ContainsRune(s, 'c') || len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.ContainsRune(s, 'c') {
						return true, "tar writing over the tape " + f
					}
				}
			}
			return false, ""
		}},
	{ID: "backup-protection-off", Level: LevelHigh, Category: CategorySystem, Description: "switching backup jobs or a backup vault's soft delete off (what is not backed up, or deleted from the vault, cannot come back)",
		Suggestions: []string{"Pause one job for a bounded time, after telling its owners", "Keep soft delete on; delete single items if needed"},
		names:       names("disable-vbrjob", "set-azrecoveryservicesvaultproperty"),
		match: func(a *analysis, c *cmd) (bool, string) {
			switch c.name {
			case "disable-vbrjob":
				return true, "Disable-VBRJob"
			case "set-azrecoveryservicesvaultproperty":
				if v, ok := swVal(c.lowerArgs(), "softdeletefeaturestate"); ok && v == "disable" {
					return true, "a backup vault's soft delete disabled"
				}
			}
			return false, ""
		}},
	{ID: "replica-data-discarded", Level: LevelCritical, Category: CategoryDiskWipe, Description: "telling a replicated volume (DRBD) to discard this node's data or write its metadata anew",
		Suggestions: []string{"Check which node holds the good data with drbdadm status first", "Run with -d (dry run) to see the commands"},
		names:       names("drbdadm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if hasWord(args, "-d") || hasWord(args, "--dry-run") {
				return false, ""
			}
			ops := plainWords(c.lowerArgs())
			if len(ops) == 0 {
				return false, ""
			}
			switch ops[0] {
			case "invalidate", "wipe-md":
				return true, "drbdadm " + ops[0]
			case "create-md":
				return hasWord(args, "--force"), "drbdadm create-md --force"
			case "connect":
				return hasWord(args, "--discard-my-data"), "drbdadm connect --discard-my-data"
			}
			return false, ""
		}},
}

// tapeDevice reports a tape drive's device (/dev/st0, /dev/nst1,
// \\.\Tape0).
func tapeDevice(p string) bool {
	l := strings.ToLower(p)
	return strings.HasPrefix(l, "/dev/st") || strings.HasPrefix(l, "/dev/nst") || strings.HasPrefix(l, `\\.\tape`)
}

func init() { ruleSets = append(ruleSets, backupSoftwareRules) }
