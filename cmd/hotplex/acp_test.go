package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/testkit"
)

// acpEditor is an editor's side of an ACP connection: it records the
// agent's updates and allows what it is asked.
type acpEditor struct {
	mu      sync.Mutex
	updates []sdk.SessionUpdate
	asked   []string // the titles of the permission requests
}

func (e *acpEditor) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.updates = append(e.updates, n.Update)
	return nil
}

func (e *acpEditor) RequestPermission(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if p.ToolCall.Title != nil {
		e.asked = append(e.asked, *p.ToolCall.Title)
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected("allow")}, nil
}

var errNotOffered = errors.New("not offered")

func (e *acpEditor) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, errNotOffered
}
func (e *acpEditor) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, errNotOffered
}
func (e *acpEditor) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, errNotOffered
}
func (e *acpEditor) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, errNotOffered
}
func (e *acpEditor) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, errNotOffered
}
func (e *acpEditor) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, errNotOffered
}
func (e *acpEditor) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, errNotOffered
}

// An editor drives the real Claude Code through `hotplex acp --connect
// --approval ask`: the scripted model has it run a shell command, which
// the editor is asked about and allows; the editor sees the tool call,
// its completion with the command's output and the answer, and the
// conversation is the daemon's.
func TestACPWithClaudeCode(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	model := startModel(t, scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("write the proof", scriptedmodel.Bash("echo acp-proof > proof.txt && cat proof.txt"),
			scriptedmodel.Text("The command printed: {{last_tool_result}}")),
	}})
	env := []string{"ANTHROPIC_BASE_URL=" + model.URL(), "ANTHROPIC_API_KEY=sk-hotplex-test", "DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
	home := t.TempDir()
	d := startServeWith(t, t.TempDir(), testkit.ClaudePath(t), home, "", env, "--gateway", "off")

	// The editor's project, in the key's tree of work directories.
	resp := d.request(t, "POST", "/v1/sessions", map[string]any{"id": "probe"})
	var probe struct {
		WorkDir string `json:"work_dir"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&probe)
	resp.Body.Close()
	if probe.WorkDir == "" {
		t.Fatalf("no work directory for a probe session: %d", resp.StatusCode)
	}
	cwd := filepath.Join(filepath.Dir(probe.WorkDir), "editor-project")
	if err := os.Mkdir(cwd, 0o750); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(hotplexBin, "acp", "--connect", d.url, "--key", d.key, "--approval", "ask")
	cmd.Env = append(os.Environ(), "HOME="+home)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ed := &acpEditor{}
	conn := sdk.NewClientSideConnection(ed, stdin, stdout)
	defer func() {
		_ = stdin.Close() // the editor leaves: the agent ends
		if err := cmd.Wait(); err != nil {
			t.Errorf("hotplex acp: %v\n%s", err, stderr.String())
		}
	}()

	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr.String())
	}
	s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("please write the proof")}})
	if err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v\n%s", r, err, stderr.String())
	}
	ed.mu.Lock()
	updates, asked := slices.Clone(ed.updates), slices.Clone(ed.asked)
	ed.mu.Unlock()
	if len(asked) != 1 || !strings.Contains(asked[0], "echo acp-proof") {
		t.Errorf("permission requests: %q", asked)
	}
	var call sdk.ToolCallId
	var completed, answered bool
	for _, u := range updates {
		switch {
		case u.ToolCall != nil && u.ToolCall.Kind == sdk.ToolKindExecute:
			call = u.ToolCall.ToolCallId
		case u.ToolCallUpdate != nil && u.ToolCallUpdate.ToolCallId == call && call != "" &&
			u.ToolCallUpdate.Status != nil && *u.ToolCallUpdate.Status == sdk.ToolCallStatusCompleted:
			completed = true
		case u.AgentMessageChunk != nil && strings.Contains(u.AgentMessageChunk.Content.Text.Text, "acp-proof"):
			answered = true
		}
	}
	if call == "" || !completed || !answered {
		b, _ := json.Marshal(updates)
		t.Fatalf("updates (tool call %q, completed %v, answered %v): %s", call, completed, answered, b)
	}
	if b, err := os.ReadFile(filepath.Join(cwd, "proof.txt")); err != nil || strings.TrimSpace(string(b)) != "acp-proof" {
		t.Fatalf("proof.txt: %q, %v", b, err)
	}
	resp = d.request(t, "GET", "/v1/sessions/"+string(s.SessionId), nil)
	defer resp.Body.Close()
	var view struct {
		WorkDir     string `json:"work_dir"`
		LastEventID int    `json:"last_event_id"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&view)
	if view.WorkDir != cwd || view.LastEventID == 0 {
		t.Fatalf("the daemon's view of the editor's session: %+v", view)
	}
}

