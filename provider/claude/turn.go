package claude

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/jsonl"
	"github.com/hotplex/hotplex/provider"
)

func (c *process) Turn(ctx context.Context, prompt string, ask provider.PermissionFunc, emit provider.Emit) (*event.TurnResult, error) {
	if !c.readMu.TryLock() {
		return nil, provider.ErrBusy
	}
	defer c.readMu.Unlock()
	if c.eof.Load() {
		return nil, c.deadErr("exited between turns")
	}
	if err := c.dropStale(); err != nil {
		return nil, err
	}
	c.dec.startTurn()

	turnCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	c.cancelMu.Lock()
	c.cancelTurn = cancel
	c.cancelMu.Unlock()
	defer func() {
		c.cancelMu.Lock()
		c.cancelTurn = nil
		c.cancelMu.Unlock()
	}()
	unwatch := c.watch(turnCtx)
	defer unwatch()

	if err := c.write(userFrame{Type: "user", Message: userMessage{Role: "user", Content: []textBlock{{Type: "text", Text: prompt}}}}); err != nil {
		return nil, c.deadErr(err.Error())
	}

	var interrupted bool
	// Once the caller has gone, the turn ends quietly.
	deliver := provider.Deliverer(turnCtx, emit, cancel)
	for {
		line, err := c.next()
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			if turnCtx.Err() == nil {
				// Not ours: clear it, then look again in case the turn
				// ended meanwhile and its deadline was just cleared too.
				_ = c.stdout.SetReadDeadline(time.Time{})
				if turnCtx.Err() == nil {
					continue
				}
			}
			if interrupted {
				// The CLI did not end the turn: whatever it still prints
				// would leak into the next turn, so the process has to go.
				_ = c.cp.Kill()
				c.eof.Store(true)
				return nil, errors.Join(context.Cause(turnCtx), fmt.Errorf("%w: turn did not end within %s of the interrupt; process killed", provider.ErrSessionDead, c.cfg.Interrupt()))
			}
			interrupted = true
			if _, err := c.request("interrupt", nil); err != nil {
				return nil, errors.Join(context.Cause(turnCtx), c.deadErr(err.Error()))
			}
			// From now on the deadline is the interrupt's grace period.
			_ = c.stdout.SetReadDeadline(time.Now().Add(c.cfg.Interrupt()))
			continue
		case errors.Is(err, jsonl.ErrLineTooLong):
			msg := "agent output: " + err.Error()
			deliver(event.NewEventWithMeta(event.TypeError, msg, &event.EventMeta{Status: "error", ErrorMsg: msg}))
			continue
		case err != nil:
			return nil, errors.Join(c.turnErr(turnCtx, interrupted), c.deadErr("exited during the turn"))
		}

		m := parse(line)
		switch m.Type {
		case "control_response":
			continue // the interrupt's acknowledgement; the result follows
		case "control_request":
			c.answer(turnCtx, m, ask)
			continue
		case "result":
			tr := c.dec.turnResult(m)
			tr.Interrupted = interrupted
			c.noteModel(tr.Model)
			return tr, c.turnErr(turnCtx, interrupted)
		case "system":
			if m.Subtype == "init" {
				c.noteModel(m.Model)
			}
		}
		for _, ev := range c.dec.events(m, line) {
			deliver(ev)
		}
	}
}

// turnErr is why a turn ended early, if it did: the callback's refusal or
// the caller's cancellation (which may come just as the result does).
func (c *process) turnErr(ctx context.Context, interrupted bool) error {
	if !interrupted && ctx.Err() == nil {
		return nil
	}
	return context.Cause(ctx)
}

// dropStale discards output that arrived between turns, so the new turn
// starts clean. It reads only what is already there.
func (c *process) dropStale() error {
	// A deadline in the past would fail reads before they look at the
	// pipe, so readiness is asked of the pipe itself; a short deadline
	// only bounds waiting for the rest of a line the CLI is still writing.
	defer func() { _ = c.stdout.SetReadDeadline(time.Time{}) }()
	for c.out.Buffered() > 0 || c.readable() {
		_ = c.stdout.SetReadDeadline(time.Now().Add(5 * time.Millisecond))
		line, err := c.next()
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			return nil // a line still being written; it is not waited for
		case errors.Is(err, jsonl.ErrLineTooLong):
			continue
		case err != nil:
			return c.deadErr("exited between turns")
		}
		c.log.Debug("dropping output that arrived between turns", "bytes", len(line))
	}
	return nil
}

// readable reports whether stdout has data (or its end) waiting, without
// blocking.
func (c *process) readable() bool {
	rc, err := c.stdout.SyscallConn()
	if err != nil {
		return false
	}
	ready := false
	_ = rc.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		ready = err == nil && n > 0
	})
	return ready
}
