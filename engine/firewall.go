package engine

import (
	"crypto/subtle"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/provider"
)

// Firewall judges what an agent is about to do. *guard.Detector is one.
type Firewall interface {
	CheckToolUse(tool string, input map[string]any, c guard.Context) guard.Verdict
	CheckPrompt(prompt string, c guard.Context) guard.Verdict
}

// bypasses records the sessions whose firewall an admin has lifted, and
// until when. A bypass is scoped to one session and always expires.
type bypasses struct {
	mu    sync.Mutex
	until map[string]time.Time
}

func (b *bypasses) active(sessionID string, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, ok := b.until[sessionID]
	if ok && !now.Before(t) {
		delete(b.until, sessionID)
		return false
	}
	return ok
}

// MaxBypass is the longest a firewall bypass may last.
const MaxBypass = time.Hour

// Bypass lifts the firewall for one session for ttl (at most MaxBypass).
// adminToken must equal EngineOptions.AdminToken (compared in constant
// time); without an AdminToken no bypass is possible. Everything the
// firewall would have blocked meanwhile is allowed but reported as a
// danger_bypass event and logged.
func (e *Engine) Bypass(sessionID, adminToken string, ttl time.Duration) error {
	if e.opts.AdminToken == "" || subtle.ConstantTimeCompare([]byte(adminToken), []byte(e.opts.AdminToken)) != 1 {
		e.log.Warn("firewall bypass refused", "session", sessionID)
		return fmt.Errorf("%w for session %s", ErrBypassDenied, sessionID)
	}
	if ttl <= 0 || ttl > MaxBypass {
		ttl = MaxBypass
	}
	until := time.Now().Add(ttl)
	e.bypass.mu.Lock()
	e.bypass.until[sessionID] = until
	e.bypass.mu.Unlock()
	e.log.Warn("firewall bypassed by an admin", "session", sessionID, "until", until)
	return nil
}

// EndBypass restores the firewall of a session at once.
func (e *Engine) EndBypass(sessionID string) {
	e.bypass.mu.Lock()
	delete(e.bypass.until, sessionID)
	e.bypass.mu.Unlock()
}

// homeDir is the agent's home directory: the HOME it is given, else ours.
func homeDir(env []string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "HOME="); ok {
			return v
		}
	}
	h, _ := os.UserHomeDir()
	return h
}

func (e *Engine) guardContext(s *session) guard.Context {
	return guard.Context{WorkDir: s.cfg.WorkDir, Home: e.home, ProtectedPaths: e.opts.ProtectedPaths}
}

// dangerEvent reports a verdict: a danger_block, or a danger_bypass when
// an admin bypass let it through.
func (e *Engine) dangerEvent(v guard.Verdict, bypassed bool, tool, toolID string) *event.EventWithMeta {
	typ, status := event.TypeDangerBlock, "blocked"
	if bypassed {
		typ, status = event.TypeDangerBypass, "bypassed"
	}
	be := v.Event(e.opts.AdminToken != "")
	ev := event.NewEventWithMeta(typ, v.Reason, &event.EventMeta{ToolName: tool, ToolID: toolID, Status: status, ErrorMsg: v.Reason})
	ev.Danger = &be
	return ev
}

// denial is what the model is told about a blocked tool use.
func denial(v guard.Verdict) string {
	msg := fmt.Sprintf("Blocked by the HotPlex danger firewall (%s, %s): %s.", v.Level, v.Category, strings.TrimSuffix(v.Reason, "."))
	if len(v.Suggestions) > 0 {
		msg += " Safer alternatives: " + strings.Join(v.Suggestions, "; ") + "."
	}
	return msg + " Do not try to work around this block."
}

// firewall judges a tool request before the permission policy. It returns
// decided=false to let the request go on to the policy, with approval set
// when a person must decide it.
func (t *turn) firewall(req provider.ToolRequest) (d provider.ToolDecision, decided bool, approval string) {
	e := t.engine
	if e.firewall == nil {
		return provider.ToolDecision{}, false, ""
	}
	v := e.firewall.CheckToolUse(req.ToolName, req.Input, e.guardContext(t.s))
	switch {
	case v.Blocked && e.bypass.active(t.s.id, time.Now()):
		e.log.Warn("firewall bypass used", "session", t.s.id, "tool", req.ToolName, "operation", v.Operation,
			"danger_level", v.Level, "category", v.Category, "rule", v.Pattern)
		_ = t.emit(e.dangerEvent(v, true, req.ToolName, req.ToolUseID))
		return provider.ToolDecision{}, false, ""
	case v.Blocked:
		e.log.Info("firewall blocked a tool use", "session", t.s.id, "tool", req.ToolName, "operation", v.Operation,
			"danger_level", v.Level, "category", v.Category, "rule", v.Pattern)
		_ = t.emit(e.dangerEvent(v, false, req.ToolName, req.ToolUseID))
		return provider.ToolDecision{Behavior: provider.Deny, Message: denial(v)}, true, ""
	case v.Ask && req.Kind == provider.PreToolUse:
		// The CLI then asks us with can_use_tool, where a person decides.
		return provider.ToolDecision{Behavior: provider.Ask, Message: v.Reason}, true, ""
	case v.Ask:
		return provider.ToolDecision{}, false, v.Reason
	}
	return provider.ToolDecision{}, false, ""
}

// checkPrompt stops a prompt the firewall blocks before it reaches the CLI.
func (e *Engine) checkPrompt(s *session, prompt string, cb Callback) error {
	if e.firewall == nil {
		return nil
	}
	v := e.firewall.CheckPrompt(prompt, e.guardContext(s))
	if !v.Blocked {
		return nil
	}
	if e.bypass.active(s.id, time.Now()) {
		e.log.Warn("firewall bypass used for a prompt", "session", s.id, "operation", v.Operation, "danger_level", v.Level)
		e.deliver(s, e.dangerEvent(v, true, "", ""), cb)
		return nil
	}
	e.log.Info("firewall blocked a prompt", "session", s.id, "operation", v.Operation, "danger_level", v.Level, "category", v.Category)
	e.deliver(s, e.dangerEvent(v, false, "", ""), cb)
	return fmt.Errorf("%w: %s (%s, %s): %s", ErrDangerBlocked, v.Operation, v.Level, v.Category, v.Reason)
}

// deliver stamps an event that belongs to no turn and hands it to the
// callback and the event sink.
func (e *Engine) deliver(s *session, ev *event.EventWithMeta, cb Callback) {
	ev.SessionID, ev.Seq, ev.Time = s.id, s.seq.Add(1), time.Now()
	_ = cb(ev.EventType, ev)
	if e.opts.Events != nil {
		e.opts.Events.Publish(ev)
	}
}
