package guard

import "mvdan.cc/sh/v3/syntax"

// simpleTree builds the syntax tree of a simple command line without the
// parser: words of plain characters, single-quoted text and double-quoted
// text without expansions, and no operator, redirection, comment or
// assignment. Two thirds of what agents run is such a line, and the parser
// allocates a few kilobytes per call whatever its input; the tree here
// lives in the analysis and is reused. It is the tree the parser builds
// (TestSimpleTreeMatchesParser).
type simpleTree struct {
	file  syntax.File
	stmt  syntax.Stmt
	call  syntax.CallExpr
	stmts [1]*syntax.Stmt
	args  []*syntax.Word
	words []syntax.Word
	parts []syntax.WordPart
	lits  []syntax.Lit
	sgls  []syntax.SglQuoted
	dbls  []syntax.DblQuoted
	// busy while a tree is walked: a payload met during the walk is
	// parsed, not built over it
	busy bool
}

// maxSimple bounds the lines built here; longer ones go to the parser.
const maxSimple = 1024

// plainByte reports a byte that means itself unquoted, in every word
// position of a bash command.
func plainByte(b byte) bool {
	switch {
	case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9':
		return true
	}
	switch b {
	case '_', '.', '/', ':', '=', ',', '@', '%', '+', '-':
		return true
	}
	return false
}

// clauseWords are first words the parser turns into something other than
// a call (keywords, declarations).
var clauseWords = map[string]bool{"if": true, "then": true, "else": true, "elif": true, "fi": true, "case": true, "esac": true,
	"for": true, "select": true, "while": true, "until": true, "do": true, "done": true, "in": true, "function": true,
	"time": true, "coproc": true, "declare": true, "local": true, "export": true, "readonly": true, "typeset": true,
	"nameref": true, "let": true}

// simpleCounts are how many nodes of each kind a line needs.
type simpleCounts struct{ words, parts, lits, sgls, dbls int }

// scan walks src as a simple command. With fill unset it only checks and
// counts; with fill set it writes the nodes into t, sized by a first scan.
func (t *simpleTree) scan(src string, fill bool) (simpleCounts, bool) {
	var n simpleCounts
	pos := func(i int) syntax.Pos { return syntax.NewPos(uint(i), 1, uint(i)+1) }
	for i := 0; i < len(src); {
		if src[i] == ' ' {
			i++
			continue
		}
		firstPart := n.parts
		for i < len(src) && src[i] != ' ' {
			switch b := src[i]; {
			case plainByte(b):
				j := i
				for j < len(src) && plainByte(src[j]) {
					j++
				}
				if n.words == 0 {
					for k := i; k < j; k++ {
						if src[k] == '=' {
							return n, false // an assignment
						}
					}
				}
				if fill {
					t.lits[n.lits] = syntax.Lit{ValuePos: pos(i), ValueEnd: pos(j), Value: src[i:j]}
					t.parts[n.parts] = &t.lits[n.lits]
				}
				n.lits++
				n.parts++
				i = j
			case b == '\'':
				j := i + 1
				for j < len(src) && src[j] != '\'' && src[j] != '\n' {
					j++
				}
				if j == len(src) || src[j] != '\'' {
					return n, false
				}
				if fill {
					t.sgls[n.sgls] = syntax.SglQuoted{Left: pos(i), Right: pos(j), Value: src[i+1 : j]}
					t.parts[n.parts] = &t.sgls[n.sgls]
				}
				n.sgls++
				n.parts++
				i = j + 1
			case b == '"':
				j := i + 1
				for j < len(src) && src[j] != '"' {
					switch src[j] {
					case '$', '`', '\\', '!', '\n':
						return n, false
					}
					j++
				}
				if j == len(src) {
					return n, false
				}
				if fill {
					d := &t.dbls[n.dbls]
					*d = syntax.DblQuoted{Left: pos(i), Right: pos(j)}
					if j > i+1 {
						t.lits[n.lits] = syntax.Lit{ValuePos: pos(i + 1), ValueEnd: pos(j), Value: src[i+1 : j]}
						// the parser's DblQuoted holds its parts in a
						// slice of its own
						d.Parts = []syntax.WordPart{&t.lits[n.lits]}
					}
					t.parts[n.parts] = d
				}
				if j > i+1 {
					n.lits++
				}
				n.dbls++
				n.parts++
				i = j + 1
			default:
				return n, false
			}
		}
		if fill {
			t.words[n.words] = syntax.Word{Parts: t.parts[firstPart:n.parts:n.parts]}
			t.args[n.words] = &t.words[n.words]
		}
		n.words++
	}
	return n, n.words > 0
}

// build returns the tree of src when it is a simple command, or nil.
func (t *simpleTree) build(src string) *syntax.File {
	if t.busy || len(src) == 0 || len(src) > maxSimple {
		return nil
	}
	n, ok := t.scan(src, false)
	if !ok {
		return nil
	}
	start, end := 0, 0
	for src[start] == ' ' {
		start++
	}
	for end = start; end < len(src) && src[end] != ' '; end++ {
	}
	if clauseWords[src[start:end]] {
		return nil
	}
	t.args = grow(t.args, n.words)
	t.words = grow(t.words, n.words)
	t.parts = grow(t.parts, n.parts)
	t.lits = grow(t.lits, n.lits)
	t.sgls = grow(t.sgls, n.sgls)
	t.dbls = grow(t.dbls, n.dbls)
	t.scan(src, true)
	t.call = syntax.CallExpr{Args: t.args}
	t.stmt = syntax.Stmt{Position: t.args[0].Pos(), Cmd: &t.call}
	t.stmts[0] = &t.stmt
	t.file = syntax.File{Stmts: t.stmts[:]}
	return &t.file
}

// grow returns s with length n, reusing its array when it is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/2)
	}
	return s[:n]
}
