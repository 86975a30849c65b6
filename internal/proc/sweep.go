package proc

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// MarkerEnv is the environment variable through which Spec.Marker reaches the
// child. Descendants inherit it, which is how Terminate recognizes processes
// that left the process group.
const MarkerEnv = "HOTPLEX_PROC_MARKER"

// CgroupsEnv, set to "off", makes DefaultCgroupRoot return "" (see there).
const CgroupsEnv = "HOTPLEX_CGROUPS"

// procInfo is the part of /proc/<pid>/stat this package needs.
type procInfo struct {
	pid   int
	ppid  int
	pgrp  int
	state byte
	// start is the start time in clock ticks after boot. Together with pid it
	// identifies a process even after its pid number has been reused.
	start uint64
	rss   int64 // resident pages
}

// alive reports whether the process still runs: zombies ('Z') and dying
// tasks ('X', 'x') have released their memory and cannot act any more.
func (i procInfo) alive() bool {
	return i.state != 'Z' && i.state != 'X' && i.state != 'x'
}

func statPath(pid int) string { return "/proc/" + strconv.Itoa(pid) + "/stat" }

// readStat reads /proc/<pid>/stat.
func readStat(pid int) (procInfo, error) {
	b, err := os.ReadFile(statPath(pid))
	if err != nil {
		return procInfo{}, fmt.Errorf("proc: read stat of %d: %w", pid, err)
	}
	return parseStat(pid, b)
}

// parseStat parses the contents of /proc/<pid>/stat.
func parseStat(pid int, b []byte) (procInfo, error) {
	// comm (field 2) may contain spaces and parentheses, so the remaining
	// fields are counted from the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procInfo{}, fmt.Errorf("proc: malformed stat of %d", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state); starttime is field 22 and rss field 24.
	if len(f) < 22 || len(f[0]) == 0 {
		return procInfo{}, fmt.Errorf("proc: short stat of %d", pid)
	}
	info := procInfo{pid: pid, state: f[0][0]}
	var errs [4]error
	info.ppid, errs[0] = strconv.Atoi(f[1])
	info.pgrp, errs[1] = strconv.Atoi(f[2])
	info.start, errs[2] = strconv.ParseUint(f[19], 10, 64)
	info.rss, errs[3] = strconv.ParseInt(f[21], 10, 64)
	if err := errors.Join(errs[:]...); err != nil {
		return procInfo{}, fmt.Errorf("proc: parse stat of %d: %w", pid, err)
	}
	return info, nil
}

