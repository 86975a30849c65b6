package acp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"reflect"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// connectionLine is the line the SDK's connection writes for u.
func connectionLine(t *testing.T, id sdk.SessionId, u sdk.SessionUpdate) []byte {
	t.Helper()
	var out bytes.Buffer
	in, stop := io.Pipe()
	defer stop.Close()
	conn := sdk.NewAgentSideConnection(&agent{}, &out, in)
	conn.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := conn.SessionUpdate(context.Background(), sdk.SessionNotification{SessionId: id, Update: u}); err != nil {
		t.Fatalf("connection: %v", err)
	}
	return out.Bytes()
}

func decodeAny(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %v: %s", err, b)
	}
	return v
}

// The updates encoded in one pass are, to whoever reads them, the very
// notifications the connection writes: the same JSON, one line each,
// which the SDK decodes back into the update sent.
func TestEncodeUpdateIsTheConnections(t *testing.T) {
	messageID := "6f1f0c36-3f9b-4a4e-9d6e-0d6b5f0c2a11"
	text := func(s string) sdk.ContentBlock { return sdk.TextBlock(s) }
	for name, u := range map[string]sdk.SessionUpdate{
		"answer chunk":       {AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{Content: text("echo: ping 1")}},
		"escapes":            {AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{Content: text("<b>&\"quoted\"\\ \n\t\u2028 é 漢 \U0001F600 \x01")}},
		"empty text":         {AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{Content: text("")}},
		"message id, meta":   {AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{Content: text("x"), MessageId: &messageID, Meta: map[string]any{"hotplex": map[string]any{"seq": 3}}}},
		"thought chunk":      {AgentThoughtChunk: &sdk.SessionUpdateAgentThoughtChunk{Content: text("let me think")}},
		"thought, meta":      {AgentThoughtChunk: &sdk.SessionUpdateAgentThoughtChunk{Content: text("hm"), Meta: map[string]any{"a": 1}}},
		"usage":              {UsageUpdate: &sdk.SessionUsageUpdate{Used: 4420, Size: 200000}},
		"usage, cost, meta":  {UsageUpdate: &sdk.SessionUsageUpdate{Used: 1, Size: 0, Cost: &sdk.Cost{Amount: 0.014367999999999999, Currency: "USD"}, Meta: map[string]any{"hotplex": map[string]any{"model": "claude-x", "turn_cost_usd": 0.005384}}}},
		"typed in text type": {AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{Content: sdk.ContentBlock{Text: &sdk.ContentBlockText{Text: "no type set"}}}},
	} {
		t.Run(name, func(t *testing.T) {
			id := sdk.SessionId("s-1~\"quoted\"")
			line, ok := encodeUpdate(id, u)
			if !ok {
				t.Fatal("not encoded here")
			}
			if bytes.Count(line, []byte("\n")) != 1 || line[len(line)-1] != '\n' {
				t.Fatalf("not one line: %q", line)
			}
			want := connectionLine(t, id, u)
			if got, w := decodeAny(t, line), decodeAny(t, want); !reflect.DeepEqual(got, w) {
				t.Fatalf("encoded\n%s\nthe connection writes\n%s", line, want)
			}
			var back struct {
				Method string                  `json:"method"`
				Params sdk.SessionNotification `json:"params"`
			}
			if err := json.Unmarshal(line, &back); err != nil || back.Method != "session/update" || back.Params.SessionId != id {
				t.Fatalf("decoded %+v, %v", back, err)
			}
			var fromConn struct {
				Params sdk.SessionNotification `json:"params"`
			}
			_ = json.Unmarshal(want, &fromConn)
			if !reflect.DeepEqual(back.Params.Update, fromConn.Params.Update) {
				t.Fatalf("the SDK decodes %+v, and %+v from the connection's line", back.Params.Update, fromConn.Params.Update)
			}
		})
	}
}

// Every other update, and a malformed one, is left to the connection.
func TestEncodeUpdateLeavesTheRestToTheConnection(t *testing.T) {
	image := sdk.ContentBlock{Image: &sdk.ContentBlockImage{Data: "aGk=", MimeType: "image/png", Type: "image"}}
	priority := 0.5
	annotated := sdk.ContentBlock{Text: &sdk.ContentBlockText{Text: "noted", Type: "text",
		Annotations: &sdk.Annotations{Audience: []sdk.Role{"user"}, Priority: &priority}}}
	withMeta := sdk.ContentBlock{Text: &sdk.ContentBlockText{Text: "noted", Type: "text", Meta: map[string]any{"k": "v"}}}
	for name, u := range map[string]sdk.SessionUpdate{
		"tool call":     {ToolCall: &sdk.SessionUpdateToolCall{ToolCallId: "t1", Title: "Bash"}},
		"tool update":   {ToolCallUpdate: &sdk.SessionToolCallUpdate{ToolCallId: "t1"}},
		"plan":          {Plan: &sdk.SessionUpdatePlan{}},
		"image chunk":   {AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{Content: image}},
		"two variants":  {AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{Content: sdk.TextBlock("a")}, UsageUpdate: &sdk.SessionUsageUpdate{}},
		"none":          {},
		"annotated":     {AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{Content: annotated}},
		"text's meta":   {AgentThoughtChunk: &sdk.SessionUpdateAgentThoughtChunk{Content: withMeta}},
		"user chunk":    {UserMessageChunk: &sdk.SessionUpdateUserMessageChunk{Content: sdk.TextBlock("hi")}},
		"text and more": {AgentThoughtChunk: &sdk.SessionUpdateAgentThoughtChunk{Content: sdk.ContentBlock{Text: &sdk.ContentBlockText{Text: "a"}, Image: image.Image}}},
	} {
		if line, ok := encodeUpdate("s", u); ok {
			t.Errorf("%s: encoded here: %s", name, line)
		}
	}
}

// A turn's text chunks reach an editor whole and in order among the
// connection's own messages.
func TestEncodedUpdatesKeepTheirPlace(t *testing.T) {
	var out bytes.Buffer
	w := &lockedWriter{w: &out}
	in, stop := io.Pipe()
	defer stop.Close()
	a := &agent{out: w, ready: make(chan struct{})}
	a.conn = sdk.NewAgentSideConnection(a, w, in)
	a.conn.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	close(a.ready)
	updates := []sdk.SessionUpdate{
		{AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{Content: sdk.TextBlock("one")}},
		{ToolCall: &sdk.SessionUpdateToolCall{ToolCallId: "t1", Title: "Bash", Status: sdk.ToolCallStatusPending}},
		{AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{Content: sdk.TextBlock("two")}},
		{UsageUpdate: &sdk.SessionUsageUpdate{Used: 3, Size: 10}},
	}
	if err := a.send(context.Background(), "s", updates); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&out)
	var got []string
	for sc.Scan() {
		var n struct {
			Params sdk.SessionNotification `json:"params"`
		}
		if err := json.Unmarshal(sc.Bytes(), &n); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		u := n.Params.Update
		switch {
		case u.AgentMessageChunk != nil:
			got = append(got, u.AgentMessageChunk.Content.Text.Text)
		case u.ToolCall != nil:
			got = append(got, string(u.ToolCall.ToolCallId))
		case u.UsageUpdate != nil:
			got = append(got, "usage")
		}
	}
	if want := []string{"one", "t1", "two", "usage"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("the editor read %v, want %v", got, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := a.send(ctx, "s", updates[:1]); err == nil {
		t.Fatal("an update was sent on a context already done")
	}
}
