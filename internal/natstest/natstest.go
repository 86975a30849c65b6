// Package natstest runs real NATS servers with JetStream for tests: Start
// runs one inside the test process, StartProcess runs the nats-server
// program built from the version in go.mod as a process of its own. Both
// keep their store in a temporary directory and can be restarted on the
// same port and store, as an operator restarting nats-server would, so
// tests can prove what survives a restart rather than assume it.
package natstest

import (
	"fmt"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// readyTimeout bounds how long a server may take to accept connections.
const readyTimeout = 20 * time.Second

// Server is a NATS server with JetStream on file storage, run in the test
// process and listening on 127.0.0.1. It is safe for concurrent use.
type Server struct {
	t    testing.TB
	dir  string
	port int

	mu  sync.Mutex
	srv *server.Server // nil while stopped
}

// Start runs a server on a random port with its store in t.TempDir(); it
// is stopped when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{t: t, dir: t.TempDir(), port: server.RANDOM_PORT}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.start()
	s.port = s.srv.Addr().(*net.TCPAddr).Port
	t.Cleanup(s.Stop)
	return s
}

// start runs the server; s.mu is held.
func (s *Server) start() {
	s.t.Helper()
	srv, err := server.NewServer(&server.Options{
		Host:      "127.0.0.1",
		Port:      s.port,
		JetStream: true,
		StoreDir:  s.dir,
		NoLog:     true,
		NoSigs:    true,
	})
	if err != nil {
		s.t.Fatalf("natstest: %v", err)
	}
	srv.Start()
	if !srv.ReadyForConnections(readyTimeout) {
		srv.Shutdown()
		srv.WaitForShutdown()
		s.t.Fatal("natstest: server not ready for connections")
	}
	s.srv = srv
}

// URL is the server's client URL. It stays the same across restarts.
func (s *Server) URL() string { return "nats://127.0.0.1:" + strconv.Itoa(s.port) }

// Port is the TCP port the server listens on.
func (s *Server) Port() int { return s.port }

// StoreDir is the directory that holds the JetStream store.
func (s *Server) StoreDir() string { return s.dir }

// Running reports whether the server is up.
func (s *Server) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.srv != nil
}

// Stop shuts the server down and waits until it has, dropping every
// client connection. Stopping a stopped server does nothing.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stop()
}

func (s *Server) stop() {
	if s.srv != nil {
		s.srv.Shutdown()
		s.srv.WaitForShutdown()
		s.srv = nil
	}
}

// Restart stops the server if it runs and starts it again on the same
// port and store. Clients that keep reconnecting find it again.
func (s *Server) Restart() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stop()
	s.start()
}

// Start brings a stopped server back on its port and store; it fails the
// test if the server runs.
func (s *Server) Start() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		s.t.Fatal("natstest: Start of a running server")
	}
	s.start()
}

func (s *Server) String() string { return fmt.Sprintf("nats server on %s", s.URL()) }
