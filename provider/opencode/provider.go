// Package opencode drives OpenCode's headless server (`opencode serve`)
// over HTTP and its server-sent event stream: one server process per work
// directory, listening on loopback and shared by the conversations in that
// directory, each an OpenCode session; a session opened with POST
// /session (or found again by its ID), prompts sent with prompt_async,
// bus events turned into normalized events until the session goes idle,
// permission requests answered through HotPlex's permission hook and
// firewall, and POST /session/{id}/abort for Stop.
package opencode

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/internal/mailbox"
)

// Options configure the provider.
type Options struct {
	// Name is the provider's name (default "opencode-serve").
	Name string
	// Path is the opencode executable (default "opencode" from PATH).
	Path string
	// Env is added to the process environment (after StartOptions.Env).
	Env []string
	// Timeouts bound the server's start and session set-up, an aborted
	// turn's end, and a server's end.
	provider.Timeouts
}

// Provider starts OpenCode servers, one per work directory, and opens a
// session on one for each conversation.
type Provider struct {
	opts Options

	mu      sync.Mutex
	servers map[string]*serverEntry
}

// serverEntry is a work directory's server, or its start under way.
type serverEntry struct {
	ready chan struct{}
	srv   *server
	err   error
}

// New returns an OpenCode server provider.
func New(opts Options) *Provider {
	if opts.Name == "" {
		opts.Name = "opencode-serve"
	}
	if opts.Path == "" {
		opts.Path = "opencode"
	}
	return &Provider{opts: opts, servers: map[string]*serverEntry{}}
}

// Name returns the provider's name.
func (p *Provider) Name() string { return p.opts.Name }

// Path returns the executable the provider runs.
func (p *Provider) Path() string { return p.opts.Path }

var listening = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)

// Start opens the conversation on the work directory's server, starting
// the server when there is none (or it has died): the saved session when
// it still exists, a new one otherwise (then Info.Fallback says why).
func (p *Provider) Start(ctx context.Context, o provider.StartOptions) (provider.Process, error) {
	if o.ProviderSessionID == "" {
		return nil, fmt.Errorf("%w: no provider session ID", provider.ErrStartFailed)
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	startCtx, cancel := context.WithTimeout(ctx, p.opts.Start())
	defer cancel()
	srv, err := p.server(startCtx, o, log)
	if err != nil {
		return nil, err
	}
	c := &process{srv: srv, cfg: &p.opts, log: log.With("pid", srv.cp.PID(), "provider", p.opts.Name), seen: map[string]bool{}}
	if err := c.open(startCtx, o); err != nil {
		srv.release(c)
		return nil, err
	}
	srv.attach(c)
	return c, nil
}

// server returns the live server of o.WorkDir with a reference taken,
// starting one when needed.
func (p *Provider) server(ctx context.Context, o provider.StartOptions, log *slog.Logger) (*server, error) {
	for {
		p.mu.Lock()
		e := p.servers[o.WorkDir]
		if e == nil {
			e = &serverEntry{ready: make(chan struct{})}
			p.servers[o.WorkDir] = e
			p.mu.Unlock()
			e.srv, e.err = p.launch(ctx, o, log)
			if e.err != nil {
				p.mu.Lock()
				delete(p.servers, o.WorkDir)
				p.mu.Unlock()
			}
			close(e.ready)
			if e.err != nil {
				return nil, e.err
			}
			if e.srv.acquire() {
				return e.srv, nil
			}
			continue
		}
		p.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: waiting for the work directory's server: %w", provider.ErrStartFailed, context.Cause(ctx))
		}
		if e.err == nil && e.srv.alive() && e.srv.acquire() {
			return e.srv, nil
		}
		// A server that failed, died or is closing: the next Start replaces it.
		p.mu.Lock()
		if p.servers[o.WorkDir] == e {
			delete(p.servers, o.WorkDir)
		}
		p.mu.Unlock()
		if e.srv != nil {
			e.srv.closeIfUnused(ctx)
		}
	}
}

// forget drops srv from the provider's table if it is still there.
func (p *Provider) forget(srv *server) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e := p.servers[srv.dir]; e != nil && e.srv == srv {
		delete(p.servers, srv.dir)
	}
}

// launch starts `opencode serve` in o.WorkDir and subscribes to its events.
func (p *Provider) launch(ctx context.Context, o provider.StartOptions, log *slog.Logger) (*server, error) {
	srv, err := p.spawn(ctx, o, log)
	if err != nil {
		return nil, err
	}
	if err := srv.subscribe(ctx); err != nil {
		return nil, srv.fail(ctx, err)
	}
	return srv, nil
}

