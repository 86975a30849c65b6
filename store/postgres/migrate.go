package postgres

import (
	"context"
	"embed"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

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

// migrationLock is the key of the transaction-scoped advisory lock that
// daemons starting at once on one database take while migrating, so that
// each step is applied once and none of them sees a half-made schema.
// (The high bytes spell "hplx".)
const migrationLock int64 = 0x68706c78_00000001

const sqlCreateMigrations = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    integer NOT NULL PRIMARY KEY,
	name       text NOT NULL,
	applied_at timestamptz NOT NULL
)`

// migrate applies the migrations the database lacks in one transaction
// (PostgreSQL's DDL is transactional): a failure leaves the schema as it
// was, and a database newer than this program is refused before anything
// is written.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	latest := ms[len(ms)-1].Version
	var applied []store.Migration
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		applied = applied[:0]
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
			return fmt.Errorf("lock for migration: %w", err)
		}
		if _, err := tx.Exec(ctx, sqlCreateMigrations); err != nil {
			return fmt.Errorf("create schema_migrations: %w", err)
		}
		v, err := schemaVersion(ctx, tx)
		if err != nil {
			return err
		}
		if v > latest {
			return fmt.Errorf("database schema version %d is newer than this program supports (%d)", v, latest)
		}
		for _, m := range ms {
			if m.Version <= v {
				continue
			}
			// No arguments: pgx sends it as a simple query, which may
			// hold several statements.
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return fmt.Errorf("migrate to version %d (%s): %w", m.Version, m.Name, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
				m.Version, m.Name, time.Now()); err != nil {
				return fmt.Errorf("migrate to version %d (%s): record version: %w", m.Version, m.Name, err)
			}
			applied = append(applied, m)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, m := range applied {
		db.log.Info("applied schema migration", "version", m.Version, "name", m.Name)
	}
	return nil
}

// SchemaVersion returns the newest schema migration applied to the database.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	if err := db.check("schema version"); err != nil {
		return 0, err
	}
	v, err := schemaVersion(ctx, db.pool)
	if err != nil {
		return 0, db.fail("schema version", err)
	}
	return v, nil
}

// querier is a pool, a connection or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func schemaVersion(ctx context.Context, q querier) (int, error) {
	var v int
	if err := q.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}
