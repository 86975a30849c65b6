package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/store"
)

// TestTurnHTTPErrorTable: every route that answers a failed turn with an
// HTTP error (/v1 streams, the OpenCode message route) uses one table, so a
// firewall block is 403 everywhere, not 403 in one place and 500 in another.
func TestTurnHTTPErrorTable(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("turn: %w", err) }
	for _, tc := range []struct {
		err    error
		status int
		code   string
	}{
		{wrap(engine.ErrDangerBlocked), http.StatusForbidden, "danger_blocked"},
		{wrap(engine.ErrSessionBusy), http.StatusConflict, "busy"},
		{wrap(engine.ErrInterrupted), http.StatusConflict, "interrupted"},
		{wrap(engine.ErrSessionDeleted), http.StatusGone, "session_gone"},
		{wrap(engine.ErrStartFailed), http.StatusBadGateway, "start_failed"},
		{wrap(engine.ErrSessionDead), http.StatusBadGateway, "agent_died"},
		{wrap(engine.ErrTurnTimeout), http.StatusGatewayTimeout, "timeout"},
		{wrap(engine.ErrInvalidWorkDir), http.StatusBadRequest, "bad_request"},
		{wrap(context.Canceled), http.StatusServiceUnavailable, "interrupted"},
		{errorf(http.StatusTeapot, "mine", "kept as it is"), http.StatusTeapot, "mine"},
	} {
		var ae *apiError
		if !errors.As(turnHTTPError(tc.err), &ae) {
			t.Errorf("%v: not an API error", tc.err)
			continue
		}
		if ae.Status != tc.status || ae.Code != tc.code {
			t.Errorf("%v: %d %s, want %d %s", tc.err, ae.Status, ae.Code, tc.status, tc.code)
		}
	}
}

// A turn refused because the database is down (its prompt could not be
// queued) is 503 with Retry-After, as every other request then is, not
// 500.
func TestTurnOnAStoreThatIsDown(t *testing.T) {
	err := fmt.Errorf("enqueue prompt: %w: connection refused", store.ErrUnavailable)
	w := httptest.NewRecorder()
	writeError(w, turnHTTPError(err))
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), `"store_unavailable"`) {
		t.Fatalf("%d Retry-After %q %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	if got := errorCode(err); got != "store_unavailable" {
		t.Fatalf("the turn_error notice's code is %q", got)
	}
}
