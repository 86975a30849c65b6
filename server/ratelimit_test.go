package server

import (
	"testing"
	"time"
)

func TestLimiterBucket(t *testing.T) {
	l := newLimiter(RateLimit{PerSecond: 2, Burst: 3})
	now := time.Unix(1000, 0)
	l.now = func() time.Time { return now }
	for i := range 3 {
		if ok, _ := l.allow("a"); !ok {
			t.Fatalf("request %d within the burst refused", i)
		}
	}
	ok, wait := l.allow("a")
	if ok || wait != 500*time.Millisecond {
		t.Fatalf("over the burst: ok=%v wait=%s", ok, wait)
	}
	if ok, _ := l.allow("b"); !ok {
		t.Fatal("another key is limited by a's requests")
	}
	now = now.Add(500 * time.Millisecond)
	if ok, _ := l.allow("a"); !ok {
		t.Fatal("no token after the refill time")
	}
	now = now.Add(time.Hour)
	if ok, _ := l.allow("c"); !ok || len(l.keys) != 1 {
		t.Fatalf("idle full buckets not forgotten: %d kept", len(l.keys))
	}
	if newLimiter(RateLimit{}) != nil {
		t.Fatal("a zero rate must mean no limit")
	}
}
