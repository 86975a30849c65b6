package acp

import (
	"context"
	"errors"
	"fmt"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/internal/mailbox"
)

// turnQueue carries what the agent sends during a turn (updates and
// permission requests, which arrive on the connection's goroutines) to the
// goroutine running Turn, so that events and permission questions reach
// the caller in order and on one goroutine.
// When the turn gives up (the box is aborted), permission requests still
// waiting are refused.
type turnQueue = mailbox.Box[job]

type job struct {
	update *sdk.SessionUpdate
	perm   *permJob
	term   *termJob
}

type permJob struct {
	req   sdk.RequestPermissionRequest
	reply chan sdk.RequestPermissionResponse
}

var cancelled = sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}}

// client answers the agent's requests to HotPlex.
type client struct{ p *process }

func (cl *client) current() *turnQueue { return cl.p.cur.Current() }

func (cl *client) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	q := cl.current()
	if q == nil || n.SessionId != cl.p.sessionID {
		// Between turns: a loaded session's history being replayed, or
		// the tail of a turn whose caller gave up.
		return nil
	}
	u := n.Update
	q.Push(job{update: &u})
	return nil
}

func (cl *client) RequestPermission(ctx context.Context, r sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	q := cl.current()
	if q == nil || r.SessionId != cl.p.sessionID {
		return cancelled, nil
	}
	pj := &permJob{req: r, reply: make(chan sdk.RequestPermissionResponse, 1)}
	q.Push(job{perm: pj})
	select {
	case resp := <-pj.reply:
		return resp, nil
	case <-q.Aborted():
		return cancelled, nil
	case <-ctx.Done():
		return cancelled, nil
	}
}

var errNoClientFS = errors.New("this client offers no file system access")

func (cl *client) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, errNoClientFS
}

func (cl *client) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, errNoClientFS
}

type promptOutcome struct {
	resp sdk.PromptResponse
	err  error
}

// Turn sends prompt with session/prompt and reports the session's updates
// until the agent answers it. When ctx ends it sends session/cancel and
// waits for the agent's answer for the interrupt grace, then kills the
// process.
func (c *process) Turn(ctx context.Context, prompt string, ask provider.PermissionFunc, emit provider.Emit) (*event.TurnResult, error) {
	if !c.turnMu.TryLock() {
		return nil, provider.ErrBusy
	}
	defer c.turnMu.Unlock()
	if !c.Alive() {
		return nil, c.deadErr("exited between turns")
	}
	start := time.Now()
	c.approved = map[string]bool{}
	q := c.cur.Open()
	defer c.cur.Close(q)

	turnCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		// Close aborts the queue; the turn then stops waiting for the agent.
		select {
		case <-q.Aborted():
			if err := q.Cause(); err != nil {
				cancel(err)
			}
		case <-turnCtx.Done():
		}
	}()

	// The prompt request is not bound to ctx: an interrupted turn still
	// waits for the agent's answer to session/cancel.
	promptCtx, cancelPrompt := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelPrompt()
	done := make(chan promptOutcome, 1)
	go func() {
		r, err := c.conn.Prompt(promptCtx, sdk.PromptRequest{SessionId: c.sessionID, Prompt: []sdk.ContentBlock{sdk.TextBlock(prompt)}})
		done <- promptOutcome{r, err}
	}()

	dec := newDecoder(start, c.Info().Model)
	var (
		interrupted bool
		grace       <-chan time.Time
	)
	deliver := provider.Deliverer(turnCtx, emit, cancel)
	run := func(jobs []job) {
		for _, j := range jobs {
			switch {
			case j.update != nil:
				for _, ev := range dec.update(*j.update) {
					deliver(ev)
				}
			case j.perm != nil:
				for _, ev := range dec.flush() {
					deliver(ev)
				}
				j.perm.reply <- c.answer(turnCtx, interrupted, j.perm.req, dec, ask, deliver)
			case j.term != nil:
				j.term.reply <- c.judgeTerminal(turnCtx, interrupted, j.term, dec, ask, deliver)
			}
		}
	}
	cancelled := turnCtx.Done()
	for {
		select {
		case <-q.Ready():
			run(q.Take())
		case o := <-done:
			run(q.Take())
			for _, ev := range dec.flush() {
				deliver(ev)
			}
			if o.err != nil {
				if !c.Alive() {
					return nil, errors.Join(c.turnErr(turnCtx, interrupted), c.deadErr("exited during the turn"))
				}
				return nil, errors.Join(c.turnErr(turnCtx, interrupted), fmt.Errorf("session/prompt: %w", o.err))
			}
			tr := dec.result(o.resp, &c.spentUSD)
			tr.Interrupted = tr.Interrupted || interrupted
			return tr, c.turnErr(turnCtx, interrupted)
		case <-cancelled:
			cancelled = nil
			interrupted = true
			if !c.Alive() {
				continue // done follows
			}
			if err := c.conn.Cancel(context.WithoutCancel(ctx), sdk.CancelNotification{SessionId: c.sessionID}); err != nil {
				c.log.Debug("session/cancel", "err", err)
			}
			t := time.NewTimer(c.cfg.Interrupt())
			defer t.Stop()
			grace = t.C
		case <-grace:
			// The agent did not end the turn: whatever it still sends would
			// leak into the next turn, so the process has to go.
			_ = c.cp.Kill()
			cancelPrompt()
			<-done
			return nil, errors.Join(context.Cause(turnCtx), fmt.Errorf("%w: turn did not end within %s of session/cancel; process killed", provider.ErrSessionDead, c.cfg.Interrupt()))
		}
	}
}

