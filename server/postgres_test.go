package server_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/hotplex/hotplex/internal/pgtest"
	"github.com/hotplex/hotplex/testkit"
)

// The daemon on PostgreSQL: a representative few of the package's tests
// run again with the store a cluster shares, the rest cover the server
// on SQLite alone.

func TestTenancyMatrixOnPostgres(t *testing.T) {
	testTenancyMatrix(t, testkit.DaemonOptions{Postgres: pg.NewDatabase(t)})
}

func TestRestartKeepsSessionsAndResumesOnPostgres(t *testing.T) {
	testRestartKeepsSessionsAndResumes(t, testkit.DaemonOptions{Postgres: pg.NewDatabase(t)})
}

// With PostgreSQL down, the daemon says it is not ready and why, refuses
// requests with 503 and Retry-After instead of failing them halfway, and
// holds the events of a running turn until the database is back: no
// client sees an event that is not stored. Back up, the turn finishes,
// new turns run, and the store holds every event a client saw, numbered
// without a gap.
func TestPostgresOutage(t *testing.T) {
	ctx := context.Background()
	// A server of its own: the package's is shared by other tests.
	own, err := pgtest.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = own.Stop() })
	d := newDaemonWith(t, testkit.DaemonOptions{Postgres: own.NewDatabase(t)})
	d.Create(t, d.alice, map[string]any{"id": "s"})
	seen := d.turn(t, d.alice, "s", "before the outage")

	// A turn that is still running when the database goes away.
	resp := d.Do(t, "POST", "/v1/sessions/s/messages", d.alice, map[string]string{"prompt": "sleep:1500 during the outage"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("turn: %d", resp.StatusCode)
	}
	events := make(chan sseEvent, 64)
	go func() {
		defer close(events)
		readSSE(t, resp.Body, func(e sseEvent) bool {
			events <- e
			return e.Type == "result"
		})
	}()
	seen = append(seen, <-events)
	if err := own.Halt(); err != nil {
		t.Fatal(err)
	}

	ready := func() (int, map[string]string) {
		resp := d.Do(t, "GET", "/readyz", "", nil)
		return resp.StatusCode, testkit.Decode[map[string]string](t, resp)
	}
	if code, body := ready(); code != http.StatusServiceUnavailable || body["error"] == "" {
		t.Fatalf("readyz with PostgreSQL down: %d %v", code, body)
	}
	for _, req := range []struct {
		method, path string
		body         map[string]string
	}{{"POST", "/v1/sessions/s/messages", map[string]string{"prompt": "refused"}}, {"GET", "/v1/sessions", nil}, {"POST", "/v1/sessions", map[string]string{"id": "refused"}}} {
		resp := d.Do(t, req.method, req.path, d.alice, req.body)
		body := testkit.Decode[map[string]map[string]string](t, resp)
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || body["error"]["code"] != "store_unavailable" {
			t.Fatalf("%s %s with PostgreSQL down: %d Retry-After %q %v", req.method, req.path, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
	}
	// The running turn's next events reach the recorder, which cannot
	// store them: readiness says so, and the client has not seen them.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		code, body := ready()
		if body["status"] == "storage failing" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the turn's events never reached the recorder: readyz %d %v", code, body)
		}
	}
	// Events delivered before the database went away may still be on
	// their way to us; the turn's result, after the sleep, is not.
	for drained := false; !drained; {
		select {
		case e := <-events:
			if e.Type == "result" {
				t.Fatalf("the turn's result (event %d) was delivered while PostgreSQL was down", e.ID)
			}
			seen = append(seen, e)
		default:
			drained = true
		}
	}

	if err := own.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	for e := range events {
		seen = append(seen, e)
	}
	if last := seen[len(seen)-1]; last.Type != "result" {
		t.Fatalf("the turn that ran through the outage ended with %s", last.Type)
	}
	if code, body := ready(); code != http.StatusOK {
		t.Fatalf("readyz with PostgreSQL back: %d %v", code, body)
	}
	seen = append(seen, d.turn(t, d.alice, "s", "after the outage")...)

	key, _ := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/v1/sessions/s", d.alice, nil))["key"].(string)
	stored, err := d.Store.Events(ctx, key, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != len(seen) {
		t.Fatalf("stored %d events, clients saw %d", len(stored), len(seen))
	}
	for i, e := range stored {
		if e.Seq != uint64(i+1) || seen[i].ID != e.Seq || seen[i].Type != e.Type {
			t.Fatalf("event %d: stored seq %d %s, seen %d %s", i, e.Seq, e.Type, seen[i].ID, seen[i].Type)
		}
	}
}
