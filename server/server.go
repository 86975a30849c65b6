// Package server serves the engine over HTTP: sessions, turns streamed as
// Server-Sent Events, following a session with replay from Last-Event-ID,
// interrupts, API-key authentication, health and readiness.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/store"
)

// Options wire a Server to its parts.
type Options struct {
	Engine   *engine.Engine
	Hub      *hub.Hub
	Store    store.Store
	Recorder *Recorder
	// Approvals holds the tool uses waiting for a person; give its Handle
	// to the engine as EngineOptions.PermissionHandler and its Announce as
	// EngineOptions.PermissionAnnounce.
	Approvals *Approvals
	Logger    *slog.Logger
	// WorkDirRoot is where sessions' work directories go: each owner (API
	// key) has its own tree <root>/<engine.OwnerDir(owner)>, and a session
	// works in <tree>/<session ID> unless the request names another
	// directory inside the owner's tree.
	WorkDirRoot string
	// KeepAlive is the interval of SSE keep-alive comments (default 15s).
	KeepAlive time.Duration
	// Metrics, when set, is served at /metrics; give it to the engine's
	// sinks too (Sinks{metrics, recorder}).
	Metrics *Metrics
	// RateLimit bounds each API key's request rate (zero: no limit).
	RateLimit RateLimit
	// AllowedOrigins are the browser origins (host patterns such as
	// "app.example.com" or "*.example.com") allowed to open /v1/ws; the
	// server's own origin always is.
	AllowedOrigins []string
	// Web, when set, is the browser UI (index.html and assets/), served
	// at "/" without an API key.
	Web fs.FS
}

// Server is the daemon's HTTP API.
type Server struct {
	opts    Options
	log     *slog.Logger
	mux     *http.ServeMux
	limiter *limiter
	ocBus   ocBus // OpenCode events that are not a session's own

	metricsHandler http.Handler

	// turns tracks the turns the server started, which outlive the
	// requests that started them (a client may disconnect and follow the
	// session again); Shutdown waits for them.
	turns   sync.WaitGroup
	ctx     context.Context
	cancel  context.CancelFunc
	closing sync.Once
}

// New returns a server; serve its Handler.
func New(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.KeepAlive <= 0 {
		opts.KeepAlive = 15 * time.Second
	}
	if opts.Approvals == nil {
		opts.Approvals = NewApprovals(0)
	}
	if opts.Metrics == nil {
		opts.Metrics = NewMetrics()
	}
	s := &Server{opts: opts, log: opts.Logger, mux: http.NewServeMux(), limiter: newLimiter(opts.RateLimit), metricsHandler: opts.Metrics.handler()}
	if err := opts.Metrics.watchPool(opts.Engine); err != nil {
		s.log.Error("cannot export the pool's metrics", "err", err)
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.routes()
	return s
}

func (s *Server) routes() {
	for _, op := range append(s.operations(), s.openCodeOperations()...) {
		var h http.Handler = op.handler
		if !op.public {
			h = s.auth(op.handler)
		}
		s.mux.Handle(op.method+" "+op.path, h)
	}
	if s.opts.Web != nil {
		ui := webUI(s.opts.Web)
		s.mux.Handle("GET /{$}", ui)
		s.mux.Handle("GET /assets/", ui)
	}
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, errorf(http.StatusNotFound, "not_found", "no such endpoint: "+r.Method+" "+r.URL.Path))
	})
}

// Handler returns the API's HTTP handler.
func (s *Server) Handler() http.Handler { return s.mux }

// Shutdown interrupts the turns the server started and waits for them to
// end, or for ctx.
func (s *Server) Shutdown(ctx context.Context) error {
	s.closing.Do(s.cancel)
	done := make(chan struct{})
	go func() {
		s.turns.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

type providerList struct {
	// Providers are the agents sessions may run on, the default first.
	Providers []string `json:"providers"`
}

func (s *Server) listProviders(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, providerList{Providers: s.opts.Engine.Providers()})
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if s.opts.Recorder != nil {
		if err := s.opts.Recorder.Healthy(); err != nil {
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "storage failing", "error": err.Error()})
			return
		}
	}
	if _, err := s.opts.Store.ListAPIKeys(r.Context()); err != nil && !errors.Is(err, store.ErrNotFound) {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "store unavailable", "error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

// providerSessionID is the CLI's ID of a stored conversation: the one its
// first session_start reported, which differs from the ID recorded at
// creation when the first turn claimed a prewarmed spare (the CLI then
// chose it).
func (s *Server) providerSessionID(ctx context.Context, st store.Session) string {
	evs, err := s.opts.Store.Events(ctx, st.ID, 0, 1)
	if err != nil || len(evs) == 0 || evs[0].Type != event.TypeSessionStart {
		return st.ProviderSessionID
	}
	var first struct {
		ProviderSessionID string `json:"provider_session_id"`
	}
	if json.Unmarshal(evs[0].Data, &first) != nil || first.ProviderSessionID == "" {
		return st.ProviderSessionID
	}
	return first.ProviderSessionID
}

// Restore puts the sessions the store knows back into the engine, after a
// restart: each resumes its conversation on its next turn and numbers its
// events on from the last one stored.
func (s *Server) Restore(ctx context.Context) (int, error) {
	list, err := s.opts.Store.ListSessions(ctx, "")
	if err != nil {
		return 0, err
	}
	n := 0
	for _, st := range list {
		cfg := engine.SessionConfig{WorkDir: st.WorkDir, Provider: st.Provider, Owner: st.Owner, Nonce: st.Nonce, ProviderSessionID: s.providerSessionID(ctx, st)}
		var o sessionOptions
		_ = json.Unmarshal(st.Options, &o)
		cfg.TaskInstructions = o.TaskInstructions
		s.opts.Approvals.SetAsk(st.ID, o.Approval == "ask")
		var stats *event.SessionStatsData
		if len(st.Stats) > 0 {
			stats = &event.SessionStatsData{}
			if json.Unmarshal(st.Stats, stats) != nil {
				stats = nil
			}
		}
		if err := s.opts.Engine.RestoreSession(st.ID, cfg, st.LastSeq, stats); err != nil {
			if errors.Is(err, engine.ErrSessionExists) {
				continue
			}
			if st.Nonce == "" && errors.Is(err, engine.ErrInvalidWorkDir) {
				// Stored before each key had its own tree of work
				// directories: its directory lies outside its owner's.
				s.log.Warn("session from before per-owner work directories not restored; delete it and create it again",
					"session", st.ID, "owner", st.Owner, "work_dir", st.WorkDir)
				continue
			}
			s.log.Warn("cannot restore session", "session", st.ID, "err", err)
			continue
		}
		n++
	}
	return n, nil
}
