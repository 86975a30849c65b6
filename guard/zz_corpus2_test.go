package guard

import (
	"fmt"
	"os"
	"testing"
)

func TestZZCorpusCats(t *testing.T) {
	if os.Getenv("ZZCATS") == "" {
		t.Skip()
	}
	dangerous, _ := loadCorpus(t)
	d := NewDetector(Options{})
	for _, e := range dangerous {
		v := d.CheckCommand(e.Cmd, corpusContext)
		if v.Category != e.Category || v.Level != e.level {
			fmt.Printf("%-9s/%-17s got %-9s/%-17s %-28s %q\n", e.Level, e.Category, v.Level, v.Category, v.Pattern, e.Cmd)
		}
	}
}
