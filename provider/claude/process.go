package claude

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/jsonl"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
)

// process is one running CLI. A single reader goroutine owns stdout: it
// answers nothing itself, but routes control responses to whoever waits
// for them and queues every other frame for the turn in progress.
type process struct {
	cp     *proc.Process
	cfg    *Options
	log    *slog.Logger
	dec    *decoder
	reqSeq atomic.Int64

	info   provider.Info
	infoMu sync.Mutex

	writeMu sync.Mutex
	turnMu  sync.Mutex

	frames     chan frame
	readerDone chan struct{}
	closing    chan struct{}
	closeOnce  sync.Once

	pendingMu sync.Mutex
	pending   map[string]chan *ControlResponse
}

// frame is one line of output, or the error reading it.
type frame struct {
	raw []byte
	err error
}

var controlResponseTag = []byte(`"control_response"`)

// frameQueue bounds how much output may wait for a turn to read it; beyond
// it the reader stops reading and the CLI blocks on its stdout.
const frameQueue = 64

func (c *process) Info() provider.Info {
	c.infoMu.Lock()
	defer c.infoMu.Unlock()
	return c.info
}

func (c *process) Done() <-chan struct{} { return c.cp.Done() }

func (c *process) Alive() bool {
	select {
	case <-c.cp.Done():
		return false
	default:
		return !c.cp.Exited()
	}
}

func (c *process) StderrTail() string { return c.cp.StderrTail() }

func (c *process) readLoop(stdout io.Reader) {
	defer close(c.readerDone)
	defer close(c.frames)
	lr := jsonl.NewReader(stdout, c.cfg.maxLine())
	for {
		line, err := lr.Next()
		if errors.Is(err, jsonl.ErrLineTooLong) {
			if !c.push(frame{err: fmt.Errorf("agent output: %w", err)}) {
				return
			}
			continue
		}
		if err != nil {
			return
		}
		// Only control responses are decoded here; everything else is
		// decoded by the turn that reads it, which keeps this goroutine
		// (one per hot session) small.
		if bytes.Contains(line, controlResponseTag) {
			if m := parse(line); m.Type == "control_response" && m.Response != nil {
				c.resolve(m.Response)
				continue
			}
		}
		if !c.push(frame{raw: bytes.Clone(line)}) {
			return
		}
	}
}

func (c *process) push(f frame) bool {
	select {
	case c.frames <- f:
		return true
	case <-c.closing:
		return false
	}
}

func (c *process) resolve(r *ControlResponse) {
	c.pendingMu.Lock()
	ch, ok := c.pending[r.RequestID]
	delete(c.pending, r.RequestID)
	c.pendingMu.Unlock()
	if ok {
		ch <- r
	}
}

// request sends a control request and returns the channel its response
// will arrive on (buffered, so the reader never blocks on it).
func (c *process) request(subtype string, body map[string]any) (string, <-chan *ControlResponse, error) {
	id := "hotplex-" + subtype + "-" + strconv.FormatInt(c.reqSeq.Add(1), 10)
	ch := make(chan *ControlResponse, 1)
	c.pendingMu.Lock()
	c.pending[id] = ch
	c.pendingMu.Unlock()
	req := map[string]any{"subtype": subtype}
	for k, v := range body {
		req[k] = v
	}
	err := c.write(map[string]any{"type": "control_request", "request_id": id, "request": req})
	return id, ch, err
}

func (c *process) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode frame: %w", err)
	}
	b = append(b, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := c.cp.Stdin().Write(b); err != nil {
		return fmt.Errorf("write to agent stdin: %w", err)
	}
	return nil
}

func (c *process) respond(requestID string, response any) error {
	return c.write(map[string]any{"type": "control_response", "response": map[string]any{
		"subtype": "success", "request_id": requestID, "response": response,
	}})
}

