package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// binPath is the fakeagent binary built once by TestMain (with -race when
// the tests run with -race, so the binary's own concurrency is checked).
var binPath string

// raceEnabled is set by race_test.go when the tests run with -race.
var raceEnabled bool

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fakeagent-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = filepath.Join(dir, "fakeagent")
	args := []string{"build", "-o", binPath}
	if raceEnabled {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, ".")...)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building fakeagent:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var baseArgs = []string{"-p", "--output-format=stream-json", "--input-format", "stream-json", "--verbose"}

// proc is one running fakeagent.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	done   chan struct{}
	stderr *lockedBuffer
	dir    string
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// start runs fakeagent with HOME=home in the working directory home/work:
// conversations, as with the real CLI, belong to their working directory,
// so every start with the same home sees the same ones.
func start(t *testing.T, home string, env []string, args ...string) *proc {
	t.Helper()
	dir := filepath.Join(home, "work")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, lines: make(chan string, 10000), done: make(chan struct{}), stderr: &lockedBuffer{}, dir: dir}
	p.cmd = exec.Command(binPath, append(append([]string{}, baseArgs...), args...)...)
	p.cmd.Dir = p.dir
	// A race in the binary kills it (exit 66) instead of only printing;
	// atexit_sleep_ms=0 drops the race runtime's 1s pause at exit.
	p.cmd.Env = append(append(os.Environ(), "HOME="+home, "GORACE=halt_on_error=1 atexit_sleep_ms=0"), env...)
	p.cmd.Stderr = p.stderr
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			line, err := r.ReadString('\n')
			if len(line) > 0 {
				p.lines <- strings.TrimSuffix(line, "\n")
			}
			if err != nil {
				break
			}
		}
		close(p.lines)
		_ = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.stdin.Close()
		select {
		case <-p.done:
		case <-time.After(patience):
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

func (p *proc) send(v any) {
	p.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		p.t.Fatal(err)
	}
	if _, err := p.stdin.Write(append(b, '\n')); err != nil {
		p.t.Fatalf("writing stdin: %v", err)
	}
}

func (p *proc) prompt(text string) {
	p.t.Helper()
	p.send(obj{"type": "user", "message": obj{"role": "user", "content": []any{obj{"type": "text", "text": text}}}})
}

// nextLine returns the next stdout line, or ok=false at EOF.
func (p *proc) nextLine(timeout time.Duration) (string, bool) {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		return l, ok
	case <-time.After(timeout):
		p.t.Fatalf("no output within %v; stderr: %s", timeout, p.stderr.String())
		return "", false
	}
}

// waitFor skips frames until one satisfies match and returns it. Non-JSON
// lines are skipped.
func (p *proc) waitFor(what string, timeout time.Duration, match func(obj) bool) obj {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	var seen []string
	for {
		left := time.Until(deadline)
		if left <= 0 {
			p.t.Fatalf("timed out waiting for %s; saw %d lines:\n%s\nstderr: %s", what, len(seen), strings.Join(seen, "\n"), p.stderr.String())
		}
		line, ok := p.nextLine(left)
		if !ok {
			p.t.Fatalf("EOF waiting for %s; saw:\n%s\nstderr: %s", what, strings.Join(seen, "\n"), p.stderr.String())
		}
		seen = append(seen, trunc(line))
		var f obj
		if json.Unmarshal([]byte(line), &f) == nil && match(f) {
			return f
		}
	}
}

func (p *proc) waitType(typ, subtype string) obj {
	p.t.Helper()
	return p.waitFor(typ+"/"+subtype, patience, func(f obj) bool {
		return f["type"] == typ && (subtype == "" || f["subtype"] == subtype || sub(f, "request", "subtype") == subtype)
	})
}

// exitCode waits for the process to end.
func (p *proc) exitCode(timeout time.Duration) int {
	p.t.Helper()
	go func() {
		for range p.lines { // drain
		}
	}()
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(timeout):
		p.t.Fatalf("process did not exit within %v", timeout)
		return 0
	}
}

