package acp_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/hotplex/hotplex/acp"
	"github.com/hotplex/hotplex/client"
	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
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

// editor is the client side of an ACP connection: what the agent told it,
// and how it answers permission requests.
type editor struct {
	mu      sync.Mutex
	updates []sdk.SessionNotification
	asked   []sdk.RequestPermissionRequest
	changed chan struct{}
	// answer is the option chosen for permission requests.
	answer sdk.PermissionOptionId
	// held, when set, gets each permission request, which waits then
	// until it is withdrawn; withdrawn counts those.
	held      chan sdk.RequestPermissionRequest
	withdrawn int
}

func (e *editor) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	e.mu.Lock()
	e.updates = append(e.updates, n)
	e.mu.Unlock()
	select {
	case e.changed <- struct{}{}:
	default:
	}
	return nil
}

func (e *editor) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	e.mu.Lock()
	e.asked = append(e.asked, p)
	held := e.held
	e.mu.Unlock()
	if held != nil {
		held <- p
		<-ctx.Done()
		e.mu.Lock()
		e.withdrawn++
		e.mu.Unlock()
		return sdk.RequestPermissionResponse{}, ctx.Err()
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(e.answer)}, nil
}

func (e *editor) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, errors.New("not offered")
}
func (e *editor) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, errors.New("not offered")
}
func (e *editor) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, errors.New("not offered")
}
func (e *editor) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, errors.New("not offered")
}
func (e *editor) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, errors.New("not offered")
}
func (e *editor) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, errors.New("not offered")
}
func (e *editor) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, errors.New("not offered")
}

// take returns the updates received so far and forgets them.
func (e *editor) take() []sdk.SessionNotification {
	e.mu.Lock()
	defer e.mu.Unlock()
	u := e.updates
	e.updates = nil
	return u
}

// waitFor waits until an update satisfies f.
func (e *editor) waitFor(t *testing.T, what string, f func(sdk.SessionUpdate) bool) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		e.mu.Lock()
		found := slices.ContainsFunc(e.updates, func(n sdk.SessionNotification) bool { return f(n.Update) })
		e.mu.Unlock()
		if found {
			return
		}
		select {
		case <-e.changed:
		case <-deadline:
			t.Fatalf("no %s among the updates", what)
		}
	}
}

