package daemon_test

import (
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
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
	"golang.org/x/sys/unix"

	"github.com/hotplex/hotplex/daemon"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/gateway"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/sqlite"
	"github.com/hotplex/hotplex/testkit"
)

var fakeAgent string

func TestMain(m *testing.M) {
	os.Exit(testkit.MainWithFakeAgent(m, &fakeAgent, http.DefaultClient.CloseIdleConnections))
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// config is a daemon with the fake agent, the gateway on, and the test
// keys, over st.
func config(t *testing.T, st store.Store) daemon.Config {
	return daemon.Config{
		Store: st, Keys: testkit.DaemonKeys(), Logger: quiet, WorkDirRoot: filepath.Join(t.TempDir(), "work"),
		Provider: claude.New(claude.Options{Path: fakeAgent, Name: "fakeagent", Timeouts: provider.Timeouts{TerminateGrace: 500 * time.Millisecond}}),
		Env:      append(os.Environ(), "HOME="+t.TempDir()),
		Gateway:  &daemon.GatewayConfig{Upstreams: map[gateway.API]gateway.Upstream{}},
	}
}

func openStore(t *testing.T) *sqlite.DB {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "hotplex.db"), sqlite.WithLogger(quiet))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// client calls a served daemon as one key.
type client struct {
	http *http.Client
	url  string
	key  string
}

