package backend

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrUnknownCommand means a command the backend does not support.
var ErrUnknownCommand = errors.New("unknown command")

// Command is one command a backend understands, such as "/cost".
type Command struct {
	// Name includes the slash: "/compact".
	Name string
	Help string
	// Passthrough sends the command line to the agent as a prompt: the
	// agent runs it as its own slash command. Otherwise HotPlex answers it.
	Passthrough bool
	run         func(ctx context.Context, s *engineSession, args string) (string, error)
}

// Built-in commands every engine backend answers itself.
var (
	// CostCommand reports the session's tokens, cost and turns.
	CostCommand = Command{Name: "/cost", Help: "tokens, cost and turns of this conversation", run: runCost}
	// ClearCommand starts a new, empty conversation (a new agent process).
	ClearCommand = Command{Name: "/clear", Help: "start a new, empty conversation", run: runClear}
	// ModelCommand reports the model the agent answers with.
	ModelCommand = Command{Name: "/model", Help: "the model the agent answers with", run: runModel}
	// StatusCommand reports the session's state and process.
	StatusCommand = Command{Name: "/status", Help: "session state, process and conversation", run: runStatus}
)

// AgentCommand is a command the agent itself runs (sent as a prompt).
func AgentCommand(name, help string) Command {
	return Command{Name: name, Help: help, Passthrough: true}
}

// CommandsFor returns the commands of the backend over the named provider:
// the built-in ones, plus the agent's own slash commands HotPlex knows it
// accepts in its headless mode.
func CommandsFor(provider string) []Command {
	cmds := []Command{CostCommand, ClearCommand, ModelCommand, StatusCommand}
	switch {
	case provider == "claude" || strings.HasPrefix(provider, "claude-") || provider == "fakeagent":
		cmds = append(cmds, AgentCommand("/compact", "summarize the conversation to free context"))
	}
	return cmds
}

type commandHandler struct {
	s    *engineSession
	cmds []Command
}

func (h *commandHandler) find(command string) (Command, string, bool) {
	name, args, _ := strings.Cut(strings.TrimSpace(command), " ")
	i := slices.IndexFunc(h.cmds, func(c Command) bool { return c.Name == name })
	if i < 0 {
		return Command{}, "", false
	}
	return h.cmds[i], strings.TrimSpace(args), true
}

// IsSupported reports whether the command's first word names a command of
// this backend.
func (h *commandHandler) IsSupported(command string) bool {
	_, _, ok := h.find(command)
	return ok
}

// Execute runs the command and returns what it printed.
func (h *commandHandler) Execute(ctx context.Context, command string) (string, error) {
	c, args, ok := h.find(command)
	if !ok {
		var names []string
		for _, c := range h.cmds {
			names = append(names, c.Name)
		}
		return "", fmt.Errorf("%w: %q (this backend has %s)", ErrUnknownCommand, command, strings.Join(names, ", "))
	}
	if c.Passthrough || c.run == nil {
		return h.s.Send(ctx, strings.TrimSpace(command))
	}
	return c.run(ctx, h.s, args)
}

func runCost(_ context.Context, s *engineSession, _ string) (string, error) {
	st, err := s.b.eng.GetSessionStats(s.conversation())
	if err != nil {
		return "", fmt.Errorf("/cost: %w", err)
	}
	return fmt.Sprintf("turns: %d\ninput tokens: %d\noutput tokens: %d\ncache read tokens: %d\ncache write tokens: %d\ncost: $%.4f",
		st.Turns, st.InputTokens, st.OutputTokens, st.CacheReadTokens, st.CacheWriteTokens, st.TotalCostUSD), nil
}

func runModel(_ context.Context, s *engineSession, args string) (string, error) {
	if args != "" {
		return "", fmt.Errorf("/model: choosing a model is done in the backend's configuration, not per session")
	}
	md := s.Metadata()
	if m := md.Extra["model"]; m != "" {
		return m, nil
	}
	return "(not reported yet: the agent names its model in its first answer)", nil
}

func runStatus(_ context.Context, s *engineSession, _ string) (string, error) {
	md := s.Metadata()
	return fmt.Sprintf("state: %s\nbackend: %s\npid: %d\ncwd: %s\nconversation: %s",
		s.State(), md.Backend, md.Pid, md.Cwd, md.Extra["provider_session_id"]), nil
}

func runClear(ctx context.Context, s *engineSession, _ string) (string, error) {
	if err := s.acquire(ctx); err != nil {
		return "", err
	}
	defer s.release()
	switch st := s.State(); st {
	case StateIdle, StateStopped, StateError:
	default:
		return "", fmt.Errorf("/clear: %w: the session is %s", ErrNotReady, st)
	}
	if err := s.clearConversation(ctx); err != nil {
		return "", fmt.Errorf("/clear: %w", err)
	}
	return "Started a new conversation.", nil
}
