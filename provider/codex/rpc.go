package codex

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
)

// message is one JSON-RPC frame of the app-server protocol (which leaves
// out the "jsonrpc" member).
type message struct {
	ID     *json.RawMessage `json:"id,omitempty"`
	Method string           `json:"method,omitempty"`
	Params json.RawMessage  `json:"params,omitempty"`
	Result json.RawMessage  `json:"result,omitempty"`
	Error  *rpcError        `json:"error,omitempty"`
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string {
	if len(e.Data) > 0 {
		return fmt.Sprintf("%s (code %d): %s", e.Message, e.Code, e.Data)
	}
	return fmt.Sprintf("%s (code %d)", e.Message, e.Code)
}

// errDisconnected is returned for requests the server can no longer answer.
var errDisconnected = errors.New("the app server closed its output")

// conn is a JSON-RPC connection over the server's stdio. One goroutine
// reads: it resolves responses and hands the server's requests and
// notifications to inbound, in order.
type conn struct {
	w       io.Writer
	writeMu sync.Mutex
	seq     atomic.Int64

	mu      sync.Mutex
	pending map[string]chan message

	done    chan struct{}
	inbound func(message)
}

func newConn(w io.Writer, r io.Reader, inbound func(message)) *conn {
	c := &conn{w: w, pending: map[string]chan message{}, done: make(chan struct{}), inbound: inbound}
	go c.read(r)
	return c
}

func (c *conn) read(r io.Reader) {
	defer func() {
		c.mu.Lock()
		close(c.done)
		for id, ch := range c.pending {
			close(ch)
			delete(c.pending, id)
		}
		c.mu.Unlock()
	}()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		var m message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			continue
		}
		if m.ID != nil && m.Method == "" {
			c.mu.Lock()
			ch, ok := c.pending[string(*m.ID)]
			delete(c.pending, string(*m.ID))
			c.mu.Unlock()
			if ok {
				ch <- m
			}
			continue
		}
		if m.Method != "" {
			c.inbound(m)
		}
	}
}

func (c *conn) send(m any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode frame: %w", err)
	}
	b = append(b, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := c.w.Write(b); err != nil {
		return fmt.Errorf("write to the app server: %w", err)
	}
	return nil
}

// call sends a request and decodes its result into out (when non-nil).
func (c *conn) call(ctx context.Context, method string, params, out any) error {
	id := strconv.FormatInt(c.seq.Add(1), 10)
	ch := make(chan message, 1)
	c.mu.Lock()
	select {
	case <-c.done:
		c.mu.Unlock()
		return errDisconnected
	default:
	}
	c.pending[id] = ch
	c.mu.Unlock()
	raw := json.RawMessage(id)
	if err := c.send(map[string]any{"id": &raw, "method": method, "params": params}); err != nil {
		c.forget(id)
		return err
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return errDisconnected
		}
		if m.Error != nil {
			return fmt.Errorf("%s: %w", method, m.Error)
		}
		if out != nil && len(m.Result) > 0 {
			if err := json.Unmarshal(m.Result, out); err != nil {
				return fmt.Errorf("%s: decode result: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		c.forget(id)
		return context.Cause(ctx)
	}
}

func (c *conn) forget(id string) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

func (c *conn) notify(method string, params any) error {
	m := map[string]any{"method": method}
	if params != nil {
		m["params"] = params
	}
	return c.send(m)
}

// reply answers a request of the server.
func (c *conn) reply(id *json.RawMessage, result any) error {
	return c.send(map[string]any{"id": id, "result": result})
}

// fail answers a request of the server with an error.
func (c *conn) fail(id *json.RawMessage, code int, msg string) error {
	return c.send(map[string]any{"id": id, "error": map[string]any{"code": code, "message": msg}})
}
