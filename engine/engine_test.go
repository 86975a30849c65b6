package engine_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/clocktest"
	"github.com/hotplex/hotplex/internal/fakeprovider"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
	"golang.org/x/sys/unix"
)

var fakeAgentPath string

func TestMain(m *testing.M) {
	os.Exit(testkit.MainWithFakeAgent(m, &fakeAgentPath))
}

// bash is the fakeagent directive that runs cmd through its Bash tool.
func bash(cmd string) string { return "bash:" + base64.RawURLEncoding.EncodeToString([]byte(cmd)) }

type fixture struct {
	eng  *engine.Engine
	dir  string
	home string
	opts engine.EngineOptions
}

// newFixture starts an engine on the fake agent. Its cleanup closes the
// engine and then checks that no process and no goroutine outlived it.
func newFixture(t *testing.T, opts engine.EngineOptions, popts ...func(*claude.Options)) *fixture {
	t.Helper()
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	f := &fixture{dir: t.TempDir(), home: t.TempDir()}
	co := claude.Options{Path: fakeAgentPath, Name: "fakeagent", Timeouts: provider.Timeouts{TerminateGrace: 500 * time.Millisecond}}
	for _, o := range popts {
		o(&co)
	}
	opts.Provider = claude.New(co)
	if opts.Env == nil {
		opts.Env = append(os.Environ(), "HOME="+f.home)
	}
	if opts.IdleTimeout == 0 {
		opts.IdleTimeout = -1
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	f.opts = opts
	eng, err := engine.NewEngine(opts)
	if err != nil {
		t.Fatal(err)
	}
	f.eng = eng
	t.Cleanup(func() { _ = eng.Close() })
	return f
}

func (f *fixture) run(t *testing.T, id, prompt string) (*testkit.Recorder, error) {
	t.Helper()
	r := &testkit.Recorder{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := f.eng.Execute(ctx, &engine.Config{SessionID: id, WorkDir: f.dir}, prompt, r.Callback)
	return r, err
}

func (f *fixture) mustRun(t *testing.T, id, prompt string) *testkit.Recorder {
	t.Helper()
	r, err := f.run(t, id, prompt)
	if err != nil {
		t.Fatalf("Execute(%q): %v", prompt, err)
	}
	return r
}

func status(t *testing.T, f *fixture, id string) engine.SessionStatus {
	t.Helper()
	s, ok := f.eng.GetSession(id)
	if !ok {
		t.Fatalf("session %s not found", id)
	}
	return s.Status
}

func TestHotReuseAndEventOrder(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{Namespace: "ns"})
	r1 := f.mustRun(t, "s1", "think hello")
	want := []string{event.TypeSessionStart, event.TypeSystem, event.TypeSystem, event.TypeThinking, event.TypeAnswer, event.TypeSessionStats, event.TypeResult}
	if got := r1.Types(); !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	s1 := r1.First(event.TypeSessionStart)
	if !s1.ColdStart || s1.Resumed || s1.ProviderSessionID != engine.ProviderSessionID("ns", "s1") {
		t.Fatalf("first start = %+v", s1.SessionStart)
	}
	r2 := f.mustRun(t, "s1", "again")
	s2 := r2.First(event.TypeSessionStart)
	if s2.ColdStart || s2.PID != s1.PID {
		t.Fatalf("second turn not hot: %+v", s2.SessionStart)
	}
	if ans := r2.First(event.TypeAnswer); ans.EventData != "echo: again" {
		t.Fatalf("answer = %q", ans.EventData)
	}
	// Sequence numbers run on across turns.
	if r2.Events()[0].Seq != r1.Events()[len(r1.Events())-1].Seq+1 {
		t.Fatalf("seq does not continue: %d after %d", r2.Events()[0].Seq, r1.Events()[len(r1.Events())-1].Seq)
	}
	sess, ok := f.eng.GetSession("s1")
	if !ok || sess.Status != engine.StatusIdle || sess.PID != s1.PID || sess.CCSessionID != sess.ProviderSessionID {
		t.Fatalf("GetSession = %+v, %v", sess, ok)
	}
	if st := sess.Stats(); st.Turns != 2 || st.TotalCostUSD <= 0 || st.ModelUsed == "" {
		t.Fatalf("stats = %+v", st)
	}
}

func TestProviderSessionIDIsStablePerNamespace(t *testing.T) {
	a := engine.ProviderSessionID("app-a", "conv")
	if a != engine.ProviderSessionID("app-a", "conv") {
		t.Fatal("not deterministic")
	}
	if a == engine.ProviderSessionID("app-b", "conv") || a == engine.ProviderSessionID("app-a", "conv2") {
		t.Fatal("namespaces or conversations collide")
	}
	if engine.ProviderSessionID("ab", "c") == engine.ProviderSessionID("a", "bc") {
		t.Fatal("concatenation is ambiguous")
	}
	if a[14] != '5' {
		t.Fatalf("%s is not a version 5 UUID", a)
	}
}

func TestGetOrCreateSession(t *testing.T) {
	f := newFake(t, engine.EngineOptions{}, nil)
	c := testCtx(t)
	s, cold, err := f.eng.Pool().GetOrCreateSession(c, "g", engine.SessionConfig{WorkDir: f.dir}, "")
	if err != nil || !cold || s.PID == 0 || s.Status != engine.StatusIdle {
		t.Fatalf("first: %+v cold=%v err=%v", s, cold, err)
	}
	s2, cold, err := f.eng.Pool().GetOrCreateSession(c, "g", engine.SessionConfig{WorkDir: f.dir}, "")
	if err != nil || cold || s2.PID != s.PID {
		t.Fatalf("second: %+v cold=%v err=%v", s2, cold, err)
	}
	if _, _, err := f.eng.Pool().GetOrCreateSession(c, "g", engine.SessionConfig{WorkDir: t.TempDir()}, ""); !errors.Is(err, engine.ErrInvalidWorkDir) {
		t.Fatalf("another work dir for the same session: %v", err)
	}
	if n := len(f.eng.ListActiveSessions()); n != 1 {
		t.Fatalf("ListActiveSessions = %d", n)
	}
	if err := f.eng.TerminateSession("g"); err != nil {
		t.Fatal(err)
	}
	if !f.prov.Process("g").Closed() {
		t.Fatal("process survived TerminateSession")
	}
	if _, ok := f.eng.GetSession("g"); ok {
		t.Fatal("session still listed")
	}
	if err := f.eng.TerminateSession("g"); !errors.Is(err, engine.ErrSessionNotFound) {
		t.Fatalf("second terminate: %v", err)
	}
}

func TestConcurrentExecuteNeverInterleaves(t *testing.T) {
	f := newFake(t, engine.EngineOptions{}, nil)
	const callers = 8
	var wg sync.WaitGroup
	recs := make([]*testkit.Recorder, callers)
	errs := make([]error, callers)
	for i := range callers {
		wg.Go(func() {
			recs[i], errs[i] = f.run(t, "shared", fmt.Sprintf("blocks:3 caller-%d", i))
		})
	}
	wg.Wait()
	type span struct{ first, last uint64 }
	var spans []span
	for i, r := range recs {
		if errs[i] != nil {
			t.Fatalf("caller %d: %v", i, errs[i])
		}
		for j := 1; j < len(r.Events()); j++ {
			if r.Events()[j].Seq != r.Events()[j-1].Seq+1 {
				t.Fatalf("caller %d: events interleaved (seq %d then %d)", i, r.Events()[j-1].Seq, r.Events()[j].Seq)
			}
		}
		if n := len(r.All(event.TypeAnswer)); n != 3 {
			t.Fatalf("caller %d got %d answers", i, n)
		}
		spans = append(spans, span{r.Events()[0].Seq, r.Events()[len(r.Events())-1].Seq})
	}
	slices.SortFunc(spans, func(a, b span) int { return int(a.first) - int(b.first) })
	for i := 1; i < len(spans); i++ {
		if spans[i].first != spans[i-1].last+1 {
			t.Fatalf("turns overlap or leave gaps: %v", spans)
		}
	}
	if n := len(f.prov.Processes()); n != 1 {
		t.Fatalf("%d processes for one session", n)
	}
}

func TestFailFastWhenBusy(t *testing.T) {
	f := newFake(t, engine.EngineOptions{FailFastWhenBusy: true}, nil)
	f.mustRun(t, "b", "warm")
	long := f.goRun(t, "", "b", "wait:b")
	arrivals(t, f.prov.Gate("b"), 1)
	if _, err := f.run(t, "b", "second"); !errors.Is(err, engine.ErrSessionBusy) {
		t.Fatalf("want ErrSessionBusy, got %v", err)
	}
	f.prov.Gate("b").Open()
	if err := long.wait(t); err != nil {
		t.Fatal(err)
	}
}

func TestManySessionsLoseNoEvent(t *testing.T) {
	sessions, turns := 200, 5
	f := newFake(t, engine.EngineOptions{}, nil)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	for i := range sessions {
		wg.Go(func() {
			id := "load-" + strconv.Itoa(i)
			for turn := range turns {
				prompt := fmt.Sprintf("blocks:2 t%d", turn)
				r, err := f.run(t, id, prompt)
				got := r.Types()
				want := []string{event.TypeSessionStart, event.TypeAnswer, event.TypeAnswer, event.TypeSessionStats, event.TypeResult}
				if err != nil || !slices.Equal(got, want) {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("%s turn %d: %v %v", id, turn, err, got))
					mu.Unlock()
					return
				}
			}
		})
	}
	wg.Wait()
	if len(failures) > 0 {
		t.Fatalf("%d failures, first: %s", len(failures), failures[0])
	}
	if n := len(f.eng.ListActiveSessions()); n != sessions {
		t.Fatalf("%d sessions listed, want %d", n, sessions)
	}
}

