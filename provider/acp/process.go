package acp

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/internal/mailbox"
)

// process is one running agent and its single ACP session.
type process struct {
	cp   *proc.Process
	conn *sdk.ClientSideConnection
	cfg  *Options
	log  *slog.Logger

	sessionID sdk.SessionId

	infoMu sync.Mutex
	info   provider.Info

	// turnMu keeps turns one at a time.
	turnMu sync.Mutex
	// spentUSD is the agent's cumulative cost as of the last turn
	// (guarded by turnMu).
	spentUSD float64

	// cur is the turn that receives the agent's updates and permission
	// requests (none between turns: what arrives then is dropped or
	// refused).
	cur mailbox.Slot[job]

	// terms are the terminals the agent opened (Options.Terminal).
	terms *terminals
	// approved are the shell commands allowed through
	// session/request_permission in the turn in progress, so that the
	// terminal running one is not asked about twice. Only the turn's
	// goroutine uses it.
	approved map[string]bool
}

func newProcess(cp *proc.Process, cfg *Options, log *slog.Logger) *process {
	c := &process{cp: cp, cfg: cfg, log: log, info: provider.Info{PID: cp.PID()}}
	c.conn = sdk.NewClientSideConnection(&client{p: c}, cp.Stdin(), cp.Stdout())
	c.conn.SetLogger(debugLogger(log))
	return c
}

// debugLogger passes the connection's own chatter (it logs every closed
// connection at info level) to ours at debug level.
func debugLogger(log *slog.Logger) *slog.Logger {
	return slog.New(levelCap{log.Handler()})
}

type levelCap struct{ slog.Handler }

func (h levelCap) Enabled(ctx context.Context, _ slog.Level) bool {
	return h.Handler.Enabled(ctx, slog.LevelDebug)
}

func (h levelCap) Handle(ctx context.Context, r slog.Record) error {
	r.Level = slog.LevelDebug
	return h.Handler.Handle(ctx, r)
}

func (h levelCap) WithAttrs(a []slog.Attr) slog.Handler { return levelCap{h.Handler.WithAttrs(a)} }
func (h levelCap) WithGroup(n string) slog.Handler      { return levelCap{h.Handler.WithGroup(n)} }

// open initializes the agent and opens the session: the saved one when
// hasSaved and the agent can reopen it, a new one otherwise.
func (c *process) open(ctx context.Context, o provider.StartOptions, saved string, hasSaved, flagResume bool) error {
	caps, err := c.initialize(ctx)
	if err != nil {
		return err
	}
	return c.openSession(ctx, o, caps, saved, hasSaved, flagResume)
}

// initialize introduces HotPlex to the agent and returns what the agent
// can do.
func (c *process) initialize(ctx context.Context) (sdk.InitializeResponse, error) {
	var caps sdk.InitializeResponse
	err := c.call(ctx, "initialize", func(ctx context.Context) error {
		// No fs capabilities: the agent uses its own file tools in the work
		// directory, and asks permission for them. Terminals, when offered,
		// put the commands the agent runs through them before the firewall.
		r, err := c.conn.Initialize(ctx, sdk.InitializeRequest{
			ProtocolVersion:    sdk.ProtocolVersionNumber,
			ClientCapabilities: sdk.ClientCapabilities{Terminal: c.cfg.Terminal},
			ClientInfo:         &sdk.Implementation{Name: "hotplex", Version: "1"},
		})
		caps = r
		return err
	})
	if err != nil {
		return caps, err
	}
	if caps.AgentInfo != nil {
		c.log.Debug("agent initialized", "agent", caps.AgentInfo.Name, "version", caps.AgentInfo.Version)
	}
	return caps, nil
}

// openSession opens the conversation in o.WorkDir on an initialized agent.
func (c *process) openSession(ctx context.Context, o provider.StartOptions, caps sdk.InitializeResponse, saved string, hasSaved, flagResume bool) error {
	cwd := o.WorkDir
	mcp := c.mcpServers(o.MCPServers, caps.AgentCapabilities.McpCapabilities)
	fallback := ""
	resumed := false
	switch {
	case !hasSaved && o.Resume:
		fallback = "no saved conversation for this session; started a new one"
	case hasSaved && flagResume:
		// The agent resumed by its own flag; session/new opens it.
		resumed = true
	case hasSaved && c.cfg.Resume == ResumeNone:
		why := c.cfg.NoResume
		if why == "" {
			why = c.cfg.Name + " cannot resume a conversation in a new process"
		}
		fallback = why + "; started a new conversation"
	case hasSaved && caps.AgentCapabilities.LoadSession:
		_, err := c.conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: sdk.SessionId(saved), Cwd: cwd, McpServers: mcp, Meta: c.cfg.SessionMeta})
		switch {
		case err == nil:
			c.sessionID, resumed = sdk.SessionId(saved), true
		case !c.Alive() || ctx.Err() != nil:
			return c.call(ctx, "session/load", func(context.Context) error { return err })
		default:
			fallback = "the agent could not load the saved conversation (" + err.Error() + "); started a new one"
		}
	case hasSaved && caps.AgentCapabilities.SessionCapabilities.Resume != nil:
		_, err := c.conn.ResumeSession(ctx, sdk.ResumeSessionRequest{SessionId: sdk.SessionId(saved), Cwd: cwd, McpServers: mcp, Meta: c.cfg.SessionMeta})
		switch {
		case err == nil:
			c.sessionID, resumed = sdk.SessionId(saved), true
		case !c.Alive() || ctx.Err() != nil:
			return c.call(ctx, "session/resume", func(context.Context) error { return err })
		default:
			fallback = "the agent could not resume the saved conversation (" + err.Error() + "); started a new one"
		}
	case hasSaved:
		fallback = "the agent offers neither session/load nor session/resume; started a new conversation"
	}
	if c.sessionID == "" {
		err := c.call(ctx, "session/new", func(ctx context.Context) error {
			r, err := c.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: cwd, McpServers: mcp, Meta: c.cfg.SessionMeta})
			if err == nil {
				c.sessionID = r.SessionId
				c.noteModels(r.Models)
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	if c.cfg.Mode != "" {
		err := c.call(ctx, "session/set_mode", func(ctx context.Context) error {
			_, err := c.conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: c.sessionID, ModeId: sdk.SessionModeId(c.cfg.Mode)})
			return err
		})
		if err != nil {
			c.log.Debug("session/set_mode refused", "mode", c.cfg.Mode, "err", err)
		}
	}
	c.infoMu.Lock()
	c.info.ProviderSessionID = string(c.sessionID)
	c.info.Resumed = resumed
	c.info.Fallback = fallback
	c.infoMu.Unlock()
	return nil
}

