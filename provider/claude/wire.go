package claude

import (
	"bytes"
	"encoding/json"
	"strings"
)

// frame is the decoder's view of one stream-json line: only the fields
// HotPlex reads, in types that decode in one pass. (StreamMessage, the
// exported model of the same protocol, flattens content with custom
// UnmarshalJSON methods; each of those validates its bytes again, which
// made decoding three times slower on the hot path.)
type frame struct {
	Type            string           `json:"type"`
	Subtype         string           `json:"subtype"`
	Model           string           `json:"model"`
	Message         *wireMessage     `json:"message"`
	ParentToolUseID string           `json:"parent_tool_use_id"`
	RequestID       string           `json:"request_id"`
	Request         *ControlRequest  `json:"request"`
	Response        *ControlResponse `json:"response"`
	Event           json.RawMessage  `json:"event"`
	APIMessageID    string           `json:"api_message_id"`

	// Result frames.
	IsError       bool                      `json:"is_error"`
	Result        string                    `json:"result"`
	Duration      int64                     `json:"duration_ms"`
	DurationAPIMs int64                     `json:"duration_api_ms"`
	NumTurns      int                       `json:"num_turns"`
	TotalCostUSD  float64                   `json:"total_cost_usd"`
	Usage         *UsageStats               `json:"usage"`
	ModelUsage    map[string]modelUsageWire `json:"modelUsage"`
}

type modelUsageWire struct {
	OutputTokens int64 `json:"outputTokens"`
}

type wireMessage struct {
	ID      string    `json:"id"`
	Model   string    `json:"model"`
	Content blockList `json:"content"`
}

// wireBlock is one content block; Content stays raw because tool results
// carry either a string or an array of blocks.
type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	ToolUseID string          `json:"tool_use_id"`
	Input     map[string]any  `json:"input"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// blockList is message content given as a string or as an array of blocks.
type blockList []wireBlock

func (l *blockList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*l = blockList{{Type: "text", Text: s}}
		return nil
	}
	return json.Unmarshal(b, (*[]wireBlock)(l))
}

// text flattens a tool result's content: a string as it is, an array of
// blocks as their texts joined by newlines, with non-text blocks named.
func (b *wireBlock) text() string {
	raw := bytes.TrimSpace(b.Content)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	}
	var inner []wireBlock
	if json.Unmarshal(raw, &inner) != nil {
		return string(raw)
	}
	var parts []string
	for i := range inner {
		ib := &inner[i]
		switch {
		case ib.Text != "":
			parts = append(parts, ib.Text)
		case len(ib.Content) > 0:
			parts = append(parts, ib.text())
		case ib.Type != "" && ib.Type != "text":
			parts = append(parts, "["+ib.Type+"]")
		}
	}
	return strings.Join(parts, "\n")
}
