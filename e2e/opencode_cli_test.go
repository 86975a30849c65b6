package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/api"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

// openCodeCLI returns the opencode program `make tools` installs.
func openCodeCLI(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(testkit.ModuleRoot(t), ".tools", "npm", "opencode", "node_modules", ".bin", "opencode")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("opencode is not installed at %s (run `make tools`): %v", bin, err)
	}
	return bin
}

// openCodeEnv gives the opencode program a home of its own, so that it
// reads no configuration of the machine's and writes nothing outside the
// test.
func openCodeEnv(home string) []string {
	return append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"), "XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"), "OPENCODE_DISABLE_AUTOUPDATE=1")
}

// openCodeDaemon starts a daemon on the real claude CLI and the scripted
// model, and a second agent, the model's API called directly: "count the
// files" runs a Bash tool, "wait a while" a long one,
// anything else is echoed.
func openCodeDaemon(t *testing.T) (*testkit.Daemon, *scriptedmodel.Server) {
	t.Helper()
	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		// Each agent's own shell tool: Claude Code's Bash, the API agent's bash.
		scriptedmodel.Then("count the files", scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Shell: "echo cli-tool-ran > note.txt && cat note.txt"}}},
			scriptedmodel.Text("Done: {{last_tool_result}}")),
		scriptedmodel.Then("wait a while", scriptedmodel.Bash("timeout 120 tail -f /dev/null; echo finished-waiting"), scriptedmodel.Text("Waited: {{last_tool_result}}")),
		// Claude Code's todo list, then a file written.
		scriptedmodel.Then("plan the work",
			scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: "TodoWrite", Input: map[string]any{"todos": []any{
				map[string]any{"content": "survey the tree", "status": "completed", "activeForm": "Surveying the tree"},
				map[string]any{"content": "write the plan file", "status": "in_progress", "activeForm": "Writing the plan file"},
			}}}}},
			scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Shell: "printf 'step one\\nstep two\\n' > plan.txt"}}},
			scriptedmodel.Text("Planned: {{last_tool_result}}")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	// A second agent: the model's API called directly, with a bash tool.
	direct, err := api.New(api.Options{Flavor: api.Anthropic, BaseURL: m.URL(), APIKey: "offline", Tools: true})
	if err != nil {
		t.Fatal(err)
	}
	d := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: testkit.ClaudePath(t)}), Providers: []provider.Provider{direct},
		Env: testkit.OfflineEnv(t, m.URL()), Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
	})
	return d, m
}

// ocRunEvent is a line of `opencode run --format json`.
type ocRunEvent struct {
	Type      string `json:"type"`
	SessionID string `json:"sessionID"`
	Part      struct {
		Type  string `json:"type"`
		Text  string `json:"text"`
		Tool  string `json:"tool"`
		State struct {
			Status string         `json:"status"`
			Input  map[string]any `json:"input"`
			Output string         `json:"output"`
		} `json:"state"`
	} `json:"part"`
}

