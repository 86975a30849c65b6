package scriptedmodel

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// ---------------------------------------------------------------------------
// Helpers

type harness struct {
	t      *testing.T
	srv    *Server
	client *http.Client
}

func startServer(t *testing.T, script Script) *harness {
	t.Helper()
	srv, err := Start("127.0.0.1:0", script)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	tr := &http.Transport{}
	h := &harness{t: t, srv: srv, client: &http.Client{Transport: tr}}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		done := make(chan error, 1)
		go func() { done <- srv.Close() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("Close did not return within 10s")
		}
	})
	return h
}

// do posts raw to path and returns the status, headers and body.
func (h *harness) do(ctx context.Context, method, path string, raw []byte) (int, http.Header, []byte, error) {
	h.t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, h.srv.URL()+path, bytes.NewReader(raw))
	if err != nil {
		h.t.Fatalf("NewRequest: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, body, err
}

func (h *harness) post(path string, v any) (int, http.Header, []byte) {
	h.t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		h.t.Fatalf("marshal: %v", err)
	}
	status, hdr, body, err := h.do(context.Background(), http.MethodPost, path, raw)
	if err != nil {
		h.t.Fatalf("POST %s: %v", path, err)
	}
	return status, hdr, body
}

// call sends a Messages request and decodes the answer, streamed or not.
func (h *harness) call(req map[string]any) message {
	h.t.Helper()
	status, hdr, body := h.post("/v1/messages", req)
	if status != http.StatusOK {
		h.t.Fatalf("status %d, body %s", status, body)
	}
	if stream, _ := req["stream"].(bool); stream {
		if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
			h.t.Fatalf("Content-Type = %q, want text/event-stream", ct)
		}
		return assemble(h.t, parseSSE(h.t, body))
	}
	if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		h.t.Fatalf("Content-Type = %q, want application/json", ct)
	}
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		h.t.Fatalf("decode %s: %v", body, err)
	}
	return m
}

var testTools = []map[string]any{{"name": "Bash", "input_schema": map[string]any{"type": "object"}}}

// request builds a Messages request body; tools=false makes a side request.
func request(stream, tools bool, msgs ...map[string]any) map[string]any {
	r := map[string]any{"model": "claude-test-model", "max_tokens": 1024, "stream": stream, "messages": msgs}
	if tools {
		r["tools"] = testTools
	}
	return r
}

func user(content any) map[string]any { return map[string]any{"role": "user", "content": content} }

func assistant(content any) map[string]any {
	return map[string]any{"role": "assistant", "content": content}
}

