package daemon

import (
	"io"
	"io/fs"
	"log/slog"
	"time"

	"github.com/hotplex/hotplex/gateway"
	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/webhook"
)

// Config is everything a daemon is built from. The zero value of each
// field other than Store, WorkDirRoot and an agent is a working default.
type Config struct {
	// Store holds API keys, sessions, events and model spend (the model
	// gateway needs it to implement store.UsageStore too; a
	// store.Database, SQLite or PostgreSQL, does). The caller opens it
	// (hotplex serve: sqlite.Open on the data directory, or
	// postgres.Open) and closes it after Close, the last moment the
	// daemon writes to it.
	Store store.Store
	// Keys are stored (hashed) at start. When the store then holds no
	// usable key, New creates an admin key and prints its secret to Out,
	// once: a daemon nobody can call is of no use.
	Keys []Key

	// Logger receives the daemon's structured log (nil: slog.Default()).
	Logger *slog.Logger
	// Out receives the few lines an operator must read at start: a newly
	// created admin key, and where agents reach their models (nil:
	// nowhere).
	Out io.Writer

	// WorkDirRoot is created if missing; every owner has its own tree of
	// session work directories under it.
	WorkDirRoot string
	// ProtectedPaths are what the daemon owns (data directory, database
	// files, key file): no session's tool may delete, move or write them.
	// The store's opener knows them, so it lists them.
	ProtectedPaths []string

	// Provider is the default agent and Providers the others sessions
	// may name.
	Provider  provider.Provider
	Providers []provider.Provider
	// Agents, when set, chooses the agents instead, once the model gateway
	// listens: env is Env with every model API's base URL on the gateway
	// (the keys come per process), so agents configured from it reach
	// models only through the gateway. An error stops New.
	Agents func(env []string) (def provider.Provider, others []provider.Provider, err error)
	// Env is the agents' environment (nil: the daemon's own). With the
	// gateway on, each agent gets its model variables replaced by the
	// gateway's and a token of its own.
	Env []string
	// Gateway configures the model gateway; nil turns it off, and agents
	// then inherit Env, model keys included.
	Gateway *GatewayConfig

	// Namespace seeds the deterministic IDs of the agents' conversations.
	Namespace string
	// TurnTimeout bounds one turn (0: no bound).
	TurnTimeout time.Duration
	// IdleTimeout ends an idle agent process after this long (0: 30
	// minutes; negative: never).
	IdleTimeout time.Duration
	// AdminToken allows a scoped, audited firewall bypass ("": none).
	AdminToken string
	// Policy is the server's level of permission rules, judged after the
	// built-in firewall on every session's tool uses; keys add theirs
	// (Key.Policy) and sessions their own.
	Policy *guard.Policy
	// ApprovalTimeout bounds waiting for a person's answer to a tool use
	// (0: five minutes).
	ApprovalTimeout time.Duration
	// AllowOnApprovalTimeout allows, instead of denying, a tool use
	// nobody answered within ApprovalTimeout; the permission_decision
	// event says the timeout decided.
	AllowOnApprovalTimeout bool
	// Capacity bounds the agent processes (zero: no bounds).
	Capacity Capacity

	// Cluster makes the daemon a node of a cluster (nil: a single node).
	// The store must then be one the nodes share (PostgreSQL).
	Cluster *ClusterConfig

	// Ring is each session's replay ring in the hub; replay beyond it
	// comes from the store (0: 128).
	Ring int
	// Web is the browser UI served at "/" (nil: none).
	Web fs.FS
	// AllowedOrigins are the browser origins, beyond the daemon's own,
	// that may open WebSockets.
	AllowedOrigins []string
	// RateLimit bounds each API key's request rate (zero: none).
	RateLimit server.RateLimit
	// Timeouts bound the HTTP server Serve runs (server.DefaultTimeouts
	// where zero).
	Timeouts server.Timeouts
	// WS bounds each WebSocket (server.DefaultWSLimits where zero).
	WS server.WSLimits
	// KeyCheckInterval is how often open streams look for their key
	// revoked by another process (server.DefaultKeyCheckInterval if 0).
	KeyCheckInterval time.Duration
	// KeepAlive is the interval of SSE keep-alive comments (0: 15s).
	KeepAlive time.Duration
	// Webhooks is how deliveries to the keys' webhooks are retried (zero:
	// 5 attempts over about a minute).
	Webhooks webhook.Retry
	// ServerOptions, when set, adjusts the server's options after the
	// daemon wired them, for what no field above covers (a test's own
	// usage source, say).
	ServerOptions func(*server.Options)

	// ShutdownTimeout bounds how long Serve waits, once its context ends,
	// for running turns to be interrupted and requests to finish before it
	// closes the connections (0: 30 seconds).
	ShutdownTimeout time.Duration
}

// Key is an API key configured by its secret, with what applies to its
// sessions alone.
type Key struct {
	// ID is the key's ID in the store and its sessions' owner.
	ID, Name string
	// Secret is what callers present; the store keeps only its hash.
	Secret string
	// Admin keys may see and end every session.
	Admin bool
	// BudgetUSD overrides GatewayConfig.OwnerBudgetUSD for this key.
	BudgetUSD *float64
	// Upstreams are the key's own model keys: its sessions' model calls
	// are made with them instead of the operator's.
	Upstreams map[gateway.API]gateway.Upstream
	// Policy is the key's level of permission rules (nil: none).
	Policy *guard.Policy
	// Hooks are the key's webhooks from the configuration, each with its
	// secret; they are stored at start, and those no longer configured
	// are removed (hooks made through the API stay).
	Hooks []webhook.Spec
}

// GatewayConfig configures the model gateway agents call instead of the
// model APIs: it alone holds the keys, meters every call and enforces the
// budgets.
type GatewayConfig struct {
	// Listen is the gateway's loopback address (default 127.0.0.1:0).
	Listen string
	// Upstreams are the model APIs the gateway calls, keys included; an
	// API left out is not reachable.
	Upstreams map[gateway.API]gateway.Upstream
	// Prices per million tokens by model, laid over the built-in table.
	Prices gateway.Prices
	// SessionBudgetUSD bounds one session's spend, OwnerBudgetUSD the
	// spend of one key's sessions together (0: no bound).
	SessionBudgetUSD, OwnerBudgetUSD float64
}

// Capacity bounds the agent processes the engine keeps (see
// engine.EngineOptions for each bound's policy).
type Capacity struct {
	// MaxResident is the most sessions with a live process; beyond it the
	// least recently used idle one is hibernated.
	MaxResident int
	// MemoryBudget is the most resident memory of all sessions'
	// processes, in bytes.
	MemoryBudget int64
	// PerOwnerResident is the most sessions with a live process per key.
	PerOwnerResident int
	// MaxConcurrentStarts is the most starts and resumes at once (0: one
	// per core), MaxQueuedStarts the turns that may wait for one.
	MaxConcurrentStarts, MaxQueuedStarts int
	// StartQueueTimeout bounds a turn's wait for room to start (0: the
	// engine's start timeout); past it the turn is refused for room, and
	// on a cluster its session tries another node.
	StartQueueTimeout time.Duration
	// Spares are prewarmed processes kept for new conversations, per
	// agent that can prewarm; ProviderSpares overrides the count for the
	// agents it names.
	Spares         int
	ProviderSpares map[string]int
}
