package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/testkit"
)

// Two keys may use the same session ID without seeing each other; a
// create never says whether another key uses an ID; one key may not have
// two live sessions under one ID.
func TestSessionIDsBelongToTheirOwner(t *testing.T) {
	d := newDaemon(t)
	a := d.Create(t, d.alice, map[string]any{"id": "demo"})
	b := d.Create(t, d.bob, map[string]any{"id": "demo"})
	if a["id"] != "demo" || b["id"] != "demo" || a["key"] == b["key"] ||
		a["provider_session_id"] == b["provider_session_id"] || a["work_dir"] == b["work_dir"] {
		t.Fatalf("alice's demo %v and bob's demo %v share something", a, b)
	}
	resp := d.Do(t, "POST", "/v1/sessions", d.alice, map[string]any{"id": "demo"})
	if resp.StatusCode != http.StatusConflict {
		t.Fatalf("alice's second demo: %d", resp.StatusCode)
	}
	resp.Body.Close()

	// Each turn reaches its owner's session.
	d.turn(t, d.alice, "demo", "from alice")
	evs := d.turn(t, d.bob, "demo", "history")
	for _, e := range evs {
		if e.Type == event.TypeAnswer && strings.Contains(string(e.Data), "from alice") {
			t.Fatalf("bob's demo answered with alice's history: %s", e.Data)
		}
	}
	for _, who := range []struct{ key, want string }{{d.alice, a["key"].(string)}, {d.bob, b["key"].(string)}} {
		l := testkit.Decode[map[string][]map[string]any](t, d.Do(t, "GET", "/v1/sessions", who.key, nil))["sessions"]
		if len(l) != 1 || l[0]["key"] != who.want {
			t.Fatalf("list: %v, want only %s", l, who.want)
		}
	}
	// Bob deleting his demo leaves alice's alone.
	if r := d.Do(t, "DELETE", "/v1/sessions/demo", d.bob, nil); r.StatusCode != http.StatusNoContent {
		t.Fatalf("bob delete: %d", r.StatusCode)
	}
	if r := d.Do(t, "GET", "/v1/sessions/demo", d.alice, nil); r.StatusCode != http.StatusOK {
		t.Fatalf("alice's demo after bob's delete: %d", r.StatusCode)
	}
	if _, ok := d.Engine.GetSession(a["key"].(string)); !ok {
		t.Fatal("alice's demo left the engine")
	}
}

// A deleted ID starts afresh: no resume, another provider session ID, an
// empty work directory, no transcript of the old conversation on disk.
func TestDeletedSessionLeavesNothing(t *testing.T) {
	d := newDaemon(t)
	first := d.Create(t, d.alice, map[string]any{"id": "del1"})
	wd := first["work_dir"].(string)
	evs := d.turn(t, d.alice, "del1", bashDirective("echo s3cret > secret.txt"))
	start := sessionStart(t, evs)
	if _, err := os.Stat(filepath.Join(wd, "secret.txt")); err != nil {
		t.Fatalf("the turn left no file: %v", err)
	}
	transcript := filepath.Join(d.home, ".claude", "projects", projectDir(wd), start.ProviderSessionID+".jsonl")
	if _, err := os.Stat(transcript); err != nil {
		t.Fatalf("no transcript where the CLI keeps it: %v", err)
	}
	if r := d.Do(t, "DELETE", "/v1/sessions/del1", d.alice, nil); r.StatusCode != http.StatusNoContent {
		t.Fatalf("delete: %d", r.StatusCode)
	}
	for _, p := range []string{transcript, wd} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s survived the delete: %v", p, err)
		}
	}
	again := d.Create(t, d.alice, map[string]any{"id": "del1"})
	if again["provider_session_id"] == first["provider_session_id"] || again["key"] == first["key"] {
		t.Fatalf("re-created del1 reuses the old identity: %v vs %v", again, first)
	}
	evs = d.turn(t, d.alice, "del1", "history")
	if st := sessionStart(t, evs); st.Resumed || st.ProviderSessionID == start.ProviderSessionID {
		t.Fatalf("re-created del1 resumed the old conversation: %+v", st)
	}
	if _, err := os.Stat(filepath.Join(again["work_dir"].(string), "secret.txt")); !os.IsNotExist(err) {
		t.Fatalf("the old file is in the new work directory: %v", err)
	}
	// A directory the caller named is the caller's: it stays.
	named := d.Create(t, d.alice, map[string]any{"id": "named", "work_dir": "keepme"})
	if r := d.Do(t, "DELETE", "/v1/sessions/named", d.alice, nil); r.StatusCode != http.StatusNoContent {
		t.Fatalf("delete named: %d", r.StatusCode)
	}
	if _, err := os.Stat(named["work_dir"].(string)); err != nil {
		t.Fatalf("a named work directory was removed: %v", err)
	}
}

