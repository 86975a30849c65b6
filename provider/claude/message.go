package claude

import (
	"encoding/json"
	"strings"
)

// StreamMessage is one frame of Claude Code's stream-json output. Only the
// fields HotPlex reads are declared; the rest of a frame is ignored, so new
// CLI versions can add fields freely.
type StreamMessage struct {
	Message      *AssistantMessage `json:"message,omitempty"`        // Details of an assistant or user message
	Input        map[string]any    `json:"input,omitempty"`          // Arguments passed to a tool invocation
	Type         string            `json:"type"`                     // Frame type: "assistant", "user", "result", "system", "control_request", ...
	Timestamp    string            `json:"timestamp,omitempty"`      // ISO8601 timestamp of the event
	SessionID    string            `json:"session_id,omitempty"`     // The persistent session identifier in the CLI's internal DB
	Role         string            `json:"role,omitempty"`           // Message role: "user", "assistant", or "system"
	Name         string            `json:"name,omitempty"`           // Name of the tool being used or the block type
	Output       string            `json:"output,omitempty"`         // Raw string output from a tool or assistant
	Status       string            `json:"status,omitempty"`         // Lifecycle status of the event (e.g., "running", "success")
	Error        string            `json:"error,omitempty"`          // Detailed error message if an operation fails
	Content      []ContentBlock    `json:"content,omitempty"`        // Hierarchical content blocks (text, tool_use, etc.)
	Duration     int               `json:"duration_ms,omitempty"`    // Execution time in milliseconds for "result" messages
	Subtype      string            `json:"subtype,omitempty"`        // Fine-grained type classification (e.g., for "result" events)
	IsError      bool              `json:"is_error,omitempty"`       // Flag indicating if the overall turn resulted in an error
	TotalCostUSD float64           `json:"total_cost_usd,omitempty"` // The CLI process's running total in USD (not the turn's own; see event.TurnResult)
	Usage        *UsageStats       `json:"usage,omitempty"`          // Precise token consumption for the turn
	Result       string            `json:"result,omitempty"`         // Final summarized result of the execution

	// DurationAPIMs is the time the turn spent waiting on the model API.
	DurationAPIMs int64 `json:"duration_api_ms,omitempty"`
	// NumTurns counts the model calls of the turn.
	NumTurns int `json:"num_turns,omitempty"`
	// Model is set on system/init frames.
	Model string `json:"model,omitempty"`
	// ModelUsage maps each model the turn used to its figures (result frames).
	ModelUsage map[string]json.RawMessage `json:"modelUsage,omitempty"`
	// ParentToolUseID is set on messages of a sub-agent (Task tool).
	ParentToolUseID string `json:"parent_tool_use_id,omitempty"`
	// RequestID, Request and Response belong to the control protocol.
	RequestID string           `json:"request_id,omitempty"`
	Request   *ControlRequest  `json:"request,omitempty"`
	Response  *ControlResponse `json:"response,omitempty"`
	// Event is the raw API event of a stream_event frame.
	Event json.RawMessage `json:"event,omitempty"`
	// APIMessageID names the API message a stream_event belongs to.
	APIMessageID string `json:"api_message_id,omitempty"`
}

// AssistantMessage is the message of an assistant or user frame.
type AssistantMessage struct {
	ID      string         `json:"id,omitempty"`      // Unique message ID
	Type    string         `json:"type,omitempty"`    // Typically "message"
	Role    string         `json:"role,omitempty"`    // Typically "assistant"
	Content []ContentBlock `json:"content,omitempty"` // Sequence of text and tool blocks

	// Model is the model that wrote the message.
	Model string `json:"model,omitempty"`
	// Usage is the message's token usage as the API reported it.
	Usage *UsageStats `json:"usage,omitempty"`
}

