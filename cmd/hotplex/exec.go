package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
)

func newExecCmd() *cobra.Command {
	var (
		f        sessionFlags
		jsonMode bool
	)
	cmd := &cobra.Command{
		Use:   "exec [flags] PROMPT [PROMPT...]",
		Short: "Run each PROMPT as one turn, in order, on the same hot session",
		Long: `Run each PROMPT as one turn, in order, on the same hot session of an embedded engine.

With --json, stdout carries one JSON object per event: {"event":"<type>","data":{...}}.
The exit status is non-zero when a turn fails; the error goes to stderr.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, prompts []string) error {
			rt, err := f.newRuntime(cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer rt.Close()
			cfg := &engine.Config{SessionID: f.sessionID(), WorkDir: rt.workDir}
			out := cmd.OutOrStdout()
			for i, p := range prompts {
				var cb engine.Callback
				if jsonMode {
					cb = jsonPrinter(out)
				} else {
					cb = textPrinter(out, cmd.ErrOrStderr())
				}
				if err := rt.eng.Execute(cmd.Context(), cfg, p, cb); err != nil {
					return fmt.Errorf("turn %d: %w", i+1, err)
				}
			}
			return nil
		},
	}
	f.register(cmd)
	cmd.Flags().BoolVar(&jsonMode, "json", false, "print every event as one JSON object per line")
	return cmd
}

// jsonPrinter writes {"event":...,"data":...} lines.
func jsonPrinter(w io.Writer) engine.Callback {
	enc := json.NewEncoder(w)
	return func(eventType string, data any) error {
		return enc.Encode(struct {
			Event string `json:"event"`
			Data  any    `json:"data"`
		}{eventType, data})
	}
}

// textPrinter writes the answer to out and a compact trace of the agent's
// work to trace. Streamed deltas are written as they come.
func textPrinter(out, trace io.Writer) engine.Callback {
	midLine := false
	return func(eventType string, data any) error {
		ev := data.(*event.EventWithMeta)
		if eventType == event.TypeAnswer && ev.Meta.Status == "delta" {
			fmt.Fprint(out, ev.EventData)
			midLine = true
			return nil
		}
		if midLine && eventType != event.TypeThinking {
			fmt.Fprintln(out)
			midLine = false
		}
		switch eventType {
		case event.TypeAnswer:
			fmt.Fprintln(out, ev.EventData)
		case event.TypeToolUse:
			fmt.Fprintf(trace, "● %s(%s)\n", ev.Meta.ToolName, ev.Meta.InputSummary)
		case event.TypeToolResult:
			mark := "⎿"
			if ev.Meta.Status == "error" {
				mark = "⎿ error:"
			}
			fmt.Fprintf(trace, "  %s %s\n", mark, firstLine(ev.EventData))
		case event.TypeError:
			fmt.Fprintf(trace, "error: %s\n", ev.EventData)
		case event.TypeResult:
			if t := ev.Turn; t != nil {
				fmt.Fprintf(trace, "— %s · %d in / %d out tokens · $%.4f · %d ms\n", t.Model, t.InputTokens, t.OutputTokens, t.CostUSD, ev.Meta.DurationMs)
			}
		}
		return nil
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	if len(s) > 160 {
		return s[:160] + "…"
	}
	return s
}
