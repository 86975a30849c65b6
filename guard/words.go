package guard

import (
	"path"
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
		if len(w.Parts) == 1 {
			// $f of for f in $(find DIR …): the paths find picks, as
			// xargs is given them
			if name := soleParam(w.Parts[0]); name != "" {
				if vw, ok := a.vars[name]; ok && vw.find != nil && out[len(out)-1].s == vw.s {
					out[len(out)-1].find = vw.find
				}
				// "$f" of for f in * .[!.]*: each name the glob matched
				if vw, ok := a.loopGlobs[name]; ok && out[len(out)-1].s == vw {
					out[len(out)-1].glob = true
				}
			}
		}
	}
	return out
}

// soleParam returns the name of the variable a word part is made of
// alone ($f, "$f", ${f}), "" for anything else.
func soleParam(p syntax.WordPart) string {
	if dq, ok := p.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		p = dq.Parts[0]
	}
	if pe, ok := p.(*syntax.ParamExp); ok && pe.Param != nil && pe.Exp == nil && pe.Repl == nil && pe.Slice == nil && pe.Index == nil && !pe.Length && !pe.Excl {
		return pe.Param.Value
	}
	return ""
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
		if arr, ok := a.dqArray(p); ok && !f.started {
			for i, w := range arr {
				if i == len(arr)-1 {
					f.b, f.ok, f.started = append(f.b, w.s...), f.ok && w.ok, true
					break
				}
				out = append(out, w)
			}
			break
		}
		if pe, ok := dqParam(p); ok && (pe == "@") && a.params != nil && !f.started {
			for i, w := range a.params {
				if i == len(a.params)-1 {
					f.b, f.ok, f.started = append(f.b, w.s...), f.ok && w.ok, true
					break
				}
				out = append(out, w)
			}
			break
		}
		f.started = true
		for _, q := range p.Parts {
			switch q := q.(type) {
			case *syntax.Lit:
				f.b = appendDQ(f.b, q.Value)
			case *syntax.ParamExp:
				if q.Param == nil {
					// "${(…)…}" (a zsh nested expansion): no name to look up
					f.unresolved(paramText(q))
					continue
				}
				if vw, has := a.vars[q.Param.Value]; has && vw.flow != nil && len(p.Parts) == 1 {
					f.flow = vw.flow // "$line" of while read line
				}
				if v, ok := a.paramValue(q); ok {
					f.b = append(f.b, v...)
				} else {
					f.unresolved(a.paramTextOf(q))
				}
			case *syntax.CmdSubst:
				fl := a.walkSubst(q)
				if fl.kind == flowText || fl.kind == flowPaths && fl.text != "" {
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
			f.unresolved(a.paramTextOf(p))
			break
		}
		if split {
			out = f.splitIFS(v, a.ifs(), out)
		} else {
			f.b = append(f.b, v...)
			f.started = true
		}
	case *syntax.CmdSubst:
		fl := a.walkSubst(p)
		f.flow = &fl
		if fl.kind == flowList && fl.what == blockDevices && len(f.b) > 0 && f.b[len(f.b)-1] != '/' {
			// of=$(lsblk -ndpo NAME | head -1): a disk lsblk lists
			f.b = append(f.b, lsblkDisk...)
			f.started = true
			break
		}
		if fl.kind == flowText || fl.kind == flowPaths && fl.text != "" {
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
	return f.splitIFS(v, " \t\n", out)
}

// splitIFS is splitInto with the separators of IFS.
func (f *fieldBuf) splitIFS(v, ifs string, out []word) []word {
	if strings.ContainsAny(v, "*?[") {
		f.glob = true
	}
	if ifs == "" {
		f.b = append(f.b, v...)
		f.started = true
		return out
	}
	start := 0
	for i := 0; i <= len(v); i++ {
		if i < len(v) && strings.IndexByte(ifs, v[i]) < 0 {
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
	if p.Param != nil && p.Index != nil && !p.Length && !p.Excl && p.Exp == nil && p.Slice == nil && p.Repl == nil {
		if arr, ok := a.arrays[p.Param.Value]; ok {
			if w, ok := p.Index.(*syntax.Word); ok {
				switch w.Lit() {
				case "@", "*":
					return joinWords(arr), true
				case "0":
					return arr[0].s, true
				}
			}
		}
		return "", false
	}
	if p.Param == nil || p.Length || p.Width || p.IsSet || p.Index != nil || p.Names != 0 || p.NestedParam != nil || len(p.Modifiers) > 0 {
		return "", false
	}
	name := p.Param.Value
	if w, ok := a.vars[name]; ok && w.flow != nil && w.flow.kind == flowSecret {
		// a variable holding a secret carries it into the command using it
		a.substs = append(a.substs, *w.flow)
	}
	val, known := a.varValue(name)
	if p.Excl {
		// ${!ref}: the variable whose name ref holds
		if !known || !isVarName(val) {
			return "", false
		}
		name = val
		val, known = a.varValue(name)
	}
	if p.Flags != nil && p.Slice == nil && p.Repl == nil && p.Exp == nil {
		// zsh's ${(L)x}, ${(U)x}, ${(C)x} change case; ${(P)x} is the
		// variable x names
		if !known {
			return "", false
		}
		for _, f := range p.Flags.Value {
			switch f {
			case 'L':
				val = strings.ToLower(val)
			case 'U':
				val = strings.ToUpper(val)
			case 'P':
				if !isVarName(val) {
					return "", false
				}
				if val, known = a.varValue(val); !known {
					return "", false
				}
			default:
				return "", false
			}
		}
		return val, true
	}
	if !known && (p.Slice != nil || p.Exp != nil && (p.Exp.Op == syntax.RemSmallSuffix || p.Exp.Op == syntax.RemLargeSuffix ||
		p.Exp.Op == syntax.RemSmallPrefix || p.Exp.Op == syntax.RemLargePrefix)) {
		// ${PATH:0:1}, ${PATH%%[a-z]*}: pieces cut out of variables whose
		// shape every machine shares (PATH starts /usr/local..., SHELL is
		// /bin/something) spell slashes and system words
		val, known = typicalValue(name)
	}
	if p.Slice != nil {
		if !known {
			return "", false
		}
		return a.sliceValue(val, p.Slice)
	}
	if p.Repl != nil {
		if !known {
			return "", false
		}
		pat := a.expandOne(p.Repl.Orig)
		with := lit("")
		if p.Repl.With != nil {
			with = a.expandOne(p.Repl.With)
		}
		if !pat.ok || !with.ok {
			return "", false
		}
		return replaceParam(val, pat.s, with.s, p.Repl.All)
	}
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
		case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			if !known {
				return "", false
			}
			if val == "" && p.Exp.Op == syntax.AlternateUnsetOrNull {
				return "", true
			}
			d := a.expandOne(p.Exp.Word)
			return d.s, d.ok
		case syntax.RemSmallSuffix, syntax.RemLargeSuffix, syntax.RemSmallPrefix, syntax.RemLargePrefix:
			if !known {
				return "", false
			}
			pat := a.expandOne(p.Exp.Word)
			if !pat.ok {
				return "", false
			}
			return trimPattern(val, pat.s, p.Exp.Op)
		case syntax.UpperFirst, syntax.UpperAll:
			if !known {
				return "", false
			}
			if p.Exp.Op == syntax.UpperAll {
				return strings.ToUpper(val), true
			}
			if val != "" {
				return strings.ToUpper(val[:1]) + val[1:], true
			}
			return val, true
		case syntax.LowerFirst, syntax.LowerAll:
			if !known {
				return "", false
			}
			if p.Exp.Op == syntax.LowerAll {
				return strings.ToLower(val), true
			}
			if val != "" {
				return strings.ToLower(val[:1]) + val[1:], true
			}
			return val, true
		default:
			return "", false
		}
	}
	return val, known
}

// typicalValue is the value PATH and SHELL have on a usual machine, for
// the pieces tricks cut out of them.
func typicalValue(name string) (string, bool) {
	switch name {
	case "PATH":
		return "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", true
	case "SHELL":
		return "/bin/bash", true
	}
	return "", false
}

func isVarName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// sliceValue is ${VAR:offset:length}; a lone letter as the offset is
// read as zsh's modifier (${HOME:h} is the directory of HOME).
func (a *analysis) sliceValue(val string, sl *syntax.Slice) (string, bool) {
	num := func(w *syntax.ArithmExpr) (int, bool, bool) {
		if w == nil || *w == nil {
			return 0, true, false
		}
		x, ok := (*w).(*syntax.Word)
		if !ok {
			return 0, false, false
		}
		l := x.Lit()
		if n, err := strconv.Atoi(strings.TrimSpace(l)); err == nil {
			return n, true, false
		}
		if len(l) == 1 {
			return 0, false, true
		}
		if v, ok := a.varValue(l); ok {
			n, err := strconv.Atoi(v)
			return n, err == nil, false
		}
		return 0, false, false
	}
	// zsh modifiers (${p:h}, ${p:h:h}) parse as an offset and length
	if x, ok := sl.Offset.(*syntax.Word); ok {
		if out, ok := zshModifier(val, x.Lit()); ok {
			if sl.Length == nil {
				return out, true
			}
			if y, ok := sl.Length.(*syntax.Word); ok {
				if out, ok := zshModifier(out, y.Lit()); ok {
					return out, true
				}
			}
		}
	}
	off, ok, _ := num(&sl.Offset)
	if !ok {
		return "", false
	}
	if off < 0 {
		off += len(val)
	}
	off = max(0, min(off, len(val)))
	out := val[off:]
	if sl.Length != nil {
		n, ok, _ := num(&sl.Length)
		if !ok {
			return "", false
		}
		if n < 0 {
			n = max(0, len(out)+n)
		}
		out = out[:min(n, len(out))]
	}
	return out, true
}

// trimPattern removes the shortest or longest prefix or suffix of val
// matching the glob pat.
func trimPattern(val, pat string, op syntax.ParExpOperator) (string, bool) {
	if len(val) > 1024 {
		return "", false
	}
	match := func(s string) bool { return globAny(pat, s) }
	switch op {
	case syntax.RemSmallSuffix:
		for i := len(val); i >= 0; i-- {
			if match(val[i:]) {
				return val[:i], true
			}
		}
	case syntax.RemLargeSuffix:
		for i := 0; i <= len(val); i++ {
			if match(val[i:]) {
				return val[:i], true
			}
		}
	case syntax.RemSmallPrefix:
		for i := 0; i <= len(val); i++ {
			if match(val[:i]) {
				return val[i:], true
			}
		}
	case syntax.RemLargePrefix:
		for i := len(val); i >= 0; i-- {
			if match(val[:i]) {
				return val[i:], true
			}
		}
	}
	return val, true
}

// globAny matches a shell pattern in which * also matches "/". It runs
// in time proportional to len(pat)*len(s): on a mismatch it only retries
// from the last *.
func globAny(pat, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		if p < len(pat) {
			switch c := pat[p]; c {
			case '*':
				star, mark = p, i
				p++
				continue
			case '?':
				p++
				i++
				continue
			case '[':
				if end := strings.IndexByte(pat[p+1:], ']'); end >= 0 {
					if ok, _ := path.Match(pat[p:p+end+2], s[i:i+1]); ok {
						p += end + 2
						i++
						continue
					}
					break
				}
				fallthrough
			default:
				if c == '\\' && p+1 < len(pat) {
					c = pat[p+1]
					if s[i] == c {
						p += 2
						i++
						continue
					}
					break
				}
				if s[i] == c {
					p++
					i++
					continue
				}
			}
		}
		if star < 0 {
			return false
		}
		mark++
		p, i = star+1, mark
	}
	for p < len(pat) && pat[p] == '*' {
		p++
	}
	return p == len(pat)
}

// replaceParam is ${VAR/pat/with} and ${VAR//pat/with}.
func replaceParam(val, pat, with string, all bool) (string, bool) {
	if pat == "" {
		return val, true
	}
	if !strings.ContainsAny(pat, "*?[\\#%") {
		if all {
			return strings.ReplaceAll(val, pat, with), true
		}
		return strings.Replace(val, pat, with, 1), true
	}
	if len(val) > 64 {
		return "", false // matching a pattern at every place costs len(val)^3
	}
	anchorStart, anchorEnd := strings.HasPrefix(pat, "#"), strings.HasPrefix(pat, "%")
	if anchorStart || anchorEnd {
		pat = pat[1:]
	}
	var b strings.Builder
	for i := 0; i <= len(val); {
		matched := -1
		for j := len(val); j >= i; j-- { // longest match
			if globAny(pat, val[i:j]) {
				matched = j
				break
			}
		}
		if anchorEnd && matched != len(val) {
			matched = -1
		}
		if matched > i || matched == i && pat == "" {
			b.WriteString(with)
			i = matched
			if !all || anchorStart || anchorEnd {
				b.WriteString(val[i:])
				return b.String(), true
			}
			continue
		}
		if anchorStart || i == len(val) {
			b.WriteString(val[i:])
			return b.String(), true
		}
		b.WriteByte(val[i])
		i++
	}
	return b.String(), true
}

// dqArray reports "${NAME[@]}" alone in double quotes, NAME a known
// array, and returns its elements.
func (a *analysis) dqArray(p *syntax.DblQuoted) ([]word, bool) {
	if len(p.Parts) != 1 || a.arrays == nil {
		return nil, false
	}
	pe, ok := p.Parts[0].(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Index == nil || pe.Exp != nil || pe.Excl || pe.Length {
		return nil, false
	}
	w, ok := pe.Index.(*syntax.Word)
	if !ok || w.Lit() != "@" {
		return nil, false
	}
	arr, ok := a.arrays[pe.Param.Value]
	return arr, ok && len(arr) > 0
}

// dqParam reports "$NAME" alone in double quotes.
func dqParam(p *syntax.DblQuoted) (string, bool) {
	if len(p.Parts) != 1 {
		return "", false
	}
	pe, ok := p.Parts[0].(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Exp != nil || pe.Slice != nil || pe.Repl != nil || pe.Excl || pe.Length || pe.Index != nil {
		return "", false
	}
	return pe.Param.Value, true
}

// ifs is the field separators: IFS when assigned, else blanks.
func (a *analysis) ifs() string {
	if w, ok := a.vars["IFS"]; ok && w.ok {
		return w.s
	}
	return " \t\n"
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
	case "USER", "LOGNAME", "USERNAME":
		// the session's user owns the home directory
		if u := a.userName(); u != "" {
			return u, true
		}
	case "PWD":
		if a.cwd != "" {
			return a.cwd, true
		}
	case "IFS":
		return " ", true
	case "SHELL":
		// the user's login shell: a shell, whichever (exec "$SHELL" -l,
		// $SHELL -c 'CODE' judged as a shell and its code)
		return "/bin/bash", true
	case "@", "*":
		if a.params != nil {
			return joinWords(a.params), true
		}
		if a.depth == 0 {
			return "", true
		}
	case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9":
		if a.params != nil {
			i := int(name[0] - '0')
			if name == "0" {
				return a.param0.s, a.param0.ok
			}
			if i <= len(a.params) {
				return a.params[i-1].s, a.params[i-1].ok
			}
			return "", true
		}
	}
	return "", false
}

// paramTextOf is paramText with ${!ref} spelled as the variable ref
// names when ref is known (${!v} with v=GITHUB_TOKEN is $GITHUB_TOKEN).
func (a *analysis) paramTextOf(p *syntax.ParamExp) string {
	if !p.Excl && p.Param != nil && p.Exp == nil && p.Slice == nil && p.Repl == nil && !p.Length && p.Index == nil && p.Flags == nil {
		// r=$GH_TOKEN (or declare -n r=GH_TOKEN), then "$r": the
		// variable it copies, or names, whose value is not known
		if w, ok := a.vars[p.Param.Value]; ok && !w.ok && varRef(w.s) {
			return w.s
		}
	}
	if p.Excl && p.Param != nil {
		if v, ok := a.varValue(p.Param.Value); ok && isVarName(v) {
			if alternateOnly(p) {
				return "${" + v + ":+…}"
			}
			return "$" + v
		}
	}
	return paramText(p)
}

// alternateOnly reports ${X:+word} and ${X+word}: the word when X is
// set, never X's value.
func alternateOnly(p *syntax.ParamExp) bool {
	return p.Exp != nil && (p.Exp.Op == syntax.AlternateUnset || p.Exp.Op == syntax.AlternateUnsetOrNull)
}

func paramText(p *syntax.ParamExp) string {
	if p.Param == nil {
		return "$(…)"
	}
	if p.Exp != nil && (p.Exp.Op == syntax.ErrorUnset || p.Exp.Op == syntax.ErrorUnsetOrNull) {
		// ${VAR:?} stops the command when VAR is unset
		return "${" + p.Param.Value + ":?}"
	}
	switch {
	case p.Length && p.Index == nil:
		return "${#" + p.Param.Value + "}" // a length, not the value
	case alternateOnly(p) && !p.Excl:
		return "${" + p.Param.Value + ":+…}"
	case p.Exp != nil && (p.Exp.Op == syntax.RemSmallPrefix || p.Exp.Op == syntax.RemLargePrefix) && p.Exp.Word != nil && strings.HasSuffix(p.Exp.Word.Lit(), "@"):
		// ${DATABASE_URL#*@}: what follows the credentials (host, database)
		return "${" + p.Param.Value + "#*@}"
	case p.Exp != nil && (p.Exp.Op == syntax.RemSmallSuffix || p.Exp.Op == syntax.RemLargeSuffix) && p.Exp.Word != nil && strings.HasPrefix(p.Exp.Word.Lit(), "@"):
		// ${DATABASE_URL%%@*}: what comes before the host (scheme, user,
		// password)
		return "${" + p.Param.Value + "%@*}"
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

// needsBraceSplit reports a literal '{' followed by a literal '}' in w,
// in one part or across several ({*,.[!.]*} is parsed as more than one).
func needsBraceSplit(w *syntax.Word) bool {
	open := false
	for _, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		if i := strings.IndexByte(l.Value, '{'); i >= 0 {
			open = true
			if strings.IndexByte(l.Value[i:], '}') >= 0 {
				return true
			}
			continue
		}
		if open && strings.IndexByte(l.Value, '}') >= 0 {
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

// zshModifier applies one zsh history modifier (h, t, r, e, a, A) to val.
func zshModifier(val, m string) (string, bool) {
	switch m {
	case "h":
		return path.Dir(val), true
	case "t":
		return path.Base(val), true
	case "r":
		return strings.TrimSuffix(val, path.Ext(val)), true
	case "e":
		return strings.TrimPrefix(path.Ext(val), "."), true
	case "a", "A":
		return val, true
	}
	return "", false
}

// userName is the session's user: the last element of its home
// directory, "" when the home is unknown.
func (a *analysis) userName() string {
	h := strings.TrimRight(a.home, `/\`)
	if i := strings.LastIndexAny(h, `/\`); i >= 0 {
		h = h[i+1:]
	}
	if h == "" || strings.HasSuffix(h, ":") {
		return ""
	}
	return h
}

// keywords tells whether a text holds any of a fixed set of words, in one
// pass: each byte of the text is looked up in a table of the words that
// start with it. Rules that run on every command ask this of each
// argument; a strings.Contains per word was a measurable part of a
// decision.
type keywords struct{ by [256][]string }

func newKeywords(ws ...string) *keywords {
	k := new(keywords)
	for _, w := range ws {
		k.by[w[0]] = append(k.by[w[0]], w)
	}
	return k
}

// in reports whether s contains one of k's words.
func (k *keywords) in(s string) bool {
	for i := 0; i < len(s); i++ {
		for _, w := range k.by[s[i]] {
			if strings.HasPrefix(s[i:], w) {
				return true
			}
		}
	}
	return false
}

// varRef reports text that is one variable's expansion, $NAME or
// ${NAME}, and nothing else.
func varRef(s string) bool {
	if !strings.HasPrefix(s, "$") {
		return false
	}
	n := s[1:]
	if strings.HasPrefix(n, "{") && strings.HasSuffix(n, "}") {
		n = n[1 : len(n)-1]
	}
	return isVarName(n)
}
