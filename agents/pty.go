package agents

import "github.com/hotplex/hotplex/provider/pty"

// claudeTUIAgent is Claude Code's interactive terminal UI, driven by keys
// in a pseudo-terminal and read off its screen.
func claudeTUIAgent(cfg Config) Agent { return claudeTerminalAgent(cfg, "claude-tui", false) }

// claudeTmuxAgent is the same UI in a tmux window a person can attach to
// (`tmux -L hotplex-<id> attach`).
func claudeTmuxAgent(cfg Config) Agent { return claudeTerminalAgent(cfg, "claude-tmux", true) }

func claudeTerminalAgent(cfg Config, name string, tmux bool) Agent {
	a := Agent{Name: name, Label: "Claude Code, interactive terminal UI"}
	if tmux {
		a.Label += " in tmux"
	}
	a.Path = cfg.Executable("claude", "claude")
	if a.Path == "" {
		a.Missing = "the claude CLI was not found; install it with `npm install -g @anthropic-ai/claude-code` or `make tools`"
		return a
	}
	preset := pty.ClaudeTUI(a.Path)
	preset.Name = name
	opts := pty.Options{Preset: preset, Tmux: tmux, Stream: cfg.Stream}
	if tmux {
		opts.TmuxPath = cfg.Executable("tmux", "tmux")
		if opts.TmuxPath == "" {
			a.Missing = "tmux was not found; install it with `apt-get install tmux` or `make tools`"
			return a
		}
	}
	p, err := pty.New(opts)
	if err != nil {
		a.Missing = err.Error()
		return a
	}
	a.Provider = p
	a.Version = VersionOf(a.Path)
	return a
}
