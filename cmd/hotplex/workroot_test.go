package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestWorkRootOutsideCheckout loads the daemon's settings with a data dir
// inside a git repository: the sessions' work directories land under the
// user's cache dir, outside the repository, and the banner says so. A data
// dir outside any repository keeps them in DATA_DIR/work; a configured
// root is kept and, inside a checkout, warned about.
func TestWorkRootOutsideCheckout(t *testing.T) {
	repo, cache := t.TempDir(), t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	t.Setenv("XDG_CACHE_HOME", cache)
	load := func(env map[string]string) serveConfig {
		t.Helper()
		fl := defaultServeConfig()
		c := &cobra.Command{Use: "serve"}
		fl.register(c)
		cfg, err := loadServeConfig(c, &fl, "", func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}

	cfg := load(map[string]string{"HOTPLEX_DATA_DIR": filepath.Join(repo, ".hotplex")})
	if gitWorkTree(cfg.WorkDirRoot) != "" || !strings.HasPrefix(cfg.WorkDirRoot, filepath.Join(cache, "hotplex", "work")+string(filepath.Separator)) {
		t.Errorf("data dir in a repository: work root %s, want one under %s outside %s", cfg.WorkDirRoot, cache, repo)
	}
	if note := workRootNote(cfg); !strings.Contains(note, cfg.WorkDirRoot) || !strings.Contains(note, "outside the git checkout "+repo) {
		t.Errorf("banner note: %q", note)
	}
	other := load(map[string]string{"HOTPLEX_DATA_DIR": filepath.Join(repo, "elsewhere")})
	if other.WorkDirRoot == cfg.WorkDirRoot {
		t.Errorf("two data dirs share the work root %s", cfg.WorkDirRoot)
	}

	plain := t.TempDir()
	cfg = load(map[string]string{"HOTPLEX_DATA_DIR": plain})
	if cfg.WorkDirRoot != filepath.Join(plain, "work") || workRootNote(cfg) != "" {
		t.Errorf("data dir outside a repository: work root %s, note %q", cfg.WorkDirRoot, workRootNote(cfg))
	}

	chosen := filepath.Join(repo, "work")
	cfg = load(map[string]string{"HOTPLEX_DATA_DIR": plain, "HOTPLEX_WORK_DIR_ROOT": chosen})
	if cfg.WorkDirRoot != chosen || !strings.Contains(workRootNote(cfg), "Warning") {
		t.Errorf("configured root: %s, note %q", cfg.WorkDirRoot, workRootNote(cfg))
	}
}
