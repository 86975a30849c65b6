package pty

import (
	"strings"
)

// extractAnswer cuts the answer to prompt out of the transcript after the
// turn: the lines below the prompt's echo, up to the preset's end marker,
// less the preset's chrome, and only its answer blocks when it defines
// them. before is the transcript when the prompt was submitted.
func extractAnswer(before, after []string, prompt string, p *Preset) string {
	body := linesAfterEcho(before, after, prompt)
	rules := p.Answer
	var kept []string
	for _, l := range body {
		if rules.End != nil {
			if rules.End.MatchString(l) {
				break
			}
		} else if l != "" && ((p.Ready != nil && p.Ready.MatchString(l)) || (p.Busy != nil && p.Busy.MatchString(l))) {
			break
		}
		if chrome(rules, l) {
			continue
		}
		kept = append(kept, l)
	}
	if rules.Block != nil {
		kept = blocks(kept, rules)
	}
	return strings.TrimSpace(strings.Join(trimLines(kept), "\n"))
}

func chrome(r AnswerRules, line string) bool {
	for _, re := range r.Chrome {
		if re.MatchString(line) {
			return true
		}
	}
	return false
}

// linesAfterEcho returns the lines after the one that echoes the prompt's
// first line, skipping the rest of a multi-line prompt's echo. The echo is
// looked for from where the transcript started to differ from the one at
// submission, forwards: the answer itself may quote the prompt, and older
// turns may hold the same prompt.
func linesAfterEcho(before, lines []string, prompt string) []string {
	plines := strings.Split(strings.TrimSpace(strings.ReplaceAll(prompt, "\r\n", "\n")), "\n")
	needle := strings.TrimSpace(plines[0])
	// A long prompt wraps: its first screen line holds only its start.
	if r := []rune(needle); len(r) > 40 {
		needle = string(r[:40])
	}
	from := 0
	for from < len(before) && from < len(lines) && before[from] == lines[from] {
		from++
	}
	at := -1
	for i := from; i < len(lines) && needle != ""; i++ {
		if strings.Contains(lines[i], needle) {
			at = i
			break
		}
	}
	// Redrawn from the top (cleared, or scrolled past the history limit):
	// the last echo is the best guess.
	for i := len(lines) - 1; at < 0 && i >= 0 && needle != ""; i-- {
		if strings.Contains(lines[i], needle) {
			at = i
		}
	}
	if at < 0 {
		return nil
	}
	rest := lines[at+1:]
	// Continuation rows of the echo (wrapped or further prompt lines) are
	// pieces of the prompt itself.
	flat := strings.Join(strings.Fields(prompt), " ")
	for len(rest) > 0 {
		l := strings.Join(strings.Fields(rest[0]), " ")
		if l == "" || !strings.Contains(flat, l) {
			break
		}
		rest = rest[1:]
	}
	return rest
}

// blocks keeps the answer blocks of lines: a line matching Block starts
// one, indented lines continue it.
func blocks(lines []string, r AnswerRules) []string {
	indent := r.Indent
	if indent == "" {
		indent = "  "
	}
	var out []string
	in := false
	for _, l := range lines {
		if m := r.Block.FindStringSubmatchIndex(l); m != nil {
			if r.SkipBlock != nil && r.SkipBlock.MatchString(l) {
				in = false
				continue
			}
			for len(out) > 0 && out[len(out)-1] == "" {
				out = out[:len(out)-1]
			}
			if len(out) > 0 {
				out = append(out, "") // one blank line between blocks
			}
			first := l[m[1]:]
			if len(m) >= 4 && m[2] >= 0 {
				first = l[m[2]:m[3]]
			}
			out = append(out, first)
			in = true
			continue
		}
		switch {
		case in && strings.HasPrefix(l, indent):
			out = append(out, strings.TrimPrefix(l, indent))
		case in && l == "":
			out = append(out, "")
		default:
			in = false
		}
	}
	return out
}