func (c client) do(t *testing.T, method, path string, body any) *http.Response {
	t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequest(method, c.url+path, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	resp, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func isType(typ string) func(testkit.SSEEvent) bool {
	return func(e testkit.SSEEvent) bool { return e.Type == typ }
}

func find(evs []testkit.SSEEvent, typ string) *event.EventWithMeta {
	for _, e := range evs {
		if e.Type == typ {
			var ev event.EventWithMeta
			_ = json.Unmarshal(e.Data, &ev)
			return &ev
		}
	}
	return nil
}

// TestServeTurnThenShutDownInOrder runs the assembled daemon as `hotplex
// serve` does: a turn over HTTP, then, with a second turn still running
// and its stream open, the end of Serve's context. Serve returns without
// waiting out its shutdown timeout (the turn was interrupted, so its
// stream ended), Close stops the rest, and the order shows in what is
// left: the interrupted turn's result reached the store before Close
// returned, while the store is still open; no goroutine of the daemon and
// no agent process outlives it.
func TestServeTurnThenShutDownInOrder(t *testing.T) {
	for _, stopBy := range []string{"context", "close"} {
		t.Run("stop by "+stopBy, func(t *testing.T) {
			st := openStore(t)
			defer st.Close()
			ignore := goleak.IgnoreCurrent() // the store is the caller's
			cfg := config(t, st)
			cfg.ShutdownTimeout = time.Minute // longer than the test may take
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

			tr := &http.Transport{}
			alice := client{http: &http.Client{Transport: tr}, url: "http://" + ln.Addr().String(), key: "secret-alice"}
			resp := alice.do(t, "POST", "/v1/sessions", map[string]string{"id": "s1"})
			var created struct{ Key string }
			if err := json.NewDecoder(resp.Body).Decode(&created); err != nil || resp.StatusCode != http.StatusCreated {
				t.Fatalf("create: %d %v", resp.StatusCode, err)
			}
			resp.Body.Close()

			resp = alice.do(t, "POST", "/v1/sessions/s1/messages", map[string]string{"prompt": "hello"})
			evs := testkit.ReadSSE(resp.Body, isType(event.TypeResult))
			resp.Body.Close()
			start, ans := find(evs, event.TypeSessionStart), find(evs, event.TypeAnswer)
			if start == nil || start.PID == 0 || ans == nil || ans.EventData != "echo: hello" {
				t.Fatalf("first turn: %+v", evs)
			}
			pid := start.PID

			// The second turn thinks, then sleeps a minute.
			resp = alice.do(t, "POST", "/v1/sessions/s1/messages", map[string]string{"prompt": "think sleep:60000"})
			defer resp.Body.Close()
			if evs := testkit.ReadSSE(resp.Body, isType(event.TypeThinking)); find(evs, event.TypeThinking) == nil {
				t.Fatalf("second turn: %+v", evs)
			}
			switch stopBy {
			case "context":
				stop()
				if err := <-served; err != nil {
					t.Fatalf("Serve: %v", err)
				}
				if err := d.Close(context.Background()); err != nil {
					t.Fatalf("Close: %v", err)
				}
			case "close":
				if err := d.Close(context.Background()); err != nil {
					t.Fatalf("Close: %v", err)
				}
				if err := <-served; err != nil {
					t.Fatalf("Serve after Close: %v", err)
				}
			}
			rest := testkit.ReadSSE(resp.Body, nil)
			if res := find(rest, event.TypeResult); res == nil {
				t.Errorf("the interrupted turn's stream ended without its result: %+v", rest)
			}

			stored, err := st.Events(context.Background(), created.Key, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			results := 0
			for _, e := range stored {
				if e.Type == event.TypeResult {
					results++
				}
			}
			if results != 2 {
				t.Errorf("the store holds %d results of the 2 turns", results)
			}
			// The events waited in a journal beside the database, which
			// the store holds all of once the daemon closed.
			if fi, err := os.Stat(st.Path() + "-events"); err != nil || fi.Size() != 0 {
				t.Errorf("the event journal beside the database after Close: %v %+v", err, fi)
			}
			if err := unix.Kill(pid, 0); !errors.Is(err, unix.ESRCH) {
				t.Errorf("the agent (pid %d) outlived Close: %v", pid, err)
			}
			testkit.AssertNoDescendants(t)
			tr.CloseIdleConnections()
			goleak.VerifyNone(t, ignore)
		})
	}
}

// TestNewUndoesWhatItStarted: when New fails after the gateway listens
// (here: no agent to serve), the gateway is stopped again and nothing of
// the daemon keeps running.
func TestNewUndoesWhatItStarted(t *testing.T) {
	st := openStore(t)
	defer st.Close()
	ignore := goleak.IgnoreCurrent()
	cfg := config(t, st)
	cfg.Provider = nil
	var out bytes.Buffer
	cfg.Out = &out
	if _, err := daemon.New(context.Background(), cfg); !errors.Is(err, daemon.ErrNoAgent) {
		t.Fatalf("New without an agent: %v", err)
	}
	if !strings.Contains(out.String(), "through the gateway at http://127.0.0.1:") {
		t.Fatalf("the gateway did not start, so the test proves nothing: %q", out.String())
	}
	goleak.VerifyNone(t, ignore)
}

// TestAgentsSeeTheGateway: Agents is called with the agents' environment
// pointed at the gateway, and its choice is what the daemon serves.
func TestAgentsSeeTheGateway(t *testing.T) {
	st := openStore(t)
	defer st.Close()
	cfg := config(t, st)
	def := cfg.Provider
	cfg.Provider = nil
	var seen []string
	cfg.Agents = func(env []string) (provider.Provider, []provider.Provider, error) {
		seen = env
		return def, nil, nil
	}
	d, err := daemon.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(context.Background())
	if got := testkit.EnvValue(seen, "ANTHROPIC_BASE_URL"); got != d.Gateway().URL()+"/anthropic" {
		t.Fatalf("ANTHROPIC_BASE_URL=%q, gateway at %s", got, d.Gateway().URL())
	}
	if got := d.Engine().Providers(); len(got) != 1 || got[0] != "fakeagent" {
		t.Fatalf("providers: %v", got)
	}
}

// TestFirstAdminKey: a store without a usable key gets an admin key,
// printed once; configured keys are stored and make it unnecessary.
func TestFirstAdminKey(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	defer st.Close()
	cfg := config(t, st)
	cfg.Keys, cfg.Gateway = nil, nil
	var out bytes.Buffer
	cfg.Out = &out
	d, err := daemon.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	_ = d.Close(ctx)
	_, rest, ok := strings.Cut(out.String(), "Created an admin API key")
	lines := strings.Split(rest, "\n")
	if !ok || len(lines) < 2 {
		t.Fatalf("no admin key printed: %q", out.String())
	}
	secret := strings.TrimSpace(lines[1])
	if k, err := st.APIKeyByHash(ctx, store.HashKey(secret)); err != nil || !k.Admin {
		t.Fatalf("the printed key %q is not a stored admin key: %+v %v", secret, k, err)
	}

	// Again, with keys configured: they are stored, and nothing is created.
	out.Reset()
	cfg.Keys = testkit.DaemonKeys()
	if d, err = daemon.New(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	_ = d.Close(ctx)
	if strings.Contains(out.String(), "Created") {
		t.Fatalf("a second admin key: %q", out.String())
	}
	if k, err := st.APIKeyByHash(ctx, store.HashKey("secret-bob")); err != nil || k.ID != "bob" || k.Admin {
		t.Fatalf("bob's key: %+v %v", k, err)
	}
}
