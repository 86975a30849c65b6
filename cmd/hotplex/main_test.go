package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.uber.org/goleak"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/testkit"
)

// hotplexBin is the command built once by TestMain, for the tests whose
// subject is the process: its exit status, its stdin and stdout pipes, and
// that it leaves no child behind when it exits.
var hotplexBin string

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	// Orphans of the hotplex processes under test re-parent to this
	// process instead of PID 1, so testkit.AssertNoDescendants sees a
	// child that outlived its hotplex.
	if err := proc.EnableSubreaper(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "hotplex-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	hotplexBin = filepath.Join(dir, "hotplex")
	args := []string{"build", "-o", hotplexBin}
	if raceEnabled() {
		// The binary runs under the race detector too, like the in-process tests.
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, ".")...)
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go %s: %v\n%s", strings.Join(args, " "), err, out)
		return 1
	}
	return m.Run()
}

// raceEnabled reports whether this test binary was built with -race.
func raceEnabled() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// run is one finished hotplex process.
type run struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

func (r run) String() string {
	return fmt.Sprintf("exit %d after %s\n--- stdout:\n%s\n--- stderr:\n%s", r.code, r.took.Round(time.Millisecond), r.stdout, r.stderr)
}

// runHotplex runs the built binary to completion in dir with env and stdin
// (nil: none) and returns what it printed and its exit status. A run
// longer than limit is killed and fails the test.
func runHotplex(t *testing.T, limit time.Duration, dir string, env []string, stdin []byte, args ...string) run {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, hotplexBin, args...)
	cmd.Dir = dir
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// On timeout hotplex gets SIGTERM, which it handles by ending its
	// sessions; SIGKILL follows if it has not exited 10s later.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err := cmd.Run()
	r := run{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("hotplex %s: still running after %s\n%s", strings.Join(args, " "), limit, r)
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("hotplex %s: %v", strings.Join(args, " "), err)
	}
	if !cmd.ProcessState.Exited() {
		t.Fatalf("hotplex did not exit normally: %v\n%s", cmd.ProcessState, r)
	}
	t.Logf("hotplex %s: exit %d in %s", args[0], r.code, r.took.Round(time.Millisecond))
	return r
}

// jsonEvent is one line of `exec --json`.
type jsonEvent struct {
	Event string
	Data  *event.EventWithMeta
	Raw   map[string]json.RawMessage // Data as decoded JSON, to check field names
}

// parseJSONLines decodes every stdout line of `exec --json`, failing on
// any line that is not {"event":...,"data":{...}}.
func parseJSONLines(t *testing.T, stdout string) []jsonEvent {
	t.Helper()
	var out []jsonEvent
	for i, line := range strings.Split(strings.TrimRight(stdout, "\n"), "\n") {
		var wire struct {
			Event string          `json:"event"`
			Data  json.RawMessage `json:"data"`
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&wire); err != nil {
			t.Fatalf("stdout line %d is not an event object: %v\n%s", i+1, err, line)
		}
		ev := jsonEvent{Event: wire.Event}
		if err := json.Unmarshal(wire.Data, &ev.Data); err != nil || ev.Data == nil {
			t.Fatalf("stdout line %d: data is not an event: %v\n%s", i+1, err, line)
		}
		if err := json.Unmarshal(wire.Data, &ev.Raw); err != nil {
			t.Fatalf("stdout line %d: %v", i+1, err)
		}
		if ev.Event == "" || ev.Data.EventType != ev.Event {
			t.Fatalf("stdout line %d: event %q but data.event_type %q", i+1, ev.Event, ev.Data.EventType)
		}
		out = append(out, ev)
	}
	return out
}

// splitTurns cuts an event stream at its session_start events.
func splitTurns(t *testing.T, evs []jsonEvent) [][]jsonEvent {
	t.Helper()
	var turns [][]jsonEvent
	for _, ev := range evs {
		if ev.Event == event.TypeSessionStart {
			turns = append(turns, nil)
		}
		if len(turns) == 0 {
			t.Fatalf("event %q before the first session_start", ev.Event)
		}
		turns[len(turns)-1] = append(turns[len(turns)-1], ev)
	}
	return turns
}

