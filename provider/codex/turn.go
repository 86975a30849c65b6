package codex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/internal/mailbox"
)

// queue carries the server's messages during a turn from the reader
// goroutine to the goroutine running Turn.
type queue = mailbox.Box[message]

// inbound receives the server's requests and notifications. Between turns
// requests are declined and notifications dropped.
func (c *process) inbound(m message) {
	if q := c.cur.Current(); q != nil {
		q.Push(m)
		return
	}
	if m.ID != nil {
		c.declineIdle(m)
	}
}

func (c *process) declineIdle(m message) {
	switch m.Method {
	case "item/commandExecution/requestApproval", "item/fileChange/requestApproval":
		_ = c.rpc.reply(m.ID, map[string]any{"decision": "decline"})
	default:
		_ = c.rpc.fail(m.ID, -32601, "HotPlex does not handle "+m.Method)
	}
}

// item is the part of a thread item HotPlex reads.
type item struct {
	Type             string   `json:"type"`
	ID               string   `json:"id"`
	Text             string   `json:"text"`
	Summary          []string `json:"summary"`
	Content          []string `json:"content"`
	Command          string   `json:"command"`
	Cwd              string   `json:"cwd"`
	Status           string   `json:"status"`
	AggregatedOutput *string  `json:"aggregatedOutput"`
	ExitCode         *int     `json:"exitCode"`
	DurationMs       *int64   `json:"durationMs"`
	Changes          []struct {
		Path string `json:"path"`
		Kind any    `json:"kind"`
	} `json:"changes"`
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Error     json.RawMessage `json:"error"`
}

type usage struct {
	TotalTokens       int32 `json:"totalTokens"`
	InputTokens       int32 `json:"inputTokens"`
	CachedInputTokens int32 `json:"cachedInputTokens"`
	CacheWriteTokens  int32 `json:"cacheWriteInputTokens"`
	OutputTokens      int32 `json:"outputTokens"`
}

type turnInfo struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
	DurationMs *int64 `json:"durationMs"`
}