func TestCancelInterruptsAndLeavesNoStaleOutput(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{})
	pid := f.mustRun(t, "c", "warm").First(event.TypeSessionStart).PID
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &testkit.Recorder{}
	// Cancelled once the agent is in its turn (its init frame came),
	// which would otherwise last 20 s.
	err := f.eng.Execute(ctx, &engine.Config{SessionID: "c", WorkDir: f.dir}, "sleep:20000 "+bash("sleep 30"), func(et string, data any) error {
		if et == event.TypeSystem {
			cancel()
		}
		return r.Callback(et, data)
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	if res := r.First(event.TypeResult); res == nil || !res.Turn.Interrupted {
		t.Fatalf("the turn must close with an interrupted result: %v", r.Types())
	}
	r2 := f.mustRun(t, "c", "after")
	if r2.First(event.TypeSessionStart).PID != pid {
		t.Fatal("the process was replaced")
	}
	if got := r2.First(event.TypeAnswer).EventData; got != "echo: after" {
		t.Fatalf("stale output: %q", got)
	}
}

func TestTurnTimeout(t *testing.T) {
	// The turn waits at a gate that never opens: only the timeout ends it.
	f := newFake(t, engine.EngineOptions{Timeout: 10 * time.Millisecond}, nil)
	r, err := f.run(t, "t", "wait:never")
	if !errors.Is(err, engine.ErrTurnTimeout) {
		t.Fatalf("want ErrTurnTimeout, got %v", err)
	}
	if res := r.First(event.TypeResult); res == nil || !res.Turn.Interrupted {
		t.Fatalf("the turn must close with an interrupted result: %v", r.Types())
	}
	if r := f.mustRun(t, "t", "quick"); r.First(event.TypeAnswer).EventData != "echo: quick" {
		t.Fatal("session unusable after a timeout")
	}
}

func TestCrashReturnsSessionDeadThenResumes(t *testing.T) {
	f := newFake(t, engine.EngineOptions{}, nil)
	f.mustRun(t, "x", "first prompt")
	r, err := f.run(t, "x", "crash")
	if !errors.Is(err, engine.ErrSessionDead) {
		t.Fatalf("want ErrSessionDead, got %v", err)
	}
	if !strings.Contains(err.Error(), "crashing on purpose") {
		t.Fatalf("error lacks the stderr tail: %v", err)
	}
	if types := r.Types(); types[len(types)-1] != event.TypeResult || !slices.Contains(types, event.TypeError) {
		t.Fatalf("a crashed turn must report error and close with result: %v", types)
	}
	if st := f.status(t, "x"); st != engine.StatusError {
		t.Fatalf("after a crash the session is %s, want error", st)
	}
	r2 := f.mustRun(t, "x", "history")
	st := r2.First(event.TypeSessionStart)
	if !st.ColdStart || !st.Resumed {
		t.Fatalf("not resumed: %+v", st.SessionStart)
	}
	if got := r2.First(event.TypeAnswer).EventData; !strings.Contains(got, "first prompt") {
		t.Fatalf("resumed conversation forgot its history: %q", got)
	}
}

func TestKilledWhileIdleResumesTransparently(t *testing.T) {
	f := newFake(t, engine.EngineOptions{}, nil)
	pid := f.mustRun(t, "k", "remember me").First(event.TypeSessionStart).PID
	f.prov.Process("k").Kill()
	r := f.mustRun(t, "k", "history")
	st := r.First(event.TypeSessionStart)
	if st.PID == pid || !st.Resumed {
		t.Fatalf("want a resumed new process: %+v", st.SessionStart)
	}
	if got := r.First(event.TypeAnswer).EventData; got != "remember me" {
		t.Fatalf("history lost: %q", got)
	}
}

func TestStaleResumeRecordFallsBack(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{})
	pid := f.mustRun(t, "r", "one").First(event.TypeSessionStart).PID
	// The CLI's record of the conversation disappears (a wiped HOME).
	if err := os.RemoveAll(filepath.Join(f.home, ".claude")); err != nil {
		t.Fatal(err)
	}
	testkit.KillAndWait(t, pid)
	r := f.mustRun(t, "r", "three")
	st := r.First(event.TypeSessionStart)
	if st.Resumed || st.Fallback == "" {
		t.Fatalf("want a fresh start that says why: %+v", st.SessionStart)
	}
}

