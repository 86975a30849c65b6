package acp

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/hotplex/hotplex/event"
)

// decoder turns one turn's session updates into normalized events. Text
// and thought chunks are gathered into one event per block, flushed when
// something else arrives or the turn ends.
type decoder struct {
	start  time.Time
	model  string
	answer strings.Builder
	think  strings.Builder
	// text is the turn's whole answer, for the result.
	text strings.Builder
	// split is set when the answer block in text has ended (flushed), so
	// the next block starts a paragraph of its own.
	split bool
	// msgID is the agent message the answer chunks belong to, when the
	// agent names them.
	msgID string
	tools map[sdk.ToolCallId]*toolCall
	// cost is the session's cumulative cost as of the turn's last usage
	// update (negative: none came).
	cost float64
}

func newDecoder(start time.Time, model string) *decoder {
	return &decoder{start: start, model: model, tools: map[sdk.ToolCallId]*toolCall{}, cost: -1}
}

// toolCall is what is known of one tool call so far.
type toolCall struct {
	id       sdk.ToolCallId
	title    string
	kind     sdk.ToolKind
	rawInput any
	paths    []string
	began    time.Time
	used     bool // tool_use emitted
	resulted bool // tool_result emitted
}

func (d *decoder) meta(m *event.EventMeta) *event.EventMeta {
	m.TotalDurationMs = time.Since(d.start).Milliseconds()
	return m
}

// flush emits the gathered thought and answer text.
func (d *decoder) flush() []*event.EventWithMeta {
	var out []*event.EventWithMeta
	if d.think.Len() > 0 {
		out = append(out, event.NewEventWithMeta(event.TypeThinking, d.think.String(), d.meta(&event.EventMeta{Status: "success"})))
		d.think.Reset()
	}
	if d.answer.Len() > 0 {
		out = append(out, event.NewEventWithMeta(event.TypeAnswer, d.answer.String(), d.meta(&event.EventMeta{Status: "success"})))
		d.answer.Reset()
		d.split = true
	}
	return out
}

func blockText(b sdk.ContentBlock) string {
	switch {
	case b.Text != nil:
		return b.Text.Text
	case b.ResourceLink != nil:
		return b.ResourceLink.Uri
	}
	return ""
}

// update handles one session update.
func (d *decoder) update(u sdk.SessionUpdate) []*event.EventWithMeta {
	switch {
	case u.AgentMessageChunk != nil:
		var out []*event.EventWithMeta
		// A new message ID starts a new answer block.
		if id := u.AgentMessageChunk.MessageId; id != nil {
			if *id != d.msgID && d.answer.Len() > 0 {
				out = d.flush()
			}
			d.msgID = *id
		}
		if d.think.Len() > 0 {
			out = append(out, d.flush()...)
		}
		d.addAnswer(blockText(u.AgentMessageChunk.Content))
		return out
	case u.AgentThoughtChunk != nil:
		var out []*event.EventWithMeta
		if d.answer.Len() > 0 {
			out = d.flush()
		}
		d.think.WriteString(blockText(u.AgentThoughtChunk.Content))
		return out
	case u.ToolCall != nil:
		t := u.ToolCall
		tc := d.tool(t.ToolCallId)
		tc.title, tc.kind = t.Title, t.Kind
		if !emptyInput(t.RawInput) {
			tc.rawInput = t.RawInput
		}
		tc.addLocations(t.Locations)
		return append(d.flush(), d.progress(tc, t.Status, t.Content, t.RawOutput)...)
	case u.ToolCallUpdate != nil:
		t := u.ToolCallUpdate
		tc := d.tool(t.ToolCallId)
		if t.Title != nil && *t.Title != "" {
			tc.title = *t.Title
		}
		if t.Kind != nil {
			tc.kind = *t.Kind
		}
		if !emptyInput(t.RawInput) {
			tc.rawInput = t.RawInput
		}
		tc.addLocations(t.Locations)
		var status sdk.ToolCallStatus
		if t.Status != nil {
			status = *t.Status
		}
		return append(d.flush(), d.progress(tc, status, t.Content, t.RawOutput)...)
	case u.Plan != nil:
		var b strings.Builder
		done := 0
		for _, e := range u.Plan.Entries {
			mark := "[ ]"
			switch e.Status {
			case "completed":
				mark = "[x]"
				done++
			case "in_progress":
				mark = "[~]"
			}
			fmt.Fprintf(&b, "%s %s\n", mark, e.Content)
		}
		m := &event.EventMeta{Status: "running", TotalSteps: int32(len(u.Plan.Entries)), CurrentStep: int32(done)}
		return append(d.flush(), event.NewEventWithMeta(event.TypeSystem, "plan:\n"+b.String(), d.meta(m)))
	case u.UsageUpdate != nil:
		if c := u.UsageUpdate.Cost; c != nil && strings.EqualFold(c.Currency, "USD") {
			d.cost = c.Amount
		}
	}
	return nil
}

