package mcp_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hotplex/hotplex/client"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/mcp"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/api"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/testkit"
)

var fakeAgent string

var quiet = slog.New(slog.DiscardHandler)

func TestMain(m *testing.M) {
	os.Exit(testkit.MainWithFakeAgent(m, &fakeAgent, http.DefaultClient.CloseIdleConnections))
}

func startDaemon(t *testing.T) *testkit.Daemon {
	t.Helper()
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	return testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: fakeAgent, Name: "fakeagent", Timeouts: provider.Timeouts{TerminateGrace: 500 * time.Millisecond}}),
		Env:      append(os.Environ(), "HOME="+t.TempDir()), Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
	})
}

// mcpClient is an MCP client session with what the server told it.
type mcpClient struct {
	*sdk.ClientSession
	mu       sync.Mutex
	progress []string
	// answer answers the server's elicitations (nil: dismissed); asked
	// are their messages.
	answer func(message string) *sdk.ElicitResult
	asked  []string
}

func (c *mcpClient) progressMessages() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.progress)
}

func newClient(t *testing.T) (*mcpClient, *sdk.Client) {
	c := &mcpClient{}
	return c, sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			c.mu.Lock()
			c.progress = append(c.progress, r.Params.Message)
			c.mu.Unlock()
		},
		ElicitationHandler: func(_ context.Context, r *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			c.mu.Lock()
			c.asked = append(c.asked, r.Params.Message)
			answer := c.answer
			c.mu.Unlock()
			if answer == nil {
				return &sdk.ElicitResult{Action: "cancel"}, nil
			}
			return answer(r.Params.Message), nil
		},
	})
}

// overStdio connects a client to an MCP server on a pipe, newline-framed
// JSON-RPC as on stdio, whose tools call d's API in process with key.
// The returned conn is the client's end, for writing raw bytes.
func overStdio(t *testing.T, d *testkit.Daemon, key string) (*mcpClient, net.Conn) {
	t.Helper()
	srvEnd, cliEnd := net.Pipe()
	srv := mcp.NewServer(client.InProcess(d.Handler()), mcp.Options{Key: key, Logger: quiet})
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		_ = srv.Run(ctx, &sdk.IOTransport{Reader: srvEnd, Writer: srvEnd})
	}()
	c, cl := newClient(t)
	cs, err := cl.Connect(context.Background(), &sdk.IOTransport{Reader: cliEnd, Writer: cliEnd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.ClientSession = cs
	t.Cleanup(func() {
		_ = cs.Close()
		cancel()
		<-ran
	})
	return c, cliEnd
}

// bearer adds an API key to each request.
type bearer struct {
	key  string
	next http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return b.next.RoundTrip(r)
}

// overHTTP connects a client to the daemon's /mcp with key. Its
// connections can be cut (kill) as a client that dies would leave them.
type httpConns struct {
	mu    sync.Mutex
	conns []net.Conn
}

func (h *httpConns) kill() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range h.conns {
		_ = c.Close()
	}
}

func overHTTP(t *testing.T, d *testkit.Daemon, key string) (*mcpClient, *httpConns) {
	t.Helper()
	hc := &httpConns{}
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err == nil {
			hc.mu.Lock()
			hc.conns = append(hc.conns, c)
			hc.mu.Unlock()
		}
		return c, err
	}}
	c, cl := newClient(t)
	cs, err := cl.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint: d.URL + "/mcp", HTTPClient: &http.Client{Transport: bearer{key, tr}}, MaxRetries: -1,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.ClientSession = cs
	t.Cleanup(func() {
		_ = cs.Close()
		tr.CloseIdleConnections()
	})
	return c, hc
}

// call calls a tool and decodes its structured result into out; it
// returns the result, whose IsError the caller checks.
func call(t *testing.T, c *mcpClient, name string, args map[string]any, out any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := &sdk.CallToolParams{Name: name, Arguments: args}
	p.SetProgressToken("p-" + name)
	res, err := c.CallTool(ctx, p)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if out != nil && !res.IsError {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v in %s", name, err, b)
		}
	}
	return res
}

