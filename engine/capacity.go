package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
)

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

// capacity is the pool's admission state, guarded by SessionPool.mu.
type capacity struct {
	maxStarts, maxQueued int
	queueTimeout         time.Duration

	resident      int // sessions holding a residency slot
	residents     map[*session]struct{}
	ownerResident map[string]int // the same, per owner ("" is not counted)
	starting      int            // starts under way (sessions and spares)

	// The start queue: one FIFO per owner, served round-robin.
	queues map[string][]*startReq
	ring   []string
	next   int
	queued int

	spares         map[string][]provider.Spare // parked spares per provider
	sparesStarting map[string]int
	spareCount     int
	spareRSS       int64 // last measured size of all parked spares

	// startAvg is a moving average of start durations, for RetryAfter.
	startAvg time.Duration

	coldStarts, resumes, spareClaims, spareStarts, hibernations, rejections uint64
	residentRSS                                                             int64
}

// startReq is a turn waiting for a start slot.
type startReq struct {
	s       *session
	ready   chan struct{}
	granted bool
	err     error
}

// defaultRSSEstimate is the size assumed for a session before any was
// measured: a hot Claude Code process holds about this much.
const defaultRSSEstimate = 256 << 20

func newCapacity(o *EngineOptions) capacity {
	starts := o.MaxConcurrentStarts
	if starts <= 0 {
		starts = max(1, runtime.NumCPU())
	}
	queued := o.MaxQueuedStarts
	if queued <= 0 {
		queued = 256 * starts
	}
	timeout := o.StartQueueTimeout
	if timeout <= 0 {
		timeout = o.startTimeout()
	}
	return capacity{
		maxStarts: starts, maxQueued: queued, queueTimeout: timeout,
		ownerResident: map[string]int{}, residents: map[*session]struct{}{}, queues: map[string][]*startReq{},
		spares: map[string][]provider.Spare{}, sparesStarting: map[string]int{},
		startAvg: 300 * time.Millisecond,
	}
}

// PoolStats returns the engine's capacity figures.
func (e *Engine) PoolStats() PoolStats { return e.pool.Stats() }

