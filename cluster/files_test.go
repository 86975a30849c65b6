package cluster

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/internal/natstest"
	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/goleak"
)

func openFiles(t testing.TB, url string, c FilesConfig) (*Files, jetstream.Stream) {
	t.Helper()
	nc, err := Connect(url, ConnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	f, err := OpenFiles(context.Background(), js, c)
	if err != nil {
		t.Fatal(err)
	}
	return f, f.stream
}

// objects lists the saves whose chunks the stream holds, as key/name.
func objects(t testing.TB, st jetstream.Stream) []string {
	t.Helper()
	info, err := st.Info(context.Background(), jetstream.WithSubjectFilter(filesSubjectPrefix+">"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for subject := range info.State.Subjects {
		rest := strings.TrimPrefix(subject, filesSubjectPrefix)
		names = append(names, strings.Replace(rest, ".", "/", 1))
	}
	slices.Sort(names)
	return names
}

func sameFiles(t testing.TB, got, want []File) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d files, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Path != want[i].Path || got[i].Mode != want[i].Mode || !bytes.Equal(got[i].Data, want[i].Data) {
			t.Fatalf("file %d = %q %v %q, want %q %v %q", i, got[i].Path, got[i].Mode, got[i].Data, want[i].Path, want[i].Mode, want[i].Data)
		}
	}
}

// TestFilesRoundTripAndFencing: files come back as saved, with their
// token, also after a NATS restart; a save with a lower token than the
// recorded one is refused and changes nothing; the object a save replaced
// is deleted.
func TestFilesRoundTripAndFencing(t *testing.T) {
	ns := natstest.Start(t)
	f, _ := openFiles(t, ns.URL(), FilesConfig{ReplacedGrace: time.Nanosecond})
	ctx := context.Background()
	const session = "alice~s.1"

	if _, _, err := f.LoadFiles(ctx, session); !errors.Is(err, ErrNotFound) {
		t.Fatalf("load before any save: %v", err)
	}
	v5 := []File{
		{Path: "transcript.jsonl", Mode: 0o600, Data: []byte("{\"a\":1}\n")},
		{Path: "memory/notes.md", Mode: 0o644, Data: []byte("# notes")},
		{Path: "empty", Mode: 0o600},
		{Path: "bin/blob", Mode: 0o755, Data: []byte{0, 1, 2, 255}},
	}
	if err := f.SaveFiles(ctx, session, 5, v5); err != nil {
		t.Fatal(err)
	}
	got, token, err := f.LoadFiles(ctx, session)
	if err != nil || token != 5 {
		t.Fatalf("load: token %d, %v", token, err)
	}
	sameFiles(t, got, v5)

	ns.Restart()
	f2, obs := openFiles(t, ns.URL(), FilesConfig{ReplacedGrace: time.Nanosecond})
	got, token, err = f2.LoadFiles(ctx, session)
	if err != nil || token != 5 {
		t.Fatalf("load after restart: token %d, %v", token, err)
	}
	sameFiles(t, got, v5)

	stale := []File{{Path: "transcript.jsonl", Mode: 0o600, Data: []byte("stale")}}
	if err := f2.SaveFiles(ctx, session, 4, stale); !errors.Is(err, ErrFenced) {
		t.Fatalf("save with a lower token: %v", err)
	}
	got, token, _ = f2.LoadFiles(ctx, session)
	if token != 5 {
		t.Fatalf("a fenced save moved the token to %d", token)
	}
	sameFiles(t, got, v5)

	v5b := []File{{Path: "transcript.jsonl", Mode: 0o600, Data: []byte("second save, same holder")}}
	if err := f2.SaveFiles(ctx, session, 5, v5b); err != nil {
		t.Fatalf("second save under the same token: %v", err)
	}
	v7 := []File{{Path: "transcript.jsonl", Mode: 0o600, Data: []byte("new owner")}}
	if err := f2.SaveFiles(ctx, session, 7, v7); err != nil {
		t.Fatal(err)
	}
	got, token, _ = f2.LoadFiles(ctx, session)
	if token != 7 {
		t.Fatalf("token %d, want 7", token)
	}
	sameFiles(t, got, v7)
	// With next to no grace, a save deletes what earlier saves
	// replaced, and keeps only what it replaces itself.
	names := objects(t, obs)
	if len(names) != 2 || !slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "alice=7Es=2E1/7-") }) {
		t.Fatalf("objects after four saves: %v", names)
	}
	if err := f2.SaveFiles(ctx, session, 7, v7); err != nil {
		t.Fatal(err)
	}
	names = objects(t, obs)
	if len(names) != 2 || !strings.HasPrefix(names[0], "alice=7Es=2E1/7-") || !strings.HasPrefix(names[1], "alice=7Es=2E1/7-") {
		t.Fatalf("objects after five saves: %v", names)
	}
}

