// Package sqlite implements store.Store on SQLite, using the pure-Go driver
// modernc.org/sqlite. The database runs in WAL mode with one writer
// connection (writes are serialised in Go, so they never meet SQLITE_BUSY
// from each other) and a pool of read-only connections.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/hotplex/hotplex/store"
)

// driverName is the database/sql driver registered by modernc.org/sqlite.
const driverName = "sqlite"

// busyTimeout is how long a connection waits for a lock held by another
// connection (for example another process) before failing with SQLITE_BUSY.
const busyTimeout = 5 * time.Second

// DB is a store.Store kept in one SQLite file. It is safe for concurrent use.
type DB struct {
	path   string
	log    *slog.Logger
	writer *sql.DB // exactly one connection; every write goes through it
	reader *sql.DB // query_only connections for reads

	// Statements of the hot path, prepared once: appending events on
	// the writer; on the reader, what every request or turn reads (a
	// statement SQLite must parse again each time costs more than the
	// query).
	stmtLastSeq      *sql.Stmt
	stmtInsertEvents [insertRows]*sql.Stmt // of 1 to insertRows events
	stmtBumpSession  *sql.Stmt
	stmtGetSession   *sql.Stmt
	stmtFindSession  *sql.Stmt
	stmtKeyByHash    *sql.Stmt
	stmtHooks        *sql.Stmt

	ckpt *checkpointer // checkpoints the WAL off the writer's path

	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error
}

var _ store.Database = (*DB)(nil)

// Option configures Open.
type Option func(*options)

type options struct {
	log *slog.Logger
}

// WithLogger sets the logger for schema migrations and warnings
// (default: slog.Default()).
func WithLogger(l *slog.Logger) Option {
	return func(o *options) {
		if l != nil {
			o.log = l
		}
	}
}

// Open opens (creating it if needed, with its parent directory) the SQLite
// database at path, brings its schema up to date and returns it ready for use.
func Open(ctx context.Context, path string, opts ...Option) (*DB, error) {
	o := options{log: slog.Default()}
	for _, opt := range opts {
		opt(&o)
	}
	if path == "" {
		return nil, fmt.Errorf("sqlite store: open: %w: empty path", store.ErrInvalid)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite store: open %s: %w", path, err)
	}
	if err := prepareFile(abs); err != nil {
		return nil, fmt.Errorf("sqlite store: open %s: %w", abs, err)
	}
	db := &DB{path: abs, log: o.log.With("component", "store/sqlite", "path", abs)}
	if err := db.open(ctx); err != nil {
		_ = db.closeAll()
		return nil, fmt.Errorf("sqlite store: open %s: %w", abs, err)
	}
	return db, nil
}

// prepareFile creates the database's directory and, if missing, an empty
// database file readable only by its owner (SQLite gives its -wal and -shm
// files the same permissions). Failing here gives a clearer error than
// SQLite's "unable to open database file".
func prepareFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create directory: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("open database file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("open database file: %w", err)
	}
	return nil
}

func (db *DB) open(ctx context.Context) error {
	var err error
	// The writer is opened first and migrated, which also switches a new
	// file to WAL before any reader connects.
	if db.writer, err = sql.Open(driverName, dsn(db.path, false)); err != nil {
		return err
	}
	db.writer.SetMaxOpenConns(1)
	db.writer.SetMaxIdleConns(1)
	db.writer.SetConnMaxLifetime(0)
	db.writer.SetConnMaxIdleTime(0)
	if err := db.migrate(ctx); err != nil {
		return err
	}
	var mode string
	if err := db.writer.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return fmt.Errorf("read journal mode: %w", err)
	}
	if !strings.EqualFold(mode, "wal") {
		// Some file systems (network mounts) cannot do WAL; SQLite then
		// keeps its rollback journal, which is slower but still durable.
		db.log.Warn("database is not in WAL mode", "journal_mode", mode)
	}

	if db.reader, err = sql.Open(driverName, dsn(db.path, true)); err != nil {
		return err
	}
	n := max(4, runtime.GOMAXPROCS(0))
	db.reader.SetMaxOpenConns(n)
	db.reader.SetMaxIdleConns(n)
	if err := db.reader.PingContext(ctx); err != nil {
		return fmt.Errorf("open reader: %w", err)
	}

	for _, p := range []struct {
		on   *sql.DB
		stmt **sql.Stmt
		sql  string
	}{
		{db.writer, &db.stmtLastSeq, sqlLastSeq},
		{db.writer, &db.stmtBumpSession, sqlBumpSession},
		{db.reader, &db.stmtGetSession, sqlGetSession},
		{db.reader, &db.stmtFindSession, sqlFindSession},
		{db.reader, &db.stmtKeyByHash, sqlKeyByHash},
		{db.reader, &db.stmtHooks, sqlHooks},
	} {
		if *p.stmt, err = p.on.PrepareContext(ctx, p.sql); err != nil {
			return fmt.Errorf("prepare %q: %w", p.sql, err)
		}
	}
	for i := range db.stmtInsertEvents {
		if db.stmtInsertEvents[i], err = db.writer.PrepareContext(ctx, sqlInsertEvents(i+1)); err != nil {
			return fmt.Errorf("prepare the insert of %d events: %w", i+1, err)
		}
	}
	if err := db.startCheckpointer(ctx); err != nil {
		return fmt.Errorf("open checkpointer: %w", err)
	}
	return nil
}

