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

// Recorder is the engine's event sink in the daemon: it makes each event
// durable and only then hands it to the hub, so that whatever a client
// has seen survives a crash of the daemon. One goroutine takes the
// events, in batches when they come faster than one write, in order.
//
// A store on another machine (PostgreSQL) is written before the hub
// sees an event. A store of this machine's (SQLite) has a journal beside
// it (RecorderOptions.Journal): an event is appended to the journal,
// delivered, and stored by a second goroutine a little later, once its
// turn ended or no event came for a moment, many events in one
// transaction. Reads of the store wait for what was delivered before
// them (see Sync), so a client never reads less than it saw.
type Recorder struct {
	store store.Store
	hub   *hub.Hub
	log   *slog.Logger

	queue   chan queued
	expired chan struct{} // closed closeGrace after Close: an unreachable store is waited for no longer
	done    chan struct{}
	once    sync.Once

	mu      sync.Mutex
	healthy error // the last storage error, nil when writes succeed
	forward func([]Recorded)

	journal *journal // nil: events are stored before they are delivered
	lag     *lagging // with a journal: the events delivered, not yet stored
}

// RecorderOptions configure a Recorder.
type RecorderOptions struct {
	// Journal is the file where events wait between their delivery and
	// their storage, for a store on this machine; empty: each event is
	// stored before it is delivered.
	Journal string
}

// Recorded is an event that was stored, with its JSON.
type Recorded struct {
	Event *event.EventWithMeta
	Data  []byte
}

// Forward hands every batch of events, once stored and published to the
// hub, to f as well: a node of a cluster sends them to the others. Set it
// before the first event.
func (r *Recorder) Forward(f func([]Recorded)) {
	r.mu.Lock()
	r.forward = f
	r.mu.Unlock()
}

// recorderQueue bounds the events waiting to be written. When it is full
// the engine waits: losing events would be worse than slowing down.
const recorderQueue = 8192

// recorderBatch bounds one write transaction.
const recorderBatch = 256

// NewRecorder starts the writer; with a journal, it first stores what
// the journal still holds of an earlier run. Close it after the engine
// has shut down.
func NewRecorder(ctx context.Context, st store.Store, h *hub.Hub, log *slog.Logger, o RecorderOptions) (*Recorder, error) {
	r := &Recorder{store: st, hub: h, log: log, queue: make(chan queued, recorderQueue),
		expired: make(chan struct{}), done: make(chan struct{})}
	if o.Journal != "" {
		j, n, err := openJournal(ctx, o.Journal, st)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			log.Info("stored the events the journal held from before the daemon stopped", "events", n, "journal", o.Journal)
		}
		r.journal, r.lag = j, newLagging()
		go r.storeLagging()
	}
	go r.run()
	return r, nil
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

// Close writes what is queued and stops the writer; a store that cannot
// be reached is waited for at most closeGrace.
func (r *Recorder) Close() {
	var grace *time.Timer
	r.once.Do(func() {
		grace = time.AfterFunc(closeGrace, func() { close(r.expired) })
		close(r.queue)
	})
	<-r.done
	if grace != nil {
		grace.Stop()
	}
}

// Healthy reports the last storage error, if writes are failing.
func (r *Recorder) Healthy() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.healthy
}

func (r *Recorder) setHealth(err error) {
	r.mu.Lock()
	r.healthy = err
	r.mu.Unlock()
}

func (r *Recorder) run() {
	if r.lag != nil {
		defer func() {
			r.lag.close()
			<-r.lag.done
			if err := r.journal.close(); err != nil {
				r.log.Error("closing the event journal", "err", err)
			}
			close(r.done)
		}()
	} else {
		defer close(r.done)
	}
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
		if r.lag != nil {
			if err := r.journal.append(batch); err != nil {
				r.setHealth(err)
				r.log.Error("writing the event journal failed; the events are delivered and stored, but a crash before they are stored would lose them", "events", len(batch), "err", err)
			}
			r.lag.add(batch)
		} else {
			r.write(batch)
		}
		for _, q := range batch {
			if q.err != nil {
				r.hub.Publish(q.ev)
				continue
			}
			r.hub.PublishJSON(q.ev, q.data)
		}
		if r.lag == nil {
			r.forwardBatch(batch)
		}
	}
}