func TestTerminateLeavesNoDescendants(t *testing.T) {
	for _, how := range []string{"terminate", "shutdown", "reaper"} {
		t.Run(how, func(t *testing.T) {
			clock := clocktest.New()
			opts := engine.EngineOptions{Clock: clock}
			if how == "reaper" {
				opts.IdleTimeout, opts.ReapInterval = time.Minute, time.Second
			}
			f := newFixture(t, opts)
			pids := filepath.Join(f.dir, "pids")
			script := fmt.Sprintf(`sleep 1000 & echo $! >> %[1]s
nohup sleep 1000 >/dev/null 2>&1 & echo $! >> %[1]s
setsid sleep 1000 & echo $! >> %[1]s
(setsid sh -c 'sleep 1000 & echo $! >> %[1]s' &)
sleep 0.2; echo started`, pids)
			r := f.mustRun(t, "d", bash(script))
			leader := r.First(event.TypeSessionStart).PID
			b, err := os.ReadFile(pids)
			if err != nil {
				t.Fatal(err)
			}
			var children []int
			for _, l := range strings.Fields(string(b)) {
				pid, _ := strconv.Atoi(l)
				children = append(children, pid)
			}
			if len(children) != 4 {
				t.Fatalf("children = %v", children)
			}
			for _, pid := range children {
				if !proc.Alive(pid) {
					t.Fatalf("child %d died before the test", pid)
				}
			}
			switch how {
			case "terminate":
				if err := f.eng.TerminateSession("d"); err != nil {
					t.Fatal(err)
				}
			case "shutdown":
				f.eng.Pool().Shutdown()
			case "reaper":
				reapRound(t, clock, 2*time.Minute, time.Second)
				s, _ := f.eng.GetSession("d")
				if s == nil || s.Status != engine.StatusHibernated || s.PID != 0 {
					t.Fatalf("reaped session status: %+v", s)
				}
			}
			// Each way returns (or ends its round) only when the tree is
			// gone.
			for _, pid := range append(children, leader) {
				if proc.Alive(pid) {
					t.Fatalf("process %d survived %s", pid, how)
				}
			}
		})
	}
}

