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

// TestFastPathSameVerdicts: every corpus line gets the same verdict, field
// for field, whether simple lines are built without the parser (the fast
// path) or everything is parsed. The lines take turns at the sessions (in
// their own shell; directories unknown; protected paths with a policy that
// asks and custom patterns), so each session sees a third of the corpus
// and each line is judged twice, not six times; every third line's
// explanation is compared too.
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
	for i, l := range lines {
		if st.build(l.cmd) != nil {
			built++
		}
		own := contextForShell(l.shell)
		p, c := plain, own
		switch i % 3 {
		case 1:
			c = Context{Shell: own.Shell}
		case 2:
			p, c = asking, Context{WorkDir: "/home/dev/src/app", Home: "/home/dev", Shell: own.Shell,
				ProtectedPaths: []string{"~/.hotplex", "/home/dev/src"}}
		}
		if f, full := p.fast.CheckCommand(l.cmd, c), p.full.CheckCommand(l.cmd, c); !reflect.DeepEqual(f, full) {
			t.Errorf("%s %q in %+v:\n fast %+v\n full %+v", l.where, l.cmd, c, f, full)
		}
		if i%3 != 0 {
			continue
		}
		if f, full := plain.fast.Explain(l.cmd, own).String(), plain.full.Explain(l.cmd, own).String(); f != full {
			t.Errorf("%s %q: explanations differ:\n fast %s\n full %s", l.where, l.cmd, f, full)
		}
	}
	// the comparison means something only if most lines take the fast path
	if built < len(lines)/2 {
		t.Errorf("only %d of %d lines take the fast path", built, len(lines))
	}
}
