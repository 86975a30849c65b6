package webhook_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/sqlite"
	"github.com/hotplex/hotplex/testkit"
	"github.com/hotplex/hotplex/webhook"
)

// fastRetry retries at once, so that tests wait for nothing but the
// receiver.
var fastRetry = webhook.Retry{Attempts: 5, Base: time.Millisecond, Max: 5 * time.Millisecond, Timeout: 5 * time.Second}

// world is a notifier on a SQLite store holding alice's and bob's
// sessions.
type world struct {
	n  *webhook.Notifier
	st *sqlite.DB
}

func newWorld(t *testing.T, o webhook.Options) *world {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir()+"/db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	for _, s := range []store.Session{
		{ID: "a1~n1", PublicID: "a1", Owner: "alice", Provider: "claude", WorkDir: "/w"},
		{ID: "b1~n2", PublicID: "b1", Owner: "bob", Provider: "claude", WorkDir: "/w"},
	} {
		if err := st.PutSession(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	o.Store, o.Sessions = st, st
	if o.Retry == (webhook.Retry{}) {
		o.Retry = fastRetry
	}
	n := webhook.New(o)
	t.Cleanup(n.Close)
	return &world{n: n, st: st}
}

func (w *world) hook(t *testing.T, owner, url string, events ...string) webhook.Hook {
	t.Helper()
	h, err := w.n.Create(context.Background(), owner, webhook.Spec{URL: url, Events: events})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// finished is the result event of a turn of session.
func finished(session string, seq uint64, outTokens int32) *event.EventWithMeta {
	ev := event.NewEventWithMeta(event.TypeResult, "done", &event.EventMeta{DurationMs: 1234, Status: "success"})
	ev.SessionID, ev.Seq, ev.Time = session, seq, time.Now()
	ev.Turn = &event.TurnResult{Subtype: "success", InputTokens: 10, OutputTokens: outTokens, CostUSD: 0.25, Model: "m"}
	return ev
}

// A finished turn reaches the owner's hook, signed, with the session's
// public ID, the key and the turn's figures.
func TestDeliverySigned(t *testing.T) {
	w := newWorld(t, webhook.Options{})
	r := testkit.NewWebhookReceiver(t, nil)
	h := w.hook(t, "alice", r.URL+"/hook")
	w.n.Publish(finished("a1~n1", 7, 42))
	d := r.Next(t)
	testkit.VerifyWebhook(t, h.Secret, d)
	if err := webhook.Verify(h.Secret, d.Header, d.Body, time.Minute, time.Now()); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	tampered := append([]byte(nil), d.Body...)
	tampered[len(tampered)-2] ^= 1
	if err := webhook.Verify(h.Secret, d.Header, tampered, time.Minute, time.Now()); !errors.Is(err, webhook.ErrSignature) {
		t.Fatalf("Verify of a changed body: %v", err)
	}
	if ct := d.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	e := d.Event
	if e.Type != webhook.TurnFinished || e.Data.SessionID != "a1" || e.Data.Owner != "alice" || e.Data.Seq != 7 || e.Timestamp.IsZero() {
		t.Fatalf("event %+v", e)
	}
	if tr := e.Data.Turn; tr == nil || tr.OutputTokens != 42 || tr.InputTokens != 10 || tr.CostUSD != 0.25 || tr.DurationMs != 1234 || tr.Model != "m" {
		t.Fatalf("turn %+v", e.Data.Turn)
	}
	waitLog(t, w.n, "alice", h.ID, func(l webhook.Log) bool { return l.Delivered == 1 })
}

// A receiver that answers 500 is tried again with the same webhook-id,
// signed anew, until it answers 200; the log shows both attempts.
func TestRetryAfterServerError(t *testing.T) {
	w := newWorld(t, webhook.Options{})
	r := testkit.NewWebhookReceiver(t, func(n int, _ testkit.WebhookDelivery) int {
		if n == 1 {
			return http.StatusInternalServerError
		}
		return http.StatusOK
	})
	h := w.hook(t, "alice", r.URL)
	w.n.Publish(finished("a1~n1", 1, 1))
	first, second := r.Next(t), r.Next(t)
	if first.Header.Get("webhook-id") != second.Header.Get("webhook-id") || string(first.Body) != string(second.Body) {
		t.Fatalf("a retry is another message: %v / %v", first.Header, second.Header)
	}
	testkit.VerifyWebhook(t, h.Secret, second)
	l := waitLog(t, w.n, "alice", h.ID, func(l webhook.Log) bool { return l.Delivered == 1 })
	if len(l.Attempts) != 2 || l.Attempts[1].StatusCode != 500 || l.Attempts[1].Outcome != webhook.OutcomeRetrying ||
		l.Attempts[0].Attempt != 2 || l.Attempts[0].Outcome != webhook.OutcomeDelivered || l.Attempts[0].StatusCode != 200 {
		t.Fatalf("log %+v", l)
	}
}

// A receiver that keeps failing is given up after the attempts the retry
// allows, and the log says so.
func TestGivesUpAfterAttempts(t *testing.T) {
	w := newWorld(t, webhook.Options{Retry: webhook.Retry{Attempts: 3, Base: time.Millisecond, Max: time.Millisecond}})
	r := testkit.NewWebhookReceiver(t, func(int, testkit.WebhookDelivery) int { return http.StatusBadGateway })
	h := w.hook(t, "alice", r.URL)
	w.n.Publish(finished("a1~n1", 1, 1))
	l := waitLog(t, w.n, "alice", h.ID, func(l webhook.Log) bool { return l.Failed == 1 })
	if len(l.Attempts) != 3 || l.Attempts[0].Outcome != webhook.OutcomeFailed || l.Attempts[0].Attempt != 3 || l.Delivered != 0 {
		t.Fatalf("log %+v", l)
	}
	if got := r.Waiting(); got != 3 {
		t.Fatalf("the receiver got %d requests, want 3", got)
	}
}

// A receiver that is down (its port closed) gets the delivery once it is
// back on the same address.
func TestReceiverDownThenBack(t *testing.T) {
	w := newWorld(t, webhook.Options{Retry: webhook.Retry{Attempts: 1000, Base: 5 * time.Millisecond, Max: 20 * time.Millisecond}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	h := w.hook(t, "alice", "http://"+addr+"/hook")
	w.n.Publish(finished("a1~n1", 1, 5))
	l := waitLog(t, w.n, "alice", h.ID, func(l webhook.Log) bool { return len(l.Attempts) >= 2 })
	if a := l.Attempts[0]; a.Outcome != webhook.OutcomeRetrying || a.StatusCode != 0 || !strings.Contains(a.Error, "refused") {
		t.Fatalf("attempt while down: %+v", a)
	}

	ln, err = net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listening again on %s: %v", addr, err)
	}
	r := testkit.NewWebhookReceiverOn(t, ln, nil)
	d := r.Next(t)
	testkit.VerifyWebhook(t, h.Secret, d)
	if d.Event.Type != webhook.TurnFinished || d.Event.Data.Turn.OutputTokens != 5 {
		t.Fatalf("event %+v", d.Event)
	}
	l = waitLog(t, w.n, "alice", h.ID, func(l webhook.Log) bool { return l.Delivered == 1 })
	if l.Attempts[0].Outcome != webhook.OutcomeDelivered || l.Attempts[0].Attempt < 2 {
		t.Fatalf("log %+v", l.Attempts[0])
	}
}

// A hook's receiver sees its events in the order they happened, even
// when some attempts fail and are retried.
func TestOrderPerHook(t *testing.T) {
	w := newWorld(t, webhook.Options{})
	r := testkit.NewWebhookReceiver(t, func(n int, _ testkit.WebhookDelivery) int {
		if n%3 == 0 {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	})
	h := w.hook(t, "alice", r.URL)
	const events = 30
	for i := range events {
		w.n.Publish(finished("a1~n1", uint64(i+1), int32(i)))
	}
	var order []uint64
	for len(order) < events {
		d := r.Next(t)
		if n := len(order); n > 0 && order[n-1] == d.Event.Data.Seq {
			continue // the retry of a failed attempt
		}
		order = append(order, d.Event.Data.Seq)
	}
	for i, seq := range order {
		if seq != uint64(i+1) {
			t.Fatalf("order %v", order)
		}
	}
	waitLog(t, w.n, "alice", h.ID, func(l webhook.Log) bool { return l.Delivered == events })
}

// When a hook's receiver is slow and its queue fills, the oldest pending
// delivery goes, is counted and logged; Publish never waits.
func TestFullQueueDropsOldest(t *testing.T) {
	w := newWorld(t, webhook.Options{QueueSize: 2})
	release := make(chan struct{})
	entered := make(chan struct{}, 10)
	r := testkit.NewWebhookReceiver(t, func(int, testkit.WebhookDelivery) int {
		entered <- struct{}{}
		<-release
		return http.StatusOK
	})
	h := w.hook(t, "alice", r.URL)
	w.n.Publish(finished("a1~n1", 1, 1))
	<-entered // seq 1 is in flight and stays there
	for seq := uint64(2); seq <= 6; seq++ {
		w.n.Publish(finished("a1~n1", seq, 1))
	}
	l := waitLog(t, w.n, "alice", h.ID, func(l webhook.Log) bool { return l.Dropped == 3 })
	if l.Pending != 3 || len(l.Attempts) != 3 {
		t.Fatalf("log %+v", l)
	}
	for _, a := range l.Attempts {
		if a.Outcome != webhook.OutcomeDropped || a.Attempt != 0 {
			t.Fatalf("entry %+v", a)
		}
	}
	close(release)
	var seqs []uint64
	for range 3 {
		seqs = append(seqs, r.Next(t).Event.Data.Seq)
	}
	if seqs[0] != 1 || seqs[1] != 5 || seqs[2] != 6 {
		t.Fatalf("delivered %v, want [1 5 6]", seqs)
	}
	waitLog(t, w.n, "alice", h.ID, func(l webhook.Log) bool { return l.Delivered == 3 && l.Pending == 0 })
}

// A key's hooks get its own sessions' events only; another key can
// neither list, read the log of, nor delete them.
func TestHooksBelongToTheirKey(t *testing.T) {
	w := newWorld(t, webhook.Options{})
	ra, rb := testkit.NewWebhookReceiver(t, nil), testkit.NewWebhookReceiver(t, nil)
	ha := w.hook(t, "alice", ra.URL)
	hb := w.hook(t, "bob", rb.URL)
	w.n.Publish(finished("b1~n2", 1, 2))
	w.n.Publish(finished("a1~n1", 1, 1))
	if d := ra.Next(t); d.Event.Data.Owner != "alice" || d.Event.Data.SessionID != "a1" {
		t.Fatalf("alice's hook got %+v", d.Event)
	}
	if d := rb.Next(t); d.Event.Data.Owner != "bob" || d.Event.Data.SessionID != "b1" {
		t.Fatalf("bob's hook got %+v", d.Event)
	}
	ctx := context.Background()
	list, err := w.n.List(ctx, "bob")
	if err != nil || len(list) != 1 || list[0].ID != hb.ID || list[0].Secret != "" {
		t.Fatalf("bob's list: %+v, %v", list, err)
	}
	if _, err := w.n.Deliveries(ctx, "bob", ha.ID); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("bob reads alice's log: %v", err)
	}
	if err := w.n.Delete(ctx, "bob", ha.ID); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("bob deletes alice's hook: %v", err)
	}
	if err := w.n.Delete(ctx, "alice", ha.ID); err != nil {
		t.Fatal(err)
	}
	if list, _ := w.n.List(ctx, "alice"); len(list) != 0 {
		t.Fatalf("alice's hooks after delete: %+v", list)
	}
	if ra.Waiting()+rb.Waiting() != 0 {
		t.Fatalf("extra deliveries: %d %d", ra.Waiting(), rb.Waiting())
	}
}

// Only the types a hook asks for reach it; a permission request reaches
// it only when a person is needed; blocks carry the danger's level and
// reason; hibernations and spent budgets are events too.
func TestEventTypes(t *testing.T) {
	waiting := map[string]bool{"req-person": true}
	w := newWorld(t, webhook.Options{NeedsPerson: func(session, request string) bool { return session == "a1~n1" && waiting[request] }})
	all, picky := testkit.NewWebhookReceiver(t, nil), testkit.NewWebhookReceiver(t, nil)
	w.hook(t, "alice", all.URL)
	w.hook(t, "alice", picky.URL, webhook.DangerBlocked)

	perm := func(id string) *event.EventWithMeta {
		ev := event.NewEventWithMeta(event.TypePermissionRequest, "Bash", &event.EventMeta{ToolName: "Bash"})
		ev.SessionID, ev.Permission = "a1~n1", &event.Permission{RequestID: id, ToolName: "Bash"}
		ev.Input = map[string]any{"command": "make deploy", "description": "ship it"}
		return ev
	}
	w.n.Publish(perm("req-auto")) // decided by policy: nobody to tell
	w.n.Publish(perm("req-person"))
	block := event.NewEventWithMeta(event.TypeDangerBlock, "reason text", &event.EventMeta{ToolName: "Bash"})
	block.SessionID = "a1~n1"
	block.Danger = &guard.DangerBlockEvent{Level: guard.LevelCritical, Category: "destructive", Reason: "wipes the disk"}
	w.n.Publish(block)
	failed := finished("a1~n1", 9, 0)
	failed.Turn.IsError, failed.Turn.Subtype, failed.Meta.ErrorMsg = true, "error_during_execution", "agent_died: the process exited"
	w.n.Publish(failed)
	w.n.Publish(event.NewEventWithMeta(event.TypeAnswer, "not notified", nil))
	w.n.Hibernated("a1~n1")
	w.n.BudgetExceeded("a1~n1", "alice", "key", 2.5, 2)

	got := map[string]webhook.Event{}
	var types []string
	for range 5 {
		e := all.Next(t).Event
		got[e.Type] = e
		types = append(types, e.Type)
	}
	want := []string{webhook.PermissionRequested, webhook.DangerBlocked, webhook.TurnFailed, webhook.SessionHibernated, webhook.BudgetExceeded}
	if strings.Join(types, " ") != strings.Join(want, " ") {
		t.Fatalf("types %v, want %v", types, want)
	}
	if p := got[webhook.PermissionRequested].Data.Permission; p == nil || p.RequestID != "req-person" || p.Tool != "Bash" || p.Summary != "make deploy" {
		t.Fatalf("permission %+v", p)
	}
	if d := got[webhook.DangerBlocked].Data.Danger; d == nil || d.Level != guard.LevelCritical.String() || d.Category != "destructive" || d.Reason != "wipes the disk" || d.Tool != "Bash" {
		t.Fatalf("danger %+v", d)
	}
	if tr := got[webhook.TurnFailed].Data.Turn; tr == nil || tr.Error != "agent_died: the process exited" || tr.Subtype != "error_during_execution" {
		t.Fatalf("failed turn %+v", tr)
	}
	if e := got[webhook.SessionHibernated]; e.Data.SessionID != "a1" || e.Data.Owner != "alice" {
		t.Fatalf("hibernated %+v", e)
	}
	if b := got[webhook.BudgetExceeded].Data.Budget; b == nil || b.Scope != "key" || b.SpentUSD != 2.5 || b.BudgetUSD != 2 {
		t.Fatalf("budget %+v", b)
	}
	if e := picky.Next(t).Event; e.Type != webhook.DangerBlocked {
		t.Fatalf("the danger-only hook got %s", e.Type)
	}
	// Everything published above has been routed (the budget event was
	// last, and all got it): the picky hook got nothing else.
	if picky.Waiting() != 0 {
		t.Fatalf("the danger-only hook got %d more", picky.Waiting())
	}
}

// Hooks may only be http(s) URLs without credentials, and never reach
// link-local, multicast or unspecified addresses, even when the URL got
// into the store another way: the address is checked at connect time.
func TestForbiddenURLs(t *testing.T) {
	for _, c := range []struct {
		url string
		ok  bool
	}{
		{"https://hooks.example.com/x", true},
		{"http://127.0.0.1:8080/local", true}, // receivers on the daemon's host are allowed
		{"http://[::1]:9/x", true},
		{"http://10.1.2.3/private", true},
		{"ftp://example.com/", false},
		{"file:///etc/passwd", false},
		{"gopher://127.0.0.1:25/", false},
		{"http://user:pw@example.com/", false},
		{"http:///nohost", false},
		{"http://169.254.169.254/latest/meta-data/", false},
		{"http://[fe80::1]/", false},
		{"http://[fd00:ec2::254]/", false},
		{"http://100.100.100.200/", false},
		{"http://0.0.0.0:8080/", false},
		{"http://224.0.0.1/", false},
		{"http://[::ffff:169.254.169.254]/", false},
		{"not a url", false},
	} {
		err := webhook.CheckURL(c.url)
		if (err == nil) != c.ok {
			t.Errorf("CheckURL(%q) = %v, want ok=%v", c.url, err, c.ok)
		}
		if err != nil && !errors.Is(err, webhook.ErrForbiddenURL) {
			t.Errorf("CheckURL(%q) = %v, not ErrForbiddenURL", c.url, err)
		}
	}

	w := newWorld(t, webhook.Options{Retry: webhook.Retry{Attempts: 1}})
	if _, err := w.n.Create(context.Background(), "alice", webhook.Spec{URL: "http://169.254.169.254/"}); !errors.Is(err, webhook.ErrInvalid) {
		t.Fatalf("Create with a metadata URL: %v", err)
	}
	if _, err := w.n.Create(context.Background(), "alice", webhook.Spec{URL: "https://example.com/", Events: []string{"turn.done"}}); !errors.Is(err, webhook.ErrInvalid) {
		t.Fatalf("Create with an unknown event type: %v", err)
	}
	// Put past the API's check, straight into the store.
	bad := store.Hook{ID: "hook_bad", Owner: "alice", URL: "http://169.254.169.254:80/", Secret: webhook.NewSecret()}
	if err := w.st.PutHook(context.Background(), bad); err != nil {
		t.Fatal(err)
	}
	w.n.Publish(finished("a1~n1", 1, 1))
	l := waitLog(t, w.n, "alice", bad.ID, func(l webhook.Log) bool { return l.Failed == 1 })
	if !strings.Contains(l.Attempts[0].Error, "forbidden URL") {
		t.Fatalf("attempt %+v", l.Attempts[0])
	}
}

// Hooks from the configuration file keep their ID across starts, and
// those no longer configured go; API hooks stay.
func TestConfigure(t *testing.T) {
	w := newWorld(t, webhook.Options{})
	ctx := context.Background()
	api := w.hook(t, "alice", "https://example.com/api")
	secret := webhook.NewSecret()
	specs := []webhook.Spec{{URL: "https://example.com/a", Secret: secret}, {URL: "https://example.com/b", Secret: secret, Events: []string{webhook.TurnFailed}}}
	if err := w.n.Configure(ctx, "alice", specs); err != nil {
		t.Fatal(err)
	}
	first, _ := w.n.List(ctx, "alice")
	if err := w.n.Configure(ctx, "alice", specs[1:]); err != nil {
		t.Fatal(err)
	}
	second, _ := w.n.List(ctx, "alice")
	if len(first) != 3 || len(second) != 2 || second[0].ID != api.ID || second[1].ID != first[2].ID || !second[1].Config {
		t.Fatalf("first %+v\nsecond %+v", first, second)
	}
	if err := w.n.Configure(ctx, "alice", []webhook.Spec{{URL: "https://example.com/c"}}); !errors.Is(err, webhook.ErrInvalid) {
		t.Fatalf("a configured hook without a secret: %v", err)
	}
	if err := w.n.Configure(ctx, "alice", []webhook.Spec{{URL: "https://example.com/c", Secret: "whsec_short"}}); !errors.Is(err, webhook.ErrInvalid) {
		t.Fatalf("a configured hook with a bad secret: %v", err)
	}
}

// waitLog polls a hook's log until ok holds (deliveries happen on the
// notifier's goroutines).
func waitLog(t *testing.T, n *webhook.Notifier, owner, id string, ok func(webhook.Log) bool) webhook.Log {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		l, err := n.Deliveries(context.Background(), owner, id)
		if err != nil {
			t.Fatal(err)
		}
		if ok(l) {
			return l
		}
		if time.Now().After(deadline) {
			t.Fatalf("hook %s: log never got there: %+v", id, l)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// An interrupted turn finished, as someone chose; one ended with a cause
// (a spent budget ends a turn as an interrupt with the budget error)
// failed.
func TestInterruptedTurns(t *testing.T) {
	w := newWorld(t, webhook.Options{})
	r := testkit.NewWebhookReceiver(t, nil)
	w.hook(t, "alice", r.URL)
	for _, cause := range []string{"", "budget_exceeded: session a1 has spent $4 of its $1 budget"} {
		ev := finished("a1~n1", 1, 0)
		ev.Turn.IsError, ev.Turn.Interrupted, ev.Turn.Subtype, ev.Meta.ErrorMsg = true, true, "error_during_execution", cause
		w.n.Publish(ev)
	}
	if e := r.Next(t).Event; e.Type != webhook.TurnFinished || !e.Data.Turn.Interrupted || e.Data.Turn.Error != "" {
		t.Fatalf("a plain interrupt: %+v %+v", e, e.Data.Turn)
	}
	if e := r.Next(t).Event; e.Type != webhook.TurnFailed || !strings.HasPrefix(e.Data.Turn.Error, "budget_exceeded") {
		t.Fatalf("an interrupt with a cause: %+v %+v", e, e.Data.Turn)
	}
}
