package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/hotplex/hotplex/agents"
	"github.com/hotplex/hotplex/daemon"
	"github.com/hotplex/hotplex/gateway"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/postgres"
	"github.com/hotplex/hotplex/store/sqlite"
)

func newServeCmd() *cobra.Command {
	flagged := defaultServeConfig()
	var configPath string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the HotPlex daemon: HTTP API with SSE streams, SQLite or PostgreSQL persistence",
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

// serve runs the daemon cfg describes until ctx ends; the daemon package
// shuts it down in order, and the database closes last.
func serve(ctx context.Context, cfg serveConfig, stdout, stderr io.Writer) error {
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: logLevel(cfg.LogLevel)}))
	fmt.Fprintf(stdout, "HotPlex daemon settings:\n%s", cfg)
	fmt.Fprint(stdout, workRootNote(cfg))
	return withDaemon(ctx, cfg, stdout, stdout, log, func(d *daemon.Daemon, st store.Store, adminKey string) error {
		ln, err := net.Listen("tcp", cfg.Listen)
		if err != nil {
			return fmt.Errorf("listen %s: %w", cfg.Listen, err)
		}
		n := d.Restored()
		fmt.Fprintf(stdout, "HotPlex is serving on http://%s (%d sessions restored)\n", ln.Addr(), n)
		if adminKey != "" {
			id, err := demoSessionID(ctx, st)
			if err != nil {
				_ = ln.Close()
				return err
			}
			printTryIt(stdout, "http://"+ln.Addr().String(), adminKey, id)
		}
		log.Info("serving", "addr", ln.Addr().String(), "restored_sessions", n)
		return d.Serve(ctx, ln)
	})
}

// withDaemon builds the daemon cfg describes, with its store and, without
// model credentials, the built-in offline model, and runs use with it
// (adminKey is the key of cfg.AdminKeyFile, "" without one); then it
// stops them in order: the daemon, the offline model, the database.
// stdout receives what an operator reads, keyOut the admin key's secret.
func withDaemon(ctx context.Context, cfg serveConfig, stdout, keyOut io.Writer, log *slog.Logger, use func(d *daemon.Daemon, st store.Store, adminKey string) error) error {
	st, err := openStore(ctx, cfg.Postgres, cfg.sqlitePath(), log)
	if err != nil {
		return err
	}
	defer st.Close()
	var adminKey string
	if cfg.AdminKeyFile != "" {
		if adminKey, err = adminKeyFromFile(ctx, st, cfg.AdminKeyFile, keyOut); err != nil {
			return err
		}
	}

	dc, err := cfg.daemonConfig()
	if err != nil {
		return err
	}
	dc.Store, dc.Logger, dc.Out = st, log, stdout
	offline := cfg.Offline == "always" || (cfg.Offline == "auto" && !hasCredentials())
	offlineURL := ""
	if offline {
		m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Demo())
		if err != nil {
			return err
		}
		// Deferred before the daemon's Close: it stops after the gateway.
		defer m.Close()
		dc.Env, offlineURL = offlineEnv(m.URL()), m.URL()
		fmt.Fprintf(stdout, "No Anthropic credentials: agents talk to the built-in offline model at %s\n", m.URL())
	}
	if dc.Gateway != nil {
		dc.Gateway.Upstreams = upstreamsFor(cfg.Upstreams, offlineURL, os.Getenv)
		if up := dc.Gateway.Upstreams[gateway.Anthropic]; up.APIKey == "" && offlineURL == "" {
			log.Warn("the model gateway has no Anthropic key: set ANTHROPIC_API_KEY or upstreams.anthropic.api_key")
		}
		if err := hideSecretsFromAgents(); err != nil {
			log.Warn("cannot make the daemon non-dumpable; agents of the same user may read its environment", "err", err)
		}
	}
	sf := sessionFlags{provider: "claude", cliPath: cfg.CLIPath, offline: cfg.Offline}
	cli, cliErr := sf.resolveCLI()
	dc.Agents = func(env []string) (provider.Provider, []provider.Provider, error) {
		return serveAgents(cli, cliErr, env, log, stdout)
	}
	log.Info("starting", "cli", cli)

	d, err := daemon.New(ctx, dc)
	if err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := d.Close(cctx); err != nil {
			log.Error("shutting down", "err", err)
		}
	}()
	return use(d, st, adminKey)
}

// openStore opens the daemon's store: the PostgreSQL database at dsn, or
// without one, the SQLite file at path.
func openStore(ctx context.Context, dsn, path string, log *slog.Logger) (store.Database, error) {
	if dsn != "" {
		return postgres.Open(ctx, dsn, postgres.WithLogger(log))
	}
	return sqlite.Open(ctx, path, sqlite.WithLogger(log))
}

// serveAgents chooses the daemon's agents from env: Claude Code is the
// default; without it the daemon still serves the agents it can run, the
// first of them the default.
func serveAgents(cli string, cliErr error, env []string, log *slog.Logger, stdout io.Writer) (provider.Provider, []provider.Provider, error) {
	others := agents.Providers(agents.Config{Env: env}, "claude")
	switch {
	case cliErr == nil:
		return claude.New(claude.Options{Path: cli}), others, nil
	case len(others) > 0:
		def := others[0]
		log.Warn("claude CLI unavailable; serving the other agents", "err", cliErr, "default", def.Name())
		fmt.Fprintf(stdout, "Claude Code is not available (%v): the default agent is %s\n", cliErr, def.Name())
		return def, others[1:], nil
	default:
		return nil, nil, cliErr
	}
}

func newKeysCmd() *cobra.Command {
	var dataDir, dsn string
	open := func(ctx context.Context) (store.Database, error) {
		if dsn == "" {
			// Read here, not as the flag's default: help would print it,
			// password and all.
			dsn = os.Getenv("HOTPLEX_POSTGRES")
		}
		return openStore(ctx, dsn, filepath.Join(dataDir, "hotplex.db"), slog.Default())
	}
	cmd := &cobra.Command{Use: "keys", Short: "Manage the daemon's API keys"}
	cmd.PersistentFlags().StringVar(&dataDir, "data-dir", ".hotplex", "the daemon's data directory")
	cmd.PersistentFlags().StringVar(&dsn, "postgres", "", "the daemon's PostgreSQL connection URL, if it stores there (default $HOTPLEX_POSTGRES)")
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
