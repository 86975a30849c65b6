package hotplex_test

import (
	"context"
	"os"
	"testing"

	"github.com/hotplex/hotplex"
	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

// The facade's names are the engine's, so both import styles mix freely.
var (
	_ *engine.EngineOptions  = (*hotplex.EngineOptions)(nil)
	_ *engine.Config         = (*hotplex.Config)(nil)
	_ hotplex.HotPlexClient  = (*engine.Engine)(nil)
	_ engine.SessionManager  = (*hotplex.SessionPool)(nil)
	_ hotplex.Firewall       = (*hotplex.Detector)(nil)
	_ hotplex.SessionManager = (*engine.SessionPool)(nil)
)

// The SDK as the README shows it, through the facade only.
func TestFacadeExecute(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	agent := testkit.BuildFakeAgent(t, t.TempDir())
	var client hotplex.HotPlexClient
	eng, err := hotplex.NewEngine(hotplex.EngineOptions{
		Namespace: "facade", Provider: claude.New(claude.Options{Path: agent}),
		Env: append(os.Environ(), "HOME="+t.TempDir()), IdleTimeout: -1,
	})
	if err != nil {
		t.Fatal(err)
	}
	client = eng
	defer client.Close()
	var answer string
	var result *hotplex.EventWithMeta
	err = client.Execute(context.Background(), &hotplex.Config{SessionID: "chat-42", WorkDir: t.TempDir()}, "hello",
		func(eventType string, data any) error {
			ev := data.(*hotplex.EventWithMeta)
			switch eventType {
			case "answer":
				answer += ev.EventData
			case "result":
				result = ev
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if answer != "echo: hello" || result == nil || result.Turn.CostUSD <= 0 || result.Stats.Turns != 1 {
		t.Fatalf("answer %q, result %+v", answer, result)
	}
	v := hotplex.NewDetector(guard.Options{}).CheckCommand("sudo rm -rf /", guard.Context{})
	if !v.Blocked || v.Level != hotplex.LevelCritical {
		t.Fatalf("the facade's detector let rm -rf / through: %+v", v)
	}
}
