package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/hotplex/hotplex/daemon"
	"github.com/hotplex/hotplex/gateway"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/web"
	"github.com/hotplex/hotplex/webhook"
)

// serveConfig is the daemon's configuration. Each setting comes from, in
// rising precedence: its default, the YAML file, a HOTPLEX_* environment
// variable (the yaml name in upper case), and the command-line flag.
type serveConfig struct {
	Listen                string        `yaml:"listen" help:"address to listen on (loopback by default)"`
	DataDir               string        `yaml:"data_dir" help:"where the database and session work directories live"`
	Postgres              string        `yaml:"postgres" help:"PostgreSQL connection URL (postgres://user:password@host/db); the store is then that database instead of the SQLite file in DATA_DIR"`
	NATS                  string        `yaml:"nats" help:"NATS server URL (JetStream on): the daemon is then one node of a cluster whose nodes share POSTGRES and the work-directory root"`
	NodeID                string        `yaml:"node_id" help:"this node's name in the cluster (default: the host name)"`
	AdvertiseURL          string        `yaml:"advertise_url" help:"where the cluster's nodes and its load balancer reach this node's API (default: http://LISTEN)"`
	LeaseTTL              time.Duration `yaml:"lease_ttl" help:"how long a dead node's sessions stay its own before another node takes them (same on every node)"`
	WorkDirRoot           string        `yaml:"work_dir_root" help:"root of the sessions' work directories, one tree per API key (default DATA_DIR/work, or under the user cache dir when DATA_DIR is inside a git checkout)"`
	CLIPath               string        `yaml:"cli_path" help:"the claude CLI (default: .tools/npm/node_modules/.bin/claude, then PATH)"`
	Namespace             string        `yaml:"namespace" help:"namespace of the deterministic session IDs"`
	AdminToken            string        `yaml:"admin_token" secret:"true" help:"secret that allows a scoped, audited firewall bypass"`
	IdleTimeout           time.Duration `yaml:"idle_timeout" help:"end idle CLI processes after this long"`
	TurnTimeout           time.Duration `yaml:"turn_timeout" help:"limit for one turn (0: none)"`
	ApprovalTimeout       time.Duration `yaml:"approval_timeout" help:"how long a tool use waits for a person's answer from any client"`
	ApprovalTimeoutAction string        `yaml:"approval_timeout_action" help:"what a tool use nobody answered in time gets: deny or allow"`
	Offline               string        `yaml:"offline" help:"built-in offline model: auto (without Anthropic credentials), always, never"`
	LogLevel              string        `yaml:"log_level" help:"debug, info, warn or error"`
	AllowedOrigins        []string      `yaml:"allowed_origins" help:"origins allowed to open browser connections"`
	RateLimit             float64       `yaml:"rate_limit" help:"requests per second allowed to each API key (0: no limit)"`
	RateBurst             int           `yaml:"rate_burst" help:"requests an API key may make at once beyond its rate"`
	AdminKeyFile          string        `yaml:"admin_key_file" help:"file holding an admin key's secret, created (mode 0600, with a new key) when missing; the key is printed at every start"`
	MaxResident           int           `yaml:"max_resident" help:"most sessions with a live CLI process; the least recently used idle one is hibernated beyond (0: no bound)"`
	MemoryBudget          int           `yaml:"memory_budget_mib" help:"most resident memory of all sessions' processes, in MiB (0: no budget)"`
	OwnerResident         int           `yaml:"per_owner_resident" help:"most sessions with a live process per API key (0: no quota)"`
	MaxStarts             int           `yaml:"max_concurrent_starts" help:"CLI starts and resumes at once (0: one per core)"`
	MaxQueued             int           `yaml:"max_queued_starts" help:"turns waiting for a start beyond which turns get 429 (0: 256 per concurrent start)"`
	StartQueueTimeout     time.Duration `yaml:"start_queue_timeout" help:"longest wait of a turn for room to start before it gets 429 (on a cluster: before its session tries another node; 0: the start timeout)"`
	Spares                int           `yaml:"spares" help:"prewarmed CLI processes kept parked for new conversations, per agent that can prewarm (0: none)"`
	ProviderSpares        spareCounts   `yaml:"spares_per_provider" help:"spares of one agent, overriding spares: AGENT=N, repeatable (YAML: a map; HOTPLEX_SPARES_PER_PROVIDER: claude=2,codex=1)"`
	ReadTimeout           time.Duration `yaml:"read_timeout" help:"longest wait for a request's headers and body"`
	WriteTimeout          time.Duration `yaml:"write_timeout" help:"longest time to answer a request (SSE streams, WebSockets and waiting OpenCode prompts are exempt)"`
	HTTPIdle              time.Duration `yaml:"http_idle_timeout" help:"close a keep-alive connection idle this long"`
	WSMaxRequests         int           `yaml:"ws_max_requests" help:"most execute and subscribe requests running at once on one WebSocket"`
	WSQueueBytes          int           `yaml:"ws_queue_bytes" help:"most bytes waiting to be sent to one WebSocket client; a slower client is dropped"`
	KeyCheck              time.Duration `yaml:"key_check_interval" help:"how often open streams look for their API key revoked or expired by another process"`
	Gateway               string        `yaml:"gateway" help:"model gateway: on (agents reach models through HotPlex with per-session tokens and never see the operator's keys) or off (agents inherit the daemon's environment, keys included)"`
	GatewayListen         string        `yaml:"gateway_listen" help:"loopback address of the model gateway agents call"`
	BudgetUSD             float64       `yaml:"budget_usd" help:"most one session may spend on model calls, in US dollars (0: no bound)"`
	KeyBudgetUSD          float64       `yaml:"key_budget_usd" help:"most the sessions of one API key may spend together, in US dollars (0: no bound)"`
	// Upstreams are the model APIs the gateway calls (anthropic, openai,
	// gemini: base_url, api_key); missing ones come from the daemon's
	// ANTHROPIC_*, OPENAI_* and GEMINI_* variables.
	Upstreams map[gateway.API]gateway.Upstream `yaml:"upstreams"`
	// Prices per million tokens by model, laid over the built-in table.
	Prices gateway.Prices `yaml:"prices"`
	// Permissions are the server's permission rules in Claude Code's
	// syntax, judged after the built-in firewall on every session's tool
	// uses; keys and sessions add their own (see guard.Policies).
	Permissions     permissionRules `yaml:"permissions"`
	PermissionsFile string          `yaml:"permissions_file" help:"a Claude Code settings file ({\"permissions\": {\"allow\", \"ask\", \"deny\"}}) whose rules join the server's permissions"`
	// Keys are API keys configured by their secrets (stored hashed).
	Keys []configKey `yaml:"keys"`
}

