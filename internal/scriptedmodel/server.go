// Package scriptedmodel is a scripted model API server for tests and for the
// offline demo. One Script answers four API dialects: Anthropic Messages
// (the same SSE event sequence as the real API: message_start,
// content_block_start/delta/stop, message_delta, message_stop, plus
// count_tokens), OpenAI Chat Completions, OpenAI Responses and Gemini
// generateContent. Tool calls come back in each dialect's shape, so an agent
// CLI pointed at the server runs real tools.
package scriptedmodel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Server is a running fake model. Create it with Start and end it with Close.
type Server struct {
	script Script
	srv    *http.Server
	ln     net.Listener
	done   chan struct{}

	msgSeq atomic.Int64

	mu       sync.Mutex
	requests []Request
}

// Request is one model API call the server answered.
type Request struct {
	// Flavor is the API dialect the call arrived in.
	Flavor Flavor
	Model  string
	// Prompt is the text of the latest user message that is not a tool result.
	Prompt string
	// Step counts the assistant messages after Prompt (0 for the first call of a turn).
	Step int
	// Texts holds every text and tool_result string in the request's
	// messages, in order, so tests can ask what the model was shown.
	Texts []string
	// HasTools reports whether the request offered tools (side requests
	// such as title generation offer none).
	HasTools bool
	Stream   bool
	// System is the request's system prompt, its blocks joined by newlines.
	System string
	// Tools names the tools the request offered.
	Tools []string
	// Auth is the credential the call carried (x-api-key, a bearer token,
	// x-goog-api-key or ?key=), so tests can see which key reached the model.
	Auth string
	// Usage is the token counts the response reported, in the dialect's
	// own terms (OpenAI's and Gemini's input counts include cached tokens).
	Usage Usage
}

// Usage is what a response reported it cost.
type Usage struct {
	InputTokens, OutputTokens, CacheReadTokens, CacheWriteTokens int
}

// Saw reports whether any message of the request contains s.
func (r Request) Saw(s string) bool {
	for _, t := range r.Texts {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

// Start serves script on addr ("127.0.0.1:0" picks a free port).
func Start(addr string, script Script) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("scripted model: listen %s: %w", addr, err)
	}
	s := &Server{script: script, ln: ln, done: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.handleMessages)
	mux.HandleFunc("POST /v1/messages/count_tokens", s.handleCountTokens)
	mux.HandleFunc("POST /v1/chat/completions", s.handleChat)
	mux.HandleFunc("POST /v1/responses", s.handleResponses)
	mux.HandleFunc("GET /v1/models", s.handleModels)
	mux.HandleFunc("POST /v1beta/models/{call}", s.handleGemini)
	mux.HandleFunc("GET /v1beta/models", s.handleGeminiModels)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found_error", "no such endpoint: "+r.URL.Path)
	})
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// URL is the base URL to put in ANTHROPIC_BASE_URL.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// Close stops the server and waits for its goroutine.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = s.srv.Close()
	}
	<-s.done
	return err
}

// Requests returns a copy of every model call answered so far, in every flavor.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// TurnRequests returns the calls that offered tools, i.e. the agent's main
// conversation rather than its side requests.
func (s *Server) TurnRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.HasTools {
			out = append(out, r)
		}
	}
	return out
}

// RequestsOf returns the calls that arrived in flavor f.
func (s *Server) RequestsOf(f Flavor) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Flavor == f {
			out = append(out, r)
		}
	}
	return out
}

type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
}

type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type wireRequest struct {
	Model    string          `json:"model"`
	System   json.RawMessage `json:"system"`
	Messages []wireMessage   `json:"messages"`
	Tools    []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Stream bool `json:"stream"`
}

// blocks decodes content that is either a string or an array of blocks.
func blocks(raw json.RawMessage) []wireBlock {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []wireBlock{{Type: "text", Text: s}}
	}
	var bs []wireBlock
	_ = json.Unmarshal(raw, &bs)
	return bs
}

