// Package bench measures HotPlex against baselines taken in the same run:
// a raw pipe driver on the same agent process, the raw CLI's cold start,
// and a one-shot `claude -p`. Run with `make bench`; each benchmark prints
// its figures and ratios.
package bench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func pct(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func report(b *testing.B, name string, hotplex, baseline []time.Duration) (p50h, p50b time.Duration) {
	p50h, p50b = pct(hotplex, 0.5), pct(baseline, 0.5)
	fmt.Printf("%-34s hotplex p50 %9s p99 %9s | baseline p50 %9s p99 %9s | p50 difference %+9s | ratio %.3f\n",
		name, p50h, pct(hotplex, 0.99), p50b, pct(baseline, 0.99), p50h-p50b, float64(p50h)/float64(p50b))
	b.ReportMetric(float64(p50h.Microseconds()), "hotplex-p50-µs")
	b.ReportMetric(float64(p50b.Microseconds()), "baseline-p50-µs")
	return p50h, p50b
}

func newEngine(b *testing.B, p *claude.Provider, env []string) *engine.Engine {
	eng, err := engine.NewEngine(engine.EngineOptions{Provider: p, Env: env, IdleTimeout: -1, Logger: quiet()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = eng.Close() })
	return eng
}

func execTurn(ctx context.Context, eng *engine.Engine, cfg *engine.Config, prompt string) (time.Duration, error) {
	start := time.Now()
	var firstResult time.Duration
	err := eng.Execute(ctx, cfg, prompt, func(et string, _ any) error {
		if et == event.TypeResult && firstResult == 0 {
			firstResult = time.Since(start)
		}
		return nil
	})
	return firstResult, err
}

// BenchmarkFakeAgentWarmTurnOverhead: the engine's cost per warm turn,
// against a raw pipe round-trip to the same fake agent binary.
func BenchmarkFakeAgentWarmTurnOverhead(b *testing.B) {
	const turns = 4000
	dir := b.TempDir()
	agent := testkit.BuildFakeAgent(b, b.TempDir())
	env := append(os.Environ(), "HOME="+b.TempDir())
	eng := newEngine(b, claude.New(claude.Options{Path: agent, Name: "fakeagent"}), env)
	ctx := context.Background()
	cfg := &engine.Config{SessionID: "warm", WorkDir: dir}
	if _, err := execTurn(ctx, eng, cfg, "warm up"); err != nil {
		b.Fatal(err)
	}
	raw, err := startRaw(agent, dir, env, uuid.NewString())
	if err != nil {
		b.Fatal(err)
	}
	defer raw.close()
	if err := raw.initialize(); err != nil || raw.waitFor("raw-init") != nil {
		b.Fatal("raw init failed", err)
	}
	hp, rw := warmTurns(b, turns, eng, cfg, raw)
	report(b, "fakeagent warm turn", hp, rw)
	// Each engine turn is paired with the raw turn that ran right after it,
	// so the median of the differences cancels the machine's slow spells.
	over := pairedOverhead(hp, rw)
	fmt.Printf("%-34s %s per turn, median of %d paired differences (target ≤ 50µs)\n", "  engine overhead", over, len(hp))
	b.ReportMetric(float64(over.Microseconds()), "overhead-p50-µs")
}

// pairedOverhead is the median of a[i]-b[i].
func pairedOverhead(a, b []time.Duration) time.Duration {
	d := make([]time.Duration, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return pct(d, 0.5)
}

// warmTurns times n warm turns through the engine and through the raw
// driver, alternating so that both see the same machine noise.
func warmTurns(b *testing.B, n int, eng *engine.Engine, cfg *engine.Config, raw *rawDriver) (hotplex, baseline []time.Duration) {
	ctx := context.Background()
	b.ResetTimer()
	defer b.StopTimer()
	for i := range n {
		prompt := "ping " + strconv.Itoa(i)
		d, err := execTurn(ctx, eng, cfg, prompt)
		if err != nil {
			b.Fatal(err)
		}
		hotplex = append(hotplex, d)
		start := time.Now()
		if err := raw.turn(prompt); err != nil {
			b.Fatal(err)
		}
		baseline = append(baseline, time.Since(start))
	}
	return hotplex, baseline
}

// BenchmarkIdleSessionMemory: the engine's own memory per idle hot session,
// excluding the child process.
func BenchmarkIdleSessionMemory(b *testing.B) {
	const sessions = 200
	dir := b.TempDir()
	agent := testkit.BuildFakeAgent(b, b.TempDir())
	env := append(os.Environ(), "HOME="+b.TempDir())
	eng := newEngine(b, claude.New(claude.Options{Path: agent, Name: "fakeagent"}), env)
	ctx := context.Background()
	// One session first, so one-time allocations are not counted.
	if _, err := execTurn(ctx, eng, &engine.Config{SessionID: "first", WorkDir: dir}, "hi"); err != nil {
		b.Fatal(err)
	}
	heap0, stack0 := memInUse()
	for i := range sessions {
		if _, err := execTurn(ctx, eng, &engine.Config{SessionID: "idle-" + strconv.Itoa(i), WorkDir: dir}, "hi"); err != nil {
			b.Fatal(err)
		}
	}
	heap1, stack1 := memInUse()
	heap, stack := (heap1-heap0)/sessions, (stack1-stack0)/sessions
	per := heap + stack
	fmt.Printf("%-34s %.1f KiB per idle session (heap %.1f + goroutine stacks %.1f, %d sessions; target ≤ 64 KiB)\n",
		"engine memory", float64(per)/1024, float64(heap)/1024, float64(stack)/1024, sessions)
	b.ReportMetric(float64(per)/1024, "KiB/session")
}

func memInUse() (heap, stack int64) {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc), int64(m.StackInuse)
}

// claudeFixture is the real CLI against the scripted model.
type claudeFixture struct {
	path string
	env  []string
	dir  string
}

// engine returns an engine on the fixture's claude CLI and model with
// options o, closed when the benchmark ends.
func (f *claudeFixture) engine(b *testing.B, o engine.EngineOptions) *engine.Engine {
	o.Provider = claude.New(claude.Options{Path: f.path})
	o.Env, o.IdleTimeout, o.Logger = f.env, -1, quiet()
	eng, err := engine.NewEngine(o)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = eng.Close() })
	return eng
}

