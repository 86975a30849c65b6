package guard

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"regexp"
	"strings"
)

// Operators' own permission rules, written as Claude Code writes them:
//
//	Bash                       every shell command
//	Bash(npm run test:*)       commands starting with "npm run test"
//	Bash(rm -rf node_modules)  exactly that command
//	Bash(git * main)           * matches any text
//	PowerShell(...)            the same, for the PowerShell tool
//	Read(./secrets/**)         reading files (gitignore-style globs:
//	Edit(src/**)               "//abs", "~/home", "/" = work directory)
//	WebFetch(domain:x.com)     fetching from a domain or its subdomains
//	mcp__github, Task          a tool by name
//
// A Policy holds allow, ask and deny lists; Policies holds the three
// settings levels (server, API key, session).
//
// Precedence, from first to last:
//
//  1. deny: a rule of any level that matches any simple command of the
//     input (or the tool call) blocks it. A narrower level cannot lift a
//     wider level's deny.
//  2. ask: a rule of any level that matches makes the call wait for a
//     person (Verdict.Ask), unless the built-in analysis blocks it.
//  3. the built-in analysis: what it blocks stays blocked, unless allow
//     rules cover every simple command it objects to. Critical findings
//     are never relaxed; the server level relaxes high and moderate ones;
//     the key and session levels relax moderate ones only (so a project
//     may allow `docker volume rm` but not `curl | sh`).
//  4. allow, or no rule: the built-in verdict.
//
// Shell rules are matched against each simple command after analysis:
// wrappers removed (sudo, env, timeout, xargs, ...), nested payloads
// (bash -c, powershell -Command, cmd /c) and pipelines split, so
// "sudo git push" matches Bash(git push:*) and "make && git push" is
// denied when Bash(git push:*) is.

// CategoryPolicy marks a verdict decided by an operator's rule.
const CategoryPolicy = "policy"

// Policy is one level's permission rules.
type Policy struct {
	Allow []string `json:"allow,omitempty"`
	Ask   []string `json:"ask,omitempty"`
	Deny  []string `json:"deny,omitempty"`

	allow, ask, deny []permRule
}

// permRule is one parsed rule.
type permRule struct {
	text string
	tool string // lower-case tool name
	spec string // "" for the whole tool
	has  bool   // written with parentheses
	re   *regexp.Regexp
}

// ParsePolicy reads permission rules from JSON: a Claude Code settings
// file ({"permissions": {"allow": [...], "ask": [...], "deny": [...]}},
// other settings ignored) or the bare {"allow": ..., "deny": ...} object.
func ParsePolicy(data []byte) (*Policy, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("guard: policy is not a JSON object: %w", err)
	}
	body := data
	if raw, ok := probe["permissions"]; ok {
		body = raw
	}
	var p Policy
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, fmt.Errorf("guard: policy permissions: %w", err)
	}
	if err := p.compile(); err != nil {
		return nil, err
	}
	return &p, nil
}

// LoadPolicy reads a policy file (see ParsePolicy).
func LoadPolicy(file string) (*Policy, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("guard: reading policy: %w", err)
	}
	p, err := ParsePolicy(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return p, nil
}

// NewPolicy builds a policy from rule lists.
func NewPolicy(allow, ask, deny []string) (*Policy, error) {
	p := &Policy{Allow: allow, Ask: ask, Deny: deny}
	if err := p.compile(); err != nil {
		return nil, err
	}
	return p, nil
}

// ErrBadRule is wrapped by the error for a rule that does not parse.
var ErrBadRule = errors.New("bad permission rule")

func (p *Policy) compile() error {
	var err error
	if p.allow, err = parseRules(p.Allow); err != nil {
		return err
	}
	if p.ask, err = parseRules(p.Ask); err != nil {
		return err
	}
	p.deny, err = parseRules(p.Deny)
	return err
}

