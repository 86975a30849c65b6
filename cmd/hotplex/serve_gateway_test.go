package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/testkit"
)

// TestServeAgentsHoldNoOperatorSecret: with the gateway (the default) an
// agent started by `hotplex serve` has neither the model key nor HotPlex's
// admin token the daemon was started with, only a gateway URL and a token
// of its own; with --gateway off it inherits them, as it always did.
func TestServeAgentsHoldNoOperatorSecret(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	agent := testkit.BuildFakeAgent(t, t.TempDir())
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	key := "sk-ant-serve-" + hex.EncodeToString(b)
	for _, gw := range []string{"on", "off"} {
		t.Run("gateway "+gw, func(t *testing.T) {
			d := startServeWith(t, t.TempDir(), agent, t.TempDir(), "", []string{"ANTHROPIC_API_KEY=" + key, "HOTPLEX_ADMIN_TOKEN=" + key}, "--gateway", gw)
			if r := d.request(t, "POST", "/v1/sessions", map[string]string{"id": "g"}); r.StatusCode != http.StatusCreated {
				t.Fatalf("create: %d", r.StatusCode)
			}
			evs := readEvents(d.request(t, "POST", "/v1/sessions/g/messages", map[string]string{"prompt": "hello"}).Body, func(e sse) bool { return e.Type == event.TypeResult })
			pid := 0
			for _, e := range evs {
				if e.Type == event.TypeSessionStart {
					var ev event.EventWithMeta
					_ = json.Unmarshal(e.Data, &ev)
					pid = ev.SessionStart.PID
				}
			}
			if pid == 0 {
				t.Fatalf("no session_start: %v", evs)
			}
			raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
			if err != nil {
				t.Fatal(err)
			}
			env := strings.Split(string(raw), "\x00")
			has := strings.Contains(string(raw), key)
			if gw == "off" {
				if !has {
					t.Fatal("with the gateway off the agent should inherit the key (the test would prove nothing)")
				}
				return
			}
			if has {
				t.Fatal("the operator's secret is in the agent's environment")
			}
			if base := testkit.EnvValue(env, "ANTHROPIC_BASE_URL"); !strings.HasPrefix(base, "http://127.0.0.1:") || !strings.HasSuffix(base, "/anthropic") {
				t.Errorf("ANTHROPIC_BASE_URL=%q, not the gateway", base)
			}
			if tok := testkit.EnvValue(env, "ANTHROPIC_API_KEY"); !strings.HasPrefix(tok, "hpg-") {
				t.Errorf("ANTHROPIC_API_KEY=%q, not a gateway token", tok)
			}
		})
	}
}

// TestServeSpendSurvivesRestart: the real claude CLI spends through the
// daemon's gateway; after a clean restart /v1/usage shows the same
// figures, and a session budget below what was spent before the restart
// refuses the next turn's first model call.
func TestServeSpendSurvivesRestart(t *testing.T) { testServeSpendSurvivesRestart(t) }

