// Package proc owns the child processes of agent CLIs ("sessions").
//
// A session's process is started as the leader of its own process group, with
// pipes for stdin and stdout and a bounded tail of its stderr. Terminating it
// guarantees that no descendant survives, including those that left the
// process group (setsid), ignore hangups (nohup) or daemonized by double
// forking. Three mechanisms find such descendants, from strongest to weakest:
//
//   - a per-process cgroup v2 (Spec.CgroupRoot), into which the child is placed
//     atomically at clone time and which cgroup.kill empties in one write;
//   - a marker in the environment (MarkerEnv), inherited by every descendant
//     that does not scrub its environment, found by scanning /proc/*/environ;
//   - the parent links in /proc/*/stat, followed from every process already
//     known to belong to the tree.
//
// Orphaned descendants re-parent to the nearest child subreaper. A program
// that calls EnableSubreaper becomes that subreaper, so Terminate can reap the
// zombies of the trees it kills instead of leaving them to PID 1.
package proc
