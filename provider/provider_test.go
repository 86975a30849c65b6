package provider_test

import (
	"context"
	"errors"
	"testing"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
)

func TestDelivererStopsAtTheFirstRefusal(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	gone := errors.New("client gone")
	var got []string
	deliver := provider.Deliverer(ctx, func(ev *event.EventWithMeta) error {
		got = append(got, ev.EventData)
		if len(got) == 2 {
			return gone
		}
		return nil
	}, cancel)
	if err := deliver(event.NewEventWithMeta(event.TypeAnswer, "one", nil)); err != nil {
		t.Fatal(err)
	}
	if err := deliver(event.NewEventWithMeta(event.TypeAnswer, "two", nil)); !errors.Is(err, gone) {
		t.Fatalf("refusal: %v", err)
	}
	if !errors.Is(context.Cause(ctx), gone) {
		t.Fatalf("turn not cancelled with the refusal: %v", context.Cause(ctx))
	}
	if err := deliver(event.NewEventWithMeta(event.TypeAnswer, "three", nil)); !errors.Is(err, gone) {
		t.Fatalf("after the refusal: %v", err)
	}
	if len(got) != 2 {
		t.Fatalf("delivered %v; nothing may follow a refusal", got)
	}
}
