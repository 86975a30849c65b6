package opencode

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/store"
)

// The files OpenCode's programs browse and search (its file picker, @
// mentions, the find dialog) are those of the caller's tree of work
// directories, or of one directory in it the request names. Every read
// goes through an os.Root of the tree, so that neither ".." nor a
// symbolic link reaches outside it, and another key's tree is never in
// reach.

// Bounds of what the file routes read and answer.
const (
	maxFileContent = 1 << 20 // bytes of /file/content
	maxFindFile    = 200     // paths of /find/file
	maxFindMatches = 200     // lines of /find
	maxFindScan    = 20000   // files /find and /find/file look at
	maxFindRead    = 1 << 20 // bytes /find reads of one file
)

func (a *API) fileRoutes() []Route {
	return []Route{
		{Method: "GET", Path: "/file", Summary: "OpenCode: the entries of a directory (?path=) in the caller's tree", Handler: a.ocFileList, Response: []ocFileNode{}},
		{Method: "GET", Path: "/file/content", Summary: "OpenCode: a file's content (?path=) in the caller's tree", Handler: a.ocFileContent, Response: ocFileContent{}},
		{Method: "GET", Path: "/file/status", Summary: "OpenCode: the files the caller's sessions in the directory changed", Handler: a.ocFileStatus, Response: []ocFileStatus{}},
		{Method: "GET", Path: "/find", Summary: "OpenCode: lines matching a regular expression (?pattern=) in the caller's tree", Handler: a.ocFind, Response: []ocMatch{}},
		{Method: "GET", Path: "/find/file", Summary: "OpenCode: paths matching a fuzzy query (?query=) in the caller's tree", Handler: a.ocFindFile, Response: []string{}},
		{Method: "GET", Path: "/api/location", Summary: "OpenCode (v2): the location a request names (?location[directory]=), in the caller's tree", Handler: a.ocLocation, Response: ocLocation{}},
		{Method: "GET", Path: "/api/fs/list", Summary: "OpenCode (v2): the entries of a directory (?path=) in the caller's tree", Handler: a.ocFSList, Response: ocFSEntries{}},
		{Method: "GET", Path: "/api/fs/find", Summary: "OpenCode (v2): paths matching a fuzzy query (?query=) in the caller's tree, as its @ mentions ask", Handler: a.ocFSFind, Response: ocFSEntries{}},
		{Method: "GET", Path: "/find/symbol", Summary: "OpenCode: workspace symbols (none: HotPlex runs no language server)", Handler: a.ocEmptyList, Response: []struct{}{}},
	}
}

// ocFileNode is a directory entry as OpenCode lists it.
type ocFileNode struct {
	Name     string `json:"name"`
	Path     string `json:"path"`
	Absolute string `json:"absolute"`
	Type     string `json:"type"` // "file" or "directory"
	Ignored  bool   `json:"ignored"`
}

// ocFileContent is a file's content: text, or binary in base64.
type ocFileContent struct {
	Type     string `json:"type"` // "text" or "binary"
	Content  string `json:"content"`
	Encoding string `json:"encoding,omitempty"`
}

