package gateway_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/gateway"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/sqlite"
	"github.com/hotplex/hotplex/testkit"
)

// sqliteLedger keeps a gateway's spend in the SQLite store, as the daemon
// does.
type sqliteLedger struct{ db *sqlite.DB }

func (l sqliteLedger) AddUsage(ctx context.Context, cells []gateway.UsageCell) error {
	rows := make([]store.ModelUsage, len(cells))
	for i, c := range cells {
		rows[i] = store.ModelUsage{SessionID: c.SessionID, Owner: c.Owner, Model: c.Model, Requests: c.Requests,
			InputTokens: c.InputTokens, OutputTokens: c.OutputTokens, CacheReadTokens: c.CacheReadTokens,
			CacheWriteTokens: c.CacheWriteTokens, CostUSD: c.CostUSD, Unmetered: c.Unmetered, Rejected: c.Rejected}
	}
	return l.db.AddModelUsage(ctx, rows)
}

func (l sqliteLedger) spent(t *testing.T) []gateway.UsageCell {
	t.Helper()
	rows, err := l.db.ModelUsage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var cells []gateway.UsageCell
	for _, r := range rows {
		cells = append(cells, gateway.UsageCell{SessionID: r.SessionID, Owner: r.Owner, Model: r.Model, Totals: gateway.Totals{
			Requests: r.Requests, Usage: gateway.Usage{InputTokens: r.InputTokens, OutputTokens: r.OutputTokens,
				CacheReadTokens: r.CacheReadTokens, CacheWriteTokens: r.CacheWriteTokens},
			CostUSD: r.CostUSD, Unmetered: r.Unmetered, Rejected: r.Rejected}})
	}
	return cells
}

func openLedger(t *testing.T, path string) sqliteLedger {
	t.Helper()
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return sqliteLedger{db}
}

// TestSpendSurvivesRestart: what a session and its key spent is written
// to the store and counted again by the next gateway over the same file,
// so a budget is not reset by a restart. The figures stored are the ones
// the model reported.
func TestSpendSurvivesRestart(t *testing.T) {
	// 1,000,000 input tokens of claude-sonnet-4-5 at $3/M: $3 a call.
	reply := scriptedmodel.Reply{Text: []string{"ok"}, InputTokens: 1_000_000, OutputTokens: 10, CacheReadTokens: 20, CacheWriteTokens: 30}
	path := filepath.Join(t.TempDir(), "hotplex.db")
	ledger := openLedger(t, path)

	// First life: one $3+ call of a $5 session budget and a $5 key budget.
	budgets := gateway.Options{SessionBudgetUSD: 5, OwnerBudgets: map[string]float64{"alice": 5}}
	opts := budgets
	opts.Ledger, opts.Spent = ledger, ledger.spent(t)
	r := newRig(t, scriptedmodel.Script{Default: &reply}, opts)
	if resp := r.do(t, calls[1], r.token); resp.StatusCode != 200 {
		t.Fatalf("first call: %d %s", resp.StatusCode, readAll(t, resp))
	} else {
		readAll(t, resp)
	}
	first := r.gw.SessionTotals("s1")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.gw.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := ledger.db.Close(); err != nil {
		t.Fatal(err)
	}

	// Second life over the same file.
	ledger = openLedger(t, path)
	defer ledger.db.Close()
	spent := ledger.spent(t)
	want := gateway.Usage{InputTokens: 1_000_000, OutputTokens: 10, CacheReadTokens: 20, CacheWriteTokens: 30}
	if len(spent) != 1 || spent[0].SessionID != "s1" || spent[0].Owner != "alice" || spent[0].Model != "claude-sonnet-4-5" ||
		spent[0].Usage != want || spent[0].Requests != 1 || spent[0].CostUSD != first.CostUSD || first.CostUSD < 3 {
		t.Fatalf("stored %+v, want one call of %+v costing %v", spent, want, first.CostUSD)
	}
	opts = budgets
	opts.Ledger, opts.Spent = ledger, spent
	r2 := newRig(t, scriptedmodel.Script{Default: &reply}, opts)
	// The session's second call would have passed a fresh budget ($3 < $5
	// spent): it passes here too, and takes the session over.
	if resp := r2.do(t, calls[1], r2.token); resp.StatusCode != 200 {
		t.Fatalf("second call: %d %s", resp.StatusCode, readAll(t, resp))
	} else {
		readAll(t, resp)
	}
	resp := r2.do(t, calls[1], r2.token)
	if body := readAll(t, resp); resp.StatusCode != 402 || !strings.Contains(body, "budget_exceeded") {
		t.Fatalf("third call, over the budget spent across the restart: %d %s", resp.StatusCode, body)
	}
	// alice's other session: refused by the key's budget, which counts
	// both lives.
	env2, _, revoke2, err := r2.gw.AgentEnv("s2", "alice", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer revoke2()
	resp = r2.do(t, calls[1], testkit.EnvValue(env2, "ANTHROPIC_API_KEY"))
	if body := readAll(t, resp); resp.StatusCode != 402 || !strings.Contains(body, "API key alice") {
		t.Fatalf("alice's new session: %d %s", resp.StatusCode, body)
	}
	if n := len(r2.fm.Requests()); n != 1 {
		t.Errorf("the model saw %d calls in the second life, want 1", n)
	}
}

// failingLedger fails its first writes, then records.
type failingLedger struct {
	mu    sync.Mutex
	fails int
	got   []gateway.UsageCell
}

func (f *failingLedger) AddUsage(_ context.Context, cells []gateway.UsageCell) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fails > 0 {
		f.fails--
		return errors.New("disk full")
	}
	f.got = append(f.got, cells...)
	return nil
}

