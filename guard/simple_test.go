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
			fmt.Fprintf(&b, " neg=%t bg=%t redirs=%d", n.Negated, n.Background, len(n.Redirs))
		case *syntax.CallExpr:
			fmt.Fprintf(&b, " assigns=%d args=%d", len(n.Assigns), len(n.Args))
		}
		b.WriteByte('\n')
		return true
	})
	return b.String()
}

// simpleCandidates are every corpus line and lines at the edges of what
// simpleTree accepts.
func simpleCandidates(t *testing.T) []string {
	lines := []string{"go test ./...", "  ls   -la  ", "make", "FOO=1 make", "export FOO=1", "time make", "a=b", "ls a=b",
		"git log --format=%H@%an", "x,y,z", "if", "iff x", "ls\tx", "ls # c", "rm -rf /tmp/x", "echo a\nrm b", "%1", "-", "ls -- -x",
		`echo 'a b' "c d"`, `echo ""`, `echo ''`, `git commit -m"msg"'more'x`, `echo "it's"`, `echo 'say "hi"'`, `echo "a`, `echo 'a`,
		`echo "$HOME"`, `echo "a\"b"`, `'ls' -l`, `FOO='x' make`, `"if" x`,
		"a && b || c", "a | b | c", "a | b && c | d", "a||b", "a&&b|c", "go vet ./... && go test ./... | tee out", "a &", "a |& b",
		"&& a", "a &&", "a | | b", "a && time b", "a | FOO=1 b", "make || true", `git log --oneline | grep "fix" | head -5`}
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
		got := st.build(line)
		if got == nil {
			continue
		}
		built++
		want, err := p.Parse(strings.NewReader(line), "")
		if err != nil {
			t.Errorf("%q: built, but the parser rejects it: %v", line, err)
			continue
		}
		if g, w := treeText(got), treeText(want); g != w {
			t.Errorf("%q: tree differs\nbuilt:\n%s\nparsed:\n%s", line, g, w)
		}
	}
	if built < 1000 {
		t.Errorf("only %d lines built without the parser; the fast path is not taken", built)
	}
	for _, line := range []string{"FOO=1 make", "export FOO=1", "time make", "a=b", "ls\tx", "ls # c", "echo a\nrm b", "echo $HOME", "ls *.go", "rm -rf ~",
		`echo "$HOME"`, `echo "a`, `echo 'a`, "echo `id`", `FOO='x' make`, "a > f", "a; b", "a &", "a |& b", "&& a", "a &&",
		"a | | b", "a && time b", "a | FOO=1 b"} {
		if st.build(line) != nil {
			t.Errorf("%q: built without the parser, want the parser", line)
		}
	}
}

// TestSimpleTreeSameVerdicts: every corpus line gets the same verdict
// whether simple lines are built or parsed.
func TestSimpleTreeSameVerdicts(t *testing.T) {
	fast, slow := NewDetector(Options{}), NewDetector(Options{})
	slow.parseAll = true
	for _, ctx := range []Context{corpusContext, winCorpusContextFor("gitbash")} {
		for _, line := range simpleCandidates(t) {
			if f, s := fast.CheckCommand(line, ctx), slow.CheckCommand(line, ctx); fmt.Sprint(f) != fmt.Sprint(s) {
				t.Errorf("%q in %s: built %+v, parsed %+v", line, ctx.WorkDir, f, s)
			}
		}
	}
}
