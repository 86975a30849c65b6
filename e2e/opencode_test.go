package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

// openCodeSDK returns the @opencode-ai/sdk package `make tools` installs.
func openCodeSDK(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(testkit.ModuleRoot(t), ".tools", "npm", "opencode-sdk", "node_modules", "@opencode-ai", "sdk")
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil {
		t.Fatalf("@opencode-ai/sdk is not installed at %s (run `make tools`): %v", dir, err)
	}
	return dir
}

// OpenCode's own SDK, in Node, holds a conversation with the real claude
// CLI through HotPlex: a session, the event stream, an asynchronous prompt
// whose reply runs a tool, a synchronous prompt, the message list.
func TestOpenCodeSDKAgainstDaemon(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	sdk := openCodeSDK(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed to run the OpenCode SDK: %v", err)
	}
	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("count the files", scriptedmodel.Bash("echo sdk-tool-ran > note.txt && cat note.txt"), scriptedmodel.Text("Done: {{last_tool_result}}")),
		scriptedmodel.Then("and then", scriptedmodel.Text("Second answer from the model.")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	d := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: testkit.ClaudePath(t)}),
		Env:      testkit.OfflineEnv(t, m.URL()), Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
	})

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	prompts := []string{"please count the files here", "and then say something else"}
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "opencode_client.mjs"), sdk, d.URL, d.Alice, prompts[0], prompts[1])
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the SDK client failed: %v\n%s", err, stderr.String())
	}
	var got struct {
		Providers []string `json:"providers"`
		Session   string   `json:"session"`
		Types     []string `json:"types"`
		Assistant struct {
			Role   string `json:"role"`
			Finish string `json:"finish"`
			Time   struct {
				Completed int64 `json:"completed"`
			} `json:"time"`
		} `json:"assistant"`
		Tool struct {
			Tool   string `json:"tool"`
			CallID string `json:"callID"`
			State  struct {
				Status string         `json:"status"`
				Input  map[string]any `json:"input"`
				Output string         `json:"output"`
			} `json:"state"`
		} `json:"tool"`
		Text      string `json:"text"`
		SyncReply struct {
			Role, Text string
		} `json:"syncReply"`
		Messages []struct {
			Role, Text string
		} `json:"messages"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the client's output: %v\n%s\n%s", err, out, stderr.String())
	}
	if !slices.Contains(got.Providers, "claude") || !strings.HasPrefix(got.Session, "ses_") {
		t.Fatalf("providers %v, session %q", got.Providers, got.Session)
	}
	tool := got.Tool
	if tool.Tool != "Bash" || tool.CallID == "" || tool.State.Status != "completed" ||
		!strings.Contains(tool.State.Output, "sdk-tool-ran") || !strings.Contains(tool.State.Input["command"].(string), "echo sdk-tool-ran") {
		t.Fatalf("tool part: %+v\n%s", tool, out)
	}
	if got.Text != "Done: sdk-tool-ran" {
		t.Fatalf("streamed text %q\n%s", got.Text, out)
	}
	if got.Assistant.Role != "assistant" || got.Assistant.Finish != "stop" || got.Assistant.Time.Completed == 0 {
		t.Fatalf("assistant message: %+v", got.Assistant)
	}
	testkit.AssertOrder(t, got.Types, "session.status", "message.updated", "message.part.updated", "message.updated", "session.idle")
	if got.SyncReply.Role != "assistant" || got.SyncReply.Text != "Second answer from the model." {
		t.Fatalf("synchronous reply: %+v", got.SyncReply)
	}
	want := []string{"user:" + prompts[0], "assistant:Done: sdk-tool-ran", "user:" + prompts[1], "assistant:Second answer from the model."}
	var msgs []string
	for _, m := range got.Messages {
		msgs = append(msgs, m.Role+":"+m.Text)
	}
	if !slices.Equal(msgs, want) {
		t.Fatalf("messages:\n%q\nwant\n%q", msgs, want)
	}
}
