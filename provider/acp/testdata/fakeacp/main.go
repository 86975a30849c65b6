// Command fakeacp is a small ACP agent for the provider's tests. Its
// prompts are commands: "ask <command>" asks permission to run a shell
// command and reports the decision, "slow" works until cancelled, "hang"
// ignores session/cancel, "term <json>" runs a command in a client
// terminal as the JSON (a termScript) says and answers with a termReport
// in JSON, "caps" tells whether the client offers terminals, "mcp" answers
// with the MCP servers session/new gave (it takes stdio and HTTP ones,
// not SSE), and anything
// else is echoed. Started with
// --resume ID it opens that session on session/new.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"
)

type agent struct {
	conn   *sdk.AgentSideConnection
	resume string

	mu       sync.Mutex
	terminal bool // the client offers terminals
	n        int
	cancels  map[sdk.SessionId]context.CancelFunc
	mcp      map[sdk.SessionId][]sdk.McpServer
}

func (a *agent) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}

func (a *agent) Initialize(_ context.Context, r sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	a.mu.Lock()
	a.terminal = r.ClientCapabilities.Terminal
	a.mu.Unlock()
	return sdk.InitializeResponse{ProtocolVersion: sdk.ProtocolVersionNumber, AgentInfo: &sdk.Implementation{Name: "fakeacp", Version: "1.0.0"},
		AgentCapabilities: sdk.AgentCapabilities{McpCapabilities: sdk.McpCapabilities{Http: true}}}, nil
}

func (a *agent) Cancel(_ context.Context, n sdk.CancelNotification) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if c := a.cancels[n.SessionId]; c != nil {
		c()
	}
	return nil
}

func (a *agent) CloseSession(context.Context, sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	return sdk.CloseSessionResponse{}, nil
}

func (a *agent) ListSessions(context.Context, sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	return sdk.ListSessionsResponse{}, nil
}

func (a *agent) NewSession(_ context.Context, r sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	id := sdk.SessionId(a.resume)
	if id == "" {
		a.n++
		id = sdk.SessionId(fmt.Sprintf("fake-%d-%d", os.Getpid(), a.n))
	}
	a.mcp[id] = r.McpServers
	return sdk.NewSessionResponse{SessionId: id}, nil
}

func (a *agent) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, errors.New("not supported")
}

func (a *agent) SetSessionConfigOption(context.Context, sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, nil
}

func (a *agent) SetSessionMode(context.Context, sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	return sdk.SetSessionModeResponse{}, nil
}

func (a *agent) say(ctx context.Context, sid sdk.SessionId, text string) {
	_ = a.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: sid, Update: sdk.UpdateAgentMessageText(text)})
}

func (a *agent) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a.mu.Lock()
	a.cancels[p.SessionId] = cancel
	a.mu.Unlock()
	text := ""
	for _, b := range p.Prompt {
		if b.Text != nil {
			text += b.Text.Text
		}
	}
	switch {
	case strings.HasPrefix(text, "ask "):
		cmd := strings.TrimPrefix(text, "ask ")
		r, err := a.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{
			SessionId: p.SessionId,
			ToolCall: sdk.ToolCallUpdate{ToolCallId: "call-1", Title: &cmd, Kind: ptr(sdk.ToolKindExecute),
				RawInput: map[string]any{"command": []string{"bash", "-lc", cmd}}},
			Options: []sdk.PermissionOption{
				{Kind: sdk.PermissionOptionKindAllowOnce, Name: "Allow", OptionId: "yes"},
				{Kind: sdk.PermissionOptionKindRejectOnce, Name: "Reject", OptionId: "no"},
			},
		})
		switch {
		case err != nil:
			a.say(ctx, p.SessionId, "error: "+err.Error())
		case r.Outcome.Selected != nil:
			a.say(ctx, p.SessionId, "selected "+string(r.Outcome.Selected.OptionId))
		default:
			a.say(ctx, p.SessionId, "cancelled")
		}
	case text == "mcp":
		a.mu.Lock()
		b, _ := json.Marshal(a.mcp[p.SessionId])
		a.mu.Unlock()
		a.say(ctx, p.SessionId, string(b))
	case strings.HasPrefix(text, "term "):
		a.say(ctx, p.SessionId, a.term(ctx, p.SessionId, strings.TrimPrefix(text, "term ")))
	case text == "caps":
		a.mu.Lock()
		a.say(ctx, p.SessionId, fmt.Sprintf("terminal=%t", a.terminal))
		a.mu.Unlock()
	case text == "slow":
		a.say(ctx, p.SessionId, "working")
		<-ctx.Done()
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	case text == "hang":
		a.say(ctx, p.SessionId, "hanging")
		select {}
	case a.resume != "":
		a.say(ctx, p.SessionId, "resumed "+a.resume+": "+text)
	default:
		a.say(ctx, p.SessionId, "echo: "+text)
	}
	return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn, Usage: &sdk.Usage{InputTokens: len(text), OutputTokens: 2}}, nil
}

