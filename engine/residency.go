package engine

import (
	"slices"
	"strings"
	"time"
)

// residency counts the sessions that hold a live process, or one
// starting, against MaxResident, MemoryBudget and PerOwnerResident, and
// chooses which idle session to hibernate when a start needs room: the
// least recently active one (of the owner at quota, when it is an
// owner's quota that is full).
//
// It owns the set of resident sessions and their measured sizes; parked
// spares count against the same limits, so the pool tells it how many
// there are. Every method runs under SessionPool.mu and never blocks;
// victims reads the candidates' state under their own mu (the pool's mu
// is always taken first).
type residency struct {
	maxResident  int
	memoryBudget int64
	perOwner     int

	// members are the sessions holding a residency slot, with their
	// process tree's last measured size (0 until measured).
	members map[*session]int64
	owners  map[string]int // the same, counted per owner ("" is not counted)

	hibernations uint64
	// measured is the size of the sessions' and spares' process trees at
	// the last measurement, in bytes.
	measured int64
}

// defaultRSSEstimate is the size assumed for a session before any was
// measured: a hot Claude Code process holds about this much.
const defaultRSSEstimate = 256 << 20

func newResidency(o *EngineOptions) residency {
	return residency{
		maxResident: o.MaxResident, memoryBudget: o.MemoryBudget, perOwner: o.PerOwnerResident,
		members: map[*session]int64{}, owners: map[string]int{},
	}
}

// count returns the sessions holding a slot.
func (r *residency) count() int { return len(r.members) }

// holds reports whether s holds a slot.
func (r *residency) holds(s *session) bool {
	_, ok := r.members[s]
	return ok
}

// reserve gives s a slot (once).
func (r *residency) reserve(s *session) {
	if r.holds(s) {
		return
	}
	r.members[s] = 0
	if s.owner != "" {
		r.owners[s.owner]++
	}
}

// release takes s's slot back, if it holds one.
func (r *residency) release(s *session) {
	if !r.holds(s) {
		return
	}
	delete(r.members, s)
	if s.owner != "" {
		if r.owners[s.owner]--; r.owners[s.owner] <= 0 {
			delete(r.owners, s.owner)
		}
	}
}

// measuredSize records s's process tree size, if s still holds its slot.
func (r *residency) measuredSize(s *session, rss int64) {
	if r.holds(s) && rss > 0 {
		r.members[s] = rss
	}
}

// estimate is the expected size of one more process: the average of the
// measured ones.
func (r *residency) estimate() int64 {
	var sum int64
	n := 0
	for _, rss := range r.members {
		if rss > 0 {
			sum += rss
			n++
		}
	}
	if n == 0 {
		return defaultRSSEstimate
	}
	return sum / int64(n)
}

// full reports whether one more process would exceed MaxResident or the
// memory budget, with spares processes parked or starting beside the
// sessions.
func (r *residency) full(spares int) bool {
	n := len(r.members) + spares
	if r.maxResident > 0 && n+1 > r.maxResident {
		return true
	}
	// A budget too small for one session still lets one run.
	if r.memoryBudget > 0 && n > 0 && int64(n+1)*r.estimate() > r.memoryBudget {
		return true
	}
	return false
}

// ownerFull reports whether owner is at its quota.
func (r *residency) ownerFull(owner string) bool {
	return r.perOwner > 0 && owner != "" && r.owners[owner] >= r.perOwner
}

// victims returns the resident sessions that could be hibernated now (of
// owner, when not empty): idle, with a process and no turn, the least
// recently active first.
func (r *residency) victims(owner string) []*session {
	type cand struct {
		s    *session
		last time.Time
	}
	var cands []cand
	for s := range r.members {
		if owner != "" && s.owner != owner {
			continue
		}
		s.mu.Lock()
		if s.proc != nil && s.status == StatusIdle && s.interrupt == nil {
			cands = append(cands, cand{s, s.lastActive})
		}
		s.mu.Unlock()
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if c := a.last.Compare(b.last); c != 0 {
			return c
		}
		if c := a.s.created.Compare(b.s.created); c != 0 {
			return c
		}
		return strings.Compare(a.s.id, b.s.id) // a stable order for equal times
	})
	out := make([]*session, len(cands))
	for i, c := range cands {
		out[i] = c.s
	}
	return out
}
