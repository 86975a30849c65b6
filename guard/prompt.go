package guard

import (
	"strings"
)

// CheckPrompt judges a user's prompt before it reaches the agent: the
// commands it spells out (in code blocks, inline code, or "$ " lines) are
// checked; prose that merely mentions a command is not.
//
// Fenced code blocks without an info string or with a shell one (sh,
// bash, shell, zsh, console, ...) are checked as shell; inline `code`
// spans and lines starting with "$ " or "# " are checked one by one. Text
// that does not parse is ignored, and so are unresolved parts: a prompt
// is not run as it is.
func (d *Detector) CheckPrompt(prompt string, c Context) Verdict {
	if d == nil {
		return Verdict{}
	}
	var best Verdict
	found := false
	for _, snippet := range promptCommands(prompt) {
		a := d.newAnalysis(c)
		a.prompt = true
		a.run(snippet, "prompt")
		v := d.decide(a)
		a.release()
		if v.Level > best.Level || !found && (v.Blocked || v.Level > LevelSafe) {
			best = v
			found = true
		}
		if best.Level == LevelCritical && best.Blocked {
			break
		}
	}
	return best
}

var shellInfo = map[string]bool{"": true, "sh": true, "bash": true, "shell": true, "zsh": true, "console": true, "terminal": true,
	"shellsession": true, "sh-session": true, "ksh": true, "fish": true, "command": true, "cmd": true, "commands": true, "bash-session": true}

// promptCommands extracts the command snippets of a prompt.
func promptCommands(p string) []string {
	var out []string
	lines := strings.Split(p, "\n")
	var prose []string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trim := strings.TrimLeft(line, " \t")
		if fence := fenceOf(trim); fence != "" {
			info := strings.ToLower(strings.TrimSpace(strings.TrimLeft(trim, fence[:1])))
			if j := strings.IndexAny(info, " {"); j >= 0 {
				info = info[:j]
			}
			var body []string
			i++
			for ; i < len(lines); i++ {
				if strings.HasPrefix(strings.TrimLeft(lines[i], " \t"), fence) {
					break
				}
				body = append(body, lines[i])
			}
			if shellInfo[info] {
				out = append(out, blockCommands(body)...)
			}
			continue
		}
		prose = append(prose, line)
		for _, pfx := range [...]string{"$ ", "# "} {
			if strings.HasPrefix(trim, pfx) {
				out = append(out, strings.TrimSpace(trim[2:]))
			}
		}
	}
	// inline code spans in prose
	text := strings.Join(prose, "\n")
	for {
		i := strings.IndexByte(text, '`')
		if i < 0 {
			break
		}
		n := 1
		for i+n < len(text) && text[i+n] == '`' {
			n++
		}
		delim := text[i : i+n]
		rest := text[i+n:]
		j := strings.Index(rest, delim)
		if j < 0 {
			break
		}
		code := strings.TrimSpace(rest[:j])
		if code != "" && !strings.Contains(code, "\n\n") {
			out = append(out, strings.TrimPrefix(code, "$ "))
		}
		text = rest[j+n:]
	}
	return out
}

func fenceOf(s string) string {
	for _, f := range [...]string{"```", "~~~"} {
		if strings.HasPrefix(s, f) {
			n := len(f)
			for n < len(s) && s[n] == f[0] {
				n++
			}
			return s[:n]
		}
	}
	return ""
}

// blockCommands returns the shell in a code block; console-style blocks
// ("$ cmd" followed by output) keep only the prompted lines.
func blockCommands(body []string) []string {
	prompted := false
	for _, l := range body {
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "$ ") {
			prompted = true
			break
		}
	}
	if !prompted {
		return []string{strings.Join(body, "\n")}
	}
	var out []string
	for _, l := range body {
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "$ ") {
			out = append(out, t[2:])
		}
	}
	return out
}
