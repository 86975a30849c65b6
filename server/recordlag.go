package server

import (
	"context"
	"sync"
	"time"

	"github.com/hotplex/hotplex/event"
)

// lagging holds the events a journaled recorder delivered and has not
// stored yet. Its goroutine (Recorder.storeLagging) stores them, in the
// order they came, when a turn ended, when no event came for lagIdle,
// when the oldest waited lagMax, when recorderBatch of them wait, or at
// once when a reader needs them (Sync).
type lagging struct {
	mu        sync.Mutex
	pending   []queued
	first     time.Time // when the oldest pending event came
	last      time.Time // when the newest came
	turnEnded bool      // a pending event ends a turn
	urgent    bool      // a reader waits for the pending events
	closing   bool
	added     uint64            // events added, ever
	stored    uint64            // events stored (or given up on), ever: the first stored of added
	sessions  map[string]uint64 // added after a session's newest event not known stored
	flushed   chan struct{}     // closed, and replaced, whenever stored grows
	wake      chan struct{}
	done      chan struct{}
}

const (
	// lagIdle is how long the store waits for more events once none
	// come: a turn's stream is written in few transactions.
	lagIdle = 2 * time.Millisecond
	// lagMax is the longest an event waits to be stored.
	lagMax = 50 * time.Millisecond
)

func newLagging() *lagging {
	return &lagging{sessions: map[string]uint64{}, flushed: make(chan struct{}),
		wake: make(chan struct{}, 1), done: make(chan struct{})}
}

func (l *lagging) signal() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// lagBacklog bounds the events delivered and not stored: past it, the
// next batch waits for the store, and with it the engine, as when the
// store is written first.
const lagBacklog = 2048

// add takes a delivered batch for storage, once the backlog has room.
func (l *lagging) add(batch []queued) {
	l.mu.Lock()
	for l.added-l.stored >= lagBacklog {
		l.urgent = true
		flushed := l.flushed
		l.mu.Unlock()
		l.signal()
		<-flushed
		l.mu.Lock()
	}
	now := time.Now()
	wasEmpty := len(l.pending) == 0
	if wasEmpty {
		l.first = now
	}
	l.last = now
	l.pending = append(l.pending, batch...)
	l.added += uint64(len(batch))
	for _, q := range batch {
		l.sessions[q.ev.SessionID] = l.added
		if q.ev.EventType == event.TypeResult {
			l.turnEnded = true
		}
	}
	wake := wasEmpty || l.turnEnded || len(l.pending) >= recorderBatch
	l.mu.Unlock()
	if wake {
		l.signal()
	}
}

func (l *lagging) close() {
	l.mu.Lock()
	l.closing = true
	l.mu.Unlock()
	l.signal()
}

// take returns the events due for storage, or how long until some are
// (0 with none pending: until woken). done reports that the recorder
// closed and nothing is left.
func (l *lagging) take(now time.Time) (batch []queued, wait time.Duration, done bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.pending) == 0 {
		return nil, 0, l.closing
	}
	due := l.closing || l.urgent || l.turnEnded || len(l.pending) >= recorderBatch
	idleAt, maxAt := l.last.Add(lagIdle), l.first.Add(lagMax)
	if !due && now.Before(idleAt) && now.Before(maxAt) {
		return nil, min(idleAt.Sub(now), maxAt.Sub(now)), false
	}
	batch, l.pending = l.pending, nil
	l.urgent, l.turnEnded = false, false
	return batch, 0, false
}

// storedN records that n more events were stored.
func (l *lagging) storedN(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stored += uint64(n)
	for id, at := range l.sessions {
		if at <= l.stored {
			delete(l.sessions, id)
		}
	}
	close(l.flushed)
	l.flushed = make(chan struct{})
}

// sync waits until the events added before it are stored: those of
// session id, or all of them when id is "".
func (l *lagging) sync(ctx context.Context, id string) error {
	l.mu.Lock()
	target := l.added
	if id != "" {
		target = l.sessions[id]
	}
	for l.stored < target {
		l.urgent = true
		flushed := l.flushed
		l.mu.Unlock()
		l.signal()
		select {
		case <-flushed:
		case <-ctx.Done():
			return ctx.Err()
		}
		l.mu.Lock()
	}
	l.mu.Unlock()
	return nil
}

// storeLagging is the goroutine that stores what a journaled recorder
// delivered, then empties the journal once the store holds everything.
func (r *Recorder) storeLagging() {
	l := r.lag
	defer close(l.done)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		batch, wait, done := l.take(time.Now())
		if done {
			return
		}
		if batch == nil {
			var tick <-chan time.Time
			if wait > 0 {
				timer.Reset(wait)
				tick = timer.C
			}
			select {
			case <-l.wake:
			case <-tick:
			}
			continue
		}
		for rest := batch; len(rest) > 0; {
			chunk := rest[:min(len(rest), recorderBatch)]
			rest = rest[len(chunk):]
			r.write(chunk)
			r.forwardBatch(chunk)
		}
		l.storedN(len(batch))
		l.mu.Lock()
		stored := l.stored
		l.mu.Unlock()
		if err := r.journal.caughtUp(stored); err != nil {
			r.log.Error("emptying the event journal failed", "err", err)
		}
	}
}

// Sync waits until the events of session id delivered before the call
// are in the store (all sessions' when id is ""). A recorder that stores
// events before delivering them has nothing to wait for.
func (r *Recorder) Sync(ctx context.Context, id string) error {
	if r == nil || r.lag == nil {
		return nil
	}
	return r.lag.sync(ctx, id)
}

// mark is how many events are stored, for current.
func (l *lagging) mark() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stored
}

// current reports whether a read of session id that began after mark m
// and has ended holds every event delivered of id before it began: none
// of id's was waiting, and no batch was stored meanwhile (one stored
// during the read may have landed after the read had passed it).
func (l *lagging) current(id string, m uint64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stored == m && l.sessions[id] <= l.stored
}
