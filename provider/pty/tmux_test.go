package pty_test

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	creackpty "github.com/creack/pty"
	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/pty"
	"github.com/hotplex/hotplex/testkit"
)

// tmuxCmd runs a tmux client against the provider's private server.
func tmuxCmd(socket string, args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", socket}, args...)...).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

func TestTmuxHaltRestartKeepsWindow(t *testing.T) {
	h := newHarness(t, true)
	p := h.start(t, false)
	socket := p.TmuxSocket()
	if !strings.HasPrefix(socket, "hotplex-") {
		t.Fatalf("tmux socket %q", socket)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	window, err := p.TmuxWindow(ctx)
	if err != nil || window == "" {
		t.Fatalf("window %q: %v", window, err)
	}
	// A person attached to the window sees the same program.
	if out, err := tmuxCmd(socket, "list-panes", "-a", "-F", "#{pane_pid}"); err != nil || out != strconv.Itoa(p.Info().PID) {
		t.Fatalf("pane pid %q (%v), provider pid %d", out, err, p.Info().PID)
	}
	if got := mustTurn(t, p, "remember the red lantern"); got != "OK, I will remember the red lantern" {
		t.Fatalf("answer %q", got)
	}

	// stopped: the program ends, its window stays with the last screen.
	oldPID := p.Info().PID
	if err := p.Halt(ctx); err != nil {
		t.Fatal(err)
	}
	if p.Alive() || !p.Halted() {
		t.Fatalf("after Halt: alive %v, halted %v", p.Alive(), p.Halted())
	}
	if _, _, err := turn(t, ctx, p, "hello", nil); !errors.Is(err, provider.ErrSessionDead) {
		t.Fatalf("turn on a halted program: %v", err)
	}
	out, err := tmuxCmd(socket, "list-windows", "-F", "#{window_id} #{pane_dead}")
	if err != nil || out != window+" 1" {
		t.Fatalf("after Halt the windows are %q (%v), want %q with a dead pane", out, err, window+" 1")
	}
	if screen, _ := tmuxCmd(socket, "capture-pane", "-p", "-t", "hotplex"); !strings.Contains(screen, "OK, I will remember the red lantern") {
		t.Fatalf("the kept window lost the last screen:\n%s", screen)
	}

	// Restart: a new program in the same window, on the same conversation.
	if err := p.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if w, _ := p.TmuxWindow(ctx); w != window {
		t.Fatalf("restart moved to window %q from %q", w, window)
	}
	info := p.Info()
	if info.PID == oldPID || !info.Resumed || !p.Alive() || p.Halted() {
		t.Fatalf("after Restart: %+v (old pid %d), alive %v", info, oldPID, p.Alive())
	}
	if got := mustTurn(t, p, "what do you remember"); got != "You asked me to remember: the red lantern" {
		t.Fatalf("after restart: %q", got)
	}

	// Stop works through tmux keys too.
	stopCtx, stop := context.WithCancel(ctx)
	time.AfterFunc(500*time.Millisecond, stop)
	begin := time.Now()
	_, tr, err := turn(t, stopCtx, p, "slow 30", nil)
	if !errors.Is(err, context.Canceled) || tr == nil || !tr.Interrupted {
		t.Fatalf("interrupted turn: %+v, %v", tr, err)
	}
	if d := time.Since(begin) - 500*time.Millisecond; d > 2*time.Second {
		t.Fatalf("stop in tmux took %s", d)
	}

	// exited: Close destroys the window and the server, and its socket.
	closeProcess(t, p)
	if out, err := tmuxCmd(socket, "list-sessions"); err == nil {
		t.Fatalf("the tmux server still answers after Close: %q", out)
	}
	sock := filepath.Join(os.TempDir(), "tmux-"+strconv.Itoa(os.Getuid()), socket)
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Fatalf("socket %s left behind: %v", sock, err)
	}
	testkit.AssertNoDescendants(t)
}

func TestTmuxKilledProgramKeepsWindow(t *testing.T) {
	h := newHarness(t, true)
	p := h.start(t, false)
	mustTurn(t, p, "remember the silver key")
	// Longer than the window: read from tmux's history.
	if got := mustTurn(t, p, "lines 70"); !strings.HasPrefix(got, "line 1 of 70\n") || !strings.HasSuffix(got, "line 70 of 70") || strings.Count(got, "\n") != 69 {
		t.Fatalf("a 70-line answer in tmux came out as %q", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	window, _ := p.TmuxWindow(ctx)
	testkit.KillAndWait(t, p.Info().PID)
	deadline := time.Now().Add(3 * time.Second)
	for p.Alive() && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if p.Alive() || !p.Halted() {
		t.Fatalf("killed program: alive %v, halted %v", p.Alive(), p.Halted())
	}
	if err := p.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if w, _ := p.TmuxWindow(ctx); w != window {
		t.Fatalf("restart moved to window %q from %q", w, window)
	}
	if got := mustTurn(t, p, "what do you remember"); got != "You asked me to remember: the silver key" {
		t.Fatalf("after restart: %q", got)
	}
}

// With KeepWindows the engine's ending of a session (idle reaping, a
// terminate, a restart) keeps the tmux window; the next turn runs the
// program again in it, and Discard destroys it.
func TestTmuxWindowKeptAcrossEngineRestart(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	prov, err := pty.New(pty.Options{Preset: fakeTUIPreset(fakeTUIPath(t)), Tmux: true, KeepWindows: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := prov.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	eng, err := engine.NewEngine(engine.EngineOptions{Provider: prov, IdleTimeout: -1, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	dir := t.TempDir()

	r := execute(t, eng, dir, "remember the amber bell")
	first := r.First(event.TypeSessionStart)
	if err := eng.TerminateSession("tui"); err != nil {
		t.Fatal(err)
	}
	socket, ok := prov.Parked(first.ProviderSessionID)
	if !ok {
		t.Fatal("no window kept after the session ended")
	}
	before, err := tmuxCmd(socket, "list-windows", "-F", "#{window_id} #{pane_dead}")
	if err != nil || !strings.HasSuffix(before, " 1") {
		t.Fatalf("kept window %q (%v): want one with a dead pane", before, err)
	}
	window := strings.Fields(before)[0]

	r = execute(t, eng, dir, "what do you remember")
	second := r.First(event.TypeSessionStart)
	if second.PID == first.PID || !second.Resumed {
		t.Fatalf("second start %+v after %+v", second.SessionStart, first.SessionStart)
	}
	if got := answerOf(r); got != "You asked me to remember: the amber bell" {
		t.Fatalf("answer %q", got)
	}
	after, err := tmuxCmd(socket, "list-windows", "-F", "#{window_id} #{pane_dead} #{pane_pid}")
	if want := window + " 0 " + strconv.Itoa(second.PID); err != nil || after != want {
		t.Fatalf("windows after the restart %q (%v), want %q", after, err, want)
	}
	if _, ok := prov.Parked(first.ProviderSessionID); ok {
		t.Fatal("a window in use is still listed as kept")
	}

	// exited: the engine lets go, Discard destroys the window and server.
	if err := eng.TerminateSession("tui"); err != nil {
		t.Fatal(err)
	}
	if err := prov.Discard(context.Background(), first.ProviderSessionID); err != nil {
		t.Fatal(err)
	}
	if out, err := tmuxCmd(socket, "list-sessions"); err == nil {
		t.Fatalf("the tmux server still answers after Discard: %q", out)
	}
}

// A person who attaches from a small terminal does not resize the window
// HotPlex reads, and turns go on while they watch.
func TestTmuxAttachedPersonKeepsWindowSize(t *testing.T) {
	h := newHarness(t, true)
	p := h.start(t, false)
	socket := p.TmuxSocket()
	size := func() string {
		out, err := tmuxCmd(socket, "display-message", "-p", "-t", "hotplex", "#{window_width}x#{window_height}")
		if err != nil {
			t.Fatalf("window size: %v %s", err, out)
		}
		return out
	}
	before := size()

	cmd := exec.Command("tmux", "-L", socket, "attach-session", "-t", "hotplex")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "TMUX=")
	term, err := creackpty.StartWithSize(cmd, &creackpty.Winsize{Cols: 60, Rows: 12})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, term); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = term.Close()
		<-done
	})
	for i := 0; ; i++ {
		out, _ := tmuxCmd(socket, "list-clients", "-F", "#{client_width}x#{client_height}")
		if out == "60x12" {
			break
		}
		if i == 100 {
			t.Fatalf("the person's client never attached: %q", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := mustTurn(t, p, "remember the red lantern"); got != "OK, I will remember the red lantern" {
		t.Fatalf("answer %q", got)
	}
	if after := size(); after != before {
		t.Fatalf("an attached 60x12 client resized the window from %s to %s", before, after)
	}
}

// Deleting a session destroys its kept window: nothing of the
// conversation stays for a person, or the ID's next owner, to find.
func TestTmuxWindowGoesWithDeletedSession(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	prov, err := pty.New(pty.Options{Preset: fakeTUIPreset(fakeTUIPath(t)), Tmux: true, KeepWindows: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = prov.Close(context.Background()) })
	eng, err := engine.NewEngine(engine.EngineOptions{Provider: prov, IdleTimeout: -1, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	first := execute(t, eng, t.TempDir(), "remember the amber bell").First(event.TypeSessionStart)
	socket, ok := prov.TmuxSocket(first.ProviderSessionID)
	if !ok {
		t.Fatal("the session runs in no tmux window")
	}
	if err := eng.DeleteSession(context.Background(), "tui"); err != nil {
		t.Fatal(err)
	}
	if _, ok := prov.Parked(first.ProviderSessionID); ok {
		t.Fatal("a deleted session's window is kept")
	}
	if out, err := tmuxCmd(socket, "list-sessions"); err == nil {
		t.Fatalf("the tmux server still answers after the delete: %q", out)
	}
}