func eventTypes(evs []jsonEvent) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, ev.Event)
	}
	return out
}

func first(evs []jsonEvent, typ string) *event.EventWithMeta {
	for _, ev := range evs {
		if ev.Event == typ {
			return ev.Data
		}
	}
	return nil
}

// assertClosedTurn checks that a turn ends with session_stats then result.
func assertClosedTurn(t *testing.T, turn []jsonEvent) {
	t.Helper()
	got := eventTypes(turn)
	if n := len(got); n < 3 || got[n-2] != event.TypeSessionStats || got[n-1] != event.TypeResult {
		t.Fatalf("turn does not end with session_stats, result: %v", got)
	}
}

// startModel serves script and closes it at the end of the test.
func startModel(t *testing.T, script scriptedmodel.Script) *scriptedmodel.Server {
	t.Helper()
	m, err := scriptedmodel.Start("127.0.0.1:0", script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m
}

// withoutEnv returns env without the variables named by keys or starting
// with one of prefixes.
func withoutEnv(env []string, keys, prefixes []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(keys, k) || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(k, p) }) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// assertExited checks that a process hotplex started (what) is gone.
func assertExited(t *testing.T, what string, pid int) {
	t.Helper()
	if pid <= 0 {
		t.Fatalf("no pid for %s", what)
	}
	deadline := time.Now().Add(2 * time.Second)
	for proc.Alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) outlived hotplex", what, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestExecJSONTwoTurnsOnOneHotSession(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	model := startModel(t, scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("create the proof file",
			scriptedmodel.Bash("echo hotplex-exec-proof > proof.txt && echo created-proof"),
			scriptedmodel.Text("Proof written: {{last_tool_result}}")),
		scriptedmodel.Then("just say hello", scriptedmodel.Text("Hello from the scripted model, turn two.")),
	}})
	work := t.TempDir()
	const session = "exec-json"
	r := runHotplex(t, 2*time.Minute, t.TempDir(), testkit.OfflineEnv(t, model.URL()), nil,
		"exec", "--json", "--offline", "never", "--cli-path", testkit.ClaudePath(t),
		"--workdir", work, "--session", session,
		"please create the proof file", "now just say hello")
	if r.code != 0 {
		t.Fatalf("exec failed:\n%s", r)
	}
	evs := parseJSONLines(t, r.stdout)
	for i, ev := range evs {
		if ev.Data.SessionID != session {
			t.Fatalf("event %d (%s) has session_id %q, want %q", i, ev.Event, ev.Data.SessionID, session)
		}
		if i > 0 && ev.Data.Seq <= evs[i-1].Data.Seq {
			t.Fatalf("seq does not increase: %d after %d", ev.Data.Seq, evs[i-1].Data.Seq)
		}
	}
	turns := splitTurns(t, evs)
	if len(turns) != 2 {
		t.Fatalf("want 2 turns, got %d: %v", len(turns), eventTypes(evs))
	}

	// Turn 1: a cold start of a new conversation, a Bash call, an answer.
	t1 := turns[0]
	testkit.AssertOrder(t, eventTypes(t1), event.TypeSessionStart, event.TypeToolUse, event.TypeToolResult,
		event.TypeAnswer, event.TypeSessionStats, event.TypeResult)
	assertClosedTurn(t, t1)
	for _, key := range []string{"pid", "provider_session_id", "resumed", "cold_start"} {
		if _, ok := t1[0].Raw[key]; !ok {
			t.Fatalf("session_start data lacks %q: %s", key, strings.SplitN(r.stdout, "\n", 2)[0])
		}
	}
	s1 := t1[0].Data.SessionStart
	if s1 == nil || s1.PID <= 0 || !s1.ColdStart || s1.Resumed || s1.Provider != "claude" || s1.WorkDir != work {
		t.Fatalf("turn 1 session_start: %+v", s1)
	}
	if _, err := uuid.Parse(s1.ProviderSessionID); err != nil {
		t.Fatalf("provider_session_id %q is not a UUID: %v", s1.ProviderSessionID, err)
	}
	if want := engine.ProviderSessionID("hotplex", session); s1.ProviderSessionID != want {
		t.Fatalf("provider_session_id %s, want %s", s1.ProviderSessionID, want)
	}
	tu := first(t1, event.TypeToolUse)
	if tu.Meta.ToolName != "Bash" || !strings.Contains(tu.Meta.InputSummary, "proof.txt") {
		t.Fatalf("tool_use: %+v", tu.Meta)
	}
	tr := first(t1, event.TypeToolResult)
	if tr.Meta.ToolID != tu.Meta.ToolID || tr.Meta.Status != "success" || !strings.Contains(tr.EventData, "created-proof") {
		t.Fatalf("tool_result: %q %+v", tr.EventData, tr.Meta)
	}
	if a := first(t1, event.TypeAnswer); !strings.Contains(a.EventData, "Proof written: created-proof") {
		t.Fatalf("turn 1 answer: %q", a.EventData)
	}
	res1 := first(t1, event.TypeResult)
	if res1.Turn == nil || res1.Turn.IsError || res1.Meta.Status != "success" || res1.Stats == nil || res1.Stats.Turns != 1 {
		t.Fatalf("turn 1 result: %+v %+v", res1.Turn, res1.Meta)
	}

	// Turn 2: the same process, still hot.
	t2 := turns[1]
	testkit.AssertOrder(t, eventTypes(t2), event.TypeSessionStart, event.TypeAnswer, event.TypeSessionStats, event.TypeResult)
	assertClosedTurn(t, t2)
	s2 := t2[0].Data.SessionStart
	if s2 == nil || s2.PID != s1.PID || s2.ColdStart || s2.Resumed || s2.ProviderSessionID != s1.ProviderSessionID {
		t.Fatalf("turn 2 is not on the hot process of turn 1: %+v vs %+v", s2, s1)
	}
	if slices.Contains(eventTypes(t2), event.TypeToolUse) {
		t.Fatalf("turn 2 used a tool: %v", eventTypes(t2))
	}
	if a := first(t2, event.TypeAnswer); a.EventData != "Hello from the scripted model, turn two." {
		t.Fatalf("turn 2 answer: %q", a.EventData)
	}
	if res2 := first(t2, event.TypeResult); res2.Turn == nil || res2.Turn.IsError || res2.Stats == nil || res2.Stats.Turns != 2 {
		t.Fatalf("turn 2 result: %+v", res2.Turn)
	}

	b, err := os.ReadFile(filepath.Join(work, "proof.txt"))
	if err != nil || strings.TrimSpace(string(b)) != "hotplex-exec-proof" {
		t.Fatalf("the Bash tool did not write proof.txt in the work dir: %q, %v", b, err)
	}
	assertExited(t, "the agent CLI", s1.PID)
}

