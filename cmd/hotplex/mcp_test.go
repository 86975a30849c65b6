package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/testkit"
)

// mcpClient starts `hotplex args...` as an MCP server on stdio, the way
// an MCP client configured with it does, and connects to it.
func mcpClient(t *testing.T, home string, args ...string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(hotplexBin, args...)
	cmd.Env = append(os.Environ(), "HOME="+home, "HOTPLEX_LOG_LEVEL=warn")
	cl := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := cl.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func callTool(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any, out any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		b, _ := json.Marshal(res.Content)
		t.Fatalf("%s failed: %s", name, b)
	}
	if out != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatal(err)
		}
	}
}

type mcpSessions struct {
	Sessions []struct {
		SessionID string `json:"session_id"`
	} `json:"sessions"`
}

func (l mcpSessions) has(id string) bool {
	return slices.ContainsFunc(l.Sessions, func(s struct {
		SessionID string `json:"session_id"`
	}) bool {
		return s.SessionID == id
	})
}

// `hotplex mcp` alone: a daemon of its own on the data directory, its
// sessions kept there for the next run, under the admin key it made; the
// process and its agents end when the client leaves.
func TestMCPStdioEmbedded(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	agent := testkit.BuildFakeAgent(t, t.TempDir())
	dataDir, home := t.TempDir(), t.TempDir()
	args := []string{"mcp", "--data-dir", dataDir, "--cli-path", agent, "--offline", "never", "--gateway", "off"}

	cs := mcpClient(t, home, args...)
	callTool(t, cs, "start_session", map[string]any{"session_id": "kept"}, nil)
	var tr struct {
		Answer string `json:"answer"`
	}
	callTool(t, cs, "send_prompt", map[string]any{"session_id": "kept", "prompt": "hello there"}, &tr)
	if tr.Answer != "echo: hello there" {
		t.Fatalf("answer %q", tr.Answer)
	}
	if err := cs.Close(); err != nil {
		t.Logf("closing: %v", err)
	}
	key, err := os.ReadFile(dataDir + "/admin.key")
	if err != nil || len(key) < 16 {
		t.Fatalf("admin key file: %v %q", err, key)
	}

	cs = mcpClient(t, home, args...)
	var list mcpSessions
	callTool(t, cs, "list_sessions", nil, &list)
	if !list.has("kept") {
		t.Fatalf("the next run lists %+v", list)
	}
	callTool(t, cs, "send_prompt", map[string]any{"session_id": "kept", "prompt": "history"}, &tr)
	if tr.Answer != "hello there" { // the earlier prompts: the first run's
		t.Fatalf("the conversation did not carry on: %q", tr.Answer)
	}
}