func mustOK(t *testing.T, name string, res *sdk.CallToolResult) {
	t.Helper()
	if res.IsError {
		t.Fatalf("%s failed: %s", name, text(res))
	}
}

func mustFail(t *testing.T, name string, res *sdk.CallToolResult, want string) {
	t.Helper()
	if !res.IsError || !strings.Contains(text(res), want) {
		t.Fatalf("%s: want an error saying %q, got error=%v %q", name, want, res.IsError, text(res))
	}
}

func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

type turn struct {
	Answer        string   `json:"answer"`
	ToolsUsed     []string `json:"tools_used"`
	FilesModified []string `json:"files_modified"`
	Interrupted   bool     `json:"interrupted"`
	FirstEvent    uint64   `json:"first_event"`
	LastEvent     uint64   `json:"last_event"`
	InputTokens   int64    `json:"input_tokens"`
	CostUSD       float64  `json:"cost_usd"`
}

type sessionOut struct {
	SessionID string `json:"session_id"`
	Resource  string `json:"resource"`
	Provider  string `json:"provider"`
	Status    string `json:"status"`
}

type events struct {
	Events []struct {
		Seq  uint64 `json:"seq"`
		Type string `json:"type"`
		Text string `json:"text"`
		Tool string `json:"tool"`
	} `json:"events"`
	NextAfter uint64 `json:"next_after"`
	More      bool   `json:"more"`
}

func bash(cmd string) string { return "bash:" + base64.RawURLEncoding.EncodeToString([]byte(cmd)) }

