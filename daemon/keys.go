package daemon

import (
	"context"
	"fmt"
	"io"

	"github.com/hotplex/hotplex/store"
)

// putKeys stores the configured keys and, when the store then holds no
// key that is not revoked, creates an admin key and prints its secret to
// out, the only time it is shown.
func putKeys(ctx context.Context, st store.Store, keys []Key, out io.Writer) error {
	for _, k := range keys {
		if err := st.PutAPIKey(ctx, store.APIKey{ID: k.ID, Name: k.Name, Hash: store.HashKey(k.Secret), Admin: k.Admin}); err != nil {
			return fmt.Errorf("key %s: %w", k.Name, err)
		}
	}
	all, err := st.ListAPIKeys(ctx)
	if err != nil {
		return err
	}
	for _, k := range all {
		if k.RevokedAt == nil {
			return nil
		}
	}
	id, secret, err := store.NewKeySecret()
	if err != nil {
		return err
	}
	if err := st.PutAPIKey(ctx, store.APIKey{ID: id, Name: "first admin", Hash: store.HashKey(secret), Admin: true}); err != nil {
		return err
	}
	fmt.Fprintf(out, "Created an admin API key (shown only now; use it as Authorization: Bearer <key>):\n  %s\n", secret)
	return nil
}
