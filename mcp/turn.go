package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hotplex/hotplex/client"
	"github.com/hotplex/hotplex/event"
)

type sendPromptIn struct {
	SessionID string `json:"session_id" jsonschema:"the session's ID, as start_session returned it"`
	Prompt    string `json:"prompt" jsonschema:"what the agent is to do"`
}

// turnOut is what a turn came to.
type turnOut struct {
	SessionID        string   `json:"session_id"`
	Answer           string   `json:"answer" jsonschema:"the agent's final answer"`
	ToolsUsed        []string `json:"tools_used" jsonschema:"the tools the agent used in this turn"`
	FilesModified    []string `json:"files_modified" jsonschema:"the files the turn created, changed or deleted"`
	InputTokens      int64    `json:"input_tokens"`
	OutputTokens     int64    `json:"output_tokens"`
	CacheReadTokens  int64    `json:"cache_read_tokens"`
	CacheWriteTokens int64    `json:"cache_write_tokens"`
	CostUSD          float64  `json:"cost_usd" jsonschema:"the turn's model cost in US dollars"`
	DurationMS       int64    `json:"duration_ms"`
	Model            string   `json:"model,omitempty"`
	Interrupted      bool     `json:"interrupted" jsonschema:"true when the turn was interrupted before it finished"`
	FirstEvent       uint64   `json:"first_event" jsonschema:"the number of the turn's first event (get_events after first_event-1 reads the turn)"`
	LastEvent        uint64   `json:"last_event"`
}

// fileTools are the agents' tools whose file_path is a file they change.
var fileTools = []string{"Edit", "Write", "MultiEdit", "NotebookEdit", "edit", "write", "patch"}

// interruptGrace bounds the interrupt sent for a turn whose caller left.
const interruptGrace = 10 * time.Second

