package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

// turnKind classifies a turn by how it got its process.
type turnKind int

const (
	kindWarm    turnKind = iota // the session's process was hot
	kindCold                    // a new conversation's process was started
	kindSpare                   // a new conversation claimed a prewarmed spare
	kindResumed                 // a hibernated conversation was resumed
	kindQueued                  // any start that waited in the start queue (counted twice)
	kindCount
)

var kindNames = [kindCount]string{"warm", "cold", "spare", "resumed", "queued"}

// timedTurn runs one turn and reports its latency to the result, its kind,
// and whether its events arrived whole: a session_start first, a result
// last, sequence numbers without a gap from lastSeq on.
func timedTurn(ctx context.Context, eng *engine.Engine, cfg *engine.Config, prompt string, lastSeq *uint64) (time.Duration, turnKind, error) {
	d, k, _, err := timedTurnQ(ctx, eng, cfg, prompt, lastSeq)
	return d, k, err
}

// timedTurnQ is timedTurn that also reports whether the turn's start
// waited in the start queue.
func timedTurnQ(ctx context.Context, eng *engine.Engine, cfg *engine.Config, prompt string, lastSeq *uint64) (time.Duration, turnKind, bool, error) {
	begin := time.Now()
	var (
		took   time.Duration
		kind   = kindWarm
		queued bool
		broke  error
		first  = true
	)
	err := eng.Execute(ctx, cfg, prompt, func(et string, data any) error {
		ev := data.(*event.EventWithMeta)
		if *lastSeq != 0 && ev.Seq != *lastSeq+1 && broke == nil {
			broke = fmt.Errorf("%s: event %d after %d", cfg.SessionID, ev.Seq, *lastSeq)
		}
		*lastSeq = ev.Seq
		if first && et != event.TypeSessionStart && broke == nil {
			broke = fmt.Errorf("%s: turn opened with %s", cfg.SessionID, et)
		}
		first = false
		switch et {
		case event.TypeSessionStart:
			st := ev.SessionStart
			queued = st.QueuedMs > 0
			switch {
			case !st.ColdStart:
			case st.Spare:
				kind = kindSpare
			case st.Resumed:
				kind = kindResumed
			default:
				kind = kindCold
			}
		case event.TypeResult:
			took = time.Since(begin)
		}
		return nil
	})
	if err == nil && took == 0 {
		err = fmt.Errorf("%s: no result event", cfg.SessionID)
	}
	if err == nil {
		err = broke
	}
	return took, kind, queued, err
}

// latencies collects turn latencies by kind.
type latencies struct {
	mu sync.Mutex
	by [kindCount][]time.Duration
}

func (l *latencies) add(k turnKind, queued bool, d time.Duration) {
	l.mu.Lock()
	l.by[k] = append(l.by[k], d)
	if queued {
		l.by[kindQueued] = append(l.by[kindQueued], d)
	}
	l.mu.Unlock()
}

func (l *latencies) print(title string) {
	fmt.Printf("%s\n", title)
	for k := range kindCount {
		d := l.by[k]
		if len(d) == 0 {
			continue
		}
		fmt.Printf("  %-8s turns %6d  p50 %9s  p99 %9s\n", kindNames[k], len(d), pct(d, 0.5).Round(time.Microsecond), pct(d, 0.99).Round(time.Microsecond))
	}
}

func (l *latencies) p50(k turnKind) time.Duration {
	if len(l.by[k]) == 0 {
		return 0
	}
	return pct(l.by[k], 0.5)
}

// sampler prints the pool's resident count and measured memory now and
// then while a benchmark runs.
func sampler(eng *engine.Engine, every time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	begin := time.Now()
	wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			rss := eng.Pool().MeasureRSS()
			ps := eng.PoolStats()
			fmt.Printf("  t=%5.1fs resident %4d hibernated %5d starting %2d queued %4d spares %d  RSS %6.1f MiB\n",
				time.Since(begin).Seconds(), ps.Resident, ps.Hibernated, ps.Starting, ps.Queued, ps.Spares, float64(rss)/(1<<20))
		}
	})
	return func() { close(done); wg.Wait() }
}

// benchCount reads a count from the environment, or returns def.
func benchCount(key string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(key)); err == nil && n > 0 {
		return n
	}
	return def
}

