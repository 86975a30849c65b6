package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hotplex/hotplex/store"
)

// statsEventType is the event whose "stats" member is a session's
// statistics.
const statsEventType = "session_stats"

// The statements of AppendEvents. The sessions of a batch are locked in
// ID order (the ORDER BY comes before the lock), so two writers with
// overlapping batches wait for each other rather than deadlock. The lock
// is FOR NO KEY UPDATE because only non-key columns change: it does not
// block the key-share locks that inserting events takes on their session.
const (
	sqlLockSessions = `SELECT id, last_seq FROM sessions WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE`
	sqlInsertEvents = `INSERT INTO events (session_id, seq, type, data, time)
		SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::json[], $5::timestamptz[])`
	sqlBumpSessions = `UPDATE sessions AS s SET last_seq = u.last_seq, updated_at = greatest(s.updated_at, $4),
			stats = coalesce(u.stats, s.stats)
		FROM unnest($1::text[], $2::bigint[], $3::json[]) AS u (id, last_seq, stats)
		WHERE s.id = u.id`
)

// pkEvents is the primary key of events.
const pkEvents = "events_pkey"

// appendState tracks one session of an AppendEvents batch.
type appendState struct {
	id    string
	found bool            // the session's row is locked
	last  uint64          // newest seq, stored or earlier in the batch
	stats json.RawMessage // data of the batch's newest session_stats event
}

// AppendEvents stores events in one transaction: all of them or none. Each
// event's seq must be greater than its session's LastSeq and than the
// previous event of that session in the batch, or the call fails with an
// error wrapping store.ErrSeqConflict; an unknown session fails it with
// store.ErrNotFound. The sessions' LastSeq and UpdatedAt are updated. A
// zero event Time is stored as now.
//
// The sessions' rows are locked before their LastSeq is read, so two
// writers (two goroutines, or two daemons) appending to one session are
// served one after the other, and the second sees the first's LastSeq.
// The primary key of events backs that up.
func (db *DB) AppendEvents(ctx context.Context, events ...store.Event) error {
	if err := db.check("append events"); err != nil {
		return err
	}
	if len(events) == 0 {
		return nil
	}
	for i, e := range events {
		if err := validateEvent(e); err != nil {
			return fmt.Errorf("postgres store: append events: event %d of %d (session %q, seq %d): %w",
				i+1, len(events), e.SessionID, e.Seq, err)
		}
	}
	now := time.Now()

	// Batches nearly always hold one session; a slice beats a map here.
	sessions := make([]appendState, 0, 1)
	index := make([]int, len(events)) // event i belongs to sessions[index[i]]
	for i, e := range events {
		st := slices.IndexFunc(sessions, func(s appendState) bool { return s.id == e.SessionID })
		if st < 0 {
			sessions = append(sessions, appendState{id: e.SessionID})
			st = len(sessions) - 1
		}
		index[i] = st
	}
	ids := make([]string, len(sessions))
	for i, s := range sessions {
		ids[i] = s.id
	}

	var (
		seqs  = make([]int64, len(events))
		types = make([]string, len(events))
		data  = make([][]byte, len(events))
		times = make([]time.Time, len(events))
		sids  = make([]string, len(events))
	)
	for i, e := range events {
		sids[i], seqs[i], types[i], data[i], times[i] = e.SessionID, int64(e.Seq), e.Type, e.Data, e.Time
		if e.Time.IsZero() {
			times[i] = now
		}
		if len(e.Data) == 0 {
			data[i] = nil // NULL, as an empty RawMessage would not be JSON
		}
	}

	err := db.inTx(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, sqlLockSessions, ids)
		var (
			id   string
			last int64
		)
		_, err := pgx.ForEachRow(rows, []any{&id, &last}, func() error {
			if i := slices.IndexFunc(sessions, func(s appendState) bool { return s.id == id }); i >= 0 {
				sessions[i].found, sessions[i].last = true, uint64(last)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("lock sessions: %w", err)
		}
		for i, e := range events {
			s := &sessions[index[i]]
			if !s.found {
				return fmt.Errorf("session %q: %w", e.SessionID, store.ErrNotFound)
			}
			if e.Seq <= s.last {
				return fmt.Errorf("session %q: event %d of %d has seq %d, not greater than %d: %w",
					e.SessionID, i+1, len(events), e.Seq, s.last, store.ErrSeqConflict)
			}
			s.last = e.Seq
			if e.Type == statsEventType && len(e.Data) > 0 {
				s.stats = e.Data
			}
		}
		lasts := make([]int64, len(sessions))
		stats := make([][]byte, len(sessions))
		for i, s := range sessions {
			lasts[i] = int64(s.last)
			stats[i] = statsOf(s.stats)
		}
		// One round trip for both statements.
		b := &pgx.Batch{}
		b.Queue(sqlInsertEvents, sids, seqs, types, data, times)
		b.Queue(sqlBumpSessions, ids, lasts, stats, now)
		br := tx.SendBatch(ctx, b)
		if _, err := br.Exec(); err != nil {
			_ = br.Close()
			if uniqueViolation(err, pkEvents) {
				// Only reachable if stored events and last_seq disagree.
				return fmt.Errorf("insert: %w: %w", store.ErrSeqConflict, err)
			}
			return fmt.Errorf("insert: %w", err)
		}
		if _, err := br.Exec(); err != nil {
			_ = br.Close()
			return fmt.Errorf("update last seq: %w", err)
		}
		return br.Close()
	})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrSeqConflict):
		return fmt.Errorf("postgres store: append events to %w", err)
	default:
		return db.fail(describeBatch(sessions), err)
	}
}

