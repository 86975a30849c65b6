package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hotplex/hotplex/event"
)

// decoder turns stream-json frames into normalized events. It remembers
// the tool calls of the turn so that results can name their tool and
// report how long it ran. One decoder serves one process, used by one
// turn at a time.
type decoder struct {
	now       func() time.Time
	lastEvent time.Time
	tools     map[string]toolCall
	model     string
	// streamed records the API messages whose text already went out as
	// deltas (--include-partial-messages), so their complete blocks are
	// not delivered a second time.
	streamed map[string]bool
	// spentUSD and apiMs are the process's cumulative figures as of the
	// last result: the CLI reports total_cost_usd and duration_api_ms
	// counted from its start, so a turn's own are the differences. A
	// process started with --resume counts from zero again, and a new
	// process gets a new decoder.
	spentUSD float64
	apiMs    int64
}

type toolCall struct {
	name  string
	start time.Time
}

func newDecoder(now func() time.Time) *decoder {
	return &decoder{now: now, tools: map[string]toolCall{}, streamed: map[string]bool{}}
}

// maxPendingTools bounds the tool calls remembered while awaiting results.
// Results normally follow soon; a sub-agent's may arrive turns later.
const maxPendingTools = 1024

// startTurn resets the per-turn timing. Pending tool calls are kept: a
// background sub-agent's results can arrive during a later turn.
func (d *decoder) startTurn() {
	d.lastEvent = d.now()
	if len(d.tools) > maxPendingTools {
		clear(d.tools)
	}
	if len(d.streamed) > maxPendingTools {
		clear(d.streamed)
	}
}

// parse decodes one line. Lines that are not JSON objects come back as a
// frame of type "" so that the caller reports them as raw events.
func parse(line []byte) *frame {
	var m frame
	if err := json.Unmarshal(line, &m); err != nil || m.Type == "" {
		return &frame{}
	}
	return &m
}

// events maps a frame to the events it carries. raw is the original line.
func (d *decoder) events(m *frame, raw []byte) []*event.EventWithMeta {
	switch m.Type {
	case "assistant":
		if m.Message == nil {
			break
		}
		if m.Message.Model != "" {
			d.model = m.Message.Model
		}
		return withParent(d.assistant(m.Message, d.streamed[m.Message.ID]), m.ParentToolUseID)
	case "user":
		if m.Message == nil {
			break
		}
		return withParent(d.user(m.Message, raw), m.ParentToolUseID)
	case "system":
		if m.Subtype == "init" && m.Model != "" {
			d.model = m.Model
		}
		ev := event.NewEventWithMeta(event.TypeSystem, m.Subtype, nil)
		ev.Raw = bytes.Clone(raw) // raw is the reader's buffer
		return []*event.EventWithMeta{ev}
	case "result":
		return nil // the process turns it into the turn's result
	case "stream_event":
		return withParent(d.delta(m), m.ParentToolUseID)
	}
	name := m.Type
	if name == "" {
		name = truncate(string(raw), 200)
	}
	ev := event.NewEventWithMeta(event.TypeRaw, name, nil)
	ev.Raw = rawJSON(raw)
	return []*event.EventWithMeta{ev}
}

// withParent marks the events of a sub-agent with the tool call that runs it.
func withParent(evs []*event.EventWithMeta, parent string) []*event.EventWithMeta {
	if parent != "" {
		for _, ev := range evs {
			ev.ParentToolUseID = parent
		}
	}
	return evs
}

// rawJSON keeps raw as JSON when it is, and quotes it as a string when not,
// so a raw event always marshals.
func rawJSON(raw []byte) json.RawMessage {
	if json.Valid(raw) {
		return bytes.Clone(raw)
	}
	b, _ := json.Marshal(truncate(string(raw), 4096))
	return b
}

// sinceLast is the time since the previous event, which is the best
// measure stream-json offers of how long a block took to produce.
func (d *decoder) sinceLast() int64 {
	now := d.now()
	ms := now.Sub(d.lastEvent).Milliseconds()
	d.lastEvent = now
	return ms
}

// delta turns a partial-message stream event into an answer or thinking
// delta (Meta.Status "delta"). The API's other stream events repeat what
// the complete assistant frames carry, so they produce nothing.
func (d *decoder) delta(m *frame) []*event.EventWithMeta {
	var se struct {
		Type  string `json:"type"`
		Delta struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			Thinking string `json:"thinking"`
		} `json:"delta"`
	}
	if json.Unmarshal(m.Event, &se) != nil || se.Type != "content_block_delta" {
		return nil
	}
	var ev *event.EventWithMeta
	switch se.Delta.Type {
	case "text_delta":
		ev = event.NewEventWithMeta(event.TypeAnswer, se.Delta.Text, &event.EventMeta{Status: "delta", DurationMs: d.sinceLast()})
	case "thinking_delta":
		ev = event.NewEventWithMeta(event.TypeThinking, se.Delta.Thinking, &event.EventMeta{Status: "delta", DurationMs: d.sinceLast()})
	default:
		return nil
	}
	if m.APIMessageID != "" {
		d.streamed[m.APIMessageID] = true
	}
	return []*event.EventWithMeta{ev}
}