// Every tool, the resource and the bad inputs, over stdio and over /mcp.
func TestEveryToolOverStdioAndHTTP(t *testing.T) {
	d := startDaemon(t)
	for _, via := range []string{"stdio", "http"} {
		t.Run(via, func(t *testing.T) {
			var c *mcpClient
			if via == "stdio" {
				c, _ = overStdio(t, d, d.Alice)
			} else {
				c, _ = overHTTP(t, d, d.Alice)
			}
			ctx := context.Background()
			tools, err := c.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tl := range tools.Tools {
				names = append(names, tl.Name)
				if tl.InputSchema == nil || tl.OutputSchema == nil {
					t.Errorf("%s has no input or output schema", tl.Name)
				}
			}
			slices.Sort(names)
			if want := []string{"close_session", "get_events", "interrupt", "list_sessions", "send_prompt", "start_session"}; !slices.Equal(names, want) {
				t.Fatalf("tools %v, want %v", names, want)
			}

			id := "s-" + via
			var s sessionOut
			mustOK(t, "start_session", call(t, c, "start_session", map[string]any{"session_id": id, "instructions": "be brief"}, &s))
			if s.SessionID != id || s.Provider != "fakeagent" || s.Resource != "hotplex://sessions/"+id {
				t.Fatalf("start_session: %+v", s)
			}
			mustFail(t, "start_session twice", call(t, c, "start_session", map[string]any{"session_id": id}, nil), "conflict")
			mustFail(t, "start_session on an unknown provider", call(t, c, "start_session", map[string]any{"provider": "no-such-agent"}, nil), "bad_provider")

			var tr turn
			mustOK(t, "send_prompt", call(t, c, "send_prompt", map[string]any{"session_id": id, "prompt": "hello " + bash("echo made | tee made.txt")}, &tr))
			if tr.Answer != "ran: made" || !slices.Contains(tr.ToolsUsed, "Bash") || tr.Interrupted {
				t.Fatalf("send_prompt: %+v", tr)
			}
			if !slices.ContainsFunc(tr.FilesModified, func(f string) bool { return strings.HasSuffix(f, "made.txt") }) {
				t.Errorf("files_modified %v lacks made.txt", tr.FilesModified)
			}
			if pm := c.progressMessages(); !slices.ContainsFunc(pm, func(m string) bool { return strings.HasPrefix(m, "Bash") }) {
				t.Errorf("no progress notification of the tool use: %q", pm)
			}

			var evs events
			mustOK(t, "get_events", call(t, c, "get_events", map[string]any{"session_id": id, "after": tr.FirstEvent - 1}, &evs))
			if len(evs.Events) == 0 || evs.Events[0].Seq != tr.FirstEvent || evs.NextAfter != tr.LastEvent || evs.More {
				t.Fatalf("get_events: %+v (turn %d-%d)", evs, tr.FirstEvent, tr.LastEvent)
			}
			if last := evs.Events[len(evs.Events)-1]; last.Type != "result" {
				t.Errorf("the turn's last event is %q", last.Type)
			}
			var page events
			mustOK(t, "get_events", call(t, c, "get_events", map[string]any{"session_id": id, "limit": 2}, &page))
			if len(page.Events) != 2 || page.Events[0].Seq != 1 || !page.More || page.NextAfter != 2 {
				t.Fatalf("get_events limit 2: %+v", page)
			}

			var list struct {
				Sessions  []sessionOut `json:"sessions"`
				Providers []string     `json:"providers"`
			}
			mustOK(t, "list_sessions", call(t, c, "list_sessions", nil, &list))
			if !slices.ContainsFunc(list.Sessions, func(s sessionOut) bool { return s.SessionID == id && s.Status == "idle" }) || list.Providers[0] != "fakeagent" {
				t.Fatalf("list_sessions: %+v", list)
			}

			rr, err := c.ReadResource(ctx, &sdk.ReadResourceParams{URI: "hotplex://sessions/" + id})
			if err != nil {
				t.Fatal(err)
			}
			var conv struct {
				Session struct{ ID, Provider string }
				Events  []struct{ Type string }
			}
			if err := json.Unmarshal([]byte(rr.Contents[0].Text), &conv); err != nil || conv.Session.ID != id || len(conv.Events) != int(tr.LastEvent) {
				t.Fatalf("resource: %v %s", err, rr.Contents[0].Text)
			}
			if _, err := c.ReadResource(ctx, &sdk.ReadResourceParams{URI: "hotplex://sessions/nobody"}); !isCode(err, sdk.CodeResourceNotFound) {
				t.Errorf("reading a missing session: %v", err)
			}

			mustFail(t, "interrupt with no turn", call(t, c, "interrupt", map[string]any{"session_id": id}, nil), "no turn is running")
			mustFail(t, "send_prompt empty", call(t, c, "send_prompt", map[string]any{"session_id": id, "prompt": " "}, nil), "the prompt is empty")
			mustFail(t, "send_prompt without prompt", call(t, c, "send_prompt", map[string]any{"session_id": id}, nil), "prompt")

			mustOK(t, "close_session", call(t, c, "close_session", map[string]any{"session_id": id}, nil))
			mustFail(t, "send_prompt on a closed session", call(t, c, "send_prompt", map[string]any{"session_id": id, "prompt": "again"}, nil), "no session")
			mustFail(t, "close_session twice", call(t, c, "close_session", map[string]any{"session_id": id}, nil), "no session")

			_, err = c.CallTool(ctx, &sdk.CallToolParams{Name: "no_such_tool"})
			if !isCode(err, jsonrpc.CodeInvalidParams) {
				t.Errorf("an unknown tool: %v", err)
			}
		})
	}
}

func isCode(err error, code int64) bool {
	var je *jsonrpc.Error
	return errors.As(err, &je) && je.Code == code
}

