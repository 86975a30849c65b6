package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	aoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// reply is one model call's outcome.
type reply struct {
	text     string
	thinking string
	calls    []toolCall
	model    string

	inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens int64
}

// callRequest is one model call.
type callRequest struct {
	model     string
	system    string
	history   []message
	tools     bool
	maxTokens int
}

// deltaFunc receives streamed text; an error aborts the call.
type deltaFunc func(text string) error

// client calls one API flavor.
type client interface {
	call(ctx context.Context, req callRequest, onText, onThinking deltaFunc) (reply, error)
}

func newClient(o Options, base, key string) client {
	hc := o.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	if o.Flavor == OpenAI {
		opts := []option.RequestOption{option.WithHTTPClient(hc), option.WithMaxRetries(2)}
		if base != "" {
			opts = append(opts, option.WithBaseURL(openAIBase(base)))
		}
		if key != "" {
			opts = append(opts, option.WithAPIKey(key))
		} else {
			opts = append(opts, option.WithAPIKey("none"))
		}
		return &openaiClient{c: openai.NewClient(opts...)}
	}
	opts := []aoption.RequestOption{aoption.WithHTTPClient(hc), aoption.WithMaxRetries(2)}
	if base != "" {
		opts = append(opts, aoption.WithBaseURL(base))
	}
	if key != "" {
		opts = append(opts, aoption.WithAPIKey(key))
	} else {
		opts = append(opts, aoption.WithAPIKey("none"))
	}
	return &anthropicClient{c: anthropic.NewClient(opts...)}
}

// openAIBase makes a base URL end in /v1/ the way OpenAI-compatible
// servers are usually given ("http://host:port" or ".../v1").
func openAIBase(base string) string {
	base = strings.TrimRight(base, "/")
	if !strings.HasSuffix(base, "/v1") {
		base += "/v1"
	}
	return base + "/"
}

const bashDescription = "Run a bash command in the work directory and return its output (stdout and stderr). " +
	"Commands run one at a time; each has a time limit."

var bashSchema = map[string]any{
	"command": map[string]any{"type": "string", "description": "the bash command to run"},
}

type anthropicClient struct{ c anthropic.Client }

func (a *anthropicClient) call(ctx context.Context, req callRequest, onText, onThinking deltaFunc) (reply, error) {
	params := anthropic.MessageNewParams{
		Model: anthropic.Model(req.model), MaxTokens: int64(req.maxTokens),
		Messages: anthropicMessages(req.history),
	}
	if req.system != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.system}}
	}
	if req.tools {
		params.Tools = []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{
			Name: "bash", Description: anthropic.String(bashDescription),
			InputSchema: anthropic.ToolInputSchemaParam{Properties: bashSchema, Required: []string{"command"}},
		}}}
	}
	stream := a.c.Messages.NewStreaming(ctx, params)
	defer stream.Close()
	var msg anthropic.Message
	for stream.Next() {
		ev := stream.Current()
		if err := msg.Accumulate(ev); err != nil {
			return reply{}, fmt.Errorf("anthropic stream: %w", err)
		}
		if d, ok := ev.AsAny().(anthropic.ContentBlockDeltaEvent); ok {
			switch dd := d.Delta.AsAny().(type) {
			case anthropic.TextDelta:
				if err := onText(dd.Text); err != nil {
					return reply{}, err
				}
			case anthropic.ThinkingDelta:
				if err := onThinking(dd.Thinking); err != nil {
					return reply{}, err
				}
			}
		}
	}
	if err := stream.Err(); err != nil {
		return reply{}, err
	}
	r := reply{
		model: string(msg.Model), inputTokens: msg.Usage.InputTokens, outputTokens: msg.Usage.OutputTokens,
		cacheReadTokens: msg.Usage.CacheReadInputTokens, cacheWriteTokens: msg.Usage.CacheCreationInputTokens,
	}
	var texts []string
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "thinking":
			r.thinking += b.Thinking
		case "tool_use":
			input := map[string]any{}
			if len(b.Input) > 0 {
				if err := json.Unmarshal(b.Input, &input); err != nil {
					return reply{}, fmt.Errorf("anthropic: tool input of %s: %w", b.Name, err)
				}
			}
			r.calls = append(r.calls, toolCall{ID: b.ID, Name: b.Name, Input: input})
		}
	}
	r.text = strings.Join(texts, "\n")
	return r, nil
}

