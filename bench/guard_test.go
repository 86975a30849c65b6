package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/testkit"
)

// corpusCommands reads every command of the firewall's evaluation corpus.
func corpusCommands(b *testing.B) []string {
	var cmds []string
	for _, name := range []string{"dangerous.jsonl", "benign.jsonl"} {
		f, err := os.Open(filepath.Join(testkit.ModuleRoot(b), "guard", "testdata", "corpus", name))
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var e struct {
				Cmd string `json:"cmd"`
			}
			if len(sc.Bytes()) == 0 {
				continue
			}
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				b.Fatal(err)
			}
			cmds = append(cmds, e.Cmd)
		}
		f.Close()
	}
	return cmds
}

// BenchmarkGuardDecisions: firewall decisions per second on one goroutine
// over the whole corpus, and the p99 latency of one decision.
func BenchmarkGuardDecisions(b *testing.B) {
	cmds := corpusCommands(b)
	d := guard.NewDetector(guard.Options{})
	c := guard.Context{WorkDir: "/work/project", Home: "/home/dev"}
	for _, cmd := range cmds { // warm up
		d.CheckCommand(cmd, c)
	}
	const rounds = 20
	lat := make([]time.Duration, 0, rounds*len(cmds))
	b.ResetTimer()
	start := time.Now()
	for range rounds {
		for _, cmd := range cmds {
			t0 := time.Now()
			d.CheckCommand(cmd, c)
			lat = append(lat, time.Since(t0))
		}
	}
	total := time.Since(start)
	b.StopTimer()
	rate := float64(len(lat)) / total.Seconds()
	fmt.Printf("%-34s %.0f decisions/s on one goroutine over %d corpus commands (target ≥ 100000/s) | p50 %s p99 %s max %s\n",
		"guard decisions", rate, len(cmds), pct(lat, 0.5), pct(lat, 0.99), pct(lat, 1))
	// The worst case of one decision: 100 KiB commands.
	big := map[string]string{
		"chain":  strings.Repeat("echo x && ", 10<<10) + "true",
		"quoted": "echo '" + strings.Repeat("y", 100<<10) + "'",
		"nested": strings.Repeat("$(", 50) + "ls" + strings.Repeat(")", 50) + " " + strings.Repeat("a", 100<<10),
	}
	for name, cmd := range big {
		best := time.Hour
		for range 5 {
			t0 := time.Now()
			d.CheckCommand(cmd, c)
			best = min(best, time.Since(t0))
		}
		fmt.Printf("%-34s %s for a %d KiB command (%s; target < 10ms)\n", "guard 100 KiB input", best, len(cmd)>>10, name)
	}
	b.ReportMetric(rate, "decisions/s")
	b.ReportMetric(float64(pct(lat, 0.99).Nanoseconds()), "p99-ns")
}
