package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hotplex/hotplex/guard"
)

// guardFlags are the firewall settings guard check and explain share.
type guardFlags struct {
	workDir    string
	home       string
	unresolved string
	shell      string
	policy     string
}

func (g *guardFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&g.workDir, "workdir", "", "the session's work directory (default: the current directory)")
	cmd.Flags().StringVar(&g.home, "home", "", "the agent's home directory (default: $HOME)")
	cmd.Flags().StringVar(&g.unresolved, "unresolved", "block", "what to do with commands that cannot be analysed: block, ask or allow")
	cmd.Flags().StringVar(&g.shell, "shell", "", "the dialect commands are written in: bash, powershell, cmd, gitbash (default: detected)")
	cmd.Flags().StringVar(&g.policy, "policy", "", "a permission-rule file (Claude Code settings JSON) applied as the server's rules")
}

// policies loads --policy.
func (g *guardFlags) policies() (guard.Policies, error) {
	if g.policy == "" {
		return guard.Policies{}, nil
	}
	p, err := guard.LoadPolicy(g.policy)
	if err != nil {
		return guard.Policies{}, err
	}
	return guard.Policies{Server: p}, nil
}

func (g *guardFlags) detector() (*guard.Detector, guard.Context, error) {
	action, err := guard.ParseAction(g.unresolved)
	if err != nil {
		return nil, guard.Context{}, err
	}
	switch strings.ToLower(g.shell) {
	case "", "bash", "sh", "zsh", "fish", "posix", "powershell", "pwsh", "cmd", "gitbash", "git-bash":
	default:
		return nil, guard.Context{}, fmt.Errorf("unknown --shell %q (bash, powershell, cmd, gitbash)", g.shell)
	}
	c := guard.Context{WorkDir: g.workDir, Home: g.home, Shell: g.shell}
	if c.WorkDir == "" {
		c.WorkDir, _ = os.Getwd()
	}
	if c.Home == "" {
		c.Home, _ = os.UserHomeDir()
	}
	return guard.NewDetector(guard.Options{Unresolved: action}), c, nil
}

func newGuardCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "guard",
		Short: "The danger firewall: check commands the way agents' commands are checked",
	}
	cmd.AddCommand(newGuardCheckCmd(), newGuardExplainCmd())
	return cmd
}

// checkResult is one line of guard check's output.
type checkResult struct {
	Command     string            `json:"command"`
	Blocked     bool              `json:"blocked"`
	Ask         bool              `json:"ask,omitempty"`
	Level       guard.DangerLevel `json:"level"`
	Category    string            `json:"category"`
	Reason      string            `json:"reason"`
	Pattern     string            `json:"pattern"`
	Operation   string            `json:"operation,omitempty"`
	Suggestions []string          `json:"suggestions"`
	// Decision, Rule and RuleLevel name the permission rule that decided,
	// when one did (--policy).
	Decision  string `json:"decision,omitempty"`
	Rule      string `json:"rule,omitempty"`
	RuleLevel string `json:"rule_level,omitempty"`
}

// badInput reports an error in what guard was given: exit status 2.
func badInput(cmd *cobra.Command, err error) error {
	fmt.Fprintln(cmd.ErrOrStderr(), "hotplex guard:", err)
	return exitError{code: 2}
}

