package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/hotplex/hotplex/acp"
	"github.com/hotplex/hotplex/client"
	"github.com/hotplex/hotplex/daemon"
	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/store"
)

func newACPCmd() *cobra.Command {
	flagged := defaultServeConfig()
	var configPath, connect, key, providerName, approval, permissions string
	cmd := &cobra.Command{
		Use:   "acp",
		Short: "Serve HotPlex to an editor as an Agent Client Protocol agent over stdio",
		Long: `Speak the Agent Client Protocol on stdin/stdout, as an agent an editor (Zed,
JetBrains, Neovim plugins) starts: each editor conversation is a HotPlex
session on a pooled agent (--provider), behind the firewall, persisted, with
the editor asked about the tool uses that wait for a person (--approval ask:
every tool use). The editor's working directory is the session's work
directory, which must lie in the key's tree of work directories; the
editor's MCP servers go to the session's agent (a stdio one needs an admin
key, as the embedded daemon's is).

With --connect URL the agent calls the daemon at URL with --key (default
$HOTPLEX_API_KEY), so the conversations live in that daemon, listed and
followed in its web UI. Without it, a daemon runs inside this process on the
data directory (the settings of serve apply), with the admin key kept in
<data-dir>/admin.key unless --admin-key-file names another; do not point it
at the data directory of a daemon that is running.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if approval != "" && approval != "auto" && approval != "ask" {
				return fmt.Errorf(`--approval must be "auto" or "ask", not %q`, approval)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			in, out := cmd.InOrStdin(), cmd.OutOrStdout()
			o := acp.Options{Provider: providerName, Approval: approval}
			if permissions != "" {
				b, err := os.ReadFile(permissions)
				if err != nil {
					return fmt.Errorf("--permissions: %w", err)
				}
				if !json.Valid(b) {
					return fmt.Errorf("--permissions %s: not JSON", permissions)
				}
				o.Permissions = b
			}
			if connect != "" {
				if key == "" {
					key = os.Getenv("HOTPLEX_API_KEY")
				}
				if key == "" {
					return fmt.Errorf("--connect needs an API key: --key or HOTPLEX_API_KEY")
				}
				o.Key = key
				o.Logger = slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
				return acp.Serve(ctx, client.Connect(connect), in, out, o)
			}
			cfg, err := loadServeConfig(cmd, &flagged, configPath, os.Getenv)
			if err != nil {
				return err
			}
			if cfg.AdminKeyFile == "" {
				cfg.AdminKeyFile = filepath.Join(cfg.DataDir, "admin.key")
			}
			// stdout is the protocol's: whatever an operator would read
			// goes to stderr, and the key stays in its file.
			stderr := cmd.ErrOrStderr()
			o.Logger = slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: logLevel(cfg.LogLevel)}))
			return withDaemon(ctx, cfg, stderr, io.Discard, o.Logger, func(d *daemon.Daemon, st store.Store, adminKey string) error {
				// The editor's projects must lie in the key's tree.
				k, err := st.APIKeyByHash(ctx, store.HashKey(adminKey))
				if err != nil {
					return err
				}
				fmt.Fprintf(stderr, "HotPlex ACP agent on stdio; sessions in %s, key in %s\nProjects: %s\n",
					cfg.DataDir, cfg.AdminKeyFile, filepath.Join(cfg.WorkDirRoot, engine.OwnerDir(k.ID)))
				o.Key = adminKey
				return acp.Serve(ctx, client.InProcess(d.Handler()), in, out, o)
			})
		},
	}
	flagged.register(cmd)
	cmd.Flags().StringVar(&configPath, "config", "", "YAML configuration file of the embedded daemon")
	cmd.Flags().StringVar(&connect, "connect", "", "the URL of a running daemon to call instead of running one")
	cmd.Flags().StringVar(&key, "key", "", "the API key for --connect (default $HOTPLEX_API_KEY)")
	cmd.Flags().StringVar(&providerName, "provider", "", "the agent new sessions run on (default: the daemon's default)")
	cmd.Flags().StringVar(&approval, "approval", "auto", `"auto": the firewall and permission rules decide, their ask rules come to the editor; "ask": every tool use comes to the editor`)
	cmd.Flags().StringVar(&permissions, "permissions", "", `a JSON file of new sessions' own permission rules in Claude Code's syntax ({"allow": [...], "ask": [...], "deny": [...]}); their asks come to the editor`)
	return cmd
}
