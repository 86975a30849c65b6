package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/hotplex/hotplex/client"
	"github.com/hotplex/hotplex/event"
)

// Prompt runs one turn of the session, streaming its events to the editor
// as session/update notifications, and answers with why it stopped:
// end_turn, cancelled (session/cancel interrupted it) or refusal (the
// firewall blocked something the agent tried).
//
// The turn's stream is read on a context of its own: a cancelled prompt
// interrupts the turn and reads on to the turn's end, so the editor sees
// everything the turn did; an editor that leaves has its turn interrupted
// and the stream closed.
func (a *agent) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	if !a.enter() {
		return sdk.PromptResponse{}, sdk.NewInternalError(map[string]any{"error": "the agent is shutting down"})
	}
	defer a.turns.Done()
	id := string(p.SessionId)
	if a.isShut(id) {
		return sdk.PromptResponse{}, &sdk.RequestError{Code: errResourceNotFound, Message: "Resource not found",
			Data: map[string]any{"error": fmt.Sprintf("session/prompt: session %q was closed; load or resume it first", id)}}
	}
	text, err := promptText(p.Prompt)
	if err != nil {
		return sdk.PromptResponse{}, sdk.NewInvalidParams(map[string]any{"error": "session/prompt: " + err.Error()})
	}
	sctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	defer context.AfterFunc(a.gone, stop)()
	body, err := a.api.Prompt(sctx, a.o.Key, id, text)
	if err != nil {
		return sdk.PromptResponse{}, apiError("session/prompt", id, err)
	}
	defer body.Close()

	// A cancel (or the editor leaving) interrupts the turn; the stream
	// then ends with it.
	ended, end := context.WithCancel(ctx)
	defer end()
	defer context.AfterFunc(a.gone, end)()
	interrupted := make(chan struct{})
	stopInterrupt := context.AfterFunc(ended, func() {
		defer close(interrupted)
		a.interrupt(sctx, id)
	})
	var result *event.EventWithMeta
	defer func() {
		if !stopInterrupt() {
			<-interrupted
			return
		}
		// The editor left, or the agent is stopping: the stream may have
		// ended (its request cancelled) before the interrupt above was
		// started, and the turn must not run on unattended.
		if result == nil && (a.gone.Err() != nil || ctx.Err() != nil) {
			a.interrupt(sctx, id)
		}
	}()

	t := newTranslator(false)
	var (
		blocked bool
		failed  error
		sendErr error
	)
	// The editor is asked on a goroutine of its own, so that the stream
	// reads on: another client of the key may answer first, and its
	// permission_decision then withdraws the editor's question.
	var asks sync.WaitGroup
	asking := map[string]context.CancelCauseFunc{}
	defer func() {
		for _, cancel := range asking {
			cancel(errSettledElsewhere)
		}
		asks.Wait()
	}()
	// The updates of a burst of events reach the editor in one write;
	// those of the last burst go with the prompt's answer, which the
	// connection writes once Prompt returns.
	holding := false
	release := func() {
		if holding {
			holding = false
			a.out.release()
		}
	}
	defer func() {
		if holding {
			a.out.releaseWithNext()
		}
	}()
	readErr := client.ReadSSEBursts(body, func(e client.Event) bool {
		if !holding {
			holding = true
			a.out.hold()
		}
		if e.ID == 0 {
			if e.Type == "turn_error" || e.Type == "disconnect" {
				var n struct{ Error, Message, Reason string }
				_ = json.Unmarshal(e.Data, &n)
				if n.Error != "interrupted" {
					failed = fmt.Errorf("the turn failed: %s", strings.TrimSpace(n.Error+": "+n.Message+n.Reason))
				}
			}
			return true
		}
		if !t.reads(e.Type) {
			return true
		}
		ev := new(event.EventWithMeta)
		if err := json.Unmarshal(e.Data, ev); err != nil {
			failed = fmt.Errorf("event %d: %w", e.ID, err)
			return false
		}
		if err := a.send(sctx, p.SessionId, t.updates(ev)); err != nil {
			sendErr = err
			return false
		}
		switch ev.EventType {
		case event.TypePermissionRequest:
			if ev.Permission != nil {
				actx, cancel := context.WithCancelCause(ctx)
				if old := asking[ev.Permission.RequestID]; old != nil {
					old(errSettledElsewhere)
				}
				asking[ev.Permission.RequestID] = cancel
				asks.Go(func() {
					defer cancel(nil)
					a.askPermission(actx, sctx, p.SessionId, ev)
				})
			}
		case event.TypePermissionDecision:
			if cancel := asking[permissionID(ev)]; cancel != nil {
				cancel(errSettledElsewhere)
				delete(asking, permissionID(ev))
			}
		case event.TypeDangerBlock:
			blocked = true
		case event.TypeResult:
			// The turn's last event: what it came to is known, and the
			// editor need not wait for the stream's close.
			result = ev
			return false
		}
		return true
	}, release)
	stop() // the turn is over: no interrupt is needed any more
	switch {
	case a.gone.Err() != nil:
		return sdk.PromptResponse{}, sdk.NewInternalError(map[string]any{"error": "the editor left; the turn was interrupted"})
	case sendErr != nil:
		return sdk.PromptResponse{}, sendErr
	case ctx.Err() != nil:
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled, Usage: usageOf(turnOf(result))}, nil
	case failed != nil:
		return sdk.PromptResponse{}, sdk.NewInternalError(map[string]any{"error": "session/prompt: " + failed.Error()})
	case result == nil && readErr != nil:
		return sdk.PromptResponse{}, sdk.NewInternalError(map[string]any{"error": "session/prompt: the turn's stream broke: " + readErr.Error()})
	case result == nil:
		return sdk.PromptResponse{}, sdk.NewInternalError(map[string]any{"error": "session/prompt: the turn ended without a result"})
	}
	if u, ok := usageUpdate(result); ok {
		if err := a.send(a.gone, p.SessionId, []sdk.SessionUpdate{u}); err != nil {
			return sdk.PromptResponse{}, err
		}
	}
	resp := sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn, Usage: usageOf(result.Turn)}
	switch {
	case result.Turn != nil && result.Turn.Interrupted:
		resp.StopReason = sdk.StopReasonCancelled
	case blocked:
		resp.StopReason = sdk.StopReasonRefusal
	}
	return resp, nil
}