// TestExecEndsTheToolsItStarted has the agent leave a process running in
// the background, outside its process group; when exec exits, that
// process must be gone too.
func TestExecEndsTheToolsItStarted(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	arg := uniqueSleep()
	model := startModel(t, scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("start a daemon",
			scriptedmodel.Bash("setsid sleep "+arg+" </dev/null >/dev/null 2>&1 & echo started"),
			scriptedmodel.Text("The daemon runs.")),
	}})
	work := t.TempDir()
	r := runHotplex(t, 2*time.Minute, t.TempDir(), testkit.OfflineEnv(t, model.URL()), nil,
		"exec", "--offline", "never", "--cli-path", testkit.ClaudePath(t),
		"--workdir", work, "--session", "daemon", "start a daemon")
	if r.code != 0 || !strings.Contains(r.stdout, "The daemon runs.") {
		t.Fatalf("exec:\n%s", r)
	}
	assertNoJob(t, "the daemon the tool started", arg)
}

// TestExecSIGTERMEndsTheTurnAndItsProcesses stops exec with SIGTERM while
// a tool runs: the turn is interrupted, the error is reported, and the
// CLI and the tool are gone when hotplex exits.
func TestExecSIGTERMEndsTheTurnAndItsProcesses(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	arg := uniqueSleep()
	model := startModel(t, scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("run the slow tool", scriptedmodel.Bash("echo $$ > tool.pid; sleep "+arg+"; echo never"), scriptedmodel.Text("slept")),
	}})
	work := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, hotplexBin, "exec", "--json", "--offline", "never", "--cli-path", testkit.ClaudePath(t),
		"--workdir", work, "--session", "sigterm", "run the slow tool")
	cmd.Dir, cmd.Env = t.TempDir(), testkit.OfflineEnv(t, model.URL())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = 10 * time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	var signalled time.Time
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if signalled.IsZero() && strings.HasPrefix(sc.Text(), `{"event":"tool_use"`) {
			// Wait until the tool runs, then stop hotplex.
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if _, err := os.Stat(filepath.Join(work, "tool.pid")); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the tool did not start")
				}
			}
			for deadline := time.Now().Add(30 * time.Second); len(jobsWith(arg)) == 0; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the tool's sleep did not start")
				}
			}
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			signalled = time.Now()
		}
	}
	err = cmd.Wait()
	took := time.Since(signalled)
	if signalled.IsZero() {
		t.Fatalf("no tool_use event: %v\n%s\n%s", err, out.String(), stderr.String())
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("want exit status 1 after SIGTERM, got %v\n%s", err, stderr.String())
	}
	if took > 10*time.Second {
		t.Fatalf("hotplex took %s to exit after SIGTERM", took)
	}
	if !strings.Contains(stderr.String(), "Error: turn 1:") {
		t.Fatalf("stderr does not report the interrupted turn:\n%s", stderr.String())
	}
	turns := splitTurns(t, parseJSONLines(t, out.String()))
	if len(turns) != 1 {
		t.Fatalf("want 1 turn:\n%s", out.String())
	}
	assertClosedTurn(t, turns[0])
	if res := first(turns[0], event.TypeResult); res.Turn == nil || !res.Turn.IsError {
		t.Fatalf("the interrupted turn's result is not an error: %+v", res.Turn)
	}
	assertExited(t, "the agent CLI", first(turns[0], event.TypeSessionStart).PID)
	assertNoJob(t, "the tool", arg)
	t.Logf("hotplex exited %s after SIGTERM", took.Round(time.Millisecond))
}