// TestFilesConcurrentOwners: an old and a new owner save at once, over
// and over while a reader loads; the new owner is never refused, the old
// one is once the new one saved, what is loaded is always one whole save,
// and the replaced saves are kept for the reader.
func TestFilesConcurrentOwners(t *testing.T) {
	ns := natstest.Start(t)
	f, obs := openFiles(t, ns.URL(), FilesConfig{})
	ctx := context.Background()
	save := func(token uint64, i int) error {
		data := fmt.Appendf(nil, "token %d save %d", token, i)
		return f.SaveFiles(ctx, "s", token, []File{{Path: "a", Data: data}, {Path: "b", Data: data}})
	}
	if err := save(10, 0); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var newSaved sync.WaitGroup
	newSaved.Add(1)
	wg.Go(func() {
		for i := range 20 {
			if err := save(11, i); err != nil {
				t.Errorf("new owner refused: %v", err)
			}
			if i == 0 {
				newSaved.Done()
			}
		}
	})
	wg.Go(func() {
		newSaved.Wait()
		for i := range 20 {
			if err := save(10, i+1); !errors.Is(err, ErrFenced) {
				t.Errorf("old owner's save after the new one's: %v", err)
			}
		}
	})
	wg.Go(func() {
		for range 40 {
			files, token, err := f.LoadFiles(ctx, "s")
			if err != nil {
				t.Errorf("load: %v", err)
				return
			}
			if len(files) != 2 || !bytes.Equal(files[0].Data, files[1].Data) ||
				!bytes.HasPrefix(files[0].Data, fmt.Appendf(nil, "token %d ", token)) {
				t.Errorf("load mixed saves: token %d, %q", token, files)
			}
		}
	})
	wg.Wait()
	_, token, err := f.LoadFiles(ctx, "s")
	if err != nil || token != 11 {
		t.Fatalf("final token %d, %v", token, err)
	}
	// 21 saves went through, within the grace: all are kept; the 20
	// fenced ones deleted their objects.
	if names := objects(t, obs); len(names) != 21 {
		t.Fatalf("%d objects left, want 21", len(names))
	}
}

// TestFilesRefuseBadInput: paths that are not relative and clean, files
// over the bound, a missing token: each is refused with a clear error and
// nothing is saved.
func TestFilesRefuseBadInput(t *testing.T) {
	ns := natstest.Start(t)
	f, obs := openFiles(t, ns.URL(), FilesConfig{MaxBytes: 10})
	ctx := context.Background()
	for _, c := range []struct {
		files []File
		want  string
	}{
		{[]File{{Path: "../escape"}}, "leaves its directory"},
		{[]File{{Path: ".."}}, "leaves its directory"},
		{[]File{{Path: "/etc/passwd"}}, "absolute"},
		{[]File{{Path: "a/../b"}}, "not clean"},
		{[]File{{Path: "a//b"}}, "not clean"},
		{[]File{{Path: "./a"}}, "not clean"},
		{[]File{{Path: "a/"}}, "not clean"},
		{[]File{{Path: ""}}, "empty path"},
		{[]File{{Path: "a\\b"}}, "backslash"},
		{[]File{{Path: "a"}, {Path: "a"}}, "given twice"},
		{[]File{{Path: "a"}, {Path: "a/b"}}, "inside file"},
		{[]File{{Path: "a", Data: make([]byte, 6)}, {Path: "b", Data: make([]byte, 5)}}, "too large"},
	} {
		err := f.SaveFiles(ctx, "s", 1, c.files)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("save %v: %v, want %q", c.files[len(c.files)-1].Path, err, c.want)
		}
	}
	if err := f.SaveFiles(ctx, "s", 1, []File{{Path: "a", Data: make([]byte, 11)}}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("too large: %v", err)
	}
	if err := f.SaveFiles(ctx, "s", 0, nil); err == nil {
		t.Error("saved without a token")
	}
	if _, _, err := f.LoadFiles(ctx, "s"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a refused save left files: %v", err)
	}
	if names := objects(t, obs); len(names) != 0 {
		t.Fatalf("a refused save left objects: %v", names)
	}
	if err := f.SaveFiles(ctx, "s", 1, []File{{Path: "a", Data: make([]byte, 4)}, {Path: "b", Data: make([]byte, 6)}}); err != nil {
		t.Fatalf("a save at the bound: %v", err)
	}
	if files, _, err := f.LoadFiles(ctx, "s"); err != nil || len(files) != 2 {
		t.Fatalf("load of a save at the bound: %d files, %v", len(files), err)
	}
}