// OpenCode's own CLI, attached to HotPlex with the API key as its
// password, runs a turn with a tool on the real claude CLI, then goes on
// with the same conversation by --continue and by --session, the model
// shown the earlier turns each time.
func TestOpenCodeRunAttach(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	bin := openCodeCLI(t)
	d, m := openCodeDaemon(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	home, dir := t.TempDir(), t.TempDir()
	run := func(args ...string) []byte {
		t.Helper()
		cmd := exec.CommandContext(ctx, bin, append([]string{"run", "--attach", d.URL, "-p", d.Alice, "--format", "json"}, args...)...)
		cmd.Env, cmd.Dir = openCodeEnv(home), dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("opencode run %v: %v\n%s\n%s", args, err, out, stderr.String())
		}
		return out
	}
	events := func(out []byte) []ocRunEvent {
		var evs []ocRunEvent
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			var ev ocRunEvent
			if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Type != "" {
				evs = append(evs, ev)
			}
		}
		return evs
	}

	out := run("-m", "claude/default", "please count the files here")
	var session, answer string
	var ranTool bool
	for _, ev := range events(out) {
		session = ev.SessionID
		switch {
		case ev.Part.Type == "tool":
			ranTool = ev.Part.Tool == "Bash" && ev.Part.State.Status == "completed" && strings.Contains(ev.Part.State.Output, "cli-tool-ran") &&
				strings.Contains(ev.Part.State.Input["command"].(string), "echo cli-tool-ran")
		case ev.Type == "text":
			answer = ev.Part.Text
		}
	}
	if !ranTool || answer != "Done: cli-tool-ran" || !strings.HasPrefix(session, "ses_") {
		t.Fatalf("tool %v, answer %q, session %q in\n%s", ranTool, answer, session, out)
	}

	saw := func(texts ...string) {
		t.Helper()
		reqs := m.TurnRequests()
		last := reqs[len(reqs)-1]
		for _, s := range texts {
			if !last.Saw(s) {
				t.Fatalf("the model was not shown %q: %q", s, last.Texts)
			}
		}
	}
	sessionOf := func(out []byte) string {
		t.Helper()
		evs := events(out)
		if len(evs) == 0 {
			t.Fatalf("no events in\n%s", out)
		}
		return evs[len(evs)-1].SessionID
	}
	if got := sessionOf(run("--continue", "what did you run before")); got != session {
		t.Fatalf("--continue went to %s, not %s", got, session)
	}
	saw("please count the files here", "what did you run before")
	if got := sessionOf(run("--session", session, "and the third question")); got != session {
		t.Fatalf("--session went to %s, not %s", got, session)
	}
	saw("please count the files here", "what did you run before", "and the third question")

	// The other agent, picked as OpenCode's model, answers a new session
	// within milliseconds; the CLI prints its tool call and answer all
	// the same (TestOpenCodeRunFastTurn).
	out = run("-m", "api-anthropic/default", "now count the files with the other agent")
	other := sessionOf(out)
	if other == session || other == "" {
		t.Fatalf("the other agent's session: %q", other)
	}
	ranTool, answer = false, ""
	for _, ev := range events(out) {
		switch {
		case ev.Part.Type == "tool":
			ranTool = ev.Part.State.Status == "completed" && strings.Contains(ev.Part.State.Output, "cli-tool-ran")
		case ev.Type == "text":
			answer = ev.Part.Text
		}
	}
	if !ranTool || !strings.HasPrefix(answer, "Done: cli-tool-ran") {
		t.Fatalf("the other agent: tool %v, answer %q in\n%s", ranTool, answer, out)
	}

	req, _ := http.NewRequest("GET", d.URL+"/session", nil)
	req.SetBasicAuth("opencode", d.Alice)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list []struct {
		ID    string `json:"id"`
		Model struct {
			ProviderID string `json:"providerID"`
		} `json:"model"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || len(list) != 2 {
		t.Fatalf("sessions: %v %+v", err, list)
	}
	agents := map[string]string{}
	for _, s := range list {
		agents[s.ID] = s.Model.ProviderID
	}
	if agents[session] != "claude" || agents[other] != "api-anthropic" {
		t.Fatalf("the sessions' agents: %v", agents)
	}
}

// tmux drives a program in a terminal of its own server, which ends with
// the test.
type tmux struct {
	t    *testing.T
	sock string
}

func startTmux(t *testing.T, argv ...string) *tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux is needed to drive the TUI: %v", err)
	}
	tm := &tmux{t: t, sock: filepath.Join(t.TempDir(), "tmux.sock")}
	tm.run(append([]string{"new-session", "-d", "-x", "140", "-y", "45"}, argv...)...)
	pane, _ := strconv.Atoi(strings.TrimSpace(tm.run("display-message", "-p", "#{pane_pid}")))
	t.Cleanup(func() {
		_, _ = exec.Command("tmux", "-S", tm.sock, "kill-server").CombinedOutput()
		if pane > 0 {
			// the program in the pane may still be writing its data
			// under the temporary home when the server has gone: it is
			// ended before the home is removed
			testkit.KillAndWait(t, pane)
		}
	})
	return tm
}

func (tm *tmux) run(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", tm.sock}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// waitFor returns the screen once it shows every one of texts.
func (tm *tmux) waitFor(texts ...string) string {
	tm.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		screen := tm.run("capture-pane", "-p")
		missing := ""
		for _, s := range texts {
			if !strings.Contains(screen, s) {
				missing = s
				break
			}
		}
		if missing == "" {
			return screen
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("the screen never showed %q:\n%s", missing, screen)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// prompt types text into the TUI's input and sends it. Keys sent while a
// dialog is still closing go nowhere, so the text is typed again until the
// screen shows it.
func (tm *tmux) prompt(text string) {
	tm.t.Helper()
	for try := 0; ; try++ {
		tm.run("send-keys", "-l", text)
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			if strings.Contains(tm.run("capture-pane", "-p"), text) {
				tm.run("send-keys", "Enter")
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		if try == 3 {
			tm.t.Fatalf("the input never showed %q:\n%s", text, tm.run("capture-pane", "-p"))
		}
	}
}

// startTUI starts OpenCode's TUI attached to d as alice, in tmux, with
// args after the URL.
func startTUI(t *testing.T, d *testkit.Daemon, args ...string) *tmux {
	t.Helper()
	return startTUIAt(t, d.URL, d.Alice, args...)
}

// startTUIAt starts OpenCode's TUI attached to the server at url with
// key, in tmux, with args after the URL.
func startTUIAt(t *testing.T, url, key string, args ...string) *tmux {
	t.Helper()
	bin := openCodeCLI(t)
	home := t.TempDir()
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	shellName := func(k string) bool {
		return k != "" && strings.IndexFunc(k, func(r rune) bool {
			return !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
		}) < 0
	}
	var sb strings.Builder
	sb.WriteString("#!/bin/sh\n")
	for _, kv := range openCodeEnv(home) {
		if k, v, ok := strings.Cut(kv, "="); ok && shellName(k) {
			sb.WriteString("export " + k + "=" + quote(v) + "\n")
		}
	}
	sb.WriteString("exec " + quote(bin) + " attach " + quote(url) + " -p " + quote(key))
	for _, a := range args {
		sb.WriteString(" " + quote(a))
	}
	sb.WriteString("\n")
	script := filepath.Join(home, "opencode.sh")
	if err := os.WriteFile(script, []byte(sb.String()), 0o700); err != nil {
		t.Fatal(err)
	}
	return startTmux(t, script)
}

// OpenCode's TUI, attached to HotPlex, starts, takes a prompt and shows
// the real claude CLI's tool call and answer.
func TestOpenCodeTUI(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	d, _ := openCodeDaemon(t)
	tm := startTUI(t, d)
	tm.waitFor("Ask anything", "claude")
	tm.run("send-keys", "-l", "please count the files here")
	tm.run("send-keys", "Enter")
	tm.waitFor("echo cli-tool-ran", "Done: cli-tool-ran")
	tm.run("send-keys", "-l", "and a second question")
	tm.run("send-keys", "Enter")
	tm.waitFor("You said: and a second question")
}

// The TUI's sidebar shows the todo list Claude Code wrote and the files
// the turn changed, as OpenCode shows its own; the same lists are served
// to OpenCode's SDK.
func TestOpenCodeTUITodoAndDiff(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	d, _ := openCodeDaemon(t)
	rec := recordTo(t, d.URL)
	tm := startTUIAt(t, rec.url, d.Alice)
	tm.waitFor("Ask anything")
	tm.run("send-keys", "-l", "please plan the work")
	tm.run("send-keys", "Enter")
	tm.waitFor("Planned:", "Todo", "write the plan file", "Modified Files", "plan.txt")
	// An @ mention finds the file in the session's directory; picked,
	// it completes the prompt, which the agent answers.
	tm.run("send-keys", "-l", "look at @pla")
	tm.waitFor("look at @pla", "┃ plan.txt") // the list of matches, above the prompt
	tm.run("send-keys", "Enter")
	tm.waitFor("look at @plan.txt")
	if !slices.ContainsFunc(rec.all(), func(e recorded) bool {
		return strings.HasPrefix(e.path, "/api/fs/find?") && e.status == http.StatusOK
	}) {
		t.Fatalf("the mention was not looked up: %v", rec.all())
	}
	tm.run("send-keys", "Enter")
	tm.waitFor("You said: look at @plan.txt")

	// Whatever the TUI asked that HotPlex does not serve was answered
	// with OpenCode's error shape.
	for _, e := range rec.all() {
		if e.status < 400 {
			continue
		}
		var body struct {
			Name string `json:"name"`
			Data struct {
				Message string `json:"message"`
			} `json:"data"`
		}
		if err := json.Unmarshal(e.body, &body); err != nil || body.Name == "" || body.Data.Message == "" {
			t.Errorf("not in OpenCode's error shape: %s", e)
		}
	}

	req, _ := http.NewRequest("GET", d.URL+"/session", nil)
	req.SetBasicAuth("opencode", d.Alice)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var list []struct {
		ID string `json:"id"`
	}
	err = json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if err != nil || len(list) != 1 {
		t.Fatalf("sessions: %v %v", err, list)
	}
	get := func(path string, v any) {
		t.Helper()
		req, _ := http.NewRequest("GET", d.URL+path, nil)
		req.SetBasicAuth("opencode", d.Alice)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %v", path, resp.StatusCode, err)
		}
	}
	var todos []struct{ Content, Status string }
	get("/session/"+list[0].ID+"/todo", &todos)
	if len(todos) != 2 || todos[0].Content != "survey the tree" || todos[0].Status != "completed" || todos[1].Status != "in_progress" {
		t.Fatalf("todos: %+v", todos)
	}
	var diff []struct {
		File, Before, After, Status string
		Additions                   int
	}
	get("/session/"+list[0].ID+"/diff", &diff)
	if len(diff) != 1 || diff[0].File != "plan.txt" || diff[0].Status != "added" || diff[0].After != "step one\nstep two\n" || diff[0].Additions != 2 {
		t.Fatalf("diff: %+v", diff)
	}
}

// In a session that asks a person before each tool use, the TUI shows the
// request: allowed once, the tool runs; rejected, it does not.
func TestOpenCodeTUIPermissions(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	d, _ := openCodeDaemon(t)
	req, _ := http.NewRequest("POST", d.URL+"/v1/sessions", strings.NewReader(`{"id":"ses_asks","approval":"ask"}`))
	req.Header.Set("Authorization", "Bearer "+d.Alice)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var sess struct {
		WorkDir string `json:"work_dir"`
	}
	err = json.NewDecoder(resp.Body).Decode(&sess)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusCreated || sess.WorkDir == "" {
		t.Fatalf("create: %d %v %+v", resp.StatusCode, err, sess)
	}
	// OpenCode takes only session IDs that start with "ses".
	tm := startTUI(t, d, "--session", "ses_asks")
	tm.waitFor("Build ·")
	tm.run("send-keys", "-l", "please count the files here")
	tm.run("send-keys", "Enter")
	tm.waitFor("Permission required", "Allow once", "Reject")
	tm.run("send-keys", "Enter") // Allow once is selected first
	tm.waitFor("Done: cli-tool-ran")
	if b, err := os.ReadFile(filepath.Join(sess.WorkDir, "note.txt")); err != nil || strings.TrimSpace(string(b)) != "cli-tool-ran" {
		t.Fatalf("the allowed tool did not run: %v %q", err, b)
	}
	if err := os.Remove(filepath.Join(sess.WorkDir, "note.txt")); err != nil {
		t.Fatal(err)
	}
	tm.run("send-keys", "-l", "now count the files again")
	tm.run("send-keys", "Enter")
	tm.waitFor("Permission required", "Reject")
	tm.run("send-keys", "Right")
	tm.run("send-keys", "Right")
	tm.run("send-keys", "Enter")
	// The second turn ends with its tool refused.
	deadline := time.Now().Add(90 * time.Second)
	for {
		msgs := openCodeMessages(t, d, "ses_asks")
		if n := len(msgs); n == 4 && msgs[3].Info.Time.Completed != 0 {
			var tool string
			for _, p := range msgs[3].Parts {
				if p.Type == "tool" {
					tool = p.State.Status
				}
			}
			if tool != "error" {
				t.Fatalf("the rejected tool is %q: %+v", tool, msgs[3])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the rejected turn did not end: %+v\n%s", msgs, tm.run("capture-pane", "-p"))
		}
		time.Sleep(200 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(sess.WorkDir, "note.txt")); !os.IsNotExist(err) {
		t.Fatalf("the rejected tool ran: %v", err)
	}
}

// ocMessage is a message of GET /session/{id}/message.
type ocMessage struct {
	Info struct {
		Role string `json:"role"`
		Time struct {
			Completed int64 `json:"completed"`
		} `json:"time"`
		Error *struct {
			Name string `json:"name"`
		} `json:"error"`
	} `json:"info"`
	Parts []struct {
		Type  string `json:"type"`
		Text  string `json:"text"`
		State struct {
			Status string `json:"status"`
			Output string `json:"output"`
		} `json:"state"`
	} `json:"parts"`
}

// openCodeMessages lists a session's messages as alice, as OpenCode's
// programs do.
func openCodeMessages(t *testing.T, d *testkit.Daemon, id string) []ocMessage {
	t.Helper()
	req, _ := http.NewRequest("GET", d.URL+"/session/"+id+"/message", nil)
	req.SetBasicAuth("opencode", d.Alice)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var msgs []ocMessage
	if err := json.NewDecoder(resp.Body).Decode(&msgs); err != nil {
		t.Fatalf("messages: %d %v", resp.StatusCode, err)
	}
	return msgs
}

// Esc in the TUI interrupts the running turn: the long tool never
// finishes and the answer is marked aborted.
func TestOpenCodeTUIInterrupt(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	d, _ := openCodeDaemon(t)
	tm := startTUI(t, d)
	tm.waitFor("Ask anything")
	tm.run("send-keys", "-l", "please wait a while")
	tm.run("send-keys", "Enter")
	tm.waitFor("timeout 120 tail")
	// The first Esc arms the interrupt, the second sends it.
	tm.run("send-keys", "Escape")
	tm.waitFor("again to interrupt")
	tm.run("send-keys", "Escape")
	req, _ := http.NewRequest("GET", d.URL+"/session", nil)
	req.SetBasicAuth("opencode", d.Alice)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var list []struct {
		ID string `json:"id"`
	}
	err = json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if err != nil || len(list) != 1 {
		t.Fatalf("sessions: %v %v", err, list)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		msgs := openCodeMessages(t, d, list[0].ID)
		if n := len(msgs); n == 2 && msgs[1].Info.Time.Completed != 0 {
			reply := msgs[1]
			if reply.Info.Error == nil || reply.Info.Error.Name != "MessageAbortedError" {
				t.Fatalf("the interrupted answer: %+v", reply)
			}
			for _, p := range reply.Parts {
				if p.Type == "tool" && p.State.Status == "completed" {
					t.Fatalf("the long tool finished: %+v", reply)
				}
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the turn was not interrupted: %+v\n%s", msgs, tm.run("capture-pane", "-p"))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Each HotPlex agent is a model in the TUI's model list: picking the
// other agent there runs the next new session on it.
func TestOpenCodeTUIPicksAgent(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	d, _ := openCodeDaemon(t)
	tm := startTUI(t, d)
	tm.waitFor("Ask anything")
	tm.run("send-keys", "-l", "/models")
	tm.waitFor("/models")
	tm.run("send-keys", "Enter")
	tm.waitFor("Select model", "api-anthropic (the agent's default model)", "claude (the agent's default model)")
	tm.run("send-keys", "-l", "api-anthropic")
	// The list filters as it is typed into; Enter picks once it has.
	time.Sleep(time.Second)
	tm.run("send-keys", "Enter")
	tm.waitFor("Build · api-anthropic")
	tm.prompt("please count the files here")
	tm.waitFor("Done: cli-tool-ran")
	req, _ := http.NewRequest("GET", d.URL+"/session", nil)
	req.SetBasicAuth("opencode", d.Alice)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list []struct {
		Model struct {
			ProviderID string `json:"providerID"`
		} `json:"model"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || len(list) != 1 || list[0].Model.ProviderID != "api-anthropic" {
		t.Fatalf("sessions: %v %+v", err, list)
	}
}

