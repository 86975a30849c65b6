package engine

import (
	"errors"
	"runtime"
	"slices"
	"sync/atomic"
	"time"
)

// admission decides when a turn that needs a process may start one: at
// most maxStarts starts run at once; the turns beyond wait in one FIFO per
// owner, served round-robin so that one owner's burst does not starve the
// others; a turn that finds maxQueued waiting, or waits longer than
// queueTimeout, is refused with ErrOverloaded and a retry hint.
//
// It owns the queue and the count of starts under way and knows nothing
// of residency or spares: whether a start fits is asked of the pool
// (SessionPool.dispatchLocked). Every method runs under SessionPool.mu,
// never blocks and takes no other lock.
type admission struct {
	maxStarts, maxQueued int
	queueTimeout         time.Duration

	starting int // starts under way, spares' included

	// The start queue: one FIFO per owner, the owners in a ring served
	// from next on.
	queues map[string][]*startReq
	ring   []string
	next   int
	queued int
	// waiting mirrors queued for a look without the lock after each turn.
	waiting atomic.Int32

	// startAvg is a moving average of start durations, for RetryAfter.
	startAvg time.Duration

	rejections uint64
}

// startReq is a turn waiting for a start slot. ready is closed when it is
// granted (granted is then set) or failed (err is then set).
type startReq struct {
	s       *session
	ready   chan struct{}
	granted bool
	err     error
}

var errQueueTimeout = errors.New("start queue wait timed out")

func newAdmission(o *EngineOptions) admission {
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
	return admission{
		maxStarts: starts, maxQueued: queued, queueTimeout: timeout,
		queues: map[string][]*startReq{}, startAvg: 300 * time.Millisecond,
	}
}

// slotFree reports whether a start may begin now without jumping the queue.
func (a *admission) slotFree() bool { return a.queued == 0 && a.starting < a.maxStarts }

// queueFull reports whether a turn that must wait would be refused.
func (a *admission) queueFull() bool { return a.queued >= a.maxQueued }

// enqueue puts req at the end of its owner's queue.
func (a *admission) enqueue(req *startReq) {
	owner := req.s.owner
	if _, ok := a.queues[owner]; !ok {
		a.ring = append(a.ring, owner)
	}
	a.queues[owner] = append(a.queues[owner], req)
	a.queued++
	a.waiting.Add(1)
}

// dequeue takes a waiting req out of the queue (it gave up).
func (a *admission) dequeue(req *startReq) {
	owner := req.s.owner
	q := a.queues[owner]
	if i := slices.Index(q, req); i >= 0 {
		a.queues[owner] = slices.Delete(q, i, i+1)
		a.queued--
		a.waiting.Add(-1)
	}
	if len(a.queues[owner]) == 0 {
		a.dropOwner(owner)
	}
}

func (a *admission) dropOwner(owner string) {
	delete(a.queues, owner)
	if i := slices.Index(a.ring, owner); i >= 0 {
		a.ring = slices.Delete(a.ring, i, i+1)
		if a.next > i {
			a.next--
		}
	}
}

// grant marks req granted and counts its start. The caller gives it its
// residency slot, then closes req.ready.
func (a *admission) grant(req *startReq) {
	req.granted = true
	a.beginStart()
}

// beginStart counts a start that needs no queue (a granted turn's, a
// spare's).
func (a *admission) beginStart() { a.starting++ }

// roomVerdict is what the pool says of a queued start.
type roomVerdict int

const (
	roomFits      roomVerdict = iota // the start fits now
	roomOwnerFull                    // its owner is at quota with every session busy: serve the others
	roomFull                         // the machine is full of busy sessions: wait
)

// dispatch grants queued starts while slots are free, taking owners in
// turn. room says whether the start at the head of an owner's queue fits
// (making room as it may); grant gives it its slot.
func (a *admission) dispatch(room func(*session) roomVerdict, grant func(*startReq)) {
	for a.queued > 0 && a.starting < a.maxStarts {
		granted := false
		for i := 0; i < len(a.ring); i++ {
			idx := (a.next + i) % len(a.ring)
			owner := a.ring[idx]
			req := a.queues[owner][0]
			switch room(req.s) {
			case roomOwnerFull:
				continue
			case roomFull:
				return
			}
			a.queues[owner] = a.queues[owner][1:]
			a.queued--
			a.waiting.Add(-1)
			a.next = idx + 1
			if len(a.queues[owner]) == 0 {
				a.dropOwner(owner)
			}
			if len(a.ring) > 0 {
				a.next %= len(a.ring)
			} else {
				a.next = 0
			}
			grant(req)
			granted = true
			break
		}
		if !granted {
			return
		}
	}
}

// endStart counts a start as over; took, for one that succeeded, feeds
// the retry hint.
func (a *admission) endStart(succeeded bool, took time.Duration) {
	a.starting--
	if succeeded {
		a.startAvg = (a.startAvg*7 + took) / 8
	}
}

// failAll ends every waiting turn with err (at shutdown).
func (a *admission) failAll(err error) {
	for owner, q := range a.queues {
		for _, req := range q {
			req.err = err
			close(req.ready)
		}
		delete(a.queues, owner)
	}
	a.waiting.Add(-int32(a.queued))
	a.queued, a.ring, a.next = 0, nil, 0
}

// overloaded counts a refusal and returns its error, with a retry hint of
// the starts ahead at the average start time.
func (a *admission) overloaded(reason string) error {
	a.rejections++
	waves := (a.queued + a.starting + a.maxStarts) / a.maxStarts
	retry := time.Duration(waves) * a.startAvg
	retry = max(time.Second, retry.Round(time.Second))
	return &OverloadedError{Reason: reason, RetryAfter: retry}
}