// reapRound lets the reaper, the only user of clock, run a round that
// sees the clock advanced by d: it re-arms its alarm only when a round is
// done, so an armed timer means the round is over.
func reapRound(t *testing.T, clock *clocktest.Clock, d, every time.Duration) {
	t.Helper()
	wait := func() {
		if err := clock.WaitTimers(testCtx(t), 1); err != nil {
			t.Fatal(err)
		}
	}
	wait()
	clock.Advance(d)
	wait()
	clock.Advance(every) // a round that started after the first advance
	wait()
}

func TestReaperSparesBusySessions(t *testing.T) {
	const idle, every = time.Minute, time.Second
	f := newFake(t, engine.EngineOptions{IdleTimeout: idle, ReapInterval: every}, nil)
	r := f.mustRun(t, "busy", "warm")
	pid := r.First(event.TypeSessionStart).PID
	long := f.goRun(t, "", "busy", "wait:busy")
	arrivals(t, f.prov.Gate("busy"), 1)
	reapRound(t, f.clock, 2*idle, every)
	if st := f.status(t, "busy"); st != engine.StatusRunning {
		t.Fatalf("the reaper touched a busy session: %s", st)
	}
	f.prov.Gate("busy").Open()
	if err := long.wait(t); err != nil {
		t.Fatal(err)
	}
	// Right after its turn the session counts as active again.
	reapRound(t, f.clock, idle/2, every)
	if got := f.mustRun(t, "busy", "right after").First(event.TypeSessionStart).PID; got != pid {
		t.Fatal("the session was reaped while busy or right after")
	}
	// Idle past the timeout, it is reaped.
	reapRound(t, f.clock, 2*idle, every)
	if s, _ := f.eng.GetSession("busy"); s.Status != engine.StatusHibernated || s.PID != 0 || !f.prov.Process("busy").Closed() {
		t.Fatalf("idle session not reaped: %+v", s)
	}
}

