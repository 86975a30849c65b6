package natstest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// serverModule is the module whose main package is the nats-server program.
const serverModule = "github.com/nats-io/nats-server/v2"

// build is the one build of nats-server per test binary.
var build struct {
	once sync.Once
	path string
	err  error
}

// Binary returns the path of the nats-server program at the version go.mod
// requires, building it on first use. The program is kept in the user's
// cache directory under a name made of that version and the Go version, so
// a later test run (or another package's test binary) finds it built;
// builds go to a temporary name and are renamed into place, so test
// binaries building at once never see half a file.
func Binary(t testing.TB) string {
	t.Helper()
	build.once.Do(func() { build.path, build.err = buildServer() })
	if build.err != nil {
		t.Fatalf("natstest: %v", build.err)
	}
	return build.path
}

func buildServer() (string, error) {
	version, err := serverVersion()
	if err != nil {
		return "", err
	}
	dir := ""
	if cache, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(cache, "hotplex-natstest")
		if os.MkdirAll(dir, 0o755) != nil {
			dir = ""
		}
	}
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "hotplex-natstest")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
	}
	name := "nats-server-" + sanitize(version) + "-" + sanitize(runtime.Version())
	path := filepath.Join(dir, name)
	// A module replaced by a local directory has no version to name a
	// build by: it is built every run (the Go build cache keeps that
	// quick).
	if version != "" {
		if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o100 != 0 {
			return path, nil
		}
	}
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "nats-server")
	cmd := exec.Command(goTool(), "build", "-o", out, serverModule)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build nats-server: %w\n%s", err, b)
	}
	if err := os.Rename(out, path); err != nil {
		return "", err
	}
	return path, nil
}

// serverVersion is the nats-server module version this test binary links,
// which is the one go.mod requires (a replace directive names its target;
// one that names a directory gives "").
func serverVersion() (string, error) {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path != serverModule {
				continue
			}
			if d.Replace != nil {
				if d.Replace.Version == "" {
					return "", nil
				}
				return d.Replace.Path + "@" + d.Replace.Version, nil
			}
			return d.Version, nil
		}
	}
	out, err := exec.Command(goTool(), "list", "-m", "-f", "{{if .Replace}}{{.Replace.Path}}@{{.Replace.Version}}{{else}}{{.Version}}{{end}}", serverModule).Output()
	if err != nil {
		return "", fmt.Errorf("find the nats-server version: %w", err)
	}
	v := strings.TrimSpace(string(out))
	if strings.HasSuffix(v, "@") {
		return "", nil // replaced by a directory
	}
	return v, nil
}

func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '.', r == '-':
			return r
		}
		return '_'
	}, s)
}

// Process is the nats-server program running as an OS process of its own,
// with JetStream on file storage in a temporary directory, listening on
// 127.0.0.1. Unlike Server it can be killed outright, as a crash or an
// out-of-memory kill would end it, and it cannot share memory or locks
// with the test. It is safe for concurrent use.
type Process struct {
	t    testing.TB
	bin  string
	dir  string // store in dir/store, log in dir/nats.log
	port int

	mu  sync.Mutex
	run *run // nil while not running
}

// run is one run of the program.
type run struct {
	cmd    *exec.Cmd
	exited chan struct{} // closed once the process was waited for
}

// StartProcess starts nats-server on a random port; it is ended, by its
// PID, when the test ends.
func StartProcess(t testing.TB) *Process {
	t.Helper()
	p := &Process{t: t, bin: Binary(t), dir: t.TempDir(), port: -1}
	t.Cleanup(p.Stop)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.start()
	return p
}

