package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/hotplex/hotplex/client"
	"github.com/hotplex/hotplex/daemon"
	"github.com/hotplex/hotplex/mcp"
	"github.com/hotplex/hotplex/store"
)

func newMCPCmd() *cobra.Command {
	flagged := defaultServeConfig()
	var configPath, connect, key string
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve HotPlex's tools to an MCP client over stdio: sessions, prompts, events",
		Long: `Serve HotPlex as a Model Context Protocol server on stdin/stdout, for an
orchestrating agent (Claude Code, any MCP client) to delegate work to hot,
firewalled agent sessions: start_session, send_prompt, get_events,
list_sessions, interrupt, close_session, and each session as the resource
hotplex://sessions/{id}.

With --connect URL the tools call the daemon at URL with --key (default
$HOTPLEX_API_KEY), so the sessions live in that daemon, listed and followed
in its web UI. Without it, a daemon runs inside this process on the data
directory (the settings of serve apply), with the admin key kept in
<data-dir>/admin.key unless --admin-key-file names another; do not point it
at the data directory of a daemon that is running.

A running daemon serves the same tools over Streamable HTTP at /mcp.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			stdio := &sdk.IOTransport{Reader: io.NopCloser(cmd.InOrStdin()), Writer: nopWriteCloser{cmd.OutOrStdout()}}
			if connect != "" {
				if key == "" {
					key = os.Getenv("HOTPLEX_API_KEY")
				}
				if key == "" {
					return fmt.Errorf("--connect needs an API key: --key or HOTPLEX_API_KEY")
				}
				log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
				return runMCP(ctx, client.Connect(connect), key, stdio, log)
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
			log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: logLevel(cfg.LogLevel)}))
			return withDaemon(ctx, cfg, stderr, io.Discard, log, func(d *daemon.Daemon, _ store.Store, adminKey string) error {
				fmt.Fprintf(stderr, "HotPlex MCP server on stdio; sessions in %s, key in %s\n", cfg.DataDir, cfg.AdminKeyFile)
				return runMCP(ctx, client.InProcess(d.Handler()), adminKey, stdio, log)
			})
		},
	}
	flagged.register(cmd)
	cmd.Flags().StringVar(&configPath, "config", "", "YAML configuration file of the embedded daemon")
	cmd.Flags().StringVar(&connect, "connect", "", "the URL of a running daemon to call instead of running one")
	cmd.Flags().StringVar(&key, "key", "", "the API key for --connect (default $HOTPLEX_API_KEY)")
	return cmd
}

// runMCP serves the MCP server on t until the client leaves (its input
// ends) or ctx ends. A client leaving is the normal end.
func runMCP(ctx context.Context, api *client.API, key string, t sdk.Transport, log *slog.Logger) error {
	srv := mcp.NewServer(api, mcp.Options{Key: key, Logger: log})
	err := srv.Run(ctx, t)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