// spawn starts `opencode serve` in o.WorkDir and waits for its address.
func (p *Provider) spawn(ctx context.Context, o provider.StartOptions, log *slog.Logger) (*server, error) {
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	env = append(slices.Clone(env), p.opts.Env...)
	cp, err := proc.Start(proc.Spec{
		Path: p.opts.Path, Args: []string{"serve", "--hostname", "127.0.0.1", "--port", "0"}, Dir: o.WorkDir, Env: env,
		Marker: uuid.NewString(), CgroupRoot: o.CgroupRoot,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", provider.ErrStartFailed, p.opts.Path, err)
	}
	srv := &server{
		p: p, cp: cp, dir: o.WorkDir, log: log.With("pid", cp.PID(), "provider", p.opts.Name),
		http: &http.Client{}, events: make(chan struct{}), sessions: map[string]*process{},
		terminateGrace: p.opts.Terminate(),
	}
	if err := srv.listen(ctx); err != nil {
		return nil, srv.fail(ctx, err)
	}
	return srv, nil
}

// fail ends a server whose start failed with err and returns err.
func (s *server) fail(ctx context.Context, err error) error {
	closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if cerr := s.terminate(closeCtx); cerr != nil {
		s.log.Debug("closing a failed start", "err", cerr)
	}
	return err
}

// server is one running `opencode serve` and the sessions open on it.
type server struct {
	p    *Provider
	cp   *proc.Process
	dir  string
	log  *slog.Logger
	http *http.Client
	base string

	terminateGrace time.Duration

	// events is closed when the event subscription has ended.
	events chan struct{}

	mu         sync.Mutex
	subscribed bool // the event subscription was started (events will close)
	stream     io.Closer
	sessions   map[string]*process // by OpenCode session ID
	refs       int
	closing    bool
}

func (s *server) alive() bool {
	select {
	case <-s.events:
		return false
	default:
	}
	return !s.cp.Ending()
}

// acquire takes a reference, unless the server is closing.
func (s *server) acquire() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.refs++
	return true
}

func (s *server) attach(c *process) {
	s.mu.Lock()
	s.sessions[c.sessionID] = c
	s.mu.Unlock()
}

// release gives c's reference back; the last one ends the server.
func (s *server) release(c *process) (last bool) {
	s.mu.Lock()
	if s.sessions[c.sessionID] == c {
		delete(s.sessions, c.sessionID)
	}
	s.refs--
	last = s.refs <= 0 && !s.closing
	if last {
		s.closing = true
	}
	s.mu.Unlock()
	if last {
		s.p.forget(s)
	}
	return last
}

// closeIfUnused ends a dead or failed server nobody holds.
func (s *server) closeIfUnused(ctx context.Context) {
	s.mu.Lock()
	unused := s.refs <= 0 && !s.closing
	if unused {
		s.closing = true
	}
	s.mu.Unlock()
	if unused {
		_ = s.terminate(ctx)
	}
}

// listen waits for the server's address.
func (s *server) listen(ctx context.Context) error {
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(s.cp.Stdout())
		found := false
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil && !found {
				found = true
				addr <- m[1]
			}
		}
		close(addr)
	}()
	select {
	case a, ok := <-addr:
		if !ok {
			return s.startErr(ctx, errors.New("exited before it listened"))
		}
		s.base = a
	case <-ctx.Done():
		return s.startErr(ctx, context.Cause(ctx))
	}
	return nil
}

// do sends one API request with the work directory, decoding the answer
// into out (when non-nil).
func (s *server) do(ctx context.Context, method, path string, body, out any) error {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", method, path, err)
		}
		r = strings.NewReader(string(b))
	}
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, r)
	if err != nil {
		return err
	}
	q := req.URL.Query()
	q.Set("directory", s.dir)
	req.URL.RawQuery = q.Encode()
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := s.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, strings.TrimSpace(string(b)))
	}
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("%s %s: decode: %w", method, path, err)
		}
	}
	return nil
}

// eventSession is where a bus event says which session it concerns.
type eventSession struct {
	SessionID string `json:"sessionID"`
	Part      *struct {
		SessionID string `json:"sessionID"`
	} `json:"part"`
	Info *struct {
		SessionID string `json:"sessionID"`
	} `json:"info"`
}

func (e eventSession) id() string {
	switch {
	case e.SessionID != "":
		return e.SessionID
	case e.Part != nil:
		return e.Part.SessionID
	case e.Info != nil:
		return e.Info.SessionID
	}
	return ""
}

// subscribe opens GET /event of the server's directory and starts its
// reader, which hands every bus event to the turn in progress of the
// session it concerns. It fails with ErrStartFailed.
func (s *server) subscribe(ctx context.Context) error {
	q := url.Values{"directory": {s.dir}}
	req, err := http.NewRequestWithContext(context.WithoutCancel(ctx), http.MethodGet, s.base+"/event?"+q.Encode(), nil)
	if err != nil {
		return s.startErr(ctx, err)
	}
	req.Header.Set("Accept", "text/event-stream")
	connected := make(chan error, 1)
	s.mu.Lock()
	s.subscribed = true
	s.mu.Unlock()
	go func() {
		defer close(s.events)
		resp, err := s.http.Do(req)
		if err != nil {
			connected <- fmt.Errorf("GET /event: %w", err)
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			connected <- fmt.Errorf("GET /event: %s", resp.Status)
			return
		}
		s.mu.Lock()
		s.stream = resp.Body
		s.mu.Unlock()
		connected <- nil
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data:")
			if !ok {
				continue
			}
			var ev busEvent
			if json.Unmarshal([]byte(strings.TrimSpace(data)), &ev) != nil {
				continue
			}
			var es eventSession
			_ = json.Unmarshal(ev.Properties, &es)
			s.mu.Lock()
			c := s.sessions[es.id()]
			s.mu.Unlock()
			if c != nil {
				c.deliver(ev)
			}
		}
	}()
	select {
	case err := <-connected:
		if err != nil {
			return s.startErr(ctx, err)
		}
		return nil
	case <-ctx.Done():
		return s.startErr(ctx, context.Cause(ctx))
	}
}

