package guard

import (
	"regexp"
	"strings"
)

// The parser reads bash. Commands written for zsh or fish that bash cannot
// parse are rewritten into the bash they mean, then analysed, rather than
// reported as unanalysable: zsh glob qualifiers and parameter flags, fish
// blocks (for/while/if/function/begin ... end) and fish command
// substitution (cmd).

var (
	zshQualifier = regexp.MustCompile(`([*?\]][^\s()'"]*)\([A-Za-z.:^\-+0-9@/*=,]*\)`)
	zshParamFlag = regexp.MustCompile(`\$\{\([^)]*\)`)
	zshIndirect  = regexp.MustCompile(`\$\{\(P\)(\w+)\}`)
	zshSplitFlag = regexp.MustCompile(`\$\{\(s:([^:/]+):\)(\w+)\}`)
	zshForceOp   = regexp.MustCompile(`\$\{[=~^]+`)
	fishSubst    = regexp.MustCompile(`(^|[\s=])\(`)
)

// rewriteDialect returns src rewritten from zsh or fish into bash, and
// whether anything changed.
func rewriteDialect(src string) (string, bool) {
	out := zshQualifier.ReplaceAllString(src, "$1")
	// ${(s:SEP:)VAR} splits VAR at SEP: the same words as ${VAR//SEP/ }
	out = zshSplitFlag.ReplaceAllString(out, "$${$2//$1/ }")
	out = zshIndirect.ReplaceAllString(out, "$${!$1}")
	out = zshParamFlag.ReplaceAllString(out, "${")
	out = zshForceOp.ReplaceAllString(out, "${")
	if fishLike(out) {
		out = fishToBash(out)
	}
	return out, out != src
}

// fishLike reports text using fish's block syntax.
func fishLike(s string) bool {
	return strings.Contains(s, "; end") || strings.HasSuffix(strings.TrimSpace(s), "end") || strings.HasPrefix(s, "function ") ||
		strings.HasPrefix(s, "begin") || strings.Contains(s, " (") || strings.Contains(s, "$argv")
}

// splitStatements splits at ; and newlines outside quotes.
func splitStatements(s string) []string {
	var out []string
	var q byte
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else if c == '\\' && q == '"' {
				i++
			}
		case c == '\'' || c == '"':
			q = c
		case c == '\\':
			i++
		case c == ';' || c == '\n':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// fishToBash rewrites fish blocks and substitutions.
func fishToBash(src string) string {
	var b strings.Builder
	var stack []string
	opened := false
	for _, st := range splitStatements(src) {
		st = strings.TrimSpace(st)
		if st == "" {
			continue
		}
		st = fishSubst.ReplaceAllString(st, "$1$(")
		st = strings.ReplaceAll(st, "$argv", "$@")
		word, rest, _ := strings.Cut(st, " ")
		switch {
		case word == "end" && rest == "" && len(stack) > 0:
			st = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if opened {
				st = ":\n" + st // an empty body
			}
		case word == "for" && !strings.Contains(st, " do"):
			stack = append(stack, "done")
			st += "; do"
		case word == "while":
			stack = append(stack, "done")
			st += "; do"
		case word == "if":
			stack = append(stack, "fi")
			st += "; then"
		case word == "else" && strings.HasPrefix(rest, "if "):
			st = "elif " + strings.TrimPrefix(rest, "if ") + "; then"
		case word == "function":
			name, _, _ := strings.Cut(rest, " ")
			stack = append(stack, "}")
			st = name + "() {"
		case word == "begin" && rest == "":
			stack = append(stack, "}")
			st = "{"
		case word == "switch":
			stack = append(stack, "}")
			st = "{ : " + rest
		case word == "case":
			st = ":"
		}
		b.WriteString(st)
		b.WriteByte('\n')
		opened = strings.HasSuffix(st, "; do") || strings.HasSuffix(st, "; then") || strings.HasSuffix(st, "{")
	}
	for i := len(stack) - 1; i >= 0; i-- {
		b.WriteString(stack[i])
		b.WriteByte('\n')
	}
	return b.String()
}
