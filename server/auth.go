package server

import (
	"bufio"
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/hotplex/hotplex/store"
)

type keyContext struct{}

// caller is the API key a request came with.
type caller struct {
	ID    string
	Admin bool
}

// auth lets a request through only with a valid API key
// (Authorization: Bearer <secret>; the scheme's case does not matter, RFC
// 7235), and puts the key in its context. Where basic is set (OpenCode's
// routes: its CLI and TUI only speak HTTP Basic) the key may come as the
// Basic password too, under any user name. A long request (a stream, a
// WebSocket) ends when its key is revoked or expires: an SSE stream with a
// final disconnect event naming the reason.
func (s *Server) auth(next http.HandlerFunc, long, basic bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secret, ok := bearer(r.Header.Get("Authorization"))
		if !ok && basic {
			_, secret, ok = r.BasicAuth()
		}
		if !ok && r.URL.Path == "/v1/ws" {
			// Browsers cannot set headers on a WebSocket handshake.
			secret, ok = r.URL.Query().Get("api_key"), true
		}
		if !ok || strings.TrimSpace(secret) == "" {
			writeError(w, errUnauthorized)
			return
		}
		k, err := s.keys.lookup(r.Context(), store.HashKey(strings.TrimSpace(secret)))
		if errors.Is(err, store.ErrNotFound) || (err == nil && !k.Valid(time.Now())) {
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
		ctx := context.WithValue(r.Context(), keyContext{}, c)
		if !long {
			next(w, r.WithContext(ctx))
			return
		}
		ctx, release := s.keys.track(ctx, k)
		defer release()
		sw := &startedWriter{ResponseWriter: w}
		next(sw, r.WithContext(ctx))
		if cause := context.Cause(ctx); keyGone(cause) && !sw.hijacked {
			if !sw.started {
				writeError(w, errorf(http.StatusUnauthorized, "unauthorized", cause.Error()))
				return
			}
			if strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
				sse := &sseWriter{w: w, rc: http.NewResponseController(w), started: true}
				_ = sse.notice("disconnect", map[string]string{"reason": cause.Error()})
			}
		}
	})
}

// bearer returns the credentials of an Authorization header of the Bearer
// scheme, in any case.
func bearer(h string) (string, bool) {
	scheme, cred, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimLeft(cred, " "), true
}

// startedWriter notes whether a response has begun, so that a stream cut
// short can still be answered properly.
type startedWriter struct {
	http.ResponseWriter
	started, hijacked bool
}

func (w *startedWriter) WriteHeader(code int) {
	w.started = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *startedWriter) Write(p []byte) (int, error) {
	w.started = true
	return w.ResponseWriter.Write(p)
}

func (w *startedWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	w.hijacked = true
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

// Unwrap lets http.ResponseController reach the connection (flushes and
// deadlines).
func (w *startedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

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
