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
				// bkill 0: every job of the user; -u all: everyone's
				if hasWord(args, "0") || hasWord(args, "all") {
					return true, "bkill " + joinWords(args)
				}
			}
			return false, ""
		}},
	{ID: "cluster-scheduler-changed", Level: LevelCritical, Category: CategorySystem, Description: "shutting a cluster's scheduler down, deleting accounts or users from its accounting, or switching its limits and access control off",
		Suggestions: []string{"Leave scheduler administration to the cluster's administrators", "Change one limit for one account, reviewed, and never the default QOS"},
		names:       names("scontrol", "sacctmgr", "qmgr", "badmin"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			ops := plainWords(low)
			if len(ops) == 0 {
				return false, ""
			}
			switch c.name {
			case "scontrol":
				if ops[0] == "shutdown" {
					return true, "scontrol shutdown (the controller and every node daemon stopped)"
				}
				if ops[0] == "delete" || ops[0] == "update" && hasAny(strings.Join(ops, " "), "state=down", "state=drain") && hasAny(strings.Join(ops, " "), "partitionname=", "nodename=all", "nodename=ALL") {
					return true, "scontrol " + strings.Join(ops, " ")
				}
			case "sacctmgr":
				switch ops[0] {
				case "delete", "remove", "del":
					return true, "sacctmgr " + strings.Join(ops, " ")
				case "modify", "update":
					j := strings.Join(ops, " ")
					if hasAny(j, "maxwall=-1", "grptres=-1", "maxjobs=-1", "grpjobs=-1", "maxsubmit=-1", "priority=") || strings.Contains(j, "adminlevel=") {
						return true, "sacctmgr " + j
					}
				}
			case "qmgr":
				j := strings.Join(low, " ")
				if strings.Contains(j, "set server") && (strings.Contains(j, "_enable = false") || strings.Contains(j, "_enable=false") || strings.Contains(j, "_enable = f")) ||
					strings.Contains(j, "delete queue") || strings.Contains(j, "delete node") || strings.Contains(j, "set server managers") || strings.Contains(j, "set server operators") {
					return true, "qmgr " + strings.TrimPrefix(j, "-c ")
				}
			case "badmin":
				if ops[0] == "hshutdown" || ops[0] == "mbdshutdown" || ops[0] == "qclose" && len(ops) == 1 {
					return true, "badmin " + ops[0]
				}
			}
			return false, ""
		}},
	{ID: "cluster-storage-destroyed", Level: LevelCritical, Category: CategoryFileDelete, Description: "deleting a cluster file system's filesets, snapshots or tape copies, or a shared collection's files (GPFS, Lustre HSM, Spectrum Protect, Globus)",
		Suggestions: []string{"Leave file-system administration to the storage administrators", "Delete one run's files, inside the project, after listing them"},
		names:       names("mmdelfileset", "mmdelsnapshot", "mmdelfs", "mmdeldisk", "lfs", "dsmc", "globus"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			low := c.lowerArgs()
			switch c.name {
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
