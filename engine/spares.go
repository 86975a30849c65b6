package engine

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/hotplex/hotplex/provider"
)

// spares keeps prewarmed processes parked per provider, up to that
// provider's want, for new conversations to claim instead of
// cold-starting. It owns the parked spares and the count of those
// starting; the processes themselves are started and ended by the pool
// outside the lock (see SessionPool.refillSpares). Every method runs
// under SessionPool.mu and never blocks.
type spares struct {
	want     map[string]int              // per spareKey; none: no spares
	parked   map[string][]provider.Spare // per spareKey
	starting map[string]int
	count    int   // parked, all providers
	rss      int64 // last measured size of all parked spares

	starts, claims uint64
}

// newSpares wants o.Spares, or its ProviderSpares override, of every
// provider that can prewarm.
func newSpares(o *EngineOptions, providers []provider.Provider) spares {
	want := map[string]int{}
	for _, p := range providers {
		if _, ok := p.(provider.Prewarmer); !ok {
			continue
		}
		n, ok := o.ProviderSpares[p.Name()]
		if !ok {
			n = o.Spares
		}
		if n > 0 {
			want[spareKey(p)] = n
		}
	}
	return spares{want: want, parked: map[string][]provider.Spare{}, starting: map[string]int{}}
}

// any reports whether some provider wants spares.
func (sp *spares) any() bool { return len(sp.want) > 0 }

// spareKey names the spares that may serve a session: the options every
// conversation of the engine shares are fixed at prewarm, so the provider
// is the key; per-session options (work directory, task instructions) are
// applied at the claim.
func spareKey(p provider.Provider) string { return p.Name() }

// processes counts the spares' processes, parked or starting, which take
// residency like sessions do.
func (sp *spares) processes() int {
	n := sp.count
	for _, v := range sp.starting {
		n += v
	}
	return n
}

// take pops a parked spare of key (it may have died meanwhile: the caller
// checks), or returns nil.
func (sp *spares) take(key string) provider.Spare {
	list := sp.parked[key]
	if len(list) == 0 {
		return nil
	}
	sc := list[len(list)-1]
	sp.parked[key] = list[:len(list)-1]
	sp.count--
	return sc
}

// park adds sc to key's spares; it reports false, leaving sc to be ended,
// when key has enough already.
func (sp *spares) park(key string, sc provider.Spare) bool {
	if len(sp.parked[key]) >= sp.want[key] {
		return false
	}
	sp.parked[key] = append(sp.parked[key], sc)
	sp.count++
	return true
}

// add parks a spare just started for key (wanted said it was).
func (sp *spares) add(key string, sc provider.Spare) {
	sp.starts++
	sp.parked[key] = append(sp.parked[key], sc)
	sp.count++
}

// drop takes one parked spare (of any provider) out to be ended for room,
// or returns nil.
func (sp *spares) drop() provider.Spare {
	for key, list := range sp.parked {
		if len(list) == 0 {
			continue
		}
		sp.parked[key] = list[1:]
		sp.count--
		return list[0]
	}
	return nil
}

// wanted reports whether key needs another spare started.
func (sp *spares) wanted(key string) bool {
	return len(sp.parked[key])+sp.starting[key] < sp.want[key]
}

// parkedOf counts the parked spares per key.
func (sp *spares) parkedOf() map[string]int {
	out := map[string]int{}
	for key, list := range sp.parked {
		if len(list) > 0 {
			out[key] = len(list)
		}
	}
	return out
}

// drain takes every parked spare out (at shutdown).
func (sp *spares) drain() []provider.Spare {
	var out []provider.Spare
	for key, list := range sp.parked {
		out = append(out, list...)
		delete(sp.parked, key)
	}
	sp.count = 0
	return out
}

// pids returns the parked spares' process IDs, for measuring.
func (sp *spares) pids() []int {
	var out []int
	for _, list := range sp.parked {
		for _, sc := range list {
			out = append(out, sc.PID())
		}
	}
	return out
}

// The pool's side of spares: claiming, returning, starting and ending the
// processes.