// TestLedgerFailureKeepsSpendPending: a write that fails loses nothing;
// Close writes it.
func TestLedgerFailureKeepsSpendPending(t *testing.T) {
	reply := scriptedmodel.Reply{Text: []string{"ok"}, InputTokens: 100, OutputTokens: 7}
	l := &failingLedger{fails: 1 << 30}
	r := newRig(t, scriptedmodel.Script{Default: &reply}, gateway.Options{Ledger: l, FlushEvery: time.Millisecond})
	for range 3 {
		readAll(t, r.do(t, calls[1], r.token))
	}
	if err := r.gw.Flush(context.Background()); err == nil {
		t.Fatal("Flush hid the ledger's failure")
	}
	l.mu.Lock()
	l.fails = 0
	l.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.gw.Close(ctx); err != nil {
		t.Fatal(err)
	}
	var sum gateway.Totals
	for _, c := range l.got {
		sum.Requests += c.Requests
		sum.InputTokens += c.InputTokens
		sum.OutputTokens += c.OutputTokens
	}
	if sum.Requests != 3 || sum.InputTokens != 300 || sum.OutputTokens != 21 {
		t.Errorf("recorded %+v, want 3 calls of 100 in, 7 out", sum)
	}
}

// TestForgetSessionKeepsOwnerSpend: a deleted session's own totals go, its
// key's stay, and what was pending is written as the key's.
func TestForgetSessionKeepsOwnerSpend(t *testing.T) {
	reply := scriptedmodel.Reply{Text: []string{"ok"}, InputTokens: 1_000_000, OutputTokens: 1}
	l := &failingLedger{}
	r := newRig(t, scriptedmodel.Script{Default: &reply}, gateway.Options{Ledger: l, FlushEvery: time.Hour})
	readAll(t, r.do(t, calls[1], r.token))
	before := r.gw.Report().Owners["alice"]
	r.gw.ForgetSession("s1")
	if _, ok := r.gw.Report().Sessions["s1"]; ok {
		t.Error("the session's totals outlived it")
	}
	if after := r.gw.Report().Owners["alice"]; after != before || after.CostUSD < 3 {
		t.Errorf("alice's totals %+v, were %+v", after, before)
	}
	for _, c := range r.gw.Usage() {
		if c.SessionID != "" {
			t.Errorf("cell of a forgotten session: %+v", c)
		}
	}
	if err := r.gw.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(l.got) != 1 || l.got[0].SessionID != "" || l.got[0].Owner != "alice" || l.got[0].InputTokens != 1_000_000 {
		t.Errorf("written %+v", l.got)
	}
}