// ocFileStatus is a changed file as OpenCode's status list shows it.
type ocFileStatus struct {
	Path    string `json:"path"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	Status  string `json:"status"`
}

// ocMatch is a line /find matched, in ripgrep's shape, which OpenCode's
// is.
type ocMatch struct {
	Path           ocText       `json:"path"`
	Lines          ocText       `json:"lines"`
	LineNumber     int          `json:"line_number"`
	AbsoluteOffset int          `json:"absolute_offset"`
	Submatches     []ocSubmatch `json:"submatches"`
}

type ocText struct {
	Text string `json:"text"`
}

type ocSubmatch struct {
	Match ocText `json:"match"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// scope is the directory a file request works in: base, inside the
// caller's tree, opened as root.
type scope struct {
	root *os.Root
	tree string // the tree's absolute path
	base string // the directory's path relative to the tree, slash-separated ("." for the tree)
}

func (s *scope) Close() { _ = s.root.Close() }

// abs is rel's absolute path.
func (s *scope) abs(rel string) string { return filepath.Join(s.tree, filepath.FromSlash(rel)) }

// join is the tree-relative path of p, relative to the scope's directory;
// ".." leaving the tree is refused here, symbolic links by the root.
func (s *scope) join(p string) (string, error) {
	j := path.Join(s.base, filepath.ToSlash(p))
	if j == ".." || strings.HasPrefix(j, "../") || path.IsAbs(j) {
		return "", errOutside
	}
	return j, nil
}

var errOutside = errors.New("the path is outside your tree of work directories")

// scopeOf opens the directory a request names (?directory=, else
// OpenCode's x-opencode-directory header, else the caller's tree).
func (a *API) scopeOf(r *http.Request) (*scope, error) {
	tree := a.tree(a.host.Caller(r))
	if tree == "" {
		return nil, a.host.Error(http.StatusNotFound, "not_found", "this server has no work directories to show")
	}
	if err := os.MkdirAll(tree, 0o700); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(tree)
	if err != nil {
		return nil, err
	}
	s := &scope{root: root, tree: tree, base: "."}
	dir := r.URL.Query().Get("directory")
	if dir == "" {
		dir = r.URL.Query().Get("location[directory]") // OpenCode's v2 routes
	}
	if dir == "" {
		dir = r.Header.Get("x-opencode-directory")
	}
	if dir != "" {
		if d, err := decodeHeaderPath(dir); err == nil {
			dir = d
		}
		rel, err := filepath.Rel(tree, filepath.Clean(dir))
		if !filepath.IsAbs(dir) || err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			s.Close()
			// The directory is not repeated: it may be another key's.
			return nil, a.host.Error(http.StatusForbidden, "outside_tree", "the directory is outside your tree of work directories")
		}
		s.base = filepath.ToSlash(rel)
	}
	return s, nil
}

// decodeHeaderPath undoes the URI encoding OpenCode's clients give a
// directory sent as a header.
func decodeHeaderPath(s string) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	return url.PathUnescape(s)
}

// fileError turns a failed read in the tree into an API error.
func (a *API) fileError(p string, err error) error {
	switch {
	case errors.Is(err, errOutside):
		return a.host.Error(http.StatusForbidden, "outside_tree", strconv.Quote(p)+" is outside your tree of work directories")
	case errors.Is(err, fs.ErrNotExist):
		return a.host.Error(http.StatusNotFound, "not_found", "no such file: "+strconv.Quote(p))
	case strings.Contains(err.Error(), "path escapes"):
		// os.Root's refusal of ".." or a link leading out, which the
		// standard library does not export as a value.
		return a.host.Error(http.StatusForbidden, "outside_tree", strconv.Quote(p)+" leads outside your tree of work directories")
	}
	return a.host.Error(http.StatusBadRequest, "bad_path", "cannot read "+strconv.Quote(p)+": "+err.Error())
}

// ignoredName is a name OpenCode's lists mark as ignored: version
// control's and HotPlex's own folders.
func ignoredName(name string) bool { return name == ".git" || name == ".hotplex" }

// listDir answers with what use makes of the directory the request's
// ?path= names in the caller's tree; a failure is answered for it.
func (a *API) listDir(w http.ResponseWriter, r *http.Request, use func(s *scope, rel string, entries []fs.DirEntry) any) {
	s, err := a.scopeOf(r)
	if err != nil {
		a.writeError(w, err)
		return
	}
	defer s.Close()
	p := r.URL.Query().Get("path")
	rel, err := s.join(p)
	var entries []fs.DirEntry
	if err == nil {
		entries, err = fs.ReadDir(s.root.FS(), rel)
	}
	if err != nil {
		a.writeError(w, a.fileError(p, err))
		return
	}
	writeJSON(w, http.StatusOK, use(s, rel, entries))
}

// entryType is an entry's type in OpenCode's words.
func entryType(e fs.DirEntry) string {
	if e.IsDir() {
		return "directory"
	}
	return "file"
}

// shown is an entry's path as OpenCode shows it: relative to the
// scope's base.
func (s *scope) shown(rel, name string) string {
	p, _ := filepath.Rel(filepath.FromSlash(s.base), filepath.FromSlash(path.Join(rel, name)))
	return filepath.ToSlash(p)
}

func (a *API) ocFileList(w http.ResponseWriter, r *http.Request) {
	a.listDir(w, r, func(s *scope, rel string, entries []fs.DirEntry) any {
		out := make([]ocFileNode, 0, len(entries))
		for _, e := range entries {
			out = append(out, ocFileNode{Name: e.Name(), Path: s.shown(rel, e.Name()), Absolute: s.abs(path.Join(rel, e.Name())),
				Type: entryType(e), Ignored: ignoredName(e.Name())})
		}
		slices.SortFunc(out, func(x, y ocFileNode) int {
			if x.Type != y.Type {
				return strings.Compare(x.Type, y.Type) // directories first
			}
			return strings.Compare(x.Name, y.Name)
		})
		return out
	})
}

