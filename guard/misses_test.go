package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// missesEnv names the corpus files TestListMisses reports on: every
// tuning corpus whose base name starts with its value.
const missesEnv = "GUARD_MISSES"

// scoredOnly are the base-name prefixes of the corpora that only ever
// score the rules: their lines are never listed.
var scoredOnly = []string{"round56b", "round55b", "round54b", "round53b", "round52b", "round51b", "round50b", "round49b", "round48b", "round47b", "round46b", "round45b", "round44b", "round43b", "round42b", "round41b", "round40b", "round39b", "round38b", "round37b", "round36b", "round35b", "round34b", "round33b", "round32b", "round31b", "round30b", "round29b", "round28b", "round27b", "round26b", "round25b", "round24b", "round23b", "round22b", "round21b", "round20b", "round19b", "round18b", "round17b", "round16b", "round15b", "round14", "round13b", "round12", "round11", "round10b", "round9b", "round8b", "round7b", "round6b", "round5b", "round4b", "holdout", "round3b"}

// missesPrefixAllowed says whether a prefix may be listed: it must not
// reach any scored-only corpus, neither by naming one nor by being short
// enough to match one.
func missesPrefixAllowed(prefix string) bool {
	if prefix == "" {
		return false
	}
	for _, s := range scoredOnly {
		if strings.HasPrefix(s, prefix) || strings.HasPrefix(prefix, s) {
			return false
		}
	}
	return true
}

