package postgres

import (
	"context"
	"encoding/json"
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

// sqlAppend is AppendEvents in one statement, so one round trip and an
// implicit transaction:
//
//   - locked takes the batch's sessions' rows, in ID order so that two
//     writers with overlapping batches queue rather than deadlock, with
//     FOR NO KEY UPDATE since only non-key columns change (it does not
//     block the key-share locks that inserting events takes). A writer
//     that had to wait reads the row as the other writer left it.
//   - ok holds when every session was found and the batch's first seq of
//     each is above its LastSeq (the order within the batch is checked
//     before the statement is sent).
//   - Only then are the events inserted and the sessions updated; the
//     UPDATE, which scans with the statement's snapshot, goes on to the
//     newest version of a row it has locked.
//
// The locked rows come back, so that a refused batch can be told apart:
// a missing session or a seq conflict, and with which LastSeq.
//
// $1 session IDs, $2 their first seq in the batch, $3 their last, $4
// their new stats or NULL; $5-$9 the events' columns; $10 now.
const sqlAppend = `WITH locked AS (
	SELECT id, last_seq FROM sessions WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE
), ok AS (
	SELECT count(*) = cardinality($1::text[]) AS ok
	FROM locked JOIN unnest($1::text[], $2::bigint[]) AS b (id, first_seq) USING (id)
	WHERE b.first_seq > locked.last_seq
), inserted AS (
	INSERT INTO events (session_id, seq, type, data, time)
	SELECT e.* FROM unnest($5::text[], $6::bigint[], $7::text[], $8::json[], $9::timestamptz[]) AS e, ok
	WHERE ok.ok
), updated AS (
	UPDATE sessions AS s SET last_seq = u.last_seq, updated_at = greatest(s.updated_at, $10),
		stats = coalesce(u.stats, s.stats)
	FROM unnest($1::text[], $3::bigint[], $4::json[]) AS u (id, last_seq, stats), ok
	WHERE s.id = u.id AND ok.ok
)
SELECT id, last_seq FROM locked`

// pkEvents is the primary key of events.
const pkEvents = "events_pkey"

// appendState tracks one session of an AppendEvents batch.
type appendState struct {
	id     string
	first  uint64          // the batch's first seq of the session
	last   uint64          // the batch's newest seq of the session
	stats  json.RawMessage // data of the batch's newest session_stats event
	found  bool            // the session exists
	stored uint64          // its LastSeq when the batch was refused
}

// AppendEvents stores events atomically: all of them or none. Each event's
// seq must be greater than its session's LastSeq and than the previous
// event of that session in the batch, or the call fails with an error
// wrapping store.ErrSeqConflict; an unknown session fails it with
// store.ErrNotFound. The sessions' LastSeq and UpdatedAt are updated. A
// zero event Time is stored as now.
//
// Writers appending to one session (two goroutines, or two daemons) are
// served one after the other, each seeing the LastSeq the previous one
// left (see sqlAppend); the primary key of events backs that up.
func (db *DB) AppendEvents(ctx context.Context, events ...store.Event) error {
	if err := db.check("append events"); err != nil {
		return err
	}
	if len(events) == 0 {
		return nil
	}
	for i, e := range events {
		if err := e.Validate(); err != nil {
			return fmt.Errorf("postgres store: append events: event %d of %d (session %q, seq %d): %w",
				i+1, len(events), e.SessionID, e.Seq, err)
		}
	}
	now := time.Now()

	// Batches nearly always hold one session; a slice beats a map here.
	sessions := make([]appendState, 0, 1)
	var (
		sids  = make([]string, len(events))
		seqs  = make([]int64, len(events))
		types = make([]string, len(events))
		data  = make([][]byte, len(events))
		times = make([]time.Time, len(events))
	)
	for i, e := range events {
		st := slices.IndexFunc(sessions, func(s appendState) bool { return s.id == e.SessionID })
		if st < 0 {
			sessions = append(sessions, appendState{id: e.SessionID, first: e.Seq})
			st = len(sessions) - 1
		} else if s := sessions[st]; e.Seq <= s.last {
			return fmt.Errorf("postgres store: append events to session %q: event %d of %d has seq %d, not greater than %d: %w",
				e.SessionID, i+1, len(events), e.Seq, s.last, store.ErrSeqConflict)
		}
		s := &sessions[st]
		s.last = e.Seq
		if e.Type == statsEventType && len(e.Data) > 0 {
			s.stats = e.Data
		}
		sids[i], seqs[i], types[i], data[i], times[i] = e.SessionID, int64(e.Seq), e.Type, e.Data, e.Time
		if e.Time.IsZero() {
			times[i] = now
		}
		if len(e.Data) == 0 {
			data[i] = nil // NULL, as an empty RawMessage would not be JSON
		}
	}
	var (
		ids    = make([]string, len(sessions))
		firsts = make([]int64, len(sessions))
		lasts  = make([]int64, len(sessions))
		stats  = make([][]byte, len(sessions))
	)
	for i, s := range sessions {
		ids[i], firsts[i], lasts[i], stats[i] = s.id, int64(s.first), int64(s.last), statsOf(s.stats)
	}

	rows, _ := db.pool.Query(ctx, sqlAppend, ids, firsts, lasts, stats, sids, seqs, types, data, times, now)
	var (
		id     string
		stored int64
	)
	_, err := pgx.ForEachRow(rows, []any{&id, &stored}, func() error {
		if i := slices.IndexFunc(sessions, func(s appendState) bool { return s.id == id }); i >= 0 {
			sessions[i].found, sessions[i].stored = true, uint64(stored)
		}
		return nil
	})
	if uniqueViolation(err, pkEvents) {
		// Only reachable if stored events and last_seq disagree.
		return fmt.Errorf("postgres store: %s: %w: %w", describeBatch(sessions), store.ErrSeqConflict, err)
	}
	if err != nil {
		return db.fail(describeBatch(sessions), err)
	}
	// The statement wrote nothing if a session is missing or behind a
	// seq; the first event of the batch that meets either says which.
	for i, e := range events {
		s := sessions[slices.IndexFunc(sessions, func(s appendState) bool { return s.id == e.SessionID })]
		switch {
		case !s.found:
			return fmt.Errorf("postgres store: append events to session %q: %w", e.SessionID, store.ErrNotFound)
		case s.first <= s.stored:
			return fmt.Errorf("postgres store: append events to session %q: event %d of %d has seq %d, not greater than %d: %w",
				e.SessionID, i+1, len(events), e.Seq, s.stored, store.ErrSeqConflict)
		}
	}
	return nil
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
