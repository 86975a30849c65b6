package server_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/gateway"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/testkit"
)

type usageBody struct {
	Gateway bool `json:"gateway"`
	Owners  []struct {
		Owner    string                    `json:"owner"`
		Name     string                    `json:"name"`
		Total    gateway.Totals            `json:"total"`
		Models   map[string]gateway.Totals `json:"models"`
		Sessions []struct {
			ID     string                    `json:"id"`
			Key    string                    `json:"key"`
			Total  gateway.Totals            `json:"total"`
			Models map[string]gateway.Totals `json:"models"`
		} `json:"sessions"`
	} `json:"owners"`
}

// modelCall makes one Messages call through gw with the token of session
// key of owner, as an agent of that session would.
func modelCall(t *testing.T, gw *gateway.Gateway, key, owner, model string) {
	t.Helper()
	env, _, revoke, err := gw.AgentEnv(key, owner, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer revoke()
	req, _ := http.NewRequest("POST", testkit.EnvValue(env, "ANTHROPIC_BASE_URL")+"/v1/messages",
		strings.NewReader(`{"model":"`+model+`","max_tokens":100,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"hello"}]}`))
	req.Header.Set("X-Api-Key", testkit.EnvValue(env, "ANTHROPIC_API_KEY"))
	req.Header.Set("Anthropic-Version", "2023-06-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("model call: %d %s", resp.StatusCode, b)
	}
}

// TestUsageIsTheCallersOwn: GET /v1/usage gives a key the figures the
// model reported for its own sessions, per session and per model, and
// nothing of another key's; an admin sees every key's with ?all=true and
// in /metrics, by key ID.
func TestUsageIsTheCallersOwn(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	reply := scriptedmodel.Reply{Text: []string{"ok"}, InputTokens: 1000, OutputTokens: 20, CacheReadTokens: 300, CacheWriteTokens: 40}
	fm, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Default: &reply})
	if err != nil {
		t.Fatal(err)
	}
	defer fm.Close()
	gw := gateway.New(gateway.Options{Upstreams: map[gateway.API]gateway.Upstream{gateway.Anthropic: {BaseURL: fm.URL()}}})
	if err := gw.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = gw.Close(ctx)
	}()
	home := t.TempDir()
	td := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: fakeAgent, Name: "fakeagent", Timeouts: provider.Timeouts{TerminateGrace: 500 * time.Millisecond}}),
		Env:      append(os.Environ(), "HOME="+home), Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
		Server: func(o *server.Options) { o.Usage = gw },
	})
	d := &daemon{Daemon: td, url: td.URL, alice: td.Alice, bob: td.Bob, admin: td.Admin}

	// alice: two calls of one model in "a1", one of another in "a2"; bob:
	// one call in his own "b1".
	a1 := d.Create(t, d.alice, map[string]any{"id": "a1"})["key"].(string)
	a2 := d.Create(t, d.alice, map[string]any{"id": "a2"})["key"].(string)
	b1 := d.Create(t, d.bob, map[string]any{"id": "b1"})["key"].(string)
	modelCall(t, gw, a1, "alice", "claude-sonnet-4-5")
	modelCall(t, gw, a1, "alice", "claude-sonnet-4-5")
	modelCall(t, gw, a2, "alice", "claude-haiku-4-5")
	modelCall(t, gw, b1, "bob", "claude-opus-4-1")
	for _, r := range fm.Requests() {
		if r.Auth != "" {
			t.Errorf("a key reached the model: %q", r.Auth)
		}
	}
	// What the model said one call cost, in the gateway's terms.
	one := fm.Requests()[0].Usage
	reported := gateway.Usage{InputTokens: int64(one.InputTokens), OutputTokens: int64(one.OutputTokens),
		CacheReadTokens: int64(one.CacheReadTokens), CacheWriteTokens: int64(one.CacheWriteTokens)}
	if reported.InputTokens != 1000 || reported.CacheReadTokens != 300 {
		t.Fatalf("the scripted model reported %+v", one)
	}
	times := func(n int64) gateway.Usage {
		return gateway.Usage{InputTokens: n * reported.InputTokens, OutputTokens: n * reported.OutputTokens,
			CacheReadTokens: n * reported.CacheReadTokens, CacheWriteTokens: n * reported.CacheWriteTokens}
	}
	cost := func(session string) float64 { return gw.Report().Sessions[session].CostUSD }

	u := testkit.Decode[usageBody](t, d.Do(t, "GET", "/v1/usage", d.alice, nil))
	if !u.Gateway || len(u.Owners) != 1 || u.Owners[0].Owner != "alice" {
		t.Fatalf("alice's usage: %+v", u)
	}
	o := u.Owners[0]
	if o.Total.Requests != 3 || o.Total.Usage != times(3) || o.Total.CostUSD != cost(a1)+cost(a2) || o.Total.CostUSD <= 0 {
		t.Errorf("alice's total %+v", o.Total)
	}
	if len(o.Models) != 2 || o.Models["claude-sonnet-4-5"].Usage != times(2) || o.Models["claude-haiku-4-5"].Usage != times(1) {
		t.Errorf("alice's models %+v", o.Models)
	}
	if len(o.Sessions) != 2 || o.Sessions[0].ID != "a1" || o.Sessions[0].Key != a1 || o.Sessions[0].Total.Usage != times(2) ||
		o.Sessions[0].Total.CostUSD != cost(a1) || o.Sessions[1].ID != "a2" || o.Sessions[1].Models["claude-haiku-4-5"].Usage != times(1) {
		t.Errorf("alice's sessions %+v", o.Sessions)
	}

	resp := d.Do(t, "GET", "/v1/usage", d.bob, nil)
	raw, _ := io.ReadAll(resp.Body)
	// Quoted, as JSON strings: bob's own session keys end in random hex
	// that may well contain "a1".
	for _, s := range []string{"alice", a1, a2, "a1", "a2", "claude-sonnet-4-5", "claude-haiku-4-5"} {
		if strings.Contains(string(raw), strconv.Quote(s)) {
			t.Errorf("bob's usage shows %q of alice's: %s", s, raw)
		}
	}
	if resp := d.Do(t, "GET", "/v1/usage?all=true", d.bob, nil); resp.StatusCode != http.StatusForbidden {
		t.Errorf("bob ?all=true: %d", resp.StatusCode)
	}

	all := testkit.Decode[usageBody](t, d.Do(t, "GET", "/v1/usage?all=true", d.admin, nil))
	if len(all.Owners) != 2 || all.Owners[0].Owner != "alice" || all.Owners[0].Name != "alice" || all.Owners[0].Total.Usage != times(3) ||
		all.Owners[1].Owner != "bob" || all.Owners[1].Total.Usage != times(1) || all.Owners[1].Sessions[0].ID != "b1" {
		t.Errorf("admin ?all=true: %+v", all)
	}

	resp = d.Do(t, "GET", "/metrics", d.admin, nil)
	m, _ := io.ReadAll(resp.Body)
	for _, line := range []string{
		`hotplex_model_tokens_total{kind="input",model="claude-sonnet-4-5",owner="alice"} 2000`,
		`hotplex_model_tokens_total{kind="cache_read",model="claude-sonnet-4-5",owner="alice"} 600`,
		`hotplex_model_tokens_total{kind="cache_write",model="claude-haiku-4-5",owner="alice"} 40`,
		`hotplex_model_tokens_total{kind="output",model="claude-opus-4-1",owner="bob"} 20`,
		`hotplex_model_cost_usd_total{model="claude-opus-4-1",owner="bob"} `,
	} {
		if !strings.Contains(string(m), line) {
			t.Errorf("/metrics lacks %s", line)
		}
	}
	if strings.Contains(string(m), "secret-") {
		t.Error("/metrics shows a key's secret")
	}
}