// turnErr is why a turn ended early, if it did.
func (c *process) turnErr(ctx context.Context, interrupted bool) error {
	if !interrupted && ctx.Err() == nil {
		return nil
	}
	return context.Cause(ctx)
}

// answer decides one permission request through ask and picks the
// agent's option that matches the decision.
func (c *process) answer(ctx context.Context, interrupted bool, r sdk.RequestPermissionRequest, dec *decoder, ask provider.PermissionFunc, deliver func(*event.EventWithMeta) error) sdk.RequestPermissionResponse {
	if interrupted || ctx.Err() != nil {
		return cancelled
	}
	tc := dec.noteToolCall(r.ToolCall)
	for _, ev := range dec.flush() {
		deliver(ev)
	}
	req := provider.ToolRequest{
		Kind:      provider.CanUseTool,
		RequestID: string(r.ToolCall.ToolCallId),
		ToolName:  tc.name(),
		ToolUseID: string(r.ToolCall.ToolCallId),
		Input:     tc.input(),
	}
	d := provider.ToolDecision{Behavior: provider.Allow}
	if ask != nil {
		d = ask(ctx, req)
	}
	if ctx.Err() != nil {
		return cancelled
	}
	allow := d.Behavior == provider.Allow
	if cmd, _ := req.Input["command"].(string); allow && req.ToolName == "Bash" && cmd != "" {
		c.approved[cmd] = true
	}
	if id, ok := pickOption(r.Options, allow); ok {
		if allow {
			// Some agents (Gemini CLI) report the call next only when it has
			// finished: it runs from now on.
			for _, ev := range dec.progress(tc, sdk.ToolCallStatusInProgress, nil, nil) {
				deliver(ev)
			}
		}
		return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: id, Outcome: "selected"}}}
	}
	return cancelled
}

// pickOption returns the one-time option of the wanted kind, or the
// permanent one when the agent offers no one-time option.
func pickOption(opts []sdk.PermissionOption, allow bool) (sdk.PermissionOptionId, bool) {
	once, always := sdk.PermissionOptionKindRejectOnce, sdk.PermissionOptionKindRejectAlways
	if allow {
		once, always = sdk.PermissionOptionKindAllowOnce, sdk.PermissionOptionKindAllowAlways
	}
	for _, k := range []sdk.PermissionOptionKind{once, always} {
		for _, o := range opts {
			if o.Kind == k {
				return o.OptionId, true
			}
		}
	}
	return "", false
}