func TestExecResumesInANewProcess(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	model := startModel(t, scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("remember the word", scriptedmodel.Text("Noted: the word is pineapple.")),
		scriptedmodel.Then("which word", scriptedmodel.Text("It was pineapple.")),
	}})
	// One HOME for both processes: it holds the CLI's transcripts.
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	env := testkit.OfflineEnvWithHome(home, model.URL())
	work, cwd := t.TempDir(), t.TempDir()
	execArgs := func(prompts ...string) []string {
		return append([]string{"exec", "--json", "--offline", "never", "--cli-path", testkit.ClaudePath(t),
			"--workdir", work, "--session", "resume-me"}, prompts...)
	}

	r1 := runHotplex(t, 2*time.Minute, cwd, env, nil, execArgs("remember the word pineapple")...)
	if r1.code != 0 {
		t.Fatalf("first exec:\n%s", r1)
	}
	start1 := first(parseJSONLines(t, r1.stdout), event.TypeSessionStart)
	if start1 == nil || start1.Resumed || !start1.ColdStart {
		t.Fatalf("first exec session_start: %+v", start1)
	}
	assertExited(t, "the first agent CLI", start1.PID)

	r2 := runHotplex(t, 2*time.Minute, cwd, env, nil, execArgs("which word did I ask you to remember")...)
	if r2.code != 0 {
		t.Fatalf("second exec:\n%s", r2)
	}
	evs := parseJSONLines(t, r2.stdout)
	turns := splitTurns(t, evs)
	if len(turns) != 1 {
		t.Fatalf("want 1 turn, got %d: %v", len(turns), eventTypes(evs))
	}
	assertClosedTurn(t, turns[0])
	start2 := turns[0][0].Data.SessionStart
	if start2 == nil || !start2.Resumed || !start2.ColdStart || start2.Fallback != "" ||
		start2.PID == start1.PID || start2.ProviderSessionID != start1.ProviderSessionID {
		t.Fatalf("second exec did not resume the conversation: %+v (first %+v)", start2, start1.SessionStart)
	}
	if a := first(turns[0], event.TypeAnswer); a == nil || a.EventData != "It was pineapple." {
		t.Fatalf("second exec answer: %+v", a)
	}
	reqs := model.TurnRequests()
	if len(reqs) < 2 {
		t.Fatalf("the model answered %d turn requests, want 2 or more", len(reqs))
	}
	last := reqs[len(reqs)-1]
	if last.Prompt != "which word did I ask you to remember" || !last.Saw("remember the word pineapple") || !last.Saw("Noted: the word is pineapple.") {
		t.Fatalf("the resumed request lacks the earlier turn: prompt %q, texts %q", last.Prompt, last.Texts)
	}
	assertExited(t, "the resumed agent CLI", start2.PID)
}

