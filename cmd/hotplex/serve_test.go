package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/testkit"
)

// daemonProc is a `hotplex serve` process under test.
type daemonProc struct {
	cmd     *exec.Cmd
	url     string
	key     string
	exited  chan struct{} // closed when the process has exited
	exitErr error
	banner  []string // what it printed until it served
}

// startServe runs the daemon on a free loopback port over dataDir, with
// the fake agent as its CLI, and waits until it serves. Flags in extra
// override the defaults.
func startServe(t *testing.T, dataDir, agent, home, key string, extra ...string) *daemonProc {
	t.Helper()
	return startServeWith(t, dataDir, agent, home, key, nil, extra...)
}

// startServeWith is startServe with env added to the daemon's environment.
func startServeWith(t *testing.T, dataDir, agent, home, key string, env []string, extra ...string) *daemonProc {
	t.Helper()
	args := append([]string{"serve", "--listen", "127.0.0.1:0", "--data-dir", dataDir,
		"--cli-path", agent, "--offline", "never", "--idle-timeout", "10m"}, extra...)
	cmd := exec.Command(hotplexBin, args...)
	cmd.Env = append(append(os.Environ(), "HOME="+home, "HOTPLEX_LOG_LEVEL=warn"), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if dir := os.Getenv("HOTPLEX_TEST_LOGS"); dir != "" {
		f, err := os.CreateTemp(dir, "serve-*.log")
		if err == nil {
			cmd.Stderr = f
			t.Cleanup(func() { _ = f.Close() })
		}
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	d := &daemonProc{cmd: cmd, key: key, exited: make(chan struct{})}
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	deadline := time.After(60 * time.Second)
	for d.url == "" {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatal("the daemon exited before serving")
			}
			d.banner = append(d.banner, line)
			if strings.HasPrefix(strings.TrimSpace(line), "hps_") {
				d.key = strings.TrimSpace(line)
			}
			if u, ok := strings.CutPrefix(line, "HotPlex is serving on "); ok {
				d.url = strings.Fields(u)[0]
			}
		case <-deadline:
			_ = cmd.Process.Kill()
			t.Fatal("the daemon did not start")
		}
	}
	go func() {
		for range lines { // keep the pipe drained from now on
		}
	}()
	go func() {
		d.exitErr = cmd.Wait()
		close(d.exited)
	}()
	t.Cleanup(func() {
		// Stopped as an operator stops it, the daemon ends its agents'
		// processes and waits for them, before the test's directories,
		// where they write, are removed; killed only if it hangs.
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-d.exited:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-d.exited
		}
	})
	return d
}

