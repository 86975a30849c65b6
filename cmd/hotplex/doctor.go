package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/hotplex/hotplex/agents"
	"github.com/hotplex/hotplex/internal/proc"
)

func newDoctorCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "List the agents HotPlex can run here, their versions, and what is missing and how to install it",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			runnable := printAgents(cmd.Context(), out, agents.Config{})
			fmt.Fprintln(out)
			fmt.Fprintf(out, "credentials: %s\n", credentialReport())
			fmt.Fprintf(out, "process isolation: %s\n", isolationReport())
			if runnable == 0 {
				return fmt.Errorf("no agent can run here; install one of the above")
			}
			return nil
		},
	}
}

// printAgents lists every agent `--provider` accepts, with its version or
// what it is missing, and returns how many can run. The list is the one
// the daemon and `exec` choose from (agents.Known), so doctor never
// reports an agent the daemon would not find, or the other way round.
func printAgents(ctx context.Context, out io.Writer, cfg agents.Config) int {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tSTATUS\tVERSION\tPATH / HOW TO INSTALL")
	runnable := 0
	for _, a := range agents.Known(cfg) {
		switch {
		case a.Provider == nil:
			fmt.Fprintf(tw, "%s\tmissing\t-\t%s\n", a.Name, a.Missing)
			continue
		case a.Version == nil:
			fmt.Fprintf(tw, "%s\tok\t-\t%s\n", a.Name, a.Label)
		default:
			v, err := a.Version(ctx)
			if err != nil {
				fmt.Fprintf(tw, "%s\tbroken\t-\t%v\n", a.Name, err)
				continue
			}
			detail := a.Path
			if detail == "" {
				detail = a.Label
			}
			fmt.Fprintf(tw, "%s\tok\t%s\t%s\n", a.Name, v, detail)
		}
		runnable++
	}
	_ = tw.Flush()
	return runnable
}

func credentialReport() string {
	if hasCredentials() {
		return "Anthropic credentials found"
	}
	return "none: `hotplex chat` and `exec` use the built-in offline model (set ANTHROPIC_API_KEY for a real one)"
}

func isolationReport() string {
	return cgroupReport() + "; " + pidnsReport()
}

func cgroupReport() string {
	root := proc.DefaultCgroupRoot()
	if root == "" {
		return "no writable cgroup v2: descendants are tracked by process group, environment marker and /proc scan"
	}
	defer func() { _ = proc.RemoveCgroupRoot(root) }()
	return "cgroup v2 per session (" + filepath.Dir(root) + ")"
}

// pidnsReport starts a process as a session would, to learn whether the
// kernel grants it a PID namespace.
func pidnsReport() string {
	const no = "no PID namespaces: jobs that detach from a session survive if hotplex is killed outright"
	p, err := proc.Start(proc.Spec{Path: "true"})
	if err != nil {
		return no + " (" + err.Error() + ")"
	}
	defer func() { _ = p.Kill() }()
	if !p.OwnPIDNamespace() {
		return no
	}
	return "a PID namespace per session: nothing of a session outlives hotplex"
}
