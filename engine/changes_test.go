package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

func TestChangedFiles(t *testing.T) {
	for _, repo := range []bool{false, true} {
		name := "plain"
		if repo {
			name = "git"
		}
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			write := func(p, s string) {
				t.Helper()
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("kept.txt", "same")
			write("edited.txt", "before")
			write("gone.txt", "bye")
			write("dirty.txt", "dirty before")
			if repo {
				git := func(args ...string) {
					t.Helper()
					cmd := exec.Command("git", append([]string{"-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
					cmd.Dir = dir
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("git %v: %v %s", args, err, out)
					}
				}
				git("init", "-q")
				git("add", ".")
				git("commit", "-qm", "init")
				write("dirty.txt", "dirty, uncommitted")
			}
			snap := snapshotWorkDir(ctx, dir)
			if snap.git != repo {
				t.Fatalf("git = %v", snap.git)
			}
			// mtimes are compared: make sure the edit lands on a later tick.
			later := time.Now().Add(2 * time.Second)
			write("edited.txt", "after!")
			_ = os.Chtimes(filepath.Join(dir, "edited.txt"), later, later)
			write("sub/new.txt", "made by the shell")
			// HotPlex's own record of the conversation is not the agent's work.
			write(".hotplex/api/conversation.json", "[]")
			write("sub/.hotplex/kept.txt", "an agent's folder of that name is its work")
			if err := os.Remove(filepath.Join(dir, "gone.txt")); err != nil {
				t.Fatal(err)
			}
			got := snap.changed(ctx)
			want := []string{filepath.Join(dir, "edited.txt"), filepath.Join(dir, "gone.txt"), filepath.Join(dir, "sub/.hotplex/kept.txt"), filepath.Join(dir, "sub/new.txt")}
			if !slices.Equal(got, want) {
				t.Errorf("changed = %v, want %v", got, want)
			}
		})
	}
}

func TestChangedFilesBounded(t *testing.T) {
	dir := t.TempDir()
	for i := range maxListed + 10 {
		if err := os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(walk(dir)); n != maxListed {
		t.Errorf("walk listed %d files, want the bound %d", n, maxListed)
	}
}