// dsn returns the modernc.org/sqlite data source name for path. Pragmas are
// given in the DSN so that the driver applies them to every new connection
// of the pool, not just the first.
func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	} else {
		// Take the write lock at BEGIN, so that a transaction that reads
		// before writing waits (busy_timeout) for another process's writer
		// instead of failing when it upgrades its lock.
		q.Set("_txlock", "immediate")
		// Commits do not checkpoint; the checkpointer does (checkpoint.go).
		q.Add("_pragma", "wal_autocheckpoint(0)")
	}
	// The path is a URI path (the driver opens with SQLITE_OPEN_URI), so
	// characters such as '?', '#' and '%' must be escaped.
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// Path returns the absolute path of the database file.
func (db *DB) Path() string { return db.path }

// Close closes the database. It is idempotent: later calls return the
// first call's result. Calls of other methods after Close return
// store.ErrClosed.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		db.closed.Store(true)
		if err := db.closeAll(); err != nil {
			db.closeErr = fmt.Errorf("sqlite store: close %s: %w", db.path, err)
		}
	})
	return db.closeErr
}

// closeAll releases whatever open managed to set up. The reader goes
// first so that the writer is the last connection: SQLite checkpoints and
// removes the WAL when the last connection closes.
func (db *DB) closeAll() error {
	var errs []error
	if db.ckpt != nil {
		errs = append(errs, db.ckpt.close())
	}
	stmts := append([]*sql.Stmt{db.stmtLastSeq, db.stmtBumpSession,
		db.stmtGetSession, db.stmtFindSession, db.stmtKeyByHash, db.stmtHooks}, db.stmtInsertEvents[:]...)
	for _, s := range stmts {
		if s != nil {
			errs = append(errs, s.Close())
		}
	}
	if db.reader != nil {
		errs = append(errs, db.reader.Close())
	}
	if db.writer != nil {
		errs = append(errs, db.writer.Close())
	}
	return errors.Join(errs...)
}

// Local is true: the database is a file of this process's own.
func (db *DB) Local() bool { return true }

// Ping reads the database file's schema page, the cheap proof for a
// readiness probe that the file is still there and readable.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.check("ping"); err != nil {
		return err
	}
	var n int
	if err := db.reader.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
		return fmt.Errorf("sqlite store: ping: %w", err)
	}
	return nil
}

// check returns an error wrapping store.ErrClosed once the DB is closed.
func (db *DB) check(op string) error {
	if db.closed.Load() {
		return fmt.Errorf("sqlite store: %s: %w", op, store.ErrClosed)
	}
	return nil
}

// sqliteCode returns the extended SQLite result code of err, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code()
	}
	return 0
}

// isBusy reports whether err is SQLITE_BUSY or one of its extended codes.
func isBusy(err error) bool { return sqliteCode(err)&0xff == sqlite3.SQLITE_BUSY }

// isConstraint reports whether err is the given SQLITE_CONSTRAINT_* error.
func isConstraint(err error, code int) bool { return sqliteCode(err) == code }

// Constraint codes used to turn SQLite errors into store errors.
const (
	codePrimaryKey = sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	codeUnique     = sqlite3.SQLITE_CONSTRAINT_UNIQUE
)

// nanos converts t to the stored form: Unix nanoseconds, 0 for the zero time.
func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// fromNanos is the inverse of nanos; times are returned in UTC.
func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// nullJSON returns the stored form of a JSON column: NULL when empty.
func nullJSON(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}
