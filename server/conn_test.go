package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/testkit"
)

// newDaemonWith starts a daemon whose server options configure adjusts.
func newDaemonWith(t *testing.T, o testkit.DaemonOptions) *daemon {
	t.Helper()
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	root, home := t.TempDir(), t.TempDir()
	o.Provider = claude.New(claude.Options{Path: fakeAgent, Name: "fakeagent", Timeouts: provider.Timeouts{TerminateGrace: 500 * time.Millisecond}})
	o.Env = append(os.Environ(), "HOME="+home)
	o.Root = root
	if o.Postgres == "" {
		o.DBPath = filepath.Join(t.TempDir(), "hotplex.db")
	}
	td := testkit.StartDaemon(t, o)
	return &daemon{Daemon: td, url: td.URL, root: root, home: home, dbPath: o.DBPath, alice: td.Alice, bob: td.Bob, admin: td.Admin}
}

// syncBuffer is a log destination tests read while the daemon writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// wsClosed reads until the connection ends and returns how it was closed.
func wsClosed(t *testing.T, c *websocket.Conn) websocket.CloseError {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		_, _, err := c.Read(ctx)
		if err == nil {
			continue
		}
		var ce websocket.CloseError
		if !errors.As(err, &ce) {
			t.Fatalf("the connection ended without a close frame: %v", err)
		}
		return ce
	}
}

func TestRevokedKeyClosesItsWebSocket(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{})
	alice, bob := dialWS(t, d, d.alice), dialWS(t, d, d.bob)
	for _, c := range []*websocket.Conn{alice, bob} {
		wsSend(t, c, map[string]any{"request_id": "p", "type": "ping"})
		if m := wsRead(t, c); m.Type != "pong" {
			t.Fatalf("got %+v", m)
		}
	}
	// Another process (hotplex keys revoke) revokes alice's key in the
	// database: the daemon finds out by itself.
	if err := d.Store.RevokeAPIKey(context.Background(), "alice"); err != nil {
		t.Fatal(err)
	}
	if ce := wsClosed(t, alice); ce.Code != websocket.StatusPolicyViolation || ce.Reason != "API key revoked" {
		t.Fatalf("alice's connection closed with %d %q", ce.Code, ce.Reason)
	}
	// The daemon revokes bob's key itself: the connection ends at once.
	if resp := d.Do(t, "DELETE", "/v1/keys/bob", d.alice, nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a revoked key revoked a key: %d", resp.StatusCode)
	}
	if resp := d.Do(t, "DELETE", "/v1/keys/bob", d.bob, nil); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("an ordinary key revoked a key: %d", resp.StatusCode)
	}
	if resp := d.Do(t, "DELETE", "/v1/keys/bob", d.admin, nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("admin revoke: %d", resp.StatusCode)
	}
	if ce := wsClosed(t, bob); ce.Code != websocket.StatusPolicyViolation || ce.Reason != "API key revoked" {
		t.Fatalf("bob's connection closed with %d %q", ce.Code, ce.Reason)
	}
	if resp := d.Do(t, "DELETE", "/v1/keys/nobody", d.admin, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("revoking an unknown key: %d", resp.StatusCode)
	}
}

func TestExpiredKeyClosesItsWebSocketAndSSE(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{})
	ctx := context.Background()
	expires := time.Now().Add(2 * time.Second)
	if err := d.Store.PutAPIKey(ctx, store.APIKey{ID: "carol", Hash: store.HashKey("secret-carol"), ExpiresAt: &expires}); err != nil {
		t.Fatal(err)
	}
	d.Create(t, "secret-carol", map[string]any{"id": "c1"})
	c := dialWS(t, d, "secret-carol")
	resp := d.Do(t, "GET", "/v1/sessions/c1/events", "secret-carol", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("follow: %d", resp.StatusCode)
	}
	if ce := wsClosed(t, c); ce.Code != websocket.StatusPolicyViolation || ce.Reason != "API key expired" {
		t.Fatalf("closed with %d %q", ce.Code, ce.Reason)
	}
	evs := readSSE(t, resp.Body, nil) // ends when the server ends the stream
	if len(evs) == 0 || evs[len(evs)-1].Type != "disconnect" || !strings.Contains(string(evs[len(evs)-1].Data), "API key expired") {
		t.Fatalf("the stream ended with %+v", evs)
	}
	if resp := d.Do(t, "GET", "/v1/sessions", "secret-carol", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("an expired key was let in: %d", resp.StatusCode)
	}
}

