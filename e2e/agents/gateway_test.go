package agents

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	agentsconf "github.com/hotplex/hotplex/agents"
	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/gateway"
	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/testkit"
)

// TestOpenCodeThroughGateway: opencode, configured by package agents the
// way the daemon configures it, reaches the model only through the
// gateway: its calls carry the operator's key upstream, its shell tool
// sees no trace of it, and its usage is metered to its session.
func TestOpenCodeThroughGateway(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	const key = "sk-ant-operator-opencode-6f1d2a9e0c4b"
	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("show me the environment", scriptedmodel.Shell("env"), scriptedmodel.Text("Shown.")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	gw := gateway.New(gateway.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Upstreams: map[gateway.API]gateway.Upstream{gateway.Anthropic: {BaseURL: m.URL(), APIKey: key}}})
	if err := gw.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = gw.Close(context.Background()) })

	home, dir := filepath.Join(t.TempDir(), "home"), t.TempDir()
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	env := append(testkit.OfflineEnvWithHome(home, m.URL()), "ANTHROPIC_API_KEY="+key,
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"), "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "XDG_STATE_HOME="+filepath.Join(home, ".local", "state"))
	// As the daemon does: presets see the gateway's URLs, processes get tokens.
	cfg := agentsconf.Config{ToolsDir: filepath.Join(testkit.ModuleRoot(t), ".tools", "npm"),
		Env: append(append([]string(nil), env...), gateway.ModelEnv(gw.URL(), "")...)}
	a, err := agentsconf.Find(cfg, "opencode")
	if err != nil {
		t.Fatal(err)
	}
	// The operator lets agents list their environment (the firewall stops
	// `env` by default); what it shows is the point of this test.
	policy, err := guard.ParsePolicy([]byte(`{"allow":["Bash(env)"]}`))
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.NewEngine(engine.EngineOptions{Provider: a.Provider, Env: env, Credentials: gw, IdleTimeout: -1,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Policy: policy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r := &testkit.Recorder{}
	if err := eng.Execute(ctx, &engine.Config{SessionID: "oc", WorkDir: dir}, "show me the environment", r.Callback); err != nil {
		t.Fatalf("turn: %v\n%v", err, r.Types())
	}
	tr := r.First(event.TypeToolResult)
	if tr == nil || !strings.Contains(tr.EventData, "ANTHROPIC_BASE_URL="+gw.URL()) {
		t.Fatalf("tool result: %v", tr)
	}
	if strings.Contains(tr.EventData, key) {
		t.Fatal("the operator's key is in opencode's shell environment")
	}
	reqs := m.Requests()
	if len(reqs) == 0 {
		t.Fatal("no call reached the model")
	}
	for _, q := range reqs {
		if q.Auth != key {
			t.Errorf("a call reached the model with %q", q.Auth)
		}
	}
	if tot := gw.SessionTotals("oc"); tot.Requests != int64(len(reqs)) || tot.InputTokens == 0 {
		t.Errorf("metered %+v for %d calls", tot, len(reqs))
	}
}