// takeSpare hands s a parked spare of its provider, moving the spare's
// residency slot to s, when one is parked and s's owner is under quota.
func (sp *SessionPool) takeSpare(s *session) provider.Spare {
	key := spareKey(s.prov)
	if sp.spares.want[key] <= 0 {
		return nil
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.closed || sp.res.ownerFull(s.owner) {
		return nil
	}
	for sc := sp.spares.take(key); sc != nil; sc = sp.spares.take(key) {
		if !sc.Alive() {
			sp.closeSpareLocked(sc)
			continue
		}
		sp.res.reserve(s)
		return sc
	}
	return nil
}

// returnSpare parks a spare a session could not use, giving back the
// session's slot.
func (sp *SessionPool) returnSpare(s *session, sc provider.Spare) {
	sp.mu.Lock()
	sp.res.release(s)
	if sp.closed {
		sp.mu.Unlock()
		sp.discardSpare(sc)
		return
	}
	defer sp.mu.Unlock()
	if !sp.spares.park(spareKey(s.prov), sc) {
		sp.closeSpareLocked(sc) // refilled meanwhile
	}
	sp.dispatchLocked()
}

// closeSpareLocked ends a spare in the background. The pool's background
// work is not yet waited for (see discardSpare).
func (sp *SessionPool) closeSpareLocked(sc provider.Spare) {
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
		sp.closeSpareLocked(sc)
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

// spareRefillEvery is how often the refill looks again without being woken.
const spareRefillEvery = 100 * time.Millisecond

// spareRefillDefer is the longest running turns hold up a spare's refill.
const spareRefillDefer = 2 * time.Second

// refillSpares keeps each prewarming provider's spares parked. It starts one
// at a time, only when no turn waits for a start and there is room without
// hibernating anyone: spares never take a slot a conversation wants.
func (sp *SessionPool) refillSpares() {
	defer close(sp.sparesDone)
	var warmers []provider.Provider
	for _, p := range sp.providers {
		if sp.spares.want[spareKey(p)] > 0 {
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
	tick := newAlarm(sp.clock, spareRefillEvery)
	var deferred time.Time // since when turns have kept the refill waiting
	wait := func() bool {
		fired := tick.arm()
		defer tick.disarm()
		select {
		case <-sp.stopSpares:
			return false
		case <-sp.spareWake:
		case <-fired:
		}
		return true
	}
	for {
		// Low priority: a spare's start costs a core for a few hundred
		// milliseconds, which running turns should not share. It waits
		// for a moment without turns, or spareRefillDefer at most.
		if sp.busy.Load() > 0 {
			if deferred.IsZero() {
				deferred = sp.clock.Now()
			}
			if sp.clock.Now().Sub(deferred) < spareRefillDefer {
				if !wait() {
					return
				}
				continue
			}
		}
		deferred = time.Time{}
		started := false
		for _, p := range warmers {
			if sp.startSpare(ctx, p) {
				started = true
			}
		}
		if started {
			continue
		}
		if !wait() {
			return
		}
	}
}

// startSpare starts one spare for p if it is wanted and fits. It reports
// whether it parked one.
func (sp *SessionPool) startSpare(ctx context.Context, p provider.Provider) bool {
	key := spareKey(p)
	sp.mu.Lock()
	if sp.closed || ctx.Err() != nil || !sp.spares.wanted(key) ||
		!sp.adm.slotFree() || sp.res.full(sp.spares.processes()) {
		sp.mu.Unlock()
		return false
	}
	sp.spares.starting[key]++
	sp.adm.beginStart()
	sp.mu.Unlock()

	sc, err := sp.prewarm(ctx, p)

	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.spares.starting[key]--
	sp.adm.endStart(false, 0)
	sp.dispatchLocked()
	if err != nil {
		if ctx.Err() == nil {
			sp.log.Warn("starting a spare", "provider", key, "err", err)
		}
		return false
	}
	if sp.closed {
		sp.closeSpareLocked(sc)
		return false
	}
	sp.spares.add(key, sc)
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