func sessionStart(t *testing.T, evs []sseEvent) event.SessionStart {
	t.Helper()
	for _, e := range evs {
		if e.Type == event.TypeSessionStart {
			var ev event.EventWithMeta
			if err := json.Unmarshal(e.Data, &ev); err != nil || ev.SessionStart == nil {
				t.Fatalf("session_start %s: %v", e.Data, err)
			}
			return *ev.SessionStart
		}
	}
	t.Fatalf("no session_start in %v", types(evs))
	return event.SessionStart{}
}

// projectDir is the CLI's folder name for a work directory.
func projectDir(wd string) string {
	b := []byte(wd)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

// A session's work directory lies in its owner's tree: not the root, not
// another owner's tree, not through a symbolic link, not even one that
// appears after the session was created.
func TestWorkDirsStayInTheOwnersTree(t *testing.T) {
	d := newDaemon(t)
	alice := d.Create(t, d.alice, map[string]any{"id": "a1"})
	aliceWD := alice["work_dir"].(string)
	aliceTree := filepath.Dir(aliceWD)
	bob := d.Create(t, d.bob, map[string]any{"id": "b1"})
	bobTree := filepath.Dir(bob["work_dir"].(string))
	root, _ := filepath.EvalSymlinks(d.root)
	if aliceTree == bobTree || filepath.Dir(aliceTree) != root || filepath.Dir(bobTree) != root {
		t.Fatalf("trees: alice %s, bob %s, root %s", aliceTree, bobTree, root)
	}
	if err := os.Symlink(aliceTree, filepath.Join(bobTree, "to-alice")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(root, filepath.Join(bobTree, "to-root")); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{
		aliceWD, aliceTree, root, d.root, "..", "../" + filepath.Base(aliceTree), "../" + filepath.Base(aliceTree) + "/a1",
		"to-alice", "to-alice/a1", "to-root", "to-root/" + filepath.Base(aliceTree),
	} {
		resp := d.Do(t, "POST", "/v1/sessions", d.bob, map[string]any{"id": "x", "work_dir": dir})
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("bob's work_dir %q: %d %s", dir, resp.StatusCode, body)
		}
	}
	// "." is bob's own tree, which holds only bob's directories.
	dot := d.Create(t, d.bob, map[string]any{"id": "dot", "work_dir": "."})
	if dot["work_dir"] != bobTree {
		t.Fatalf("bob's \".\" is %v, want %s", dot["work_dir"], bobTree)
	}
	_ = d.Engine.TerminateSession(dot["key"].(string))

	// A directory swapped for a link after the session's creation is
	// refused at the next turn.
	sub := d.Create(t, d.bob, map[string]any{"id": "sub", "work_dir": "sub"})
	subWD := sub["work_dir"].(string)
	if err := os.Remove(subWD); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(aliceTree, subWD); err != nil {
		t.Fatal(err)
	}
	resp := d.Do(t, "POST", "/v1/sessions/sub/messages", d.bob, map[string]string{"prompt": bashDirective("ls")})
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || strings.Contains(string(body), "a1") {
		t.Fatalf("a turn through a swapped link: %d %s", resp.StatusCode, body)
	}
}

// A work directory that disappeared is named in the turn's error, not
// hidden behind the CLI's "no such file".
func TestMissingWorkDirIsNamed(t *testing.T) {
	d := newDaemon(t)
	s := d.Create(t, d.alice, map[string]any{"id": "gone-dir"})
	wd := s["work_dir"].(string)
	d.turn(t, d.alice, "gone-dir", "hello")
	if err := d.Engine.TerminateSession(s["key"].(string)); err != nil {
		t.Fatal(err)
	}
	// Restore it as a restarted daemon would, then take the directory away.
	d.stop()
	if err := os.RemoveAll(wd); err != nil {
		t.Fatal(err)
	}
	d2 := startDaemon(t, d.root, d.home, d.dbPath)
	if err := os.RemoveAll(wd); err != nil { // restoring re-creates it
		t.Fatal(err)
	}
	resp := d2.Do(t, "POST", "/v1/sessions/gone-dir/messages", d2.alice, map[string]string{"prompt": "hello"})
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), wd) || strings.Contains(string(body), "fork/exec") {
		t.Fatalf("turn in a missing work directory: %d %s", resp.StatusCode, body)
	}
}

