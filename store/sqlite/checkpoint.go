package sqlite

import (
	"context"
	"database/sql"
	"time"
)

// SQLite copies the WAL back into the database file (a checkpoint) when a
// commit finds the WAL over 1000 pages, inside that commit. For the daemon
// that commit is an event batch clients are waiting for, so the writer
// never checkpoints (wal_autocheckpoint 0, see dsn) and a connection of
// its own does it in the background. Its checkpoints are PASSIVE: they
// copy what no reader still needs and never wait for the writer, which
// restarts the WAL from its beginning once it has all been copied.

// checkpointEvery is how often the checkpointer runs.
const checkpointEvery = 500 * time.Millisecond

// checkpointer runs checkpoints until stopped.
type checkpointer struct {
	conn *sql.DB
	stop chan struct{}
	done chan struct{}
}

func (db *DB) startCheckpointer(ctx context.Context) error {
	conn, err := sql.Open(driverName, dsn(db.path, false))
	if err != nil {
		return err
	}
	conn.SetMaxOpenConns(1)
	if err := conn.PingContext(ctx); err != nil {
		_ = conn.Close()
		return err
	}
	c := &checkpointer{conn: conn, stop: make(chan struct{}), done: make(chan struct{})}
	db.ckpt = c
	go c.run(db)
	return nil
}

func (c *checkpointer) run(db *DB) {
	defer close(c.done)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if _, err := db.checkpoint(context.Background()); err != nil && !isBusy(err) {
				db.log.Warn("checkpoint failed", "err", err)
			}
		case <-c.stop:
			return
		}
	}
}

// checkpoint copies the WAL into the database file as far as readers
// allow, and reports how many WAL frames are not copied yet.
func (db *DB) checkpoint(ctx context.Context) (left int, err error) {
	var busy, log, done int
	if err := db.ckpt.conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &log, &done); err != nil {
		return 0, err
	}
	return log - done, nil
}

// close stops the checkpointer and closes its connection.
func (c *checkpointer) close() error {
	close(c.stop)
	<-c.done
	return c.conn.Close()
}
