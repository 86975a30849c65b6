package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// rawDriver is the smallest program that can hold a stream-json CLI hot:
// a pipe in, a line scanner out, no events, no stats, no permission
// handling. It is the baseline HotPlex's overhead is measured against.
type rawDriver struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Scanner
}

func startRaw(path, dir string, env []string, sessionID string) (*rawDriver, error) {
	cmd := exec.Command(path, "-p", "--output-format=stream-json", "--input-format=stream-json", "--verbose",
		"--permission-prompt-tool=stdio", "--session-id="+sessionID)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	return &rawDriver{cmd: cmd, stdin: stdin, out: sc}, nil
}

func (r *rawDriver) send(v any) error {
	b, _ := json.Marshal(v)
	_, err := r.stdin.Write(append(b, '\n'))
	return err
}

func (r *rawDriver) initialize() error {
	return r.send(map[string]any{"type": "control_request", "request_id": "raw-init", "request": map[string]any{"subtype": "initialize"}})
}

func (r *rawDriver) waitFor(marker string) error {
	for r.out.Scan() {
		if strings.Contains(r.out.Text(), marker) {
			return nil
		}
	}
	return fmt.Errorf("raw driver: output ended before %s: %v", marker, r.out.Err())
}

// turn sends a prompt and waits for the turn's result frame.
func (r *rawDriver) turn(prompt string) error {
	if err := r.send(map[string]any{"type": "user", "message": map[string]any{"role": "user",
		"content": []any{map[string]any{"type": "text", "text": prompt}}}}); err != nil {
		return err
	}
	return r.waitFor(`"type":"result"`)
}

func (r *rawDriver) close() {
	_ = r.stdin.Close()
	done := make(chan struct{})
	go func() { _ = r.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		_ = syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}