func textBlock(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func toolResult(id string, content any) map[string]any {
	return map[string]any{"type": "tool_result", "tool_use_id": id, "content": content}
}

func toolUseBlock(id string) map[string]any {
	return map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": "ls"}}
}

// message is a decoded response, assembled from SSE or read as JSON.
type message struct {
	ID         string  `json:"id"`
	Type       string  `json:"type"`
	Role       string  `json:"role"`
	Model      string  `json:"model"`
	Content    []block `json:"content"`
	StopReason string  `json:"stop_reason"`
	Usage      struct {
		InputTokens      int `json:"input_tokens"`
		OutputTokens     int `json:"output_tokens"`
		CacheWriteTokens int `json:"cache_creation_input_tokens"`
		CacheReadTokens  int `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

type block struct {
	Type      string         `json:"type"`
	Text      string         `json:"text"`
	Thinking  string         `json:"thinking"`
	Signature string         `json:"signature"`
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Input     map[string]any `json:"input"`
	// HasInput is set when the JSON (or the streamed deltas) carried an input.
	HasInput bool `json:"-"`
	// Deltas counts the content_block_delta events of a streamed block.
	Deltas int `json:"-"`
}

func (m message) types() []string {
	var out []string
	for _, b := range m.Content {
		out = append(out, b.Type)
	}
	return out
}

func (m message) text() string {
	var parts []string
	for _, b := range m.Content {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "|")
}

func (m message) toolUses() []block {
	var out []block
	for _, b := range m.Content {
		if b.Type == "tool_use" {
			out = append(out, b)
		}
	}
	return out
}

type sseEvent struct {
	Name string
	Data map[string]any
}

func parseSSE(t *testing.T, body []byte) []sseEvent {
	t.Helper()
	var out []sseEvent
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var name, data string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if name == "" && data == "" {
				continue
			}
			ev := sseEvent{Name: name}
			if err := json.Unmarshal([]byte(data), &ev.Data); err != nil {
				t.Fatalf("event %q: bad data %q: %v", name, data, err)
			}
			if ev.Data["type"] != name {
				t.Fatalf("event %q carries data type %v", name, ev.Data["type"])
			}
			out = append(out, ev)
			name, data = "", ""
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = strings.TrimPrefix(line, "data: ")
		default:
			t.Fatalf("unexpected SSE line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if name != "" || data != "" {
		t.Fatalf("unterminated SSE event %q %q", name, data)
	}
	return out
}

func index(t *testing.T, d map[string]any) int {
	t.Helper()
	f, ok := d["index"].(float64)
	if !ok {
		t.Fatalf("event without index: %v", d)
	}
	return int(f)
}

// assemble checks the order of a streamed message's events and rebuilds it.
func assemble(t *testing.T, evs []sseEvent) message {
	t.Helper()
	if len(evs) < 2 || evs[0].Name != "message_start" || evs[len(evs)-1].Name != "message_stop" {
		t.Fatalf("stream must open with message_start and end with message_stop: %v", names(evs))
	}
	var m message
	raw, _ := json.Marshal(evs[0].Data["message"])
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Content) != 0 {
		t.Fatalf("message_start content = %v, want empty", m.Content)
	}
	open := -1
	var partial []string
	sawDelta := false
	for _, ev := range evs[1 : len(evs)-1] {
		if sawDelta {
			t.Fatalf("event %s after message_delta", ev.Name)
		}
		switch ev.Name {
		case "content_block_start":
			if open != -1 {
				t.Fatalf("content_block_start while block %d is open", open)
			}
			i := index(t, ev.Data)
			if i != len(m.Content) {
				t.Fatalf("content_block_start index %d, want %d", i, len(m.Content))
			}
			var b block
			raw, _ := json.Marshal(ev.Data["content_block"])
			if err := json.Unmarshal(raw, &b); err != nil {
				t.Fatal(err)
			}
			if b.Type == "tool_use" {
				in, ok := ev.Data["content_block"].(map[string]any)["input"].(map[string]any)
				if !ok || len(in) != 0 {
					t.Fatalf("tool_use content_block_start input = %v, want {}", ev.Data["content_block"])
				}
				b.Input = nil
			}
			m.Content = append(m.Content, b)
			partial = append(partial, "")
			open = i
		case "content_block_delta":
			if i := index(t, ev.Data); i != open {
				t.Fatalf("delta for block %d while block %d is open", i, open)
			}
			b := &m.Content[open]
			b.Deltas++
			d, _ := ev.Data["delta"].(map[string]any)
			dt, _ := d["type"].(string)
			switch {
			case b.Type == "thinking" && dt == "thinking_delta":
				s, _ := d["thinking"].(string)
				if !utf8.ValidString(s) {
					t.Fatalf("thinking delta %q is not valid UTF-8", s)
				}
				b.Thinking += s
			case b.Type == "thinking" && dt == "signature_delta":
				s, _ := d["signature"].(string)
				b.Signature += s
			case b.Type == "text" && dt == "text_delta":
				s, _ := d["text"].(string)
				if !utf8.ValidString(s) {
					t.Fatalf("text delta %q is not valid UTF-8", s)
				}
				b.Text += s
			case b.Type == "tool_use" && dt == "input_json_delta":
				s, _ := d["partial_json"].(string)
				partial[open] += s
			default:
				t.Fatalf("delta %q in a %s block", dt, b.Type)
			}
		case "content_block_stop":
			if i := index(t, ev.Data); i != open {
				t.Fatalf("content_block_stop for block %d while block %d is open", i, open)
			}
			b := &m.Content[open]
			if b.Type == "tool_use" {
				if err := json.Unmarshal([]byte(partial[open]), &b.Input); err != nil {
					t.Fatalf("tool input JSON %q: %v", partial[open], err)
				}
				b.HasInput = b.Input != nil
			}
			open = -1
		case "message_delta":
			if open != -1 {
				t.Fatalf("message_delta while block %d is open", open)
			}
			d, _ := ev.Data["delta"].(map[string]any)
			m.StopReason, _ = d["stop_reason"].(string)
			u, _ := ev.Data["usage"].(map[string]any)
			if ot, ok := u["output_tokens"].(float64); ok {
				m.Usage.OutputTokens = int(ot)
			}
			sawDelta = true
		default:
			t.Fatalf("unexpected event %q", ev.Name)
		}
	}
	if !sawDelta {
		t.Fatalf("no message_delta in %v", names(evs))
	}
	return m
}

func names(evs []sseEvent) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Name)
	}
	return out
}

// normalize round-trips v through JSON so numbers compare as float64.
func normalize(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

type apiError struct {
	Type  string `json:"type"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

func decodeError(t *testing.T, hdr http.Header, body []byte) apiError {
	t.Helper()
	if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("error Content-Type = %q, want application/json", ct)
	}
	var e apiError
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("error body %s: %v", body, err)
	}
	if e.Type != "error" || e.Error.Message == "" {
		t.Errorf("error body %s is not Anthropic-shaped", body)
	}
	return e
}

// ---------------------------------------------------------------------------
// Tests

var richInput = map[string]any{
	"command":     "ls -la /tmp && echo \"quoted\" && printf 'tab\\there'",
	"description": "list things — with ünïcödé ✓",
	"timeout":     120000,
	"nested":      map[string]any{"flag": true, "list": []any{1, "two", nil}},
}

func richScript() Script {
	return Script{Rules: []Rule{
		Then("rich", Reply{
			Thinking: "I should think about this for a while, long enough to need several deltas ✓✓✓.",
			Text:     []string{"First text block, long enough to be cut into pieces: ünïcödé ✓✓✓✓✓✓✓✓✓✓.", "Second."},
			ToolUses: []ToolUse{{Name: "Bash", Input: richInput}, {Name: "Read", Input: map[string]any{"file_path": "/etc/hosts"}}},
		}),
		Then("plain", Text("Just words.")),
	}}
}

func checkRich(t *testing.T, m message, streamed bool) {
	t.Helper()
	if got, want := m.types(), []string{"thinking", "text", "text", "tool_use", "tool_use"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("content types = %v, want %v", got, want)
	}
	th := m.Content[0]
	if th.Thinking != "I should think about this for a while, long enough to need several deltas ✓✓✓." {
		t.Errorf("thinking = %q", th.Thinking)
	}
	if th.Signature == "" {
		t.Error("thinking block has no signature")
	}
	if m.Content[1].Text != "First text block, long enough to be cut into pieces: ünïcödé ✓✓✓✓✓✓✓✓✓✓." || m.Content[2].Text != "Second." {
		t.Errorf("texts = %q, %q", m.Content[1].Text, m.Content[2].Text)
	}
	if streamed {
		// Long blocks arrive in several deltas; the thinking block ends
		// with a signature_delta.
		if th.Deltas < 3 {
			t.Errorf("thinking block had %d deltas, want several plus a signature", th.Deltas)
		}
		if m.Content[1].Deltas < 2 {
			t.Errorf("long text block had %d deltas, want several", m.Content[1].Deltas)
		}
	}
	tus := m.toolUses()
	if tus[0].Name != "Bash" || tus[1].Name != "Read" {
		t.Errorf("tool names = %q, %q", tus[0].Name, tus[1].Name)
	}
	if !reflect.DeepEqual(tus[0].Input, normalize(t, richInput)) {
		t.Errorf("Bash input = %#v, want %#v", tus[0].Input, normalize(t, richInput))
	}
	if !reflect.DeepEqual(tus[1].Input, map[string]any{"file_path": "/etc/hosts"}) {
		t.Errorf("Read input = %#v", tus[1].Input)
	}
	if !strings.HasPrefix(tus[0].ID, "toolu_") || tus[0].ID == tus[1].ID {
		t.Errorf("tool ids %q, %q: want distinct toolu_ ids", tus[0].ID, tus[1].ID)
	}
	if m.StopReason != "tool_use" {
		t.Errorf("stop_reason = %q, want tool_use", m.StopReason)
	}
	if !strings.HasPrefix(m.ID, "msg_") || m.Role != "assistant" || m.Type != "message" {
		t.Errorf("message id/role/type = %q/%q/%q", m.ID, m.Role, m.Type)
	}
	if m.Model != "claude-test-model" {
		t.Errorf("model = %q, want the requested model", m.Model)
	}
	if m.Usage.OutputTokens <= 0 {
		t.Errorf("output_tokens = %d, want > 0", m.Usage.OutputTokens)
	}
}

func TestStreamingEventSequence(t *testing.T) {
	h := startServer(t, richScript())
	m := h.call(request(true, true, user("show me something rich")))
	checkRich(t, m, true)
	if m.Usage.InputTokens <= 0 {
		t.Errorf("message_start input_tokens = %d, want > 0", m.Usage.InputTokens)
	}

	m = h.call(request(true, true, user("plain please")))
	if got := m.types(); !reflect.DeepEqual(got, []string{"text"}) || m.Content[0].Text != "Just words." {
		t.Errorf("plain reply = %+v", m.Content)
	}
	if m.StopReason != "end_turn" {
		t.Errorf("stop_reason = %q, want end_turn", m.StopReason)
	}
}

func TestNonStreamingResponse(t *testing.T) {
	h := startServer(t, richScript())
	m := h.call(request(false, true, user("show me something rich")))
	checkRich(t, m, false)
	if m.Usage.InputTokens <= 0 {
		t.Errorf("input_tokens = %d, want > 0", m.Usage.InputTokens)
	}
	m = h.call(request(false, true, user("plain")))
	if m.StopReason != "end_turn" || m.text() != "Just words." {
		t.Errorf("plain reply: stop %q text %q", m.StopReason, m.text())
	}
}

func TestStreamedAndJSONContentAgree(t *testing.T) {
	h := startServer(t, richScript())
	a := h.call(request(true, true, user("rich")))
	b := h.call(request(false, true, user("rich")))
	strip := func(m message) []block {
		var out []block
		for _, bl := range m.Content {
			bl.ID, bl.Deltas, bl.HasInput = "", 0, false
			out = append(out, bl)
		}
		return out
	}
	if !reflect.DeepEqual(strip(a), strip(b)) {
		t.Errorf("streamed content %+v\ndiffers from JSON content %+v", strip(a), strip(b))
	}
	if a.StopReason != b.StopReason {
		t.Errorf("stop reasons differ: %q vs %q", a.StopReason, b.StopReason)
	}
}

func TestUniqueMessageIDs(t *testing.T) {
	h := startServer(t, richScript())
	seen := map[string]bool{}
	toolIDs := map[string]bool{}
	for i := 0; i < 6; i++ {
		m := h.call(request(i%2 == 0, true, user("rich")))
		if seen[m.ID] {
			t.Fatalf("message id %q repeated", m.ID)
		}
		seen[m.ID] = true
		for _, tu := range m.toolUses() {
			if toolIDs[tu.ID] {
				t.Fatalf("tool_use id %q repeated", tu.ID)
			}
			toolIDs[tu.ID] = true
		}
	}
}

func TestToolUseWithoutInputSendsEmptyObject(t *testing.T) {
	// The Messages API always sends a tool_use input object; a tool that
	// takes no arguments gets {}, never a missing input or null.
	h := startServer(t, Script{Rules: []Rule{
		Then("nil", Reply{ToolUses: []ToolUse{{Name: "ExitPlanMode"}}}),
		Then("empty", Reply{ToolUses: []ToolUse{{Name: "ExitPlanMode", Input: map[string]any{}}}}),
	}})
	for _, tc := range []struct {
		prompt string
		stream bool
	}{{"nil", true}, {"nil", false}, {"empty", true}, {"empty", false}} {
		stream := tc.stream
		status, _, body := h.post("/v1/messages", request(stream, true, user(tc.prompt)))
		if status != http.StatusOK {
			t.Fatalf("status %d: %s", status, body)
		}
		var m message
		if stream {
			m = assemble(t, parseSSE(t, body))
		} else {
			var raw struct {
				Content []map[string]json.RawMessage `json:"content"`
			}
			if err := json.Unmarshal(body, &raw); err != nil {
				t.Fatal(err)
			}
			if len(raw.Content) != 1 {
				t.Fatalf("content = %s", body)
			}
			in, ok := raw.Content[0]["input"]
			if !ok {
				t.Fatalf("%s input, stream=%v: tool_use block has no input field: %s", tc.prompt, stream, body)
			}
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatal(err)
			}
			m.Content[0].HasInput = string(in) != "null"
		}
		tus := m.toolUses()
		if len(tus) != 1 || tus[0].Name != "ExitPlanMode" {
			t.Fatalf("%s input, stream=%v: tool uses = %+v", tc.prompt, stream, tus)
		}
		if !tus[0].HasInput || tus[0].Input == nil || len(tus[0].Input) != 0 {
			t.Errorf("%s input, stream=%v: input = %#v (present %v), want {}", tc.prompt, stream, tus[0].Input, tus[0].HasInput)
		}
	}
}

