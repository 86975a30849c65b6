package pty_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/pty"
	"github.com/hotplex/hotplex/testkit"
)

func TestMain(m *testing.M) {
	// Sessions run in PID namespaces of their own, as in hotplex.
	proc.MaybeRunInit()
	goleak.VerifyTestMain(m, goleak.Cleanup(func(int) {
		if buildDir != "" {
			_ = os.RemoveAll(buildDir)
		}
	}))
}

var (
	buildOnce sync.Once
	buildDir  string
	fakeTUI   string
)

// fakeTUIPath builds testkit/faketui once for the package's tests.
func fakeTUIPath(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "hotplex-faketui-")
		if err != nil {
			t.Fatal(err)
		}
		buildDir = dir
		fakeTUI = testkit.BuildFakeTUI(t, dir)
	})
	if fakeTUI == "" {
		t.Fatal("faketui did not build")
	}
	return fakeTUI
}

// fakeTUIPreset drives testkit/faketui. Its memory lives in a state file
// per conversation, which is how it resumes after a restart.
func fakeTUIPreset(path string) pty.Preset {
	return pty.Preset{
		Name:    "faketui",
		Command: path,
		SessionArgs: func(o provider.StartOptions, resume bool) ([]string, bool) {
			state := filepath.Join(o.WorkDir, ".faketui-"+o.ProviderSessionID+".json")
			_, err := os.Stat(state)
			// Like agents that find their saved conversation themselves,
			// it resumes whenever the state file exists.
			return []string{"--state", state}, err == nil
		},
		Ready:          regexp.MustCompile(`faketui>\z`),
		Busy:           regexp.MustCompile(`esc to interrupt`),
		Settle:         250 * time.Millisecond,
		BracketedPaste: true,
		Permissions: []pty.PermissionPrompt{{
			Match:     regexp.MustCompile(`Allow command: (?P<command>.*)\? \(y/n\)\z`),
			AllowKeys: "y", DenyKeys: "n",
		}},
	}
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

type harness struct {
	prov *pty.Provider
	dir  string
	opts provider.StartOptions
}

func newHarness(t *testing.T, tmux bool) *harness {
	t.Helper()
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	p, err := pty.New(pty.Options{Preset: fakeTUIPreset(fakeTUIPath(t)), Tmux: tmux, Timeouts: provider.Timeouts{InterruptGrace: 3 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	return &harness{prov: p, dir: dir, opts: provider.StartOptions{
		SessionID: "s1", ProviderSessionID: "conv-1", WorkDir: dir, Logger: quiet(),
	}}
}

func (h *harness) start(t *testing.T, resume bool) *pty.Process {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	o := h.opts
	o.Resume = resume
	p, err := h.prov.Start(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeProcess(t, p) })
	return p.(*pty.Process)
}

func closeProcess(t *testing.T, p provider.Process) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := p.Close(ctx); err != nil {
		t.Errorf("close: %v", err)
	}
}

// turn runs one turn and returns its answer events' text and result.
func turn(t *testing.T, ctx context.Context, p provider.Process, prompt string, ask provider.PermissionFunc) (string, *event.TurnResult, error) {
	t.Helper()
	var answers []string
	tr, err := p.Turn(ctx, prompt, ask, func(ev *event.EventWithMeta) error {
		if ev.EventType == event.TypeAnswer {
			answers = append(answers, ev.EventData)
		}
		return nil
	})
	return strings.Join(answers, "\n"), tr, err
}

func mustTurn(t *testing.T, p provider.Process, prompt string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	answer, tr, err := turn(t, ctx, p, prompt, nil)
	if err != nil {
		t.Fatalf("turn %q: %v\nscreen:\n%s", prompt, err, p.(*pty.Process).Screen())
	}
	if tr.Result != answer || tr.DurationMs <= 0 {
		t.Fatalf("turn %q: result %+v does not match answer %q", prompt, tr, answer)
	}
	return answer
}

func TestMultiTurnMemory(t *testing.T) {
	h := newHarness(t, false)
	p := h.start(t, false)
	if got := mustTurn(t, p, "remember the blue door"); got != "OK, I will remember the blue door" {
		t.Fatalf("turn 1 answer %q\nscreen:\n%s", got, p.Screen())
	}
	if got := mustTurn(t, p, "remember 42 owls"); got != "OK, I will remember 42 owls" {
		t.Fatalf("turn 2 answer %q", got)
	}
	if got := mustTurn(t, p, "what do you remember?"); got != "You asked me to remember: the blue door; 42 owls" {
		t.Fatalf("turn 3 answer %q", got)
	}
	// A pasted prompt keeps its newlines; the answer is only what came
	// after the echo of both lines.
	if got := mustTurn(t, p, "first line\nsecond line"); got != "echo: first line\nsecond line" {
		t.Fatalf("multi-line answer %q", got)
	}
	if got := mustTurn(t, p, "lines 60"); !strings.HasPrefix(got, "line 1 of 60\n") || !strings.HasSuffix(got, "line 60 of 60") || strings.Count(got, "\n") != 59 {
		t.Fatalf("a 60-line answer (longer than the screen) came out as %q", got)
	}
}

func TestStopWithinTwoSeconds(t *testing.T) {
	h := newHarness(t, false)
	p := h.start(t, false)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(700*time.Millisecond, cancel)
	begin := time.Now()
	_, tr, err := turn(t, ctx, p, "slow 30", nil)
	took := time.Since(begin)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted turn: err %v, result %+v", err, tr)
	}
	if tr == nil || !tr.Interrupted {
		t.Fatalf("result %+v is not marked interrupted", tr)
	}
	if stop := took - 700*time.Millisecond; stop > 2*time.Second {
		t.Fatalf("stop took %s", stop)
	}
	t.Logf("stop returned %s after the cancel", took-700*time.Millisecond)
	if !p.Alive() {
		t.Fatal("the program died from the interrupt")
	}
	if got := mustTurn(t, p, "hello again"); got != "echo: hello again" {
		t.Fatalf("turn after the interrupt answered %q", got)
	}
}

func TestKillThenRestartResumes(t *testing.T) {
	h := newHarness(t, false)
	p := h.start(t, false)
	mustTurn(t, p, "remember the green kite")
	pid := p.Info().PID
	testkit.KillAndWait(t, pid)
	if p.Alive() {
		t.Fatal("a killed program is still alive")
	}
	_, _, err := turn(t, context.Background(), p, "hello", nil)
	if !errors.Is(err, provider.ErrSessionDead) {
		t.Fatalf("turn on a killed program: %v", err)
	}
	closeProcess(t, p)

	q := h.start(t, true)
	if info := q.Info(); info.PID == pid || !info.Resumed || info.Fallback != "" {
		t.Fatalf("restart info %+v (old pid %d)", info, pid)
	}
	if got := mustTurn(t, q, "what do you remember"); got != "You asked me to remember: the green kite" {
		t.Fatalf("after restart: %q", got)
	}
}

func TestResumeWithoutConversationFallsBack(t *testing.T) {
	h := newHarness(t, false)
	p := h.start(t, true)
	if info := p.Info(); info.Resumed || info.Fallback == "" {
		t.Fatalf("info %+v: a resume with nothing saved must say it started fresh", info)
	}
}

func TestPermissionQuestionAnsweredByKeys(t *testing.T) {
	h := newHarness(t, false)
	p := h.start(t, false)
	var asked []provider.ToolRequest
	ask := func(_ context.Context, req provider.ToolRequest) provider.ToolDecision {
		asked = append(asked, req)
		if strings.Contains(req.Input["command"].(string), "blocked") {
			return provider.ToolDecision{Behavior: provider.Deny, Message: "not this one"}
		}
		return provider.ToolDecision{Behavior: provider.Allow}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	answer, _, err := turn(t, ctx, p, "run touch allowed.txt && echo made-it", ask)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(answer, "made-it") || !strings.Contains(answer, "command done") {
		t.Fatalf("allowed command answer %q", answer)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "allowed.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
	answer, _, err = turn(t, ctx, p, "run touch blocked.txt", ask)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(answer, "denied: touch blocked.txt") {
		t.Fatalf("denied command answer %q", answer)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "blocked.txt")); !os.IsNotExist(err) {
		t.Fatalf("the denied command ran: %v", err)
	}
	if len(asked) != 2 || asked[0].Kind != provider.CanUseTool || asked[0].ToolName != "Bash" || asked[0].Input["command"] != "touch allowed.txt && echo made-it" {
		t.Fatalf("permission requests %+v", asked)
	}
}

func TestBusyTurnRefused(t *testing.T) {
	h := newHarness(t, false)
	p := h.start(t, false)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, _, err := turn(t, ctx, p, "slow 5", nil)
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	if _, err := p.Turn(context.Background(), "x", nil, func(*event.EventWithMeta) error { return nil }); !errors.Is(err, provider.ErrBusy) {
		t.Fatalf("second turn: %v", err)
	}
	cancel()
	<-done
}

func TestBadPreset(t *testing.T) {
	if _, err := pty.New(pty.Options{Preset: pty.Preset{Name: "x"}}); err == nil {
		t.Fatal("a preset without a command was accepted")
	}
	p, err := pty.New(pty.Options{Preset: pty.Preset{Name: "x", Command: "/nonexistent/program"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Start(context.Background(), provider.StartOptions{WorkDir: t.TempDir()})
	if !errors.Is(err, provider.ErrStartFailed) {
		t.Fatalf("start of a missing program: %v", err)
	}
}

func TestStreamedAnswer(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	p, err := pty.New(pty.Options{Preset: fakeTUIPreset(fakeTUIPath(t)), Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{prov: p, dir: t.TempDir()}
	h.opts = provider.StartOptions{ProviderSessionID: "stream", WorkDir: h.dir, Logger: quiet()}
	proc := h.start(t, false)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var deltas []string
	var full []string
	tr, err := proc.Turn(ctx, "stream 6", nil, func(ev *event.EventWithMeta) error {
		if ev.EventType == event.TypeAnswer {
			if ev.Meta.Status == "delta" {
				deltas = append(deltas, ev.EventData)
			} else {
				full = append(full, ev.EventData)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "chunk 1 of 6\nchunk 2 of 6\nchunk 3 of 6\nchunk 4 of 6\nchunk 5 of 6\nchunk 6 of 6"
	if tr.Result != want {
		t.Fatalf("result %q", tr.Result)
	}
	if len(deltas) < 3 || strings.Join(deltas, "") != want || len(full) != 0 {
		t.Fatalf("deltas %q (and complete answers %q): want at least 3 that add up to the answer", deltas, full)
	}
	// A short answer arrives whole, once.
	deltas, full = nil, nil
	if _, err := proc.Turn(ctx, "hi", nil, func(ev *event.EventWithMeta) error {
		if ev.EventType == event.TypeAnswer {
			deltas = append(deltas, ev.EventData)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(deltas, "") != "echo: hi" {
		t.Fatalf("short answer came as %q", deltas)
	}
}

// Close ends a turn that waits on a permission question.
func TestCloseEndsTurnWaitingForPermission(t *testing.T) {
	h := newHarness(t, false)
	p := h.start(t, false)
	asked := make(chan struct{})
	ask := func(ctx context.Context, _ provider.ToolRequest) provider.ToolDecision {
		close(asked)
		<-ctx.Done() // a person who never answers
		return provider.ToolDecision{Behavior: provider.Deny}
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := turn(t, context.Background(), p, "run touch never.txt", ask)
		done <- err
	}()
	select {
	case <-asked:
	case <-time.After(20 * time.Second):
		t.Fatal("the question was not asked")
	}
	closeProcess(t, p)
	select {
	case err := <-done:
		if !errors.Is(err, provider.ErrSessionDead) {
			t.Fatalf("turn ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the turn did not end after Close")
	}
	if _, err := os.Stat(filepath.Join(h.dir, "never.txt")); !os.IsNotExist(err) {
		t.Fatalf("the unanswered command ran: %v", err)
	}
}
