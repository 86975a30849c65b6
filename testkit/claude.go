// Package testkit holds the test machinery shared by HotPlex's tests:
// finding the real agent CLIs the Makefile installs, giving them a private
// offline environment, building the fake agent, and checking that no
// process outlives a test.
package testkit

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hotplex/hotplex/provider"
)

// ModuleRoot returns the repository's root directory (where go.mod is).
func ModuleRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("testkit: cannot locate the source tree")
	}
	return filepath.Dir(filepath.Dir(file))
}

// ClaudePath returns the real `claude` CLI installed by `make tools`
// (.tools/npm/node_modules/.bin/claude), or $HOTPLEX_CLAUDE_PATH. A test
// that needs it fails, never skips, when it is missing: a missing install
// must not pass for a green run.
func ClaudePath(t testing.TB) string {
	t.Helper()
	p := os.Getenv("HOTPLEX_CLAUDE_PATH")
	if p == "" {
		p = filepath.Join(ModuleRoot(t), ".tools", "npm", "node_modules", ".bin", "claude")
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the claude CLI is not installed at %s (run `make tools`): %v", p, err)
	}
	return p
}

// OfflineEnv returns an environment for an agent CLI that talks only to the
// model server at baseURL: a private HOME under the test's temp dir, a
// dummy API key, and no telemetry or update traffic.
func OfflineEnv(t testing.TB, baseURL string) []string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	return OfflineEnvWithHome(home, baseURL)
}

// OfflineEnvWithHome is OfflineEnv with a given HOME, for tests that need
// the same CLI state across engines.
func OfflineEnvWithHome(home, baseURL string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME", strings.HasPrefix(k, "ANTHROPIC_"), strings.HasPrefix(k, "CLAUDE"):
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"HOME="+home,
		"ANTHROPIC_BASE_URL="+baseURL,
		"ANTHROPIC_API_KEY=sk-hotplex-test",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	)
}

// BuildFakeAgent compiles testkit/fakeagent into dir and returns its path.
func BuildFakeAgent(t testing.TB, dir string) string {
	t.Helper()
	out, err := buildFakeAgent(dir)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// EnvValue returns the value of key in env (the last one wins), or "".
func EnvValue(env []string, key string) string { return provider.EnvValue(env, key) }