// listPIDs returns the pids of all processes (thread-group leaders) in /proc.
func listPIDs() ([]int, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, fmt.Errorf("proc: open /proc: %w", err)
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("proc: list /proc: %w", err)
	}
	pids := make([]int, 0, len(names))
	for _, n := range names {
		if pid, err := strconv.Atoi(n); err == nil && pid > 0 {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

// snapshot reads the stat of every process. Processes that exit while the
// scan runs are simply missing from the result.
func snapshot() map[int]procInfo {
	pids, err := listPIDs()
	if err != nil {
		return nil
	}
	all := make(map[int]procInfo, len(pids))
	for _, pid := range pids {
		if info, err := readStat(pid); err == nil {
			all[pid] = info
		}
	}
	return all
}

// hasMarker reports whether the environment of pid contains
// MarkerEnv=marker. Unreadable environments (exited processes, other users'
// processes when not root) count as unmarked.
func hasMarker(pid int, marker string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	want := MarkerEnv + "=" + marker
	for len(b) > 0 {
		entry := b
		if i := bytes.IndexByte(b, 0); i >= 0 {
			entry, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if string(entry) == want {
			return true
		}
	}
	return false
}

// treeQuery says which processes belong to one process tree. A process
// belongs if it is the root, a member of pgrp, carries marker, is one of
// known, or descends (by parent links) from any process that belongs.
type treeQuery struct {
	root      int    // 0 for none
	rootStart uint64 // when non-zero, root counts only if its start time matches
	pgrp      int    // 0 for none
	marker    string // "" for none
	// reaper is a process whose children belong to the tree, but not
	// itself: the init of the tree's PID namespace (0 for none).
	reaper int
	// known maps pids already attributed to the tree to their start time
	// (0 when unknown, as for pids read from cgroup.procs).
	known map[int]uint64
	// minStart excludes processes that started before the tree's root: they
	// cannot descend from it, and skipping them also saves reading their
	// environment and guards against pid reuse.
	minStart uint64
}

// cgroupTree is findTree for a tree confined to a cgroup, whose processes
// q.known holds (cgroup.procs read into it): it reads the stat of those
// few processes instead of every process on the machine. Descendants
// cannot leave a cgroup without privileges to move themselves, so no
// parent links or markers need following.
func cgroupTree(q treeQuery) map[int]procInfo {
	self := os.Getpid()
	members := make(map[int]procInfo, len(q.known)+1)
	consider := func(pid int, start uint64) {
		if pid <= 0 || pid == self {
			return
		}
		info, err := readStat(pid)
		if err != nil || info.start < q.minStart || start != 0 && info.start != start {
			return
		}
		members[pid] = info
	}
	if q.root > 0 {
		consider(q.root, q.rootStart)
	}
	for pid, start := range q.known {
		consider(pid, start)
	}
	return members
}

// findTree returns the processes of the tree described by q, zombies
// included, keyed by pid. The calling process is never part of the result,
// and its descendants only when it is q.root.
func findTree(q treeQuery) map[int]procInfo {
	all := snapshot()
	self := os.Getpid()
	members := make(map[int]procInfo)
	var queue []int
	add := func(info procInfo) {
		if info.pid == self || info.start < q.minStart {
			return
		}
		if _, ok := members[info.pid]; ok {
			return
		}
		members[info.pid] = info
		queue = append(queue, info.pid)
	}

	if info, ok := all[q.root]; ok && q.root > 0 && (q.rootStart == 0 || info.start == q.rootStart) {
		if q.root == self {
			// The caller asks for its own descendants: walk from it, but
			// leave it out of the result.
			queue = append(queue, self)
		} else {
			add(info)
		}
	}
	for pid, start := range q.known {
		if info, ok := all[pid]; ok && (start == 0 || info.start == start) {
			add(info)
		}
	}
	children := make(map[int][]procInfo)
	for _, info := range all {
		children[info.ppid] = append(children[info.ppid], info)
		switch {
		case info.start < q.minStart:
		case q.reaper > 0 && info.ppid == q.reaper:
			add(info)
		case q.pgrp > 0 && info.pgrp == q.pgrp:
			add(info)
		case q.marker != "" && info.alive() && hasMarker(info.pid, q.marker):
			add(info)
		}
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			add(c)
		}
	}
	return members
}

// Descendants returns the PIDs of live processes that descend from pid (a
// /proc walk by PPid) or that carry the given marker in their environment
// (/proc/<pid>/environ), together with their own descendants. pid itself and
// the calling process are excluded. An empty marker matches nothing.
func Descendants(pid int, marker string) []int {
	q := treeQuery{root: pid, marker: marker}
	if info, err := readStat(pid); err == nil {
		q.minStart = info.start
	} else {
		q.root = 0
	}
	var out []int
	for p, info := range findTree(q) {
		if p != pid && info.alive() {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// Alive reports whether pid is a live process, that is, it exists and is not
// a zombie.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	info, err := readStat(pid)
	return err == nil && info.alive()
}

// TreeRSS returns the summed resident set size in bytes of pid and its
// descendants as found by Descendants.
func TreeRSS(pid int, marker string) (int64, error) {
	root, err := readStat(pid)
	if err != nil {
		return 0, err
	}
	pages := root.rss
	for _, d := range Descendants(pid, marker) {
		if info, err := readStat(d); err == nil {
			pages += info.rss
		}
	}
	return pages * int64(os.Getpagesize()), nil
}
