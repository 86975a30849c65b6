package engine

import (
	"iter"
	"sync"

	"github.com/hotplex/hotplex/event"
)

// turnQueue is how many events a turn holds for its reader before it
// waits for it (or, when nobody is reading, gives up on it).
const turnQueue = 256

type readerState uint8

const (
	readerAwaited readerState = iota // nobody has begun ranging
	readerRanging                    // a reader is in its range loop
	readerGone                       // it stopped, or never came
)

// eventQueue hands a turn's events to its one reader (Turn.Events). The
// turn pushes; the reader takes everything queued at once, so that it
// and the turn rarely meet on the lock.
type eventQueue struct {
	mu     sync.Mutex
	buf    []*event.EventWithMeta
	reader readerState
	closed bool
	// ready and room hold a token when there is news: events or the end
	// for the reader, room (or the reader's leaving) for the turn.
	ready, room chan struct{}
}

func (q *eventQueue) init() {
	q.ready = make(chan struct{}, 1)
	q.room = make(chan struct{}, 1)
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// push queues ev for the reader, waiting while a reader is turnQueue
// events behind, unless stop is closed (the turn's context ended: what
// remains of the turn is short, and is queued without a bound).
func (q *eventQueue) push(ev *event.EventWithMeta, stop <-chan struct{}) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.reader == readerRanging && len(q.buf) >= turnQueue {
		q.mu.Unlock()
		stopped := false
		select {
		case <-q.room:
		case <-stop:
			stopped = true
		}
		q.mu.Lock()
		if stopped {
			break
		}
	}
	switch {
	case q.reader == readerGone:
	case q.reader == readerAwaited && len(q.buf) >= turnQueue:
		// Nobody came for them: a turn nobody reads must not keep its
		// events, nor wait.
		q.reader, q.buf = readerGone, nil
	default:
		q.buf = append(q.buf, ev)
		signal(q.ready)
	}
}

// close tells the reader there will be no more events.
func (q *eventQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	signal(q.ready)
}

// all yields the queued events, then the others as they come, until the
// queue is closed. Only the first range over it yields anything.
func (q *eventQueue) all() iter.Seq[*event.EventWithMeta] {
	return func(yield func(*event.EventWithMeta) bool) {
		q.mu.Lock()
		if q.reader != readerAwaited {
			q.mu.Unlock()
			return
		}
		q.reader = readerRanging
		q.mu.Unlock()
		defer q.leave()
		var batch []*event.EventWithMeta
		for {
			clear(batch)
			q.mu.Lock()
			batch, q.buf = q.buf, batch[:0]
			closed := q.closed
			q.mu.Unlock()
			if len(batch) == 0 {
				if closed {
					return
				}
				<-q.ready
				continue
			}
			signal(q.room)
			for _, ev := range batch {
				if !yield(ev) {
					return
				}
			}
		}
	}
}

// leave lets the turn go on without the reader.
func (q *eventQueue) leave() {
	q.mu.Lock()
	q.reader, q.buf = readerGone, nil
	q.mu.Unlock()
	signal(q.room)
}
