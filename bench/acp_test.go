package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/hotplex/hotplex/acp"
	"github.com/hotplex/hotplex/client"
	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

// benchEditor is an editor that reads updates and is asked nothing.
type benchEditor struct{}

var errBenchEditor = errors.New("not offered")

func (benchEditor) SessionUpdate(context.Context, sdk.SessionNotification) error { return nil }
func (benchEditor) RequestPermission(context.Context, sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected("allow")}, nil
}
func (benchEditor) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, errBenchEditor
}
func (benchEditor) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, errBenchEditor
}
func (benchEditor) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, errBenchEditor
}
func (benchEditor) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, errBenchEditor
}
func (benchEditor) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, errBenchEditor
}
func (benchEditor) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, errBenchEditor
}
func (benchEditor) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, errBenchEditor
}

// BenchmarkACPWarmTurn: a warm turn of the fake agent through the ACP
// agent on pipes (as `hotplex acp` serves stdio, the API called in
// process) against the same turn through the engine directly (the Go
// SDK: an Engine of its own in the same process, Engine.Execute until it
// returns, when the turn is over as it is for the editor when
// session/prompt answers), through the daemon's engine (Engine.Execute on
// a session of the daemon's, its events encoded and stored as every
// session's are) and through POST /v1/sessions/{id}/messages of the
// daemon, in turn so that all see the same machine noise. The ACP
// agent's cost is what it adds to the engine, the daemon's storing of
// every event before an editor sees it included: the target is at most 1
// ms at the median.
func BenchmarkACPWarmTurn(b *testing.B) {
	const turns = 400
	agent := testkit.BuildFakeAgent(b, b.TempDir())
	d := testkit.StartDaemon(b, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: agent, Name: "fakeagent"}),
		Env:      append(os.Environ(), "HOME="+b.TempDir()), Root: b.TempDir(), DBPath: filepath.Join(b.TempDir(), "hotplex.db"),
	})
	ctx := context.Background()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: bearerRT{d.Alice, tr}}

	// The editor and the agent talk over the operating system's pipes,
	// as an editor and `hotplex acp` on its stdio do.
	toAgent, fromEditor, toEditor, fromAgent := stdioPipes(b)
	served := make(chan error, 1)
	go func() {
		served <- acp.Serve(ctx, client.InProcess(d.Handler()), toAgent, fromAgent, acp.Options{Key: d.Alice, Logger: quiet()})
	}()
	conn := sdk.NewClientSideConnection(benchEditor{}, fromEditor, toEditor)
	defer func() {
		_ = fromEditor.Close()
		<-served
		_ = fromAgent.Close()
		<-conn.Done()
	}()
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		b.Fatal(err)
	}

	resp, err := hc.Post(d.URL+"/v1/sessions", "application/json", bytes.NewReader([]byte(`{"id":"api"}`)))
	if err != nil || resp.StatusCode != http.StatusCreated {
		b.Fatalf("create: %v", err)
	}
	var view client.Session
	_ = json.NewDecoder(resp.Body).Decode(&view)
	resp.Body.Close()
	s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: filepath.Join(filepath.Dir(view.WorkDir), "editor"), McpServers: []sdk.McpServer{}})
	if err != nil {
		b.Fatal(err)
	}

	acpTurn := func(prompt string) time.Duration {
		start := time.Now()
		r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock(prompt)}})
		if err != nil || r.StopReason != sdk.StopReasonEndTurn {
			b.Fatalf("session/prompt: %v %+v", err, r)
		}
		return time.Since(start)
	}
	apiTurn := func(prompt string) time.Duration {
		start := time.Now()
		resp, err := hc.Post(d.URL+"/v1/sessions/api/messages", "application/json", bytes.NewReader([]byte(`{"prompt":"`+prompt+`"}`)))
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("turn: %v", err)
		}
		testkit.ReadSSE(resp.Body, func(e testkit.SSEEvent) bool { return e.Type == "result" })
		resp.Body.Close()
		return time.Since(start)
	}
	sdkEngine := newEngine(b, claude.New(claude.Options{Path: agent, Name: "fakeagent"}), append(os.Environ(), "HOME="+b.TempDir()))
	direct := &engine.Config{SessionID: "direct", WorkDir: b.TempDir()}
	engineTurn := func(prompt string) time.Duration {
		start := time.Now()
		if err := sdkEngine.Execute(ctx, direct, prompt, func(string, any) error { return nil }); err != nil {
			b.Fatalf("engine turn: %v", err)
		}
		return time.Since(start)
	}
	// The daemon's own engine, whose every event its sinks encode, count
	// and hand to the recorder, on a session of the daemon's: what the
	// daemon adds to the engine before any protocol.
	resp, err = hc.Post(d.URL+"/v1/sessions", "application/json", bytes.NewReader([]byte(`{"id":"daemon-engine"}`)))
	if err != nil || resp.StatusCode != http.StatusCreated {
		b.Fatalf("create: %v", err)
	}
	var created struct {
		Key string `json:"key"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	inDaemon := &engine.Config{SessionID: created.Key, Owner: "alice", MustExist: true}
	daemonEngineTurn := func(prompt string) time.Duration {
		start := time.Now()
		if err := d.Engine.Execute(ctx, inDaemon, prompt, func(string, any) error { return nil }); err != nil {
			b.Fatalf("daemon engine turn: %v", err)
		}
		return time.Since(start)
	}
	engineTurn("warm")
	daemonEngineTurn("warm")
	apiTurn("warm")
	acpTurn("warm")

	var eng, inD, api, viaACP []time.Duration
	b.ResetTimer()
	for i := range turns {
		p := "ping " + strconv.Itoa(i)
		eng = append(eng, engineTurn(p))
		inD = append(inD, daemonEngineTurn(p))
		api = append(api, apiTurn(p))
		viaACP = append(viaACP, acpTurn(p))
	}
	b.StopTimer()
	p50, _ := report(b, "ACP session/prompt vs engine", viaACP, eng)
	report(b, "ACP session/prompt vs daemon engine", viaACP, inD)
	report(b, "ACP session/prompt vs /v1", viaACP, api)
	added := pairedOverhead(viaACP, eng)
	verdict := "within"
	if added > time.Millisecond {
		verdict = "OVER"
	}
	fmt.Printf("%-34s %s per turn, median of %d paired differences (target ≤ 1ms: %s)\n", "  ACP added to the engine", added, turns, verdict)
	fmt.Printf("%-34s %s per turn, median of %d paired differences\n", "  ACP added to the daemon's engine", pairedOverhead(viaACP, inD), turns)
	fmt.Printf("%-34s %s per turn, median of %d paired differences\n", "  ACP added to /v1", pairedOverhead(viaACP, api), turns)
	b.ReportMetric(float64(p50.Microseconds()), "acp-p50-µs")
	b.ReportMetric(float64(added.Microseconds()), "acp-added-p50-µs")
}

// BenchmarkACPFirstPrompt: an editor's first prompt in a new session,
// answered by the real Claude Code against the scripted model: through
// `hotplex acp` (the ACP agent in process) on a daemon that keeps a
// prewarmed spare, against a cold claude-code-acp, Zed's adapter, which
// an editor starts for the conversation (process start, initialize,
// session/new and the prompt, as the editor waits for them).
func BenchmarkACPFirstPrompt(b *testing.B) {
	const samples = 6
	f := newClaudeFixture(b)
	adapter := testkit.ToolPath(b, "claude-acp/node_modules/.bin/claude-code-acp")
	d := testkit.StartDaemon(b, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: f.path}),
		Env:      f.env, Root: b.TempDir(), DBPath: filepath.Join(b.TempDir(), "hotplex.db"), Spares: 1,
	})
	ctx := context.Background()

	// The editor and the agent talk over the operating system's pipes,
	// as an editor and `hotplex acp` on its stdio do.
	toAgent, fromEditor, toEditor, fromAgent := stdioPipes(b)
	served := make(chan error, 1)
	go func() {
		served <- acp.Serve(ctx, client.InProcess(d.Handler()), toAgent, fromAgent, acp.Options{Key: d.Alice, Logger: quiet()})
	}()
	conn := sdk.NewClientSideConnection(benchEditor{}, fromEditor, toEditor)
	defer func() {
		_ = fromEditor.Close()
		<-served
		_ = fromAgent.Close()
		<-conn.Done()
	}()
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		b.Fatal(err)
	}
	probe, err := client.InProcess(d.Handler()).CreateSession(ctx, d.Alice, client.NewSession{ID: "probe"})
	if err != nil {
		b.Fatal(err)
	}
	tree := filepath.Dir(probe.WorkDir)

	adapterEnv := f.env
	if os.Geteuid() == 0 {
		adapterEnv = append(adapterEnv, "IS_SANDBOX=1")
	}
	var viaHotplex, cold []time.Duration
	for i := range samples {
		waitSpare(b, d.Engine)
		start := time.Now()
		s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: filepath.Join(tree, "first-"+strconv.Itoa(i)), McpServers: []sdk.McpServer{}})
		if err != nil {
			b.Fatal(err)
		}
		if r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("hello")}}); err != nil || r.StopReason != sdk.StopReasonEndTurn {
			b.Fatalf("through hotplex acp: %+v, %v", r, err)
		}
		viaHotplex = append(viaHotplex, time.Since(start))

		cold = append(cold, coldAdapterPrompt(b, adapter, adapterEnv, f.dir))
	}
	sp, cp := pct(viaHotplex, 0.5), pct(cold, 0.5)
	fmt.Printf("ACP first prompt of a new session (%d each)\n", samples)
	fmt.Printf("  hotplex acp, spare p50 %9s | cold claude-code-acp p50 %9s | ratio %.2f\n", sp.Round(time.Millisecond), cp.Round(time.Millisecond), float64(sp)/float64(cp))
	b.ReportMetric(float64(sp)/float64(cp), "hotplex/cold-adapter")
}

// coldAdapterPrompt starts claude-code-acp as an editor does for a new
// conversation and times it until its first prompt's answer.
func coldAdapterPrompt(b *testing.B, path string, env []string, dir string) time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	cmd := exec.Command(path)
	cmd.Env, cmd.Dir = env, dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}()
	conn := sdk.NewClientSideConnection(benchEditor{}, stdin, stdout)
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		b.Fatalf("claude-code-acp initialize: %v", err)
	}
	s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		b.Fatalf("claude-code-acp session/new: %v", err)
	}
	if r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("hello")}}); err != nil || r.StopReason != sdk.StopReasonEndTurn {
		b.Fatalf("claude-code-acp prompt: %+v, %v", r, err)
	}
	return time.Since(start)
}

// stdioPipes returns two operating-system pipes, the editor's to the
// agent and the agent's to the editor, closed when b ends.
func stdioPipes(b *testing.B) (toAgent, fromEditor, toEditor, fromAgent *os.File) {
	b.Helper()
	var err error
	if toAgent, fromEditor, err = os.Pipe(); err != nil {
		b.Fatal(err)
	}
	if toEditor, fromAgent, err = os.Pipe(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		for _, f := range []*os.File{toAgent, fromEditor, toEditor, fromAgent} {
			_ = f.Close()
		}
	})
	return toAgent, fromEditor, toEditor, fromAgent
}