// testServeSpendSurvivesRestart runs the daemons with storeArgs (none:
// the SQLite file in the data directory).
func testServeSpendSurvivesRestart(t *testing.T, storeArgs ...string) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	reply := scriptedmodel.Reply{Text: []string{"spent"}, InputTokens: 100_000, OutputTokens: 50}
	model := startModel(t, scriptedmodel.Script{Default: &reply})
	env := []string{"ANTHROPIC_BASE_URL=" + model.URL(), "ANTHROPIC_API_KEY=sk-hotplex-test", "DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
	data, home := t.TempDir(), t.TempDir()
	claudePath := testkit.ClaudePath(t)

	type usage struct {
		Owners []struct {
			Total struct {
				Requests    int64   `json:"requests"`
				InputTokens int64   `json:"input_tokens"`
				Output      int64   `json:"output_tokens"`
				CostUSD     float64 `json:"cost_usd"`
			} `json:"total"`
			Sessions []struct {
				ID string `json:"id"`
			} `json:"sessions"`
		} `json:"owners"`
	}
	readUsage := func(d *daemonProc) usage {
		t.Helper()
		resp := d.request(t, "GET", "/v1/usage", nil)
		var u usage
		if err := json.NewDecoder(resp.Body).Decode(&u); err != nil || len(u.Owners) != 1 {
			t.Fatalf("usage: %v %+v", err, u)
		}
		return u
	}
	stop := func(d *daemonProc) {
		t.Helper()
		if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		select {
		case <-d.exited:
		case <-time.After(60 * time.Second):
			t.Fatal("the daemon did not stop on SIGTERM")
		}
	}
	turn := func(d *daemonProc) *event.EventWithMeta {
		t.Helper()
		resp := d.request(t, "POST", "/v1/sessions/spend/messages", map[string]string{"prompt": "spend some"})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("message: %d", resp.StatusCode)
		}
		for _, e := range readEvents(resp.Body, func(e sse) bool { return e.Type == event.TypeResult }) {
			if e.Type == event.TypeResult {
				var ev event.EventWithMeta
				_ = json.Unmarshal(e.Data, &ev)
				return &ev
			}
		}
		t.Fatal("the turn had no result")
		return nil
	}

	d := startServeWith(t, data, claudePath, home, "", env, append([]string{"--offline", "never"}, storeArgs...)...)
	if r := d.request(t, "POST", "/v1/sessions", map[string]string{"id": "spend"}); r.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d", r.StatusCode)
	}
	if res := turn(d); res.Meta == nil || res.Meta.ErrorMsg != "" {
		t.Fatalf("first turn: %+v", res)
	}
	before := readUsage(d)
	spent := before.Owners[0].Total
	var modelIn int64
	for _, r := range model.Requests() {
		modelIn += int64(r.Usage.InputTokens)
	}
	if spent.CostUSD <= 0 || spent.Requests != int64(len(model.Requests())) || spent.InputTokens != modelIn {
		t.Fatalf("spent %+v; the model answered %d calls of %d input tokens in all", spent, len(model.Requests()), modelIn)
	}
	stop(d)

	// Restarted with a session budget just under what the session spent.
	budget := strconv.FormatFloat(spent.CostUSD*0.99, 'f', -1, 64)
	calls := len(model.Requests())
	key := d.key // printed at the first start only
	d = startServeWith(t, data, claudePath, home, key, env, append([]string{"--offline", "never", "--budget-usd", budget}, storeArgs...)...)
	if after := readUsage(d); after.Owners[0].Total != spent || len(after.Owners[0].Sessions) != 1 || after.Owners[0].Sessions[0].ID != "spend" {
		t.Fatalf("usage after the restart %+v, before %+v", after, before)
	}
	res := turn(d)
	if res.Meta == nil || !strings.Contains(res.Meta.ErrorMsg, "budget_exceeded") {
		t.Fatalf("turn over a budget spent before the restart: %+v", res.Meta)
	}
	for _, r := range model.Requests()[calls:] {
		if r.HasTools {
			t.Errorf("the model was called after the budget was spent: %q", r.Prompt)
		}
	}

	// Deleting the session drops its row; its key keeps the spend, across
	// one more restart too.
	afterTurn := readUsage(d).Owners[0].Total
	if r := d.request(t, "DELETE", "/v1/sessions/spend", nil); r.StatusCode != http.StatusNoContent {
		t.Fatalf("delete: %d", r.StatusCode)
	}
	for range 2 {
		u := readUsage(d)
		if u.Owners[0].Total != afterTurn || len(u.Owners[0].Sessions) != 0 {
			t.Fatalf("usage after deleting the session %+v, want total %+v and no session", u, afterTurn)
		}
		stop(d)
		d = startServeWith(t, data, claudePath, home, key, env, append([]string{"--offline", "never"}, storeArgs...)...)
	}
	stop(d)
}
