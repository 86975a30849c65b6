// Package daemon assembles the HotPlex daemon from its parts: the store,
// the model gateway, the hub, the recorder, approvals, metrics, the engine,
// the API server and the MCP server at /mcp. It is the one place that knows all of them, so
// `hotplex serve` and the tests run the same daemon, and the one place
// that knows the order they stop in.
//
// New builds and wires the parts and puts back the sessions the store
// holds; Serve serves the API on a listener until its context ends; Close
// stops what is left, each part after those that still use it:
//
//  1. the HTTP server stops accepting, and running turns are interrupted
//     so that the streams following them end;
//  2. the engine ends every agent's process group;
//  3. the recorder writes the events still queued, then the hub closes,
//     and the webhooks stop (deliveries still pending are dropped);
//  4. the gateway, no agent left to call it, writes the spend not yet
//     recorded.
//
// The store is the caller's: it is opened before New and closed after
// Close, so any implementation of store.Store can take SQLite's place
// without the daemon changing.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/hotplex/hotplex/client"
	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/gateway"
	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/mcp"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/webhook"
)

// ErrNoAgent is returned by New when no agent is configured to serve.
var ErrNoAgent = errors.New("daemon: no agent to serve")

// Daemon is a running HotPlex daemon. Create it with New, serve it with
// Serve (or its Handler on a server of your own), and stop it with Close.
type Daemon struct {
	cfg       Config
	log       *slog.Logger
	gw        *modelGateway
	hub       *hub.Hub
	recorder  *server.Recorder
	approvals *server.Approvals
	metrics   *server.Metrics
	hooks     *webhook.Notifier
	eng       *engine.Engine
	srv       *server.Server
	mcp       *mcp.Handler
	handler   http.Handler // the API, and the MCP server at /mcp
	node      *node        // nil on a single node
	restored  int

	mu      sync.Mutex
	serving map[*http.Server]struct{} // started by Serve, not yet stopped
	closed  bool                      // Serve starts no server once set

	closeOnce sync.Once
	closeErr  error
}

