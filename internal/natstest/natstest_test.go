//go:build unix

package natstest_test

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/hotplex/hotplex/internal/natstest"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// server is what both kinds of server offer the tests below.
type server interface {
	URL() string
	Restart()
}

// storeSurvives writes a message to a stream, restarts the server through
// restart and reads the message back from the same URL.
func storeSurvives(t *testing.T, s server, restart func()) {
	t.Helper()
	ctx := context.Background()
	nc, err := nats.Connect(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "S", Subjects: []string{"s.>"}, Storage: jetstream.FileStorage}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, "s.one", []byte("kept")); err != nil {
		t.Fatal(err)
	}
	nc.Close()

	restart()

	nc, err = nats.Connect(s.URL())
	if err != nil {
		t.Fatalf("connect after restart: %v", err)
	}
	defer nc.Close()
	js, err = jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	st, err := js.Stream(ctx, "S")
	if err != nil {
		t.Fatalf("stream after restart: %v", err)
	}
	msg, err := st.GetMsg(ctx, 1)
	if err != nil || string(msg.Data) != "kept" {
		t.Fatalf("message after restart = %v, %v", msg, err)
	}
}

func TestServerRestartKeepsPortAndStore(t *testing.T) {
	s := natstest.Start(t)
	url := s.URL()
	storeSurvives(t, s, s.Restart)
	if s.URL() != url {
		t.Fatalf("URL moved from %s to %s", url, s.URL())
	}
}

func TestServerStopDropsClients(t *testing.T) {
	s := natstest.Start(t)
	closed := make(chan struct{})
	nc, err := nats.Connect(s.URL(), nats.NoReconnect(), nats.ClosedHandler(func(*nats.Conn) { close(closed) }))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	s.Stop()
	<-closed
	if s.Running() {
		t.Fatal("running after Stop")
	}
	if _, err := nats.Connect(s.URL(), nats.NoReconnect()); err == nil {
		t.Fatal("connected to a stopped server")
	}
	s.Start()
	nc2, err := nats.Connect(s.URL())
	if err != nil {
		t.Fatalf("after Start: %v", err)
	}
	nc2.Close()
}

func TestProcessRestartKeepsPortAndStore(t *testing.T) {
	p := natstest.StartProcess(t)
	pid := p.PID()
	storeSurvives(t, p, p.Restart)
	if p.PID() == pid || alive(pid) {
		t.Fatalf("restart kept process %d", pid)
	}
}

// TestProcessKillIsACrash: after Kill the process is gone and clients are
// cut off; Restart after it recovers the store written before the kill.
func TestProcessKillIsACrash(t *testing.T) {
	p := natstest.StartProcess(t)
	storeSurvives(t, p, func() {
		pid := p.PID()
		p.Kill()
		if alive(pid) {
			t.Fatalf("process %d alive after Kill", pid)
		}
		if p.PID() != 0 {
			t.Fatal("PID after Kill")
		}
		if _, err := nats.Connect(p.URL(), nats.NoReconnect()); err == nil {
			t.Fatal("connected to a killed server")
		}
		p.Restart()
	})
}

// TestProcessEndedByCleanup: the process of a finished test is gone.
func TestProcessEndedByCleanup(t *testing.T) {
	var pid int
	t.Run("inner", func(t *testing.T) {
		pid = natstest.StartProcess(t).PID()
		if !alive(pid) {
			t.Fatalf("process %d not running", pid)
		}
	})
	if alive(pid) {
		t.Fatalf("process %d outlived its test", pid)
	}
}

func TestBinaryIsBuiltOnce(t *testing.T) {
	a, b := natstest.Binary(t), natstest.Binary(t)
	if a != b {
		t.Fatalf("two binaries: %s, %s", a, b)
	}
	fi, err := os.Stat(a)
	if err != nil || fi.Mode()&0o100 == 0 {
		t.Fatalf("binary %s: %v %v", a, fi, err)
	}
}

// alive reports whether pid names a process that was not reaped. Its
// parent (this process) waits for it, so a dead one is gone entirely.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// TestProxyCutsOneClient: a client through a cut proxy is disconnected
// and cannot reconnect until Resume, while a direct client keeps working.
func TestProxyCutsOneClient(t *testing.T) {
	s := natstest.Start(t)
	p := natstest.StartProxy(t, s.URL())
	disc := make(chan struct{}, 1)
	reconn := make(chan struct{}, 1)
	via, err := nats.Connect(p.URL(),
		nats.ReconnectWait(20*time.Millisecond), nats.MaxReconnects(-1),
		nats.DisconnectErrHandler(func(*nats.Conn, error) { disc <- struct{}{} }),
		nats.ReconnectHandler(func(*nats.Conn) { reconn <- struct{}{} }))
	if err != nil {
		t.Fatal(err)
	}
	defer via.Close()
	direct, err := nats.Connect(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	got, err := via.SubscribeSync("x")
	if err != nil {
		t.Fatal(err)
	}
	if err := via.Flush(); err != nil {
		t.Fatal(err)
	}

	p.Cut()
	<-disc
	if err := direct.Publish("x", []byte("while cut")); err != nil {
		t.Fatal(err)
	}
	if err := direct.Flush(); err != nil {
		t.Fatalf("direct client lost the server: %v", err)
	}
	select {
	case <-reconn:
		t.Fatal("reconnected through a cut proxy")
	default:
	}

	p.Resume()
	<-reconn
	if err := via.Flush(); err != nil { // its subscription is back
		t.Fatal(err)
	}
	if err := direct.Publish("x", []byte("after")); err != nil {
		t.Fatal(err)
	}
	m, err := got.NextMsg(10 * time.Second)
	if err != nil || string(m.Data) != "after" {
		t.Fatalf("after resume got %v, %v; want only the message sent after", m, err)
	}
}
