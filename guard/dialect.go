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
	zshBraceQualifier = regexp.MustCompile(`(\{[^\s{}()]*[*?][^\s{}()]*\})\([A-Za-z.:^\-+0-9@/*=,\[\]]*\)`)
	zshQualifier      = regexp.MustCompile(`([*?\]][^\s()'"${}]*)\([A-Za-z.:^\-+0-9@/*=,\[\]]*\)`)
	// a qualifier that makes a plain name a pattern: uploads(N) is
	// uploads, or nothing when it does not exist
	// ^(a|b) under extendedglob: every name but those, close to all
	zshNegatedGroup = regexp.MustCompile(`(^|[\s/])\^\([^()\s]*\)`)
	// *.(jpg|png) inside a word: zsh's alternation, judged by its first
	// name (*.jpg)
	zshAltGroup = regexp.MustCompile(`([\w.~/\]-])\(([\w.*?-]+)(?:\|[\w.*?-]+)+\)`)
	// zsh's short loop: for x in words; command (no do ... done)
	zshShortFor      = regexp.MustCompile(`^(\s*for\s+\w+\s+in\s+[^;\n]*;)\s*([^\n]*)$`)
	zshNameQualifier = regexp.MustCompile(`([\w.~/*?}-])\(([NDM./@^-]{1,3})\)($|[\s;&|)])`)
	zshParamFlag     = regexp.MustCompile(`\$\{\([^)sjePzQ]*\)`)
	zshOrderFlag     = regexp.MustCompile(`((?:^|[;&|{(]|\bthen|\bdo)\s*)\$\{\([^)]*[oO][^)]*\)(\w+)\}`)
	// ${(s:SEP:)text} and ${(j:SEP:)text} on literal text (a nested
	// expansion already reduced to it)
	zshLiteralFlag = regexp.MustCompile(`\$\{\(([sj])(.)([^)]*?)(.)\)([^${}\s]*[^${}\w\s][^${}\s]*)\}`)
	zshIndirect    = regexp.MustCompile(`\$\{\(P\)(\w+)\}`)
	zshLowerFlag   = regexp.MustCompile(`\$\{\(L\)(\w+)\}`)
	zshUpperFlag   = regexp.MustCompile(`\$\{\(U\)(\w+)\}`)
	zshSplitFlag   = regexp.MustCompile(`\$\{\(s:([^:/]+):\)(\w+)\}`)
	zshForceOp     = regexp.MustCompile(`\$\{[=~^]+`)
	// =(cmd) is zsh's process substitution through a temporary file
	zshTempSubst = regexp.MustCompile(`(^|[\s;|&<>])=\(`)
	// ${(e)x} evaluates the value of x again, substitutions included
	zshEvalFlag = regexp.MustCompile(`\$\{\([a-zA-Z@%]*e[a-zA-Z@%]*\)(\w+)\}`)
	// ${(j:SEP:)x} joins the elements of array x with SEP
	zshJoinFlag = regexp.MustCompile(`\$\{\(j(.)([^)]*?)(.)\)(\w+)\}`)
	// ${:-word} is word (zsh allows an empty name)
	zshCaseFlag  = regexp.MustCompile(`\$\{\(([LU])\):-([^{}$]*)\}`)
	zshEmptyName = regexp.MustCompile(`\$\{:-([^{}]*)\}`)
	// zsh ends a brace group at } without a ; before it
	zshBareBrace = regexp.MustCompile(`([^\s;{])([ \t]+)\}([ \t]*(?:$|[;&|\n]))`)
)

