package pty_test

import (
	"context"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/backend"
	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/provider/pty"
	"github.com/hotplex/hotplex/testkit"
)

// The terminal provider behind a backend Session, hosted in tmux: turns,
// streaming, Stop, and stopped → Restart in the same window; Close and
// Discard leave nothing behind.
func TestBackendSessionInTmux(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	prov, err := pty.New(pty.Options{Preset: fakeTUIPreset(fakeTUIPath(t)), Tmux: true, KeepWindows: true, Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = prov.Close(context.Background()) })
	eng, err := engine.NewEngine(engine.EngineOptions{Provider: prov, IdleTimeout: -1, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	b, err := backend.New(eng, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := b.CreateSession(ctx, backend.SessionOptions{CWD: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if st := s.State(); st != backend.StateIdle {
		t.Fatalf("state %s after create", st)
	}
	if got, err := s.Send(ctx, "remember the violet kite"); err != nil || got != "OK, I will remember the violet kite" {
		t.Fatalf("send: %q, %v", got, err)
	}
	rc, err := s.SendStream(ctx, "stream 3")
	if err != nil {
		t.Fatal(err)
	}
	streamed, err := io.ReadAll(rc)
	_ = rc.Close()
	if err != nil || string(streamed) != "chunk 1 of 3\nchunk 2 of 3\nchunk 3 of 3" {
		t.Fatalf("stream: %q, %v", streamed, err)
	}

	// Stop a slow prompt.
	done := make(chan error, 1)
	go func() {
		_, err := s.Send(ctx, "slow 30")
		done <- err
	}()
	for s.State() != backend.StateRunning {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	begin := time.Now()
	if err := s.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	<-done
	if d := time.Since(begin); d > 2*time.Second || s.State() != backend.StateIdle {
		t.Fatalf("stop took %s, state %s", d, s.State())
	}

	psid := s.Metadata().Extra["provider_session_id"]
	socket, ok := prov.TmuxSocket(psid)
	if !ok {
		t.Fatalf("no tmux window for %q", psid)
	}
	window, err := tmuxCmd(socket, "display-message", "-p", "-t", "hotplex", "#{window_id}")
	if err != nil {
		t.Fatal(err)
	}
	pid := s.Metadata().Pid
	if err := s.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if md := s.Metadata(); md.Pid == pid || md.Pid == 0 || s.State() != backend.StateIdle {
		t.Fatalf("after Restart: pid %d (was %d), state %s", md.Pid, pid, s.State())
	}
	if w, err := tmuxCmd(socket, "display-message", "-p", "-t", "hotplex", "#{window_id} #{pane_pid}"); err != nil || w != window+" "+strconv.Itoa(s.Metadata().Pid) {
		t.Fatalf("window after Restart %q (%v), want %s with the new pid", w, err, window)
	}
	if got, err := s.Send(ctx, "what do you remember"); err != nil || got != "You asked me to remember: the violet kite" {
		t.Fatalf("after restart: %q, %v", got, err)
	}

	// Close is the session's exit: the backend has the provider destroy
	// the kept window, with its tmux server.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if out, err := tmuxCmd(socket, "list-sessions"); err == nil || !strings.Contains(out, "no server") && !strings.Contains(out, "error connecting") {
		t.Fatalf("tmux server after Close: %q, %v", out, err)
	}
	if err := prov.Discard(ctx, psid); err != nil {
		t.Fatalf("Discard after Close: %v", err)
	}
}
