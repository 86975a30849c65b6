package provider

import "time"

// Timeouts are the waits a provider gives its agent processes. A zero field
// takes its default.
type Timeouts struct {
	// StartTimeout bounds a start until the agent is ready: its handshake
	// and session set-up, or its first ready screen (default 60s). The
	// start's context may end it sooner.
	StartTimeout time.Duration
	// InterruptGrace is how long an interrupted turn may take to end before
	// the process is killed (default 5s).
	InterruptGrace time.Duration
	// TerminateGrace is the wait after the agent is asked to end (its input
	// closed, or a hangup) and again after SIGTERM (default 2s).
	TerminateGrace time.Duration
}

// Start is StartTimeout or its default.
func (t Timeouts) Start() time.Duration { return orDefault(t.StartTimeout, 60*time.Second) }

// Interrupt is InterruptGrace or its default.
func (t Timeouts) Interrupt() time.Duration { return orDefault(t.InterruptGrace, 5*time.Second) }

// Terminate is TerminateGrace or its default.
func (t Timeouts) Terminate() time.Duration { return orDefault(t.TerminateGrace, 2*time.Second) }

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