type configKey struct {
	Name   string `yaml:"name"`
	Secret string `yaml:"secret"`
	Admin  bool   `yaml:"admin"`
	// BudgetUSD overrides key_budget_usd for this key.
	BudgetUSD *float64 `yaml:"budget_usd"`
	// Upstreams are the key's own model keys: its sessions' calls are
	// made with them instead of the operator's.
	Upstreams map[gateway.API]gateway.Upstream `yaml:"upstreams"`
	// Permissions are the key's level of the permission rules, for the
	// sessions of this key only.
	Permissions permissionRules `yaml:"permissions"`
	// Hooks are the key's webhooks (url, secret "whsec_...", events,
	// description), stored at start next to those made through the API.
	Hooks []webhook.Spec `yaml:"hooks"`
}

func defaultServeConfig() serveConfig {
	return serveConfig{
		Listen: "127.0.0.1:8080", DataDir: ".hotplex", Namespace: "hotplex",
		IdleTimeout: 30 * time.Minute, Offline: "auto", LogLevel: "info", RateLimit: 20, RateBurst: 60,
		ReadTimeout: server.DefaultTimeouts.Read, WriteTimeout: server.DefaultTimeouts.Write, HTTPIdle: server.DefaultTimeouts.Idle,
		WSMaxRequests: server.DefaultWSLimits.MaxRequests, WSQueueBytes: server.DefaultWSLimits.QueueBytes, KeyCheck: server.DefaultKeyCheckInterval,
		Gateway: "on", GatewayListen: "127.0.0.1:0",
		ApprovalTimeout: 5 * time.Minute, ApprovalTimeoutAction: "deny",
	}
}

