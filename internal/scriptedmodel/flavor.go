package scriptedmodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Flavor names the API dialect a request arrived in.
type Flavor string

// The dialects the server speaks.
const (
	Anthropic       Flavor = "anthropic"
	ChatCompletions Flavor = "openai-chat"
	Responses       Flavor = "openai-responses"
	Gemini          Flavor = "gemini"
)

// errorWriter writes a failure in one flavor's error shape.
type errorWriter func(w http.ResponseWriter, status int, typ, msg string)

// answer records req, picks its reply and waits out the reply's delay. It
// returns false when the client went away or the reply is a scripted
// failure, which it has then written with fail.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, req Request, fail errorWriter) (Reply, int, bool) {
	req.Auth = credential(r)
	s.mu.Lock()
	at := len(s.requests)
	s.requests = append(s.requests, req)
	s.mu.Unlock()

	reply := s.script.pick(req.Prompt, req.Step)
	if !req.HasTools {
		// A side request (title, summary): answer briefly, never with tools.
		reply = Reply{Text: []string{"HotPlex session"}}
	}
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-r.Context().Done():
			return Reply{}, at, false
		}
	}
	if reply.Status != 0 && reply.Status != http.StatusOK {
		et := reply.ErrorType
		if et == "" {
			et = "api_error"
		}
		fail(w, reply.Status, et, "scripted failure")
		return Reply{}, at, false
	}
	return reply, at, true
}

// noteUsage records what the at'th request's response reported.
func (s *Server) noteUsage(at int, u Usage) {
	s.mu.Lock()
	s.requests[at].Usage = u
	s.mu.Unlock()
}

// credential is the key a call carried, wherever its SDK put it.
func credential(r *http.Request) string {
	if v := r.Header.Get("X-Api-Key"); v != "" {
		return v
	}
	if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return v
	}
	if v := r.Header.Get("X-Goog-Api-Key"); v != "" {
		return v
	}
	return r.URL.Query().Get("key")
}

// receiveOpenAI reads an OpenAI-style request, parses it with parse,
// records it and makes its reply concrete (see answer). ok is false when it
// has written an error answer instead.
func receiveOpenAI[T any](s *Server, w http.ResponseWriter, r *http.Request, parse func(body []byte) (T, Request, string, error)) (parsed T, c concrete, ok bool) {
	body, err := readBody(r)
	if err != nil {
		writeOpenAIError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return parsed, c, false
	}
	parsed, req, lastResult, err := parse(body)
	if err != nil {
		writeOpenAIError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return parsed, c, false
	}
	reply, at, ok := s.answer(w, r, req, writeOpenAIError)
	if !ok {
		return parsed, c, false
	}
	c = s.concrete(req, reply, lastResult, len(body), "gpt-fake", "call_fake")
	s.noteUsage(at, c.usage())
	return parsed, c, true
}

// readBody reads a request body with the server's size limit.
func readBody(r *http.Request) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r.Body, 64<<20))
}

// shellTool is a tool some agent CLI runs shell commands with, and the
// argument shape it expects.
type shellTool struct {
	name string
	args func(command string) map[string]any
}

func commandWithDescription(c string) map[string]any {
	return map[string]any{"command": c, "description": "run " + firstWord(c)}
}

// shellTools lists every CLI's shell tool, most preferred first: when a
// request declares several (codex offers shell and exec_command), the
// earlier one is used.
var shellTools = []shellTool{
	{"Bash", commandWithDescription}, // Claude Code
	{"mcp__acp__Bash", func(c string) map[string]any { // Claude Code's ACP adapter, offered client terminals
		m := commandWithDescription(c)
		m["timeout"] = 120000 // required by the tool's schema
		return m
	}},
	{"bash", commandWithDescription},              // OpenCode, HotPlex's api provider
	{"run_shell_command", commandWithDescription}, // Gemini CLI, Qwen Code
	{"shell", func(c string) map[string]any { // Codex (argv form)
		return map[string]any{"command": []any{"bash", "-lc", c}}
	}},
	{"shell_command", func(c string) map[string]any { return map[string]any{"command": c} }}, // Codex (string form)
	{"exec_command", func(c string) map[string]any { return map[string]any{"cmd": c} }},      // Codex unified exec
	{"execute_bash", func(c string) map[string]any { return map[string]any{"command": c} }},  // Kiro
}

// resolve names the tool call for a request that declared the given tools.
// A plain call keeps its name and input; a shell call becomes the declared
// shell tool with that tool's argument shape, or, when none is declared,
// tu.Name (default "Bash") with a "command" argument.
func (tu ToolUse) resolve(declared []string) (string, map[string]any) {
	if tu.Shell == "" {
		input := tu.Input
		if input == nil {
			input = map[string]any{}
		}
		return tu.Name, input
	}
	name, args := tu.Name, map[string]any{"command": tu.Shell}
	if name == "" {
		name = "Bash"
	}
	for _, st := range shellTools {
		if slices.Contains(declared, st.name) {
			name, args = st.name, st.args(tu.Shell)
			break
		}
	}
	for k, v := range tu.Input {
		if k != "command" && k != "cmd" {
			args[k] = v
		}
	}
	return name, args
}

