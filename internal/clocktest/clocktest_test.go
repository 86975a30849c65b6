package clocktest

import (
	"context"
	"slices"
	"testing"
	"time"
)

func TestAdvanceFiresDueTimersInOrder(t *testing.T) {
	c := New()
	var fired []string
	var at []time.Duration
	note := func(name string) func() {
		return func() {
			fired = append(fired, name)
			at = append(at, c.Now().Sub(Epoch))
		}
	}
	c.AfterFunc(3*time.Second, note("c"))
	c.AfterFunc(time.Second, note("a"))
	stop := c.AfterFunc(2*time.Second, note("stopped"))
	c.AfterFunc(10*time.Second, note("later"))
	if !stop() || stop() {
		t.Fatal("stop should report true once, then false")
	}
	// A timer armed by a firing one fires too when it falls within the advance.
	c.AfterFunc(1500*time.Millisecond, func() { c.AfterFunc(time.Second, note("rearmed")) })
	c.Advance(5 * time.Second)
	if want := []string{"a", "rearmed", "c"}; !slices.Equal(fired, want) {
		t.Fatalf("fired %v, want %v", fired, want)
	}
	if want := []time.Duration{time.Second, 2500 * time.Millisecond, 3 * time.Second}; !slices.Equal(at, want) {
		t.Fatalf("fired at %v, want %v", at, want)
	}
	if got := c.Now().Sub(Epoch); got != 5*time.Second {
		t.Fatalf("now = %v after the advance", got)
	}
	if c.Timers() != 1 {
		t.Fatalf("%d timers armed, want the later one", c.Timers())
	}
}

func TestWaitTimers(t *testing.T) {
	c := New()
	done := make(chan error, 1)
	go func() { done <- c.WaitTimers(context.Background(), 2) }()
	changed := c.Changed()
	c.AfterFunc(time.Second, func() {})
	<-changed
	select {
	case err := <-done:
		t.Fatalf("returned with one timer armed: %v", err)
	default:
	}
	c.AfterFunc(time.Second, func() {})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.WaitTimers(ctx, 3); err == nil {
		t.Fatal("WaitTimers ignored its context")
	}
}