// flagFields maps each flag to the setting it sets.
var flagFields = []struct{ flag, field string }{
	{"listen", "Listen"}, {"data-dir", "DataDir"}, {"postgres", "Postgres"},
	{"nats", "NATS"}, {"node-id", "NodeID"}, {"advertise-url", "AdvertiseURL"}, {"lease-ttl", "LeaseTTL"}, {"work-dir-root", "WorkDirRoot"}, {"cli-path", "CLIPath"},
	{"namespace", "Namespace"}, {"idle-timeout", "IdleTimeout"}, {"turn-timeout", "TurnTimeout"},
	{"approval-timeout", "ApprovalTimeout"}, {"approval-timeout-action", "ApprovalTimeoutAction"},
	{"offline", "Offline"}, {"log-level", "LogLevel"}, {"allowed-origins", "AllowedOrigins"},
	{"rate-limit", "RateLimit"}, {"rate-burst", "RateBurst"}, {"admin-key-file", "AdminKeyFile"},
	{"max-resident", "MaxResident"}, {"memory-budget-mib", "MemoryBudget"}, {"per-owner-resident", "OwnerResident"},
	{"max-concurrent-starts", "MaxStarts"}, {"max-queued-starts", "MaxQueued"}, {"start-queue-timeout", "StartQueueTimeout"}, {"spares", "Spares"}, {"spare", "ProviderSpares"},
	{"read-timeout", "ReadTimeout"}, {"write-timeout", "WriteTimeout"}, {"http-idle-timeout", "HTTPIdle"},
	{"ws-max-requests", "WSMaxRequests"}, {"ws-queue-bytes", "WSQueueBytes"}, {"key-check-interval", "KeyCheck"},
	{"gateway", "Gateway"}, {"gateway-listen", "GatewayListen"}, {"budget-usd", "BudgetUSD"}, {"key-budget-usd", "KeyBudgetUSD"},
	{"permissions-file", "PermissionsFile"},
}

