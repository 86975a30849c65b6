package webhook

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hotplex/hotplex/event"
)

// Event types a hook may ask for.
const (
	// PermissionRequested: a tool use waits for a person's decision
	// (a firewall or policy "ask", or a session that approves by hand).
	PermissionRequested = "permission.requested"
	// TurnFinished: a turn ended without error (interrupted ones too).
	TurnFinished = "turn.finished"
	// TurnFailed: a turn ended in an error.
	TurnFailed = "turn.failed"
	// DangerBlocked: the firewall stopped a tool use or a prompt.
	DangerBlocked = "danger.blocked"
	// SessionHibernated: a session's process ended to free room; its
	// next turn resumes the conversation.
	SessionHibernated = "session.hibernated"
	// BudgetExceeded: the model gateway refused a call because a session
	// or its key spent its budget.
	BudgetExceeded = "budget.exceeded"
)

// Types are the event types, in the order of the documentation.
var Types = []string{PermissionRequested, TurnFinished, TurnFailed, DangerBlocked, SessionHibernated, BudgetExceeded}

// Event is the JSON body of a delivery.
type Event struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Data      Data      `json:"data"`
}

// Data is what an event is about. SessionID is the ID the key gave the
// session (the one its API calls use); the member of the event's kind is
// set.
type Data struct {
	SessionID string `json:"session_id,omitempty"`
	// Owner is the ID of the API key the session belongs to.
	Owner string `json:"owner"`
	// Seq is the number of the session's event this one comes from
	// (GET /v1/sessions/{id}/events?after=seq-1 shows it).
	Seq        uint64      `json:"seq,omitempty"`
	Turn       *Turn       `json:"turn,omitempty"`
	Permission *Permission `json:"permission,omitempty"`
	Danger     *Danger     `json:"danger,omitempty"`
	Budget     *Budget     `json:"budget,omitempty"`
}

// Turn holds a turn's figures, for turn.finished and turn.failed.
type Turn struct {
	InputTokens      int64   `json:"input_tokens"`
	OutputTokens     int64   `json:"output_tokens"`
	CacheReadTokens  int64   `json:"cache_read_tokens"`
	CacheWriteTokens int64   `json:"cache_write_tokens"`
	CostUSD          float64 `json:"cost_usd"`
	// DurationMs is the turn's wall time in HotPlex.
	DurationMs  int64  `json:"duration_ms"`
	Model       string `json:"model,omitempty"`
	Subtype     string `json:"subtype,omitempty"`
	Interrupted bool   `json:"interrupted,omitempty"`
	// Error says why a failed turn failed.
	Error string `json:"error,omitempty"`
}

// Permission is the tool use waiting for a person.
type Permission struct {
	RequestID string `json:"request_id"`
	Tool      string `json:"tool"`
	// Summary is the tool's main argument (a command, a path, a URL),
	// at most summaryMax bytes.
	Summary string `json:"summary,omitempty"`
}

// Danger is what the firewall stopped.
type Danger struct {
	Level    string `json:"level"`
	Category string `json:"category"`
	Reason   string `json:"reason"`
	Tool     string `json:"tool,omitempty"`
}

// Budget is the budget that was spent.
type Budget struct {
	// Scope is "session" or "key".
	Scope     string  `json:"scope"`
	SpentUSD  float64 `json:"spent_usd"`
	BudgetUSD float64 `json:"budget_usd"`
}

// checkTypes reports an event type a hook cannot ask for.
func checkTypes(types []string) error {
	for _, t := range types {
		if !slices.Contains(Types, t) {
			return fmt.Errorf("unknown event type %q (known: %s)", t, strings.Join(Types, ", "))
		}
	}
	return nil
}

// occurrence is an event of a session before its owner and public ID are
// known.
type occurrence struct {
	typ       string
	sessionID string // daemon-wide session key
	owner     string // set when the source knows it (budgets)
	at        time.Time
	data      Data
}

// classify turns an engine event into the occurrence it notifies, if any.
// needsPerson says whether a permission request waits for a person.
func classify(ev *event.EventWithMeta, needsPerson func(session, request string) bool) (occurrence, bool) {
	o := occurrence{sessionID: ev.SessionID, at: ev.Time, data: Data{Seq: ev.Seq}}
	if o.at.IsZero() {
		o.at = time.Now()
	}
	switch ev.EventType {
	case event.TypeResult:
		t := &Turn{}
		if ev.Meta != nil {
			t.DurationMs, t.Error = ev.Meta.DurationMs, ev.Meta.ErrorMsg
		}
		failed := true
		if tr := ev.Turn; tr != nil {
			t.InputTokens, t.OutputTokens = int64(tr.InputTokens), int64(tr.OutputTokens)
			t.CacheReadTokens, t.CacheWriteTokens = int64(tr.CacheRead), int64(tr.CacheWrite)
			t.CostUSD, t.Model, t.Subtype, t.Interrupted = tr.CostUSD, tr.Model, tr.Subtype, tr.Interrupted
			// An interrupt is someone's choice, not a failure, unless
			// it came with a cause: the engine ends a turn whose
			// budget is spent as an interrupt with the budget error.
			failed = tr.IsError && (!tr.Interrupted || t.Error != "")
		}
		o.typ, o.data.Turn = TurnFinished, t
		if failed {
			o.typ = TurnFailed
			if t.Error == "" && ev.Turn != nil {
				t.Error = ev.Turn.Result
			}
		} else {
			t.Error = ""
		}
	case event.TypePermissionRequest:
		if ev.Permission == nil || needsPerson != nil && !needsPerson(ev.SessionID, ev.Permission.RequestID) {
			return o, false
		}
		o.typ = PermissionRequested
		o.data.Permission = &Permission{RequestID: ev.Permission.RequestID, Tool: ev.Permission.ToolName, Summary: summarize(ev.Input)}
	case event.TypeDangerBlock:
		d := &Danger{Reason: ev.EventData}
		if ev.Meta != nil {
			d.Tool = ev.Meta.ToolName
		}
		if ev.Danger != nil {
			d.Level, d.Category, d.Reason = ev.Danger.Level.String(), ev.Danger.Category, ev.Danger.Reason
		}
		o.typ, o.data.Danger = DangerBlocked, d
	default:
		return o, false
	}
	return o, true
}

// summaryMax bounds a permission's summary.
const summaryMax = 300

// summaryKeys are the arguments that say most about a tool use, by
// preference.
var summaryKeys = []string{"command", "file_path", "path", "url", "pattern", "query", "description"}

// summarize names a tool use by its main argument, or its arguments as
// JSON when none is known.
func summarize(in map[string]any) string {
	s := ""
	for _, k := range summaryKeys {
		if v, ok := in[k].(string); ok && v != "" {
			s = v
			break
		}
	}
	if s == "" && len(in) > 0 {
		b, _ := json.Marshal(in)
		s = string(b)
	}
	if len(s) > summaryMax {
		cut := summaryMax
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
