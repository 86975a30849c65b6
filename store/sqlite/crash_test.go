package sqlite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/storetest"
)

// crashChildEnv names the database a re-executed test binary writes to
// before killing itself.
const crashChildEnv = "HOTPLEX_STORE_CRASH_CHILD"

const (
	crashCommitted = 120 // events the child commits
	crashPending   = 30  // events it is writing, uncommitted, when it dies
)

// crashChild commits events, starts a transaction it never finishes and
// dies by SIGKILL: no Close, no checkpoint, no rollback.
func crashChild(path string) {
	ctx := context.Background()
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(2)
	}
	db, err := Open(ctx, path)
	if err != nil {
		fail(err)
	}
	if err := db.PutSession(ctx, store.Session{ID: "crash", Status: "busy"}); err != nil {
		fail(err)
	}
	for seq := uint64(1); seq <= crashCommitted; seq += 10 {
		batch := make([]store.Event, 10)
		for i := range batch {
			batch[i] = store.Event{SessionID: "crash", Seq: seq + uint64(i), Type: "answer", Data: []byte(`{"event_type":"answer"}`)}
		}
		if err := db.AppendEvents(ctx, batch...); err != nil {
			fail(err)
		}
	}
	tx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		fail(err)
	}
	for seq := uint64(crashCommitted + 1); seq <= crashCommitted+crashPending; seq++ {
		if _, err := tx.ExecContext(ctx, sqlInsertEvent, "crash", int64(seq), "answer", nil, int64(1)); err != nil {
			fail(err)
		}
	}
	fmt.Println("committed", crashCommitted)
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {} // not reached
}

// TestCrashRecovery kills a process that has the database open (with
// committed events only in the WAL and a transaction half done) and opens
// the file again: every committed event is there, nothing uncommitted is.
func TestCrashRecovery(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hotplex.db")
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("child: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	if ws, ok := exit.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child did not die by SIGKILL: %v\nstderr: %s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), fmt.Sprint("committed ", crashCommitted)) {
		t.Fatalf("child output %q\nstderr: %s", stdout.String(), stderr.String())
	}
	// The committed data must still be in the WAL, so that recovery is
	// what this test exercises.
	fi, err := os.Stat(path + "-wal")
	if err != nil || fi.Size() == 0 {
		t.Fatalf("no WAL left by the dead process: %v", err)
	}
	t.Logf("WAL left behind: %d bytes", fi.Size())

	db := openAt(t, path)
	es, err := db.Events(ctx, "crash", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(storetest.Seqs(es), storetest.SeqRange(1, crashCommitted)) {
		t.Fatalf("after crash: %d events (%v...), want 1..%d", len(es), storetest.Seqs(es)[:min(5, len(es))], crashCommitted)
	}
	s, err := db.GetSession(ctx, "crash")
	if err != nil || s.LastSeq != crashCommitted {
		t.Fatalf("session after crash: %+v, %v", s, err)
	}
	// The store is fully usable after recovery.
	if err := db.AppendEvents(ctx, store.Event{SessionID: "crash", Seq: crashCommitted + 1, Type: "answer"}); err != nil {
		t.Fatal(err)
	}
}

// TestSecondHandleWithoutClose opens the file again while the first *DB is
// still open and was never closed (as after a daemon that hung): the second
// handle sees everything committed, and both can write.
func TestSecondHandleWithoutClose(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hotplex.db")
	first := openAt(t, path)
	storetest.PutSession(t, first, "a", "")
	storetest.PutSession(t, first, "b", "")
	if err := first.AppendEvents(ctx, storetest.Events(t, "a", 1, 40)...); err != nil {
		t.Fatal(err)
	}

	second := openAt(t, path)
	if es, err := second.Events(ctx, "a", 0, 0); err != nil || !slices.Equal(storetest.Seqs(es), storetest.SeqRange(1, 40)) {
		t.Fatalf("second handle sees %v, %v", storetest.Seqs(es), err)
	}

	// Both handles write at once; SQLite's locks (busy_timeout) order them.
	var wg sync.WaitGroup
	for _, w := range []struct {
		db   *DB
		id   string
		from uint64
	}{{first, "a", 41}, {second, "b", 1}} {
		wg.Go(func() {
			for i := range 50 {
				if err := w.db.AppendEvents(ctx, storetest.Events(t, w.id, w.from+uint64(i), 1)...); err != nil {
					t.Errorf("append %s: %v", w.id, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, db := range []*DB{first, second} {
		a, _ := db.Events(ctx, "a", 0, 0)
		b, _ := db.Events(ctx, "b", 0, 0)
		if len(a) != 90 || len(b) != 50 {
			t.Fatalf("handle sees %d/%d events, want 90/50", len(a), len(b))
		}
	}
}