// UnmarshalJSON accepts content given as a plain string, as user messages
// sometimes carry it.
func (m *AssistantMessage) UnmarshalJSON(b []byte) error {
	type plain AssistantMessage
	var aux struct {
		plain
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*m = AssistantMessage(aux.plain)
	m.Content = nil
	blocks, err := decodeBlocks(aux.Content)
	m.Content = blocks
	return err
}

// ContentBlock is one block of a message.
type ContentBlock struct {
	Type      string         `json:"type"`                  // Block type: "text", "thinking", "tool_use", "tool_result"
	Text      string         `json:"text,omitempty"`        // Raw text content (for type="text")
	Name      string         `json:"name,omitempty"`        // Tool name (for type="tool_use")
	ID        string         `json:"id,omitempty"`          // Block identifier
	ToolUseID string         `json:"tool_use_id,omitempty"` // References the original tool_use (for type="tool_result")
	Input     map[string]any `json:"input,omitempty"`       // Tool input JSON (for type="tool_use")
	Content   string         `json:"content,omitempty"`     // Result content (for type="tool_result"); array content is flattened to text
	IsError   bool           `json:"is_error,omitempty"`    // Whether the tool result indicates a failure

	// Thinking is the reasoning text of a thinking block.
	Thinking string `json:"thinking,omitempty"`
}

// UnmarshalJSON flattens tool_result content, which the CLI sends either
// as a string or as an array of text (and image) blocks.
func (c *ContentBlock) UnmarshalJSON(b []byte) error {
	type plain ContentBlock
	var aux struct {
		plain
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*c = ContentBlock(aux.plain)
	c.Content = ""
	if len(aux.Content) == 0 || string(aux.Content) == "null" {
		return nil
	}
	var s string
	if json.Unmarshal(aux.Content, &s) == nil {
		c.Content = s
		return nil
	}
	inner, err := decodeBlocks(aux.Content)
	if err != nil {
		return err
	}
	var parts []string
	for _, ib := range inner {
		switch {
		case ib.Text != "":
			parts = append(parts, ib.Text)
		case ib.Content != "":
			parts = append(parts, ib.Content)
		case ib.Type != "" && ib.Type != "text":
			parts = append(parts, "["+ib.Type+"]")
		}
	}
	c.Content = strings.Join(parts, "\n")
	return nil
}

func decodeBlocks(raw json.RawMessage) ([]ContentBlock, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []ContentBlock{{Type: "text", Text: s}}, nil
	}
	var blocks []ContentBlock
	err := json.Unmarshal(raw, &blocks)
	return blocks, err
}

// UsageStats is token usage as the CLI reports it.
type UsageStats struct {
	InputTokens           int32 `json:"input_tokens"`                          // Total tokens in the prompt (including system and context)
	OutputTokens          int32 `json:"output_tokens"`                         // Total tokens generated by the model
	CacheWriteInputTokens int32 `json:"cache_creation_input_tokens,omitempty"` // Tokens saved to the provider's prompt cache
	CacheReadInputTokens  int32 `json:"cache_read_input_tokens,omitempty"`     // Tokens retrieved from the provider's prompt cache
}

// ControlRequest is the body of a control_request frame, in either direction.
type ControlRequest struct {
	Subtype   string         `json:"subtype"`
	ToolName  string         `json:"tool_name,omitempty"`
	Input     map[string]any `json:"input,omitempty"`
	ToolUseID string         `json:"tool_use_id,omitempty"`
	// CallbackID names the hook a hook_callback request is for.
	CallbackID string `json:"callback_id,omitempty"`
	// HookInput is the input of a hook_callback request; it arrives under
	// "input" too, so it is decoded from Input.
	Hooks map[string]any `json:"hooks,omitempty"`
}

// ControlResponse is the body of a control_response frame.
type ControlResponse struct {
	Subtype   string          `json:"subtype"`
	RequestID string          `json:"request_id"`
	Response  json.RawMessage `json:"response,omitempty"`
	Error     string          `json:"error,omitempty"`
}
