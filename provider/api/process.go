package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
)

// process is one conversation. It has no operating-system process of its
// own (PID 0); the bash commands it runs are children in their own process
// groups, ended with the turn.
type process struct {
	p          *Provider
	log        *slog.Logger
	workDir    string
	env        []string
	model      string
	system     string
	statePath  string
	client     client
	allowed    []string
	disallowed []string
	// askEach asks CanUseTool for every command the firewall lets through,
	// as an agent CLI in its default permission mode does.
	askEach bool

	turnMu sync.Mutex // one turn at a time

	mu      sync.Mutex
	info    provider.Info
	history []message
	closed  bool
	// endTurn cancels the running turn and turnDone is closed when it
	// has ended (both nil between turns).
	endTurn  context.CancelCauseFunc
	turnDone chan struct{}
}

func (pr *process) Info() provider.Info {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	return pr.info
}

func (pr *process) Alive() bool {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	return !pr.closed
}

func (pr *process) StderrTail() string { return "" }

// Close ends the conversation: a running turn is cancelled (its bash
// command killed) and waited for, as long as ctx allows.
func (pr *process) Close(ctx context.Context) error {
	pr.mu.Lock()
	pr.closed = true
	end, done := pr.endTurn, pr.turnDone
	pr.mu.Unlock()
	if end == nil {
		return nil
	}
	end(fmt.Errorf("%w: conversation closed during the turn", provider.ErrSessionDead))
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("api provider: close: the turn did not end: %w", context.Cause(ctx))
	}
}

func (pr *process) toolsOffered() bool {
	if !pr.p.opts.Tools || slices.Contains(pr.disallowed, "bash") {
		return false
	}
	return len(pr.allowed) == 0 || slices.ContainsFunc(pr.allowed, func(s string) bool {
		return s == "bash" || strings.HasPrefix(s, "bash(")
	})
}

// Turn sends prompt, runs the tool calls the model makes (each judged by
// ask first) and returns when the model answers without one.
func (pr *process) Turn(ctx context.Context, prompt string, ask provider.PermissionFunc, emit provider.Emit) (*event.TurnResult, error) {
	if !pr.turnMu.TryLock() {
		return nil, provider.ErrBusy
	}
	defer pr.turnMu.Unlock()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	pr.mu.Lock()
	if pr.closed {
		pr.mu.Unlock()
		return nil, fmt.Errorf("%w: conversation closed", provider.ErrSessionDead)
	}
	done := make(chan struct{})
	pr.endTurn, pr.turnDone = cancel, done
	pr.mu.Unlock()
	defer func() {
		pr.mu.Lock()
		pr.endTurn, pr.turnDone = nil, nil
		pr.mu.Unlock()
		close(done)
	}()
	deliver := provider.Deliverer(ctx, emit, cancel)

	pr.mu.Lock()
	history := append(slices.Clone(pr.history), message{Role: "user", Text: prompt})
	pr.mu.Unlock()
	start := time.Now()
	tr := &event.TurnResult{Subtype: "success", Model: pr.model}
	var apiTime time.Duration
	last := time.Now()
	since := func() int64 {
		now := time.Now()
		d := now.Sub(last)
		last = now
		return d.Milliseconds()
	}

	var turnErr error
	for step := 0; ; step++ {
		if step >= pr.p.opts.MaxSteps {
			tr.Subtype, tr.IsError = "error_max_turns", true
			tr.Result = fmt.Sprintf("stopped after %d model calls", step)
			break
		}
		deltas := pr.p.opts.Deltas
		onText := func(s string) error {
			if !deltas || s == "" {
				return nil
			}
			return deliver(event.NewEventWithMeta(event.TypeAnswer, s, &event.EventMeta{Status: "delta", DurationMs: since()}))
		}
		onThinking := func(s string) error {
			if !deltas || s == "" {
				return nil
			}
			return deliver(event.NewEventWithMeta(event.TypeThinking, s, &event.EventMeta{Status: "delta", DurationMs: since()}))
		}
		callStart := time.Now()
		r, err := pr.client.call(ctx, callRequest{
			model: pr.model, system: pr.system, history: history, tools: pr.toolsOffered(), maxTokens: pr.p.opts.MaxTokens,
		}, onText, onThinking)
		apiTime += time.Since(callStart)
		if err != nil {
			if ctx.Err() != nil {
				turnErr = context.Cause(ctx)
				tr.Interrupted = true
			} else {
				tr.Subtype, tr.IsError, tr.Result = "error_during_execution", true, "model API: "+err.Error()
			}
			// The prompt stays in the conversation with a note that it got no answer.
			history = append(history, message{Role: "assistant", Text: "(no answer: the request was interrupted or failed)"})
			break
		}
		tr.NumTurns++
		tr.InputTokens += int32(r.inputTokens)
		tr.OutputTokens += int32(r.outputTokens)
		tr.CacheRead += int32(r.cacheReadTokens)
		tr.CacheWrite += int32(r.cacheWriteTokens)
		if r.model != "" {
			tr.Model = r.model
		}
		if !deltas {
			if r.thinking != "" {
				if err := deliver(event.NewEventWithMeta(event.TypeThinking, r.thinking, &event.EventMeta{DurationMs: since()})); err != nil {
					turnErr = err
				}
			}
			if r.text != "" {
				if err := deliver(event.NewEventWithMeta(event.TypeAnswer, r.text, &event.EventMeta{DurationMs: since()})); err != nil {
					turnErr = err
				}
			}
		}
		history = append(history, message{Role: "assistant", Text: r.text, Calls: r.calls})
		if r.text != "" {
			tr.Result = r.text
		}
		if len(r.calls) == 0 {
			break
		}
		results := pr.runCalls(ctx, r.calls, ask, deliver, since)
		history = append(history, message{Role: "user", Results: results})
		if ctx.Err() != nil {
			turnErr = context.Cause(ctx)
			tr.Interrupted = true
			break
		}
	}
	if turnErr != nil && !tr.Interrupted {
		tr.Interrupted = true
	}
	if tr.Interrupted {
		tr.Subtype, tr.IsError = "error_during_execution", true
	}
	tr.DurationMs = time.Since(start).Milliseconds()
	tr.APIMs = apiTime.Milliseconds()

	pr.mu.Lock()
	pr.history = history
	pr.info.Model = tr.Model
	saved := conversation{Model: tr.Model, Messages: slices.Clone(history)}
	pr.mu.Unlock()
	if err := saveConversation(pr.statePath, saved); err != nil {
		pr.log.Warn("saving the conversation", "path", pr.statePath, "err", err)
	}
	if turnErr == nil && tr.Interrupted {
		turnErr = errors.New("turn interrupted")
	}
	return tr, turnErr
}