func TestCountTokens(t *testing.T) {
	h := startServer(t, Script{})
	count := func(req map[string]any) int {
		status, hdr, body := h.post("/v1/messages/count_tokens", req)
		if status != http.StatusOK {
			t.Fatalf("status %d: %s", status, body)
		}
		if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("Content-Type = %q", ct)
		}
		var out map[string]any
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatalf("body %s: %v", body, err)
		}
		n, ok := out["input_tokens"].(float64)
		if !ok || len(out) != 1 {
			t.Fatalf("body %s, want exactly {\"input_tokens\":N}", body)
		}
		return int(n)
	}
	small := count(request(false, true, user("hi")))
	if small <= 0 {
		t.Errorf("input_tokens = %d, want > 0", small)
	}
	big := count(request(false, true, user(strings.Repeat("many words ", 500))))
	if big <= small {
		t.Errorf("a longer request counted %d tokens, not more than the short one's %d", big, small)
	}
	if n := len(h.srv.Requests()); n != 0 {
		t.Errorf("count_tokens was recorded as %d Messages requests", n)
	}
}

func TestRuleSelectionByLatestPrompt(t *testing.T) {
	script := Script{Rules: []Rule{
		Then("deploy", Text("deploy-0"), Text("deploy-1")),
		Then("build", Text("build-0"), Text("build-1")),
	}}
	reminder := "<system-reminder>\nThe user mentioned deploy and build earlier.\n</system-reminder>"
	cases := []struct {
		name       string
		msgs       []map[string]any
		want       string
		wantPrompt string
		wantStep   int
	}{
		{
			name: "string content",
			msgs: []map[string]any{user("please deploy now")},
			want: "deploy-0", wantPrompt: "please deploy now",
		},
		{
			name: "array content",
			msgs: []map[string]any{user([]any{textBlock("build the thing")})},
			want: "build-0", wantPrompt: "build the thing",
		},
		{
			name: "system reminder ignored",
			msgs: []map[string]any{user([]any{textBlock(reminder), textBlock("build it")})},
			want: "build-0", wantPrompt: "build it",
		},
		{
			name: "indented system reminder ignored",
			msgs: []map[string]any{user([]any{textBlock("  \n" + reminder), textBlock("build it")})},
			want: "build-0", wantPrompt: "build it",
		},
		{
			name: "latest of several prompts",
			msgs: []map[string]any{user("deploy"), assistant("done"), user("now build")},
			want: "build-0", wantPrompt: "now build",
		},
		{
			name: "reminder-only message is not a prompt",
			msgs: []map[string]any{
				user("build"), assistant([]any{toolUseBlock("t1")}),
				user([]any{toolResult("t1", "out"), textBlock(reminder)}),
			},
			want: "build-1", wantPrompt: "build", wantStep: 1,
		},
		{
			name: "interrupt marker ignored, prompt beside tool result counts",
			msgs: []map[string]any{
				user("deploy"), assistant([]any{toolUseBlock("t1")}),
				user([]any{
					toolResult("t1", "The user doesn't want to proceed with this tool use."),
					textBlock("[Request interrupted by user for tool use]"),
					textBlock("build instead"),
				}),
			},
			want: "build-0", wantPrompt: "build instead",
		},
		{
			name: "interrupt marker alone is not a prompt",
			msgs: []map[string]any{
				user("deploy"), assistant([]any{toolUseBlock("t1")}),
				user([]any{toolResult("t1", "rejected"), textBlock("[Request interrupted by user]")}),
			},
			want: "deploy-1", wantPrompt: "deploy", wantStep: 1,
		},
		{
			name: "assistant text is not a prompt",
			msgs: []map[string]any{user("deploy"), assistant("let me build it")},
			want: "deploy-1", wantPrompt: "deploy", wantStep: 1,
		},
		{
			name: "first matching rule wins",
			msgs: []map[string]any{user("build and deploy")},
			want: "deploy-0", wantPrompt: "build and deploy",
		},
		{
			name: "no rule matches: echo",
			msgs: []map[string]any{user("something else")},
			want: "You said: something else", wantPrompt: "something else",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := startServer(t, script)
			m := h.call(request(false, true, tc.msgs...))
			if got := m.text(); got != tc.want {
				t.Errorf("reply = %q, want %q", got, tc.want)
			}
			reqs := h.srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests recorded", len(reqs))
			}
			if reqs[0].Prompt != tc.wantPrompt || reqs[0].Step != tc.wantStep {
				t.Errorf("recorded prompt %q step %d, want %q step %d", reqs[0].Prompt, reqs[0].Step, tc.wantPrompt, tc.wantStep)
			}
		})
	}
}