func (c *process) noteModels(m *sdk.SessionModelState) {
	if m == nil || m.CurrentModelId == "" {
		return
	}
	c.infoMu.Lock()
	c.info.Model = string(m.CurrentModelId)
	c.infoMu.Unlock()
}

// call runs one start-up request, turning failures into ErrStartFailed
// with the agent's stderr.
func (c *process) call(ctx context.Context, what string, f func(context.Context) error) error {
	err := f(ctx)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %s: %w", provider.ErrStartFailed, what, context.Cause(ctx))
	}
	return c.startErr(fmt.Errorf("%s: %w", what, err))
}

func (c *process) startErr(err error) error {
	return fmt.Errorf("%w: %s", provider.ErrStartFailed, c.cp.Explain(err.Error(), c.exitWait()))
}

// deadErr describes an agent that stopped answering.
func (c *process) deadErr(what string) error {
	return fmt.Errorf("%w: %s", provider.ErrSessionDead, c.cp.Explain(what, 2*time.Second))
}

// exitWait is how long to wait for a dying agent's exit status before
// describing it: none for one that is still alive.
func (c *process) exitWait() time.Duration {
	if c.Alive() {
		return 0
	}
	return 2 * time.Second
}

func (c *process) Info() provider.Info {
	c.infoMu.Lock()
	defer c.infoMu.Unlock()
	return c.info
}

func (c *process) Alive() bool {
	select {
	case <-c.conn.Done():
		return false
	default:
	}
	return !c.cp.Ending()
}

func (c *process) StderrTail() string { return c.cp.StderrTail() }

// Close ends the agent's process tree: stdin EOF, grace, SIGTERM, grace,
// SIGKILL. It returns once the connection's goroutines have ended.
func (c *process) Close(ctx context.Context) error {
	c.cp.Retire() // no new turn from here on
	c.cur.Abort(errProcessClosed)
	if c.terms != nil {
		c.terms.closeAll()
	}
	err := c.cp.Terminate(ctx, c.cfg.Terminate())
	// Our end of stdout ends the connection's reader even if something
	// escaped the tree with the pipe.
	_ = c.cp.Stdout().Close()
	select {
	case <-c.conn.Done():
	case <-ctx.Done():
		if err == nil {
			err = ctx.Err()
		}
	}
	return err
}

var errProcessClosed = fmt.Errorf("%w: the session was terminated", provider.ErrSessionDead)

// mcpServers is the conversation's MCP servers as the agent's session/new
// takes them: every agent takes stdio servers; HTTP and SSE servers go
// only to an agent that says it takes them, and are left out, with a
// warning, for one that does not.
func (c *process) mcpServers(servers []provider.MCPServer, caps sdk.McpCapabilities) []sdk.McpServer {
	out := []sdk.McpServer{}
	for _, m := range servers {
		switch {
		case m.Stdio():
			env := []sdk.EnvVariable{}
			for _, k := range slices.Sorted(maps.Keys(m.Env)) {
				env = append(env, sdk.EnvVariable{Name: k, Value: m.Env[k]})
			}
			out = append(out, sdk.McpServer{Stdio: &sdk.McpServerStdio{Name: m.Name, Command: m.Command, Args: append([]string{}, m.Args...), Env: env}})
		case m.Type == "http" && caps.Http:
			out = append(out, sdk.McpServer{Http: &sdk.McpServerHttpInline{Name: m.Name, Type: "http", Url: m.URL, Headers: headers(m.Headers)}})
		case m.Type == "sse" && caps.Sse:
			out = append(out, sdk.McpServer{Sse: &sdk.McpServerSseInline{Name: m.Name, Type: "sse", Url: m.URL, Headers: headers(m.Headers)}})
		default:
			c.log.Warn("the agent does not take this kind of MCP server; left out", "server", m.Name, "type", m.Type)
		}
	}
	return out
}

func headers(h map[string]string) []sdk.HttpHeader {
	out := []sdk.HttpHeader{}
	for _, k := range slices.Sorted(maps.Keys(h)) {
		out = append(out, sdk.HttpHeader{Name: k, Value: h[k]})
	}
	return out
}
