package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"go.uber.org/goleak"
)

// MainWithFakeAgent runs a package's tests (call it from TestMain) with
// testkit/fakeagent built into a temporary directory, its path stored in
// *path. After a passing run, settle (say, closing idle HTTP connections)
// runs and the run fails if a goroutine outlived the tests. It returns the
// exit code for os.Exit.
func MainWithFakeAgent(m *testing.M, path *string, settle ...func()) int {
	dir, err := os.MkdirTemp("", "hotplex-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testkit:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if *path, err = buildFakeAgent(dir); err != nil {
		fmt.Fprintln(os.Stderr, "testkit:", err)
		return 1
	}
	code := m.Run()
	for _, f := range settle {
		f()
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutine leak:", err)
			code = 1
		}
	}
	return code
}

// buildFakeAgent compiles testkit/fakeagent into dir and returns its path.
func buildFakeAgent(dir string) (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("cannot locate the source tree")
	}
	out := filepath.Join(dir, "fakeagent")
	cmd := exec.Command("go", "build", "-o", out, "./testkit/fakeagent")
	cmd.Dir = filepath.Dir(filepath.Dir(file))
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build fakeagent: %w\n%s", err, b)
	}
	return out, nil
}
