package cluster

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/hotplex/hotplex/internal/natstest"
	"github.com/nats-io/nats.go"
)

// BenchmarkCallRPC compares a CallRPC round trip (JSON in an envelope, a
// goroutine per request, the bounded slots) with a bare core NATS request
// to a subscriber that echoes, on the same server in the same run; it
// reports the ratio as rpc/raw. An op is one of each.
func BenchmarkCallRPC(b *testing.B) {
	ns := natstest.Start(b)
	srv := rpcConn(b, ns.URL(), "n")
	caller := rpcConn(b, ns.URL(), "caller")
	stop, err := ServeRPC(srv, "n", func(ctx context.Context, verb string, body []byte) ([]byte, error) {
		return body, nil
	})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	sub, err := srv.Subscribe("raw.echo", func(m *nats.Msg) { _ = m.Respond(m.Data) })
	if err != nil {
		b.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := srv.Flush(); err != nil {
		b.Fatal(err)
	}
	req := greetReq{Name: "ann"}
	raw, _ := json.Marshal(req)
	ctx := context.Background()

	// Alternating the two in one loop gives both the same conditions
	// (warm-up, other load on the machine).
	var rawTotal, rpcTotal time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		if _, err := caller.RequestWithContext(ctx, "raw.echo", raw); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		var resp greetReq
		if err := CallRPC(ctx, caller, "n", "echo", req, &resp); err != nil {
			b.Fatal(err)
		}
		rawTotal += t1.Sub(t0)
		rpcTotal += time.Since(t1)
		n++
	}
	b.ReportMetric(float64(rawTotal.Nanoseconds())/float64(n), "raw-ns/call")
	b.ReportMetric(float64(rpcTotal.Nanoseconds())/float64(n), "rpc-ns/call")
	b.ReportMetric(float64(rpcTotal)/float64(rawTotal), "rpc/raw")
}

// BenchmarkEventsFanOut measures an event from Publish to a follower's
// handler on another connection, one at a time.
func BenchmarkEventsFanOut(b *testing.B) {
	ns := natstest.Start(b)
	_, pub := eventsNode(b, ns.URL(), "pub")
	_, fol := eventsNode(b, ns.URL(), "fol")
	got := make(chan struct{}, 1)
	stop, err := fol.Follow(context.Background(), func(Event) { got <- struct{}{} })
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	ctx := context.Background()
	var seq uint64
	for b.Loop() {
		seq++
		if err := pub.Publish(ctx, "s", seq, "pub", []byte(`{"kind":"text","text":"hello"}`)); err != nil {
			b.Fatal(err)
		}
		<-got
	}
}