func anthropicMessages(history []message) []anthropic.MessageParam {
	var out []anthropic.MessageParam
	for _, m := range history {
		var blocks []anthropic.ContentBlockParamUnion
		for _, res := range m.Results {
			blocks = append(blocks, anthropic.NewToolResultBlock(res.ID, res.Output, res.IsError))
		}
		if m.Text != "" {
			blocks = append(blocks, anthropic.NewTextBlock(m.Text))
		}
		for _, c := range m.Calls {
			blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, c.Input, c.Name))
		}
		if len(blocks) == 0 {
			blocks = append(blocks, anthropic.NewTextBlock("(empty)"))
		}
		if m.Role == "assistant" {
			out = append(out, anthropic.NewAssistantMessage(blocks...))
		} else {
			out = append(out, anthropic.NewUserMessage(blocks...))
		}
	}
	return out
}

type openaiClient struct{ c openai.Client }

func (o *openaiClient) call(ctx context.Context, req callRequest, onText, onThinking deltaFunc) (reply, error) {
	params := openai.ChatCompletionNewParams{
		Model: req.model, Messages: openaiMessages(req.system, req.history),
		MaxCompletionTokens: openai.Int(int64(req.maxTokens)),
		StreamOptions:       openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if req.tools {
		params.Tools = []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: "bash", Description: openai.String(bashDescription),
			Parameters: shared.FunctionParameters{"type": "object", "properties": bashSchema, "required": []string{"command"}},
		})}
	}
	stream := o.c.Chat.Completions.NewStreaming(ctx, params)
	defer stream.Close()
	var acc openai.ChatCompletionAccumulator
	var thinking strings.Builder
	for stream.Next() {
		ch := stream.Current()
		acc.AddChunk(ch)
		if len(ch.Choices) == 0 {
			continue
		}
		d := ch.Choices[0].Delta
		// Servers that show their reasoning send it beside the content,
		// as reasoning_content (not part of the OpenAI schema).
		if f, ok := d.JSON.ExtraFields["reasoning_content"]; ok {
			var r string
			if json.Unmarshal([]byte(f.Raw()), &r) == nil && r != "" {
				thinking.WriteString(r)
				if err := onThinking(r); err != nil {
					return reply{}, err
				}
			}
		}
		if d.Content != "" {
			if err := onText(d.Content); err != nil {
				return reply{}, err
			}
		}
	}
	if err := stream.Err(); err != nil {
		return reply{}, err
	}
	r := reply{
		model: acc.Model, inputTokens: acc.Usage.PromptTokens, outputTokens: acc.Usage.CompletionTokens,
		cacheReadTokens: acc.Usage.PromptTokensDetails.CachedTokens, thinking: thinking.String(),
	}
	if len(acc.Choices) == 0 {
		return r, nil
	}
	m := acc.Choices[0].Message
	r.text = m.Content
	for _, tc := range m.ToolCalls {
		input := map[string]any{}
		if tc.Function.Arguments != "" {
			if err := json.Unmarshal([]byte(tc.Function.Arguments), &input); err != nil {
				return reply{}, fmt.Errorf("openai: arguments of %s: %w", tc.Function.Name, err)
			}
		}
		r.calls = append(r.calls, toolCall{ID: tc.ID, Name: tc.Function.Name, Input: input})
	}
	return r, nil
}

func openaiMessages(system string, history []message) []openai.ChatCompletionMessageParamUnion {
	var out []openai.ChatCompletionMessageParamUnion
	if system != "" {
		out = append(out, openai.SystemMessage(system))
	}
	for _, m := range history {
		for _, res := range m.Results {
			out = append(out, openai.ToolMessage(res.Output, res.ID))
		}
		if m.Role == "assistant" {
			a := openai.ChatCompletionAssistantMessageParam{}
			if m.Text != "" {
				a.Content.OfString = openai.String(m.Text)
			}
			for _, c := range m.Calls {
				args, _ := json.Marshal(c.Input)
				a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID: c.ID, Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: string(args)},
					},
				})
			}
			out = append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
			continue
		}
		if m.Text != "" {
			out = append(out, openai.UserMessage(m.Text))
		}
	}
	return out
}