// describeBatch names the sessions of a batch for an error message.
func describeBatch(sessions []appendState) string {
	if len(sessions) == 1 {
		return fmt.Sprintf("append events to session %q", sessions[0].id)
	}
	ids := make([]string, len(sessions))
	for i, s := range sessions {
		ids[i] = fmt.Sprintf("%q", s.id)
	}
	return fmt.Sprintf("append events to sessions %v", ids)
}

// statsOf returns the "stats" member of a session_stats event's data, or
// nil (the session keeps the statistics it has) when there is none.
func statsOf(data json.RawMessage) []byte {
	if len(data) == 0 {
		return nil
	}
	var ev struct {
		Stats json.RawMessage `json:"stats"`
	}
	if err := json.Unmarshal(data, &ev); err != nil || len(ev.Stats) == 0 || string(ev.Stats) == "null" {
		return nil
	}
	return ev.Stats
}

func validateEvent(e store.Event) error {
	switch {
	case e.SessionID == "":
		return fmt.Errorf("%w: empty session ID", store.ErrInvalid)
	case e.Seq == 0 || e.Seq > math.MaxInt64:
		return fmt.Errorf("%w: seq %d out of range", store.ErrInvalid, e.Seq)
	case e.Type == "":
		return fmt.Errorf("%w: empty event type", store.ErrInvalid)
	case len(e.Data) > 0 && !json.Valid(e.Data):
		return fmt.Errorf("%w: data is not valid JSON", store.ErrInvalid)
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
	var lim any // NULL: no limit
	if limit > 0 {
		lim = int64(limit)
	}
	op := func() string { return fmt.Sprintf("read events of session %q after %d", sessionID, afterSeq) }
	rows, err := db.pool.Query(ctx,
		`SELECT seq, type, data, time FROM events WHERE session_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
		sessionID, after, lim)
	if err != nil {
		return nil, db.fail(op(), err)
	}
	list := make([]store.Event, 0, min(max(limit, 0), 256))
	var (
		seq  int64
		typ  string
		data []byte
		t    time.Time
	)
	_, err = pgx.ForEachRow(rows, []any{&seq, &typ, &data, &t}, func() error {
		list = append(list, store.Event{SessionID: sessionID, Seq: uint64(seq), Type: typ, Data: rawJSON(data), Time: t.UTC()})
		return nil
	})
	if err != nil {
		return nil, db.fail(op(), err)
	}
	if len(list) == 0 {
		var exists bool
		if err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM sessions WHERE id = $1)`, sessionID).Scan(&exists); err != nil {
			return nil, db.fail(op(), err)
		}
		if !exists {
			return nil, fmt.Errorf("postgres store: read events of session %q: %w", sessionID, store.ErrNotFound)
		}
	}
	return list, nil
}