// A turn interrupted by the interrupt tool ends send_prompt with what it
// came to, marked interrupted.
func TestInterruptStopsARunningTurn(t *testing.T) {
	d := startDaemon(t)
	c, _ := overHTTP(t, d, d.Alice)
	mustOK(t, "start_session", call(t, c, "start_session", map[string]any{"session_id": "long"}, nil))
	done := make(chan *sdk.CallToolResult, 1)
	var tr turn
	go func() {
		done <- call(t, c, "send_prompt", map[string]any{"session_id": "long", "prompt": "sleep:60000"}, &tr)
	}()
	waitStatus(t, d, d.Alice, "long", "running")
	mustOK(t, "interrupt", call(t, c, "interrupt", map[string]any{"session_id": "long"}, nil))
	res := <-done
	mustOK(t, "send_prompt", res)
	if !tr.Interrupted {
		t.Fatalf("send_prompt after interrupt: %+v", tr)
	}
}

// waitStatus waits until the API shows session id in status.
func waitStatus(t *testing.T, d *testkit.Daemon, key, id, status string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	last := ""
	for time.Now().Before(deadline) {
		req, _ := http.NewRequest("GET", d.URL+"/v1/sessions/"+id, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var s struct{ Status string }
		_ = json.NewDecoder(resp.Body).Decode(&s)
		resp.Body.Close()
		if last = s.Status; last == status {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("session %s is %q, never %q", id, last, status)
}

// A client that disappears mid-turn leaves no turn running for nobody:
// the turn is interrupted, its agent process stays for the next one.
func TestClientGoneMidTurnInterruptsTheTurn(t *testing.T) {
	d := startDaemon(t)
	for _, via := range []string{"stdio", "http"} {
		t.Run(via, func(t *testing.T) {
			id := "gone-" + via
			var c *mcpClient
			var cut func()
			if via == "stdio" {
				var conn net.Conn
				c, conn = overStdio(t, d, d.Alice)
				cut = func() { _ = conn.Close() }
			} else {
				var hc *httpConns
				c, hc = overHTTP(t, d, d.Alice)
				cut = hc.kill
			}
			mustOK(t, "start_session", call(t, c, "start_session", map[string]any{"session_id": id}, nil))
			done := make(chan error, 1)
			go func() {
				_, err := c.CallTool(context.Background(), &sdk.CallToolParams{Name: "send_prompt", Arguments: map[string]any{"session_id": id, "prompt": "sleep:60000"}})
				done <- err
			}()
			waitStatus(t, d, d.Alice, id, "running")
			cut()
			if err := <-done; err == nil {
				t.Fatal("the call whose connection was cut succeeded")
			}
			waitStatus(t, d, d.Alice, id, "idle")
		})
	}
}

// Bob's key reaches none of Alice's sessions through /mcp, nor her MCP
// session; a request without a valid key is refused.
func TestTenancyOverMCP(t *testing.T) {
	d := startDaemon(t)
	alice, _ := overHTTP(t, d, d.Alice)
	mustOK(t, "start_session", call(t, alice, "start_session", map[string]any{"session_id": "hers"}, nil))
	var tr turn
	mustOK(t, "send_prompt", call(t, alice, "send_prompt", map[string]any{"session_id": "hers", "prompt": "alice-secret-words"}, &tr))

	bob, _ := overHTTP(t, d, d.Bob)
	var list struct {
		Sessions []sessionOut `json:"sessions"`
	}
	mustOK(t, "list_sessions", call(t, bob, "list_sessions", nil, &list))
	if len(list.Sessions) != 0 {
		t.Fatalf("bob lists %+v", list.Sessions)
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"send_prompt", map[string]any{"session_id": "hers", "prompt": "hi"}},
		{"get_events", map[string]any{"session_id": "hers"}},
		{"interrupt", map[string]any{"session_id": "hers"}},
		{"close_session", map[string]any{"session_id": "hers"}},
	} {
		res := call(t, bob, tc.tool, tc.args, nil)
		mustFail(t, "bob "+tc.tool, res, "no session")
		if strings.Contains(text(res), "alice-secret-words") {
			t.Errorf("bob %s saw alice's words: %s", tc.tool, text(res))
		}
	}
	if _, err := bob.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "hotplex://sessions/hers"}); !isCode(err, sdk.CodeResourceNotFound) {
		t.Errorf("bob reads alice's resource: %v", err)
	}

	// Alice's MCP session, with Bob's key.
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_sessions","arguments":{}}}`
	for key, want := range map[string]int{d.Bob: http.StatusForbidden, "": http.StatusUnauthorized, "wrong": http.StatusUnauthorized} {
		req, _ := http.NewRequest("POST", d.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", alice.ID())
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 4096)
		n, _ := resp.Body.Read(b)
		resp.Body.Close()
		if resp.StatusCode != want || strings.Contains(string(b[:n]), "hers") {
			t.Errorf("key %q on alice's MCP session: %d %s (want %d)", key, resp.StatusCode, b[:n], want)
		}
	}

	var evs events
	mustOK(t, "get_events", call(t, alice, "get_events", map[string]any{"session_id": "hers"}, &evs))
	if evs.NextAfter != tr.LastEvent {
		t.Errorf("alice's session changed: events up to %d, her turn ended at %d", evs.NextAfter, tr.LastEvent)
	}
}

