package storetest_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/hotplex/hotplex/internal/pgtest"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/postgres"
	"github.com/hotplex/hotplex/store/sqlite"
	"github.com/hotplex/hotplex/store/storetest"
)

// pg is started by the first benchmark that needs it, so that a test run
// of this package (it has no tests) does not start a server.
var pg struct {
	once   sync.Once
	server *pgtest.Server
	err    error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if pg.server != nil {
		if err := pg.server.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutine leak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// quiet keeps the stores' migration logs out of the benchmark's output.
var quiet = slog.New(slog.DiscardHandler)

// backends are the stores compared, SQLite first: ratios are
// PostgreSQL's figure over SQLite's.
var backends = []struct {
	name string
	open func(b *testing.B) store.Store
}{
	{"sqlite", func(b *testing.B) store.Store {
		st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "hotplex.db"), sqlite.WithLogger(quiet))
		if err != nil {
			b.Fatal(err)
		}
		return st
	}},
	{"postgres", func(b *testing.B) store.Store {
		pg.once.Do(func() { pg.server, pg.err = pgtest.Start(context.Background()) })
		if pg.err != nil {
			b.Fatal(pg.err)
		}
		st, err := postgres.Open(context.Background(), pg.server.NewDatabase(b), postgres.WithLogger(quiet))
		if err != nil {
			b.Fatal(err)
		}
		return st
	}},
}

// BenchmarkStores measures the hot paths of the daemon's store, both
// stores in one run, and prints PostgreSQL's throughput over SQLite's.
// SQLite runs as the daemon opens it (WAL, synchronous=NORMAL: commits do
// not wait for the disk); the PostgreSQL test server runs with fsync off,
// on a Unix socket, so neither waits for the disk and the figures compare
// the engines and their round trips.
func BenchmarkStores(b *testing.B) {
	for _, w := range []struct {
		name string
		run  func(b *testing.B, st store.Store) float64 // events per second
	}{
		{"AppendEvents/batch=1", func(b *testing.B, st store.Store) float64 { return appendSerial(b, st, 1) }},
		{"AppendEvents/batch=32", func(b *testing.B, st store.Store) float64 { return appendSerial(b, st, 32) }},
		{"AppendEvents/batch=1/8-sessions-in-parallel", appendParallel},
		{"Events/page=100", readPages},
	} {
		rates := make(map[string]float64)
		for _, be := range backends {
			b.Run(w.name+"/"+be.name, func(b *testing.B) {
				st := be.open(b)
				defer st.Close()
				rates[be.name] = w.run(b, st)
				b.ReportMetric(rates[be.name], "events/s")
			})
		}
		if rates["sqlite"] > 0 && rates["postgres"] > 0 {
			fmt.Printf("%-45s sqlite %9.0f events/s | postgres %9.0f events/s | postgres/sqlite %.2f\n",
				w.name, rates["sqlite"], rates["postgres"], rates["postgres"]/rates["sqlite"])
		}
	}
}

// appendSerial appends realistic answer events (~330 bytes each) to one
// session, one AppendEvents call (one transaction) per iteration.
func appendSerial(b *testing.B, st store.Store, size int) float64 {
	ctx := context.Background()
	storetest.PutSession(b, st, "bench", "")
	// Build the batches up front so only the store is measured.
	const distinct = 64
	tmpl := make([][]store.Event, distinct)
	for i := range tmpl {
		tmpl[i] = storetest.Events(b, "bench", 1, size)
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
		if err := st.AppendEvents(ctx, batch...); err != nil {
			b.Fatal(err)
		}
		n++
	}
	return float64(n*size) / b.Elapsed().Seconds()
}

// appendParallel has 8 goroutines append one event at a time, each to a
// session of its own, as a daemon's busy sessions do.
func appendParallel(b *testing.B, st store.Store) float64 {
	ctx := context.Background()
	const writers = 8
	for w := range writers {
		storetest.PutSession(b, st, fmt.Sprintf("bench%d", w), "")
	}
	data := storetest.EventData(b, "bench", 1)
	per := (b.N + writers - 1) / writers
	b.ResetTimer()
	var wg sync.WaitGroup
	for w := range writers {
		id := fmt.Sprintf("bench%d", w)
		wg.Go(func() {
			for seq := uint64(1); seq <= uint64(per); seq++ {
				if err := st.AppendEvents(ctx, store.Event{SessionID: id, Seq: seq, Type: "answer", Data: data}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return float64(per*writers) / b.Elapsed().Seconds()
}

// readPages reads pages of 100 events from a session of 10,000, as a
// client catching up after a reconnect does.
func readPages(b *testing.B, st store.Store) float64 {
	ctx := context.Background()
	storetest.PutSession(b, st, "bench", "")
	const total = 10_000
	for from := uint64(1); from <= total; from += 500 {
		if err := st.AppendEvents(ctx, storetest.Events(b, "bench", from, 500)...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		after := uint64(n*100) % total
		es, err := st.Events(ctx, "bench", after, 100)
		if err != nil || len(es) != 100 {
			b.Fatalf("%d events, %v", len(es), err)
		}
		n++
	}
	return float64(n*100) / b.Elapsed().Seconds()
}