func newGuardCheckCmd() *cobra.Command {
	var (
		g     guardFlags
		jsonl bool
	)
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Judge commands read from stdin, one per line (or one JSON string per line with --jsonl)",
		Long: `Judge commands read from stdin and print one JSON object per command:
{"command":...,"blocked":bool,"level":...,"category":...,"reason":...,"pattern":...,"suggestions":[...]}

Commands are read one per line, or with --jsonl as one JSON string per line,
so that a command may contain newlines. A line that is not a JSON string in
--jsonl mode is reported with an "error" field and does not stop the run.

--shell names the dialect (bash, powershell, cmd, gitbash); without it each
command's dialect is detected. --policy applies a Claude Code settings file's
permission rules; the output then names the rule that decided.

Exit status: 0 when nothing was blocked, 1 when a command was blocked, 2 on
bad input (bad flags, an unreadable policy, a line that is not JSON in
--jsonl mode), so that guard check can gate a pipeline.`,
		Args:          cobra.NoArgs,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, c, err := g.detector()
			if err != nil {
				return badInput(cmd, err)
			}
			ps, err := g.policies()
			if err != nil {
				return badInput(cmd, err)
			}
			blocked, bad, err := guardCheck(cmd.InOrStdin(), cmd.OutOrStdout(), d, ps, c, jsonl)
			switch {
			case err != nil:
				return badInput(cmd, err)
			case bad:
				return exitError{code: 2}
			case blocked:
				return exitError{code: 1}
			}
			return nil
		},
	}
	cmd.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return badInput(cmd, err) })
	g.register(cmd)
	cmd.Flags().BoolVar(&jsonl, "jsonl", false, "read one JSON string per line")
	return cmd
}

// guardCheck judges each command read from in; it reports whether one
// was blocked and whether a line was bad.
func guardCheck(in io.Reader, out io.Writer, d *guard.Detector, ps guard.Policies, c guard.Context, jsonl bool) (blocked, bad bool, err error) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	w := bufio.NewWriter(out)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for sc.Scan() {
		line := sc.Text()
		command := line
		if jsonl {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if err := json.Unmarshal([]byte(line), &command); err != nil {
				bad = true
				if err := enc.Encode(map[string]string{"input": line, "error": "not a JSON string: " + err.Error()}); err != nil {
					return blocked, bad, err
				}
				continue
			}
		} else if strings.TrimSpace(line) == "" {
			continue
		}
		v := ps.CheckCommand(d, command, c)
		res := checkResult{
			Command: command, Blocked: v.Blocked, Ask: v.Ask, Level: v.Level, Category: v.Category,
			Reason: v.Reason, Pattern: v.Pattern, Operation: v.Operation, Suggestions: v.Suggestions,
			Decision: v.Decision, Rule: v.Rule, RuleLevel: v.RuleLevel,
		}
		if v.Decision == "" {
			res.RuleLevel = ""
		}
		if res.Suggestions == nil {
			res.Suggestions = []string{}
		}
		blocked = blocked || v.Blocked
		if err := enc.Encode(res); err != nil {
			return blocked, bad, err
		}
	}
	if err := sc.Err(); err != nil {
		return blocked, bad, fmt.Errorf("reading commands: %w", err)
	}
	return blocked, bad, nil
}

func newGuardExplainCmd() *cobra.Command {
	var g guardFlags
	cmd := &cobra.Command{
		Use:   "explain COMMAND",
		Short: "Show how the firewall parses a command and every rule's verdict on it",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, c, err := g.detector()
			if err != nil {
				return err
			}
			ps, err := g.policies()
			if err != nil {
				return err
			}
			command := strings.Join(args, " ")
			w := cmd.OutOrStdout()
			fmt.Fprint(w, d.Explain(command, c).String())
			if !ps.Empty() {
				v := ps.CheckCommand(d, command, c)
				switch v.Decision {
				case "":
					fmt.Fprintln(w, "policy: no rule matched; the analysis decides")
				default:
					fmt.Fprintf(w, "policy: %s by the %s rule %s (matched %q)\n", v.Decision, v.RuleLevel, v.Rule, v.Matched)
				}
				switch {
				case v.Blocked:
					fmt.Fprintf(w, "final verdict: BLOCKED — %s\n", v.Reason)
				case v.Ask:
					fmt.Fprintf(w, "final verdict: ASK — %s\n", v.Reason)
				default:
					fmt.Fprintln(w, "final verdict: allowed")
				}
			}
			return nil
		},
	}
	g.register(cmd)
	return cmd
}