// rewriteDialect returns src rewritten from zsh or fish into bash, and
// whether anything changed.
func rewriteDialect(src string) (string, bool) {
	out := src
	if strings.ContainsAny(out, "*?]") {
		out = replaceWith(zshQualifier, out, "(", "$1")
		if strings.Contains(out, "}(") {
			// {*,.*}(N): the qualifier applies to every glob of the braces
			out = replaceWith(zshBraceQualifier, out, "}(", "$1")
		}
	}
	if parenFlags(out, "NDM./@^-") {
		out = zshNameQualifier.ReplaceAllString(out, "$1$3")
	}
	out = replaceWith(zshNegatedGroup, out, "^(", "$1*")
	out = replaceWith(zshAltGroup, out, "|", "$1$2")
	if parenFlags(out, "NDM./@^-") {
		// ~/.(ssh|aws)(N): the qualifier after the alternation just read
		out = zshNameQualifier.ReplaceAllString(out, "$1$3")
	}
	out = replaceWith(zshTempSubst, out, "=(", "$1<(")
	out = replaceWith(zshEvalFlag, out, "${(", "$$(eval echo \"$$$1\")")
	out = zshJoin(out)
	// ${(s:SEP:)VAR} splits VAR at SEP: the same words as ${VAR//SEP/ }
	out = replaceWith(zshSplitFlag, out, "${(s:", "$${$2//$1/ }")
	out = zshLiterals(out)
	out = replaceWith(zshIndirect, out, "${(P)", "$${!$1}")
	// ${(L)x} and ${(U)x} change case, as bash's ${x,,} and ${x^^}
	out = replaceWith(zshLowerFlag, out, "${(L)", "$${$1,,}")
	out = replaceWith(zshUpperFlag, out, "${(U)", "$${$1^^}")
	// ${(Oa)a} reorders an array: where it makes the command, which
	// element runs first is not worked out
	out = replaceWith(zshOrderFlag, out, "${(", "$1$$(zsh-ordered \"$${$2[@]}\")")
	out = replaceWith(zshParamFlag, out, "${(", "${")
	out = replaceWith(zshForceOp, out, "${", "${")
	out = unnestParams(out)
	for i := 0; i < 4 && strings.Contains(out, "${:-"); i++ {
		out = zshEmptyName.ReplaceAllString(out, "$1")
	}
	if strings.Contains(out, "for ") {
		out = zshParenFor(out)
	}
	if strings.Contains(out, "repeat ") {
		out = zshRepeatBlock(out)
	}
	out = closeBareBraces(out)
	out = backgroundThenSemicolon(out)
	out = zshDisowned(out)
	if fishLike(out) {
		out = fishToBash(out)
	} else if m := zshShortFor.FindStringSubmatch(out); m != nil && !strings.HasPrefix(strings.TrimSpace(m[2]), "do ") && !strings.Contains(m[2], "done") {
		out = m[1] + " do " + m[2] + "; done"
	}
	return out, out != src
}

// zshParenForStart finds zsh's loop over a parenthesised list:
// for NAME (WORDS) BODY.
var zshParenForStart = regexp.MustCompile(`(^|[;&|{(\s])for\s+(\w+)\s*\(`)

// zshParenFor rewrites zsh's for NAME (WORDS) BODY, where BODY is a brace
// group or a command list up to ; & or the end, as bash's
// for NAME in WORDS; do BODY; done.
func zshParenFor(src string) string {
	out := src
	for n := 0; n < 8; n++ {
		m := zshParenForStart.FindStringSubmatchIndex(out)
		if m == nil {
			return out
		}
		open := m[1] - 1
		closeAt := scanTo(out, open+1, ')')
		if closeAt < 0 {
			return out
		}
		words := out[open+1 : closeAt]
		rest := strings.TrimLeft(out[closeAt+1:], " \t")
		var body, after string
		if strings.HasPrefix(rest, "{") {
			end := scanTo(rest, 1, '}')
			if end < 0 {
				return out
			}
			body, after = strings.TrimSpace(rest[1:end]), rest[end+1:]
		} else {
			end := scanTo(rest, 0, 0)
			body, after = strings.TrimSpace(rest[:end]), rest[end:]
		}
		body = strings.TrimSuffix(strings.TrimSpace(body), ";")
		if body == "" {
			return out
		}
		out = out[:m[3]] + "for " + out[m[4]:m[5]] + " in " + words + "; do " + body + "; done" + after
	}
	return out
}

