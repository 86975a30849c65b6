package scriptedmodel

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	aoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
)

// shellScript runs one shell command, then quotes what it printed.
func shellScript() Script {
	return Script{Rules: []Rule{
		Then("make the file", Reply{Thinking: "I should run a command.", Text: []string{"Running it."}, ToolUses: []ToolUse{{Shell: "touch made.txt"}}},
			Text("The tool said: {{last_tool_result}}")),
		Then("fail please", Reply{Status: http.StatusTooManyRequests, ErrorType: "rate_limit_error"}),
	}}
}

func TestShellToolResolution(t *testing.T) {
	for _, tc := range []struct {
		name     string
		declared []string
		tool     ToolUse
		wantName string
		wantArgs map[string]any
	}{
		{"claude", []string{"Read", "Bash"}, ToolUse{Shell: "ls"}, "Bash", map[string]any{"command": "ls", "description": "run ls"}},
		{"claude-acp terminals", []string{"mcp__acp__Read", "mcp__acp__Bash"}, ToolUse{Shell: "ls"}, "mcp__acp__Bash", map[string]any{"command": "ls", "description": "run ls", "timeout": 120000}},
		{"opencode", []string{"read", "bash", "edit"}, ToolUse{Shell: "ls -a"}, "bash", map[string]any{"command": "ls -a", "description": "run ls"}},
		{"gemini", []string{"read_file", "run_shell_command"}, ToolUse{Shell: "pwd"}, "run_shell_command", map[string]any{"command": "pwd", "description": "run pwd"}},
		{"codex shell", []string{"shell", "update_plan", "exec_command"}, ToolUse{Shell: "ls"}, "shell", map[string]any{"command": []any{"bash", "-lc", "ls"}}},
		{"codex unified", []string{"exec_command", "write_stdin"}, ToolUse{Shell: "ls"}, "exec_command", map[string]any{"cmd": "ls"}},
		{"codex string", []string{"shell_command"}, ToolUse{Shell: "ls"}, "shell_command", map[string]any{"command": "ls"}},
		{"kiro", []string{"fs_read", "execute_bash"}, ToolUse{Shell: "ls"}, "execute_bash", map[string]any{"command": "ls"}},
		{"fallback default", []string{"read"}, ToolUse{Shell: "ls"}, "Bash", map[string]any{"command": "ls"}},
		{"fallback named", nil, ToolUse{Name: "sh", Shell: "ls"}, "sh", map[string]any{"command": "ls"}},
		{"extra input", []string{"bash"}, ToolUse{Shell: "sleep 5", Input: map[string]any{"timeout": 9000, "command": "ignored"}}, "bash",
			map[string]any{"command": "sleep 5", "description": "run sleep", "timeout": 9000}},
		{"input replaces defaults", []string{"Bash"}, ToolUse{Shell: "ls", Input: map[string]any{"description": "list", "cmd": "no"}}, "Bash",
			map[string]any{"command": "ls", "description": "list"}},
		{"plain call", []string{"bash"}, ToolUse{Name: "Read", Input: map[string]any{"path": "x"}}, "Read", map[string]any{"path": "x"}},
		{"plain call no input", nil, ToolUse{Name: "Read"}, "Read", map[string]any{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name, args := tc.tool.resolve(tc.declared)
			if name != tc.wantName || !reflect.DeepEqual(args, tc.wantArgs) {
				t.Errorf("resolve = %q %v, want %q %v", name, args, tc.wantName, tc.wantArgs)
			}
		})
	}
}

func TestAnthropicSDKShellCall(t *testing.T) {
	h := startServer(t, shellScript())
	client := anthropic.NewClient(aoption.WithBaseURL(h.srv.URL()), aoption.WithAPIKey("test"), aoption.WithHTTPClient(h.client), aoption.WithMaxRetries(0))
	stream := client.Messages.NewStreaming(context.Background(), anthropic.MessageNewParams{
		Model: "claude-test", MaxTokens: 100,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("please make the file"))},
		Tools:    []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "Bash", InputSchema: anthropic.ToolInputSchemaParam{}}}},
	})
	var msg anthropic.Message
	for stream.Next() {
		if err := msg.Accumulate(stream.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, b := range msg.Content {
		if b.Type == "tool_use" {
			calls = append(calls, b.Name+" "+string(b.Input))
		}
	}
	if len(calls) != 1 || !strings.HasPrefix(calls[0], `Bash {"command":"touch made.txt"`) || msg.StopReason != "tool_use" {
		t.Errorf("tool calls %q, stop %q", calls, msg.StopReason)
	}
	if r := h.srv.RequestsOf(Anthropic); len(r) != 1 || r[0].Prompt != "please make the file" {
		t.Errorf("anthropic requests = %+v", r)
	}
}

func openaiClient(h *harness) openai.Client {
	return openai.NewClient(option.WithBaseURL(h.srv.URL()+"/v1/"), option.WithAPIKey("test"), option.WithHTTPClient(h.client), option.WithMaxRetries(0))
}

func bashTool(name string) openai.ChatCompletionToolUnionParam {
	return openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: name, Parameters: shared.FunctionParameters{"type": "object"}})
}