func blockText(b wireBlock) string {
	switch b.Type {
	case "text":
		return b.Text
	case "tool_result":
		var parts []string
		for _, inner := range blocks(b.Content) {
			parts = append(parts, inner.Text)
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

func parseRequest(body []byte) (Request, string, error) {
	var wr wireRequest
	if err := json.Unmarshal(body, &wr); err != nil {
		return Request{}, "", fmt.Errorf("invalid JSON body: %w", err)
	}
	req := Request{Flavor: Anthropic, Model: wr.Model, HasTools: len(wr.Tools) > 0, Stream: wr.Stream}
	for _, b := range blocks(wr.System) {
		req.System += b.Text + "\n"
	}
	for _, t := range wr.Tools {
		req.Tools = append(req.Tools, t.Name)
	}
	promptAt := -1
	lastToolResult := ""
	for i, m := range wr.Messages {
		var texts []string
		for _, b := range blocks(m.Content) {
			t := blockText(b)
			if t != "" {
				req.Texts = append(req.Texts, t)
			}
			switch b.Type {
			case "tool_result":
				lastToolResult = t
			case "text":
				if typedByUser(b.Text) {
					texts = append(texts, b.Text)
				}
			}
		}
		// A prompt may share its message with tool results: after an
		// interrupt the CLI sends the rejected result, a marker and the
		// next prompt together.
		if m.Role == "user" && len(texts) > 0 {
			promptAt = i
			req.Prompt = strings.Join(texts, "\n")
		}
	}
	for _, m := range wr.Messages[promptAt+1:] {
		if m.Role == "assistant" {
			req.Step++
		}
	}
	return req, lastToolResult, nil
}

// typedByUser tells the user's words from what the CLI adds beside them:
// <system-reminder> context and "[Request interrupted ...]" markers, and the
// environment and instruction messages other CLIs send as user turns.
func typedByUser(text string) bool {
	t := strings.TrimSpace(text)
	// Some CLIs (Qwen Code) put their reminders in front of the user's
	// words in the same text part.
	for strings.HasPrefix(t, "<system-reminder>") {
		_, rest, ok := strings.Cut(t, "</system-reminder>")
		if !ok {
			break
		}
		t = strings.TrimSpace(rest)
	}
	if t == "" {
		return false
	}
	for _, p := range addedByCLI {
		if strings.HasPrefix(t, p) {
			return false
		}
	}
	return true
}

var addedByCLI = []string{
	"<system-reminder>", "[Request interrupted", "<environment_context>", "<user_instructions>",
	"<permissions instructions>", "# AGENTS.md instructions",
}

func (s *Server) handleCountTokens(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"input_tokens":%d}`, len(body)/4+1)
}

func (s *Server) handleMessages(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	req, lastResult, err := parseRequest(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	reply, at, ok := s.answer(w, r, req, writeError)
	if !ok {
		return
	}
	msg := s.render(req, reply, lastResult, len(body))
	s.noteUsage(at, Usage{msg.Usage.InputTokens, msg.Usage.OutputTokens, msg.Usage.CacheReadTokens, msg.Usage.CacheWriteTokens})
	if req.Stream {
		s.stream(w, r, msg, reply.ChunkDelay)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(msg)
}

type usage struct {
	InputTokens      int `json:"input_tokens"`
	OutputTokens     int `json:"output_tokens"`
	CacheWriteTokens int `json:"cache_creation_input_tokens"`
	CacheReadTokens  int `json:"cache_read_input_tokens"`
}

type outBlock struct {
	Type      string `json:"type"`
	Text      string `json:"text,omitempty"`
	Thinking  string `json:"thinking,omitempty"`
	Signature string `json:"signature,omitempty"`
	ID        string `json:"id,omitempty"`
	Name      string `json:"name,omitempty"`
	// Input is a tool_use block's arguments, always a JSON object (an
	// interface so that an empty object is still sent; other blocks leave it nil).
	Input any `json:"input,omitempty"`
}

type outMessage struct {
	ID           string     `json:"id"`
	Type         string     `json:"type"`
	Role         string     `json:"role"`
	Model        string     `json:"model"`
	Content      []outBlock `json:"content"`
	StopReason   string     `json:"stop_reason"`
	StopSequence *string    `json:"stop_sequence"`
	Usage        usage      `json:"usage"`
}

func (s *Server) render(req Request, reply Reply, lastResult string, bodyLen int) outMessage {
	reply = reply.given(lastResult)
	n := s.msgSeq.Add(1)
	// Every response gets its own id: the CLI merges assistant messages
	// that share one.
	msg := outMessage{
		ID: fmt.Sprintf("msg_fake%08d", n), Type: "message", Role: "assistant",
		Model: req.Model, StopReason: "end_turn",
	}
	if msg.Model == "" {
		msg.Model = "claude-fake"
	}
	if reply.Thinking != "" {
		msg.Content = append(msg.Content, outBlock{Type: "thinking", Thinking: reply.Thinking, Signature: "fakesig"})
	}
	outLen := 0
	for _, t := range reply.Text {
		t = strings.ReplaceAll(t, "{{last_tool_result}}", strings.TrimSpace(lastResult))
		t = strings.ReplaceAll(t, "{{prompt}}", req.Prompt)
		msg.Content = append(msg.Content, outBlock{Type: "text", Text: t})
		outLen += len(t)
	}
	for i, tu := range reply.ToolUses {
		name, input := tu.resolve(req.Tools)
		msg.Content = append(msg.Content, outBlock{
			Type: "tool_use", ID: fmt.Sprintf("toolu_fake%08d_%d", n, i), Name: name, Input: input,
		})
		msg.StopReason = "tool_use"
		outLen += 20
	}
	if len(msg.Content) == 0 {
		msg.Content = append(msg.Content, outBlock{Type: "text", Text: "ok"})
	}
	msg.Usage = usage{
		InputTokens: orDefault(reply.InputTokens, bodyLen/4+1), OutputTokens: orDefault(reply.OutputTokens, outLen/4+1),
		CacheReadTokens: reply.CacheReadTokens, CacheWriteTokens: reply.CacheWriteTokens,
	}
	if s.script.Free {
		msg.Usage = usage{}
	}
	return msg
}

func orDefault(v, d int) int {
	if v != 0 {
		return v
	}
	return d
}

func (s *Server) stream(w http.ResponseWriter, r *http.Request, msg outMessage, chunkDelay time.Duration) {
	fl, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	send := func(event string, v any) bool {
		var buf bytes.Buffer
		b, _ := json.Marshal(v)
		fmt.Fprintf(&buf, "event: %s\ndata: %s\n\n", event, b)
		if _, err := w.Write(buf.Bytes()); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		if chunkDelay > 0 {
			select {
			case <-time.After(chunkDelay):
			case <-r.Context().Done():
				return false
			}
		}
		return true
	}
	start := msg
	start.Content = []outBlock{}
	start.StopReason = ""
	startUsage := msg.Usage
	startUsage.OutputTokens = min(1, msg.Usage.OutputTokens)
	start.Usage = startUsage
	if !send("message_start", map[string]any{"type": "message_start", "message": start}) {
		return
	}
	for i, b := range msg.Content {
		var head outBlock
		var deltas []map[string]any
		switch b.Type {
		case "thinking":
			head = outBlock{Type: "thinking"}
			for _, c := range chunks(b.Thinking) {
				deltas = append(deltas, map[string]any{"type": "thinking_delta", "thinking": c})
			}
			deltas = append(deltas, map[string]any{"type": "signature_delta", "signature": b.Signature})
		case "text":
			head = outBlock{Type: "text"}
			for _, c := range chunks(b.Text) {
				deltas = append(deltas, map[string]any{"type": "text_delta", "text": c})
			}
		case "tool_use":
			head = outBlock{Type: "tool_use", ID: b.ID, Name: b.Name}
			in, _ := json.Marshal(b.Input)
			for _, c := range chunks(string(in)) {
				deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": c})
			}
		}
		cb := map[string]any{"type": head.Type}
		switch head.Type {
		case "text":
			cb["text"] = ""
		case "thinking":
			cb["thinking"] = ""
		case "tool_use":
			cb["id"], cb["name"], cb["input"] = head.ID, head.Name, map[string]any{}
		}
		if !send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": cb}) {
			return
		}
		for _, d := range deltas {
			if !send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d}) {
				return
			}
		}
		if !send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i}) {
			return
		}
	}
	if !send("message_delta", map[string]any{
		"type":  "message_delta",
		"delta": map[string]any{"stop_reason": msg.StopReason, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": msg.Usage.OutputTokens},
	}) {
		return
	}
	send("message_stop", map[string]any{"type": "message_stop"})
}

// chunks splits s into a few pieces so clients see real deltas.
func chunks(s string) []string {
	const size = 24
	if s == "" {
		return []string{""}
	}
	var out []string
	for len(s) > size {
		cut := size
		for cut < len(s) && !isRuneStart(s[cut]) {
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"type":  "error",
		"error": map[string]any{"type": typ, "message": msg},
	})
}
