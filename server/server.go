// Package server serves the engine over HTTP: sessions, turns streamed as
// Server-Sent Events, following a session with replay from Last-Event-ID,
// interrupts, API-key authentication, health and readiness. It takes its
// parts (engine, hub, store, recorder, approvals, metrics) ready-made in
// Options; package daemon builds them, wires them to one another and
// stops them in order, for `hotplex serve` and the tests alike.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/server/opencode"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/webhook"
)

// Options wire a Server to its parts.
type Options struct {
	Engine *engine.Engine
	Hub    *hub.Hub
	Store  store.Store
	// Cluster, on a node of a cluster, carries a session's work to the
	// node that runs it (see Cluster); nil on a single node.
	Cluster  Cluster
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
	// Hooks, when set, keeps the API keys' webhooks, served at
	// /v1/hooks; give it to the engine's sinks too.
	Hooks *webhook.Notifier
	// Usage, when set, is the model gateway's metering, served at
	// /v1/usage and counted at /metrics.
	Usage UsageSource
	// RateLimit bounds each API key's request rate (zero: no limit).
	RateLimit RateLimit
	// AllowedOrigins are the browser origins (host patterns such as
	// "app.example.com" or "*.example.com") allowed to open /v1/ws; the
	// server's own origin always is.
	AllowedOrigins []string
	// Web, when set, is the browser UI (index.html and assets/), served
	// at "/" without an API key.
	Web fs.FS
	// WS bounds each WebSocket connection (DefaultWSLimits where zero).
	WS WSLimits
	// Timeouts bound how long the HTTP server of HTTPServer waits on a
	// client (DefaultTimeouts where zero).
	Timeouts Timeouts
	// KeyCheckInterval is how often open streams look in the store for
	// their API key revoked or expired by another process (default
	// DefaultKeyCheckInterval). Revocations through this server end them
	// at once.
	KeyCheckInterval time.Duration
}

// WSLimits bound one WebSocket connection, so that one client cannot hold
// unbounded goroutines or memory.
type WSLimits struct {
	// MaxRequests bounds the execute and subscribe requests running at
	// once; one more is refused with a too_many_requests error.
	MaxRequests int
	// QueueBytes bounds the bytes of messages waiting to be written to the
	// client (a single larger message is let through when nothing else
	// waits). A client that falls further behind is closed with 1008 and
	// the reason, and the daemon logs it.
	QueueBytes int
	// PingInterval is how often the server pings the client; a client
	// that does not answer within the write timeout is dropped.
	PingInterval time.Duration
}

// DefaultWSLimits are the WebSocket limits of a zero WSLimits.
var DefaultWSLimits = WSLimits{MaxRequests: 64, QueueBytes: 8 << 20, PingInterval: 20 * time.Second}

// Timeouts bound the waits of the HTTP server. Streams (SSE, WebSockets,
// an OpenCode prompt waiting for its turn) are exempt from Write, and from
// Read once their request body was read: they last as long as the client
// follows them.
type Timeouts struct {
	// ReadHeader bounds reading a request's headers.
	ReadHeader time.Duration
	// Read bounds reading a whole request, body included.
	Read time.Duration
	// Write bounds answering a request, from the end of its headers.
	Write time.Duration
	// Idle bounds the wait for the next request on a keep-alive
	// connection.
	Idle time.Duration
}

// DefaultTimeouts are the timeouts of a zero Timeouts.
var DefaultTimeouts = Timeouts{ReadHeader: 10 * time.Second, Read: time.Minute, Write: time.Minute, Idle: 2 * time.Minute}

// DefaultKeyCheckInterval is how often, by default, open streams look for
// their key revoked or expired elsewhere.
const DefaultKeyCheckInterval = 500 * time.Millisecond

func (t Timeouts) orDefaults() Timeouts {
	for _, p := range []struct{ v, def *time.Duration }{
		{&t.ReadHeader, &DefaultTimeouts.ReadHeader}, {&t.Read, &DefaultTimeouts.Read},
		{&t.Write, &DefaultTimeouts.Write}, {&t.Idle, &DefaultTimeouts.Idle},
	} {
		if *p.v <= 0 {
			*p.v = *p.def
		}
	}
	t.ReadHeader = min(t.ReadHeader, t.Read)
	return t
}

