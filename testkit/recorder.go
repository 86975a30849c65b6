package testkit

import (
	"slices"
	"sync"
	"testing"

	"github.com/hotplex/hotplex/event"
)

// Recorder collects the events an engine callback receives. Its Callback
// method has the engine.Callback signature.
type Recorder struct {
	mu     sync.Mutex
	events []*event.EventWithMeta
}

// Callback records one event; it fails loudly if the type passed and the
// event's own type disagree.
func (r *Recorder) Callback(eventType string, data any) error {
	ev := data.(*event.EventWithMeta)
	if ev.EventType != eventType {
		panic("testkit: callback type " + eventType + " for an event of type " + ev.EventType)
	}
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
	return nil
}

// Events returns the events recorded so far.
func (r *Recorder) Events() []*event.EventWithMeta {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// Types returns the recorded event types in order.
func (r *Recorder) Types() []string {
	var out []string
	for _, ev := range r.Events() {
		out = append(out, ev.EventType)
	}
	return out
}

// All returns the recorded events of one type.
func (r *Recorder) All(eventType string) []*event.EventWithMeta {
	var out []*event.EventWithMeta
	for _, ev := range r.Events() {
		if ev.EventType == eventType {
			out = append(out, ev)
		}
	}
	return out
}

// First returns the first recorded event of a type, or nil.
func (r *Recorder) First(eventType string) *event.EventWithMeta {
	if all := r.All(eventType); len(all) > 0 {
		return all[0]
	}
	return nil
}

// AssertOrder fails unless want occurs in got in this order (other events
// may come between).
func AssertOrder(t testing.TB, got []string, want ...string) {
	t.Helper()
	at := 0
	for _, w := range want {
		i := slices.Index(got[at:], w)
		if i < 0 {
			t.Fatalf("event %q missing or out of order in %v (want order %v)", w, got, want)
		}
		at += i + 1
	}
}
