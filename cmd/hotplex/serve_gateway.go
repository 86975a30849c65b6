package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/gateway"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/store"
)

// modelGateway is the daemon's model gateway and the engine whose turns it
// ends when a budget is spent.
type modelGateway struct {
	gw  *gateway.Gateway
	eng atomic.Pointer[engine.Engine]
}

// startGateway starts the gateway cfg describes on its own loopback
// listener, or returns nil when cfg turns it off. Upstreams the
// configuration leaves out come from the daemon's environment (getenv);
// offlineURL, when set, is the built-in model every API goes to instead.
// What the gateway meters is kept in ledger, and what ledger holds counts
// toward the budgets from the start.
func startGateway(ctx context.Context, cfg serveConfig, ledger store.UsageStore, offlineURL string, getenv func(string) string, log *slog.Logger, stdout io.Writer) (*modelGateway, error) {
	if cfg.Gateway == "off" {
		fmt.Fprintln(stdout, "The model gateway is off: agents inherit the daemon's environment, model keys included.")
		return nil, nil
	}
	spent, err := ledger.ModelUsage(ctx)
	if err != nil {
		return nil, fmt.Errorf("model spend: %w", err)
	}
	mg := &modelGateway{}
	opts := gateway.Options{
		Ledger: usageLedger{ledger}, Spent: cellsOf(spent),
		Upstreams: upstreamsFor(cfg.Upstreams, offlineURL, getenv), Prices: cfg.Prices,
		SessionBudgetUSD: cfg.BudgetUSD, OwnerBudgetUSD: cfg.KeyBudgetUSD,
		OwnerBudgets: map[string]float64{}, OwnerUpstreams: map[string]map[gateway.API]gateway.Upstream{},
		Logger: log.With("component", "gateway"),
		OnBudgetExceeded: func(e *gateway.BudgetError) {
			// The refused call's turn ends with the budget error as its
			// cause: its error event and result say budget_exceeded.
			if eng := mg.eng.Load(); eng != nil {
				eng.EndTurn(e.SessionID, e)
			}
		},
	}
	for _, k := range cfg.Keys {
		owner := configKeyID(k.Name) // the ID ensureKeys stores the key under
		if k.BudgetUSD != nil {
			opts.OwnerBudgets[owner] = *k.BudgetUSD
		}
		if len(k.Upstreams) > 0 {
			opts.OwnerUpstreams[owner] = k.Upstreams
		}
	}
	if up := opts.Upstreams[gateway.Anthropic]; up.APIKey == "" && offlineURL == "" {
		log.Warn("the model gateway has no Anthropic key: set ANTHROPIC_API_KEY or upstreams.anthropic.api_key")
	}
	if err := hideSecretsFromAgents(); err != nil {
		log.Warn("cannot make the daemon non-dumpable; agents of the same user may read its environment", "err", err)
	}
	mg.gw = gateway.New(opts)
	if err := mg.gw.Start(cfg.GatewayListen); err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "Agents reach their models through the gateway at %s with per-session tokens.\n", mg.gw.URL())
	return mg, nil
}

// upstreamsFor completes the configured upstreams from the environment.
func upstreamsFor(configured map[gateway.API]gateway.Upstream, offlineURL string, getenv func(string) string) map[gateway.API]gateway.Upstream {
	first := func(keys ...string) string {
		for _, k := range keys {
			if v := getenv(k); v != "" {
				return v
			}
		}
		return ""
	}
	fromEnv := map[gateway.API]gateway.Upstream{
		gateway.Anthropic: {BaseURL: getenv("ANTHROPIC_BASE_URL"), APIKey: getenv("ANTHROPIC_API_KEY")},
		gateway.OpenAI:    {BaseURL: first("OPENAI_BASE_URL", "OPENAI_API_BASE"), APIKey: getenv("OPENAI_API_KEY")},
		gateway.Gemini:    {BaseURL: first("GOOGLE_GEMINI_BASE_URL", "GEMINI_BASE_URL"), APIKey: first("GEMINI_API_KEY", "GOOGLE_API_KEY")},
	}
	if offlineURL != "" {
		fromEnv = map[gateway.API]gateway.Upstream{
			gateway.Anthropic: {BaseURL: offlineURL}, gateway.OpenAI: {BaseURL: offlineURL + "/v1"}, gateway.Gemini: {BaseURL: offlineURL},
		}
	}
	out := map[gateway.API]gateway.Upstream{}
	for _, a := range gateway.APIs {
		up, ok := configured[a]
		if !ok {
			up = fromEnv[a]
		}
		out[a] = up
	}
	return out
}

