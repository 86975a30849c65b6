package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

// The daemon in front of the real CLI: a WebSocket client and an SSE
// client each hold a two-turn session with a tool call, and see the same
// events in the same order.
func TestDaemonWebSocketAndSSEAgree(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("make a file", scriptedmodel.Bash("echo made > made.txt && cat made.txt"), scriptedmodel.Text("Made it: {{last_tool_result}}")),
		scriptedmodel.Then("and now", scriptedmodel.Text("Second answer.")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	d := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: testkit.ClaudePath(t)}),
		Env:      testkit.OfflineEnv(t, m.URL()), Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
	})
	post := func(path string, body any) *http.Response {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", d.URL+path, bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer "+d.Alice)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	for _, id := range []string{"via-sse", "via-ws"} {
		if resp := post("/v1/sessions", map[string]string{"id": id}); resp.StatusCode != http.StatusCreated {
			t.Fatalf("create %s: %d", id, resp.StatusCode)
		}
	}
	prompts := []string{"please make a file", "and now something else"}

	// SSE.
	var sse []string
	for _, p := range prompts {
		resp := post("/v1/sessions/via-sse/messages", map[string]string{"prompt": p})
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			if typ, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				sse = append(sse, typ)
			}
		}
	}

	// WebSocket.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := testkit.DialWS(ctx, d.URL, d.Alice)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var ws []string
	for i, p := range prompts {
		evs, err := c.Execute(ctx, "t"+strconv.Itoa(i), "via-ws", p)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			ws = append(ws, e.Event)
		}
	}

	// The CLI's own status frames vary from run to run; the conversation
	// must not.
	norm := func(types []string) []string {
		return slices.DeleteFunc(slices.Clone(types), func(s string) bool { return s == event.TypeSystem || s == event.TypeRaw })
	}
	if !slices.Equal(norm(sse), norm(ws)) {
		t.Fatalf("SSE and WebSocket differ:\nSSE %v\nWS  %v", norm(sse), norm(ws))
	}
	testkit.AssertOrder(t, sse, event.TypeSessionStart, event.TypeToolUse, event.TypeToolResult, event.TypeAnswer, event.TypeResult,
		event.TypeSessionStart, event.TypeAnswer, event.TypeResult)
}