// BenchmarkCapacityFakeAgent: ten thousand conversations of three turns
// each on at most 100 resident processes (HOTPLEX_BENCH_CONVERSATIONS
// sets another count). Each conversation's first two turns run
// back to back (a start, then a warm turn); its third comes after every
// other conversation had its first two, by when it has been hibernated and
// is resumed. Every event of every turn must arrive.
func BenchmarkCapacityFakeAgent(b *testing.B) {
	n := benchCount("HOTPLEX_BENCH_CONVERSATIONS", 10000)
	const resident, workers = 100, 32
	agent := testkit.BuildFakeAgent(b, b.TempDir())
	dir := b.TempDir()
	env := append(os.Environ(), "HOME="+b.TempDir())
	eng, err := engine.NewEngine(engine.EngineOptions{
		Provider: claude.New(claude.Options{Path: agent, Name: "fakeagent"}), Env: env, IdleTimeout: -1, Logger: quiet(),
		MaxResident: resident, Spares: 2, StartQueueTimeout: 5 * time.Minute,
	})
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close()
	var (
		lat      latencies
		failures atomic.Int64
		firstErr atomic.Value
		seqs     = make([]uint64, n)
	)
	run := func(turns func(i int)) {
		next := atomic.Int64{}
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for {
					i := int(next.Add(1)) - 1
					if i >= n {
						return
					}
					turns(i)
				}
			})
		}
		wg.Wait()
	}
	turn := func(i int, prompt string) {
		cfg := &engine.Config{SessionID: "conv-" + strconv.Itoa(i), WorkDir: dir, Owner: "owner-" + strconv.Itoa(i%8)}
		d, k, q, err := timedTurnQ(context.Background(), eng, cfg, prompt, &seqs[i])
		if err != nil {
			failures.Add(1)
			firstErr.CompareAndSwap(nil, err.Error())
			return
		}
		lat.add(k, q, d)
	}
	fmt.Printf("capacity, fakeagent: %d conversations x 3 turns, at most %d resident, %d callers\n", n, resident, workers)
	stop := sampler(eng, 5*time.Second)
	begin := time.Now()
	run(func(i int) {
		turn(i, "first turn")
		turn(i, "second turn")
	})
	run(func(i int) { turn(i, "history") })
	wall := time.Since(begin)
	stop()
	ps := eng.PoolStats()
	lat.print(fmt.Sprintf("  %d turns in %s (%.0f turns/s)", 3*n, wall.Round(time.Millisecond), float64(3*n)/wall.Seconds()))
	fmt.Printf("  cold starts %d, spare claims %d, resumes %d, hibernations %d, rejections %d, lost or failed turns %d\n",
		ps.ColdStarts, ps.SpareClaims, ps.Resumes, ps.Hibernations, ps.Rejections, failures.Load())
	if failures.Load() > 0 {
		b.Fatalf("%d turns failed or lost events; first: %v", failures.Load(), firstErr.Load())
	}
	if ps.Resident > resident {
		b.Fatalf("resident %d over the limit %d", ps.Resident, resident)
	}
	b.ReportMetric(float64(lat.p50(kindWarm).Microseconds()), "warm-p50-µs")
	b.ReportMetric(float64(lat.p50(kindResumed).Microseconds()), "resumed-p50-µs")
}

