package guard

import (
	"bufio"
	"fmt"
	"os"
	"testing"
)

func TestScratch(t *testing.T) {
	f := os.Getenv("SCRATCH")
	if f == "" {
		t.Skip()
	}
	d := NewDetector(Options{})
	ctx := Context{WorkDir: "/work/project", Home: "/home/dev"}
	fh, _ := os.Open(f)
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		if os.Getenv("EXPLAIN") != "" {
			fmt.Println(d.Explain(line, ctx).String())
			continue
		}
		v := d.CheckCommand(line, ctx)
		mark := "  "
		if v.Blocked {
			mark = "B "
		} else if v.Ask {
			mark = "A "
		}
		fmt.Printf("%s%-9s %-18s %-28s | %s\n      -> %s\n", mark, v.Level, v.Category, v.Pattern, line, v.Reason)
	}
}
