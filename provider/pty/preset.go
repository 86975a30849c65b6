package pty

import (
	"regexp"
	"time"

	"github.com/hotplex/hotplex/provider"
)

// Preset describes how to drive one interactive terminal program: how to
// start it, how to read its screen and which keys to press. Regular
// expressions are matched against the screen's text (one line per row,
// trailing spaces removed, joined with "\n"); use (?m) for ^ and $ to
// match at line boundaries.
type Preset struct {
	// Name is the provider's name (e.g. "claude-tui").
	Name string
	// Command is the program to run; a name without a slash is looked up
	// in PATH.
	Command string
	// Args are the program's arguments.
	Args []string
	// Env is added to the program's environment (KEY=VALUE).
	Env []string
	// SessionArgs, when set, returns extra arguments that tie the program
	// to the conversation o.ProviderSessionID; resume says the
	// conversation already exists. It reports whether it resumes.
	SessionArgs func(o provider.StartOptions, resume bool) (args []string, resumed bool)
	// Prepare, when set, runs before every start with the environment the
	// program gets (for example to seed its configuration so no first-run
	// dialog appears).
	Prepare func(o provider.StartOptions, env []string) error
	// Forget, when set, deletes what the program keeps of conversation o
	// after it ended (its transcript), for a session deleted for good.
	Forget func(o provider.StartOptions, env []string) error

	// Ready matches a screen on which the program waits for a prompt (for
	// example its input line). Nil means any stable screen is ready.
	Ready *regexp.Regexp
	// Busy matches a screen on which the program is working (a spinner,
	// "esc to interrupt"). A busy screen is never idle.
	Busy *regexp.Regexp
	// Settle is how long the screen must stay unchanged, ready and not
	// busy, to count as idle (default 400ms).
	Settle time.Duration
	// Model, when set, finds the model's name on the ready screen (its
	// first submatch), for Info and the turn's result.
	Model *regexp.Regexp
	// Dialogs are screens that may appear while the program starts (a
	// trust question, a theme picker), each answered by its keys.
	Dialogs []Dialog

	// BracketedPaste sends the prompt as a paste, wrapped in bracketed
	// paste sequences when the program has turned that mode on, so that
	// newlines in it do not submit early. Otherwise the prompt is typed,
	// with newlines sent as NewlineKeys.
	BracketedPaste bool
	// NewlineKeys replace newlines of a typed prompt (default: a space).
	NewlineKeys string
	// SubmitKeys are pressed after the prompt (default "\r", Enter).
	SubmitKeys string
	// SubmitDelay is waited between the prompt and SubmitKeys, so that the
	// program does not take Enter as part of a paste (default 150ms).
	SubmitDelay time.Duration
	// InterruptKeys stop the running prompt (default "\x1b", Esc; many
	// programs use "\x03", Ctrl-C).
	InterruptKeys string

	// Answer says how an answer is cut out of the screen.
	Answer AnswerRules
	// Permissions describe the program's permission questions; the first
	// that matches the screen is asked about.
	Permissions []PermissionPrompt

	// Cols and Rows are the terminal's size (default 160x50).
	Cols, Rows int
}

// Dialog is a screen answered by keys.
type Dialog struct {
	Match *regexp.Regexp
	Keys  string
}

// AnswerRules cut the answer out of the lines that follow the echoed
// prompt. All fields are optional.
type AnswerRules struct {
	// End matches the first line after the answer (for example the input
	// box's frame); it and everything below it are dropped. Nil uses Ready
	// and Busy.
	End *regexp.Regexp
	// Chrome matches lines that are never part of an answer (status bars,
	// spinners, rules).
	Chrome []*regexp.Regexp
	// Block, when set, matches the first line of an answer block; its
	// first submatch (or, without one, the rest of the line after the
	// match) is the block's first line. Lines indented by Indent continue
	// the block; any other line ends it. Only blocks are kept, which
	// drops tool calls and their output.
	Block *regexp.Regexp
	// SkipBlock matches block starts that are not answers (tool calls).
	SkipBlock *regexp.Regexp
	// Indent is the continuation indent of a block (default two spaces).
	Indent string
}

// PermissionPrompt is a program's question before it uses a tool, and the
// keys that answer it. The question goes to the turn's PermissionFunc as a
// CanUseTool request; Allow or Deny keys answer on the program's screen.
type PermissionPrompt struct {
	// Match finds the question on the screen. A named group "tool" is the
	// request's tool name; every other named group (say "command" or
	// "file_path") becomes an input field of that name.
	Match *regexp.Regexp
	// Tool is the tool name when Match has no "tool" group (default "Bash").
	Tool string
	// AllowKeys and DenyKeys answer the question.
	AllowKeys, DenyKeys string
	// Title, when set, names this question on the screen (say "Bash
	// command"). While the title is on screen but Match does not match,
	// the question is taken to be still drawing: a later, generic prompt
	// that matches is not answered for up to DrawWait. After that the
	// question is asked about as this prompt's tool without its details,
	// which the firewall judges as input it cannot analyse.
	Title string
}

func (p *Preset) settle() time.Duration {
	if p.Settle > 0 {
		return p.Settle
	}
	return 400 * time.Millisecond
}

func (p *Preset) submitKeys() string {
	if p.SubmitKeys != "" {
		return p.SubmitKeys
	}
	return "\r"
}

func (p *Preset) submitDelay() time.Duration {
	if p.SubmitDelay > 0 {
		return p.SubmitDelay
	}
	return 150 * time.Millisecond
}

func (p *Preset) interruptKeys() string {
	if p.InterruptKeys != "" {
		return p.InterruptKeys
	}
	return "\x1b"
}

func (p *Preset) newlineKeys() string {
	if p.NewlineKeys != "" {
		return p.NewlineKeys
	}
	return " "
}

func (p *Preset) size() (cols, rows int) {
	cols, rows = p.Cols, p.Rows
	if cols <= 0 {
		cols = 160
	}
	if rows <= 0 {
		rows = 50
	}
	return cols, rows
}

// idleScreen reports whether screen shows the program waiting for input.
func (p *Preset) idleScreen(screen string) bool {
	if p.Busy != nil && p.Busy.MatchString(screen) {
		return false
	}
	return p.Ready == nil || p.Ready.MatchString(screen)
}
