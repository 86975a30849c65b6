package opencode_test

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hotplex/hotplex/testkit"
)

// writeFiles writes files (path relative to dir: content), making their
// folders.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The file and find routes show and search the caller's tree of work
// directories, never more: neither ".." nor a symbolic link leads out of
// it, and another key reaches none of it.
func TestOpenCodeFiles(t *testing.T) {
	d := newDaemon(t)
	sess := d.Create(t, d.alice, map[string]any{"id": "files"})
	dir := sess["work_dir"].(string)
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.txt": "outside-secret needle\n"})
	writeFiles(t, dir, map[string]string{
		"notes.txt":       "first line\nhere is the needle and another needle\n",
		"src/handler.go":  "package src\n",
		".git/HEAD":       "ref: refs/heads/main\n",
		"data/blob.bin":   "\x00\x01\x02binary",
		"src/deep/x.json": "{}",
	})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "leak.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "leakdir")); err != nil {
		t.Fatal(err)
	}
	q := func(path string, kv ...string) string {
		v := url.Values{"directory": {dir}}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return path + "?" + v.Encode()
	}

	nodes := testkit.Decode[[]map[string]any](t, d.Do(t, "GET", q("/file", "path", ""), d.alice, nil))
	var names []string
	for _, n := range nodes {
		names = append(names, n["name"].(string)+":"+n["type"].(string))
		if n["name"] == "src" && (n["path"] != "src" || n["absolute"] != filepath.Join(dir, "src")) {
			t.Fatalf("src: %v", n)
		}
		if n["name"] == ".git" && n["ignored"] != true {
			t.Fatalf(".git is not marked ignored: %v", n)
		}
	}
	if !slices.Contains(names, "src:directory") || !slices.Contains(names, "notes.txt:file") || names[0] != ".git:directory" {
		t.Fatalf("entries: %v", names)
	}
	if sub := testkit.Decode[[]map[string]any](t, d.Do(t, "GET", q("/file", "path", "src"), d.alice, nil)); len(sub) != 2 || sub[0]["path"] != "src/deep" || sub[1]["path"] != "src/handler.go" {
		t.Fatalf("src entries: %v", sub)
	}

	content := testkit.Decode[map[string]any](t, d.Do(t, "GET", q("/file/content", "path", "notes.txt"), d.alice, nil))
	if content["type"] != "text" || !strings.HasPrefix(content["content"].(string), "first line\n") {
		t.Fatalf("content: %v", content)
	}
	bin := testkit.Decode[map[string]any](t, d.Do(t, "GET", q("/file/content", "path", "data/blob.bin"), d.alice, nil))
	if raw, _ := base64.StdEncoding.DecodeString(bin["content"].(string)); bin["type"] != "binary" || bin["encoding"] != "base64" || string(raw) != "\x00\x01\x02binary" {
		t.Fatalf("binary: %v", bin)
	}

	// Out of the tree: by "..", by a symbolic link to a file or a folder,
	// by naming another directory, or as another key.
	rel, err := filepath.Rel(dir, filepath.Join(outside, "secret.txt"))
	if err != nil {
		t.Fatal(err)
	}
	refused := func(resp *http.Response, status int, what string) {
		t.Helper()
		body := testkit.Decode[map[string]any](t, resp)
		if resp.StatusCode != status || body["name"] == nil || dig(body, "data", "message") == nil || strings.Contains(mustJSON(body), "outside-secret") {
			t.Fatalf("%s: %d %v", what, resp.StatusCode, body)
		}
	}
	refused(d.Do(t, "GET", q("/file/content", "path", rel), d.alice, nil), http.StatusForbidden, "..")
	refused(d.Do(t, "GET", q("/file/content", "path", "leak.txt"), d.alice, nil), http.StatusForbidden, "a link to a file outside")
	refused(d.Do(t, "GET", q("/file", "path", "leakdir"), d.alice, nil), http.StatusForbidden, "a link to a folder outside")
	refused(d.Do(t, "GET", q("/file/content", "path", "leakdir/secret.txt"), d.alice, nil), http.StatusForbidden, "a path through a link outside")
	refused(d.Do(t, "GET", "/file?"+url.Values{"directory": {outside}, "path": {""}}.Encode(), d.alice, nil), http.StatusForbidden, "a directory outside")
	refused(d.Do(t, "GET", q("/file/content", "path", "notes.txt"), d.bob, nil), http.StatusForbidden, "bob in alice's tree")
	refused(d.Do(t, "GET", q("/find", "pattern", "needle"), d.bob, nil), http.StatusForbidden, "bob searching alice's tree")
	refused(d.Do(t, "GET", q("/file/content", "path", "missing.txt"), d.alice, nil), http.StatusNotFound, "a missing file")
	refused(d.Do(t, "GET", q("/file/content"), d.alice, nil), http.StatusBadRequest, "no path")
	refused(d.Do(t, "POST", "/file/content", d.alice, nil), http.StatusMethodNotAllowed, "a method the route does not take")

	matches := testkit.Decode[[]map[string]any](t, d.Do(t, "GET", q("/find", "pattern", "need+le"), d.alice, nil))
	if len(matches) != 1 || dig(matches[0], "path", "text") != "notes.txt" || matches[0]["line_number"] != float64(2) ||
		matches[0]["absolute_offset"] != float64(len("first line\n")) || len(matches[0]["submatches"].([]any)) != 2 {
		t.Fatalf("find: %v", matches)
	}
	// Bob's own tree holds none of alice's files.
	if got := testkit.Decode[[]any](t, d.Do(t, "GET", "/find?pattern=needle", d.bob, nil)); len(got) != 0 {
		t.Fatalf("bob found: %v", got)
	}
	if got := testkit.Decode[[]string](t, d.Do(t, "GET", "/find/file?query=notes", d.bob, nil)); len(got) != 0 {
		t.Fatalf("bob found files: %v", got)
	}

	found := testkit.Decode[[]string](t, d.Do(t, "GET", q("/find/file", "query", "hndlr"), d.alice, nil))
	if len(found) != 1 || found[0] != "src/handler.go" {
		t.Fatalf("find/file: %v", found)
	}
	found = testkit.Decode[[]string](t, d.Do(t, "GET", q("/find/file", "query", "deep", "dirs", "true"), d.alice, nil))
	if len(found) != 2 || found[0] != "src/deep/" || found[1] != "src/deep/x.json" {
		t.Fatalf("find/file with folders: %v", found)
	}
	found = testkit.Decode[[]string](t, d.Do(t, "GET", q("/find/file", "query", "secret"), d.alice, nil))
	if len(found) != 0 {
		t.Fatalf("find/file followed a link out: %v", found)
	}
	// OpenCode's v2 routes, which its TUI's @ mentions use, name the
	// directory as location[directory].
	loc := func(path string, kv ...string) string {
		v := url.Values{"location[directory]": {dir}}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return path + "?" + v.Encode()
	}
	v2 := testkit.Decode[map[string]any](t, d.Do(t, "GET", loc("/api/fs/find", "query", "hndlr", "limit", "20"), d.alice, nil))
	if dig(v2, "location", "directory") != dir || mustJSON(v2["data"]) != `[{"path":"src/handler.go","type":"file"}]` {
		t.Fatalf("/api/fs/find: %v", v2)
	}
	v2 = testkit.Decode[map[string]any](t, d.Do(t, "GET", loc("/api/fs/list", "path", "src"), d.alice, nil))
	if mustJSON(v2["data"]) != `[{"path":"src/deep","type":"directory"},{"path":"src/handler.go","type":"file"}]` {
		t.Fatalf("/api/fs/list: %v", v2)
	}
	if l := testkit.Decode[map[string]any](t, d.Do(t, "GET", loc("/api/location"), d.alice, nil)); l["directory"] != dir || dig(l, "project", "id") != "global" {
		t.Fatalf("/api/location: %v", l)
	}
	refused(d.Do(t, "GET", "/api/fs/find?"+url.Values{"location[directory]": {outside}, "query": {"secret"}}.Encode(), d.alice, nil), http.StatusForbidden, "a v2 location outside")
	refused(d.Do(t, "GET", loc("/api/fs/list", "path", "leakdir"), d.alice, nil), http.StatusForbidden, "a v2 listing through a link outside")
	refused(d.Do(t, "GET", loc("/api/fs/find", "query", "notes"), d.bob, nil), http.StatusForbidden, "bob's v2 search in alice's tree")

	// From the tree's top (no directory named), alice's session folder is
	// part of the paths.
	top := testkit.Decode[[]string](t, d.Do(t, "GET", "/find/file?query=handler.go", d.alice, nil))
	if len(top) != 1 || !strings.HasSuffix(top[0], "/src/handler.go") {
		t.Fatalf("find/file from the tree: %v", top)
	}
}

