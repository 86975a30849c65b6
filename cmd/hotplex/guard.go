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
}

func (g *guardFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&g.workDir, "workdir", "", "the session's work directory (default: the current directory)")
	cmd.Flags().StringVar(&g.home, "home", "", "the agent's home directory (default: $HOME)")
	cmd.Flags().StringVar(&g.unresolved, "unresolved", "block", "what to do with commands that cannot be analysed: block, ask or allow")
}

func (g *guardFlags) detector() (*guard.Detector, guard.Context, error) {
	action, err := guard.ParseAction(g.unresolved)
	if err != nil {
		return nil, guard.Context{}, err
	}
	c := guard.Context{WorkDir: g.workDir, Home: g.home}
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
--jsonl mode is reported with an "error" field and does not stop the run.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, c, err := g.detector()
			if err != nil {
				return err
			}
			return guardCheck(cmd.InOrStdin(), cmd.OutOrStdout(), d, c, jsonl)
		},
	}
	g.register(cmd)
	cmd.Flags().BoolVar(&jsonl, "jsonl", false, "read one JSON string per line")
	return cmd
}

func guardCheck(in io.Reader, out io.Writer, d *guard.Detector, c guard.Context, jsonl bool) error {
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
				if err := enc.Encode(map[string]string{"input": line, "error": "not a JSON string: " + err.Error()}); err != nil {
					return err
				}
				continue
			}
		} else if strings.TrimSpace(line) == "" {
			continue
		}
		v := d.CheckCommand(command, c)
		res := checkResult{
			Command: command, Blocked: v.Blocked, Ask: v.Ask, Level: v.Level, Category: v.Category,
			Reason: v.Reason, Pattern: v.Pattern, Operation: v.Operation, Suggestions: v.Suggestions,
		}
		if res.Suggestions == nil {
			res.Suggestions = []string{}
		}
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading commands: %w", err)
	}
	return nil
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
			fmt.Fprint(cmd.OutOrStdout(), d.Explain(strings.Join(args, " "), c).String())
			return nil
		},
	}
	g.register(cmd)
	return cmd
}