func (d *decoder) addAnswer(s string) {
	if s == "" {
		return
	}
	if d.split && d.text.Len() > 0 {
		d.text.WriteString("\n\n")
	}
	d.split = false
	d.answer.WriteString(s)
	d.text.WriteString(s)
}

func (d *decoder) tool(id sdk.ToolCallId) *toolCall {
	tc, ok := d.tools[id]
	if !ok {
		tc = &toolCall{id: id, began: time.Now()}
		d.tools[id] = tc
	}
	return tc
}

// noteToolCall records what a permission request says of a tool call.
func (d *decoder) noteToolCall(t sdk.ToolCallUpdate) *toolCall {
	tc := d.tool(t.ToolCallId)
	if t.Title != nil && *t.Title != "" {
		tc.title = *t.Title
	}
	if t.Kind != nil {
		tc.kind = *t.Kind
	}
	if !emptyInput(t.RawInput) {
		tc.rawInput = t.RawInput
	}
	tc.addLocations(t.Locations)
	return tc
}

// progress emits tool_use once the call is under way (or its input is
// known) and tool_result once it has finished.
func (d *decoder) progress(tc *toolCall, status sdk.ToolCallStatus, content []sdk.ToolCallContent, rawOutput any) []*event.EventWithMeta {
	var out []*event.EventWithMeta
	finished := status == sdk.ToolCallStatusCompleted || status == sdk.ToolCallStatusFailed
	if !tc.used && (finished || status == sdk.ToolCallStatusInProgress || tc.inputKnown()) {
		tc.used = true
		ev := event.NewEventWithMeta(event.TypeToolUse, tc.name(), d.meta(&event.EventMeta{
			ToolName: tc.name(), ToolID: string(tc.id), Status: "running", InputSummary: tc.summary(), FilePath: tc.path(),
		}))
		ev.Input = tc.input()
		out = append(out, ev)
	}
	if finished && !tc.resulted {
		tc.resulted = true
		text := contentText(content)
		if text == "" {
			text = outputText(rawOutput)
		}
		m := &event.EventMeta{ToolName: tc.name(), ToolID: string(tc.id), Status: "success",
			DurationMs: time.Since(tc.began).Milliseconds(), OutputSummary: truncate(text, 200), FilePath: tc.path()}
		if status == sdk.ToolCallStatusFailed {
			m.Status, m.ErrorMsg = "error", truncate(text, 500)
		}
		out = append(out, event.NewEventWithMeta(event.TypeToolResult, text, d.meta(m)))
	}
	return out
}

// result builds the turn's result from the prompt's answer. spent is the
// session's cumulative cost before the turn, which it brings up to date:
// ACP's usage_update reports the session's cost so far, and the turn's own
// is the difference. The response's usage is the turn's own.
func (d *decoder) result(r sdk.PromptResponse, spent *float64) *event.TurnResult {
	tr := &event.TurnResult{
		Subtype:    "success",
		Result:     d.text.String(),
		DurationMs: time.Since(d.start).Milliseconds(),
		NumTurns:   1,
		Model:      d.model,
	}
	if d.cost >= 0 {
		tr.CostUSD = d.cost - *spent
		if tr.CostUSD < 0 { // the agent's counter began again
			tr.CostUSD = d.cost
		}
		*spent = d.cost
	}
	switch r.StopReason {
	case sdk.StopReasonEndTurn, "":
	case sdk.StopReasonCancelled:
		tr.Interrupted = true
	case sdk.StopReasonMaxTokens:
		tr.Subtype = "error_max_tokens"
	case sdk.StopReasonMaxTurnRequests:
		tr.Subtype = "error_max_turns"
		tr.IsError = true
	case sdk.StopReasonRefusal:
		tr.Subtype = "refusal"
		tr.IsError = true
	default:
		tr.Subtype = string(r.StopReason)
	}
	if u := r.Usage; u != nil {
		tr.InputTokens, tr.OutputTokens = int32(u.InputTokens), int32(u.OutputTokens)
		if u.CachedReadTokens != nil {
			tr.CacheRead = int32(*u.CachedReadTokens)
		}
		if u.CachedWriteTokens != nil {
			tr.CacheWrite = int32(*u.CachedWriteTokens)
		}
	}
	return tr
}

