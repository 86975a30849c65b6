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

// process is one running CLI. A single reader goroutine owns stdout. It
// routes control responses to whoever waits for them and runs every other
// frame for the turn in progress itself: decoding, permission questions and
// the caller's events all happen on it, in order. Handing each frame to the
// turn's own goroutine instead cost about 15µs of scheduling per frame,
// which was most of HotPlex's overhead on a warm turn; now the turn's
// goroutine wakes once, for the result.
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

	// cur is the turn in progress; nil between turns, when output is
	// stale (the tail of a turn its caller gave up on) and dropped.
	curMu sync.Mutex
	cur   *turnState
	// decTurn is the turn dec last served; only the reader touches both.
	decTurn *turnState

	readerDone chan struct{}

	pendingMu sync.Mutex
	pending   map[string]chan *ControlResponse
}

// turnState is what the reader needs to run a turn's frames.
type turnState struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	ask    provider.PermissionFunc
	emit   provider.Emit
	// refused is set (by the reader) once emit returned an error; later
	// events of the turn are not delivered.
	refused error
	result  chan *event.TurnResult // buffered; receives the turn's result
}

var controlResponseTag = []byte(`"control_response"`)

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
	lr := jsonl.NewReader(stdout, c.cfg.maxLine())
	for {
		line, err := lr.Next()
		if errors.Is(err, jsonl.ErrLineTooLong) {
			c.lineError(fmt.Errorf("agent output: %w", err))
			continue
		}
		if err != nil {
			return
		}
		// Control responses are decoded first: initialize and interrupt
		// wait for them, with or without a turn.
		if bytes.Contains(line, controlResponseTag) {
			if m := parse(line); m.Type == "control_response" && m.Response != nil {
				c.resolve(m.Response)
				continue
			}
		}
		c.frame(line)
	}
}

func (c *process) current() *turnState {
	c.curMu.Lock()
	defer c.curMu.Unlock()
	return c.cur
}

// lineError reports an unreadable line to the turn in progress.
func (c *process) lineError(err error) {
	t := c.current()
	if t == nil || t.refused != nil {
		c.log.Warn("agent output dropped", "err", err)
		return
	}
	ev := event.NewEventWithMeta(event.TypeError, err.Error(), &event.EventMeta{Status: "error", ErrorMsg: err.Error()})
	t.deliver(ev)
}

// deliver hands one event to the turn's caller; a refusal ends delivery and
// interrupts the turn.
func (t *turnState) deliver(ev *event.EventWithMeta) {
	if err := t.emit(ev); err != nil {
		t.refused = err
		t.cancel(err)
	}
}

// frame runs one line of output for the turn in progress.
func (c *process) frame(line []byte) {
	t := c.current()
	if t == nil {
		c.log.Debug("dropping output that arrived between turns", "bytes", len(line))
		return
	}
	if t != c.decTurn {
		// The decoder belongs to this goroutine; it learns of a new turn
		// from the turn's first frame.
		c.decTurn = t
		c.dec.startTurn()
	}
	m := parse(line)
	switch m.Type {
	case "control_request":
		c.answer(t.ctx, m, t.ask)
		return
	case "result":
		tr := c.dec.turnResult(m)
		c.noteModel(tr.Model)
		c.curMu.Lock()
		c.cur = nil
		c.curMu.Unlock()
		t.result <- tr
		return
	case "system":
		if m.Subtype == "init" {
			c.noteModel(m.Model)
		}
	}
	if t.refused != nil || t.ctx.Err() != nil {
		return // the caller has gone; let the turn end quietly
	}
	for _, ev := range c.dec.events(m, line) {
		t.deliver(ev)
		if t.refused != nil {
			return
		}
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

var errProcessClosed = fmt.Errorf("%w: the session was terminated", provider.ErrSessionDead)

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

func (c *process) Turn(ctx context.Context, prompt string, ask provider.PermissionFunc, emit provider.Emit) (*event.TurnResult, error) {
	if !c.turnMu.TryLock() {
		return nil, provider.ErrBusy
	}
	defer c.turnMu.Unlock()
	select {
	case <-c.readerDone:
		return nil, c.deadErr("exited between turns")
	default:
	}

	turnCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	t := &turnState{ctx: turnCtx, cancel: cancel, ask: ask, emit: emit, result: make(chan *event.TurnResult, 1)}
	c.curMu.Lock()
	c.cur = t
	c.curMu.Unlock()
	// Whatever way the turn ends, the reader must stop delivering to it.
	defer func() {
		c.curMu.Lock()
		if c.cur == t {
			c.cur = nil
		}
		c.curMu.Unlock()
	}()

	if err := c.write(userFrame{Type: "user", Message: userMessage{Role: "user", Content: []textBlock{{Type: "text", Text: prompt}}}}); err != nil {
		return nil, c.deadErr(err.Error())
	}

	var (
		interrupted bool
		deadline    <-chan time.Time
	)
	done := turnCtx.Done()
	for {
		select {
		case tr := <-t.result:
			tr.Interrupted = interrupted
			return tr, c.turnErr(t, interrupted)
		case <-c.readerDone:
			select {
			case tr := <-t.result: // the result came just before the exit
				tr.Interrupted = interrupted
				return tr, c.turnErr(t, interrupted)
			default:
			}
			return nil, errors.Join(c.turnErr(t, interrupted), c.deadErr("exited during the turn"))
		case <-done:
			done = nil
			interrupted = true
			if _, _, err := c.request("interrupt", nil); err != nil {
				return nil, errors.Join(context.Cause(turnCtx), c.deadErr(err.Error()))
			}
			deadline = time.After(c.cfg.interruptGrace())
		case <-deadline:
			// The CLI did not end the turn: whatever it still prints would
			// leak into the next turn, so the process has to go.
			_ = c.cp.Kill()
			return nil, errors.Join(context.Cause(turnCtx), fmt.Errorf("%w: turn did not end within %s of the interrupt; process killed", provider.ErrSessionDead, c.cfg.interruptGrace()))
		}
	}
}

// turnErr is why a turn ended early, if it did: the callback's refusal or
// the caller's cancellation (which may come just as the result does).
func (c *process) turnErr(t *turnState, interrupted bool) error {
	if !interrupted && t.ctx.Err() == nil {
		return nil
	}
	return context.Cause(t.ctx)
}

// The frames HotPlex writes, as structs: encoding a map sorts its keys on
// every turn.
type (
	userFrame struct {
		Type    string      `json:"type"`
		Message userMessage `json:"message"`
	}
	userMessage struct {
		Role    string      `json:"role"`
		Content []textBlock `json:"content"`
	}
	textBlock struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
)

func (c *process) noteModel(model string) {
	if model == "" {
		return
	}
	c.infoMu.Lock()
	c.info.Model = model
	c.infoMu.Unlock()
}

// answer handles a control request from the CLI.
func (c *process) answer(ctx context.Context, m *frame, ask provider.PermissionFunc) {
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
	// A turn may be waiting on a permission question; end its wait so the
	// reader can see the end of output.
	if t := c.current(); t != nil {
		t.cancel(errProcessClosed)
	}
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
