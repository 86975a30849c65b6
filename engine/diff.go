package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff"
)

// Bounds of a session's diff: a session that rewrote a large tree gets
// its file list (up to MaxDiffFiles) and as many patches as fit.
const (
	// MaxDiffBytes bounds the patches of one diff together.
	MaxDiffBytes = 1 << 20
	// MaxFilePatchBytes bounds one file's patch.
	MaxFilePatchBytes = 256 << 10
	// MaxDiffFiles bounds the files one diff lists.
	MaxDiffFiles = 2000
)

// keptFileBytes and keptTotalBytes bound the contents a plain directory's
// baseline keeps, so that its text files' changes can be shown as diffs.
const (
	keptFileBytes  = 64 << 10
	keptTotalBytes = 8 << 20
)

// FileChange is one file a session changed.
type FileChange struct {
	Path string `json:"path"`
	// Status is added, modified or deleted.
	Status    string `json:"status"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	Binary    bool   `json:"binary,omitempty"`
	// Patch is the file's unified diff; empty for a binary file, or when
	// Truncated.
	Patch string `json:"patch,omitempty"`
	// Truncated is set when the patch was left out: over
	// MaxFilePatchBytes, over what MaxDiffBytes left, or (in a directory
	// that is not a repository) the file's earlier content was not kept.
	Truncated bool `json:"truncated,omitempty"`
}

// Changes are a session's changes to its work directory.
type Changes struct {
	// Base is what they are measured against: a commit, or "snapshot"
	// (the files of a directory that is not a repository when the session
	// was created, or when the daemon last restarted).
	Base string `json:"base"`
	// Branch and BaseBranch are a worktree session's branch and the
	// branch it started from.
	Branch     string       `json:"branch,omitempty"`
	BaseBranch string       `json:"base_branch,omitempty"`
	Files      []FileChange `json:"files"`
	// Truncated is set when files were left out (over MaxDiffFiles) or
	// any file's patch was.
	Truncated bool `json:"truncated"`
}

// Diff returns what the session changed: in a worktree, its branch and
// working tree against the commit the branch started from; in a work
// directory that is a git repository, the working tree (untracked files
// included) against the HEAD it had when the session was created; in any
// other directory, the files added, modified and deleted since the
// session was created.
func (e *Engine) Diff(ctx context.Context, id string) (*Changes, error) {
	s, ok := e.pool.GetSession(id)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrSessionNotFound, id)
	}
	b, wd := s.Config.Baseline, s.Config.WorkDir
	if b == nil {
		b = baselineOf(ctx, wd)
	}
	var (
		ch  *Changes
		err error
	)
	switch {
	case b.Commit != "":
		ch, err = gitChanges(ctx, wd, b.Commit)
		if err == nil && b.Worktree != nil {
			ch.Branch, ch.BaseBranch = b.Worktree.Branch, b.Worktree.BaseBranch
		}
	case b.listing != nil:
		ch = b.listing.changes(wd)
	default:
		ch = &Changes{Base: "snapshot"}
	}
	if err != nil {
		return nil, err
	}
	ch.bound()
	return ch, nil
}

// bound sorts the files and keeps the patches within the limits.
func (c *Changes) bound() {
	slices.SortFunc(c.Files, func(a, b FileChange) int { return strings.Compare(a.Path, b.Path) })
	if len(c.Files) > MaxDiffFiles {
		c.Files, c.Truncated = c.Files[:MaxDiffFiles], true
	}
	if c.Files == nil {
		c.Files = []FileChange{}
	}
	left := MaxDiffBytes
	for i := range c.Files {
		f := &c.Files[i]
		if len(f.Patch) > MaxFilePatchBytes || len(f.Patch) > left {
			f.Patch, f.Truncated = "", true
		}
		left -= len(f.Patch)
		c.Truncated = c.Truncated || f.Truncated
	}
}

// notOwn is the pathspec that leaves HotPlex's own folder out of a diff.
const notOwn = ":(exclude)" + ownDir

// gitChanges diffs dir's working tree, untracked files included, against
// base.
func gitChanges(ctx context.Context, dir, base string) (*Changes, error) {
	ch := &Changes{Base: base}
	opts := []string{"--no-color", "--no-renames", "--relative"}
	status, err := git(ctx, dir, false, append(append([]string{"diff", "--name-status", "-z"}, opts...), base, "--", ".", notOwn)...)
	if err != nil {
		return nil, err
	}
	numstat, err := git(ctx, dir, false, append(append([]string{"diff", "--numstat", "-z"}, opts...), base, "--", ".", notOwn)...)
	if err != nil {
		return nil, err
	}
	// The patch is read up to what a diff may return and cut into files
	// at their headers; they come in the order of the lists above.
	patch := &capped{max: 4 * MaxDiffBytes}
	if err := gitTo(ctx, dir, false, patch, append(append([]string{"diff", "-p"}, opts...), base, "--", ".", notOwn)...); err != nil {
		return nil, err
	}
	byPath := map[string]*FileChange{}
	recs := splitNul(status)
	for i := 0; i+1 < len(recs); i += 2 {
		f := FileChange{Path: recs[i+1], Status: statusWord(recs[i])}
		ch.Files = append(ch.Files, f)
	}
	for i := range ch.Files {
		byPath[ch.Files[i].Path] = &ch.Files[i]
	}
	// numstat -z: "added\tdeleted\tpath" a record ("-\t-\t" when binary).
	for _, rec := range splitNul(numstat) {
		parts := strings.SplitN(rec, "\t", 3)
		if len(parts) != 3 {
			continue
		}
		f := byPath[parts[2]]
		if f == nil {
			continue
		}
		if parts[0] == "-" {
			f.Binary = true
			continue
		}
		f.Additions, _ = strconv.Atoi(parts[0])
		f.Deletions, _ = strconv.Atoi(parts[1])
	}
	sections := splitPatch(patch.buf.String())
	for i := range ch.Files {
		f := &ch.Files[i]
		switch {
		case f.Binary:
		case i < len(sections) && (i < len(sections)-1 || !patch.over):
			f.Patch = sections[i]
		default:
			f.Truncated = true
		}
	}
	untracked, err := git(ctx, dir, false, "ls-files", "--others", "--exclude-standard", "-z", "--", ".", notOwn)
	if err != nil {
		return nil, err
	}
	budget := MaxDiffBytes
	for _, p := range splitNul(untracked) {
		if len(ch.Files) >= MaxDiffFiles {
			ch.Truncated = true
			break
		}
		ch.Files = append(ch.Files, addedFile(dir, p, &budget))
	}
	return ch, nil
}

func statusWord(code string) string {
	switch code {
	case "A":
		return "added"
	case "D":
		return "deleted"
	}
	return "modified"
}

// splitPatch cuts git's patch output at each file's "diff --git" header.
func splitPatch(p string) []string {
	var out []string
	for p != "" {
		next := strings.Index(p[1:], "\ndiff --git ")
		if next < 0 {
			out = append(out, p)
			break
		}
		out = append(out, p[:next+2])
		p = p[next+2:]
	}
	return out
}

// readText reads a file of at most limit bytes; ok is false when it is
// larger, unreadable or binary.
func readText(path string, limit int64) (content string, binary, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil || int64(len(b)) > limit {
		return "", false, false
	}
	if bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
		return "", true, false
	}
	return string(b), false, true
}

// addedFile is a new file's change: all of it added. Files are read
// while budget lasts (a directory of many new files is listed, not read
// whole); the rest are listed as truncated.
func addedFile(dir, rel string, budget *int) FileChange {
	f := FileChange{Path: rel, Status: "added"}
	if *budget <= 0 {
		f.Truncated = true
		return f
	}
	text, binary, ok := readText(filepath.Join(dir, rel), MaxFilePatchBytes)
	*budget -= len(text)
	switch {
	case binary:
		f.Binary = true
	case !ok:
		f.Truncated = true
	default:
		f.Patch = unified(rel, "", text, false, true)
		f.Additions, f.Deletions = countLines(f.Patch)
	}
	return f
}

// unified is the unified diff of one file, headed as git heads it.
func unified(rel, before, after string, existed, exists bool) string {
	from, to := "a/"+rel, "b/"+rel
	head := "diff --git " + from + " " + to + "\n"
	if !existed {
		from = "/dev/null"
		head += "new file mode 100644\n"
	}
	if !exists {
		to = "/dev/null"
		head += "deleted file mode 100644\n"
	}
	body := udiff.Unified(from, to, before, after)
	if body == "" && existed == exists {
		return ""
	}
	return head + body
}

// countLines counts a patch's added and deleted lines.
func countLines(patch string) (add, del int) {
	for _, line := range strings.Split(patch, "\n") {
		switch {
		case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "--- "):
		case strings.HasPrefix(line, "+"):
			add++
		case strings.HasPrefix(line, "-"):
			del++
		}
	}
	return add, del
}

// dirListing is a plain directory's files at one moment, with the
// contents of its small text files.
type dirListing struct {
	files    map[string]fileState
	contents map[string]string
}

// listDir lists dir (bounded as the turn's change scan is) and keeps what
// its text files hold, within keptFileBytes each and keptTotalBytes in all.
func listDir(dir string) *dirListing {
	l := &dirListing{files: walk(dir), contents: map[string]string{}}
	paths := make([]string, 0, len(l.files))
	for p := range l.files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	total := 0
	for _, p := range paths {
		st := l.files[p]
		if st.size > keptFileBytes || total+int(st.size) > keptTotalBytes {
			continue
		}
		if text, _, ok := readText(filepath.Join(dir, p), keptFileBytes); ok {
			l.contents[p] = text
			total += len(text)
		}
	}
	return l
}

// changes compares dir now with the listing.
func (l *dirListing) changes(dir string) *Changes {
	ch := &Changes{Base: "snapshot"}
	now := walk(dir)
	budget := MaxDiffBytes
	for p, after := range now {
		before, existed := l.files[p]
		switch {
		case !existed:
			ch.Files = append(ch.Files, addedFile(dir, p, &budget))
		case before != after:
			f := FileChange{Path: p, Status: "modified"}
			old, kept := l.contents[p]
			text, binary, ok := readText(filepath.Join(dir, p), MaxFilePatchBytes)
			switch {
			case binary:
				f.Binary = true
			case !kept || !ok:
				f.Truncated = true
			case old == text:
				continue // touched, not changed
			default:
				f.Patch = unified(p, old, text, true, true)
				f.Additions, f.Deletions = countLines(f.Patch)
			}
			ch.Files = append(ch.Files, f)
		}
	}
	for p := range l.files {
		if _, ok := now[p]; ok {
			continue
		}
		f := FileChange{Path: p, Status: "deleted"}
		if old, kept := l.contents[p]; kept {
			f.Patch = unified(p, old, "", true, false)
			f.Additions, f.Deletions = countLines(f.Patch)
		} else {
			f.Truncated = true
		}
		ch.Files = append(ch.Files, f)
	}
	return ch
}
