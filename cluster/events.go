package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// DefaultEventsStream is the stream that fans session events out to every
// node.
const DefaultEventsStream = "HOTPLEX_EVENTS"

// DefaultEventsMaxAge is how long the events stream keeps an event.
const DefaultEventsMaxAge = time.Hour

// eventsSubjectPrefix is followed by a session's owner key.
const eventsSubjectPrefix = "hotplex.events."

// Headers of an event message.
const (
	headerSession = "Hotplex-Session"
	headerSeq     = "Hotplex-Seq"
	headerOrigin  = "Hotplex-Origin"
)

// EventsConfig describes the events stream. The zero value is the default
// stream on one replica.
type EventsConfig struct {
	// Name of the stream; empty means DefaultEventsStream.
	Name string
	// MaxAge is how long an event stays in the stream; zero means
	// DefaultEventsMaxAge. It bounds how long a follower may be away
	// and still catch up; the store, not the stream, keeps history.
	MaxAge time.Duration
	// Replicas of the stream on a clustered NATS; zero means 1.
	Replicas int
	// Logger receives events that cannot be read and gaps a follower
	// could not close; nil discards them.
	Logger *slog.Logger
}

// Event is one session event as it travels between nodes. The event's
// content is Data, opaque here; the rest routes and orders it.
type Event struct {
	SessionID string
	// Seq is the event's sequence number in its session, given by the
	// session's owner.
	Seq uint64
	// Origin is the node that published it.
	Origin string
	Data   []byte
	// StreamSeq is the event's position in the stream: it grows across
	// all sessions, in the order followers receive events.
	StreamSeq uint64
}

// Events publishes session events to the events stream and follows them.
// It is safe for concurrent use.
//
// # What it guarantees
//
//   - Every follower receives the events of the stream in one order, the
//     stream's, which is the order the server stored them in. Events one
//     publisher published one after another (each Publish returned before
//     the next began) arrive in that order.
//   - A follower receives each event at most once and, across NATS
//     disconnects and server restarts, misses none that is still in the
//     stream: it resumes from the stream sequence after the last one it
//     handled.
//   - A Publish retried with the same session and seq is stored once, as
//     long as the retry comes within the stream's duplicate window (two
//     minutes, or MaxAge if shorter), also across a server restart.
//
// # What it does not guarantee
//
//   - A follower away for longer than MaxAge misses what expired
//     meanwhile; its node must read the session's history from the store.
//   - Publish returning an error does not mean the event was not stored
//     (the reply may be what was lost); retry it with the same seq.
//   - Events of one session published by two nodes at once have no order
//     between them: only the session's owner should publish.
type Events struct {
	js     jetstream.JetStream
	stream jetstream.Stream
	name   string
	log    *slog.Logger
}

// EventsStream creates the events stream, or binds to it when another
// node created it already. An existing stream keeps its own MaxAge and
// replicas (the first node's); one that does not carry the events
// subjects is an error.
func EventsStream(ctx context.Context, js jetstream.JetStream, c EventsConfig) (*Events, error) {
	name := c.Name
	if name == "" {
		name = DefaultEventsStream
	}
	maxAge := c.MaxAge
	if maxAge == 0 {
		maxAge = DefaultEventsMaxAge
	}
	if maxAge < time.Second {
		return nil, fmt.Errorf("cluster: events kept for %s, below 1s", maxAge)
	}
	replicas := c.Replicas
	if replicas == 0 {
		replicas = 1
	}
	subject := eventsSubjectPrefix + ">"
	st, err := js.CreateStream(ctx, jetstream.StreamConfig{
		Name:        name,
		Description: "HotPlex session events, fanned out to every node",
		Subjects:    []string{subject},
		Storage:     jetstream.FileStorage,
		Retention:   jetstream.LimitsPolicy,
		MaxAge:      maxAge,
		Duplicates:  min(maxAge, 2*time.Minute),
		Replicas:    replicas,
	})
	if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		st, err = js.Stream(ctx, name)
	}
	if err != nil {
		return nil, fmt.Errorf("cluster: events stream %s: %w", name, err)
	}
	if !slices.Contains(st.CachedInfo().Config.Subjects, subject) {
		return nil, fmt.Errorf("cluster: events stream %s carries %v, not %s", name, st.CachedInfo().Config.Subjects, subject)
	}
	log := c.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Events{js: js, stream: st, name: name, log: log}, nil
}

// eventsSubject is the subject of a session's events.
func eventsSubject(sessionID string) (string, error) {
	key, err := ownerKey(sessionID)
	if err != nil {
		return "", err
	}
	return eventsSubjectPrefix + key, nil
}

// Publish stores one event of a session in the stream, from which every
// follower receives it. It returns once the server stored it. The message
// ID is made of the session and seq, so a retry of a publish whose reply
// was lost is dropped by the server rather than delivered twice.
func (ev *Events) Publish(ctx context.Context, sessionID string, seq uint64, origin string, data []byte) error {
	msg, id, err := eventMsg(sessionID, seq, origin, data)
	if err != nil {
		return err
	}
	if _, err := ev.js.PublishMsg(ctx, msg, jetstream.WithMsgID(id)); err != nil {
		return fmt.Errorf("cluster: publish event %d of session %q: %w", seq, sessionID, err)
	}
	return nil
}