// connect serves an ACP agent on pipes, calling d's API in process with
// the options, and connects an editor to it. The raw writer is the
// editor's end of the agent's input.
func connect(t *testing.T, d *testkit.Daemon, o acp.Options) (*sdk.ClientSideConnection, *editor, io.Writer) {
	t.Helper()
	toAgent, fromEditor := io.Pipe()
	toEditor, fromAgent := io.Pipe()
	if o.Key == "" {
		o.Key = d.Alice
	}
	o.Logger = quiet
	served := make(chan error, 1)
	go func() {
		served <- acp.Serve(context.Background(), client.InProcess(d.Handler()), toAgent, fromAgent, o)
	}()
	ed := &editor{changed: make(chan struct{}, 1), answer: "allow"}
	conn := sdk.NewClientSideConnection(ed, fromEditor, toEditor)
	t.Cleanup(func() {
		_ = fromEditor.Close() // the editor leaves
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
		_ = fromAgent.Close()
		<-conn.Done()
	})
	return conn, ed, fromEditor
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// workDir is a directory in alice's tree of work directories.
func workDir(t *testing.T, d *testkit.Daemon, name string) string {
	dir := filepath.Join(d.RootDir, engine.OwnerDir("alice"), name)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func bash(cmd string) string { return "bash:" + base64.RawURLEncoding.EncodeToString([]byte(cmd)) }

func text(s string) []sdk.ContentBlock { return []sdk.ContentBlock{sdk.TextBlock(s)} }

func kinds(ns []sdk.SessionNotification) []string {
	var out []string
	for _, n := range ns {
		u := n.Update
		switch {
		case u.UserMessageChunk != nil:
			out = append(out, "user:"+u.UserMessageChunk.Content.Text.Text)
		case u.AgentMessageChunk != nil:
			out = append(out, "agent:"+u.AgentMessageChunk.Content.Text.Text)
		case u.AgentThoughtChunk != nil:
			out = append(out, "thought:"+u.AgentThoughtChunk.Content.Text.Text)
		case u.ToolCall != nil:
			out = append(out, "tool_call:"+string(u.ToolCall.Kind)+":"+string(u.ToolCall.Status))
		case u.ToolCallUpdate != nil:
			st := ""
			if u.ToolCallUpdate.Status != nil {
				st = string(*u.ToolCallUpdate.Status)
			}
			out = append(out, "tool_call_update:"+st)
		default:
			out = append(out, "other")
		}
	}
	return out
}

func initialize(t *testing.T, conn *sdk.ClientSideConnection) sdk.InitializeResponse {
	t.Helper()
	r, err := conn.Initialize(ctxT(t), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// An editor's whole conversation: initialize, a new session in its
// project, a turn with thinking, a turn with a shell tool, the list, and
// a second editor loading the conversation with its history.
func TestConversation(t *testing.T) {
	d := startDaemon(t)
	conn, ed, _ := connect(t, d, acp.Options{})
	init := initialize(t, conn)
	if !init.AgentCapabilities.LoadSession || init.AgentCapabilities.SessionCapabilities.List == nil ||
		init.AgentCapabilities.PromptCapabilities.Image || !init.AgentCapabilities.PromptCapabilities.EmbeddedContext {
		t.Errorf("capabilities: %+v", init.AgentCapabilities)
	}
	if init.ProtocolVersion != sdk.ProtocolVersionNumber || init.AgentInfo == nil || init.AgentInfo.Name != "hotplex" {
		t.Errorf("initialize: %+v", init)
	}

	cwd := workDir(t, d, "project")
	ctx := ctxT(t)
	s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	view, err := client.InProcess(d.Handler()).GetSession(ctx, d.Alice, string(s.SessionId))
	if err != nil || view.WorkDir != cwd {
		t.Fatalf("the daemon's session: %+v, %v (want work dir %s)", view, err, cwd)
	}

	r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text("think:pondering hello")})
	if err != nil {
		t.Fatal(err)
	}
	if r.StopReason != sdk.StopReasonEndTurn || r.Usage == nil {
		t.Errorf("first turn: %+v", r)
	}
	first := ed.take()
	commands := func(n sdk.SessionNotification) bool {
		u := n.Update.AvailableCommandsUpdate
		return u != nil && slices.ContainsFunc(u.AvailableCommands, func(c sdk.AvailableCommand) bool { return c.Name == "compact" })
	}
	if !slices.ContainsFunc(first, commands) {
		t.Errorf("no available_commands_update with the agent's slash commands")
	}
	if got := kinds(first); !slices.Contains(got, "thought:pondering") || !slices.ContainsFunc(got, func(k string) bool { return strings.HasPrefix(k, "agent:") }) {
		t.Errorf("first turn's updates: %q", got)
	}
	u1 := lastUsage(t, first)
	if u1.Used <= 0 || u1.Size != 200_000 || u1.Cost == nil || u1.Cost.Amount <= 0 || u1.Cost.Currency != "USD" {
		t.Errorf("first turn's usage_update: %+v (cost %+v)", u1, u1.Cost)
	}
	if want := r.Usage.TotalTokens; u1.Used != want {
		t.Errorf("usage_update says %d tokens in context, the response %d", u1.Used, want)
	}

	r, err = conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text(bash("echo from-the-tool"))})
	if err != nil {
		t.Fatal(err)
	}
	if r.StopReason != sdk.StopReasonEndTurn {
		t.Errorf("tool turn: %+v", r)
	}
	ups := ed.take()
	if slices.ContainsFunc(ups, commands) {
		t.Errorf("the agent's unchanged command list was sent again at the second turn")
	}
	got := kinds(ups)
	call := slices.Index(got, "tool_call:execute:in_progress")
	done := slices.Index(got, "tool_call_update:completed")
	if call < 0 || done < call {
		t.Fatalf("tool turn's updates: %q (want a tool_call, then its completion)", got)
	}
	// The cost is the session's: the second turn's adds to the first's.
	if u2 := lastUsage(t, ups); u2.Cost == nil || u2.Cost.Amount <= u1.Cost.Amount {
		t.Errorf("second turn's usage_update: %+v (first's cost %v)", u2.Cost, u1.Cost.Amount)
	}
	if id, upd := ups[call].Update.ToolCall.ToolCallId, ups[done].Update.ToolCallUpdate.ToolCallId; id != upd || id == "" {
		t.Errorf("the completion is of tool call %q, the call was %q", upd, id)
	}
	if c := ups[done].Update.ToolCallUpdate.Content; len(c) == 0 || c[0].Content == nil || !strings.Contains(c[0].Content.Content.Text.Text, "from-the-tool") {
		t.Errorf("the completion's content: %+v", c)
	}

	list, err := conn.ListSessions(ctx, sdk.ListSessionsRequest{Cwd: &cwd})
	if err != nil || len(list.Sessions) != 1 || list.Sessions[0].SessionId != s.SessionId || list.Sessions[0].Cwd != cwd {
		t.Errorf("session/list in %s: %+v, %v", cwd, list, err)
	}
	other := "/elsewhere"
	if list, err := conn.ListSessions(ctx, sdk.ListSessionsRequest{Cwd: &other}); err != nil || len(list.Sessions) != 0 {
		t.Errorf("session/list elsewhere: %+v, %v", list, err)
	}

	// Another editor loads the conversation: its history comes first.
	conn2, ed2, _ := connect(t, d, acp.Options{})
	initialize(t, conn2)
	if _, err := conn2.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: s.SessionId, Cwd: cwd, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	replay := kinds(ed2.take())
	want := []string{"user:think:pondering hello", "thought:pondering", "user:" + bash("echo from-the-tool"), "tool_call:execute:in_progress", "tool_call_update:completed"}
	at := 0
	for _, k := range replay {
		if at < len(want) && k == want[at] {
			at++
		}
	}
	if at < len(want) {
		t.Errorf("replayed history %q lacks %q (in this order: %q)", replay, want[at], want)
	}
	// The loaded session goes on where it was.
	if r, err := conn2.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text("history")}); err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("a turn after loading: %+v, %v", r, err)
	}
	after := ed2.take()
	if got := kinds(after); !slices.ContainsFunc(got, func(k string) bool { return strings.Contains(k, "think:pondering hello") }) {
		t.Errorf("the agent does not remember the conversation: %q", got)
	}
	if !slices.ContainsFunc(after, commands) {
		t.Errorf("the editor that loaded the session was not sent the agent's commands")
	}
	if _, err := conn2.CloseSession(ctx, sdk.CloseSessionRequest{SessionId: s.SessionId}); err != nil {
		t.Errorf("session/close: %v", err)
	}
	var re *sdk.RequestError
	if _, err := conn2.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text("after close")}); !errors.As(err, &re) || re.Code != -32002 {
		t.Errorf("a prompt on a closed session: %v", err)
	}
	// Resumed, it takes prompts again; the conversation was kept.
	if _, err := conn2.ResumeSession(ctx, sdk.ResumeSessionRequest{SessionId: s.SessionId, Cwd: cwd}); err != nil {
		t.Fatal(err)
	}
	if r, err := conn2.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text("after resume")}); err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Errorf("a prompt after resume: %+v, %v", r, err)
	}
}