func TestPermissionPolicy(t *testing.T) {
	cases := []struct {
		name    string
		opts    engine.EngineOptions
		denied  bool
		reason  string
		request bool // a permission_request event is expected
	}{
		{name: "all tools allowed by default", request: true},
		{name: "disallowed", opts: engine.EngineOptions{DisallowedTools: []string{"Bash"}}, denied: true, reason: "disallowed"},
		{name: "not in the allow list", opts: engine.EngineOptions{AllowedTools: []string{"Read"}}, denied: true, reason: "not among the tools allowed"},
		{name: "allowed by rule", opts: engine.EngineOptions{AllowedTools: []string{"Bash(touch:*)"}}, request: true},
		{name: "handler denies first", denied: true, reason: "firewall says no", opts: engine.EngineOptions{
			PermissionHandler: func(_ context.Context, req engine.PermissionRequest) provider.ToolDecision {
				if req.Kind == provider.PreToolUse && strings.Contains(fmt.Sprint(req.Input["command"]), "touch") {
					return provider.ToolDecision{Behavior: provider.Deny, Message: "firewall says no"}
				}
				return provider.ToolDecision{}
			}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.opts)
			r := f.mustRun(t, "p", bash("touch made.txt && echo made"))
			_, statErr := os.Stat(filepath.Join(f.dir, "made.txt"))
			res := r.First(event.TypeToolResult)
			if res == nil {
				t.Fatalf("no tool_result: %v", r.Types())
			}
			if tc.denied {
				if statErr == nil {
					t.Fatal("a denied tool ran")
				}
				if res.Meta.Status != "error" || !strings.Contains(res.EventData, tc.reason) {
					t.Fatalf("model was not told why: %q", res.EventData)
				}
				dec := r.First(event.TypePermissionDecision)
				if dec == nil || dec.Permission.Decision != "deny" {
					t.Fatalf("no deny decision event: %v", r.Types())
				}
			} else if statErr != nil || res.Meta.Status != "success" {
				t.Fatalf("allowed tool did not run: %v %+v", statErr, res.Meta)
			}
			if got := r.First(event.TypePermissionRequest) != nil; got != tc.request {
				t.Fatalf("permission_request present = %v, want %v (%v)", got, tc.request, r.Types())
			}
			if st := r.First(event.TypeSessionStats).Stats; st.ToolCallCount != 1 || !slices.Contains(st.ToolsUsed, "Bash") {
				t.Fatalf("stats: %+v", st)
			}
		})
	}
}

func TestCallbackErrorStopsTheTurn(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{})
	boom := errors.New("client went away")
	ctx := context.Background()
	err := f.eng.Execute(ctx, &engine.Config{SessionID: "cb", WorkDir: f.dir}, "blocks:3 sleep:3000", func(et string, _ any) error {
		if et == event.TypeAnswer {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("want the callback's error, got %v", err)
	}
	if got := f.mustRun(t, "cb", "next").First(event.TypeAnswer).EventData; got != "echo: next" {
		t.Fatalf("next turn = %q", got)
	}
}

func TestBadOutputNeverBreaksTheSession(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{}, func(o *claude.Options) { o.MaxLineBytes = 100 << 10 })
	r := f.mustRun(t, "g", "garbage huge:300000 blocks:1")
	raws := r.All(event.TypeRaw)
	if len(raws) != 2 {
		t.Fatalf("want 2 raw events (non-JSON line, unknown frame), got %d: %v", len(raws), r.Types())
	}
	errs := r.All(event.TypeError)
	if len(errs) != 1 || !strings.Contains(errs[0].EventData, "line too long") {
		t.Fatalf("oversized line not reported: %v", r.Types())
	}
	if got := r.First(event.TypeAnswer).EventData; got != "part 1" {
		t.Fatalf("answer after bad output = %q", got)
	}
}