func TestChatCompletionsStreamingToolTurn(t *testing.T) {
	h := startServer(t, shellScript())
	client := openaiClient(h)
	ctx := context.Background()
	msgs := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage("SYSTEM-RULES"), openai.UserMessage("please make the file")}
	params := openai.ChatCompletionNewParams{
		Model: "gpt-test", Messages: msgs, Tools: []openai.ChatCompletionToolUnionParam{bashTool("read"), bashTool("bash")},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	stream := client.Chat.Completions.NewStreaming(ctx, params)
	var acc openai.ChatCompletionAccumulator
	chunks := 0
	for stream.Next() {
		chunks++
		acc.AddChunk(stream.Current())
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if len(acc.Choices) != 1 {
		t.Fatalf("choices = %+v", acc.Choices)
	}
	ch := acc.Choices[0]
	if ch.FinishReason != "tool_calls" || ch.Message.Content != "Running it." || len(ch.Message.ToolCalls) != 1 {
		t.Fatalf("first answer = %+v", ch)
	}
	tc := ch.Message.ToolCalls[0]
	var args map[string]any
	if err := json.Unmarshal([]byte(tc.Function.Arguments), &args); err != nil {
		t.Fatalf("arguments %q: %v", tc.Function.Arguments, err)
	}
	if tc.Function.Name != "bash" || args["command"] != "touch made.txt" || tc.ID == "" {
		t.Errorf("tool call = %+v", tc)
	}
	if acc.Usage.PromptTokens == 0 || acc.Usage.CompletionTokens == 0 || acc.Usage.TotalTokens != acc.Usage.PromptTokens+acc.Usage.CompletionTokens {
		t.Errorf("usage = %+v", acc.Usage)
	}
	if chunks < 5 {
		t.Errorf("%d chunks: not streamed in pieces", chunks)
	}

	// Second call: the tool's output comes back; the model quotes it.
	params.Messages = append(msgs, ch.Message.ToParam(), openai.ToolMessage("CREATED-OK", tc.ID))
	stream = client.Chat.Completions.NewStreaming(ctx, params)
	acc = openai.ChatCompletionAccumulator{}
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if got := acc.Choices[0].Message.Content; got != "The tool said: CREATED-OK" || acc.Choices[0].FinishReason != "stop" {
		t.Errorf("second answer = %q (%s)", got, acc.Choices[0].FinishReason)
	}
	reqs := h.srv.RequestsOf(ChatCompletions)
	if len(reqs) != 2 {
		t.Fatalf("%d chat requests", len(reqs))
	}
	r := reqs[1]
	if r.Step != 1 || r.Prompt != "please make the file" || !r.Saw("CREATED-OK") || !r.Saw("Running it.") ||
		!strings.Contains(r.System, "SYSTEM-RULES") || r.Saw("SYSTEM-RULES") || !slices.Equal(r.Tools, []string{"read", "bash"}) || !r.Stream {
		t.Errorf("recorded request = %+v", r)
	}
	if reqs[0].Step != 0 {
		t.Errorf("first step = %d", reqs[0].Step)
	}
}

func TestChatCompletionsNonStreaming(t *testing.T) {
	h := startServer(t, shellScript())
	client := openaiClient(h)
	resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model: "gpt-test", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("please make the file")},
		Tools: []openai.ChatCompletionToolUnionParam{bashTool("run_shell_command")},
	})
	if err != nil {
		t.Fatal(err)
	}
	m := resp.Choices[0].Message
	if resp.Choices[0].FinishReason != "tool_calls" || len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Name != "run_shell_command" {
		t.Fatalf("answer = %s", resp.RawJSON())
	}
	if !strings.Contains(m.RawJSON(), `"reasoning_content":"I should run a command."`) {
		t.Errorf("no reasoning_content in %s", m.RawJSON())
	}
	if resp.Usage.TotalTokens == 0 || resp.Model != "gpt-test" || !strings.HasPrefix(resp.ID, "chatcmpl-") {
		t.Errorf("response = %s", resp.RawJSON())
	}
	if r := h.srv.RequestsOf(ChatCompletions); len(r) != 1 || r[0].Stream {
		t.Errorf("requests = %+v", r)
	}
}

