package guard

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// The evaluation corpus lives in testdata/corpus. It was written
// independently of the analyzer: dangerous.jsonl holds commands a security
// reviewer expects to be stopped (labelled with a level and a category),
// benign.jsonl everyday developer and agent commands, many of them
// deliberate near-misses, that must run. Both are judged in the session
// context below.

const (
	corpusDir = "testdata/corpus"

	// Thresholds TestCorpus enforces.
	minCriticalDetection = 0.99
	minHighDetection     = 0.95
	maxFalsePositiveRate = 0.01
	minCorpusEntries     = 300
)

// corpusContext is the session every corpus command is judged in.
var corpusContext = Context{WorkDir: "/work/project", Home: "/home/dev"}

// dangerousEntry is one line of dangerous.jsonl.
type dangerousEntry struct {
	Cmd      string `json:"cmd"`
	Level    string `json:"level"`
	Category string `json:"category"`
	Note     string `json:"note,omitempty"`

	level DangerLevel
	line  int
}

// benignEntry is one line of benign.jsonl.
type benignEntry struct {
	Cmd  string `json:"cmd"`
	Note string `json:"note,omitempty"`

	line int
}

// readJSONL decodes every non-blank line of path into a fresh T, rejecting
// malformed JSON, unknown fields and trailing data. check validates each
// entry; errors name the file and line.
func readJSONL[T any](tb testing.TB, path string, check func(e *T, line int) error) []T {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatalf("open corpus: %v", err)
	}
	defer f.Close()

	var out []T
	var errs []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		var e T
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			errs = append(errs, fmt.Sprintf("%s:%d: malformed entry: %v", path, line, err))
			continue
		}
		if dec.More() {
			errs = append(errs, fmt.Sprintf("%s:%d: malformed entry: more than one JSON value on the line", path, line))
			continue
		}
		if err := check(&e, line); err != nil {
			errs = append(errs, fmt.Sprintf("%s:%d: %v", path, line, err))
			continue
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	if len(errs) > 0 {
		tb.Fatalf("corpus %s has %d bad line(s):\n%s", path, len(errs), strings.Join(errs, "\n"))
	}
	return out
}

// loadCorpus reads and validates both corpus files: every entry well formed,
// levels and categories known, no command listed twice (in one file or
// across both).
func loadCorpus(tb testing.TB) ([]dangerousEntry, []benignEntry) {
	tb.Helper()
	dangerous := readJSONL(tb, filepath.Join(corpusDir, "dangerous.jsonl"), func(e *dangerousEntry, line int) error {
		e.line = line
		if strings.TrimSpace(e.Cmd) == "" {
			return fmt.Errorf("empty cmd")
		}
		lv, err := ParseLevel(e.Level)
		if err != nil {
			return err
		}
		if lv == LevelSafe {
			return fmt.Errorf("level %q is not a danger level (moderate, high, critical)", e.Level)
		}
		e.level = lv
		if !slices.Contains(Categories, e.Category) {
			return fmt.Errorf("unknown category %q (one of %s)", e.Category, strings.Join(Categories, ", "))
		}
		return nil
	})
	benign := readJSONL(tb, filepath.Join(corpusDir, "benign.jsonl"), func(e *benignEntry, line int) error {
		e.line = line
		if strings.TrimSpace(e.Cmd) == "" {
			return fmt.Errorf("empty cmd")
		}
		return nil
	})

	seen := map[string]string{}
	var dups []string
	note := func(cmd, where string) {
		if prev, ok := seen[cmd]; ok {
			dups = append(dups, fmt.Sprintf("%s duplicates %s: %q", where, prev, cmd))
			return
		}
		seen[cmd] = where
	}
	for _, e := range dangerous {
		note(e.Cmd, fmt.Sprintf("dangerous.jsonl:%d", e.line))
	}
	for _, e := range benign {
		note(e.Cmd, fmt.Sprintf("benign.jsonl:%d", e.line))
	}
	if len(dups) > 0 {
		tb.Fatalf("corpus has %d duplicate command(s):\n%s", len(dups), strings.Join(dups, "\n"))
	}
	return dangerous, benign
}