func TestRevokedKeyEndsItsSSEStreams(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{})
	d.Create(t, d.alice, map[string]any{"id": "a1"})
	d.turn(t, d.alice, "a1", "hello")
	follow := d.Do(t, "GET", "/v1/sessions/a1/events", d.alice, nil)
	turn := d.Do(t, "POST", "/v1/sessions/a1/messages", d.alice, map[string]string{"prompt": "sleep:60000"})
	if follow.StatusCode != http.StatusOK || turn.StatusCode != http.StatusOK {
		t.Fatalf("follow %d, turn %d", follow.StatusCode, turn.StatusCode)
	}
	// Wait until the turn has started streaming, then revoke.
	readSSE(t, turn.Body, func(e sseEvent) bool { return e.Type == "session_start" })
	if err := d.Store.RevokeAPIKey(context.Background(), "alice"); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]io.Reader{"follow": follow.Body, "turn": turn.Body} {
		evs := readSSE(t, body, nil)
		if len(evs) == 0 || evs[len(evs)-1].Type != "disconnect" || !strings.Contains(string(evs[len(evs)-1].Data), "API key revoked") {
			t.Fatalf("%s ended with %+v", name, evs)
		}
	}
	_, _ = d.Engine.Interrupt("a1")
}

func wsError(t *testing.T, c *websocket.Conn, code string) wsMsg {
	t.Helper()
	for {
		m := wsRead(t, c)
		if m.Type == "error" && m.Error != nil && m.Error.Code == code {
			return m
		}
	}
}

func TestWebSocketSharesTheKeyRateLimit(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{RateLimit: server.RateLimit{PerSecond: 0.5, Burst: 3}})
	d.Create(t, d.alice, map[string]any{"id": "r1"}) // one token
	c := dialWS(t, d, d.alice)                       // one token
	for i := range 5 {
		wsSend(t, c, map[string]any{"request_id": string(rune('a' + i)), "type": "stats", "session_id": "r1"})
	}
	m := wsError(t, c, "rate_limited")
	var data struct {
		RetryAfter int `json:"retry_after"`
	}
	if err := json.Unmarshal(m.Data, &data); err != nil || data.RetryAfter < 1 {
		t.Fatalf("no retry_after in %+v (%s)", m, m.Data)
	}
	// HTTP and WebSocket draw on the same bucket.
	if resp := d.Do(t, "GET", "/v1/sessions", d.alice, nil); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("HTTP after the WebSocket used the bucket: %d", resp.StatusCode)
	}
}

func TestWebSocketCapsRunningRequests(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{Server: func(o *server.Options) { o.WS.MaxRequests = 3 }})
	d.Create(t, d.alice, map[string]any{"id": "s1"})
	c := dialWS(t, d, d.alice)
	for i := range 3 {
		wsSend(t, c, map[string]any{"request_id": string(rune('a' + i)), "type": "subscribe", "session_id": "s1"})
	}
	wsSend(t, c, map[string]any{"request_id": "x", "type": "subscribe", "session_id": "s1"})
	if m := wsError(t, c, "too_many_requests"); m.RequestID != "x" {
		t.Fatalf("refused %+v", m)
	}
	// Ending one makes room for another.
	wsSend(t, c, map[string]any{"request_id": "u", "type": "unsubscribe", "target": "a"})
	for m := wsRead(t, c); m.RequestID != "u"; m = wsRead(t, c) {
	}
	wsSend(t, c, map[string]any{"request_id": "y", "type": "ping"})
	wsSend(t, c, map[string]any{"request_id": "z", "type": "subscribe", "session_id": "s1"})
	wsSend(t, c, map[string]any{"request_id": "p", "type": "ping"})
	for {
		m := wsRead(t, c)
		if m.RequestID == "z" && m.Type == "error" {
			t.Fatalf("refused after unsubscribe: %+v", m.Error)
		}
		if m.RequestID == "p" {
			break
		}
	}
}