// call is one tool call in a flavor-neutral answer.
type call struct {
	id, name string
	args     map[string]any
}

// arguments is the call's input as a JSON object string.
func (c call) arguments() string {
	b, _ := json.Marshal(c.args)
	return string(b)
}

// concrete is a Reply made concrete for one request: templates filled, tool
// calls named, token counts decided.
type concrete struct {
	seq      int64
	model    string
	thinking string
	texts    []string
	calls    []call
	// chunkDelay is the reply's pause between streamed chunks.
	chunkDelay time.Duration

	inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens int
}

func (s *Server) concrete(req Request, reply Reply, lastResult string, bodyLen int, defaultModel, callPrefix string) concrete {
	reply = reply.given(lastResult)
	n := s.msgSeq.Add(1)
	c := concrete{seq: n, model: req.Model, thinking: reply.Thinking, chunkDelay: reply.ChunkDelay}
	if c.model == "" {
		c.model = defaultModel
	}
	outLen := len(reply.Thinking)
	for _, t := range reply.Text {
		t = strings.ReplaceAll(t, "{{last_tool_result}}", strings.TrimSpace(lastResult))
		t = strings.ReplaceAll(t, "{{prompt}}", req.Prompt)
		c.texts = append(c.texts, t)
		outLen += len(t)
	}
	for i, tu := range reply.ToolUses {
		name, args := tu.resolve(req.Tools)
		c.calls = append(c.calls, call{id: fmt.Sprintf("%s%08d_%d", callPrefix, n, i), name: name, args: args})
		outLen += 20
	}
	if len(c.texts) == 0 && len(c.calls) == 0 {
		c.texts = []string{"ok"}
	}
	c.inputTokens = orDefault(reply.InputTokens, bodyLen/4+1)
	c.outputTokens = orDefault(reply.OutputTokens, outLen/4+1)
	c.cacheReadTokens, c.cacheWriteTokens = reply.CacheReadTokens, reply.CacheWriteTokens
	if s.script.Free {
		c.inputTokens, c.outputTokens, c.cacheReadTokens, c.cacheWriteTokens = 0, 0, 0, 0
	}
	return c
}

func (c concrete) text() string { return strings.Join(c.texts, "") }

func (c concrete) usage() Usage {
	return Usage{c.inputTokens, c.outputTokens, c.cacheReadTokens, c.cacheWriteTokens}
}

// sse writes server-sent events, flushing each and sleeping delay between
// them; a write fails once the client is gone.
type sse struct {
	w     http.ResponseWriter
	r     *http.Request
	delay time.Duration
	crlf  bool
}

func startSSE(w http.ResponseWriter, r *http.Request, delay time.Duration) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &sse{w: w, r: r, delay: delay}
}

// send writes one event; name may be empty for data-only events. v is
// JSON-encoded unless it is a string, which is written as is.
func (e *sse) send(name string, v any) bool {
	var buf bytes.Buffer
	if name != "" {
		fmt.Fprintf(&buf, "event: %s\n", name)
	}
	data, ok := v.(string)
	if !ok {
		b, _ := json.Marshal(v)
		data = string(b)
	}
	nl := "\n"
	if e.crlf {
		nl = "\r\n"
	}
	fmt.Fprintf(&buf, "data: %s%s%s", data, nl, nl)
	if _, err := e.w.Write(buf.Bytes()); err != nil {
		return false
	}
	if fl, ok := e.w.(http.Flusher); ok {
		fl.Flush()
	}
	if e.delay > 0 {
		select {
		case <-time.After(e.delay):
		case <-e.r.Context().Done():
			return false
		}
	}
	return e.r.Context().Err() == nil
}

// writeOpenAIError writes an OpenAI-shaped error body.
func writeOpenAIError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": typ},
	})
}

// writeGeminiError writes a Google-API-shaped error body.
func writeGeminiError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	st := "INTERNAL"
	switch status {
	case http.StatusBadRequest:
		st = "INVALID_ARGUMENT"
	case http.StatusNotFound:
		st = "NOT_FOUND"
	case http.StatusTooManyRequests:
		st = "RESOURCE_EXHAUSTED"
	case http.StatusServiceUnavailable:
		st = "UNAVAILABLE"
	}
	_ = json.NewEncoder(w).Encode(map[string]any{
		"error": map[string]any{"code": status, "message": msg + " (" + typ + ")", "status": st},
	})
}

// handleModels lists one model in a shape both the OpenAI and Anthropic
// SDKs accept.
func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"object": "list", "has_more": false, "first_id": "fake-model", "last_id": "fake-model",
		"data": []any{map[string]any{
			"id": "fake-model", "object": "model", "type": "model", "created": 1700000000,
			"owned_by": "fakemodel", "display_name": "Fake Model", "created_at": "2024-01-01T00:00:00Z",
		}},
	})
}

// stepsAfter counts model turns among the roles that follow the prompt: a
// run of consecutive assistant entries is one model call.
func stepsAfter(assistant []bool) int {
	n, prev := 0, false
	for _, a := range assistant {
		if a && !prev {
			n++
		}
		prev = a
	}
	return n
}
