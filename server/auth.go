package server

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/hotplex/hotplex/store"
)

type keyContext struct{}

// caller is the API key a request came with.
type caller struct {
	ID    string
	Admin bool
}

// auth lets a request through only with a valid API key
// (Authorization: Bearer <secret>), and puts the key in its context.
func (s *Server) auth(next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secret, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok && r.URL.Path == "/v1/ws" {
			// Browsers cannot set headers on a WebSocket handshake.
			secret, ok = r.URL.Query().Get("api_key"), true
		}
		if !ok || strings.TrimSpace(secret) == "" {
			writeError(w, errUnauthorized)
			return
		}
		k, err := s.opts.Store.APIKeyByHash(r.Context(), store.HashKey(strings.TrimSpace(secret)))
		if errors.Is(err, store.ErrNotFound) {
			writeError(w, errUnauthorized)
			return
		}
		if err != nil {
			writeError(w, err)
			return
		}
		c := caller{ID: k.ID, Admin: k.Admin}
		if !s.limit(w, c) {
			return
		}
		next(w, r.WithContext(context.WithValue(r.Context(), keyContext{}, c)))
	})
}

func callerOf(r *http.Request) caller {
	c, _ := r.Context().Value(keyContext{}).(caller)
	return c
}

// owned returns the caller's session called id. Session IDs belong to
// their owner: id is looked up among the caller's sessions, and another
// owner's session of the same ID is not there. An admin key has IDs of its
// own like any other, and may besides name any owner's session by its
// daemon-wide key (the "key" of GET /v1/sessions?all=true).
func (s *Server) owned(r *http.Request, id string) (store.Session, error) {
	return s.ownedBy(r.Context(), callerOf(r), id)
}

func (s *Server) ownedBy(ctx context.Context, c caller, id string) (store.Session, error) {
	sess, err := s.opts.Store.FindSession(ctx, c.ID, id)
	if errors.Is(err, store.ErrNotFound) && c.Admin {
		return s.ownedKey(ctx, c, id)
	}
	if errors.Is(err, store.ErrNotFound) {
		return store.Session{}, errNotFound
	}
	if err != nil {
		return store.Session{}, err
	}
	return sess, nil
}

// ownedKey returns the session whose daemon-wide key is key (as events
// name it) if the caller owns it or is an admin. Sessions of other keys
// are reported as missing, not forbidden: their existence is nobody
// else's business.
func (s *Server) ownedKey(ctx context.Context, c caller, key string) (store.Session, error) {
	sess, err := s.opts.Store.GetSession(ctx, key)
	if errors.Is(err, store.ErrNotFound) || (err == nil && sess.Status == store.StatusDeleted) {
		return store.Session{}, errNotFound
	}
	if err != nil {
		return store.Session{}, err
	}
	if !c.Admin && sess.Owner != c.ID {
		return store.Session{}, errNotFound
	}
	return sess, nil
}