// TestExecFailedTurnExitsNonZero scripts an API error that ends the turn
// with an error result. The CLI retries HTTP 500 for minutes by default, so
// that case turns its retries off; HTTP 400 is never retried.
func TestExecFailedTurnExitsNonZero(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply scriptedmodel.Reply
		env   []string
		want  string
	}{
		{"http 500", scriptedmodel.Reply{Status: 500}, []string{"CLAUDE_CODE_MAX_RETRIES=0"}, "API Error: 500 scripted failure"},
		{"http 400", scriptedmodel.Reply{Status: 400, ErrorType: "invalid_request_error"}, nil, "API Error: 400 scripted failure"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Cleanup(func() { testkit.AssertNoDescendants(t) })
			model := startModel(t, scriptedmodel.Script{Rules: []scriptedmodel.Rule{
				scriptedmodel.Then("please fail", tc.reply),
				scriptedmodel.Then("never reached", scriptedmodel.Text("a turn after the failed one")),
			}})
			r := runHotplex(t, 20*time.Second, t.TempDir(), append(testkit.OfflineEnv(t, model.URL()), tc.env...), nil,
				"exec", "--json", "--offline", "never", "--cli-path", testkit.ClaudePath(t),
				"--workdir", t.TempDir(), "--session", "failing", "please fail", "never reached")
			if r.code == 0 {
				t.Fatalf("a failed turn exited 0:\n%s", r)
			}
			if !strings.Contains(r.stderr, "Error: turn 1: turn failed") || !strings.Contains(r.stderr, tc.want) {
				t.Fatalf("stderr does not report the failed turn with %q:\n%s", tc.want, r)
			}
			evs := parseJSONLines(t, r.stdout)
			turns := splitTurns(t, evs)
			if len(turns) != 1 {
				t.Fatalf("exec went on after the failed turn: %v", eventTypes(evs))
			}
			testkit.AssertOrder(t, eventTypes(turns[0]), event.TypeSessionStart, event.TypeError, event.TypeSessionStats, event.TypeResult)
			assertClosedTurn(t, turns[0])
			if e := first(turns[0], event.TypeError); !strings.Contains(e.EventData, tc.want) {
				t.Fatalf("error event: %q", e.EventData)
			}
			res := first(turns[0], event.TypeResult)
			if res.Turn == nil || !res.Turn.IsError || res.Meta.Status != "error" || !strings.Contains(res.Meta.ErrorMsg, tc.want) {
				t.Fatalf("result of the failed turn: %+v %+v", res.Turn, res.Meta)
			}
			for _, req := range model.TurnRequests() {
				if req.Prompt == "never reached" {
					t.Fatal("the prompt after the failed turn was sent")
				}
			}
			assertExited(t, "the agent CLI", first(turns[0], event.TypeSessionStart).PID)
		})
	}
}