func TestDefaultReply(t *testing.T) {
	def := Text("default answer")
	h := startServer(t, Script{Rules: []Rule{Then("x-only", Text("x"))}, Default: &def})
	if got := h.call(request(false, true, user("hello"))).text(); got != "default answer" {
		t.Errorf("reply = %q, want the Default", got)
	}
	if got := h.call(request(false, true, user("x-only please"))).text(); got != "x" {
		t.Errorf("reply = %q, want the rule", got)
	}
}

func TestEmptyRuleIsSkipped(t *testing.T) {
	h := startServer(t, Script{Rules: []Rule{{Match: "go"}, Then("go", Text("second rule"))}})
	if got := h.call(request(false, true, user("go"))).text(); got != "second rule" {
		t.Errorf("reply = %q, want a rule without replies to be skipped", got)
	}
}

func TestStepCounting(t *testing.T) {
	h := startServer(t, Script{Rules: []Rule{Then("count", Text("A"), Text("B"), Text("C"))}})
	// conversation returns the messages of a turn after n assistant messages.
	conversation := func(n int) []map[string]any {
		msgs := []map[string]any{user("earlier"), assistant("earlier answer"), user("count please")}
		for i := 0; i < n; i++ {
			id := "t" + string(rune('a'+i))
			msgs = append(msgs, assistant([]any{toolUseBlock(id)}), user([]any{toolResult(id, "r")}))
		}
		return msgs
	}
	for _, tc := range []struct {
		assistants int
		want       string
	}{{0, "A"}, {1, "B"}, {2, "C"}, {3, "C"}, {7, "C"}} {
		m := h.call(request(true, true, conversation(tc.assistants)...))
		if got := m.text(); got != tc.want {
			t.Errorf("after %d assistant messages: reply %q, want %q", tc.assistants, got, tc.want)
		}
		reqs := h.srv.Requests()
		if got := reqs[len(reqs)-1].Step; got != tc.assistants {
			t.Errorf("after %d assistant messages: Step = %d", tc.assistants, got)
		}
	}
}