// TestSlowWebSocketConsumerIsDroppedWithAReason: a client that stops
// reading while events flow is dropped once what waits for it passes the
// configured bytes; it learns why from the close frame once it reads
// again, and the daemon says so in its log.
func TestSlowWebSocketConsumerIsDroppedWithAReason(t *testing.T) {
	logs := &syncBuffer{}
	d := newDaemonWith(t, testkit.DaemonOptions{Server: func(o *server.Options) {
		o.WS.QueueBytes = 256 << 10
		o.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	}})
	d.Create(t, d.alice, map[string]any{"id": "big"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(d.url, "http")+"/v1/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": []string{"Bearer " + d.alice}},
		HTTPClient: &http.Client{Transport: &http.Transport{DialContext: smallReceiveBuffer}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	c.SetReadLimit(16 << 20)
	wsSend(t, c, map[string]any{"request_id": "sub", "type": "subscribe", "session_id": "big"})
	for i := 0; !strings.Contains(logs.String(), "slow WebSocket client dropped"); i++ {
		if i == 400 {
			t.Fatalf("never dropped; log:\n%s", logs)
		}
		d.turn(t, d.alice, "big", "huge:200000")
	}
	if ce := wsClosed(t, c); ce.Code != websocket.StatusPolicyViolation || !strings.Contains(ce.Reason, "too slow") {
		t.Fatalf("closed with %d %q", ce.Code, ce.Reason)
	}
	if !strings.Contains(logs.String(), `"queue_bytes":262144`) {
		t.Fatalf("the log line does not name the bound:\n%s", logs)
	}
}

// smallReceiveBuffer dials with a small receive buffer, so that a client
// that does not read stalls the server soon.
func smallReceiveBuffer(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	// Not much smaller: below twice loopback's segment size the sender
	// stalls in zero-window probing and stops delivering what it holds.
	_ = conn.(*net.TCPConn).SetReadBuffer(128 << 10)
	return conn, nil
}

// serveTCP serves the daemon's API with the server's own timeouts on a
// loopback listener.
func serveTCP(t *testing.T, d *daemon) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := d.Server.HTTPServer()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = hs.Serve(ln)
	}()
	t.Cleanup(func() {
		_ = hs.Close()
		<-done
	})
	return ln.Addr().String()
}

// closedByServer reads until the server closes conn; it fails if the
// connection is still open after a long while.
func closedByServer(t *testing.T, conn net.Conn, what string) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("%s: the server kept the connection open", what)
	}
}

