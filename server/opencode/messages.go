package opencode

import (
	"fmt"

	"github.com/hotplex/hotplex/event"
)

// OpenCode's clients see a conversation as messages (a user's, then the
// assistant's answer) made of parts (text, reasoning, tool calls), and
// follow it as events that create or update one message or part at a time.
// HotPlex's event stream carries the same story; ocConversation retells it
// in OpenCode's shapes, one turn per user/assistant message pair.

// ocModelRef names a model as OpenCode does.
type ocModelRef struct {
	ProviderID string `json:"providerID"`
	ModelID    string `json:"modelID"`
}

type ocUserMessage struct {
	ID        string          `json:"id"`
	SessionID string          `json:"sessionID"`
	Role      string          `json:"role"` // "user"
	Time      ocMsgTime       `json:"time"`
	Agent     string          `json:"agent"`
	Model     ocModelRef      `json:"model"`
	System    string          `json:"system,omitempty"`
	Summary   *ocSummary      `json:"summary,omitempty"`
	Tools     map[string]bool `json:"tools,omitempty"`
}

type ocSummary struct {
	Title string `json:"title,omitempty"`
}

type ocMsgTime struct {
	Created   int64 `json:"created"`
	Completed int64 `json:"completed,omitempty"`
}

type ocAssistantMessage struct {
	ID         string    `json:"id"`
	SessionID  string    `json:"sessionID"`
	Role       string    `json:"role"` // "assistant"
	Time       ocMsgTime `json:"time"`
	Error      *ocError  `json:"error,omitempty"`
	ParentID   string    `json:"parentID"`
	ModelID    string    `json:"modelID"`
	ProviderID string    `json:"providerID"`
	Mode       string    `json:"mode"`
	Path       ocPath    `json:"path"`
	Cost       float64   `json:"cost"`
	Tokens     ocTokens  `json:"tokens"`
	Finish     string    `json:"finish,omitempty"`
}

type ocPath struct {
	Cwd  string `json:"cwd"`
	Root string `json:"root"`
}

type ocTokens struct {
	Input     int64         `json:"input"`
	Output    int64         `json:"output"`
	Reasoning int64         `json:"reasoning"`
	Cache     ocCacheTokens `json:"cache"`
}

type ocCacheTokens struct {
	Read  int64 `json:"read"`
	Write int64 `json:"write"`
}

// ocError is an error as OpenCode names it: UnknownError,
// MessageAbortedError...
type ocError struct {
	Name string        `json:"name"`
	Data ocErrorDetail `json:"data"`
}

type ocErrorDetail struct {
	Message string `json:"message"`
}

// ocPart is every kind of part OpenCode knows that HotPlex produces:
// "text", "reasoning" and "tool".
type ocPart struct {
	ID        string       `json:"id"`
	SessionID string       `json:"sessionID"`
	MessageID string       `json:"messageID"`
	Type      string       `json:"type"`
	Text      string       `json:"text,omitempty"`
	Time      *ocPartTime  `json:"time,omitempty"`
	CallID    string       `json:"callID,omitempty"`
	Tool      string       `json:"tool,omitempty"`
	State     *ocToolState `json:"state,omitempty"`
}

type ocPartTime struct {
	Start int64 `json:"start"`
	End   int64 `json:"end,omitempty"`
}

