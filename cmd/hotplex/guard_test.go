package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runRoot(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	root := newRootCmd(strings.NewReader(stdin), &out, &errb)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), errb.String(), err
}

func TestGuardCheck(t *testing.T) {
	in := "rm -rf /\n\nls -la\necho \"rm -rf /\"\n"
	out, _, err := runRoot(t, in, "guard", "check", "--workdir", "/work/project", "--home", "/home/dev")
	if code := exitCode(err); code != 1 {
		t.Fatalf("exit status %d (%v), want 1 for a blocked command", code, err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("want one line per non-empty command, got %q", out)
	}
	want := []bool{true, false, false}
	for i, l := range lines {
		var r struct {
			Command     string   `json:"command"`
			Blocked     bool     `json:"blocked"`
			Level       string   `json:"level"`
			Category    string   `json:"category"`
			Reason      string   `json:"reason"`
			Pattern     string   `json:"pattern"`
			Suggestions []string `json:"suggestions"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Blocked != want[i] || r.Suggestions == nil {
			t.Fatalf("line %d: %s", i, l)
		}
		if r.Blocked && (r.Level != "critical" || r.Category != "file_delete" || r.Reason == "" || r.Pattern == "") {
			t.Fatalf("block lacks detail: %s", l)
		}
	}

	// --jsonl: commands with newlines; a bad line is reported, not fatal.
	in = `"echo hi\nrm -rf ~"` + "\nnot json\n" + `"git status"` + "\n"
	out, _, err = runRoot(t, in, "guard", "check", "--jsonl", "--home", "/home/dev")
	if code := exitCode(err); code != 2 {
		t.Fatalf("exit status %d (%v), want 2 for a bad line", code, err)
	}
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"blocked":true`) || !strings.Contains(lines[1], `"error"`) || !strings.Contains(lines[2], `"blocked":false`) {
		t.Fatalf("jsonl output: %q", out)
	}
	if _, _, err := runRoot(t, "", "guard", "check", "--unresolved", "maybe"); exitCode(err) != 2 {
		t.Fatalf("a bad --unresolved value: %v, want exit status 2", err)
	}
}

// exitCode is the status main exits with for err.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}

// guard check gates a pipeline: 0 when nothing is blocked, 1 when
// something is, 2 on bad input.
func TestGuardCheckExitStatus(t *testing.T) {
	dir := t.TempDir()
	policy := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(policy, []byte(`{"permissions":{"deny":["Bash(git push:*)"],"allow":["Bash(npm run test:*)"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"permissions":{"deny":["Bash(git push"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
	}{
		{"benign", "ls -la\ngit status\n", nil, 0},
		{"empty input", "", nil, 0},
		{"blocked", "ls\nrm -rf ~\n", nil, 1},
		{"policy deny", "sudo git push origin main\n", []string{"--policy", policy}, 1},
		{"policy allows the rest", "npm run test -- --watch=false\n", []string{"--policy", policy}, 0},
		{"missing policy", "ls\n", []string{"--policy", filepath.Join(dir, "nope.json")}, 2},
		{"bad policy rule", "ls\n", []string{"--policy", bad}, 2},
		{"bad shell", "ls\n", []string{"--shell", "tcsh-for-windows"}, 2},
		{"unknown flag", "ls\n", []string{"--no-such-flag"}, 2},
		{"bad jsonl", "nope\n", []string{"--jsonl"}, 2},
		{"powershell benign", "Get-ChildItem -Recurse -Filter *.go | Select-Object FullName\n", []string{"--shell", "powershell"}, 0},
		{"powershell blocked", "ri -r -fo $env:USERPROFILE\n", []string{"--shell", "powershell"}, 1},
		{"cmd blocked", "rd /s /q %USERPROFILE%\n", []string{"--shell", "cmd"}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"guard", "check", "--workdir", `C:\work\project`, "--home", `C:\Users\dev`}, tc.args...)
			out, errOut, err := runRoot(t, tc.stdin, args...)
			if code := exitCode(err); code != tc.code {
				t.Fatalf("exit status %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errOut)
			}
			if tc.code == 2 && !strings.Contains(tc.name, "jsonl") && errOut == "" {
				t.Fatal("bad input without a message on stderr")
			}
		})
	}
	// the rule that decided is in the output
	out, _, _ := runRoot(t, "sudo git push\n", "guard", "check", "--policy", policy)
	var r struct {
		Blocked   bool   `json:"blocked"`
		Decision  string `json:"decision"`
		Rule      string `json:"rule"`
		RuleLevel string `json:"rule_level"`
		Category  string `json:"category"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if !r.Blocked || r.Decision != "deny" || r.Rule != "Bash(git push:*)" || r.RuleLevel != "server" || r.Category != "policy" {
		t.Fatalf("policy output: %s", out)
	}
}

func TestGuardExplainPolicyAndShell(t *testing.T) {
	dir := t.TempDir()
	policy := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(policy, []byte(`{"permissions":{"deny":["Bash(git push:*)"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, err := runRoot(t, "", "guard", "explain", "--policy", policy, "make", "&&", "sudo", "git", "push")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"policy: deny by the server rule Bash(git push:*)", `"git push"`, "final verdict: BLOCKED"} {
		if !strings.Contains(out, want) {
			t.Fatalf("explain lacks %q:\n%s", want, out)
		}
	}
	out, _, err = runRoot(t, "", "guard", "explain", "--shell", "powershell", "--home", `C:\Users\dev`, `Remove-Item -Rec -Fo $env:USERPROFILE`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "BLOCKED") || !strings.Contains(out, "win-delete-profile") {
		t.Fatalf("powershell explain:\n%s", out)
	}
}

func TestGuardExplain(t *testing.T) {
	out, _, err := runRoot(t, "", "guard", "explain", "--home", "/home/dev", `sudo bash -c "rm -rf ~"`)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"BLOCKED", "critical", "sudo", "rm -rf /home/dev"} {
		if !strings.Contains(out, want) {
			t.Fatalf("explain output lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = runRoot(t, "", "guard", "explain", "ls", "-la")
	if strings.Contains(out, "BLOCKED") {
		t.Fatalf("ls blocked:\n%s", out)
	}
}
