package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hotplex/hotplex/agents"
	"github.com/hotplex/hotplex/testkit"
)

// TestDoctorAgreesWithItself runs doctor where the project-local agent CLIs
// are installed: every agent has one row, and its status is the one the
// daemon acts on (agents.Known), so no agent is both missing and ok.
func TestDoctorAgreesWithItself(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	t.Chdir(testkit.ModuleRoot(t))
	t.Setenv("HOME", t.TempDir())
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &stdout, &stderr)
	root.SetArgs([]string{"doctor"})
	err := root.ExecuteContext(t.Context())
	rows := map[string][]string{} // first column → statuses
	for line := range strings.SplitSeq(stdout.String(), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && (f[1] == "ok" || f[1] == "missing" || f[1] == "broken") {
			rows[f[0]] = append(rows[f[0]], f[1])
		}
	}
	known := agents.Known(agents.Config{})
	runnable := 0
	for _, a := range known {
		want := "ok"
		if a.Provider == nil {
			want = "missing"
		} else {
			runnable++
		}
		if got := rows[a.Name]; len(got) != 1 || got[0] != want {
			t.Errorf("%s: rows %q, want one %q", a.Name, got, want)
		}
		delete(rows, a.Name)
	}
	if len(rows) != 0 {
		t.Errorf("rows for no known agent: %q", rows)
	}
	if runnable == 0 {
		t.Fatal("no agent CLI is installed under .tools (run `make tools`)")
	}
	if err != nil {
		t.Errorf("doctor failed with %d runnable agents: %v", runnable, err)
	}
	if t.Failed() {
		t.Logf("doctor's output:\n%s%s", stdout.String(), stderr.String())
	}
}

// TestFlagValueNames checks every flag's help: pflag takes a flag's value
// name from the first backquoted word of its usage, so a backquoted phrase
// ("`hotplex doctor`") would show as the value name.
func TestFlagValueNames(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			name, _ := pflag.UnquoteUsage(f)
			if strings.ContainsAny(name, " \t") {
				t.Errorf("%s --%s: value name %q", c.CommandPath(), f.Name, name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}))
}
