package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// gitTimeout bounds one git command HotPlex runs itself (not the agent's).
const gitTimeout = 30 * time.Second

// gitSafety is given to every git command HotPlex runs in a repository an
// owner controls: the repository's hooks and file-system monitor would
// otherwise run the owner's programs as the daemon, outside the session's
// process isolation and firewall (worktree add runs post-checkout, merge
// runs post-merge).
var gitSafety = []string{"-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "core.quotepath=off"}

// gitEnv is the daemon's environment without what would point git at
// another repository, index or configuration than the one asked about.
func gitEnv(optionalLocks bool) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY",
			"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CEILING_DIRECTORIES", "GIT_CONFIG_PARAMETERS",
			"GIT_CONFIG_COUNT", "GIT_EXTERNAL_DIFF", "GIT_OPTIONAL_LOCKS":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "GIT_TERMINAL_PROMPT=0")
	if !optionalLocks {
		// Reading must not take the index lock an agent's git may want.
		env = append(env, "GIT_OPTIONAL_LOCKS=0")
	}
	return env
}

// gitError is a git command that failed, with what it said.
type gitError struct {
	args   []string
	stderr string
	err    error
}

func (e *gitError) Error() string {
	msg := strings.TrimSpace(e.stderr)
	if msg == "" {
		msg = e.err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.args, " "), msg)
}

func (e *gitError) Unwrap() error { return e.err }

// git runs git in dir and returns its standard output. Commands that
// change the repository pass write, which lets git take its optional locks.
func git(ctx context.Context, dir string, write bool, args ...string) ([]byte, error) {
	var out bytes.Buffer
	err := gitTo(ctx, dir, write, &out, args...)
	return out.Bytes(), err
}

// gitTo runs git in dir writing its standard output to w.
func gitTo(ctx context.Context, dir string, write bool, w interface{ Write([]byte) (int, error) }, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append(append([]string{}, gitSafety...), args...)...)
	cmd.Dir = dir
	cmd.Env = gitEnv(write)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &stderr
	if err := cmd.Run(); err != nil {
		return &gitError{args: args, stderr: stderr.String(), err: err}
	}
	return nil
}

// gitLine runs git and returns the first line of its output.
func gitLine(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := git(ctx, dir, false, args...)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line), nil
}

// splitNul splits git's -z output into its records.
func splitNul(out []byte) []string {
	var recs []string
	for _, r := range bytes.Split(out, []byte{0}) {
		if len(r) > 0 {
			recs = append(recs, string(r))
		}
	}
	return recs
}

// capped keeps the first max bytes written to it and notes the rest.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room < len(p) {
		c.over = true
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil
	}
	c.buf.Write(p)
	return len(p), nil
}
