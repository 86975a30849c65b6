// Package opencode drives OpenCode's headless server (`opencode serve`)
// over HTTP and its server-sent event stream: one server process per
// conversation, listening on loopback; a session opened with POST
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
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
)

// Options configure the provider.
type Options struct {
	// Name is the provider's name (default "opencode-serve").
	Name string
	// Path is the opencode executable (default "opencode" from PATH).
	Path string
	// Env is added to the process environment (after StartOptions.Env).
	Env []string
	// StartTimeout bounds the server's start and session set-up (default 60s).
	StartTimeout time.Duration
	// InterruptGrace is how long an aborted turn may take to end before
	// the process is killed (default 5s).
	InterruptGrace time.Duration
	// TerminateGrace is the wait after stdin EOF and again after SIGTERM
	// when a process is ended (default 2s).
	TerminateGrace time.Duration
}

func (o *Options) grace(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Provider starts OpenCode servers.
type Provider struct {
	opts Options
}

// New returns an OpenCode server provider.
func New(opts Options) *Provider {
	if opts.Name == "" {
		opts.Name = "opencode-serve"
	}
	if opts.Path == "" {
		opts.Path = "opencode"
	}
	return &Provider{opts: opts}
}

// Name returns the provider's name.
func (p *Provider) Name() string { return p.opts.Name }

// Path returns the executable the provider runs.
func (p *Provider) Path() string { return p.opts.Path }

var listening = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)

// Start launches `opencode serve` on a loopback port, subscribes to its
// events and opens the session: the saved one when it still exists, a new
// one otherwise (then Info.Fallback says why).
func (p *Provider) Start(ctx context.Context, o provider.StartOptions) (provider.Process, error) {
	if o.ProviderSessionID == "" {
		return nil, fmt.Errorf("%w: no provider session ID", provider.ErrStartFailed)
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
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
	c := &process{
		cp: cp, cfg: &p.opts, log: log.With("pid", cp.PID(), "provider", p.opts.Name),
		info: provider.Info{PID: cp.PID()}, dir: o.WorkDir,
		http:   &http.Client{},
		seen:   map[string]bool{},
		events: make(chan struct{}),
	}
	startCtx, cancel := context.WithTimeout(ctx, p.opts.grace(p.opts.StartTimeout, 60*time.Second))
	defer cancel()
	if err := c.open(startCtx, o); err != nil {
		closeCtx, cancelClose := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancelClose()
		if cerr := c.Close(closeCtx); cerr != nil {
			c.log.Debug("closing a failed start", "err", cerr)
		}
		return nil, err
	}
	return c, nil
}

// process is one running server and its session.
type process struct {
	cp   *proc.Process
	cfg  *Options
	log  *slog.Logger
	http *http.Client
	base string
	dir  string

	sessionID string

	infoMu sync.Mutex
	info   provider.Info

	turnMu sync.Mutex
	// seen holds the IDs of the messages earlier turns saw (used by the
	// turn holding turnMu).
	seen map[string]bool

	curMu sync.Mutex
	cur   *queue

	// stream is the event subscription; events is closed when its reader
	// has ended.
	stream     io.Closer
	events     chan struct{}
	streamOnce sync.Once
}

func (c *process) open(ctx context.Context, o provider.StartOptions) error {
	// The server announces its address on stdout.
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(c.cp.Stdout())
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
			return c.startErr(ctx, errors.New("exited before it listened"))
		}
		c.base = a
	case <-ctx.Done():
		return c.startErr(ctx, context.Cause(ctx))
	}
	if err := c.subscribe(ctx); err != nil {
		return c.startErr(ctx, err)
	}
	fallback, resumed := "", false
	if o.Resume {
		var s struct {
			ID string `json:"id"`
		}
		err := c.do(ctx, http.MethodGet, "/session/"+o.ProviderSessionID, nil, &s)
		if err == nil && s.ID == o.ProviderSessionID {
			c.sessionID, resumed = s.ID, true
		} else {
			fallback = "OpenCode has no saved session " + o.ProviderSessionID + " in this work directory; started a new one"
		}
	}
	if c.sessionID == "" {
		var s struct {
			ID string `json:"id"`
		}
		if err := c.do(ctx, http.MethodPost, "/session", map[string]any{}, &s); err != nil {
			return c.startErr(ctx, err)
		}
		if s.ID == "" {
			return c.startErr(ctx, errors.New("POST /session returned no session ID"))
		}
		c.sessionID = s.ID
	}
	c.infoMu.Lock()
	c.info.ProviderSessionID = c.sessionID
	c.info.Resumed = resumed
	c.info.Fallback = fallback
	c.infoMu.Unlock()
	return nil
}

