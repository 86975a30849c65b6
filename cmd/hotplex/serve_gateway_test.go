package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/hotplex/hotplex/event"
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
