package opencode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/internal/mailbox"
)

// busEvent is one event of the server's bus.
type busEvent struct {
	Type       string          `json:"type"`
	Properties json.RawMessage `json:"properties"`
}

type queue = mailbox.Box[busEvent]

type part struct {
	ID        string `json:"id"`
	SessionID string `json:"sessionID"`
	MessageID string `json:"messageID"`
	Type      string `json:"type"`
	Text      string `json:"text"`
	CallID    string `json:"callID"`
	Tool      string `json:"tool"`
	State     struct {
		Status string         `json:"status"`
		Input  map[string]any `json:"input"`
		Output string         `json:"output"`
		Error  string         `json:"error"`
	} `json:"state"`
	Cost   float64 `json:"cost"`
	Tokens struct {
		Input  int32 `json:"input"`
		Output int32 `json:"output"`
		Cache  struct {
			Read  int32 `json:"read"`
			Write int32 `json:"write"`
		} `json:"cache"`
	} `json:"tokens"`
}

type props struct {
	SessionID string `json:"sessionID"`
	Part      *part  `json:"part"`
	Info      *struct {
		ID        string `json:"id"`
		SessionID string `json:"sessionID"`
		Role      string `json:"role"`
		ParentID  string `json:"parentID"`
		ModelID   string `json:"modelID"`
	} `json:"info"`
	Status *struct {
		Type string `json:"type"`
	} `json:"status"`
	Error *struct {
		Name string `json:"name"`
		Data struct {
			Message string `json:"message"`
		} `json:"data"`
	} `json:"error"`
	// permission.asked
	ID         string         `json:"id"`
	Permission string         `json:"permission"`
	Patterns   []string       `json:"patterns"`
	Metadata   map[string]any `json:"metadata"`
	Tool       *struct {
		CallID string `json:"callID"`
	} `json:"tool"`
}

// turnState is what one turn has seen so far.
type turnState struct {
	start time.Time
	// prompt is the ID of the prompt's user message, the first new user
	// message the turn sees; assistant holds the IDs of the answers to it.
	// Anything else is the tail of an earlier, aborted turn.
	prompt    string
	assistant map[string]bool
	texts     map[string]string // text and reasoning parts, by part ID, until emitted
	kinds     map[string]string
	order     []string
	tools     map[string]*part // by call ID
	used      map[string]bool
	resulted  map[string]bool
	began     map[string]time.Time
	counted   map[string]bool // step-finish parts added to tr
	answer    strings.Builder
	tr        event.TurnResult
	busy      bool
}

func (s *turnState) meta(m *event.EventMeta) *event.EventMeta {
	m.TotalDurationMs = time.Since(s.start).Milliseconds()
	return m
}

// flush emits the text and reasoning parts gathered so far.
func (s *turnState) flush() []*event.EventWithMeta {
	var out []*event.EventWithMeta
	for _, id := range s.order {
		text := s.texts[id]
		if text == "" {
			continue
		}
		typ := event.TypeAnswer
		if s.kinds[id] == "reasoning" {
			typ = event.TypeThinking
		} else {
			if s.answer.Len() > 0 {
				// Each text part is a block of its own, as Claude's are.
				s.answer.WriteString("\n\n")
			}
			s.answer.WriteString(text)
		}
		out = append(out, event.NewEventWithMeta(typ, text, s.meta(&event.EventMeta{Status: "success"})))
	}
	s.order, s.texts, s.kinds = nil, map[string]string{}, map[string]string{}
	return out
}