func TestBadInput(t *testing.T) {
	f := newFake(t, engine.EngineOptions{}, nil)
	c := testCtx(t)
	file := filepath.Join(f.dir, "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		cfg  *engine.Config
		in   string
		want error
	}{
		{"empty prompt", &engine.Config{SessionID: "b", WorkDir: f.dir}, "  \n", engine.ErrEmptyPrompt},
		{"nil config", nil, "hi", engine.ErrInvalidConfig},
		{"no session ID", &engine.Config{WorkDir: f.dir}, "hi", engine.ErrInvalidConfig},
		{"missing work dir", &engine.Config{SessionID: "b", WorkDir: filepath.Join(f.dir, "nope")}, "hi", engine.ErrInvalidWorkDir},
		{"work dir is a file", &engine.Config{SessionID: "b", WorkDir: file}, "hi", engine.ErrInvalidWorkDir},
	}
	for _, tc := range cases {
		if err := f.eng.Execute(c, tc.cfg, tc.in, nil); !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
	if n := len(f.prov.Starts()); n != 0 {
		t.Fatalf("bad input started %d processes", n)
	}
}

func TestBrokenCLI(t *testing.T) {
	cases := []struct {
		name string
		path string
		env  string
		want string
	}{
		{"missing binary", "/nonexistent/claude", "", "no such file"},
		{"exits at once", "", "FAKEAGENT_FAIL_START=1", "FAKEAGENT_FAIL_START"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			env := append(os.Environ(), "HOME="+home)
			if tc.env != "" {
				env = append(env, tc.env)
			}
			f := newFixture(t, engine.EngineOptions{Env: env}, func(o *claude.Options) {
				if tc.path != "" {
					o.Path = tc.path
				}
			})
			_, err := f.run(t, "broken", "hi")
			if !errors.Is(err, engine.ErrStartFailed) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want ErrStartFailed mentioning %q, got %v", tc.want, err)
			}
			if s, ok := f.eng.GetSession("broken"); !ok || s.Status != engine.StatusError {
				t.Fatalf("session after a failed start: %+v", s)
			}
		})
	}
}

func TestClosedEngine(t *testing.T) {
	f := newFake(t, engine.EngineOptions{}, nil)
	f.mustRun(t, "z", "hi")
	if err := f.eng.Close(); err != nil {
		t.Fatal(err)
	}
	if !f.prov.Process("z").Closed() {
		t.Fatal("Close left the process running")
	}
	if _, err := f.run(t, "z", "again"); !errors.Is(err, engine.ErrEngineClosed) {
		t.Fatalf("want ErrEngineClosed, got %v", err)
	}
	if err := f.eng.Close(); err != nil {
		t.Fatal("second Close:", err)
	}
}

// Two engines in one program (or two programs) may use the same session
// IDs; ending one's session must never touch the other's processes.
func TestEnginesDoNotTouchEachOthersProcesses(t *testing.T) {
	a := newFixture(t, engine.EngineOptions{})
	b := newFixture(t, engine.EngineOptions{})
	pa := a.mustRun(t, "same-id", "hi").First(event.TypeSessionStart).PID
	pb := b.mustRun(t, "same-id", "hi").First(event.TypeSessionStart).PID
	if err := a.eng.TerminateSession("same-id"); err != nil {
		t.Fatal(err)
	}
	if proc.Alive(pa) || !proc.Alive(pb) {
		t.Fatalf("terminate in engine A: A alive %v, B alive %v", proc.Alive(pa), proc.Alive(pb))
	}
	pa = a.mustRun(t, "same-id", "again").First(event.TypeSessionStart).PID
	if err := a.eng.Close(); err != nil {
		t.Fatal(err)
	}
	if proc.Alive(pa) || !proc.Alive(pb) {
		t.Fatalf("close of engine A: A alive %v, B alive %v", proc.Alive(pa), proc.Alive(pb))
	}
	if got := b.mustRun(t, "same-id", "still here").First(event.TypeSessionStart).PID; got != pb {
		t.Fatal("engine B's session was disturbed")
	}
}

