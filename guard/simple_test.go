package guard

import (
	"fmt"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// treeText renders every node of a tree with its position, and literals
// with their value, so that two trees compare as text.
func treeText(f *syntax.File) string {
	var b strings.Builder
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			return true
		}
		fmt.Fprintf(&b, "%T %s-%s", n, n.Pos(), n.End())
		switch n := n.(type) {
		case *syntax.Lit:
			fmt.Fprintf(&b, " %q", n.Value)
		case *syntax.SglQuoted:
			fmt.Fprintf(&b, " %q dollar=%t", n.Value, n.Dollar)
		case *syntax.DblQuoted:
			fmt.Fprintf(&b, " parts=%d dollar=%t", len(n.Parts), n.Dollar)
		case *syntax.Stmt:
			fmt.Fprintf(&b, " neg=%t bg=%t redirs=%d semi=%s", n.Negated, n.Background, len(n.Redirs), n.Semicolon)
		case *syntax.ParamExp:
			fmt.Fprintf(&b, " short=%t rbrace=%s excl=%t len=%t index=%t exp=%t", n.Short, n.Rbrace, n.Excl, n.Length, n.Index != nil, n.Exp != nil)
		case *syntax.Assign:
			fmt.Fprintf(&b, " naked=%t append=%t value=%t index=%t array=%t", n.Naked, n.Append, n.Value != nil, n.Index != nil, n.Array != nil)
		case *syntax.Redirect:
			fmt.Fprintf(&b, " op=%s oppos=%s n=%t", n.Op, n.OpPos, n.N != nil)
		case *syntax.CallExpr:
			fmt.Fprintf(&b, " assigns=%d args=%d", len(n.Assigns), len(n.Args))
		}
		b.WriteByte('\n')
		return true
	})
	return b.String()
}

// simpleCandidateEdges are lines at the edges of what simpleTree accepts.
var simpleCandidateEdges = []string{"go test ./...", "  ls   -la  ", "make", "FOO=1 make", "export FOO=1", "time make", "a=b", "ls a=b",
	"git log --format=%H@%an", "x,y,z", "if", "iff x", "ls\tx", "ls # c", "rm -rf /tmp/x", "echo a\nrm b", "%1", "-", "ls -- -x",
	`echo 'a b' "c d"`, `echo ""`, `echo ''`, `git commit -m"msg"'more'x`, `echo "it's"`, `echo 'say "hi"'`, `echo "a`, `echo 'a`,
	`echo "$HOME"`, `echo "a\"b"`, `'ls' -l`, `FOO='x' make`, `"if" x`,
	"a && b || c", "a | b | c", "a | b && c | d", "a||b", "a&&b|c", "go vet ./... && go test ./... | tee out", "a &", "a |& b",
	"&& a", "a &&", "a | | b", "a && time b", "a | FOO=1 b", "make || true", `git log --oneline | grep "fix" | head -5`,
	"ls ~/x *.go a?b ~", "echo {a,b} }", "rm -rf ~/.cache/*", "a b#c", "go test ./... 2>&1 | tail -5", "ls >/dev/null 2>&1",
	"a 2> f; b;", "a >>f <g", "a 12>x", "a x2>y", "a >&2", "a; b", "a;b", "cd x && make; make install", "a >| f", "a <> f",
	"a <&3", "a 2>&-", "echo hi>f", "a > 'f g'", `a > "f"`, "a ; b", "a;", "a | b; c || d > e",
	"a\nb", "a;\nb", "\n\na\n\n", "a 2>&1\nb > f\n", "ls\n  cd x && make 'y'\n",
	"echo $HOME $HOME/x x$HOME $A$B", `echo "$HOME" "a $B/c" "$X$Y" "$X "`, "echo ${HOME} ${HOME}x", "$CMD -x", "rm -rf $HOME/.cache",
	`cd "$DIR" && ls`, "echo $HOME_1.x", "echo $X#y $X:h $X~", "${X} y", `"$X" y`, "a $X2>f",
	"A=1 B='x y' make", "A= make", "A=$X make", "A=1", "A=1; B=2 c", "A+=1 make", "A=~/x make", "a=1=2 x", "A==1 b", `A="$B c" d`,
	"CI=true npm test && NODE_ENV=production npm run build", "A=1 | B=2", "A=1 2>f", "A=1 B", "_x9=1 y",
	"a &", "a & b", "a && b &", "a | b &", "npm run dev > dev.log 2>&1 &\nsleep 2", "a & b; c &", "A=1 &", "a &\n",
	`find . -name '*.tmp' -exec rm {} \;`, `\rm -rf x`, `echo a\ b \$HOME \"x\" \'y\'`, `a\=b c`, `A=x\ y b`, `a 2\>f`, `\#x`, `a \{b\}`, "a\\", "a \\\\"}

