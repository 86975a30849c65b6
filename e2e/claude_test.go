// Package e2e drives the real agent CLIs, installed by the Makefile from
// the npm registry, against HotPlex's scripted model server.
package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

type harness struct {
	model *scriptedmodel.Server
	eng   *engine.Engine
	env   []string
	dir   string
}

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func newHarness(t *testing.T, script scriptedmodel.Script, opts engine.EngineOptions) *harness {
	t.Helper()
	return newHarnessIn(t, func(string) scriptedmodel.Script { return script }, opts)
}

// newHarnessIn builds the script from the session's work directory, for
// scripts whose tool inputs name files in it.
func newHarnessIn(t *testing.T, script func(dir string) scriptedmodel.Script, opts engine.EngineOptions) *harness {
	t.Helper()
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	dir := t.TempDir()
	m, err := scriptedmodel.Start("127.0.0.1:0", script(dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	h := &harness{model: m, env: testkit.OfflineEnv(t, m.URL()), dir: dir}
	opts.Provider = claude.New(claude.Options{Path: testkit.ClaudePath(t)})
	opts.Env = h.env
	if opts.IdleTimeout == 0 {
		opts.IdleTimeout = -1
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	eng, err := engine.NewEngine(opts)
	if err != nil {
		t.Fatal(err)
	}
	h.eng = eng
	t.Cleanup(func() { _ = eng.Close() })
	return h
}

func (h *harness) exec(t *testing.T, ctx context.Context, id, prompt string) (*testkit.Recorder, error) {
	t.Helper()
	r := &testkit.Recorder{}
	err := h.eng.Execute(ctx, &engine.Config{SessionID: id, WorkDir: h.dir}, prompt, r.Callback)
	return r, err
}

func TestClaudeToolTurnResumeAndMemory(t *testing.T) {
	script := scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("create the file", scriptedmodel.Bash("echo hotplex-was-here > proof.txt && echo created"),
			scriptedmodel.Text("Created proof.txt: {{last_tool_result}}")),
		scriptedmodel.Then("remember", scriptedmodel.Text("I remember.")),
		scriptedmodel.Then("after the crash", scriptedmodel.Text("Back again.")),
	}}
	h := newHarness(t, script, engine.EngineOptions{Namespace: "e2e"})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	r1, err := h.exec(t, ctx, "conv-1", "please create the file")
	if err != nil {
		t.Fatalf("turn 1: %v", err)
	}
	testkit.AssertOrder(t, r1.Types(), event.TypeSessionStart, event.TypeToolUse, event.TypeToolResult, event.TypeAnswer, event.TypeSessionStats, event.TypeResult)
	if got := r1.Types(); got[len(got)-1] != event.TypeResult || got[len(got)-2] != event.TypeSessionStats {
		t.Fatalf("turn must end with session_stats, result: %v", got)
	}
	b, err := os.ReadFile(filepath.Join(h.dir, "proof.txt"))
	if err != nil || strings.TrimSpace(string(b)) != "hotplex-was-here" {
		t.Fatalf("the Bash tool did not create the file: %q, %v", b, err)
	}
	start1 := r1.First(event.TypeSessionStart)
	if !start1.ColdStart || start1.Resumed || start1.PID == 0 {
		t.Fatalf("first start: %+v", start1.SessionStart)
	}
	if want := engine.ProviderSessionID("e2e", "conv-1"); start1.ProviderSessionID != want {
		t.Fatalf("provider session ID %s, want UUIDv5 %s", start1.ProviderSessionID, want)
	}
	tu := r1.First(event.TypeToolUse)
	if tu.Meta.ToolName != "Bash" || !strings.Contains(tu.Meta.InputSummary, "proof.txt") {
		t.Fatalf("tool_use: %+v", tu.Meta)
	}
	tr := r1.First(event.TypeToolResult)
	if tr.Meta.ToolID != tu.Meta.ToolID || tr.Meta.ToolName != "Bash" || tr.Meta.Status != "success" || !strings.Contains(tr.EventData, "created") {
		t.Fatalf("tool_result: %q %+v", tr.EventData, tr.Meta)
	}
	res := r1.First(event.TypeResult)
	if res.Turn == nil || res.Turn.CostUSD <= 0 || res.Turn.InputTokens <= 0 || res.Turn.Model == "" {
		t.Fatalf("result lacks usage: %+v", res.Turn)
	}
	stats := r1.First(event.TypeSessionStats).Stats
	if stats.ToolCallCount != 1 || !slices.Contains(stats.ToolsUsed, "Bash") || stats.TotalCostUSD <= 0 || stats.ModelUsed == "" {
		t.Fatalf("stats: %+v", stats)
	}

	// Turn 2: the same hot process, and the model sees turn 1.
	r2, err := h.exec(t, ctx, "conv-1", "do you remember")
	if err != nil {
		t.Fatalf("turn 2: %v", err)
	}
	start2 := r2.First(event.TypeSessionStart)
	if start2.PID != start1.PID || start2.ColdStart {
		t.Fatalf("turn 2 not hot: %+v vs %+v", start2.SessionStart, start1.SessionStart)
	}
	last := h.model.TurnRequests()
	if !last[len(last)-1].Saw("please create the file") || !last[len(last)-1].Saw("hotplex-was-here") && !last[len(last)-1].Saw("created") {
		t.Fatalf("model did not see turn 1 in turn 2's request: %q", last[len(last)-1].Texts)
	}
	stats2 := r2.First(event.TypeSessionStats).Stats
	if stats2.TotalCostUSD <= stats.TotalCostUSD || stats2.Turns != 2 {
		t.Fatalf("stats do not accumulate: %+v then %+v", stats, stats2)
	}

	// Kill the process behind HotPlex's back: the next turn resumes.
	testkit.KillAndWait(t, start1.PID)
	r3, err := h.exec(t, ctx, "conv-1", "hello after the crash")
	if err != nil {
		t.Fatalf("turn 3: %v", err)
	}
	start3 := r3.First(event.TypeSessionStart)
	if start3.PID == start1.PID || !start3.Resumed || !start3.ColdStart {
		t.Fatalf("turn 3 did not resume in a new process: %+v", start3.SessionStart)
	}
	last = h.model.TurnRequests()
	if !last[len(last)-1].Saw("please create the file") || !last[len(last)-1].Saw("do you remember") {
		t.Fatalf("resumed model request lacks earlier turns: %q", last[len(last)-1].Texts)
	}
}

func TestClaudeCancelMidTool(t *testing.T) {
	script := scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("slow tool", scriptedmodel.Bash("echo begin; sleep 30; echo end"), scriptedmodel.Text("slept")),
		scriptedmodel.Then("quick", scriptedmodel.Text("quick answer")),
	}}
	h := newHarness(t, script, engine.EngineOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := h.exec(t, ctx, "c", "quick warm-up"); err != nil {
		t.Fatal(err)
	}
	turnCtx, stop := context.WithCancel(ctx)
	r := &testkit.Recorder{}
	errc := make(chan error, 1)
	go func() {
		errc <- h.eng.Execute(turnCtx, &engine.Config{SessionID: "c", WorkDir: h.dir}, "run the slow tool", func(et string, d any) error {
			if et == event.TypeToolUse {
				go func() { time.Sleep(500 * time.Millisecond); stop() }()
			}
			return r.Callback(et, d)
		})
	}()
	var cancelledAt time.Time
	select {
	case <-turnCtx.Done():
		cancelledAt = time.Now()
	case <-time.After(time.Minute):
		t.Fatal("the tool never started")
	}
	err := <-errc
	if took := time.Since(cancelledAt); took > 2*time.Second {
		t.Fatalf("cancel took %s", took)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	pid := r.First(event.TypeSessionStart).PID
	if !proc.Alive(pid) {
		t.Fatal("the CLI died on interrupt")
	}
	r2, err := h.exec(t, ctx, "c", "quick question")
	if err != nil {
		t.Fatal(err)
	}
	if r2.First(event.TypeSessionStart).PID != pid {
		t.Fatal("the CLI was restarted after the interrupt")
	}
	ans := r2.First(event.TypeAnswer)
	if ans == nil || ans.EventData != "quick answer" {
		t.Fatalf("next turn saw stale output: %v %+v", r2.Types(), ans)
	}
	for _, ev := range r2.Events() {
		if strings.Contains(ev.EventData, "slept") || strings.Contains(ev.EventData, "begin") {
			t.Fatalf("stale output in the next turn: %+v", ev)
		}
	}
}

func TestClaudeTerminationEndsWhatTheAgentStarted(t *testing.T) {
	for _, how := range []string{"terminate", "close"} {
		t.Run(how, func(t *testing.T) {
			var pids string
			script := func(dir string) scriptedmodel.Script {
				pids = filepath.Join(dir, "pids")
				// The CLI refuses commands that begin with a long sleep, so
				// the sleeps run under sh.
				cmd := fmt.Sprintf("sh -c 'sleep 1000' >/dev/null 2>&1 & echo $! >> %[1]s; "+
					"nohup sh -c 'sleep 1000' >/dev/null 2>&1 & echo $! >> %[1]s; "+
					"setsid sh -c 'sleep 1000' >/dev/null 2>&1 & echo $! >> %[1]s; echo started", pids)
				return scriptedmodel.Script{Rules: []scriptedmodel.Rule{
					scriptedmodel.Then("background", scriptedmodel.Bash(cmd), scriptedmodel.Text("started them")),
				}}
			}
			h := newHarnessIn(t, script, engine.EngineOptions{})
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			r, err := h.exec(t, ctx, "bg", "start background jobs")
			if err != nil {
				t.Fatal(err)
			}
			leader := r.First(event.TypeSessionStart).PID
			b, err := os.ReadFile(pids)
			if err != nil {
				t.Fatalf("the agent did not run the command: %v (%v); tool said %q", err, r.Types(), r.First(event.TypeToolResult).EventData)
			}
			var children []int
			for _, f := range strings.Fields(string(b)) {
				pid, _ := strconv.Atoi(f)
				if !proc.Alive(pid) {
					t.Fatalf("background child %d is not running before the test", pid)
				}
				children = append(children, pid)
			}
			if len(children) != 3 {
				t.Fatalf("children = %v", children)
			}
			switch how {
			case "terminate":
				if err := h.eng.TerminateSession("bg"); err != nil {
					t.Fatal(err)
				}
			case "close":
				if err := h.eng.Close(); err != nil {
					t.Fatal(err)
				}
			}
			for _, pid := range append(children, leader) {
				if proc.Alive(pid) {
					t.Fatalf("process %d outlived its session (%s)", pid, how)
				}
			}
		})
	}
}

func TestClaudePermissionsAndFiles(t *testing.T) {
	script := func(dir string) scriptedmodel.Script {
		return scriptedmodel.Script{Rules: []scriptedmodel.Rule{
			scriptedmodel.Then("forbidden", scriptedmodel.Bash("touch forbidden.txt"), scriptedmodel.Text("model saw: {{last_tool_result}}")),
			scriptedmodel.Then("write a note", scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: "Write",
				Input: map[string]any{"file_path": filepath.Join(dir, "note.txt"), "content": "hello\n"}}}}, scriptedmodel.Text("noted")),
		}}
	}
	var asked []string
	h := newHarnessIn(t, script, engine.EngineOptions{
		PermissionHandler: func(_ context.Context, req engine.PermissionRequest) provider.ToolDecision {
			asked = append(asked, string(req.Kind)+":"+req.ToolName)
			if cmd, _ := req.Input["command"].(string); strings.Contains(cmd, "forbidden") {
				return provider.ToolDecision{Behavior: provider.Deny, Message: "HotPlex policy forbids this"}
			}
			return provider.ToolDecision{}
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := h.exec(t, ctx, "perm", "try the forbidden thing")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "forbidden.txt")); err == nil {
		t.Fatal("a denied command ran")
	}
	res := r.First(event.TypeToolResult)
	if res == nil || res.Meta.Status != "error" || !strings.Contains(res.EventData, "HotPlex policy forbids this") {
		t.Fatalf("the model was not told why: %+v", res)
	}
	if ans := r.First(event.TypeAnswer); ans == nil || !strings.Contains(ans.EventData, "HotPlex policy forbids this") {
		t.Fatalf("model's next request lacked the reason: %v", r.Types())
	}
	if d := r.First(event.TypePermissionDecision); d == nil || d.Permission.Decision != "deny" {
		t.Fatalf("no deny decision event: %v", r.Types())
	}

	// A file tool the CLI asks about: permission_request, allowed, written,
	// and counted among the files modified.
	note := filepath.Join(h.dir, "note.txt")
	r2, err := h.exec(t, ctx, "perm", "write a note")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(note); err != nil || string(b) != "hello\n" {
		t.Fatalf("Write did not run: %q %v (%v)", b, err, r2.Types())
	}
	pr := r2.First(event.TypePermissionRequest)
	if pr == nil || pr.Permission.ToolName != "Write" || pr.Input["file_path"] != note {
		t.Fatalf("no permission_request for Write: %v", r2.Types())
	}
	st := r2.First(event.TypeSessionStats).Stats
	if st.FilesModified != 1 || !slices.Contains(st.FilePaths, note) || !slices.Contains(st.ToolsUsed, "Write") {
		t.Fatalf("stats: %+v", st)
	}
	if !slices.Contains(asked, "pre_tool_use:Bash") || !slices.Contains(asked, "can_use_tool:Write") {
		t.Fatalf("handler was not asked as expected: %v", asked)
	}
}

