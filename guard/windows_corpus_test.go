package guard

import (
	"testing"
	"time"
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
	// blind (the first round, its held-out fifth included since it was
	// scored) reaches 99.2% critical (node -e and python -c process
	// loops), 100% high, 94% moderate, 0.3% false positives.
	{"blind", 0.99, 0.99, 0.9, 0.005},
	// holdout (the second blind round, never tuned on) reaches 93.3%
	// critical, 96.2% high, 100% moderate and 2.1% false positives:
	// below the goal, enforced against regressions.
	{"holdout", 0.93, 0.96, 0.95, 0.025},
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

// BenchmarkWindowsCorpus measures CheckCommand over every Windows line of
// the blind and held-out sets, each in its shell.
func BenchmarkWindowsCorpus(b *testing.B) {
	type line struct {
		cmd string
		ctx Context
	}
	var lines []line
	for _, set := range []string{"blind", "holdout"} {
		dg, bn := loadCorpusDir(b, corpusDir+"/"+set)
		_, wd := splitByShell(dg, func(e dangerousEntry) string { return e.Shell })
		_, wb := splitByShell(bn, func(e benignEntry) string { return e.Shell })
		for _, e := range wd {
			lines = append(lines, line{e.Cmd, contextForShell(e.Shell)})
		}
		for _, e := range wb {
			lines = append(lines, line{e.Cmd, contextForShell(e.Shell)})
		}
	}
	d := NewDetector(Options{})
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		for _, l := range lines {
			_ = d.CheckCommand(l.cmd, l.ctx)
		}
	}
	elapsed := time.Since(start)
	b.StopTimer()
	decisions := float64(b.N) * float64(len(lines))
	b.ReportMetric(float64(elapsed.Nanoseconds())/decisions, "ns/decision")
	b.ReportMetric(decisions/elapsed.Seconds(), "decisions/s")
}
