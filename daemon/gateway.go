package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/gateway"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/webhook"
)

// modelGateway is the daemon's model gateway and the engine whose turns it
// ends when a budget is spent. The engine is built after the gateway (its
// agents need the gateway's address), so it is attached later.
type modelGateway struct {
	gw    *gateway.Gateway
	eng   atomic.Pointer[engine.Engine]
	hooks atomic.Pointer[webhook.Notifier]
}

// startGateway starts the gateway c describes on its own loopback
// listener. What the gateway meters is kept
// in ledger, and what ledger already holds counts toward the budgets from
// the start, so a restart forgives no spend.
func startGateway(ctx context.Context, c *GatewayConfig, keys []Key, ledger store.UsageStore, log *slog.Logger, out io.Writer) (*modelGateway, error) {
	spent, err := ledger.ModelUsage(ctx)
	if err != nil {
		return nil, fmt.Errorf("model spend: %w", err)
	}
	mg := &modelGateway{}
	opts := gateway.Options{
		Ledger: usageLedger{ledger}, Spent: cellsOf(spent),
		Upstreams: c.Upstreams, Prices: c.Prices,
		SessionBudgetUSD: c.SessionBudgetUSD, OwnerBudgetUSD: c.OwnerBudgetUSD,
		OwnerBudgets: map[string]float64{}, OwnerUpstreams: map[string]map[gateway.API]gateway.Upstream{},
		Logger: log.With("component", "gateway"),
		OnBudgetExceeded: func(e *gateway.BudgetError) {
			// The refused call's turn ends with the budget error as its
			// cause: its error event and result say budget_exceeded.
			if eng := mg.eng.Load(); eng != nil {
				eng.EndTurn(e.SessionID, e)
			}
			mg.hooks.Load().BudgetExceeded(e.SessionID, e.Owner, e.Scope, e.SpentUSD, e.BudgetUSD)
		},
	}
	for _, k := range keys {
		if k.BudgetUSD != nil {
			opts.OwnerBudgets[k.ID] = *k.BudgetUSD
		}
		if len(k.Upstreams) > 0 {
			opts.OwnerUpstreams[k.ID] = k.Upstreams
		}
	}
	mg.gw = gateway.New(opts)
	listen := c.Listen
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	if err := mg.gw.Start(listen); err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "Agents reach their models through the gateway at %s with per-session tokens.\n", mg.gw.URL())
	return mg, nil
}

// credentials is what the engine issues agents' credentials with (nil:
// the gateway is off and agents inherit the environment).
func (m *modelGateway) credentials() engine.Credentials {
	if m == nil {
		return nil
	}
	return m.gw
}

// agentsEnv is the environment agents are configured from: base, with
// every model API's base URL on the gateway. The keys come per process.
func (m *modelGateway) agentsEnv(base []string) []string {
	if m == nil {
		return base
	}
	return append(append([]string(nil), base...), gateway.ModelEnv(m.gw.URL(), "")...)
}

// attach lets budget refusals end eng's turns and notify the keys'
// webhooks.
func (m *modelGateway) attach(eng *engine.Engine, hooks *webhook.Notifier) {
	if m != nil {
		m.eng.Store(eng)
		m.hooks.Store(hooks)
	}
}

// close stops the gateway, once the engine has ended every agent, and
// writes the spend not yet recorded.
func (m *modelGateway) close(ctx context.Context) error {
	if m == nil {
		return nil
	}
	if err := m.gw.Close(ctx); err != nil {
		return fmt.Errorf("model gateway: %w", err)
	}
	return nil
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
//
// The wrapper keeps what else st is: a store.Database stays one, so that
// the server still finds its queued prompts, hooks and readiness check.
func (m *modelGateway) sessions(st store.Store) store.Store {
	if m == nil {
		return st
	}
	if db, ok := st.(store.Database); ok {
		return forgetfulDatabase{Database: db, forget: forgetfulStore{Store: st, gw: m.gw}}
	}
	return forgetfulStore{Store: st, gw: m.gw}
}

// forgetfulDatabase is forgetfulStore over a whole store.Database.
type forgetfulDatabase struct {
	store.Database
	forget forgetfulStore
}

var _ store.Database = forgetfulDatabase{}

func (f forgetfulDatabase) DeleteSession(ctx context.Context, id string) error {
	return f.forget.DeleteSession(ctx, id)
}

type forgetfulStore struct {
	store.Store
	gw *gateway.Gateway
}

// Ping lets readiness probes reach the store's own check through the
// wrapper.
func (f forgetfulStore) Ping(ctx context.Context) error { return store.Ping(ctx, f.Store) }

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
