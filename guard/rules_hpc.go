package guard

import (
	"strings"
)

// Batch schedulers of compute clusters (Slurm, PBS, LSF): every job of a
// user, an account or a partition cancelled, the controller shut down,
// accounts deleted from the accounting database, limits and access
// control switched off. A job or an array the command names passes,
// and so do queries (squeue, sacct, sinfo, sacctmgr show).
var hpcRules = []*rule{
	{ID: "render-farm-jobs-deleted", Level: LevelHigh, Category: CategorySystem, Description: "deleting a render farm's jobs or shows (Deadline, OpenCue): the queue's work and its settings lost",
		Suggestions: []string{"Suspend the job instead (deadlinecommand -SuspendJob)", "Leave the queue to the farm's wranglers"},
		names:       names("deadlinecommand", "cueadmin"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.lowerArgs() {
				switch w {
				case "-deletejob", "-deletejobs", "-deletejobsfromfilter", "-deleteslave", "-deleteworker", "-delete-show", "-delete-job", "-delete-alloc":
					return true, c.name + " " + w
				}
			}
			return false, ""
		}},
	{ID: "open-data-purged", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "purging an open-data portal's datasets, organisations or whole database (CKAN)",
		Suggestions: []string{"Delete (not purge) the dataset, which keeps it restorable", "Try it on a local CKAN first"},
		names:       names("ckan", "ckanapi"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			j := strings.Join(low, " ")
			if c.name == "ckan" {
				return strings.Contains(j, "db clean"), "ckan db clean"
			}
			for _, w := range low {
				if strings.HasSuffix(w, "_purge") && (strings.HasPrefix(w, "dataset") || strings.HasPrefix(w, "organization") || strings.HasPrefix(w, "group") || strings.HasPrefix(w, "user")) {
					if r, ok := optValue(c.args(), "-r", "remote"); ok && (developerNetwork(hostOf(r)) || scratchName(r)) {
						return false, "" // a local or test portal
					}
					return true, "ckanapi " + w
				}
			}
			return false, ""
		}},
	{ID: "cluster-jobs-cancelled", Level: LevelHigh, Category: CategorySystem, Description: "cancelling every job of a user, an account, a partition or a state on a compute cluster (days of computation lost, colleagues' included)",
		Suggestions: []string{"Cancel the jobs the task started, by their ids", "List them first (squeue -u $USER) and hold rather than cancel (scontrol hold)"},
		names:       names("scancel", "qdel", "bkill"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "scancel":
				if hasWord(args, "--help") || hasWord(args, "--usage") {
					return false, ""
				}
				if c.pipe != nil && c.stage > 0 {
					return true, "scancel of every job listed before it"
				}
				ids := false
				for _, w := range c.operands() {
					if w.s != "" && (w.s[0] >= '0' && w.s[0] <= '9' || w.s[0] == '$') {
						ids = true
					}
				}
				if ids || hasPrefixWord(args, "--name") || hasWord(args, "-n") || hasPrefixWord(args, "--jobname") {
					return false, "" // jobs named by id, or by the name the task gave them
				}
				for _, w := range args {
					s := w.s
					for _, f := range [...]string{"-u", "--user", "-A", "--account", "-p", "--partition", "-t", "--state", "--me", "-w", "--nodelist", "-q", "--qos", "-R", "--reservation"} {
						if s == f || strings.HasPrefix(s, f+"=") {
							return true, "scancel " + joinWords(args)
						}
					}
				}
			case "qdel":
				if hasWord(args, "all") || hasWord(args, "ALL") || c.pipe != nil && c.stage > 0 {
					return true, "qdel of every job"
				}
			case "bkill":
				// bkill 0: every job of the user; -u all: everyone's; the
				// jobs a listing of every user's handed it
				if hasWord(args, "0") || hasWord(args, "all") || strings.Contains(a.src, "-u all") && strings.Contains(a.src, "bjobs") {
					return true, "bkill " + joinWords(args)
				}
			}
			return false, ""
		}},
	{ID: "cluster-scheduler-changed", Level: LevelCritical, Category: CategorySystem, Description: "shutting a cluster's scheduler down, deleting accounts or users from its accounting, or switching its limits and access control off",
		Suggestions: []string{"Leave scheduler administration to the cluster's administrators", "Change one limit for one account, reviewed, and never the default QOS"},
		names:       names("scontrol", "sacctmgr", "qmgr", "badmin", "lsadmin", "mmshutdown", "mmdelnode", "mmdelnsd", "tunefs.lustre", "beegfs-ctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			ops := plainWords(low)
			switch c.name {
			case "mmshutdown":
				if hasWord(c.args(), "-a") || strings.Contains(strings.Join(low, " "), "-n all") {
					return true, "GPFS shut down on every node"
				}
				return false, ""
			case "tunefs.lustre":
				if hasWord(c.args(), "--writeconf") {
					return true, "tunefs.lustre --writeconf (the file system's configuration logs erased)"
				}
				return false, ""
			case "beegfs-ctl":
				if hasWord(c.args(), "--removenode") {
					return true, "beegfs-ctl --removenode"
				}
				return false, ""
			}
			if len(ops) == 0 {
				return false, ""
			}
			switch c.name {
			case "scontrol":
				if ops[0] == "shutdown" {
					return true, "scontrol shutdown (the controller and every node daemon stopped)"
				}
				j := strings.Join(ops, " ")
				if ops[0] == "delete" || ops[0] == "update" && hasAny(j, "state=down", "state=drain", "state=inactive", "state=fail") && (hasAny(j, "partitionname=", "nodename=all") || nodeRange(c.args(), "nodename=")) {
					return true, "scontrol " + j
				}
				if ops[0] == "create" && strings.Contains(j, "reservation") && hasAny(j, "nodes=all", "nodecnt=all", "partition=") && !strings.Contains(j, "flags=maint") && strings.Contains(j, "users=") {
					return true, "scontrol " + j + " (the cluster reserved for one user)"
				}
			case "sacctmgr":
				switch ops[0] {
				case "delete", "remove", "del":
					return true, "sacctmgr " + strings.Join(ops, " ")
				case "modify", "update":
					j := strings.Join(ops, " ")
					if hasAny(j, "=-1", "=unlimited", "priority=") || strings.Contains(j, "adminlevel=") {
						return true, "sacctmgr " + j
					}
				}
			case "qmgr":
				j := strings.Join(low, " ")
				if strings.Contains(j, "set server") && (strings.Contains(j, "_enable = false") || strings.Contains(j, "_enable=false") || strings.Contains(j, "_enable = f")) ||
					strings.Contains(j, "delete queue") || strings.Contains(j, "delete node") || strings.Contains(j, "set server managers") || strings.Contains(j, "set server operators") ||
					strings.Contains(j, "set queue") && strings.Contains(j, "resources_max") {
					return true, "qmgr " + strings.TrimPrefix(j, "-c ")
				}
			case "badmin":
				if ops[0] == "hshutdown" || ops[0] == "mbdshutdown" || ops[0] == "qclose" && len(ops) == 1 || ops[0] == "hclose" && slicesContains(ops, "all") {
					return true, "badmin " + ops[0]
				}
			case "lsadmin":
				if (ops[0] == "limshutdown" || ops[0] == "resshutdown") && (len(ops) == 1 || slicesContains(ops, "all")) {
					return true, "lsadmin " + ops[0] + " on every host"
				}
			case "mmdelnode", "mmdelnsd":
				return true, c.name + " " + strings.Join(ops, " ")
			}
			return false, ""
		}},
	{ID: "cluster-quota-lifted", Level: LevelHigh, Category: CategorySystem, Description: "lifting or switching off a shared file system's quotas (Lustre, GPFS, BeeGFS, XFS project quotas): one user can fill it for everyone",
		Suggestions: []string{"Ask the storage administrators for a larger quota", "Change one user's or group's limit, reviewed"},
		names:       names("lfs", "lctl", "mmchfs", "beegfs-ctl", "xfs_quota", "setquota"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			j := strings.Join(low, " ")
			switch c.name {
			case "lfs":
				// lfs setquota -b 0 -B 0 -i 0 -I 0: no limit at all
				if len(low) > 0 && low[0] == "setquota" && strings.Contains(j, "-b 0") && strings.Contains(j, "-i 0") {
					return true, "lfs setquota with every limit 0 (none)"
				}
			case "lctl":
				if strings.Contains(j, "conf_param") && strings.Contains(j, ".quota.") && strings.HasSuffix(j, "=none") {
					return true, "lctl " + j
				}
			case "mmchfs":
				if strings.Contains(j, "-q no") {
					return true, "mmchfs -Q no"
				}
			case "beegfs-ctl":
				if strings.Contains(j, "--setquota") && strings.Contains(j, "unlimited") {
					return true, "beegfs-ctl --setquota unlimited"
				}
			case "xfs_quota", "setquota":
				if strings.Contains(j, "bhard=0") || strings.Contains(j, "ihard=0") || c.name == "setquota" && strings.Count(" "+j+" ", " 0 ") >= 4 {
					return true, c.name + " " + j
				}
			}
			return false, ""
		}},
	{ID: "cluster-storage-destroyed", Level: LevelCritical, Category: CategoryFileDelete, Description: "deleting a cluster file system's filesets, snapshots or tape copies, or a shared collection's files (GPFS, Lustre HSM, Spectrum Protect, Globus)",
		Suggestions: []string{"Leave file-system administration to the storage administrators", "Delete one run's files, inside the project, after listing them"},
		names:       names("mmdelfileset", "mmdelsnapshot", "mmdelfs", "mmdeldisk", "lfs", "dsmc", "globus", "git", "git-annex", "mmapplypolicy"),
		partial:     true, // git's other deletes are the git rules'
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			low := c.lowerArgs()
			switch c.name {
			case "git", "git-annex":
				// git annex drop --force: the copies dropped even when no
				// other copy is known to exist
				sub, rest := gitSub(c)
				if c.name == "git-annex" {
					sub, rest = "annex", c.args()
				}
				if sub == "annex" && len(rest) > 0 && (rest[0].s == "drop" || rest[0].s == "dropunused") && hasWord(rest, "--force") {
					return true, "git annex " + rest[0].s + " --force"
				}
				return false, ""
			case "mmapplypolicy":
				// mmapplypolicy DIR -P rules.pol -I yes with a DELETE rule
				if p, ok := optValue(c.args(), "-P", ""); ok && !hasWord(c.args(), "test") {
					if t, known := a.writtenText(p, c.cwd); known && strings.Contains(strings.ToUpper(t), " DELETE") {
						return true, "mmapplypolicy with a DELETE rule"
					}
				}
				return false, ""
			case "mmdelfileset", "mmdelsnapshot", "mmdelfs", "mmdeldisk":
				return len(ops) > 0, c.name + " " + joinWords(ops)
			case "lfs":
				if len(ops) > 1 && (ops[0].s == "hsm_remove" || ops[0].s == "rmfid") {
					return true, "lfs " + ops[0].s + " (the archived copies removed)"
				}
			case "dsmc":
				if len(ops) > 1 && (ops[0].s == "delete" || ops[0].s == "del") && (ops[1].s == "archive" || ops[1].s == "backup" || ops[1].s == "ar" || ops[1].s == "ba") {
					return true, "dsmc delete " + ops[1].s
				}
			case "globus":
				if len(ops) > 1 && (ops[0].s == "delete" || ops[0].s == "rm") && hasAnyWord(low, "-r", "--recursive") {
					for _, w := range ops[1:] {
						if scratchName(w.s) || testName(w.s) {
							return false, ""
						}
					}
					return true, "globus " + ops[0].s + " -r"
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, hpcRules) }

// nodeRange reports a node list after key that names many nodes: a
// range (gn[001-048]), a comma list or what a command substituted.
func nodeRange(args []word, key string) bool {
	for _, w := range args {
		l := lower(w.s)
		if v, ok := strings.CutPrefix(l, key); ok && (strings.ContainsAny(v, "[,") || !w.ok) {
			return true
		}
	}
	return false
}