// describeVerdict renders a verdict on one line for the report.
func describeVerdict(v Verdict) string {
	if !v.Blocked && !v.Ask && v.Level == LevelSafe && v.Category == "" {
		return "allowed (zero verdict)"
	}
	s := fmt.Sprintf("blocked=%t ask=%t level=%s category=%q", v.Blocked, v.Ask, v.Level, v.Category)
	if v.Reason != "" {
		s += fmt.Sprintf(" reason=%q", v.Reason)
	}
	if v.Pattern != "" {
		s += fmt.Sprintf(" pattern=%q", v.Pattern)
	}
	if v.Operation != "" {
		s += fmt.Sprintf(" op=%q", v.Operation)
	}
	return s
}

// noteLine renders an entry's note as an indented report line, if any.
func noteLine(note string) string {
	if note == "" {
		return ""
	}
	return "\n        note: " + note
}

// stopped is what counts as the firewall stepping in.
func stopped(v Verdict) bool { return v.Blocked || v.Ask }

// tally counts detections in one bucket.
type tally struct{ total, detected int }

func (t tally) rate() float64 {
	if t.total == 0 {
		return 1
	}
	return float64(t.detected) / float64(t.total)
}

func (t tally) String() string {
	return fmt.Sprintf("%6.2f%% (%d/%d)", 100*t.rate(), t.detected, t.total)
}

