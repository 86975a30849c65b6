// Package postgres implements store.Store and store.UsageStore on
// PostgreSQL, through a pgx connection pool, so that several daemons can
// share one store. Every write is one transaction whose conflicts are
// settled by the database (row locks, constraints), never by reading first
// and writing after in separate steps.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/hotplex/hotplex/store"
)

// DB is a store.Store kept in a PostgreSQL database. It is safe for
// concurrent use, and so are several DBs (in several processes) on one
// database.
type DB struct {
	pool *pgxpool.Pool
	log  *slog.Logger

	closed    atomic.Bool
	closeOnce sync.Once
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

// Open connects to the database dsn (a postgres:// URL or a libpq
// key=value string; pool settings such as pool_max_conns may be given in
// it), brings its schema up to date and returns it ready for use. The
// tables live in the first schema of the connection's search_path.
func Open(ctx context.Context, dsn string, opts ...Option) (*DB, error) {
	o := options{log: slog.Default()}
	for _, opt := range opts {
		opt(&o)
	}
	if dsn == "" {
		return nil, fmt.Errorf("postgres store: open: %w: empty connection string", store.ErrInvalid)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgx's message may quote the DSN, password and all.
		return nil, fmt.Errorf("postgres store: open: %w: cannot parse the connection string", store.ErrInvalid)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		// A server that does not answer must not hold a request (or a
		// readiness probe) for as long as the caller's context allows.
		cfg.ConnConfig.ConnectTimeout = defaultConnectTimeout
	}
	db := &DB{log: o.log.With("component", "store/postgres", "database", cfg.ConnConfig.Database, "host", cfg.ConnConfig.Host)}
	where := fmt.Sprintf("database %q on %s", cfg.ConnConfig.Database, cfg.ConnConfig.Host)
	if db.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return nil, fmt.Errorf("postgres store: open %s: %w", where, err)
	}
	if err := db.migrate(ctx); err != nil {
		db.pool.Close()
		return nil, fmt.Errorf("postgres store: open %s: %w", where, err)
	}
	return db, nil
}

// defaultConnectTimeout bounds a connection attempt when the connection
// string sets no connect_timeout.
const defaultConnectTimeout = 10 * time.Second

// Close closes the pool, waiting for the calls under way to return their
// connections. It is idempotent; calls of other methods after Close return
// store.ErrClosed.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		db.closed.Store(true)
		db.pool.Close()
	})
	return nil
}

// Local is false: the database is a server, which can go down while the
// daemon runs on.
func (db *DB) Local() bool { return false }

// Ping checks that the database answers, for readiness probes.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.check("ping"); err != nil {
		return err
	}
	if err := db.pool.Ping(ctx); err != nil {
		return db.fail("ping", err)
	}
	return nil
}

// check returns an error wrapping store.ErrClosed once the DB is closed.
func (db *DB) check(op string) error {
	if db.closed.Load() {
		return fmt.Errorf("postgres store: %s: %w", op, store.ErrClosed)
	}
	return nil
}

// fail wraps err of op. A call that lost the race with Close fails with
// the pool's own error; it is reported as store.ErrClosed, as a call made
// after Close is. Input PostgreSQL refuses as data (SQLSTATE class 22:
// text that is not UTF-8, a NUL byte, a number out of range) is
// store.ErrInvalid; a server that cannot be reached or is going away is
// store.ErrUnavailable.
func (db *DB) fail(op string, err error) error {
	if db.closed.Load() {
		return fmt.Errorf("postgres store: %s: %w: %w", op, store.ErrClosed, err)
	}
	if isDataException(err) {
		return fmt.Errorf("postgres store: %s: %w: %w", op, store.ErrInvalid, err)
	}
	if unreachable(err) {
		return fmt.Errorf("postgres store: %s: %w: %w", op, store.ErrUnavailable, err)
	}
	return fmt.Errorf("postgres store: %s: %w", op, err)
}

// unreachable reports whether err means the server could not be reached or
// dropped the connection, rather than refused what was asked: a failed
// connect, a broken or timed-out connection, or a server shutting down,
// starting up or out of connections (SQLSTATE class 08, 57P01-57P03,
// 53300).
func unreachable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03" || pe.Code == "53300"
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || pgconn.Timeout(err) || pgconn.SafeToRetry(err) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE)
}

// SQLSTATEs the store turns into store errors.
const (
	codeUniqueViolation = "23505"
	classDataException  = "22"
)

// uniqueViolation reports whether err is a violation of the unique index
// or constraint named constraint.
func uniqueViolation(err error, constraint string) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == codeUniqueViolation && pe.ConstraintName == constraint
}

func isDataException(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && len(pe.Code) == 5 && pe.Code[:2] == classDataException
}

// inTx runs f in a transaction, committed if f returns nil and rolled
// back otherwise.
func (db *DB) inTx(ctx context.Context, f func(tx pgx.Tx) error) error {
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := f(tx); err != nil {
		// f's error says why; a rollback that fails (say, ctx is done)
		// leaves the connection in a transaction, and the pool drops it.
		_ = tx.Rollback(ctx)
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}