// zshRepeatStart finds zsh's repeat N { ... }.
var zshRepeatStart = regexp.MustCompile(`(^|[;&|({]\s*)repeat\s+(\d+|\$\w+)\s*\{`)

// zshRepeatBlock rewrites zsh's repeat N { BODY } as bash's loop over
// {1..N}.
func zshRepeatBlock(src string) string {
	out := src
	for n := 0; n < 4; n++ {
		m := zshRepeatStart.FindStringSubmatchIndex(out)
		if m == nil {
			return out
		}
		open := m[1] - 1
		end := scanTo(out, open+1, '}')
		if end < 0 {
			return out
		}
		body := strings.TrimSuffix(strings.TrimSpace(out[open+1:end]), ";")
		if body == "" {
			return out
		}
		sep := "; "
		if strings.HasSuffix(body, "&") {
			sep = " "
		}
		out = out[:m[3]] + "for _ in {1.." + out[m[4]:m[5]] + "}; do " + body + sep + "done" + out[end+1:]
	}
	return out
}

// scanTo returns the index in s, from i on, of the byte stop at nesting
// depth zero outside quotes; with stop 0, of the first ; newline or lone &
// at depth zero, or len(s).
func scanTo(s string, i int, stop byte) int {
	depth := 0
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'':
			if j := strings.IndexByte(s[i+1:], '\''); j >= 0 {
				i += j + 1
			}
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '(', '{':
			if c == stop && depth == 0 && stop == '{' {
				return i
			}
			depth++
		case ')', '}':
			if depth == 0 {
				if c == stop || stop == 0 {
					return i
				}
				return -1
			}
			depth--
		case ';', '\n':
			if stop == 0 && depth == 0 {
				return i
			}
		case '&':
			if stop == 0 && depth == 0 && (i+1 >= len(s) || s[i+1] != '&') && (i == 0 || s[i-1] != '&') {
				return i
			}
		}
	}
	if stop == 0 {
		return len(s)
	}
	return -1
}

// replaceWith is re.ReplaceAllString(s, repl) for a pattern that only
// matches text containing lit: every line bash cannot parse comes here,
// and most contain none of the zsh forms, so the literal test spares
// running each expression over the whole line.
func replaceWith(re *regexp.Regexp, s, lit, repl string) string {
	if !strings.Contains(s, lit) {
		return s
	}
	return re.ReplaceAllString(s, repl)
}