// In an "ask" session the editor decides each tool use: allowed, it
// runs; denied, it fails and does not run.
func TestPermissionAskedOfTheEditor(t *testing.T) {
	d := startDaemon(t)
	conn, ed, _ := connect(t, d, acp.Options{Approval: "ask"})
	initialize(t, conn)
	ctx := ctxT(t)
	cwd := workDir(t, d, "asks")
	s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text(bash("echo allowed > allowed.txt"))}); err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("allowed turn: %+v, %v", r, err)
	}
	ed.mu.Lock()
	asked := slices.Clone(ed.asked)
	ed.mu.Unlock()
	if len(asked) != 1 || asked[0].SessionId != s.SessionId || len(asked[0].Options) != 2 || asked[0].ToolCall.Title == nil || !strings.Contains(*asked[0].ToolCall.Title, "Bash") {
		t.Fatalf("permission requests: %+v", asked)
	}
	if _, err := os.Stat(filepath.Join(cwd, "allowed.txt")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
	if got := kinds(ed.take()); !slices.Contains(got, "tool_call_update:completed") {
		t.Errorf("allowed turn's updates: %q", got)
	}
	// The session's other clients are told the editor answered.
	if p := storedDecision(t, d, string(s.SessionId)); p == nil || p.Decision != "allow" || p.Answerer == nil || p.Channel != "acp" || p.By != "alice" {
		t.Errorf("permission_decision: %+v", p)
	}

	ed.mu.Lock()
	ed.answer = "deny"
	ed.mu.Unlock()
	if r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text(bash("echo denied > denied.txt"))}); err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("denied turn: %+v, %v", r, err)
	}
	if _, err := os.Stat(filepath.Join(cwd, "denied.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the denied command ran: %v", err)
	}
	if got := kinds(ed.take()); !slices.Contains(got, "tool_call_update:failed") || slices.Contains(got, "tool_call_update:completed") {
		t.Errorf("denied turn's updates: %q", got)
	}
}

