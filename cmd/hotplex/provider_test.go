package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/testkit"
)

// TestExecProviderFlag runs exec on the built-in offline model with each
// model-API provider: the demo's shell call creates its file through the
// provider's own bash tool.
func TestExecProviderFlag(t *testing.T) {
	for _, prov := range []string{"api-anthropic", "api-openai"} {
		t.Run(prov, func(t *testing.T) {
			t.Cleanup(func() { testkit.AssertNoDescendants(t) })
			env := withoutEnv(os.Environ(), []string{"HOME"}, []string{"ANTHROPIC_", "OPENAI_"})
			env = append(env, "HOME="+t.TempDir())
			work := t.TempDir()
			r := runHotplex(t, time.Minute, t.TempDir(), env, nil,
				"exec", "--provider", prov, "--offline", "always", "--workdir", work, "--json", "look around", "again")
			if r.code != 0 {
				t.Fatalf("exec --provider %s failed:\n%s", prov, r)
			}
			if !strings.Contains(r.stdout, `"provider":"`+prov+`"`) || !strings.Contains(r.stdout, "hotplex-demo.txt") {
				t.Fatalf("stdout lacks the provider's session_start or the demo answer:\n%s", r)
			}
			if strings.Count(r.stdout, `"event":"result"`) != 2 {
				t.Fatalf("two turns expected:\n%s", r)
			}
			b, err := os.ReadFile(filepath.Join(work, "hotplex-demo.txt"))
			if err != nil || strings.TrimSpace(string(b)) != "hello from "+work {
				t.Fatalf("hotplex-demo.txt: %q, %v", b, err)
			}
		})
	}
}

func TestExecUnknownProvider(t *testing.T) {
	r := runHotplex(t, 30*time.Second, t.TempDir(), os.Environ(), nil, "exec", "--provider", "no-such-agent", "hi")
	if r.code == 0 || !strings.Contains(r.stderr, `unknown provider "no-such-agent"`) || !strings.Contains(r.stderr, "api-openai") {
		t.Fatalf("unknown provider:\n%s", r)
	}
}

// TestDoctorListsProviders checks the provider table: every known agent
// has a row, with a version or what is missing.
func TestDoctorListsProviders(t *testing.T) {
	env := withoutEnv(os.Environ(), []string{"HOME"}, []string{"ANTHROPIC_", "OPENAI_"})
	env = append(env, "HOME="+t.TempDir(), "OPENAI_API_KEY=sk-test")
	r := runHotplex(t, time.Minute, t.TempDir(), env, nil, "doctor")
	rows := map[string][]string{}
	for line := range strings.SplitSeq(r.stdout, "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 {
			rows[f[0]] = f
		}
	}
	if h := rows["AGENT"]; h == nil {
		t.Fatalf("no agent table:\n%s", r)
	}
	if o := rows["api-openai"]; o[1] != "ok" || !strings.Contains(o[2], "openai-go") {
		t.Errorf("api-openai row %q\n%s", o, r)
	}
	if a := rows["api-anthropic"]; a == nil || a[1] != "missing" || !strings.Contains(strings.Join(a, " "), "ANTHROPIC_API_KEY") {
		t.Errorf("api-anthropic row %q\n%s", a, r)
	}
	if c := rows["claude"]; c == nil {
		t.Errorf("no claude row\n%s", r)
	}
}