// New builds the daemon cfg describes and restores the sessions its store
// holds. On error, whatever it had started is stopped again.
func New(ctx context.Context, cfg Config) (d *Daemon, err error) {
	if cfg.Store == nil {
		return nil, errors.New("daemon: no store")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Out == nil {
		cfg.Out = io.Discard
	}
	if cfg.Ring <= 0 {
		// A small ring: replay beyond it comes from the store, and every
		// session keeps one.
		cfg.Ring = 128
	}
	if cfg.ShutdownTimeout <= 0 {
		cfg.ShutdownTimeout = 30 * time.Second
	}
	d = &Daemon{cfg: cfg, log: cfg.Logger, serving: map[*http.Server]struct{}{}}
	defer func() {
		if err != nil {
			_ = d.Close(context.Background())
			d = nil
		}
	}()

	if cfg.WorkDirRoot != "" {
		if err := os.MkdirAll(cfg.WorkDirRoot, 0o750); err != nil {
			return d, fmt.Errorf("work directory root: %w", err)
		}
	}
	if err := putKeys(ctx, cfg.Store, cfg.Keys, cfg.Out); err != nil {
		return d, err
	}
	// Agents reach their models through the gateway, which alone holds
	// the keys; it stops after the engine.
	if cfg.Gateway == nil {
		fmt.Fprintln(cfg.Out, "The model gateway is off: agents inherit the daemon's environment, model keys included.")
	} else {
		ledger, ok := cfg.Store.(store.UsageStore)
		if !ok {
			return d, fmt.Errorf("daemon: the model gateway needs a store that keeps model spend (store.UsageStore); %T does not", cfg.Store)
		}
		if d.gw, err = startGateway(ctx, cfg.Gateway, cfg.Keys, ledger, d.log, cfg.Out); err != nil {
			return d, err
		}
	}

	def, others := cfg.Provider, cfg.Providers
	if cfg.Agents != nil {
		if def, others, err = cfg.Agents(d.gw.agentsEnv(cfg.Env)); err != nil {
			return d, err
		}
	}
	if def == nil {
		return d, ErrNoAgent
	}

	if cfg.Cluster != nil {
		if d.node, err = joinCluster(ctx, *cfg.Cluster, d.log); err != nil {
			return d, err
		}
	}
	d.hub = hub.New(hub.Options{Ring: cfg.Ring})
	if d.recorder, err = server.NewRecorder(ctx, cfg.Store, d.hub, d.log, server.RecorderOptions{Journal: journalPath(cfg)}); err != nil {
		return d, err
	}
	var (
		ownership engine.Ownership
		convs     engine.Conversations
	)
	if d.node != nil {
		ownership, convs = d.node, conversations{d.node.files}
		d.recorder.Forward(d.node.forward)
		if err := d.node.follow(d.hub); err != nil {
			return d, err
		}
	}
	d.approvals = server.NewApprovals(cfg.ApprovalTimeout)
	d.metrics = server.NewNodeMetrics(nodeID(cfg.Cluster))
	if d.hooks, err = startHooks(ctx, cfg, d.approvals, d.log); err != nil {
		return d, err
	}
	d.approvals.AllowOnTimeout(cfg.AllowOnApprovalTimeout)
	c := cfg.Capacity
	c.ProviderSpares = installedSpares(c.ProviderSpares, append([]provider.Provider{def}, others...), d.log)
	d.eng, err = engine.NewEngine(engine.EngineOptions{
		PermissionHandler: d.approvals.Handle, PermissionAnnounce: d.approvals.Announce,
		Timeout: cfg.TurnTimeout, IdleTimeout: cfg.IdleTimeout, Logger: d.log, Namespace: cfg.Namespace,
		AdminToken: cfg.AdminToken, Provider: def, Providers: others, Env: cfg.Env, Credentials: d.gw.credentials(),
		WorkDirRoot: cfg.WorkDirRoot, Events: server.Sinks{d.metrics, d.recorder, d.hooks}, Hibernated: d.hooks.Hibernated,
		MaxResident: c.MaxResident, MemoryBudget: c.MemoryBudget, PerOwnerResident: c.PerOwnerResident,
		MaxConcurrentStarts: c.MaxConcurrentStarts, MaxQueuedStarts: c.MaxQueuedStarts, StartQueueTimeout: c.StartQueueTimeout, Spares: c.Spares, ProviderSpares: c.ProviderSpares,
		Policy: cfg.Policy, KeyPolicy: keyPolicy(cfg.Keys), ProtectedPaths: cfg.ProtectedPaths, Ownership: ownership, Conversations: convs, Node: nodeID(cfg.Cluster),
	})
	if err != nil {
		return d, err
	}
	d.gw.attach(d.eng, d.hooks)

	so := server.Options{Engine: d.eng, Hub: d.hub, Store: d.gw.sessions(cfg.Store), Usage: d.gw.usage(),
		Recorder: d.recorder, Approvals: d.approvals, Metrics: d.metrics, Logger: d.log, Hooks: d.hooks,
		WorkDirRoot: cfg.WorkDirRoot, AllowedOrigins: cfg.AllowedOrigins, Web: cfg.Web, KeepAlive: cfg.KeepAlive,
		RateLimit: cfg.RateLimit, Timeouts: cfg.Timeouts, WS: cfg.WS, KeyCheckInterval: cfg.KeyCheckInterval}
	if d.node != nil {
		so.Cluster = d.node
	}
	if cfg.ServerOptions != nil {
		cfg.ServerOptions(&so)
	}
	d.srv = server.New(so)
	if d.node != nil {
		if err := d.node.serve(d.srv.HandleCall); err != nil {
			return d, err
		}
		if err := d.node.join(ctx, d.eng); err != nil {
			return d, err
		}
	}
	// The MCP server calls the API in this process with each request's
	// own key, so it holds no rule of tenancy of its own.
	d.mcp = mcp.NewHandler(client.InProcess(d.srv.Handler()), mcp.HTTPOptions{Options: mcp.Options{Logger: d.log}})
	mux := http.NewServeMux()
	// A tool call's answer comes when the agent's turn ends, and the MCP
	// event stream lasts as long as its session: no server timeout.
	mcpServer, api := server.Unbounded(d.mcp), d.srv.Handler()
	mux.Handle("/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// OpenCode's programs (HTTP Basic) read GET /mcp as their MCP
		// servers' status, which the API answers.
		if _, _, basic := r.BasicAuth(); basic && r.Method == http.MethodGet {
			api.ServeHTTP(w, r)
			return
		}
		mcpServer.ServeHTTP(w, r)
	}))
	mux.Handle("/", api)
	d.handler = mux
	if d.restored, err = d.srv.Restore(ctx); err != nil {
		return d, fmt.Errorf("restoring sessions: %w", err)
	}
	return d, nil
}

// keyPolicy is the engine's resolver of the key level of permission
// rules, nil when no key has rules.
func keyPolicy(keys []Key) func(owner string) *guard.Policy {
	byID := map[string]*guard.Policy{}
	for _, k := range keys {
		if k.Policy != nil {
			byID[k.ID] = k.Policy
		}
	}
	if len(byID) == 0 {
		return nil
	}
	return func(owner string) *guard.Policy { return byID[owner] }
}

// Restored is how many sessions New put back from the store.
func (d *Daemon) Restored() int { return d.restored }

// Engine runs the sessions' agents.
func (d *Daemon) Engine() *engine.Engine { return d.eng }

// Server is the API server.
func (d *Daemon) Server() *server.Server { return d.srv }

// Gateway is the model gateway, nil when it is off.
func (d *Daemon) Gateway() *gateway.Gateway {
	if d.gw == nil {
		return nil
	}
	return d.gw.gw
}

// Handler is the API, with the MCP server (Streamable HTTP) at /mcp, for
// a server of the caller's own (a test's httptest.Server, say); Close
// still interrupts its turns.
func (d *Daemon) Handler() http.Handler { return d.handler }