// Bytes that are not JSON-RPC get the protocol's parse error, and the
// session goes on.
func TestMalformedJSONRPC(t *testing.T) {
	d := startDaemon(t)
	t.Run("stdio", func(t *testing.T) {
		srvEnd, cliEnd := net.Pipe()
		srv := mcp.NewServer(client.InProcess(d.Handler()), mcp.Options{Key: d.Alice, Logger: quiet})
		ran := make(chan struct{})
		go func() {
			defer close(ran)
			_ = srv.Run(context.Background(), &sdk.IOTransport{Reader: srvEnd, Writer: srvEnd})
		}()
		defer func() { _ = cliEnd.Close(); <-ran }()
		_ = cliEnd.SetDeadline(time.Now().Add(time.Minute))
		rd := bufio.NewReader(cliEnd)
		exchange := func(line string) map[string]any {
			t.Helper()
			if _, err := cliEnd.Write([]byte(line + "\n")); err != nil {
				t.Fatal(err)
			}
			b, err := rd.ReadBytes('\n')
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatalf("%v: %s", err, b)
			}
			return m
		}
		m := exchange(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
		if m["result"] == nil {
			t.Fatalf("initialize: %v", m)
		}
		if _, err := cliEnd.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")); err != nil {
			t.Fatal(err)
		}
		if m := exchange(`{"jsonrpc":"2.0","id":2,"method":"no/such/method"}`); code(m) != jsonrpc.CodeMethodNotFound {
			t.Errorf("unknown method: %v", m)
		}
		if m := exchange(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"send_prompt","arguments":"not an object"}}`); code(m) != jsonrpc.CodeInvalidParams && !isToolError(m) {
			t.Errorf("arguments of the wrong type: %v", m)
		}
		if m := exchange(`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`); m["result"] == nil {
			t.Errorf("tools/list after bad input: %v", m)
		}
	})
	t.Run("http", func(t *testing.T) {
		req, _ := http.NewRequest("POST", d.URL+"/mcp", strings.NewReader(`{"jsonrpc": not json`))
		req.Header.Set("Authorization", "Bearer "+d.Alice)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		if resp.StatusCode != http.StatusBadRequest || code(m) != jsonrpc.CodeParseError {
			t.Errorf("malformed JSON-RPC over HTTP: %d %v", resp.StatusCode, m)
		}
	})
}

func code(m map[string]any) int64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return int64(c)
}

func isToolError(m map[string]any) bool {
	r, _ := m["result"].(map[string]any)
	return r["isError"] == true
}

// The real Claude Code CLI behind the tools: a turn with a shell tool,
// its answer, tools and files, over /mcp.
func TestRealClaudeThroughMCP(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("make a file", scriptedmodel.Bash("echo made > made.txt && cat made.txt"), scriptedmodel.Text("Made it: {{last_tool_result}}")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	d := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: testkit.ClaudePath(t)}),
		Env:      testkit.OfflineEnv(t, m.URL()), Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
	})
	c, _ := overHTTP(t, d, d.Alice)
	mustOK(t, "start_session", call(t, c, "start_session", map[string]any{"session_id": "real"}, nil))
	var tr turn
	mustOK(t, "send_prompt", call(t, c, "send_prompt", map[string]any{"session_id": "real", "prompt": "please make a file"}, &tr))
	if !strings.Contains(tr.Answer, "Made it: made") || !slices.Contains(tr.ToolsUsed, "Bash") || tr.InputTokens == 0 {
		t.Fatalf("send_prompt: %+v", tr)
	}
	if !slices.ContainsFunc(tr.FilesModified, func(f string) bool { return strings.HasSuffix(f, "made.txt") }) {
		t.Errorf("files_modified %v lacks made.txt", tr.FilesModified)
	}
	mustOK(t, "close_session", call(t, c, "close_session", map[string]any{"session_id": "real"}, nil))
}

// A key over its rate limit is told so at /mcp as at /v1: 429 with
// Retry-After, not a server error.
func TestRateLimitAtMCP(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	d := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: fakeAgent, Name: "fakeagent"}),
		Env:      append(os.Environ(), "HOME="+t.TempDir()), Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
		RateLimit: server.RateLimit{PerSecond: 0.01, Burst: 2},
	})
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	var codes []int
	for range 3 {
		req, _ := http.NewRequest("POST", d.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+d.Alice)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		codes = append(codes, resp.StatusCode)
		if resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
	}
	if !slices.Equal(codes, []int{http.StatusOK, http.StatusOK, http.StatusTooManyRequests}) {
		t.Errorf("statuses %v", codes)
	}
}

// An orchestrator in the daemon: a real Claude Code session whose MCP
// server is the daemon's own /mcp delegates to a sub-agent of another kind
// (the OpenAI Chat Completions API, called directly) through
// mcp__hotplex__start_session and mcp__hotplex__send_prompt; the
// sub-agent's answer comes back into the orchestrator's turn, and both
// conversations are the daemon's.
func TestClaudeOrchestratesAnotherAgentInTheDaemon(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("delegate the greeting",
			scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: "mcp__hotplex__start_session", Input: map[string]any{"session_id": "sub", "title": "delegated", "provider": "api-openai"}}}},
			scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: "mcp__hotplex__send_prompt", Input: map[string]any{"session_id": "sub", "prompt": "greet the orchestrator"}}}},
			scriptedmodel.Text("The sub-agent said: {{last_tool_result}}")),
		scriptedmodel.Then("greet the orchestrator", scriptedmodel.Text("Hello, orchestrator.")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	// The CLI reads its MCP configuration when a session's process
	// starts, after the daemon (and so its URL) exists.
	cfgPath := filepath.Join(t.TempDir(), "mcp.json")
	sub, err := api.New(api.Options{Flavor: api.OpenAI, BaseURL: m.URL() + "/v1", APIKey: "offline", Tools: true})
	if err != nil {
		t.Fatal(err)
	}
	d := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider:  claude.New(claude.Options{Path: testkit.ClaudePath(t), ExtraArgs: []string{"--mcp-config", cfgPath, "--strict-mcp-config"}}),
		Providers: []provider.Provider{sub},
		Env:       testkit.OfflineEnv(t, m.URL()), Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
	})
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"hotplex": map[string]any{
		"type": "http", "url": d.URL + "/mcp", "headers": map[string]string{"Authorization": "Bearer " + d.Alice}}}})
	if err := os.WriteFile(cfgPath, cfg, 0o600); err != nil {
		t.Fatal(err)
	}

	c, _ := overStdio(t, d, d.Alice)
	mustOK(t, "start_session", call(t, c, "start_session", map[string]any{"session_id": "orchestrator"}, nil))
	var tr turn
	mustOK(t, "send_prompt", call(t, c, "send_prompt", map[string]any{"session_id": "orchestrator", "prompt": "please delegate the greeting"}, &tr))
	// The sub-agent changed no file: its saved conversation is HotPlex's.
	if !strings.HasPrefix(tr.Answer, "The sub-agent said: ") || !strings.Contains(tr.Answer, "Hello, orchestrator.") ||
		!slices.Contains(tr.ToolsUsed, "mcp__hotplex__send_prompt") || strings.Contains(tr.Answer, ".hotplex") {
		t.Fatalf("the orchestrator's turn: %+v", tr)
	}
	var list struct {
		Sessions []sessionOut `json:"sessions"`
	}
	mustOK(t, "list_sessions", call(t, c, "list_sessions", nil, &list))
	var ids []string
	for _, s := range list.Sessions {
		ids = append(ids, s.SessionID+"/"+s.Provider)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"orchestrator/claude", "sub/api-openai"}) {
		t.Fatalf("the daemon's sessions: %v", ids)
	}
}

// A turn that waits for a person asks the MCP client, over stdio and over
// /mcp: its answer is the decision (allow lets the tool run, decline
// denies it), given on the "mcp" channel, and the turn goes on.
func TestPermissionAskedOfTheMCPClient(t *testing.T) {
	d := startDaemon(t)
	for _, via := range []string{"stdio", "http"} {
		t.Run(via, func(t *testing.T) {
			var c *mcpClient
			if via == "stdio" {
				c, _ = overStdio(t, d, d.Alice)
			} else {
				c, _ = overHTTP(t, d, d.Alice)
			}
			for _, tc := range []struct {
				action, decision string
				file             bool
			}{{"accept", "allow", true}, {"decline", "deny", false}} {
				id := "ask-" + via + "-" + tc.decision
				var s struct {
					WorkDir string `json:"work_dir"`
				}
				mustOK(t, "start_session", call(t, c, "start_session", map[string]any{"session_id": id, "approval": "ask"}, &s))
				c.mu.Lock()
				c.asked = nil
				c.answer = func(string) *sdk.ElicitResult {
					if tc.action == "decline" {
						return &sdk.ElicitResult{Action: "decline"}
					}
					return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"decision": tc.decision}}
				}
				c.mu.Unlock()
				var tr struct{ Answer string }
				mustOK(t, "send_prompt", call(t, c, "send_prompt", map[string]any{"session_id": id, "prompt": "bash:" + base64.RawURLEncoding.EncodeToString([]byte("touch asked.txt"))}, &tr))
				c.mu.Lock()
				asked := slices.Clone(c.asked)
				c.mu.Unlock()
				if len(asked) != 1 || !strings.Contains(asked[0], id) || !strings.Contains(asked[0], "Allow it?") {
					t.Fatalf("the client was asked %q (answer %q)", asked, tr.Answer)
				}
				if _, err := os.Stat(filepath.Join(s.WorkDir, "asked.txt")); (err == nil) != tc.file {
					t.Fatalf("%s: the file exists = %v", tc.action, err == nil)
				}
				var evs struct {
					Events []struct {
						Type, Decision, Channel string
						AnsweredBy              string `json:"answered_by"`
					} `json:"events"`
				}
				mustOK(t, "get_events", call(t, c, "get_events", map[string]any{"session_id": id}, &evs))
				decided := false
				for _, e := range evs.Events {
					if e.Type == event.TypePermissionDecision {
						decided = e.Decision == tc.decision && e.Channel == "mcp" && e.AnsweredBy == "alice"
					}
				}
				if !decided {
					t.Fatalf("%s: no permission_decision %s over mcp among %+v", tc.action, tc.decision, evs.Events)
				}
			}
		})
	}
}
