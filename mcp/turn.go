package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
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
	ctx, cancel := t.requestContext(ctx, req.Extra)
	defer cancel()
	key := t.keyOf(req.Extra)
	if req.Params.RequestState != "" {
		return t.resumePrompt(ctx, req, key, in)
	}
	if strings.TrimSpace(in.Prompt) == "" {
		return nil, turnOut{}, errors.New("send_prompt: the prompt is empty")
	}
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
	st := promptState{Session: in.SessionID}
	if before.Stats != nil && len(before.Stats.FilePaths) <= maxStateFiles {
		st.Had = before.Stats.FilePaths
	}
	return t.readTurn(ctx, req, key, resp.Body, st, false)
}

// promptState is what a send_prompt whose turn waits for the caller's
// answer carries to the call that brings it (RequestState): whose turn,
// from which event it reads, which question it asked.
type promptState struct {
	Session string `json:"session"`
	// First is the turn's first event; Asked the permission_request the
	// caller answers, Request its ID.
	First   uint64 `json:"first"`
	Asked   uint64 `json:"asked"`
	Request string `json:"request"`
	// Had are the files the session had modified before the turn.
	Had []string `json:"had,omitempty"`
}

// maxStateFiles bounds the files a request state carries.
const maxStateFiles = 200

// inputKey names the input request of permission request id.
func inputKey(id string) string { return "permission:" + id }

// resumePrompt is a send_prompt called again with the caller's answer to
// the permission its turn asked for: it gives the answer, then reads the
// turn again from its first event, on to its end (or to the next question).
func (t *tools) resumePrompt(ctx context.Context, req *sdk.CallToolRequest, key string, in sendPromptIn) (*sdk.CallToolResult, turnOut, error) {
	var st promptState
	if err := json.Unmarshal([]byte(req.Params.RequestState), &st); err != nil || st.Session == "" || st.First == 0 || st.Request == "" {
		return nil, turnOut{}, errors.New("send_prompt: the request state is not one this server gave")
	}
	if st.Session != in.SessionID {
		return nil, turnOut{}, fmt.Errorf("send_prompt: the request state is of session %q, not %q", st.Session, in.SessionID)
	}
	if decision := answerOf(req.Params.InputResponses[inputKey(st.Request)]); decision != "" {
		err := t.api.Call(ctx, key, http.MethodPost, client.SessionPath(st.Session, "/permissions/"+st.Request),
			map[string]string{"decision": decision, "channel": "mcp"}, nil)
		var ae *client.APIError
		if err != nil && !(errors.As(err, &ae) && ae.Code == "already_answered") {
			return nil, turnOut{}, failure("send_prompt", st.Session, err)
		}
	}
	resp, err := t.api.Request(ctx, key, http.MethodGet, client.SessionPath(st.Session, "/events?after="+strconv.FormatUint(st.First-1, 10)), nil)
	if err != nil {
		return nil, turnOut{}, failure("send_prompt", st.Session, err)
	}
	defer resp.Body.Close()
	return t.readTurn(ctx, req, key, resp.Body, st, true)
}

// answerOf is the decision a caller gave in its answer to a permission
// question: "" when it dismissed it (other clients, or the approval
// timeout, decide then).
func answerOf(r sdk.InputResponse) string {
	res, ok := r.(*sdk.ElicitResult)
	if !ok || res == nil {
		return ""
	}
	switch res.Action {
	case "accept":
		if d, _ := res.Content["decision"].(string); d == "allow" || d == "deny" {
			return d
		}
	case "decline":
		return "deny"
	}
	return ""
}

// decisionSchema is the form of a permission question.
var decisionSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"decision": map[string]any{
			"type": "string", "enum": []string{"allow", "deny"},
			"description": "allow or deny this tool use",
		},
	},
	"required": []string{"decision"},
}

// question is a permission question's message: which session, which
// tool, what for.
func question(session string, ev *event.EventWithMeta) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Session %s: the agent asks to use %s", session, ev.Permission.ToolName)
	if ev.Meta != nil && ev.Meta.InputSummary != "" {
		fmt.Fprintf(&b, ": %s", clip(ev.Meta.InputSummary, 300))
	}
	if ev.Permission.Reason != "" {
		fmt.Fprintf(&b, " (%s)", clip(ev.Permission.Reason, 200))
	}
	b.WriteString(". Allow it?")
	return b.String()
}