func (d *daemonProc) request(t *testing.T, method, path string, body any) *http.Response {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, d.url+path, rd)
	req.Header.Set("Authorization", "Bearer "+d.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

type sse = testkit.SSEEvent

func readEvents(body io.Reader, stop func(sse) bool) []sse { return testkit.ReadSSE(body, stop) }

// kill -9 of the daemon mid-turn loses nothing a client saw, and the
// restarted daemon lists the session and resumes its conversation.
func TestServeSurvivesKill9(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	agent := testkit.BuildFakeAgent(t, t.TempDir())
	dataDir, home := t.TempDir(), t.TempDir()
	d := startServe(t, dataDir, agent, home, "")
	if d.key == "" {
		t.Fatal("the first start printed no admin key")
	}
	if r := d.request(t, "POST", "/v1/sessions", map[string]string{"id": "k9"}); r.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d", r.StatusCode)
	}
	first := readEvents(d.request(t, "POST", "/v1/sessions/k9/messages", map[string]string{"prompt": "remember the tulips"}).Body, nil)
	resp := d.request(t, "POST", "/v1/sessions/k9/messages", map[string]string{"prompt": "think sleep:5000 blocks:3"})
	seen := readEvents(resp.Body, func(e sse) bool { return e.Type == event.TypeThinking })
	if err := d.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-d.exited

	d2 := startServe(t, dataDir, agent, home, d.key)
	var s struct {
		ID          string `json:"id"`
		LastEventID uint64 `json:"last_event_id"`
	}
	if err := json.NewDecoder(d2.request(t, "GET", "/v1/sessions/k9", nil).Body).Decode(&s); err != nil || s.ID != "k9" {
		t.Fatalf("session after restart: %+v %v", s, err)
	}
	acked := append(first, seen...)
	stored := readEvents(d2.request(t, "GET", "/v1/sessions/k9/events", nil).Body, func(e sse) bool { return e.ID >= acked[len(acked)-1].ID })
	if len(stored) < len(acked) {
		t.Fatalf("the restarted daemon has %d events, the client saw %d", len(stored), len(acked))
	}
	for i, e := range acked {
		if stored[i].ID != e.ID || stored[i].Type != e.Type {
			t.Fatalf("event %d: stored %d %s, seen %d %s", i, stored[i].ID, stored[i].Type, e.ID, e.Type)
		}
	}
	next := readEvents(d2.request(t, "POST", "/v1/sessions/k9/messages", map[string]string{"prompt": "history"}).Body, nil)
	var start event.EventWithMeta
	_ = json.Unmarshal(next[0].Data, &start)
	if !start.Resumed || next[0].ID <= acked[len(acked)-1].ID {
		t.Fatalf("next turn: resumed %v, id %d after %d", start.Resumed, next[0].ID, acked[len(acked)-1].ID)
	}
	found := false
	for _, e := range next {
		if e.Type == event.TypeAnswer && strings.Contains(string(e.Data), "remember the tulips") {
			found = true
		}
	}
	if !found {
		t.Fatal("the resumed conversation lost its history")
	}

	// The sessions client sees it; a wrong key is refused clearly.
	out, err := exec.Command(hotplexBin, "sessions", "list", "--url", d2.url, "--key", d2.key).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "k9") {
		t.Fatalf("sessions list: %v\n%s", err, out)
	}
	out, err = exec.Command(hotplexBin, "sessions", "show", "k9", "--url", d2.url, "--key", "wrong").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "unauthorized") {
		t.Fatalf("sessions show with a wrong key: %v\n%s", err, out)
	}

	// SIGTERM: a clean exit that ends every process.
	if err := d2.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-d2.exited:
		if d2.exitErr != nil {
			t.Fatalf("exit after SIGTERM: %v", d2.exitErr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the daemon did not stop on SIGTERM")
	}
	if _, err := os.Stat(filepath.Join(dataDir, "hotplex.db")); err != nil {
		t.Fatal(err)
	}
}

// Without the claude CLI the daemon still serves the agents it can run:
// the first of them becomes the default, and a turn on it is answered.
func TestServeWithoutClaude(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-claude-here")
	d := startServe(t, t.TempDir(), missing, t.TempDir(), "", "--offline", "always")
	var list struct {
		Providers []string `json:"providers"`
	}
	resp := d.request(t, "GET", "/v1/providers", nil)
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || len(list.Providers) == 0 {
		t.Fatalf("providers: %v %v", list, err)
	}
	if slices.Contains(list.Providers, "claude") {
		t.Fatalf("claude offered without its CLI: %v", list.Providers)
	}
	if r := d.request(t, "POST", "/v1/sessions", map[string]any{"id": "nc"}); r.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d", r.StatusCode)
	}
	resp = d.request(t, "POST", "/v1/sessions/nc/messages", map[string]any{"prompt": "hello"})
	evs := readEvents(resp.Body, func(e sse) bool { return e.Type == event.TypeResult })
	if len(evs) == 0 || evs[len(evs)-1].Type != event.TypeResult {
		t.Fatalf("no result from the default agent %s: %v", list.Providers[0], evs)
	}
	var start struct {
		Provider string `json:"provider"`
	}
	for _, e := range evs {
		if e.Type == event.TypeSessionStart {
			_ = json.Unmarshal(e.Data, &start)
		}
	}
	if start.Provider != list.Providers[0] {
		t.Fatalf("the turn ran on %q, want the default %q", start.Provider, list.Providers[0])
	}
}