func (a *API) ocFileContent(w http.ResponseWriter, r *http.Request) {
	s, err := a.scopeOf(r)
	if err != nil {
		a.writeError(w, err)
		return
	}
	defer s.Close()
	p := r.URL.Query().Get("path")
	if p == "" {
		a.writeError(w, a.host.Error(http.StatusBadRequest, "bad_request", "path is required"))
		return
	}
	rel, err := s.join(p)
	var b []byte
	if err == nil {
		b, err = readBounded(s.root, rel, maxFileContent)
	}
	if errors.Is(err, errTooBig) {
		a.writeError(w, a.host.Error(http.StatusRequestEntityTooLarge, "too_large", strconv.Quote(p)+" is over 1 MiB"))
		return
	}
	if err != nil {
		a.writeError(w, a.fileError(p, err))
		return
	}
	if isBinary(b) {
		writeJSON(w, http.StatusOK, ocFileContent{Type: "binary", Content: base64.StdEncoding.EncodeToString(b), Encoding: "base64"})
		return
	}
	writeJSON(w, http.StatusOK, ocFileContent{Type: "text", Content: string(b)})
}

var errTooBig = errors.New("the file is too large")

// readBounded reads a regular file of the root, of at most limit bytes.
func readBounded(root *os.Root, rel string, limit int64) ([]byte, error) {
	f, err := root.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, errTooBig
	}
	return b, nil
}

func isBinary(b []byte) bool {
	return bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b)
}

// ocFileStatus lists what the caller's sessions whose work directories
// are in the request's directory changed, relative to that directory.
func (a *API) ocFileStatus(w http.ResponseWriter, r *http.Request) {
	s, err := a.scopeOf(r)
	if err != nil {
		a.writeError(w, err)
		return
	}
	defer s.Close()
	list, err := a.store.ListSessions(r.Context(), a.host.Caller(r).ID)
	if err != nil {
		a.writeError(w, err)
		return
	}
	dir := s.abs(s.base)
	out := []ocFileStatus{}
	for _, st := range list {
		rel, err := filepath.Rel(dir, st.WorkDir)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		ch, err := a.engine.Diff(r.Context(), st.ID)
		if err != nil {
			continue // not in the pool: nothing it changed is known
		}
		for _, f := range ch.Files {
			out = append(out, ocFileStatus{Path: path.Join(filepath.ToSlash(rel), f.Path), Added: f.Additions, Removed: f.Deletions, Status: f.Status})
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// walk visits the files (and directories, when dirs) under the scope's
// directory, skipping ignored folders, at most maxFindScan entries.
func (s *scope) walk(ctx context.Context, dirs bool, visit func(rel string, d fs.DirEntry) bool) {
	n := 0
	_ = fs.WalkDir(s.root.FS(), s.base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || ctx.Err() != nil {
			return nil
		}
		if p == s.base {
			return nil
		}
		if d.IsDir() && ignoredName(d.Name()) {
			return fs.SkipDir
		}
		if n++; n > maxFindScan {
			return fs.SkipAll
		}
		if d.IsDir() && !dirs {
			return nil
		}
		if !d.IsDir() && !d.Type().IsRegular() {
			return nil // symbolic links and devices are not followed
		}
		rel, _ := filepath.Rel(filepath.FromSlash(s.base), filepath.FromSlash(p))
		if !visit(filepath.ToSlash(rel), d) {
			return fs.SkipAll
		}
		return nil
	})
}

func (a *API) ocFind(w http.ResponseWriter, r *http.Request) {
	pattern := r.URL.Query().Get("pattern")
	if pattern == "" {
		a.writeError(w, a.host.Error(http.StatusBadRequest, "bad_request", "pattern is required"))
		return
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		re = regexp.MustCompile(regexp.QuoteMeta(pattern))
	}
	s, err := a.scopeOf(r)
	if err != nil {
		a.writeError(w, err)
		return
	}
	defer s.Close()
	out := []ocMatch{}
	s.walk(r.Context(), false, func(rel string, _ fs.DirEntry) bool {
		b, err := readBounded(s.root, path.Join(s.base, rel), maxFindRead)
		if err != nil || isBinary(b) {
			return true
		}
		offset := 0
		for i, line := range strings.SplitAfter(string(b), "\n") {
			text := strings.TrimRight(line, "\n")
			if locs := re.FindAllStringIndex(text, -1); len(locs) > 0 {
				m := ocMatch{Path: ocText{rel}, Lines: ocText{line}, LineNumber: i + 1, AbsoluteOffset: offset, Submatches: []ocSubmatch{}}
				for _, l := range locs {
					m.Submatches = append(m.Submatches, ocSubmatch{Match: ocText{text[l[0]:l[1]]}, Start: l[0], End: l[1]})
				}
				out = append(out, m)
				if len(out) >= maxFindMatches {
					return false
				}
			}
			offset += len(line)
		}
		return true
	})
	writeJSON(w, http.StatusOK, out)
}

// fsHit is a path a fuzzy query found.
type fsHit struct {
	path  string // relative to the scope's directory
	dir   bool
	whole bool // the name holds the query whole
}

// findPaths finds the paths (directories too, when dirs) whose letters
// contain the query's in order, case ignored: those whose name holds the
// query whole first, then the shorter; typ "file" or "directory" keeps
// one kind.
func (a *API) findPaths(w http.ResponseWriter, r *http.Request, dirs bool) (*scope, []fsHit, bool) {
	q := r.URL.Query()
	query := strings.ToLower(q.Get("query"))
	limit := maxFindFile
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			a.writeError(w, a.host.Error(http.StatusBadRequest, "bad_request", "limit must be a positive number"))
			return nil, nil, false
		}
		limit = min(n, maxFindFile)
	}
	typ := q.Get("type")
	dirs = dirs && typ != "file"
	s, err := a.scopeOf(r)
	if err != nil {
		a.writeError(w, err)
		return nil, nil, false
	}
	var hits []fsHit
	s.walk(r.Context(), dirs, func(rel string, d fs.DirEntry) bool {
		if typ == "directory" && !d.IsDir() {
			return true
		}
		if fuzzy(strings.ToLower(rel), query) {
			hits = append(hits, fsHit{rel, d.IsDir(), strings.Contains(strings.ToLower(d.Name()), query)})
		}
		return true
	})
	slices.SortStableFunc(hits, func(x, y fsHit) int {
		if x.whole != y.whole {
			if x.whole {
				return -1
			}
			return 1
		}
		if len(x.path) != len(y.path) {
			return len(x.path) - len(y.path)
		}
		return strings.Compare(x.path, y.path)
	})
	return s, hits[:min(len(hits), limit)], true
}

