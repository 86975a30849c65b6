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
	until := e.opts.clock().Now().Add(ttl)
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

// guardContext is what the firewall judges a session's requests in.
// Shell stays empty: no provider reports the shell its agent runs
// commands in, and the agents run here, so guard detects the dialect from
// the command and the tool's name (PowerShell, cmd) selects its own. A
// provider that learns of a Windows shell would set it here.
func (e *Engine) guardContext(s *session) guard.Context {
	return guard.Context{WorkDir: s.cfg.WorkDir, Home: e.home, ProtectedPaths: e.opts.ProtectedPaths}
}

// initPolicies keeps the built-in detector the permission rules are
// judged with, and refuses rules that a custom or disabled firewall
// would silently ignore.
func (e *Engine) initPolicies() error {
	e.detector, _ = e.firewall.(*guard.Detector)
	if e.detector == nil && (e.opts.Policy != nil || e.opts.KeyPolicy != nil) {
		return fmt.Errorf("%w: permission rules need the built-in firewall", ErrInvalidConfig)
	}
	return nil
}

// checkSessionPolicy refuses a session's rules that would not be judged.
func (e *Engine) checkSessionPolicy(cfg SessionConfig) error {
	if cfg.Policy != nil && e.detector == nil {
		return fmt.Errorf("%w: permission rules need the built-in firewall", ErrInvalidConfig)
	}
	return nil
}

// policies are the three levels of rules a session's tool uses are
// judged by.
func (e *Engine) policies(s *session) guard.Policies {
	ps := guard.Policies{Server: e.opts.Policy, Session: s.cfg.Policy}
	if e.opts.KeyPolicy != nil {
		ps.Key = e.opts.KeyPolicy(s.cfg.Owner)
	}
	return ps
}

// checkToolUse judges a tool use: the built-in analysis, then the rules.
func (e *Engine) checkToolUse(s *session, tool string, input map[string]any) guard.PolicyVerdict {
	c := e.guardContext(s)
	if e.detector != nil {
		if ps := e.policies(s); !ps.Empty() {
			return ps.CheckToolUse(e.detector, tool, input, c)
		}
	}
	v := e.firewall.CheckToolUse(tool, input, c)
	return guard.PolicyVerdict{Verdict: v, Builtin: v}
}

// policyDecision names the rule that decided, nil when the analysis did.
func policyDecision(pv guard.PolicyVerdict) *event.PolicyDecision {
	if pv.Decision == "" {
		return nil
	}
	return &event.PolicyDecision{Decision: pv.Decision, Rule: pv.Rule, Level: pv.RuleLevel, Matched: pv.Matched}
}

// approval is why a person must decide a tool use; zero when none must.
type approval struct {
	reason string
	// policy is the ask rule that sent it, nil when the analysis did.
	policy *event.PolicyDecision
}

// dangerEvent reports a verdict: a danger_block, or a danger_bypass when
// an admin bypass let it through; pol names the rule that decided.
func (e *Engine) dangerEvent(v guard.Verdict, pol *event.PolicyDecision, bypassed bool, tool, toolID string) *event.EventWithMeta {
	typ, status := event.TypeDangerBlock, "blocked"
	if bypassed {
		typ, status = event.TypeDangerBypass, "bypassed"
	}
	be := v.Event(e.opts.AdminToken != "")
	ev := event.NewEventWithMeta(typ, v.Reason, &event.EventMeta{ToolName: tool, ToolID: toolID, Status: status, ErrorMsg: v.Reason})
	ev.Danger = &be
	ev.Policy = pol
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

// firewall judges a tool request before the permission handler: the
// built-in analysis, then the server's, the key's and the session's
// permission rules. It returns decided=false to let the request go on,
// with a reason in approval when a person must decide it.
func (t *Turn) firewall(req provider.ToolRequest) (d provider.ToolDecision, decided bool, ask approval) {
	e := t.engine
	if e.firewall == nil {
		return provider.ToolDecision{}, false, approval{}
	}
	pv := e.checkToolUse(t.s, req.ToolName, req.Input)
	v, pol := pv.Verdict, policyDecision(pv)
	rule := v.Pattern
	if pol != nil {
		rule = pol.Level + " " + pol.Rule
	}
	switch {
	case v.Blocked && e.bypass.active(t.s.id, e.opts.clock().Now()):
		e.log.Warn("firewall bypass used", "session", t.s.id, "tool", req.ToolName, "operation", v.Operation,
			"danger_level", v.Level, "category", v.Category, "rule", rule)
		_ = t.emit(e.dangerEvent(v, pol, true, req.ToolName, req.ToolUseID))
		return provider.ToolDecision{}, false, approval{}
	case v.Blocked:
		e.log.Info("firewall blocked a tool use", "session", t.s.id, "tool", req.ToolName, "operation", v.Operation,
			"danger_level", v.Level, "category", v.Category, "rule", rule)
		_ = t.emit(e.dangerEvent(v, pol, false, req.ToolName, req.ToolUseID))
		return provider.ToolDecision{Behavior: provider.Deny, Message: denial(v)}, true, approval{}
	case v.Ask && req.Kind == provider.PreToolUse:
		// The CLI then asks us with can_use_tool, where a person decides.
		return provider.ToolDecision{Behavior: provider.Ask, Message: v.Reason}, true, approval{}
	case v.Ask:
		return provider.ToolDecision{}, false, approval{reason: v.Reason, policy: pol}
	case pol != nil && pv.Builtin.Blocked:
		// Audited: an operator's allow rule lifted a built-in block.
		e.log.Info("permission rule allowed a tool use the firewall would block", "session", t.s.id, "tool", req.ToolName,
			"operation", pv.Builtin.Operation, "danger_level", pv.Builtin.Level, "category", pv.Builtin.Category, "rule", rule)
	}
	return provider.ToolDecision{}, false, approval{}
}

// checkPrompt stops a prompt the firewall blocks before it reaches the CLI.
func (t *Turn) checkPrompt(prompt string, emit func(*event.EventWithMeta) error) error {
	e, s := t.engine, t.s
	if e.firewall == nil {
		return nil
	}
	v := e.firewall.CheckPrompt(prompt, e.guardContext(s))
	if !v.Blocked {
		return nil
	}
	if e.bypass.active(s.id, e.opts.clock().Now()) {
		e.log.Warn("firewall bypass used for a prompt", "session", s.id, "operation", v.Operation, "danger_level", v.Level)
		_ = emit(e.dangerEvent(v, nil, true, "", ""))
		return nil
	}
	e.log.Info("firewall blocked a prompt", "session", s.id, "operation", v.Operation, "danger_level", v.Level, "category", v.Category)
	_ = emit(e.dangerEvent(v, nil, false, "", ""))
	return fmt.Errorf("%w: %s (%s, %s): %s", ErrDangerBlocked, v.Operation, v.Level, v.Category, v.Reason)
}
