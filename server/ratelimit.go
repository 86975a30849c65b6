package server

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimit bounds how fast one API key may call the API: a token bucket
// refilled at PerSecond tokens a second holding at most Burst.
type RateLimit struct {
	PerSecond float64
	Burst     int
}

// limiterKeys bounds the keys the limiter remembers; beyond it the key
// idle longest is forgotten (a forgotten key starts again with a full
// bucket, which is what an idle key has anyway).
const limiterKeys = 10000

// limiter keeps one token bucket per API key.
type limiter struct {
	rate  RateLimit
	max   int
	now   func() time.Time
	mu    sync.Mutex
	keys  map[string]*keyLimiter
	sweep time.Time
}

type keyLimiter struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLimiter(r RateLimit) *limiter {
	if r.PerSecond <= 0 {
		return nil
	}
	if r.Burst < 1 {
		r.Burst = int(math.Ceil(r.PerSecond))
	}
	return &limiter{rate: r, max: limiterKeys, now: time.Now, keys: map[string]*keyLimiter{}}
}

// allow takes a token for key, or reports how long until one is there.
func (l *limiter) allow(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	k, ok := l.keys[key]
	if !ok {
		l.evict(now)
		k = &keyLimiter{lim: rate.NewLimiter(rate.Limit(l.rate.PerSecond), l.rate.Burst)}
		l.keys[key] = k
	}
	k.seen = now
	r := k.lim.ReserveN(now, 1)
	if wait := r.DelayFrom(now); wait > 0 {
		r.CancelAt(now) // a refused request costs nothing
		return false, wait
	}
	return true, 0
}

// evict makes room for a new key: keys whose buckets are full again cost
// nothing to forget; if the map is still at its bound, the key idle
// longest goes.
func (l *limiter) evict(now time.Time) {
	if now.Sub(l.sweep) > time.Minute || len(l.keys) >= l.max {
		l.sweep = now
		for key, k := range l.keys {
			if k.lim.TokensAt(now) >= float64(l.rate.Burst) {
				delete(l.keys, key)
			}
		}
	}
	for len(l.keys) >= l.max {
		var oldest string
		var at time.Time
		for key, k := range l.keys {
			if oldest == "" || k.seen.Before(at) {
				oldest, at = key, k.seen
			}
		}
		delete(l.keys, oldest)
	}
}

// limit answers 429 with Retry-After when the caller's key is over its rate.
func (s *Server) limit(w http.ResponseWriter, c caller) bool {
	if s.limiter == nil {
		return true
	}
	ok, wait := s.limiter.allow(c.ID)
	if ok {
		return true
	}
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
	writeError(w, errorf(http.StatusTooManyRequests, "rate_limited", "too many requests for this API key; retry after "+wait.Round(time.Millisecond).String()))
	return false
}