func (a *API) ocFindFile(w http.ResponseWriter, r *http.Request) {
	s, hits, ok := a.findPaths(w, r, r.URL.Query().Get("dirs") != "false")
	if !ok {
		return
	}
	defer s.Close()
	out := make([]string, 0, len(hits))
	for _, h := range hits {
		if h.dir {
			h.path += "/"
		}
		out = append(out, h.path)
	}
	writeJSON(w, http.StatusOK, out)
}

// ocLocation is the place OpenCode's v2 routes work in.
type ocLocation struct {
	Directory string            `json:"directory"`
	Project   ocLocationProject `json:"project"`
}

type ocLocationProject struct {
	ID        string `json:"id"`
	Directory string `json:"directory"`
}

// ocFSEntries answers OpenCode's v2 file routes.
type ocFSEntries struct {
	Location ocLocation  `json:"location"`
	Data     []ocFSEntry `json:"data"`
}

type ocFSEntry struct {
	Path string `json:"path"`
	Type string `json:"type"` // "file" or "directory"
}

func (s *scope) location() ocLocation {
	return ocLocation{Directory: s.abs(s.base), Project: ocLocationProject{ID: ocProjectID, Directory: s.tree}}
}

func (a *API) ocLocation(w http.ResponseWriter, r *http.Request) {
	s, err := a.scopeOf(r)
	if err != nil {
		a.writeError(w, err)
		return
	}
	defer s.Close()
	writeJSON(w, http.StatusOK, s.location())
}

