package server

import (
	"context"

	"github.com/hotplex/hotplex/store"
)

// syncedStore is the store as the server reads it when the recorder
// delivers events before it stores them (see Recorder): a read of a
// session or of its events first waits for the events delivered before
// it, so no client reads less than it was shown. Deleting a session
// first stores what is delivered of it, so that none of its events is
// stored after it, into a session made again with its ID.
type syncedStore struct {
	store.Store
	rec *Recorder
}

// syncedDatabase is syncedStore over a whole store.Database.
type syncedDatabase struct {
	store.Database
	synced syncedStore
}

var _ store.Database = syncedDatabase{}

// synced wraps st for a recorder that stores after it delivers; st is
// returned as it is otherwise.
func synced(st store.Store, rec *Recorder) store.Store {
	if rec == nil || rec.lag == nil || st == nil {
		return st
	}
	s := syncedStore{Store: st, rec: rec}
	if db, ok := st.(store.Database); ok {
		return syncedDatabase{Database: db, synced: s}
	}
	return s
}

func (s syncedStore) GetSession(ctx context.Context, id string) (store.Session, error) {
	if err := s.rec.Sync(ctx, id); err != nil {
		return store.Session{}, err
	}
	return s.Store.GetSession(ctx, id)
}

// FindSession reads the session, then again if it had events on their
// way to the store, or if events were stored while it was read.
func (s syncedStore) FindSession(ctx context.Context, owner, publicID string) (store.Session, error) {
	m := s.rec.lag.mark()
	st, err := s.Store.FindSession(ctx, owner, publicID)
	if err != nil || s.rec.lag.current(st.ID, m) {
		return st, err
	}
	if err := s.rec.Sync(ctx, st.ID); err != nil {
		return store.Session{}, err
	}
	return s.Store.FindSession(ctx, owner, publicID)
}

func (s syncedStore) ListSessions(ctx context.Context, owner string) ([]store.Session, error) {
	if err := s.rec.Sync(ctx, ""); err != nil {
		return nil, err
	}
	return s.Store.ListSessions(ctx, owner)
}

func (s syncedStore) Events(ctx context.Context, sessionID string, afterSeq uint64, limit int) ([]store.Event, error) {
	if err := s.rec.Sync(ctx, sessionID); err != nil {
		return nil, err
	}
	return s.Store.Events(ctx, sessionID, afterSeq, limit)
}

func (s syncedStore) DeleteSession(ctx context.Context, id string) error {
	if err := s.rec.Sync(ctx, id); err != nil {
		return err
	}
	return s.Store.DeleteSession(ctx, id)
}

func (s syncedDatabase) GetSession(ctx context.Context, id string) (store.Session, error) {
	return s.synced.GetSession(ctx, id)
}

func (s syncedDatabase) FindSession(ctx context.Context, owner, publicID string) (store.Session, error) {
	return s.synced.FindSession(ctx, owner, publicID)
}

func (s syncedDatabase) ListSessions(ctx context.Context, owner string) ([]store.Session, error) {
	return s.synced.ListSessions(ctx, owner)
}

func (s syncedDatabase) Events(ctx context.Context, sessionID string, afterSeq uint64, limit int) ([]store.Event, error) {
	return s.synced.Events(ctx, sessionID, afterSeq, limit)
}

func (s syncedDatabase) DeleteSession(ctx context.Context, id string) error {
	return s.synced.DeleteSession(ctx, id)
}
