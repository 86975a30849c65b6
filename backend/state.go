package backend

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Session states, as Session.State reports them.
const (
	StateStarting = "starting"
	StateIdle     = "idle"
	StateRunning  = "running"
	StateStopped  = "stopped"
	StateError    = "error"
	StateExited   = "exited"
)

// ErrIllegalTransition means a state change the state machine forbids was
// attempted; ErrSessionClosed means the session has exited.
var (
	ErrIllegalTransition = errors.New("illegal session state transition")
	ErrSessionClosed     = errors.New("session is closed")
	// ErrNotReady means the session is in a state that cannot take the
	// operation (an error state needs Refresh or Restart first).
	ErrNotReady = errors.New("session is not ready")
)

// transitions lists, for each state, the states it may move to.
//
//	starting → idle | error | exited
//	idle     → running | stopped | exited | error
//	running  → idle | stopped | error
//	stopped  → starting | exited
//	error    → starting | stopped | exited
//	exited   → (nothing)
var transitions = map[string][]string{
	StateStarting: {StateIdle, StateError, StateExited},
	StateIdle:     {StateRunning, StateStopped, StateExited, StateError},
	StateRunning:  {StateIdle, StateStopped, StateError},
	StateStopped:  {StateStarting, StateExited},
	StateError:    {StateStarting, StateStopped, StateExited},
	StateExited:   nil,
}

// Legal reports whether the state machine allows from → to.
func Legal(from, to string) bool {
	return slices.Contains(transitions[from], to)
}

// Transition is one state change of a session.
type Transition struct {
	SessionID string
	From, To  string
	At        time.Time
	// Err is the failure that caused a move to the error state, if any.
	Err error
}

func illegal(from, to string) error {
	return fmt.Errorf("%w: %s → %s", ErrIllegalTransition, from, to)
}
