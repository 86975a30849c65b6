package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
)

// The pool's capacity is three parts, each owning its state in its own
// file: admission (admission.go: the start queue, fairness, overload),
// residency (residency.go: the limits on live processes and the choice of
// whom to hibernate) and spares (spares.go: prewarmed processes). This
// file composes them: a start is admitted when a start slot is free and
// residency has room, made by dropping a spare or hibernating an idle
// session.
//
// Locking: the three parts are guarded by SessionPool.mu, and their
// methods assume it is held. A session's own mu is taken after the pool's
// when both are needed, never the other way round. Processes are started
// and ended without the lock.

// PoolStats are the pool's capacity figures: gauges of the moment and
// counters since the engine started.
type PoolStats struct {
	Sessions   int // sessions the pool keeps, whatever their state
	Resident   int // sessions with a live process or one starting
	Hibernated int // sessions whose process was ended to make room
	Busy       int // sessions running a turn
	Starting   int // CLI starts under way, spares included
	Queued     int // turns waiting in the start queue
	Spares     int // prewarmed processes parked
	// SparesByProvider counts the parked spares per provider name.
	SparesByProvider map[string]int

	// ResidentRSS is the resident memory of the sessions' and spares'
	// process trees at the last measurement, in bytes (0 until measured).
	ResidentRSS int64

	ColdStarts   uint64 // processes started for a new conversation
	Resumes      uint64 // processes started to resume a conversation
	SpareClaims  uint64 // new conversations served by a prewarmed spare
	SpareStarts  uint64 // spares started
	Hibernations uint64 // sessions hibernated
	Rejections   uint64 // turns refused with ErrOverloaded

	// The limits in force.
	MaxResident         int
	MemoryBudget        int64
	PerOwnerResident    int
	MaxConcurrentStarts int
	MaxQueuedStarts     int
}

// PoolStats returns the engine's capacity figures.
func (e *Engine) PoolStats() PoolStats { return e.pool.Stats() }

// Stats returns the pool's capacity figures.
func (sp *SessionPool) Stats() PoolStats {
	sp.mu.Lock()
	st := PoolStats{
		Sessions: len(sp.sessions), Resident: sp.res.count(), Starting: sp.adm.starting,
		Queued: sp.adm.queued, Spares: sp.spares.count, SparesByProvider: sp.spares.parkedOf(), ResidentRSS: sp.res.measured,
		ColdStarts: sp.coldStarts, Resumes: sp.resumes, SpareClaims: sp.spares.claims,
		SpareStarts: sp.spares.starts, Hibernations: sp.res.hibernations, Rejections: sp.adm.rejections,
		MaxResident: sp.opts.MaxResident, MemoryBudget: sp.opts.MemoryBudget,
		PerOwnerResident: sp.opts.PerOwnerResident, MaxConcurrentStarts: sp.adm.maxStarts,
		MaxQueuedStarts: sp.adm.maxQueued,
	}
	all := make([]*session, 0, len(sp.sessions))
	for _, s := range sp.sessions {
		all = append(all, s)
	}
	sp.mu.Unlock()
	for _, s := range all {
		s.mu.Lock()
		switch s.status {
		case StatusHibernated:
			st.Hibernated++
		case StatusRunning:
			st.Busy++
		}
		s.mu.Unlock()
	}
	return st
}

