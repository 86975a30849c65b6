package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
)

func TestOverloadedIs429WithRetryAfter(t *testing.T) {
	w := httptest.NewRecorder()
	err := fmt.Errorf("turn: %w", &engine.OverloadedError{Reason: "queue full", RetryAfter: 3 * time.Second})
	writeError(w, err)
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "3" || !strings.Contains(w.Body.String(), `"overloaded"`) {
		t.Fatalf("status %d, Retry-After %q, body %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	if got := errorCode(err); got != "overloaded" {
		t.Fatalf("errorCode = %q", got)
	}
}
