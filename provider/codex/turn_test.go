package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/hotplex/hotplex/provider"
)

func TestResultJoinsAnswerBlocks(t *testing.T) {
	st := &turnState{start: time.Now(), items: map[string]*item{}, began: map[string]time.Time{}}
	completed(st, &item{Type: "agentMessage", Text: "I listed the directory."})
	completed(st, &item{Type: "commandExecution", Command: "ls"})
	completed(st, &item{Type: "agentMessage", Text: "Done."})
	tr := (&process{}).result(st, turnInfo{Status: "completed"})
	if want := "I listed the directory.\n\nDone."; tr.Result != want {
		t.Errorf("result %q, want %q", tr.Result, want)
	}
}

// A resumed thread's first update carries the whole thread's total; the
// turn's figures are the sum of its own calls (each update's last).
func TestResumedTurnCountsOnlyItsOwnTokens(t *testing.T) {
	c := &process{threadID: "th"}
	st := &turnState{start: time.Now(), id: "turn-9", items: map[string]*item{}, began: map[string]time.Time{}, baseline: c.total}
	update := func(turn string, total, last int32) {
		params := fmt.Sprintf(`{"threadId":"th","turnId":%q,"tokenUsage":{"total":{"inputTokens":%d,"outputTokens":1},"last":{"inputTokens":%d,"outputTokens":1}}}`, turn, total, last)
		c.handle(context.Background(), message{Method: "thread/tokenUsage/updated", Params: json.RawMessage(params)}, st, false, nil, nil)
	}
	update("turn-9", 20000+700, 700)
	update("turn-9", 20000+777, 77)
	tr := c.result(st, turnInfo{Status: "completed"})
	if tr.InputTokens != 777 || tr.OutputTokens != 2 {
		t.Errorf("turn tokens %d in / %d out, want 777 / 2", tr.InputTokens, tr.OutputTokens)
	}
}

// A conversation's MCP servers become `-c` overrides of Codex's
// mcp_servers table.
func TestMCPConfig(t *testing.T) {
	got := mcpConfig([]provider.MCPServer{
		{Name: "tools", Command: "/bin/tools", Args: []string{"-v", "x y"}, Env: map[string]string{"B": "2", "A": "1"}},
		{Name: "web", Type: "http", URL: "https://h/mcp", Headers: map[string]string{"Authorization": "Bearer t"}},
	})
	want := []string{
		`mcp_servers.tools.command="/bin/tools"`, `mcp_servers.tools.args=["-v", "x y"]`, `mcp_servers.tools.env={"A" = "1", "B" = "2"}`,
		`mcp_servers.web.url="https://h/mcp"`, `mcp_servers.web.http_headers={"Authorization" = "Bearer t"}`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