func (a *API) ocFSFind(w http.ResponseWriter, r *http.Request) {
	s, hits, ok := a.findPaths(w, r, true)
	if !ok {
		return
	}
	defer s.Close()
	out := ocFSEntries{Location: s.location(), Data: make([]ocFSEntry, 0, len(hits))}
	for _, h := range hits {
		typ := "file"
		if h.dir {
			typ = "directory"
		}
		out.Data = append(out.Data, ocFSEntry{Path: h.path, Type: typ})
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *API) ocFSList(w http.ResponseWriter, r *http.Request) {
	a.listDir(w, r, func(s *scope, rel string, entries []fs.DirEntry) any {
		out := ocFSEntries{Location: s.location(), Data: make([]ocFSEntry, 0, len(entries))}
		for _, e := range entries {
			out.Data = append(out.Data, ocFSEntry{Path: s.shown(rel, e.Name()), Type: entryType(e)})
		}
		return out
	})
}

// fuzzy tells whether s holds the runes of q in order.
func fuzzy(s, q string) bool {
	for _, c := range q {
		i := strings.IndexRune(s, c)
		if i < 0 {
			return false
		}
		s = s[i+utf8.RuneLen(c):]
	}
	return true
}

// ocFileDiff is a file a session changed, in the shape both OpenCode's
// older clients (file, before, after) and newer ones (file, patch,
// status) read.
type ocFileDiff struct {
	File      string `json:"file"`
	Before    string `json:"before"`
	After     string `json:"after"`
	Patch     string `json:"patch"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	Status    string `json:"status"`
}

// sessionDiff is what st changed in its work directory, as HotPlex's own
// diff (GET /v1/sessions/{id}/diff) tells it, with each text file's
// content before and after; none for a session not in the pool.
func (a *API) sessionDiff(ctx context.Context, st store.Session) ([]ocFileDiff, error) {
	ch, err := a.engine.Diff(ctx, st.ID)
	if errors.Is(err, engine.ErrSessionNotFound) {
		return []ocFileDiff{}, nil
	}
	if err != nil {
		return nil, err
	}
	var root *os.Root
	if st.WorkDir != "" {
		if root, err = os.OpenRoot(st.WorkDir); err == nil {
			defer root.Close()
		}
	}
	out := make([]ocFileDiff, 0, len(ch.Files))
	for _, f := range ch.Files {
		d := ocFileDiff{File: f.Path, Patch: f.Patch, Additions: f.Additions, Deletions: f.Deletions, Status: f.Status}
		if f.Patch != "" && !f.Binary {
			if f.Status != "deleted" && root != nil {
				if b, err := readBounded(root, filepath.FromSlash(f.Path), engine.MaxFilePatchBytes); err == nil && !isBinary(b) {
					d.After = string(b)
				}
			}
			if f.Status != "added" {
				d.Before = unapply(d.After, f.Patch)
			}
		}
		out = append(out, d)
	}
	return out, nil
}

func (a *API) ocSessionDiff(w http.ResponseWriter, r *http.Request) {
	st, err := a.owned(r)
	if err != nil {
		a.writeError(w, err)
		return
	}
	d, err := a.sessionDiff(r.Context(), st)
	if err != nil {
		a.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

// unapply undoes a unified patch on after, giving the content it was made
// from.
func unapply(after, patch string) string {
	lines := strings.SplitAfter(after, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	var b strings.Builder
	next := 0 // the next line of after to copy
	pl := strings.Split(patch, "\n")
	for i := 0; i < len(pl); i++ {
		l := pl[i]
		if !strings.HasPrefix(l, "@@ ") {
			continue
		}
		newStart := hunkNewStart(l)
		for next < newStart-1 && next < len(lines) {
			b.WriteString(lines[next])
			next++
		}
		for i+1 < len(pl) && !strings.HasPrefix(pl[i+1], "@@ ") {
			i++
			h := pl[i]
			noEOL := i+1 < len(pl) && strings.HasPrefix(pl[i+1], `\`)
			switch {
			case h == "":
			case h[0] == ' ':
				if next < len(lines) {
					b.WriteString(lines[next])
					next++
				}
			case h[0] == '+':
				next++
			case h[0] == '-':
				b.WriteString(h[1:])
				if !noEOL {
					b.WriteString("\n")
				}
			}
		}
	}
	for ; next < len(lines); next++ {
		b.WriteString(lines[next])
	}
	return b.String()
}

// hunkNewStart reads c of a hunk header "@@ -a,b +c,d @@".
func hunkNewStart(h string) int {
	_, rest, _ := strings.Cut(h, " +")
	num, _, _ := strings.Cut(rest, ",")
	num, _, _ = strings.Cut(num, " ")
	n, _ := strconv.Atoi(num)
	return n
}
