package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// defaultWorkDirRoot is where session work directories go when no root is
// configured: DATA_DIR/work, unless the data dir sits inside a git work
// tree (a daemon run from its own checkout). There, agents would take the
// checkout for their sessions' project (Claude Code keys its memory and
// settings by the enclosing repository), so the work directories go under
// the user's cache directory instead, one root per data dir. It returns
// the root and, when it moved, the checkout it avoided.
func defaultWorkDirRoot(dataDir string) (root, checkout string) {
	inside := filepath.Join(dataDir, "work")
	checkout = gitWorkTree(dataDir)
	if checkout == "" {
		return inside, ""
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return inside, ""
	}
	sum := sha256.Sum256([]byte(dataDir))
	return filepath.Join(cache, "hotplex", "work", filepath.Base(checkout)+"-"+hex.EncodeToString(sum[:6])), checkout
}

// gitWorkTree returns the top of the git work tree holding dir (which need
// not exist yet), or "" when there is none.
func gitWorkTree(dir string) string {
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

// workRootNote is the banner's word on where work directories are, when
// a git checkout is involved: moved out of the one holding the data dir,
// or (when configured so) inside one.
func workRootNote(cfg serveConfig) string {
	if co := gitWorkTree(cfg.WorkDirRoot); co != "" {
		return fmt.Sprintf("Warning: session work directories (%s) are inside the git checkout %s: agents will take it for their sessions' project\n", cfg.WorkDirRoot, co)
	}
	if co := gitWorkTree(cfg.DataDir); co != "" {
		return fmt.Sprintf("Session work directories are in %s, outside the git checkout %s that holds the data dir (set work_dir_root to choose)\n", cfg.WorkDirRoot, co)
	}
	return ""
}