func parseRules(list []string) ([]permRule, error) {
	out := make([]permRule, 0, len(list))
	for _, s := range list {
		r, err := parseRule(s)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func parseRule(s string) (permRule, error) {
	t := strings.TrimSpace(s)
	r := permRule{text: t}
	open := strings.IndexByte(t, '(')
	if open < 0 {
		if t == "" || strings.ContainsAny(t, ") ") {
			return r, fmt.Errorf("guard: %w %q", ErrBadRule, s)
		}
		r.tool = strings.ToLower(t)
		return r, nil
	}
	if !strings.HasSuffix(t, ")") || open == 0 {
		return r, fmt.Errorf("guard: %w %q: want Tool or Tool(specifier)", ErrBadRule, s)
	}
	r.tool = strings.ToLower(t[:open])
	r.spec = strings.TrimSpace(t[open+1 : len(t)-1])
	r.has = true
	if isShellRuleTool(r.tool) && r.spec != "" {
		r.re = commandPattern(r.spec)
	}
	if r.tool == "webfetch" && r.spec != "" && !strings.HasPrefix(r.spec, "domain:") {
		return r, fmt.Errorf("guard: %w %q: WebFetch takes domain:NAME", ErrBadRule, s)
	}
	return r, nil
}

// isShellRuleTool reports rule tools that name shell commands.
func isShellRuleTool(t string) bool {
	return t == "bash" || t == "powershell" || t == "shell" || t == "cmd"
}

// commandPattern compiles a command specifier: "git push:*" is a prefix
// at a word boundary, "*" elsewhere matches any text, anything else is
// exact. Spaces match runs of white space.
func commandPattern(spec string) *regexp.Regexp {
	prefix := false
	if strings.HasSuffix(spec, ":*") {
		prefix = true
		spec = strings.TrimSpace(strings.TrimSuffix(spec, ":*"))
	}
	var b strings.Builder
	b.WriteString(`^`)
	lit := 0
	flush := func(i int) {
		if lit < i {
			b.WriteString(regexp.QuoteMeta(spec[lit:i]))
		}
	}
	for i := 0; i < len(spec); i++ {
		switch spec[i] {
		case ' ', '\t':
			flush(i)
			for i+1 < len(spec) && (spec[i+1] == ' ' || spec[i+1] == '\t') {
				i++
			}
			b.WriteString(`\s+`)
			lit = i + 1
		case '*':
			flush(i)
			b.WriteString(`.*`)
			lit = i + 1
		}
	}
	flush(len(spec))
	if prefix {
		b.WriteString(`(\s.*)?`)
	}
	b.WriteString(`$`)
	return regexp.MustCompile(b.String())
}

// Policies are the rules of the three settings levels; a nil level has
// no rules.
type Policies struct {
	Server, Key, Session *Policy
}

// PolicyVerdict is a verdict after the permission rules.
type PolicyVerdict struct {
	Verdict
	// Decision is "deny", "ask" or "allow" when a rule decided, ""
	// when the built-in analysis did.
	Decision string
	// Rule is the rule that decided, as written, and RuleLevel the
	// settings level it came from ("server", "key", "session").
	Rule, RuleLevel string
	// Matched is the simple command, path or URL the rule matched.
	Matched string
	// Builtin is the built-in analysis's verdict.
	Builtin Verdict
}

type policyLevel struct {
	name string
	p    *Policy
	// relax is the most severe built-in finding its allow rules lift.
	relax DangerLevel
}

func (ps Policies) levels() []policyLevel {
	var out []policyLevel
	if ps.Server != nil {
		out = append(out, policyLevel{"server", ps.Server, LevelHigh})
	}
	if ps.Key != nil {
		out = append(out, policyLevel{"key", ps.Key, LevelModerate})
	}
	if ps.Session != nil {
		out = append(out, policyLevel{"session", ps.Session, LevelModerate})
	}
	return out
}

// Empty reports whether no level has a rule.
func (ps Policies) Empty() bool {
	for _, l := range ps.levels() {
		if len(l.p.allow)+len(l.p.ask)+len(l.p.deny) > 0 {
			return false
		}
	}
	return true
}

// CheckCommand judges a shell command line with d and then the rules.
func (ps Policies) CheckCommand(d *Detector, command string, c Context) PolicyVerdict {
	return ps.checkShell(d, "Bash", command, c)
}

// CheckToolUse judges a tool call with d and then the rules: shell tools
// by their command, file tools by their path, WebFetch by its URL, any
// tool by its name.
func (ps Policies) CheckToolUse(d *Detector, tool string, input map[string]any, c Context) PolicyVerdict {
	t := strings.ToLower(tool)
	if shellTools[t] || toolDialect(t) != "" {
		if cmd, ok := commandInput(input); ok {
			if dl := toolDialect(t); dl != "" && c.Shell == "" {
				c.Shell = dl
			}
			return ps.checkShell(d, tool, cmd, c)
		}
	}
	builtin := d.CheckToolUse(tool, input, c)
	pv := PolicyVerdict{Verdict: builtin, Builtin: builtin}
	if ps.Empty() {
		return pv
	}
	target := toolTarget(t, input)
	match := func(r *permRule) bool { return ruleMatchesTool(r, t, target, c) }
	if lv, r := ps.find(func(p *Policy) []permRule { return p.deny }, match); r != nil {
		return ps.decided(pv, "deny", lv, r, target)
	}
	if lv, r := ps.find(func(p *Policy) []permRule { return p.ask }, match); r != nil && !builtin.Blocked {
		return ps.decided(pv, "ask", lv, r, target)
	}
	if builtin.Blocked && builtin.Level < LevelCritical {
		for _, l := range ps.levels() {
			if builtin.Level > l.relax {
				continue
			}
			for i := range l.p.allow {
				if match(&l.p.allow[i]) {
					return ps.decided(pv, "allow", l.name, &l.p.allow[i], target)
				}
			}
		}
	}
	if lv, r := ps.find(func(p *Policy) []permRule { return p.allow }, match); r != nil && !builtin.Blocked {
		pv.Decision, pv.Rule, pv.RuleLevel, pv.Matched = "allow", r.text, lv, target
	}
	return pv
}

func commandInput(input map[string]any) (string, bool) {
	for _, k := range [...]string{"command", "cmd"} {
		switch v := input[k].(type) {
		case string:
			return v, true
		case []any:
			parts := make([]string, 0, len(v))
			for _, x := range v {
				s, ok := x.(string)
				if !ok {
					return "", false
				}
				parts = append(parts, shellQuote(s))
			}
			return strings.Join(parts, " "), true
		case []string:
			parts := make([]string, len(v))
			for i, s := range v {
				parts[i] = shellQuote(s)
			}
			return strings.Join(parts, " "), true
		}
	}
	return "", false
}

// toolTarget is what a non-shell tool call acts on: a path or a URL.
func toolTarget(tool string, input map[string]any) string {
	for _, k := range [...]string{"file_path", "notebook_path", "path", "filePath", "filename", "url", "pattern"} {
		if s, ok := input[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

var readTools = map[string]bool{"read": true, "read_file": true, "glob": true, "grep": true, "ls": true, "list_directory": true, "view": true, "notebookread": true}

// ruleMatchesTool matches a rule against a non-shell tool call.
func ruleMatchesTool(r *permRule, tool, target string, c Context) bool {
	switch r.tool {
	case "edit", "write", "multiedit", "notebookedit":
		if !fileTools[tool] {
			return false
		}
		return !r.has || r.spec == "" || pathRuleMatches(r.spec, target, c)
	case "read":
		if !readTools[tool] && !fileTools[tool] {
			return false
		}
		return !r.has || r.spec == "" || pathRuleMatches(r.spec, target, c)
	case "webfetch":
		if tool != "webfetch" && tool != "web_fetch" && tool != "fetch" {
			return false
		}
		if !r.has || r.spec == "" {
			return true
		}
		u, err := url.Parse(target)
		if err != nil {
			return false
		}
		host := strings.ToLower(u.Hostname())
		dom := strings.ToLower(strings.TrimPrefix(r.spec, "domain:"))
		return host == dom || strings.HasSuffix(host, "."+dom)
	}
	if isShellRuleTool(r.tool) {
		return false
	}
	if r.has && r.spec != "" {
		return false // specifiers of other tools are not understood: never match
	}
	// mcp__server matches every tool of that server
	return r.tool == tool || strings.HasPrefix(r.tool, "mcp__") && strings.HasPrefix(tool, r.tool+"__")
}

// pathRuleMatches matches a gitignore-style path specifier: "//x" is an
// absolute path, "~/x" is in the home directory, "/x" and "./x" and "x"
// are relative to the work directory; "**" matches any number of
// folders, "*" any name.
func pathRuleMatches(spec, target string, c Context) bool {
	var pat string
	switch {
	case strings.HasPrefix(spec, "//"):
		pat = spec[1:]
	case strings.HasPrefix(spec, "~/"):
		if c.Home == "" {
			return false
		}
		pat = path.Join(toSlash(c.Home), spec[2:])
	default:
		base := toSlash(c.WorkDir)
		if base == "" {
			return false
		}
		pat = path.Join(base, strings.TrimPrefix(strings.TrimPrefix(spec, "./"), "/"))
		if strings.HasSuffix(spec, "/") || strings.HasSuffix(spec, "**") {
			pat += "/**"
		}
	}
	t := toSlash(target)
	if !strings.HasPrefix(t, "/") && !(len(t) > 1 && t[1] == ':') {
		if c.WorkDir == "" {
			return false
		}
		t = path.Join(toSlash(c.WorkDir), t)
	}
	return globMatch(strings.ToLower(path.Clean(pat)), strings.ToLower(path.Clean(t)))
}

func toSlash(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// globMatch matches p against a pattern where "**" spans folders.
func globMatch(pat, p string) bool {
	ps := strings.Split(pat, "/")
	xs := strings.Split(p, "/")
	var m func(i, j int) bool
	m = func(i, j int) bool {
		for i < len(ps) {
			if ps[i] == "**" {
				for k := j; k <= len(xs); k++ {
					if m(i+1, k) {
						return true
					}
				}
				return false
			}
			if j >= len(xs) {
				return false
			}
			ok, err := path.Match(ps[i], xs[j])
			if err != nil || !ok {
				return false
			}
			i++
			j++
		}
		return j == len(xs)
	}
	return m(0, 0)
}

// find returns the first rule, widest level first, that matches.
func (ps Policies) find(list func(*Policy) []permRule, match func(*permRule) bool) (string, *permRule) {
	for _, l := range ps.levels() {
		rs := list(l.p)
		for i := range rs {
			if match(&rs[i]) {
				return l.name, &rs[i]
			}
		}
	}
	return "", nil
}

func (ps Policies) decided(pv PolicyVerdict, decision, level string, r *permRule, matched string) PolicyVerdict {
	pv.Decision, pv.Rule, pv.RuleLevel, pv.Matched = decision, r.text, level, matched
	switch decision {
	case "deny":
		pv.Verdict = Verdict{Blocked: true, Level: max(LevelHigh, pv.Builtin.Level), Category: CategoryPolicy,
			Reason: fmt.Sprintf("denied by the %s rule %s", level, r.text), Pattern: "policy:" + r.text, Operation: matched,
			Suggestions: []string{"Ask the operator to change the permission rules"}}
	case "ask":
		pv.Verdict = Verdict{Ask: true, Level: pv.Builtin.Level, Category: CategoryPolicy,
			Reason: fmt.Sprintf("the %s rule %s asks a person first", level, r.text), Pattern: "policy:" + r.text, Operation: matched}
	case "allow":
		pv.Verdict = Verdict{}
	}
	return pv
}

// checkShell judges a command line: the analysis lists its simple
// commands, each matched against the rules.
func (ps Policies) checkShell(d *Detector, tool, command string, c Context) PolicyVerdict {
	if ps.Empty() {
		v := d.CheckCommand(command, c)
		return PolicyVerdict{Verdict: v, Builtin: v}
	}
	e := d.Explain(command, c)
	builtin := e.Verdict
	pv := PolicyVerdict{Verdict: builtin, Builtin: builtin}
	var lines []string
	for _, ec := range e.Commands {
		if len(ec.Words) == 0 || strings.Contains(ec.Origin, "(") && strings.HasPrefix(ec.Origin, "expression") {
			continue
		}
		lines = append(lines, strings.Join(ec.Words, " "))
	}
	if len(lines) == 0 {
		lines = []string{strings.TrimSpace(command)}
	}
	t := strings.ToLower(tool)
	matchLine := func(r *permRule, line string) bool {
		if !isShellRuleTool(r.tool) {
			return false
		}
		if r.tool == "powershell" && toolDialect(t) != ShellPowerShell && NormalizeShell(c.Shell) != ShellPowerShell {
			return false
		}
		if !r.has || r.spec == "" || r.spec == "*" || r.spec == ":*" {
			return true
		}
		return r.re.MatchString(line) || r.re.MatchString(strings.ToLower(line)) && strings.ToLower(line) != line
	}
	anyLine := func(r *permRule) (string, bool) {
		for _, l := range lines {
			if matchLine(r, l) {
				return l, true
			}
		}
		return "", false
	}
	for _, l := range ps.levels() {
		for i := range l.p.deny {
			if m, ok := anyLine(&l.p.deny[i]); ok {
				return ps.decided(pv, "deny", l.name, &l.p.deny[i], m)
			}
		}
	}
	if !builtin.Blocked {
		for _, l := range ps.levels() {
			for i := range l.p.ask {
				if m, ok := anyLine(&l.p.ask[i]); ok {
					return ps.decided(pv, "ask", l.name, &l.p.ask[i], m)
				}
			}
		}
		for _, l := range ps.levels() {
			for i := range l.p.allow {
				if m, ok := anyLine(&l.p.allow[i]); ok {
					pv.Decision, pv.Rule, pv.RuleLevel, pv.Matched = "allow", l.p.allow[i].text, l.name, m
					return pv
				}
			}
		}
		return pv
	}
	// built-in block: every objectionable command must be allowed by a
	// level allowed to lift its finding
	if builtin.Level >= LevelCritical || len(e.Unresolved) > 0 && builtin.Category == CategoryUnresolved && !unresolvedAttributed(e) {
		return pv
	}
	var lastRule *permRule
	var lastLevel, lastLine string
	for _, ec := range e.Commands {
		worst := LevelSafe
		for _, r := range ec.Rules {
			if r.Matched && r.Level > worst {
				worst = r.Level
			}
		}
		if len(ec.Unresolved) > 0 && worst < LevelHigh {
			worst = LevelHigh
		}
		if worst < d.opts.MinLevel {
			continue
		}
		if worst >= LevelCritical {
			return pv
		}
		line := strings.Join(ec.Words, " ")
		found := false
		for _, l := range ps.levels() {
			if worst > l.relax {
				continue
			}
			for i := range l.p.allow {
				if matchLine(&l.p.allow[i], line) {
					lastRule, lastLevel, lastLine, found = &l.p.allow[i], l.name, line, true
					break
				}
			}
			if found {
				break
			}
		}
		if !found {
			return pv
		}
	}
	if lastRule == nil {
		return pv
	}
	return ps.decided(pv, "allow", lastLevel, lastRule, lastLine)
}

// unresolvedAttributed reports whether every unresolved part belongs to
// a listed command (so an allow rule on that command can lift it).
func unresolvedAttributed(e Explanation) bool {
	n := 0
	for _, ec := range e.Commands {
		n += len(ec.Unresolved)
	}
	return n >= len(e.Unresolved)
}

// PolicyFirewall is a detector with permission rules; it has the
// methods the engine's Firewall interface asks for, so an engine can
// judge a session's tool calls with that session's three levels of rules.
type PolicyFirewall struct {
	Detector *Detector
	Policies Policies
}

// CheckToolUse judges a tool call with the detector, then the rules.
func (f PolicyFirewall) CheckToolUse(tool string, input map[string]any, c Context) Verdict {
	return f.Policies.CheckToolUse(f.Detector, tool, input, c).Verdict
}

// CheckPrompt judges a prompt; permission rules do not apply to prompts.
func (f PolicyFirewall) CheckPrompt(prompt string, c Context) Verdict {
	return f.Detector.CheckPrompt(prompt, c)
}
