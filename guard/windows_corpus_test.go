package guard

import (
	"testing"
)

// The Windows lines of the blind and held-out corpora (testdata/corpus/
// blind and holdout, windows-*.jsonl) were written by people who had not
// seen the analyser: each names the shell it is written for (powershell,
// cmd, gitbash). They are read by the same loader as TestCorpus and judged
// in the same session (contextForShell), so both tests report the same
// numbers; this one enforces thresholds on the Windows group of each set.

// Thresholds TestWindowsCorpus enforces per set, a little below what the
// analyser reaches, so that a regression fails.
var winCorpusThresholds = []struct {
	set                 string
	crit, high, mod, fp float64
}{
	{"blind", 0.98, 0.97, 0.85, 0.01},
	{"holdout", 0.98, 0.97, 0.85, 0.01},
}

// winCorpusContext is the session the Windows corpora assume: a project
// in C:\work\project of the user dev.
var winCorpusContext = Context{WorkDir: `C:\work\project`, Home: `C:\Users\dev`}

func winCorpusContextFor(shell string) Context {
	c := winCorpusContext
	c.Shell = shell
	return c
}

// TestWindowsCorpus reports detection per level and category, every miss
// and false positive of the Windows group of each set, and fails below the
// thresholds.
func TestWindowsCorpus(t *testing.T) {
	d := NewDetector(Options{})
	for _, th := range winCorpusThresholds {
		dg, bn := loadCorpusDir(t, corpusDir+"/"+th.set)
		_, wd := splitByShell(dg, func(e dangerousEntry) string { return e.Shell })
		_, wb := splitByShell(bn, func(e benignEntry) string { return e.Shell })
		if len(wd) == 0 || len(wb) == 0 {
			t.Errorf("%s: the Windows corpus lacks benign or dangerous lines", th.set)
			continue
		}
		s := scoreCorpus(d, th.set+"/windows", wd, wb)
		t.Log("\n" + s.report(true))
		s.enforce(t, th.crit, th.high, th.mod, th.fp)
	}
}
