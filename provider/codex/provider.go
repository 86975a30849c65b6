// Package codex drives OpenAI's Codex CLI through its native app server
// (`codex app-server`, JSON-RPC over stdio): one long-lived process per
// conversation, a thread opened with thread/start or reopened with
// thread/resume, turn/start per turn, item notifications turned into
// normalized events, command and file-change approvals answered through
// HotPlex's permission hook and firewall, and turn/interrupt for Stop.
package codex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/internal/idmap"
	"github.com/hotplex/hotplex/provider/internal/mailbox"
)

// Options configure the provider.
type Options struct {
	// Name is the provider's name (default "codex").
	Name string
	// Path is the codex executable (default "codex" from PATH). Use the
	// platform binary of @openai/codex (vendor/<target>/bin/codex): the
	// npm launcher does not pass signals on.
	Path string
	// Config are `-c key=value` overrides of Codex's config.toml.
	Config []string
	// Env is added to the process environment (after StartOptions.Env).
	Env []string
	// ApprovalPolicy is Codex's approval policy (default "untrusted": every
	// command not known to be read-only is sent for approval, so the
	// firewall sees it before it runs).
	ApprovalPolicy string
	// Sandbox is Codex's sandbox mode (default "danger-full-access": the
	// approvals and HotPlex's firewall guard the work, and Codex's own
	// sandbox needs kernel features containers often lack).
	Sandbox string
	// Store keeps Codex's thread ID for each HotPlex conversation across
	// processes (default: in memory, for the provider's lifetime).
	Store idmap.Store
	// Timeouts bound initialize and thread set-up, an interrupted turn's
	// end, and a process's end.
	provider.Timeouts
}

// ModelProvider returns `-c` overrides that make Codex send its model calls
// to an OpenAI Responses API at baseURL (ending in /v1), with the API key
// read from the environment variable envKey.
func ModelProvider(baseURL, envKey string) []string {
	return []string{
		`model_provider="hotplex"`,
		`model_providers.hotplex.name="HotPlex model"`,
		`model_providers.hotplex.base_url=` + strconv.Quote(baseURL),
		`model_providers.hotplex.wire_api="responses"`,
		`model_providers.hotplex.env_key=` + strconv.Quote(envKey),
	}
}

// mcpConfig is a conversation's MCP servers as `-c` overrides of Codex's
// mcp_servers table: a stdio server's command, args and env, an HTTP
// server's url and http_headers. Codex has no SSE transport: an SSE
// server is given as HTTP, which servers that speak both answer.
func mcpConfig(servers []provider.MCPServer) []string {
	var out []string
	for _, m := range servers {
		// Names are bare TOML keys (provider.ValidateMCPServers).
		key := "mcp_servers." + m.Name + "."
		if m.Stdio() {
			out = append(out, key+"command="+strconv.Quote(m.Command), key+"args="+tomlArray(m.Args))
			if len(m.Env) > 0 {
				out = append(out, key+"env="+tomlTable(m.Env))
			}
			continue
		}
		out = append(out, key+"url="+strconv.Quote(m.URL))
		if len(m.Headers) > 0 {
			out = append(out, key+"http_headers="+tomlTable(m.Headers))
		}
	}
	return out
}

func tomlArray(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func tomlTable(m map[string]string) string {
	var kv []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		kv = append(kv, strconv.Quote(k)+" = "+strconv.Quote(m[k]))
	}
	return "{" + strings.Join(kv, ", ") + "}"
}

// Provider starts Codex app servers.
type Provider struct {
	opts Options
}

// New returns a Codex provider.
func New(opts Options) *Provider {
	if opts.Name == "" {
		opts.Name = "codex"
	}
	if opts.Path == "" {
		opts.Path = "codex"
	}
	if opts.ApprovalPolicy == "" {
		opts.ApprovalPolicy = "untrusted"
	}
	if opts.Sandbox == "" {
		opts.Sandbox = "danger-full-access"
	}
	if opts.Store == nil {
		opts.Store = idmap.NewMemory()
	}
	return &Provider{opts: opts}
}

// Name returns the provider's name.
func (p *Provider) Name() string { return p.opts.Name }

// Path returns the executable the provider runs.
func (p *Provider) Path() string { return p.opts.Path }

