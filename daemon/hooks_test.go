package daemon_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/hotplex/hotplex/daemon"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/testkit"
	"github.com/hotplex/hotplex/webhook"
)

// A key's webhooks from the configuration are stored at start and
// delivered to with their configured secret; a start without them
// removes them; a store that keeps no hooks cannot take them.
func TestConfiguredWebhooks(t *testing.T) {
	st := openStore(t)
	defer st.Close()
	ctx := context.Background()
	r := testkit.NewWebhookReceiver(t, nil)
	secret := webhook.NewSecret()
	start := func(hooks []webhook.Spec) (*daemon.Daemon, client) {
		t.Helper()
		cfg := config(t, st)
		cfg.Gateway = nil
		cfg.Keys[0].Hooks = hooks // alice's
		d, err := daemon.New(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(d.Handler())
		t.Cleanup(func() {
			srv.Close()
			_ = d.Close(ctx)
		})
		return d, client{http: srv.Client(), url: srv.URL, key: "secret-alice"}
	}
	hooksOf := func(c client) []webhook.Hook {
		t.Helper()
		resp := c.do(t, "GET", "/v1/hooks", nil)
		defer resp.Body.Close()
		var v struct{ Hooks []webhook.Hook }
		if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
			t.Fatal(err)
		}
		return v.Hooks
	}

	d, alice := start([]webhook.Spec{{URL: r.URL + "/configured", Secret: secret, Events: []string{webhook.TurnFinished}}})
	if hs := hooksOf(alice); len(hs) != 1 || !hs[0].Config || hs[0].URL != r.URL+"/configured" || hs[0].Secret != "" {
		t.Fatalf("alice's hooks: %+v", hs)
	}
	resp := alice.do(t, "POST", "/v1/sessions", map[string]string{"id": "cfg"})
	resp.Body.Close()
	resp = alice.do(t, "POST", "/v1/sessions/cfg/messages", map[string]string{"prompt": "hello"})
	testkit.ReadSSE(resp.Body, isType(event.TypeResult))
	resp.Body.Close()
	got := r.Next(t)
	testkit.VerifyWebhook(t, secret, got)
	if got.Event.Type != webhook.TurnFinished || got.Event.Data.SessionID != "cfg" {
		t.Fatalf("delivery %s", got.Body)
	}
	if err := d.Close(ctx); err != nil {
		t.Fatal(err)
	}

	_, alice = start(nil)
	if hs := hooksOf(alice); len(hs) != 0 {
		t.Fatalf("configured hooks after they were removed from the configuration: %+v", hs)
	}

	cfg := config(t, hooklessStore{st})
	cfg.Gateway = nil
	cfg.Keys[0].Hooks = []webhook.Spec{{URL: r.URL, Secret: secret}}
	if d, err := daemon.New(ctx, cfg); err == nil {
		_ = d.Close(ctx)
		t.Fatal("a store without hooks took configured ones")
	}
	cfg.Keys[0].Hooks = nil
	d, err := daemon.New(ctx, cfg)
	if err != nil {
		t.Fatalf("a store without hooks and none configured: %v", err)
	}
	defer d.Close(ctx)
	srv := httptest.NewServer(d.Handler())
	defer srv.Close()
	resp = client{http: srv.Client(), url: srv.URL, key: "secret-alice"}.do(t, "POST", "/v1/hooks", map[string]string{"url": r.URL})
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("POST /v1/hooks without webhooks: %d", resp.StatusCode)
	}
}

// hooklessStore is a store that keeps no hooks.
type hooklessStore struct{ store.Store }
