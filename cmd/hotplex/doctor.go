package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/hotplex/hotplex/agents"
	"github.com/hotplex/hotplex/internal/proc"
)

// agentCLI is an agent HotPlex can drive, and how to get it.
type agentCLI struct {
	name    string   // executable
	label   string   // what it is
	install string   // how to install it
	local   []string // project-local install paths, tried before PATH
	env     string   // variable that overrides the path
}

func knownAgents() []agentCLI {
	local := func(bin string) []string {
		return []string{filepath.Join(".tools", "npm", "node_modules", ".bin", bin)}
	}
	return []agentCLI{
		{name: "claude", label: "Claude Code", install: "npm install -g @anthropic-ai/claude-code (or `make tools` for a project-local copy)", local: local("claude"), env: "HOTPLEX_CLAUDE_PATH"},
		{name: "opencode", label: "OpenCode", install: "npm install -g opencode-ai", local: local("opencode")},
		{name: "codex", label: "Codex CLI", install: "npm install -g @openai/codex", local: local("codex")},
		{name: "gemini", label: "Gemini CLI", install: "npm install -g @google/gemini-cli", local: local("gemini")},
		{name: "qwen", label: "Qwen Code", install: "npm install -g @qwen-code/qwen-code", local: local("qwen")},
		{name: "kiro-cli", label: "Kiro CLI", install: "see kiro.dev for the installer"},
	}
}

func newDoctorCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Find agent CLIs, print their versions, and say what is missing and how to install it",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "AGENT\tSTATUS\tVERSION\tPATH / INSTALL")
			found := 0
			for _, a := range knownAgents() {
				path := a.find()
				if path == "" {
					fmt.Fprintf(tw, "%s\tmissing\t-\t%s\n", a.label, a.install)
					continue
				}
				found++
				v, err := version(cmd.Context(), path)
				if err != nil {
					fmt.Fprintf(tw, "%s\tbroken\t-\t%s (%v)\n", a.label, path, err)
					continue
				}
				fmt.Fprintf(tw, "%s\tok\t%s\t%s\n", a.label, v, path)
			}
			_ = tw.Flush()
			printProviders(cmd.Context(), out)

			fmt.Fprintln(out)
			fmt.Fprintf(out, "credentials: %s\n", credentialReport())
			fmt.Fprintf(out, "process isolation: %s\n", isolationReport())
			if found == 0 {
				return fmt.Errorf("no agent CLI found; install one of the above")
			}
			return nil
		},
	}
}

// printProviders lists every provider `--provider` accepts, with its
// version or what it is missing.
func printProviders(ctx context.Context, out io.Writer) {
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROVIDER\tSTATUS\tVERSION\tDETAIL")
	for _, a := range agents.Known(agents.Config{}) {
		switch {
		case a.Provider == nil:
			fmt.Fprintf(tw, "%s\tmissing\t-\t%s\n", a.Name, a.Missing)
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
	}
	_ = tw.Flush()
}

func (a agentCLI) find() string {
	var tries []string
	if a.env != "" {
		tries = append(tries, os.Getenv(a.env))
	}
	tries = append(tries, a.local...)
	for _, p := range tries {
		if p == "" {
			continue
		}
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			abs, _ := filepath.Abs(p)
			return abs
		}
	}
	p, err := exec.LookPath(a.name)
	if err != nil {
		return ""
	}
	return p
}

func version(ctx context.Context, path string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	b, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]), nil
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