// HTTPServer returns an HTTP server of the API with the configured
// timeouts.
func (s *Server) HTTPServer() *http.Server {
	t := s.opts.Timeouts
	return &http.Server{
		Handler: s.Handler(), ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read, WriteTimeout: t.Write, IdleTimeout: t.Idle,
		ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// Server is the daemon's HTTP API.
type Server struct {
	opts    Options
	log     *slog.Logger
	mux     *http.ServeMux
	limiter *limiter
	keys    *keyWatch
	oc      *opencode.API

	metricsHandler http.Handler

	// turns tracks the turns the server started, which outlive the
	// requests that started them (a client may disconnect and follow the
	// session again); Shutdown waits for them.
	turns  sync.WaitGroup
	remote remoteTurns // turns run here for another node's callers
	held   heldPrompts // prompts queued here for another node's callers
	// queues runs the prompts queued behind sessions' turns.
	queues promptQueues
	// refs remembers the sessions prompts name (see ownedForTurn).
	refs sessionRefs
	// draining is set once Drain began: new sessions go to other nodes.
	draining atomic.Bool
	// starting counts turns deciding to run here (see beginHere).
	starting atomic.Int64
	// followsEnd, closed by EndFollows, ends the streams that follow
	// sessions, while turns' streams go on.
	followsEnd chan struct{}
	endFollows sync.Once
	ctx        context.Context
	cancel     context.CancelFunc
	closing    sync.Once
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
	if opts.WS.MaxRequests <= 0 {
		opts.WS.MaxRequests = DefaultWSLimits.MaxRequests
	}
	if opts.WS.QueueBytes <= 0 {
		opts.WS.QueueBytes = DefaultWSLimits.QueueBytes
	}
	if opts.WS.PingInterval <= 0 {
		opts.WS.PingInterval = DefaultWSLimits.PingInterval
	}
	if opts.KeyCheckInterval <= 0 {
		opts.KeyCheckInterval = DefaultKeyCheckInterval
	}
	opts.Timeouts = opts.Timeouts.orDefaults()
	opts.Store = synced(opts.Store, opts.Recorder)
	s := &Server{opts: opts, log: opts.Logger, mux: http.NewServeMux(), limiter: newLimiter(opts.RateLimit), metricsHandler: opts.Metrics.handler()}
	s.keys = newKeyWatch(opts.Store, opts.KeyCheckInterval, opts.Logger)
	if err := opts.Metrics.watchPool(opts.Engine); err != nil {
		s.log.Error("cannot export the pool's metrics", "err", err)
	}
	if err := opts.Metrics.watchUsage(opts.Usage); err != nil {
		s.log.Error("cannot export the model gateway's metrics", "err", err)
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.followsEnd = make(chan struct{})
	s.oc = opencode.New(opencode.Options{Host: openCodeHost{s}, Engine: opts.Engine, Hub: opts.Hub, Store: opts.Store,
		Logger: opts.Logger, KeepAlive: opts.KeepAlive, Done: s.ctx.Done(), WorkDirRoot: opts.WorkDirRoot})
	s.routes()
	return s
}

func (s *Server) routes() {
	for _, op := range append(s.operations(), s.openCodeOperations()...) {
		long := op.stream || op.long
		var h http.Handler = op.handler
		if !op.public {
			h = s.auth(op.handler, long, op.basic)
		}
		if long {
			h = Unbounded(h)
		}
		s.mux.Handle(op.method+" "+op.path, h)
	}
	if s.opts.Web != nil {
		ui := webUI(s.opts.Web)
		s.mux.Handle("GET /{$}", ui)
		s.mux.Handle("GET /assets/", ui)
	}
	s.mux.HandleFunc("/", s.noRoute)
}

// routeMethods are the methods noRoute tries on a path.
var routeMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}

// noRoute answers a request no endpoint took: 405 with Allow when the path
// exists under other methods (the catch-all "/" would otherwise take every
// method the mux's own 405 would have), else 404.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range routeMethods {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "" && pattern != "/" {
			allow = append(allow, m)
		}
	}
	if len(allow) == 0 {
		s.log.Debug("no such endpoint", "method", r.Method, "path", r.URL.Path)
		if r.URL.Path != "/v1" && !strings.HasPrefix(r.URL.Path, "/v1/") {
			// Outside /v1 the clients are OpenCode's, which show an
			// error of their own shape and fail on another.
			opencode.NotFound(w, r)
			return
		}
		writeError(w, errorf(http.StatusNotFound, "not_found", "no such endpoint: "+r.Method+" "+r.URL.Path))
		return
	}
	if slices.Contains(allow, "GET") {
		allow = append(allow, "HEAD")
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	msg := r.Method + " is not allowed on " + r.URL.Path + "; allowed: " + strings.Join(allow, ", ")
	if r.URL.Path != "/v1" && !strings.HasPrefix(r.URL.Path, "/v1/") {
		opencode.WriteError(w, http.StatusMethodNotAllowed, "method_not_allowed", msg)
		return
	}
	writeError(w, errorf(http.StatusMethodNotAllowed, "method_not_allowed", msg))
}