func ptr[T any](v T) *T { return &v }

func main() {
	a := &agent{cancels: map[sdk.SessionId]context.CancelFunc{}, mcp: map[sdk.SessionId][]sdk.McpServer{}}
	for i, arg := range os.Args {
		if arg == "--resume" && i+1 < len(os.Args) {
			a.resume = os.Args[i+1]
		}
	}
	a.conn = sdk.NewAgentSideConnection(a, os.Stdout, os.Stdin)
	<-a.conn.Done()
}

// termScript says what to do with one client terminal.
type termScript struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Cwd     string            `json:"cwd"`
	Env     map[string]string `json:"env"`
	Limit   int               `json:"limit"`
	// Kill kills the command before waiting for it.
	Kill bool `json:"kill"`
	// Keep leaves the terminal running and unreleased.
	Keep bool `json:"keep"`
}

// termReport is what happened.
type termReport struct {
	ID        string  `json:"id"`
	Error     string  `json:"error,omitempty"`
	ExitCode  *int    `json:"exitCode,omitempty"`
	Signal    *string `json:"signal,omitempty"`
	Output    string  `json:"output"`
	Truncated bool    `json:"truncated"`
	// AfterRelease is the error terminal/output answers once released.
	AfterRelease string `json:"afterRelease,omitempty"`
}

func (a *agent) term(ctx context.Context, sid sdk.SessionId, script string) string {
	var s termScript
	var rep termReport
	report := func() string {
		b, _ := json.Marshal(rep)
		return string(b)
	}
	if err := json.Unmarshal([]byte(script), &s); err != nil {
		rep.Error = err.Error()
		return report()
	}
	req := sdk.CreateTerminalRequest{SessionId: sid, Command: s.Command, Args: s.Args}
	if s.Cwd != "" {
		req.Cwd = &s.Cwd
	}
	if s.Limit > 0 {
		req.OutputByteLimit = &s.Limit
	}
	for k, v := range s.Env {
		req.Env = append(req.Env, sdk.EnvVariable{Name: k, Value: v})
	}
	created, err := a.conn.CreateTerminal(ctx, req)
	if err != nil {
		rep.Error = err.Error()
		return report()
	}
	rep.ID = created.TerminalId
	if s.Keep {
		return report()
	}
	if s.Kill {
		if _, err := a.conn.KillTerminal(ctx, sdk.KillTerminalRequest{SessionId: sid, TerminalId: rep.ID}); err != nil {
			rep.Error = "kill: " + err.Error()
			return report()
		}
	}
	exit, err := a.conn.WaitForTerminalExit(ctx, sdk.WaitForTerminalExitRequest{SessionId: sid, TerminalId: rep.ID})
	if err != nil {
		rep.Error = "wait: " + err.Error()
		return report()
	}
	rep.ExitCode, rep.Signal = exit.ExitCode, exit.Signal
	out, err := a.conn.TerminalOutput(ctx, sdk.TerminalOutputRequest{SessionId: sid, TerminalId: rep.ID})
	if err != nil {
		rep.Error = "output: " + err.Error()
		return report()
	}
	rep.Output, rep.Truncated = out.Output, out.Truncated
	if _, err := a.conn.ReleaseTerminal(ctx, sdk.ReleaseTerminalRequest{SessionId: sid, TerminalId: rep.ID}); err != nil {
		rep.Error = "release: " + err.Error()
		return report()
	}
	if _, err := a.conn.TerminalOutput(ctx, sdk.TerminalOutputRequest{SessionId: sid, TerminalId: rep.ID}); err != nil {
		rep.AfterRelease = err.Error()
	}
	return report()
}
