package engine

import (
	"errors"
	"fmt"
	"time"

	"github.com/hotplex/hotplex/provider"
)

// Errors returned by the engine; test for them with errors.Is.
var (
	// ErrSessionDead wraps a turn whose CLI process died; the next turn
	// restarts and resumes it.
	ErrSessionDead = provider.ErrSessionDead
	// ErrStartFailed wraps a CLI that could not be started.
	ErrStartFailed = provider.ErrStartFailed
	// ErrSessionBusy is returned when FailFastWhenBusy is set and the
	// session is running another turn.
	ErrSessionBusy = errors.New("session is busy with another turn")
	// ErrSessionNotFound is returned for an unknown session ID.
	ErrSessionNotFound = errors.New("session not found")
	// ErrEmptyPrompt is returned for a prompt with no text.
	ErrEmptyPrompt = errors.New("prompt is empty")
	// ErrInvalidConfig is returned for a missing config or session ID.
	ErrInvalidConfig = errors.New("invalid session config")
	// ErrInvalidWorkDir is returned for a work directory that does not
	// exist, is not a directory, or escapes the configured root.
	ErrInvalidWorkDir = errors.New("invalid work directory")
	// ErrTurnTimeout is the cause of a turn that exceeded Timeout.
	ErrTurnTimeout = errors.New("turn timed out")
	// ErrTurnFailed wraps a turn the CLI ended with an error result.
	ErrTurnFailed = errors.New("turn failed")
	// ErrEngineClosed is returned after Close or Shutdown.
	ErrEngineClosed = errors.New("engine is closed")
	// ErrInterrupted is the cause of a turn ended by Interrupt.
	ErrInterrupted = errors.New("turn interrupted")
	// ErrSessionDeleted is returned to the turns that waited for a
	// session deleted meanwhile (DeleteSession): they never run.
	ErrSessionDeleted = errors.New("session was deleted")
	// ErrSessionExists is returned by RestoreSession for a live session.
	ErrSessionExists = errors.New("session already exists")
	// ErrDangerBlocked is returned for a prompt the firewall blocked; the
	// prompt never reached the agent.
	ErrDangerBlocked = errors.New("blocked by the danger firewall")
	// ErrProviderNotFound is returned for a provider name the engine was
	// not given.
	ErrProviderNotFound = errors.New("provider not found")
	// ErrOverloaded is returned for a turn that needed a CLI start when
	// the start queue was full or the wait in it too long. The error is an
	// *OverloadedError; RetryAfter suggests when to try again.
	ErrOverloaded = errors.New("engine overloaded")
	// ErrBypassDenied is returned for a bypass request without a valid
	// admin token (or when the engine has none).
	ErrBypassDenied = errors.New("firewall bypass denied")
)

// OverloadedError is the error a turn gets when the engine cannot start its
// CLI now. It wraps ErrOverloaded.
type OverloadedError struct {
	Reason string
	// RetryAfter is how long the queue is expected to take to drain.
	RetryAfter time.Duration
}

func (e *OverloadedError) Error() string {
	return fmt.Sprintf("%v: %s (retry after %s)", ErrOverloaded, e.Reason, e.RetryAfter)
}

func (e *OverloadedError) Unwrap() error { return ErrOverloaded }

// RetryAfter returns the retry hint of an error wrapping an
// *OverloadedError, or 0.
func RetryAfter(err error) time.Duration {
	var o *OverloadedError
	if errors.As(err, &o) {
		return o.RetryAfter
	}
	return 0
}
