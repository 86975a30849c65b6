package guard

import (
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// simpleTree builds the syntax tree of a simple command line without the
// parser: commands of plain words (globs, tildes and escapes included),
// single-quoted text, variables ($NAME, ${NAME}) and double-quoted text
// with no other expansion, with assignments before the command and
// redirections to such words, joined by |, &&, ||, ;, & and newlines, with no
// comment, keyword, here-document or other operator. Most of what
// agents run is such a line, and the parser allocates a few kilobytes per
// call whatever its input; the tree here lives in the analysis and is
// reused. It is the tree the parser builds (TestSimpleTreeMatchesParser,
// TestSimpleTreeGenerated).
type simpleTree struct {
	file    syntax.File
	tops    []*syntax.Stmt
	stmts   []syntax.Stmt // one per command, then one per operator
	calls   []syntax.CallExpr
	bins    []syntax.BinaryCmd
	ops     []simpleOp // what follows each command
	args    []*syntax.Word
	words   []syntax.Word // the arguments', then the redirections'
	parts   []syntax.WordPart
	lits    []syntax.Lit
	sgls    []syntax.SglQuoted
	dbls    []syntax.DblQuoted
	dparts  []syntax.WordPart // the double-quoted texts' parts
	params  []syntax.ParamExp
	assigns []syntax.Assign
	aptrs   []*syntax.Assign
	redirs  []syntax.Redirect
	rptrs   []*syntax.Redirect
}

// simpleOp is what follows a command: an operator joining it to the next
// one, a semicolon, or nothing at the end of the line.
type simpleOp struct {
	op   syntax.BinCmdOperator // 0 after the last command of a statement
	semi bool                  // the statement ends with ';' or '&' at pos
	bg   bool                  // with '&': it runs in the background
	pos  syntax.Pos
}

// maxSimple bounds the lines built here; longer ones go to the parser.
const maxSimple = 1024

// Kinds of byte in a word of a simple line.
const (
	byteOther = iota // ends the line's simplicity
	bytePlain        // means itself anywhere in a word
	byteInner        // means itself except in a command's first word ({ })
	byteLater        // means itself except at the start of a word (#)
)

// plainByte reports a byte that means itself unquoted, in every word
// position of a bash command.
func plainByte(b byte) bool { return byteKinds[b] == bytePlain }

var byteKinds = func() (t [256]uint8) {
	for b := 0; b < 256; b++ {
		switch {
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9':
			t[b] = bytePlain
		}
	}
	// * and ? are globs, but only "*(" and "?(" (extended globs) are
	// syntax, and ( is not accepted here; ~ is a literal the analysis
	// expands
	for _, b := range []byte("_./:=,@%+-~*?") {
		t[b] = bytePlain
	}
	// [ starts a bracket glob the parser splits the literal at
	for _, b := range []byte("{}") {
		t[b] = byteInner
	}
	t['#'] = byteLater
	return t
}()

// isClauseWord reports a first word the parser turns into something other
// than a call (keywords, declarations).
func isClauseWord(s string) bool {
	switch s {
	case "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done", "in",
		"function", "time", "coproc", "declare", "local", "export", "readonly", "typeset", "nameref", "let":
		return true
	}
	return false
}

// simpleCounts are how many nodes of each kind a line needs.
type simpleCounts struct {
	cmds, args, words, parts, lits, sgls, dbls, dparts, params, redirs, stmts, assigns int
}

// pos is the position of the byte at offset i, on the current line.
func (s *simpleScanner) pos(i int) syntax.Pos {
	return syntax.NewPos(uint(i), uint(s.lineNo), uint(i-s.lineStart)+1)
}

// simpleScanner is one pass over a line.
type simpleScanner struct {
	t    *simpleTree
	src  string
	fill bool
	n    simpleCounts
	// cmdStart is the index in args of the current command's first
	// argument, redirStart that in rptrs of its first redirection,
	// assignStart that in aptrs of its first assignment.
	cmdStart, redirStart, assignStart int
	// lineNo is the current line's number, lineStart its offset.
	lineNo, lineStart int
	// lastLit is where the unquoted text that ends the last word read
	// starts, -1 when it ends with quoted text.
	lastLit int
}

// scan walks src as a simple command line. With fill unset it only
// checks and counts; with fill set it writes the nodes into t, sized by a
// first scan.
func (t *simpleTree) scan(src string, fill bool) (simpleCounts, bool) {
	s := simpleScanner{t: t, src: src, fill: fill, lineNo: 1}
	ok := s.line()
	return s.n, ok
}

// endCmd closes the current command, which is followed by op.
func (s *simpleScanner) endCmd(op simpleOp) bool {
	n := &s.n
	if !s.pending() {
		return false // no command before an operator or a redirection alone
	}
	if s.fill {
		t := s.t
		call := &t.calls[n.cmds]
		*call = syntax.CallExpr{}
		if n.args > s.cmdStart {
			call.Args = t.args[s.cmdStart:n.args:n.args]
		}
		if n.assigns > s.assignStart {
			call.Assigns = t.aptrs[s.assignStart:n.assigns:n.assigns]
		}
		st := &t.stmts[n.cmds]
		*st = syntax.Stmt{Position: call.Pos(), Cmd: call}
		if n.redirs > s.redirStart {
			st.Redirs = t.rptrs[s.redirStart:n.redirs:n.redirs]
		}
		t.ops[n.cmds] = op
	}
	n.cmds++
	s.cmdStart, s.redirStart, s.assignStart = n.args, n.redirs, n.assigns
	return true
}

// pending reports a command begun and not yet ended.
func (s *simpleScanner) pending() bool {
	return s.n.args > s.cmdStart || s.n.assigns > s.assignStart
}

// assign reads NAME=VALUE or NAME+=VALUE at i, before a command's name;
// ok is false when the word there is not an assignment.
func (s *simpleScanner) assign(i int) (next int, ok, bad bool) {
	src := s.src
	if !isNameStart(src[i]) {
		return 0, false, false
	}
	k := i + 1
	for k < len(src) && isNameByte(src[k]) {
		k++
	}
	v, plus := k+1, false
	switch {
	case k < len(src) && src[k] == '=':
	case k+1 < len(src) && src[k] == '+' && src[k+1] == '=':
		v, plus = k+2, true
	default:
		return 0, false, false
	}
	n := &s.n
	var value *syntax.Word
	end := v
	if v < len(src) && !wordEnd(src[v]) {
		firstPart := n.parts
		j, ok := s.word(v, false)
		if !ok || j == v {
			return 0, false, true
		}
		value = s.endWord(firstPart, false)
		end = j
	}
	if end < len(src) && (src[end] == '>' || src[end] == '<') {
		return 0, false, true
	}
	if s.fill {
		t := s.t
		name := &t.lits[n.lits]
		*name = syntax.Lit{ValuePos: s.pos(i), ValueEnd: s.pos(k), Value: src[i:k]}
		as := &t.assigns[n.assigns]
		*as = syntax.Assign{Append: plus, Name: name, Value: value}
		t.aptrs[n.assigns] = as
	}
	n.lits++
	n.assigns++
	return end, true, false
}

// wordEnd reports a byte that ends a word.
func wordEnd(b byte) bool {
	switch b {
	case ' ', '&', '|', ';', '>', '<', '\n':
		return true
	}
	return false
}

func (s *simpleScanner) line() bool {
	src := s.src
	pendingOp := false // an operator waits for the command after it
	for i := 0; i < len(src); {
		switch src[i] {
		case ' ':
			i++
			continue
		case '\n':
			// ends a statement, as ; does, but is no part of it
			if pendingOp {
				return false
			}
			if s.pending() {
				if !s.endCmd(simpleOp{}) {
					return false
				}
				s.n.stmts++
			}
			i++
			s.lineNo++
			s.lineStart = i
			continue
		case ';':
			if pendingOp || !s.endCmd(simpleOp{semi: true, pos: s.pos(i)}) {
				return false
			}
			s.n.stmts++
			i++
			continue
		case '&', '|':
			if src[i] == '&' && (i+1 == len(src) || src[i+1] != '&' && src[i+1] != '>') {
				// the statement runs in the background
				if pendingOp || !s.endCmd(simpleOp{semi: true, bg: true, pos: s.pos(i)}) {
					return false
				}
				s.n.stmts++
				i++
				continue
			}
			op, w := syntax.Pipe, 1
			switch {
			case i+1 < len(src) && src[i] == '&' && src[i+1] == '&':
				op, w = syntax.AndStmt, 2
			case i+1 < len(src) && src[i] == '|' && src[i+1] == '|':
				op, w = syntax.OrStmt, 2
			case src[i] == '&' || i+1 < len(src) && src[i+1] == '&':
				return false // |&, &>
			}
			if pendingOp || !s.endCmd(simpleOp{op: op, pos: s.pos(i)}) {
				return false
			}
			pendingOp = true
			i += w
			continue
		case '>', '<':
			if s.n.args == s.cmdStart {
				return false // a redirection before the command's name
			}
			j, ok := s.redirect(i, -1)
			if !ok {
				return false
			}
			i = j
			continue
		}
		first := s.n.args == s.cmdStart
		if first {
			j, ok, bad := s.assign(i)
			if bad {
				return false
			}
			if ok {
				pendingOp = false
				i = j
				continue
			}
		}
		wordStart, firstPart := i, s.n.parts
		j, ok := s.word(i, first)
		if !ok {
			return false
		}
		if first && isClauseWord(src[wordStart:j]) {
			return false
		}
		pendingOp = false
		if j < len(src) && (src[j] == '>' || src[j] == '<') && s.lastLit >= 0 && allDigits(src[s.lastLit:j]) {
			// digits just before a redirection are its file descriptor
			if first || s.lastLit != wordStart {
				return false
			}
			s.n.parts--
			s.n.lits--
			k, ok := s.redirect(j, wordStart)
			if !ok {
				return false
			}
			i = k
			continue
		}
		s.endWord(firstPart, true)
		i = j
	}
	if pendingOp {
		return false
	}
	if !s.pending() {
		// nothing after the last ';' (or an empty line)
		return s.n.cmds > 0 && s.n.stmts > 0
	}
	if !s.endCmd(simpleOp{}) {
		return false
	}
	s.n.stmts++
	return true
}

// endWord makes the parts from firstPart on a word, an argument when arg
// is set.
func (s *simpleScanner) endWord(firstPart int, arg bool) *syntax.Word {
	n := &s.n
	var w *syntax.Word
	if s.fill {
		t := s.t
		w = &t.words[n.words]
		*w = syntax.Word{Parts: t.parts[firstPart:n.parts:n.parts]}
		if arg {
			t.args[n.args] = w
		}
	}
	n.words++
	if arg {
		n.args++
	}
	return w
}

// redirect reads the redirection whose operator starts at i; fd is where
// its file-descriptor digits start, -1 for none.
func (s *simpleScanner) redirect(i, fd int) (int, bool) {
	src := s.src
	opPos := i
	var op syntax.RedirOperator
	next := byte(0)
	if i+1 < len(src) {
		next = src[i+1]
	}
	if src[i] == '>' {
		switch next {
		case '>':
			op, i = syntax.AppOut, i+2
			if i < len(src) && (src[i] == '|' || src[i] == '&') {
				return 0, false
			}
		case '&':
			op, i = syntax.DplOut, i+2
		case '|':
			op, i = syntax.RdrClob, i+2
		default:
			op, i = syntax.RdrOut, i+1
		}
	} else {
		switch next {
		case '<', '(':
			return 0, false // here-documents, process substitution
		case '>':
			op, i = syntax.RdrInOut, i+2
		case '&':
			op, i = syntax.DplIn, i+2
		default:
			op, i = syntax.RdrIn, i+1
		}
	}
	for i < len(src) && src[i] == ' ' {
		i++
	}
	if i == len(src) {
		return 0, false
	}
	firstPart := s.n.parts
	j, ok := s.word(i, false)
	if !ok || j == i {
		return 0, false
	}
	if j < len(src) && (src[j] == '>' || src[j] == '<') {
		return 0, false
	}
	var nLit *syntax.Lit
	if fd >= 0 && s.fill {
		// the digits' literal, kept apart from the word's parts
		nLit = &s.t.lits[s.n.lits]
		*nLit = syntax.Lit{ValuePos: s.pos(fd), ValueEnd: s.pos(opPos), Value: src[fd:opPos]}
	}
	if fd >= 0 {
		s.n.lits++
	}
	w := s.endWord(firstPart, false)
	if s.fill {
		t := s.t
		r := &t.redirs[s.n.redirs]
		*r = syntax.Redirect{OpPos: s.pos(opPos), Op: op, N: nLit, Word: w}
		t.rptrs[s.n.redirs] = r
	}
	s.n.redirs++
	return j, true
}

// word reads the parts of the word starting at i up to a blank or an
// operator; first is set for a command's first word.
func (s *simpleScanner) word(i int, first bool) (int, bool) {
	src, t, n := s.src, s.t, &s.n
	start := i
	s.lastLit = -1
	for i < len(src) {
		switch b := src[i]; b {
		case ' ', '&', '|', ';', '>', '<', '\n':
			return i, true
		case '\'':
			j := i + 1
			for j < len(src) && src[j] != '\'' && src[j] != '\n' {
				j++
			}
			if j == len(src) || src[j] != '\'' {
				return 0, false
			}
			if s.fill {
				t.sgls[n.sgls] = syntax.SglQuoted{Left: s.pos(i), Right: s.pos(j), Value: src[i+1 : j]}
				t.parts[n.parts] = &t.sgls[n.sgls]
			}
			n.sgls++
			n.parts++
			i = j + 1
			s.lastLit = -1
		case '"':
			j, ok := s.dblQuoted(i)
			if !ok {
				return 0, false
			}
			i = j
			s.lastLit = -1
		case '$':
			j, ok := s.param(i)
			if !ok {
				return 0, false
			}
			if s.fill {
				t.parts[n.parts] = &t.params[n.params-1]
			}
			n.parts++
			i = j
			s.lastLit = -1
		default:
			j := i
		lit:
			for ; j < len(src); j++ {
				switch byteKinds[src[j]] {
				case bytePlain:
					if first && src[j] == '=' {
						return 0, false // an assignment
					}
				case byteInner:
					if first {
						return 0, false
					}
				case byteLater:
					if j == start {
						return 0, false // a comment
					}
				default:
					// \x is x, quoted, and stays in the literal as
					// written; \ before a newline joins lines
					if src[j] != '\\' || j+1 == len(src) || src[j+1] == '\n' || src[j+1] >= utf8.RuneSelf {
						break lit
					}
					j++
				}
			}
			if j == i {
				return 0, false
			}
			if s.fill {
				t.lits[n.lits] = syntax.Lit{ValuePos: s.pos(i), ValueEnd: s.pos(j), Value: src[i:j]}
				t.parts[n.parts] = &t.lits[n.lits]
			}
			n.lits++
			n.parts++
			s.lastLit = i
			i = j
		}
	}
	return i, true
}

// isNameStart and isNameByte report the bytes of a variable's name.
func isNameStart(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_' }
func isNameByte(b byte) bool  { return isNameStart(b) || b >= '0' && b <= '9' }

// param reads $NAME or ${NAME} at i into the next ParamExp; any other
// expansion is refused.
func (s *simpleScanner) param(i int) (int, bool) {
	src := s.src
	brace := i+1 < len(src) && src[i+1] == '{'
	start := i + 1
	if brace {
		start++
	}
	if start >= len(src) || !isNameStart(src[start]) {
		return 0, false
	}
	end := start + 1
	for end < len(src) && isNameByte(src[end]) {
		end++
	}
	next := end
	if brace {
		if end == len(src) || src[end] != '}' {
			return 0, false
		}
		next = end + 1
	}
	n := &s.n
	if s.fill {
		t := s.t
		l := &t.lits[n.lits]
		*l = syntax.Lit{ValuePos: s.pos(start), ValueEnd: s.pos(end), Value: src[start:end]}
		p := &t.params[n.params]
		*p = syntax.ParamExp{Dollar: s.pos(i), Short: !brace, Param: l}
		if brace {
			p.Rbrace = s.pos(end)
		}
	}
	n.lits++
	n.params++
	return next, true
}

// dblQuoted reads the double-quoted text at i: literal text and
// variables, no other expansion, escape or newline.
func (s *simpleScanner) dblQuoted(i int) (int, bool) {
	src, t, n := s.src, s.t, &s.n
	first := n.dparts
	j := i + 1
	lit := j // where the literal text being read starts
	endLit := func() {
		if j > lit {
			if s.fill {
				t.lits[n.lits] = syntax.Lit{ValuePos: s.pos(lit), ValueEnd: s.pos(j), Value: src[lit:j]}
				t.dparts[n.dparts] = &t.lits[n.lits]
			}
			n.lits++
			n.dparts++
		}
	}
	for j < len(src) && src[j] != '"' {
		switch src[j] {
		case '$':
			endLit()
			k, ok := s.param(j)
			if !ok {
				return 0, false
			}
			if s.fill {
				t.dparts[n.dparts] = &t.params[n.params-1]
			}
			n.dparts++
			j, lit = k, k
			continue
		case '`', '\\', '!', '\n':
			return 0, false
		}
		j++
	}
	if j == len(src) {
		return 0, false
	}
	endLit()
	if s.fill {
		d := &t.dbls[n.dbls]
		*d = syntax.DblQuoted{Left: s.pos(i), Right: s.pos(j)}
		if n.dparts > first {
			// the parser's DblQuoted holds its parts in a slice of
			// its own
			d.Parts = t.dparts[first:n.dparts:n.dparts]
		}
		t.parts[n.parts] = d
	}
	n.dbls++
	n.parts++
	return j + 1, true
}

// build returns the tree of src when it is a simple command line, or nil.
func (t *simpleTree) build(src string) *syntax.File {
	if len(src) == 0 || len(src) > maxSimple {
		return nil
	}
	n, ok := t.scan(src, false)
	if !ok {
		return nil
	}
	nops := n.cmds - n.stmts // operators joining commands
	t.stmts = grow(t.stmts, n.cmds+nops)
	t.calls = grow(t.calls, n.cmds)
	t.ops = grow(t.ops, n.cmds)
	t.bins = grow(t.bins, nops)
	t.args = grow(t.args, n.args)
	t.words = grow(t.words, n.words)
	t.parts = grow(t.parts, n.parts)
	t.lits = grow(t.lits, n.lits)
	t.sgls = grow(t.sgls, n.sgls)
	t.dbls = grow(t.dbls, n.dbls)
	t.dparts = grow(t.dparts, n.dparts)
	t.params = grow(t.params, n.params)
	t.assigns = grow(t.assigns, n.assigns)
	t.aptrs = grow(t.aptrs, n.assigns)
	t.redirs = grow(t.redirs, n.redirs)
	t.rptrs = grow(t.rptrs, n.redirs)
	t.tops = grow(t.tops, n.stmts)
	t.scan(src, true)
	// pipelines bind tighter than && and ||; both group to the left;
	// ; ends a statement
	next := n.cmds // the next free statement
	bin := 0       // the next free binary command
	join := func(x *syntax.Stmt, op simpleOp, y *syntax.Stmt) *syntax.Stmt {
		b := &t.bins[bin]
		bin++
		*b = syntax.BinaryCmd{OpPos: op.pos, Op: op.op, X: x, Y: y}
		s := &t.stmts[next]
		next++
		*s = syntax.Stmt{Position: x.Position, Cmd: b}
		return s
	}
	top := 0
	var list *syntax.Stmt // the && || chain so far
	var listOp simpleOp   // the operator joining the pipeline to it
	var pipe *syntax.Stmt // the pipeline so far
	for k := 0; k < n.cmds; k++ {
		if pipe == nil {
			pipe = &t.stmts[k]
		}
		op := t.ops[k]
		if op.op == syntax.Pipe {
			pipe = join(pipe, op, &t.stmts[k+1])
			k++
			op = t.ops[k]
			for op.op == syntax.Pipe {
				pipe = join(pipe, op, &t.stmts[k+1])
				k++
				op = t.ops[k]
			}
		}
		if list == nil {
			list = pipe
		} else {
			list = join(list, listOp, pipe)
		}
		pipe = nil
		if op.op != 0 {
			listOp = op
			continue
		}
		if op.semi {
			list.Semicolon, list.Background = op.pos, op.bg
		}
		t.tops[top] = list
		top++
		list = nil
	}
	t.file = syntax.File{Stmts: t.tops[:top:top]}
	return &t.file
}

// grow returns s with length n, reusing its array when it is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/2)
	}
	return s[:n]
}
