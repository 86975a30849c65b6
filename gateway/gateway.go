// Package gateway is the model-API gateway agents talk to. HotPlex holds the
// operator's (or a tenant's) real model keys; each agent process gets a
// base URL on the gateway and a token of its own, good for its session
// only and revoked when the process ends. The gateway forwards every call
// upstream with the real key, streaming intact, reads the usage each
// response reports, prices it, and refuses calls once a session or an API
// key is over its budget.
//
// It speaks the APIs agents already do: Anthropic Messages (under
// /anthropic), OpenAI Chat Completions and Responses (/openai/v1) and
// Gemini (/gemini).
package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// Upstream is where one API's calls go, and with which key.
type Upstream struct {
	// BaseURL is the API's base URL in the convention of its environment
	// variable (ANTHROPIC_BASE_URL, OPENAI_BASE_URL ending in /v1,
	// GOOGLE_GEMINI_BASE_URL). Empty: the public endpoint.
	BaseURL string `yaml:"base_url"`
	// APIKey is the real key. Empty: calls go upstream without one (a
	// local model server, say).
	APIKey string `yaml:"api_key"`
}

// Options configure a Gateway. The zero value forwards to the public
// endpoints without keys, prices by DefaultPrices and has no budgets.
type Options struct {
	// Upstreams are the operator's model APIs, by API.
	Upstreams map[API]Upstream
	// OwnerUpstreams replace Upstreams for the sessions of one owner (an
	// API key that brings its own model keys), by owner and API. An entry
	// without a base URL uses the operator's.
	OwnerUpstreams map[string]map[API]Upstream
	// Prices are laid over DefaultPrices.
	Prices Prices
	// SessionBudgetUSD bounds what one session may spend (0: no bound).
	SessionBudgetUSD float64
	// OwnerBudgetUSD bounds what all sessions of one API key may spend
	// together (0: no bound); OwnerBudgets sets it per owner.
	OwnerBudgetUSD float64
	OwnerBudgets   map[string]float64
	// OnBudgetExceeded is called when a call is refused for being over
	// budget, before the refusal is sent, and when a call's cost takes a
	// session or owner over its budget. The daemon ends the session's turn
	// here. It must not block for long.
	OnBudgetExceeded func(*BudgetError)
	// Ledger, when set, receives what is metered, so that spend outlives
	// the process (a writer runs until Close); Spent is what it held at
	// start, counted toward the budgets from the first call.
	Ledger Ledger
	Spent  []UsageCell
	// FlushEvery is how long the gateway gathers metered calls before
	// writing them to the Ledger in one batch (default 200ms): a crash
	// loses at most that much spend, and Close writes what is left.
	FlushEvery time.Duration
	// Transport carries calls upstream (default: a transport tuned for
	// many concurrent streams to few hosts).
	Transport http.RoundTripper
	// Logger receives one line per call; tokens and keys are never logged.
	Logger *slog.Logger
}

// Gateway forwards agents' model calls. Create it with New; serve it on
// its own listener with Start, or mount it (it is an http.Handler) at the
// root of any server whose URL is then given to Start's alternative,
// SetURL.
type Gateway struct {
	opts   Options
	prices Prices
	log    *slog.Logger
	client *http.Client
	tokens *tokens
	meter  *meter

	flushNow  chan struct{}
	stopFlush chan struct{}
	flushDone chan struct{}
	closeOnce sync.Once
	flushMu   sync.Mutex // one Ledger write at a time, in metering order

	mu  sync.Mutex
	url string
	srv *http.Server
	ln  net.Listener
	run sync.WaitGroup
}