// Serve serves the API on ln until ctx ends, then stops accepting,
// interrupts the running turns so that the streams following them end,
// and waits for the requests in flight, for at most
// Config.ShutdownTimeout. It returns nil after such a shutdown, and the
// server's error if it failed before (http.ErrServerClosed once Close has
// begun). Close the daemon afterwards.
func (d *Daemon) Serve(ctx context.Context, ln net.Listener) error {
	hs := d.srv.HTTPServer()
	hs.Handler = d.handler
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		_ = ln.Close()
		return http.ErrServerClosed
	}
	d.serving[hs] = struct{}{}
	d.mu.Unlock()

	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		d.forget(hs)
		if errors.Is(err, http.ErrServerClosed) {
			return nil // Close stopped it
		}
		return err
	case <-ctx.Done():
	}
	d.log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), d.cfg.ShutdownTimeout)
	defer cancel()
	if d.node != nil {
		// A node of a cluster hands its sessions over, ends its follow
		// streams (their clients go on elsewhere), stops accepting, and
		// lets the turns it streams for sessions run elsewhere end
		// before anything is interrupted.
		if err := d.Drain(sctx); err != nil {
			d.log.Warn("stopping before every session was handed over", "err", err)
		}
		d.srv.EndFollows()
		if err := hs.Shutdown(sctx); err != nil {
			d.log.Warn("requests still in flight at shutdown", "err", err)
		}
	}
	d.stopHTTP(sctx, hs)
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Drain hands a cluster node's sessions over to the other nodes before it
// stops (see server.Server.Drain): Serve does it when its context ends,
// so a rolling restart loses nothing. A single node has nothing to do.
func (d *Daemon) Drain(ctx context.Context) error { return d.srv.Drain(ctx) }

// stopHTTP stops hs gracefully: turns are interrupted at the same time,
// since an SSE request lasts as long as its turn and would otherwise hold
// the shutdown until ctx ends. Connections still open then are closed.
func (d *Daemon) stopHTTP(ctx context.Context, hs *http.Server) {
	// An MCP session's event stream lasts as long as the session.
	d.mcp.Close()
	turns := make(chan struct{})
	go func() {
		defer close(turns)
		_ = d.srv.Shutdown(ctx)
	}()
	if err := hs.Shutdown(ctx); err != nil {
		_ = hs.Close()
	}
	<-turns
	d.forget(hs)
}

func (d *Daemon) forget(hs *http.Server) {
	d.mu.Lock()
	delete(d.serving, hs)
	d.mu.Unlock()
}

// Close stops the daemon in order (see the package documentation) and
// reports what failed; the store stays open. ctx bounds the waits for
// turns and for the gateway's last write. Later calls return the first
// call's result.
func (d *Daemon) Close(ctx context.Context) error {
	d.closeOnce.Do(func() { d.closeErr = d.shutdown(ctx) })
	return d.closeErr
}

func (d *Daemon) shutdown(ctx context.Context) error {
	d.mu.Lock()
	d.closed = true
	serving := make([]*http.Server, 0, len(d.serving))
	for hs := range d.serving {
		serving = append(serving, hs)
	}
	d.mu.Unlock()

	var errs []error
	for _, hs := range serving {
		d.stopHTTP(ctx, hs)
	}
	if d.mcp != nil {
		d.mcp.Close()
	}
	if d.srv != nil {
		if err := d.srv.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("interrupting turns: %w", err))
		}
	}
	if d.eng != nil {
		if err := d.eng.Close(); err != nil {
			errs = append(errs, fmt.Errorf("engine: %w", err))
		}
	}
	if d.recorder != nil {
		d.recorder.Close()
	}
	if d.hub != nil {
		d.hub.Close()
	}
	d.hooks.Close() // after the engine: its last events are taken
	if d.node != nil {
		d.node.close(ctx)
	}
	// The gateway's last write is worth its own few seconds even when ctx
	// ran out waiting for turns: it is spend that would go unrecorded.
	gctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := d.gw.close(gctx); err != nil {
		d.log.Error("model gateway: closing", "err", err)
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// installedSpares keeps the spare counts of the agents the daemon runs: a
// configuration shared by machines may name an agent one of them lacks,
// which is worth a warning, not a refusal to start.
func installedSpares(counts map[string]int, agents []provider.Provider, log *slog.Logger) map[string]int {
	if len(counts) == 0 {
		return nil
	}
	out := make(map[string]int, len(counts))
	for name, n := range counts {
		if slices.ContainsFunc(agents, func(p provider.Provider) bool { return p != nil && p.Name() == name }) {
			out[name] = n
		} else {
			log.Warn("spares for an agent this daemon does not run; ignored", "agent", name)
		}
	}
	return out
}

// journalPath is where the recorder keeps the events it delivered before
// storing them: beside the database of a store on this machine, on a
// single node. A store a cluster shares is written before delivery (a
// journal on one machine would not reach the other nodes).
func journalPath(cfg Config) string {
	f, ok := cfg.Store.(interface{ Path() string })
	if !ok || !store.IsLocal(cfg.Store) || cfg.Cluster != nil || f.Path() == "" {
		return ""
	}
	return f.Path() + "-events"
}