func (s *server) startErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		err = context.Cause(ctx)
	}
	return fmt.Errorf("%w: %s", provider.ErrStartFailed, s.cp.Explain(err.Error(), 0))
}

// terminate ends the server's process tree and the event subscription.
func (s *server) terminate(ctx context.Context) error {
	err := s.cp.Terminate(ctx, s.terminateGrace)
	_ = s.cp.Stdout().Close()
	s.mu.Lock()
	stream, subscribed := s.stream, s.subscribed
	s.mu.Unlock()
	if stream != nil {
		_ = stream.Close()
	}
	if subscribed {
		select {
		case <-s.events:
		case <-ctx.Done():
			if err == nil {
				err = ctx.Err()
			}
		}
	}
	s.http.CloseIdleConnections()
	return err
}

// process is one conversation: an OpenCode session on a shared server.
type process struct {
	srv *server
	cfg *Options
	log *slog.Logger

	sessionID string

	infoMu sync.Mutex
	info   provider.Info

	turnMu sync.Mutex
	// seen holds the IDs of the messages earlier turns saw (used by the
	// turn holding turnMu).
	seen map[string]bool

	// cur is the turn that receives the session's bus events (none
	// between turns: what arrives then is dropped).
	cur mailbox.Slot[busEvent]
	// closedMu guards closed.
	closedMu sync.Mutex
	closed   bool
}

// deliver hands a bus event to the turn in progress; between turns it is
// dropped.
func (c *process) deliver(ev busEvent) {
	if q := c.cur.Current(); q != nil {
		q.Push(ev)
	}
}

func (c *process) do(ctx context.Context, method, path string, body, out any) error {
	return c.srv.do(ctx, method, path, body, out)
}

func (c *process) open(ctx context.Context, o provider.StartOptions) error {
	fallback, resumed := "", false
	var s struct {
		ID string `json:"id"`
	}
	if o.Resume {
		err := c.do(ctx, http.MethodGet, "/session/"+url.PathEscape(o.ProviderSessionID), nil, &s)
		if err == nil && s.ID == o.ProviderSessionID {
			c.sessionID, resumed = s.ID, true
		} else {
			fallback = "OpenCode has no saved session " + o.ProviderSessionID + " in this work directory; started a new one"
		}
	}
	if c.sessionID == "" {
		if err := c.do(ctx, http.MethodPost, "/session", map[string]any{}, &s); err != nil {
			return c.srv.startErr(ctx, err)
		}
		if s.ID == "" {
			return c.srv.startErr(ctx, errors.New("POST /session returned no session ID"))
		}
		c.sessionID = s.ID
	}
	c.infoMu.Lock()
	c.info = provider.Info{PID: c.srv.cp.PID(), ProviderSessionID: c.sessionID, Resumed: resumed, Fallback: fallback}
	c.infoMu.Unlock()
	return nil
}

func (c *process) deadErr(what string) error {
	return fmt.Errorf("%w: %s", provider.ErrSessionDead, c.srv.cp.Explain(what, 2*time.Second))
}

func (c *process) Info() provider.Info {
	c.infoMu.Lock()
	defer c.infoMu.Unlock()
	return c.info
}

func (c *process) Alive() bool {
	c.closedMu.Lock()
	closed := c.closed
	c.closedMu.Unlock()
	return !closed && c.srv.alive()
}

func (c *process) StderrTail() string { return c.srv.cp.StderrTail() }

var errProcessClosed = fmt.Errorf("%w: the session was terminated", provider.ErrSessionDead)

// Close leaves the session; the last session to leave a server ends the
// server's process tree.
func (c *process) Close(ctx context.Context) error {
	c.closedMu.Lock()
	if c.closed {
		c.closedMu.Unlock()
		return nil
	}
	c.closed = true
	c.closedMu.Unlock()
	busy := c.cur.Abort(errProcessClosed)
	if c.srv.release(c) {
		return c.srv.terminate(ctx)
	}
	if busy && c.srv.alive() {
		// The server goes on serving others: stop this session's work.
		if err := c.do(ctx, http.MethodPost, "/session/"+c.sessionID+"/abort", map[string]any{}, nil); err != nil {
			c.log.Debug("abort on close", "err", err)
		}
	}
	return nil
}
