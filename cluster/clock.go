package cluster

import "time"

// Clock is the local time a lease's heartbeat runs on. Tests inject one
// they advance by hand, to pause a holder or to renew at will without
// sleeping; expiry itself is on the NATS server's clock and needs none.
type Clock interface {
	Now() time.Time
	// After delivers once d has passed; d <= 0 delivers at once.
	After(d time.Duration) <-chan time.Time
}

// systemClock is the wall clock with its monotonic reading, so a step of
// the wall time does not shorten or stretch a lease.
type systemClock struct{}

func (systemClock) Now() time.Time                         { return time.Now() }
func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
