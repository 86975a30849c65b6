package daemon_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/hotplex/hotplex/daemon"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/testkit"
)

type bearer struct {
	key  string
	next http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return b.next.RoundTrip(r)
}

// The daemon serves MCP at /mcp on Serve's server, with the API's keys;
// its end with an MCP session open (its event stream too) and a tool call
// waiting for a turn interrupts the turn, ends the call and leaves
// nothing running.
func TestServeMCPThenShutDown(t *testing.T) {
	st := openStore(t)
	defer st.Close()
	ignore := goleak.IgnoreCurrent()
	cfg := config(t, st)
	cfg.ShutdownTimeout = time.Minute
	d, err := daemon.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() { served <- d.Serve(ctx, ln) }()
	url := "http://" + ln.Addr().String() + "/mcp"

	resp, err := http.Post(url, "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("/mcp without a key: %d", resp.StatusCode)
	}

	tr := &http.Transport{}
	cl := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := cl.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint: url, HTTPClient: &http.Client{Transport: bearer{"secret-alice", tr}}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any) (*sdk.CallToolResult, error) {
		return cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	}
	if res, err := call("start_session", map[string]any{"session_id": "m1"}); err != nil || res.IsError {
		t.Fatalf("start_session: %v %+v", err, res)
	}
	type answer struct {
		res *sdk.CallToolResult
		err error
	}
	long := make(chan answer, 1)
	go func() {
		res, err := call("send_prompt", map[string]any{"session_id": "m1", "prompt": "sleep:60000"})
		long <- answer{res, err}
	}()
	api := client{http: &http.Client{Transport: tr}, url: "http://" + ln.Addr().String(), key: "secret-alice"}
	for {
		resp := api.do(t, "GET", "/v1/sessions/m1", nil)
		var s struct{ Status string }
		_ = jsonDecode(resp, &s)
		if s.Status == "running" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}

	stop()
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if err := d.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if a := <-long; a.err == nil && !a.res.IsError {
		t.Errorf("the call of the turn cut short by the shutdown succeeded: %+v", a.res)
	}
	// The turn was interrupted, not left to sleep out its minute.
	sess, err := st.FindSession(context.Background(), "alice", "m1")
	if err != nil {
		t.Fatal(err)
	}
	evs, err := st.Events(context.Background(), sess.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var last event.EventWithMeta
	for _, e := range evs {
		if e.Type == event.TypeResult {
			_ = json.Unmarshal(e.Data, &last)
		}
	}
	if last.Turn == nil || !last.Turn.Interrupted {
		t.Errorf("the last turn's result: %+v", last.Turn)
	}
	_ = cs.Close()
	testkit.AssertNoDescendants(t)
	tr.CloseIdleConnections()
	goleak.VerifyNone(t, ignore)
}

func jsonDecode(resp *http.Response, v any) error {
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(v)
}

// A tool call whose turn outlasts the HTTP server's read and write
// timeouts still gets its answer over /mcp: those timeouts bound idle
// and slow clients, not the agent's work.
func TestMCPCallOutlastsServerTimeouts(t *testing.T) {
	st := openStore(t)
	defer st.Close()
	cfg := config(t, st)
	cfg.ServerOptions = func(o *server.Options) {
		o.Timeouts = server.Timeouts{Read: 300 * time.Millisecond, Write: 300 * time.Millisecond, Idle: time.Minute}
	}
	d, err := daemon.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = d.Close(context.Background()) }()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- d.Serve(ctx, ln) }()
	defer func() { stop(); <-served }()

	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	cl := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := cl.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint: "http://" + ln.Addr().String() + "/mcp", HTTPClient: &http.Client{Transport: bearer{"secret-alice", tr}}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any) *sdk.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
		return res
	}
	call("start_session", map[string]any{"session_id": "slow"})
	call("send_prompt", map[string]any{"session_id": "slow", "prompt": "sleep:1500"})
}
