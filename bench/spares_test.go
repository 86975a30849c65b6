package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/acp"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/provider/codex"
	"github.com/hotplex/hotplex/provider/opencode"
	"github.com/hotplex/hotplex/testkit"
)

// spareAgent is a real agent CLI that prewarms, set up against the
// scripted model at url with its state under home.
type spareAgent struct {
	name  string
	setup func(b *testing.B, url, home string) (provider.Provider, []string)
}

func spareAgents() []spareAgent {
	return []spareAgent{
		{"claude", func(b *testing.B, url, home string) (provider.Provider, []string) {
			return claude.New(claude.Options{Path: testkit.ClaudePath(b)}), testkit.OfflineEnvWithHome(home, url)
		}},
		{"claude-acp", func(b *testing.B, url, home string) (provider.Provider, []string) {
			p, err := acp.New(acp.ClaudeACP(testkit.ToolPath(b, "claude-acp/node_modules/.bin/claude-code-acp")))
			if err != nil {
				b.Fatal(err)
			}
			return p, testkit.OfflineEnvWithHome(home, url)
		}},
		{"codex", func(b *testing.B, url, home string) (provider.Provider, []string) {
			dir := filepath.Join(home, ".codex")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte("model = \"gpt-5.5\"\ncheck_for_update_on_startup = false\n"), 0o600); err != nil {
				b.Fatal(err)
			}
			path := testkit.ToolPath(b, "codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex")
			return codex.New(codex.Options{Path: path, Config: codex.ModelProvider(url+"/v1", "HOTPLEX_MODEL_KEY")}),
				append(testkit.OfflineEnvWithHome(home, url), "CODEX_HOME="+dir, "HOTPLEX_MODEL_KEY=sk-hotplex-test")
		}},
		{"opencode-serve", func(b *testing.B, url, home string) (provider.Provider, []string) {
			env := append(testkit.OfflineEnvWithHome(home, url), acp.OpenCodeAnthropicEnv(url, "sk-hotplex-test", "")...)
			env = append(env,
				"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
				"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
				"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
				"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
			)
			path := testkit.ToolPath(b, "opencode/node_modules/opencode-linux-x64/bin/opencode")
			return opencode.New(opencode.Options{Path: path}), env
		}},
	}
}

// BenchmarkSpareFirstReply: the first reply of a new conversation, each
// in a work directory of its own, on an engine that keeps a spare parked
// against one that starts the CLI for it, per agent that prewarms, the
// two taking turns so that both see the same machine noise
// (HOTPLEX_BENCH_SPARE_SAMPLES conversations each, default 5). Each engine
// holds one process at a time: the spare's refill waits for the measured
// turn to end instead of sharing its cores, as it would after 2 s of a
// turn (the slower agents' first turns take longer against the scripted
// model, which answers at once).
func BenchmarkSpareFirstReply(b *testing.B) {
	samples := benchCount("HOTPLEX_BENCH_SPARE_SAMPLES", 5)
	fmt.Printf("first reply of a new conversation, with a spare and without (%d each, p50)\n", samples)
	for _, a := range spareAgents() {
		b.Run(a.name, func(b *testing.B) {
			m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Default: &scriptedmodel.Reply{Text: []string{"pong"}}})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = m.Close() })
			home := filepath.Join(b.TempDir(), "home")
			if err := os.MkdirAll(home, 0o700); err != nil {
				b.Fatal(err)
			}
			p, env := a.setup(b, m.URL(), home)
			newEngine := func(spares int) *engine.Engine {
				eng, err := engine.NewEngine(engine.EngineOptions{Provider: p, Env: env, IdleTimeout: -1, Logger: quiet(), Spares: spares, MaxResident: 1})
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { _ = eng.Close() })
				return eng
			}
			cold, spare := newEngine(0), newEngine(1)
			ctx := context.Background()
			root := b.TempDir()
			turn := func(eng *engine.Engine, id string, want turnKind) time.Duration {
				dir := filepath.Join(root, id)
				if err := os.Mkdir(dir, 0o700); err != nil {
					b.Fatal(err)
				}
				var seq uint64
				d, k, err := timedTurn(ctx, eng, &engine.Config{SessionID: id, WorkDir: dir}, "hello", &seq)
				if err != nil || k != want {
					b.Fatalf("%s: kind %s, want %s: %v", id, kindNames[k], kindNames[want], err)
				}
				if err := eng.TerminateSession(id); err != nil {
					b.Fatal(err)
				}
				return d
			}
			var coldD, spareD []time.Duration
			for i := range samples {
				// Each start runs alone: the spare engine's refill is done first.
				waitSpare(b, spare)
				coldD = append(coldD, turn(cold, "cold-"+strconv.Itoa(i), kindCold))
				waitSpare(b, spare)
				spareD = append(spareD, turn(spare, "spare-"+strconv.Itoa(i), kindSpare))
			}
			sp, cp := pct(spareD, 0.5), pct(coldD, 0.5)
			fmt.Printf("  %-15s with a spare %9s | without %9s | ratio %.2f\n", a.name, sp.Round(time.Millisecond), cp.Round(time.Millisecond), float64(sp)/float64(cp))
			b.ReportMetric(float64(sp.Milliseconds()), "spare-ms")
			b.ReportMetric(float64(cp.Milliseconds()), "cold-ms")
			b.ReportMetric(float64(sp)/float64(cp), "spare/cold")
		})
	}
}