// heldStream is a proxy to a daemon that holds each OpenCode event stream
// back until a prompt has gone through and the model has had time to
// answer it: what happens at times when OpenCode's CLI opens its stream
// and sends its prompt together, and the agent answers within
// milliseconds.
type heldStream struct {
	log      []string
	mu       sync.Mutex
	prompted chan struct{}
	proxy    *httputil.ReverseProxy
}

func (h *heldStream) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.prompted = make(chan struct{})
}

func (h *heldStream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	prompted := h.prompted
	h.log = append(h.log, fmt.Sprintf("%s start %s %s", time.Now().Format("05.000"), r.Method, r.URL.String()))
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.log = append(h.log, fmt.Sprintf("%s end %s %s", time.Now().Format("05.000"), r.Method, r.URL.String()))
		h.mu.Unlock()
	}()
	switch {
	case r.Method == "GET" && r.URL.Path == "/event":
		select {
		case <-prompted:
			time.Sleep(300 * time.Millisecond)
		case <-time.After(10 * time.Second):
		case <-r.Context().Done():
			return
		}
	case r.Method == "POST" && strings.HasSuffix(r.URL.Path, "/message"):
		select {
		case <-prompted:
		default:
			close(prompted)
		}
	}
	h.proxy.ServeHTTP(w, r)
}

