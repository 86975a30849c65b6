package provider

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
)

// MCPServer is an MCP server a conversation's agent connects to, as the
// client that opened the conversation named it (an editor's mcpServers in
// ACP's session/new). Providers whose agents take MCP servers pass them
// on: Claude Code in --mcp-config, ACP agents in their own session/new.
type MCPServer struct {
	// Name names the server; its tools reach the model as
	// mcp__<Name>__<tool> (Claude Code's naming).
	Name string `json:"name"`
	// Type is "stdio" (the default), "http" (Streamable HTTP) or "sse".
	Type string `json:"type,omitempty"`
	// Command, Args and Env start a stdio server.
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// URL and Headers reach an HTTP or SSE server.
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// Stdio reports whether the server is a command the agent starts.
func (m MCPServer) Stdio() bool { return m.Type == "" || m.Type == "stdio" }

var mcpNamePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ValidateMCPServers checks a conversation's MCP servers: each named once
// with a name a tool name can hold, a stdio server with a command, an
// HTTP or SSE server with an http(s) URL.
func ValidateMCPServers(servers []MCPServer) error {
	seen := map[string]bool{}
	for i, m := range servers {
		if !mcpNamePattern.MatchString(m.Name) {
			return fmt.Errorf("MCP server %d: the name %q is not 1-64 letters, digits, '_' or '-'", i, m.Name)
		}
		if seen[m.Name] {
			return fmt.Errorf("MCP server %q is named twice", m.Name)
		}
		seen[m.Name] = true
		switch m.Type {
		case "", "stdio":
			if m.Command == "" {
				return fmt.Errorf("MCP server %q: a stdio server needs a command", m.Name)
			}
		case "http", "sse":
			u, err := url.Parse(m.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("MCP server %q: %q is not an http(s) URL", m.Name, m.URL)
			}
		default:
			return fmt.Errorf("MCP server %q: unknown type %q (stdio, http or sse)", m.Name, m.Type)
		}
	}
	return nil
}

// ClaudeMCPConfig is servers as Claude Code's --mcp-config takes them
// (an .mcp.json document).
func ClaudeMCPConfig(servers []MCPServer) ([]byte, error) {
	type entry struct {
		Type    string            `json:"type"`
		Command string            `json:"command,omitempty"`
		Args    []string          `json:"args,omitempty"`
		Env     map[string]string `json:"env,omitempty"`
		URL     string            `json:"url,omitempty"`
		Headers map[string]string `json:"headers,omitempty"`
	}
	doc := map[string]map[string]entry{"mcpServers": {}}
	for _, m := range servers {
		e := entry{Type: m.Type, Command: m.Command, Args: m.Args, Env: m.Env, URL: m.URL, Headers: m.Headers}
		if m.Stdio() {
			e.Type = "stdio"
		}
		doc["mcpServers"][m.Name] = e
	}
	return json.Marshal(doc)
}
