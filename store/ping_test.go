package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/hotplex/hotplex/store"
)

// keysOnly is a store that can only list keys, failing with err.
type keysOnly struct {
	store.Store
	err   error
	calls int
}

func (k *keysOnly) ListAPIKeys(context.Context) ([]store.APIKey, error) {
	k.calls++
	return nil, k.err
}

// A store without a Ping of its own is pinged with a read, whose failure
// is the answer.
func TestPingWithoutPinger(t *testing.T) {
	down := errors.Join(store.ErrUnavailable, errors.New("connection refused"))
	st := &keysOnly{err: down}
	if err := store.Ping(context.Background(), st); !errors.Is(err, store.ErrUnavailable) || st.calls != 1 {
		t.Fatalf("Ping of a failing store: %v after %d reads", err, st.calls)
	}
	st.err = nil
	if err := store.Ping(context.Background(), st); err != nil {
		t.Fatalf("Ping of a working store: %v", err)
	}
}
