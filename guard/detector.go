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
}

// NewDetector returns a detector with the built-in rules plus opts.Patterns.
func NewDetector(opts Options) *Detector {
	if opts.MinLevel == LevelSafe {
		opts.MinLevel = LevelModerate
	}
	return &Detector{opts: opts}
}

// CheckCommand judges a shell command line (which may span several lines).
func (d *Detector) CheckCommand(command string, c Context) Verdict {
	return Verdict{}
}

// CheckFile judges a file tool (Write, Edit, MultiEdit, NotebookEdit, ...)
// writing to path: outside the work directory, or to a system location or
// a shell start-up file, it is blocked.
func (d *Detector) CheckFile(tool, path string, c Context) Verdict {
	return Verdict{}
}

// CheckToolUse judges an agent's tool call by its name and input: Bash
// (and other shell tools) by their command, file tools by their path;
// other tools are safe.
func (d *Detector) CheckToolUse(tool string, input map[string]any, c Context) Verdict {
	return Verdict{}
}

// CheckPrompt judges a user's prompt before it reaches the agent: the
// commands it spells out (in code blocks, inline code, or "$ " lines) are
// checked; prose that merely mentions a command is not.
func (d *Detector) CheckPrompt(prompt string, c Context) Verdict {
	return Verdict{}
}