// register binds the scalar settings to flags.
func (c *serveConfig) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&c.Listen, "listen", c.Listen, fieldHelp("Listen"))
	fl.StringVar(&c.DataDir, "data-dir", c.DataDir, fieldHelp("DataDir"))
	fl.StringVar(&c.Postgres, "postgres", c.Postgres, fieldHelp("Postgres"))
	fl.StringVar(&c.NATS, "nats", c.NATS, fieldHelp("NATS"))
	fl.StringVar(&c.NodeID, "node-id", c.NodeID, fieldHelp("NodeID"))
	fl.StringVar(&c.AdvertiseURL, "advertise-url", c.AdvertiseURL, fieldHelp("AdvertiseURL"))
	fl.DurationVar(&c.LeaseTTL, "lease-ttl", c.LeaseTTL, fieldHelp("LeaseTTL"))
	fl.StringVar(&c.WorkDirRoot, "work-dir-root", c.WorkDirRoot, fieldHelp("WorkDirRoot"))
	fl.StringVar(&c.CLIPath, "cli-path", c.CLIPath, fieldHelp("CLIPath"))
	fl.StringVar(&c.Namespace, "namespace", c.Namespace, fieldHelp("Namespace"))
	fl.DurationVar(&c.IdleTimeout, "idle-timeout", c.IdleTimeout, fieldHelp("IdleTimeout"))
	fl.DurationVar(&c.TurnTimeout, "turn-timeout", c.TurnTimeout, fieldHelp("TurnTimeout"))
	fl.DurationVar(&c.ApprovalTimeout, "approval-timeout", c.ApprovalTimeout, fieldHelp("ApprovalTimeout"))
	fl.StringVar(&c.ApprovalTimeoutAction, "approval-timeout-action", c.ApprovalTimeoutAction, fieldHelp("ApprovalTimeoutAction"))
	fl.StringVar(&c.Offline, "offline", c.Offline, fieldHelp("Offline"))
	fl.StringVar(&c.LogLevel, "log-level", c.LogLevel, fieldHelp("LogLevel"))
	fl.StringSliceVar(&c.AllowedOrigins, "allowed-origins", c.AllowedOrigins, fieldHelp("AllowedOrigins"))
	fl.Float64Var(&c.RateLimit, "rate-limit", c.RateLimit, fieldHelp("RateLimit"))
	fl.IntVar(&c.RateBurst, "rate-burst", c.RateBurst, fieldHelp("RateBurst"))
	fl.StringVar(&c.AdminKeyFile, "admin-key-file", c.AdminKeyFile, fieldHelp("AdminKeyFile"))
	fl.IntVar(&c.MaxResident, "max-resident", c.MaxResident, fieldHelp("MaxResident"))
	fl.IntVar(&c.MemoryBudget, "memory-budget-mib", c.MemoryBudget, fieldHelp("MemoryBudget"))
	fl.IntVar(&c.OwnerResident, "per-owner-resident", c.OwnerResident, fieldHelp("OwnerResident"))
	fl.IntVar(&c.MaxStarts, "max-concurrent-starts", c.MaxStarts, fieldHelp("MaxStarts"))
	fl.IntVar(&c.MaxQueued, "max-queued-starts", c.MaxQueued, fieldHelp("MaxQueued"))
	fl.DurationVar(&c.StartQueueTimeout, "start-queue-timeout", c.StartQueueTimeout, fieldHelp("StartQueueTimeout"))
	fl.IntVar(&c.Spares, "spares", c.Spares, fieldHelp("Spares"))
	fl.Var(&c.ProviderSpares, "spare", fieldHelp("ProviderSpares"))
	fl.DurationVar(&c.ReadTimeout, "read-timeout", c.ReadTimeout, fieldHelp("ReadTimeout"))
	fl.DurationVar(&c.WriteTimeout, "write-timeout", c.WriteTimeout, fieldHelp("WriteTimeout"))
	fl.DurationVar(&c.HTTPIdle, "http-idle-timeout", c.HTTPIdle, fieldHelp("HTTPIdle"))
	fl.IntVar(&c.WSMaxRequests, "ws-max-requests", c.WSMaxRequests, fieldHelp("WSMaxRequests"))
	fl.IntVar(&c.WSQueueBytes, "ws-queue-bytes", c.WSQueueBytes, fieldHelp("WSQueueBytes"))
	fl.DurationVar(&c.KeyCheck, "key-check-interval", c.KeyCheck, fieldHelp("KeyCheck"))
	fl.StringVar(&c.Gateway, "gateway", c.Gateway, fieldHelp("Gateway"))
	fl.StringVar(&c.GatewayListen, "gateway-listen", c.GatewayListen, fieldHelp("GatewayListen"))
	fl.Float64Var(&c.BudgetUSD, "budget-usd", c.BudgetUSD, fieldHelp("BudgetUSD"))
	fl.Float64Var(&c.KeyBudgetUSD, "key-budget-usd", c.KeyBudgetUSD, fieldHelp("KeyBudgetUSD"))
	fl.StringVar(&c.PermissionsFile, "permissions-file", c.PermissionsFile, fieldHelp("PermissionsFile"))
}

func fieldHelp(name string) string {
	f, _ := reflect.TypeFor[serveConfig]().FieldByName(name)
	return f.Tag.Get("help")
}

// loadServeConfig builds the configuration: defaults, then the file, then
// the environment, then the flags the user set (parsed into flagged).
func loadServeConfig(cmd *cobra.Command, flagged *serveConfig, path string, getenv func(string) string) (serveConfig, error) {
	cfg := defaultServeConfig()
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return cfg, fmt.Errorf("config: %w", err)
		}
		dec := yaml.NewDecoder(strings.NewReader(string(b)))
		dec.KnownFields(true)
		if err := dec.Decode(&cfg); err != nil && err != io.EOF {
			return cfg, fmt.Errorf("config %s: %w", path, err)
		}
	}
	if err := applyEnv(&cfg, getenv); err != nil {
		return cfg, err
	}
	dst, src := reflect.ValueOf(&cfg).Elem(), reflect.ValueOf(flagged).Elem()
	for _, ff := range flagFields {
		if cmd.Flags().Changed(ff.flag) {
			dst.FieldByName(ff.field).Set(src.FieldByName(ff.field))
		}
	}
	return cfg, cfg.finish()
}