func turnOf(ev *event.EventWithMeta) *event.TurnResult {
	if ev == nil {
		return nil
	}
	return ev.Turn
}

// interrupt stops session id's turn. An interrupt can come before the
// daemon has started the turn it is for (a cancel right after the
// prompt), so it is repeated until one lands or the turn's stream (sctx)
// ends.
func (a *agent) interrupt(sctx context.Context, id string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(sctx), interruptGrace)
	defer cancel()
	for {
		ok, err := a.api.Interrupt(ctx, a.o.Key, id)
		if err != nil {
			a.log.Warn("interrupting a turn", "session", id, "err", err)
			return
		}
		if ok {
			return
		}
		select {
		case <-sctx.Done():
			return
		case <-ctx.Done():
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Permission options offered to the editor.
const (
	optionAllow = "allow"
	optionDeny  = "deny"
)

// errSettledElsewhere withdraws a question from the editor: the request
// was settled without it.
var errSettledElsewhere = errors.New("the permission request was settled elsewhere")

func permissionID(ev *event.EventWithMeta) string {
	if ev.Permission == nil {
		return ""
	}
	return ev.Permission.RequestID
}

// askPermission asks the editor about a tool use that waits for a
// person's decision, and gives its answer to the daemon. A cancelled
// prompt (ctx) denies it; the turn is being interrupted anyway. A
// question withdrawn because the request was settled without the editor
// (errSettledElsewhere) is not answered.
func (a *agent) askPermission(ctx, sctx context.Context, sid sdk.SessionId, ev *event.EventWithMeta) {
	perm := ev.Permission
	if perm == nil || perm.RequestID == "" {
		return
	}
	// Only a request the daemon lists as pending waits for a person;
	// the daemon lists it before it reports it.
	pending, err := a.api.PendingPermissions(sctx, a.o.Key, string(sid))
	if err != nil {
		a.log.Warn("listing a session's pending permissions", "session", sid, "err", err)
		return
	}
	i := slices.IndexFunc(pending, func(p client.PendingPermission) bool { return p.RequestID == perm.RequestID })
	if i < 0 {
		return
	}
	title := strings.TrimSpace(perm.ToolName + " " + commandOf(ev.Input))
	switch pp := pending[i]; {
	case pp.Policy != nil:
		title += fmt.Sprintf(" (rule %s at the %s level)", pp.Policy.Rule, pp.Policy.Level)
	case pp.Reason != "":
		title += " (" + pp.Reason + ")"
	}
	kind := toolKind(perm.ToolName)
	<-a.ready
	resp, err := a.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{
		SessionId: sid,
		ToolCall: sdk.ToolCallUpdate{
			ToolCallId: sdk.ToolCallId(toolCallID(perm.ToolUseID, perm.RequestID)),
			Title:      sdk.Ptr(title), Kind: &kind, Status: sdk.Ptr(sdk.ToolCallStatusPending), RawInput: ev.Input,
		},
		Options: []sdk.PermissionOption{
			{OptionId: optionAllow, Name: "Allow", Kind: sdk.PermissionOptionKindAllowOnce},
			{OptionId: optionDeny, Name: "Deny", Kind: sdk.PermissionOptionKindRejectOnce},
		},
	})
	if errors.Is(context.Cause(ctx), errSettledElsewhere) {
		return // another client answered, or the turn went on without it
	}
	allow, why := false, "the editor's user denied it"
	switch {
	case err != nil:
		why = "the editor did not answer: " + err.Error()
	case resp.Outcome.Cancelled != nil:
		why = "the prompt was cancelled"
	case resp.Outcome.Selected != nil && resp.Outcome.Selected.OptionId == optionAllow:
		allow, why = true, ""
	}
	rctx, cancel := context.WithTimeout(sctx, interruptGrace)
	defer cancel()
	if err := a.api.AnswerPermissionFrom(rctx, a.o.Key, string(sid), perm.RequestID, allow, why, "acp"); err != nil && !errors.Is(err, context.Canceled) {
		a.log.Warn("answering a permission request", "session", sid, "request", perm.RequestID, "err", err)
	}
}

// commandOf is what a tool use's input says it does, briefly: a shell
// command, or a file's path.
func commandOf(input map[string]any) string {
	s := firstString(input, "command", "file_path", "notebook_path", "path", "url", "pattern")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// promptText is the prompt's content as the agent's text: text as it is,
// a link to a file as an @-mention of its path, an embedded text resource
// as a block of context. Images, audio and binary resources are refused:
// the initialize answer does not offer them.
func promptText(blocks []sdk.ContentBlock) (string, error) {
	var b strings.Builder
	for _, c := range blocks {
		switch {
		case c.Text != nil:
			b.WriteString(c.Text.Text)
		case c.ResourceLink != nil:
			ref := c.ResourceLink.Uri
			if u, err := url.Parse(ref); err == nil && u.Scheme == "file" {
				ref = "@" + u.Path
			}
			if b.Len() > 0 {
				b.WriteString(" ")
			}
			b.WriteString(ref)
		case c.Resource != nil && c.Resource.Resource.TextResourceContents != nil:
			r := c.Resource.Resource.TextResourceContents
			fmt.Fprintf(&b, "\n<context ref=%q>\n%s\n</context>\n", r.Uri, r.Text)
		case c.Image != nil:
			return "", errors.New("images are not supported (see promptCapabilities)")
		case c.Audio != nil:
			return "", errors.New("audio is not supported (see promptCapabilities)")
		default:
			return "", errors.New("binary resources are not supported (see promptCapabilities)")
		}
	}
	if strings.TrimSpace(b.String()) == "" {
		return "", errors.New("the prompt is empty")
	}
	return b.String(), nil
}
