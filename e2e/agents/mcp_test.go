package agents

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider"
)

// A session's own MCP servers (an editor's, given through `hotplex acp`)
// reach the agent: Codex is started with them in its mcp_servers, and
// its scripted model calls the server's tool, whose answer comes back.
func TestCodexSessionMCPServer(t *testing.T) {
	echo := filepath.Join(t.TempDir(), "mcpecho")
	if out, err := exec.Command("go", "build", "-o", echo, "./testdata/mcpecho").CombinedOutput(); err != nil {
		t.Fatalf("build mcpecho: %v\n%s", err, out)
	}
	// Codex offers each MCP server's tools in a namespace of the Responses
	// API, mcp__<server> ('-' made '_'); the script names the function in
	// it <namespace>__<function>.
	const namespace, tool = "mcp__editor_tools", "mcp__editor_tools__echo"
	script := scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("use the editor's echo",
			scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: tool, Input: map[string]any{"text": "hello from codex"}}}},
			scriptedmodel.Text("The echo said: {{last_tool_result}}")),
	}}
	var mu sync.Mutex
	var asked []string
	h := newAgentHarness(t, codexCase(), script, engine.EngineOptions{
		PermissionHandler: func(_ context.Context, req engine.PermissionRequest) provider.ToolDecision {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, fmt.Sprintf("%s %v", req.ToolName, req.Input["text"]))
			return provider.ToolDecision{}
		}})
	// Codex defers MCP tools behind its tool_search tool for the models
	// that have it, which call it first; the scripted model calls the
	// tool straight away, as a model without it is offered it.
	cfg := filepath.Join(h.home, ".codex", "config.toml")
	if err := os.WriteFile(cfg, []byte("model = \"hotplex-scripted\"\ncheck_for_update_on_startup = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := h.eng.CreateSession("mcp", engine.SessionConfig{WorkDir: h.dir, MCPServers: []provider.MCPServer{
		{Name: "editor-tools", Command: echo, Args: []string{"editor-tools"}},
	}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, err := h.exec(ctx, "mcp", "please use the editor's echo")
	if err != nil {
		t.Fatalf("%v\n%s", err, describe(r))
	}
	req := h.model.TurnRequests()
	if len(req) == 0 || !slices.Contains(req[0].Tools, namespace) {
		var tools []string
		if len(req) > 0 {
			tools = req[0].Tools
		}
		t.Fatalf("the model was not offered %s: %q\n%s", namespace, tools, describe(r))
	}
	var answer string
	for _, ev := range r.All(event.TypeAnswer) {
		answer += ev.EventData
	}
	if !strings.Contains(answer, "editor-tools echoes hello from codex") {
		t.Fatalf("answer %q\n%s", answer, describe(r))
	}
	// Codex asked before it called the tool, and the question went to
	// HotPlex's permission hook under the tool's mcp__ name, where the
	// permission rules can match it.
	mu.Lock()
	defer mu.Unlock()
	if !slices.Contains(asked, "mcp__editor-tools__echo hello from codex") {
		t.Errorf("the permission hook was asked %q", asked)
	}
}