func newClaudeFixture(b *testing.B) *claudeFixture {
	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Default: &scriptedmodel.Reply{Text: []string{"pong"}}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = m.Close() })
	return &claudeFixture{path: testkit.ClaudePath(b), env: testkit.OfflineEnv(b, m.URL()), dir: b.TempDir()}
}

// BenchmarkClaudeWarmTurn: a warm turn through HotPlex against the same
// CLI held by the raw driver.
func BenchmarkClaudeWarmTurn(b *testing.B) {
	const turns = 60
	f := newClaudeFixture(b)
	eng := f.engine(b, engine.EngineOptions{})
	ctx := context.Background()
	cfg := &engine.Config{SessionID: "warm", WorkDir: f.dir}
	raw, err := startRaw(f.path, f.dir, f.env, uuid.NewString())
	if err != nil {
		b.Fatal(err)
	}
	defer raw.close()
	if err := raw.initialize(); err != nil || raw.waitFor("raw-init") != nil {
		b.Fatal("raw init failed")
	}
	for range 3 { // warm both up
		if _, err := execTurn(ctx, eng, cfg, "warm up"); err != nil {
			b.Fatal(err)
		}
		if err := raw.turn("warm up"); err != nil {
			b.Fatal(err)
		}
	}
	hp, rw := warmTurns(b, turns, eng, cfg, raw)
	report(b, "claude warm turn", hp, rw)
	fmt.Printf("%-34s %s per turn, median of %d paired differences (target ≤ +2ms)\n", "  engine overhead", pairedOverhead(hp, rw), len(hp))
}

// BenchmarkClaudeColdStart: spawn → first result of a new conversation,
// through HotPlex and through the raw driver (which pipelines initialize
// and the prompt without waiting).
func BenchmarkClaudeColdStart(b *testing.B) {
	const starts = 8
	f := newClaudeFixture(b)
	eng := f.engine(b, engine.EngineOptions{})
	ctx := context.Background()
	var hp, rw []time.Duration
	b.ResetTimer()
	for i := range starts {
		cfg := &engine.Config{SessionID: "cold-" + strconv.Itoa(i), WorkDir: f.dir}
		d, err := execTurn(ctx, eng, cfg, "ping")
		if err != nil {
			b.Fatal(err)
		}
		hp = append(hp, d)
		if err := eng.TerminateSession(cfg.SessionID); err != nil {
			b.Fatal(err)
		}

		start := time.Now()
		raw, err := startRaw(f.path, f.dir, f.env, uuid.NewString())
		if err != nil {
			b.Fatal(err)
		}
		if err := raw.initialize(); err != nil {
			b.Fatal(err)
		}
		if err := raw.turn("ping"); err != nil {
			b.Fatal(err)
		}
		rw = append(rw, time.Since(start))
		raw.close()
	}
	b.StopTimer()
	report(b, "claude cold start → first result", hp, rw)
	fmt.Printf("%-34s %s, median of %d paired differences (target ≤ +15ms)\n", "  engine overhead", pairedOverhead(hp, rw), len(hp))
}

// BenchmarkClaudeWarmVsOneShot: a warm HotPlex turn against `claude -p`
// started for one prompt, the way most wrappers call it.
func BenchmarkClaudeWarmVsOneShot(b *testing.B) {
	const runs = 5
	f := newClaudeFixture(b)
	eng := f.engine(b, engine.EngineOptions{})
	ctx := context.Background()
	cfg := &engine.Config{SessionID: "warm", WorkDir: f.dir}
	if _, err := execTurn(ctx, eng, cfg, "warm up"); err != nil {
		b.Fatal(err)
	}
	var hp, one []time.Duration
	b.ResetTimer()
	for i := range runs {
		d, err := execTurn(ctx, eng, cfg, "ping "+strconv.Itoa(i))
		if err != nil {
			b.Fatal(err)
		}
		hp = append(hp, d)
		cmd := exec.Command(f.path, "-p", "ping")
		cmd.Dir, cmd.Env = f.dir, f.env
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("claude -p: %v: %s", err, out)
		}
		one = append(one, time.Since(start))
	}
	b.StopTimer()
	h, o := report(b, "claude warm turn vs one-shot -p", hp, one)
	fmt.Printf("%-34s warm is %.1fx faster than one-shot (target ≥ 10x)\n", "", float64(o)/float64(h))
}
