package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hotplex/hotplex/store"
)

// A WebSocket or an SSE stream holds its API key's authority for as long
// as it is open, which may be hours. keyWatch knows the open ones by key
// and ends them when the key stops being valid: at once when this daemon
// revokes it (DELETE /v1/keys/{id}) or when its expiry time comes, and
// within KeyCheckInterval when another process revoked it on the same
// database (`hotplex keys revoke`), found by a check of the stored keys
// that runs only while something is open. New requests are held to the
// same: a key is read from the store at most once per KeyCheckInterval
// (see lookup).

var (
	errKeyRevoked = errors.New("API key revoked")
	errKeyExpired = errors.New("API key expired")
)

// keyGone reports whether a request ended because its key went.
func keyGone(cause error) bool {
	return errors.Is(cause, errKeyRevoked) || errors.Is(cause, errKeyExpired)
}

type keyWatch struct {
	store    store.Store
	interval time.Duration
	log      *slog.Logger

	mu   sync.Mutex
	open map[string]map[*watched]struct{} // by key ID
	stop chan struct{}                    // ends the running check; nil when none runs

	failing atomic.Bool // the last check could not read the keys

	// known holds the keys requests were authorized with lately, by
	// hash, so that a burst of requests reads its key once: an entry
	// serves for one interval, the time another process's revocation
	// may take to be noticed anyway; revocations through this daemon
	// drop it at once, and a key not found is never remembered.
	known map[string]knownKey
}

type knownKey struct {
	key store.APIKey
	at  time.Time
}

// knownKeysMax bounds the keys remembered: past it, they are forgotten
// all at once (the next requests read them again).
const knownKeysMax = 4096

// lookup returns the key whose secret hashes to hash, from memory when it
// was read within the interval.
func (kw *keyWatch) lookup(ctx context.Context, hash []byte) (store.APIKey, error) {
	now := time.Now()
	kw.mu.Lock()
	e, ok := kw.known[string(hash)]
	kw.mu.Unlock()
	if ok && now.Sub(e.at) < kw.interval {
		return e.key, nil
	}
	k, err := kw.store.APIKeyByHash(ctx, hash)
	if err != nil {
		return k, err
	}
	kw.mu.Lock()
	if len(kw.known) >= knownKeysMax {
		clear(kw.known)
	}
	kw.known[string(hash)] = knownKey{key: k, at: now}
	kw.mu.Unlock()
	return k, nil
}

type watched struct {
	cancel context.CancelCauseFunc
	expiry *time.Timer
}

func newKeyWatch(st store.Store, interval time.Duration, log *slog.Logger) *keyWatch {
	return &keyWatch{store: st, interval: interval, log: log, open: map[string]map[*watched]struct{}{}, known: map[string]knownKey{}}
}

// track returns a context that ends when k is revoked or expires, and the
// function that forgets it (call it when the request ends).
func (kw *keyWatch) track(parent context.Context, k store.APIKey) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	w := &watched{cancel: cancel}
	if k.ExpiresAt != nil {
		w.expiry = time.AfterFunc(time.Until(*k.ExpiresAt), func() { cancel(errKeyExpired) })
	}
	kw.mu.Lock()
	set := kw.open[k.ID]
	if set == nil {
		set = map[*watched]struct{}{}
		kw.open[k.ID] = set
	}
	set[w] = struct{}{}
	if kw.stop == nil {
		kw.stop = make(chan struct{})
		go kw.run(kw.stop)
	}
	kw.mu.Unlock()
	return ctx, func() {
		if w.expiry != nil {
			w.expiry.Stop()
		}
		cancel(context.Canceled)
		kw.mu.Lock()
		defer kw.mu.Unlock()
		delete(set, w)
		if len(set) == 0 && kw.open[k.ID] != nil && len(kw.open[k.ID]) == 0 {
			delete(kw.open, k.ID)
		}
		if len(kw.open) == 0 && kw.stop != nil {
			close(kw.stop)
			kw.stop = nil
		}
	}
}

// end ends every open request of key id, and forgets the key.
func (kw *keyWatch) end(id string, cause error) int {
	kw.mu.Lock()
	defer kw.mu.Unlock()
	for h, e := range kw.known {
		if e.key.ID == id {
			delete(kw.known, h)
		}
	}
	for w := range kw.open[id] {
		w.cancel(cause)
	}
	return len(kw.open[id])
}

// run checks the stored keys every interval until stop closes.
func (kw *keyWatch) run(stop chan struct{}) {
	t := time.NewTicker(kw.interval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			kw.check(stop)
		}
	}
}

// check ends the requests of keys that are no longer valid.
func (kw *keyWatch) check(stop chan struct{}) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	go func() {
		select {
		case <-stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	keys, err := kw.store.ListAPIKeys(ctx)
	if err != nil {
		// Said once per outage, not at every tick.
		if ctx.Err() == nil && kw.failing.CompareAndSwap(false, true) {
			kw.log.Warn("cannot check API keys for revocation", "err", err)
		}
		return
	}
	if kw.failing.CompareAndSwap(true, false) {
		kw.log.Info("checking API keys for revocation again")
	}
	now := time.Now()
	for _, k := range keys {
		if k.Valid(now) {
			continue
		}
		cause := errKeyExpired
		if k.RevokedAt != nil {
			cause = errKeyRevoked
		}
		if n := kw.end(k.ID, cause); n > 0 {
			kw.log.Info("ending the open streams of an API key", "key", k.ID, "reason", cause.Error(), "streams", n)
		}
	}
}

// revokeKey revokes an API key and ends its open streams at once (admin).
func (s *Server) revokeKey(w http.ResponseWriter, r *http.Request) {
	if !callerOf(r).Admin {
		writeError(w, errForbidden)
		return
	}
	id := r.PathValue("id")
	if err := s.opts.Store.RevokeAPIKey(r.Context(), id); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			err = errorf(http.StatusNotFound, "not_found", "no such API key")
		}
		writeError(w, err)
		return
	}
	n := s.keys.end(id, errKeyRevoked)
	s.log.Info("API key revoked", "key", id, "by", callerOf(r).ID, "streams_ended", n)
	w.WriteHeader(http.StatusNoContent)
}