// A background job the agent leaves behind re-parents to the engine when
// its shell exits; once the job ends, the engine must wait for it rather
// than collect zombies for the life of the daemon.
func TestOrphansAreReaped(t *testing.T) {
	clock := clocktest.New()
	f := newFixture(t, engine.EngineOptions{ReapInterval: time.Second, Clock: clock})
	pidFile, fifo := filepath.Join(f.dir, "orphan"), filepath.Join(f.dir, "release")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// The orphan waits for the test to write to the FIFO; the turn ends
	// once it has written its PID.
	f.mustRun(t, "o", bash("(setsid sh -c 'echo $$ > "+pidFile+"; read x < "+fifo+"' >/dev/null 2>&1 &); until [ -s "+pidFile+" ]; do :; done; echo spawned"))
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if !proc.Alive(pid) || !slices.Contains(testkit.LiveDescendants(), pid) {
		t.Fatalf("orphan %d is not alive under us: alive %v, descendants %v", pid, proc.Alive(pid), testkit.LiveDescendants())
	}
	// Alive, then a zombie of ours, then gone: only a wait removes it.
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_ = w.Close()
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != nil {
		t.Fatalf("orphan %d is not our child to wait for: %v", pid, err)
	}
	reapRound(t, clock, time.Second, time.Second)
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); !os.IsNotExist(err) {
		t.Fatalf("orphan %d was never waited for (zombies: %v)", pid, testkit.ZombieChildren())
	}
}

func TestTaskInstructionsPersistPerSession(t *testing.T) {
	f := newFake(t, engine.EngineOptions{BaseSystemPrompt: "base rules"}, nil)
	run := func(cfg *engine.Config, prompt string) *testkit.Recorder {
		t.Helper()
		r := &testkit.Recorder{}
		if err := f.eng.Execute(testCtx(t), cfg, prompt, r.Callback); err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := run(&engine.Config{SessionID: "ti", WorkDir: f.dir, TaskInstructions: "be terse"}, "sysprompt")
	if got := r.First(event.TypeAnswer).EventData; got != "system prompt: |base rules\n\nbe terse" {
		t.Fatalf("first start: %q", got)
	}
	// Later turns need not repeat them; the session keeps them.
	run(&engine.Config{SessionID: "ti", WorkDir: f.dir}, "sysprompt")
	if s, _ := f.eng.GetSession("ti"); s.TaskInstructions != "be terse" {
		t.Fatalf("session lost its instructions: %+v", s)
	}
	// New instructions apply from the next start of the CLI.
	r = run(&engine.Config{SessionID: "ti", WorkDir: f.dir, TaskInstructions: "be verbose"}, "sysprompt")
	if got := r.First(event.TypeAnswer).EventData; got != "system prompt: |base rules\n\nbe terse" {
		t.Fatalf("a running CLI's system prompt changed: %q", got)
	}
	f.prov.Process("ti").Kill()
	r = run(&engine.Config{SessionID: "ti", WorkDir: f.dir}, "sysprompt")
	if got := r.First(event.TypeAnswer).EventData; got != "system prompt: |base rules\n\nbe verbose" {
		t.Fatalf("after restart: %q", got)
	}
}

// Output the CLI writes after a turn's result belongs to no turn: the next
// one must not see it.
func TestOutputBetweenTurnsIsDropped(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{})
	written := filepath.Join(f.dir, "stale-written")
	if err := unix.Mkfifo(written, 0o600); err != nil {
		t.Fatal(err)
	}
	f.mustRun(t, "st", "stale:1 first")
	// The agent opens the FIFO for writing once the stale line is in the
	// pipe; opening it for reading waits for that.
	opened := make(chan error, 1)
	go func() {
		rd, err := os.Open(written)
		if err == nil {
			_, _ = io.Copy(io.Discard, rd)
			_ = rd.Close()
		}
		opened <- err
	}()
	select {
	case err := <-opened:
		if err != nil {
			t.Fatal(err)
		}
	case <-testCtx(t).Done():
		if w, err := os.OpenFile(written, os.O_WRONLY, 0); err == nil { // lets the reader go
			_ = w.Close()
		}
		<-opened
		t.Fatal("the agent never wrote its stale line")
	}
	r := f.mustRun(t, "st", "second")
	for _, ev := range r.All(event.TypeAnswer) {
		if strings.Contains(ev.EventData, "stale") {
			t.Fatalf("output from between the turns reached the next turn: %q", ev.EventData)
		}
	}
	if got := r.First(event.TypeAnswer).EventData; got != "echo: second" {
		t.Fatalf("answer = %q", got)
	}
}