// Turn sends prompt with prompt_async and reports the session's events
// until it goes idle. When ctx ends it aborts the session and waits for it
// to go idle for the interrupt grace, then kills the server.
func (c *process) Turn(ctx context.Context, prompt string, ask provider.PermissionFunc, emit provider.Emit) (*event.TurnResult, error) {
	if !c.turnMu.TryLock() {
		return nil, provider.ErrBusy
	}
	defer c.turnMu.Unlock()
	if !c.Alive() {
		return nil, c.deadErr("exited between turns")
	}
	st := &turnState{start: time.Now(), counted: map[string]bool{}, assistant: map[string]bool{}, texts: map[string]string{}, kinds: map[string]string{},
		tools: map[string]*part{}, used: map[string]bool{}, resulted: map[string]bool{}, began: map[string]time.Time{}}
	q := c.cur.Open()
	defer c.cur.Close(q)
	turnCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	body := map[string]any{"parts": []map[string]any{{"type": "text", "text": prompt}}}
	if err := c.do(turnCtx, http.MethodPost, "/session/"+c.sessionID+"/prompt_async", body, nil); err != nil {
		if !c.Alive() {
			return nil, c.deadErr("exited at prompt_async")
		}
		return nil, fmt.Errorf("prompt: %w", err)
	}

	var (
		interrupted bool
		grace       <-chan time.Time
	)
	deliver := provider.Deliverer(turnCtx, emit, cancel)
	cancelled := turnCtx.Done()
	for {
		select {
		case <-q.Ready():
			for _, ev := range q.Take() {
				if tr := c.handle(turnCtx, ev, st, interrupted, ask, deliver); tr != nil {
					tr.Interrupted = tr.Interrupted || interrupted
					return tr, c.turnErr(turnCtx, interrupted)
				}
			}
		case <-q.Aborted():
			return nil, errors.Join(context.Cause(turnCtx), errProcessClosed)
		case <-c.srv.events:
			return nil, errors.Join(c.turnErr(turnCtx, interrupted), c.deadErr("the event stream ended during the turn"))
		case <-cancelled:
			cancelled = nil
			interrupted = true
			go func() {
				actx, acancel := context.WithTimeout(context.WithoutCancel(ctx), c.cfg.Interrupt())
				defer acancel()
				if err := c.do(actx, http.MethodPost, "/session/"+c.sessionID+"/abort", map[string]any{}, nil); err != nil {
					c.log.Debug("abort", "err", err)
				}
			}()
			t := time.NewTimer(c.cfg.Interrupt())
			defer t.Stop()
			grace = t.C
		case <-grace:
			// The server is shared by the directory's sessions, but one
			// that cannot end a turn cannot be trusted with the others.
			_ = c.srv.cp.Kill()
			return nil, errors.Join(context.Cause(turnCtx), fmt.Errorf("%w: the session did not go idle after abort; server killed", provider.ErrSessionDead))
		}
	}
}

func (c *process) turnErr(ctx context.Context, interrupted bool) error {
	if !interrupted && ctx.Err() == nil {
		return nil
	}
	return context.Cause(ctx)
}

// handle processes one bus event; it returns the turn's result once the
// session has gone idle after working on the prompt.
func (c *process) handle(ctx context.Context, ev busEvent, st *turnState, interrupted bool, ask provider.PermissionFunc, deliver func(*event.EventWithMeta) error) *event.TurnResult {
	var p props
	if json.Unmarshal(ev.Properties, &p) != nil {
		return nil
	}
	sid := p.SessionID
	if sid == "" && p.Part != nil {
		sid = p.Part.SessionID
	}
	if sid == "" && p.Info != nil {
		sid = p.Info.SessionID
	}
	if sid != c.sessionID {
		return nil
	}
	switch ev.Type {
	case "message.updated":
		if p.Info != nil && p.Info.Role == "user" && st.prompt == "" && !c.seen[p.Info.ID] {
			st.prompt = p.Info.ID
		}
		if p.Info != nil {
			c.seen[p.Info.ID] = true
		}
		if p.Info != nil && p.Info.Role == "assistant" && p.Info.ParentID == st.prompt && st.prompt != "" {
			st.assistant[p.Info.ID] = true
			if p.Info.ModelID != "" {
				st.tr.Model = p.Info.ModelID
				c.infoMu.Lock()
				c.info.Model = p.Info.ModelID
				c.infoMu.Unlock()
			}
		}
	case "message.part.updated":
		c.part(p.Part, st, deliver)
	case "permission.asked":
		for _, e := range st.flush() {
			deliver(e)
		}
		c.permit(ctx, p, st, interrupted, ask)
	case "session.error":
		if p.Error != nil && p.Error.Name != "MessageAbortedError" {
			msg := p.Error.Data.Message
			if msg == "" {
				msg = p.Error.Name
			}
			deliver(event.NewEventWithMeta(event.TypeError, msg, st.meta(&event.EventMeta{Status: "error", ErrorMsg: msg})))
			st.tr.IsError, st.tr.Subtype = true, "error_during_execution"
		}
	case "session.status":
		if p.Status != nil && p.Status.Type == "busy" && st.prompt != "" {
			st.busy = true
		}
	case "session.idle":
		if !st.busy {
			return nil // an earlier turn's end, before the prompt was taken up
		}
		for _, e := range st.flush() {
			deliver(e)
		}
		tr := st.tr
		if tr.Subtype == "" {
			tr.Subtype = "success"
		}
		tr.Result = st.answer.String()
		tr.DurationMs = time.Since(st.start).Milliseconds()
		tr.NumTurns = 1
		return &tr
	}
	return nil
}

