package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// A stream whose last write set a deadline that passed while it waited
// still ends whole: the chunked response's last chunk is written after
// the handler returns, under a deadline of its own.
func TestUnboundedStreamEndsWhole(t *testing.T) {
	h := Unbounded(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		w.Header().Set("Content-Type", "text/event-stream")
		// as sseWriter does: each write bounded, then the stream waits
		_ = rc.SetWriteDeadline(time.Now().Add(20 * time.Millisecond))
		if _, err := io.WriteString(w, "event: a\ndata: {}\n\n"); err != nil {
			t.Error(err)
		}
		_ = rc.Flush()
		time.Sleep(100 * time.Millisecond)
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("the stream was cut short after %q: %v", b, err)
	}
	if string(b) != "event: a\ndata: {}\n\n" {
		t.Fatalf("body %q", b)
	}
}
