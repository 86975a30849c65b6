package scriptedmodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// responsesItem is one input item of an OpenAI Responses request: a message
// (typed or role-only), a function call, a call's output, reasoning, ...
type responsesItem struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Output  json.RawMessage `json:"output"`
}

type responsesRequest struct {
	Model        string          `json:"model"`
	Instructions string          `json:"instructions"`
	Input        json.RawMessage `json:"input"`
	Tools        []struct {
		Type     string `json:"type"`
		Name     string `json:"name"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	Stream bool `json:"stream"`
}

// namespaced splits name into a namespace the request declared and a
// function of it ("mcp__editor__echo": "mcp__editor", "echo").
func (rr responsesRequest) namespaced(name string) (namespace, function string, ok bool) {
	for _, t := range rr.Tools {
		if t.Type == "namespace" && strings.HasPrefix(name, t.Name+"__") {
			return t.Name, strings.TrimPrefix(name, t.Name+"__"), true
		}
	}
	return "", "", false
}

// custom reports whether the request declared name as a freeform tool.
func (rr responsesRequest) custom(name string) bool {
	for _, t := range rr.Tools {
		if t.Type == "custom" && t.Name == name {
			return true
		}
	}
	return false
}

// assistantItem reports whether an input item is something the model
// produced (as opposed to the user's words or a tool's output).
func (it responsesItem) assistantItem() bool {
	switch it.Type {
	case "function_call", "reasoning", "custom_tool_call", "local_shell_call", "web_search_call":
		return true
	case "message", "":
		return it.Role == "assistant"
	}
	return false
}

func parseResponses(body []byte) (responsesRequest, Request, string, error) {
	var rr responsesRequest
	if err := json.Unmarshal(body, &rr); err != nil {
		return rr, Request{}, "", fmt.Errorf("invalid JSON body: %w", err)
	}
	req := Request{Flavor: Responses, Model: rr.Model, HasTools: len(rr.Tools) > 0, Stream: rr.Stream}
	if rr.Instructions != "" {
		req.System = rr.Instructions + "\n"
	}
	for _, t := range rr.Tools {
		name := t.Name
		if name == "" {
			name = t.Function.Name
		}
		if name == "" {
			name = t.Type // built-in tools such as local_shell
		}
		req.Tools = append(req.Tools, name)
	}
	var items []responsesItem
	var s string
	if json.Unmarshal(rr.Input, &s) == nil {
		items = []responsesItem{{Type: "message", Role: "user", Content: rr.Input}}
	} else if len(rr.Input) > 0 {
		if err := json.Unmarshal(rr.Input, &items); err != nil {
			return rr, Request{}, "", fmt.Errorf("input: %w", err)
		}
	}
	promptAt, lastResult := -1, ""
	for i, it := range items {
		switch it.Type {
		case "message", "":
			t := chatText(it.Content)
			if it.Role == "system" || it.Role == "developer" {
				req.System += t + "\n"
				continue
			}
			if t != "" {
				req.Texts = append(req.Texts, t)
			}
			if it.Role == "user" && typedByUser(t) {
				promptAt, req.Prompt = i, t
			}
		case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
			t := chatText(it.Output)
			var wrapped struct {
				Output string `json:"output"`
			}
			if json.Unmarshal([]byte(t), &wrapped) == nil && wrapped.Output != "" {
				t = wrapped.Output
			}
			lastResult = t
			if t != "" {
				req.Texts = append(req.Texts, t)
			}
		}
	}
	var roles []bool
	for _, it := range items[promptAt+1:] {
		roles = append(roles, it.assistantItem())
	}
	req.Step = stepsAfter(roles)
	return rr, req, lastResult, nil
}

func (s *Server) handleResponses(w http.ResponseWriter, r *http.Request) {
	rr, c, ok := receiveOpenAI(s, w, r, parseResponses)
	if !ok {
		return
	}
	id := fmt.Sprintf("resp_fake%08d", c.seq)
	created := time.Now().Unix()

	var items []map[string]any
	if c.thinking != "" {
		items = append(items, map[string]any{
			"type": "reasoning", "id": fmt.Sprintf("rs_fake%08d", c.seq),
			"summary": []any{map[string]any{"type": "summary_text", "text": c.thinking}},
		})
	}
	for i, t := range c.texts {
		items = append(items, map[string]any{
			"type": "message", "id": fmt.Sprintf("msg_fake%08d_%d", c.seq, i), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": t, "annotations": []any{}}},
		})
	}
	for i, tc := range c.calls {
		if rr.custom(tc.name) {
			// A freeform tool (Codex's apply_patch) takes its input as text:
			// the call's "input" argument.
			input, _ := tc.args["input"].(string)
			items = append(items, map[string]any{
				"type": "custom_tool_call", "id": fmt.Sprintf("ctc_fake%08d_%d", c.seq, i), "call_id": tc.id,
				"name": tc.name, "input": input, "status": "completed",
			})
			continue
		}
		call := map[string]any{
			"type": "function_call", "id": fmt.Sprintf("fc_fake%08d_%d", c.seq, i), "call_id": tc.id,
			"name": tc.name, "arguments": tc.arguments(), "status": "completed",
		}
		if ns, fn, ok := rr.namespaced(tc.name); ok {
			// A function of a declared namespace (Codex puts each MCP
			// server's tools in one, mcp__<server>): the script names it
			// <namespace>__<function>.
			call["namespace"], call["name"] = ns, fn
		}
		items = append(items, call)
	}
	response := func(status string, output []map[string]any) map[string]any {
		resp := map[string]any{
			"id": id, "object": "response", "created_at": created, "status": status, "model": c.model,
			"output": output, "parallel_tool_calls": true, "tool_choice": "auto", "tools": []any{},
		}
		if status == "completed" {
			resp["usage"] = map[string]any{
				"input_tokens":          c.inputTokens,
				"input_tokens_details":  map[string]any{"cached_tokens": c.cacheReadTokens},
				"output_tokens":         c.outputTokens,
				"output_tokens_details": map[string]any{"reasoning_tokens": len(c.thinking) / 4},
				"total_tokens":          c.inputTokens + c.outputTokens,
			}
			resp["output_text"] = c.text()
		}
		return resp
	}
	if !rr.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(response("completed", items))
		return
	}

	out := startSSE(w, r, c.chunkDelay)
	seq := 0
	send := func(typ string, fields map[string]any) bool {
		fields["type"] = typ
		fields["sequence_number"] = seq
		seq++
		return out.send(typ, fields)
	}
	if !send("response.created", map[string]any{"response": response("in_progress", []map[string]any{})}) ||
		!send("response.in_progress", map[string]any{"response": response("in_progress", []map[string]any{})}) {
		return
	}
	for i, it := range items {
		itemID := it["id"]
		added := map[string]any{}
		for k, v := range it {
			added[k] = v
		}
		switch it["type"] {
		case "message":
			added["content"], added["status"] = []any{}, "in_progress"
		case "function_call":
			added["arguments"], added["status"] = "", "in_progress"
		case "custom_tool_call":
			added["input"], added["status"] = "", "in_progress"
		case "reasoning":
			added["summary"] = []any{}
		}
		if !send("response.output_item.added", map[string]any{"output_index": i, "item": added}) {
			return
		}
		switch it["type"] {
		case "reasoning":
			part := map[string]any{"item_id": itemID, "output_index": i, "summary_index": 0}
			if !send("response.reasoning_summary_part.added", with(part, "part", map[string]any{"type": "summary_text", "text": ""})) {
				return
			}
			for _, p := range chunks(c.thinking) {
				if !send("response.reasoning_summary_text.delta", with(part, "delta", p)) {
					return
				}
			}
			if !send("response.reasoning_summary_text.done", with(part, "text", c.thinking)) ||
				!send("response.reasoning_summary_part.done", with(part, "part", map[string]any{"type": "summary_text", "text": c.thinking})) {
				return
			}
		case "message":
			text := it["content"].([]any)[0].(map[string]any)["text"].(string)
			part := map[string]any{"item_id": itemID, "output_index": i, "content_index": 0}
			if !send("response.content_part.added", with(part, "part", map[string]any{"type": "output_text", "text": "", "annotations": []any{}})) {
				return
			}
			for _, p := range chunks(text) {
				if !send("response.output_text.delta", with(part, "delta", p)) {
					return
				}
			}
			if !send("response.output_text.done", with(part, "text", text)) ||
				!send("response.content_part.done", with(part, "part", map[string]any{"type": "output_text", "text": text, "annotations": []any{}})) {
				return
			}
		case "function_call":
			args := it["arguments"].(string)
			part := map[string]any{"item_id": itemID, "output_index": i}
			for _, p := range chunks(args) {
				if !send("response.function_call_arguments.delta", with(part, "delta", p)) {
					return
				}
			}
			if !send("response.function_call_arguments.done", with(part, "arguments", args)) {
				return
			}
		}
		if !send("response.output_item.done", map[string]any{"output_index": i, "item": it}) {
			return
		}
	}
	send("response.completed", map[string]any{"response": response("completed", items)})
}

// with returns a copy of m with k set to v.
func with(m map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for kk, vv := range m {
		out[kk] = vv
	}
	out[k] = v
	return out
}