func TestMissesPrefixAllowed(t *testing.T) {
	for prefix, want := range map[string]bool{
		"round4a": true, "round3a": true, "posix": true, "windows-heldout1": true,
		"": false, "r": false, "round": false, "round4": false, "round4b": false,
		"round4b-benign": false, "holdout": false, "hold": false, "round3b-x": false,
		"round5a": true, "round5": false, "round5b": false, "round5b-dangerous": false,
		"round6": false, "round6a": true, "round6b": false, "round6b-benign": false,
		"round7": false, "round7a": true, "round7b": false, "round7b-dangerous": false,
		"round8": false, "round8a": true, "round8b": false, "round8b-benign": false,
		"round9": false, "round9a": true, "round9b": false, "round9b-dangerous": false,
		"round16": false, "round16a": true, "round16b": false, "round16b-benign": false,
		"round17": false, "round17a": true, "round17b": false, "round17b-benign": false,
		"round18": false, "round18a": true, "round18b": false, "round18b-benign": false,
		"round19": false, "round19a": true, "round19b": false, "round19b-dangerous": false,
		"round20": false, "round20a": true, "round20b": false, "round20b-benign": false,
		"round21": false, "round21a": true, "round21b": false, "round21b-dangerous": false,
		"round22": false, "round22a": true, "round22b": false, "round22a-benign": true, "round22b-benign": false,
		"round23": false, "round23a": true, "round23b": false, "round23a-dangerous": true, "round23b-dangerous": false,
		"round24": false, "round24a": true, "round24b": false, "round24a-benign": true, "round24b-benign": false,
		"round25": false, "round25a": true, "round25b": false, "round25a-benign": true, "round25b-benign": false,
		"round26": false, "round26a": true, "round26b": false, "round26a-benign": true, "round26b-benign": false,
		"round27": false, "round27a": true, "round27b": false, "round27a-benign": true, "round27b-benign": false,
		"round28": false, "round28a": true, "round28b": false, "round28a-benign": true, "round28b-benign": false,
		"round29": false, "round29a": true, "round29b": false, "round29a-benign": true, "round29b-benign": false,
		"round30": false, "round30a": true, "round30b": false, "round30a-benign": true, "round30b-benign": false,
		"round31": false, "round31a": true, "round31b": false, "round31a-benign": true, "round31b-benign": false,
		"round32": false, "round32a": true, "round32b": false, "round32a-benign": true, "round32b-benign": false,
		"round33": false, "round33a": true, "round33b": false, "round33a-benign": true, "round33b-benign": false,
		"round34": false, "round34a": true, "round34b": false, "round34a-benign": true, "round34b-benign": false,
		"round35": false, "round35a": true, "round35b": false, "round35a-benign": true, "round35b-benign": false,
		"round36": false, "round36a": true, "round36b": false, "round36a-benign": true, "round36b-benign": false,
		"round37": false, "round37a": true, "round37b": false, "round37a-benign": true, "round37b-benign": false,
		"round38": false, "round38a": true, "round38b": false, "round38a-benign": true, "round38b-benign": false,
		"round39": false, "round39a": true, "round39b": false, "round39a-benign": true, "round39b-benign": false,
		"round40": false, "round40a": true, "round40b": false, "round40a-benign": true, "round40b-benign": false,
		"round41": false, "round41a": true, "round41b": false, "round41a-benign": true, "round41b-benign": false,
		"round42": false, "round42a": true, "round42b": false, "round42a-benign": true, "round42b-benign": false,
		"round43": false, "round43a": true, "round43b": false, "round43a-benign": true, "round43b-benign": false,
		"round44": false, "round44a": true, "round44b": false, "round44a-benign": true, "round44b-benign": false,
		"round45": false, "round45a": true, "round45b": false, "round45a-benign": true, "round45b-benign": false,
		"round46": false, "round46a": true, "round46b": false, "round46a-benign": true, "round46b-benign": false,
		"round47": false, "round47a": true, "round47b": false, "round47a-benign": true, "round47b-benign": false,
		"round48": false, "round48a": true, "round48b": false, "round48a-benign": true, "round48b-benign": false,
		"round49": false, "round49a": true, "round49b": false, "round49a-benign": true, "round49b-benign": false,
		"round50": false, "round50a": true, "round50b": false, "round50a-benign": true, "round50b-benign": false,
		"round51": false, "round51a": true, "round51b": false, "round51a-benign": true, "round51b-benign": false,
		"round52": false, "round52a": true, "round52b": false, "round52a-benign": true, "round52b-benign": false,
		"round53": false, "round53a": true, "round53b": false, "round53a-benign": true, "round53b-benign": false,
		"round54": false, "round54a": true, "round54b": false, "round54a-benign": true, "round54b-benign": false,
		"round55": false, "round55a": true, "round55b": false, "round55a-benign": true, "round55b-benign": false,
		"round56": false, "round56a": true, "round56b": false, "round56a-benign": true, "round56b-benign": false,
		"round15": false, "round15a": true, "round15b": false, "round14": false, "round14-benign": false, "round13": false, "round13a": true, "round13b": false, "round12": false, "round12a": false, "round11": false, "round11a": false, "round10": false, "round10a": true, "round10b": false, "round10b-benign": false, "round1": false,
	} {
		if got := missesPrefixAllowed(prefix); got != want {
			t.Errorf("missesPrefixAllowed(%q) = %t, want %t", prefix, got, want)
		}
	}
}

