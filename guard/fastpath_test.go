package guard

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// corpusLine is one command of a corpus file and the shell it is written
// for.
type corpusLine struct{ cmd, shell, where string }

// everyCorpusLine reads every line of every file under testdata/corpus,
// whatever its set, label or shell; the commands are judged, never run.
func everyCorpusLine(t *testing.T) []corpusLine {
	t.Helper()
	var out []corpusLine
	err := filepath.WalkDir(corpusDir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			var l struct{ Cmd, Shell string }
			if len(sc.Bytes()) == 0 {
				continue
			}
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatalf("%s:%d: %v", p, n, err)
			}
			out = append(out, corpusLine{l.Cmd, l.Shell, p + ":" + strconv.Itoa(n)})
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 10000 {
		t.Fatalf("only %d corpus lines under %s", len(out), corpusDir)
	}
	return out
}

// TestFastPathSameVerdicts: every corpus line, in its own shell and in
// sessions of other shapes (directories unknown, protected paths, a policy
// that asks, custom patterns), gets the same verdict, field for field, and
// the same explanation whether simple lines are built without the parser
// (the fast path) or everything is parsed.
func TestFastPathSameVerdicts(t *testing.T) {
	lines := everyCorpusLine(t)
	for _, c := range simpleCandidateEdges {
		lines = append(lines, corpusLine{cmd: c, where: "edge"})
	}
	patterns := []DangerPattern{
		{Pattern: regexp.MustCompile(`^git (push|reset)`), Level: LevelHigh, Description: "custom", Suggestions: []string{"ask"}},
		{Pattern: regexp.MustCompile(`\.env\b`), Level: LevelModerate, Category: "secrets", Description: "env file"},
	}
	type pair struct{ fast, full *Detector }
	mk := func(o Options) pair {
		p := pair{NewDetector(o), NewDetector(o)}
		p.full.parseAll = true
		return p
	}
	plain := mk(Options{})
	asking := mk(Options{Unresolved: Ask, MinLevel: LevelHigh, Patterns: patterns})
	built := 0
	var st simpleTree
	for _, l := range lines {
		if st.build(l.cmd) != nil {
			built++
		}
		own := contextForShell(l.shell)
		sessions := []struct {
			p pair
			c Context
		}{
			{plain, own},
			{plain, Context{Shell: own.Shell}},
			{asking, Context{WorkDir: "/home/dev/src/app", Home: "/home/dev", Shell: own.Shell,
				ProtectedPaths: []string{"~/.hotplex", "/home/dev/src"}}},
		}
		for _, s := range sessions {
			f, p := s.p.fast.CheckCommand(l.cmd, s.c), s.p.full.CheckCommand(l.cmd, s.c)
			if !reflect.DeepEqual(f, p) {
				t.Errorf("%s %q in %+v:\n fast %+v\n full %+v", l.where, l.cmd, s.c, f, p)
			}
		}
		if f, p := plain.fast.Explain(l.cmd, own).String(), plain.full.Explain(l.cmd, own).String(); f != p {
			t.Errorf("%s %q: explanations differ:\n fast %s\n full %s", l.where, l.cmd, f, p)
		}
	}
	// the comparison means something only if most lines take the fast path
	if built < len(lines)/2 {
		t.Errorf("only %d of %d lines take the fast path", built, len(lines))
	}
}
