package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/store"
)

func testSessionRoundTrip(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	stats, err := json.Marshal(event.SessionStatsData{SessionID: "s1", InputTokens: 10, ToolsUsed: []string{"Bash"}})
	if err != nil {
		t.Fatal(err)
	}
	created := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
	in := store.Session{
		ID:                "s1~n1",
		PublicID:          "s1",
		Nonce:             "n1",
		Owner:             "hpk_owner",
		Provider:          "claude",
		ProviderSessionID: "6f1c2b1e-0000-4000-8000-000000000001",
		WorkDir:           "/srv/repo",
		// Not in the order or spacing a JSON encoder would give: the
		// store hands back the bytes it was given.
		Options:   json.RawMessage(`{"model":"opus", "instructions":"be brief","a":[1, 2]}`),
		Status:    "ready",
		Title:     "Fix the build ✓",
		CreatedAt: created,
		UpdatedAt: created.Add(time.Minute),
		LastSeq:   0,
		Stats:     stats,
	}
	if err := db.PutSession(ctx, in); err != nil {
		t.Fatal(err)
	}
	got, err := db.GetSession(ctx, "s1~n1")
	if err != nil {
		t.Fatal(err)
	}
	assertSession(t, got, in)

	// Update: fields replaced, CreatedAt kept.
	up := in
	up.Status, up.Title, up.Options, up.Stats = "busy", "Renamed", nil, nil
	up.CreatedAt = time.Now()
	up.UpdatedAt = created.Add(time.Hour)
	if err := db.PutSession(ctx, up); err != nil {
		t.Fatal(err)
	}
	got, err = db.GetSession(ctx, "s1~n1")
	if err != nil {
		t.Fatal(err)
	}
	want := up
	want.CreatedAt = created
	assertSession(t, got, want)
	if got.Options != nil || got.Stats != nil {
		t.Fatalf("cleared JSON came back: options %q stats %q", got.Options, got.Stats)
	}
}

func assertSession(t *testing.T, got, want store.Session) {
	t.Helper()
	if got.ID != want.ID || got.PublicID != want.PublicID || got.Nonce != want.Nonce || got.Owner != want.Owner ||
		got.Provider != want.Provider || got.ProviderSessionID != want.ProviderSessionID || got.WorkDir != want.WorkDir ||
		got.Status != want.Status || got.Title != want.Title || got.LastSeq != want.LastSeq {
		t.Fatalf("session mismatch:\n got %+v\nwant %+v", got, want)
	}
	if !sameTime(got.CreatedAt, want.CreatedAt) || !sameTime(got.UpdatedAt, want.UpdatedAt) {
		t.Fatalf("times: got %v/%v, want %v/%v", got.CreatedAt, got.UpdatedAt, want.CreatedAt, want.UpdatedAt)
	}
	if got.CreatedAt.Location() != time.UTC || got.UpdatedAt.Location() != time.UTC {
		t.Fatalf("times not in UTC: %v %v", got.CreatedAt, got.UpdatedAt)
	}
	if string(got.Options) != string(want.Options) || string(got.Stats) != string(want.Stats) {
		t.Fatalf("JSON: got %s/%s, want %s/%s", got.Options, got.Stats, want.Options, want.Stats)
	}
}

func testSessionDefaults(t *testing.T, b Backend) {
	db := open(t, b)
	before := time.Now()
	s := PutSession(t, db, "s", "")
	if s.CreatedAt.Before(before.Add(-time.Millisecond)) || s.CreatedAt.After(time.Now()) {
		t.Fatalf("CreatedAt %v not now", s.CreatedAt)
	}
	if !s.UpdatedAt.Equal(s.CreatedAt) {
		t.Fatalf("UpdatedAt %v != CreatedAt %v", s.UpdatedAt, s.CreatedAt)
	}
	if s.LastSeq != 0 || s.Options != nil || s.Stats != nil || s.PublicID != "s" {
		t.Fatalf("unexpected defaults: %+v", s)
	}
}

func testGetSessionNotFound(t *testing.T, b Backend) {
	db := open(t, b)
	_, err := db.GetSession(context.Background(), "nope")
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
}

