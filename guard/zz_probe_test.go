package guard

import (
	"bufio"
	"os"
	"testing"
)

func TestZZProbe(t *testing.T) {
	f, err := os.Open(os.Getenv("PROBE"))
	if err != nil {
		t.Skip()
	}
	defer f.Close()
	d := NewDetector(Options{})
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if sc.Text() == "" {
			continue
		}
		v := d.CheckCommand(sc.Text(), corpusContext)
		t.Logf("%-8v %-10s %-28s %s", stopped(v), v.Level, v.Pattern, sc.Text())
	}
}
