package scriptedmodel

import (
	"strings"
	"time"
)

// Script decides what the model answers. Rules are tried in order; the first
// whose Match is contained in the conversation's latest user prompt wins.
// A rule holds one Reply per model call of the turn: the first answers the
// prompt, the second answers the first tool result, and so on. When the
// replies run out, the last one repeats.
type Script struct {
	Rules []Rule
	// Default answers prompts no rule matches. Zero value: a short text
	// reply that echoes the prompt.
	Default *Reply
	// Free reports zero tokens for every reply. Agent CLIs price a turn
	// from the model's name and the usage the API reports (Claude Code
	// prices names it does not know like its default model), so zero
	// usage is the only way to have them report a cost of zero.
	Free bool
}

// Rule maps prompts containing Match to a sequence of replies.
type Rule struct {
	Match   string
	Replies []Reply
}

// Reply is one model response.
type Reply struct {
	// Thinking, when set, is streamed as a thinking block first.
	Thinking string
	// Text blocks follow the thinking; each string is its own block.
	Text []string
	// ToolUses are emitted after the text as tool_use blocks; the stop
	// reason becomes "tool_use".
	ToolUses []ToolUse
	// Delay is slept before the first byte of the response (a slow model).
	Delay time.Duration
	// ChunkDelay is slept between streamed deltas.
	ChunkDelay time.Duration
	// Status, when non-zero and not 200, fails the request with this HTTP
	// status and an Anthropic-shaped error body.
	Status int
	// ErrorType is the error.type for failed requests (default "api_error").
	ErrorType string
	// Usage overrides the token counts reported for this reply.
	InputTokens, OutputTokens, CacheReadTokens, CacheWriteTokens int
	// Expect, when set, makes the reply depend on the tool result it
	// answers: when that result does not contain Expect (the tool was
	// denied, or failed), Otherwise is the reply instead.
	Expect    string
	Otherwise *Reply
}

// given returns the reply to send after a tool printed lastResult.
func (r Reply) given(lastResult string) Reply {
	if r.Expect != "" && r.Otherwise != nil && !strings.Contains(lastResult, r.Expect) {
		return *r.Otherwise
	}
	return r
}

// ToolUse is one tool call the model asks for.
type ToolUse struct {
	Name  string
	Input map[string]any
	// Shell, when set, makes this a call of the request's shell tool: the
	// server picks the declared tool whose name is a known shell tool and
	// shapes the arguments for it; Name (default "Bash") is used only when
	// the request declares none. Input adds arguments or replaces the
	// shape's defaults (all but the command itself).
	Shell string
}

// Text is a one-block text reply.
func Text(s string) Reply { return Reply{Text: []string{s}} }

// Bash is a reply that asks to run one shell command.
func Bash(command string) Reply {
	return Reply{ToolUses: []ToolUse{{Name: "Bash", Input: map[string]any{"command": command, "description": "run " + firstWord(command)}}}}
}

// Then builds a rule: prompts containing match get the replies in order.
func Then(match string, replies ...Reply) Rule { return Rule{Match: match, Replies: replies} }

// Demo is the script the built-in offline model uses: every prompt gets a
// short look at the work directory through the agent's shell tool, then an
// answer that quotes what the tool printed.
func Demo() Script {
	return Script{Rules: []Rule{
		Then("", Reply{
			Thinking: "The user wants me to look around. I will list the work directory first.",
			Text:     []string{"Let me look at the work directory."},
			ToolUses: []ToolUse{{
				Shell: "echo \"hello from $(pwd)\" > hotplex-demo.txt && ls -la",
				Input: map[string]any{"description": "Write a greeting file and list the work directory"},
			}},
		}, Reply{
			Text:      []string{"Done. I wrote `hotplex-demo.txt` in the work directory and listed it:\n\n```\n{{last_tool_result}}\n```\n\n" + demoFooter},
			Expect:    "hotplex-demo.txt",
			Otherwise: &Reply{Text: []string{"The command did not run, so nothing was written. It answered:\n\n```\n{{last_tool_result}}\n```\n\n" + demoFooter}},
		}),
	}, Free: true}
}

const demoFooter = "This answer came from HotPlex's built-in offline model, which costs nothing; set your agent's API key (ANTHROPIC_API_KEY, OPENAI_API_KEY, ...) to talk to a real one."

func (s Script) pick(prompt string, step int) Reply {
	for _, r := range s.Rules {
		if strings.Contains(prompt, r.Match) && len(r.Replies) > 0 {
			if step >= len(r.Replies) {
				step = len(r.Replies) - 1
			}
			return r.Replies[step]
		}
	}
	if s.Default != nil {
		return *s.Default
	}
	return Text("You said: " + prompt)
}

func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return "command"
	}
	return f[0]
}

// Shell is a reply that asks to run one shell command through whichever
// shell tool the request declares (Bash, bash, run_shell_command, shell,
// shell_command, exec_command, execute_bash), in that tool's argument shape.
func Shell(command string) Reply {
	return Reply{ToolUses: []ToolUse{{Shell: command}}}
}