// A question the editor has not answered yet is withdrawn when another
// client of the key answers first; the editor's late answer is not sent.
func TestPermissionAnsweredElsewhereWithdrawnFromTheEditor(t *testing.T) {
	d := startDaemon(t)
	conn, ed, _ := connect(t, d, acp.Options{Approval: "ask"})
	held := make(chan sdk.RequestPermissionRequest, 1)
	ed.mu.Lock()
	ed.held = held
	ed.mu.Unlock()
	initialize(t, conn)
	ctx := ctxT(t)
	cwd := workDir(t, d, "elsewhere")
	s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	type prompted struct {
		r   sdk.PromptResponse
		err error
	}
	done := make(chan prompted, 1)
	go func() {
		r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text(bash("echo elsewhere > elsewhere.txt"))})
		done <- prompted{r, err}
	}()
	<-held
	api := client.InProcess(d.Handler())
	pending, err := api.PendingPermissions(ctx, d.Alice, string(s.SessionId))
	if err != nil || len(pending) != 1 {
		t.Fatalf("pending: %v, %v", pending, err)
	}
	if err := api.AnswerPermission(ctx, d.Alice, string(s.SessionId), pending[0].RequestID, true, ""); err != nil {
		t.Fatal(err)
	}
	if p := <-done; p.err != nil || p.r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("the turn: %+v, %v", p.r, p.err)
	}
	ed.mu.Lock()
	withdrawn := ed.withdrawn
	ed.mu.Unlock()
	if withdrawn != 1 {
		t.Errorf("%d questions withdrawn from the editor, want 1", withdrawn)
	}
	if _, err := os.Stat(filepath.Join(cwd, "elsewhere.txt")); err != nil {
		t.Errorf("the command allowed elsewhere did not run: %v", err)
	}
	if p := storedDecision(t, d, string(s.SessionId)); p == nil || p.Answerer == nil || p.Channel != "http" || p.Decision != "allow" {
		t.Errorf("permission_decision: %+v", p)
	}
}

// storedDecision is the last permission_decision stored for alice's
// session id.
// The events are written to the store behind the live stream, so the
// decision is waited for (a few seconds at most).
func storedDecision(t *testing.T, d *testkit.Daemon, id string) *event.Permission {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if p := lastStoredDecision(t, d, id); p != nil || time.Now().After(deadline) {
			return p
		}
	}
}

// lastStoredDecision is the last permission decision stored for session id.
func lastStoredDecision(t *testing.T, d *testkit.Daemon, id string) *event.Permission {
	t.Helper()
	ctx := ctxT(t)
	list, err := d.Store.ListSessions(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	var p *event.Permission
	for _, st := range list {
		if st.ID != id && st.PublicID != id {
			continue
		}
		evs, err := d.Store.Events(ctx, st.ID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			var ev event.EventWithMeta
			if e.Type == event.TypePermissionDecision && json.Unmarshal(e.Data, &ev) == nil {
				p = ev.Permission
			}
		}
	}
	return p
}

// In an "auto" session a permission rule's ask comes to the editor: the
// command it names is asked about, another is not.
func TestPolicyAskComesToTheEditor(t *testing.T) {
	d := startDaemon(t)
	conn, ed, _ := connect(t, d, acp.Options{Permissions: []byte(`{"ask": ["Bash(touch:*)"]}`)})
	initialize(t, conn)
	ctx := ctxT(t)
	cwd := workDir(t, d, "policy")
	s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text(bash("echo unasked"))}); err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("unasked turn: %+v, %v", r, err)
	}
	ed.mu.Lock()
	n := len(ed.asked)
	ed.mu.Unlock()
	if n != 0 {
		t.Fatalf("asked about a command no rule asks about: %+v", *ed.asked[0].ToolCall.Title)
	}
	if r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text(bash("touch asked.txt"))}); err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("asked turn: %+v, %v", r, err)
	}
	ed.mu.Lock()
	asked := slices.Clone(ed.asked)
	ed.mu.Unlock()
	if len(asked) != 1 || asked[0].ToolCall.Title == nil || !strings.Contains(*asked[0].ToolCall.Title, "touch") {
		t.Fatalf("permission requests: %+v", asked)
	}
	if _, err := os.Stat(filepath.Join(cwd, "asked.txt")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
}