// forwardBatch hands a stored batch to the forwarder, if any.
func (r *Recorder) forwardBatch(batch []queued) {
	r.mu.Lock()
	forward := r.forward
	r.mu.Unlock()
	if forward == nil {
		return
	}
	out := make([]Recorded, 0, len(batch))
	for _, q := range batch {
		if q.err == nil {
			out = append(out, Recorded{Event: q.ev, Data: q.data})
		}
	}
	forward(out)
}

// write stores a batch. If storage keeps failing (a full disk) the events
// are still delivered live, the failure is logged, and readiness reports
// it; a store that cannot be reached is waited for instead (see append).
func (r *Recorder) write(batch []queued) {
	// A session_stats event also updates its session's record, in the
	// same transaction (see store.Store.AppendEvents).
	events := make([]store.Event, 0, len(batch))
	for _, q := range batch {
		ev := q.ev
		if q.err != nil {
			r.log.Error("cannot encode event", "session", ev.SessionID, "seq", ev.Seq, "err", q.err)
			continue
		}
		events = append(events, store.Event{SessionID: ev.SessionID, Seq: ev.Seq, Type: ev.EventType, Data: q.data, Time: ev.Time})
	}
	err := r.append(events)
	if errors.Is(err, store.ErrNotFound) {
		// A session was deleted while its events were on their way; the
		// others' events must not go down with them.
		err = nil
		for _, evs := range bySession(events) {
			if e := r.append(evs); e != nil && !errors.Is(e, store.ErrNotFound) {
				err = e
			}
		}
	}
	r.setHealth(err)
	if err != nil {
		r.log.Error("storing events failed; they were delivered but not saved", "events", len(events), "err", err)
	}
}

// append stores events, retrying a failing store a few times, and a store
// that cannot be reached (its database down or restarting) until it is
// back: the events wait, undelivered, for as long, since what a client
// sees must be stored. Once the recorder is closing, an unreachable store
// has until closeGrace after Close before the events are given up.
func (r *Recorder) append(events []store.Event) error {
	var (
		err         error
		unreachable bool
	)
	for attempt := 0; ; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err = r.store.AppendEvents(ctx, events...)
		if errors.Is(err, store.ErrSeqConflict) && unreachable && r.landed(ctx, events) {
			// The earlier attempt committed, but its answer was lost with
			// the connection.
			err = nil
		}
		cancel()
		if err == nil || errors.Is(err, store.ErrNotFound) {
			if unreachable {
				r.log.Info("the store is back; stored the events that waited", "events", len(events))
			}
			return err
		}
		if !errors.Is(err, store.ErrUnavailable) {
			if attempt >= 2 {
				return err
			}
			time.Sleep(time.Duration(attempt+1) * 50 * time.Millisecond)
			continue
		}
		if !unreachable {
			unreachable = true
			r.log.Warn("the store is unreachable; events wait until it is back", "events", len(events), "err", err)
			r.mu.Lock()
			r.healthy = err
			r.mu.Unlock()
		}
		wait := time.NewTimer(min(time.Duration(attempt+1)*100*time.Millisecond, time.Second))
		select {
		case <-wait.C:
		case <-r.expired:
			wait.Stop()
			return err
		}
	}
}

// closeGrace is how long a closing recorder still waits for an
// unreachable store.
const closeGrace = 10 * time.Second

// landed reports whether every session of events already holds its last
// event of the batch: AppendEvents is atomic, so then all of it was
// stored.
func (r *Recorder) landed(ctx context.Context, events []store.Event) bool {
	for _, evs := range bySession(events) {
		st, err := r.store.GetSession(ctx, evs[0].SessionID)
		if err != nil || st.LastSeq < evs[len(evs)-1].Seq {
			return false
		}
	}
	return true
}

// bySession splits events by session, keeping their order.
func bySession(events []store.Event) [][]store.Event {
	var out [][]store.Event
	index := map[string]int{}
	for _, e := range events {
		i, ok := index[e.SessionID]
		if !ok {
			i = len(out)
			index[e.SessionID] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], e)
	}
	return out
}
