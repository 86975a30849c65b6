package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/daemon"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/gateway"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/store/sqlite"
	"github.com/hotplex/hotplex/testkit"
	"github.com/hotplex/hotplex/webhook"
)

// The real Claude Code behind the daemon, its model calls through the
// gateway with a session budget of $1: a key's webhook hears of a turn
// that finished, with the figures the CLI reported; of a tool use waiting
// for the key's answer; and of the budget spent, with the failed turn it
// ended.
func TestClaudeWebhooks(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	greet := scriptedmodel.Text("Hello there.")
	greet.InputTokens, greet.OutputTokens, greet.CacheReadTokens = 1200, 34, 500
	// 1,000,000 input tokens of the CLI's model: dollars, over the budget.
	expensive := scriptedmodel.Bash("echo one more step")
	expensive.InputTokens = 1_000_000
	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("greet", greet),
		scriptedmodel.Then("make a file", scriptedmodel.Bash("touch asked.txt"), scriptedmodel.Text("Made it.")),
		scriptedmodel.Then("spend", expensive, scriptedmodel.Text("Done.")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })

	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "hotplex.db"), sqlite.WithLogger(quiet))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	d, err := daemon.New(ctx, daemon.Config{
		Store: st, Keys: testkit.DaemonKeys(), Logger: quiet, WorkDirRoot: t.TempDir(), IdleTimeout: -1,
		Provider: claude.New(claude.Options{Path: testkit.ClaudePath(t)}), Env: testkit.OfflineEnv(t, m.URL()),
		Gateway: &daemon.GatewayConfig{SessionBudgetUSD: 1,
			Upstreams: map[gateway.API]gateway.Upstream{gateway.Anthropic: {BaseURL: m.URL(), APIKey: "sk-ant-webhook-test"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		_ = d.Close(cctx)
	})
	srv := httptest.NewServer(d.Handler())
	t.Cleanup(srv.Close)
	do := func(method, path string, body any) *http.Response {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer secret-alice")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	lastOf := func(evs []testkit.SSEEvent) event.EventWithMeta {
		t.Helper()
		var ev event.EventWithMeta
		if len(evs) == 0 || json.Unmarshal(evs[len(evs)-1].Data, &ev) != nil {
			t.Fatalf("stream %v", evs)
		}
		return ev
	}

	r := testkit.NewWebhookReceiver(t, nil)
	created := testkit.Decode[map[string]any](t, do("POST", "/v1/hooks", map[string]any{"url": r.URL}))
	secret, _ := created["secret"].(string)
	for _, s := range []map[string]any{{"id": "plain"}, {"id": "asker", "approval": "ask"}} {
		if resp := do("POST", "/v1/sessions", s); resp.StatusCode != http.StatusCreated {
			t.Fatalf("create %v: %d", s, resp.StatusCode)
		}
	}

	// A finished turn, with the CLI's own figures.
	result := lastOf(testkit.ReadSSE(do("POST", "/v1/sessions/plain/messages", map[string]string{"prompt": "greet me"}).Body, nil))
	fin := r.Next(t)
	testkit.VerifyWebhook(t, secret, fin)
	tr := fin.Event.Data.Turn
	if fin.Event.Type != webhook.TurnFinished || fin.Event.Data.SessionID != "plain" || fin.Event.Data.Owner != "alice" || tr == nil || result.Turn == nil {
		t.Fatalf("got %s for result %+v", fin.Body, result.Turn)
	}
	if tr.OutputTokens != 34 || tr.InputTokens != int64(result.Turn.InputTokens) || tr.CacheReadTokens != int64(result.Turn.CacheRead) ||
		tr.CostUSD <= 0 || tr.CostUSD != result.Turn.CostUSD || tr.DurationMs != result.Meta.DurationMs || tr.DurationMs <= 0 || tr.Model == "" {
		t.Fatalf("turn figures %+v, the stream's %+v (wall %d ms)", tr, result.Turn, result.Meta.DurationMs)
	}

	// A tool use waiting for the key's answer.
	resp := do("POST", "/v1/sessions/asker/messages", map[string]string{"prompt": "make a file please"})
	got := testkit.ReadSSE(resp.Body, func(e testkit.SSEEvent) bool { return e.Type == event.TypePermissionRequest })
	req := lastOf(got)
	if req.Permission == nil {
		t.Fatalf("no permission request: %v", got)
	}
	pr := r.Next(t)
	testkit.VerifyWebhook(t, secret, pr)
	if p := pr.Event.Data.Permission; pr.Event.Type != webhook.PermissionRequested || pr.Event.Data.SessionID != "asker" ||
		p == nil || p.RequestID != req.Permission.RequestID || p.Tool != "Bash" || !strings.Contains(p.Summary, "touch asked.txt") {
		t.Fatalf("permission webhook %s", pr.Body)
	}
	if a := do("POST", "/v1/sessions/asker/permissions/"+req.Permission.RequestID, map[string]string{"decision": "allow"}); a.StatusCode != http.StatusOK {
		t.Fatalf("answer: %d", a.StatusCode)
	}
	testkit.ReadSSE(resp.Body, nil)
	if e := r.Next(t); e.Event.Type != webhook.TurnFinished || e.Event.Data.SessionID != "asker" {
		t.Fatalf("after the answer: %s", e.Body)
	}

	// The budget spent: the gateway's refusal, and the turn it ended.
	spend := do("POST", "/v1/sessions/plain/messages", map[string]string{"prompt": "spend it all"})
	if spend.StatusCode != http.StatusOK {
		t.Fatalf("the spending turn: %d", spend.StatusCode)
	}
	// The stream ends with the result, then a turn_error notice.
	spent := testkit.ReadSSE(spend.Body, func(e testkit.SSEEvent) bool { return e.Type == event.TypeResult })
	if failed := lastOf(spent); failed.Turn == nil || !failed.Turn.IsError {
		t.Fatalf("the spending turn: %+v", failed.Turn)
	}
	seen := map[string]webhook.Event{}
	for seen[webhook.BudgetExceeded].Type == "" || seen[webhook.TurnFailed].Type == "" {
		d := r.Next(t)
		testkit.VerifyWebhook(t, secret, d)
		if _, dup := seen[d.Event.Type]; !dup {
			seen[d.Event.Type] = d.Event
		}
	}
	if b := seen[webhook.BudgetExceeded].Data.Budget; b == nil || b.Scope != "session" || b.BudgetUSD != 1 || b.SpentUSD < 1 ||
		seen[webhook.BudgetExceeded].Data.SessionID != "plain" || seen[webhook.BudgetExceeded].Data.Owner != "alice" {
		t.Fatalf("budget.exceeded %+v", seen[webhook.BudgetExceeded])
	}
	if f := seen[webhook.TurnFailed]; f.Data.SessionID != "plain" || f.Data.Turn == nil || !strings.Contains(f.Data.Turn.Error, "budget_exceeded") {
		t.Fatalf("turn.failed %+v", f.Data.Turn)
	}
}