// initialize performs the control handshake. Its answer is the CLI's
// ready signal: system/init only follows the first prompt.
func (c *process) initialize(ctx context.Context) error {
	_, ch, err := c.request("initialize", map[string]any{
		// A PreToolUse hook for every tool: the CLI asks can_use_tool only
		// for tools its own rules do not allow, so read-only commands would
		// otherwise run unseen. The hook shows us each one before it runs.
		"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "", "hookCallbackIds": []string{preToolUseHook}}}},
	})
	if err != nil {
		return c.startErr(err)
	}
	select {
	case r := <-ch:
		if r.Subtype == "error" {
			return fmt.Errorf("%w: initialize refused: %s", provider.ErrStartFailed, r.Error)
		}
		return nil
	case <-c.readerDone:
		return c.startErr(errors.New("exited before it was ready"))
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

const preToolUseHook = "hotplex_pre_tool_use"

func (c *process) startErr(err error) error {
	c.waitExit(2 * time.Second)
	tail := c.cp.StderrTail()
	if exit := c.cp.ExitError(); exit != nil {
		err = fmt.Errorf("%v (%v)", err, exit)
	}
	if tail != "" {
		return fmt.Errorf("%w: %v; stderr: %s", provider.ErrStartFailed, err, tail)
	}
	return fmt.Errorf("%w: %v", provider.ErrStartFailed, err)
}

func (c *process) waitExit(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.cp.Done():
	case <-t.C:
	}
}

// deadErr describes a process that stopped answering mid-turn.
func (c *process) deadErr(what string) error {
	c.waitExit(2 * time.Second)
	msg := what
	if exit := c.cp.ExitError(); exit != nil {
		msg += " (" + exit.Error() + ")"
	}
	if tail := c.cp.StderrTail(); tail != "" {
		msg += "; stderr: " + tail
	}
	return fmt.Errorf("%w: %s", provider.ErrSessionDead, msg)
}

// dropStale discards output that arrived between turns (for example the
// tail of a turn the caller gave up on), so the new turn starts clean.
func (c *process) dropStale() {
	for {
		select {
		case f, ok := <-c.frames:
			if !ok {
				return
			}
			c.log.Debug("dropping output that arrived between turns", "bytes", len(f.raw), "err", f.err)
		default:
			return
		}
	}
}

func (c *process) Turn(ctx context.Context, prompt string, ask provider.PermissionFunc, emit provider.Emit) (*event.TurnResult, error) {
	if !c.turnMu.TryLock() {
		return nil, provider.ErrBusy
	}
	defer c.turnMu.Unlock()
	select {
	case <-c.cp.Done():
		return nil, c.deadErr("exited between turns")
	default:
	}
	c.dropStale()
	c.dec.startTurn()

	turnCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	user := map[string]any{"type": "user", "message": map[string]any{
		"role": "user", "content": []any{map[string]any{"type": "text", "text": prompt}},
	}}
	if err := c.write(user); err != nil {
		return nil, c.deadErr(err.Error())
	}

	var (
		interrupted bool
		deadline    <-chan time.Time
		turnErr     error
	)
	done := turnCtx.Done()
	for {
		select {
		case f, ok := <-c.frames:
			if !ok {
				if turnErr != nil {
					return nil, errors.Join(turnErr, c.deadErr("exited during the turn"))
				}
				return nil, c.deadErr("exited during the turn")
			}
			if f.err != nil {
				if turnErr == nil {
					ev := event.NewEventWithMeta(event.TypeError, f.err.Error(), &event.EventMeta{Status: "error", ErrorMsg: f.err.Error()})
					if err := emit(ev); err != nil {
						turnErr = err
						cancel(err)
					}
				}
				continue
			}
			m := parse(f.raw)
			switch m.Type {
			case "control_request":
				c.answer(turnCtx, m, ask)
				continue
			case "result":
				tr := c.dec.turnResult(m)
				tr.Interrupted = interrupted
				c.noteModel(tr.Model)
				return tr, turnErr
			case "system":
				if m.Subtype == "init" {
					c.noteModel(m.Model)
				}
			}
			if turnErr != nil {
				continue // the caller has gone; finish the turn quietly
			}
			for _, ev := range c.dec.events(m, f.raw) {
				if err := emit(ev); err != nil {
					// Remember the refusal now: the turn may end before
					// the interrupt below goes out.
					turnErr = err
					cancel(err)
					break
				}
			}
		case <-done:
			done = nil
			if turnErr == nil {
				turnErr = context.Cause(turnCtx)
			}
			interrupted = true
			if _, _, err := c.request("interrupt", nil); err != nil {
				return nil, errors.Join(turnErr, c.deadErr(err.Error()))
			}
			deadline = time.After(c.cfg.interruptGrace())
		case <-deadline:
			// The CLI did not end the turn: whatever it still prints would
			// leak into the next turn, so the process has to go.
			_ = c.cp.Kill()
			return nil, errors.Join(turnErr, fmt.Errorf("%w: turn did not end within %s of the interrupt; process killed", provider.ErrSessionDead, c.cfg.interruptGrace()))
		}
	}
}

func (c *process) noteModel(model string) {
	if model == "" {
		return
	}
	c.infoMu.Lock()
	c.info.Model = model
	c.infoMu.Unlock()
}

// answer handles a control request from the CLI.
func (c *process) answer(ctx context.Context, m *StreamMessage, ask provider.PermissionFunc) {
	r := m.Request
	if r == nil {
		return
	}
	var err error
	switch r.Subtype {
	case "can_use_tool":
		req := provider.ToolRequest{Kind: provider.CanUseTool, RequestID: m.RequestID, ToolName: r.ToolName, ToolUseID: r.ToolUseID, Input: r.Input}
		d := decide(ctx, ask, req)
		if d.Behavior == provider.Deny {
			err = c.respond(m.RequestID, map[string]any{"behavior": "deny", "message": d.Message})
			break
		}
		in := d.UpdatedInput
		if in == nil {
			in = r.Input
		}
		if in == nil {
			in = map[string]any{}
		}
		err = c.respond(m.RequestID, map[string]any{"behavior": "allow", "updatedInput": in})
	case "hook_callback":
		hookIn := r.Input
		name, _ := hookIn["tool_name"].(string)
		id, _ := hookIn["tool_use_id"].(string)
		toolIn, _ := hookIn["tool_input"].(map[string]any)
		req := provider.ToolRequest{Kind: provider.PreToolUse, RequestID: m.RequestID, ToolName: name, ToolUseID: id, Input: toolIn}
		d := decide(ctx, ask, req)
		out := map[string]any{"continue": true}
		if d.Behavior != "" {
			hso := map[string]any{"hookEventName": "PreToolUse", "permissionDecision": d.Behavior}
			if d.Message != "" {
				hso["permissionDecisionReason"] = d.Message
			}
			if d.UpdatedInput != nil {
				hso["updatedInput"] = d.UpdatedInput
			}
			out = map[string]any{"hookSpecificOutput": hso}
		}
		err = c.respond(m.RequestID, out)
	default:
		err = c.write(map[string]any{"type": "control_response", "response": map[string]any{
			"subtype": "error", "request_id": m.RequestID, "error": "hotplex does not support control request " + strconv.Quote(r.Subtype),
		}})
	}
	if err != nil {
		c.log.Warn("answering control request failed", "subtype", r.Subtype, "err", err)
	}
}

func decide(ctx context.Context, ask provider.PermissionFunc, req provider.ToolRequest) provider.ToolDecision {
	if ctx.Err() != nil {
		return provider.ToolDecision{Behavior: provider.Deny, Message: "The turn was interrupted."}
	}
	if ask == nil {
		if req.Kind == provider.CanUseTool {
			return provider.ToolDecision{Behavior: provider.Allow}
		}
		return provider.ToolDecision{}
	}
	return ask(ctx, req)
}

// Close ends the process tree: stdin EOF, grace, SIGTERM, grace, SIGKILL.
func (c *process) Close(ctx context.Context) error {
	c.closeOnce.Do(func() { close(c.closing) })
	err := c.cp.Terminate(ctx, c.cfg.terminateGrace())
	// The tree is gone, so stdout is at EOF unless something escaped with
	// the pipe; closing our end makes sure the reader ends either way.
	_ = c.cp.Stdout().Close()
	<-c.readerDone
	c.pendingMu.Lock()
	clear(c.pending)
	c.pendingMu.Unlock()
	return err
}
