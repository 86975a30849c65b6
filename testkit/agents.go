package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

// ToolPath returns a file the Makefile's tools target installs under
// .tools/npm (for example "opencode/node_modules/.bin/opencode"). A test
// that needs it fails, never skips, when it is missing.
func ToolPath(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(ModuleRoot(t), ".tools", "npm", filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is not installed (run `make tools`): %v", p, err)
	}
	return p
}
