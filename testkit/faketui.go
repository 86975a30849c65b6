package testkit

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// BuildFakeTUI compiles testkit/faketui, a scripted terminal chat program,
// into dir and returns its path.
func BuildFakeTUI(t testing.TB, dir string) string {
	t.Helper()
	out := filepath.Join(dir, "faketui")
	cmd := exec.Command("go", "build", "-o", out, "./testkit/faketui")
	cmd.Dir = ModuleRoot(t)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build faketui: %v\n%s", err, b)
	}
	return out
}