// MeasureRSS measures the resident memory of every session's and spare's
// process tree from /proc, records it for the memory budget and returns
// the total in bytes.
func (sp *SessionPool) MeasureRSS() int64 {
	sp.mu.Lock()
	var (
		pids   []int
		owners []*session
	)
	for s := range sp.res.members {
		s.mu.Lock()
		if s.proc != nil {
			pids = append(pids, s.proc.Info().PID)
			owners = append(owners, s)
		}
		s.mu.Unlock()
	}
	sparePIDs := sp.spares.pids()
	sp.mu.Unlock()
	sizes := proc.TreesRSS(append(slices.Clone(pids), sparePIDs...))
	var total, spares int64
	for _, pid := range sparePIDs {
		spares += sizes[pid]
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for i, s := range owners {
		if rss, ok := sizes[pids[i]]; ok && sp.res.holds(s) {
			sp.res.measuredSize(s, rss)
			total += rss
		}
	}
	sp.spares.rss = spares
	sp.res.measured = total + spares
	return sp.res.measured
}

// makeRoomLocked frees what a start for s needs, hibernating idle
// sessions (and ending spares) as needed. It reports whether the start fits.
func (sp *SessionPool) makeRoomLocked(s *session) bool {
	for sp.res.ownerFull(s.owner) {
		if !sp.hibernateOneLocked(s.owner) {
			return false
		}
	}
	for sp.res.full(sp.spares.processes()) {
		if sc := sp.spares.drop(); sc != nil {
			sp.closeSpareLocked(sc)
			continue
		}
		if !sp.hibernateOneLocked("") {
			return false
		}
	}
	return true
}

// roomFor is makeRoomLocked as admission's dispatch asks it.
func (sp *SessionPool) roomFor(s *session) roomVerdict {
	switch {
	case sp.makeRoomLocked(s):
		return roomFits
	case sp.res.ownerFull(s.owner):
		return roomOwnerFull // its own sessions are all busy; serve the others
	default:
		return roomFull // the machine is full of busy sessions
	}
}

// hibernateOneLocked hibernates the least recently active idle session
// (of owner, when not empty). It reports whether it found one.
func (sp *SessionPool) hibernateOneLocked(owner string) bool {
	for _, s := range sp.res.victims(owner) {
		if sp.hibernateLocked(s) {
			return true
		}
	}
	return false
}

// hibernateLocked ends s's process to free its slot, if s is idle and no
// turn holds it: s moves to hibernated at once and its process ends in
// the background; the session's next start waits for that end (see
// awaitEnding), so the resumed process finds the conversation complete.
func (sp *SessionPool) hibernateLocked(s *session) bool {
	select {
	case s.turn <- struct{}{}:
	default:
		return false // a turn has it
	}
	defer func() { <-s.turn }()
	s.mu.Lock()
	p := s.proc
	if p == nil || s.status != StatusIdle {
		s.mu.Unlock()
		return false
	}
	s.proc = nil
	cred, h := s.cred, s.hold
	s.cred, s.hold = nil, nil
	_ = s.moveLocked(StatusHibernated) // idle → hibernated is legal
	ending := make(chan struct{})
	s.ending = ending
	s.mu.Unlock()
	sp.res.release(s)
	sp.res.hibernations++
	sp.log.Info("hibernating idle session", "session", s.id, "owner", s.owner, "pid", p.Info().PID)
	if sp.opts.Hibernated != nil {
		sp.opts.Hibernated(s.id)
	}
	sp.bg.Go(func() {
		defer close(ending)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := p.Close(ctx); err != nil {
			sp.log.Warn("hibernating session", "session", s.id, "err", err)
		}
		cred.end() // the resumed process gets new credentials
		sp.saveConversation(ctx, s, h)
		h.release(sp.log, s.id)
	})
	return true
}

// unreserve takes s's residency slot back and serves the queue the freed
// slot may unblock.
func (sp *SessionPool) unreserve(s *session) {
	sp.mu.Lock()
	sp.res.release(s)
	sp.dispatchLocked()
	sp.mu.Unlock()
}

// grantLocked gives a queued (or unqueued) start its start slot and its
// residency slot, and wakes its turn.
func (sp *SessionPool) grantLocked(req *startReq) {
	sp.adm.grant(req)
	sp.res.reserve(req.s)
	close(req.ready)
}

// dispatchLocked grants queued starts while slots are free, taking owners
// in turn. An owner at its quota with nothing of its own to hibernate
// waits without holding up the rest.
func (sp *SessionPool) dispatchLocked() {
	sp.adm.dispatch(sp.roomFor, sp.grantLocked)
}

// kick serves the queue after something may have freed room: a turn
// ended, so its session can be hibernated.
func (sp *SessionPool) kick() {
	if sp.adm.waiting.Load() == 0 {
		return
	}
	sp.mu.Lock()
	sp.dispatchLocked()
	sp.mu.Unlock()
}

// admit waits for a start slot and a residency slot for s, making room by
// hibernating idle sessions. done must be called when the start ended,
// with the process that now serves s (nil: the start failed) and how long
// it took. queued reports how long the turn waited.
func (sp *SessionPool) admit(ctx context.Context, s *session) (done func(p provider.Process, took time.Duration), queued time.Duration, err error) {
	begin := sp.clock.Now()
	sp.mu.Lock()
	if sp.closed {
		sp.mu.Unlock()
		return nil, 0, ErrEngineClosed
	}
	a := &sp.adm
	req := &startReq{s: s, ready: make(chan struct{})}
	switch {
	case a.slotFree() && sp.makeRoomLocked(s):
		sp.grantLocked(req)
	case a.queueFull():
		err := a.overloaded(fmt.Sprintf("%d turns wait for a CLI start", a.queued))
		sp.mu.Unlock()
		return nil, 0, err
	default:
		a.enqueue(req)
		sp.dispatchLocked()
	}
	granted := req.granted
	sp.mu.Unlock()

	if !granted {
		expired := make(chan struct{})
		stop := sp.clock.AfterFunc(a.queueTimeout, func() { close(expired) })
		defer stop()
		var why error
		select {
		case <-req.ready:
		case <-ctx.Done():
			why = context.Cause(ctx)
		case <-expired:
			why = errQueueTimeout
		}
		if why != nil {
			sp.mu.Lock()
			if req.granted {
				// Granted just now: give the slots back.
				a.endStart(false, 0)
				sp.res.release(s)
			} else if req.err == nil {
				a.dequeue(req)
			}
			if req.err == nil && errors.Is(why, errQueueTimeout) {
				why = a.overloaded(fmt.Sprintf("no CLI start within %s", a.queueTimeout))
			}
			sp.dispatchLocked()
			sp.mu.Unlock()
			if req.err != nil {
				return nil, 0, req.err
			}
			return nil, 0, why
		}
		if req.err != nil {
			return nil, 0, req.err
		}
	}
	queued = sp.clock.Now().Sub(begin)
	return func(p provider.Process, took time.Duration) {
		sp.mu.Lock()
		a.endStart(p != nil, took)
		switch {
		case p == nil:
			sp.res.release(s)
		case p.Info().Resumed:
			sp.resumes++
		default:
			sp.coldStarts++
		}
		sp.dispatchLocked()
		sp.mu.Unlock()
	}, queued, nil
}