// do sends one API request with the work directory, decoding the answer
// into out (when non-nil).
func (c *process) do(ctx context.Context, method, path string, body, out any) error {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", method, path, err)
		}
		r = strings.NewReader(string(b))
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, r)
	if err != nil {
		return err
	}
	q := req.URL.Query()
	q.Set("directory", c.dir)
	req.URL.RawQuery = q.Encode()
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
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

// subscribe opens GET /event and starts its reader, which hands every bus
// event to the turn in progress.
func (c *process) subscribe(ctx context.Context) error {
	req, err := http.NewRequestWithContext(context.WithoutCancel(ctx), http.MethodGet, c.base+"/event?directory="+urlQuery(c.dir), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	connected := make(chan error, 1)
	go func() {
		resp, err := c.http.Do(req)
		if err != nil {
			connected <- fmt.Errorf("GET /event: %w", err)
			close(c.events)
			return
		}
		if resp.StatusCode != http.StatusOK {
			_ = resp.Body.Close()
			connected <- fmt.Errorf("GET /event: %s", resp.Status)
			close(c.events)
			return
		}
		c.curMu.Lock()
		c.stream = resp.Body
		c.curMu.Unlock()
		connected <- nil
		defer close(c.events)
		defer resp.Body.Close()
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
			c.curMu.Lock()
			q := c.cur
			c.curMu.Unlock()
			if q != nil {
				q.push(ev)
			}
		}
	}()
	select {
	case err := <-connected:
		return err
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

func urlQuery(s string) string {
	r := strings.NewReplacer("%", "%25", "&", "%26", "+", "%2B", " ", "%20", "#", "%23", "?", "%3F")
	return r.Replace(s)
}

func (c *process) startErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		err = context.Cause(ctx)
	}
	msg := err.Error()
	if exit := c.cp.ExitError(); exit != nil {
		msg += " (" + exit.Error() + ")"
	}
	if tail := c.cp.StderrTail(); tail != "" {
		msg += "; stderr: " + tail
	}
	return fmt.Errorf("%w: %s", provider.ErrStartFailed, msg)
}

func (c *process) deadErr(what string) error {
	t := time.NewTimer(2 * time.Second)
	defer t.Stop()
	select {
	case <-c.cp.Done():
	case <-t.C:
	}
	msg := what
	if exit := c.cp.ExitError(); exit != nil {
		msg += " (" + exit.Error() + ")"
	}
	if tail := c.cp.StderrTail(); tail != "" {
		msg += "; stderr: " + tail
	}
	return fmt.Errorf("%w: %s", provider.ErrSessionDead, msg)
}

func (c *process) Info() provider.Info {
	c.infoMu.Lock()
	defer c.infoMu.Unlock()
	return c.info
}

func (c *process) Alive() bool {
	select {
	case <-c.events:
		return false
	default:
	}
	return !c.cp.Exited()
}

func (c *process) StderrTail() string { return c.cp.StderrTail() }

var errProcessClosed = fmt.Errorf("%w: the session was terminated", provider.ErrSessionDead)

// Close ends the server's process tree and the event subscription.
func (c *process) Close(ctx context.Context) error {
	c.curMu.Lock()
	if c.cur != nil {
		c.cur.abort(errProcessClosed)
	}
	stream := c.stream
	c.curMu.Unlock()
	err := c.cp.Terminate(ctx, c.cfg.grace(c.cfg.TerminateGrace, 2*time.Second))
	_ = c.cp.Stdout().Close()
	if stream != nil {
		_ = stream.Close()
	}
	select {
	case <-c.events:
	case <-ctx.Done():
		if err == nil {
			err = ctx.Err()
		}
	}
	c.http.CloseIdleConnections()
	return err
}