// spareCounts are spare counts per agent name: a YAML map, and a flag
// given once per agent as NAME=N.
type spareCounts map[string]int

// Set parses one NAME=N, replacing an earlier count for NAME.
func (sc *spareCounts) Set(kv string) error {
	name, n, ok := strings.Cut(strings.TrimSpace(kv), "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("%q is not AGENT=N", kv)
	}
	count, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil || count < 0 {
		return fmt.Errorf("%q: the count must be a whole number, 0 or more", kv)
	}
	if *sc == nil {
		*sc = spareCounts{}
	}
	(*sc)[name] = count
	return nil
}

func (sc *spareCounts) String() string {
	if sc == nil || len(*sc) == 0 {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(*sc)) {
		parts = append(parts, k+"="+strconv.Itoa((*sc)[k]))
	}
	return strings.Join(parts, ",")
}

func (sc *spareCounts) Type() string { return "AGENT=N" }

// applyEnv reads HOTPLEX_<YAML NAME> for every scalar setting.
func applyEnv(cfg *serveConfig, getenv func(string) string) error {
	v := reflect.ValueOf(cfg).Elem()
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name := f.Tag.Get("yaml")
		if name == "" || name == "keys" || name == "permissions" {
			continue
		}
		raw := getenv("HOTPLEX_" + strings.ToUpper(name))
		if raw == "" {
			continue
		}
		fv := v.Field(i)
		switch fv.Interface().(type) {
		case spareCounts:
			var sc spareCounts
			for _, kv := range strings.Split(raw, ",") {
				if err := sc.Set(kv); err != nil {
					return fmt.Errorf("HOTPLEX_%s: %w", strings.ToUpper(name), err)
				}
			}
			fv.Set(reflect.ValueOf(sc))
		case string:
			fv.SetString(raw)
		case time.Duration:
			d, err := time.ParseDuration(raw)
			if err != nil {
				return fmt.Errorf("HOTPLEX_%s: %w", strings.ToUpper(name), err)
			}
			fv.SetInt(int64(d))
		case []string:
			fv.Set(reflect.ValueOf(strings.Split(raw, ",")))
		case float64:
			f, err := strconv.ParseFloat(raw, 64)
			if err != nil {
				return fmt.Errorf("HOTPLEX_%s: %w", strings.ToUpper(name), err)
			}
			fv.SetFloat(f)
		case int:
			n, err := strconv.Atoi(raw)
			if err != nil {
				return fmt.Errorf("HOTPLEX_%s: %w", strings.ToUpper(name), err)
			}
			fv.SetInt(int64(n))
		case bool:
			b, err := strconv.ParseBool(raw)
			if err != nil {
				return fmt.Errorf("HOTPLEX_%s: %w", strings.ToUpper(name), err)
			}
			fv.SetBool(b)
		}
	}
	return nil
}

// String prints the settings for the start-up log, secrets masked.
func (c serveConfig) String() string {
	var b strings.Builder
	v := reflect.ValueOf(c)
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		val := fmt.Sprint(v.Field(i).Interface())
		switch {
		case f.Name == "Keys":
			names := make([]string, 0, len(c.Keys))
			for _, k := range c.Keys {
				role := "user"
				if k.Admin {
					role = "admin"
				}
				extra := ""
				if k.BudgetUSD != nil {
					extra += fmt.Sprintf(", budget $%g", *k.BudgetUSD)
				}
				if len(k.Upstreams) > 0 {
					extra += ", own model keys " + maskUpstreams(k.Upstreams)
				}
				if !k.Permissions.empty() {
					extra += ", permissions " + k.Permissions.String()
				}
				if len(k.Hooks) > 0 {
					// Not their URLs: some receivers take a token in theirs.
					extra += fmt.Sprintf(", %d webhooks", len(k.Hooks))
				}
				names = append(names, k.Name+"("+role+", secret ****"+extra+")")
			}
			val = "[" + strings.Join(names, " ") + "]"
		case f.Name == "Upstreams":
			val = maskUpstreams(c.Upstreams)
		case f.Name == "Permissions":
			val = c.Permissions.String()
		case f.Name == "Postgres":
			val = redactDSN(c.Postgres)
		case f.Name == "Prices":
			val = fmt.Sprintf("%d models over the built-in table", len(c.Prices))
		case f.Tag.Get("secret") == "true" && val != "":
			val = "****"
		}
		fmt.Fprintf(&b, "  %-16s %s\n", f.Tag.Get("yaml"), val)
	}
	fmt.Fprintf(&b, "  %-16s %s\n", "store", c.storeName())
	return b.String()
}

