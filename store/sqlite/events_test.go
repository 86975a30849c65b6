package sqlite

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/storetest"
)

// TestAppendEventsDiskFull makes SQLite run out of room halfway through a
// batch (max_page_count stands in for a full disk): the call fails with
// SQLite's error and nothing of the batch is kept; once there is room
// again, the same batch goes in.
func TestAppendEventsDiskFull(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	storetest.PutSession(t, db, "s", "")
	if err := db.AppendEvents(ctx, storetest.Events(t, "s", 1, 3)...); err != nil {
		t.Fatal(err)
	}
	var pages int
	if err := db.writer.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	// The writer pool has a single connection, so this applies to it.
	if _, err := db.writer.ExecContext(ctx, `PRAGMA max_page_count = `+strconv.Itoa(pages+2)); err != nil {
		t.Fatal(err)
	}
	batch := storetest.Events(t, "s", 4, 500)
	err := db.AppendEvents(ctx, batch...)
	if err == nil {
		t.Fatal("append into a full database succeeded")
	}
	if !strings.Contains(err.Error(), "full") || !strings.Contains(err.Error(), `session "s"`) {
		t.Errorf("error does not say what happened: %v", err)
	}
	t.Logf("disk-full error: %v", err)
	if es, _ := db.Events(ctx, "s", 0, 0); !slices.Equal(storetest.Seqs(es), storetest.SeqRange(1, 3)) {
		t.Fatalf("events after failed append: %v, want 1..3", storetest.Seqs(es))
	}
	if s, _ := db.GetSession(ctx, "s"); s.LastSeq != 3 {
		t.Fatalf("LastSeq after failed append: %d", s.LastSeq)
	}
	if _, err := db.writer.ExecContext(ctx, `PRAGMA max_page_count = 1073741823`); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEvents(ctx, batch...); err != nil {
		t.Fatalf("retry after making room: %v", err)
	}
	if s, _ := db.GetSession(ctx, "s"); s.LastSeq != 503 {
		t.Fatalf("LastSeq after retry: %d", s.LastSeq)
	}
}

// Commits leave the WAL to the checkpointer, which copies it all back
// into the database file.
func TestCheckpointerCopiesTheWAL(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	storetest.PutSession(t, db, "s", "alice")
	for seq := uint64(1); seq <= 3000; seq += 100 {
		var batch []store.Event
		for i := range uint64(100) {
			batch = append(batch, store.Event{SessionID: "s", Seq: seq + i, Type: "answer", Data: storetest.EventData(t, "s", seq+i)})
		}
		if err := db.AppendEvents(ctx, batch...); err != nil {
			t.Fatal(err)
		}
	}
	var pages int
	if err := db.writer.QueryRowContext(ctx, "PRAGMA wal_autocheckpoint").Scan(&pages); err != nil || pages != 0 {
		t.Fatalf("the writer checkpoints itself every %d pages (%v)", pages, err)
	}
	left, err := db.checkpoint(ctx)
	if err != nil || left != 0 {
		t.Fatalf("%d frames left after a checkpoint, %v", left, err)
	}
	evs, err := db.Events(ctx, "s", 0, 0)
	if err != nil || len(evs) != 3000 {
		t.Fatalf("%d events, %v", len(evs), err)
	}
}
