package pty_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/internal/claudecli"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/pty"
	"github.com/hotplex/hotplex/testkit"
)

// claudeHarness runs the real Claude Code TUI against the scripted model.
func claudeHarness(t *testing.T, script func(dir string) scriptedmodel.Script) (*harness, *scriptedmodel.Server) {
	t.Helper()
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	dir := t.TempDir()
	m, err := scriptedmodel.Start("127.0.0.1:0", script(dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	p, err := pty.New(pty.Options{Preset: pty.ClaudeTUI(testkit.ClaudePath(t))})
	if err != nil {
		t.Fatal(err)
	}
	return &harness{prov: p, dir: dir, opts: provider.StartOptions{
		SessionID: "c1", ProviderSessionID: uuid.NewString(), WorkDir: dir, Logger: quiet(),
		Env: testkit.OfflineEnv(t, m.URL()),
	}}, m
}

func TestClaudeTUIAnswersAndRemembers(t *testing.T) {
	h, m := claudeHarness(t, func(dir string) scriptedmodel.Script {
		return scriptedmodel.Script{Rules: []scriptedmodel.Rule{
			scriptedmodel.Then("capital of France", scriptedmodel.Reply{Text: []string{"The capital of France is Paris."}, Delay: 1500 * time.Millisecond}),
			scriptedmodel.Then("which city did you name", scriptedmodel.Text("I named Paris a moment ago.")),
		}}
	})
	p := h.start(t, false)
	if model := p.Info().Model; model == "" || strings.ContainsAny(model, "·▜█") {
		t.Fatalf("model %q from the banner\n%s", model, p.Screen())
	} else {
		t.Logf("model from the banner: %q", model)
	}
	if got := mustTurn(t, p, "What is the capital of France?"); got != "The capital of France is Paris." {
		t.Fatalf("answer %q\nscreen:\n%s", got, p.Screen())
	}
	if got := mustTurn(t, p, "which city did you name?"); got != "I named Paris a moment ago." {
		t.Fatalf("answer %q\nscreen:\n%s", got, p.Screen())
	}
	// The second request carried the first turn: the model saw the history.
	var last scriptedmodel.Request
	for _, r := range m.TurnRequests() {
		last = r
	}
	if !last.Saw("capital of France") || !last.Saw("The capital of France is Paris.") {
		t.Fatalf("the second turn's request lacks the first turn: %q", last.Texts)
	}
}

func TestClaudeTUIStopDuringSlowTool(t *testing.T) {
	h, _ := claudeHarness(t, func(dir string) scriptedmodel.Script {
		return scriptedmodel.Script{Rules: []scriptedmodel.Rule{
			scriptedmodel.Then("wait a long time", scriptedmodel.Bash("echo begin; sleep 30; echo end"), scriptedmodel.Text("slept")),
			scriptedmodel.Then("are you there", scriptedmodel.Text("Still here after the interrupt.")),
		}}
	})
	p := h.start(t, false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelledAt := make(chan time.Time, 1)
	go func() {
		// Cancel once the tool runs: the screen shows the command working.
		for i := 0; i < 300; i++ {
			if strings.Contains(p.Screen(), "sleep 30") && strings.Contains(p.Screen(), "esc to interrupt") {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(500 * time.Millisecond)
		cancelledAt <- time.Now()
		cancel()
	}()
	_, tr, err := turn(t, ctx, p, "wait a long time", nil)
	took := time.Since(<-cancelledAt)
	if !errors.Is(err, context.Canceled) || tr == nil || !tr.Interrupted {
		t.Fatalf("interrupted turn: %+v, %v\nscreen:\n%s", tr, err, p.Screen())
	}
	t.Logf("claude-tui came back %s after the cancel", took)
	if took > 2*time.Second {
		t.Fatalf("stop took %s", took)
	}
	if got := mustTurn(t, p, "are you there?"); got != "Still here after the interrupt." {
		t.Fatalf("answer after the interrupt %q\nscreen:\n%s", got, p.Screen())
	}
}

func TestClaudeTUIPermissionByKeys(t *testing.T) {
	h, _ := claudeHarness(t, func(dir string) scriptedmodel.Script {
		return scriptedmodel.Script{Rules: []scriptedmodel.Rule{
			scriptedmodel.Then("make the proof file", scriptedmodel.Bash("touch proof.txt"), scriptedmodel.Text("Proof made.")),
			scriptedmodel.Then("make the other file", scriptedmodel.Bash("touch blocked.txt"), scriptedmodel.Text("Told no.")),
		}}
	})
	p := h.start(t, false)
	var asked []provider.ToolRequest
	ask := func(_ context.Context, req provider.ToolRequest) provider.ToolDecision {
		asked = append(asked, req)
		cmd, _ := req.Input["command"].(string)
		if cmd == "" {
			t.Errorf("asked about %s without its command; screen:\n%s", req.ToolName, p.Screen())
		}
		if strings.Contains(cmd, "blocked") {
			return provider.ToolDecision{Behavior: provider.Deny, Message: "no"}
		}
		return provider.ToolDecision{Behavior: provider.Allow}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, _, err := turn(t, ctx, p, "make the proof file", ask); err != nil {
		t.Fatalf("%v\nscreen:\n%s", err, p.Screen())
	}
	if _, err := os.Stat(filepath.Join(h.dir, "proof.txt")); err != nil {
		t.Fatalf("allowed command did not run: %v\nscreen:\n%s", err, p.Screen())
	}
	if _, _, err := turn(t, ctx, p, "make the other file", ask); err != nil {
		t.Fatalf("%v\nscreen:\n%s", err, p.Screen())
	}
	if _, err := os.Stat(filepath.Join(h.dir, "blocked.txt")); !os.IsNotExist(err) {
		t.Fatalf("denied command ran: %v", err)
	}
	if len(asked) != 2 || asked[0].Input["command"] != "touch proof.txt" || asked[1].Input["command"] != "touch blocked.txt" {
		t.Fatalf("asked %+v\nscreen:\n%s", asked, p.Screen())
	}
}

// Killed, the TUI comes back on the same conversation (--resume), and the
// model sees the earlier turn.
func TestClaudeTUIResumeAfterKill(t *testing.T) {
	h, m := claudeHarness(t, func(dir string) scriptedmodel.Script {
		return scriptedmodel.Script{Rules: []scriptedmodel.Rule{
			scriptedmodel.Then("the password is", scriptedmodel.Text("Noted: swordfish.")),
			scriptedmodel.Then("what was the password", scriptedmodel.Text("It was swordfish.")),
		}}
	})
	p := h.start(t, false)
	if info := p.Info(); info.Resumed {
		t.Fatalf("first start claims to resume: %+v", info)
	}
	if got := mustTurn(t, p, "the password is swordfish"); got != "Noted: swordfish." {
		t.Fatalf("answer %q", got)
	}
	// The TUI shows the answer before it has written it to the
	// conversation's file; the kill comes once the file holds it, as a
	// crash later in the session would.
	transcript := claudecli.TranscriptPath(h.opts.Env, h.dir, h.opts.ProviderSessionID)
	for deadline := time.Now().Add(10 * time.Second); ; {
		b, _ := os.ReadFile(transcript)
		if strings.Contains(string(b), "Noted: swordfish.") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the conversation's file %s never held the answer", transcript)
		}
		time.Sleep(20 * time.Millisecond)
	}
	pid := p.Info().PID
	testkit.KillAndWait(t, pid)
	closeProcess(t, p)

	q := h.start(t, true)
	if info := q.Info(); !info.Resumed || info.PID == pid {
		t.Fatalf("restart: %+v", info)
	}
	if got := mustTurn(t, q, "what was the password?"); got != "It was swordfish." {
		t.Fatalf("answer %q\nscreen:\n%s", got, q.Screen())
	}
	reqs := m.TurnRequests()
	if last := reqs[len(reqs)-1]; !last.Saw("the password is swordfish") || !last.Saw("Noted: swordfish.") {
		t.Fatalf("the resumed conversation lacks the first turn: %q", last.Texts)
	}
}

// File writes are asked about too: the request names the tool and the
// file, and a denied write leaves the disk alone.
func TestClaudeTUIWriteQuestion(t *testing.T) {
	h, _ := claudeHarness(t, func(dir string) scriptedmodel.Script {
		write := func(name string) scriptedmodel.Reply {
			return scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: "Write", Input: map[string]any{"file_path": filepath.Join(dir, name), "content": "hi\n"}}}}
		}
		return scriptedmodel.Script{Rules: []scriptedmodel.Rule{
			scriptedmodel.Then("write the notes", write("notes.txt"), scriptedmodel.Text("Notes written.")),
			scriptedmodel.Then("write the secret", write("secret.txt"), scriptedmodel.Text("Not written.")),
		}}
	})
	p := h.start(t, false)
	var asked []provider.ToolRequest
	ask := func(_ context.Context, req provider.ToolRequest) provider.ToolDecision {
		asked = append(asked, req)
		if fp, _ := req.Input["file_path"].(string); fp == "" || strings.Contains(fp, "secret") {
			return provider.ToolDecision{Behavior: provider.Deny}
		}
		return provider.ToolDecision{Behavior: provider.Allow}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	answer, _, err := turn(t, ctx, p, "write the notes", ask)
	if err != nil || answer != "Notes written." {
		t.Fatalf("answer %q, %v, asked %+v\nscreen:\n%s", answer, err, asked, p.Screen())
	}
	if b, err := os.ReadFile(filepath.Join(h.dir, "notes.txt")); err != nil || string(b) != "hi\n" {
		t.Fatalf("notes.txt: %q, %v", b, err)
	}
	if _, _, err := turn(t, ctx, p, "write the secret", ask); err != nil {
		t.Fatalf("%v\nscreen:\n%s", err, p.Screen())
	}
	if _, err := os.Stat(filepath.Join(h.dir, "secret.txt")); !os.IsNotExist(err) {
		t.Fatalf("the denied write happened: %v", err)
	}
	if len(asked) != 2 || asked[0].ToolName != "Write" || asked[0].Input["file_path"] != "notes.txt" || asked[1].Input["file_path"] != "secret.txt" {
		t.Fatalf("asked %+v\nscreen:\n%s", asked, p.Screen())
	}
}

// An answer several screens long is read whole from the terminal's history.
func TestClaudeTUILongAnswer(t *testing.T) {
	var paras []string
	for i := 1; i <= 80; i++ {
		paras = append(paras, fmt.Sprintf("Paragraph %d of the long answer.", i))
	}
	long := strings.Join(paras, "\n\n")
	h, _ := claudeHarness(t, func(dir string) scriptedmodel.Script {
		return scriptedmodel.Script{Rules: []scriptedmodel.Rule{scriptedmodel.Then("long", scriptedmodel.Text(long))}}
	})
	p := h.start(t, false)
	if got := mustTurn(t, p, "give me the long answer"); got != long {
		t.Fatalf("got %d bytes, want %d: starts %q, ends %q", len(got), len(long), got[:min(80, len(got))], got[max(0, len(got)-80):])
	}
}

// The engine's firewall sees the UI's command question before the command
// runs: a dangerous one is refused on the screen and the disk is untouched.
func TestClaudeTUIFirewallBlocksBeforeExecution(t *testing.T) {
	h, _ := claudeHarness(t, func(dir string) scriptedmodel.Script {
		return scriptedmodel.Script{Rules: []scriptedmodel.Rule{
			scriptedmodel.Then("clean up my home", scriptedmodel.Bash("rm -rf ~"), scriptedmodel.Text("Cleaned.")),
		}}
	})
	home := testkit.EnvValue(h.opts.Env, "HOME")
	sentinel := filepath.Join(home, "sentinel.txt")
	if err := os.WriteFile(sentinel, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	eng, err := engine.NewEngine(engine.EngineOptions{Provider: h.prov, Env: h.opts.Env, IdleTimeout: -1, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r := &testkit.Recorder{}
	if err := eng.Execute(ctx, &engine.Config{SessionID: "fw", WorkDir: h.dir}, "please clean up my home", r.Callback); err != nil {
		t.Fatalf("execute: %v (events %v)", err, r.Types())
	}
	blocks := r.All(event.TypeDangerBlock)
	if len(blocks) != 1 || blocks[0].Danger == nil || blocks[0].Danger.Category != guard.CategoryFileDelete {
		t.Fatalf("danger blocks %+v (events %v)", blocks, r.Types())
	}
	if b, err := os.ReadFile(sentinel); err != nil || string(b) != "keep me" {
		t.Fatalf("the home was touched: %q, %v", b, err)
	}
}

// Commands Claude Code knows to be read-only are asked about too, so that
// the firewall sees every command before it runs.
func TestClaudeTUIAsksAboutReadOnlyCommands(t *testing.T) {
	h, _ := claudeHarness(t, func(dir string) scriptedmodel.Script {
		return scriptedmodel.Script{Rules: []scriptedmodel.Rule{
			scriptedmodel.Then("list the files", scriptedmodel.Bash("ls -la"), scriptedmodel.Text("Listed.")),
		}}
	})
	p := h.start(t, false)
	var asked []string
	ask := func(_ context.Context, req provider.ToolRequest) provider.ToolDecision {
		cmd, _ := req.Input["command"].(string)
		asked = append(asked, req.ToolName+": "+cmd)
		return provider.ToolDecision{Behavior: provider.Allow}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, _, err := turn(t, ctx, p, "list the files", ask); err != nil {
		t.Fatalf("%v\nscreen:\n%s", err, p.Screen())
	}
	if len(asked) != 1 || asked[0] != "Bash: ls -la" {
		t.Fatalf("asked %q, want the read-only command\nscreen:\n%s", asked, p.Screen())
	}
}