// storeName says where the daemon keeps its state, any password hidden.
func (c serveConfig) storeName() string {
	if c.Postgres != "" {
		return "PostgreSQL " + redactDSN(c.Postgres)
	}
	return "SQLite " + c.sqlitePath()
}

// sqlitePath is the database file of a daemon without PostgreSQL.
func (c serveConfig) sqlitePath() string { return filepath.Join(c.DataDir, "hotplex.db") }

// dsnPassword finds the password of a key=value connection string.
var dsnPassword = regexp.MustCompile(`(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)`)

// redactDSN hides the password of a PostgreSQL connection string, a URL
// (user:password@, ?password=) or key=value pairs; a URL it cannot parse
// is not shown at all.
func redactDSN(dsn string) string {
	if dsn == "" {
		return ""
	}
	if !strings.Contains(dsn, "://") {
		return dsnPassword.ReplaceAllString(dsn, "${1}****")
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "(a connection URL that does not parse)"
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "****")
		u.RawQuery = strings.ReplaceAll(q.Encode(), "%2A", "*")
	}
	if _, ok := u.User.Password(); ok {
		// Written by hand: url.UserPassword would escape the stars.
		user := url.User(u.User.Username()).String()
		u.User = nil
		rest, _ := strings.CutPrefix(u.String(), u.Scheme+"://")
		return u.Scheme + "://" + user + ":****@" + rest
	}
	return u.String()
}

func (c *serveConfig) finish() error {
	dataDir, err := filepath.Abs(c.DataDir)
	if err != nil {
		return err
	}
	c.DataDir = dataDir
	if c.WorkDirRoot == "" {
		c.WorkDirRoot, _ = defaultWorkDirRoot(c.DataDir)
	}
	if c.WorkDirRoot, err = filepath.Abs(c.WorkDirRoot); err != nil {
		return err
	}
	for _, k := range c.Keys {
		if k.Name == "" || len(k.Secret) < 16 {
			return fmt.Errorf("config: every key needs a name and a secret of at least 16 characters")
		}
		if err := checkUpstreams("key "+k.Name, k.Upstreams); err != nil {
			return err
		}
		for i, h := range k.Hooks {
			if h.Secret == "" {
				return fmt.Errorf("config: key %s: hook %d needs a secret (whsec_ and the base64 of 24 to 64 random bytes)", k.Name, i+1)
			}
			if err := h.Check(); err != nil {
				return fmt.Errorf("config: key %s: hook %d: %w", k.Name, i+1, err)
			}
		}
	}
	switch c.Gateway {
	case "on", "off":
	default:
		return fmt.Errorf("config: gateway must be on or off, not %q", c.Gateway)
	}
	switch c.ApprovalTimeoutAction {
	case "deny", "allow":
	default:
		return fmt.Errorf("config: approval_timeout_action must be deny or allow, not %q", c.ApprovalTimeoutAction)
	}
	if c.ApprovalTimeout < 0 {
		return fmt.Errorf("config: approval_timeout cannot be negative")
	}
	if c.Spares < 0 {
		return fmt.Errorf("config: spares cannot be negative")
	}
	for name, n := range c.ProviderSpares {
		if n < 0 {
			return fmt.Errorf("config: spares_per_provider: %s cannot be negative", name)
		}
	}
	if c.BudgetUSD < 0 || c.KeyBudgetUSD < 0 {
		return fmt.Errorf("config: budgets cannot be negative")
	}
	if c.PermissionsFile != "" {
		if c.PermissionsFile, err = filepath.Abs(c.PermissionsFile); err != nil {
			return err
		}
	}
	if _, err := c.policies(); err != nil {
		return err
	}
	return checkUpstreams("upstreams", c.Upstreams)
}

