package sqlite

import (
	"context"
	"fmt"
	"testing"

	"github.com/hotplex/hotplex/store"
)

// BenchmarkAppendEvents appends realistic answer events (an
// event.EventWithMeta marshalled, ~330 bytes) to one session, one
// AppendEvents call (one transaction) per iteration.
func BenchmarkAppendEvents(b *testing.B) {
	for _, size := range []int{1, 32} {
		b.Run(fmt.Sprintf("batch=%d", size), func(b *testing.B) {
			ctx := context.Background()
			db := openTest(b)
			putSession(b, db, "bench", "")
			// Build the batches up front so only the store is measured.
			const distinct = 64
			tmpl := make([][]store.Event, distinct)
			for i := range tmpl {
				tmpl[i] = events(b, "bench", 1, size)
			}
			b.SetBytes(int64(len(tmpl[0][0].Data) * size))
			b.ReportAllocs()
			seq := uint64(0)
			n := 0
			for b.Loop() {
				batch := tmpl[n%distinct]
				for i := range batch {
					seq++
					batch[i].Seq = seq
				}
				if err := db.AppendEvents(ctx, batch...); err != nil {
					b.Fatal(err)
				}
				n++
			}
			b.ReportMetric(float64(n*size)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkEvents reads pages of 100 events from a session of 10,000.
func BenchmarkEvents(b *testing.B) {
	ctx := context.Background()
	db := openTest(b)
	putSession(b, db, "bench", "")
	const total = 10_000
	for from := uint64(1); from <= total; from += 500 {
		if err := db.AppendEvents(ctx, events(b, "bench", from, 500)...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		after := uint64(n*100) % total
		es, err := db.Events(ctx, "bench", after, 100)
		if err != nil || len(es) != 100 {
			b.Fatalf("%d events, %v", len(es), err)
		}
		n++
	}
	b.ReportMetric(float64(n*100)/b.Elapsed().Seconds(), "events/s")
}