// OpenCode's CLI prints the answer of a turn that ends before its event
// stream opens: the prompt waits for the stream, and answers once the
// stream has shown the turn's end.
func TestOpenCodeRunFastTurn(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	bin := openCodeCLI(t)
	d, _ := openCodeDaemon(t)
	target, err := url.Parse(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	h := &heldStream{proxy: httputil.NewSingleHostReverseProxy(target)}
	h.proxy.FlushInterval = -1
	h.reset()
	srv := httptest.NewServer(h)
	defer srv.Close()
	home := t.TempDir()
	for _, c := range []struct{ prompt, answer string }{
		{"hello there", `You said: "hello there"`},
		{"please count the files here", "Done: cli-tool-ran"},
	} {
		h.reset()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, bin, "run", "--attach", srv.URL, "-p", d.Alice, "-m", "api-anthropic/default", c.prompt)
		cmd.Env, cmd.Dir = openCodeEnv(home), t.TempDir()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		cancel()
		if err != nil || !strings.Contains(string(out), c.answer) {
			h.mu.Lock()
			t.Log(strings.Join(h.log, "\n"))
			h.mu.Unlock()
			t.Fatalf("opencode run %q: %v, printed %q\n%s", c.prompt, err, out, stderr.String())
		}
	}
}

// recorder is a proxy to a daemon that notes every request and, for
// those that failed, the answer.
type recorder struct {
	url  string
	mu   sync.Mutex
	reqs []recorded
}

type recorded struct {
	method, path string
	status       int
	body         []byte // of a failed request
}

func (r recorded) String() string {
	return fmt.Sprintf("%s %s %d %s", r.method, r.path, r.status, r.body)
}

func recordTo(t *testing.T, target string) *recorder {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.FlushInterval = -1
	proxy.ModifyResponse = func(resp *http.Response) error {
		e := recorded{method: resp.Request.Method, path: resp.Request.URL.RequestURI(), status: resp.StatusCode}
		if resp.StatusCode >= 400 {
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				return err
			}
			e.body = b
			resp.Body = io.NopCloser(bytes.NewReader(b))
		}
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, e)
		rec.mu.Unlock()
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	rec.url = srv.URL
	return rec
}

func (r *recorder) all() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.reqs)
}
