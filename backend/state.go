package backend

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/hotplex/hotplex/engine"
)

// Session states, as Session.State reports them: the seed API's words for
// the engine's lifecycle (engine.SessionStatus), one for one except two
// older names, stopped for hibernated and exited for closed. Status
// translates; the transitions are the engine's.
const (
	StateStarting = "starting"
	StateIdle     = "idle"
	StateRunning  = "running"
	StateStopped  = "stopped" // engine.StatusHibernated
	StateError    = "error"
	StateExited   = "exited" // engine.StatusClosed
)

// Status returns the engine's word for a backend state.
func Status(state string) engine.SessionStatus {
	switch state {
	case StateStopped:
		return engine.StatusHibernated
	case StateExited:
		return engine.StatusClosed
	}
	return engine.SessionStatus(state)
}

// ErrIllegalTransition means a state change the state machine forbids was
// attempted; ErrSessionClosed means the session has exited.
var (
	ErrIllegalTransition = errors.New("illegal session state transition")
	ErrSessionClosed     = errors.New("session is closed")
	// ErrNotReady means the session is in a state that cannot take the
	// operation (an error state needs Refresh or Restart first).
	ErrNotReady = errors.New("session is not ready")
)

// Legal reports whether the lifecycle allows from → to (a move, not a
// stay): engine.Transition on the engine's words for the two states.
func Legal(from, to string) bool {
	if from == to || !slices.Contains(states, from) || !slices.Contains(states, to) {
		return false
	}
	_, err := engine.Transition(Status(from), Status(to))
	return err == nil
}

var states = []string{StateStarting, StateIdle, StateRunning, StateStopped, StateError, StateExited}

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
