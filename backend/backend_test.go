package backend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

var fakeAgentPath string

func TestMain(m *testing.M) {
	os.Exit(testkit.MainWithFakeAgent(m, &fakeAgentPath))
}

type fixture struct {
	eng  *engine.Engine
	b    *EngineBackend
	dir  string
	path string // the agent executable the provider runs
}

// newFixture runs an engine on the fake agent (as the Claude provider) and
// a backend over it. agentPath overrides the executable.
func newFixture(t *testing.T, agentPath string) *fixture {
	t.Helper()
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	if agentPath == "" {
		agentPath = fakeAgentPath
	}
	f := &fixture{dir: t.TempDir(), path: agentPath}
	eng, err := engine.NewEngine(engine.EngineOptions{
		Provider:    claude.New(claude.Options{Path: agentPath, Name: "fakeagent", Timeouts: provider.Timeouts{TerminateGrace: 500 * time.Millisecond, InterruptGrace: time.Second}}),
		Env:         append(os.Environ(), "HOME="+t.TempDir()),
		IdleTimeout: -1,
		Logger:      slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	f.eng = eng
	f.b, err = New(eng, Options{Version: "9.9.9"})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) session(t *testing.T, opts SessionOptions) *engineSession {
	t.Helper()
	if opts.CWD == "" {
		opts.CWD = f.dir
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := f.b.CreateSession(ctx, opts)
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s.(*engineSession)
}

func send(t *testing.T, s Session, prompt string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := s.Send(ctx, prompt)
	if err != nil {
		t.Fatalf("Send(%q): %v", prompt, err)
	}
	return out
}

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	f := newFixture(t, "")
	other, err := New(f.eng, Options{Name: "other"})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []Backend{f.b, other} {
		if err := r.Register(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Register(f.b); !errors.Is(err, ErrDuplicateBackend) {
		t.Errorf("duplicate Register = %v", err)
	}
	if err := r.Register(nil); err == nil {
		t.Error("Register(nil) succeeded")
	}
	if got := r.List(); !slices.Equal(got, []string{"fakeagent", "other"}) {
		t.Errorf("List = %v", got)
	}
	if b, err := r.Get("other"); err != nil || b != other {
		t.Errorf("Get(other) = %v, %v", b, err)
	}
	if _, err := r.Get("nope"); !errors.Is(err, ErrBackendNotFound) || !strings.Contains(err.Error(), "fakeagent") {
		t.Errorf("Get(nope) = %v", err)
	}
	if _, err := New(f.eng, Options{Provider: "missing"}); !errors.Is(err, engine.ErrProviderNotFound) {
		t.Errorf("New with unknown provider = %v", err)
	}
}

func TestSessionLifecycle(t *testing.T) {
	f := newFixture(t, "")
	s := f.session(t, SessionOptions{})
	if s.State() != StateIdle {
		t.Fatalf("state after create = %s", s.State())
	}
	md := s.Metadata()
	if md.Pid == 0 || md.Backend != "fakeagent" || md.Cwd != f.dir || md.Extra["provider_session_id"] == "" || md.Extra["version"] != "9.9.9" {
		t.Errorf("metadata = %+v", md)
	}
	if !proc.Alive(md.Pid) {
		t.Errorf("pid %d not alive", md.Pid)
	}
	if got := send(t, s, "hello there"); got != "echo: hello there" {
		t.Errorf("Send = %q", got)
	}
	if got := send(t, s, "history"); !strings.Contains(got, "hello there") {
		t.Errorf("second turn does not remember the first: %q", got)
	}
	if s.Metadata().Pid != md.Pid {
		t.Error("a warm turn changed the process")
	}
	s.SetAlias("reviewer")
	if s.Metadata().Alias != "reviewer" {
		t.Error("alias not kept")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
	if _, err := s.Send(context.Background(), "x"); !errors.Is(err, ErrSessionClosed) {
		t.Errorf("Send after Close = %v", err)
	}
	if st := s.State(); st != StateExited {
		t.Errorf("state after Close = %s", st)
	}
	if _, ok := f.eng.GetSession(md.Extra["conversation_id"]); ok {
		t.Error("the engine session outlived Close")
	}
	if proc.Alive(md.Pid) {
		t.Error("process outlived Close")
	}
}

func TestSendStream(t *testing.T) {
	f := newFixture(t, "")
	s := f.session(t, SessionOptions{})
	r, err := s.SendStream(context.Background(), "blocks:3")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	_ = r.Close()
	if string(b) != "part 1\npart 2\npart 3" {
		t.Errorf("streamed %q", b)
	}
	if s.State() != StateIdle {
		t.Errorf("state = %s", s.State())
	}

	// Closing the reader early interrupts the turn.
	r, err = s.SendStream(context.Background(), "huge:6 sleep:20000")
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := io.ReadFull(r, buf); err != nil || string(buf) != "xxxxxx" {
		t.Fatalf("first chunk %q, %v", buf, err)
	}
	start := time.Now()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("closing the stream took %s", d)
	}
	if s.State() != StateIdle {
		t.Errorf("state after early close = %s", s.State())
	}
	if got := send(t, s, "after"); got != "echo: after" {
		t.Errorf("next turn = %q", got)
	}
}

func TestStopInterruptsTurn(t *testing.T) {
	f := newFixture(t, "")
	s := f.session(t, SessionOptions{})
	errc := make(chan error, 1)
	go func() {
		_, err := s.Send(context.Background(), "sleep:30000")
		errc <- err
	}()
	waitState(t, s, StateRunning)
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	if err := s.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Stop took %s", d)
	}
	if err := <-errc; !errors.Is(err, engine.ErrInterrupted) {
		t.Errorf("interrupted Send = %v", err)
	}
	if s.State() != StateIdle {
		t.Errorf("state = %s", s.State())
	}
	if err := s.Stop(context.Background()); err != nil {
		t.Errorf("Stop when idle = %v", err)
	}
	if got := send(t, s, "still here"); got != "echo: still here" {
		t.Errorf("after stop = %q", got)
	}
}

// TestStreamNobodyReads: a stream whose reader never reads does not hold
// the session: Stop ends the turn, and Close ends the session.
func TestStreamNobodyReads(t *testing.T) {
	f := newFixture(t, "")
	s := f.session(t, SessionOptions{})
	r, err := s.SendStream(context.Background(), "huge:100 sleep:20000")
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, s, StateRunning)
	time.Sleep(300 * time.Millisecond) // the agent has written; the turn blocks on the pipe
	start := time.Now()
	if err := s.Stop(context.Background()); err != nil {
		t.Fatalf("Stop with an unread stream: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Stop took %s", d)
	}
	if _, err := io.ReadAll(r); !errors.Is(err, engine.ErrInterrupted) {
		t.Errorf("reading the stopped stream: %v", err)
	}
	_ = r.Close()

	r, err = s.SendStream(context.Background(), "huge:100 sleep:20000")
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, s, StateRunning)
	time.Sleep(300 * time.Millisecond)
	done := make(chan error, 1)
	go func() { done <- s.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close hangs on an unread stream")
	}
	_ = r.Close()
	if s.State() != StateExited {
		t.Errorf("state %s", s.State())
	}
}

func waitState(t *testing.T, s Session, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for s.State() != want {
		if time.Now().After(deadline) {
			t.Fatalf("state %s, want %s", s.State(), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRestartKeepsConversation(t *testing.T) {
	f := newFixture(t, "")
	s := f.session(t, SessionOptions{})
	send(t, s, "remember-the-walrus")
	pid := s.Metadata().Pid
	if err := s.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	npid := s.Metadata().Pid
	if npid == 0 || npid == pid || proc.Alive(pid) {
		t.Errorf("restart: pid %d → %d (old alive: %v)", pid, npid, proc.Alive(pid))
	}
	if st := s.State(); st != StateIdle {
		t.Errorf("state after Restart = %s", st)
	}
	if got := send(t, s, "history"); !strings.Contains(got, "remember-the-walrus") {
		t.Errorf("restarted agent forgot: %q", got)
	}
}

func TestRefreshDetectsDeadProcess(t *testing.T) {
	f := newFixture(t, "")
	s := f.session(t, SessionOptions{})
	send(t, s, "before-the-kill")
	pid := s.Metadata().Pid
	if err := s.Refresh(context.Background()); err != nil || s.State() != StateIdle {
		t.Fatalf("Refresh on a live session: %v, %s", err, s.State())
	}
	testkit.KillAndWait(t, pid)
	if err := s.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s.State() != StateStopped {
		t.Fatalf("state after kill + Refresh = %s", s.State())
	}
	if got := send(t, s, "history"); !strings.Contains(got, "before-the-kill") {
		t.Errorf("resumed agent forgot: %q", got)
	}
	if p := s.Metadata().Pid; p == pid || p == 0 {
		t.Errorf("pid after resume = %d", p)
	}
}

func TestFailedStartAndRefresh(t *testing.T) {
	agent := filepath.Join(t.TempDir(), "agent")
	f := newFixture(t, agent)
	s, err := f.b.CreateSession(context.Background(), SessionOptions{CWD: f.dir})
	if err == nil {
		t.Fatal("CreateSession with a missing agent succeeded")
	}
	t.Cleanup(func() { _ = s.Close() })
	if s.State() != StateError || s.Metadata().Extra["error"] == "" {
		t.Fatalf("state %s, metadata %+v", s.State(), s.Metadata())
	}
	// Send in the error state retries the start, as the engine's next
	// turn does.
	if _, err := s.Send(context.Background(), "hi"); !errors.Is(err, engine.ErrStartFailed) || s.State() != StateError {
		t.Errorf("Send with the agent still missing: %v, %s", err, s.State())
	}
	if err := s.Refresh(context.Background()); err == nil || s.State() != StateError {
		t.Errorf("Refresh with the agent still missing: %v, %s", err, s.State())
	}
	b, err := os.ReadFile(fakeAgentPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(agent, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.Refresh(context.Background()); err != nil || s.State() != StateIdle {
		t.Fatalf("Refresh after the agent appeared: %v, %s", err, s.State())
	}
	if got := send(t, s, "works now"); got != "echo: works now" {
		t.Errorf("Send = %q", got)
	}
	if _, ok := s.Metadata().Extra["error"]; ok {
		t.Errorf("an idle session reports an error: %+v", s.Metadata())
	}
}

func TestRoleAndTasksReachTheAgent(t *testing.T) {
	f := newFixture(t, "")
	s := f.session(t, SessionOptions{Role: "release reviewer", Tasks: []string{"check the changelog", "tag the release"}})
	if s.Role() != "release reviewer" || !slices.Equal(s.Tasks(), []string{"check the changelog", "tag the release"}) {
		t.Errorf("Role/Tasks = %q %q", s.Role(), s.Tasks())
	}
	got := send(t, s, "sysprompt")
	for _, want := range []string{"release reviewer", "- check the changelog", "- tag the release"} {
		if !strings.Contains(got, want) {
			t.Errorf("system prompt %q lacks %q", got, want)
		}
	}
}

func TestCommands(t *testing.T) {
	f := newFixture(t, "")
	s := f.session(t, SessionOptions{})
	h := s.Commands()
	for cmd, want := range map[string]bool{"/cost": true, "/clear": true, "/model": true, "/compact": true, "/status": true, "/compact now": true, "/nope": false, "cost": false} {
		if h.IsSupported(cmd) != want {
			t.Errorf("IsSupported(%q) = %v", cmd, !want)
		}
	}
	ctx := context.Background()
	send(t, s, "first-words")
	out, err := h.Execute(ctx, "/cost")
	if err != nil || !strings.Contains(out, "turns: 1") {
		t.Errorf("/cost = %q, %v", out, err)
	}
	out, err = h.Execute(ctx, "/status")
	if err != nil || !strings.Contains(out, "state: idle") {
		t.Errorf("/status = %q, %v", out, err)
	}
	if out, err = h.Execute(ctx, "/model"); err != nil || out == "" {
		t.Errorf("/model = %q, %v", out, err)
	}
	// The agent's own command is sent to it as a prompt.
	if out, err = h.Execute(ctx, "/compact"); err != nil || out != "echo: /compact" {
		t.Errorf("/compact = %q, %v", out, err)
	}
	pid := s.Metadata().Pid
	if out, err = h.Execute(ctx, "/clear"); err != nil {
		t.Fatalf("/clear = %q, %v", out, err)
	}
	if got := send(t, s, "history"); strings.Contains(got, "first-words") || s.Metadata().Pid == pid {
		t.Errorf("after /clear: %q (pid %d → %d)", got, pid, s.Metadata().Pid)
	}
	if _, err := h.Execute(ctx, "/nope"); !errors.Is(err, ErrUnknownCommand) {
		t.Errorf("unknown command = %v", err)
	}
}

// TestRandomOperations drives sessions through random sequences of Send,
// SendStream, Stop, Restart, Refresh, kills and Close, concurrently where a
// caller could be, and checks that no operation leaves a session starting
// or running, that the state is always the engine session's, and that
// nothing outlives the sessions.
func TestRandomOperations(t *testing.T) {
	f := newFixture(t, "")
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	const sessions, steps = 3, 14
	for i := range sessions {
		s := f.session(t, SessionOptions{})
		var wg sync.WaitGroup
		for step := range steps {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			op := rng.IntN(8)
			switch op {
			case 0:
				_, _ = s.Send(ctx, fmt.Sprintf("turn-%d-%d", i, step))
			case 1: // a slow turn, stopped from another goroutine
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, _ = s.Send(ctx, "sleep:5000")
				}()
				time.Sleep(time.Duration(rng.IntN(150)) * time.Millisecond)
				_ = s.Stop(ctx)
				wg.Wait()
			case 2:
				if r, err := s.SendStream(ctx, "huge:50 sleep:3000"); err == nil {
					if rng.IntN(2) == 0 {
						_, _ = io.ReadAll(r)
					}
					_ = r.Close()
				}
			case 3:
				_ = s.Restart(ctx)
			case 4:
				_ = s.Refresh(ctx)
			case 5:
				if pid := s.Metadata().Pid; pid > 0 && proc.Alive(pid) {
					testkit.KillAndWait(t, pid)
				}
			case 6: // Restart while a turn runs
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, _ = s.Send(ctx, "sleep:5000")
				}()
				time.Sleep(time.Duration(rng.IntN(100)) * time.Millisecond)
				_ = s.Restart(ctx)
				wg.Wait()
			case 7:
				if rng.IntN(4) == 0 {
					_ = s.Close()
				}
			}
			cancel()
			st := s.State()
			if st == StateRunning || st == StateStarting {
				t.Fatalf("step %d (op %d): left in %s", step, op, st)
			}
			if snap, ok := f.eng.GetSession(s.conversation()); ok && st != StateOf(snap.Status) {
				t.Fatalf("step %d (op %d): state %s, the engine's %s", step, op, st, snap.Status)
			}
		}
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if st := s.State(); st != StateExited {
			t.Errorf("session %d: state after Close %s", i, st)
		}
		if _, ok := f.eng.GetSession(s.conversation()); ok {
			t.Errorf("session %d: the engine session outlived Close", i)
		}
	}
}

// One table names every engine state in the backend's words, and Status
// goes back.
func TestStatesAreTheEngines(t *testing.T) {
	words := map[engine.SessionStatus]string{
		engine.StatusNew: StateStarting, engine.StatusStarting: StateStarting, engine.StatusIdle: StateIdle,
		engine.StatusRunning: StateRunning, engine.StatusHibernated: StateStopped, engine.StatusError: StateError,
		engine.StatusClosed: StateExited,
	}
	for _, es := range engine.Statuses {
		if got := StateOf(es); got != words[es] {
			t.Errorf("StateOf(%s) = %s, want %s", es, got, words[es])
		}
		if es != engine.StatusNew && Status(StateOf(es)) != es {
			t.Errorf("Status(StateOf(%s)) = %s", es, Status(StateOf(es)))
		}
	}
	want := map[string]engine.SessionStatus{
		StateStarting: engine.StatusStarting, StateIdle: engine.StatusIdle, StateRunning: engine.StatusRunning,
		StateStopped: engine.StatusHibernated, StateError: engine.StatusError, StateExited: engine.StatusClosed,
	}
	for st, es := range want {
		if got := Status(st); got != es {
			t.Errorf("Status(%s) = %s, want %s", st, got, es)
		}
	}
}

// A Session is a view of its engine session: what the engine does to it
// by itself — hibernating it to make room, finding its process dead,
// ending it — shows in State at once, and Send resumes the conversation.
func TestStateFollowsTheEngine(t *testing.T) {
	f := newFixture(t, "")
	s := f.session(t, SessionOptions{})
	send(t, s, "keep-the-otter")
	conv := s.Metadata().Extra["conversation_id"]
	if err := f.eng.Hibernate(context.Background(), conv); err != nil {
		t.Fatal(err)
	}
	if st := s.State(); st != StateStopped {
		t.Fatalf("state after the engine hibernated the session = %s", st)
	}
	if md := s.Metadata(); md.Pid != 0 || md.Extra["state"] != StateStopped {
		t.Errorf("metadata of a stopped session: %+v", md)
	}
	if got := send(t, s, "history"); !strings.Contains(got, "keep-the-otter") {
		t.Errorf("resumed agent forgot: %q", got)
	}
	if st := s.State(); st != StateIdle {
		t.Errorf("state after the resumed turn = %s", st)
	}
	if err := f.eng.TerminateSession(conv); err != nil {
		t.Fatal(err)
	}
	if st := s.State(); st != StateExited {
		t.Errorf("state after the engine ended the session = %s", st)
	}
	if _, err := s.Send(context.Background(), "x"); !errors.Is(err, engine.ErrSessionNotFound) {
		t.Errorf("Send after the engine ended the session = %v", err)
	}
}

// A configuration the engine refuses is an error without a session.
func TestCreateSessionBadWorkDir(t *testing.T) {
	f := newFixture(t, "")
	s, err := f.b.CreateSession(context.Background(), SessionOptions{CWD: filepath.Join(f.dir, "missing")})
	if !errors.Is(err, engine.ErrInvalidWorkDir) || s != nil {
		t.Fatalf("CreateSession in a missing directory = %v, %v", s, err)
	}
	if n := len(f.eng.ListActiveSessions()); n != 0 {
		t.Errorf("%d engine sessions left", n)
	}
}