// simpleCandidates are every corpus line and simpleCandidateEdges.
func simpleCandidates(t *testing.T) []string {
	lines := append([]string(nil), simpleCandidateEdges...)
	dg, bn := loadCorpus(t)
	for _, e := range dg {
		lines = append(lines, e.Cmd)
	}
	for _, e := range bn {
		lines = append(lines, e.Cmd)
	}
	for _, set := range corpusSets {
		d, b := loadCorpusDir(t, set.dir)
		for _, e := range d {
			lines = append(lines, e.Cmd)
		}
		for _, e := range b {
			lines = append(lines, e.Cmd)
		}
	}
	return lines
}

// TestSimpleTreeMatchesParser: for every line simpleTree accepts, its
// tree is the parser's, node for node and position for position.
func TestSimpleTreeMatchesParser(t *testing.T) {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	var st simpleTree
	built := 0
	for _, line := range simpleCandidates(t) {
		if builtAsParsed(t, p, &st, line) {
			built++
		}
	}
	if built < 1000 {
		t.Errorf("only %d lines built without the parser; the fast path is not taken", built)
	}
	for _, line := range []string{"A[1]=x", "A=(1 2)", "A=1 >f b", "=x", "A=1 if", "A=#x b", "export FOO=1", "time make", "ls\tx", "ls # c", "echo a &&\nrm b", "a & & b", "a &;", "& a", "a &> f", "a >& f &&", "echo $1", "ls [ab]",
		`echo "$1"`, "echo $", "echo a$", `echo "$"`, "echo $@", "echo ${X:-y}", "echo ${#X}", "echo ${!X}", "echo $(x)",
		"echo $((1))", "echo $'x'", `echo $"x"`, `echo "$(x)"`, "echo ${X", "echo ${1}", `echo "a`, `echo 'a`, "echo `id`", "a |& b", "&& a", "a &&", "a &> f", "> f a", "2>f a",
		"a | | b", "a && time b", "a;; b", "; a", "a; ;", "a && ; b", "a <<EOF", "a <<< x", "a <(b)", "a >(b)", "a > ",
		"a >f>g", "{ a; }", "a 'x'2>f", "a |\nb", "a\n;", "a >\nf", "\n", "a #c"} {
		if st.build(line) != nil {
			t.Errorf("%q: built without the parser, want the parser", line)
		}
	}
}

// TestSimpleTreeGenerated: lines put together from the pieces a simple
// line is made of, and from pieces it must refuse, are built into the
// parser's tree or left to the parser, never built into another tree.
func TestSimpleTreeGenerated(t *testing.T) {
	pieces := []string{"ls", "-la", "rm", "~", "~/x", "*.go", "a?b", "x=1", "=", "{a,b}", "}", "{", "[ab]", "#", "a#b", "2", "12",
		">", ">>", "<", ">&", "<&", ">|", "<>", "&>", "2>&1", "2>", "<<", "-", "1", ";", "&&", "||", "|", "&", "'q'", "'a b'", `"d"`,
		`""`, `"$x"`, "$HOME", "if", "time", "(", ")", "\\", "!", "\n", "\n", "a\n",
		"${X}", "$", "$1", `"a $B c"`, `"$X/y"`, "${", "x$Y", "$X:h", "$X", `"$X"`,
		"A=1", "A=", "B+=x", "A=$X", "A='q'", "C=1=2", "D=~/x",
		`\;`, `a\ b`, `\$x`, `\rm`, `\`, `x\`, `\\`, `\#`, `\é`, `\{`}
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	var st simpleTree
	// a fixed linear congruential sequence: the same lines every run
	seed := uint64(1)
	next := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int(seed>>33) % n
	}
	built := 0
	for i := 0; i < 30000; i++ {
		var b strings.Builder
		for k, n := 0, 1+next(7); k < n; k++ {
			if k > 0 && next(3) > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(pieces[next(len(pieces))])
		}
		line := b.String()
		if builtAsParsed(t, p, &st, line) {
			built++
		}
	}
	if built < 3000 {
		t.Errorf("only %d generated lines built", built)
	}
}

// builtAsParsed builds line without the parser and, if it was built,
// reports a tree that differs from the parser's; it says whether line
// was built.
func builtAsParsed(t *testing.T, p *syntax.Parser, st *simpleTree, line string) bool {
	t.Helper()
	got := st.build(line)
	if got == nil {
		return false
	}
	want, err := p.Parse(strings.NewReader(line), "")
	if err != nil {
		t.Errorf("%q: built, but the parser rejects it: %v", line, err)
		return true
	}
	if g, w := treeText(got), treeText(want); g != w {
		t.Errorf("%q: tree differs\nbuilt:\n%s\nparsed:\n%s", line, g, w)
	}
	return true
}
