// Command hotplex runs AI coding-agent CLIs as hot sessions: `exec` runs
// prompts as turns of one session, `chat` is an interactive conversation,
// `doctor` checks which agent CLIs are installed, and `serve` runs the
// daemon. For serve this package reads the settings (defaults, YAML file,
// HOTPLEX_* variables, flags) into a daemon.Config, opens the SQLite
// store and, without model credentials, the built-in offline model,
// prints what an operator needs (settings, admin key, address, a first
// curl) and turns signals into the end of the daemon's context; package
// daemon builds the parts and stops them.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/hotplex/hotplex/internal/proc"
)

func main() {
	// First: in a session's init this runs the init and never returns.
	proc.MaybeRunInit()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if err := newRootCmd(os.Stdin, os.Stdout, os.Stderr).ExecuteContext(ctx); err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		os.Exit(1)
	}
}

// exitError carries an exit status out of a command whose error was
// already reported.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "hotplex",
		Short:         "A control plane for AI coding-agent CLIs: hot sessions, one event stream, safety",
		SilenceUsage:  true,
		SilenceErrors: false,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newExecCmd(), newChatCmd(), newServeCmd(), newSessionsCmd(), newClusterCmd(), newKeysCmd(), newDoctorCmd(), newGuardCmd(), newFakeModelCmd(), newMCPCmd(), newACPCmd())
	return root
}
