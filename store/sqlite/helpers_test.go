package sqlite

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
)

// openTest opens a fresh database in a temporary directory and closes it
// when the test ends.
func openTest(t testing.TB) *DB {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "hotplex.db"))
}

// openAt opens path and closes it when the test ends.
func openAt(t testing.TB, path string) *DB {
	t.Helper()
	db, err := Open(context.Background(), path, WithLogger(testLogger(t)))
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db
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
