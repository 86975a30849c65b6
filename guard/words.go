package guard

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word after quote removal and expansion of what can be
// known statically.
type word struct {
	s    string // the resolved text; unresolved parts are kept as "$NAME" / "$(...)"
	ok   bool   // every part was resolved
	glob bool   // has unquoted glob characters
	// tail is the offset in s after the last unresolved part, so
	// s[tail:] is literal ("$DIR/bin/rm" has the literal tail "/bin/rm").
	tail int
	// flow is what a word made of a single command or process
	// substitution produces.
	flow *flow
	proc bool      // a process substitution <(...)
	find *findSpec // the {} of find -exec: the paths find visits
}

func lit(s string) word { return word{s: s, ok: true} }

// fieldBuf accumulates one field while resolving a word.
type fieldBuf struct {
	b       []byte
	ok      bool
	glob    bool
	tail    int
	started bool
	flow    *flow
	proc    bool
}

func (f *fieldBuf) reset() { *f = fieldBuf{b: f.b[:0], ok: true} }

func (f *fieldBuf) word() word {
	return word{s: string(f.b), ok: f.ok, glob: f.glob, tail: f.tail, flow: f.flow, proc: f.proc}
}

func (f *fieldBuf) unresolved(placeholder string) {
	f.b = append(f.b, placeholder...)
	f.ok = false
	f.tail = len(f.b)
	f.started = true
}

// maxWordLen bounds the text a single expansion may produce.
const maxWordLen = 1 << 20

// expandWord appends the fields w expands to.
func (a *analysis) expandWord(w *syntax.Word, out []word) []word {
	if w == nil {
		return out
	}
	if needsBraceSplit(w) {
		syntax.SplitBraces(w)
	}
	if hasBraceExp(w) {
		for _, bw := range expandBraces(w, maxBraceWords) {
			out = a.expandWord1(bw, out)
		}
		return out
	}
	return a.expandWord1(w, out)
}

// expandOne resolves w to a single word (no field splitting), as for the
// value of an assignment or the target of a redirection.
func (a *analysis) expandOne(w *syntax.Word) word {
	if w == nil {
		return lit("")
	}
	var f fieldBuf
	f.reset()
	for i, p := range w.Parts {
		a.resolvePart(&f, p, i == 0, false, nil)
	}
	if len(w.Parts) != 1 {
		f.flow, f.proc = nil, false
	}
	return f.word()
}

func (a *analysis) expandWord1(w *syntax.Word, out []word) []word {
	if len(w.Parts) == 1 {
		// fast paths: a plain literal or a single-quoted string
		switch p := w.Parts[0].(type) {
		case *syntax.Lit:
			if v := p.Value; v != "" && v[0] != '~' && strings.IndexAny(v, "\\*?[{") < 0 {
				return append(out, word{s: v, ok: true})
			}
		case *syntax.SglQuoted:
			if !p.Dollar {
				return append(out, word{s: p.Value, ok: true})
			}
		}
	}
	var f fieldBuf
	f.reset()
	for i, p := range w.Parts {
		out = a.resolvePart(&f, p, i == 0, true, out)
	}
	if len(w.Parts) != 1 {
		f.flow, f.proc = nil, false
	}
	if f.started || !f.ok {
		out = append(out, f.word())
	}
	return out
}

// resolvePart adds part p to f. When split is true, unquoted expansions
// whose value is known are split into fields, appended to out.
func (a *analysis) resolvePart(f *fieldBuf, p syntax.WordPart, first, split bool, out []word) []word {
	switch p := p.(type) {
	case *syntax.Lit:
		v := p.Value
		if first && len(v) > 0 && v[0] == '~' {
			v = a.tildeExpand(v)
		}
		f.started = true
		unescapeUnquoted(f, v)
	case *syntax.SglQuoted:
		f.started = true
		if p.Dollar {
			f.b = append(f.b, ansiC(p.Value)...)
		} else {
			f.b = append(f.b, p.Value...)
		}
	case *syntax.DblQuoted:
		f.started = true
		for _, q := range p.Parts {
			switch q := q.(type) {
			case *syntax.Lit:
				f.b = appendDQ(f.b, q.Value)
			case *syntax.ParamExp:
				if v, ok := a.paramValue(q); ok {
					f.b = append(f.b, v...)
				} else {
					f.unresolved(paramText(q))
				}
			case *syntax.CmdSubst:
				fl := a.walkSubst(q)
				if fl.kind == flowText {
					f.b = append(f.b, strings.TrimRight(fl.text, "\n")...)
				} else {
					f.unresolved("$(…)")
				}
				if len(p.Parts) == 1 {
					f.flow = &fl
				}
			case *syntax.ArithmExp:
				a.walkNested(q)
				f.unresolved("$(…)")
			default:
				a.walkNested(q)
				f.unresolved("$(…)")
			}
		}
	case *syntax.ParamExp:
		if p.Param != nil {
			if vw, has := a.vars[p.Param.Value]; has && vw.flow != nil {
				f.flow = vw.flow
			}
		}
		v, ok := a.paramValue(p)
		if !ok {
			f.unresolved(paramText(p))
			break
		}
		if split {
			out = f.splitInto(v, out)
		} else {
			f.b = append(f.b, v...)
			f.started = true
		}
	case *syntax.CmdSubst:
		fl := a.walkSubst(p)
		f.flow = &fl
		if fl.kind == flowText {
			v := strings.TrimRight(fl.text, "\n")
			if split {
				out = f.splitInto(v, out)
			} else {
				f.b = append(f.b, v...)
				f.started = true
			}
		} else {
			f.unresolved("$(…)")
		}
	case *syntax.ProcSubst:
		fl := a.walkProcSubst(p)
		f.flow = &fl
		f.proc = true
		f.started = true
		f.b = append(f.b, "/dev/fd/63"...)
	case *syntax.ArithmExp:
		a.walkNested(p)
		f.unresolved("$(…)")
	case *syntax.ExtGlob:
		f.started = true
		f.glob = true
		f.b = append(f.b, p.Op.String()...)
		if p.Pattern != nil {
			f.b = append(f.b, p.Pattern.Value...)
		}
		f.b = append(f.b, ')')
	default:
		f.unresolved("$(…)")
	}
	if len(f.b) > maxWordLen {
		f.b = f.b[:maxWordLen]
	}
	return out
}

