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

// owned returns the stored session if the caller may see it. Sessions of
// other keys are reported as missing, not forbidden: their existence is
// nobody else's business.
func (s *Server) owned(r *http.Request, id string) (store.Session, error) {
	return s.ownedBy(r.Context(), callerOf(r), id)
}

func (s *Server) ownedBy(ctx context.Context, c caller, id string) (store.Session, error) {
	sess, err := s.opts.Store.GetSession(ctx, id)
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
