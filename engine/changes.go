package engine

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A turn's modified files are read from the work directory itself, not
// only from the agent's file tools: a file written through the shell
// (`echo > f`, `sed -i`, a build) is as modified as one written by Write,
// and every provider's agents do both. Where the work directory is a git
// repository, git status names the candidates (fast, and it knows what is
// ignored); otherwise a bounded walk does. Either way a file counts when
// it appears, disappears, or changes size or modification time during the
// turn.

// maxListed bounds the files a walk looks at: a turn in a huge directory
// that is not a repository gets the files found first, not a long pause.
const maxListed = 5000

// changeScanTimeout bounds each look at the work directory.
const changeScanTimeout = 5 * time.Second

// fileState is what is compared of one file.
type fileState struct {
	size    int64
	modTime time.Time
	exists  bool
}

// workDirSnapshot is the state of a work directory's files before a turn.
type workDirSnapshot struct {
	dir   string
	git   bool
	files map[string]fileState // by path relative to dir
}

// snapshotWorkDir records the files of dir that a turn may change.
func snapshotWorkDir(ctx context.Context, dir string) *workDirSnapshot {
	if dir == "" {
		return nil
	}
	snap := &workDirSnapshot{dir: dir}
	if paths, ok := gitStatus(ctx, dir); ok {
		snap.git = true
		snap.files = stat(dir, paths)
		return snap
	}
	snap.files = walk(dir)
	return snap
}

// changed returns the absolute paths of the files that changed since the
// snapshot.
func (snap *workDirSnapshot) changed(ctx context.Context) []string {
	if snap == nil {
		return nil
	}
	var now map[string]fileState
	if snap.git {
		paths, ok := gitStatus(ctx, snap.dir)
		if !ok {
			return nil
		}
		// Files dirty before the turn are looked at again too: the turn
		// may have changed them further, or restored them.
		for p := range snap.files {
			paths = append(paths, p)
		}
		now = stat(snap.dir, paths)
	} else {
		now = walk(snap.dir)
		for p := range snap.files {
			if _, ok := now[p]; !ok {
				now[p] = fileState{} // gone
			}
		}
	}
	var out []string
	for p, after := range now {
		if ownFile(p) {
			continue
		}
		// A path git did not list before the turn was clean then; one a
		// walk did not find is new.
		if before, seen := snap.files[p]; !seen || before != after {
			out = append(out, filepath.Join(snap.dir, p))
		}
	}
	slices.Sort(out)
	return out
}

// ownDir is the folder at the top of a work directory where providers keep
// HotPlex's own state of a conversation (the api provider's saved
// messages): not the agent's work, so never among the files it changed.
const ownDir = ".hotplex"

// ownFile reports whether rel, relative to the work directory, lies in
// ownDir.
func ownFile(rel string) bool {
	return rel == ownDir || strings.HasPrefix(rel, ownDir+"/")
}

// gitStatus lists the paths git reports as changed or untracked in dir,
// relative to dir; ok is false when dir is not in a repository.
func gitStatus(ctx context.Context, dir string) ([]string, bool) {
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(ctx, changeScanTimeout)
	defer cancel()
	cmd, err := gitCommand(ctx, dir, false, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--", ".")
	if err != nil {
		return nil, false
	}
	out, err := cmd.Output()
	if err != nil {
		return nil, false
	}
	var paths []string
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) < 4 {
			continue
		}
		paths = append(paths, string(rec[3:]))
	}
	return paths, true
}

// stat records the state of each path under dir.
func stat(dir string, paths []string) map[string]fileState {
	m := make(map[string]fileState, len(paths))
	for _, p := range paths {
		p = strings.TrimSuffix(p, "/")
		fi, err := os.Lstat(filepath.Join(dir, p))
		if err != nil {
			m[p] = fileState{}
			continue
		}
		m[p] = fileState{size: fi.Size(), modTime: fi.ModTime(), exists: true}
	}
	return m
}

// walk records up to maxListed regular files under dir, skipping version
// control and dependency folders.
func walk(dir string) map[string]fileState {
	m := map[string]fileState{}
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() && path != dir {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", ".hg", ".svn":
				if path != dir {
					return fs.SkipDir
				}
			case ownDir:
				if filepath.Dir(path) == dir {
					return fs.SkipDir
				}
			}
			return nil
		}
		if len(m) >= maxListed {
			return fs.SkipAll
		}
		fi, err := d.Info()
		if err != nil || !(fi.Mode().IsRegular() || fi.Mode()&fs.ModeSymlink != 0) {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return nil
		}
		m[rel] = fileState{size: fi.Size(), modTime: fi.ModTime(), exists: true}
		return nil
	})
	return m
}