type notice struct {
	ThreadID   string   `json:"threadId"`
	TurnID     string   `json:"turnId"`
	Item       *item    `json:"item"`
	Turn       turnInfo `json:"turn"`
	TokenUsage *struct {
		Total usage `json:"total"`
		Last  usage `json:"last"`
	} `json:"tokenUsage"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
	WillRetry bool `json:"willRetry"`
	// approvals
	ItemID  string `json:"itemId"`
	Command string `json:"command"`
	Cwd     string `json:"cwd"`
	Reason  string `json:"reason"`
	// plan
	Plan []struct {
		Step   string `json:"step"`
		Status string `json:"status"`
	} `json:"plan"`
}

// turnState is what one turn has seen so far.
type turnState struct {
	start    time.Time
	id       string
	items    map[string]*item
	began    map[string]time.Time
	text     strings.Builder
	baseline usage
	// spent sums the turn's model calls (each update's last), when the
	// updates name the turn: a resumed thread's total includes every
	// earlier turn's (verified with codex app-server: the first turn
	// after a resume reported the whole thread), so total minus the
	// baseline is only the fallback.
	spent    usage
	hasSpent bool
}

func (s *turnState) meta(m *event.EventMeta) *event.EventMeta {
	m.TotalDurationMs = time.Since(s.start).Milliseconds()
	return m
}

// Turn starts a turn with turn/start and reports its items until
// turn/completed. When ctx ends it sends turn/interrupt and waits for the
// turn's end for the interrupt grace, then kills the process.
func (c *process) Turn(ctx context.Context, prompt string, ask provider.PermissionFunc, emit provider.Emit) (*event.TurnResult, error) {
	if !c.turnMu.TryLock() {
		return nil, provider.ErrBusy
	}
	defer c.turnMu.Unlock()
	if !c.Alive() {
		return nil, c.deadErr("exited between turns")
	}
	st := &turnState{start: time.Now(), items: map[string]*item{}, began: map[string]time.Time{}, baseline: c.total}
	q := c.cur.Open()
	defer func() {
		c.cur.Close(q)
		// Requests still queued get an answer, so that nothing waits.
		for _, m := range q.Take() {
			if m.ID != nil {
				c.declineIdle(m)
			}
		}
	}()

	turnCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		select {
		case <-q.Aborted():
			if err := q.Cause(); err != nil {
				cancel(err)
			}
		case <-turnCtx.Done():
		}
	}()

	var started struct {
		Turn turnInfo `json:"turn"`
	}
	input := []map[string]any{{"type": "text", "text": prompt, "text_elements": []any{}}}
	if err := c.rpc.call(turnCtx, "turn/start", map[string]any{"threadId": c.threadID, "input": input}, &started); err != nil {
		if !c.Alive() {
			return nil, c.deadErr("exited at turn/start")
		}
		return nil, fmt.Errorf("turn/start: %w", err)
	}
	st.id = started.Turn.ID
	c.setRunning(st.id)
	defer c.setRunning("")

	var (
		interrupted bool
		grace       <-chan time.Time
	)
	deliver := provider.Deliverer(turnCtx, emit, cancel)
	cancelled := turnCtx.Done()
	for {
		select {
		case <-q.Ready():
			for _, m := range q.Take() {
				if tr := c.handle(turnCtx, m, st, interrupted, ask, deliver); tr != nil {
					tr.Interrupted = tr.Interrupted || interrupted
					err := c.turnErr(turnCtx, interrupted)
					if err == nil && tr.IsError {
						return tr, nil
					}
					return tr, err
				}
			}
		case <-c.rpc.done:
			return nil, errors.Join(c.turnErr(turnCtx, interrupted), c.deadErr("exited during the turn"))
		case <-cancelled:
			cancelled = nil
			interrupted = true
			go func() {
				ictx, icancel := context.WithTimeout(context.WithoutCancel(ctx), c.cfg.Interrupt())
				defer icancel()
				if err := c.rpc.call(ictx, "turn/interrupt", map[string]any{"threadId": c.threadID, "turnId": st.id}, nil); err != nil {
					c.log.Debug("turn/interrupt", "err", err)
				}
			}()
			t := time.NewTimer(c.cfg.Interrupt())
			defer t.Stop()
			grace = t.C
		case <-grace:
			_ = c.cp.Kill()
			return nil, errors.Join(context.Cause(turnCtx), fmt.Errorf("%w: turn did not end within %s of turn/interrupt; process killed", provider.ErrSessionDead, c.cfg.Interrupt()))
		}
	}
}

func (c *process) turnErr(ctx context.Context, interrupted bool) error {
	if !interrupted && ctx.Err() == nil {
		return nil
	}
	return context.Cause(ctx)
}

// handle processes one server message of the turn. It returns the turn's
// result once the turn has completed.
func (c *process) handle(ctx context.Context, m message, st *turnState, interrupted bool, ask provider.PermissionFunc, deliver func(*event.EventWithMeta) error) *event.TurnResult {
	var n notice
	_ = json.Unmarshal(m.Params, &n)
	if n.ThreadID != "" && n.ThreadID != c.threadID {
		if m.ID != nil {
			c.declineIdle(m)
		}
		return nil
	}
	if m.ID == nil && n.TurnID != "" && st.id != "" && n.TurnID != st.id {
		return nil // the tail of an earlier, interrupted turn
	}
	if m.ID != nil {
		c.approve(ctx, m, n, st, interrupted, ask)
		return nil
	}
	switch m.Method {
	case "turn/started":
		if st.id == "" {
			st.id = n.Turn.ID
		}
	case "item/started":
		if n.Item == nil {
			return nil
		}
		it := *n.Item
		st.items[it.ID] = &it
		st.began[it.ID] = time.Now()
		if ev := toolUse(st, &it); ev != nil {
			deliver(ev)
		}
	case "item/completed":
		if n.Item == nil {
			return nil
		}
		for _, ev := range completed(st, n.Item) {
			deliver(ev)
		}
	case "turn/plan/updated":
		var b strings.Builder
		done := 0
		for _, p := range n.Plan {
			mark := "[ ]"
			switch p.Status {
			case "completed":
				mark = "[x]"
				done++
			case "inProgress":
				mark = "[~]"
			}
			fmt.Fprintf(&b, "%s %s\n", mark, p.Step)
		}
		deliver(event.NewEventWithMeta(event.TypeSystem, "plan:\n"+b.String(), st.meta(&event.EventMeta{
			Status: "running", TotalSteps: int32(len(n.Plan)), CurrentStep: int32(done)})))
	case "thread/tokenUsage/updated":
		if n.TokenUsage != nil {
			c.total = n.TokenUsage.Total
			if n.TurnID != "" && n.TurnID == st.id {
				l := n.TokenUsage.Last
				st.spent.InputTokens += l.InputTokens
				st.spent.OutputTokens += l.OutputTokens
				st.spent.CachedInputTokens += l.CachedInputTokens
				st.spent.CacheWriteTokens += l.CacheWriteTokens
				st.hasSpent = true
			}
		}
	case "error":
		if n.Error != nil && !n.WillRetry {
			deliver(event.NewEventWithMeta(event.TypeError, n.Error.Message, st.meta(&event.EventMeta{Status: "error", ErrorMsg: n.Error.Message})))
		}
	case "turn/completed":
		if st.id != "" && n.Turn.ID != "" && n.Turn.ID != st.id {
			return nil // the end of an earlier turn
		}
		return c.result(st, n.Turn)
	}
	return nil
}

func (c *process) result(st *turnState, t turnInfo) *event.TurnResult {
	tr := &event.TurnResult{
		Subtype:    "success",
		Result:     st.text.String(),
		DurationMs: time.Since(st.start).Milliseconds(),
		NumTurns:   1,
		Model:      c.Info().Model,
	}
	d := usage{
		InputTokens:       c.total.InputTokens - st.baseline.InputTokens,
		OutputTokens:      c.total.OutputTokens - st.baseline.OutputTokens,
		CachedInputTokens: c.total.CachedInputTokens - st.baseline.CachedInputTokens,
		CacheWriteTokens:  c.total.CacheWriteTokens - st.baseline.CacheWriteTokens,
	}
	if st.hasSpent {
		d = st.spent
	}
	tr.InputTokens, tr.OutputTokens = max(d.InputTokens, 0), max(d.OutputTokens, 0)
	tr.CacheRead, tr.CacheWrite = max(d.CachedInputTokens, 0), max(d.CacheWriteTokens, 0)
	switch t.Status {
	case "interrupted":
		tr.Interrupted = true
	case "failed":
		tr.Subtype, tr.IsError = "error_during_execution", true
		if t.Error != nil {
			tr.Result = t.Error.Message
		}
	}
	return tr
}

// toolUse is the tool_use event of an item that runs something.
func toolUse(st *turnState, it *item) *event.EventWithMeta {
	name, input, summary, path := describeItem(it)
	if name == "" {
		return nil
	}
	ev := event.NewEventWithMeta(event.TypeToolUse, name, st.meta(&event.EventMeta{
		ToolName: name, ToolID: it.ID, Status: "running", InputSummary: summary, FilePath: path,
	}))
	ev.Input = input
	return ev
}

// describeItem names an item the way HotPlex names tools.
func describeItem(it *item) (name string, input map[string]any, summary, path string) {
	switch it.Type {
	case "commandExecution":
		return "Bash", map[string]any{"command": it.Command, "cwd": it.Cwd}, truncate(it.Command, 200), ""
	case "fileChange":
		var paths []any
		for _, ch := range it.Changes {
			paths = append(paths, ch.Path)
		}
		if len(it.Changes) > 0 {
			path = it.Changes[0].Path
		}
		return "Edit", map[string]any{"file_path": path, "paths": paths}, path, path
	case "mcpToolCall", "dynamicToolCall":
		var args map[string]any
		_ = json.Unmarshal(it.Arguments, &args)
		n := it.Tool
		if it.Server != "" {
			n = "mcp__" + it.Server + "__" + it.Tool
		}
		return n, args, truncate(string(it.Arguments), 200), ""
	case "webSearch":
		return "WebSearch", map[string]any{}, "", ""
	}
	return "", nil, "", ""
}

// completed is what a finished item adds to the turn's events.
func completed(st *turnState, it *item) []*event.EventWithMeta {
	switch it.Type {
	case "agentMessage":
		if it.Text == "" {
			return nil
		}
		if st.text.Len() > 0 {
			// Each agent message is a block of its own, as Claude's are.
			st.text.WriteString("\n\n")
		}
		st.text.WriteString(it.Text)
		return []*event.EventWithMeta{event.NewEventWithMeta(event.TypeAnswer, it.Text, st.meta(&event.EventMeta{Status: "success"}))}
	case "reasoning":
		text := strings.Join(append(append([]string(nil), it.Summary...), it.Content...), "\n")
		if text == "" {
			return nil
		}
		return []*event.EventWithMeta{event.NewEventWithMeta(event.TypeThinking, text, st.meta(&event.EventMeta{Status: "success"}))}
	}
	name, _, _, path := describeItem(it)
	if name == "" {
		return nil
	}
	var out []*event.EventWithMeta
	if _, seen := st.items[it.ID]; !seen {
		st.items[it.ID] = it
		st.began[it.ID] = time.Now()
		out = append(out, toolUse(st, it))
	}
	text := ""
	if it.AggregatedOutput != nil {
		text = *it.AggregatedOutput
	} else if it.Type == "fileChange" {
		text = "edited " + path
	}
	m := &event.EventMeta{ToolName: name, ToolID: it.ID, Status: "success", OutputSummary: truncate(text, 200), FilePath: path}
	if it.DurationMs != nil {
		m.DurationMs = *it.DurationMs
	} else {
		m.DurationMs = time.Since(st.began[it.ID]).Milliseconds()
	}
	switch {
	case it.Status == "failed" || it.Status == "declined":
		m.Status, m.ErrorMsg = "error", it.Status
	case it.ExitCode != nil && *it.ExitCode != 0:
		m.Status, m.ErrorMsg = "error", fmt.Sprintf("exit code %d", *it.ExitCode)
	}
	return append(out, event.NewEventWithMeta(event.TypeToolResult, text, st.meta(m)))
}

// approve answers a command or file-change approval through ask.
func (c *process) approve(ctx context.Context, m message, n notice, st *turnState, interrupted bool, ask provider.PermissionFunc) {
	var reqs []provider.ToolRequest
	switch m.Method {
	case "item/commandExecution/requestApproval":
		cmd := n.Command
		if cmd == "" {
			if it := st.items[n.ItemID]; it != nil {
				cmd = it.Command
			}
		}
		reqs = append(reqs, provider.ToolRequest{Kind: provider.CanUseTool, RequestID: n.ItemID, ToolName: "Bash", ToolUseID: n.ItemID,
			Input: map[string]any{"command": cmd, "cwd": n.Cwd, "reason": n.Reason}})
	case "item/fileChange/requestApproval":
		it := st.items[n.ItemID]
		if it == nil || len(it.Changes) == 0 {
			reqs = append(reqs, provider.ToolRequest{Kind: provider.CanUseTool, RequestID: n.ItemID, ToolName: "Edit", ToolUseID: n.ItemID,
				Input: map[string]any{"reason": n.Reason}})
		}
		if it != nil {
			for _, ch := range it.Changes {
				reqs = append(reqs, provider.ToolRequest{Kind: provider.CanUseTool, RequestID: n.ItemID, ToolName: "Edit", ToolUseID: n.ItemID,
					Input: map[string]any{"file_path": ch.Path}})
			}
		}
	case "mcpServer/elicitation/request":
		// Codex asks before it calls an MCP server's tool; any other
		// question of an MCP server (a form to fill) has no one to
		// answer it.
		var el struct {
			ServerName string `json:"serverName"`
			Meta       struct {
				Kind   string         `json:"codex_approval_kind"`
				Tool   string         `json:"tool_name"`
				Params map[string]any `json:"tool_params"`
			} `json:"_meta"`
		}
		_ = json.Unmarshal(m.Params, &el)
		if el.Meta.Kind != "mcp_tool_call" || el.Meta.Tool == "" {
			_ = c.rpc.reply(m.ID, map[string]any{"action": "decline", "content": nil})
			return
		}
		input := el.Meta.Params
		if input == nil {
			input = map[string]any{}
		}
		d := provider.ToolDecision{Behavior: provider.Allow}
		if ask != nil && !interrupted && ctx.Err() == nil {
			d = ask(ctx, provider.ToolRequest{Kind: provider.CanUseTool, RequestID: string(*m.ID), ToolName: "mcp__" + el.ServerName + "__" + el.Meta.Tool, Input: input})
		}
		action := "accept"
		switch {
		case interrupted || ctx.Err() != nil:
			action = "cancel"
		case d.Behavior != provider.Allow:
			action = "decline"
		}
		if err := c.rpc.reply(m.ID, map[string]any{"action": action, "content": map[string]any{}}); err != nil {
			c.log.Debug("answering an MCP tool approval", "err", err)
		}
		return
	default:
		_ = c.rpc.fail(m.ID, -32601, "HotPlex does not handle "+m.Method)
		return
	}
	decision := "accept"
	if interrupted || ctx.Err() != nil {
		decision = "cancel"
	}
	for _, r := range reqs {
		if decision != "accept" {
			break
		}
		d := provider.ToolDecision{Behavior: provider.Allow}
		if ask != nil {
			d = ask(ctx, r)
		}
		if ctx.Err() != nil {
			decision = "cancel"
		} else if d.Behavior != provider.Allow {
			decision = "decline"
		}
	}
	if err := c.rpc.reply(m.ID, map[string]any{"decision": decision}); err != nil {
		c.log.Debug("answering an approval", "err", err)
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
