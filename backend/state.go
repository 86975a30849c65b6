package backend

import (
	"errors"

	"github.com/hotplex/hotplex/engine"
)

// Session states, as Session.State reports them. A Session has no state of
// its own: State reads its engine session's and names it in the seed API's
// words, by this one table.
//
//	engine (engine.SessionStatus)  backend   why
//	new                            starting  CreateSession starts the agent at once
//	starting                       starting
//	idle                           idle
//	running                        running
//	hibernated                     stopped   process ended, conversation kept; the next Send resumes it
//	error                          error     the start or the process failed; Send or Refresh retries
//	closed, or no engine session   exited    Close ran, or the engine ended the session
//
// So the transitions are the engine's (engine.Transition), and the engine
// changing a session by itself (hibernating it to make room, finding its
// process dead, shutting down) shows here at once.
const (
	StateStarting = "starting"
	StateIdle     = "idle"
	StateRunning  = "running"
	StateStopped  = "stopped" // engine.StatusHibernated
	StateError    = "error"
	StateExited   = "exited" // engine.StatusClosed
)

// StateOf names an engine state in the backend's words (see the table
// above).
func StateOf(st engine.SessionStatus) string {
	switch st {
	case engine.StatusNew, engine.StatusStarting:
		return StateStarting
	case engine.StatusIdle:
		return StateIdle
	case engine.StatusRunning:
		return StateRunning
	case engine.StatusHibernated:
		return StateStopped
	case engine.StatusError:
		return StateError
	}
	return StateExited
}

// Status returns the engine's word for a backend state (starting for
// starting, though a session not yet started is new to the engine).
func Status(state string) engine.SessionStatus {
	switch state {
	case StateStopped:
		return engine.StatusHibernated
	case StateExited:
		return engine.StatusClosed
	}
	return engine.SessionStatus(state)
}

var (
	// ErrSessionClosed means the session has exited.
	ErrSessionClosed = errors.New("session is closed")
	// ErrNotReady means the session is in a state that cannot take the
	// operation.
	ErrNotReady = errors.New("session is not ready")
)
