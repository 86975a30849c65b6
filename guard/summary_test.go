package guard

import (
	"fmt"
	"os"
	"testing"
)

// TestCorpusSummary prints each corpus set's figures per round, POSIX and
// Windows apart, and never a command line: how a held-out round is scored
// without its lines being seen. It runs when GUARD_SUMMARY is set.
func TestCorpusSummary(t *testing.T) {
	if os.Getenv("GUARD_SUMMARY") == "" {
		t.Skip("set GUARD_SUMMARY=1 to print the corpora's figures")
	}
	d := NewDetector(Options{})
	for _, set := range corpusSets {
		dg, bn := loadCorpusDir(t, set.dir)
		if len(dg)+len(bn) == 0 {
			continue
		}
		fmt.Print(roundSummary(d, set.name, dg, bn))
	}
}