// eventMsg is the message of one event, and its ID for deduplication.
func eventMsg(sessionID string, seq uint64, origin string, data []byte) (*nats.Msg, string, error) {
	subject, err := eventsSubject(sessionID)
	if err != nil {
		return nil, "", err
	}
	msg := nats.NewMsg(subject)
	msg.Header.Set(headerSession, sessionID)
	msg.Header.Set(headerSeq, strconv.FormatUint(seq, 10))
	msg.Header.Set(headerOrigin, origin)
	msg.Data = data
	// The owner key, not the raw ID: a header value must not hold a line
	// break, and the key is one to one with the ID.
	return msg, subject[len(eventsSubjectPrefix):] + "/" + strconv.FormatUint(seq, 10), nil
}

// PublishBatch publishes events as Publish does, all sent before the
// first acknowledgement is awaited, so a batch costs about one round trip
// rather than one per event. The server stores them in the order given.
// It returns once every one was stored, or with the first error (events
// after it may have been stored too; retrying the batch is safe).
func (ev *Events) PublishBatch(ctx context.Context, origin string, events []Event) error {
	acks := make([]jetstream.PubAckFuture, 0, len(events))
	for _, e := range events {
		msg, id, err := eventMsg(e.SessionID, e.Seq, origin, e.Data)
		if err != nil {
			return err
		}
		f, err := ev.js.PublishMsgAsync(msg, jetstream.WithMsgID(id))
		if err != nil {
			return fmt.Errorf("cluster: publish event %d of session %q: %w", e.Seq, e.SessionID, err)
		}
		acks = append(acks, f)
	}
	for i, f := range acks {
		select {
		case <-f.Ok():
		case err := <-f.Err():
			return fmt.Errorf("cluster: publish event %d of session %q: %w", events[i].Seq, events[i].SessionID, err)
		case <-ctx.Done():
			return fmt.Errorf("cluster: publish events: %w", context.Cause(ctx))
		}
	}
	return nil
}

// Follow calls handler with every event published from now on (every
// event stored after Follow was called), one at a time and in stream
// order, until stop is called or ctx is done. stop waits for a running
// handler to return; handler must not call it.
func (ev *Events) Follow(ctx context.Context, handler func(Event)) (stop func(), err error) {
	return ev.follow(ctx, nil, handler)
}

// FollowSession is Follow for one session's events only.
func (ev *Events) FollowSession(ctx context.Context, sessionID string, handler func(Event)) (stop func(), err error) {
	subject, err := eventsSubject(sessionID)
	if err != nil {
		return nil, err
	}
	return ev.follow(ctx, []string{subject}, handler)
}

// follow runs an ordered consumer: an ephemeral consumer the client
// recreates, starting at the stream sequence after the last message it
// delivered, whenever it misses a message, a heartbeat or the server (a
// reconnect, a restarted server that forgot it).
//
// It starts at an explicit sequence, the stream's last plus one, rather
// than with DeliverNew: the client recreates the consumer with the
// policy it was first given as long as it delivered nothing, so a
// follower cut off before its first event would come back with
// DeliverNew and skip every event published while it was away.
func (ev *Events) follow(ctx context.Context, filter []string, handler func(Event)) (func(), error) {
	info, err := ev.stream.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("cluster: follow events: %w", err)
	}
	cons, err := ev.js.OrderedConsumer(ctx, ev.name, jetstream.OrderedConsumerConfig{
		FilterSubjects: filter,
		DeliverPolicy:  jetstream.DeliverByStartSequencePolicy,
		OptStartSeq:    info.State.LastSeq + 1,
		// The server forgets the consumer of a follower that stopped
		// or died this long after its last pull; a follower merely
		// cut off makes a new one when it is back.
		InactiveThreshold: 30 * time.Second,
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: follow events: %w", err)
	}
	// last guards "at most once" here too, whatever the consumer does
	// after a reset. The lock makes deliveries one at a time even if a
	// callback of a consumer being replaced overlaps one of its successor.
	var mu sync.Mutex
	last := info.State.LastSeq
	cc, err := cons.Consume(func(m jetstream.Msg) {
		mu.Lock()
		defer mu.Unlock()
		md, err := m.Metadata()
		if err != nil {
			ev.log.Warn("event without metadata", "subject", m.Subject(), "err", err)
			return
		}
		if md.Sequence.Stream <= last {
			return
		}
		if filter == nil && md.Sequence.Stream != last+1 {
			// Only expiry (MaxAge) or a purge removes events from
			// the middle of the stream.
			ev.log.Warn("events expired before this node received them",
				"from", last+1, "to", md.Sequence.Stream-1)
		}
		last = md.Sequence.Stream
		e, err := readEvent(m)
		if err != nil {
			ev.log.Warn("unreadable event", "subject", m.Subject(), "stream_seq", md.Sequence.Stream, "err", err)
			return
		}
		e.StreamSeq = md.Sequence.Stream
		handler(e)
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: follow events: %w", err)
	}
	var once sync.Once
	var unhook func() bool
	stop := func() {
		once.Do(func() {
			closed := cc.Closed()
			cc.Stop()
			<-closed
		})
	}
	unhook = context.AfterFunc(ctx, stop)
	return func() {
		unhook()
		stop()
	}, nil
}

// readEvent reads an event from its message's headers and data.
func readEvent(m jetstream.Msg) (Event, error) {
	h := m.Headers()
	e := Event{
		SessionID: h.Get(headerSession),
		Origin:    h.Get(headerOrigin),
		Data:      m.Data(),
	}
	if e.SessionID == "" {
		return Event{}, errors.New("no session header")
	}
	seq, err := strconv.ParseUint(h.Get(headerSeq), 10, 64)
	if err != nil {
		return Event{}, fmt.Errorf("seq header: %w", err)
	}
	e.Seq = seq
	return e, nil
}
