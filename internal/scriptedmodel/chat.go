package scriptedmodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// chatRequest is the part of an OpenAI Chat Completions request the server reads.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCalls  []any           `json:"tool_calls"`
		ToolCallID string          `json:"tool_call_id"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	Stream        bool `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// chatText reads message content that is a string or an array of parts.
func chatText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var out []string
	for _, p := range parts {
		if p.Text != "" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}

func parseChat(body []byte) (chatRequest, Request, string, error) {
	var cr chatRequest
	if err := json.Unmarshal(body, &cr); err != nil {
		return cr, Request{}, "", fmt.Errorf("invalid JSON body: %w", err)
	}
	req := Request{Flavor: ChatCompletions, Model: cr.Model, HasTools: len(cr.Tools) > 0, Stream: cr.Stream}
	for _, t := range cr.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	promptAt, lastResult := -1, ""
	for i, m := range cr.Messages {
		t := chatText(m.Content)
		switch m.Role {
		case "system", "developer":
			req.System += t + "\n"
			continue
		case "tool":
			lastResult = t
		case "user":
			if typedByUser(t) {
				promptAt, req.Prompt = i, t
			}
		}
		if t != "" {
			req.Texts = append(req.Texts, t)
		}
	}
	var roles []bool
	for _, m := range cr.Messages[promptAt+1:] {
		roles = append(roles, m.Role == "assistant")
	}
	req.Step = stepsAfter(roles)
	return cr, req, lastResult, nil
}

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	cr, c, ok := receiveOpenAI(s, w, r, parseChat)
	if !ok {
		return
	}
	id := fmt.Sprintf("chatcmpl-fake%08d", c.seq)
	created := time.Now().Unix()
	finish := "stop"
	if len(c.calls) > 0 {
		finish = "tool_calls"
	}
	usage := map[string]any{
		"prompt_tokens": c.inputTokens, "completion_tokens": c.outputTokens,
		"total_tokens":          c.inputTokens + c.outputTokens,
		"prompt_tokens_details": map[string]any{"cached_tokens": c.cacheReadTokens},
	}
	if !cr.Stream {
		msg := map[string]any{"role": "assistant", "content": c.text()}
		if c.thinking != "" {
			msg["reasoning_content"] = c.thinking
		}
		if len(c.calls) > 0 {
			var tcs []any
			for _, tc := range c.calls {
				tcs = append(tcs, map[string]any{
					"id": tc.id, "type": "function",
					"function": map[string]any{"name": tc.name, "arguments": tc.arguments()},
				})
			}
			msg["tool_calls"] = tcs
			if len(c.texts) == 0 {
				msg["content"] = nil
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": id, "object": "chat.completion", "created": created, "model": c.model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   usage,
		})
		return
	}
	out := startSSE(w, r, c.chunkDelay)
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": c.model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}
	}
	if !out.send("", chunk(map[string]any{"role": "assistant", "content": ""}, nil)) {
		return
	}
	if c.thinking != "" {
		for _, p := range chunks(c.thinking) {
			if !out.send("", chunk(map[string]any{"reasoning_content": p}, nil)) {
				return
			}
		}
	}
	for _, t := range c.texts {
		for _, p := range chunks(t) {
			if !out.send("", chunk(map[string]any{"content": p}, nil)) {
				return
			}
		}
	}
	for i, tc := range c.calls {
		head := map[string]any{"tool_calls": []any{map[string]any{
			"index": i, "id": tc.id, "type": "function",
			"function": map[string]any{"name": tc.name, "arguments": ""},
		}}}
		if !out.send("", chunk(head, nil)) {
			return
		}
		for _, p := range chunks(tc.arguments()) {
			d := map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": p}}}}
			if !out.send("", chunk(d, nil)) {
				return
			}
		}
	}
	last := chunk(map[string]any{}, finish)
	if !out.send("", last) {
		return
	}
	if cr.StreamOptions != nil && cr.StreamOptions.IncludeUsage {
		if !out.send("", map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": c.model,
			"choices": []any{}, "usage": usage,
		}) {
			return
		}
	}
	out.send("", "[DONE]")
}