// BenchmarkCapacityClaude: the real CLI against the scripted model. First,
// the first reply of a new conversation with a parked spare against a cold
// start; then conversations of two turns over a fifth as many resident
// slots, the second turns warm for the conversations still resident and
// resumed for the hibernated ones: 200 over 40
// (HOTPLEX_BENCH_CLAUDE_CONVERSATIONS sets another count).
func BenchmarkCapacityClaude(b *testing.B) {
	f := newClaudeFixture(b)
	ctx := context.Background()

	// New conversations one after another: cold against spare.
	const samples = 8
	cold := f.engine(b, engine.EngineOptions{})
	spare := f.engine(b, engine.EngineOptions{Spares: 1})
	var coldD, spareD []time.Duration
	for i := range samples {
		// Each start runs alone: the spare engine's refill is done first.
		waitSpare(b, spare)
		var seq uint64
		d, k, err := timedTurn(ctx, cold, &engine.Config{SessionID: fmt.Sprintf("cold-%d", i), WorkDir: f.dir}, "hello", &seq)
		if err != nil || k != kindCold {
			b.Fatalf("cold turn: kind %s, %v", kindNames[k], err)
		}
		coldD = append(coldD, d)
		waitSpare(b, spare)
		seq = 0
		d, k, err = timedTurn(ctx, spare, &engine.Config{SessionID: fmt.Sprintf("spare-%d", i), WorkDir: f.dir}, "hello", &seq)
		if err != nil || k != kindSpare {
			b.Fatalf("spare turn: kind %s, %v", kindNames[k], err)
		}
		spareD = append(spareD, d)
	}
	_ = cold.Close()
	_ = spare.Close()
	fmt.Printf("capacity, claude: first reply of a new conversation (%d each)\n", samples)
	sp, cp := pct(spareD, 0.5), pct(coldD, 0.5)
	fmt.Printf("  with a spare p50 %9s | cold start p50 %9s | ratio %.2f (target <= 0.40)\n", sp.Round(time.Millisecond), cp.Round(time.Millisecond), float64(sp)/float64(cp))
	b.ReportMetric(float64(sp)/float64(cp), "spare/cold")

	// 200 conversations over 40 slots.
	convs := benchCount("HOTPLEX_BENCH_CLAUDE_CONVERSATIONS", 200)
	slots, workers := max(1, convs/5), 4
	eng := f.engine(b, engine.EngineOptions{MaxResident: slots, Spares: 2, StartQueueTimeout: 5 * time.Minute})
	var (
		lat   latencies
		seqs  = make([]uint64, convs)
		fails atomic.Int64
		first atomic.Value
	)
	run := func(prompt string, reverse bool) {
		next := atomic.Int64{}
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for {
					i := int(next.Add(1)) - 1
					if i >= convs {
						return
					}
					if reverse {
						i = convs - 1 - i
					}
					cfg := &engine.Config{SessionID: "conv-" + strconv.Itoa(i), WorkDir: f.dir}
					d, k, q, err := timedTurnQ(ctx, eng, cfg, prompt, &seqs[i])
					if err != nil {
						fails.Add(1)
						first.CompareAndSwap(nil, err.Error())
						continue
					}
					lat.add(k, q, d)
				}
			})
		}
		wg.Wait()
	}
	fmt.Printf("capacity, claude: %d conversations x 2 turns over %d resident slots, %d callers\n", convs, slots, workers)
	stop := sampler(eng, 10*time.Second)
	begin := time.Now()
	run("first", false)
	// Second turns newest first: warm for the conversations still
	// resident, resumed for the hibernated rest.
	run("second", true)
	wall := time.Since(begin)
	stop()
	lat.print(fmt.Sprintf("  %d turns in %s", 2*convs, wall.Round(time.Millisecond)))
	ps := eng.PoolStats()
	fmt.Printf("  cold starts %d, spare claims %d, resumes %d, hibernations %d, rejections %d, failed %d\n",
		ps.ColdStarts, ps.SpareClaims, ps.Resumes, ps.Hibernations, ps.Rejections, fails.Load())
	if w, r := lat.p50(kindWarm), lat.p50(kindResumed); w > 0 && r > 0 {
		fmt.Printf("  warm turn p50 %s against resumed turn p50 %s: ratio %.2f\n", w.Round(time.Millisecond), r.Round(time.Millisecond), float64(w)/float64(r))
	}
	if fails.Load() > 0 {
		b.Fatalf("%d turns failed; first: %v", fails.Load(), first.Load())
	}
}