// streamEndTimeout bounds the writing of an unbounded route's end.
const streamEndTimeout = 10 * time.Second

// Unbounded lifts the server's write timeout (Options.Timeouts) from a
// route whose response lasts as long as the client follows it (a stream,
// a WebSocket, a prompt waiting for its turn, an MCP tool call), and its
// read timeout once the request body was read: a read deadline passing
// while the server waits for the client's next bytes would cancel the
// request. Such a stream bounds each of its writes itself.
func Unbounded(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		_ = rc.SetWriteDeadline(time.Time{})
		if r.Body == nil || r.Body == http.NoBody {
			_ = rc.SetReadDeadline(time.Time{})
		} else {
			r.Body = &readThenUnbounded{ReadCloser: r.Body, rc: rc}
		}
		next.ServeHTTP(w, r)
		// the response's end (a chunked stream's last chunk) is written
		// after the handler returns: a deadline one of its writes set
		// may have passed while the stream waited, which would cut the
		// response short of it
		_ = rc.SetWriteDeadline(time.Now().Add(streamEndTimeout))
	})
}

// readThenUnbounded lifts the read deadline when its body ends.
type readThenUnbounded struct {
	io.ReadCloser
	rc   *http.ResponseController
	done bool
}

func (b *readThenUnbounded) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
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

// readyTimeout bounds the store's answer to a readiness probe: a database
// that takes longer is as good as down.
const readyTimeout = 5 * time.Second

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if s.opts.Recorder != nil {
		if err := s.opts.Recorder.Healthy(); err != nil {
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "storage failing", "error": err.Error()})
			return
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	if err := store.Ping(ctx, s.opts.Store); err != nil {
		w.Header().Set("Retry-After", strconv.Itoa(int(storeRetryAfter/time.Second)))
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
// events on from the last one stored; one that never ran a turn starts
// its conversation then.
func (s *Server) Restore(ctx context.Context) (int, error) {
	list, err := s.opts.Store.ListSessions(ctx, "")
	if err != nil {
		return 0, err
	}
	n := 0
	for _, st := range list {
		err := s.restoreOne(ctx, st)
		switch {
		case err == nil:
			n++
		case errors.Is(err, engine.ErrSessionExists), errors.Is(err, errNotRestored):
		default:
			s.log.Warn("cannot restore session", "session", st.ID, "err", err)
		}
	}
	s.resumeQueues(ctx)
	return n, nil
}

// errNotRestored is a session restoreOne left out, having said why.
var errNotRestored = errors.New("session not restored")

// restoreOne puts a stored session into the engine: hibernated when it
// has a conversation to resume, new when it never ran a turn.
func (s *Server) restoreOne(ctx context.Context, st store.Session) error {
	cfg := engine.SessionConfig{WorkDir: st.WorkDir, Provider: st.Provider, Owner: st.Owner, Nonce: st.Nonce, ProviderSessionID: s.providerSessionID(ctx, st)}
	var o sessionOptions
	_ = json.Unmarshal(st.Options, &o)
	cfg.TaskInstructions, cfg.MCPServers = o.TaskInstructions, o.MCPServers
	restoreWorktree(o, &cfg)
	var err error
	if cfg.Policy, err = o.policy(); err != nil {
		// Restored without its rules, its denies would be lifted.
		s.log.Warn("session's permission rules no longer parse; not restored", "session", st.ID, "err", err)
		return errNotRestored
	}
	s.opts.Approvals.SetAsk(st.ID, o.Approval == "ask")
	put := func() error { return s.opts.Engine.RestoreSession(st.ID, cfg, st.LastSeq, storedStats(st)) }
	if st.LastSeq == 0 {
		// Never used: there is no conversation to resume.
		put = func() error { return s.opts.Engine.CreateSession(st.ID, cfg) }
	}
	err = put()
	if err != nil && st.Nonce == "" && errors.Is(err, engine.ErrInvalidWorkDir) {
		// Stored before each key had its own tree of work directories:
		// its directory lies outside its owner's.
		s.log.Warn("session from before per-owner work directories not restored; delete it and create it again",
			"session", st.ID, "owner", st.Owner, "work_dir", st.WorkDir)
		return errNotRestored
	}
	return err
}