// TestCorpus scores the detector against the evaluation corpus. It reports
// detection per level and per category, the false-positive rate, and every
// miss and false positive, and fails when critical detection is below 99%,
// high below 95%, or false positives above 1%.
func TestCorpus(t *testing.T) {
	dangerous, benign := loadCorpus(t)
	if len(dangerous) < minCorpusEntries {
		t.Fatalf("dangerous.jsonl has %d entries, want at least %d", len(dangerous), minCorpusEntries)
	}
	if len(benign) < minCorpusEntries {
		t.Fatalf("benign.jsonl has %d entries, want at least %d", len(benign), minCorpusEntries)
	}

	d := NewDetector(Options{})

	byLevel := map[DangerLevel]*tally{}
	byCategory := map[string]*tally{}
	for _, c := range Categories {
		byCategory[c] = &tally{}
	}
	for _, lv := range []DangerLevel{LevelCritical, LevelHigh, LevelModerate} {
		byLevel[lv] = &tally{}
	}
	var categoryMatch, askOnly int
	confusion := map[string]int{} // "labelled -> reported" for detected mismatches
	type miss struct {
		e dangerousEntry
		v Verdict
	}
	var misses []miss

	for _, e := range dangerous {
		v := d.CheckCommand(e.Cmd, corpusContext)
		lt, ct := byLevel[e.level], byCategory[e.Category]
		lt.total++
		ct.total++
		if !stopped(v) {
			misses = append(misses, miss{e, v})
			continue
		}
		lt.detected++
		ct.detected++
		if !v.Blocked {
			askOnly++
		}
		if v.Category == e.Category {
			categoryMatch++
		} else {
			confusion[fmt.Sprintf("%s -> %q", e.Category, v.Category)]++
		}
	}

	var falsePositives []string
	for _, e := range benign {
		v := d.CheckCommand(e.Cmd, corpusContext)
		if stopped(v) {
			falsePositives = append(falsePositives, fmt.Sprintf("benign.jsonl:%d %q%s\n        verdict: %s",
				e.line, e.Cmd, noteLine(e.Note), describeVerdict(v)))
		}
	}

	// Report.
	var detected int
	for _, lt := range byLevel {
		detected += lt.detected
	}
	overall := tally{total: len(dangerous), detected: detected}
	fpRate := float64(len(falsePositives)) / float64(len(benign))

	var b strings.Builder
	fmt.Fprintf(&b, "corpus: %d dangerous, %d benign; context WorkDir=%s Home=%s\n",
		len(dangerous), len(benign), corpusContext.WorkDir, corpusContext.Home)
	fmt.Fprintf(&b, "detection (Blocked or Ask), overall %s, of which ask-only %d\n", overall, askOnly)
	fmt.Fprintf(&b, "  %-10s %s   (want >= %.0f%%)\n", "critical", byLevel[LevelCritical], 100*minCriticalDetection)
	fmt.Fprintf(&b, "  %-10s %s   (want >= %.0f%%)\n", "high", byLevel[LevelHigh], 100*minHighDetection)
	fmt.Fprintf(&b, "  %-10s %s   (informational)\n", "moderate", byLevel[LevelModerate])
	b.WriteString("detection per category:\n")
	for _, c := range Categories {
		fmt.Fprintf(&b, "  %-18s %s\n", c, byCategory[c])
	}
	fmt.Fprintf(&b, "false positives: %.2f%% (%d/%d)   (want <= %.0f%%)\n",
		100*fpRate, len(falsePositives), len(benign), 100*maxFalsePositiveRate)
	if detected > 0 {
		fmt.Fprintf(&b, "category agreement (informational): %.2f%% (%d/%d detected entries report the labelled category)\n",
			100*float64(categoryMatch)/float64(detected), categoryMatch, detected)
		if len(confusion) > 0 {
			keys := make([]string, 0, len(confusion))
			for k := range confusion {
				keys = append(keys, k)
			}
			sort.Slice(keys, func(i, j int) bool {
				if confusion[keys[i]] != confusion[keys[j]] {
					return confusion[keys[i]] > confusion[keys[j]]
				}
				return keys[i] < keys[j]
			})
			b.WriteString("  labelled -> reported category (count):\n")
			for _, k := range keys {
				fmt.Fprintf(&b, "    %-45s %d\n", k, confusion[k])
			}
		}
	}
	t.Log("\n" + b.String())

	if len(misses) > 0 {
		// Most severe first, then by category and line.
		sort.SliceStable(misses, func(i, j int) bool {
			a, b := misses[i].e, misses[j].e
			if a.level != b.level {
				return a.level > b.level
			}
			if a.Category != b.Category {
				return a.Category < b.Category
			}
			return a.line < b.line
		})
		lines := make([]string, len(misses))
		for i, m := range misses {
			lines[i] = fmt.Sprintf("[%s/%s] dangerous.jsonl:%d %q%s\n        verdict: %s",
				m.e.Level, m.e.Category, m.e.line, m.e.Cmd, noteLine(m.e.Note), describeVerdict(m.v))
		}
		t.Logf("\nMISSED dangerous commands (%d):\n  %s", len(misses), strings.Join(lines, "\n  "))
	}
	if len(falsePositives) > 0 {
		t.Logf("\nFALSE POSITIVES on benign commands (%d):\n  %s", len(falsePositives), strings.Join(falsePositives, "\n  "))
	}

	// Verdict.
	if byLevel[LevelCritical].rate() < minCriticalDetection {
		t.Errorf("critical detection %s is below %.0f%%", byLevel[LevelCritical], 100*minCriticalDetection)
	}
	if byLevel[LevelHigh].rate() < minHighDetection {
		t.Errorf("high detection %s is below %.0f%%", byLevel[LevelHigh], 100*minHighDetection)
	}
	if fpRate > maxFalsePositiveRate {
		t.Errorf("false-positive rate %.2f%% (%d/%d) is above %.0f%%",
			100*fpRate, len(falsePositives), len(benign), 100*maxFalsePositiveRate)
	}
}

// BenchmarkCorpus measures CheckCommand over every corpus command, dangerous
// and benign, in the corpus context.
func BenchmarkCorpus(b *testing.B) {
	dangerous, benign := loadCorpus(b)
	cmds := make([]string, 0, len(dangerous)+len(benign))
	for _, e := range dangerous {
		cmds = append(cmds, e.Cmd)
	}
	for _, e := range benign {
		cmds = append(cmds, e.Cmd)
	}
	d := NewDetector(Options{})

	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		for _, c := range cmds {
			_ = d.CheckCommand(c, corpusContext)
		}
	}
	elapsed := time.Since(start)
	b.StopTimer()

	decisions := float64(b.N) * float64(len(cmds))
	b.ReportMetric(float64(elapsed.Nanoseconds())/decisions, "ns/decision")
	b.ReportMetric(decisions/elapsed.Seconds(), "decisions/s")
}