func responsesTools(names ...string) []responses.ToolUnionParam {
	var out []responses.ToolUnionParam
	for _, n := range names {
		out = append(out, responses.ToolUnionParam{OfFunction: &responses.FunctionToolParam{Name: n, Parameters: map[string]any{"type": "object"}}})
	}
	return out
}

func TestResponsesStreamingToolTurn(t *testing.T) {
	h := startServer(t, shellScript())
	client := openaiClient(h)
	ctx := context.Background()
	input := responses.ResponseInputParam{
		responses.ResponseInputItemParamOfMessage("<environment_context>cwd</environment_context>", responses.EasyInputMessageRoleUser),
		responses.ResponseInputItemParamOfMessage("please make the file", responses.EasyInputMessageRoleUser),
	}
	params := responses.ResponseNewParams{
		Model: "gpt-test", Instructions: openai.String("CODEX-INSTRUCTIONS"),
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input},
		Tools: responsesTools("exec_command", "shell", "update_plan"),
	}
	stream := client.Responses.NewStreaming(ctx, params)
	var types []string
	var deltas strings.Builder
	var done []responses.ResponseOutputItemUnion
	var completed responses.Response
	for stream.Next() {
		ev := stream.Current()
		types = append(types, ev.Type)
		switch ev.Type {
		case "response.output_text.delta":
			deltas.WriteString(ev.Delta)
		case "response.output_item.done":
			done = append(done, ev.Item)
		case "response.completed":
			completed = ev.Response
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if types[0] != "response.created" || types[len(types)-1] != "response.completed" {
		t.Errorf("event order %q", types)
	}
	for _, want := range []string{"response.output_item.added", "response.reasoning_summary_text.delta", "response.function_call_arguments.delta", "response.content_part.done"} {
		if !slices.Contains(types, want) {
			t.Errorf("no %s in %q", want, types)
		}
	}
	if deltas.String() != "Running it." {
		t.Errorf("text deltas %q", deltas.String())
	}
	if len(done) != 3 || done[0].Type != "reasoning" || done[1].Type != "message" || done[2].Type != "function_call" {
		t.Fatalf("items done = %+v", done)
	}
	fc := done[2]
	var fcRaw struct {
		Name, CallID, Arguments string
	}
	_ = json.Unmarshal([]byte(fc.RawJSON()), &struct {
		Name      *string `json:"name"`
		CallID    *string `json:"call_id"`
		Arguments *string `json:"arguments"`
	}{&fcRaw.Name, &fcRaw.CallID, &fcRaw.Arguments})
	if fcRaw.Name != "shell" || fcRaw.Arguments != `{"command":["bash","-lc","touch made.txt"]}` || fcRaw.CallID == "" {
		t.Errorf("function call = %+v", fcRaw)
	}
	u := completed.Usage
	if completed.ID == "" || completed.Status != "completed" || u.InputTokens == 0 || u.OutputTokens == 0 || u.TotalTokens != u.InputTokens+u.OutputTokens {
		t.Errorf("completed = %s", completed.RawJSON())
	}

	// Second call: the model's items and the call's output go back in.
	out := responses.ResponseInputItemParamOfFunctionCallOutput("CREATED-OK")
	out.OfFunctionCallOutput.CallID = openai.String(fcRaw.CallID)
	params.Input.OfInputItemList = append(input,
		responses.ResponseInputItemParamOfMessage("Running it.", responses.EasyInputMessageRoleAssistant),
		responses.ResponseInputItemParamOfFunctionCall(fcRaw.Arguments, fcRaw.CallID, fcRaw.Name),
		out)
	resp, err := client.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if resp.OutputText() != "The tool said: CREATED-OK" || resp.Usage.TotalTokens == 0 {
		t.Errorf("second answer = %s", resp.RawJSON())
	}
	reqs := h.srv.RequestsOf(Responses)
	if len(reqs) != 2 {
		t.Fatalf("%d responses requests", len(reqs))
	}
	r := reqs[1]
	if r.Step != 1 || r.Prompt != "please make the file" || !r.Saw("CREATED-OK") || !r.Saw("Running it.") || r.Stream ||
		r.System != "CODEX-INSTRUCTIONS\n" || !slices.Equal(r.Tools, []string{"exec_command", "shell", "update_plan"}) {
		t.Errorf("recorded request = %+v", r)
	}
	if !reqs[0].Stream || reqs[0].Step != 0 {
		t.Errorf("first request = %+v", reqs[0])
	}
}

func TestResponsesStringInput(t *testing.T) {
	h := startServer(t, Script{Rules: []Rule{Then("hello", Text("hi {{prompt}}"))}})
	client := openaiClient(h)
	resp, err := client.Responses.New(context.Background(), responses.ResponseNewParams{
		Model: "gpt-test", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("hello there")},
		Tools: responsesTools("shell"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.OutputText() != "hi hello there" {
		t.Errorf("answer %q", resp.OutputText())
	}
}

// geminiCall posts a Gemini request and returns the assembled parts, the
// last usageMetadata and the finish reason.
func geminiCall(t *testing.T, h *harness, method string, body map[string]any) (parts []map[string]any, usage map[string]any, finish string) {
	t.Helper()
	path := "/v1beta/models/gemini-test:" + method
	if method == "streamGenerateContent" {
		path += "?alt=sse"
	}
	status, hdr, raw := h.post(path, body)
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, raw)
	}
	var frames []map[string]any
	if method == "streamGenerateContent" {
		if !strings.HasPrefix(hdr.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("Content-Type %q", hdr.Get("Content-Type"))
		}
		if !strings.Contains(string(raw), "\r\n\r\n") {
			t.Error("Gemini frames are not CRLF-delimited")
		}
		frames = dataFrames(t, strings.ReplaceAll(string(raw), "\r\n", "\n"))
	} else {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		frames = append(frames, m)
	}
	for _, f := range frames {
		cand := f["candidates"].([]any)[0].(map[string]any)
		for _, p := range cand["content"].(map[string]any)["parts"].([]any) {
			pm := p.(map[string]any)
			if n := len(parts); n > 0 && pm["text"] != nil && parts[n-1]["text"] != nil && pm["thought"] == parts[n-1]["thought"] {
				parts[n-1]["text"] = parts[n-1]["text"].(string) + pm["text"].(string)
				continue
			}
			parts = append(parts, pm)
		}
		if fr, ok := cand["finishReason"].(string); ok {
			finish = fr
		}
		if u, ok := f["usageMetadata"].(map[string]any); ok {
			usage = u
		}
	}
	return parts, usage, finish
}

func geminiTools(names ...string) []any {
	var decls []any
	for _, n := range names {
		decls = append(decls, map[string]any{"name": n})
	}
	return []any{map[string]any{"functionDeclarations": decls}}
}

func TestGeminiToolTurn(t *testing.T) {
	for _, method := range []string{"streamGenerateContent", "generateContent"} {
		t.Run(method, func(t *testing.T) {
			h := startServer(t, shellScript())
			contents := []any{
				map[string]any{"role": "user", "parts": []any{map[string]any{"text": "please make the file"}}},
			}
			body := map[string]any{
				"contents": contents, "tools": geminiTools("read_file", "run_shell_command"),
				"systemInstruction": map[string]any{"parts": []any{map[string]any{"text": "GEMINI-SYSTEM"}}},
			}
			parts, usage, finish := geminiCall(t, h, method, body)
			if len(parts) != 3 || parts[0]["thought"] != true || parts[0]["text"] != "I should run a command." || parts[1]["text"] != "Running it." {
				t.Fatalf("parts = %v", parts)
			}
			fc, _ := parts[2]["functionCall"].(map[string]any)
			if fc["name"] != "run_shell_command" || fc["args"].(map[string]any)["command"] != "touch made.txt" {
				t.Errorf("function call = %v", parts[2])
			}
			if finish != "STOP" || usage["promptTokenCount"].(float64) == 0 || usage["totalTokenCount"].(float64) == 0 {
				t.Errorf("finish %q usage %v", finish, usage)
			}

			body["contents"] = append(contents,
				map[string]any{"role": "model", "parts": []any{map[string]any{"text": "Running it."}, map[string]any{"functionCall": fc}}},
				map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{
					"name": "run_shell_command", "response": map[string]any{"output": "CREATED-OK"}}}}},
			)
			parts, _, _ = geminiCall(t, h, method, body)
			if len(parts) != 1 || parts[0]["text"] != "The tool said: CREATED-OK" {
				t.Errorf("second answer = %v", parts)
			}
			reqs := h.srv.RequestsOf(Gemini)
			if len(reqs) != 2 {
				t.Fatalf("%d gemini requests", len(reqs))
			}
			r := reqs[1]
			if r.Model != "gemini-test" || r.Step != 1 || r.Prompt != "please make the file" || !r.Saw("CREATED-OK") ||
				r.System != "GEMINI-SYSTEM\n" || r.Stream != (method == "streamGenerateContent") {
				t.Errorf("recorded = %+v", r)
			}
		})
	}
}