// splitInto appends v to the current field, splitting it at blanks the
// way an unquoted expansion is split; finished fields go to out.
func (f *fieldBuf) splitInto(v string, out []word) []word {
	if strings.ContainsAny(v, "*?[") {
		f.glob = true
	}
	start := 0
	for i := 0; i <= len(v); i++ {
		if i < len(v) && v[i] != ' ' && v[i] != '\t' && v[i] != '\n' {
			continue
		}
		if i > start {
			f.b = append(f.b, v[start:i]...)
			f.started = true
		}
		if i < len(v) && f.started {
			out = append(out, f.word())
			f.reset()
		}
		start = i + 1
	}
	return out
}

// unescapeUnquoted appends unquoted literal text, removing backslash
// escapes and noting glob characters.
func unescapeUnquoted(f *fieldBuf, v string) {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch c {
		case '\\':
			if i+1 < len(v) {
				i++
				if v[i] != '\n' {
					f.b = append(f.b, v[i])
				}
			}
			continue
		case '*', '?', '[':
			f.glob = true
		}
		f.b = append(f.b, c)
	}
}

// appendDQ appends the text of a literal inside double quotes.
func appendDQ(b []byte, v string) []byte {
	if strings.IndexByte(v, '\\') < 0 {
		return append(b, v...)
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' && i+1 < len(v) {
			switch v[i+1] {
			case '$', '`', '"', '\\':
				i++
				c = v[i]
			case '\n':
				i++
				continue
			}
		}
		b = append(b, c)
	}
	return b
}

// tildeExpand expands a leading ~ or ~user.
func (a *analysis) tildeExpand(v string) string {
	end := strings.IndexByte(v, '/')
	if end < 0 {
		end = len(v)
	}
	user := v[1:end]
	rest := v[end:]
	switch {
	case user == "":
		return a.homeText() + rest
	case user == "root":
		return "/root" + rest
	case user == "+":
		if a.cwd != "" {
			return a.cwd + rest
		}
	case isName(user):
		return "/home/" + user + rest
	}
	return v
}

func (a *analysis) homeText() string {
	if a.home != "" {
		return a.home
	}
	return "~"
}

// paramValue returns the value of a parameter expansion if it is known.
func (a *analysis) paramValue(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.IsSet || p.Index != nil ||
		p.Slice != nil || p.Repl != nil || p.Names != 0 || p.NestedParam != nil || len(p.Modifiers) > 0 {
		return "", false
	}
	name := p.Param.Value
	val, known := a.varValue(name)
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
			if known && (val != "" || p.Exp.Op == syntax.DefaultUnset || p.Exp.Op == syntax.AssignUnset) {
				return val, true
			}
			if known && val == "" || !known {
				d := a.expandOne(p.Exp.Word)
				if d.ok {
					return d.s, true
				}
			}
			return "", false
		case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
			return val, known
		case syntax.RemSmallSuffix, syntax.RemLargeSuffix, syntax.RemSmallPrefix, syntax.RemLargePrefix:
			if !known {
				return "", false
			}
			pat := a.expandOne(p.Exp.Word)
			if !pat.ok || pat.glob || strings.ContainsAny(pat.s, "*?[") {
				return "", false
			}
			switch p.Exp.Op {
			case syntax.RemSmallSuffix, syntax.RemLargeSuffix:
				return strings.TrimSuffix(val, pat.s), true
			default:
				return strings.TrimPrefix(val, pat.s), true
			}
		default:
			return "", false
		}
	}
	return val, known
}

