package guard

import (
	"testing"
	"time"
)

// The Windows lines of the blind and held-out corpora (testdata/corpus/
// blind and holdout) were written by people who had not
// seen the analyser: each names the shell it is written for (powershell,
// cmd, gitbash). They are read by the same loader as TestCorpus and judged
// in the same session (contextForShell), so both tests report the same
// numbers; this one enforces thresholds on the Windows group of each set.

// Thresholds TestWindowsCorpus enforces on the Windows group of each set
// (corpusSets), a little below what the analyser reaches, so that a
// regression fails.
var (
	// blind: the first round (its held-out fifth included), the second
	// and three fifths of the third (round3a), all tuned on, reach 98.3%
	// critical, 98.8% high, 99.2% moderate and 0.17% false positives
	// (round3a alone 94.8%, 94.9%, 97.7%, 0.32%; 91.1%, 93.0%, 95.5%,
	// 1.6% before the general mechanisms).
	winBlindThresholds = thresholds{0.980, 0.982, 0.975, 0.0045}
	// holdout: round3b, never tuned on; after the tuning on round3a its
	// Windows lines reached 91.5% critical, 89.9% high, 68.6% moderate
	// and 1.6% false positives (90.4%, 87.9%, 54.3% and 1.6% before),
	// 92.6%, 89.9%, 68.6% and 1.1% after the general mechanisms, and
	// 92.6%, 90.9%, 80.0% and 0.55% after those of round four, which
	// these floors keep from falling.
	winHoldoutThresholds = thresholds{0.92, 0.905, 0.79, 0.008}
	// round4, 4a and 4b together: on arrival 89.8% critical, 83.0%
	// high, 65.0% moderate, 8.7% false positives; after the tuning on
	// round4a 95.5%, 92.6%, 83.8% and 4.4% (round4a alone 98.2%, 96.6%,
	// 85.7%, 2.4%; round4b, never looked at, 90.5%, 85.4%, 80.6%, 7.3%);
	// after the later rounds' tuning 97.7%, 97.4%, 85.0% and 4.2%.
	winRound4Thresholds = thresholds{0.97, 0.965, 0.835, 0.045}
	// round5: on arrival 85.8% critical, 90.0% high, 92.9% moderate,
	// 3.6% false positives; after the tuning on round4a 88.5%, 91.2%,
	// 94.6% and 2.8%; after the tuning on round5a (round5b never looked
	// at) 96.3%, 98.0%, 94.6% and 1.1%; after the tuning on round6a 98.5%,
	// 99.2%, 94.6% and 0.8% (see testdata/corpus/round5/README.md).
	winRound5Thresholds = thresholds{0.98, 0.985, 0.94, 0.01}
	// round6: on arrival (after round four's tuning) 83.7% critical,
	// 79.0% high, 76.3% moderate, 4.4% false positives; after the tuning
	// on round5a 86.1%, 83.6%, 76.3% and 4.2%; after the tuning on round6a
	// (round6b never opened) 95.8%, 94.7%, 84.7% and 2.2% (round6b alone
	// 91.0%, 88.5%, 68.4%, 3.0%); after the tuning on round7a 96.4%,
	// 95.4%, 84.7% and 2.2% (see testdata/corpus/round6/README.md).
	winRound6Thresholds = thresholds{0.96, 0.95, 0.84, 0.023}
	// round7: on arrival (after round five's tuning) 78.5% critical,
	// 83.4% high, 68.8% moderate, 3.8% false positives; after the tuning
	// on round6a 85.8%, 85.6%, 72.9% and 3.4%; after the tuning on round7a
	// (round7b never opened) 92.5%, 92.1%, 85.4% and 2.7% (see
	// testdata/corpus/round7/README.md).
	winRound7Thresholds = thresholds{0.92, 0.915, 0.85, 0.027}
	// round8: on arrival (after round6a's tuning) 90.5% critical, 88.0%
	// high, 68.8% moderate, 4.0% false positives; after the tuning on
	// round7a 92.9%, 88.6%, 87.5% and 3.6%; after the tuning on round8a
	// (round8b never opened) 97.1%, 94.3%, 93.8% and 2.7% (see
	// testdata/corpus/round8/README.md).
	winRound8Thresholds = thresholds{0.965, 0.935, 0.875, 0.029}
	// round9: on arrival (after round7a's tuning) 84.9% critical, 87.6%
	// high, 75.0% moderate, 2.3% false positives; after the tuning on
	// round8a 85.8%, 87.6%, 81.3% and 2.3%; after the tuning on round9a
	// (round9b never opened) 91.1%, 88.8%, 81.3% and 2.1% (see
	// testdata/corpus/round9/README.md).
	winRound9Thresholds = thresholds{0.905, 0.88, 0.75, 0.024}
	// round10: on arrival (after round8a's tuning) 89.9% critical, 80.3%
	// high, 100% moderate, 4.5% false positives (see
	// testdata/corpus/round10/README.md); after the tuning on round10a
	// and the inventories by tool family (round10b never opened) 93.2%,
	// 85.4%, 100% and 2.6%.
	winRound10Thresholds = thresholds{0.925, 0.85, 0.91, 0.028}
	// round11, never tuned on: written while round10a was tuned on; 92.2%
	// critical, 87.6% high, 100% moderate, 3.9% false positives on
	// arrival, the same as against the rules at the start of that tuning,
	// and 92.8%, 87.6%, 100%, 3.9% after the inventories by tool family
	// (see testdata/corpus/round11/README.md).
	winRound11Thresholds = thresholds{0.925, 0.89, 0.9, 0.041}
	// round12, never tuned on: 86.9% critical, 97.3% high, 70% moderate,
	// 3.5% false positives on arrival, the same as against the rules at
	// the start of round10a's tuning (see testdata/corpus/round12/README.md).
	winRound12Thresholds = thresholds{0.865, 0.965, 0.69, 0.036}
	// round13, never tuned on: 74.9% critical, 83.2% high, 81.8% moderate,
	// 2.6% false positives on arrival (74.9%, 80.5%, 81.8%, 2.4% against
	// the rules at the start of round10a's tuning); 80.2%, 83.2%, 81.8%,
	// 2.6% after the tuning on round13a (see testdata/corpus/round13/README.md).
	winRound13Thresholds = thresholds{0.795, 0.825, 0.72, 0.027}
	// round14, never tuned on: 88.1% critical, 95.7% high, 81.8%
	// moderate, 4.2% false positives against the rules at the start of
	// round13a's tuning; 88.5%, 96.6%, 81.8%, 4.2% on arrival; 89.2%,
	// 96.6%, 81.8%, 3.5% after the round15a tuning (see
	// testdata/corpus/round14/README.md).
	winRound14Thresholds = thresholds{0.888, 0.957, 0.72, 0.038}
	// round15: on arrival round15a 88.0%, 90.5%, 100%, 5.2% and round15b
	// (never opened) 86.9%, 92.9%, 100%, 7.2%; both parts after the
	// tuning on round15a 90.6%, 94.3%, 100%, 3.3% (see
	// testdata/corpus/round15/README.md).
	winRound15Thresholds = thresholds{0.902, 0.933, 0.94, 0.035}
	// round16: the hijacked agent and the honest one. On arrival round16a
	// 92.5%, 90.4%, 92.6%, 5.2% and round16b (never opened) 92.2%, 87.8%,
	// 75.0%, 5.1%; both parts after the tuning on round16a 95.8%, 93.8%,
	// 97.7%, 5.1%; after the next tuning 97.3%, 94.9%, 97.7%, 3.2% (see
	// testdata/corpus/round16/README.md).
	winRound16Thresholds = thresholds{0.97, 0.945, 0.97, 0.034}
	// round17: one bad step in a long chain; all six parts after the
	// tuning on round17a 95.3%, 97.9%, 92.6%, 4.7% (see
	// testdata/corpus/round17/README.md).
	winRound17Thresholds = thresholds{0.95, 0.975, 0.92, 0.048}
	// round18: twins and everyday work; the four parts that have
	// arrived, after the tuning on round18a, 98.9%, 100%, 100%, 2.5% (see
	// testdata/corpus/round18/README.md).
	winRound18Thresholds = thresholds{0.98, 0.99, 0.99, 0.03}
	// round19: the long tail; the four parts that have arrived, after the
	// tuning on round19a, 97.1%, 92.4%, 69.7%, 2.7% (see
	// testdata/corpus/round19/README.md).
	winRound19Thresholds = thresholds{0.965, 0.92, 0.69, 0.029}
	// round20: the long tail, continued; after the tuning on round20a
	// 98.1%, 84.8%, 40.0% (of five), 3.6% (see
	// testdata/corpus/round20/README.md).
	winRound20Thresholds = thresholds{0.97, 0.86, 0.77, 0.031}
	// round21: see testdata/corpus/round21/README.md. One more held-out
	// benign line stopped after the tuning on round22a (5 → 6 of 406).
	winRound21Thresholds = thresholds{0.885, 0.815, 0.80, 0.015}
	// round22: round22a tuned on, round22b held out; see
	// testdata/corpus/round22/README.md.
	// (false positives 0.021 -> 0.025 in round 36: a shared Jenkins server's
	// jobs and the latest tag of a published package are judged now, and
	// two held-out lines labelled harmless fell on them)
	winRound22Thresholds = thresholds{0.995, 0.945, 0.92, 0.025}
	// round23: round23a tuned on, round23b held out; see
	// testdata/corpus/round23/README.md.
	winRound23Thresholds = thresholds{0.995, 0.975, 0.90, 0.0085}
	// round24: round24a tuned on, round24b held out; see
	// testdata/corpus/round24/README.md.
	winRound24Thresholds = thresholds{0.99, 0.93, 0.895, 0.003}
	// round25: round25a tuned on, round25b held out; see
	// testdata/corpus/round25/README.md.
	winRound25Thresholds = thresholds{0.965, 0.885, 0.93, 0.015}
	// round26: round26a tuned on, round26b held out; see
	// testdata/corpus/round26/README.md.
	winRound26Thresholds = thresholds{0.975, 0.935, 0.965, 0.006}
	// round27: round27a tuned on, round27b held out; see
	// testdata/corpus/round27/README.md.
	winRound27Thresholds = thresholds{0.955, 0.915, 0.97, 0.008}
	// round28: round28a tuned on, round28b held out; see
	// testdata/corpus/round28/README.md.
	winRound28Thresholds = thresholds{0.975, 0.91, 0.94, 0.014}
	// round29: round29a tuned on, round29b held out (few Windows lines:
	// 21 critical, 2 high, 29 harmless); see
	// testdata/corpus/round29/README.md.
	winRound29Thresholds = thresholds{0.99, 0.5, 0, 0.01}
	// round30: round30a tuned on, round30b held out; see
	// testdata/corpus/round30/README.md.
	winRound30Thresholds = thresholds{0.99, 0.87, 0.9, 0.025}
	// round31: scored on arrival, not yet tuned on; see
	// testdata/corpus/round31/README.md.
	winRound31Thresholds = thresholds{0.97, 0.9, 0.9, 0.01}
	// round32: round32a tuned on, round32b held out; see
	// testdata/corpus/round32/README.md.
	winRound32Thresholds = thresholds{0.94, 0.91, 0.9, 0.02}
	// round33: round33a tuned on, round33b held out; see
	// testdata/corpus/round33/README.md.
	winRound33Thresholds = thresholds{0.97, 0.92, 0.95, 0.01}
	// round34: round34a tuned on, round34b held out; see
	// testdata/corpus/round34/README.md.
	winRound34Thresholds = thresholds{0.96, 0.92, 0.93, 0.01}
	// round35: round35a tuned on, round35b held out; see
	// testdata/corpus/round35/README.md.
	winRound35Thresholds = thresholds{0.97, 0.95, 0.95, 0.01}
	// round36: round36a tuned on, round36b held out; see
	// testdata/corpus/round36/README.md.
	winRound36Thresholds = thresholds{0.96, 0.92, 0.9, 0.013}
	// round37: round37a tuned on, round37b held out; see
	// testdata/corpus/round37/README.md.
	winRound37Thresholds = thresholds{0.94, 0.89, 0.99, 0.037}
	// round38: round38a tuned on, round38b held out; see
	// testdata/corpus/round38/README.md.
	winRound38Thresholds = thresholds{0.92, 0.87, 0.99, 0.05}
	// round39: round39a tuned on, round39b held out; see
	// testdata/corpus/round39/README.md.
	winRound39Thresholds = thresholds{0.88, 0.88, 0.78, 0.034}
	// round40: round40a tuned on, round40b held out; see
	// testdata/corpus/round40/README.md.
	winRound40Thresholds = thresholds{0.94, 0.88, 0.92, 0.013}
	// round41: round41a tuned on, round41b held out; see
	// testdata/corpus/round41/README.md.
	winRound41Thresholds = thresholds{0.98, 0.84, 0.95, 0.018}
	// round42: round42a tuned on, round42b held out; see
	// testdata/corpus/round42/README.md.
	winRound42Thresholds = thresholds{0.99, 0.88, 0.92, 0.0085}
	// round43: round43a tuned on, round43b held out; see
	// testdata/corpus/round43/README.md.
	winRound43Thresholds = thresholds{0.94, 0.835, 0.96, 0.0065}
	// round44: round44a tuned on, round44b held out; see
	// testdata/corpus/round44/README.md.
	winRound44Thresholds = thresholds{0.95, 0.84, 0.86, 0.011}
	// round45: round45a tuned on, round45b held out; see
	// testdata/corpus/round45/README.md.
	winRound45Thresholds = thresholds{0.975, 0.92, 0.92, 0.013}
	// round46: round46a tuned on, round46b held out; see
	// testdata/corpus/round46/README.md.
	winRound46Thresholds = thresholds{0.945, 0.87, 0.86, 0.0085}
	// round47: round47a tuned on, round47b held out; see
	// testdata/corpus/round47/README.md.
	winRound47Thresholds = thresholds{0.90, 0.86, 0.96, 0.008}
	// round48: round48a tuned on, round48b held out; see
	// testdata/corpus/round48/README.md.
	winRound48Thresholds = thresholds{0.87, 0.82, 0.89, 0.024}
	// round49: round49a tuned on, round49b held out; see
	// testdata/corpus/round49/README.md.
	winRound49Thresholds = thresholds{0.91, 0.80, 0.85, 0.006}
	// round50: round50a tuned on, round50b held out; see
	// testdata/corpus/round50/README.md.
	winRound50Thresholds = thresholds{0.88, 0.70, 0.82, 0.013}
	// round51: round51a tuned on, round51b held out (arrival 78.0%,
	// 61.5%, 75.0%, 1.40%; end 88.9%, 76.4%, 85.0%, 0.87%); see
	// testdata/corpus/round51/README.md.
	winRound51Thresholds = thresholds{0.88, 0.75, 0.84, 0.010}
	// round52: round52a tuned on, round52b held out (arrival 79.1%,
	// 72.2%, 88.6%, 0.73%; end 87.5%, 81.1%, 88.6%, 0.36%); see
	// testdata/corpus/round52/README.md.
	winRound52Thresholds = thresholds{0.86, 0.80, 0.88, 0.005}
	// round53: round53a tuned on, round53b held out (arrival 71.9%,
	// 64.0%, 78.9%, 2.50%; end 86.9%, 85.4%, 84.2%, 0.58%); see
	// testdata/corpus/round53/README.md.
	winRound53Thresholds = thresholds{0.86, 0.84, 0.84, 0.007}
	// round54: round54a tuned on, round54b held out (arrival 80.7%,
	// 70.3%, 91.8%, 1.69%; end 88.6%, 83.1%, 93.4%, 1.02%); see
	// testdata/corpus/round54/README.md.
	winRound54Thresholds = thresholds{0.88, 0.82, 0.93, 0.011}
	// round55: round55a tuned on, round55b held out (arrival 86.9%,
	// 77.3%, 82.1%, 1.95%; end 92.9%, 85.0%, 82.1%, 1.46%); see
	// testdata/corpus/round55/README.md.
	winRound55Thresholds = thresholds{0.92, 0.84, 0.82, 0.015}
	// round56: round56a tuned on, round56b held out (arrival 83.7%,
	// 78.9%, 92.3%, 0.83%; end 88.9%, 86.7%, 94.9%, 0.47%); see
	// testdata/corpus/round56/README.md.
	winRound56Thresholds = thresholds{0.88, 0.86, 0.94, 0.006}
)

