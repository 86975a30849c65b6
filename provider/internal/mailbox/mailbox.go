// Package mailbox hands the messages an agent sends during a turn from the
// goroutine that reads them to the goroutine running the turn.
package mailbox

import "sync"

// Box queues messages without bound (the reader must never block on a
// turn that is busy emitting events) and wakes the turn when some arrive.
// A turn that gives up aborts the box, with a cause, so that whoever still
// waits on it stops.
type Box[T any] struct {
	mu      sync.Mutex
	msgs    []T
	ready   chan struct{}
	aborted chan struct{}
	once    sync.Once
	cause   error
}

// New returns an empty box.
func New[T any]() *Box[T] {
	return &Box[T]{ready: make(chan struct{}, 1), aborted: make(chan struct{})}
}

// Push adds a message and wakes the turn.
func (b *Box[T]) Push(m T) {
	b.mu.Lock()
	b.msgs = append(b.msgs, m)
	b.mu.Unlock()
	select {
	case b.ready <- struct{}{}:
	default:
	}
}

// Take removes and returns the messages queued so far, oldest first.
func (b *Box[T]) Take() []T {
	b.mu.Lock()
	defer b.mu.Unlock()
	m := b.msgs
	b.msgs = nil
	return m
}

// Ready receives a value after a Push: Take then has something.
func (b *Box[T]) Ready() <-chan struct{} { return b.ready }

// Abort closes Aborted; the first call's cause is kept.
func (b *Box[T]) Abort(cause error) {
	b.once.Do(func() {
		b.mu.Lock()
		b.cause = cause
		b.mu.Unlock()
		close(b.aborted)
	})
}

// Aborted is closed by Abort.
func (b *Box[T]) Aborted() <-chan struct{} { return b.aborted }

// Cause returns the cause given to the first Abort.
func (b *Box[T]) Cause() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cause
}

// Slot holds the box of the turn in progress, if any: the turn opens it,
// the reader pushes to whatever is current (nothing between turns), and
// closing the agent aborts it. The zero value is empty.
type Slot[T any] struct {
	mu  sync.Mutex
	box *Box[T]
}

// Open makes a new box the current one and returns it.
func (s *Slot[T]) Open() *Box[T] {
	b := New[T]()
	s.mu.Lock()
	s.box = b
	s.mu.Unlock()
	return b
}

// Close removes b, if it is still the current box, and aborts it.
func (s *Slot[T]) Close(b *Box[T]) {
	s.mu.Lock()
	if s.box == b {
		s.box = nil
	}
	s.mu.Unlock()
	b.Abort(nil)
}

// Current returns the current box, or nil between turns.
func (s *Slot[T]) Current() *Box[T] {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.box
}

// Abort aborts the current box with cause and reports whether there was one.
func (s *Slot[T]) Abort(cause error) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.box == nil {
		return false
	}
	s.box.Abort(cause)
	return true
}
