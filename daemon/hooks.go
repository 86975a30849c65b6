package daemon

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/webhook"
)

// startHooks starts the notifier of the keys' webhooks, with the hooks of
// the configuration stored. A store that keeps no hooks turns webhooks
// off (nil), unless the configuration has some.
func startHooks(ctx context.Context, cfg Config, approvals *server.Approvals, log *slog.Logger) (*webhook.Notifier, error) {
	hs, ok := cfg.Store.(store.HookStore)
	if !ok {
		for _, k := range cfg.Keys {
			if len(k.Hooks) > 0 {
				return nil, fmt.Errorf("daemon: key %s has webhooks, and the store (%T) keeps none (store.HookStore)", k.Name, cfg.Store)
			}
		}
		log.Info("webhooks are off: the store keeps no hooks", "store", fmt.Sprintf("%T", cfg.Store))
		return nil, nil
	}
	n := webhook.New(webhook.Options{Store: hs, Sessions: cfg.Store, Logger: log, Retry: cfg.Webhooks,
		// A permission request notifies when it waits for a person:
		// Approvals lists it (the engine announces it before its event).
		NeedsPerson: func(sessionID, requestID string) bool {
			for _, p := range approvals.Pending(sessionID) {
				if p.RequestID == requestID {
					return true
				}
			}
			return false
		}})
	for _, k := range cfg.Keys {
		if err := n.Configure(ctx, k.ID, k.Hooks); err != nil {
			n.Close()
			return nil, fmt.Errorf("key %s: %w", k.Name, err)
		}
	}
	return n, nil
}