// `hotplex mcp --connect`: the sessions live in the running daemon.
func TestMCPStdioConnect(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	agent := testkit.BuildFakeAgent(t, t.TempDir())
	home := t.TempDir()
	d := startServe(t, t.TempDir(), agent, home, "")
	cs := mcpClient(t, home, "mcp", "--connect", d.url, "--key", d.key)
	callTool(t, cs, "start_session", map[string]any{"session_id": "in-daemon"}, nil)
	var tr struct {
		Answer string `json:"answer"`
	}
	callTool(t, cs, "send_prompt", map[string]any{"session_id": "in-daemon", "prompt": "hi"}, &tr)
	if tr.Answer != "echo: hi" {
		t.Fatalf("answer %q", tr.Answer)
	}
	resp := d.request(t, "GET", "/v1/sessions/in-daemon", nil)
	defer resp.Body.Close()
	var s struct {
		Status      string `json:"status"`
		LastEventID int    `json:"last_event_id"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&s)
	if resp.StatusCode != http.StatusOK || s.LastEventID == 0 {
		t.Fatalf("the daemon's view of the session: %d %+v", resp.StatusCode, s)
	}
	_ = cs.Close()
}

// delegation is what the orchestrator's model does when asked to
// delegate to id.
func delegation(id string) scriptedmodel.Rule {
	return scriptedmodel.Then("delegate the greeting to "+id,
		scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: "mcp__hotplex__start_session", Input: map[string]any{"session_id": id, "title": "greeting"}}}},
		scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: "mcp__hotplex__send_prompt", Input: map[string]any{"session_id": id, "prompt": "greet the orchestrator"}}}},
		scriptedmodel.Text("The sub-agent said: {{last_tool_result}}"))
}

// Claude Code as the MCP client: a real `claude` configured with
// `hotplex mcp --connect` delegates a task; its model calls
// mcp__hotplex__start_session and mcp__hotplex__send_prompt, the
// sub-agent's answer comes back into the orchestrator's turn, and the
// sub-agent's conversation is in the daemon.
func TestClaudeCodeDelegatesThroughHotplexMCP(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	claudeBin := testkit.ClaudePath(t)
	agent := testkit.BuildFakeAgent(t, t.TempDir())
	home := t.TempDir()
	d := startServe(t, t.TempDir(), agent, home, "")

	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		delegation("delegated-stdio"), delegation("delegated-http"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })

	configs := map[string]map[string]any{
		"stdio": {"command": hotplexBin, "args": []string{"mcp", "--connect", d.url, "--key", d.key}},
		// As the README shows it: the key from the environment.
		"http": {"type": "http", "url": d.url + "/mcp", "headers": map[string]string{"Authorization": "Bearer ${HOTPLEX_TEST_KEY}"}},
	}
	for via, server := range configs {
		t.Run(via, func(t *testing.T) { delegate(t, claudeBin, m.URL(), d, via, server) })
	}
}

// delegate runs the orchestrating claude with server as its hotplex MCP
// server; the sub-agent's session is called "delegated-"+via.
func delegate(t *testing.T, claudeBin, modelURL string, d *daemonProc, via string, server map[string]any) {
	id := "delegated-" + via
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"hotplex": server}})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, claudeBin, "-p", "please delegate the greeting to "+id, "--output-format", "json",
		"--mcp-config", string(cfg), "--strict-mcp-config",
		"--allowedTools", "mcp__hotplex__start_session,mcp__hotplex__send_prompt")
	cmd.Dir = t.TempDir()
	cmd.Env = append(testkit.OfflineEnv(t, modelURL), "HOTPLEX_TEST_KEY="+d.key)
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("claude: %v\n%s\n%s", err, out, ee.Stderr)
		}
		t.Fatal(err)
	}
	var res struct {
		Result  string `json:"result"`
		IsError bool   `json:"is_error"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	// Claude Code hands its model the tool's structured result, the
	// sub-agent's answer in it.
	if res.IsError || !strings.HasPrefix(res.Result, "The sub-agent said: ") || !strings.Contains(res.Result, `"answer":"echo: greet the orchestrator"`) {
		t.Fatalf("the orchestrator's answer: %s", out)
	}

	resp := d.request(t, "GET", "/v1/sessions/"+id, nil)
	defer resp.Body.Close()
	var s struct {
		Title       string `json:"title"`
		Provider    string `json:"provider"`
		LastEventID int    `json:"last_event_id"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&s)
	if resp.StatusCode != http.StatusOK || s.Title != "greeting" || s.LastEventID == 0 {
		t.Fatalf("the delegated session in the daemon: %d %+v", resp.StatusCode, s)
	}
}

// The official TypeScript SDK's client (`make tools` installs it) lists
// and calls every tool over stdio (`hotplex mcp --connect`) and over /mcp.
func TestTypeScriptClient(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	sdkDir := filepath.Join(testkit.ModuleRoot(t), ".tools", "npm", "mcp-sdk", "node_modules", "@modelcontextprotocol", "sdk")
	if _, err := os.Stat(filepath.Join(sdkDir, "package.json")); err != nil {
		t.Fatalf("@modelcontextprotocol/sdk is not installed at %s (run `make tools`): %v", sdkDir, err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed to run the MCP SDK: %v", err)
	}
	agent := testkit.BuildFakeAgent(t, t.TempDir())
	home := t.TempDir()
	d := startServe(t, t.TempDir(), agent, home, "")
	stdioArgs, _ := json.Marshal([]string{"mcp", "--connect", d.url, "--key", d.key})
	for mode, args := range map[string][]string{
		"stdio": {hotplexBin, string(stdioArgs)},
		"http":  {d.url + "/mcp", d.key},
	} {
		t.Run(mode, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, append([]string{filepath.Join("testdata", "mcp_client.mjs"), sdkDir, mode}, args...)...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("the TypeScript client: %v\n%s", err, stderr.String())
			}
			var got struct {
				Tools   []string
				Started struct {
					SessionID string `json:"session_id"`
				}
				Turn struct {
					Answer    string `json:"answer"`
					LastEvent int    `json:"last_event"`
				}
				Progress []string
				Events   struct {
					Events []struct{ Type string }
				}
				List struct {
					Sessions []struct {
						SessionID string `json:"session_id"`
					}
				}
				Resource struct {
					Session struct{ ID, Title string }
				}
				InterruptIdle, AfterClose struct {
					IsError bool
					Text    string
				}
				Closed struct {
					Closed bool
				}
				UnknownTool any
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			id := "ts-" + mode
			t.Logf("progress: %q", got.Progress)
			want := []string{"close_session", "get_events", "interrupt", "list_sessions", "send_prompt", "start_session"}
			switch {
			case !slices.Equal(got.Tools, want):
				t.Errorf("tools %v", got.Tools)
			case got.Started.SessionID != id:
				t.Errorf("start_session: %+v", got.Started)
			case got.Turn.Answer != "echo: hello from typescript" || len(got.Events.Events) != got.Turn.LastEvent:
				t.Errorf("send_prompt %+v, get_events %d events", got.Turn, len(got.Events.Events))
			case len(got.Progress) == 0 || slices.Contains(got.Progress, ""):
				t.Errorf("progress notifications %q", got.Progress)
			case len(got.List.Sessions) == 0 || got.Resource.Session.ID != id || got.Resource.Session.Title != "from TypeScript":
				t.Errorf("list %+v, resource %+v", got.List, got.Resource)
			case !got.InterruptIdle.IsError || !strings.Contains(got.InterruptIdle.Text, "no turn is running"):
				t.Errorf("interrupt with no turn: %+v", got.InterruptIdle)
			case !got.Closed.Closed || !got.AfterClose.IsError || !strings.Contains(got.AfterClose.Text, "no session"):
				t.Errorf("close %+v, then send_prompt %+v", got.Closed, got.AfterClose)
			case got.UnknownTool != float64(-32602):
				t.Errorf("an unknown tool: %v", got.UnknownTool)
			}
		})
	}
}