// A tool use the firewall blocks is a failed tool call with the reason,
// and the turn's stop reason is refusal; nothing ran.
func TestFirewallBlockIsARefusal(t *testing.T) {
	d := startDaemon(t)
	conn, ed, _ := connect(t, d, acp.Options{})
	initialize(t, conn)
	ctx := ctxT(t)
	cwd := workDir(t, d, "blocked")
	sentinel := filepath.Join(cwd, "keep")
	if err := os.WriteFile(sentinel, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text(bash("rm -rf ~"))})
	if err != nil || r.StopReason != sdk.StopReasonRefusal {
		t.Fatalf("blocked turn: %+v, %v", r, err)
	}
	var reason string
	for _, n := range ed.take() {
		if u := n.Update.ToolCallUpdate; u != nil && u.Status != nil && *u.Status == sdk.ToolCallStatusFailed && len(u.Content) > 0 && u.Content[0].Content != nil {
			reason = u.Content[0].Content.Content.Text.Text
		}
	}
	if !strings.Contains(reason, "firewall") {
		t.Errorf("no failed tool call with the firewall's reason (got %q)", reason)
	}
	if _, err := os.Stat(sentinel); err != nil {
		t.Fatalf("the sentinel is gone: %v", err)
	}
}

// session/cancel interrupts the running turn: the prompt answers
// cancelled, and the session takes the next prompt.
func TestCancelMidTurn(t *testing.T) {
	d := startDaemon(t)
	conn, ed, _ := connect(t, d, acp.Options{})
	initialize(t, conn)
	ctx := ctxT(t)
	s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: workDir(t, d, "cancel"), McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		r   sdk.PromptResponse
		err error
	}
	got := make(chan answer, 1)
	go func() {
		r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text("think:started sleep:60000")})
		got <- answer{r, err}
	}()
	ed.waitFor(t, "thought", func(u sdk.SessionUpdate) bool { return u.AgentThoughtChunk != nil })
	if err := conn.Cancel(ctx, sdk.CancelNotification{SessionId: s.SessionId}); err != nil {
		t.Fatal(err)
	}
	a := <-got
	if a.err != nil || a.r.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("cancelled prompt: %+v, %v", a.r, a.err)
	}
	if r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text("again")}); err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("the turn after: %+v, %v", r, err)
	}

	// A prompt sent while a turn runs replaces it: the running one is
	// cancelled, and the new one runs once it has ended.
	ed.take()
	go func() {
		r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text("think:second sleep:60000")})
		got <- answer{r, err}
	}()
	ed.waitFor(t, "thought", func(u sdk.SessionUpdate) bool { return u.AgentThoughtChunk != nil })
	r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text("instead")})
	if err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("the replacing prompt: %+v, %v", r, err)
	}
	if a := <-got; a.err != nil || a.r.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("the replaced prompt: %+v, %v", a.r, a.err)
	}
}

