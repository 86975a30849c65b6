package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/hotplex/hotplex/store"
)

// Statements of AppendEvents, prepared once in Open.
const (
	sqlLastSeq     = `SELECT last_seq FROM sessions WHERE id = ?`
	sqlInsertEvent = `INSERT INTO events (session_id, seq, type, data, time) VALUES (?, ?, ?, ?, ?)`
	sqlBumpSession = `UPDATE sessions SET last_seq = ?, updated_at = max(updated_at, ?),
		stats = coalesce(json_extract(?, '$.stats'), stats) WHERE id = ?`
)

// appendState tracks one session of an AppendEvents batch.
type appendState struct {
	id    string
	last  uint64          // newest seq, stored or earlier in the batch
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

	tx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite store: append events: begin: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	lastSeq := tx.StmtContext(ctx, db.stmtLastSeq)
	insert := tx.StmtContext(ctx, db.stmtInsertEvent)
	bump := tx.StmtContext(ctx, db.stmtBumpSession)

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
			var last int64
			switch err := lastSeq.QueryRowContext(ctx, e.SessionID).Scan(&last); {
			case errors.Is(err, sql.ErrNoRows):
				return fmt.Errorf("sqlite store: append events to session %q: %w", e.SessionID, store.ErrNotFound)
			case err != nil:
				return fmt.Errorf("sqlite store: append events to session %q: read last seq: %w", e.SessionID, err)
			}
			sessions = append(sessions, appendState{id: e.SessionID, last: uint64(last)})
			st = len(sessions) - 1
		}
		s := &sessions[st]
		if e.Seq <= s.last {
			return fmt.Errorf("sqlite store: append events to session %q: event %d of %d has seq %d, not greater than %d: %w",
				e.SessionID, i+1, len(events), e.Seq, s.last, store.ErrSeqConflict)
		}
		t := nanos(e.Time)
		if t == 0 {
			t = now
		}
		if _, err := insert.ExecContext(ctx, e.SessionID, int64(e.Seq), e.Type, nullJSON(e.Data), t); err != nil {
			if isConstraint(err, codePrimaryKey) {
				// Only reachable if the stored events and last_seq disagree.
				err = fmt.Errorf("%w: %w", store.ErrSeqConflict, err)
			}
			return fmt.Errorf("sqlite store: append events to session %q: insert seq %d: %w", e.SessionID, e.Seq, err)
		}
		s.last = e.Seq
		if e.Type == statsEventType && len(e.Data) > 0 {
			s.stats = e.Data
		}
	}
	for _, s := range sessions {
		if _, err := bump.ExecContext(ctx, int64(s.last), now, nullJSON(s.stats), s.id); err != nil {
			return fmt.Errorf("sqlite store: append events to session %q: update last seq: %w", s.id, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite store: append events: commit: %w", err)
	}
	return nil
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
