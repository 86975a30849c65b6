package agents

import "github.com/hotplex/hotplex/provider/claude"

// claudeAgent is Claude Code over its stream-json protocol.
func claudeAgent(cfg Config) Agent {
	a := Agent{Name: "claude", Label: "Claude Code"}
	a.Path = cfg.Executable("claude", "claude")
	if a.Path == "" {
		a.Missing = "the claude CLI was not found; install it with `npm install -g @anthropic-ai/claude-code` or `make tools`"
		return a
	}
	a.Provider = claude.New(claude.Options{Path: a.Path, PartialMessages: cfg.Stream})
	a.Version = VersionOf(a.Path)
	return a
}
