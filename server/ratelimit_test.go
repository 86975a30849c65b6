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

func TestLimiterForgetsTheKeyIdleLongestAtItsBound(t *testing.T) {
	l := newLimiter(RateLimit{PerSecond: 0.001, Burst: 1})
	l.max = 3
	now := time.Unix(1000, 0)
	l.now = func() time.Time { return now }
	for _, k := range []string{"a", "b", "c"} {
		now = now.Add(time.Second)
		l.allow(k) // each bucket is empty now, so none is free to forget
	}
	now = now.Add(time.Second)
	if ok, _ := l.allow("a"); ok {
		t.Fatal("a's bucket refilled too early")
	}
	now = now.Add(time.Second)
	l.allow("d")
	if len(l.keys) != 3 {
		t.Fatalf("%d keys kept, bound 3", len(l.keys))
	}
	if _, ok := l.keys["b"]; ok {
		t.Fatal("b, idle longest, was kept")
	}
	for _, k := range []string{"a", "c", "d"} {
		if _, ok := l.keys[k]; !ok {
			t.Fatalf("%s was forgotten", k)
		}
	}
	if ok, wait := l.allow("a"); ok || wait <= 0 {
		t.Fatalf("a kept its limit: ok=%v wait=%s", ok, wait)
	}
}
