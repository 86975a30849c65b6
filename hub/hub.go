// Package hub fans the events of every session out to the clients that
// follow it. It keeps a bounded ring of each session's recent events so
// that a client reconnecting with the last event ID it saw gets exactly
// what it missed, then live events, with nothing lost or repeated. A
// client too slow to keep up is dropped with a reason; it never slows the
// session down.
package hub

import (
	"errors"
	"sync"

	"github.com/hotplex/hotplex/event"
)

// ErrSlowConsumer ends a subscription whose client fell a whole queue behind.
var ErrSlowConsumer = errors.New("hub: subscriber too slow; events dropped")

// ErrClosed ends subscriptions when the hub closes.
var ErrClosed = errors.New("hub: closed")

// Options size a Hub. Zero values take the defaults.
type Options struct {
	// Ring is how many recent events each session keeps for replay
	// (default 1024).
	Ring int
	// Queue is how many events a subscriber may fall behind before it is
	// dropped (default 1024).
	Queue int
}

// Hub is an engine.EventSink that fans events out to subscribers.
type Hub struct {
	ringSize, queue int

	mu       sync.Mutex
	sessions map[string]*topic
	all      map[*Subscription]struct{} // subscribers to every session
	closed   bool
}

// Event is what the hub delivers: a session's event and, when its
// publisher had it, its JSON, encoded once for every subscriber. Both are
// shared; nobody may change them.
type Event struct {
	*event.EventWithMeta
	// JSON is the event's encoding (nil: the publisher gave none).
	JSON []byte
}

// topic is one session's ring and subscribers.
type topic struct {
	ring  []*Event // circular, oldest at start
	start int      // index of the oldest event in ring
	n     int      // events in ring
	subs  map[*Subscription]struct{}
}

// New returns an empty hub.
func New(opts Options) *Hub {
	if opts.Ring <= 0 {
		opts.Ring = 1024
	}
	if opts.Queue <= 0 {
		opts.Queue = 1024
	}
	return &Hub{ringSize: opts.Ring, queue: opts.Queue, sessions: map[string]*topic{}, all: map[*Subscription]struct{}{}}
}

// Subscription delivers one session's events to one client.
type Subscription struct {
	h       *Hub
	session string
	every   bool // follows every session (SubscribeAll)
	c       chan *Event
	done    chan struct{}
	err     error // why it ended; set before done is closed
	once    sync.Once
}

// C delivers the events, in order. It is closed when the subscription ends.
func (s *Subscription) C() <-chan *Event { return s.c }

// Done is closed when the subscription ends; Err then says why.
func (s *Subscription) Done() <-chan struct{} { return s.done }

// Err is nil while the subscription runs or after Close, ErrSlowConsumer
// or ErrClosed when the hub ended it.
func (s *Subscription) Err() error {
	select {
	case <-s.done:
		return s.err
	default:
		return nil
	}
}

// Close ends the subscription.
func (s *Subscription) Close() {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	s.end(nil)
}

// end stops the subscription; the hub's lock is held.
func (s *Subscription) end(err error) {
	s.once.Do(func() {
		if s.every {
			delete(s.h.all, s)
		} else if t := s.h.sessions[s.session]; t != nil {
			delete(t.subs, s)
		}
		s.err = err
		close(s.done)
		close(s.c)
	})
}

// Publish records an event and hands it to the session's subscribers
// without blocking; a subscriber whose queue is full is dropped.
func (h *Hub) Publish(ev *event.EventWithMeta) { h.PublishJSON(ev, nil) }

// PublishJSON is Publish with the event's JSON, which subscribers then
// need not encode again.
func (h *Hub) PublishJSON(e *event.EventWithMeta, data []byte) {
	ev := &Event{EventWithMeta: e, JSON: data}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	t := h.topic(ev.SessionID)
	if t.n < len(t.ring) {
		t.ring[(t.start+t.n)%len(t.ring)] = ev
		t.n++
	} else {
		t.ring[t.start] = ev
		t.start = (t.start + 1) % len(t.ring)
	}
	for s := range t.subs {
		select {
		case s.c <- ev:
		default:
			s.end(ErrSlowConsumer)
		}
	}
	for s := range h.all {
		select {
		case s.c <- ev:
		default:
			s.end(ErrSlowConsumer)
		}
	}
}

// SubscribeAll follows the new events of every session, for clients that
// watch many sessions at once. It has no replay; a subscriber that falls
// a queue behind is dropped like any other.
func (h *Hub) SubscribeAll() *Subscription {
	h.mu.Lock()
	defer h.mu.Unlock()
	sub := &Subscription{h: h, every: true, c: make(chan *Event, h.queue), done: make(chan struct{})}
	if h.closed {
		sub.end(ErrClosed)
		return sub
	}
	h.all[sub] = struct{}{}
	return sub
}

func (h *Hub) topic(session string) *topic {
	t := h.sessions[session]
	if t == nil {
		t = &topic{ring: make([]*Event, h.ringSize), subs: map[*Subscription]struct{}{}}
		h.sessions[session] = t
	}
	return t
}

// Subscribe follows a session from after its event number after (0: only
// new events). It returns the recorded events after it, in order, and a
// subscription for everything that follows, with no gap and no repeat
// between the two. gap is true when events after after have already left
// the ring: the caller must fetch them elsewhere (the store) or tell its
// client to resynchronise.
func (h *Hub) Subscribe(session string, after uint64) (replay []*Event, sub *Subscription, gap bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	sub = &Subscription{h: h, session: session, c: make(chan *Event, h.queue), done: make(chan struct{})}
	if h.closed {
		sub.end(ErrClosed)
		return nil, sub, false
	}
	t := h.topic(session)
	for i := 0; i < t.n; i++ {
		ev := t.ring[(t.start+i)%len(t.ring)]
		if ev.Seq > after {
			replay = append(replay, ev)
		}
	}
	if after > 0 && t.n > 0 {
		oldest := t.ring[t.start].Seq
		gap = oldest > after+1
	}
	t.subs[sub] = struct{}{}
	return replay, sub, gap
}

// Last returns the newest event number the hub has seen for a session.
func (h *Hub) Last(session string) uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.sessions[session]
	if t == nil || t.n == 0 {
		return 0
	}
	return t.ring[(t.start+t.n-1)%len(t.ring)].Seq
}

// Forget drops a session's ring and ends its subscriptions.
func (h *Hub) Forget(session string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t := h.sessions[session]; t != nil {
		for s := range t.subs {
			s.end(ErrClosed)
		}
		delete(h.sessions, session)
	}
}

// Close ends every subscription; later publishes are ignored.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for _, t := range h.sessions {
		for s := range t.subs {
			s.end(ErrClosed)
		}
	}
	for s := range h.all {
		s.end(ErrClosed)
	}
}