// TestFilesHeadNext: a save keeps what it replaces for the grace, drops
// what is older, and keeps at most maxReplaced however often it runs.
func TestFilesHeadNext(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	h := filesHead{Token: 1, Object: "o0"}
	var dropped []string
	for i := 1; i <= maxReplaced+5; i++ {
		var drop []string
		h, drop = h.next(filesHead{Token: 2, Object: fmt.Sprintf("o%d", i)}, now, time.Minute)
		dropped = append(dropped, drop...)
	}
	if len(h.Replaced) != maxReplaced || h.Replaced[0].Name != fmt.Sprintf("o%d", maxReplaced+4) {
		t.Fatalf("replaced = %v", h.Replaced)
	}
	if want := []string{"o0", "o1", "o2", "o3", "o4"}; !slices.Equal(dropped, want) {
		t.Fatalf("dropped %v, want the oldest %v", dropped, want)
	}
	h, drop := h.next(filesHead{Token: 3, Object: "late"}, now.Add(time.Minute), time.Minute)
	if len(h.Replaced) != 1 || h.Replaced[0].Name != fmt.Sprintf("o%d", maxReplaced+5) || len(drop) != maxReplaced {
		t.Fatalf("after the grace: kept %v, dropped %d", h.Replaced, len(drop))
	}
}

// TestFilesLargeSaveAndNoGoroutineLeft: a save of many chunks comes back
// whole, a corrupted chunk is detected, and saving and loading leave no
// goroutine behind. The server is a process of its own, so that every
// goroutine here is the client's.
func TestFilesLargeSaveAndNoGoroutineLeft(t *testing.T) {
	ns := natstest.StartProcess(t)
	f, st := openFiles(t, ns.URL(), FilesConfig{})
	ctx := context.Background()
	big := make([]byte, 3*filesChunk+17)
	for i := range big {
		big[i] = byte(i * 7)
	}
	before := goleak.IgnoreCurrent()
	for i := range 30 {
		want := []File{{Path: "big.bin", Mode: 0o600, Data: big}, {Path: "n", Data: fmt.Appendf(nil, "%d", i)}}
		if err := f.SaveFiles(ctx, "s", uint64(i+1), want); err != nil {
			t.Fatal(err)
		}
		got, token, err := f.LoadFiles(ctx, "s")
		if err != nil || token != uint64(i+1) {
			t.Fatalf("load %d: token %d, %v", i, token, err)
		}
		sameFiles(t, got, want)
	}
	goleak.VerifyNone(t, before)

	// A chunk that is not what was saved is refused, not returned.
	head, _, err := f.head(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteMsg(ctx, head.Seqs[1]); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.LoadFiles(ctx, "s"); err == nil || !strings.Contains(err.Error(), "lost chunks") {
		t.Fatalf("load of a save with a chunk missing: %v", err)
	}
}

// TestUntarRefusesWhatSaveWould: stored content is checked as a save's
// input is, so a path that escapes or an archive over the bound is not
// handed to the node that restores it.
func TestUntarRefusesWhatSaveWould(t *testing.T) {
	write := func(name string, size int) []byte {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Size: int64(size), Mode: 0o600}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(make([]byte, size)); err != nil {
			t.Fatal(err)
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if _, err := untarFiles(write("../x", 1), 100); err == nil {
		t.Fatal("unpacked a path that leaves its directory")
	}
	if _, err := untarFiles(write("x", 101), 100); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("unpacked past the bound: %v", err)
	}
	files, err := untarFiles(write("x", 100), 100)
	if err != nil || len(files) != 1 || len(files[0].Data) != 100 {
		t.Fatalf("unpack at the bound: %v, %v", files, err)
	}
}

// TestDeleteFiles: deleting a session's files removes its pointer and
// every save of it, leaves other sessions' alone, and a save afterwards
// starts afresh.
func TestDeleteFiles(t *testing.T) {
	ns := natstest.Start(t)
	f, st := openFiles(t, ns.URL(), FilesConfig{})
	ctx := context.Background()
	for _, s := range []string{"s", "s2", "other"} {
		for token := uint64(1); token <= 3; token++ {
			if err := f.SaveFiles(ctx, s, token, []File{{Path: "t", Data: []byte(s)}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := f.DeleteFiles(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.LoadFiles(ctx, "s"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("load after delete: %v", err)
	}
	for _, n := range objects(t, st) {
		if strings.HasPrefix(n, "s/") {
			t.Fatalf("save %s outlived the delete", n)
		}
	}
	// "s2" shares a prefix with "s" but not its key.
	for _, s := range []string{"s2", "other"} {
		files, token, err := f.LoadFiles(ctx, s)
		if err != nil || token != 3 || string(files[0].Data) != s {
			t.Fatalf("%s after deleting s: %v, %d, %v", s, files, token, err)
		}
	}
	if err := f.DeleteFiles(ctx, "s"); err != nil {
		t.Fatalf("second delete: %v", err)
	}
	if err := f.SaveFiles(ctx, "s", 1, []File{{Path: "t", Data: []byte("again")}}); err != nil {
		t.Fatalf("save after delete: %v", err)
	}
	if files, _, err := f.LoadFiles(ctx, "s"); err != nil || string(files[0].Data) != "again" {
		t.Fatalf("load after a new save: %v, %v", files, err)
	}
}