func TestExecBadInvocations(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	env := withoutEnv(os.Environ(), []string{"HOTPLEX_CLAUDE_PATH"}, nil)
	missing := filepath.Join(t.TempDir(), "no-such-claude")

	r := runHotplex(t, 30*time.Second, t.TempDir(), env, nil,
		"exec", "--offline", "never", "--cli-path", missing, "--workdir", t.TempDir(), "hello")
	if r.code == 0 || !strings.Contains(r.stderr, "agent CLI "+missing+": not found") {
		t.Fatalf("missing --cli-path: want a non-zero exit naming the path:\n%s", r)
	}
	if r.stdout != "" {
		t.Fatalf("missing --cli-path printed to stdout: %q", r.stdout)
	}

	r = runHotplex(t, 30*time.Second, t.TempDir(), env, nil, "exec", "--cli-path", testkit.ClaudePath(t))
	if r.code == 0 || !strings.Contains(r.stderr, "requires at least 1 arg(s), only received 0") {
		t.Fatalf("no prompt: want a usage error:\n%s", r)
	}

	r = runHotplex(t, 30*time.Second, t.TempDir(), env, nil, "exec", "--no-such-flag", "hello")
	if r.code == 0 || !strings.Contains(r.stderr, "unknown flag: --no-such-flag") {
		t.Fatalf("unknown flag: want a usage error:\n%s", r)
	}
}

