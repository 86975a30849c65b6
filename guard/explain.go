package guard

import (
	"fmt"
	"strings"
)

// Explanation is the analysed view of a command, for people: every
// simple command found, where it came from, what was unwrapped, what
// could not be resolved, and what each applicable rule decided.
type Explanation struct {
	Input    string
	Verdict  Verdict
	Commands []ExplainedCommand
	// Unresolved lists what the analysis could not see through.
	Unresolved []string
	// Findings lists every rule that matched, most severe first.
	Findings []Finding
}

// ExplainedCommand is one simple command found in the input.
type ExplainedCommand struct {
	// Words are the command's words after quote removal, expansion of
	// what is known, and unwrapping.
	Words []string
	// Wrappers are the wrappers removed (sudo, env X=1, timeout 5, ...).
	Wrappers []string
	// Origin says where the command came from: "command", "command
	// substitution", "bash -c payload", "pipeline into sh", ...
	Origin string
	// Depth is how many payloads deep it was found.
	Depth int
	// Redirects are its redirections ("> /dev/sda").
	Redirects []string
	// Unresolved lists the parts of this command that could not be
	// resolved.
	Unresolved []string
	// Rules are the verdicts of the rules that apply to this command.
	Rules []RuleResult
}

// RuleResult is one rule's verdict on one command.
type RuleResult struct {
	ID       string
	Level    DangerLevel
	Category string
	Matched  bool
	Detail   string
	// Generic is set for rules that look at every command (file writes,
	// downloads) rather than at this command's name.
	Generic bool
}

// Finding is a matched rule in an Explanation.
type Finding struct {
	Rule      string
	Level     DangerLevel
	Category  string
	Reason    string
	Operation string
}

// Explain analyses a command like CheckCommand and returns the analysis.
func (d *Detector) Explain(command string, c Context) Explanation {
	e := Explanation{Input: command}
	if d == nil {
		return e
	}
	a := d.newAnalysis(c)
	defer a.release()
	a.explain = true
	a.runTop(command, c.Shell)
	e.Verdict = d.decide(a)
	e.Unresolved = a.notes
	for _, f := range a.all {
		e.Findings = append(e.Findings, Finding{Rule: f.id, Level: f.level, Category: f.category, Reason: f.text(), Operation: f.op})
	}
	sortFindings(e.Findings)
	for _, cm := range a.cmds {
		ec := ExplainedCommand{Wrappers: cm.wrappers, Origin: cm.origin, Depth: cm.depth, Unresolved: cm.notes, Rules: cm.results}
		if cm.synthetic != "" {
			ec.Words = []string{cm.text}
			ec.Origin = cm.synthetic + " (" + cm.origin + ")"
		}
		for _, w := range cm.words {
			ec.Words = append(ec.Words, w.s)
		}
		for _, r := range cm.redirs {
			if r.isBody {
				ec.Redirects = append(ec.Redirects, r.n+r.op.String()+" ("+fmt.Sprint(len(r.body))+" bytes)")
			} else {
				ec.Redirects = append(ec.Redirects, r.n+r.op.String()+" "+r.w.s)
			}
		}
		e.Commands = append(e.Commands, ec)
	}
	return e
}

func sortFindings(fs []Finding) {
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && fs[j].Level > fs[j-1].Level; j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}

// String prints the explanation for a terminal.
func (e Explanation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "input: %s\n", truncate(e.Input, 500))
	v := e.Verdict
	switch {
	case v.Blocked:
		fmt.Fprintf(&b, "verdict: BLOCKED — %s %s [%s]\n  %s\n", v.Level, v.Category, v.Pattern, v.Reason)
	case v.Ask:
		fmt.Fprintf(&b, "verdict: ASK — %s [%s]\n  %s\n", v.Category, v.Pattern, v.Reason)
	case v.Level > LevelSafe:
		fmt.Fprintf(&b, "verdict: allowed (below the blocking level) — %s %s [%s]\n  %s\n", v.Level, v.Category, v.Pattern, v.Reason)
	default:
		b.WriteString("verdict: safe\n")
	}
	if v.Operation != "" {
		fmt.Fprintf(&b, "  operation: %s\n", truncate(v.Operation, 300))
	}
	for _, s := range v.Suggestions {
		fmt.Fprintf(&b, "  suggestion: %s\n", s)
	}
	fmt.Fprintf(&b, "commands (%d):\n", len(e.Commands))
	for i, c := range e.Commands {
		quoted := make([]string, len(c.Words))
		for j, w := range c.Words {
			quoted[j] = truncate(shellQuote(w), 200)
		}
		line := strings.Join(quoted, " ")
		if line == "" {
			line = "(redirections only)"
		}
		fmt.Fprintf(&b, "%3d. %s\n", i+1, line)
		fmt.Fprintf(&b, "     from: %s", c.Origin)
		if c.Depth > 0 {
			fmt.Fprintf(&b, " (depth %d)", c.Depth)
		}
		b.WriteByte('\n')
		if len(c.Wrappers) > 0 {
			fmt.Fprintf(&b, "     unwrapped: %s\n", strings.Join(c.Wrappers, " | "))
		}
		if len(c.Redirects) > 0 {
			fmt.Fprintf(&b, "     redirects: %s\n", strings.Join(c.Redirects, ", "))
		}
		for _, u := range c.Unresolved {
			fmt.Fprintf(&b, "     unresolved: %s\n", u)
		}
		generic := 0
		for _, r := range c.Rules {
			if r.Generic && !r.Matched {
				generic++
				continue
			}
			mark := "  ok "
			if r.Matched {
				mark = "MATCH"
			}
			fmt.Fprintf(&b, "     [%s] %-32s %-8s %s", mark, r.ID, r.Level, r.Category)
			if r.Detail != "" {
				fmt.Fprintf(&b, " — %s", truncate(r.Detail, 120))
			}
			b.WriteByte('\n')
		}
		if generic > 0 {
			fmt.Fprintf(&b, "     [  ok ] %d generic rules (writes, downloads, history, ...)\n", generic)
		}
	}
	if len(e.Unresolved) > 0 {
		b.WriteString("unresolved:\n")
		for _, u := range e.Unresolved {
			fmt.Fprintf(&b, "  - %s\n", truncate(u, 300))
		}
	}
	return b.String()
}
