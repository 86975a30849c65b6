package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hotplex/hotplex/store"
)

func testAPIKeys(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)

	if list, err := db.ListAPIKeys(ctx); err != nil || list == nil || len(list) != 0 {
		t.Fatalf("keys of an empty store: %#v, %v", list, err)
	}
	admin, adminSecret := NewKey(t, "ops", true)
	admin.CreatedAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	user, userSecret := NewKey(t, "ci", false)
	for _, k := range []store.APIKey{admin, user} {
		if err := db.PutAPIKey(ctx, k); err != nil {
			t.Fatal(err)
		}
	}

	got, err := db.APIKeyByHash(ctx, store.HashKey(adminSecret))
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != admin.ID || got.Name != "ops" || !got.Admin || !got.CreatedAt.Equal(admin.CreatedAt) || got.RevokedAt != nil ||
		got.ExpiresAt != nil || string(got.Hash) != string(admin.Hash) {
		t.Fatalf("admin key = %+v", got)
	}
	got, err = db.APIKeyByHash(ctx, store.HashKey(userSecret))
	if err != nil || got.ID != user.ID || got.Admin || got.CreatedAt.IsZero() {
		t.Fatalf("user key = %+v, %v", got, err)
	}
	if _, err := db.APIKeyByHash(ctx, store.HashKey("hps_wrong")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("wrong secret: %v, want ErrNotFound", err)
	}

	// Rename via Put.
	user.Name = "ci-renamed"
	if err := db.PutAPIKey(ctx, user); err != nil {
		t.Fatal(err)
	}

	before := time.Now()
	if err := db.RevokeAPIKey(ctx, user.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.APIKeyByHash(ctx, store.HashKey(userSecret)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("revoked key found: %v", err)
	}
	list, err := db.ListAPIKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != admin.ID || list[1].ID != user.ID {
		t.Fatalf("list = %+v", list)
	}
	if list[0].RevokedAt != nil || list[1].RevokedAt == nil || list[1].RevokedAt.Before(before.Truncate(time.Microsecond)) {
		t.Fatalf("revocation times: %v %v", list[0].RevokedAt, list[1].RevokedAt)
	}
	if list[1].Name != "ci-renamed" {
		t.Fatalf("name = %q", list[1].Name)
	}
	first := *list[1].RevokedAt

	// Revoking again keeps the first time; a Put cannot un-revoke.
	if err := db.RevokeAPIKey(ctx, user.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.PutAPIKey(ctx, user); err != nil {
		t.Fatal(err)
	}
	list, _ = db.ListAPIKeys(ctx)
	if list[1].RevokedAt == nil || !list[1].RevokedAt.Equal(first) {
		t.Fatalf("revocation changed: %v, want %v", list[1].RevokedAt, first)
	}
	if _, err := db.APIKeyByHash(ctx, store.HashKey(userSecret)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("put brought back a revoked key: %v", err)
	}

	if err := db.RevokeAPIKey(ctx, "hpk_missing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("revoke missing: %v, want ErrNotFound", err)
	}
}

func testPutAPIKeyInvalid(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	k, _ := NewKey(t, "a", false)
	if err := db.PutAPIKey(ctx, store.APIKey{Hash: k.Hash}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("empty id: %v", err)
	}
	if err := db.PutAPIKey(ctx, store.APIKey{ID: "hpk_x", Hash: []byte("short")}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("short hash: %v", err)
	}
	if err := db.PutAPIKey(ctx, k); err != nil {
		t.Fatal(err)
	}
	dup := store.APIKey{ID: "hpk_other", Hash: k.Hash}
	if err := db.PutAPIKey(ctx, dup); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("duplicate hash: %v, want ErrInvalid", err)
	}
	if list, _ := db.ListAPIKeys(ctx); len(list) != 1 {
		t.Fatalf("%d keys stored, want 1", len(list))
	}
}

func testAPIKeyExpiry(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	past := time.Now().Add(-time.Minute)
	future := time.Now().Add(time.Hour).Truncate(time.Microsecond)
	expired, expiredSecret := NewKey(t, "old", false)
	expired.ExpiresAt = &past
	current, currentSecret := NewKey(t, "new", false)
	current.ExpiresAt = &future
	for _, k := range []store.APIKey{expired, current} {
		if err := db.PutAPIKey(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.APIKeyByHash(ctx, store.HashKey(expiredSecret)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an expired key was found: %v", err)
	}
	got, err := db.APIKeyByHash(ctx, store.HashKey(currentSecret))
	if err != nil {
		t.Fatal(err)
	}
	if got.ExpiresAt == nil || !got.ExpiresAt.Equal(future) || !got.Valid(time.Now()) || got.Valid(future) {
		t.Fatalf("key = %+v", got)
	}
	list, err := db.ListAPIKeys(ctx)
	if err != nil || len(list) != 2 || list[0].ExpiresAt == nil || list[1].ExpiresAt == nil {
		t.Fatalf("list = %+v, %v", list, err)
	}
	// Putting the key without an end makes it valid until revoked.
	expired.ExpiresAt = nil
	if err := db.PutAPIKey(ctx, expired); err != nil {
		t.Fatal(err)
	}
	if got, err := db.APIKeyByHash(ctx, store.HashKey(expiredSecret)); err != nil || got.ExpiresAt != nil {
		t.Fatalf("key without an end = %+v, %v", got, err)
	}
}
