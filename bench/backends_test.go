package bench

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/hotplex/hotplex/agents"
	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
)

// BenchmarkBackends prints, for every agent that can run here, its cold
// start (from the first Execute to the turn's session_start: process
// start and handshake) and its warm turn time (p50 of a few turns on the
// hot session), all against the built-in model server on loopback.
func BenchmarkBackends(b *testing.B) {
	const warmTurns = 5
	model, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = model.Close() })
	env := append(os.Environ(), "HOME="+b.TempDir(), "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
		"DISABLE_ERROR_REPORTING=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	env = append(env, agents.ModelEnv(model.URL())...)
	cfg := agents.Config{Env: env, ToolsDir: toolsDir()}
	for _, a := range agents.Known(cfg) {
		if a.Provider == nil {
			fmt.Printf("%-16s not measured: %s\n", a.Name, a.Missing)
			continue
		}
		b.Run(a.Name, func(b *testing.B) {
			eng, err := engine.NewEngine(engine.EngineOptions{Provider: a.Provider, Env: env, IdleTimeout: -1, Logger: quiet()})
			if err != nil {
				b.Fatal(err)
			}
			defer eng.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			ec := &engine.Config{SessionID: "bench-" + a.Name, WorkDir: b.TempDir()}
			begin := time.Now()
			var cold time.Duration
			err = eng.Execute(ctx, ec, "hello", func(et string, data any) error {
				if et == event.TypeSessionStart && cold == 0 {
					cold = time.Since(begin)
				}
				return nil
			})
			if err != nil {
				b.Fatalf("%s: first turn: %v", a.Name, err)
			}
			first := time.Since(begin)
			var warm []time.Duration
			for i := range warmTurns {
				d, err := execTurn(ctx, eng, ec, fmt.Sprintf("warm turn %d", i))
				if err != nil {
					b.Fatalf("%s: warm turn: %v", a.Name, err)
				}
				warm = append(warm, d)
			}
			fmt.Printf("%-16s cold start %8.1f ms | first turn %8.1f ms | warm turn p50 %8.1f ms\n",
				a.Name, ms(cold), ms(first), ms(pct(warm, 0.5)))
			b.ReportMetric(ms(cold), "cold-start-ms")
			b.ReportMetric(ms(pct(warm, 0.5)), "warm-turn-ms")
		})
	}
}

// toolsDir is the project-local npm prefix, found from the bench directory.
func toolsDir() string {
	for _, d := range []string{"../.tools/npm", ".tools/npm"} {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d
		}
	}
	return ""
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