func TestHTTPTimeoutsCloseIdleAndHalfSentConnections(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{Server: func(o *server.Options) {
		o.Timeouts = server.Timeouts{ReadHeader: 300 * time.Millisecond, Read: 300 * time.Millisecond, Write: 300 * time.Millisecond, Idle: 300 * time.Millisecond}
	}})
	addr := serveTCP(t, d)

	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	if _, err := io.WriteString(idle, "GET /healthz HTTP/1.1\r\nHost: hotplex\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(idle), nil)
	if err != nil || resp.StatusCode != http.StatusOK || resp.Close {
		t.Fatalf("healthz: %v %+v", err, resp)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	closedByServer(t, idle, "idle keep-alive connection")

	half, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer half.Close()
	if _, err := io.WriteString(half, "POST /v1/sessions HTTP/1.1\r\nHost: hotplex\r\nAuthorization: Bearer "+d.alice+
		"\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":"); err != nil {
		t.Fatal(err)
	}
	closedByServer(t, half, "half-sent body")
}

func TestStreamsOutliveTheWriteTimeout(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{Server: func(o *server.Options) {
		o.Timeouts = server.Timeouts{Read: 200 * time.Millisecond, Write: 200 * time.Millisecond, Idle: 200 * time.Millisecond}
	}})
	d.Create(t, d.alice, map[string]any{"id": "long"})
	base := "http://" + serveTCP(t, d)

	req, _ := http.NewRequest("GET", base+"/v1/sessions/long/events", nil)
	req.Header.Set("Authorization", "Bearer "+d.alice)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("follow: %v %v", err, resp)
	}
	defer resp.Body.Close()
	// Keep-alives come every second (the test daemon's KeepAlive): three
	// of them outlast the write and read timeouts many times over.
	sc := bufio.NewScanner(resp.Body)
	for n := 0; n < 3; {
		if !sc.Scan() {
			t.Fatalf("the stream ended after %d keep-alives: %v", n, sc.Err())
		}
		if strings.HasPrefix(sc.Text(), ": keep-alive") {
			n++
		}
	}

	// A turn over HTTP streams past both timeouts too.
	body := strings.NewReader(`{"prompt":"sleep:700 slow"}`)
	req, _ = http.NewRequest("POST", base+"/v1/sessions/long/messages", body)
	req.Header.Set("Authorization", "Bearer "+d.alice)
	turn, err := http.DefaultClient.Do(req)
	if err != nil || turn.StatusCode != http.StatusOK {
		t.Fatalf("turn: %v %v", err, turn)
	}
	if evs := readSSE(t, turn.Body, nil); len(evs) == 0 || evs[len(evs)-1].Type != "result" {
		t.Fatalf("the turn's stream ended with %+v", evs)
	}
	turn.Body.Close()

	// So does an OpenCode prompt, answered when its turn ends.
	body = strings.NewReader(`{"parts":[{"type":"text","text":"sleep:700 waited"}]}`)
	req, _ = http.NewRequest("POST", base+"/session/long/message", body)
	req.Header.Set("Authorization", "Bearer "+d.alice)
	oc, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("OpenCode prompt: %v", err)
	}
	b, err := io.ReadAll(oc.Body)
	oc.Body.Close()
	if err != nil || oc.StatusCode != http.StatusOK || !strings.Contains(string(b), "waited") {
		t.Fatalf("OpenCode prompt: %d %s %v", oc.StatusCode, b, err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/v1/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": []string{"Bearer " + d.alice}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	for i := range 3 {
		time.Sleep(300 * time.Millisecond) // past every timeout
		wsSend(t, c, map[string]any{"request_id": string(rune('a' + i)), "type": "ping"})
		if m := wsRead(t, c); m.Type != "pong" {
			t.Fatalf("got %+v", m)
		}
	}
	// A turn whose answer takes longer than the write timeout streams in
	// full.
	wsSend(t, c, map[string]any{"request_id": "t", "type": "execute", "session_id": "long", "prompt": "sleep:500 done"})
	if msgs := readUntil(t, c, "t"); msgs[len(msgs)-1].Type != "done" || msgs[len(msgs)-1].Error != nil {
		t.Fatalf("turn ended with %+v", msgs[len(msgs)-1])
	}
}

func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{})
	for _, scheme := range []string{"bearer", "BEARER", "Bearer"} {
		req, _ := http.NewRequest("GET", d.url+"/v1/sessions", nil)
		req.Header.Set("Authorization", scheme+" "+d.alice)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", scheme, resp.StatusCode)
		}
	}
	if resp := d.Do(t, "GET", "/v1/sessions", "", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("no key: %d", resp.StatusCode)
	}
}