func TestSubstitution(t *testing.T) {
	h := startServer(t, Script{Rules: []Rule{
		Then("sub", Bash("echo hi"), Reply{Text: []string{"result [{{last_tool_result}}] for <{{prompt}}>", "again {{last_tool_result}}"}}),
	}})
	cases := []struct {
		name    string
		results []any
		want    string
	}{
		{"string result trimmed", []any{"  hi there\n"}, "result [hi there] for <sub please>|again hi there"},
		{"array result joined", []any{[]any{textBlock("line1"), textBlock("line2")}}, "result [line1\nline2] for <sub please>|again line1\nline2"},
		{"latest result wins", []any{"old", "new"}, "result [new] for <sub please>|again new"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msgs := []map[string]any{user("sub please")}
			for i, r := range tc.results {
				id := "t" + string(rune('0'+i))
				msgs = append(msgs, assistant([]any{toolUseBlock(id)}), user([]any{toolResult(id, r)}))
			}
			for _, stream := range []bool{true, false} {
				if got := h.call(request(stream, true, msgs...)).text(); got != tc.want {
					t.Errorf("stream=%v: reply %q, want %q", stream, got, tc.want)
				}
			}
		})
	}
	// Without a tool result the placeholder becomes empty.
	m := h.call(request(false, true, user("sub"), assistant("no tools"), user([]any{textBlock(
		"<system-reminder>x</system-reminder>")})))
	if got := m.text(); got != "result [] for <sub>|again " {
		t.Errorf("reply without tool result = %q", got)
	}
}