// An editor that leaves mid-turn has its turn interrupted: the session is
// idle again, and nothing is left running (goleak, no orphan process).
// So has a turn whose agent is stopped (Serve's context ends).
func TestEditorLeavesMidTurn(t *testing.T) {
	for _, how := range []string{"editor leaves", "agent stopped"} {
		t.Run(how, func(t *testing.T) {
			d := startDaemon(t)
			toAgent, fromEditor := io.Pipe()
			toEditor, fromAgent := io.Pipe()
			sctx, stopServe := context.WithCancel(context.Background())
			defer stopServe()
			served := make(chan error, 1)
			go func() {
				served <- acp.Serve(sctx, client.InProcess(d.Handler()), toAgent, fromAgent, acp.Options{Key: d.Alice, Logger: quiet})
			}()
			ed := &editor{changed: make(chan struct{}, 1), answer: "allow"}
			conn := sdk.NewClientSideConnection(ed, fromEditor, toEditor)
			initialize(t, conn)
			ctx := ctxT(t)
			s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: workDir(t, d, "leaves"), McpServers: []sdk.McpServer{}})
			if err != nil {
				t.Fatal(err)
			}
			go func() {
				_, _ = conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text("think:started sleep:60000")})
			}()
			ed.waitFor(t, "thought", func(u sdk.SessionUpdate) bool { return u.AgentThoughtChunk != nil })
			if how == "agent stopped" {
				stopServe()
				if err := <-served; err != nil {
					t.Fatal(err)
				}
			}
			_ = fromEditor.Close()
			_ = toEditor.Close()
			if how == "editor leaves" {
				if err := <-served; err != nil {
					t.Fatal(err)
				}
			}
			<-conn.Done()
			// The interrupted turn winds down (the agent acknowledges,
			// the engine records its result), then the session is idle.
			api := client.InProcess(d.Handler())
			deadline := time.Now().Add(30 * time.Second)
			for {
				v, err := api.GetSession(ctx, d.Alice, string(s.SessionId))
				if err != nil {
					t.Fatal(err)
				}
				if v.Status == "idle" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the session is %q long after the turn lost its editor", v.Status)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// Bad input gets JSON-RPC errors: an unknown method, a prompt on a
// session that does not exist or is another key's, a cwd outside the
// key's tree, a relative cwd, an image the agent does not take.
func TestBadInput(t *testing.T) {
	d := startDaemon(t)
	conn, _, _ := connect(t, d, acp.Options{Key: d.Bob})
	initialize(t, conn)
	ctx := ctxT(t)

	code := func(err error) int {
		var re *sdk.RequestError
		if !errors.As(err, &re) {
			t.Fatalf("not a JSON-RPC error: %v", err)
		}
		return re.Code
	}
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: "no-such-session", Prompt: text("hi")}); err == nil || code(err) != -32002 {
		t.Errorf("prompt on an unknown session: %v", err)
	}
	if _, err := conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: "no-such-session", Cwd: "/", McpServers: []sdk.McpServer{}}); err == nil || code(err) != -32002 {
		t.Errorf("load of an unknown session: %v", err)
	}
	if _, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{}}); err == nil || code(err) != -32602 || !strings.Contains(err.Error(), "outside") {
		t.Errorf("cwd outside the key's tree: %v", err)
	}
	if _, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: "relative/dir", McpServers: []sdk.McpServer{}}); err == nil || code(err) != -32602 {
		t.Errorf("relative cwd: %v", err)
	}
	// An editor's MCP servers: a stdio one is a command the daemon's host
	// would run, which Bob's key (not an admin's) may not give; a name no
	// tool name can hold is refused; an HTTP one is his to give.
	bobs := workDir(t, d, "../"+engine.OwnerDir("bob")+"/project")
	stdio := sdk.McpServer{Stdio: &sdk.McpServerStdio{Name: "tools", Command: "/bin/true", Args: []string{}, Env: []sdk.EnvVariable{}}}
	if _, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: bobs, McpServers: []sdk.McpServer{stdio}}); err == nil || code(err) != -32000 || !strings.Contains(err.Error(), "admin key") {
		t.Errorf("a stdio MCP server from a key that is not an admin's: %v", err)
	}
	web := func(name string) sdk.McpServer {
		return sdk.McpServer{Http: &sdk.McpServerHttpInline{Name: name, Type: "http", Url: "http://127.0.0.1:9/mcp", Headers: []sdk.HttpHeader{}}}
	}
	if _, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: bobs, McpServers: []sdk.McpServer{web("no spaces please")}}); err == nil || code(err) != -32602 || !strings.Contains(err.Error(), "no spaces please") {
		t.Errorf("an MCP server's bad name: %v", err)
	}
	if _, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: bobs, McpServers: []sdk.McpServer{web("web")}}); err != nil {
		t.Errorf("an HTTP MCP server: %v", err)
	}
	// Alice's session is not Bob's.
	alice := client.InProcess(d.Handler())
	hers, err := alice.CreateSession(ctx, d.Alice, client.NewSession{ID: "hers"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sdk.SessionId(hers.ID), Prompt: text("hi")}); err == nil || code(err) != -32002 {
		t.Errorf("prompt on another key's session: %v", err)
	}
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sdk.SessionId(hers.ID), Prompt: []sdk.ContentBlock{sdk.ImageBlock("aGk=", "image/png")}}); err == nil || code(err) != -32602 {
		t.Errorf("an image: %v", err)
	}

	// Raw JSON-RPC, as an editor would write it: a line that is not
	// JSON, a batch, an unknown method, a prompt on an unknown session,
	// a prompt whose parameters are of the wrong type.
	w, r := rawAgent(t, d)
	for _, tc := range []struct {
		line string
		code int
	}{
		{`this is not json {`, -32700},
		{`[{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":1}}]`, -32600},
		{`{"jsonrpc":"2.0","id":1,"method":"session/teleport","params":{}}`, -32601},
		{`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"nope","prompt":[{"type":"text","text":"hi"}]}}`, -32002},
		{`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":7}}`, -32602},
	} {
		if _, err := io.WriteString(w, tc.line+"\n"); err != nil {
			t.Fatal(err)
		}
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		var resp struct {
			Error *sdk.RequestError `json:"error"`
		}
		if err := json.Unmarshal(line, &resp); err != nil || resp.Error == nil || resp.Error.Code != tc.code {
			t.Errorf("%s: answered %s (want error %d)", tc.line, line, tc.code)
		}
	}
}

