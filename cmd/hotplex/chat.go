package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
)

func newChatCmd() *cobra.Command {
	f := sessionFlags{stream: true}
	cmd := &cobra.Command{
		Use:   "chat",
		Short: "An interactive conversation on one hot session (Ctrl-C interrupts a turn, Ctrl-D quits)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rt, err := f.newRuntime(cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer rt.Close()
			c := &chat{
				eng: rt.eng, cfg: &engine.Config{SessionID: f.sessionID(), WorkDir: rt.workDir},
				in: cmd.InOrStdin(), out: cmd.OutOrStdout(), tty: isTerminal(cmd.OutOrStdout()),
			}
			fmt.Fprintf(c.out, "HotPlex chat · session %s · work dir %s\n", c.cfg.SessionID, rt.workDir)
			if rt.offline {
				fmt.Fprintln(c.out, "No Anthropic credentials found: using the built-in offline model (set ANTHROPIC_API_KEY for a real one).")
			}
			fmt.Fprintln(c.out, "Type a message and press Enter. Ctrl-C interrupts a turn; Ctrl-D or /exit quits; /stats shows the session's figures.")
			return c.loop(cmd.Context())
		},
	}
	f.register(cmd)
	return cmd
}

type chat struct {
	eng *engine.Engine
	cfg *engine.Config
	in  io.Reader
	out io.Writer
	tty bool
	// midLine is set while streamed text has not ended its line.
	midLine bool
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func (c *chat) loop(ctx context.Context) error {
	lines := make(chan string)
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		// Reads stdin until EOF; the channel's close tells the loop to quit.
		// When the loop quits first (/exit, cancellation), the reader stops
		// at its next line instead of blocking on the send forever.
		defer close(lines)
		sc := bufio.NewScanner(c.in)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-quit:
				return
			}
		}
	}()
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)

	for {
		fmt.Fprint(c.out, "\n› ")
		var line string
		select {
		case l, ok := <-lines:
			if !ok {
				fmt.Fprintln(c.out)
				return nil
			}
			line = strings.TrimSpace(l)
		case <-interrupts:
			fmt.Fprintln(c.out, "\n(Ctrl-D or /exit quits)")
			continue
		case <-ctx.Done():
			return nil
		}
		switch line {
		case "":
			continue
		case "/exit", "/quit":
			return nil
		case "/stats":
			c.printStats()
			continue
		}
		c.turn(ctx, line, interrupts)
	}
}

func (c *chat) printStats() {
	s, ok := c.eng.GetSession(c.cfg.SessionID)
	if !ok {
		fmt.Fprintln(c.out, "no turn yet")
		return
	}
	st := s.Stats()
	fmt.Fprintf(c.out, "turns %d · tokens %d in / %d out (cache %d read, %d written) · $%.4f · tools %v · files %v · model %s\n",
		st.Turns, st.InputTokens, st.OutputTokens, st.CacheReadTokens, st.CacheWriteTokens, st.TotalCostUSD, st.ToolsUsed, st.FilePaths, st.ModelUsed)
}

// turn runs one prompt; Ctrl-C cancels it, which interrupts the agent.
func (c *chat) turn(ctx context.Context, prompt string, interrupts <-chan os.Signal) {
	turnCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	sp := newSpinner(c.out, c.tty)
	defer sp.stop()
	done := make(chan error, 1)
	go func() {
		done <- c.eng.Execute(turnCtx, c.cfg, prompt, func(eventType string, data any) error {
			sp.pause()
			defer sp.resume()
			c.render(eventType, data.(*event.EventWithMeta))
			return nil
		})
	}()
	for {
		select {
		case err := <-done:
			sp.stop()
			switch {
			case errors.Is(err, context.Canceled):
				fmt.Fprintln(c.out, "⏹ interrupted")
			case err != nil:
				fmt.Fprintf(c.out, "✗ %v\n", err)
			}
			return
		case <-interrupts:
			cancel()
		}
	}
}

func (c *chat) render(eventType string, ev *event.EventWithMeta) {
	if ev.Meta.Status == "delta" && (eventType == event.TypeAnswer || eventType == event.TypeThinking) {
		if eventType == event.TypeAnswer {
			fmt.Fprint(c.out, ev.EventData)
			c.midLine = true
		}
		return
	}
	if c.midLine {
		fmt.Fprintln(c.out)
		c.midLine = false
	}
	switch eventType {
	case event.TypeSessionStart:
		if ev.ColdStart {
			how := "started"
			if ev.Resumed {
				how = "resumed"
			}
			fmt.Fprintf(c.out, "· %s %s (pid %d, %d ms)\n", how, ev.Provider, ev.PID, ev.StartupMs)
		}
	case event.TypeThinking:
		fmt.Fprintf(c.out, "✻ %s\n", firstLine(ev.EventData))
	case event.TypeAnswer:
		fmt.Fprintln(c.out, ev.EventData)
	case event.TypeToolUse:
		fmt.Fprintf(c.out, "● %s(%s)\n", ev.Meta.ToolName, ev.Meta.InputSummary)
	case event.TypeToolResult:
		prefix := "  ⎿ "
		if ev.Meta.Status == "error" {
			prefix = "  ⎿ error: "
		}
		fmt.Fprintf(c.out, "%s%s (%d ms)\n", prefix, firstLine(ev.EventData), ev.Meta.DurationMs)
	case event.TypePermissionDecision:
		if ev.Permission != nil && ev.Permission.Decision == "deny" {
			fmt.Fprintf(c.out, "  ⊘ %s denied: %s\n", ev.Permission.ToolName, ev.Permission.Reason)
		}
	case event.TypeResult:
		if t := ev.Turn; t != nil && !t.IsError {
			fmt.Fprintf(c.out, "— %d in / %d out tokens · $%.4f · %d ms\n", t.InputTokens, t.OutputTokens, t.CostUSD, ev.Meta.DurationMs)
		}
	}
}

// spinner shows that the agent is working, on terminals only.
type spinner struct {
	out     io.Writer
	mu      sync.Mutex
	paused  bool
	drawn   bool
	stopped chan struct{}
	done    chan struct{}
	once    sync.Once
}

func newSpinner(out io.Writer, tty bool) *spinner {
	s := &spinner{out: out, stopped: make(chan struct{}), done: make(chan struct{})}
	if !tty {
		close(s.done)
		s.paused = true
		return s
	}
	go s.run()
	return s
}

func (s *spinner) run() {
	defer close(s.done)
	frames := []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for i := 0; ; i++ {
		select {
		case <-s.stopped:
			s.clear()
			return
		case <-t.C:
			s.mu.Lock()
			if !s.paused {
				fmt.Fprintf(s.out, "\r%s working…", frames[i%len(frames)])
				s.drawn = true
			}
			s.mu.Unlock()
		}
	}
}

func (s *spinner) clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.drawn {
		fmt.Fprint(s.out, "\r\033[K")
		s.drawn = false
	}
}

func (s *spinner) pause() {
	s.clear()
	s.mu.Lock()
	s.paused = true
	s.mu.Unlock()
}

func (s *spinner) resume() {
	s.mu.Lock()
	s.paused = false
	s.mu.Unlock()
}

func (s *spinner) stop() {
	s.once.Do(func() { close(s.stopped) })
	<-s.done
}