// assistant maps an assistant frame's blocks. When the message's text was
// streamed as deltas, its text and thinking blocks are skipped.
func (d *decoder) assistant(msg *wireMessage, streamed bool) []*event.EventWithMeta {
	var out []*event.EventWithMeta
	for _, b := range msg.Content {
		switch b.Type {
		case "thinking", "redacted_thinking":
			if streamed {
				continue
			}
			out = append(out, event.NewEventWithMeta(event.TypeThinking, b.Thinking, &event.EventMeta{DurationMs: d.sinceLast()}))
		case "text":
			if b.Text == "" || streamed {
				continue
			}
			out = append(out, event.NewEventWithMeta(event.TypeAnswer, b.Text, &event.EventMeta{DurationMs: d.sinceLast()}))
		case "tool_use", "server_tool_use":
			d.sinceLast()
			d.tools[b.ID] = toolCall{name: b.Name, start: d.now()}
			meta := &event.EventMeta{ToolName: b.Name, ToolID: b.ID, Status: "running", InputSummary: summarizeInput(b.Name, b.Input)}
			if p, ok := event.ModifiedFile(b.Name, b.Input); ok {
				meta.FilePath = p
			} else if p, ok := b.Input["file_path"].(string); ok {
				meta.FilePath = p
			}
			ev := event.NewEventWithMeta(event.TypeToolUse, b.Name, meta)
			ev.Input = b.Input
			out = append(out, ev)
		}
	}
	return out
}

func (d *decoder) user(msg *wireMessage, raw []byte) []*event.EventWithMeta {
	var out []*event.EventWithMeta
	for _, b := range msg.Content {
		switch b.Type {
		case "tool_result":
			content := b.text()
			call, known := d.tools[b.ToolUseID]
			delete(d.tools, b.ToolUseID)
			meta := &event.EventMeta{ToolID: b.ToolUseID, ToolName: call.name, Status: "success",
				OutputSummary: truncate(content, 200), LineCount: int32(strings.Count(content, "\n"))}
			if content != "" && !strings.HasSuffix(content, "\n") {
				meta.LineCount++
			}
			if known {
				meta.DurationMs = d.now().Sub(call.start).Milliseconds()
			}
			if b.IsError {
				meta.Status = "error"
				meta.ErrorMsg = truncate(content, 500)
			}
			d.lastEvent = d.now()
			out = append(out, event.NewEventWithMeta(event.TypeToolResult, content, meta))
		case "text":
			// The CLI echoes markers such as "[Request interrupted by
			// user]" as user text; they are not the model's words.
			ev := event.NewEventWithMeta(event.TypeSystem, b.Text, nil)
			ev.Raw = bytes.Clone(raw)
			out = append(out, ev)
		}
	}
	return out
}

// turnResult reads a result frame.
func (d *decoder) turnResult(m *frame) *event.TurnResult {
	tr := &event.TurnResult{
		Subtype: m.Subtype, IsError: m.IsError, Result: m.Result,
		DurationMs: m.Duration, NumTurns: m.NumTurns, Model: d.model,
		CostUSD: sinceLast(m.TotalCostUSD, &d.spentUSD),
		APIMs:   sinceLast(m.DurationAPIMs, &d.apiMs),
	}
	if u := m.Usage; u != nil {
		tr.InputTokens, tr.OutputTokens = u.InputTokens, u.OutputTokens
		tr.CacheWrite, tr.CacheRead = u.CacheWriteInputTokens, u.CacheReadInputTokens
	}
	// modelUsage names the real model even when the CLI was started with
	// an alias; prefer the one that did the most work.
	best := int64(-1)
	for name, mu := range m.ModelUsage {
		if mu.OutputTokens > best {
			best, tr.Model = mu.OutputTokens, name
		}
	}
	return tr
}

// sinceLast returns how much the cumulative counter grew since *last and
// records its new value. A counter that went back began again.
func sinceLast[N int64 | float64](cum N, last *N) N {
	d := cum - *last
	if d < 0 {
		d = cum
	}
	*last = cum
	return d
}

// summarizeInput gives a one-line, human-readable view of a tool's input.
func summarizeInput(tool string, in map[string]any) string {
	for _, key := range []string{"command", "file_path", "notebook_path", "pattern", "url", "query", "path", "description", "prompt"} {
		if v, ok := in[key].(string); ok && v != "" {
			return truncate(oneLine(v), 200)
		}
	}
	if len(in) == 0 {
		return tool
	}
	b, _ := json.Marshal(in)
	return truncate(string(b), 200)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// truncate shortens s to at most n bytes on a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d bytes more)", len(s)-cut)
}
