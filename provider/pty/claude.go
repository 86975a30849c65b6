package pty

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/hotplex/hotplex/internal/claudecli"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
)

// ClaudeTUI is the preset for Claude Code's interactive terminal UI (the
// `claude` CLI without -p), at path. The conversation is tied to the
// provider session ID (--session-id on the first start, --resume once its
// transcript exists), Esc interrupts, and Bash permission questions are
// answered through the turn's PermissionFunc (Enter on "Yes", Esc for no).
//
// What the screen allows: unless permissions are skipped, a settings rule
// (claude.AskEveryCommand) makes the UI ask about every command, read-only
// ones such as ls or cat included, so that each is put to the turn's
// PermissionFunc and the firewall before it runs. File writes and edits
// are asked about by file path; other questions by their title only. A
// denial is Esc, which ends the turn, and the model is not told the reason.
//
// The interactive UI shows first-run screens (theme, API key approval,
// folder trust) on a fresh HOME and checks the network from them, so
// Prepare records them as done in $HOME/.claude.json before every start:
// onboarding complete, the work directory trusted, and the API key from
// ANTHROPIC_API_KEY approved.
func ClaudeTUI(path string) Preset {
	if path == "" {
		path = "claude"
	}
	p := Preset{
		Name:        "claude-tui",
		Command:     path,
		SessionArgs: claudeSessionArgs,
		Prepare:     claudePrepare,
		Forget:      claudeForget,
		// The input line is always on screen; the spinner line is not.
		// Ready is the input box, empty or not, framed by two rules; a
		// question replaces it.
		Ready: regexp.MustCompile(`(?m)^─{20,}\n❯.*\n─{20,}`),
		Busy:  regexp.MustCompile(`(?i)esc to interrupt|Do you want to [^\n]*\?`),
		// The banner's second line: logo blocks, then "<model> · <billing>".
		Model: regexp.MustCompile(`(?m)^\s*\S*[█▀▄▜▛▟▙]\S*\s{2,}([^·\n]+?)\s+·`),
		// The UI redraws its spinner several times a second while it
		// works (and says "esc to interrupt"), so a short quiet without
		// that means it has finished.
		Settle:         300 * time.Millisecond,
		BracketedPaste: true,
		SubmitDelay:    200 * time.Millisecond,
		InterruptKeys:  "\x1b",
		Dialogs: []Dialog{
			{Match: regexp.MustCompile(`Do you trust the files in this folder\?|Yes, I trust this folder`), Keys: "\r"},
			{Match: regexp.MustCompile(`Choose the text style`), Keys: "\r"},
		},
		Answer: AnswerRules{
			// The input box's top rule ends the conversation area.
			End: regexp.MustCompile(`^─{20,}`),
			// Text the model wrote starts with "● "; tool calls look like
			// "● Bash(ls)" and are not part of the answer.
			Block:     regexp.MustCompile(`^● (.*)$`),
			SkipBlock: regexp.MustCompile(`^● [A-Za-z_][\w.-]*\(`),
			// Collapsed tool summaries and tool output, indented under a block.
			Chrome: []*regexp.Regexp{
				regexp.MustCompile(`^\s+(Ran|Read|Wrote|Edited|Updated|Searched|Listed|Fetched|Did not run) \d+ \w+`),
				regexp.MustCompile(`^\s+⎿`),
			},
			Indent: "  ",
		},
		Permissions: []PermissionPrompt{{
			// The command sits between two dashed rules below the title.
			// The title may carry a note: "Bash command (unsandboxed)".
			Match:     regexp.MustCompile(`(?s)Bash command[^\n]*\n.*?╌{10,}\n(?P<command>.*?)\n\s*╌{10,}\n.*Do you want to proceed\?`),
			Tool:      "Bash",
			AllowKeys: "\r", DenyKeys: "\x1b",
			Title: "\n Bash command",
		}, {
			Match:     regexp.MustCompile(`(?s)\n Create file\n (?P<file_path>[^\n]+)\n.*Do you want to create [^\n]*\?`),
			Tool:      "Write",
			AllowKeys: "\r", DenyKeys: "\x1b",
			Title: "\n Create file\n",
		}, {
			// The question names the file too. When the title row is
			// damaged (the UI repaints only the cells it believes
			// changed, and a terminal whose cells drifted from its belief
			// keeps stale ones: "Createdfilede"), the file is read there.
			Match:     regexp.MustCompile(`\n\s*Do you want to create (?P<file_path>[^\n]+?)\?\n\s*❯ 1\. Yes`),
			Tool:      "Write",
			AllowKeys: "\r", DenyKeys: "\x1b",
		}, {
			Match:     regexp.MustCompile(`(?s)\n Edit file\n (?P<file_path>[^\n]+)\n.*Do you want to make this edit[^\n]*\?`),
			Tool:      "Edit",
			AllowKeys: "\r", DenyKeys: "\x1b",
			Title: "\n Edit file\n",
		}, {
			// Any other question (web fetches, MCP tools): asked about
			// without details.
			Match:     regexp.MustCompile(`(?s)\n (?P<tool>[A-Z][^\n]{0,60})\n.*Do you want to [^\n]*\?\n\s*❯ 1\. Yes`),
			AllowKeys: "\r", DenyKeys: "\x1b",
		}},
	}
	if os.Geteuid() == 0 {
		// As root the CLI refuses to skip permissions without this.
		p.Env = append(p.Env, "IS_SANDBOX=1")
	}
	return p
}

