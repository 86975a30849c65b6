package guard

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
func (d *Detector) CheckCommand(command string, c Context) Verdict {
	if d == nil {
		return Verdict{}
	}
	a := d.newAnalysis(c)
	defer a.release()
	a.runTop(command, c.Shell)
	return d.decide(a)
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