// runCalls answers the model's tool calls in order. Calls after an
// interrupt get an "interrupted" result so the conversation stays valid.
func (pr *process) runCalls(ctx context.Context, calls []toolCall, ask provider.PermissionFunc,
	deliver func(*event.EventWithMeta) error, since func() int64) []toolResult {
	var results []toolResult
	for _, c := range calls {
		if ctx.Err() != nil {
			results = append(results, toolResult{ID: c.ID, Output: "Interrupted by the user before it ran.", IsError: true})
			continue
		}
		command, _ := c.Input["command"].(string)
		meta := &event.EventMeta{ToolName: c.Name, ToolID: c.ID, Status: "running", InputSummary: command, DurationMs: since()}
		ev := event.NewEventWithMeta(event.TypeToolUse, c.Name, meta)
		ev.Input = c.Input
		_ = deliver(ev)
		began := time.Now()
		res := pr.runCall(ctx, c, command, ask)
		rm := &event.EventMeta{ToolName: c.Name, ToolID: c.ID, Status: "success",
			DurationMs: time.Since(began).Milliseconds(), OutputSummary: truncate(res.Output, 200)}
		if res.IsError {
			rm.Status, rm.ErrorMsg = "error", truncate(res.Output, 500)
		}
		_ = deliver(event.NewEventWithMeta(event.TypeToolResult, res.Output, rm))
		since()
		results = append(results, res)
	}
	return results
}

// runCall judges one call through ask and runs it when allowed.
func (pr *process) runCall(ctx context.Context, c toolCall, command string, ask provider.PermissionFunc) toolResult {
	if c.Name != "bash" || !pr.toolsOffered() {
		return toolResult{ID: c.ID, Output: fmt.Sprintf("No such tool: %s.", c.Name), IsError: true}
	}
	if strings.TrimSpace(command) == "" {
		return toolResult{ID: c.ID, Output: "The bash tool needs a non-empty \"command\".", IsError: true}
	}
	req := provider.ToolRequest{Kind: provider.PreToolUse, RequestID: c.ID, ToolName: c.Name, ToolUseID: c.ID, Input: c.Input}
	// PreToolUse is where the firewall looks; then, unless permissions
	// are bypassed, the command is put to the permission hook (a person,
	// in the daemon's ask mode) as a CLI would put it.
	d := ask(ctx, req)
	if d.Behavior == provider.Ask || (d.Behavior == "" && pr.askEach) {
		req.Kind = provider.CanUseTool
		d = ask(ctx, req)
	}
	if d.Behavior == provider.Deny {
		msg := d.Message
		if msg == "" {
			msg = "Permission to run this command was denied."
		}
		return toolResult{ID: c.ID, Output: msg, IsError: true}
	}
	if d.Behavior == provider.Allow && d.UpdatedInput != nil {
		if s, ok := d.UpdatedInput["command"].(string); ok && s != "" {
			command = s
		}
	}
	out, err := runBash(ctx, pr.workDir, pr.env, command, pr.p.opts.ToolTimeout)
	if err != nil {
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		return toolResult{ID: c.ID, Output: out + err.Error(), IsError: true}
	}
	return toolResult{ID: c.ID, Output: out}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