// Stats returns the pool's capacity figures.
func (sp *SessionPool) Stats() PoolStats {
	sp.mu.Lock()
	c := &sp.cap
	st := PoolStats{
		Sessions: len(sp.sessions), Resident: c.resident, Starting: c.starting,
		Queued: c.queued, Spares: c.spareCount, ResidentRSS: c.residentRSS,
		ColdStarts: c.coldStarts, Resumes: c.resumes, SpareClaims: c.spareClaims,
		SpareStarts: c.spareStarts, Hibernations: c.hibernations, Rejections: c.rejections,
		MaxResident: sp.opts.MaxResident, MemoryBudget: sp.opts.MemoryBudget,
		PerOwnerResident: sp.opts.PerOwnerResident, MaxConcurrentStarts: c.maxStarts,
		MaxQueuedStarts: c.maxQueued,
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
		pids     []int
		owners   []*session
		sparePID []int
	)
	for s := range sp.cap.residents {
		s.mu.Lock()
		if s.proc != nil {
			pids = append(pids, s.proc.Info().PID)
			owners = append(owners, s)
		}
		s.mu.Unlock()
	}
	for _, list := range sp.cap.spares {
		for _, sc := range list {
			sparePID = append(sparePID, sc.PID())
		}
	}
	sp.mu.Unlock()
	sizes := proc.TreesRSS(append(slices.Clone(pids), sparePID...))
	var total, spares int64
	for _, pid := range sparePID {
		spares += sizes[pid]
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for i, s := range owners {
		if rss, ok := sizes[pids[i]]; ok && s.resident {
			s.rss = rss
			total += rss
		}
	}
	sp.cap.spareRSS = spares
	sp.cap.residentRSS = total + spares
	return sp.cap.residentRSS
}

// rssEstimate is the expected size of one more process: the average of
// the measured ones.
func (sp *SessionPool) rssEstimateLocked() int64 {
	var sum int64
	n := 0
	for s := range sp.cap.residents {
		if s.rss > 0 {
			sum += s.rss
			n++
		}
	}
	if n == 0 {
		return defaultRSSEstimate
	}
	return sum / int64(n)
}

// fullLocked reports whether one more process would exceed MaxResident or
// the memory budget.
func (sp *SessionPool) fullLocked() bool {
	c := &sp.cap
	n := c.resident + c.spareCount + c.sparesStartingTotal()
	if sp.opts.MaxResident > 0 && n+1 > sp.opts.MaxResident {
		return true
	}
	// A budget too small for one session still lets one run.
	if sp.opts.MemoryBudget > 0 && n > 0 && int64(n+1)*sp.rssEstimateLocked() > sp.opts.MemoryBudget {
		return true
	}
	return false
}

func (c *capacity) sparesStartingTotal() int {
	n := 0
	for _, v := range c.sparesStarting {
		n += v
	}
	return n
}

// ownerFullLocked reports whether owner is at its quota.
func (sp *SessionPool) ownerFullLocked(owner string) bool {
	q := sp.opts.PerOwnerResident
	return q > 0 && owner != "" && sp.cap.ownerResident[owner] >= q
}

// makeRoomLocked frees what a start for s needs, hibernating idle
// sessions (and ending spares) as needed. It reports whether the start fits.
func (sp *SessionPool) makeRoomLocked(s *session) bool {
	for sp.ownerFullLocked(s.owner) {
		if !sp.hibernateLRULocked(s.owner) {
			return false
		}
	}
	for sp.fullLocked() {
		if sp.dropSpareLocked() {
			continue
		}
		if !sp.hibernateLRULocked("") {
			return false
		}
	}
	return true
}

// hibernateLRULocked hibernates the least recently used idle session (of
// owner, when not empty). It reports whether it found one.
func (sp *SessionPool) hibernateLRULocked(owner string) bool {
	type cand struct {
		s    *session
		last time.Time
	}
	var cands []cand
	for s := range sp.cap.residents {
		if owner != "" && s.owner != owner {
			continue
		}
		s.mu.Lock()
		if s.proc != nil && s.status == StatusIdle && s.interrupt == nil {
			cands = append(cands, cand{s, s.lastActive})
		}
		s.mu.Unlock()
	}
	slices.SortFunc(cands, func(a, b cand) int { return a.last.Compare(b.last) })
	for _, c := range cands {
		select {
		case c.s.turn <- struct{}{}:
		default:
			continue // a turn has it
		}
		c.s.mu.Lock()
		p := c.s.proc
		if p == nil || c.s.status != StatusIdle {
			c.s.mu.Unlock()
			<-c.s.turn
			continue
		}
		c.s.proc = nil
		cred := c.s.cred
		c.s.cred = nil
		_ = c.s.moveLocked(StatusHibernated) // idle → hibernated is legal

		c.s.hibernating = true
		c.s.mu.Unlock()
		sp.unreserveLocked(c.s)
		sp.cap.hibernations++
		sp.log.Info("hibernating idle session", "session", c.s.id, "owner", c.s.owner, "pid", p.Info().PID)
		sp.bg.Go(func() {
			defer func() {
				c.s.mu.Lock()
				c.s.hibernating = false
				c.s.mu.Unlock()
				<-c.s.turn
			}()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := p.Close(ctx); err != nil {
				sp.log.Warn("hibernating session", "session", c.s.id, "err", err)
			}
			cred.end() // the resumed process gets new credentials
		})
		return true
	}
	return false
}

// reserveLocked gives s a residency slot.
func (sp *SessionPool) reserveLocked(s *session) {
	if s.resident {
		return
	}
	s.resident = true
	sp.cap.resident++
	sp.cap.residents[s] = struct{}{}
	if s.owner != "" {
		sp.cap.ownerResident[s.owner]++
	}
}

// unreserveLocked takes s's residency slot back.
func (sp *SessionPool) unreserveLocked(s *session) {
	if !s.resident {
		return
	}
	s.resident = false
	s.rss = 0
	sp.cap.resident--
	delete(sp.cap.residents, s)
	if s.owner != "" {
		if sp.cap.ownerResident[s.owner]--; sp.cap.ownerResident[s.owner] <= 0 {
			delete(sp.cap.ownerResident, s.owner)
		}
	}
}

// unreserve is unreserveLocked for callers without the lock; it also
// serves the queue the freed slot may unblock.
func (sp *SessionPool) unreserve(s *session) {
	sp.mu.Lock()
	sp.unreserveLocked(s)
	sp.dispatchLocked()
	sp.mu.Unlock()
}

// admit waits for a start slot and a residency slot for s, making room by
// hibernating idle sessions. done must be called when the start ended; its
// argument says whether a process now serves s. queued reports how long
// the turn waited.
func (sp *SessionPool) admit(ctx context.Context, s *session) (done func(started bool, took time.Duration), queued time.Duration, err error) {
	begin := time.Now()
	sp.mu.Lock()
	if sp.closed {
		sp.mu.Unlock()
		return nil, 0, ErrEngineClosed
	}
	c := &sp.cap
	req := &startReq{s: s, ready: make(chan struct{})}
	switch {
	case c.queued == 0 && c.starting < c.maxStarts && sp.makeRoomLocked(s):
		sp.grantLocked(req)
	case c.queued >= c.maxQueued:
		c.rejections++
		err := sp.overloadedLocked(fmt.Sprintf("%d turns wait for a CLI start", c.queued))
		sp.mu.Unlock()
		return nil, 0, err
	default:
		if _, ok := c.queues[s.owner]; !ok {
			c.ring = append(c.ring, s.owner)
		}
		c.queues[s.owner] = append(c.queues[s.owner], req)
		c.queued++
		sp.waiting.Add(1)
		sp.dispatchLocked()
	}
	granted := req.granted
	sp.mu.Unlock()

	if !granted {
		timer := time.NewTimer(c.queueTimeout)
		defer timer.Stop()
		var why error
		select {
		case <-req.ready:
		case <-ctx.Done():
			why = context.Cause(ctx)
		case <-timer.C:
			why = errQueueTimeout
		}
		if why != nil {
			sp.mu.Lock()
			if req.granted {
				// Granted just now: give the slots back.
				c.starting--
				sp.unreserveLocked(s)
			} else if req.err == nil {
				sp.dequeueLocked(req)
			}
			if req.err == nil && errors.Is(why, errQueueTimeout) {
				c.rejections++
				why = sp.overloadedLocked(fmt.Sprintf("no CLI start within %s", c.queueTimeout))
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
	queued = time.Since(begin)
	return func(started bool, took time.Duration) {
		sp.mu.Lock()
		c.starting--
		if started {
			c.startAvg = (c.startAvg*7 + took) / 8
		} else {
			sp.unreserveLocked(s)
		}
		sp.dispatchLocked()
		sp.mu.Unlock()
	}, queued, nil
}

var errQueueTimeout = errors.New("start queue wait timed out")

func (sp *SessionPool) overloadedLocked(reason string) error {
	c := &sp.cap
	waves := (c.queued + c.starting + c.maxStarts) / c.maxStarts
	retry := time.Duration(waves) * c.startAvg
	retry = max(time.Second, retry.Round(time.Second))
	return &OverloadedError{Reason: reason, RetryAfter: retry}
}

func (sp *SessionPool) grantLocked(req *startReq) {
	req.granted = true
	sp.cap.starting++
	sp.reserveLocked(req.s)
	close(req.ready)
}

func (sp *SessionPool) dequeueLocked(req *startReq) {
	c := &sp.cap
	q := c.queues[req.s.owner]
	if i := slices.Index(q, req); i >= 0 {
		c.queues[req.s.owner] = slices.Delete(q, i, i+1)
		c.queued--
		sp.waiting.Add(-1)
	}
	if len(c.queues[req.s.owner]) == 0 {
		sp.dropOwnerLocked(req.s.owner)
	}
}

func (sp *SessionPool) dropOwnerLocked(owner string) {
	c := &sp.cap
	delete(c.queues, owner)
	if i := slices.Index(c.ring, owner); i >= 0 {
		c.ring = slices.Delete(c.ring, i, i+1)
		if c.next > i {
			c.next--
		}
	}
}

// dispatchLocked grants queued starts while slots are free, taking owners
// in turn so that one owner's burst does not starve the others. An owner
// at its quota with nothing of its own to hibernate waits without holding
// up the rest.
func (sp *SessionPool) dispatchLocked() {
	c := &sp.cap
	for c.queued > 0 && c.starting < c.maxStarts {
		granted := false
		for i := 0; i < len(c.ring); i++ {
			idx := (c.next + i) % len(c.ring)
			owner := c.ring[idx]
			req := c.queues[owner][0]
			if !sp.makeRoomLocked(req.s) {
				if sp.ownerFullLocked(owner) {
					continue // its own sessions are all busy; serve the others
				}
				return // the machine is full of busy sessions
			}
			c.queues[owner] = c.queues[owner][1:]
			c.queued--
			sp.waiting.Add(-1)
			c.next = idx + 1
			if len(c.queues[owner]) == 0 {
				sp.dropOwnerLocked(owner)
			}
			if len(c.ring) > 0 {
				c.next %= len(c.ring)
			} else {
				c.next = 0
			}
			sp.grantLocked(req)
			granted = true
			break
		}
		if !granted {
			return
		}
	}
}

// failQueueLocked ends every waiting turn with err.
func (sp *SessionPool) failQueueLocked(err error) {
	c := &sp.cap
	for owner, q := range c.queues {
		for _, req := range q {
			req.err = err
			close(req.ready)
		}
		delete(c.queues, owner)
	}
	sp.waiting.Add(-int32(c.queued))
	c.queued, c.ring, c.next = 0, nil, 0
}

// kick serves the queue after something may have freed room: a turn
// ended, so its session can be hibernated.
func (sp *SessionPool) kick() {
	if sp.waiting.Load() == 0 {
		return
	}
	sp.mu.Lock()
	sp.dispatchLocked()
	sp.mu.Unlock()
}

// Spares.

// spareKey names the spares that may serve a session: the options every
// conversation of the engine shares are fixed at prewarm, so the provider
// is the key; per-session options (work directory, task instructions) are
// applied at the claim.
func spareKey(p provider.Provider) string { return p.Name() }

// takeSpare hands s a parked spare of its provider, moving the spare's
// residency slot to s, when one is parked and s's owner is under quota.
func (sp *SessionPool) takeSpare(s *session) provider.Spare {
	if sp.opts.Spares <= 0 {
		return nil
	}
	if _, ok := s.prov.(provider.Prewarmer); !ok {
		return nil
	}
	key := spareKey(s.prov)
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.closed || sp.ownerFullLocked(s.owner) {
		return nil
	}
	c := &sp.cap
	for len(c.spares[key]) > 0 {
		list := c.spares[key]
		sc := list[len(list)-1]
		c.spares[key] = list[:len(list)-1]
		c.spareCount--
		if !sc.Alive() {
			sp.closeSpare(sc)
			continue
		}
		sp.reserveLocked(s)
		return sc
	}
	return nil
}

// returnSpare parks a spare a session could not use, giving back the
// session's slot.
func (sp *SessionPool) returnSpare(s *session, sc provider.Spare) {
	sp.mu.Lock()
	sp.unreserveLocked(s)
	if sp.closed {
		sp.mu.Unlock()
		sp.discardSpare(sc)
		return
	}
	defer sp.mu.Unlock()
	key := spareKey(s.prov)
	if len(sp.cap.spares[key]) >= sp.opts.Spares {
		sp.closeSpare(sc) // refilled meanwhile
	} else {
		sp.cap.spares[key] = append(sp.cap.spares[key], sc)
		sp.cap.spareCount++
	}
	sp.dispatchLocked()
}

// dropSpareLocked ends one parked spare to make room.
func (sp *SessionPool) dropSpareLocked() bool {
	c := &sp.cap
	for key, list := range c.spares {
		if len(list) == 0 {
			continue
		}
		sc := list[0]
		c.spares[key] = list[1:]
		c.spareCount--
		sp.closeSpare(sc)
		return true
	}
	return false
}

// closeSpare ends a spare in the background. The caller holds mu, and
// the pool's background work is not yet waited for (see discardSpare).
func (sp *SessionPool) closeSpare(sc provider.Spare) {
	sp.bg.Go(func() { sp.endSpare(sc) })
}

func (sp *SessionPool) endSpare(sc provider.Spare) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := sc.Close(ctx); err != nil {
		sp.log.Debug("ending a spare", "pid", sc.PID(), "err", err)
	}
}

// discardSpare ends a spare, in the background unless the pool's shutdown
// is already waiting for its background work. The caller does not hold mu.
func (sp *SessionPool) discardSpare(sc provider.Spare) {
	sp.mu.Lock()
	late := sp.bgClosed
	if !late {
		sp.closeSpare(sc)
	}
	sp.mu.Unlock()
	if late {
		sp.endSpare(sc)
	}
}

func (sp *SessionPool) wakeSpares() {
	select {
	case sp.spareWake <- struct{}{}:
	default:
	}
}

// refillSpares keeps Spares parked per prewarming provider. It starts one
// at a time, only when no turn waits for a start and there is room without
// hibernating anyone: spares never take a slot a conversation wants.
func (sp *SessionPool) refillSpares() {
	defer close(sp.sparesDone)
	if sp.opts.Spares <= 0 {
		return
	}
	var warmers []provider.Provider
	for _, p := range sp.providers {
		if _, ok := p.(provider.Prewarmer); ok {
			warmers = append(warmers, p)
		}
	}
	if len(warmers) == 0 {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-sp.stopSpares
		cancel()
	}()
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	var deferred time.Time // since when turns have kept the refill waiting
	for {
		started := false
		// Low priority: a spare's start costs a core for a few hundred
		// milliseconds, which running turns should not share. It waits
		// for a moment without turns, or spareRefillDefer at most.
		if sp.busy.Load() > 0 {
			if deferred.IsZero() {
				deferred = time.Now()
			}
			if time.Since(deferred) < spareRefillDefer {
				select {
				case <-sp.stopSpares:
					return
				case <-sp.spareWake:
				case <-t.C:
				}
				continue
			}
		}
		deferred = time.Time{}
		for _, p := range warmers {
			if sp.startSpare(ctx, p) {
				started = true
			}
		}
		if started {
			continue
		}
		select {
		case <-sp.stopSpares:
			return
		case <-sp.spareWake:
		case <-t.C:
		}
	}
}

// spareRefillDefer is the longest running turns hold up a spare's refill.
const spareRefillDefer = 2 * time.Second

// startSpare starts one spare for p if it is wanted and fits. It reports
// whether it tried.
func (sp *SessionPool) startSpare(ctx context.Context, p provider.Provider) bool {
	key := spareKey(p)
	sp.mu.Lock()
	c := &sp.cap
	if sp.closed || ctx.Err() != nil || len(c.spares[key])+c.sparesStarting[key] >= sp.opts.Spares ||
		c.queued > 0 || c.starting >= c.maxStarts || sp.fullLocked() {
		sp.mu.Unlock()
		return false
	}
	c.sparesStarting[key]++
	c.starting++
	sp.mu.Unlock()

	sc, err := sp.prewarm(ctx, p)

	sp.mu.Lock()
	defer sp.mu.Unlock()
	c.sparesStarting[key]--
	c.starting--
	sp.dispatchLocked()
	if err != nil {
		if ctx.Err() == nil {
			sp.log.Warn("starting a spare", "provider", key, "err", err)
		}
		return false
	}
	if sp.closed {
		sp.closeSpare(sc)
		return false
	}
	c.spareStarts++
	c.spares[key] = append(c.spares[key], sc)
	c.spareCount++
	return true
}

// parked is a spare with the parking directory the engine made for it.
type parked struct {
	provider.Spare
	dir  string
	cred *credential // its model credentials, bound to a session at the claim
}

// Close ends the spare, revokes its credentials and removes its parking
// directory.
func (p *parked) Close(ctx context.Context) error {
	err := p.Spare.Close(ctx)
	p.cred.end()
	_ = os.RemoveAll(p.dir)
	return err
}

func (sp *SessionPool) prewarm(ctx context.Context, p provider.Provider) (provider.Spare, error) {
	dir, err := os.MkdirTemp(sp.spareRoot, "spare-")
	if err != nil {
		return nil, fmt.Errorf("%w: parking directory: %w", ErrStartFailed, err)
	}
	ctx, cancel := context.WithTimeout(ctx, sp.opts.startTimeout())
	defer cancel()
	env := sp.opts.Env
	cred, err := sp.issue(&env, "", "")
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: model credentials: %w", ErrStartFailed, err)
	}
	sc, err := p.(provider.Prewarmer).Prewarm(ctx, provider.StartOptions{
		WorkDir:                    dir,
		Env:                        env,
		Model:                      sp.opts.Model,
		AllowedTools:               sp.opts.AllowedTools,
		DisallowedTools:            sp.opts.DisallowedTools,
		PermissionMode:             sp.opts.PermissionMode,
		DangerouslySkipPermissions: sp.opts.DangerouslySkipPermissions,
		CgroupRoot:                 sp.cgroup,
		Logger:                     sp.log.With("spare", true),
	})
	if err != nil {
		cred.end()
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return &parked{Spare: sc, dir: dir, cred: cred}, nil
}

// closeAllSparesLocked ends every parked spare (at shutdown).
func (sp *SessionPool) closeAllSparesLocked() {
	for key, list := range sp.cap.spares {
		for _, sc := range list {
			sp.closeSpare(sc)
		}
		delete(sp.cap.spares, key)
	}
	sp.cap.spareCount = 0
}