// TestExecErrorsInProcess runs the command tree in-process: each error is
// returned by ExecuteContext before anything starts.
func TestExecErrorsInProcess(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	claudePath := testkit.ClaudePath(t)
	missing := filepath.Join(t.TempDir(), "no-such-claude")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no prompt", []string{"exec", "--cli-path", claudePath}, "requires at least 1 arg(s), only received 0"},
		{"missing cli", []string{"exec", "--cli-path", missing, "hi"}, "agent CLI " + missing + ": not found"},
		{"bad offline", []string{"exec", "--cli-path", claudePath, "--offline", "sometimes", "hi"}, `--offline must be auto, always or never, not "sometimes"`},
		{"bad provider", []string{"exec", "--provider", "nope", "hi"}, `unknown provider "nope"`},
		{"chat takes no args", []string{"chat", "--cli-path", claudePath, "hi"}, `unknown command "hi" for "hotplex chat"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			root := newRootCmd(strings.NewReader(""), &stdout, &stderr)
			root.SetArgs(append(tc.args, "--workdir", t.TempDir()))
			err := root.ExecuteContext(t.Context())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want error containing %q, got %v", tc.want, err)
			}
			if !strings.Contains(stderr.String(), "Error: "+err.Error()) {
				t.Fatalf("stderr does not show the error: %q", stderr.String())
			}
			if stdout.Len() != 0 {
				t.Fatalf("stdout: %q", stdout.String())
			}
			goleak.VerifyNone(t)
		})
	}
}

func TestChatPipedStdin(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	arg := uniqueSleep()
	model := startModel(t, scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("first chat line",
			scriptedmodel.Bash("setsid sleep "+arg+" </dev/null >/dev/null 2>&1 & echo started"),
			scriptedmodel.Text("Answer one from the scripted model.")),
		scriptedmodel.Then("second chat line", scriptedmodel.Text("Answer two from the scripted model.")),
	}})
	work := t.TempDir()
	stdin := []byte("first chat line\nsecond chat line\n/stats\n")
	r := runHotplex(t, 2*time.Minute, t.TempDir(), testkit.OfflineEnv(t, model.URL()), stdin,
		"chat", "--offline", "never", "--cli-path", testkit.ClaudePath(t), "--workdir", work, "--session", "chat-pipe")
	if r.code != 0 {
		t.Fatalf("chat failed:\n%s", r)
	}
	out := r.stdout
	header := "HotPlex chat · session chat-pipe · work dir " + work
	want := []string{header, "· started claude (pid ", "● Bash(setsid sleep 300", "⎿ started", "Answer one from the scripted model.", "Answer two from the scripted model.", "turns 2 · tokens "}
	at := 0
	for _, w := range want {
		i := strings.Index(out[at:], w)
		if i < 0 {
			t.Fatalf("chat output lacks %q (in order %q):\n%s", w, want, r)
		}
		at += i + len(w)
	}
	if strings.Count(out, "· started claude") != 1 {
		t.Fatalf("chat did not keep one hot process:\n%s", out)
	}
	if strings.Contains(out, "offline model") {
		t.Fatalf("--offline never used the built-in model:\n%s", out)
	}
	if strings.Contains(out, "working…") || strings.Contains(out, "\033[K") {
		t.Fatalf("the spinner drew on a pipe:\n%q", out)
	}
	if strings.Contains(out, "✗") {
		t.Fatalf("a chat turn failed:\n%s", out)
	}
	var prompts []string
	for _, req := range model.TurnRequests() {
		if req.Step == 0 {
			prompts = append(prompts, req.Prompt)
		}
	}
	if !slices.Equal(prompts, []string{"first chat line", "second chat line"}) {
		t.Fatalf("the model was sent %q", prompts)
	}
	assertNoJob(t, "the daemon the tool started", arg)
}

// TestChatInProcessOfflineDemo runs chat in-process on the built-in
// offline model: no Anthropic variables, a private HOME.
func TestChatInProcessOfflineDemo(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	clearAnthropicEnv(t)
	t.Setenv("HOME", t.TempDir())
	work := t.TempDir()
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader("/stats\nlook around\n/stats\n/exit\nnot sent\n"), &stdout, &stderr)
	root.SetArgs([]string{"chat", "--cli-path", testkit.ClaudePath(t), "--workdir", work, "--session", "demo-chat"})
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	if err := root.ExecuteContext(ctx); err != nil {
		t.Fatalf("chat: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	want := []string{"No Anthropic credentials found: using the built-in offline model", "no turn yet",
		"● Bash(", "built-in offline model", "turns 1 · ", "Bash"}
	at := 0
	for _, w := range want {
		i := strings.Index(out[at:], w)
		if i < 0 {
			t.Fatalf("chat output lacks %q (in order %q):\n%s\nstderr:\n%s", w, want, out, stderr.String())
		}
		at += i + len(w)
	}
	if _, err := os.Stat(filepath.Join(work, "hotplex-demo.txt")); err != nil {
		t.Fatalf("the demo turn did not write its file: %v", err)
	}
	if n := strings.Count(out, "● Bash("); n != 1 {
		t.Fatalf("want 1 turn before /exit, got %d:\n%s", n, out)
	}
	// The command returned: nothing of it (the stdin reader, the engine,
	// the built-in model) may still run in this process.
	goleak.VerifyNone(t)
}

// clearAnthropicEnv unsets every ANTHROPIC_* variable for the test.
func clearAnthropicEnv(t *testing.T) {
	t.Helper()
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "ANTHROPIC_") || k == "CLAUDE_CODE_OAUTH_TOKEN" || k == "CLAUDE_CODE_USE_BEDROCK" || k == "CLAUDE_CODE_USE_VERTEX" {
			t.Setenv(k, "") // restores the value after the test
			os.Unsetenv(k)
		}
	}
}

// TestExecOfflineDemo runs exec on the built-in offline model: no
// Anthropic variables, a private HOME, --offline always.
func TestExecOfflineDemo(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	env := withoutEnv(os.Environ(), []string{"HOME", "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX"}, []string{"ANTHROPIC_"})
	env = append(env, "HOME="+t.TempDir())
	work := filepath.Join(t.TempDir(), "created", "by", "hotplex")
	r := runHotplex(t, 2*time.Minute, t.TempDir(), env, nil,
		"exec", "--offline", "always", "--cli-path", testkit.ClaudePath(t), "--workdir", work, "look around")
	if r.code != 0 {
		t.Fatalf("offline exec failed:\n%s", r)
	}
	if !strings.Contains(r.stdout, "built-in offline model") || !strings.Contains(r.stdout, "hotplex-demo.txt") {
		t.Fatalf("stdout lacks the demo answer:\n%s", r)
	}
	if !strings.Contains(r.stderr, "● Bash(") {
		t.Fatalf("stderr lacks the tool trace:\n%s", r)
	}
	// The real CLI prices turns from the model's name and the usage the
	// model reports; the built-in model reports none, so it costs nothing.
	if !strings.Contains(r.stderr, " · $0.0000 · ") {
		t.Fatalf("the built-in model's turn is not free:\n%s", r)
	}
	b, err := os.ReadFile(filepath.Join(work, "hotplex-demo.txt"))
	if err != nil || strings.TrimSpace(string(b)) != "hello from "+work {
		t.Fatalf("hotplex-demo.txt: %q, %v", b, err)
	}
}

// TestDoctorFindsClaude runs doctor in-process with HOTPLEX_CLAUDE_PATH set.
func TestDoctorFindsClaude(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	claudePath := testkit.ClaudePath(t)
	t.Setenv("HOTPLEX_CLAUDE_PATH", claudePath)
	t.Setenv("HOME", t.TempDir())
	t.Chdir(t.TempDir())
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &stdout, &stderr)
	root.SetArgs([]string{"doctor"})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("doctor: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	var row []string
	for line := range strings.SplitSeq(stdout.String(), "\n") {
		if strings.HasPrefix(line, "claude ") {
			row = strings.Fields(line)
		}
	}
	// claude  ok  2.1.332 (Claude Code)  /path/to/claude
	if len(row) != 6 || row[1] != "ok" || row[2] != "2.1.332" || row[5] != claudePath {
		t.Fatalf("doctor's Claude Code row: %q\n%s", row, stdout.String())
	}
	if !strings.Contains(stdout.String(), "credentials: ") || !strings.Contains(stdout.String(), "process isolation: ") {
		t.Fatalf("doctor output:\n%s", stdout.String())
	}
	goleak.VerifyNone(t)
}

// TestDoctorWithNothingInstalled runs doctor with an empty PATH from a
// directory without .tools: it must fail and say how to install Claude Code.
func TestDoctorWithNothingInstalled(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	env := withoutEnv(os.Environ(), []string{"PATH", "HOTPLEX_CLAUDE_PATH", "HOME"}, nil)
	env = append(env, "PATH=", "HOME="+t.TempDir())
	r := runHotplex(t, 30*time.Second, t.TempDir(), env, nil, "doctor")
	if r.code == 0 {
		t.Fatalf("doctor found no agent but exited 0:\n%s", r)
	}
	if !strings.Contains(r.stdout, "npm install -g @anthropic-ai/claude-code") {
		t.Fatalf("doctor does not say how to install Claude Code:\n%s", r)
	}
	var row []string
	for line := range strings.SplitSeq(r.stdout, "\n") {
		if strings.HasPrefix(line, "claude ") {
			row = strings.Fields(line)
		}
	}
	// claude  missing  -  the claude CLI was not found; install it with `npm install -g @anthropic-ai/claude-code` ...
	if len(row) < 5 || row[1] != "missing" || row[2] != "-" || !strings.Contains(strings.Join(row[3:], " "), "npm install -g @anthropic-ai/claude-code") {
		t.Fatalf("doctor's Claude Code row: %q\n%s", row, r)
	}
	if !strings.Contains(r.stderr, "no agent can run here") {
		t.Fatalf("stderr lacks the error:\n%s", r)
	}
}