// parenFlags reports a "(" closed after one to three of flags, which
// zshNameQualifier needs: lines of other shells have parentheses, rarely
// that.
func parenFlags(s, flags string) bool {
	for i := strings.IndexByte(s, '('); i >= 0; {
		j := i + 1
		for j < len(s) && j-i <= 3 && strings.IndexByte(flags, s[j]) >= 0 {
			j++
		}
		if j > i+1 && j < len(s) && s[j] == ')' {
			return true
		}
		k := strings.IndexByte(s[i+1:], '(')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

// fishLike reports text using fish's block syntax.
func fishLike(s string) bool {
	return strings.Contains(s, "; end") || strings.HasSuffix(strings.TrimSpace(s), "end") || strings.HasPrefix(s, "function ") ||
		strings.HasPrefix(s, "begin") || strings.Contains(s, "$argv") || fishSubstAt(s) >= 0
}

// fishSubstAt returns the index of the first unquoted ( that opens a fish
// command substitution, or -1. Fish opens one at any unquoted (, also in
// the middle of a word (make -j(nproc), /tmp/x-(random).json); a ( after
// $, < or > or another ( is bash's own, and () is a function definition.
func fishSubstAt(s string) int {
	at := -1
	unquoted(s, 0, func(i int, c byte) bool {
		if c != '(' || i+1 < len(s) && s[i+1] == ')' {
			return true
		}
		if i > 0 && strings.IndexByte("$<>(", s[i-1]) >= 0 || arrayAssignAt(s, i) {
			return true
		}
		at = i
		return false
	})
	return at
}

// arrayAssignAt reports the ( at i opening a bash or zsh array assigned
// to a name that starts a word (ports=(3000 8080)): fish assigns with set.
func arrayAssignAt(s string, i int) bool {
	if i < 2 || s[i-1] != '=' {
		return false
	}
	j := i - 1
	for j > 0 && (s[j-1] == '_' || s[j-1] >= 'a' && s[j-1] <= 'z' || s[j-1] >= 'A' && s[j-1] <= 'Z' || s[j-1] >= '0' && s[j-1] <= '9') {
		j--
	}
	if !(j < i-1 && (j == 0 || strings.IndexByte(" \t;&|(", s[j-1]) >= 0) && !(s[j] >= '0' && s[j] <= '9')) {
		return false
	}
	// an assignment comes before the command's name: after one
	// (curl -d token=(gh auth token)) it is an argument, and the ( fish's
	start := strings.LastIndexAny(s[:j], ";&|\n") + 1
	for _, f := range strings.Fields(s[start:j]) {
		if !strings.Contains(f, "=") {
			return false
		}
	}
	return true
}

// fishSubstitute rewrites every fish command substitution (cmd) in s into
// bash's $(cmd).
func fishSubstitute(s string) string {
	for n := 0; n < 16; n++ {
		i := fishSubstAt(s)
		if i < 0 {
			break
		}
		s = s[:i] + "$" + s[i:]
		// (cmd)[2]: some of the lines it prints, whatever they hold
		if end := scanTo(s, i+2, ')'); end > 0 && end+1 < len(s) && s[end+1] == '[' {
			if m := fishIndex.FindString(s[end+1:]); m != "" {
				s = s[:end+1] + s[end+1+len(m):]
			}
		}
	}
	return s
}

// fishIndex is a fish list index: [2], [-1], [1..3].
var fishIndex = regexp.MustCompile(`^\[-?\d+(?:\.\.-?\d+)?\]`)

// hasWordDo reports a for statement that already has its do (bash's
// for x in a b; do), as a word: "for f in docs/*.md" has none.
func hasWordDo(st string) bool {
	for _, f := range strings.Fields(st) {
		if f == "do" {
			return true
		}
	}
	return false
}

// backgroundThenSemicolon rewrites fish's "cmd &; next" into bash's
// "cmd &" and "next" on the next line: fish ends a statement after & with
// a ;, bash refuses it (and a block's end stays a statement of its own).
func backgroundThenSemicolon(s string) string {
	if !strings.Contains(s, "&;") {
		return s
	}
	var cut []int
	unquoted(s, 0, func(i int, c byte) bool {
		if c == '&' && i+1 < len(s) && s[i+1] == ';' && (i == 0 || strings.IndexByte("&|<>", s[i-1]) < 0) {
			cut = append(cut, i+1)
		}
		return true
	})
	for k := len(cut) - 1; k >= 0; k-- {
		s = s[:cut[k]] + "\n" + s[cut[k]+1:]
	}
	return s
}

// zshDisowned turns zsh's &! and &| (run in the background, disowned)
// into bash's &: what runs is the same.
func zshDisowned(s string) string {
	if !strings.Contains(s, "&!") && !strings.Contains(s, "&|") {
		return s
	}
	var cut []int
	unquoted(s, 0, func(i int, c byte) bool {
		if c == '&' && i+1 < len(s) && (s[i+1] == '!' || s[i+1] == '|') && (i == 0 || strings.IndexByte("&|<>", s[i-1]) < 0) {
			cut = append(cut, i+1)
		}
		return true
	})
	for k := len(cut) - 1; k >= 0; k-- {
		s = s[:cut[k]] + " " + s[cut[k]+1:]
	}
	return s
}

// splitStatements splits at ; and newlines outside quotes.
func splitStatements(s string) []string {
	var out []string
	start := 0
	unquoted(s, 0, func(i int, c byte) bool {
		if c == ';' || c == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
		return true
	})
	return append(out, s[start:])
}

// unquoted calls visit with each byte of s from index from on that is
// neither quoted nor escaped, until visit returns false.
func unquoted(s string, from int, visit func(i int, c byte) bool) {
	var q byte
	for i := from; i < len(s); i++ {
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
		default:
			if !visit(i, c) {
				return
			}
		}
	}
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
		st = fishSubstitute(st)
		st = strings.ReplaceAll(st, "$argv", "$@")
		// "producer | while read -l x": the block opens after the pipe
		pipe := ""
		if i := pipeIntoBlock(st); i > 0 {
			pipe, st = st[:i+1]+" ", strings.TrimSpace(st[i+1:])
		}
		word, rest, _ := strings.Cut(st, " ")
		switch {
		case word == "end" && rest == "" && len(stack) > 0:
			st = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if opened {
				st = ":\n" + st // an empty body
			}
		case word == "for" && !hasWordDo(st):
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
		case word == "set" && fishSet(rest) != "":
			if fishScoped(rest) {
				// the set itself too, for what its scope does: a
				// universal, global or exported variable outlives
				// the block
				st = fishSet(rest) + "; " + st
			} else {
				st = fishSet(rest)
			}
		case word == "begin" && rest == "":
			stack = append(stack, "}")
			st = "{"
		case word == "switch":
			stack = append(stack, "}")
			st = "{ : " + rest
		case word == "case":
			st = ":"
		}
		b.WriteString(pipe)
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

// windowsSign reports syntax in a line that does not parse as POSIX shell
// which only PowerShell or cmd give meaning to: automatic variables
// ($_, $true, $null), static members ([Type]::Name), comparison operators,
// hashtables, backtick escapes, %VAR% and /switches. Words both families
// share ($(...), foreach, a path starting with /) are not signs.
func windowsSign(src string) bool {
	l := strings.ToLower(src)
	for _, s := range []string{"$_", "$true", "$false", "$null", "]::", " -eq ", " -ne ", " -like ", " -match ", "@{", "`", "goto "} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return percentVar(src) || winSwitches(src) || winDrivePath(src)
}

// zshJoin rewrites ${(j:SEP:)x}, for an array x given literal elements
// earlier in the line (x=(a b)), into the joined text.
func zshJoin(s string) string {
	if !strings.Contains(s, "${(j") {
		return s
	}
	return zshJoinFlag.ReplaceAllStringFunc(s, func(m string) string {
		sub := zshJoinFlag.FindStringSubmatch(m)
		if sub[1] != sub[3] {
			return m
		}
		def := sub[4] + "=("
		i := strings.Index(s, def)
		if i < 0 || i > 0 && !strings.ContainsRune(" \t;&|\n", rune(s[i-1])) {
			return m
		}
		body, _, ok := strings.Cut(s[i+len(def):], ")")
		if !ok || strings.ContainsAny(body, "$`\"'") {
			return m
		}
		return strings.Join(strings.Fields(body), sub[2])
	})
}

// unnestParams rewrites zsh's nested expansions ${"text"}, ${$(cmd)} and
// ${${x}} into the inner expansion bash can read.
func unnestParams(s string) string {
	for i := 0; i+2 < len(s); i++ {
		if s[i] != '$' || s[i+1] != '{' || (s[i+2] != '"' && s[i+2] != '$' && s[i+2] != '\'') {
			continue
		}
		end := braceEnd(s, i+1)
		if end < 0 {
			return s
		}
		s = s[:i] + s[i+2:end] + s[end+1:]
		i--
	}
	return s
}

// braceEnd is the index of the } closing the { at open, skipping quoted
// text, or -1.
func braceEnd(s string, open int) int {
	depth, end := 0, -1
	unquoted(s, open, func(i int, c byte) bool {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				end = i
				return false
			}
		}
		return true
	})
	return end
}