func (tc *toolCall) addLocations(locs []sdk.ToolCallLocation) {
	for _, l := range locs {
		if l.Path != "" {
			tc.paths = append(tc.paths, l.Path)
		}
	}
}

// inputKnown reports whether the raw input says what the tool will do:
// some agents first announce a shell call with only its directory.
func (tc *toolCall) inputKnown() bool {
	if tc.rawInput == nil {
		return false
	}
	return tc.kind != sdk.ToolKindExecute || tc.command() != ""
}

func (tc *toolCall) rawMap() map[string]any {
	m, _ := tc.rawInput.(map[string]any)
	return m
}

// name is the tool's name in HotPlex's vocabulary, so that the firewall
// and statistics see shell commands and file edits for what they are.
func (tc *toolCall) name() string {
	switch tc.kind {
	case sdk.ToolKindExecute:
		return "Bash"
	case sdk.ToolKindEdit, sdk.ToolKindDelete, sdk.ToolKindMove:
		return "Edit"
	case sdk.ToolKindRead:
		return "Read"
	case sdk.ToolKindSearch:
		return "Grep"
	case sdk.ToolKindFetch:
		return "WebFetch"
	}
	if tc.command() != "" {
		return "Bash"
	}
	if tc.title != "" {
		return tc.title
	}
	return "tool"
}

// command is the shell command of an execute call: from the raw input's
// command (a string, or an argv whose last word is a shell script) or cmd.
func (tc *toolCall) command() string {
	m := tc.rawMap()
	for _, k := range []string{"command", "cmd"} {
		switch v := m[k].(type) {
		case string:
			if v != "" {
				return v
			}
		case []any:
			var words []string
			for _, w := range v {
				if s, ok := w.(string); ok {
					words = append(words, s)
				}
			}
			if len(words) >= 3 && (words[len(words)-2] == "-c" || words[len(words)-2] == "-lc") {
				return words[len(words)-1]
			}
			if len(words) > 0 {
				return strings.Join(words, " ")
			}
		}
	}
	return ""
}

func (tc *toolCall) path() string {
	m := tc.rawMap()
	for _, k := range []string{"file_path", "filePath", "path", "absolute_path"} {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	if len(tc.paths) > 0 {
		return tc.paths[0]
	}
	return ""
}

// input is the tool's input for events and permission requests: the raw
// input with the command or file path under the names HotPlex's firewall
// reads.
func (tc *toolCall) input() map[string]any {
	in := map[string]any{}
	for k, v := range tc.rawMap() {
		in[k] = v
	}
	switch tc.name() {
	case "Bash":
		cmd := tc.command()
		if cmd == "" {
			cmd = strings.Trim(tc.title, "`")
		}
		in["command"] = cmd
	case "Edit", "Read":
		if p := tc.path(); p != "" {
			in["file_path"] = p
		}
	}
	if tc.title != "" {
		in["title"] = tc.title
	}
	return in
}

func (tc *toolCall) summary() string {
	switch tc.name() {
	case "Bash":
		if c := tc.command(); c != "" {
			return truncate(c, 200)
		}
	case "Edit", "Read":
		if p := tc.path(); p != "" {
			return p
		}
	}
	return truncate(tc.title, 200)
}

func emptyInput(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(v) == 0
	}
	return false
}

func contentText(cs []sdk.ToolCallContent) string {
	var parts []string
	for _, c := range cs {
		switch {
		case c.Content != nil:
			if t := blockText(c.Content.Content); t != "" {
				parts = append(parts, t)
			}
		case c.Diff != nil:
			parts = append(parts, "edited "+c.Diff.Path)
		}
	}
	return strings.Join(parts, "\n")
}

func outputText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case map[string]any:
		for _, k := range []string{"output", "stdout", "formatted_output", "aggregated_output", "result"} {
			if s, ok := v[k].(string); ok && s != "" {
				return s
			}
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