func TestSideRequestsNeverUseTools(t *testing.T) {
	h := startServer(t, Script{
		Rules:   []Rule{Then("", Bash("rm -rf /"), Reply{Status: 500})},
		Default: &Reply{ToolUses: []ToolUse{{Name: "Bash", Input: map[string]any{"command": "x"}}}},
	})
	for _, stream := range []bool{true, false} {
		for _, msgs := range [][]map[string]any{
			{user("Please write a 5-10 word title for the following conversation")},
			{user("go"), assistant([]any{toolUseBlock("t1")}), user([]any{toolResult("t1", "r")})},
		} {
			m := h.call(request(stream, false, msgs...))
			if len(m.toolUses()) != 0 {
				t.Errorf("stream=%v: side request got tool uses %+v", stream, m.toolUses())
			}
			if m.StopReason != "end_turn" {
				t.Errorf("stream=%v: stop_reason = %q", stream, m.StopReason)
			}
			if txt := m.text(); txt == "" || len(txt) > 100 {
				t.Errorf("stream=%v: side reply %q, want a short text", stream, txt)
			}
		}
	}
	// The same prompt with tools gets the scripted tool use.
	m := h.call(request(false, true, user("go")))
	if tus := m.toolUses(); len(tus) != 1 || tus[0].Input["command"] != "rm -rf /" {
		t.Errorf("turn request tool uses = %+v", tus)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests recorded, want 5", len(reqs))
	}
	for i, r := range reqs[:4] {
		if r.HasTools {
			t.Errorf("request %d: HasTools = true for a side request", i)
		}
	}
	if turn := h.srv.TurnRequests(); len(turn) != 1 || !turn[0].HasTools || turn[0].Prompt != "go" {
		t.Errorf("TurnRequests = %+v, want just the request with tools", turn)
	}
}

func TestDelayHonoured(t *testing.T) {
	const delay = 200 * time.Millisecond
	h := startServer(t, Script{Rules: []Rule{Then("slow", Reply{Text: []string{"finally"}, Delay: delay})}})
	for _, stream := range []bool{true, false} {
		start := time.Now()
		m := h.call(request(stream, true, user("slow")))
		if el := time.Since(start); el < delay {
			t.Errorf("stream=%v: answered after %v, want at least %v", stream, el, delay)
		}
		if m.text() != "finally" {
			t.Errorf("stream=%v: reply %q", stream, m.text())
		}
	}
}

// closesQuickly checks that Close returns promptly, which it only does when
// no handler is still running (Shutdown waits for active connections).
func closesQuickly(t *testing.T, h *harness) {
	t.Helper()
	h.client.Transport.(*http.Transport).CloseIdleConnections()
	start := time.Now()
	if err := h.srv.Close(); err != nil {
		t.Errorf("Close: %v (a handler did not return)", err)
	}
	if el := time.Since(start); el > 1500*time.Millisecond {
		t.Errorf("Close took %v: the handler kept running after the client went away", el)
	}
}

func TestDelayAbandonedOnCancel(t *testing.T) {
	for _, stream := range []bool{true, false} {
		h := startServer(t, Script{Rules: []Rule{Then("", Reply{Text: []string{"never"}, Delay: time.Hour})}})
		raw, _ := json.Marshal(request(stream, true, user("slow")))
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		start := time.Now()
		_, _, _, err := h.do(ctx, http.MethodPost, "/v1/messages", raw)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("stream=%v: err = %v, want deadline exceeded", stream, err)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Fatalf("stream=%v: client waited %v", stream, el)
		}
		if n := len(h.srv.Requests()); n != 1 {
			t.Errorf("stream=%v: %d requests recorded, want 1", stream, n)
		}
		closesQuickly(t, h)
	}
}

func TestChunkDelayAbandonedOnCancel(t *testing.T) {
	h := startServer(t, Script{Rules: []Rule{Then("", Reply{Text: []string{"a long answer in several chunks, truly"}, ChunkDelay: time.Hour})}})
	raw, _ := json.Marshal(request(true, true, user("go")))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, h.srv.URL()+"/v1/messages", bytes.NewReader(raw))
	resp, err := h.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// The first event arrives before the first chunk delay.
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || line != "event: message_start\n" {
		t.Fatalf("first line %q, err %v", line, err)
	}
	cancel()
	closesQuickly(t, h)
}

func TestChunkDelayStreamsAllEvents(t *testing.T) {
	h := startServer(t, Script{Rules: []Rule{Then("", Reply{Text: []string{"short"}, ChunkDelay: 5 * time.Millisecond})}})
	start := time.Now()
	m := h.call(request(true, true, user("go")))
	if m.text() != "short" {
		t.Errorf("reply %q", m.text())
	}
	// message_start, block start, delta, block stop, message_delta, message_stop.
	if el := time.Since(start); el < 25*time.Millisecond {
		t.Errorf("stream took %v, want the chunk delay between events", el)
	}
}

