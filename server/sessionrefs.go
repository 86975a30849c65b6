package server

import (
	"context"
	"sync"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/store"
)

// sessionRefs remembers, for the routes that run turns, which session an
// owner's ID names. On a single node a session's identity (its key,
// owner, work directory) cannot change while the engine holds it: the
// engine forgets a session before its record is deleted, and a re-created
// ID is another engine session. So a prompt to a session the engine still
// holds, as the one remembered, need not read the store first, which
// costs a warm turn a database read while a writer commits its events.
//
// Only the identity of a remembered record is current; its event count,
// statistics and title are as they were when it was read. Nothing is
// remembered on a cluster, where another node may delete a session this
// node's engine still holds, nor on a store that is a database server:
// while it is down, a prompt is to be refused at once (503), not started
// with events that cannot be stored.
type sessionRefs struct {
	mu sync.Mutex
	m  map[sessionRef]heldRef
}

type sessionRef struct{ owner, id string }

// heldRef is a remembered record and the engine session it was seen
// with.
type heldRef struct {
	st   store.Session
	live *engine.Session
}

// sessionRefsMax bounds what is remembered; past it, the references
// start afresh.
const sessionRefsMax = 4096

func (r *sessionRefs) get(ref sessionRef) (heldRef, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	h, ok := r.m[ref]
	return h, ok
}

func (r *sessionRefs) put(ref sessionRef, h heldRef) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil || len(r.m) >= sessionRefsMax {
		r.m = make(map[sessionRef]heldRef)
	}
	r.m[ref] = h
}

// forget drops every reference to the session id.
func (r *sessionRefs) forget(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for ref, h := range r.m {
		if h.st.ID == id {
			delete(r.m, ref)
		}
	}
}

// ownedForTurn is ownedBy for the routes that start or steer turns: it
// answers from what it remembers while the engine holds the very session
// it remembered (see sessionRefs). Callers use only the record's
// identity.
func (s *Server) ownedForTurn(ctx context.Context, c caller, id string) (store.Session, error) {
	if s.opts.Cluster != nil || !store.IsLocal(s.opts.Store) {
		return s.ownedBy(ctx, c, id)
	}
	ref := sessionRef{c.ID, id}
	if h, ok := s.refs.get(ref); ok {
		if s.opts.Engine.Holding(h.live) {
			return h.st, nil
		}
	}
	st, err := s.ownedBy(ctx, c, id)
	if err != nil || st.Owner != c.ID {
		return st, err
	}
	if live, ok := s.opts.Engine.GetSession(st.ID); ok {
		s.refs.put(ref, heldRef{st: st, live: live})
	}
	return st, nil
}
