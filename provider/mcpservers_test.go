package provider

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValidateMCPServers(t *testing.T) {
	for _, tc := range []struct {
		servers []MCPServer
		err     string
	}{
		{[]MCPServer{{Name: "tools", Command: "/bin/tools"}, {Name: "web", Type: "http", URL: "https://example.com/mcp"}}, ""},
		{[]MCPServer{{Name: "has space", Command: "x"}}, "is not 1-64"},
		{[]MCPServer{{Name: "a", Command: "x"}, {Name: "a", Command: "y"}}, "named twice"},
		{[]MCPServer{{Name: "a"}}, "needs a command"},
		{[]MCPServer{{Name: "a", Type: "http", URL: "file:///etc/passwd"}}, "not an http(s) URL"},
		{[]MCPServer{{Name: "a", Type: "websocket", URL: "ws://x"}}, "unknown type"},
	} {
		err := ValidateMCPServers(tc.servers)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%+v: %v (want %q)", tc.servers, err, tc.err)
		}
	}
}

// Claude Code's --mcp-config takes an .mcp.json document.
func TestClaudeMCPConfig(t *testing.T) {
	b, err := ClaudeMCPConfig([]MCPServer{{Name: "tools", Command: "/bin/tools", Args: []string{"-v"}}, {Name: "web", Type: "sse", URL: "http://h/sse"}})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		MCPServers map[string]map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.MCPServers["tools"]["type"] != "stdio" || doc.MCPServers["tools"]["command"] != "/bin/tools" || doc.MCPServers["web"]["url"] != "http://h/sse" {
		t.Fatalf("%s", b)
	}
}