func TestClaudeStreamsDeltas(t *testing.T) {
	const answer = "Streaming means the caller sees this sentence arrive in pieces, not all at once."
	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("stream", scriptedmodel.Reply{Thinking: "short thought", Text: []string{answer}, ChunkDelay: 5 * time.Millisecond}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	t.Cleanup(func() { _ = m.Close() })
	eng, err := engine.NewEngine(engine.EngineOptions{
		Provider: claude.New(claude.Options{Path: testkit.ClaudePath(t), PartialMessages: true}),
		Env:      testkit.OfflineEnv(t, m.URL()), IdleTimeout: -1,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	r := &testkit.Recorder{}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := eng.Execute(ctx, &engine.Config{SessionID: "s", WorkDir: t.TempDir()}, "please stream", r.Callback); err != nil {
		t.Fatal(err)
	}
	var text string
	deltas := 0
	for _, ev := range r.Events() {
		if ev.EventType == event.TypeAnswer {
			if ev.Meta.Status != "delta" {
				t.Fatalf("complete answer delivered besides the deltas: %q", ev.EventData)
			}
			deltas++
			text += ev.EventData
		}
	}
	if text != answer || deltas < 3 {
		t.Fatalf("%d deltas adding up to %q", deltas, text)
	}
}

// SPEC item 13: the engine's options and a session's task instructions
// reach the CLI, and the instructions survive a restart.
func TestClaudeOptionsReachTheCLI(t *testing.T) {
	script := scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("read something", scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: "Read",
			Input: map[string]any{"file_path": "/etc/hostname"}}}}, scriptedmodel.Text("done: {{last_tool_result}}")),
	}}
	h := newHarness(t, script, engine.EngineOptions{
		BaseSystemPrompt: "BASE-RULE-7f3a",
		DisallowedTools:  []string{"WebFetch"},
		AllowedTools:     []string{"Bash", "Write"},
		PermissionMode:   "accept-edits",
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := &engine.Config{SessionID: "opts", WorkDir: h.dir, TaskInstructions: "TASK-RULE-9c2e"}
	r := &testkit.Recorder{}
	if err := h.eng.Execute(ctx, cfg, "hello", r.Callback); err != nil {
		t.Fatal(err)
	}
	reqs := h.model.TurnRequests()
	last := reqs[len(reqs)-1]
	if !strings.Contains(last.System, "BASE-RULE-7f3a") || !strings.Contains(last.System, "TASK-RULE-9c2e") {
		t.Fatalf("system prompt lacks the base prompt or task instructions")
	}
	if slices.Contains(last.Tools, "WebFetch") || !slices.Contains(last.Tools, "Bash") {
		t.Fatalf("disallowed tool offered, or Bash missing: %v", last.Tools)
	}
	var init *event.EventWithMeta
	for _, ev := range r.Events() {
		if ev.EventType == event.TypeSystem && ev.EventData == "init" {
			init = ev
		}
	}
	if init == nil || !strings.Contains(string(init.Raw), `"permissionMode":"acceptEdits"`) {
		t.Fatalf("permission mode did not reach the CLI")
	}

	// A tool outside AllowedTools is denied before it runs, even one the
	// CLI itself would allow without asking.
	r2 := &testkit.Recorder{}
	if err := h.eng.Execute(ctx, cfg, "read something", r2.Callback); err != nil {
		t.Fatal(err)
	}
	res := r2.First(event.TypeToolResult)
	if res == nil || res.Meta.Status != "error" || !strings.Contains(res.EventData, "not among the tools allowed") {
		t.Fatalf("Read was not denied: %+v", res)
	}

	// After a crash the restarted CLI still gets the task instructions.
	testkit.KillAndWait(t, r.First(event.TypeSessionStart).PID)
	r3 := &testkit.Recorder{}
	if err := h.eng.Execute(ctx, &engine.Config{SessionID: "opts", WorkDir: h.dir}, "hello again", r3.Callback); err != nil {
		t.Fatal(err)
	}
	if !r3.First(event.TypeSessionStart).Resumed {
		t.Fatal("not resumed")
	}
	reqs = h.model.TurnRequests()
	if last := reqs[len(reqs)-1]; !strings.Contains(last.System, "TASK-RULE-9c2e") {
		t.Fatal("task instructions lost across the restart")
	}
}
