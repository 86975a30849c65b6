package acp

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/testkit"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// fakeAgent builds testdata/fakeacp into the test's temp dir.
func fakeAgent(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fakeacp")
	if out, err := exec.Command("go", "build", "-o", path, "./testdata/fakeacp").CombinedOutput(); err != nil {
		t.Fatalf("build fakeacp: %v\n%s", err, out)
	}
	return path
}

func start(t *testing.T, p *Provider, o provider.StartOptions) provider.Process {
	t.Helper()
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	if o.WorkDir == "" {
		o.WorkDir = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := p.Start(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c
}

func collect(evs *[]*event.EventWithMeta) provider.Emit {
	return func(e *event.EventWithMeta) error {
		*evs = append(*evs, e)
		return nil
	}
}

func answer(evs []*event.EventWithMeta) string {
	var b strings.Builder
	for _, e := range evs {
		if e.EventType == event.TypeAnswer {
			b.WriteString(e.EventData)
		}
	}
	return b.String()
}

// An agent whose session/load does not work resumes through its own flag:
// the new process is started with the saved session ID.
func TestResumeByFlag(t *testing.T) {
	p, err := New(Options{Name: "fake", Path: fakeAgent(t), Resume: ResumeFlag,
		ResumeArgs: func(id string) []string { return []string{"--resume", id} }})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	c1 := start(t, p, provider.StartOptions{ProviderSessionID: "conv", WorkDir: dir})
	id := c1.Info().ProviderSessionID
	if id == "" || c1.Info().Resumed {
		t.Fatalf("first start: %+v", c1.Info())
	}
	var evs []*event.EventWithMeta
	tr, err := c1.Turn(context.Background(), "hello", nil, collect(&evs))
	if err != nil || answer(evs) != "echo: hello" || tr.InputTokens != 5 {
		t.Fatalf("turn: %v %q %+v", err, answer(evs), tr)
	}
	if err := c1.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The engine hands the agent's own ID back on resume.
	c2 := start(t, p, provider.StartOptions{ProviderSessionID: id, Resume: true, WorkDir: dir})
	if info := c2.Info(); !info.Resumed || info.ProviderSessionID != id || info.Fallback != "" {
		t.Fatalf("second start: %+v", info)
	}
	evs = nil
	if _, err := c2.Turn(context.Background(), "again", nil, collect(&evs)); err != nil || answer(evs) != "resumed "+id+": again" {
		t.Fatalf("resumed turn: %v %q", err, answer(evs))
	}
}

// An agent without session/load starts afresh and says so.
func TestNoLoadFallsBack(t *testing.T) {
	p, err := New(Options{Name: "fake", Path: fakeAgent(t)})
	if err != nil {
		t.Fatal(err)
	}
	c := start(t, p, provider.StartOptions{ProviderSessionID: "old-id", Resume: true})
	if info := c.Info(); info.Resumed || !strings.Contains(info.Fallback, "started a new") {
		t.Fatalf("info: %+v", info)
	}
}

// Permission requests reach ask as a Bash call with the shell command, and
// the decision picks the agent's matching option.
func TestPermissionToAsk(t *testing.T) {
	p, err := New(Options{Name: "fake", Path: fakeAgent(t)})
	if err != nil {
		t.Fatal(err)
	}
	c := start(t, p, provider.StartOptions{ProviderSessionID: "perm"})
	for _, tc := range []struct {
		behavior, want string
	}{{provider.Allow, "selected yes"}, {provider.Deny, "selected no"}} {
		var got []provider.ToolRequest
		ask := func(_ context.Context, r provider.ToolRequest) provider.ToolDecision {
			got = append(got, r)
			return provider.ToolDecision{Behavior: tc.behavior}
		}
		var evs []*event.EventWithMeta
		if _, err := c.Turn(context.Background(), "ask echo hi > f", ask, collect(&evs)); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Kind != provider.CanUseTool || got[0].ToolName != "Bash" || got[0].Input["command"] != "echo hi > f" {
			t.Fatalf("ask got %+v", got)
		}
		if answer(evs) != tc.want {
			t.Fatalf("%s: agent reports %q", tc.behavior, answer(evs))
		}
	}
}

// A cancelled turn ends when the agent answers session/cancel; an agent
// that ignores it is killed after the grace.
func TestCancel(t *testing.T) {
	p, err := New(Options{Name: "fake", Path: fakeAgent(t), Timeouts: provider.Timeouts{InterruptGrace: 500 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	c := start(t, p, provider.StartOptions{ProviderSessionID: "cancel"})
	// The decoder gathers chunks until something else arrives, so the
	// agent's first words surface only at the turn's end: cancel by time.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	tr, err := c.Turn(ctx, "slow", nil, func(*event.EventWithMeta) error { return nil })
	if !errors.Is(err, context.DeadlineExceeded) || tr == nil || !tr.Interrupted || !c.Alive() {
		t.Fatalf("slow: %v %+v alive=%v", err, tr, c.Alive())
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel2()
	begin := time.Now()
	_, err = c.Turn(ctx2, "hang", nil, func(*event.EventWithMeta) error { return nil })
	if !errors.Is(err, provider.ErrSessionDead) || time.Since(begin) > 3*time.Second {
		t.Fatalf("hang: %v after %s", err, time.Since(begin))
	}
	pid := c.Info().PID
	deadline := time.Now().Add(2 * time.Second)
	for proc.Alive(pid) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if c.Alive() || proc.Alive(pid) {
		t.Fatal("an agent that ignored session/cancel was not killed")
	}
}

// A conversation's MCP servers reach the agent's session/new: stdio ones
// always, HTTP ones since the agent takes them, SSE ones not (it says it
// does not take them).
func TestMCPServersReachSessionNew(t *testing.T) {
	p, err := New(Options{Name: "fake", Path: fakeAgent(t)})
	if err != nil {
		t.Fatal(err)
	}
	c := start(t, p, provider.StartOptions{ProviderSessionID: "conv", MCPServers: []provider.MCPServer{
		{Name: "tools", Command: "/usr/bin/tools", Args: []string{"--stdio"}, Env: map[string]string{"B": "2", "A": "1"}},
		{Name: "web", Type: "http", URL: "http://127.0.0.1:9/mcp", Headers: map[string]string{"Authorization": "Bearer x"}},
		{Name: "old", Type: "sse", URL: "http://127.0.0.1:9/sse"},
	}})
	var evs []*event.EventWithMeta
	if _, err := c.Turn(context.Background(), "mcp", nil, collect(&evs)); err != nil {
		t.Fatal(err)
	}
	want := `[{"args":["--stdio"],"command":"/usr/bin/tools","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"name":"tools"},` +
		`{"headers":[{"name":"Authorization","value":"Bearer x"}],"name":"web","type":"http","url":"http://127.0.0.1:9/mcp"}]`
	if got := answer(evs); got != want {
		t.Fatalf("the agent's session/new had\n%s\nwant\n%s", got, want)
	}
}

// A spare is an initialized agent without a session: a conversation to be
// resumed leaves it parked, a new one gets a session on it with its MCP
// servers, and an unclaimed spare's Close ends its process.
func TestSpareClaim(t *testing.T) {
	p, err := New(Options{Name: "fake", Path: fakeAgent(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c1 := start(t, p, provider.StartOptions{ProviderSessionID: "old"})
	_ = c1.Close(ctx)

	prewarm := func() provider.Spare {
		sc, err := p.Prewarm(ctx, provider.StartOptions{WorkDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	sc := prewarm()
	for _, o := range []provider.StartOptions{{ProviderSessionID: "old"}, {ProviderSessionID: "believed", Resume: true}} {
		if _, err := sc.Claim(ctx, o); !errors.Is(err, provider.ErrNotClaimable) {
			t.Fatalf("claim of %+v: %v, want ErrNotClaimable", o, err)
		}
	}
	if !sc.Alive() {
		t.Fatal("a refused claim ended the spare")
	}
	c, err := sc.Claim(ctx, provider.StartOptions{ProviderSessionID: "new", WorkDir: t.TempDir(), MCPServers: []provider.MCPServer{
		{Name: "web", Type: "http", URL: "http://127.0.0.1:9/mcp"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if info := c.Info(); info.PID != sc.PID() || info.ProviderSessionID == "" || info.Resumed {
		t.Fatalf("claimed: %+v", info)
	}
	if saved, ok := p.opts.Store.Get("new"); !ok || saved != c.Info().ProviderSessionID {
		t.Fatalf("the claimed session was not remembered: %q", saved)
	}
	var evs []*event.EventWithMeta
	if _, err := c.Turn(ctx, "mcp", nil, collect(&evs)); err != nil {
		t.Fatal(err)
	}
	if got, want := answer(evs), `[{"headers":[],"name":"web","type":"http","url":"http://127.0.0.1:9/mcp"}]`; got != want {
		t.Fatalf("the claim's session/new had MCP servers\n%s\nwant\n%s", got, want)
	}

	unclaimed := prewarm()
	pid := unclaimed.PID()
	if err := unclaimed.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if proc.Alive(pid) {
		t.Fatalf("the closed spare's process %d lives on", pid)
	}
}
