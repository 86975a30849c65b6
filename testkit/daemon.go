package testkit

import (
	"context"
	"io"
	"io/fs"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/sqlite"
)

// DaemonOptions configure a test daemon.
type DaemonOptions struct {
	Provider provider.Provider
	Env      []string
	// Root is the work directory root, DBPath the database file; reuse
	// them to restart a daemon on the same state.
	Root, DBPath string
	// Ring is the hub's replay ring per session (default 64).
	Ring int
	// ApprovalTimeout bounds waiting for a person's answer (default 5m).
	ApprovalTimeout time.Duration
	// AdminToken enables firewall bypasses.
	AdminToken string
	// RateLimit bounds each key's request rate (zero: none).
	RateLimit server.RateLimit
	// Web is the browser UI served at "/" (web.Assets()); nil serves none.
	Web fs.FS
	// Spares is the engine's count of prewarmed processes (zero: none).
	Spares int
	// Server, when set, adjusts the server's options before it is built
	// (limits, timeouts, a logger to read).
	Server func(*server.Options)
}

// Daemon is the daemon's parts wired as `hotplex serve` wires them, served
// on loopback. It has three API keys: two tenants and an admin.
type Daemon struct {
	URL               string
	Alice, Bob, Admin string // API key secrets
	Engine            *engine.Engine
	Store             *sqlite.DB
	Server            *server.Server
	recorder          *server.Recorder
	hub               *hub.Hub
	http              *httptest.Server
	stopped           bool
	RootDir, DBPath   string
}

// StartDaemon starts a daemon; it stops at the end of the test.
func StartDaemon(t testing.TB, o DaemonOptions) *Daemon {
	t.Helper()
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := sqlite.Open(ctx, o.DBPath, sqlite.WithLogger(log))
	if err != nil {
		t.Fatal(err)
	}
	d := &Daemon{Store: st, RootDir: o.Root, DBPath: o.DBPath, Alice: "secret-alice", Bob: "secret-bob", Admin: "secret-admin"}
	for id, admin := range map[string]bool{"alice": false, "bob": false, "admin": true} {
		if err := st.PutAPIKey(ctx, store.APIKey{ID: id, Name: id, Hash: store.HashKey("secret-" + id), Admin: admin}); err != nil {
			t.Fatal(err)
		}
	}
	if o.Ring == 0 {
		o.Ring = 64
	}
	d.hub = hub.New(hub.Options{Ring: o.Ring})
	d.recorder = server.NewRecorder(st, d.hub, log)
	approvals := server.NewApprovals(o.ApprovalTimeout)
	metrics := server.NewMetrics()
	eng, err := engine.NewEngine(engine.EngineOptions{
		Provider: o.Provider, Env: o.Env, IdleTimeout: -1, Logger: log, WorkDirRoot: o.Root, Events: server.Sinks{metrics, d.recorder},
		PermissionHandler: approvals.Handle, PermissionAnnounce: approvals.Announce, AdminToken: o.AdminToken, Spares: o.Spares,
	})
	if err != nil {
		t.Fatal(err)
	}
	d.Engine = eng
	so := server.Options{Engine: eng, Hub: d.hub, Store: st, Recorder: d.recorder, Approvals: approvals, Metrics: metrics,
		Logger: log, WorkDirRoot: o.Root, KeepAlive: time.Second, RateLimit: o.RateLimit, Web: o.Web}
	if o.Server != nil {
		o.Server(&so)
	}
	d.Server = server.New(so)
	if _, err := d.Server.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	d.http = httptest.NewServer(d.Server.Handler())
	d.URL = d.http.URL
	t.Cleanup(d.Stop)
	return d
}

// Stop shuts the daemon down in the order `hotplex serve` does.
func (d *Daemon) Stop() {
	if d.stopped {
		return
	}
	d.stopped = true
	d.http.CloseClientConnections()
	d.http.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = d.Server.Shutdown(ctx)
	_ = d.Engine.Close()
	d.recorder.Close()
	d.hub.Close()
	_ = d.Store.Close()
}
