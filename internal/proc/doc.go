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
//
// # When the owner is killed outright
//
// None of the above helps when the program itself dies without terminating
// its sessions (SIGKILL, a crash, the OOM killer): a subreaper dies with it,
// a cgroup is not emptied by anyone, and detached jobs re-parent to PID 1.
// So, where it can, Start puts each session in a PID namespace of its own.
// The kernel enforces what follows: when the first process of a PID
// namespace (its init) dies, every other process in it is SIGKILLed, and no
// process can leave the namespace. The init dies with its parent
// (PR_SET_PDEATHSIG=SIGKILL, set by the init itself and checked against a
// pipe whose other end only the parent holds, which covers a parent that
// died before the signal was armed). Cgroups stay in use where available:
// the init is cloned into the session's cgroup, and both combine.
//
// The agent CLI is not made the init. PID 1 of a namespace gets no signal
// from inside it that it has no handler for (a tool's kill of it would do
// nothing), must reap every orphan of the namespace, and its exit kills the
// rest at once, which would end a session's background jobs the moment the
// CLI exits rather than when the session is terminated. Instead a tiny init
// forks the agent as its only child, reports its pid and, later, its wait
// status to the parent over a pipe, reaps everything, forwards SIGTERM,
// SIGINT, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 to the agent, and exits once
// the agent has exited and the namespace is empty, or when the parent goes.
// Terminate ends the namespace by SIGKILLing the init after its graceful
// phases, which reach the agent and its descendants by pid as before.
//
// The init needs no second binary: Start re-executes the running program
// (/proc/self/exe, right even if the file was replaced since) with a marker
// in its environment that MaybeRunInit, called first thing in main (and in
// TestMain), recognises. A program that does not call MaybeRunInit, such as
// one using this package as a library, is never re-executed: its sessions
// share its PID namespace as before, and only the mechanisms above apply.
//
// What the agent sees: the pids of its namespace, beginning at 2 (the init
// is 1). The init also gets a mount namespace, in which mounts stay private
// to it and mounts from outside still propagate in, and mounts a /proc of
// the new namespace there, so that tools that read pids in /proc (ps,
// pgrep, lsof) find the ones they can signal. Where it may not mount, the
// tree sees the host /proc: ps shows host pids, which kill would not reach,
// a tolerable degradation. PID reports the agent's pid in our namespace, on
// which /proc reads, RSS and signals work as before; HostPID translates a
// pid that the tree reported (its $$, $!) into ours. A program that reports
// pids of its descendants to us (tmux's #{pane_pid}) should set
// Spec.SharePIDNamespace. When not root, the PID namespace comes with a user
// namespace that maps only our own uid and gid: files keep their owners,
// but setuid programs (sudo) cannot gain privileges inside, and other ids
// show as the overflow id.
//
// Where the kernel refuses (no privilege and no unprivileged user
// namespaces, a container without CAP_SYS_ADMIN, a limit reached), Start
// falls back to sharing our PID namespace and logs once that detached jobs
// survive an outright kill; PIDNamespaces reports which mechanism is in
// force. PIDNamespacesEnv=off and CgroupsEnv=off turn either mechanism off,
// for an operator whose tools misbehave under one and for tests.
//
// One caveat of PR_SET_PDEATHSIG: it fires when the thread that started the
// init exits, not only the process. The Go runtime keeps its threads for the
// life of the program unless a goroutine locked to one exits, which nothing
// that starts sessions does.
package proc
