package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, storetest.Backend{
		NewDatabase: func(tb testing.TB) string { return filepath.Join(tb.TempDir(), "hotplex.db") },
		Open: func(ctx context.Context, path string) (store.Store, error) {
			return Open(ctx, path, WithLogger(testLogger(t)))
		},
	})
}