// checkUpstreams refuses APIs the gateway does not forward, so that a typo
// does not silently send a tenant's calls with the operator's key.
func checkUpstreams(where string, ups map[gateway.API]gateway.Upstream) error {
	for a := range ups {
		if !slices.Contains(gateway.APIs, a) {
			return fmt.Errorf("config: %s: unknown model API %q (known: anthropic, openai, gemini)", where, a)
		}
	}
	return nil
}

// maskUpstreams prints upstreams with their keys hidden.
func maskUpstreams(ups map[gateway.API]gateway.Upstream) string {
	var parts []string
	for _, a := range gateway.APIs {
		if u, ok := ups[a]; ok {
			key := ""
			if u.APIKey != "" {
				key = " key ****"
			}
			parts = append(parts, string(a)+"("+u.BaseURL+key+")")
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// daemonConfig is the daemon these settings describe, short of what serve
// adds at start: the store, the log, the agents and their environment,
// and the gateway's upstreams completed from the environment.
func (c serveConfig) daemonConfig() (daemon.Config, error) {
	pols, err := c.policies()
	if err != nil {
		return daemon.Config{}, err
	}
	dc := daemon.Config{
		WorkDirRoot: c.WorkDirRoot, ProtectedPaths: protectedPaths(c),
		Namespace: c.Namespace, TurnTimeout: c.TurnTimeout, IdleTimeout: c.IdleTimeout, AdminToken: c.AdminToken,
		ApprovalTimeout: c.ApprovalTimeout, AllowOnApprovalTimeout: c.ApprovalTimeoutAction == "allow",
		Policy: pols.server,
		Capacity: daemon.Capacity{MaxResident: c.MaxResident, MemoryBudget: int64(c.MemoryBudget) << 20, PerOwnerResident: c.OwnerResident,
			MaxConcurrentStarts: c.MaxStarts, MaxQueuedStarts: c.MaxQueued, StartQueueTimeout: c.StartQueueTimeout, Spares: c.Spares, ProviderSpares: c.ProviderSpares},
		Web: web.Assets(), AllowedOrigins: c.AllowedOrigins,
		RateLimit:        server.RateLimit{PerSecond: c.RateLimit, Burst: c.RateBurst},
		Timeouts:         server.Timeouts{Read: c.ReadTimeout, Write: c.WriteTimeout, Idle: c.HTTPIdle},
		WS:               server.WSLimits{MaxRequests: c.WSMaxRequests, QueueBytes: c.WSQueueBytes},
		KeyCheckInterval: c.KeyCheck,
	}
	for _, k := range c.Keys {
		id := configKeyID(k.Name)
		dc.Keys = append(dc.Keys, daemon.Key{ID: id, Name: k.Name, Secret: k.Secret, Admin: k.Admin,
			BudgetUSD: k.BudgetUSD, Upstreams: k.Upstreams, Policy: pols.keys[id], Hooks: k.Hooks})
	}
	if c.NATS != "" {
		if c.Postgres == "" {
			return daemon.Config{}, errors.New("config: a cluster node (nats) stores in the PostgreSQL database the nodes share: set postgres")
		}
		node := c.NodeID
		if node == "" {
			host, err := os.Hostname()
			if err != nil {
				return daemon.Config{}, fmt.Errorf("config: node_id: %w", err)
			}
			node = host
		}
		url := c.AdvertiseURL
		if url == "" {
			url = "http://" + c.Listen
		}
		dc.Cluster = &daemon.ClusterConfig{NodeID: node, NATS: c.NATS, LeaseTTL: c.LeaseTTL, URL: url, Version: programVersion()}
	}
	if c.Gateway == "on" {
		dc.Gateway = &daemon.GatewayConfig{Listen: c.GatewayListen, Prices: c.Prices,
			SessionBudgetUSD: c.BudgetUSD, OwnerBudgetUSD: c.KeyBudgetUSD}
	}
	return dc, nil
}

// programVersion is the module version the binary was built from, with
// its VCS revision when the build recorded one.
func programVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}
