package guard

import "mvdan.cc/sh/v3/syntax"

// simpleTree builds the syntax tree of a simple command line without the
// parser: commands of plain words, single-quoted text and double-quoted
// text without expansions, joined by |, && and ||, with no redirection,
// comment, assignment, keyword or other operator. Most of what agents run
// is such a line, and the parser allocates a few kilobytes per call
// whatever its input; the tree here lives in the analysis and is reused.
// It is the tree the parser builds (TestSimpleTreeMatchesParser).
type simpleTree struct {
	file  syntax.File
	top   [1]*syntax.Stmt
	stmts []syntax.Stmt // one per command, then one per operator
	calls []syntax.CallExpr
	bins  []syntax.BinaryCmd
	ops   []simpleOp
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

// simpleOp is an operator between two commands.
type simpleOp struct {
	op  syntax.BinCmdOperator
	pos syntax.Pos
}

// maxSimple bounds the lines built here; longer ones go to the parser.
const maxSimple = 1024

// plainByte reports a byte that means itself unquoted, in every word
// position of a bash command.
func plainByte(b byte) bool { return plainBytes[b] }

var plainBytes = func() (t [256]bool) {
	for b := 0; b < 256; b++ {
		switch {
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9':
			t[b] = true
		}
	}
	for _, b := range []byte("_./:=,@%+-") {
		t[b] = true
	}
	return t
}()

// clauseWords are first words the parser turns into something other than
// a call (keywords, declarations).
var clauseWords = map[string]bool{"if": true, "then": true, "else": true, "elif": true, "fi": true, "case": true, "esac": true,
	"for": true, "select": true, "while": true, "until": true, "do": true, "done": true, "in": true, "function": true,
	"time": true, "coproc": true, "declare": true, "local": true, "export": true, "readonly": true, "typeset": true,
	"nameref": true, "let": true}

// simpleCounts are how many nodes of each kind a line needs.
type simpleCounts struct{ cmds, words, parts, lits, sgls, dbls int }

func spos(i int) syntax.Pos { return syntax.NewPos(uint(i), 1, uint(i)+1) }

// scan walks src as a simple command line. With fill unset it only
// checks and counts; with fill set it writes the nodes into t, sized by a
// first scan.
func (t *simpleTree) scan(src string, fill bool) (simpleCounts, bool) {
	var n simpleCounts
	cmdStart := 0 // index of the command's first word
	endCmd := func() bool {
		if n.words == cmdStart {
			return false // no command before or after an operator
		}
		if fill {
			args := t.args[cmdStart:n.words:n.words]
			t.calls[n.cmds] = syntax.CallExpr{Args: args}
			t.stmts[n.cmds] = syntax.Stmt{Position: args[0].Pos(), Cmd: &t.calls[n.cmds]}
		}
		n.cmds++
		cmdStart = n.words
		return true
	}
	if fill {
		t.ops = t.ops[:0]
	}
	for i := 0; i < len(src); {
		switch src[i] {
		case ' ':
			i++
			continue
		case '&', '|':
			op, w := syntax.Pipe, 1
			switch {
			case i+1 < len(src) && src[i] == '&' && src[i+1] == '&':
				op, w = syntax.AndStmt, 2
			case i+1 < len(src) && src[i] == '|' && src[i+1] == '|':
				op, w = syntax.OrStmt, 2
			case src[i] == '&' || i+1 < len(src) && src[i+1] == '&':
				return n, false // background, |&
			}
			if !endCmd() {
				return n, false
			}
			if fill {
				t.ops = append(t.ops, simpleOp{op, spos(i)})
			}
			i += w
			continue
		}
		firstPart := n.parts
		first := n.words == cmdStart
		wordStart := i
		for i < len(src) && src[i] != ' ' && src[i] != '&' && src[i] != '|' {
			switch b := src[i]; {
			case plainByte(b):
				j := i
				for j < len(src) && plainByte(src[j]) {
					j++
				}
				if first {
					for k := i; k < j; k++ {
						if src[k] == '=' {
							return n, false // an assignment
						}
					}
				}
				if fill {
					t.lits[n.lits] = syntax.Lit{ValuePos: spos(i), ValueEnd: spos(j), Value: src[i:j]}
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
					t.sgls[n.sgls] = syntax.SglQuoted{Left: spos(i), Right: spos(j), Value: src[i+1 : j]}
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
					*d = syntax.DblQuoted{Left: spos(i), Right: spos(j)}
					if j > i+1 {
						t.lits[n.lits] = syntax.Lit{ValuePos: spos(i + 1), ValueEnd: spos(j), Value: src[i+1 : j]}
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
		if first && clauseWords[src[wordStart:i]] {
			return n, false
		}
		if fill {
			t.words[n.words] = syntax.Word{Parts: t.parts[firstPart:n.parts:n.parts]}
			t.args[n.words] = &t.words[n.words]
		}
		n.words++
	}
	return n, endCmd()
}

// build returns the tree of src when it is a simple command line, or nil.
func (t *simpleTree) build(src string) *syntax.File {
	if t.busy || len(src) == 0 || len(src) > maxSimple {
		return nil
	}
	n, ok := t.scan(src, false)
	if !ok {
		return nil
	}
	nops := n.cmds - 1
	t.stmts = grow(t.stmts, n.cmds+nops)
	t.calls = grow(t.calls, n.cmds)
	t.bins = grow(t.bins, nops)
	t.args = grow(t.args, n.words)
	t.words = grow(t.words, n.words)
	t.parts = grow(t.parts, n.parts)
	t.lits = grow(t.lits, n.lits)
	t.sgls = grow(t.sgls, n.sgls)
	t.dbls = grow(t.dbls, n.dbls)
	t.scan(src, true)
	// pipelines bind tighter than && and ||; both group to the left
	next := n.cmds // the next free statement
	join := func(x *syntax.Stmt, k int, y *syntax.Stmt) *syntax.Stmt {
		b := &t.bins[k]
		*b = syntax.BinaryCmd{OpPos: t.ops[k].pos, Op: t.ops[k].op, X: x, Y: y}
		s := &t.stmts[next]
		next++
		*s = syntax.Stmt{Position: x.Position, Cmd: b}
		return s
	}
	var list *syntax.Stmt // the && || chain so far
	listOp := -1          // the operator joining the pipeline to it
	pipe := &t.stmts[0]   // the pipeline so far
	for k := 0; k <= nops; k++ {
		if k < nops && t.ops[k].op == syntax.Pipe {
			pipe = join(pipe, k, &t.stmts[k+1])
			continue
		}
		if list == nil {
			list = pipe
		} else {
			list = join(list, listOp, pipe)
		}
		if k < nops {
			listOp, pipe = k, &t.stmts[k+1]
		}
	}
	t.top[0] = list
	t.file = syntax.File{Stmts: t.top[:]}
	return &t.file
}

// grow returns s with length n, reusing its array when it is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/2)
	}
	return s[:n]
}