func TestWrongMethodIs405WithAllow(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{})
	for path, allow := range map[string]string{"/v1/sessions": "GET, POST, HEAD", "/v1/sessions/x": "GET, DELETE, HEAD", "/healthz": "GET, HEAD"} {
		resp := d.Do(t, "PUT", path, d.alice, nil)
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != allow {
			t.Fatalf("PUT %s: %d Allow %q", path, resp.StatusCode, resp.Header.Get("Allow"))
		}
	}
	if resp := d.Do(t, "GET", "/v1/nothing", d.alice, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown path: %d", resp.StatusCode)
	}
}

func TestNullBodyIsRefused(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{})
	for _, body := range []string{"null", " null\n"} {
		if resp := d.Do(t, "POST", "/v1/sessions", d.alice, body); resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("%q: %d", body, resp.StatusCode)
		}
	}
	if list := testkit.Decode[map[string][]any](t, d.Do(t, "GET", "/v1/sessions", d.alice, nil)); len(list["sessions"]) != 0 {
		t.Fatalf("a null body created %v", list)
	}
}

func TestLastEventIDBeyondTheEndIs416(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{})
	d.Create(t, d.alice, map[string]any{"id": "e"})
	evs := d.turn(t, d.alice, "e", "hello")
	last := evs[len(evs)-1].ID
	req, _ := http.NewRequest("GET", d.url+"/v1/sessions/e/events", nil)
	req.Header.Set("Authorization", "Bearer "+d.alice)
	req.Header.Set("Last-Event-ID", strconv.FormatUint(last+5, 10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusRequestedRangeNotSatisfiable {
		t.Fatalf("status %d", resp.StatusCode)
	}
	// At the end exactly is fine: the stream waits for what comes next.
	req.Header.Set("Last-Event-ID", strconv.FormatUint(last, 10))
	ok, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	ok.Body.Close()
	if ok.StatusCode != http.StatusOK {
		t.Fatalf("at the end: %d", ok.StatusCode)
	}
}

func TestDeletedSessionEndsItsStreamsWithSessionClosed(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{})
	d.Create(t, d.alice, map[string]any{"id": "gone"})
	d.turn(t, d.alice, "gone", "hello")
	follow := d.Do(t, "GET", "/v1/sessions/gone/events", d.alice, nil)
	c := dialWS(t, d, d.alice)
	wsSend(t, c, map[string]any{"request_id": "s", "type": "subscribe", "session_id": "gone"})
	// Both have replayed the turn: they are live now.
	readSSE(t, follow.Body, func(e sseEvent) bool { return e.Type == "result" })
	for m := wsRead(t, c); m.Event != "result"; m = wsRead(t, c) {
	}
	if resp := d.Do(t, "DELETE", "/v1/sessions/gone", d.alice, nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	if evs := readSSE(t, follow.Body, nil); len(evs) == 0 || evs[len(evs)-1].Type != "session_closed" {
		t.Fatalf("the stream ended with %+v", evs)
	}
	var got []string
	for {
		m := wsRead(t, c)
		got = append(got, m.Type)
		if m.Type == "done" {
			break
		}
	}
	if len(got) < 2 || got[len(got)-2] != "session_closed" {
		t.Fatalf("the subscription ended with %v", got)
	}
}

func TestMetricsAreForAdmins(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{})
	d.Create(t, d.alice, map[string]any{"id": "m"})
	d.turn(t, d.alice, "m", "hello")
	if resp := d.Do(t, "GET", "/metrics", d.alice, nil); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("an ordinary key read the fleet's metrics: %d", resp.StatusCode)
	}
	resp := d.Do(t, "GET", "/metrics", d.admin, nil)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "hotplex_cost_usd_total") {
		t.Fatalf("admin: %d", resp.StatusCode)
	}
}

