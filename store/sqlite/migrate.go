package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"time"

	"github.com/hotplex/hotplex/store"
)

// migrationFiles holds the schema, one file per version, named
// NNNN_description.sql. Files are never edited once released; a change
// is a new file.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrations returns the embedded migrations in version order.
func migrations() ([]store.Migration, error) {
	return store.ReadMigrations(migrationFiles, "migrations")
}

const sqlCreateMigrations = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    INTEGER NOT NULL PRIMARY KEY,
	name       TEXT    NOT NULL,
	applied_at INTEGER NOT NULL
) STRICT`

// migrate applies the migrations the database lacks, each in its own
// (immediate) transaction together with its schema_migrations row, so a
// failure leaves the schema at the previous version and concurrent openers
// of the same file apply each step once.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	for _, m := range ms {
		applied, err := db.applyMigrationRetry(ctx, m)
		if err != nil {
			return fmt.Errorf("migrate to version %d (%s): %w", m.Version, m.Name, err)
		}
		if applied {
			db.log.Info("applied schema migration", "version", m.Version, "name", m.Name)
		}
	}
	v, err := schemaVersion(ctx, db.writer)
	if err != nil {
		return err
	}
	if latest := ms[len(ms)-1].Version; v > latest {
		return fmt.Errorf("database schema version %d is newer than this program supports (%d)", v, latest)
	}
	return nil
}

// applyMigrationRetry is applyMigration, retried while SQLite reports the
// database busy, for at most busyTimeout. SQLite does not always wait
// (busy_timeout) while other connections are switching a new file to WAL,
// so processes opening a new database at once can see SQLITE_BUSY here.
func (db *DB) applyMigrationRetry(ctx context.Context, m store.Migration) (bool, error) {
	deadline := time.Now().Add(busyTimeout)
	wait := 5 * time.Millisecond
	for {
		applied, err := db.applyMigration(ctx, m)
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return applied, err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return false, errors.Join(err, ctx.Err())
		case <-t.C:
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}

// applyMigration applies m unless it already is; it reports whether it did.
func (db *DB) applyMigration(ctx context.Context, m store.Migration) (applied bool, err error) {
	tx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("begin: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if _, err := tx.ExecContext(ctx, sqlCreateMigrations); err != nil {
		return false, fmt.Errorf("create schema_migrations: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, m.Version).Scan(&n); err != nil {
		return false, fmt.Errorf("read schema_migrations: %w", err)
	}
	if n > 0 {
		return false, tx.Commit()
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		m.Version, m.Name, time.Now().UnixNano()); err != nil {
		return false, fmt.Errorf("record version: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("commit: %w", err)
	}
	return true, nil
}

// SchemaVersion returns the newest schema migration applied to the database.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	if err := db.check("schema version"); err != nil {
		return 0, err
	}
	v, err := schemaVersion(ctx, db.reader)
	if err != nil {
		return 0, fmt.Errorf("sqlite store: %w", err)
	}
	return v, nil
}

func schemaVersion(ctx context.Context, q *sql.DB) (int, error) {
	var v int
	if err := q.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}
