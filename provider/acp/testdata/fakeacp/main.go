// Command fakeacp is a small ACP agent for the provider's tests. Its
// prompts are commands: "ask <command>" asks permission to run a shell
// command and reports the decision, "slow" works until cancelled, "hang"
// ignores session/cancel, and anything else is echoed. Started with
// --resume ID it opens that session on session/new.
package main

import (
	"context"
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

	mu      sync.Mutex
	n       int
	cancels map[sdk.SessionId]context.CancelFunc
}

func (a *agent) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}

func (a *agent) Initialize(context.Context, sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	return sdk.InitializeResponse{ProtocolVersion: sdk.ProtocolVersionNumber, AgentInfo: &sdk.Implementation{Name: "fakeacp", Version: "1.0.0"}}, nil
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

func (a *agent) NewSession(context.Context, sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	if a.resume != "" {
		return sdk.NewSessionResponse{SessionId: sdk.SessionId(a.resume)}, nil
	}
	a.mu.Lock()
	a.n++
	id := fmt.Sprintf("fake-%d-%d", os.Getpid(), a.n)
	a.mu.Unlock()
	return sdk.NewSessionResponse{SessionId: sdk.SessionId(id)}, nil
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
	a := &agent{cancels: map[sdk.SessionId]context.CancelFunc{}}
	for i, arg := range os.Args {
		if arg == "--resume" && i+1 < len(os.Args) {
			a.resume = os.Args[i+1]
		}
	}
	a.conn = sdk.NewAgentSideConnection(a, os.Stdout, os.Stdin)
	<-a.conn.Done()
}
