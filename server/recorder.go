package server

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/store"
)

// Recorder is the engine's event sink in the daemon: it stores each event
// and only then hands it to the hub, so that whatever a client has seen
// is on disk. One goroutine writes, in batches when events come faster
// than a single write, in order.
type Recorder struct {
	store store.Store
	hub   *hub.Hub
	log   *slog.Logger

	queue chan queued
	done  chan struct{}
	once  sync.Once

	mu      sync.Mutex
	healthy error // the last storage error, nil when writes succeed

	// records serializes read-modify-writes of session records (statistics,
	// titles), which would otherwise undo each other.
	records sync.Mutex
}

// recorderQueue bounds the events waiting to be written. When it is full
// the engine waits: losing events would be worse than slowing down.
const recorderQueue = 8192

// recorderBatch bounds one write transaction.
const recorderBatch = 256

// NewRecorder starts the writer. Close it after the engine has shut down.
func NewRecorder(st store.Store, h *hub.Hub, log *slog.Logger) *Recorder {
	r := &Recorder{store: st, hub: h, log: log, queue: make(chan queued, recorderQueue), done: make(chan struct{})}
	go r.run()
	return r
}

// queued is an event with its JSON, encoded by the goroutine that
// publishes it so that the single writer only writes.
type queued struct {
	ev   *event.EventWithMeta
	data []byte
	err  error
}

// Publish queues an event for storage and delivery.
func (r *Recorder) Publish(ev *event.EventWithMeta) {
	data, err := json.Marshal(ev)
	r.queue <- queued{ev: ev, data: data, err: err}
}

// Close writes what is queued and stops the writer.
func (r *Recorder) Close() {
	r.once.Do(func() { close(r.queue) })
	<-r.done
}

// Healthy reports the last storage error, if writes are failing.
func (r *Recorder) Healthy() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.healthy
}

func (r *Recorder) run() {
	defer close(r.done)
	batch := make([]queued, 0, recorderBatch)
	for q := range r.queue {
		batch = append(batch[:0], q)
	fill:
		for len(batch) < recorderBatch {
			select {
			case more, ok := <-r.queue:
				if !ok {
					break fill
				}
				batch = append(batch, more)
			default:
				break fill
			}
		}
		r.write(batch)
		for _, q := range batch {
			r.hub.Publish(q.ev)
		}
	}
}

// write stores a batch, retrying a failing store a few times. If storage
// keeps failing (a full disk) the events are still delivered live, the
// failure is logged, and readiness reports it.
func (r *Recorder) write(batch []queued) {
	events := make([]store.Event, 0, len(batch))
	// Only each session's newest statistics are worth saving.
	stats := map[string]*event.EventWithMeta{}
	for _, q := range batch {
		ev := q.ev
		if q.err != nil {
			r.log.Error("cannot encode event", "session", ev.SessionID, "seq", ev.Seq, "err", q.err)
			continue
		}
		events = append(events, store.Event{SessionID: ev.SessionID, Seq: ev.Seq, Type: ev.EventType, Data: q.data, Time: ev.Time})
		if ev.EventType == event.TypeSessionStats && ev.Stats != nil {
			stats[ev.SessionID] = ev
		}
	}
	var err error
	for attempt := range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err = r.store.AppendEvents(ctx, events...)
		cancel()
		if err == nil {
			break
		}
		time.Sleep(time.Duration(attempt+1) * 50 * time.Millisecond)
	}
	if err == nil {
		err = r.saveStats(stats)
	}
	r.mu.Lock()
	r.healthy = err
	r.mu.Unlock()
	if err != nil {
		r.log.Error("storing events failed; they were delivered but not saved", "events", len(events), "err", err)
	}
}

// saveStats keeps each session's latest statistics with its record.
func (r *Recorder) saveStats(evs map[string]*event.EventWithMeta) error {
	for _, ev := range evs {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := r.UpdateSession(ctx, ev.SessionID, func(s *store.Session) {
			s.Stats, _ = json.Marshal(ev.Stats)
		})
		cancel()
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	return nil
}

// UpdateSession changes a stored session record; updates through the
// recorder never undo each other.
func (r *Recorder) UpdateSession(ctx context.Context, id string, change func(*store.Session)) error {
	r.records.Lock()
	defer r.records.Unlock()
	s, err := r.store.GetSession(ctx, id)
	if err != nil {
		return err
	}
	change(&s)
	return r.store.PutSession(ctx, s)
}