func TestFailedTurnsAreCounted(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{})
	d.Create(t, d.alice, map[string]any{"id": "f"})
	resp := d.Do(t, "POST", "/v1/sessions/f/messages", d.alice, map[string]string{"prompt": "crash"})
	readSSE(t, resp.Body, nil)
	// The turn's goroutine counts the failure once the agent's end is
	// known, which can come a moment after the client's stream ended: a
	// scrape is allowed that moment, not more.
	deadline := time.Now().Add(2 * time.Second)
	for {
		b, _ := io.ReadAll(d.Do(t, "GET", "/metrics", d.admin, nil).Body)
		if strings.Contains(string(b), `hotplex_turn_failures_total{code="agent_died"} 1`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no failed turn in:\n%s", grepLines(string(b), "hotplex_turn"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestWebSocketWithAPingInFlightEndsWhenTheClientGoes: a client that
// vanishes while the server waits for its pong is let go at once, not
// when the ping times out.
func TestWebSocketWithAPingInFlightEndsWhenTheClientGoes(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{Server: func(o *server.Options) {
		o.WS.PingInterval = 20 * time.Millisecond
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conns := make(chan net.Conn, 1)
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(d.url, "http")+"/v1/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": []string{"Bearer " + d.alice}},
		HTTPClient: &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if err == nil {
				conns <- conn
			}
			return conn, err
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	// The client never reads, so it never answers the server's pings.
	for !strings.Contains(goroutines(), "(*wsConn).pingLoop") || !strings.Contains(goroutines(), "(*Conn).ping(") {
		if ctx.Err() != nil {
			t.Fatal("the server never pinged")
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = (<-conns).Close()
	deadline := time.Now().Add(3 * time.Second)
	for strings.Contains(goroutines(), "(*wsConn)") {
		if time.Now().After(deadline) {
			t.Fatalf("the connection's goroutines outlived the client:\n%s", goroutines())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// goroutines is the stacks of every goroutine.
func goroutines() string {
	b := make([]byte, 1<<20)
	return string(b[:runtime.Stack(b, true)])
}

// A key is read from the store at most once per KeyCheckInterval, so a
// revocation by another process reaches new requests within it; a key
// another process creates works at once (a key not found is never
// remembered), and a revocation through the daemon is at once.
func TestKeyChangesByAnotherProcessReachNewRequests(t *testing.T) {
	d := newDaemonWith(t, testkit.DaemonOptions{})
	ctx := context.Background()
	if resp := d.Do(t, "GET", "/v1/sessions", "secret-dave", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("an unknown key: %d", resp.StatusCode)
	}
	if err := d.Store.PutAPIKey(ctx, store.APIKey{ID: "dave", Hash: store.HashKey("secret-dave")}); err != nil {
		t.Fatal(err)
	}
	if resp := d.Do(t, "GET", "/v1/sessions", "secret-dave", nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("a key just created by another process: %d", resp.StatusCode)
	}
	if err := d.Store.RevokeAPIKey(ctx, "dave"); err != nil {
		t.Fatal(err)
	}
	revoked := time.Now()
	for {
		resp := d.Do(t, "GET", "/v1/sessions", "secret-dave", nil)
		if resp.StatusCode == http.StatusUnauthorized {
			break
		}
		if time.Since(revoked) > 10*server.DefaultKeyCheckInterval {
			t.Fatalf("a key revoked by another process still works after %s", time.Since(revoked))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Through the daemon: refused by the very next request.
	if resp := d.Do(t, "GET", "/v1/sessions", d.bob, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("bob: %d", resp.StatusCode)
	}
	if resp := d.Do(t, "DELETE", "/v1/keys/bob", d.admin, nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("admin revoke: %d", resp.StatusCode)
	}
	if resp := d.Do(t, "GET", "/v1/sessions", d.bob, nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a key revoked through the daemon still works: %d", resp.StatusCode)
	}
}
