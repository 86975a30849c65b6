package server

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// RateLimit bounds how fast one API key may call the API: a token bucket
// refilled at PerSecond tokens a second holding at most Burst.
type RateLimit struct {
	PerSecond float64
	Burst     int
}

// limiter keeps one bucket per key. (golang.org/x/time/rate would do the
// same; a bucket is small enough to keep the dependency out.)
type limiter struct {
	rate  RateLimit
	now   func() time.Time
	mu    sync.Mutex
	keys  map[string]*bucket
	sweep time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(r RateLimit) *limiter {
	if r.PerSecond <= 0 {
		return nil
	}
	if r.Burst < 1 {
		r.Burst = int(math.Ceil(r.PerSecond))
	}
	return &limiter{rate: r, now: time.Now, keys: map[string]*bucket{}}
}

// allow takes a token for key, or reports how long until one is there.
func (l *limiter) allow(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b, ok := l.keys[key]
	if !ok {
		b = &bucket{tokens: float64(l.rate.Burst), last: now}
		l.keys[key] = b
	}
	b.tokens = min(float64(l.rate.Burst), b.tokens+now.Sub(b.last).Seconds()*l.rate.PerSecond)
	b.last = now
	if now.Sub(l.sweep) > time.Minute {
		// Forget keys whose buckets are full again; they cost nothing.
		l.sweep = now
		for k, kb := range l.keys {
			if k != key && kb.tokens+now.Sub(kb.last).Seconds()*l.rate.PerSecond >= float64(l.rate.Burst) {
				delete(l.keys, k)
			}
		}
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration((1 - b.tokens) / l.rate.PerSecond * float64(time.Second))
	return false, wait
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