// ocToolState is a tool part's state: "running", then "completed" or
// "error".
type ocToolState struct {
	Status   string         `json:"status"`
	Input    map[string]any `json:"input"`
	Output   string         `json:"output,omitempty"`
	Error    string         `json:"error,omitempty"`
	Title    string         `json:"title,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
	Time     ocPartTime     `json:"time"`
}

// ocMessage is a message with its parts, as message lists show them.
// Info is an *ocUserMessage or an *ocAssistantMessage.
type ocMessage struct {
	Info  any       `json:"info"`
	Parts []*ocPart `json:"parts"`
}

// ocEvent is one event of OpenCode's stream.
type ocEvent struct {
	Type       string `json:"type"`
	Properties any    `json:"properties"`
}

type ocInfo struct {
	Info any `json:"info"`
}

type ocPartUpdate struct {
	Part  *ocPart `json:"part"`
	Delta string  `json:"delta,omitempty"`
}

type ocSessionRef struct {
	SessionID string `json:"sessionID"`
}

type ocStatus struct {
	Type string `json:"type"` // "idle" or "busy"
}

type ocSessionStatus struct {
	SessionID string   `json:"sessionID"`
	Status    ocStatus `json:"status"`
}

type ocSessionError struct {
	SessionID string   `json:"sessionID"`
	Error     *ocError `json:"error,omitempty"`
}

type ocPermission struct {
	ID        string         `json:"id"`
	Type      string         `json:"type"`
	SessionID string         `json:"sessionID"`
	MessageID string         `json:"messageID"`
	CallID    string         `json:"callID,omitempty"`
	Title     string         `json:"title"`
	Metadata  map[string]any `json:"metadata"`
	Time      ocMsgTime      `json:"time"`
}

// ocPermissionReplied closes a permission request for OpenCode's older
// clients (permissionID, response) and newer ones (requestID, reply).
type ocPermissionReplied struct {
	SessionID    string `json:"sessionID"`
	PermissionID string `json:"permissionID"`
	Response     string `json:"response"`
	RequestID    string `json:"requestID"`
	Reply        string `json:"reply"`
}

// ocTurn is one user message and the assistant's answer to it.
type ocTurn struct {
	user      *ocUserMessage
	userParts []*ocPart
	reply     *ocAssistantMessage
	parts     []*ocPart
	open      *ocPart            // the text or reasoning part deltas extend
	tools     map[string]*ocPart // by tool call ID
	done      bool
}

// ocConversation folds a session's HotPlex events into OpenCode messages.
type ocConversation struct {
	sessionID, provider, workDir string
	// keep is how many finished turns to remember (0: all).
	keep  int
	turns []*ocTurn
	// waiting, when set, tells whether a permission request waits for a
	// person: HotPlex reports every tool use the agent asks about, and
	// decides most itself at once; OpenCode's clients would answer (its
	// CLI rejects) the ones they were shown.
	waiting func(requestID string) bool
	// shown are the permission requests shown, whose reply is told.
	shown map[string]bool
}

// ocMessageID and ocPartID derive OpenCode IDs from event numbers: stable
// across restarts, and sorted as the conversation goes.
func ocMessageID(seq uint64, reply bool) string {
	if reply {
		return fmt.Sprintf("msg_%016d1", seq)
	}
	return fmt.Sprintf("msg_%016d0", seq)
}

func ocPartID(seq uint64, sub int) string { return fmt.Sprintf("prt_%016d%d", seq, sub) }

func (c *ocConversation) current() *ocTurn {
	if n := len(c.turns); n > 0 && !c.turns[n-1].done {
		return c.turns[n-1]
	}
	return nil
}

// messages lists the conversation's messages, oldest first.
func (c *ocConversation) messages() []ocMessage {
	out := make([]ocMessage, 0, 2*len(c.turns))
	for _, t := range c.turns {
		out = append(out, ocMessage{Info: t.user, Parts: t.userParts}, ocMessage{Info: t.reply, Parts: t.parts})
	}
	return out
}

// apply folds one event in and returns the OpenCode events it makes.
func (c *ocConversation) apply(ev *event.EventWithMeta) []ocEvent {
	var out []ocEvent
	now := ev.Time.UnixMilli()
	t := c.current()
	if t == nil {
		t = c.begin(ev)
		out = append(out,
			ocEvent{"session.status", ocSessionStatus{c.sessionID, ocStatus{"busy"}}},
			ocEvent{"message.updated", ocInfo{t.user}})
		for _, p := range t.userParts {
			out = append(out, ocEvent{"message.part.updated", ocPartUpdate{Part: p}})
		}
		out = append(out, ocEvent{"message.updated", ocInfo{t.reply}})
	}
	partEvent := func(p *ocPart, delta string) {
		out = append(out, ocEvent{"message.part.updated", ocPartUpdate{Part: p, Delta: delta}})
	}
	switch ev.EventType {
	case event.TypeAnswer, event.TypeThinking:
		typ := "text"
		if ev.EventType == event.TypeThinking {
			typ = "reasoning"
		}
		delta := ev.Meta != nil && ev.Meta.Status == "delta"
		if delta && t.open != nil && t.open.Type == typ {
			t.open.Text += ev.EventData
			partEvent(t.open, ev.EventData)
			break
		}
		c.close(t, now, &out)
		p := &ocPart{ID: ocPartID(ev.Seq, 0), SessionID: c.sessionID, MessageID: t.reply.ID, Type: typ, Text: ev.EventData, Time: &ocPartTime{Start: now}}
		t.parts = append(t.parts, p)
		if delta {
			t.open = p
			partEvent(p, ev.EventData)
		} else {
			p.Time.End = now
			partEvent(p, "")
		}
	case event.TypeToolUse:
		c.close(t, now, &out)
		input := ev.Input
		if input == nil {
			input = map[string]any{}
		}
		p := &ocPart{ID: ocPartID(ev.Seq, 0), SessionID: c.sessionID, MessageID: t.reply.ID, Type: "tool",
			CallID: ev.Meta.ToolID, Tool: ev.Meta.ToolName,
			State: &ocToolState{Status: "running", Input: input, Title: ev.Meta.InputSummary, Time: ocPartTime{Start: now}}}
		t.parts = append(t.parts, p)
		t.tools[ev.Meta.ToolID] = p
		partEvent(p, "")
		if todos, ok := todosOf(ev); ok {
			out = append(out, ocEvent{"todo.updated", ocTodoUpdate{c.sessionID, todos}})
		}
	case event.TypeToolResult:
		c.close(t, now, &out)
		p := t.tools[ev.Meta.ToolID]
		if p == nil {
			p = &ocPart{ID: ocPartID(ev.Seq, 0), SessionID: c.sessionID, MessageID: t.reply.ID, Type: "tool",
				CallID: ev.Meta.ToolID, Tool: ev.Meta.ToolName,
				State: &ocToolState{Input: map[string]any{}, Time: ocPartTime{Start: now}}}
			t.parts = append(t.parts, p)
			t.tools[ev.Meta.ToolID] = p
		}
		st := p.State
		st.Time.End = now
		if st.Title == "" {
			st.Title = p.Tool
		}
		st.Metadata = map[string]any{}
		if ev.Meta.Status == "error" {
			st.Status, st.Error = "error", ev.EventData
			if st.Error == "" {
				st.Error = ev.Meta.ErrorMsg
			}
		} else {
			st.Status, st.Output = "completed", ev.EventData
		}
		partEvent(p, "")
	case event.TypePermissionRequest:
		if ev.Permission != nil && (c.waiting == nil || c.waiting(ev.Permission.RequestID)) {
			if c.shown == nil {
				c.shown = map[string]bool{}
			}
			c.shown[ev.Permission.RequestID] = true
			meta := map[string]any{}
			if ev.Input != nil {
				meta["input"] = ev.Input
			}
			out = append(out, ocEvent{"permission.updated", ocPermission{
				ID: ev.Permission.RequestID, Type: ev.Permission.ToolName, SessionID: c.sessionID, MessageID: t.reply.ID,
				CallID: ev.Permission.ToolUseID, Title: ev.Meta.InputSummary, Metadata: meta, Time: ocMsgTime{Created: now}}},
				// OpenCode's newer clients (its TUI) ask with permission.asked.
				ocEvent{"permission.asked", permissionRequestOf(c.sessionID, t.reply.ID, ev.Permission.RequestID,
					ev.Permission.ToolName, ev.Permission.ToolUseID, ev.Input)})
		}
	case event.TypePermissionDecision:
		if ev.Permission != nil && (c.waiting == nil || c.shown[ev.Permission.RequestID]) {
			delete(c.shown, ev.Permission.RequestID)
			response := "reject"
			if ev.Permission.Decision == "allow" {
				response = "once"
			}
			out = append(out, ocEvent{"permission.replied", ocPermissionReplied{c.sessionID, ev.Permission.RequestID, response, ev.Permission.RequestID, response}})
		}
	case event.TypeError:
		msg := ev.EventData
		if ev.Meta != nil && ev.Meta.ErrorMsg != "" {
			msg = ev.Meta.ErrorMsg
		}
		out = append(out, ocEvent{"session.error", ocSessionError{c.sessionID, &ocError{"UnknownError", ocErrorDetail{msg}}}})
	case event.TypeResult:
		c.close(t, now, &out)
		r := t.reply
		r.Time.Completed = now
		r.Finish = "stop"
		if tr := ev.Turn; tr != nil {
			r.Cost = tr.CostUSD
			r.Tokens = ocTokens{Input: int64(tr.InputTokens), Output: int64(tr.OutputTokens),
				Cache: ocCacheTokens{Read: int64(tr.CacheRead), Write: int64(tr.CacheWrite)}}
			if tr.Model != "" {
				r.ModelID = tr.Model
			}
			if tr.Interrupted {
				r.Error, r.Finish = &ocError{"MessageAbortedError", ocErrorDetail{"the turn was interrupted"}}, "abort"
			}
		}
		if r.Error == nil && ev.Meta != nil && ev.Meta.Status == "error" {
			msg := ev.Meta.ErrorMsg
			if msg == "" {
				msg = ev.EventData
			}
			r.Error, r.Finish = &ocError{"UnknownError", ocErrorDetail{msg}}, "error"
		}
		t.done = true
		out = append(out,
			ocEvent{"message.updated", ocInfo{r}},
			ocEvent{"session.status", ocSessionStatus{c.sessionID, ocStatus{"idle"}}},
			ocEvent{"session.idle", ocSessionRef{c.sessionID}})
		if c.keep > 0 && len(c.turns) > c.keep {
			c.turns = append(c.turns[:0], c.turns[len(c.turns)-c.keep:]...)
		}
	}
	return out
}

// begin opens the turn ev is the first event of.
func (c *ocConversation) begin(ev *event.EventWithMeta) *ocTurn {
	now := ev.Time.UnixMilli()
	model := ocModelRef{ProviderID: c.provider, ModelID: "default"}
	t := &ocTurn{tools: map[string]*ocPart{}}
	t.user = &ocUserMessage{ID: ocMessageID(ev.Seq, false), SessionID: c.sessionID, Role: "user", Time: ocMsgTime{Created: now}, Agent: "build", Model: model}
	text := ""
	if ev.SessionStart != nil {
		text = ev.SessionStart.Prompt
	}
	t.userParts = []*ocPart{{ID: ocPartID(ev.Seq, 1), SessionID: c.sessionID, MessageID: t.user.ID, Type: "text", Text: text, Time: &ocPartTime{Start: now, End: now}}}
	t.reply = &ocAssistantMessage{ID: ocMessageID(ev.Seq, true), SessionID: c.sessionID, Role: "assistant", Time: ocMsgTime{Created: now},
		ParentID: t.user.ID, ModelID: model.ModelID, ProviderID: c.provider, Mode: "build", Path: ocPath{Cwd: c.workDir, Root: c.workDir}}
	c.turns = append(c.turns, t)
	return t
}

// close ends the text or reasoning part being streamed, if any.
func (c *ocConversation) close(t *ocTurn, now int64, out *[]ocEvent) {
	if t.open == nil {
		return
	}
	t.open.Time.End = now
	*out = append(*out, ocEvent{"message.part.updated", ocPartUpdate{Part: t.open}})
	t.open = nil
}
