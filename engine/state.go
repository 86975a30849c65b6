package engine

import (
	"errors"
	"fmt"
	"slices"
)

// SessionStatus is where a session is in its life. The same words are
// used by the engine, the backend package, the HTTP and OpenCode APIs, the
// web UI and the metrics, so a person reading any of them sees one story.
//
//	state       meaning                                         next
//	new         created, no process yet                         starting, closed
//	starting    process launching or resuming, not yet ready    idle, error, closed
//	idle        process hot, no turn                            running, hibernated, error, closed
//	running     a turn in progress                              idle, error, closed
//	hibernated  process ended to free room; conversation kept   starting, closed
//	error       start or process failed; the next turn retries  starting, closed
//	closed      deleted or shut down                            —
//
// idle → error is a process found dead between turns; running → closed
// and idle → closed are a termination (the turn, if any, is interrupted).
type SessionStatus string

// Session states.
const (
	StatusNew        SessionStatus = "new"
	StatusStarting   SessionStatus = "starting"
	StatusIdle       SessionStatus = "idle"
	StatusRunning    SessionStatus = "running"
	StatusHibernated SessionStatus = "hibernated"
	StatusError      SessionStatus = "error"
	StatusClosed     SessionStatus = "closed"
)

// The former names of the states.
const (
	// Deprecated: use StatusIdle.
	StatusReady = StatusIdle
	// Deprecated: use StatusRunning.
	StatusBusy = StatusRunning
	// Deprecated: "dead" split into StatusNew (never started),
	// StatusHibernated (ended to free room) and StatusError (failed).
	StatusDead = StatusError
)

// Statuses lists every state, in the order of a session's life, for
// reports (metrics, filters) that show each one.
var Statuses = []SessionStatus{StatusNew, StatusStarting, StatusIdle, StatusRunning, StatusHibernated, StatusError, StatusClosed}

// ErrIllegalTransition is returned for a state change the lifecycle forbids.
var ErrIllegalTransition = errors.New("illegal session state transition")

var transitions = map[SessionStatus][]SessionStatus{
	StatusNew:        {StatusStarting, StatusClosed},
	StatusStarting:   {StatusIdle, StatusError, StatusClosed},
	StatusIdle:       {StatusRunning, StatusHibernated, StatusError, StatusClosed},
	StatusRunning:    {StatusIdle, StatusError, StatusClosed},
	StatusHibernated: {StatusStarting, StatusClosed},
	StatusError:      {StatusStarting, StatusClosed},
	StatusClosed:     nil,
}

// Transition checks the move from → to and returns to, or an error
// wrapping ErrIllegalTransition (from is then kept). Staying put is legal.
func Transition(from, to SessionStatus) (SessionStatus, error) {
	if from == to || slices.Contains(transitions[from], to) {
		return to, nil
	}
	return from, fmt.Errorf("%w: %s → %s", ErrIllegalTransition, from, to)
}

// Live reports whether a session in this state has (or is getting) a process.
func (st SessionStatus) Live() bool {
	return st == StatusStarting || st == StatusIdle || st == StatusRunning
}