// start runs the program and waits until JetStream answers; p.mu is held.
// The first run picks a random port and reports it in a ports file; later
// runs reuse it.
func (p *Process) start() {
	p.t.Helper()
	portsDir := filepath.Join(p.dir, "ports")
	if err := os.MkdirAll(portsDir, 0o755); err != nil {
		p.t.Fatalf("natstest: %v", err)
	}
	logPath := filepath.Join(p.dir, "nats.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		p.t.Fatalf("natstest: %v", err)
	}
	defer logFile.Close()
	cmd := exec.Command(p.bin,
		"-js", "-sd", filepath.Join(p.dir, "store"),
		"-a", "127.0.0.1", "-p", strconv.Itoa(p.port),
		"--ports_file_dir", portsDir)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		p.t.Fatalf("natstest: start nats-server: %v", err)
	}
	r := &run{cmd: cmd, exited: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(r.exited)
	}()
	p.run = r
	if err := p.awaitReady(r, portsDir); err != nil {
		p.kill()
		b, _ := os.ReadFile(logPath)
		p.t.Fatalf("natstest: nats-server: %v\n%s", err, b)
	}
}

// awaitReady waits for the ports file (on the first run) and then for a
// JetStream request to be answered, which a server gives only once its
// store is recovered.
func (p *Process) awaitReady(r *run, portsDir string) error {
	deadline := time.Now().Add(readyTimeout)
	portsFile := filepath.Join(portsDir, fmt.Sprintf("%s_%d.ports", filepath.Base(p.bin), r.cmd.Process.Pid))
	for p.port < 0 {
		b, err := os.ReadFile(portsFile)
		if err == nil {
			var ports struct {
				Nats []string `json:"nats"`
			}
			if json.Unmarshal(b, &ports) == nil && len(ports.Nats) > 0 {
				u := ports.Nats[0]
				port, err := strconv.Atoi(u[strings.LastIndexByte(u, ':')+1:])
				if err != nil {
					return fmt.Errorf("ports file: %q", b)
				}
				p.port = port
				break
			}
		}
		if err := waitStep(r, deadline); err != nil {
			return err
		}
	}
	for {
		nc, err := nats.Connect(p.URL(), nats.NoReconnect(), nats.Timeout(time.Second))
		if err == nil {
			_, err = nc.Request("$JS.API.INFO", nil, time.Second)
			nc.Close()
			if err == nil {
				return nil
			}
		}
		if err := waitStep(r, deadline); err != nil {
			return err
		}
	}
}

func waitStep(r *run, deadline time.Time) error {
	if time.Now().After(deadline) {
		return errors.New("not ready in time")
	}
	select {
	case <-r.exited:
		return fmt.Errorf("exited: %v", r.cmd.ProcessState)
	case <-time.After(20 * time.Millisecond):
		return nil
	}
}

// URL is the server's client URL; it stays the same across restarts.
func (p *Process) URL() string { return "nats://127.0.0.1:" + strconv.Itoa(p.port) }

// Port is the TCP port the server listens on.
func (p *Process) Port() int { return p.port }

// StoreDir is the directory given to -sd.
func (p *Process) StoreDir() string { return filepath.Join(p.dir, "store") }

// PID is the running process's ID, 0 while it is not running.
func (p *Process) PID() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.run == nil {
		return 0
	}
	return p.run.cmd.Process.Pid
}

// Log is what the server wrote so far, over all its runs.
func (p *Process) Log() string {
	b, _ := os.ReadFile(filepath.Join(p.dir, "nats.log"))
	return string(bytes.TrimSpace(b))
}

// Kill ends the process with SIGKILL, as a crash would: nothing is
// flushed, no client is told. It returns once the process is gone.
func (p *Process) Kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.kill()
}

func (p *Process) kill() {
	if p.run == nil {
		return
	}
	_ = p.run.cmd.Process.Signal(syscall.SIGKILL)
	<-p.run.exited
	p.run = nil
}

// Stop asks the server to shut down (SIGTERM) and waits for it, killing it
// if it takes longer than readyTimeout.
func (p *Process) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stop()
}

func (p *Process) stop() {
	if p.run == nil {
		return
	}
	_ = p.run.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.run.exited:
		p.run = nil
	case <-time.After(readyTimeout):
		p.kill()
	}
}

// Restart stops the server if it runs (gracefully; Kill first for a
// crash) and starts it again on the same port and store.
func (p *Process) Restart() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stop()
	p.start()
}