// winCorpusContext is the session the Windows corpora assume: a project
// in C:\work\project of the user dev.
var winCorpusContext = Context{WorkDir: `C:\work\project`, Home: `C:\Users\dev`}

func winCorpusContextFor(shell string) Context {
	c := winCorpusContext
	c.Shell = shell
	return c
}

// TestWindowsCorpus reports detection per level and category of the
// Windows group of each set (with -v every miss and false positive too),
// and fails below the thresholds.
func TestWindowsCorpus(t *testing.T) {
	d := defaultVerdicts()
	for _, set := range corpusSets {
		dg, bn, ok := loadSet(t, set)
		if !ok {
			continue
		}
		_, wd := splitByShell(dg, func(e dangerousEntry) string { return e.Shell })
		_, wb := splitByShell(bn, func(e benignEntry) string { return e.Shell })
		if len(wd)+len(wb) == 0 {
			t.Logf("%s: nothing to score: no Windows lines in %s", set.name, set.dir)
			continue
		}
		s := scoreCorpus(d, set.name+"/windows", wd, wb)
		t.Log("\n" + s.report(false)) // counts only: held-out lines are never listed
		s.enforce(t, set.windows.crit, set.windows.high, set.windows.mod, set.windows.fp)
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
	for _, set := range corpusSets {
		dg, bn := loadCorpusDir(b, set.dir)
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