func trunc(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// sub walks nested objects.
func sub(f obj, path ...string) any {
	var v any = f
	for _, k := range path {
		m, ok := v.(obj)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func str(f obj, path ...string) string { s, _ := sub(f, path...).(string); return s }

// block returns the first content block of an assistant or user message.
func block(f obj) obj {
	c, _ := sub(f, "message", "content").([]any)
	if len(c) == 0 {
		return nil
	}
	b, _ := c[0].(obj)
	return b
}

func b64(cmd string) string { return base64.RawURLEncoding.EncodeToString([]byte(cmd)) }

func reply(id string, body obj) obj {
	return obj{"type": "control_response", "response": obj{"subtype": "success", "request_id": id, "response": body}}
}

func initialize(p *proc, hooks obj) {
	p.t.Helper()
	req := obj{"subtype": "initialize"}
	if hooks != nil {
		req["hooks"] = hooks
	}
	p.send(obj{"type": "control_request", "request_id": "init1", "request": req})
	f := p.waitType("control_response", "")
	if str(f, "response", "request_id") != "init1" || str(f, "response", "subtype") != "success" {
		p.t.Fatalf("bad initialize response: %v", f)
	}
}

func bashHooks(matcher string) obj {
	return obj{"PreToolUse": []any{obj{"matcher": matcher, "hookCallbackIds": []string{"h0"}}}}
}

const sid = "12345678-1111-4111-8111-111111111111"

func TestInitializeHandshake(t *testing.T) {
	p := start(t, t.TempDir(), []string{"FAKEAGENT_START_DELAY_MS=300"}, "--model=claude-test")
	t0 := time.Now()
	p.send(obj{"type": "control_request", "request_id": "abc", "request": obj{"subtype": "initialize", "hooks": bashHooks("Bash")}})
	f := p.waitType("control_response", "")
	if d := time.Since(t0); d < 300*time.Millisecond {
		t.Errorf("initialize answered after %v, want >= 300ms delay", d)
	}
	resp, _ := sub(f, "response").(obj)
	if resp["subtype"] != "success" || resp["request_id"] != "abc" {
		t.Fatalf("bad response envelope: %v", resp)
	}
	body, _ := resp["response"].(obj)
	if body["claude_code_version"] != cliVersion || body["current_permission_mode"] != "default" {
		t.Errorf("bad initialize body: %v", body)
	}
	if cmds, _ := body["commands"].([]any); len(cmds) == 0 {
		t.Errorf("no commands in initialize response")
	}
	if m := sub(body, "models"); m == nil {
		t.Errorf("no models")
	}
	p.send(obj{"type": "control_request", "request_id": "x", "request": obj{"subtype": "no_such_thing"}})
	f = p.waitType("control_response", "")
	if str(f, "response", "subtype") != "error" || str(f, "response", "request_id") != "x" {
		t.Errorf("unknown subtype: got %v", f)
	}
	p.stdin.Close()
	if code := p.exitCode(patience); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}

func TestDefaultTurn(t *testing.T) {
	p := start(t, t.TempDir(), nil, "--session-id", sid, "--model=claude-test")
	initialize(p, nil)
	// Plain string content.
	p.send(obj{"type": "user", "message": obj{"role": "user", "content": "hello world"}})
	init := p.waitType("system", "init")
	wantCwd, _ := filepath.EvalSymlinks(p.dir)
	if init["session_id"] != sid || init["model"] != "claude-test" || init["cwd"] != wantCwd {
		t.Errorf("bad system/init: session_id=%v model=%v cwd=%v", init["session_id"], init["model"], init["cwd"])
	}
	if tools, _ := init["tools"].([]any); len(tools) == 0 {
		t.Errorf("no tools in init")
	}
	a := p.waitType("assistant", "")
	if b := block(a); b["type"] != "text" || b["text"] != "echo: hello world" {
		t.Errorf("assistant block = %v", b)
	}
	r := p.waitType("result", "")
	if r["subtype"] != "success" || r["is_error"] != false || r["result"] != "echo: hello world" || r["session_id"] != sid {
		t.Errorf("bad result: %v", r)
	}
	for _, k := range []string{"input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"} {
		if _, ok := sub(r, "usage", k).(float64); !ok {
			t.Errorf("usage.%s missing: %v", k, r["usage"])
		}
	}
	if sub(r, "modelUsage", "claude-test") == nil {
		t.Errorf("modelUsage lacks the model: %v", r["modelUsage"])
	}
	if c, _ := r["total_cost_usd"].(float64); c <= 0 || c > 1 {
		t.Errorf("total_cost_usd = %v", r["total_cost_usd"])
	}

	// Array content, several blocks, thinking: unique ids, result is the last text.
	p.prompt("think blocks:3")
	p.waitType("system", "init")
	ids, uuids := map[string]bool{}, map[string]bool{}
	var kinds []string
	for {
		f := p.waitFor("assistant or result", patience, func(f obj) bool { return f["type"] == "assistant" || f["type"] == "result" })
		if f["type"] == "result" {
			if f["result"] != "part 3" {
				t.Errorf("result = %v, want part 3", f["result"])
			}
			break
		}
		kinds = append(kinds, fmt.Sprint(block(f)["type"]))
		ids[str(f, "message", "id")] = true
		uuids[str(f, "uuid")] = true
	}
	if strings.Join(kinds, ",") != "thinking,text,text,text" || len(ids) != 4 || len(uuids) != 4 {
		t.Errorf("blocks %v, %d ids, %d uuids", kinds, len(ids), len(uuids))
	}
	p.stdin.Close()
	if code := p.exitCode(patience); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

func TestPartialMessages(t *testing.T) {
	p := start(t, t.TempDir(), nil, "--include-partial-messages")
	p.prompt("hi there")
	var text strings.Builder
	p.waitFor("assistant", patience, func(f obj) bool {
		if f["type"] == "stream_event" && str(f, "event", "delta", "type") == "text_delta" {
			text.WriteString(str(f, "event", "delta", "text"))
		}
		return f["type"] == "assistant"
	})
	if text.String() != "echo: hi there" {
		t.Errorf("deltas concatenate to %q", text.String())
	}
	p.waitType("result", "success")
}

func TestBashToolHookAndPermissionAllow(t *testing.T) {
	p := start(t, t.TempDir(), nil, "--permission-prompt-tool", "stdio")
	initialize(p, bashHooks("Bash"))
	p.prompt("please bash:" + b64("echo original > orig.txt"))
	p.waitType("system", "init")
	use := block(p.waitType("assistant", ""))
	if use["type"] != "tool_use" || use["name"] != "Bash" || str(use, "input", "command") != "echo original > orig.txt" {
		t.Fatalf("tool_use block = %v", use)
	}
	toolID, _ := use["id"].(string)

	hook := p.waitType("control_request", "hook_callback")
	req, _ := hook["request"].(obj)
	if req["callback_id"] != "h0" || str(req, "input", "hook_event_name") != "PreToolUse" ||
		str(req, "input", "tool_name") != "Bash" || str(req, "input", "tool_use_id") != toolID ||
		str(req, "input", "tool_input", "command") != "echo original > orig.txt" {
		t.Errorf("bad hook_callback: %v", req)
	}
	p.send(reply(hook["request_id"].(string), obj{"continue": true}))

	perm := p.waitType("control_request", "can_use_tool")
	req, _ = perm["request"].(obj)
	if req["tool_name"] != "Bash" || req["tool_use_id"] != toolID || str(req, "input", "command") != "echo original > orig.txt" {
		t.Errorf("bad can_use_tool: %v", req)
	}
	if s, ok := req["permission_suggestions"].([]any); !ok || len(s) != 0 {
		t.Errorf("permission_suggestions = %v", req["permission_suggestions"])
	}
	p.send(reply(perm["request_id"].(string), obj{"behavior": "allow",
		"updatedInput": obj{"command": "echo hi > made.txt; echo made it", "description": "changed"}}))

	res := p.waitType("user", "")
	b := block(res)
	content, _ := b["content"].([]any)
	if b["type"] != "tool_result" || b["tool_use_id"] != toolID || b["is_error"] != false || len(content) != 1 ||
		str(content[0].(obj), "text") != "made it\n" {
		t.Errorf("bad tool_result: %v", b)
	}
	if str(res, "tool_use_result", "stdout") != "made it\n" {
		t.Errorf("tool_use_result = %v", res["tool_use_result"])
	}
	if b := block(p.waitType("assistant", "")); b["text"] != "ran: made it" {
		t.Errorf("final text = %v", b)
	}
	r := p.waitType("result", "")
	if r["subtype"] != "success" || r["result"] != "ran: made it" {
		t.Errorf("result = %v", r)
	}
	if data, err := os.ReadFile(filepath.Join(p.dir, "made.txt")); err != nil || string(data) != "hi\n" {
		t.Errorf("made.txt: %q, %v", data, err)
	}
	if _, err := os.Stat(filepath.Join(p.dir, "orig.txt")); err == nil {
		t.Errorf("original command ran despite updatedInput")
	}
}

func TestHookAllowSkipsPermissionPrompt(t *testing.T) {
	p := start(t, t.TempDir(), nil, "--permission-prompt-tool=stdio")
	initialize(p, bashHooks("Ba.*"))
	p.prompt("bash:" + b64("echo ok"))
	hook := p.waitType("control_request", "hook_callback")
	p.send(reply(hook["request_id"].(string), obj{"hookSpecificOutput": obj{"hookEventName": "PreToolUse", "permissionDecision": "allow"}}))
	f := p.waitFor("tool result", patience, func(f obj) bool { return f["type"] == "user" || f["type"] == "control_request" })
	if f["type"] != "user" {
		t.Fatalf("got %v, want the tool to run without can_use_tool", f)
	}
	if r := p.waitType("result", ""); r["result"] != "ran: ok" {
		t.Errorf("result = %v", r["result"])
	}
}

func TestBashDenied(t *testing.T) {
	t.Run("hook", func(t *testing.T) {
		p := start(t, t.TempDir(), nil, "--permission-prompt-tool=stdio")
		initialize(p, bashHooks(""))
		p.prompt("bash:" + b64("touch nope.txt"))
		hook := p.waitType("control_request", "hook_callback")
		p.send(reply(hook["request_id"].(string), obj{"hookSpecificOutput": obj{"hookEventName": "PreToolUse",
			"permissionDecision": "deny", "permissionDecisionReason": "no shells today"}}))
		f := p.waitFor("tool result", patience, func(f obj) bool { return f["type"] == "user" || f["type"] == "control_request" })
		b := block(f)
		if f["type"] != "user" || b["is_error"] != true || !strings.Contains(fmt.Sprint(b["content"]), "no shells today") {
			t.Fatalf("got %v, want an error tool_result with the reason", f)
		}
		r := p.waitType("result", "")
		if d, _ := r["permission_denials"].([]any); len(d) != 1 {
			t.Errorf("permission_denials = %v", r["permission_denials"])
		}
		if _, err := os.Stat(filepath.Join(p.dir, "nope.txt")); err == nil {
			t.Errorf("denied command ran")
		}
	})
	t.Run("can_use_tool", func(t *testing.T) {
		p := start(t, t.TempDir(), nil, "--permission-prompt-tool=stdio")
		p.prompt("bash:" + b64("touch nope.txt"))
		perm := p.waitType("control_request", "can_use_tool")
		p.send(reply(perm["request_id"].(string), obj{"behavior": "deny", "message": "user said no"}))
		b := block(p.waitType("user", ""))
		if b["is_error"] != true || b["content"] != "user said no" {
			t.Errorf("tool_result = %v", b)
		}
		r := p.waitType("result", "")
		if d, _ := r["permission_denials"].([]any); len(d) != 1 || r["is_error"] != false {
			t.Errorf("result = %v", r)
		}
		if _, err := os.Stat(filepath.Join(p.dir, "nope.txt")); err == nil {
			t.Errorf("denied command ran")
		}
	})
	t.Run("bypass_and_unmatched_hook", func(t *testing.T) {
		p := start(t, t.TempDir(), nil, "--permission-prompt-tool=stdio", "--permission-mode", "bypassPermissions")
		initialize(p, bashHooks("Write|Edit"))
		p.prompt("bash:" + b64("echo free"))
		f := p.waitFor("tool result", patience, func(f obj) bool { return f["type"] == "user" || f["type"] == "control_request" })
		if f["type"] != "user" {
			t.Fatalf("got %v, want no hook/permission request", f)
		}
		p.waitType("result", "success")
	})
}

func TestInterrupt(t *testing.T) {
	t.Run("sleep", func(t *testing.T) {
		p := start(t, t.TempDir(), nil)
		p.prompt("sleep:10000")
		p.waitType("system", "init")
		t0 := time.Now()
		p.send(obj{"type": "control_request", "request_id": "int1", "request": obj{"subtype": "interrupt"}})
		ack := p.waitType("control_response", "")
		if str(ack, "response", "request_id") != "int1" || str(ack, "response", "subtype") != "success" {
			t.Errorf("interrupt ack = %v", ack)
		}
		u := p.waitType("user", "")
		if block(u)["text"] != "[Request interrupted by user]" {
			t.Errorf("user frame = %v", u)
		}
		r := p.waitType("result", "")
		if d := time.Since(t0); d > 2*time.Second { // the sleep lasts 10 s
			t.Errorf("interrupted result after %v", d)
		}
		if r["subtype"] != "error_during_execution" || r["is_error"] != true {
			t.Errorf("result = %v", r)
		}
		p.prompt("after")
		if r := p.waitType("result", ""); r["result"] != "echo: after" {
			t.Errorf("next turn result = %v", r)
		}
	})
	t.Run("tool", func(t *testing.T) {
		p := start(t, t.TempDir(), nil, "--dangerously-skip-permissions")
		p.prompt("bash:" + b64("echo start; sleep 30; echo end"))
		p.waitType("assistant", "")
		time.Sleep(100 * time.Millisecond) // let the command start
		t0 := time.Now()
		p.send(obj{"type": "control_request", "request_id": "int2", "request": obj{"subtype": "interrupt"}})
		b := block(p.waitType("user", ""))
		if b["type"] != "tool_result" || b["is_error"] != true {
			t.Errorf("tool_result = %v", b)
		}
		if b := block(p.waitType("user", "")); b["text"] != "[Request interrupted by user for tool use]" {
			t.Errorf("interrupt note = %v", b)
		}
		r := p.waitType("result", "")
		// Under 1s (the pipe WaitDelay) proves the whole process group died.
		if d := time.Since(t0); d > 800*time.Millisecond || r["subtype"] != "error_during_execution" {
			t.Errorf("result %v after %v", r["subtype"], d)
		}
	})
	t.Run("permission_prompt", func(t *testing.T) {
		p := start(t, t.TempDir(), nil, "--permission-prompt-tool=stdio")
		p.prompt("bash:" + b64("echo never"))
		perm := p.waitType("control_request", "can_use_tool")
		p.send(obj{"type": "control_request", "request_id": "int3", "request": obj{"subtype": "interrupt"}})
		c := p.waitType("control_cancel_request", "")
		if c["request_id"] != perm["request_id"] {
			t.Errorf("cancelled %v, want %v", c["request_id"], perm["request_id"])
		}
		if r := p.waitType("result", ""); r["subtype"] != "error_during_execution" {
			t.Errorf("result = %v", r)
		}
	})
}

func TestFailures(t *testing.T) {
	t.Run("crash", func(t *testing.T) {
		p := start(t, t.TempDir(), nil)
		p.prompt("crash")
		p.waitType("system", "init")
		if code := p.exitCode(patience); code != 3 {
			t.Errorf("exit code %d, want 3", code)
		}
		if !strings.Contains(p.stderr.String(), "fakeagent: crashing on purpose") {
			t.Errorf("stderr = %q", p.stderr.String())
		}
	})
	t.Run("exitnow", func(t *testing.T) {
		p := start(t, t.TempDir(), nil)
		p.prompt("exitnow")
		if l, ok := p.nextLine(patience); ok {
			t.Errorf("unexpected output %q", l)
		}
		if code := p.exitCode(patience); code != 2 {
			t.Errorf("exit code %d, want 2", code)
		}
	})
	t.Run("fail_start", func(t *testing.T) {
		p := start(t, t.TempDir(), []string{"FAKEAGENT_FAIL_START=1"})
		if code := p.exitCode(patience); code != 1 || p.stderr.String() == "" {
			t.Errorf("exit code %d, stderr %q", code, p.stderr.String())
		}
	})
	t.Run("sigterm", func(t *testing.T) {
		p := start(t, t.TempDir(), nil, "--dangerously-skip-permissions")
		p.prompt("bash:" + b64("sleep 30"))
		p.waitType("assistant", "")
		time.Sleep(50 * time.Millisecond)
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		if code := p.exitCode(2 * time.Second); code != 143 {
			t.Errorf("exit code %d, want 143", code)
		}
	})
	t.Run("stdin_eof_finishes_turn", func(t *testing.T) {
		p := start(t, t.TempDir(), nil)
		p.prompt("sleep:200 then done")
		p.stdin.Close()
		if r := p.waitType("result", ""); r["result"] != "echo: sleep:200 then done" {
			t.Errorf("result = %v", r)
		}
		if code := p.exitCode(patience); code != 0 {
			t.Errorf("exit code %d", code)
		}
	})
}

func TestGarbageAndHuge(t *testing.T) {
	p := start(t, t.TempDir(), nil)
	p.prompt("garbage huge:200000")
	p.waitType("system", "init")
	if l, _ := p.nextLine(patience); l != "this is not json {" {
		t.Errorf("line = %q", trunc(l))
	}
	if f := p.waitType("mystery_frame", ""); f["x"] != float64(1) {
		t.Errorf("mystery frame = %v", f)
	}
	if b := block(p.waitType("assistant", "")); b["text"] != strings.Repeat("x", 200000) {
		t.Errorf("huge text has %d bytes", len(fmt.Sprint(b["text"])))
	}
	if r := p.waitType("result", ""); r["result"] != "echo: garbage huge:200000" {
		t.Errorf("result = %v", r["result"])
	}
	// A long input line is fine too.
	p.prompt(strings.Repeat("y", 2<<20))
	if r := p.waitType("result", ""); len(fmt.Sprint(r["result"])) != 2<<20+len("echo: ") {
		t.Errorf("long prompt not echoed")
	}
}

func TestSessions(t *testing.T) {
	home := t.TempDir()
	p := start(t, home, nil, "--session-id="+sid)
	p.prompt("first one")
	p.waitType("result", "")
	p.prompt("second")
	p.waitType("result", "")
	p.stdin.Close()
	if code := p.exitCode(patience); code != 0 {
		t.Fatalf("exit code %d", code)
	}

	t.Run("session_id_in_use", func(t *testing.T) {
		p := start(t, home, nil, "--session-id", sid)
		if code := p.exitCode(patience); code != 1 {
			t.Errorf("exit code %d, want 1", code)
		}
		if want := "Error: Session ID " + sid + " is already in use."; !strings.Contains(p.stderr.String(), want) {
			t.Errorf("stderr = %q, want %q", p.stderr.String(), want)
		}
	})
	t.Run("resume_history", func(t *testing.T) {
		p := start(t, home, nil, "--resume", sid)
		p.prompt("history")
		if init := p.waitType("system", "init"); init["session_id"] != sid {
			t.Errorf("resumed session_id = %v", init["session_id"])
		}
		if r := p.waitType("result", ""); r["result"] != "first one | second" {
			t.Errorf("history = %v", r["result"])
		}
		p.prompt("history again")
		if r := p.waitType("result", ""); r["result"] != "first one | second | history" {
			t.Errorf("history = %v", r["result"])
		}
	})
	t.Run("resume_unknown", func(t *testing.T) {
		const other = "99999999-1111-4111-8111-111111111111"
		p := start(t, home, nil, "--resume="+other)
		r := p.waitType("result", "")
		if r["is_error"] != true {
			t.Errorf("result = %v", r)
		}
		if code := p.exitCode(patience); code != 1 {
			t.Errorf("exit code %d, want 1", code)
		}
		if want := "No conversation found with session ID: " + other; !strings.Contains(p.stderr.String(), want) {
			t.Errorf("stderr = %q", p.stderr.String())
		}
	})
	t.Run("fresh_history_empty", func(t *testing.T) {
		p := start(t, home, nil)
		p.prompt("history")
		if r := p.waitType("result", ""); r["result"] != "(no history)" {
			t.Errorf("history = %v", r["result"])
		}
	})
}

func TestParseArgs(t *testing.T) {
	o := parseArgs([]string{"-p", "--output-format", "stream-json", "--session-id", sid, "--model=m1",
		"--allowedTools", "Bash", "Edit", "--unknown", "val", "--permission-prompt-tool", "stdio", "--verbose",
		"--weird=1", "--disallowedTools=Write,Read", "--append-system-prompt", "--be nice", "--include-partial-messages"})
	if !o.print || !o.verbose || !o.partial || o.outputFormat != "stream-json" || o.sessionID != sid || o.model != "m1" ||
		o.permissionPromptTool != "stdio" || o.appendSystemPrompt != "--be nice" || o.permissionMode != "default" ||
		strings.Join(o.allowedTools, ",") != "Bash,Edit" || strings.Join(o.disallowedTools, ",") != "Write,Read" {
		t.Errorf("parsed %+v", o)
	}
	if o := parseArgs([]string{"--dangerously-skip-permissions", "--resume=" + sid}); o.permissionMode != "bypassPermissions" || o.resume != sid || o.model != defaultModel {
		t.Errorf("parsed %+v", o)
	}
}

func TestParseDirectives(t *testing.T) {
	d := parseDirectives("do think:deep blocks:2 sleep:15 huge:7 garbage history crash bash:" + b64("ls -l") + " bash:" + base64.URLEncoding.EncodeToString([]byte("pwd?>")))
	if !d.think || d.thinkText != "deep" || d.blocks != 2 || d.sleep != 15*time.Millisecond || d.huge != 7 ||
		!d.garbage || !d.history || !d.crash || d.exitNow || strings.Join(d.bash, ";") != "ls -l;pwd?>" {
		t.Errorf("parsed %+v", d)
	}
	if d := parseDirectives("just chat"); d.think || d.blocks != 0 || len(d.bash) != 0 || d.crash {
		t.Errorf("parsed %+v", d)
	}
}

func TestAwaitClaim(t *testing.T) {
	home := t.TempDir()
	p := start(t, home, nil, "--await-claim")
	initialize(p, nil)
	target := t.TempDir()
	p.send(obj{"type": "control_request", "request_id": "c0", "request": obj{"subtype": "claim_session", "cwd": filepath.Join(target, "missing")}})
	if f := p.waitType("control_response", ""); str(f, "response", "subtype") != "error" || !strings.HasPrefix(str(f, "response", "error"), "cwd_not_found") {
		t.Fatalf("claim of a missing directory: %v", f)
	}
	p.send(obj{"type": "control_request", "request_id": "c1", "request": obj{"subtype": "claim_session", "cwd": target, "append_system_prompt": "claimed rules"}})
	f := p.waitType("control_response", "")
	id := str(f, "response", "response", "session_id")
	if str(f, "response", "subtype") != "success" || !uuidRE.MatchString(id) || str(f, "response", "response", "cwd") != target {
		t.Fatalf("claim: %v", f)
	}
	p.send(obj{"type": "control_request", "request_id": "c2", "request": obj{"subtype": "claim_session", "cwd": target}})
	if f := p.waitType("control_response", ""); !strings.HasPrefix(str(f, "response", "error"), "already_claimed") {
		t.Fatalf("second claim: %v", f)
	}
	p.prompt("sysprompt")
	init := p.waitType("system", "init")
	if init["session_id"] != id || init["cwd"] != target {
		t.Fatalf("init after claim: %v", init)
	}
	if r := p.waitType("result", ""); !strings.Contains(r["result"].(string), "claimed rules") {
		t.Fatalf("result = %v", r["result"])
	}
	// The conversation lives where a later --resume finds it.
	if _, err := os.Stat(filepath.Join(home, ".claude", "projects", projectDirName(target), id+".jsonl")); err != nil {
		t.Fatal(err)
	}
}

// patience bounds each wait for the agent's output or exit: a guard
// against a hung process, long enough for a loaded machine under the race
// detector, never a measure of speed.
const patience = 30 * time.Second
