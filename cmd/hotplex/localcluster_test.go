package main

import (
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hotplex/hotplex/internal/natstest"
	"github.com/hotplex/hotplex/testkit"
)

// scripts/local-cluster.sh (what `make cluster` runs) starts PostgreSQL,
// NATS and three nodes that share one admin key: `hotplex cluster status`
// lists the three, a session created on the first node runs a turn sent
// to the third, and SIGTERM stops everything it started.
func TestLocalClusterScript(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	parent := t.TempDir()
	dir := filepath.Join(parent, "cluster")
	// PostgreSQL runs as its own user, which must reach its directory.
	if err := os.Chmod(parent, 0o711); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(parent), 0o711); err != nil {
		t.Fatal(err)
	}
	port := clusterPorts(t)
	cmd := exec.Command("bash", filepath.Join(testkit.ModuleRoot(t), "scripts", "local-cluster.sh"))
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "HOTPLEX_CLUSTER_DIR="+dir, "HOTPLEX_CLUSTER_PORT="+strconv.Itoa(port),
		"HOTPLEX_BIN="+hotplexBin, "NATS_SERVER_BIN="+natstest.Binary(t),
		"HOTPLEX_CLUSTER_ARGS=--offline always --cli-path "+testkit.ClaudePath(t))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A file, not a pipe: PostgreSQL's server, which pg_ctl detaches,
	// must not keep the test waiting for the end of a pipe.
	logPath := filepath.Join(t.TempDir(), "script.out")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{}) // closed once the script has exited
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(60 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	})
	printed := func() string { b, _ := os.ReadFile(logPath); return string(b) }
	for deadline := time.Now().Add(3 * time.Minute); !strings.Contains(printed(), "local cluster ready"); time.Sleep(100 * time.Millisecond) {
		select {
		case <-exited:
			t.Fatalf("the script ended (%v) before the cluster was ready:\n%s", waitErr, printed())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cluster was not ready in time:\n%s", printed())
		}
	}
	keyBytes, err := os.ReadFile(filepath.Join(dir, "admin.key"))
	if err != nil {
		t.Fatal(err)
	}
	key := strings.TrimSpace(string(keyBytes))
	url := func(i int) string { return "http://127.0.0.1:" + strconv.Itoa(port+i) }

	status, err := exec.Command(hotplexBin, "cluster", "status", "--url", url(1), "--key", key).CombinedOutput()
	if err != nil || !strings.Contains(string(status), "3 nodes") {
		t.Fatalf("cluster status: %v\n%s", err, status)
	}
	for _, n := range []string{"n1", "n2", "n3"} {
		if !strings.Contains(string(status), n+" ") {
			t.Fatalf("cluster status does not list %s:\n%s", n, status)
		}
	}

	call := func(base, method, path, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(context.Background(), method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	if resp := call(url(0), "POST", "/v1/sessions", `{"id":"try"}`); resp.StatusCode != http.StatusCreated {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("create on node 1: %d %s", resp.StatusCode, b)
	}
	resp := call(url(2), "POST", "/v1/sessions/try/messages", `{"prompt":"hello"}`)
	evs := readEvents(resp.Body, nil)
	if resp.StatusCode != http.StatusOK || len(evs) == 0 || evs[len(evs)-1].Type != "result" {
		t.Fatalf("turn on node 3: %d %v", resp.StatusCode, evs)
	}
	var v struct{ Node string }
	if err := json.NewDecoder(call(url(1), "GET", "/v1/sessions/try", "").Body).Decode(&v); err != nil || v.Node == "" {
		t.Fatalf("the session's node seen from node 2: %q %v", v.Node, err)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(90 * time.Second):
		t.Fatal("the script did not stop on SIGTERM")
	}
	if _, err := os.Stat(filepath.Join(dir, "pg", "postmaster.pid")); err == nil {
		t.Fatal("PostgreSQL is still running after the script stopped")
	}
}

// clusterPorts picks the script's first port: below the kernel's range of
// ephemeral ports (32768 and up on Linux), which another test's
// connections may hold at any moment, with the three nodes' ports and
// NATS's (port+200) free when probed.
func clusterPorts(t *testing.T) int {
	t.Helper()
	for range 50 {
		port := 20000 + rand.IntN(12000)
		free := true
		for _, p := range []int{port, port + 1, port + 2, port + 200} {
			ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
			if err != nil {
				free = false
				break
			}
			_ = ln.Close()
		}
		if free {
			return port
		}
	}
	t.Fatal("no free ports for the local cluster")
	return 0
}