// The editor's MCP servers reach the agent: an editor gives `hotplex
// acp` an MCP server of its own in session/new (HotPlex's own, `hotplex
// mcp --connect`, as an editor would name any), and the real Claude
// Code's scripted model calls one of its tools; the tool's answer (the
// key's sessions, the editor's among them) comes back in the turn.
func TestACPEditorMCPServerReachesClaudeCode(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	model := startModel(t, scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("ask the editor's tools",
			scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: "mcp__editor-tools__list_sessions", Input: map[string]any{}}}},
			scriptedmodel.Text("The editor's tools said: {{last_tool_result}}")),
	}})
	env := []string{"ANTHROPIC_BASE_URL=" + model.URL(), "ANTHROPIC_API_KEY=sk-hotplex-test", "DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
	home := t.TempDir()
	d := startServeWith(t, t.TempDir(), testkit.ClaudePath(t), home, "", env, "--gateway", "off")
	resp := d.request(t, "POST", "/v1/sessions", map[string]any{"id": "probe"})
	var probe struct {
		WorkDir string `json:"work_dir"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&probe)
	resp.Body.Close()
	cwd := filepath.Join(filepath.Dir(probe.WorkDir), "mcp-project")
	if err := os.Mkdir(cwd, 0o750); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(hotplexBin, "acp", "--connect", d.url, "--key", d.key)
	cmd.Env = append(os.Environ(), "HOME="+home)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ed := &acpEditor{}
	conn := sdk.NewClientSideConnection(ed, stdin, stdout)
	defer func() {
		_ = stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("hotplex acp: %v\n%s", err, stderr.String())
		}
	}()
	init, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
	if err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr.String())
	}
	if !init.AgentCapabilities.McpCapabilities.Http {
		t.Errorf("initialize does not offer HTTP MCP servers: %+v", init.AgentCapabilities.McpCapabilities)
	}
	editorTools := sdk.McpServer{Stdio: &sdk.McpServerStdio{Name: "editor-tools", Command: hotplexBin,
		Args: []string{"mcp", "--connect", d.url}, Env: []sdk.EnvVariable{{Name: "HOTPLEX_API_KEY", Value: d.key}}}}
	s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{editorTools}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("please ask the editor's tools")}})
	if err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v\n%s", r, err, stderr.String())
	}
	ed.mu.Lock()
	updates := slices.Clone(ed.updates)
	ed.mu.Unlock()
	var call sdk.ToolCallId
	var completed bool
	var answer string
	for _, u := range updates {
		switch {
		case u.ToolCall != nil && strings.Contains(u.ToolCall.Title, "mcp__editor-tools__list_sessions"):
			call = u.ToolCall.ToolCallId
		case u.ToolCallUpdate != nil && call != "" && u.ToolCallUpdate.ToolCallId == call &&
			u.ToolCallUpdate.Status != nil && *u.ToolCallUpdate.Status == sdk.ToolCallStatusCompleted:
			completed = true
		case u.AgentMessageChunk != nil:
			answer += u.AgentMessageChunk.Content.Text.Text
		}
	}
	// The tool listed the key's sessions, this one among them.
	if call == "" || !completed || !strings.Contains(answer, string(s.SessionId)) {
		b, _ := json.Marshal(updates)
		t.Fatalf("tool call %q completed %v, answer %q; updates: %s", call, completed, answer, b)
	}
}

// The official ACP TypeScript SDK drives `hotplex acp --connect` against
// a daemon running the fake agent.
func TestACPTypeScriptClient(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	home := t.TempDir()
	d := startServe(t, t.TempDir(), testkit.BuildFakeAgent(t, t.TempDir()), home, "")
	toolPrompt := "bash:" + base64.RawURLEncoding.EncodeToString([]byte("echo from-typescript > ts.txt"))
	runTypeScriptACP(t, d, home, toolPrompt, "think:started sleep:60000")
}

// The same client against the real Claude Code on the scripted model: the
// shell command it asks about is Claude Code's own Bash tool call.
func TestACPTypeScriptClientWithClaudeCode(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	model := startModel(t, scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("write the typescript proof", scriptedmodel.Bash("echo from-typescript > ts.txt"),
			scriptedmodel.Text("Written.")),
		scriptedmodel.Then("ponder at length", scriptedmodel.Reply{Thinking: "started pondering",
			Text: []string{strings.Repeat("a long answer, word by word, ", 200)}, ChunkDelay: 200 * time.Millisecond}),
	}})
	env := []string{"ANTHROPIC_BASE_URL=" + model.URL(), "ANTHROPIC_API_KEY=sk-hotplex-test", "DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
	home := t.TempDir()
	d := startServeWith(t, t.TempDir(), testkit.ClaudePath(t), home, "", env, "--gateway", "off")
	runTypeScriptACP(t, d, home, "please write the typescript proof", "please ponder at length")
}

// The same client against Codex (its app server, through HotPlex's codex
// provider) on the scripted model's Responses API: the editor's sessions
// run on another kind of agent than Claude Code, chosen by `hotplex acp
// --provider codex`.
func TestACPTypeScriptClientWithCodex(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	model := startModel(t, scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("write the typescript proof", scriptedmodel.Shell("echo from-typescript > ts.txt"),
			scriptedmodel.Text("Written.")),
		scriptedmodel.Then("ponder at length", scriptedmodel.Reply{Thinking: "started pondering",
			Text: []string{strings.Repeat("a long answer, word by word, ", 200)}, ChunkDelay: 200 * time.Millisecond}),
	}})
	home := t.TempDir()
	codexHome := filepath.Join(home, ".codex")
	if err := os.MkdirAll(codexHome, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte("check_for_update_on_startup = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	codex := testkit.ToolPath(t, "codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex")
	env := []string{"OPENAI_BASE_URL=" + model.URL() + "/v1", "OPENAI_API_KEY=sk-hotplex-test",
		"CODEX_HOME=" + codexHome, "HOTPLEX_CODEX_PATH=" + codex}
	d := startServeWith(t, t.TempDir(), testkit.BuildFakeAgent(t, t.TempDir()), home, "", env, "--gateway", "off")
	id := runTypeScriptACP(t, d, home, "please write the typescript proof", "please ponder at length", "--provider", "codex")
	resp := d.request(t, "GET", "/v1/sessions/"+id, nil)
	defer resp.Body.Close()
	var view struct{ Provider string }
	if err := json.NewDecoder(resp.Body).Decode(&view); err != nil || view.Provider != "codex" {
		t.Errorf("the editor's session runs on %q (%v), not codex", view.Provider, err)
	}
	// The turns were Codex's, on the model's Responses API.
	if n := len(model.TurnRequests()); n < 3 {
		t.Errorf("the model served %d turn requests (want the tool call, its answer and the cancelled turn)", n)
	}
}

// runTypeScriptACP runs the TypeScript client (testdata/acp_client.mjs)
// against `hotplex acp --connect` to d in a new project of the key's tree:
// a tool turn whose permission the client grants (toolPrompt must write
// "from-typescript" to ts.txt), a turn it cancels once the agent has
// started thinking or answering (slowPrompt), the list, a load replaying
// the history, a project outside the key's tree and a prompt on an
// unknown session. The flags in acpArgs are `hotplex acp`'s.
func runTypeScriptACP(t *testing.T, d *daemonProc, home, toolPrompt, slowPrompt string, acpArgs ...string) (sessionID string) {
	t.Helper()
	sdkDir := filepath.Join(testkit.ModuleRoot(t), ".tools", "npm", "acp-sdk", "node_modules", "@agentclientprotocol", "sdk")
	if _, err := os.Stat(filepath.Join(sdkDir, "package.json")); err != nil {
		t.Fatalf("@agentclientprotocol/sdk is not installed at %s (run `make tools`): %v", sdkDir, err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed to run the ACP SDK: %v", err)
	}
	resp := d.request(t, "POST", "/v1/sessions", map[string]any{"id": "probe"})
	var probe struct {
		WorkDir string `json:"work_dir"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&probe)
	resp.Body.Close()
	cwd := filepath.Join(filepath.Dir(probe.WorkDir), "ts-project")
	if err := os.Mkdir(cwd, 0o750); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{filepath.Join("testdata", "acp_client.mjs"), sdkDir, cwd, toolPrompt, slowPrompt,
		hotplexBin, "acp", "--connect", d.url, "--key", d.key, "--approval", "ask"}, acpArgs...)
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Env = append(os.Environ(), "HOME="+home)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the TypeScript client: %v\n%s", err, stderr.String())
	}
	var got struct {
		Initialize struct {
			AgentCapabilities struct{ LoadSession bool }
		}
		SessionID               string
		ToolTurn, CancelledTurn struct{ StopReason string }
		Permissions             []struct{ Title string }
		Updates                 []string
		List                    struct {
			Sessions []struct{ SessionID, Cwd string }
		}
		UnknownSession, OutsideCwd int
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	load := slices.Index(got.Updates, "--load--")
	live, replay := got.Updates[:max(load, 0)], got.Updates[load+1:]
	switch {
	case !got.Initialize.AgentCapabilities.LoadSession:
		t.Errorf("initialize: %s", out)
	case got.ToolTurn.StopReason != "end_turn" || got.CancelledTurn.StopReason != "cancelled":
		t.Errorf("stop reasons: %+v, %+v", got.ToolTurn, got.CancelledTurn)
	case len(got.Permissions) != 1 || !strings.Contains(got.Permissions[0].Title, "Bash"):
		t.Errorf("permission requests: %+v", got.Permissions)
	case !slices.Contains(live, "tool_call:in_progress") || !slices.Contains(live, "tool_call_update:completed"):
		t.Errorf("live updates: %q", live)
	case len(got.List.Sessions) != 1 || got.List.Sessions[0].SessionID != got.SessionID || got.List.Sessions[0].Cwd != cwd:
		t.Errorf("session/list: %+v", got.List)
	case load < 0 || !slices.Contains(replay, "user_message_chunk") || !slices.Contains(replay, "tool_call_update:completed"):
		t.Errorf("replayed history: %q", replay)
	case !slices.Contains(live, "usage_update"):
		t.Errorf("no usage_update among the live updates: %q", live)
	case got.OutsideCwd != -32602:
		t.Errorf("session/new outside the key's tree: %d", got.OutsideCwd)
	case got.UnknownSession != -32002:
		t.Errorf("a prompt on an unknown session: %d", got.UnknownSession)
	}
	if b, err := os.ReadFile(filepath.Join(cwd, "ts.txt")); err != nil || strings.TrimSpace(string(b)) != "from-typescript" {
		t.Errorf("the allowed command's file: %q, %v", b, err)
	}
	return got.SessionID
}

// acpProc is `hotplex acp` started as an editor starts it, with an
// editor connected to its stdio.
type acpProc struct {
	conn     *sdk.ClientSideConnection
	ed       *acpEditor
	projects string // the key's tree, from the banner
	stdin    interface{ Close() error }
	cmd      *exec.Cmd
	stderr   chan string
	once     sync.Once
	waitErr  error
}

func startACP(t *testing.T, home string, args ...string) *acpProc {
	t.Helper()
	cmd := exec.Command(hotplexBin, append([]string{"acp"}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+home, "HOTPLEX_LOG_LEVEL=warn")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &acpProc{ed: &acpEditor{}, stdin: stdin, cmd: cmd, stderr: make(chan string, 64)}
	t.Cleanup(func() { // a test that failed early: end the process
		_ = stdin.Close()
		p.wait()
	})
	go func() {
		defer close(p.stderr)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			select {
			case p.stderr <- sc.Text():
			default: // nobody reads the log any more
			}
		}
	}()
	deadline := time.After(time.Minute)
	for p.projects == "" {
		select {
		case line, ok := <-p.stderr:
			if !ok {
				t.Fatal("hotplex acp exited before serving")
			}
			if v, ok := strings.CutPrefix(line, "Projects: "); ok {
				p.projects = v
			}
		case <-deadline:
			_ = cmd.Process.Kill()
			t.Fatal("hotplex acp printed no banner")
		}
	}
	p.conn = sdk.NewClientSideConnection(p.ed, stdin, stdout)
	return p
}

// stop closes the editor's end, as an editor that quits does; the
// process ends with its daemon and agents.
func (p *acpProc) stop(t *testing.T) {
	t.Helper()
	_ = p.stdin.Close()
	if err := p.wait(); err != nil {
		t.Errorf("hotplex acp: %v", err)
	}
}

func (p *acpProc) wait() error {
	p.once.Do(func() { p.waitErr = p.cmd.Wait() })
	return p.waitErr
}

// `hotplex acp` alone: a daemon of its own on the data directory; the
// conversation is kept there, and the next run loads it with its history.
func TestACPStdioEmbedded(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	agent := testkit.BuildFakeAgent(t, t.TempDir())
	dataDir, home := t.TempDir(), t.TempDir()
	args := []string{"--data-dir", dataDir, "--cli-path", agent, "--offline", "never", "--gateway", "off"}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	p := startACP(t, home, args...)
	cwd := filepath.Join(p.projects, "project")
	if err := os.MkdirAll(cwd, 0o750); err != nil {
		t.Fatal(err)
	}
	if _, err := p.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	s, err := p.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := p.conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("hello there")}}); err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v", r, err)
	}
	if _, err := p.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{}}); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("a project outside the key's tree: %v", err)
	}
	p.stop(t)

	p = startACP(t, home, args...)
	defer p.stop(t)
	if _, err := p.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: s.SessionId, Cwd: cwd, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	p.ed.mu.Lock()
	replay := slices.Clone(p.ed.updates)
	p.ed.mu.Unlock()
	var user, agentText string
	for _, u := range replay {
		switch {
		case u.UserMessageChunk != nil:
			user += u.UserMessageChunk.Content.Text.Text
		case u.AgentMessageChunk != nil:
			agentText += u.AgentMessageChunk.Content.Text.Text
		}
	}
	if user != "hello there" || agentText != "echo: hello there" {
		t.Fatalf("the next run's replay: user %q, agent %q", user, agentText)
	}
}