func TestSessionsChooseTheirProvider(t *testing.T) {
	second := fakeprovider.New("second")
	t.Cleanup(func() { // after the engine's close
		if n := second.Live(); n != 0 {
			t.Errorf("%d processes of provider second outlived the engine", n)
		}
	})
	f := newFake(t, engine.EngineOptions{Providers: []provider.Provider{second}}, nil)
	if got := f.eng.Providers(); !slices.Equal(got, []string{"fake", "second"}) {
		t.Fatalf("Providers() = %v", got)
	}
	c := testCtx(t)
	r := &testkit.Recorder{}
	if err := f.eng.Execute(c, &engine.Config{SessionID: "b", WorkDir: f.dir, Provider: "second"}, "hello", r.Callback); err != nil {
		t.Fatal(err)
	}
	if start := r.First(event.TypeSessionStart); start == nil || start.SessionStart == nil || start.Provider != "second" {
		t.Fatalf("session_start = %+v, want one from provider second", start)
	}
	if second.Process("b") == nil || f.prov.Process("b") != nil {
		t.Fatal("session b did not run on provider second")
	}
	f.mustRun(t, "a", "hello")
	if s, _ := f.eng.GetSession("a"); s.Provider != "fake" {
		t.Errorf("default session runs on %q, want fake", s.Provider)
	}
	if s, _ := f.eng.GetSession("b"); s.Provider != "second" {
		t.Errorf("session b runs on %q, want second", s.Provider)
	}
	// A session keeps its provider; asking for another one is an error.
	err := f.eng.Execute(c, &engine.Config{SessionID: "b", WorkDir: f.dir, Provider: "fake"}, "hello", nil)
	if !errors.Is(err, engine.ErrInvalidConfig) {
		t.Errorf("switching provider: err = %v, want ErrInvalidConfig", err)
	}
	err = f.eng.Execute(c, &engine.Config{SessionID: "c", WorkDir: f.dir, Provider: "nope"}, "hello", nil)
	if !errors.Is(err, engine.ErrProviderNotFound) {
		t.Errorf("unknown provider: err = %v, want ErrProviderNotFound", err)
	}
	if err := f.eng.RestoreSession("d", engine.SessionConfig{WorkDir: f.dir, Provider: "nope"}, 0, nil); !errors.Is(err, engine.ErrProviderNotFound) {
		t.Errorf("RestoreSession with unknown provider: err = %v", err)
	}
	if _, err := engine.NewEngine(engine.EngineOptions{Provider: second, Providers: []provider.Provider{second}}); !errors.Is(err, engine.ErrInvalidConfig) {
		t.Errorf("duplicate provider names: err = %v, want ErrInvalidConfig", err)
	}
}

// A request announced to PermissionAnnounce is announced before its
// permission_request event, with the same request ID, and then reaches
// the handler.
func TestPermissionAnnouncedBeforeItsEvent(t *testing.T) {
	var (
		mu        sync.Mutex
		announced []string
		handled   []string
	)
	f := newFixture(t, engine.EngineOptions{
		PermissionAnnounce: func(req engine.PermissionRequest) {
			mu.Lock()
			announced = append(announced, req.RequestID)
			mu.Unlock()
		},
		PermissionHandler: func(_ context.Context, req engine.PermissionRequest) provider.ToolDecision {
			if req.Kind == provider.CanUseTool {
				mu.Lock()
				handled = append(handled, req.RequestID)
				mu.Unlock()
			}
			return provider.ToolDecision{}
		},
	})
	var seenAtEvent []string
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := f.eng.Execute(ctx, &engine.Config{SessionID: "a", WorkDir: f.dir}, bash("echo hi"), func(et string, data any) error {
		if et == event.TypePermissionRequest {
			mu.Lock()
			seenAtEvent = slices.Clone(announced)
			mu.Unlock()
			if ev := data.(*event.EventWithMeta); len(seenAtEvent) != 1 || seenAtEvent[0] != ev.Permission.RequestID {
				t.Errorf("at the event %s, announced %v", ev.Permission.RequestID, seenAtEvent)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seenAtEvent) != 1 || !slices.Equal(announced, handled) {
		t.Fatalf("announced %v, handled %v, at the event %v", announced, handled, seenAtEvent)
	}
}

// The engine has no agent of its own: one must be given.
func TestEngineNeedsAProvider(t *testing.T) {
	if _, err := engine.NewEngine(engine.EngineOptions{}); !errors.Is(err, engine.ErrInvalidConfig) {
		t.Fatalf("no provider: %v", err)
	}
}