func TestScriptedErrors(t *testing.T) {
	cases := []struct {
		name      string
		reply     Reply
		status    int
		errorType string
	}{
		{"500 default type", Reply{Status: 500}, 500, "api_error"},
		{"429 rate limit", Reply{Status: 429, ErrorType: "rate_limit_error"}, 429, "rate_limit_error"},
		{"529 overloaded", Reply{Status: 529, ErrorType: "overloaded_error"}, 529, "overloaded_error"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := startServer(t, Script{Rules: []Rule{Then("fail", tc.reply)}})
			for _, stream := range []bool{true, false} {
				status, hdr, body := h.post("/v1/messages", request(stream, true, user("fail")))
				if status != tc.status {
					t.Errorf("stream=%v: status %d, want %d", stream, status, tc.status)
				}
				if e := decodeError(t, hdr, body); e.Error.Type != tc.errorType {
					t.Errorf("stream=%v: error.type %q, want %q", stream, e.Error.Type, tc.errorType)
				}
			}
		})
	}
	t.Run("status 200 is not a failure", func(t *testing.T) {
		h := startServer(t, Script{Rules: []Rule{Then("", Reply{Status: 200, Text: []string{"fine"}})}})
		if got := h.call(request(false, true, user("x"))).text(); got != "fine" {
			t.Errorf("reply %q", got)
		}
	})
}

func TestErrorsStepThroughReplies(t *testing.T) {
	// A failed call adds no assistant message, so a retry with the same
	// messages is still step 0 and gets the same failure.
	h := startServer(t, Script{Rules: []Rule{Then("", Reply{Status: 500}, Text("recovered"))}})
	for i := 0; i < 2; i++ {
		if status, _, _ := h.post("/v1/messages", request(false, true, user("x"))); status != 500 {
			t.Errorf("attempt %d: status %d, want 500", i, status)
		}
	}
	if got := h.call(request(false, true, user("x"), assistant([]any{toolUseBlock("t")}), user([]any{toolResult("t", "r")}))).text(); got != "recovered" {
		t.Errorf("step 1 reply %q", got)
	}
}