// A session's diff is what its turns changed in its work directory, each
// text file with its content before and after, and the event stream tells
// it at the end of each turn; another key sees none of it.
func TestOpenCodeSessionDiff(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	d := newDaemon(t)
	tree := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/path", d.alice, nil))["directory"].(string)
	dir := filepath.Join(tree, "proj")
	writeFiles(t, dir, map[string]string{"f.txt": "one\ntwo\nthree\n", "gone.txt": "bye\n", "same.txt": "kept\n"})
	d.Create(t, d.alice, map[string]any{"id": "ses_diff", "work_dir": "proj"})
	if got := testkit.Decode[[]any](t, d.Do(t, "GET", "/session/ses_diff/diff", d.alice, nil)); len(got) != 0 {
		t.Fatalf("diff before any turn: %v", got)
	}
	stream := d.openCodeEvents(t, "/event", d.alice)
	defer stream.cancel()
	resp := d.Do(t, "POST", "/session/ses_diff/message", d.alice, map[string]any{"parts": []map[string]any{{"type": "text",
		"text": bashDirective("printf 'one\\nTWO\\nthree\\n' > f.txt && echo fresh > new.txt")}}})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("prompt: %d", resp.StatusCode)
	}
	resp.Body.Close()
	var told []any
	for _, ev := range stream.until(t, idleOf("ses_diff")) {
		if ev["type"] == "session.diff" && dig(ev, "properties", "sessionID") == "ses_diff" {
			told, _ = dig(ev, "properties", "diff").([]any)
		}
	}
	if len(told) != 2 {
		t.Fatalf("the stream told the diff %v", told)
	}
	// An agent that wrote no todo list has none.
	if got := testkit.Decode[[]any](t, d.Do(t, "GET", "/session/ses_diff/todo", d.alice, nil)); len(got) != 0 {
		t.Fatalf("todos of a turn without TodoWrite: %v", got)
	}
	if err := os.Remove(filepath.Join(dir, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	diff := testkit.Decode[[]map[string]any](t, d.Do(t, "GET", "/session/ses_diff/diff", d.alice, nil))
	byFile := map[string]map[string]any{}
	for _, f := range diff {
		byFile[f["file"].(string)] = f
	}
	want := map[string][5]any{
		"f.txt":    {"modified", "one\ntwo\nthree\n", "one\nTWO\nthree\n", float64(1), float64(1)},
		"new.txt":  {"added", "", "fresh\n", float64(1), float64(0)},
		"gone.txt": {"deleted", "bye\n", "", float64(0), float64(1)},
	}
	if len(diff) != len(want) {
		t.Fatalf("diff: %v", diff)
	}
	for file, w := range want {
		f := byFile[file]
		if f == nil || f["status"] != w[0] || f["before"] != w[1] || f["after"] != w[2] || f["additions"] != w[3] || f["deletions"] != w[4] || f["patch"] == "" {
			t.Fatalf("%s: %v", file, f)
		}
	}
	status := testkit.Decode[[]map[string]any](t, d.Do(t, "GET", "/file/status?"+url.Values{"directory": {dir}}.Encode(), d.alice, nil))
	if len(status) != 3 {
		t.Fatalf("file status: %v", status)
	}
	for _, s := range status {
		if w, ok := want[s["path"].(string)]; !ok || s["status"] != w[0] || s["added"] != w[3] || s["removed"] != w[4] {
			t.Fatalf("file status: %v", status)
		}
	}
	if got := testkit.Decode[[]any](t, d.Do(t, "GET", "/file/status", d.bob, nil)); len(got) != 0 {
		t.Fatalf("bob's file status: %v", got)
	}
	if resp := d.Do(t, "GET", "/session/ses_diff/diff", d.bob, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("bob's diff of alice's session: %d", resp.StatusCode)
	}
}

// A file OpenCode's @ mention attaches (a file:// part) is named in the
// prompt for the agent to read in its work directory; a file elsewhere,
// or another attachment, is refused with a clear error.
func TestOpenCodeFileMentions(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	d := newDaemon(t)
	sess := d.Create(t, d.alice, map[string]any{"id": "mentions"})
	dir := sess["work_dir"].(string)
	writeFiles(t, dir, map[string]string{"docs/plan.txt": "a plan\n"})
	send := func(parts ...map[string]any) *http.Response {
		return d.Do(t, "POST", "/session/mentions/message", d.alice, map[string]any{"parts": parts})
	}
	text := func(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
	file := func(u string) map[string]any {
		return map[string]any{"type": "file", "mime": "text/plain", "url": u}
	}
	resp := send(text("look at @docs/plan.txt"), file("file://"+filepath.Join(dir, "docs", "plan.txt")))
	reply := testkit.Decode[map[string]any](t, resp)
	if resp.StatusCode != http.StatusOK || !strings.Contains(mustJSON(reply["parts"]), "echo: look at @docs/plan.txt\"") {
		t.Fatalf("a mention in the text: %d %v", resp.StatusCode, reply)
	}
	resp = send(text("read this"), file("file://"+filepath.Join(dir, "docs", "plan.txt")))
	reply = testkit.Decode[map[string]any](t, resp)
	if resp.StatusCode != http.StatusOK || !strings.Contains(mustJSON(reply["parts"]), `echo: read this\n@docs/plan.txt"`) {
		t.Fatalf("a mention not in the text: %d %v", resp.StatusCode, reply)
	}
	for _, bad := range []string{"file://" + t.TempDir() + "/x.txt", "file://" + dir + "/../other/x.txt", "data:image/png;base64,AAAA", "https://example.com/x"} {
		resp := send(text("and this"), file(bad))
		body := testkit.Decode[map[string]any](t, resp)
		if resp.StatusCode != http.StatusBadRequest || body["name"] != "BadRequestError" {
			t.Fatalf("%s: %d %v", bad, resp.StatusCode, body)
		}
	}
	if msgs := testkit.Decode[[]any](t, d.Do(t, "GET", "/session/mentions/message", d.alice, nil)); len(msgs) != 4 {
		t.Fatalf("refused prompts ran: %d messages", len(msgs))
	}
}