// credentials is what the engine issues agents' credentials with (nil:
// the gateway is off and agents inherit the environment).
func (m *modelGateway) credentials() engine.Credentials {
	if m == nil {
		return nil
	}
	return m.gw
}

// agentsEnv is the environment agent presets are configured from: base,
// with every agent's base URL on the gateway. The keys come per process.
func (m *modelGateway) agentsEnv(base []string) []string {
	if m == nil {
		return base
	}
	return append(append([]string(nil), base...), gateway.ModelEnv(m.gw.URL(), "")...)
}

// attach lets budget refusals end eng's turns.
func (m *modelGateway) attach(eng *engine.Engine) {
	if m != nil {
		m.eng.Store(eng)
	}
}

// close stops the gateway once the engine has ended every agent, and
// writes the spend not yet recorded.
func (m *modelGateway) close(log *slog.Logger) {
	if m == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := m.gw.Close(ctx); err != nil {
		log.Error("model gateway: closing", "err", err)
	}
}

// usage is what /v1/usage and /metrics read (nil: the gateway is off).
func (m *modelGateway) usage() server.UsageSource {
	if m == nil {
		return nil
	}
	return m.gw
}

// sessions is st as the API server should use it: deleting a session
// first makes the gateway forget the session's own totals, so no later
// write of them outlives the session's rows (its key keeps the spend).
func (m *modelGateway) sessions(st store.Store) store.Store {
	if m == nil {
		return st
	}
	return forgetfulStore{Store: st, gw: m.gw}
}

type forgetfulStore struct {
	store.Store
	gw *gateway.Gateway
}

func (f forgetfulStore) DeleteSession(ctx context.Context, id string) error {
	f.gw.ForgetSession(id)
	return f.Store.DeleteSession(ctx, id)
}

// usageLedger keeps the gateway's spend in the store.
type usageLedger struct{ st store.UsageStore }

func (l usageLedger) AddUsage(ctx context.Context, cells []gateway.UsageCell) error {
	rows := make([]store.ModelUsage, len(cells))
	for i, c := range cells {
		rows[i] = store.ModelUsage{SessionID: c.SessionID, Owner: c.Owner, Model: c.Model, Requests: c.Requests,
			InputTokens: c.InputTokens, OutputTokens: c.OutputTokens, CacheReadTokens: c.CacheReadTokens,
			CacheWriteTokens: c.CacheWriteTokens, CostUSD: c.CostUSD, Unmetered: c.Unmetered, Rejected: c.Rejected}
	}
	return l.st.AddModelUsage(ctx, rows)
}

func cellsOf(rows []store.ModelUsage) []gateway.UsageCell {
	cells := make([]gateway.UsageCell, len(rows))
	for i, r := range rows {
		cells[i] = gateway.UsageCell{SessionID: r.SessionID, Owner: r.Owner, Model: r.Model, Totals: gateway.Totals{
			Requests: r.Requests, Usage: gateway.Usage{InputTokens: r.InputTokens, OutputTokens: r.OutputTokens,
				CacheReadTokens: r.CacheReadTokens, CacheWriteTokens: r.CacheWriteTokens},
			CostUSD: r.CostUSD, Unmetered: r.Unmetered, Rejected: r.Rejected}}
	}
	return cells
}