// zshLiterals reduces nested expansions of literal text from the inside
// out: ${:-text} is text, (s:SEP:) splits it into words, (j:SEP:) joins
// them.
func zshLiterals(s string) string {
	for i := 0; i < 8 && strings.Contains(s, "${"); i++ {
		prev := s
		s = zshCaseFlag.ReplaceAllStringFunc(s, func(m string) string {
			sub := zshCaseFlag.FindStringSubmatch(m)
			if sub[1] == "L" {
				return strings.ToLower(sub[2])
			}
			return strings.ToUpper(sub[2])
		})
		s = zshEmptyName.ReplaceAllString(s, "$1")
		s = zshLiteralFlag.ReplaceAllStringFunc(s, func(m string) string {
			sub := zshLiteralFlag.FindStringSubmatch(m)
			if sub[2] != sub[4] {
				return m
			}
			if sub[1] == "s" {
				return strings.ReplaceAll(sub[5], sub[3], " ")
			}
			return strings.Join(strings.Fields(sub[5]), sub[3])
		})
		if s == prev {
			break
		}
	}
	return s
}

// closeBareBraces adds the ; bash needs before a } that closes a brace
// group (zsh does without), leaving ${...} alone.
func closeBareBraces(s string) string {
	if !strings.Contains(s, "{ ") {
		return s
	}
	locs := zshBareBrace.FindAllStringSubmatchIndex(s, -1)
	for k := len(locs) - 1; k >= 0; k-- {
		at := locs[k][4] // start of the blanks before }
		if openerIsParam(s[:at]) {
			continue
		}
		s = s[:at] + ";" + s[at:]
	}
	return s
}

