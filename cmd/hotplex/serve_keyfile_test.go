package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/sqlite"
)

func TestAdminKeyFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	open := func(name string) *sqlite.DB {
		st, err := sqlite.Open(ctx, filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = st.Close() })
		return st
	}
	st := open("a.db")
	path := filepath.Join(dir, "keys", "admin.key")
	var out bytes.Buffer
	first, err := adminKeyFromFile(ctx, st, path, &out)
	if err != nil || !strings.HasPrefix(first, store.KeySecretPrefix) || !strings.Contains(out.String(), first) {
		t.Fatalf("first start: %q %v\n%s", first, err, out.String())
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", fi, err)
	}
	if k, err := st.APIKeyByHash(ctx, store.HashKey(first)); err != nil || !k.Admin {
		t.Fatalf("stored key: %+v %v", k, err)
	}
	// A restart shows the same key and adds none.
	again, err := adminKeyFromFile(ctx, st, path, &out)
	keys, _ := st.ListAPIKeys(ctx)
	if err != nil || again != first || len(keys) != 1 {
		t.Fatalf("restart: %q %v, %d keys", again, err, len(keys))
	}
	// A new database learns the key from the file.
	fresh := open("b.db")
	if k, err := adminKeyFromFile(ctx, fresh, path, &out); err != nil || k != first {
		t.Fatalf("new database: %q %v", k, err)
	}
	if _, err := fresh.APIKeyByHash(ctx, store.HashKey(first)); err != nil {
		t.Fatal(err)
	}
	// A file naming a user key is refused.
	if err := os.WriteFile(path, []byte("user-secret-0123456789\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := st.PutAPIKey(ctx, store.APIKey{ID: "u", Hash: store.HashKey("user-secret-0123456789")}); err != nil {
		t.Fatal(err)
	}
	if _, err := adminKeyFromFile(ctx, st, path, &out); err == nil || !strings.Contains(err.Error(), "not an admin key") {
		t.Fatalf("user key accepted: %v", err)
	}
}

// TestTryItAfterRestart checks the banner's curl commands against the
// store a restarted daemon opens: they create a session whose ID is free,
// never "demo" once an earlier start's curl made it.
func TestTryItAfterRestart(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "hotplex.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	seen := map[string]bool{}
	for start := range 3 {
		id, err := demoSessionID(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.GetSession(ctx, id); !errors.Is(err, store.ErrNotFound) || seen[id] {
			t.Fatalf("start %d: demo ID %q is taken (%v)", start, id, err)
		}
		var out bytes.Buffer
		printTryIt(&out, "http://127.0.0.1:8080", "hps_key", id)
		if !strings.Contains(out.String(), `-d '{"id":"`+id+`"}' http://127.0.0.1:8080/v1/sessions`+"\n") ||
			!strings.Contains(out.String(), "http://127.0.0.1:8080/v1/sessions/"+id+"/messages\n") {
			t.Fatalf("start %d: the commands do not use %q:\n%s", start, id, out.String())
		}
		// The user runs the printed curl: the session now exists.
		if err := st.PutSession(ctx, store.Session{ID: id, Owner: "admin"}); err != nil {
			t.Fatal(err)
		}
		seen[id] = true
	}
	if !seen["demo"] || !seen["demo-2"] || !seen["demo-3"] {
		t.Fatalf("IDs: %v", seen)
	}
}