func TestMalformedBody(t *testing.T) {
	h := startServer(t, Script{})
	for _, body := range []string{"{not json", "", `{"messages":"nope"}`} {
		status, hdr, resp, err := h.do(context.Background(), http.MethodPost, "/v1/messages", []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if status != http.StatusBadRequest {
			t.Errorf("body %q: status %d, want 400", body, status)
			continue
		}
		if e := decodeError(t, hdr, resp); e.Error.Type != "invalid_request_error" {
			t.Errorf("body %q: error.type %q", body, e.Error.Type)
		}
	}
	if n := len(h.srv.Requests()); n != 0 {
		t.Errorf("malformed requests were recorded: %d", n)
	}
}

func TestUnknownPath(t *testing.T) {
	h := startServer(t, Script{})
	for _, tc := range []struct{ method, path string }{
		{http.MethodPost, "/v1/embeddings"},
		{http.MethodPost, "/v1/complete"},
		{http.MethodPost, "/v2/messages"},
		{http.MethodGet, "/"},
	} {
		status, hdr, body, err := h.do(context.Background(), tc.method, tc.path, []byte("{}"))
		if err != nil {
			t.Fatal(err)
		}
		if status != http.StatusNotFound {
			t.Errorf("%s %s: status %d, want 404", tc.method, tc.path, status)
			continue
		}
		e := decodeError(t, hdr, body)
		if e.Error.Type != "not_found_error" || !strings.Contains(e.Error.Message, tc.path) {
			t.Errorf("%s %s: error %+v", tc.method, tc.path, e.Error)
		}
	}
}

func TestRequestsRecordWhatWasAsked(t *testing.T) {
	h := startServer(t, Script{})
	h.call(request(true, true,
		user([]any{textBlock("<system-reminder>ctx SECRET-REMINDER</system-reminder>"), textBlock("first question")}),
		assistant([]any{textBlock("assistant words"), toolUseBlock("t1")}),
		user([]any{toolResult("t1", []any{textBlock("TOOL-OUTPUT-42")})}),
	))
	h.call(request(false, false, user("side question")))

	reqs := h.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	r := reqs[0]
	if r.Model != "claude-test-model" || !r.Stream || !r.HasTools || r.Prompt != "first question" || r.Step != 1 {
		t.Errorf("request 0 = %+v", r)
	}
	wantTexts := []string{"<system-reminder>ctx SECRET-REMINDER</system-reminder>", "first question", "assistant words", "TOOL-OUTPUT-42"}
	if !reflect.DeepEqual(r.Texts, wantTexts) {
		t.Errorf("Texts = %q, want %q", r.Texts, wantTexts)
	}
	for _, s := range []string{"TOOL-OUTPUT", "SECRET-REMINDER", "assistant words", "first"} {
		if !r.Saw(s) {
			t.Errorf("Saw(%q) = false", s)
		}
	}
	if r.Saw("side question") || r.Saw("never said") {
		t.Error("Saw reports text the request did not contain")
	}
	if s := reqs[1]; s.Stream || s.HasTools || s.Prompt != "side question" {
		t.Errorf("request 1 = %+v", s)
	}
	if turn := h.srv.TurnRequests(); len(turn) != 1 || turn[0].Prompt != "first question" {
		t.Errorf("TurnRequests = %+v", turn)
	}

	// Requests returns a copy.
	reqs[0].Prompt = "changed"
	reqs[1] = Request{}
	if again := h.srv.Requests(); len(again) != 2 || again[0].Prompt != "first question" || again[1].Prompt != "side question" {
		t.Errorf("mutating the returned slice changed the server's record: %+v", again)
	}
}

func TestDemoScript(t *testing.T) {
	h := startServer(t, Demo())
	m := h.call(request(true, true, user("what is in here?")))
	tus := m.toolUses()
	if len(tus) != 1 || tus[0].Name != "Bash" {
		t.Fatalf("step 0 tool uses = %+v, want one Bash call", tus)
	}
	if cmd, _ := tus[0].Input["command"].(string); !strings.Contains(cmd, "ls") {
		t.Errorf("Bash command = %q", cmd)
	}
	if m.StopReason != "tool_use" {
		t.Errorf("step 0 stop_reason = %q", m.StopReason)
	}
	if m.Content[0].Type != "thinking" || m.Content[0].Thinking == "" {
		t.Errorf("step 0 does not open with thinking: %v", m.types())
	}

	const out = "hello from /tmp/work\ntotal 4\n-rw-r--r-- 1 u u 20 hotplex-demo.txt"
	m = h.call(request(true, true,
		user("what is in here?"),
		assistant([]any{toolUseBlock(tus[0].ID)}),
		user([]any{toolResult(tus[0].ID, out)}),
	))
	if len(m.toolUses()) != 0 || m.StopReason != "end_turn" {
		t.Errorf("step 1: tool uses %+v stop %q", m.toolUses(), m.StopReason)
	}
	if !strings.Contains(m.text(), out) {
		t.Errorf("step 1 text %q does not quote the tool result", m.text())
	}
	if strings.Contains(m.text(), "{{") {
		t.Errorf("step 1 text %q has an unreplaced placeholder", m.text())
	}
	if u := m.Usage; u != (usage{}) {
		t.Errorf("the offline model reports usage %+v; it must be free", u)
	}

	// A person denied the command: the answer must not claim it ran.
	const denied = "The user doesn't want to proceed with this tool use."
	m = h.call(request(true, true,
		user("what is in here?"),
		assistant([]any{toolUseBlock(tus[0].ID)}),
		user([]any{toolResult(tus[0].ID, denied)}),
	))
	if strings.Contains(m.text(), "Done") || strings.Contains(m.text(), "I wrote") || !strings.Contains(m.text(), "did not run") {
		t.Errorf("after a denial the demo says %q", m.text())
	}
}

func TestUsageOverride(t *testing.T) {
	h := startServer(t, Script{Rules: []Rule{Then("", Reply{
		Text: []string{"x"}, InputTokens: 7, OutputTokens: 9, CacheReadTokens: 11, CacheWriteTokens: 13,
	})}})
	m := h.call(request(false, true, user("go")))
	u := m.Usage
	if u.InputTokens != 7 || u.OutputTokens != 9 || u.CacheReadTokens != 11 || u.CacheWriteTokens != 13 {
		t.Errorf("usage = %+v", u)
	}
	m = h.call(request(true, true, user("go")))
	if m.Usage.InputTokens != 7 || m.Usage.OutputTokens != 9 || m.Usage.CacheReadTokens != 11 || m.Usage.CacheWriteTokens != 13 {
		t.Errorf("streamed usage = %+v", m.Usage)
	}
}

func TestDefaultModelName(t *testing.T) {
	h := startServer(t, Script{})
	req := request(false, true, user("hi"))
	delete(req, "model")
	if m := h.call(req); m.Model == "" {
		t.Error("response without a requested model has an empty model")
	}
}

func TestStartErrors(t *testing.T) {
	h := startServer(t, Script{})
	if !strings.HasPrefix(h.srv.URL(), "http://127.0.0.1:") {
		t.Errorf("URL = %q", h.srv.URL())
	}
	addr := strings.TrimPrefix(h.srv.URL(), "http://")
	if s, err := Start(addr, Script{}); err == nil {
		_ = s.Close()
		t.Errorf("Start on a busy address %s succeeded", addr)
	} else if !strings.Contains(err.Error(), addr) {
		t.Errorf("error %q does not name the address", err)
	}
}

func TestChunks(t *testing.T) {
	for _, s := range []string{"", "short", strings.Repeat("a", 24), strings.Repeat("b", 25), strings.Repeat("✓", 40), "ab" + strings.Repeat("é", 30)} {
		parts := chunks(s)
		if len(parts) == 0 {
			t.Fatalf("chunks(%q) is empty", s)
		}
		if got := strings.Join(parts, ""); got != s {
			t.Errorf("chunks(%q) joined = %q", s, got)
		}
		for _, p := range parts {
			if !utf8.ValidString(p) {
				t.Errorf("chunks(%q) split a rune: %q", s, p)
			}
		}
	}
}
