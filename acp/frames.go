package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

// frames passes the editor's JSON-RPC messages, one a line, on to the
// connection, and answers those that cannot be one itself, as JSON-RPC
// asks and the connection does not (it logs and drops them): a line that
// is not JSON gets a parse error, a batch (ACP has none) an invalid
// request, both with a null id.
type frames struct {
	r       *bufio.Reader
	out     *lockedWriter
	pending []byte
}

func newFrames(in io.Reader, out *lockedWriter) *frames {
	return &frames{r: bufio.NewReaderSize(in, 64<<10), out: out}
}

func (f *frames) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		line, err := f.r.ReadBytes('\n')
		if len(line) > 0 {
			f.pending = f.check(line)
		}
		if err != nil && len(f.pending) == 0 {
			return 0, err
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// check is what of line goes on to the connection.
func (f *frames) check(line []byte) []byte {
	body := bytes.TrimSpace(line)
	switch {
	case len(body) == 0:
		return line
	case !json.Valid(body):
		f.refuse(-32700, "Parse error", "the line is not JSON")
		return nil
	case body[0] == '[':
		f.refuse(-32600, "Invalid request", "ACP has no batches: send one message a line")
		return nil
	case body[0] != '{':
		f.refuse(-32600, "Invalid request", "a message is a JSON object")
		return nil
	}
	return line
}

func (f *frames) refuse(code int, message, detail string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": code, "message": message, "data": map[string]string{"error": detail}}})
	_, _ = f.out.Write(append(b, '\n'))
}

// lockedWriter is the editor's input, written whole message by whole
// message by the connection and by frames. While a turn's burst of
// events is translated (hold), the messages gather and go out together
// when the burst is over (release): one write, and one wake-up of the
// editor, a burst rather than a message.
type lockedWriter struct {
	mu    sync.Mutex
	w     io.Writer
	holds int
	// ending counts the holds that end with the next message (see
	// releaseWithNext).
	ending int
	held   []byte
	err    error // of writing what was held: the next write reports it
}

// maxHeld bounds what a burst holds back; past it, it goes out.
const maxHeld = 256 << 10

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return 0, l.err
	}
	if l.holds > 0 && len(l.held)+len(p) <= maxHeld {
		l.held = append(l.held, p...)
		if l.ending > 0 {
			l.holds, l.ending = l.holds-l.ending, 0
			if l.holds == 0 {
				return len(p), l.flushLocked()
			}
		}
		return len(p), nil
	}
	if l.ending > 0 {
		l.holds, l.ending = l.holds-l.ending, 0
	}
	if err := l.flushLocked(); err != nil {
		return 0, err
	}
	return l.w.Write(p)
}

// hold starts holding messages back; each hold ends with a release.
func (l *lockedWriter) hold() {
	l.mu.Lock()
	l.holds++
	l.mu.Unlock()
}

// release ends a hold, and writes what was held once no hold is left.
func (l *lockedWriter) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holds--; l.holds == 0 {
		_ = l.flushLocked()
	}
}

// releaseWithNext ends a hold with the next message written, whoever
// writes it: a request's answer, which the connection writes once the
// handler returns, goes out with the updates held before it.
func (l *lockedWriter) releaseWithNext() {
	l.mu.Lock()
	l.ending++
	l.mu.Unlock()
}

func (l *lockedWriter) flushLocked() error {
	if len(l.held) == 0 || l.err != nil {
		return l.err
	}
	_, l.err = l.w.Write(l.held)
	l.held = l.held[:0]
	return l.err
}