// openerIsParam reports whether the innermost { still open at the end of
// s starts a parameter expansion.
func openerIsParam(s string) bool {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case '}':
			depth++
		case '{':
			if depth == 0 {
				return i > 0 && s[i-1] == '$'
			}
			depth--
		}
	}
	return false
}

// fishSet rewrites the operands of fish's set [-lgxU] NAME VALUE... into
// a bash assignment, "" when they are not one (set -e, set -q, no value).
func fishSet(rest string) string {
	f := strings.Fields(rest)
	i := 0
	for i < len(f) && strings.HasPrefix(f[i], "-") {
		switch f[i] {
		case "-e", "--erase", "-q", "--query", "-n", "--names", "-S", "--show":
			return ""
		}
		i++
	}
	if i+1 >= len(f) || !isVarName(f[i]) {
		return ""
	}
	val := strings.TrimSpace(strings.SplitN(rest, f[i], 2)[1])
	if i+2 == len(f) || strings.HasPrefix(val, "$(") && strings.HasSuffix(val, ")") && strings.Count(val, "$(") == 1 {
		return f[i] + "=" + val
	}
	return f[i] + "=(" + val + ")"
}

// fishScoped reports a fish set that makes its variable universal,
// global or exported.
func fishScoped(rest string) bool {
	for _, f := range strings.Fields(rest) {
		switch {
		case f == "--universal" || f == "--global" || f == "--export":
			return true
		case strings.HasPrefix(f, "--") || !strings.HasPrefix(f, "-"):
			return false
		case strings.ContainsAny(f[1:], "Ugx"):
			return true
		}
	}
	return false
}

// pipeIntoBlock is the index of the last unquoted |, || or && of a fish
// statement that leads into a block (while, for, begin, if, switch,
// function) or a set, or -1: what follows it is rewritten as a statement
// of its own ("producer | while read -l x", "cd dir && for f in *").
func pipeIntoBlock(st string) int {
	last, depth := -1, 0
	unquoted(st, 0, func(i int, c byte) bool {
		switch {
		case c == '(':
			depth++
		case c == ')':
			depth--
		case (c == '|' || c == '&') && depth == 0:
			last = i
		}
		return true
	})
	if last <= 0 || st[last] == '&' && st[last-1] != '&' {
		return -1
	}
	next, _, _ := strings.Cut(strings.TrimSpace(st[last+1:]), " ")
	switch next {
	case "while", "for", "begin", "if", "switch", "function", "set":
		return last
	}
	return -1
}