// varValue looks a shell variable up: HOME, PWD and IFS are known, and so
// is anything assigned earlier in the analysed command.
func (a *analysis) varValue(name string) (string, bool) {
	if w, ok := a.vars[name]; ok {
		return w.s, w.ok
	}
	switch name {
	case "HOME":
		return a.homeText(), true
	case "PWD":
		if a.cwd != "" {
			return a.cwd, true
		}
	case "IFS":
		return " ", true
	case "@", "*":
		if a.depth == 0 {
			return "", true
		}
	}
	return "", false
}

func paramText(p *syntax.ParamExp) string {
	if p.Param == nil {
		return "$(…)"
	}
	if p.Exp != nil && (p.Exp.Op == syntax.ErrorUnset || p.Exp.Op == syntax.ErrorUnsetOrNull) {
		// ${VAR:?} stops the command when VAR is unset
		return "${" + p.Param.Value + ":?}"
	}
	return "$" + p.Param.Value
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// ansiC decodes the escapes of a $'...' string.
func ansiC(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b = append(b, c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			b = append(b, 7)
		case 'b':
			b = append(b, 8)
		case 'e', 'E':
			b = append(b, 27)
		case 'f':
			b = append(b, 12)
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'v':
			b = append(b, 11)
		case '\\', '\'', '"', '?':
			b = append(b, e)
		case 'c':
			if i+1 < len(s) {
				i++
				b = append(b, s[i]&0x1f)
			}
		case 'x', 'u', 'U':
			max := 2
			if e == 'u' {
				max = 4
			} else if e == 'U' {
				max = 8
			}
			j := i + 1
			for j < len(s) && j-i-1 < max && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b = append(b, '\\', e)
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if e == 'x' {
				b = append(b, byte(n))
			} else {
				b = utf8.AppendRune(b, rune(n))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b = append(b, byte(n))
			i = j - 1
		default:
			b = append(b, '\\', e)
		}
	}
	return string(b)
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// --- brace expansion ---

const maxBraceWords = 64

func needsBraceSplit(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '{') >= 0 && strings.IndexByte(l.Value, '}') >= 0 {
			return true
		}
	}
	return false
}

func hasBraceExp(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if _, ok := p.(*syntax.BraceExp); ok {
			return true
		}
	}
	return false
}

// expandBraces expands the brace expressions of w into at most max words.
func expandBraces(w *syntax.Word, max int) []*syntax.Word {
	idx := -1
	for i, p := range w.Parts {
		if _, ok := p.(*syntax.BraceExp); ok {
			idx = i
			break
		}
	}
	if idx < 0 {
		return []*syntax.Word{w}
	}
	be := w.Parts[idx].(*syntax.BraceExp)
	var alts [][]syntax.WordPart
	if be.Sequence {
		for _, s := range braceSequence(be, max) {
			alts = append(alts, []syntax.WordPart{&syntax.Lit{Value: s}})
		}
	} else {
		for _, e := range be.Elems {
			alts = append(alts, e.Parts)
		}
	}
	var out []*syntax.Word
	for _, alt := range alts {
		parts := make([]syntax.WordPart, 0, len(w.Parts)-1+len(alt))
		parts = append(parts, w.Parts[:idx]...)
		parts = append(parts, alt...)
		parts = append(parts, w.Parts[idx+1:]...)
		nw := &syntax.Word{Parts: parts}
		// nested braces inside an element are expanded recursively
		out = append(out, expandBraces(nw, max-len(out))...)
		if len(out) >= max {
			return out[:max]
		}
	}
	if len(out) == 0 {
		return []*syntax.Word{{Parts: append(append([]syntax.WordPart{}, w.Parts[:idx]...), w.Parts[idx+1:]...)}}
	}
	return out
}

func braceSequence(be *syntax.BraceExp, max int) []string {
	if len(be.Elems) < 2 {
		return nil
	}
	from, to := be.Elems[0].Lit(), be.Elems[1].Lit()
	step := 1
	if len(be.Elems) > 2 {
		if n, err := strconv.Atoi(be.Elems[2].Lit()); err == nil && n != 0 {
			step = n
			if step < 0 {
				step = -step
			}
		}
	}
	var out []string
	if x, err1 := strconv.Atoi(from); err1 == nil {
		y, err2 := strconv.Atoi(to)
		if err2 != nil {
			return nil
		}
		if x <= y {
			for i := x; i <= y && len(out) < max; i += step {
				out = append(out, strconv.Itoa(i))
			}
		} else {
			for i := x; i >= y && len(out) < max; i -= step {
				out = append(out, strconv.Itoa(i))
			}
		}
		return out
	}
	if len(from) == 1 && len(to) == 1 {
		x, y := int(from[0]), int(to[0])
		if x <= y {
			for i := x; i <= y && len(out) < max; i += step {
				out = append(out, string(rune(i)))
			}
		} else {
			for i := x; i >= y && len(out) < max; i -= step {
				out = append(out, string(rune(i)))
			}
		}
	}
	return out
}

// shellQuote quotes s for a shell if needed.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./=:,+@%~", c) >= 0) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