func TestGeminiSideRequests(t *testing.T) {
	h := startServer(t, shellScript())
	parts, _, _ := geminiCall(t, h, "generateContent", map[string]any{
		"contents":         []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "who speaks next?"}}}},
		"generationConfig": map[string]any{"responseMimeType": "application/json"},
	})
	var next struct {
		NextSpeaker string `json:"next_speaker"`
	}
	if len(parts) != 1 || json.Unmarshal([]byte(parts[0]["text"].(string)), &next) != nil || next.NextSpeaker != "user" {
		t.Errorf("JSON side answer = %v", parts)
	}
	status, _, raw := h.post("/v1beta/models/gemini-test:countTokens", map[string]any{"contents": []any{}})
	var ct struct{ TotalTokens int }
	if status != http.StatusOK || json.Unmarshal(raw, &ct) != nil || ct.TotalTokens == 0 {
		t.Errorf("countTokens: %d %s", status, raw)
	}
	status, _, raw = h.post("/v1beta/models/gemini-test:embedContent", map[string]any{})
	if status != http.StatusNotFound || !strings.Contains(string(raw), "NOT_FOUND") {
		t.Errorf("unknown method: %d %s", status, raw)
	}
}

func TestFlavorErrors(t *testing.T) {
	h := startServer(t, shellScript())
	client := openaiClient(h)
	_, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model: "m", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("fail please")}, Tools: []openai.ChatCompletionToolUnionParam{bashTool("bash")},
	})
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusTooManyRequests || apiErr.Type != "rate_limit_error" {
		t.Errorf("chat error = %v", err)
	}
	_, err = client.Responses.New(context.Background(), responses.ResponseNewParams{
		Model: "m", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("fail please")}, Tools: responsesTools("shell"),
	})
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusTooManyRequests {
		t.Errorf("responses error = %v", err)
	}
	status, _, raw := h.post("/v1beta/models/g:streamGenerateContent?alt=sse", map[string]any{
		"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "fail please"}}}},
		"tools":    geminiTools("run_shell_command"),
	})
	var ge struct {
		Error struct {
			Code   int
			Status string
		}
	}
	if status != http.StatusTooManyRequests || json.Unmarshal(raw, &ge) != nil || ge.Error.Status != "RESOURCE_EXHAUSTED" || ge.Error.Code != 429 {
		t.Errorf("gemini error: %d %s", status, raw)
	}
	status, _, _ = h.post("/v1/chat/completions", "not an object")
	if status != http.StatusBadRequest {
		t.Errorf("malformed chat body: %d", status)
	}
	if n := len(h.srv.RequestsOf(Anthropic)); n != 0 {
		t.Errorf("%d anthropic requests recorded", n)
	}
}

func TestModelsList(t *testing.T) {
	h := startServer(t, Script{})
	client := openaiClient(h)
	page, err := client.Models.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Data) != 1 || page.Data[0].ID == "" {
		t.Errorf("models = %+v", page.Data)
	}
}

// dataFrames decodes a data-only SSE body.
func dataFrames(t *testing.T, body string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, ev := range strings.Split(strings.TrimSpace(body), "\n\n") {
		data, ok := strings.CutPrefix(ev, "data: ")
		if !ok || strings.Contains(data, "\n") {
			t.Fatalf("bad SSE frame %q", ev)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			t.Fatalf("frame %q: %v", data, err)
		}
		out = append(out, m)
	}
	return out
}
