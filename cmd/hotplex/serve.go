package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/hotplex/hotplex/agents"
	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/sqlite"
	"github.com/hotplex/hotplex/web"
)

func newServeCmd() *cobra.Command {
	flagged := defaultServeConfig()
	var configPath string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the HotPlex daemon: HTTP API with SSE streams, SQLite persistence",
		Long: `Run the HotPlex daemon.

Settings come from, in rising precedence: defaults, the YAML file (--config),
HOTPLEX_* environment variables (HOTPLEX_LISTEN, HOTPLEX_DATA_DIR, ...), and
flags. Every endpoint except /healthz and /readyz needs an API key; when the database
holds none, an admin key is created and printed once.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadServeConfig(cmd, &flagged, configPath, os.Getenv)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return serve(ctx, cfg, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	flagged.register(cmd)
	cmd.Flags().StringVar(&configPath, "config", "", "YAML configuration file")
	return cmd
}

func logLevel(s string) slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return slog.LevelInfo
	}
	return l
}

// serve runs the daemon until ctx ends, then shuts it down in order:
// stop accepting, interrupt running turns, end every process group, write
// what is queued, close the database.
func serve(ctx context.Context, cfg serveConfig, stdout, stderr io.Writer) error {
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: logLevel(cfg.LogLevel)}))
	fmt.Fprintf(stdout, "HotPlex daemon settings:\n%s", cfg)
	fmt.Fprint(stdout, workRootNote(cfg))

	if err := os.MkdirAll(cfg.WorkDirRoot, 0o750); err != nil {
		return fmt.Errorf("work directory root: %w", err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(cfg.DataDir, "hotplex.db"), sqlite.WithLogger(log))
	if err != nil {
		return err
	}
	defer st.Close()
	var adminKey string
	if cfg.AdminKeyFile != "" {
		if adminKey, err = adminKeyFromFile(ctx, st, cfg.AdminKeyFile, stdout); err != nil {
			return err
		}
	}
	if err := ensureKeys(ctx, st, cfg.Keys, stdout); err != nil {
		return err
	}

	sf := sessionFlags{provider: "claude", cliPath: cfg.CLIPath, offline: cfg.Offline}
	cli, cliErr := sf.resolveCLI()
	var env []string
	offlineURL := ""
	offline := cfg.Offline == "always" || (cfg.Offline == "auto" && !hasCredentials())
	if offline {
		m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Demo())
		if err != nil {
			return err
		}
		defer m.Close()
		env, offlineURL = offlineEnv(m.URL()), m.URL()
		fmt.Fprintf(stdout, "No Anthropic credentials: agents talk to the built-in offline model at %s\n", m.URL())
	}
	// Agents reach their models through the gateway, which alone holds
	// the keys; it stops after the engine (deferred earlier, runs later).
	gw, err := startGateway(ctx, cfg, st, offlineURL, os.Getenv, log, stdout)
	if err != nil {
		return err
	}
	defer gw.close(log)

	// A small ring: replay beyond it comes from the store, and every
	// session keeps one.
	h := hub.New(hub.Options{Ring: 128})
	defer h.Close()
	rec := server.NewRecorder(st, h, log)
	defer rec.Close()
	approvals := server.NewApprovals(0)
	metrics := server.NewMetrics()
	// Claude Code is the default agent; without it the daemon still serves
	// the agents it can run, the first of them the default.
	others := agents.Providers(agents.Config{Env: gw.agentsEnv(env)}, "claude")
	var def provider.Provider
	switch {
	case cliErr == nil:
		def = claude.New(claude.Options{Path: cli})
	case len(others) > 0:
		def, others = others[0], others[1:]
		log.Warn("claude CLI unavailable; serving the other agents", "err", cliErr, "default", def.Name())
		fmt.Fprintf(stdout, "Claude Code is not available (%v): the default agent is %s\n", cliErr, def.Name())
	default:
		return cliErr
	}
	pols, err := cfg.policies()
	if err != nil {
		return err
	}
	eng, err := engine.NewEngine(engine.EngineOptions{
		PermissionHandler: approvals.Handle, PermissionAnnounce: approvals.Announce,
		Timeout: cfg.TurnTimeout, IdleTimeout: cfg.IdleTimeout, Logger: log, Namespace: cfg.Namespace,
		AdminToken: cfg.AdminToken, Provider: def, Env: env, Credentials: gw.credentials(),
		Providers:   others,
		WorkDirRoot: cfg.WorkDirRoot, Events: server.Sinks{metrics, rec},
		MaxResident: cfg.MaxResident, MemoryBudget: int64(cfg.MemoryBudget) << 20, PerOwnerResident: cfg.OwnerResident,
		MaxConcurrentStarts: cfg.MaxStarts, MaxQueuedStarts: cfg.MaxQueued, Spares: cfg.Spares,
		Policy: pols.server, KeyPolicy: pols.keyPolicy(), ProtectedPaths: protectedPaths(cfg),
	})
	if err != nil {
		return err
	}
	defer eng.Close()
	gw.attach(eng)
	srv := server.New(server.Options{Engine: eng, Hub: h, Store: gw.sessions(st), Usage: gw.usage(), Recorder: rec, Approvals: approvals, Metrics: metrics, Logger: log,
		WorkDirRoot: cfg.WorkDirRoot, AllowedOrigins: cfg.AllowedOrigins, Web: web.Assets(),
		RateLimit: server.RateLimit{PerSecond: cfg.RateLimit, Burst: cfg.RateBurst},
		Timeouts:  server.Timeouts{Read: cfg.ReadTimeout, Write: cfg.WriteTimeout, Idle: cfg.HTTPIdle},
		WS:        server.WSLimits{MaxRequests: cfg.WSMaxRequests, QueueBytes: cfg.WSQueueBytes}, KeyCheckInterval: cfg.KeyCheck})
	n, err := srv.Restore(ctx)
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen %s: %w", cfg.Listen, err)
	}
	hs := srv.HTTPServer()
	fmt.Fprintf(stdout, "HotPlex is serving on http://%s (%d sessions restored)\n", ln.Addr(), n)
	if adminKey != "" {
		id, err := demoSessionID(ctx, st)
		if err != nil {
			_ = ln.Close()
			return err
		}
		printTryIt(stdout, "http://"+ln.Addr().String(), adminKey, id)
	}
	log.Info("serving", "addr", ln.Addr().String(), "restored_sessions", n, "cli", cli)

	serveErr := make(chan error, 1)
	go func() { serveErr <- hs.Serve(ln) }()
	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// Open streams end when their turns do; the turns are interrupted.
	go func() { _ = srv.Shutdown(shutCtx) }()
	if err := hs.Shutdown(shutCtx); err != nil {
		_ = hs.Close()
	}
	_ = srv.Shutdown(shutCtx)
	if err := <-serveErr; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// ensureKeys stores the configured keys and, when the database has no key
// at all, creates an admin key and prints its secret once.
func ensureKeys(ctx context.Context, st store.Store, keys []configKey, out io.Writer) error {
	for _, k := range keys {
		if err := st.PutAPIKey(ctx, store.APIKey{ID: configKeyID(k.Name), Name: k.Name, Hash: store.HashKey(k.Secret), Admin: k.Admin}); err != nil {
			return err
		}
	}
	all, err := st.ListAPIKeys(ctx)
	if err != nil {
		return err
	}
	for _, k := range all {
		if k.RevokedAt == nil {
			return nil
		}
	}
	id, secret, err := store.NewKeySecret()
	if err != nil {
		return err
	}
	if err := st.PutAPIKey(ctx, store.APIKey{ID: id, Name: "first admin", Hash: store.HashKey(secret), Admin: true}); err != nil {
		return err
	}
	fmt.Fprintf(out, "Created an admin API key (shown only now; use it as Authorization: Bearer <key>):\n  %s\n", secret)
	return nil
}

func newKeysCmd() *cobra.Command {
	var dataDir string
	open := func(ctx context.Context) (*sqlite.DB, error) {
		return sqlite.Open(ctx, filepath.Join(dataDir, "hotplex.db"))
	}
	cmd := &cobra.Command{Use: "keys", Short: "Manage the daemon's API keys"}
	cmd.PersistentFlags().StringVar(&dataDir, "data-dir", ".hotplex", "the daemon's data directory")
	var name string
	var admin bool
	var expires time.Duration
	create := &cobra.Command{
		Use: "create", Short: "Create an API key and print its secret (shown only once)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := open(cmd.Context())
			if err != nil {
				return err
			}
			defer st.Close()
			id, secret, err := store.NewKeySecret()
			if err != nil {
				return err
			}
			k := store.APIKey{ID: id, Name: name, Hash: store.HashKey(secret), Admin: admin}
			if expires < 0 {
				return fmt.Errorf("--expires must be positive")
			}
			if expires > 0 {
				at := time.Now().Add(expires)
				k.ExpiresAt = &at
			}
			if err := st.PutAPIKey(cmd.Context(), k); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "id:     %s\nsecret: %s\n", id, secret)
			return nil
		},
	}
	create.Flags().StringVar(&name, "name", "", "a label for the key")
	create.Flags().BoolVar(&admin, "admin", false, "the key may see and end every session")
	create.Flags().DurationVar(&expires, "expires", 0, "the key stops working after this long (0: never); a running daemon ends its open streams then")
	list := &cobra.Command{
		Use: "list", Short: "List API keys (never their secrets)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := open(cmd.Context())
			if err != nil {
				return err
			}
			defer st.Close()
			keys, err := st.ListAPIKeys(cmd.Context())
			if err != nil {
				return err
			}
			for _, k := range keys {
				state := "active"
				switch {
				case k.RevokedAt != nil:
					state = "revoked"
				case !k.Valid(time.Now()):
					state = "expired"
				case k.ExpiresAt != nil:
					state = "active until " + k.ExpiresAt.Format(time.RFC3339)
				}
				role := "user"
				if k.Admin {
					role = "admin"
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s\t%s\t%s\t%s\t%s\n", k.ID, role, state, k.CreatedAt.Format(time.RFC3339), strings.TrimSpace(k.Name))
			}
			return nil
		},
	}
	revoke := &cobra.Command{
		Use: "revoke ID", Short: "Revoke an API key", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := open(cmd.Context())
			if err != nil {
				return err
			}
			defer st.Close()
			return st.RevokeAPIKey(cmd.Context(), args[0])
		},
	}
	cmd.AddCommand(create, list, revoke)
	return cmd
}
