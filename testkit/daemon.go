package testkit

import (
	"context"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/hotplex/hotplex/daemon"
	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/postgres"
	"github.com/hotplex/hotplex/store/sqlite"
	"github.com/hotplex/hotplex/webhook"
)

// DaemonOptions configure a test daemon.
type DaemonOptions struct {
	Provider provider.Provider
	// Providers are agents besides Provider, the default.
	Providers []provider.Provider
	Env       []string
	// Root is the work directory root, DBPath the database file; reuse
	// them to restart a daemon on the same state.
	Root, DBPath string
	// Postgres, when set, is the connection string of a PostgreSQL
	// database the daemon stores in instead of DBPath (a test's own from
	// pgtest; reuse it to restart on the same state).
	Postgres string
	// Ring is the hub's replay ring per session (default 64).
	Ring int
	// ApprovalTimeout bounds waiting for a person's answer (default 5m).
	ApprovalTimeout time.Duration
	// AllowOnApprovalTimeout allows what nobody answered in time.
	AllowOnApprovalTimeout bool
	// AdminToken enables firewall bypasses.
	AdminToken string
	// RateLimit bounds each key's request rate (zero: none).
	RateLimit server.RateLimit
	// Web is the browser UI served at "/" (web.Assets()); nil serves none.
	Web fs.FS
	// Spares is the engine's count of prewarmed processes (zero: none).
	Spares int
	// MaxResident bounds the live agent processes (zero: no bound).
	MaxResident int
	// StartQueueTimeout bounds a turn's wait for room (zero: the
	// engine's default).
	StartQueueTimeout time.Duration
	// Webhooks is how webhook deliveries are retried (zero: the
	// production schedule, about a minute).
	Webhooks webhook.Retry
	// Server, when set, adjusts the server's options before it is built
	// (limits, timeouts, a logger to read).
	Server func(*server.Options)
	// Cluster makes the daemon a node of a cluster (with Postgres, the
	// database the nodes share).
	Cluster *daemon.ClusterConfig
	// Logger receives the daemon's log (nil: discarded).
	Logger *slog.Logger
}

// Daemon is the daemon `hotplex serve` runs (package daemon), on a
// SQLite file or a PostgreSQL database, served on loopback by an httptest server, without the
// model gateway and with no idle reaping. It has three API keys: two
// tenants and an admin.
type Daemon struct {
	URL               string
	Alice, Bob, Admin string // API key secrets
	Engine            *engine.Engine
	Store             store.Database
	Server            *server.Server
	RootDir, DBPath   string
	Postgres          string
	daemon            *daemon.Daemon
	http              *httptest.Server
	stopped           bool
}

// DaemonKeys are the test daemon's keys: alice and bob, two tenants, and
// admin; each secret is "secret-" and the ID.
func DaemonKeys() []daemon.Key {
	var keys []daemon.Key
	for _, id := range []string{"alice", "bob", "admin"} {
		keys = append(keys, daemon.Key{ID: id, Name: id, Secret: "secret-" + id, Admin: id == "admin"})
	}
	return keys
}

// StartDaemon starts a daemon; it stops at the end of the test.
func StartDaemon(t testing.TB, o DaemonOptions) *Daemon {
	t.Helper()
	ctx := context.Background()
	log := o.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	var st store.Database
	var err error
	if o.Postgres != "" {
		st, err = postgres.Open(ctx, o.Postgres, postgres.WithLogger(log))
	} else {
		st, err = sqlite.Open(ctx, o.DBPath, sqlite.WithLogger(log))
	}
	if err != nil {
		t.Fatal(err)
	}
	if o.Ring == 0 {
		o.Ring = 64
	}
	dm, err := daemon.New(ctx, daemon.Config{
		Store: st, Keys: DaemonKeys(), Logger: log, WorkDirRoot: o.Root,
		Provider: o.Provider, Providers: o.Providers, Env: o.Env, IdleTimeout: -1, AdminToken: o.AdminToken,
		ApprovalTimeout: o.ApprovalTimeout, AllowOnApprovalTimeout: o.AllowOnApprovalTimeout, Capacity: daemon.Capacity{Spares: o.Spares, MaxResident: o.MaxResident, StartQueueTimeout: o.StartQueueTimeout},
		Ring: o.Ring, Web: o.Web, RateLimit: o.RateLimit, KeepAlive: time.Second, ServerOptions: o.Server, Webhooks: o.Webhooks,
		Cluster: o.Cluster,
	})
	if err != nil {
		_ = st.Close()
		t.Fatal(err)
	}
	d := &Daemon{Store: st, RootDir: o.Root, DBPath: o.DBPath, Postgres: o.Postgres, Alice: "secret-alice", Bob: "secret-bob", Admin: "secret-admin",
		Engine: dm.Engine(), Server: dm.Server(), daemon: dm}
	d.http = httptest.NewServer(dm.Handler())
	d.URL = d.http.URL
	t.Cleanup(d.Stop)
	return d
}

// Drain hands a cluster node's sessions to the other nodes, as a node
// told to stop does before it stops.
func (d *Daemon) Drain(ctx context.Context) error { return d.daemon.Drain(ctx) }

// Handler is the daemon's handler, for calling it in process.
func (d *Daemon) Handler() http.Handler { return d.daemon.Handler() }

// Stop shuts the daemon down in the order `hotplex serve` does, then
// closes the database.
func (d *Daemon) Stop() {
	if d.stopped {
		return
	}
	d.stopped = true
	d.http.CloseClientConnections()
	d.http.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = d.daemon.Close(ctx)
	_ = d.Store.Close()
}
