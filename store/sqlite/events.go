package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/hotplex/hotplex/store"
)

// Statements of AppendEvents, prepared once in Open.
const (
	sqlLastSeq     = `SELECT last_seq FROM sessions WHERE id = ?`
	sqlInsertEvent = `INSERT INTO events (session_id, seq, type, data, time) VALUES (?, ?, ?, ?, ?)`
	// sqlBumpSession moves a session's last_seq to the newest of a
	// batch whose first is past it; no row changed means the session is
	// missing or the batch is not past it.
	sqlBumpSession = `UPDATE sessions SET last_seq = ?, updated_at = max(updated_at, ?),
		stats = coalesce(json_extract(?, '$.stats'), stats) WHERE id = ? AND last_seq < ?`
)

// insertRows is the most events one INSERT statement stores; a batch of
// more takes several. One statement of n rows costs much less than n
// statements of one.
const insertRows = 8

// sqlInsertEvents is the INSERT of n events.
func sqlInsertEvents(n int) string {
	return sqlInsertEvent + strings.Repeat(", (?, ?, ?, ?, ?)", n-1)
}

// appendState tracks one session of an AppendEvents batch.
type appendState struct {
	id    string
	first uint64          // the batch's first seq of the session
	last  uint64          // the batch's newest seq of the session
	stats json.RawMessage // the newest session_stats event of the batch
}

// statsEventType is the event whose "stats" member is a session's
// statistics.
const statsEventType = "session_stats"

// AppendEvents stores events in one transaction: all of them or none. Each
// event's seq must be greater than its session's LastSeq and than the
// previous event of that session in the batch, or the call fails with an
// error wrapping store.ErrSeqConflict; an unknown session fails it with
// store.ErrNotFound. The sessions' LastSeq and UpdatedAt are updated. A
// zero event Time is stored as now.
func (db *DB) AppendEvents(ctx context.Context, events ...store.Event) (err error) {
	if err := db.check("append events"); err != nil {
		return err
	}
	if len(events) == 0 {
		return nil
	}
	for i, e := range events {
		if err := e.Validate(); err != nil {
			return fmt.Errorf("sqlite store: append events: event %d of %d (session %q, seq %d): %w",
				i+1, len(events), e.SessionID, e.Seq, err)
		}
	}
	now := time.Now().UnixNano()

	// Batches nearly always hold one session; a slice beats a map here.
	sessions := make([]appendState, 0, 1)
	for i, e := range events {
		st := -1
		for j := range sessions {
			if sessions[j].id == e.SessionID {
				st = j
				break
			}
		}
		if st < 0 {
			sessions = append(sessions, appendState{id: e.SessionID, first: e.Seq})
			st = len(sessions) - 1
		} else if e.Seq <= sessions[st].last {
			return fmt.Errorf("sqlite store: append events to session %q: event %d of %d has seq %d, not greater than %d: %w",
				e.SessionID, i+1, len(events), e.Seq, sessions[st].last, store.ErrSeqConflict)
		}
		s := &sessions[st]
		s.last = e.Seq
		if e.Type == statsEventType && len(e.Data) > 0 {
			s.stats = e.Data
		}
	}

	tx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite store: append events: begin: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	bump := tx.StmtContext(ctx, db.stmtBumpSession)
	for _, s := range sessions {
		res, err := bump.ExecContext(ctx, int64(s.last), now, nullJSON(s.stats), s.id, int64(s.first))
		if err != nil {
			return fmt.Errorf("sqlite store: append events to session %q: update last seq: %w", s.id, err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return db.whyNotAppended(ctx, tx, s, len(events))
		}
	}
	args := make([]any, 0, 5*min(len(events), insertRows))
	for rest := events; len(rest) > 0; {
		chunk := rest[:min(len(rest), insertRows)]
		rest = rest[len(chunk):]
		args = args[:0]
		for _, e := range chunk {
			t := nanos(e.Time)
			if t == 0 {
				t = now
			}
			args = append(args, e.SessionID, int64(e.Seq), e.Type, nullJSON(e.Data), t)
		}
		if _, err := tx.StmtContext(ctx, db.stmtInsertEvents[len(chunk)-1]).ExecContext(ctx, args...); err != nil {
			if isConstraint(err, codePrimaryKey) {
				// Only reachable if the stored events and last_seq disagree.
				err = fmt.Errorf("%w: %w", store.ErrSeqConflict, err)
			}
			return fmt.Errorf("sqlite store: append events to session %q: insert seq %d to %d: %w",
				chunk[0].SessionID, chunk[0].Seq, chunk[len(chunk)-1].Seq, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite store: append events: commit: %w", err)
	}
	return nil
}

// whyNotAppended tells why a session's last_seq did not move: the
// session is missing, or the batch's first event is not past its stored
// events.
func (db *DB) whyNotAppended(ctx context.Context, tx *sql.Tx, s appendState, n int) error {
	var last int64
	switch err := tx.StmtContext(ctx, db.stmtLastSeq).QueryRowContext(ctx, s.id).Scan(&last); {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("sqlite store: append events to session %q: %w", s.id, store.ErrNotFound)
	case err != nil:
		return fmt.Errorf("sqlite store: append events to session %q: read last seq: %w", s.id, err)
	}
	return fmt.Errorf("sqlite store: append events to session %q: a batch of %d has seq %d, not greater than %d: %w",
		s.id, n, s.first, last, store.ErrSeqConflict)
}

// Events returns the events of sessionID with seq > afterSeq, ascending, at
// most limit of them (limit <= 0: all). It returns an error wrapping
// store.ErrNotFound if the session does not exist.
func (db *DB) Events(ctx context.Context, sessionID string, afterSeq uint64, limit int) ([]store.Event, error) {
	if err := db.check("read events"); err != nil {
		return nil, err
	}
	after := int64(min(afterSeq, math.MaxInt64))
	lim := int64(-1) // no limit
	if limit > 0 {
		lim = int64(limit)
	}
	rows, err := db.reader.QueryContext(ctx,
		`SELECT seq, type, data, time FROM events WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
		sessionID, after, lim)
	if err != nil {
		return nil, fmt.Errorf("sqlite store: read events of session %q after %d: %w", sessionID, afterSeq, err)
	}
	defer rows.Close()
	list := make([]store.Event, 0, min(max(limit, 0), 256))
	for rows.Next() {
		var (
			e      = store.Event{SessionID: sessionID}
			seq, t int64
			data   []byte
		)
		if err := rows.Scan(&seq, &e.Type, &data, &t); err != nil {
			return nil, fmt.Errorf("sqlite store: read events of session %q after %d: %w", sessionID, afterSeq, err)
		}
		e.Seq, e.Data, e.Time = uint64(seq), data, fromNanos(t)
		list = append(list, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite store: read events of session %q after %d: %w", sessionID, afterSeq, err)
	}
	if len(list) == 0 {
		if err := db.sessionExists(ctx, sessionID); err != nil {
			return nil, fmt.Errorf("sqlite store: read events of session %q: %w", sessionID, err)
		}
	}
	return list, nil
}

// sessionExists returns nil if the session exists, else an error
// (wrapping store.ErrNotFound if it does not).
func (db *DB) sessionExists(ctx context.Context, id string) error {
	var one int
	err := db.reader.QueryRowContext(ctx, `SELECT 1 FROM sessions WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	}
	return err
}