func waitSpare(b *testing.B, eng *engine.Engine) {
	deadline := time.Now().Add(time.Minute)
	for eng.PoolStats().Spares < 1 {
		if time.Now().After(deadline) {
			b.Fatal("no spare parked within a minute")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// sdkFigures is what bench/testdata/agent_sdk.mjs prints.
type sdkFigures struct {
	ColdQueryMs    []float64 `json:"cold_query_ms"`
	WarmTurnMs     []float64 `json:"warm_turn_ms"`
	SpareFirstMs   []float64 `json:"spare_first_reply_ms"`
	WrapperRSSMiB  float64   `json:"wrapper_rss_mib"`
	WrapperHeapMiB float64   `json:"wrapper_heap_mib"`
}

// BenchmarkAgentSDKSideBySide: the official TypeScript Agent SDK driving
// the same CLI binary against the same scripted model, beside HotPlex:
// a cold query, a warm turn, the first reply of a new conversation on a
// prewarmed spare, and the wrapper's own memory.
func BenchmarkAgentSDKSideBySide(b *testing.B) {
	f := newClaudeFixture(b)
	node, err := exec.LookPath("node")
	if err != nil {
		b.Fatalf("node is needed to run the Agent SDK: %v", err)
	}
	root := testkit.ModuleRoot(b)
	const samples = 10
	script := filepath.Join(root, "bench", "testdata", "agent_sdk.mjs")
	sdkModule := filepath.Join(root, ".tools", "npm", "node_modules", "@anthropic-ai", "claude-agent-sdk", "sdk.mjs")
	if _, err := os.Stat(sdkModule); err != nil {
		b.Fatalf("the Agent SDK is not installed (run `make tools`): %v", err)
	}
	cmd := exec.Command(node, script, "file://"+sdkModule, f.path, f.dir, strconv.Itoa(samples))
	cmd.Env = f.env
	cmd.Dir = filepath.Join(root, "bench", "testdata")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("agent SDK script: %v", err)
	}
	var sdk sdkFigures
	line := out[strings.LastIndexByte(strings.TrimSpace(string(out)), '\n')+1:]
	if err := json.Unmarshal(line, &sdk); err != nil {
		b.Fatalf("agent SDK output %q: %v", out, err)
	}

	ctx := context.Background()
	// Measured as the script measures: each cold query and each spare's
	// conversation ends before the next begins, the spares' engine exists
	// only for its own measurements, and a spare is claimed 200 ms after
	// it parked.
	plain := f.engine(b, engine.EngineOptions{})
	var coldD, warmD, spareD []time.Duration
	for i := range samples {
		var seq uint64
		id := fmt.Sprintf("c%d", i)
		d, _, err := timedTurn(ctx, plain, &engine.Config{SessionID: id, WorkDir: f.dir}, "hello", &seq)
		if err != nil {
			b.Fatal(err)
		}
		coldD = append(coldD, d)
		if err := plain.TerminateSession(id); err != nil {
			b.Fatal(err)
		}
	}
	// Warm turns: one conversation, warmed up by a turn, then a prompt at
	// a time.
	var seq uint64
	warm := &engine.Config{SessionID: "warm", WorkDir: f.dir}
	if _, _, err := timedTurn(ctx, plain, warm, "warm up", &seq); err != nil {
		b.Fatal(err)
	}
	for i := range samples {
		d, _, err := timedTurn(ctx, plain, warm, fmt.Sprintf("again %d", i), &seq)
		if err != nil {
			b.Fatal(err)
		}
		warmD = append(warmD, d)
	}
	if err := plain.TerminateSession("warm"); err != nil {
		b.Fatal(err)
	}
	spare := f.engine(b, engine.EngineOptions{Spares: 1})
	for i := range samples {
		waitSpare(b, spare)
		time.Sleep(200 * time.Millisecond)
		seq = 0
		id := fmt.Sprintf("s%d", i)
		d, _, err := timedTurn(ctx, spare, &engine.Config{SessionID: id, WorkDir: f.dir}, "hello", &seq)
		if err != nil {
			b.Fatal(err)
		}
		spareD = append(spareD, d)
		if err := spare.TerminateSession(id); err != nil {
			b.Fatal(err)
		}
	}
	rss, heap := selfMemory()
	ms := func(d []time.Duration) float64 { return float64(pct(d, 0.5).Microseconds()) / 1000 }
	med := func(v []float64) float64 {
		if len(v) == 0 {
			return 0
		}
		d := make([]time.Duration, len(v))
		for i, x := range v {
			d[i] = time.Duration(x * float64(time.Millisecond))
		}
		return float64(pct(d, 0.5).Microseconds()) / 1000
	}
	fmt.Printf("side by side with @anthropic-ai/claude-agent-sdk (same CLI, same model server, %d samples, p50):\n", samples)
	row := func(name string, h, s float64, unit string) {
		fmt.Printf("  %-36s hotplex %8.1f %s | agent sdk %8.1f %s | ratio %.2f\n", name, h, unit, s, unit, h/s)
	}
	row("cold query (new process, first reply)", ms(coldD), med(sdk.ColdQueryMs), "ms")
	row("warm turn", ms(warmD), med(sdk.WarmTurnMs), "ms")
	row("new conversation on a prewarmed spare", ms(spareD), med(sdk.SpareFirstMs), "ms")
	row("wrapper resident memory", rss, sdk.WrapperRSSMiB, "MiB")
	fmt.Printf("  wrapper heap: hotplex %.1f MiB | agent sdk %.1f MiB\n", heap, sdk.WrapperHeapMiB)
}

// selfMemory returns this process's resident memory and Go heap in MiB.
// The benchmark binary also holds the test framework, so this overstates
// what HotPlex itself needs.
func selfMemory() (rss, heap float64) {
	h, _ := memInUse()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, float64(h) / (1 << 20)
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			rss = kb / 1024
		}
	}
	return rss, float64(h) / (1 << 20)
}
