package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// maxOutput bounds what one command may return to the model.
const maxOutput = 64 << 10

// runBash runs command with bash -c in dir, in a process group of its own
// that is killed when the command ends, times out or ctx ends, so nothing
// it started in the background outlives it.
func runBash(ctx context.Context, dir string, env []string, command string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	shell, err := exec.LookPath("bash")
	if err != nil {
		shell = "/bin/sh"
	}
	cmd := exec.CommandContext(ctx, shell, "-c", command)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out limitedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Cancel = func() error { return killGroup(cmd) }
	// Background children may hold the output pipe open after the shell
	// exits; stop waiting for them shortly after.
	cmd.WaitDelay = 500 * time.Millisecond
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("start bash: %w", err)
	}
	err = cmd.Wait()
	_ = killGroup(cmd)
	text := out.String()
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return text, fmt.Errorf("command timed out after %s", timeout)
	case ctx.Err() != nil:
		return text, fmt.Errorf("command interrupted")
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return text, fmt.Errorf("exit status %d", ee.ExitCode())
		}
		if errors.Is(err, exec.ErrWaitDelay) {
			return text, nil
		}
		return text, err
	}
	return text, nil
}

func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// limitedBuffer keeps the first maxOutput bytes written to it.
type limitedBuffer struct {
	mu        sync.Mutex
	buf       bytes.Buffer
	truncated bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := maxOutput - b.buf.Len(); room < len(p) {
		if room > 0 {
			b.buf.Write(p[:room])
		}
		b.truncated = true
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *limitedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.truncated {
		return b.buf.String() + "\n[output truncated]"
	}
	return b.buf.String()
}
