package main

import (
	"fmt"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"github.com/hotplex/hotplex/internal/scriptedmodel"
)

// newFakeModelCmd serves the built-in offline model on its own, so that any
// agent CLI (or a benchmark's raw driver) can be pointed at it.
func newFakeModelCmd() *cobra.Command {
	var listen string
	cmd := &cobra.Command{
		Use:    "fakemodel",
		Short:  "Serve the built-in offline Anthropic Messages API model",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, err := scriptedmodel.Start(listen, scriptedmodel.Demo())
			if err != nil {
				return err
			}
			defer m.Close()
			fmt.Fprintf(cmd.OutOrStdout(), "ANTHROPIC_BASE_URL=%s\n", m.URL())
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			<-ctx.Done()
			return nil
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:0", "address to listen on (loopback)")
	return cmd
}
