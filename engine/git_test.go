package engine

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// AttackerProgram writes a program standing for one an owner's repository
// names for git to run: all it does is create sentinel. When passThrough,
// it then copies the file it is given, or its input, to its output, so
// that a filter, textconv or pager it stands for leaves contents as they
// were; otherwise it fails. Exported for the external tests.
func AttackerProgram(t *testing.T, passThrough bool) (program, sentinel string) {
	t.Helper()
	dir := t.TempDir()
	program, sentinel = filepath.Join(dir, "program"), filepath.Join(dir, "ran")
	script := "#!/bin/sh\n: > '" + sentinel + "'\n"
	if passThrough {
		script += "if [ -f \"$1\" ]; then exec cat \"$1\"; fi\nexec cat\n"
	} else {
		script += "exit 1\n"
	}
	if err := os.WriteFile(program, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return program, sentinel
}

// RequireNotRun fails the test if the program AttackerProgram wrote ran.
func RequireNotRun(t *testing.T, sentinel, what string) {
	t.Helper()
	if _, err := os.Stat(sentinel); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s ran the repository's program (%v)", what, err)
	}
}

// testRepo makes a repository with one commit, by HotPlex's own git.
func testRepo(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "a.txt"},
		{"-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", "a"},
	} {
		if _, err := git(ctx, dir, true, args...); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// setConfig sets key in dir's repository configuration.
func setConfig(t *testing.T, dir, key, value string) {
	t.Helper()
	if _, err := git(context.Background(), dir, true, "config", key, value); err != nil {
		t.Fatal(err)
	}
}

// Neither a pager nor an editor the repository names runs, even where
// git would start one: a terminal on standard output, a commit without a
// message, an interactive rebase.
func TestGitRunsNoPagerOrEditorOfTheRepository(t *testing.T) {
	ctx := context.Background()
	t.Run("pager", func(t *testing.T) {
		repo := testRepo(t)
		prog, sentinel := AttackerProgram(t, true)
		setConfig(t, repo, "core.pager", prog)
		setConfig(t, repo, "pager.log", prog)
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer ptmx.Close()
		drained := make(chan []byte)
		go func() {
			b, _ := io.ReadAll(ptmx) // until the terminal's last holder closes it
			drained <- b
		}()
		cmd, err := gitCommand(ctx, repo, false, "log", "-1", "--format=%s")
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = tty, tty
		err = cmd.Run()
		_ = tty.Close()
		out := <-drained
		if err != nil {
			t.Fatalf("git log on a terminal: %v: %s", err, out)
		}
		RequireNotRun(t, sentinel, "git log on a terminal")
		if !bytes.Contains(out, []byte("a")) {
			t.Fatalf("git log wrote %q", out)
		}
	})
	t.Run("editor", func(t *testing.T) {
		repo := testRepo(t)
		prog, sentinel := AttackerProgram(t, true)
		setConfig(t, repo, "core.editor", prog)
		setConfig(t, repo, "sequence.editor", prog)
		setConfig(t, repo, "user.name", "T")
		setConfig(t, repo, "user.email", "t@example.com")
		// No message: the editor git takes for none leaves it empty.
		if _, err := git(ctx, repo, true, "commit", "-q", "--allow-empty"); err == nil {
			t.Fatal("a commit without a message was made")
		}
		RequireNotRun(t, sentinel, "git commit")
		if _, err := git(ctx, repo, true, "rebase", "-q", "-i", "HEAD"); err != nil {
			t.Fatal(err)
		}
		RequireNotRun(t, sentinel, "git rebase -i")
	})
}

// No transport runs: not the repository's ssh command, nor a program
// behind ext::, even where the repository allows it.
func TestGitRunsNoTransport(t *testing.T) {
	ctx := context.Background()
	repo := testRepo(t)
	prog, sentinel := AttackerProgram(t, false)
	setConfig(t, repo, "core.sshCommand", prog)
	setConfig(t, repo, "protocol.ext.allow", "always")
	setConfig(t, repo, "protocol.ssh.allow", "always")
	for _, url := range []string{"ssh://example.invalid/repo", "ext::" + prog} {
		_, err := git(ctx, repo, false, "ls-remote", url)
		RequireNotRun(t, sentinel, "ls-remote "+url)
		var ge *gitError
		if !errors.As(err, &ge) || !strings.Contains(ge.stderr, "not allowed") {
			t.Fatalf("ls-remote %s: %v", url, err)
		}
	}
}

// What git (and so any program it starts) is given of the daemon's
// environment is PATH and TZ, nothing else: not its model keys and
// tokens, not its HOME.
func TestGitEnvironmentIsItsOwn(t *testing.T) {
	ctx := context.Background()
	repo := testRepo(t)
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-daemon-secret")
	t.Setenv("HOTPLEX_ADMIN_TOKEN", "daemon-admin-token")
	t.Setenv("TZ", "UTC")
	dump := filepath.Join(t.TempDir(), "env")
	prog := filepath.Join(t.TempDir(), "dump-env")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\nenv > '"+dump+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// An alias of HotPlex's own choosing is a program git runs as it
	// would run any the repository names.
	if _, err := git(ctx, repo, false, "-c", "alias.hotplex-env=!"+prog, "hotplex-env"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	seen := string(b)
	for _, secret := range []string{"sk-ant-daemon-secret", "daemon-admin-token", "HOME=" + os.Getenv("HOME") + "\n"} {
		if strings.Contains(seen, secret) {
			t.Fatalf("a program git ran saw %q:\n%s", secret, seen)
		}
	}
	for _, want := range []string{"HOME=/dev/null\n", "TZ=UTC\n", os.Getenv("PATH") + "\n", "GIT_CONFIG_NOSYSTEM=1\n"} {
		if !strings.Contains(seen, want) {
			t.Fatalf("a program git ran lacked %q:\n%s", want, seen)
		}
	}

	// Everything the command is given is git's or one of a few names,
	// and none of the git settings of the daemon's environment.
	t.Setenv("GIT_DIR", "/elsewhere")
	cmd, err := gitCommand(ctx, repo, false, "status")
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range cmd.Env {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "GIT_") && !slices.Contains([]string{"PATH", "HOME", "LANG", "LC_ALL", "TZ"}, name) {
			t.Errorf("git is given %s", kv)
		}
		if name == "GIT_DIR" {
			t.Errorf("git is given the daemon's %s", kv)
		}
	}
}

// Each key naming a program is overridden, whatever its case or
// subsection; others are left alone.
func TestProgramKeysNeutralised(t *testing.T) {
	keys := []string{
		"filter.lfs.smudge", "filter.a=b.c.clean", "filter.X.process", "filter.X.required",
		"diff.Evil.textconv", "diff.evil.command", "diff.external", "merge.ours.driver",
		"pager.log", "core.sshcommand", "core.gitproxy", "core.alternaterefscommand",
		"gpg.program", "gpg.x509.program", "gpg.ssh.defaultkeycommand",
		"credential.https://example.com.helper", "protocol.ext.allow",
		"remote.origin.uploadpack", "remote.origin.receivepack", "remote.origin.vcs",
		"interactive.difffilter", "trailer.sign.command", "difftool.x.cmd", "mergetool.x.cmd",
		// not programs
		"core.bare", "filter.smudge", "diff.x.binary", "remote.origin.url", "user.name", "gpg.SSH.defaultkeycommand",
		"filter.lfs.smudge", // twice: once overridden
	}
	got := map[string]string{}
	for _, p := range neutralised(keys) {
		if _, dup := got[p.key]; dup {
			t.Errorf("%s overridden twice", p.key)
		}
		got[p.key] = p.value
	}
	want := map[string]string{"filter.X.required": "false", "pager.log": "false", "protocol.ext.allow": "never"}
	for _, k := range keys[:24] {
		v, ok := got[k]
		if !ok || v != want[k] {
			t.Errorf("%s: overridden %v with %q", k, ok, v)
		}
	}
	if len(got) != 24 {
		t.Errorf("%d keys overridden, want 24: %v", len(got), got)
	}
}

// Diff-family commands are told to use no diff driver, wherever the
// command stands among git's own options; others are left alone.
func TestWithoutDiffDrivers(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"diff -p HEAD --", "diff --no-ext-diff --no-textconv -p HEAD --"},
		{"-c a.b=c log -1", "-c a.b=c log --no-ext-diff --no-textconv -1"},
		{"status --porcelain", "status --porcelain"},
		{"worktree add -q x diff", "worktree add -q x diff"},
	} {
		if got := strings.Join(withoutDiffDrivers(strings.Fields(c.in)), " "); got != c.want {
			t.Errorf("%s: %s, want %s", c.in, got, c.want)
		}
	}
}
