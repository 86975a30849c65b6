package acp

import (
	"encoding/json"
	"strconv"

	sdk "github.com/coder/acp-go-sdk"
)

// The connection encodes a session/update by marshalling each union
// (the update, its content block) to JSON, decoding that into a map to
// add the variant's tag and marshalling it again: five passes over every
// streamed chunk, the costliest step of a turn's way to the editor. The
// updates a turn sends most (text chunks of the answer and the
// reasoning, the closing usage) are plain structs once tagged, and are
// encoded here in one pass into the same JSON; any other update goes
// through the connection.

// textChunk is an agent_message_chunk or agent_thought_chunk whose
// content is text.
type textChunk struct {
	Meta          map[string]any        `json:"_meta,omitempty"`
	Content       *sdk.ContentBlockText `json:"content"`
	MessageID     *string               `json:"messageId,omitempty"`
	SessionUpdate string                `json:"sessionUpdate"`
}

// notification is a session/update's params.
type notification struct {
	SessionID sdk.SessionId `json:"sessionId"`
	Update    any           `json:"update"`
}

// encodeUpdate is the JSON-RPC notification carrying u for session id,
// one line, when u is one of the updates encoded here.
func encodeUpdate(id sdk.SessionId, u sdk.SessionUpdate) ([]byte, bool) {
	update, ok := taggedUpdate(u)
	if !ok {
		return nil, false
	}
	params, err := json.Marshal(notification{SessionID: id, Update: update})
	if err != nil {
		return nil, false
	}
	b := make([]byte, 0, len(params)+64)
	b = append(b, `{"jsonrpc":"2.0","method":`...)
	b = strconv.AppendQuote(b, sdk.ClientMethodSessionUpdate)
	b = append(b, `,"params":`...)
	b = append(b, params...)
	return append(b, "}\n"...), true
}

// taggedUpdate is u's variant with its tag set, when the variant holds
// no union of its own.
func taggedUpdate(u sdk.SessionUpdate) (any, bool) {
	var chunk textChunk
	switch {
	case u.UsageUpdate != nil && single(u):
		v := *u.UsageUpdate
		v.SessionUpdate = "usage_update"
		return v, true
	case u.AgentMessageChunk != nil && single(u):
		c := u.AgentMessageChunk
		chunk = textChunk{Meta: c.Meta, Content: c.Content.Text, MessageID: c.MessageId, SessionUpdate: "agent_message_chunk"}
		if !textOnly(c.Content) {
			return nil, false
		}
	case u.AgentThoughtChunk != nil && single(u):
		c := u.AgentThoughtChunk
		chunk = textChunk{Meta: c.Meta, Content: c.Content.Text, MessageID: c.MessageId, SessionUpdate: "agent_thought_chunk"}
		if !textOnly(c.Content) {
			return nil, false
		}
	default:
		return nil, false
	}
	text := *chunk.Content
	text.Type = "text"
	chunk.Content = &text
	return chunk, true
}

// textOnly reports whether a content block is plain text and nothing
// else (the connection drops a text block's annotations and _meta; such a
// block is left to it, so that editors see the same either way).
func textOnly(c sdk.ContentBlock) bool {
	return c.Text != nil && c.Text.Annotations == nil && c.Text.Meta == nil &&
		c.Image == nil && c.Audio == nil && c.ResourceLink == nil && c.Resource == nil
}

// single reports whether u has exactly one variant set: a malformed
// update with several is left to the connection, which says what it
// makes of it.
func single(u sdk.SessionUpdate) bool {
	return count(u.UserMessageChunk != nil, u.AgentMessageChunk != nil, u.AgentThoughtChunk != nil,
		u.ToolCall != nil, u.ToolCallUpdate != nil, u.Plan != nil, u.AvailableCommandsUpdate != nil,
		u.CurrentModeUpdate != nil, u.ConfigOptionUpdate != nil, u.SessionInfoUpdate != nil, u.UsageUpdate != nil) == 1
}

func count(set ...bool) int {
	n := 0
	for _, v := range set {
		if v {
			n++
		}
	}
	return n
}
