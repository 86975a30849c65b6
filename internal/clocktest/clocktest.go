// Package clocktest is a clock for tests that moves only when told to:
// the code under test reads it through a small interface (Now and
// AfterFunc, as engine.Clock), and the test advances it and waits for the
// code to arm its timers instead of sleeping.
package clocktest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Clock is a fake clock. Its zero value is not usable; call New.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*timer
	changed chan struct{} // closed and replaced whenever timers change
}

type timer struct {
	at time.Time
	f  func()
}

// Epoch is where a new Clock starts.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// New returns a clock standing at Epoch.
func New() *Clock {
	return &Clock{now: Epoch, changed: make(chan struct{})}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc arranges for f to be called when the clock has been advanced
// by d. f runs on the goroutine that calls Advance (d <= 0: on its own
// goroutine at once), so it must not block.
func (c *Clock) AfterFunc(d time.Duration, f func()) func() bool {
	if d <= 0 {
		go f()
		return func() bool { return false }
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	c.notifyLocked()
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		i := slices.Index(c.timers, t)
		if i < 0 {
			return false
		}
		c.timers = slices.Delete(c.timers, i, i+1)
		c.notifyLocked()
		return true
	}
}

func (c *Clock) notifyLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// Advance moves the clock forward by d, calling the functions of the
// timers that come due, in the order of their times, each with the clock
// standing at its time. Timers armed by those functions fire too when
// they fall within d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	for {
		i := -1
		for j, t := range c.timers {
			if !t.at.After(end) && (i < 0 || t.at.Before(c.timers[i].at)) {
				i = j
			}
		}
		if i < 0 {
			break
		}
		t := c.timers[i]
		c.timers = slices.Delete(c.timers, i, i+1)
		if t.at.After(c.now) {
			c.now = t.at
		}
		c.notifyLocked()
		c.mu.Unlock()
		t.f()
		c.mu.Lock()
	}
	c.now = end
	c.mu.Unlock()
}

// Timers returns how many timers are armed.
func (c *Clock) Timers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// WaitTimers waits until at least n timers are armed: the code under test
// is then waiting on the clock, and an Advance reaches it. It fails when
// ctx ends first.
func (c *Clock) WaitTimers(ctx context.Context, n int) error {
	for {
		c.mu.Lock()
		have, changed := len(c.timers), c.changed
		c.mu.Unlock()
		if have >= n {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("clocktest: %d timers armed, waiting for %d: %w", have, n, context.Cause(ctx))
		}
	}
}

// Changed returns a channel closed at the next change of the armed
// timers. Code under test that re-arms a timer after each round of work
// lets a test wait for a condition without polling: take Changed, check
// the condition, and wait on the channel if it does not hold yet.
func (c *Clock) Changed() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.changed
}