// DELETE while turns wait for the session: every waiting turn fails with a
// clear error (410 before its stream began, a turn_error notice after),
// none starts a process again, and the ID can be created afresh. Raced
// many times so that the delete lands at every point of the turns' way in.
func TestDeleteFailsQueuedTurns(t *testing.T) {
	d := newDaemon(t)
	const rounds = 200
	tally := map[string]int{}
	for i := range rounds {
		id := fmt.Sprintf("q%d", i%4)
		s := d.Create(t, d.alice, map[string]any{"id": id})
		var wg sync.WaitGroup
		outcomes := make([]string, 3)
		for j := range outcomes {
			wg.Go(func() {
				prompt := "quick"
				if j == 0 {
					prompt = "sleep:50 slow"
				}
				resp := d.Do(t, "POST", "/v1/sessions/"+id+"/messages", d.alice, map[string]string{"prompt": prompt})
				defer resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b, _ := io.ReadAll(resp.Body)
					outcomes[j] = fmt.Sprintf("%d %s", resp.StatusCode, b)
					return
				}
				evs := readSSE(t, resp.Body, nil)
				if len(evs) == 0 {
					outcomes[j] = "empty stream"
					return
				}
				outcomes[j] = evs[len(evs)-1].Type + " " + string(evs[len(evs)-1].Data)
			})
		}
		if r := d.Do(t, "DELETE", "/v1/sessions/"+id, d.alice, nil); r.StatusCode != http.StatusNoContent {
			t.Fatalf("round %d: delete: %d", i, r.StatusCode)
		}
		wg.Wait()
		for j, o := range outcomes {
			ok := strings.HasPrefix(o, event.TypeResult+" ") || // ran before the delete
				strings.HasPrefix(o, "410 ") || strings.HasPrefix(o, "404 ") || // refused
				strings.HasPrefix(o, "turn_error ") && strings.Contains(o, "session_gone") // ended by the delete
			if !ok {
				t.Fatalf("round %d, turn %d: %s", i, j, o)
			}
			tally[strings.SplitN(o, " ", 2)[0]]++
		}
		if _, ok := d.Engine.GetSession(s["key"].(string)); ok {
			t.Fatalf("round %d: the deleted session is back in the engine", i)
		}
	}
	if live := d.Engine.ListActiveSessions(); len(live) != 0 {
		t.Fatalf("%d sessions outlived their deletion: %v", len(live), live[0].ID)
	}
	testkit.AssertNoDescendants(t)
	t.Logf("turn outcomes over %d rounds: %v", rounds, tally)
	d.Create(t, d.alice, map[string]any{"id": "q0"})
	d.turn(t, d.alice, "q0", "hello again")
}

// Concurrent creates of one ID by one key: one wins, the others get 409,
// and the winner keeps its work directory.
func TestConcurrentCreatesOfOneID(t *testing.T) {
	d := newDaemon(t)
	codes := make([]int, 8)
	bodies := make([][]byte, len(codes))
	var wg sync.WaitGroup
	for i := range codes {
		wg.Go(func() {
			resp := d.Do(t, "POST", "/v1/sessions", d.alice, map[string]any{"id": "same"})
			defer resp.Body.Close()
			codes[i] = resp.StatusCode
			bodies[i], _ = io.ReadAll(resp.Body)
		})
	}
	wg.Wait()
	won := 0
	for i, c := range codes {
		switch c {
		case http.StatusCreated:
			won++
			var s map[string]any
			if err := json.Unmarshal(bodies[i], &s); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(s["work_dir"].(string)); err != nil {
				t.Fatalf("the winner's work directory: %v", err)
			}
		case http.StatusConflict:
		default:
			t.Fatalf("create: %d %s", c, bodies[i])
		}
	}
	if won != 1 {
		t.Fatalf("%d creates of one ID won: %v", won, codes)
	}
	d.turn(t, d.alice, "same", "hello")
}
