package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/storetest"
)

func TestPragmas(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	check := func(name string, q querier, pragma, want string) {
		t.Helper()
		var got string
		if err := q.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil {
			t.Fatalf("%s: PRAGMA %s: %v", name, pragma, err)
		}
		if !strings.EqualFold(got, want) {
			t.Errorf("%s: PRAGMA %s = %q, want %q", name, pragma, got, want)
		}
	}
	// Check several reader connections, not just the first: the pragmas
	// come from the DSN and must apply to every pooled connection.
	conns := make([]querier, 0, 4)
	for range 3 {
		c, err := db.reader.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	w, err := db.writer.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i, q := range append(conns, w) {
		name := "reader"
		if i == len(conns) {
			name = "writer"
		}
		check(name, q, "journal_mode", "wal")
		check(name, q, "synchronous", "1") // NORMAL
		check(name, q, "foreign_keys", "1")
		check(name, q, "busy_timeout", "5000")
	}
	check("reader", conns[0], "query_only", "1")
	check("writer", w, "query_only", "0")
	if _, err := os.Stat(db.Path() + "-wal"); err != nil {
		t.Errorf("no WAL file next to the database: %v", err)
	}
}

// querier is a *sql.DB or *sql.Conn.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func TestOpenCreatesDirAndPrivateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "hotplex.db")
	db := openAt(t, path)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("database file mode %v, want 0600", perm)
	}
	if db.Path() != path {
		t.Errorf("Path() = %q, want %q", db.Path(), path)
	}
}

func TestOpenOddPath(t *testing.T) {
	// Characters that mean something in a URI must not break the DSN.
	path := filepath.Join(t.TempDir(), "we?ird #dir%20", "db?x=1#frag")
	db := openAt(t, path)
	storetest.PutSession(t, db, "s", "")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database not at the given path: %v", err)
	}
}

func TestOpenUnwritable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "plain-file")
	if err := os.WriteFile(file, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	notSQLite := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(notSQLite, []byte(strings.Repeat("this is not an SQLite database. ", 200)), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		path string
		want string
	}{
		"under a file": {filepath.Join(file, "sub", "hotplex.db"), "create directory"},
		"file as dir":  {filepath.Join(file, "hotplex.db"), "create directory"},
		"directory":    {dir, "is a directory"},
		"not sqlite":   {notSQLite, "not a database"},
		"empty path":   {"", "empty path"},
	} {
		db, err := Open(ctx, c.path)
		if err == nil {
			db.Close()
			t.Errorf("%s: Open(%q) succeeded", name, c.path)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || (c.path != "" && !strings.Contains(err.Error(), c.path)) {
			t.Errorf("%s: error %q should mention %q and the path", name, err, c.want)
		}
		t.Logf("%s: %v", name, err)
	}
	// The file that was in the way is untouched.
	if b, _ := os.ReadFile(file); string(b) != "not a directory" {
		t.Errorf("file changed: %q", b)
	}
	if b, _ := os.ReadFile(notSQLite); !strings.HasPrefix(string(b), "this is not") {
		t.Errorf("non-database file changed")
	}
}

// Close checkpoints the WAL into the database file and removes it, so a
// closed database is one file that can be copied; reopened, it has
// everything (the suite's ReopenKeepsEverything checks the data).
// Ping answers for an open database and reports a closed one.
func TestPing(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "hotplex.db"), WithLogger(testLogger(t)))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Ping(ctx, db); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	_ = db.Close()
	if err := store.Ping(ctx, db); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("Ping after Close: %v", err)
	}
}

func TestCloseRemovesWAL(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hotplex.db")
	db, err := Open(ctx, path, WithLogger(testLogger(t)))
	if err != nil {
		t.Fatal(err)
	}
	storetest.PutSession(t, db, "s", "alice")
	if err := db.AppendEvents(ctx, storetest.Events(t, "s", 1, 50)...); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Fatalf("no WAL while open: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("WAL not checkpointed and removed on Close: %v", err)
	}
	if _, err := db.SchemaVersion(ctx); !errors.Is(err, store.ErrClosed) {
		t.Errorf("SchemaVersion after Close: %v, want ErrClosed", err)
	}
	db = openAt(t, path)
	if es, err := db.Events(ctx, "s", 0, 0); err != nil || !slices.Equal(storetest.Seqs(es), storetest.SeqRange(1, 50)) {
		t.Fatalf("events after reopen: %v, %v", storetest.Seqs(es), err)
	}
}

func TestMigrationsIdempotent(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hotplex.db")
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	latest := ms[len(ms)-1].Version
	for i := range 3 {
		var log bytes.Buffer
		db, err := Open(ctx, path, WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
		if err != nil {
			t.Fatalf("open #%d: %v", i+1, err)
		}
		if applied := strings.Count(log.String(), "applied schema migration"); applied != len(ms)*btoi(i == 0) {
			t.Fatalf("open #%d applied %d migrations:\n%s", i+1, applied, log.String())
		}
		v, err := db.SchemaVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if v != latest {
			t.Fatalf("open #%d: schema version %d, want %d", i+1, v, latest)
		}
		var rows int
		if err := db.reader.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		if rows != len(ms) {
			t.Fatalf("open #%d: %d schema_migrations rows, want %d", i+1, rows, len(ms))
		}
		if i == 0 {
			storetest.PutSession(t, db, "s", "")
		} else if _, err := db.GetSession(ctx, "s"); err != nil {
			t.Fatalf("open #%d lost data: %v", i+1, err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMigrationsConcurrentOpen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hotplex.db")
	const n = 4
	dbs := make([]*DB, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { dbs[i], errs[i] = Open(ctx, path, WithLogger(testLogger(t))) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Errorf("open #%d: %v", i, errs[i])
			continue
		}
		defer dbs[i].Close()
	}
	if t.Failed() {
		return
	}
	var rows int
	if err := dbs[0].reader.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if ms, _ := migrations(); rows != len(ms) {
		t.Fatalf("%d schema_migrations rows, want %d", rows, len(ms))
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hotplex.db")
	db, err := Open(ctx, path, WithLogger(testLogger(t)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.writer.ExecContext(ctx, `INSERT INTO schema_migrations VALUES (9999, '9999_future.sql', 0)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if db, err := Open(ctx, path, WithLogger(testLogger(t))); err == nil || !strings.Contains(err.Error(), "newer") {
		if err == nil {
			db.Close()
		}
		t.Fatalf("Open of a newer schema: %v", err)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
