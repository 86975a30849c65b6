package proc

import "os"

// TreesRSS returns, for each root pid, the summed resident set size in bytes
// of the root, the members of its process group (a root started by Start
// leads its own group) and their descendants, from one scan of /proc. Roots
// that no longer run are missing from the result.
func TreesRSS(roots []int) map[int]int64 {
	out := make(map[int]int64, len(roots))
	if len(roots) == 0 {
		return out
	}
	all := snapshot()
	children := make(map[int][]int, len(all))
	groups := make(map[int][]int)
	for _, info := range all {
		children[info.ppid] = append(children[info.ppid], info.pid)
		if info.pgrp > 0 {
			groups[info.pgrp] = append(groups[info.pgrp], info.pid)
		}
	}
	page := int64(os.Getpagesize())
	for _, root := range roots {
		info, ok := all[root]
		if !ok || !info.alive() {
			continue
		}
		seen := map[int]bool{}
		queue := []int{root}
		queue = append(queue, groups[root]...)
		var pages int64
		for len(queue) > 0 {
			pid := queue[0]
			queue = queue[1:]
			if seen[pid] {
				continue
			}
			seen[pid] = true
			m, ok := all[pid]
			if !ok || m.start < info.start {
				continue
			}
			pages += m.rss
			queue = append(queue, children[pid]...)
		}
		out[root] = pages * page
	}
	return out
}
