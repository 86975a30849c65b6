package testkit

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/webhook"
)

// WebhookDelivery is one request a WebhookReceiver got.
type WebhookDelivery struct {
	Header http.Header
	Body   []byte
	Event  webhook.Event
}

// WebhookReceiver is a real HTTP endpoint a test registers as a webhook.
// It answers each request with what Answer says (nil: 200) and hands the
// requests over in the order they came.
type WebhookReceiver struct {
	URL    string
	answer func(n int, d WebhookDelivery) int
	srv    *httptest.Server
	got    chan WebhookDelivery
	t      testing.TB
	mu     sync.Mutex
	n      int
}

// NewWebhookReceiver starts a receiver on loopback; it stops at the end
// of the test. answer (nil: always 200) gives the status of the n-th
// request (from 1); it may block, to play a slow receiver.
func NewWebhookReceiver(t testing.TB, answer func(n int, d WebhookDelivery) int) *WebhookReceiver {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return NewWebhookReceiverOn(t, ln, answer)
}

// NewWebhookReceiverOn is NewWebhookReceiver on a listener of the test's
// (say, on the address of a receiver that was down).
func NewWebhookReceiverOn(t testing.TB, ln net.Listener, answer func(n int, d WebhookDelivery) int) *WebhookReceiver {
	t.Helper()
	r := &WebhookReceiver{answer: answer, got: make(chan WebhookDelivery, 10000), t: t}
	r.srv = httptest.NewUnstartedServer(http.HandlerFunc(r.serve))
	_ = r.srv.Listener.Close()
	r.srv.Listener = ln
	r.srv.Start()
	r.URL = r.srv.URL
	t.Cleanup(r.Close)
	return r
}

// Close stops the receiver (its address then refuses connections).
func (r *WebhookReceiver) Close() {
	r.srv.CloseClientConnections()
	r.srv.Close()
}

func (r *WebhookReceiver) serve(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return
	}
	d := WebhookDelivery{Header: req.Header.Clone(), Body: body}
	if err := json.Unmarshal(body, &d.Event); err != nil {
		r.t.Errorf("webhook receiver: body %q: %v", body, err)
	}
	r.mu.Lock()
	r.n++
	n := r.n
	r.mu.Unlock()
	code := http.StatusOK
	if r.answer != nil {
		code = r.answer(n, d)
	}
	r.got <- d
	w.WriteHeader(code)
}

// Next returns the next request the receiver got, waiting for it.
func (r *WebhookReceiver) Next(t testing.TB) WebhookDelivery {
	t.Helper()
	select {
	case d := <-r.got:
		return d
	case <-time.After(time.Minute):
		t.Fatal("the webhook receiver got nothing")
		return WebhookDelivery{}
	}
}

// NextOf returns the next request whose event is of type typ, skipping
// others.
func (r *WebhookReceiver) NextOf(t testing.TB, typ string) WebhookDelivery {
	t.Helper()
	for {
		if d := r.Next(t); d.Event.Type == typ {
			return d
		}
	}
}

// Waiting is how many requests were answered and not yet taken by Next.
func (r *WebhookReceiver) Waiting() int { return len(r.got) }

// VerifyWebhook checks a delivery's signature with secret as the Standard
// Webhooks specification describes it (HMAC-SHA256 of
// "id.timestamp.body" keyed with the base64 part of "whsec_..."), computed
// here rather than by package webhook, and its timestamp within a minute.
func VerifyWebhook(t testing.TB, secret string, d WebhookDelivery) {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || !strings.HasPrefix(secret, "whsec_") || len(key) < 24 {
		t.Fatalf("secret %q is not whsec_ and the base64 of a key", secret)
	}
	id, ts := d.Header.Get("webhook-id"), d.Header.Get("webhook-timestamp")
	unix, err := strconv.ParseInt(ts, 10, 64)
	if id == "" || err != nil {
		t.Fatalf("webhook-id %q, webhook-timestamp %q", id, ts)
	}
	if skew := time.Since(time.Unix(unix, 0)); skew > time.Minute || skew < -time.Minute {
		t.Fatalf("webhook-timestamp %s is %v off", ts, skew)
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + ts + "."))
	m.Write(d.Body)
	want := "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
	for _, sig := range strings.Fields(d.Header.Get("webhook-signature")) {
		if sig == want {
			return
		}
	}
	t.Fatalf("webhook-signature %q, want %q", d.Header.Get("webhook-signature"), want)
}
