package main

import (
	"bytes"
	"encoding/json"
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
	if err != nil {
		t.Fatal(err)
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
	if err != nil {
		t.Fatal(err)
	}
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"blocked":true`) || !strings.Contains(lines[1], `"error"`) || !strings.Contains(lines[2], `"blocked":false`) {
		t.Fatalf("jsonl output: %q", out)
	}
	if _, _, err := runRoot(t, "", "guard", "check", "--unresolved", "maybe"); err == nil {
		t.Fatal("a bad --unresolved value was accepted")
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
