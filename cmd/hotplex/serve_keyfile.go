package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hotplex/hotplex/store"
)

// adminKeyFromFile returns the admin key kept in path, for a daemon one
// person runs for themself (make run): the key survives restarts and is
// shown at each start. A missing file gets a new admin key; a key from the
// file the database does not know (a new database) is stored again.
func adminKeyFromFile(ctx context.Context, st store.Store, path string, out io.Writer) (string, error) {
	b, err := os.ReadFile(path)
	secret := strings.TrimSpace(string(b))
	switch {
	case errors.Is(err, os.ErrNotExist) || (err == nil && secret == ""):
		if _, secret, err = store.NewKeySecret(); err != nil {
			return "", err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return "", fmt.Errorf("admin key file: %w", err)
		}
		if err := os.WriteFile(path, []byte(secret+"\n"), 0o600); err != nil {
			return "", fmt.Errorf("admin key file: %w", err)
		}
	case err != nil:
		return "", fmt.Errorf("admin key file: %w", err)
	case len(secret) < 16:
		return "", fmt.Errorf("admin key file %s: the secret is shorter than 16 characters", path)
	}
	k, err := st.APIKeyByHash(ctx, store.HashKey(secret))
	switch {
	case errors.Is(err, store.ErrNotFound):
		id, _, err := store.NewKeySecret()
		if err != nil {
			return "", err
		}
		if err := st.PutAPIKey(ctx, store.APIKey{ID: id, Name: "admin key file", Hash: store.HashKey(secret), Admin: true}); err != nil {
			return "", err
		}
	case err != nil:
		return "", err
	case !k.Admin:
		return "", fmt.Errorf("admin key file %s: the key in it is not an admin key", path)
	}
	fmt.Fprintf(out, "Admin API key (kept in %s):\n  %s\n", path, secret)
	return secret, nil
}

// printTryIt shows how to reach the daemon with the key: a curl that
// creates session id and one that runs a turn on it.
func printTryIt(out io.Writer, url, key, id string) {
	fmt.Fprintf(out, `Web UI:  %s/ (sign in with the key)
Try it:
  curl -s -H 'Authorization: Bearer %s' -d '{"id":"%s"}' %s/v1/sessions
  curl -sN -H 'Authorization: Bearer %s' -d '{"prompt":"hello"}' %s/v1/sessions/%s/messages
`, url, key, id, url, key, url, id)
}

// demoSessionID is the ID printTryIt's curl creates: "demo", or on a
// restart where that exists, the first of demo-2, demo-3, ... that is free,
// so the printed commands work at every start.
func demoSessionID(ctx context.Context, st store.Store) (string, error) {
	for n := 1; ; n++ {
		id := "demo"
		if n > 1 {
			id = fmt.Sprintf("demo-%d", n)
		}
		_, err := st.GetSession(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return id, nil
		}
		if err != nil {
			return "", err
		}
	}
}