// asks reports whether the caller's client takes questions (elicitation):
// a turn waiting for a person then asks it, and the call is made again
// with the answer (the SDK does the round trip for clients of earlier
// protocol versions).
func asks(req *sdk.CallToolRequest) bool {
	if req.Session == nil {
		return false
	}
	p := req.Session.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil
}

// readTurn reads a turn's events from body, the turn's own stream or
// (following, after a question) the session's from the turn's first
// event, and returns what the turn came to, or a question for the caller
// when the turn waits for a person and the caller's client takes them.
func (t *tools) readTurn(ctx context.Context, req *sdk.CallToolRequest, key string, body io.Reader, st promptState, following bool) (*sdk.CallToolResult, turnOut, error) {
	id := st.Session
	out := turnOut{SessionID: id, ToolsUsed: []string{}, FilesModified: []string{}}
	var (
		result  *event.EventWithMeta
		answer  string
		turnErr error
		stopped bool // the turn_error said interrupted
		bad     error
		ask     *event.EventWithMeta // a question for the caller
	)
	progress := req.Params.GetProgressToken()
	readErr := client.ReadSSE(body, func(e client.Event) bool {
		if e.ID == 0 {
			if e.Type == "turn_error" || e.Type == "disconnect" || e.Type == "session_closed" {
				var n struct{ Error, Message, Reason string }
				_ = json.Unmarshal(e.Data, &n)
				if n.Error == "interrupted" && result != nil {
					// Interrupted is an end, not a failure: the turn's
					// result says what it came to.
					stopped = true
					return true
				}
				turnErr = fmt.Errorf("send_prompt: the turn of session %q failed: %s", id, strings.TrimSpace(n.Error+": "+n.Message+n.Reason+" "+e.Type))
				return !following
			}
			return true
		}
		ev := new(event.EventWithMeta)
		if err := json.Unmarshal(e.Data, ev); err != nil {
			bad = fmt.Errorf("send_prompt: event %d: %w", e.ID, err)
			return false
		}
		if st.First == 0 {
			st.First = e.ID
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
		case event.TypeError:
			if following {
				// A follow carries no turn_error: the turn's error event
				// is its end.
				turnErr = fmt.Errorf("send_prompt: the turn of session %q failed: %s", id, ev.EventData)
				return false
			}
		case event.TypePermissionRequest:
			if e.ID > st.Asked && ev.Permission != nil && ev.Permission.RequestID != "" && asks(req) {
				st.Asked, st.Request, ask = e.ID, ev.Permission.RequestID, ev
				return false
			}
		}
		if progress != nil && req.Session != nil && !(following && e.ID <= st.Asked) {
			_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
				ProgressToken: progress, Progress: float64(e.ID - out.FirstEvent + 1), Message: progressMessage(ev)})
		}
		// A follow goes on past the turn; its result is the turn's end.
		return !(following && result != nil)
	})
	if ctx.Err() != nil {
		return nil, turnOut{}, t.abandon(ctx, key, id)
	}
	if ask != nil {
		// The turn waits for the caller's answer, in the daemon: the
		// call ends with the question and is made again with the answer.
		state, err := json.Marshal(st)
		if err != nil {
			return nil, turnOut{}, err
		}
		return &sdk.CallToolResult{
			InputRequests: sdk.InputRequestMap{inputKey(st.Request): &sdk.ElicitParams{Message: question(id, ask), RequestedSchema: decisionSchema}},
			RequestState:  string(state),
		}, turnOut{}, nil
	}
	switch {
	case bad != nil:
		return nil, turnOut{}, bad
	case turnErr != nil:
		return nil, turnOut{}, turnErr
	case result == nil && readErr != nil:
		return nil, turnOut{}, fmt.Errorf("send_prompt: the turn's stream broke: %w", readErr)
	case result == nil:
		return nil, turnOut{}, fmt.Errorf("send_prompt: the turn of session %q ended without a result", id)
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
		for _, f := range result.Stats.FilePaths {
			if !slices.Contains(st.Had, f) {
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