func (t *tools) sendPrompt(ctx context.Context, req *sdk.CallToolRequest, in sendPromptIn) (*sdk.CallToolResult, turnOut, error) {
	if strings.TrimSpace(in.Prompt) == "" {
		return nil, turnOut{}, errors.New("send_prompt: the prompt is empty")
	}
	ctx, cancel := t.requestContext(ctx, req.Extra)
	defer cancel()
	key := t.keyOf(req.Extra)
	var before client.Session
	if err := t.api.Call(ctx, key, http.MethodGet, client.SessionPath(in.SessionID), nil, &before); err != nil {
		return nil, turnOut{}, failure("send_prompt", in.SessionID, err)
	}
	resp, err := t.api.Request(ctx, key, http.MethodPost, client.SessionPath(in.SessionID, "/messages"), map[string]string{"prompt": in.Prompt})
	if err != nil && ctx.Err() != nil {
		// The turn may have started (the daemon starts it as soon as the
		// request arrives; its first event, a cold start away, would
		// have answered it).
		return nil, turnOut{}, t.abandon(ctx, key, in.SessionID)
	}
	if err != nil {
		return nil, turnOut{}, failure("send_prompt", in.SessionID, err)
	}
	defer resp.Body.Close()

	out := turnOut{SessionID: in.SessionID, ToolsUsed: []string{}, FilesModified: []string{}}
	var (
		result  *event.EventWithMeta
		answer  string
		turnErr error
		stopped bool // the turn_error said interrupted
		bad     error
	)
	progress := req.Params.GetProgressToken()
	readErr := client.ReadSSE(resp.Body, func(e client.Event) bool {
		if e.ID == 0 {
			if e.Type == "turn_error" || e.Type == "disconnect" {
				var n struct{ Error, Message, Reason string }
				_ = json.Unmarshal(e.Data, &n)
				if n.Error == "interrupted" && result != nil {
					// Interrupted is an end, not a failure: the turn's
					// result says what it came to.
					stopped = true
					return true
				}
				turnErr = fmt.Errorf("send_prompt: the turn of session %q failed: %s", in.SessionID, strings.TrimSpace(n.Error+": "+n.Message+n.Reason))
			}
			return true
		}
		ev := new(event.EventWithMeta)
		if err := json.Unmarshal(e.Data, ev); err != nil {
			bad = fmt.Errorf("send_prompt: event %d: %w", e.ID, err)
			return false
		}
		if out.FirstEvent == 0 {
			out.FirstEvent = e.ID
		}
		out.LastEvent = e.ID
		switch ev.EventType {
		case event.TypeToolUse:
			if ev.Meta != nil {
				out.ToolsUsed = uniq(out.ToolsUsed, ev.Meta.ToolName)
				if slices.Contains(fileTools, ev.Meta.ToolName) {
					out.FilesModified = uniq(out.FilesModified, ev.Meta.FilePath)
				}
			}
		case event.TypeAnswer:
			answer = ev.EventData
		case event.TypeResult:
			result = ev
		}
		if progress != nil && req.Session != nil {
			_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
				ProgressToken: progress, Progress: float64(e.ID - out.FirstEvent + 1), Message: progressMessage(ev)})
		}
		return true
	})
	if ctx.Err() != nil {
		return nil, turnOut{}, t.abandon(ctx, key, in.SessionID)
	}
	switch {
	case bad != nil:
		return nil, turnOut{}, bad
	case turnErr != nil:
		return nil, turnOut{}, turnErr
	case result == nil && readErr != nil:
		return nil, turnOut{}, fmt.Errorf("send_prompt: the turn's stream broke: %w", readErr)
	case result == nil:
		return nil, turnOut{}, fmt.Errorf("send_prompt: the turn of session %q ended without a result", in.SessionID)
	}
	out.Answer = answer
	if tr := result.Turn; tr != nil {
		if tr.Result != "" {
			out.Answer = tr.Result
		}
		out.InputTokens, out.OutputTokens = int64(tr.InputTokens), int64(tr.OutputTokens)
		out.CacheReadTokens, out.CacheWriteTokens = int64(tr.CacheRead), int64(tr.CacheWrite)
		out.CostUSD, out.Model, out.Interrupted = tr.CostUSD, tr.Model, tr.Interrupted
		out.DurationMS = tr.DurationMs
	}
	if result.Meta != nil && result.Meta.DurationMs > 0 {
		out.DurationMS = result.Meta.DurationMs
	}
	out.Interrupted = out.Interrupted || stopped
	if result.Stats != nil {
		var had []string
		if before.Stats != nil {
			had = before.Stats.FilePaths
		}
		for _, f := range result.Stats.FilePaths {
			if !slices.Contains(had, f) {
				out.FilesModified = uniq(out.FilesModified, f)
			}
		}
	}
	text := out.Answer
	if out.Interrupted {
		text = "(interrupted) " + text
	}
	return textResult(text), out, nil
}

// abandon interrupts the turn of a caller that left (ctx ended): the turn
// belongs to the daemon and would run on for nobody.
func (t *tools) abandon(ctx context.Context, key, id string) error {
	ictx, cancel := context.WithTimeout(context.WithoutCancel(ctx), interruptGrace)
	defer cancel()
	if err := t.api.Call(ictx, key, http.MethodPost, client.SessionPath(id, "/interrupt"), nil, nil); err != nil {
		t.log.Warn("interrupting a turn whose caller left", "session", id, "err", err)
	}
	return fmt.Errorf("send_prompt: cancelled; the turn was interrupted: %w", context.Cause(ctx))
}

// progressMessage is one line on what an event says, for a progress
// notification.
func progressMessage(ev *event.EventWithMeta) string {
	switch ev.EventType {
	case event.TypeToolUse:
		if ev.Meta != nil {
			return clip(strings.TrimSpace(ev.Meta.ToolName+" "+ev.Meta.InputSummary), 200)
		}
	case event.TypeAnswer, event.TypeThinking, event.TypeDangerBlock, event.TypeError:
		return ev.EventType + ": " + clip(ev.EventData, 200)
	}
	return ev.EventType
}
