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

// uncork writes what was held back, within timeout.
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
	if cap(c.held) > maxHeld {
		c.held = nil
	} else {
		c.held = c.held[:0]
	}
	return err
}
