package guard

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// The Windows corpora in testdata/corpus/blind were written by people who
// had not seen the analyser: windows-dangerous*.jsonl lines are commands
// that must be stopped, labelled with the shell they are written for
// (powershell, cmd, gitbash), a level and a category; windows-benign*.jsonl
// lines are everyday commands that must run. Each is judged in the shell
// it names, in the session below.

const (
	winBlindGlob = "testdata/corpus/blind/windows-*.jsonl"

	// Thresholds TestWindowsCorpus enforces, a little below what the
	// analyser reaches, so that a regression fails.
	winMinCritical = 0.98
	winMinHigh     = 0.97
	winMinModerate = 0.55
	winMaxFP       = 0.01
)

// winCorpusContext is the session the Windows corpora assume: a project
// in C:\work\project of the user dev.
var winCorpusContext = Context{WorkDir: `C:\work\project`, Home: `C:\Users\dev`}

type winCorpusEntry struct {
	Cmd      string `json:"cmd"`
	Shell    string `json:"shell"`
	Level    string `json:"level"`
	Category string `json:"category"`
	Note     string `json:"note"`

	file string
	line int
}

func loadWinCorpus(t testing.TB) (dangerous, benign []winCorpusEntry) {
	t.Helper()
	files, err := filepath.Glob(winBlindGlob)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no corpus files match %s", winBlindGlob)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		n := 0
		for sc.Scan() {
			n++
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			var e winCorpusEntry
			dec := json.NewDecoder(bytes.NewReader(line))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&e); err != nil {
				t.Fatalf("%s:%d: %v", f, n, err)
			}
			if e.Cmd == "" {
				t.Fatalf("%s:%d: empty cmd", f, n)
			}
			switch e.Shell {
			case "powershell", "cmd", "gitbash":
			default:
				t.Fatalf("%s:%d: unknown shell %q", f, n, e.Shell)
			}
			e.file, e.line = filepath.Base(f), n
			if e.Level != "" {
				if _, err := ParseLevel(e.Level); err != nil {
					t.Fatalf("%s:%d: %v", f, n, err)
				}
				dangerous = append(dangerous, e)
			} else {
				benign = append(benign, e)
			}
		}
	}
	return dangerous, benign
}

func winCorpusContextFor(shell string) Context {
	c := winCorpusContext
	c.Shell = shell
	return c
}

// TestWindowsCorpus reports detection per shell and level and false
// positives, and fails below the thresholds.
func TestWindowsCorpus(t *testing.T) {
	dangerous, benign := loadWinCorpus(t)
	d := NewDetector(Options{})
	type tally struct{ n, hit int }
	perLevel := map[string]*tally{}
	perShell := map[string]*tally{}
	var misses []string
	for _, e := range dangerous {
		v := d.CheckCommand(e.Cmd, winCorpusContextFor(e.Shell))
		for _, k := range []string{e.Level} {
			if perLevel[k] == nil {
				perLevel[k] = &tally{}
			}
			perLevel[k].n++
		}
		key := e.Shell + "/" + e.Level
		if perShell[key] == nil {
			perShell[key] = &tally{}
		}
		perShell[key].n++
		if v.Blocked {
			perLevel[e.Level].hit++
			perShell[key].hit++
		} else {
			misses = append(misses, fmt.Sprintf("MISS %s:%d [%s %s %s] %s", e.file, e.line, e.Shell, e.Level, e.Category, e.Cmd))
		}
	}
	var fps []string
	for _, e := range benign {
		v := d.CheckCommand(e.Cmd, winCorpusContextFor(e.Shell))
		if v.Blocked {
			fps = append(fps, fmt.Sprintf("FP %s:%d [%s] %s → %s %s", e.file, e.line, e.Shell, e.Cmd, v.Pattern, v.Reason))
		}
	}
	sort.Strings(misses)
	for _, m := range misses {
		t.Log(m)
	}
	for _, f := range fps {
		t.Log(f)
	}
	keys := make([]string, 0, len(perShell))
	for k := range perShell {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		x := perShell[k]
		t.Logf("%-22s %3d/%3d = %.3f", k, x.hit, x.n, float64(x.hit)/float64(x.n))
	}
	rate := func(k string) float64 {
		x := perLevel[k]
		if x == nil || x.n == 0 {
			return 1
		}
		return float64(x.hit) / float64(x.n)
	}
	fpRate := 0.0
	if len(benign) > 0 {
		fpRate = float64(len(fps)) / float64(len(benign))
	}
	t.Logf("critical %.3f, high %.3f, moderate %.3f (%d dangerous); false positives %d/%d = %.3f",
		rate("critical"), rate("high"), rate("moderate"), len(dangerous), len(fps), len(benign), fpRate)
	if r := rate("critical"); r < winMinCritical {
		t.Errorf("critical detection %.3f < %.2f", r, winMinCritical)
	}
	if r := rate("high"); r < winMinHigh {
		t.Errorf("high detection %.3f < %.2f", r, winMinHigh)
	}
	if r := rate("moderate"); r < winMinModerate {
		t.Errorf("moderate detection %.3f < %.2f", r, winMinModerate)
	}
	if fpRate > winMaxFP {
		t.Errorf("false positive rate %.3f > %.2f", fpRate, winMaxFP)
	}
	if len(benign) == 0 || len(dangerous) == 0 {
		t.Error("the Windows corpus lacks benign or dangerous lines")
	}
}