// Start launches `codex app-server`, initializes it and opens the thread:
// the saved one when there is one, a new one otherwise (then Info.Fallback
// says why).
func (p *Provider) Start(ctx context.Context, o provider.StartOptions) (provider.Process, error) {
	if o.ProviderSessionID == "" {
		return nil, fmt.Errorf("%w: no provider session ID", provider.ErrStartFailed)
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	c, err := p.launch(o, log)
	if err != nil {
		return nil, err
	}
	startCtx, cancel := context.WithTimeout(ctx, p.opts.Start())
	defer cancel()
	saved, hasSaved := p.opts.Store.Get(o.ProviderSessionID)
	if !hasSaved && o.Resume {
		// The engine keeps the ID the agent reported and hands it back.
		saved, hasSaved = o.ProviderSessionID, true
	}
	if err := c.open(startCtx, o, saved, hasSaved); err != nil {
		closeCtx, cancelClose := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancelClose()
		if cerr := c.Close(closeCtx); cerr != nil {
			c.log.Debug("closing a failed start", "err", cerr)
		}
		return nil, err
	}
	p.opts.Store.Put(o.ProviderSessionID, c.threadID)
	return c, nil
}

// launch starts `codex app-server` in o.WorkDir with the conversation's
// MCP servers.
func (p *Provider) launch(o provider.StartOptions, log *slog.Logger) (*process, error) {
	args := []string{"app-server"}
	for _, kv := range append(slices.Clone(p.opts.Config), mcpConfig(o.MCPServers)...) {
		args = append(args, "-c", kv)
	}
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	env = append(slices.Clone(env), p.opts.Env...)
	cp, err := proc.Start(proc.Spec{
		Path: p.opts.Path, Args: args, Dir: o.WorkDir, Env: env,
		Marker: uuid.NewString(), CgroupRoot: o.CgroupRoot,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", provider.ErrStartFailed, p.opts.Path, err)
	}
	c := &process{cp: cp, cfg: &p.opts, log: log.With("pid", cp.PID(), "provider", p.opts.Name), info: provider.Info{PID: cp.PID()}}
	c.rpc = newConn(cp.Stdin(), cp.Stdout(), c.inbound)
	return c, nil
}

// process is one running app server and its thread.
type process struct {
	cp  *proc.Process
	rpc *conn
	cfg *Options
	log *slog.Logger

	threadID string

	infoMu sync.Mutex
	info   provider.Info

	turnMu sync.Mutex

	// runningMu guards running, the ID of the turn in progress ("" when
	// none has started), which turn/steer names.
	runningMu sync.Mutex
	running   string

	// cur is the turn that receives the server's requests and
	// notifications (none between turns).
	cur mailbox.Slot[message]

	// total is the thread's token usage as last reported.
	total usage
}

type threadResponse struct {
	Thread struct {
		ID string `json:"id"`
	} `json:"thread"`
	Model string `json:"model"`
}

func (c *process) open(ctx context.Context, o provider.StartOptions, saved string, hasSaved bool) error {
	if err := c.initialize(ctx); err != nil {
		return err
	}
	return c.openThread(ctx, o, saved, hasSaved)
}

// initialize introduces HotPlex to the app server.
func (c *process) initialize(ctx context.Context) error {
	var ir json.RawMessage
	err := c.rpc.call(ctx, "initialize", map[string]any{
		"clientInfo":   map[string]any{"name": "hotplex", "title": "HotPlex", "version": "1"},
		"capabilities": map[string]any{"experimentalApi": false, "requestAttestation": false},
	}, &ir)
	if err != nil {
		return c.startErr(ctx, "initialize", err)
	}
	if err := c.rpc.notify("initialized", nil); err != nil {
		return c.startErr(ctx, "initialized", err)
	}
	return nil
}

// openThread opens the conversation's thread in o.WorkDir: the saved one
// when there is one, a new one otherwise.
func (c *process) openThread(ctx context.Context, o provider.StartOptions, saved string, hasSaved bool) error {
	common := map[string]any{"cwd": o.WorkDir, "approvalPolicy": c.cfg.ApprovalPolicy, "sandbox": c.cfg.Sandbox}
	if o.Model != "" {
		common["model"] = o.Model
	}
	if o.SystemPrompt != "" {
		common["developerInstructions"] = o.SystemPrompt
	}
	var tr threadResponse
	fallback, resumed := "", false
	switch {
	case hasSaved:
		params := map[string]any{"threadId": saved, "excludeTurns": true}
		for k, v := range common {
			params[k] = v
		}
		err := c.rpc.call(ctx, "thread/resume", params, &tr)
		switch {
		case err == nil:
			resumed = true
		case !c.Alive() || ctx.Err() != nil:
			return c.startErr(ctx, "thread/resume", err)
		default:
			fallback = "Codex could not resume the saved thread (" + err.Error() + "); started a new one"
		}
	case o.Resume:
		fallback = "no saved Codex thread for this session; started a new one"
	}
	if !resumed {
		if err := c.rpc.call(ctx, "thread/start", common, &tr); err != nil {
			return c.startErr(ctx, "thread/start", err)
		}
	}
	if tr.Thread.ID == "" {
		return c.startErr(ctx, "thread/start", errors.New("no thread ID in the answer"))
	}
	c.threadID = tr.Thread.ID
	c.infoMu.Lock()
	c.info.ProviderSessionID = tr.Thread.ID
	c.info.Resumed = resumed
	c.info.Fallback = fallback
	c.info.Model = tr.Model
	c.infoMu.Unlock()
	return nil
}

func (c *process) startErr(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %s: %w", provider.ErrStartFailed, what, context.Cause(ctx))
	}
	wait := 2 * time.Second
	if c.Alive() {
		wait = 0
	}
	return fmt.Errorf("%w: %s", provider.ErrStartFailed, c.cp.Explain(what+": "+err.Error(), wait))
}

func (c *process) deadErr(what string) error {
	return fmt.Errorf("%w: %s", provider.ErrSessionDead, c.cp.Explain(what, 2*time.Second))
}

func (c *process) Info() provider.Info {
	c.infoMu.Lock()
	defer c.infoMu.Unlock()
	return c.info
}

func (c *process) Alive() bool {
	select {
	case <-c.rpc.done:
		return false
	default:
	}
	return !c.cp.Ending()
}

func (c *process) StderrTail() string { return c.cp.StderrTail() }

var errProcessClosed = fmt.Errorf("%w: the session was terminated", provider.ErrSessionDead)

// Close ends the app server's process tree: stdin EOF, grace, SIGTERM,
// grace, SIGKILL. It returns once the reader goroutine has ended.
func (c *process) Close(ctx context.Context) error {
	c.cp.Retire() // no new turn from here on
	c.cur.Abort(errProcessClosed)
	err := c.cp.Terminate(ctx, c.cfg.Terminate())
	_ = c.cp.Stdout().Close()
	select {
	case <-c.rpc.done:
	case <-ctx.Done():
		if err == nil {
			err = ctx.Err()
		}
	}
	return err
}
