package backend

import (
	"context"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/api"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

// TestModelAPIBackends drives the api providers as backends, next to an
// agent CLI on the same engine: multi-turn streaming, restart with the
// conversation kept, and their commands.
func TestModelAPIBackends(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	model, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("long", scriptedmodel.Text(strings.Repeat("many streamed words ", 20))),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = model.Close() })
	var provs []provider.Provider
	for _, fl := range []api.Flavor{api.Anthropic, api.OpenAI} {
		p, err := api.New(api.Options{Flavor: fl, Deltas: true, Tools: true})
		if err != nil {
			t.Fatal(err)
		}
		provs = append(provs, p)
	}
	eng, err := engine.NewEngine(engine.EngineOptions{
		Provider:  claude.New(claude.Options{Path: fakeAgentPath, Name: "fakeagent"}),
		Providers: provs,
		Env: append(os.Environ(), "HOME="+t.TempDir(), "ANTHROPIC_BASE_URL="+model.URL(), "ANTHROPIC_API_KEY=k",
			"OPENAI_BASE_URL="+model.URL()+"/v1", "OPENAI_API_KEY=k"),
		IdleTimeout: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	reg := NewRegistry()
	if err := RegisterEngine(reg, eng, Options{}, map[string]string{"api-openai": "test-version"}); err != nil {
		t.Fatal(err)
	}
	if got := reg.List(); !slices.Equal(got, []string{"api-anthropic", "api-openai", "fakeagent"}) {
		t.Fatalf("List = %v", got)
	}
	for _, tc := range []struct {
		name   string
		flavor scriptedmodel.Flavor
	}{{"api-anthropic", scriptedmodel.Anthropic}, {"api-openai", scriptedmodel.ChatCompletions}} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := reg.Get(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			s, err := b.CreateSession(ctx, SessionOptions{CWD: t.TempDir(), Role: "ROLE-FOR-" + tc.name})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if got := send(t, s, "first: MANGO"); got != "You said: first: MANGO" {
				t.Errorf("first answer %q", got)
			}
			r, err := s.SendStream(ctx, "a long answer please")
			if err != nil {
				t.Fatal(err)
			}
			var chunks int
			var sb strings.Builder
			buf := make([]byte, 64)
			for {
				n, err := r.Read(buf)
				if n > 0 {
					chunks++
					sb.Write(buf[:n])
				}
				if err != nil {
					break
				}
			}
			_ = r.Close()
			if sb.String() != strings.Repeat("many streamed words ", 20) || chunks < 3 {
				t.Errorf("stream: %d chunks, %q", chunks, sb.String())
			}
			if err := s.Restart(ctx); err != nil {
				t.Fatal(err)
			}
			send(t, s, "after restart")
			reqs := model.RequestsOf(tc.flavor)
			last := reqs[len(reqs)-1]
			if !last.Saw("first: MANGO") || !last.Saw("a long answer please") || !strings.Contains(last.System, "ROLE-FOR-"+tc.name) {
				t.Errorf("the model did not see the conversation after the restart: %+v", last)
			}
			out, err := s.Commands().Execute(ctx, "/cost")
			if err != nil || !strings.Contains(out, "turns: 3") || strings.Contains(out, "input tokens: 0\n") {
				t.Errorf("/cost = %q, %v", out, err)
			}
			if s.Commands().IsSupported("/compact") {
				t.Error("an api backend claims /compact")
			}
			md := s.Metadata()
			if md.Backend != tc.name || md.Extra["model"] == "" || md.Extra["provider_session_id"] == "" {
				t.Errorf("metadata %+v", md)
			}
			if tc.name == "api-openai" && md.Extra["version"] != "test-version" {
				t.Errorf("version %q", md.Extra["version"])
			}
		})
	}
}
