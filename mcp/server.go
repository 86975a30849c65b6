// Package mcp is HotPlex as a Model Context Protocol server: an
// orchestrating agent (Claude Code, any MCP client) starts sessions on
// HotPlex's pooled agents, sends them prompts, reads their events and
// ends them, each session hot, behind the firewall, persisted and visible
// in the web UI. Each conversation is also a resource,
// hotplex://sessions/{id}.
//
// The tools are a client of HotPlex's own /v1 API, called with the MCP
// caller's API key, so what a key may see and do is decided in one place,
// the API server. The API is reached over a transport of the caller's
// choosing: HTTP to a running daemon (Connect), or a daemon's handler in
// this process (InProcess), which is how the daemon serves /mcp (Handler)
// and how `hotplex mcp` serves stdio with a daemon of its own.
package mcp

import (
	"context"
	"log/slog"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hotplex/hotplex/client"
)

// Options configure an MCP server.
type Options struct {
	// Key is the API key the tools call with when an MCP request brings
	// none: the one key of a server on stdio. Requests to Handler bring
	// their own, and Key is not used for them.
	Key string
	// Version is the server's version in its answer to initialize.
	Version string
	// Logger receives the server's log (nil: slog.Default()).
	Logger *slog.Logger
}

// instructions tell a client's model what the server is for.
const instructions = `HotPlex runs AI coding agents (Claude Code, Codex, OpenCode, ...) as hot, firewalled sessions.
Delegate work with start_session (choose a provider and work_dir), then send_prompt, which waits for the turn
and returns the agent's final answer, the tools it used, the files it changed, tokens and cost. get_events reads
a session's event log; interrupt stops a running turn; close_session ends a session and deletes what it left.
Each session is also the resource hotplex://sessions/{id}.`

// NewServer returns an MCP server whose tools and resources call api.
// Run it on a transport (sdk.StdioTransport for stdio), or serve it over
// HTTP with Handler.
func NewServer(api *client.API, o Options) *sdk.Server {
	return newServer(api, o, context.Background())
}

// newServer is NewServer whose tool calls end when closing does.
func newServer(api *client.API, o Options, closing context.Context) *sdk.Server {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "hotplex", Title: "HotPlex", Version: o.Version},
		&sdk.ServerOptions{Instructions: instructions, Logger: o.Logger})
	t := &tools{api: api, key: o.Key, log: o.Logger, closing: closing}
	t.register(s)
	return s
}

// tokenKey and tokenDone are the fields of an HTTP request's
// auth.TokenInfo that carry the caller's API key and the request's
// context to the tools.
const (
	tokenKey  = "hotplex_api_key"
	tokenDone = "hotplex_request_context"
)

// keyOf is the API key a request's calls carry: the one its HTTP request
// presented, else the server's own.
func (t *tools) keyOf(extra *sdk.RequestExtra) string {
	if extra != nil && extra.TokenInfo != nil {
		if k, ok := extra.TokenInfo.Extra[tokenKey].(string); ok && k != "" {
			return k
		}
	}
	return t.key
}

// requestContext is ctx, also ended when the server closes and when the
// HTTP request that carried the MCP request ends. The SDK keeps a tool
// call running when the POST that carried it is cut off (the client may
// come back for its answer), and closing a session waits for its calls:
// a turn nobody will read is better interrupted.
func (t *tools) requestContext(ctx context.Context, extra *sdk.RequestExtra) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stops := []func() bool{context.AfterFunc(t.closing, cancel)}
	if extra != nil && extra.TokenInfo != nil {
		if rc, ok := extra.TokenInfo.Extra[tokenDone].(context.Context); ok {
			stops = append(stops, context.AfterFunc(rc, cancel))
		}
	}
	return ctx, func() {
		for _, stop := range stops {
			stop()
		}
		cancel()
	}
}
