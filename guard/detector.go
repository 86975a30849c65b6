package guard

import "fmt"

// Options configure a Detector. The zero value blocks every finding and
// every input it cannot analyse.
type Options struct {
	// Unresolved decides inputs the analysis cannot resolve: a variable
	// or command substitution as the command name, decoded payloads piped
	// into a shell, text that does not parse (default Block).
	Unresolved Action
	// Patterns are extra rules matched against each analysed command.
	Patterns []DangerPattern
	// MinLevel is the least severe level that blocks; findings below it
	// are allowed (default LevelModerate: every finding blocks).
	MinLevel DangerLevel
}

// Detector judges commands, file accesses and prompts. It is safe for
// concurrent use.
type Detector struct {
	opts Options
	// parseAll sends simple lines through the parser too (tests compare
	// the two ways in).
	parseAll bool
	// failHook, when set, runs at the start of every analysis (tests
	// make it panic to see an internal error judged).
	failHook func()
}

// NewDetector returns a detector with the built-in rules plus opts.Patterns.
func NewDetector(opts Options) *Detector {
	if opts.MinLevel == LevelSafe {
		opts.MinLevel = LevelModerate
	}
	initRules()
	return &Detector{opts: opts}
}

// CheckCommand judges a shell command line (which may span several lines).
//
// The verdict reports the most severe finding over every simple command
// in the input. It is Blocked when that finding's level is at least
// Options.MinLevel, or when part of the input cannot be analysed and
// Options.Unresolved is Block (Category "unresolved", Level high); under
// Ask such input gives Ask instead.
//
// A failure of the analysis itself (a bug the input found) never takes
// the caller down: the input is judged as one that cannot be analysed.
func (d *Detector) CheckCommand(command string, c Context) (v Verdict) {
	if d == nil {
		return Verdict{}
	}
	defer func() {
		if r := recover(); r != nil {
			v = d.internalError(command, r)
		}
	}()
	a := d.newAnalysis(c)
	if d.failHook != nil {
		d.failHook()
	}
	a.runTop(command, c.Shell)
	v = d.decide(a)
	a.release() // not on a panic: a broken analysis is not reused
	return v
}

// internalError is the verdict on an input whose analysis failed: what
// the policy does with input it cannot analyse.
func (d *Detector) internalError(command string, r any) Verdict {
	v := Verdict{Level: LevelHigh, Category: "unresolved", Pattern: "internal-error",
		Reason:    fmt.Sprintf("cannot be analysed: the firewall's analysis failed on this input (%v)", r),
		Operation: command}
	switch d.opts.Unresolved {
	case Block:
		v.Blocked = true
	case Ask:
		v.Ask = true
	}
	return v
}

// decide turns an analysis into a verdict.
func (d *Detector) decide(a *analysis) Verdict {
	f := a.best
	u := a.unres
	if d.opts.Unresolved == Allow {
		u = nil
	}
	// blocking candidates: a finding at or above MinLevel, an unresolved
	// part under Block
	if f != nil && f.level >= d.opts.MinLevel {
		if u != nil && d.opts.Unresolved == Block && u.level > f.level {
			v := u.verdict()
			v.Blocked = true
			return v
		}
		v := f.verdict()
		v.Blocked = true
		return v
	}
	if u != nil {
		v := u.verdict()
		if d.opts.Unresolved == Block {
			v.Blocked = true
		} else {
			v.Ask = true
		}
		return v
	}
	if f != nil {
		return f.verdict() // below MinLevel: reported, not blocked
	}
	return Verdict{}
}