// rawAgent serves an ACP agent (Bob's key) on pipes written and read by
// the test itself.
func rawAgent(t *testing.T, d *testkit.Daemon) (io.Writer, *bufio.Reader) {
	toAgent, fromEditor := io.Pipe()
	toEditor, fromAgent := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- acp.Serve(context.Background(), client.InProcess(d.Handler()), toAgent, fromAgent, acp.Options{Key: d.Bob, Logger: quiet})
	}()
	t.Cleanup(func() {
		_ = fromEditor.Close()
		_ = toEditor.Close()
		<-served
	})
	return fromEditor, bufio.NewReader(toEditor)
}

// lastUsage is the last usage_update among ns, which must be the turn's
// last update.
func lastUsage(t *testing.T, ns []sdk.SessionNotification) *sdk.SessionUsageUpdate {
	t.Helper()
	if len(ns) == 0 || ns[len(ns)-1].Update.UsageUpdate == nil {
		t.Fatalf("the turn's updates do not end with a usage_update: %q", kinds(ns))
	}
	return ns[len(ns)-1].Update.UsageUpdate
}

// A prewarmed spare was started without the editor's MCP servers: a
// session with servers of its own starts an agent of its own, one
// without takes the spare.
func TestMCPServersSkipTheSpare(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	d := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: fakeAgent, Name: "fakeagent", Timeouts: provider.Timeouts{TerminateGrace: 500 * time.Millisecond}}),
		Env:      append(os.Environ(), "HOME="+t.TempDir()), Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"), Spares: 1,
	})
	conn, _, _ := connect(t, d, acp.Options{})
	initialize(t, conn)
	ctx := ctxT(t)
	web := sdk.McpServer{Http: &sdk.McpServerHttpInline{Name: "web", Type: "http", Url: "http://127.0.0.1:9/mcp", Headers: []sdk.HttpHeader{}}}
	spare := func(name string, servers []sdk.McpServer) bool {
		t.Helper()
		for d.Engine.PoolStats().Spares < 1 {
			select {
			case <-ctx.Done():
				t.Fatal("no spare parked")
			case <-time.After(5 * time.Millisecond):
			}
		}
		s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: workDir(t, d, name), McpServers: servers})
		if err != nil {
			t.Fatal(err)
		}
		if r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: text("hello")}); err != nil || r.StopReason != sdk.StopReasonEndTurn {
			t.Fatalf("prompt: %+v, %v", r, err)
		}
		evs, _, err := client.InProcess(d.Handler()).Events(ctx, d.Alice, string(s.SessionId), 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			if ev.SessionStart != nil {
				return ev.SessionStart.Spare
			}
		}
		t.Fatalf("no session_start among %d events", len(evs))
		return false
	}
	if spare("with-servers", []sdk.McpServer{web}) {
		t.Error("a session with MCP servers of its own took the spare started without them")
	}
	if !spare("without", []sdk.McpServer{}) {
		t.Error("a session without MCP servers did not take the spare")
	}
}