// part handles one updated message part.
func (c *process) part(pt *part, st *turnState, deliver func(*event.EventWithMeta) error) {
	if pt == nil {
		return
	}
	switch pt.Type {
	case "text", "reasoning":
		if !st.assistant[pt.MessageID] {
			return // the prompt's own parts
		}
		if _, ok := st.texts[pt.ID]; !ok {
			st.order = append(st.order, pt.ID)
		}
		st.texts[pt.ID], st.kinds[pt.ID] = pt.Text, pt.Type
	case "step-finish":
		// A step's figures are its own (OpenCode keeps no running total),
		// so the turn's are their sum; a part announced twice counts once.
		if !st.assistant[pt.MessageID] || st.counted[pt.ID] {
			return
		}
		st.counted[pt.ID] = true
		st.tr.InputTokens += pt.Tokens.Input
		st.tr.OutputTokens += pt.Tokens.Output
		st.tr.CacheRead += pt.Tokens.Cache.Read
		st.tr.CacheWrite += pt.Tokens.Cache.Write
		st.tr.CostUSD += pt.Cost
	case "tool":
		if !st.assistant[pt.MessageID] {
			return
		}
		for _, e := range st.flush() {
			deliver(e)
		}
		st.tools[pt.CallID] = pt
		name, input := toolName(pt.Tool), pt.State.Input
		if input == nil {
			input = map[string]any{}
		}
		s := pt.State.Status
		if !st.used[pt.CallID] && (s == "running" || s == "completed" || s == "error") {
			st.used[pt.CallID] = true
			st.began[pt.CallID] = time.Now()
			e := event.NewEventWithMeta(event.TypeToolUse, name, st.meta(&event.EventMeta{
				ToolName: name, ToolID: pt.CallID, Status: "running", InputSummary: summary(input)}))
			e.Input = input
			deliver(e)
		}
		if (s == "completed" || s == "error") && !st.resulted[pt.CallID] {
			st.resulted[pt.CallID] = true
			m := &event.EventMeta{ToolName: name, ToolID: pt.CallID, Status: "success", DurationMs: time.Since(st.began[pt.CallID]).Milliseconds()}
			text := pt.State.Output
			if s == "error" {
				text = pt.State.Error
				m.Status, m.ErrorMsg = "error", text
			}
			deliver(event.NewEventWithMeta(event.TypeToolResult, text, st.meta(m)))
		}
	}
}

// toolName names OpenCode's tools the way HotPlex's firewall reads them.
func toolName(t string) string {
	switch t {
	case "bash":
		return "Bash"
	case "edit":
		return "Edit"
	case "write":
		return "Write"
	case "read":
		return "Read"
	}
	return t
}

func summary(in map[string]any) string {
	for _, k := range []string{"command", "filePath", "file_path", "path", "pattern", "url"} {
		if s, ok := in[k].(string); ok && s != "" {
			if len(s) > 200 {
				s = s[:200] + "…"
			}
			return s
		}
	}
	return ""
}

// permit answers one permission request through ask.
func (c *process) permit(ctx context.Context, p props, st *turnState, interrupted bool, ask provider.PermissionFunc) {
	input := map[string]any{}
	toolID := ""
	if p.Tool != nil {
		toolID = p.Tool.CallID
		if pt := st.tools[toolID]; pt != nil {
			for k, v := range pt.State.Input {
				input[k] = v
			}
		}
	}
	for k, v := range p.Metadata {
		if _, set := input[k]; !set {
			input[k] = v
		}
	}
	name := toolName(p.Permission)
	if name == "Bash" {
		if _, ok := input["command"].(string); !ok && len(p.Patterns) > 0 {
			input["command"] = strings.Join(p.Patterns, " ")
		}
	}
	if fp, ok := input["filePath"].(string); ok {
		input["file_path"] = fp
	}
	reply := "reject"
	if !interrupted && ctx.Err() == nil {
		d := provider.ToolDecision{Behavior: provider.Allow}
		if ask != nil {
			d = ask(ctx, provider.ToolRequest{Kind: provider.CanUseTool, RequestID: p.ID, ToolName: name, ToolUseID: toolID, Input: input})
		}
		if d.Behavior == provider.Allow && ctx.Err() == nil {
			reply = "once"
		}
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := c.do(rctx, http.MethodPost, "/permission/"+p.ID+"/reply", map[string]any{"reply": reply}, nil); err != nil {
		c.log.Debug("permission reply", "err", err)
	}
}
