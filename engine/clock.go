package engine

import "time"

// Clock is the time the session pool reads: when a session was last
// active (which orders hibernation and idle reaping), how long a turn
// waited for a start (and when it gives up), when the reaper and the
// spare refill look again, and when a firewall bypass expires. Tests put a fake one in EngineOptions.Clock and
// move time forward instead of sleeping. Turn timings (durations in
// events, Timeout) keep the wall clock.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f once d has passed, unless stop is called first;
	// stop reports whether it prevented the call. f must not block.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// wallClock is the real time, the default.
type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func (wallClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// alarm wakes a loop after a pause. The loop arms it when it is done
// with a round and waits on that arming's channel, so rounds never
// overlap, no wake-up is left over from an earlier round, and a test on a
// fake clock sees the alarm armed again as the sign that the round it
// triggered has finished.
type alarm struct {
	clock Clock
	every time.Duration
	stop  func() bool
}

func newAlarm(c Clock, every time.Duration) *alarm { return &alarm{clock: c, every: every} }

// arm schedules the next wake-up and returns the channel it closes.
func (a *alarm) arm() <-chan struct{} {
	fired := make(chan struct{})
	a.stop = a.clock.AfterFunc(a.every, func() { close(fired) })
	return fired
}

// disarm cancels the pending wake-up, if any.
func (a *alarm) disarm() {
	if a.stop != nil {
		a.stop()
	}
}
