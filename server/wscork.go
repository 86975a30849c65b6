package server

import (
	"bufio"
	"net"
	"net/http"
	"sync"
	"time"
)

// A WebSocket library writes each message with its own system call. When
// several messages wait in a connection's queue (a recorder batch brings a
// burst of a session's events), the writer corks the connection, writes
// them all, and uncorks it: one system call for the burst, and no wait for
// a message that is ready.

// corkedResponse hands the WebSocket library a connection that can be
// corked, in place of the one net/http hijacks.
type corkedResponse struct {
	http.ResponseWriter
	conn *corkConn
}

func (c *corkedResponse) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(c.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	c.conn = &corkConn{Conn: conn}
	brw.Writer.Reset(c.conn)
	return c.conn, brw, nil
}

// corkConn holds writes back while corked.
type corkConn struct {
	net.Conn
	mu     sync.Mutex
	corked bool
	held   []byte
}

// maxHeld bounds the buffer a cork keeps between bursts.
const maxHeld = 64 << 10

func (c *corkConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.corked {
		c.held = append(c.held, p...)
		return len(p), nil
	}
	return c.Conn.Write(p)
}

func (c *corkConn) cork() {
	c.mu.Lock()
	c.corked = true
	c.mu.Unlock()
}

// uncork writes what was held back, within timeout. A write cut short
// leaves half a frame on the wire, after which nothing else could be
// read: the connection is closed.
func (c *corkConn) uncork(timeout time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.corked = false
	if len(c.held) == 0 {
		return nil
	}
	_ = c.Conn.SetWriteDeadline(time.Now().Add(timeout))
	_, err := c.Conn.Write(c.held)
	_ = c.Conn.SetWriteDeadline(time.Time{})
	if err != nil {
		_ = c.Conn.Close()
	}
	if cap(c.held) > maxHeld {
		c.held = nil
	} else {
		c.held = c.held[:0]
	}
	return err
}

// sendQueue is a connection's outbound messages, bounded in bytes: a
// bound in messages lets one client hold hundreds of megabytes when its
// events are large. A message counts from its push until it was written.
type sendQueue struct {
	max     int
	metrics *Metrics
	ready   chan struct{} // signalled when a message is pushed

	mu     sync.Mutex
	msgs   [][]byte
	held   int // bytes queued or being written
	peaked bool
}

func newSendQueue(maxBytes int, m *Metrics) *sendQueue {
	return &sendQueue{max: maxBytes, metrics: m, ready: make(chan struct{}, 1)}
}

// push queues b, or reports that it would take the queue over its bound.
// A message larger than the bound passes when nothing else is held.
func (q *sendQueue) push(b []byte) bool {
	q.mu.Lock()
	if q.held > 0 && q.held+len(b) > q.max {
		q.mu.Unlock()
		return false
	}
	q.msgs = append(q.msgs, b)
	q.held += len(b)
	q.metrics.wsQueued(len(b), q.held)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
	return true
}

// take removes up to n queued messages, and no more than maxHeld bytes
// beyond the first; they stay counted until done.
func (q *sendQueue) take(n int) [][]byte {
	q.mu.Lock()
	defer q.mu.Unlock()
	n = min(n, len(q.msgs))
	size := 0
	for i, b := range q.msgs[:n] {
		if size += len(b); i > 0 && size > maxHeld {
			n = i
			break
		}
	}
	out := make([][]byte, n)
	copy(out, q.msgs)
	clear(q.msgs[:n])
	q.msgs = q.msgs[n:]
	if len(q.msgs) == 0 {
		q.msgs = nil
	}
	return out
}

// done stops counting messages that were written.
func (q *sendQueue) done(msgs [][]byte) {
	n := 0
	for _, b := range msgs {
		n += len(b)
	}
	q.mu.Lock()
	q.held -= n
	q.mu.Unlock()
	q.metrics.wsQueued(-n, 0)
}

// release stops counting what the connection left unsent.
func (q *sendQueue) release() {
	q.mu.Lock()
	n := q.held
	q.held, q.msgs = 0, nil
	q.mu.Unlock()
	q.metrics.wsQueued(-n, 0)
}