func testPutSessionInvalid(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	for name, s := range map[string]store.Session{
		"empty id":    {},
		"bad options": {ID: "a", Options: json.RawMessage(`{"model":`)},
		"bad stats":   {ID: "a", Stats: json.RawMessage(`nope`)},
		"huge seq":    {ID: "a", LastSeq: 1 << 63},
	} {
		if err := db.PutSession(ctx, s); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
	if list, err := db.ListSessions(ctx, ""); err != nil || len(list) != 0 {
		t.Fatalf("invalid sessions were stored: %v %v", list, err)
	}
}

func testListSessions(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	put := func(id, owner, status string, updated time.Duration) {
		t.Helper()
		err := db.PutSession(ctx, store.Session{ID: id, Owner: owner, Status: status,
			CreatedAt: base, UpdatedAt: base.Add(updated)})
		if err != nil {
			t.Fatal(err)
		}
	}
	put("a1", "alice", "ready", 1*time.Minute)
	put("a2", "alice", "dead", 3*time.Minute)
	put("a3", "alice", store.StatusDeleted, 9*time.Minute)
	put("b1", "bob", "busy", 2*time.Minute)
	put("x1", "", "ready", 4*time.Minute)
	// Same times: the ID decides, byte by byte.
	put("Z", "carol", "ready", 5*time.Minute)
	put("_", "carol", "ready", 5*time.Minute)
	put("a", "carol", "ready", 5*time.Minute)

	ids := func(owner string) []string {
		t.Helper()
		list, err := db.ListSessions(ctx, owner)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range list {
			out = append(out, s.ID)
		}
		return out
	}
	if got, want := ids(""), []string{"Z", "_", "a", "x1", "a2", "b1", "a1"}; !slices.Equal(got, want) {
		t.Errorf("all: %v, want %v", got, want)
	}
	if got, want := ids("alice"), []string{"a2", "a1"}; !slices.Equal(got, want) {
		t.Errorf("alice: %v, want %v", got, want)
	}
	if got := ids("dave"); len(got) != 0 {
		t.Errorf("dave: %v, want none", got)
	}
	// A deleted session is still there for GetSession.
	if s, err := db.GetSession(ctx, "a3"); err != nil || s.Status != store.StatusDeleted {
		t.Errorf("GetSession(a3) = %+v, %v", s, err)
	}
	// Appending to a1 makes it the newest.
	if err := db.AppendEvents(ctx, Events(t, "a1", 1, 1)...); err != nil {
		t.Fatal(err)
	}
	if got := ids("alice"); got[0] != "a1" {
		t.Errorf("after append: %v, want a1 first", got)
	}
	// An empty list is empty, not nil (it is served as JSON).
	if list, err := db.ListSessions(ctx, "nobody"); err != nil || list == nil {
		t.Errorf("ListSessions(nobody) = %#v, %v", list, err)
	}
}

func testDeleteSession(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	PutSession(t, db, "keep", "")
	PutSession(t, db, "gone", "")
	if err := db.AppendEvents(ctx, Events(t, "keep", 1, 5)...); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEvents(ctx, Events(t, "gone", 1, 5)...); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteSession(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.GetSession(ctx, "gone"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetSession after delete: %v", err)
	}
	if _, err := db.Events(ctx, "gone", 0, 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Events after delete: %v", err)
	}
	if es, err := db.Events(ctx, "keep", 0, 0); err != nil || len(es) != 5 {
		t.Fatalf("other session's events: %d, %v", len(es), err)
	}
	if err := db.DeleteSession(ctx, "gone"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v, want ErrNotFound", err)
	}
	// Re-creating the ID starts a fresh event history: the old events went
	// with the session.
	PutSession(t, db, "gone", "")
	if es, err := db.Events(ctx, "gone", 0, 0); err != nil || len(es) != 0 {
		t.Fatalf("re-created session has events %v, %v", Seqs(es), err)
	}
	if err := db.AppendEvents(ctx, Events(t, "gone", 1, 1)...); err != nil {
		t.Fatalf("append to re-created session: %v", err)
	}
}

// Two owners may give their sessions the same ID; one owner may not have
// two live sessions under one ID.
func testSessionIDsPerOwner(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	for _, s := range []store.Session{
		{ID: "demo~a1", PublicID: "demo", Nonce: "a1", Owner: "key-a"},
		{ID: "demo~b1", PublicID: "demo", Nonce: "b1", Owner: "key-b"},
	} {
		if err := db.PutSession(ctx, s); err != nil {
			t.Fatalf("put %s: %v", s.ID, err)
		}
	}
	for owner, want := range map[string]string{"key-a": "demo~a1", "key-b": "demo~b1"} {
		got, err := db.FindSession(ctx, owner, "demo")
		if err != nil || got.ID != want || got.PublicID != "demo" || got.Nonce != want[len(want)-2:] {
			t.Fatalf("find demo of %s = %+v, %v; want %s", owner, got, err, want)
		}
	}
	if _, err := db.FindSession(ctx, "key-c", "demo"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("find demo of a third owner: %v, want ErrNotFound", err)
	}
	err := db.PutSession(ctx, store.Session{ID: "demo~a2", PublicID: "demo", Nonce: "a2", Owner: "key-a"})
	if !errors.Is(err, store.ErrExists) {
		t.Fatalf("second live demo of key-a: %v, want ErrExists", err)
	}
	if _, err := db.GetSession(ctx, "demo~a2"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the refused session was stored: %v", err)
	}
	// Updating the existing row is no conflict.
	if err := db.PutSession(ctx, store.Session{ID: "demo~a1", PublicID: "demo", Nonce: "a1", Owner: "key-a", Title: "t"}); err != nil {
		t.Fatal(err)
	}
	// A deleted-status session does not hold its public ID, nor is it found.
	if err := db.PutSession(ctx, store.Session{ID: "demo~b1", PublicID: "demo", Nonce: "b1", Owner: "key-b", Status: store.StatusDeleted}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.FindSession(ctx, "key-b", "demo"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("find a deleted session: %v, want ErrNotFound", err)
	}
	if err := db.PutSession(ctx, store.Session{ID: "demo~b2", PublicID: "demo", Nonce: "b2", Owner: "key-b"}); err != nil {
		t.Fatalf("re-create over a deleted-status session: %v", err)
	}
	// Once deleted, the ID is free again, with a new key and nonce.
	if err := db.DeleteSession(ctx, "demo~a1"); err != nil {
		t.Fatal(err)
	}
	if err := db.PutSession(ctx, store.Session{ID: "demo~a2", PublicID: "demo", Nonce: "a2", Owner: "key-a"}); err != nil {
		t.Fatal(err)
	}
	if got, err := db.FindSession(ctx, "key-a", "demo"); err != nil || got.ID != "demo~a2" {
		t.Fatalf("re-created demo of key-a = %+v, %v", got, err)
	}
	// A session put without a public ID is known by its ID.
	PutSession(t, db, "plain", "key-a")
	if got, err := db.FindSession(ctx, "key-a", "plain"); err != nil || got.PublicID != "plain" {
		t.Fatalf("find plain = %+v, %v", got, err)
	}
}