// New returns a gateway with opts.
func New(opts Options) *Gateway {
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	rt := opts.Transport
	if rt == nil {
		rt = &http.Transport{
			Proxy:       http.ProxyFromEnvironment,
			DialContext: (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			// Every agent's calls go to the same few hosts: keep a
			// connection per concurrent stream instead of the default two.
			MaxIdleConns: 256, MaxIdleConnsPerHost: 64, IdleConnTimeout: 90 * time.Second,
			TLSHandshakeTimeout: 10 * time.Second, ForceAttemptHTTP2: true,
			// Compressed streams would have to be decompressed to be
			// metered, and gzip holds back what it has not filled a block with.
			DisableCompression: true,
		}
	}
	g := &Gateway{
		opts: opts, prices: DefaultPrices().With(opts.Prices), log: log,
		// No overall timeout: a model stream lasts as long as it lasts;
		// the agent's own request context ends it.
		client: &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		tokens: newTokens(), meter: newMeter(),
	}
	g.meter.restore(opts.Spent)
	if opts.Ledger != nil {
		if g.opts.FlushEvery <= 0 {
			g.opts.FlushEvery = 200 * time.Millisecond
		}
		g.flushNow, g.stopFlush, g.flushDone = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
		go g.flusher()
	}
	return g
}

// Start serves the gateway on its own listener at addr ("127.0.0.1:0"
// picks a free port). The gateway listens apart from the daemon's API on
// purpose: it is for agent processes on this machine, so it stays on
// loopback even when the API is served to the network, and its tokens are
// worthless off the machine.
func (g *Gateway) Start(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("gateway: listen %s: %w", addr, err)
	}
	srv := &http.Server{Handler: g, ReadHeaderTimeout: 30 * time.Second, ErrorLog: slog.NewLogLogger(g.log.Handler(), slog.LevelWarn)}
	g.mu.Lock()
	g.srv, g.ln, g.url = srv, ln, "http://"+ln.Addr().String()
	g.mu.Unlock()
	g.run.Go(func() { _ = srv.Serve(ln) })
	return nil
}

// SetURL tells a mounted gateway the URL agents reach it at.
func (g *Gateway) SetURL(url string) {
	g.mu.Lock()
	g.url = url
	g.mu.Unlock()
}

// URL is the gateway's base URL for agents ("" before Start or SetURL).
func (g *Gateway) URL() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.url
}

// Close stops the listener Start opened, waiting up to ctx for calls in
// flight, then writes what the Ledger lacks.
func (g *Gateway) Close(ctx context.Context) error {
	g.mu.Lock()
	srv := g.srv
	g.srv = nil
	g.mu.Unlock()
	var err error
	if srv != nil {
		err = srv.Shutdown(ctx)
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			err = srv.Close()
		}
		g.run.Wait()
	}
	if g.opts.Ledger != nil {
		g.closeOnce.Do(func() { close(g.stopFlush) })
		<-g.flushDone
		// A mounted gateway's calls may still finish after this: what
		// they meter is written by a later Flush, or lost.
		err = errors.Join(err, g.Flush(context.WithoutCancel(ctx)))
	}
	return err
}

// Report returns the totals metered so far.
func (g *Gateway) Report() Report { return g.meter.report() }

// Usage returns every cell metered, those restored from Spent included,
// in no particular order.
func (g *Gateway) Usage() []UsageCell { return g.meter.snapshot() }

// ForgetSession drops a deleted session's own totals; what it spent still
// counts toward its owner's budget. Call it before deleting the session's
// rows from the Ledger's store, so no later write brings them back.
func (g *Gateway) ForgetSession(sessionID string) { g.meter.forget(sessionID) }

// SessionTotals returns one session's totals.
func (g *Gateway) SessionTotals(sessionID string) Totals { return g.Report().Sessions[sessionID] }

// LiveTokens counts the tokens not yet revoked.
func (g *Gateway) LiveTokens() int { return g.tokens.live() }

// upstream is where owner's calls to a go.
func (g *Gateway) upstream(a API, owner string) Upstream {
	up := g.opts.Upstreams[a]
	if o, ok := g.opts.OwnerUpstreams[owner][a]; ok && owner != "" {
		if o.BaseURL != "" {
			up.BaseURL = o.BaseURL
		}
		up.APIKey = o.APIKey
	}
	if up.BaseURL == "" {
		up.BaseURL = a.defaultBaseURL()
	}
	return up
}
