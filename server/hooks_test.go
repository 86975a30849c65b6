package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/testkit"
	"github.com/hotplex/hotplex/webhook"
)

// addHook registers a hook of key's and returns its ID and secret.
func (d *daemon) addHook(t *testing.T, key string, body map[string]any) (id, secret string) {
	t.Helper()
	resp := d.Do(t, "POST", "/v1/hooks", key, body)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /v1/hooks: %d", resp.StatusCode)
	}
	h := testkit.Decode[map[string]any](t, resp)
	id, _ = h["id"].(string)
	secret, _ = h["secret"].(string)
	if id == "" || secret == "" {
		t.Fatalf("created hook %v", h)
	}
	return id, secret
}

// deliveries polls a hook's delivery log until ok holds.
func (d *daemon) deliveries(t *testing.T, key, id string, ok func(webhook.Log) bool) webhook.Log {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		l := testkit.Decode[webhook.Log](t, d.Do(t, "GET", "/v1/hooks/"+id+"/deliveries", key, nil))
		if ok(l) {
			return l
		}
		if time.Now().After(deadline) {
			t.Fatalf("hook %s: the log never got there: %+v", id, l)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Through the daemon and the fake agent: a tool use waiting for a person
// (a session that approves by hand, or a permission rule that asks) and a
// finished turn reach the key's webhook, signed, with the session's own ID
// and the turn's figures as the stream reported them; a tool use decided
// without a person does not; so do a firewall block and a hibernation.
// Bad hooks are refused; the log and deletion work over the API.
func TestWebhooksThroughTheDaemon(t *testing.T) {
	d := newDaemon(t)
	r := testkit.NewWebhookReceiver(t, nil)
	id, secret := d.addHook(t, d.alice, map[string]any{"url": r.URL + "/alice", "description": "pager"})
	list := testkit.Decode[map[string][]map[string]any](t, d.Do(t, "GET", "/v1/hooks", d.alice, nil))["hooks"]
	if len(list) != 1 || list[0]["id"] != id || list[0]["description"] != "pager" || list[0]["secret"] != nil {
		t.Fatalf("list %v", list)
	}
	for _, bad := range []map[string]any{
		{"url": "ftp://127.0.0.1/"},
		{"url": "http://169.254.169.254/latest/meta-data/"},
		{"url": r.URL, "events": []string{"turn.done"}},
		{"url": r.URL, "secret": "whsec_mine"},
	} {
		if resp := d.Do(t, "POST", "/v1/hooks", d.alice, bad); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("POST /v1/hooks %v: %d, want 400", bad, resp.StatusCode)
		}
	}

	// Decided by the default policy: nobody is needed, nothing is sent
	// (the next permission.requested is the ask session's).
	plain := d.Create(t, d.alice, map[string]any{"id": "plain"})
	d.turn(t, d.alice, "plain", bashDirective("touch plain.txt"))
	if plain := r.Next(t); plain.Event.Type != webhook.TurnFinished || plain.Event.Data.SessionID != "plain" {
		t.Fatalf("first delivery: %s", plain.Body)
	}

	for _, c := range []struct {
		session string
		create  map[string]any
	}{
		{"by-hand", map[string]any{"id": "by-hand", "approval": "ask"}},
		{"rule", map[string]any{"id": "rule", "permissions": map[string]any{"ask": []string{"Bash(touch:*)"}}}},
	} {
		d.Create(t, d.alice, c.create)
		resp := d.Do(t, "POST", "/v1/sessions/"+c.session+"/messages", d.alice, map[string]string{"prompt": bashDirective("touch asked.txt")})
		got := readSSE(t, resp.Body, func(e sseEvent) bool { return e.Type == event.TypePermissionRequest })
		var req event.EventWithMeta
		if err := json.Unmarshal(got[len(got)-1].Data, &req); err != nil || req.Permission == nil {
			t.Fatalf("%s: permission_request %s: %v", c.session, got[len(got)-1].Data, err)
		}
		// The webhook comes while the tool use still waits.
		dv := r.Next(t)
		testkit.VerifyWebhook(t, secret, dv)
		p := dv.Event.Data.Permission
		if dv.Event.Type != webhook.PermissionRequested || dv.Event.Data.SessionID != c.session || dv.Event.Data.Owner != "alice" ||
			p == nil || p.RequestID != req.Permission.RequestID || p.Tool != "Bash" || p.Summary != "touch asked.txt" {
			t.Fatalf("%s: got %s", c.session, dv.Body)
		}
		if a := d.Do(t, "POST", "/v1/sessions/"+c.session+"/permissions/"+req.Permission.RequestID, d.alice, map[string]string{"decision": "allow"}); a.StatusCode != http.StatusOK {
			t.Fatalf("%s: answer %d", c.session, a.StatusCode)
		}
		rest := readSSE(t, resp.Body, nil)
		var result event.EventWithMeta
		if err := json.Unmarshal(rest[len(rest)-1].Data, &result); err != nil || result.Turn == nil {
			t.Fatalf("%s: result %s", c.session, rest[len(rest)-1].Data)
		}
		fin := r.Next(t)
		testkit.VerifyWebhook(t, secret, fin)
		tr := fin.Event.Data.Turn
		if fin.Event.Type != webhook.TurnFinished || fin.Event.Data.SessionID != c.session || tr == nil ||
			tr.OutputTokens != int64(result.Turn.OutputTokens) || tr.InputTokens != int64(result.Turn.InputTokens) ||
			tr.DurationMs != result.Meta.DurationMs || fin.Event.Data.Seq != result.Seq {
			t.Fatalf("%s: turn.finished %s for result %s", c.session, fin.Body, rest[len(rest)-1].Data)
		}
	}

	// The firewall's block (judged, never run), and the turn it was in.
	d.turn(t, d.alice, "plain", bashDirective("rm -rf /nonexistent-hotplex-webhook-path"))
	blk := r.Next(t)
	if dg := blk.Event.Data.Danger; blk.Event.Type != webhook.DangerBlocked || blk.Event.Data.SessionID != "plain" || dg == nil ||
		dg.Level == "" || dg.Category == "" || dg.Reason == "" || dg.Tool != "Bash" {
		t.Fatalf("danger.blocked %s", blk.Body)
	}
	if e := r.Next(t); e.Event.Type != webhook.TurnFinished && e.Event.Type != webhook.TurnFailed {
		t.Fatalf("after the block: %s", e.Body)
	}
	// A hibernated session.
	if err := d.Engine.Hibernate(context.Background(), plain["key"].(string)); err != nil {
		t.Fatal(err)
	}
	if h := r.Next(t); h.Event.Type != webhook.SessionHibernated || h.Event.Data.SessionID != "plain" || h.Event.Data.Owner != "alice" {
		t.Fatalf("session.hibernated %s", h.Body)
	}

	l := d.deliveries(t, d.alice, id, func(l webhook.Log) bool { return l.Delivered == 8 })
	if len(l.Attempts) != 8 || l.Attempts[0].Type != webhook.SessionHibernated || l.Attempts[0].Outcome != webhook.OutcomeDelivered || l.Attempts[0].StatusCode != 200 {
		t.Fatalf("log %+v", l)
	}
	if resp := d.Do(t, "DELETE", "/v1/hooks/"+id, d.alice, nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %d", resp.StatusCode)
	}
	if resp := d.Do(t, "GET", "/v1/hooks/"+id+"/deliveries", d.alice, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("log of a deleted hook: %d", resp.StatusCode)
	}
	d.turn(t, d.alice, "plain", "after the hook went")
	if n := r.Waiting(); n != 0 {
		t.Fatalf("%d deliveries after the hook was deleted", n)
	}
}

// A receiver that takes its time never holds up a turn: turns end while
// their deliveries still wait for it, and are delivered once it answers.
func TestSlowWebhookNeverDelaysTheTurn(t *testing.T) {
	d := newDaemon(t)
	release := make(chan struct{})
	var once sync.Once
	entered := make(chan struct{}, 10)
	r := testkit.NewWebhookReceiver(t, func(int, testkit.WebhookDelivery) int {
		entered <- struct{}{}
		<-release
		return http.StatusOK
	})
	t.Cleanup(func() { once.Do(func() { close(release) }) }) // before the receiver stops
	id, _ := d.addHook(t, d.alice, map[string]any{"url": r.URL, "events": []string{webhook.TurnFinished}})
	d.Create(t, d.alice, map[string]any{"id": "slow"})

	evs := d.turn(t, d.alice, "slow", "first")
	if evs[len(evs)-1].Type != event.TypeResult {
		t.Fatalf("the turn did not end: %v", evs)
	}
	<-entered // its delivery is at the receiver, which holds it
	evs = d.turn(t, d.alice, "slow", "second")
	if evs[len(evs)-1].Type != event.TypeResult {
		t.Fatalf("the second turn did not end: %v", evs)
	}
	l := d.deliveries(t, d.alice, id, func(l webhook.Log) bool { return l.Pending == 2 })
	if l.Delivered != 0 || len(l.Attempts) != 0 {
		t.Fatalf("log while the receiver holds the first delivery: %+v", l)
	}
	once.Do(func() { close(release) })
	first, second := r.Next(t), r.Next(t)
	if first.Event.Data.Seq >= second.Event.Data.Seq {
		t.Fatalf("out of order: %d then %d", first.Event.Data.Seq, second.Event.Data.Seq)
	}
	d.deliveries(t, d.alice, id, func(l webhook.Log) bool { return l.Delivered == 2 && l.Pending == 0 })
}
