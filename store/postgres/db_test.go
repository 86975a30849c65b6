package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hotplex/hotplex/internal/pgtest"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, storetest.Backend{
		NewDatabase: server.NewDatabase,
		Open: func(ctx context.Context, dsn string) (store.Store, error) {
			return Open(ctx, dsn, WithLogger(testLogger(t)))
		},
	})
}

// openTest opens a fresh database and closes it when the test ends.
func openTest(t testing.TB) (*DB, string) {
	t.Helper()
	dsn := server.NewDatabase(t)
	db, err := Open(context.Background(), dsn, WithLogger(testLogger(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db, dsn
}

// rawConn connects to dsn outside the store, to look at or tamper with
// what it wrote.
func rawConn(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

func TestMigrationsIdempotent(t *testing.T) {
	ctx := context.Background()
	dsn := server.NewDatabase(t)
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	latest := ms[len(ms)-1].Version
	for i := range 3 {
		var log bytes.Buffer
		db, err := Open(ctx, dsn, WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
		if err != nil {
			t.Fatalf("open #%d: %v", i+1, err)
		}
		want := 0
		if i == 0 {
			want = len(ms)
		}
		if applied := strings.Count(log.String(), "applied schema migration"); applied != want {
			t.Fatalf("open #%d applied %d migrations:\n%s", i+1, applied, log.String())
		}
		if v, err := db.SchemaVersion(ctx); err != nil || v != latest {
			t.Fatalf("open #%d: schema version %d (%v), want %d", i+1, v, err, latest)
		}
		if i == 0 {
			storetest.PutSession(t, db, "s", "")
		} else if _, err := db.GetSession(ctx, "s"); err != nil {
			t.Fatalf("open #%d lost data: %v", i+1, err)
		}
		db.Close()
	}
	var rows int
	if err := rawConn(t, dsn).QueryRow(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&rows); err != nil || rows != len(ms) {
		t.Fatalf("%d schema_migrations rows (%v), want %d", rows, err, len(ms))
	}
}

// Daemons starting at once on a new database: each migration is applied
// once, and every one of them opens.
func TestMigrationsConcurrentOpen(t *testing.T) {
	ctx := context.Background()
	dsn := server.NewDatabase(t)
	const n = 6
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		applied int
	)
	for i := range n {
		wg.Go(func() {
			var log bytes.Buffer
			db, err := Open(ctx, dsn, WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
			if err != nil {
				t.Errorf("open #%d: %v", i, err)
				return
			}
			defer db.Close()
			mu.Lock()
			applied += strings.Count(log.String(), "applied schema migration")
			mu.Unlock()
			if _, err := db.ListSessions(ctx, ""); err != nil {
				t.Errorf("open #%d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if ms, _ := migrations(); applied != len(ms) {
		t.Fatalf("%d migrations applied by %d openers, want %d", applied, n, len(ms))
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	db, dsn := openTest(t)
	db.Close()
	if _, err := rawConn(t, dsn).Exec(ctx, `INSERT INTO schema_migrations VALUES (9999, '9999_future.sql', now())`); err != nil {
		t.Fatal(err)
	}
	if db, err := Open(ctx, dsn, WithLogger(testLogger(t))); err == nil || !strings.Contains(err.Error(), "newer") {
		if err == nil {
			db.Close()
		}
		t.Fatalf("Open of a newer schema: %v", err)
	}
}

// A migration that fails leaves the schema as it was: PostgreSQL's DDL
// is part of the transaction.
func TestFailedMigrationLeavesNothing(t *testing.T) {
	ctx := context.Background()
	dsn := server.NewDatabase(t)
	conn := rawConn(t, dsn)
	// A table in the way of the first migration.
	if _, err := conn.Exec(ctx, `CREATE TABLE api_keys (x int)`); err != nil {
		t.Fatal(err)
	}
	if db, err := Open(ctx, dsn, WithLogger(testLogger(t))); err == nil {
		db.Close()
		t.Fatal("Open over a conflicting table succeeded")
	} else if !strings.Contains(err.Error(), "migrate to version 1") {
		t.Fatalf("error does not say which migration failed: %v", err)
	}
	var tables []string
	rows, _ := conn.Query(ctx, `SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`)
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(tables) != "[api_keys]" {
		t.Fatalf("tables after a failed migration: %v", tables)
	}
}

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := Open(ctx, ""); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("empty DSN: %v, want ErrInvalid", err)
	}
	_, err := Open(ctx, "postgres://u:sekrit@host:notaport/db")
	if !errors.Is(err, store.ErrInvalid) || strings.Contains(err.Error(), "sekrit") {
		t.Errorf("malformed DSN: %v, want ErrInvalid without the password", err)
	}
	// A server that is not there: Open fails rather than hand back a
	// store whose every call will.
	_, err = Open(ctx, "postgres://postgres@/nowhere?host="+t.TempDir()+"&connect_timeout=2")
	if err == nil || !strings.Contains(err.Error(), `database "nowhere"`) {
		t.Errorf("no server: %v", err)
	}
}

// What PostgreSQL cannot store as text (a NUL byte, bytes that are not
// UTF-8) is refused as invalid input, and nothing is written.
func TestTextPostgresRefuses(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	storetest.PutSession(t, db, "s", "")
	for name, err := range map[string]error{
		"NUL in session ID":   db.PutSession(ctx, store.Session{ID: "a\x00b"}),
		"latin-1 title":       db.PutSession(ctx, store.Session{ID: "t", Title: "caf\xe9"}),
		"NUL in event type":   db.AppendEvents(ctx, store.Event{SessionID: "s", Seq: 1, Type: "an\x00swer"}),
		"latin-1 in event":    db.AppendEvents(ctx, store.Event{SessionID: "s", Seq: 1, Type: "answer", Data: []byte("\"caf\xe9\"")}),
		"NUL in key name":     db.PutAPIKey(ctx, store.APIKey{ID: "hpk_x", Name: "\x00", Hash: store.HashKey("x")}),
		"latin-1 usage model": db.AddModelUsage(ctx, []store.ModelUsage{{SessionID: "s", Model: "\xff"}}),
	} {
		if !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	if es, err := db.Events(ctx, "s", 0, 0); err != nil || len(es) != 0 {
		t.Fatalf("events %v, %v", es, err)
	}
	if list, err := db.ListSessions(ctx, ""); err != nil || len(list) != 1 {
		t.Fatalf("sessions %v, %v", list, err)
	}
}

// testLogger sends the store's log to the test's log.
func testLogger(tb testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tbWriter{tb}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tbWriter struct{ tb testing.TB }

func (w tbWriter) Write(p []byte) (int, error) {
	w.tb.Helper()
	w.tb.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// An append that meets another writer's transaction on its session (one
// daemon's, while another appends) waits for it and judges its seqs by
// the LastSeq that writer left, not by what it read before: here the
// other writer raised LastSeq to 10, so seq 5 is refused and LastSeq
// stays 10.
func TestAppendWaitsForAnotherWriter(t *testing.T) {
	ctx := context.Background()
	db, dsn := openTest(t)
	storetest.PutSession(t, db, "s", "")
	if err := db.AppendEvents(ctx, storetest.Events(t, "s", 1, 4)...); err != nil {
		t.Fatal(err)
	}
	other, err := rawConn(t, dsn).Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Rollback(ctx)
	if _, err := other.Exec(ctx, `UPDATE sessions SET last_seq = 10 WHERE id = 's'`); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- db.AppendEvents(ctx, storetest.Events(t, "s", 5, 1)...) }()
	waitForLockWait(t, dsn)
	if err := other.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, store.ErrSeqConflict) || !strings.Contains(err.Error(), "not greater than 10") {
		t.Fatalf("append behind the other writer: %v, want ErrSeqConflict against 10", err)
	}
	if s, err := db.GetSession(ctx, "s"); err != nil || s.LastSeq != 10 {
		t.Fatalf("LastSeq %d (%v), want 10", s.LastSeq, err)
	}
	if es, err := db.Events(ctx, "s", 4, 0); err != nil || len(es) != 0 {
		t.Fatalf("events after 4: %v, %v", storetest.Seqs(es), err)
	}
}

// waitForLockWait returns once a session of the database waits for a lock.
func waitForLockWait(t *testing.T, dsn string) {
	t.Helper()
	conn := rawConn(t, dsn)
	for {
		var n int
		err := conn.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// When the server goes away, calls fail with store.ErrUnavailable (Ping,
// for readiness probes, too) instead of hanging or passing for a store
// error such as a conflict; when it comes back the same DB works again,
// nothing acknowledged lost; and Close still returns.
func TestServerGone(t *testing.T) {
	ctx := context.Background()
	own, err := pgtest.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer own.Stop()
	db, err := Open(ctx, own.NewDatabase(t), WithLogger(testLogger(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storetest.PutSession(t, db, "s", "")
	if err := db.AppendEvents(ctx, storetest.Events(t, "s", 1, 1)...); err != nil {
		t.Fatal(err)
	}
	if err := db.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if err := own.Halt(); err != nil {
		t.Fatal(err)
	}
	if err := db.Ping(ctx); !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("Ping with the server down: %v", err)
	}
	err = db.AppendEvents(ctx, storetest.Events(t, "s", 2, 1)...)
	if !errors.Is(err, store.ErrUnavailable) || errors.Is(err, store.ErrSeqConflict) || errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrInvalid) {
		t.Fatalf("append with the server down: %v", err)
	}
	t.Logf("append with the server down: %v", err)
	for _, call := range []func() error{
		func() error { _, err := db.GetSession(ctx, "s"); return err },
		func() error { _, err := db.APIKeyByHash(ctx, store.HashKey("x")); return err },
		func() error { _, err := db.ModelUsage(ctx); return err },
	} {
		if err := call(); !errors.Is(err, store.ErrUnavailable) {
			t.Fatalf("a read with the server down: %v", err)
		}
	}

	if err := own.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.Ping(ctx); err != nil {
		t.Fatalf("Ping after the server came back: %v", err)
	}
	if err := db.AppendEvents(ctx, storetest.Events(t, "s", 2, 1)...); err != nil {
		t.Fatalf("append after the server came back: %v", err)
	}
	if evs, err := db.Events(ctx, "s", 0, 0); err != nil || len(evs) != 2 || evs[1].Seq != 2 {
		t.Fatalf("events after the outage: %v, %v", evs, err)
	}

	if err := own.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Ping(ctx); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("Ping after Close: %v", err)
	}
}
