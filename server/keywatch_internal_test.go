package server

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/store"
)

// keysDown is a store whose key list fails while down is set.
type keysDown struct {
	store.Store
	down bool
}

func (k *keysDown) ListAPIKeys(context.Context) ([]store.APIKey, error) {
	if k.down {
		return nil, store.ErrUnavailable
	}
	return nil, nil
}

// An outage of the store is logged once when it starts and once when it
// ends, not at every check.
func TestKeyWatchLogsAnOutageOnce(t *testing.T) {
	var logs bytes.Buffer
	st := &keysDown{down: true}
	kw := newKeyWatch(st, time.Hour, slog.New(slog.NewTextHandler(&logs, nil)))
	stop := make(chan struct{})
	defer close(stop)
	for range 5 {
		kw.check(stop)
	}
	st.down = false
	kw.check(stop)
	kw.check(stop)
	if n := strings.Count(logs.String(), "cannot check API keys"); n != 1 {
		t.Fatalf("the outage was logged %d times:\n%s", n, logs.String())
	}
	if n := strings.Count(logs.String(), "checking API keys for revocation again"); n != 1 {
		t.Fatalf("the recovery was logged %d times:\n%s", n, logs.String())
	}
}