// TestListMisses prints the misses and false positives of the tuning
// corpora whose base name starts with $GUARD_MISSES (set GUARD_SHELL to
// "posix" or "windows" to keep one group). It never reads the holdout
// directory nor a scored-only file, and is skipped when the variable is
// unset.
func TestListMisses(t *testing.T) {
	prefix := os.Getenv(missesEnv)
	if prefix == "" {
		t.Skipf("set %s to a corpus file prefix (such as round4a) to list its misses", missesEnv)
	}
	if !missesPrefixAllowed(prefix) {
		t.Fatalf("%s=%q reaches a corpus that only scores the rules; pick a tuning corpus", missesEnv, prefix)
	}
	var dg []dangerousEntry
	var bn []benignEntry
	for _, dir := range []string{corpusDir + "/blind", corpusDir + "/round4", corpusDir + "/round5", corpusDir + "/round6", corpusDir + "/round7", corpusDir + "/round8", corpusDir + "/round9", corpusDir + "/round10", corpusDir + "/round13", corpusDir + "/round15", corpusDir + "/round16", corpusDir + "/round17", corpusDir + "/round18", corpusDir + "/round19", corpusDir + "/round20", corpusDir + "/round21", corpusDir + "/round22", corpusDir + "/round23", corpusDir + "/round24", corpusDir + "/round25", corpusDir + "/round26", corpusDir + "/round27", corpusDir + "/round28", corpusDir + "/round29", corpusDir + "/round30", corpusDir + "/round31", corpusDir + "/round32", corpusDir + "/round33", corpusDir + "/round34", corpusDir + "/round35", corpusDir + "/round36", corpusDir + "/round37", corpusDir + "/round38", corpusDir + "/round39", corpusDir + "/round40", corpusDir + "/round41", corpusDir + "/round42", corpusDir + "/round43", corpusDir + "/round44", corpusDir + "/round45", corpusDir + "/round46", corpusDir + "/round47", corpusDir + "/round48", corpusDir + "/round49", corpusDir + "/round50", corpusDir + "/round51", corpusDir + "/round52", corpusDir + "/round53", corpusDir + "/round54", corpusDir + "/round55", corpusDir + "/round56"} {
		files, _ := filepath.Glob(filepath.Join(dir, prefix+"*.jsonl"))
		for _, f := range files {
			name := filepath.Base(f)
			if !missesPrefixAllowed(name) {
				continue
			}
			switch {
			case strings.HasSuffix(name, "-dangerous.jsonl"):
				dg = append(dg, readJSONL(t, f, func(e *dangerousEntry, line int) error {
					e.line, e.file = line, name
					return e.check(false)
				})...)
			case strings.HasSuffix(name, "-benign.jsonl"):
				bn = append(bn, readJSONL(t, f, func(e *benignEntry, line int) error {
					e.line, e.file = line, name
					return nil
				})...)
			}
		}
	}
	if len(dg)+len(bn) == 0 {
		t.Fatalf("no tuning corpus file starts with %q", prefix)
	}
	d := NewDetector(Options{})
	pd, wd := splitByShell(dg, func(e dangerousEntry) string { return e.Shell })
	pb, wb := splitByShell(bn, func(e benignEntry) string { return e.Shell })
	group := os.Getenv("GUARD_SHELL")
	if group == "" || group == "posix" {
		t.Log("\n" + scoreCorpus(plainJudge{d}, prefix+"/posix", pd, pb).report(true))
	}
	if group == "" || group == "windows" {
		t.Log("\n" + scoreCorpus(plainJudge{d}, prefix+"/windows", wd, wb).report(true))
	}
}

// TestCorpusSummary prints, when GUARD_SUMMARY is set, the per-round
// figures of every set (numbers only, never a command), for a run that
// must not list the lines of the corpora that only score the rules.
func TestCorpusSummary(t *testing.T) {
	if os.Getenv("GUARD_SUMMARY") == "" {
		t.Skip("set GUARD_SUMMARY=1 to print the per-round figures")
	}
	d := NewDetector(Options{})
	if dir := os.Getenv("GUARD_SUMMARY_DIR"); dir != "" {
		// a round's parts on arrival, scored before any of it is wired
		// in (files named roundNpK-dangerous.jsonl and -benign.jsonl)
		dg, bn := loadCorpusDir(quietTB{t}, dir)
		if len(dg)+len(bn) == 0 {
			t.Fatalf("no corpus files in %s", dir)
		}
		t.Log("\n" + roundSummary(plainJudge{d}, filepath.Base(dir), dg, bn))
		return
	}
	for _, set := range corpusSets {
		dg, bn := loadCorpusDir(quietTB{t}, set.dir)
		if len(dg)+len(bn) == 0 {
			continue
		}
		t.Log("\n" + roundSummary(plainJudge{d}, set.name, dg, bn))
	}
}

// quietTB drops the loader's notes, which quote corpus lines.
type quietTB struct{ testing.TB }

func (quietTB) Logf(string, ...any) {}