func claudeSessionArgs(o provider.StartOptions, resume bool) ([]string, bool) {
	// The transcript on disk decides, whatever the engine asked: the UI
	// cannot fall back from a --resume that finds nothing.
	resume = claudecli.HasTranscript(o.Env, o.WorkDir, o.ProviderSessionID)
	args := claudecli.ConversationArgs(o.ProviderSessionID, resume)
	// The classic renderer ("default"; the settings file refuses the name
	// "classic") writes on the main screen, so what scrolls off stays in
	// the terminal's history and long answers are read whole. The
	// fullscreen one, which the CLI may pick by itself, keeps its own
	// viewport on the alternate screen, where anything longer than the
	// screen is lost to us.
	settings := map[string]any{"tui": "default"}
	switch mode := claudecli.PermissionMode(o.PermissionMode); {
	case o.DangerouslySkipPermissions:
		args = append(args, "--dangerously-skip-permissions")
	case mode != "":
		args = append(args, "--permission-mode="+mode)
	default:
		// Ask before tools run, so the questions reach the PermissionFunc.
		args = append(args, "--permission-mode=default")
	}
	if !claudecli.Bypass(o) {
		// Read-only commands too, or they run before anything sees them.
		settings["permissions"] = claude.AskEveryCommand()
	}
	b, _ := json.Marshal(settings)
	args = append(args, "--settings="+string(b))
	return append(args, claudecli.OptionArgs(o)...), resume
}

// claudeForget deletes what the CLI keeps of o's conversation: its
// transcript and the files it keeps beside it.
func claudeForget(o provider.StartOptions, env []string) error {
	return claudecli.RemoveConversation(env, o.WorkDir, o.ProviderSessionID)
}

// claudePrepare records the first-run screens as done in $HOME/.claude.json,
// keeping whatever else the file holds.
func claudePrepare(o provider.StartOptions, env []string) error {
	home := provider.EnvValue(env, "HOME")
	if home == "" {
		return errors.New("HOME is not set")
	}
	path := filepath.Join(home, ".claude.json")
	cfg := map[string]any{}
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(b, &cfg); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	cfg["hasCompletedOnboarding"] = true
	if _, ok := cfg["theme"]; !ok {
		cfg["theme"] = "dark"
	}
	projects, _ := cfg["projects"].(map[string]any)
	if projects == nil {
		projects = map[string]any{}
	}
	proj, _ := projects[o.WorkDir].(map[string]any)
	if proj == nil {
		proj = map[string]any{}
	}
	proj["hasTrustDialogAccepted"] = true
	proj["hasCompletedProjectOnboarding"] = true
	projects[o.WorkDir] = proj
	cfg["projects"] = projects
	if key := provider.EnvValue(env, "ANTHROPIC_API_KEY"); key != "" {
		// The CLI remembers approved keys by their last 20 characters.
		if len(key) > 20 {
			key = key[len(key)-20:]
		}
		resp, _ := cfg["customApiKeyResponses"].(map[string]any)
		if resp == nil {
			resp = map[string]any{"rejected": []any{}}
		}
		approved, _ := resp["approved"].([]any)
		found := false
		for _, k := range approved {
			found = found || k == key
		}
		if !found {
			approved = append(approved, key)
		}
		resp["approved"] = approved
		cfg["customApiKeyResponses"] = resp
	}
	out, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o600)
}
