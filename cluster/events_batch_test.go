package cluster

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/hotplex/hotplex/internal/natstest"
)

// A batch arrives whole and in order, and publishing it again (a retry
// after a lost acknowledgement) delivers nothing twice.
func TestPublishBatch(t *testing.T) {
	ns := natstest.Start(t)
	nc, err := Connect(ns.URL(), ConnOptions{NodeID: "batch"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	evs, err := EventsStream(ctx, js, EventsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan Event, 1000)
	stop, err := evs.Follow(ctx, func(e Event) { got <- e })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	var batch []Event
	for i := range 300 {
		batch = append(batch, Event{SessionID: fmt.Sprintf("s%d", i%3), Seq: uint64(i/3 + 1), Data: []byte(fmt.Sprint(i))})
	}
	for range 2 {
		if err := evs.PublishBatch(ctx, "n1", batch); err != nil {
			t.Fatal(err)
		}
	}
	for i := range batch {
		select {
		case e := <-got:
			if e.SessionID != batch[i].SessionID || e.Seq != batch[i].Seq || string(e.Data) != string(batch[i].Data) || e.Origin != "n1" {
				t.Fatalf("event %d: got %s/%d %q from %s, want %s/%d %q", i, e.SessionID, e.Seq, e.Data, e.Origin, batch[i].SessionID, batch[i].Seq, batch[i].Data)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d of %d events arrived", i, len(batch))
		}
	}
	select {
	case e := <-got:
		t.Fatalf("an event came twice: %s/%d", e.SessionID, e.Seq)
	case <-time.After(300 * time.Millisecond):
	}
}
