package guard

import "strings"

// Coding-agent CLIs started with their approvals turned off run, without
// asking anyone, the commands their prompt asks for. Such a prompt is
// read like a launcher's payload: the commands it spells out (the whole
// prompt, what follows "run" or "execute", code spans and "$ " lines)
// are judged as if typed; prose that parses as no command is no finding.

// approvalsSkipped reports the option that turns an agent CLI's approvals
// off: claude --dangerously-skip-permissions, codex --yolo, gemini -y.
func approvalsSkipped(c *cmd) bool {
	args := c.args()
	for i, w := range args {
		switch w.s {
		case "--dangerously-skip-permissions", "--dangerously-bypass-approvals-and-sandbox", "--yolo", "--dangerously-allow-all",
			"--allow-all-tools", "--yes-always", "--permission-mode=bypassPermissions", "--approval-mode=yolo":
			return true
		case "-y":
			return c.name == "gemini" || c.name == "qwen"
		case "-f", "--force":
			return c.name == "cursor-agent"
		case "--permission-mode", "--approval-mode":
			if i+1 < len(args) && (args[i+1].s == "bypassPermissions" || args[i+1].s == "yolo") {
				return true
			}
		}
	}
	return false
}

// agentPromptLaunches returns what an agent CLI without approvals is
// asked to run: its operands read as a request.
func agentPromptLaunches(a *analysis, c *cmd) []launch {
	if l := mcpServerLaunch(c); l != nil {
		return l
	}
	if !approvalsSkipped(c) {
		return nil
	}
	var out []launch
	origin := "prompt of " + c.base + " without approvals"
	for _, w := range c.operands() {
		if !w.ok || !strings.ContainsRune(w.s, ' ') {
			continue // a subcommand (exec, run) or a single word
		}
		for _, code := range requestedCommands(w.s) {
			out = append(out, launch{code: code, origin: origin, prose: true})
		}
	}
	return out
}

// requestedCommands returns the command lines a request spells out: the
// snippets of a prompt, the request itself, and what follows each "run",
// "execute" or colon.
func requestedCommands(p string) []string {
	out := append(promptCommands(p), p)
	for _, lead := range [...]string{"run ", "Run ", "execute ", "Execute ", ": "} {
		for rest := p; ; {
			i := strings.Index(rest, lead)
			if i < 0 {
				break
			}
			word := i == 0 || lead == ": " || rest[i-1] == ' ' || rest[i-1] == '\n' || rest[i-1] == ':'
			rest = rest[i+len(lead):]
			if word {
				out = append(out, rest)
			}
		}
	}
	return out
}

// mcpServerLaunch reads claude (codex, gemini, qwen) mcp add NAME -- CMD
// ARGS...: the server's command, which the agent starts at every session.
func mcpServerLaunch(c *cmd) []launch {
	args := c.args()
	if len(args) < 3 || args[0].s != "mcp" || args[1].s != "add" {
		return nil
	}
	for i, w := range args {
		if w.s == "--" && i+1 < len(args) {
			return []launch{{code: quoteWords(args[i+1:]), origin: c.base + " mcp add server"}}
		}
	}
	return nil
}
