package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/store"
)

// sseWriter writes Server-Sent Events: "id:" is the event's per-session
// sequence number, "event:" its type, "data:" its JSON.
type sseWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
	// started is set once the 200 and the stream's headers went out.
	started bool
	// more, when set, reports whether another event is ready to follow
	// at once: events are then written without a flush, and the burst
	// goes out together with its last (see coalesce).
	more func() bool
	// held is set while written events wait for a flush.
	held bool
}

// coalescer is a sink that can write a burst of events with one flush:
// a turn's last events are stored together and arrive together, and
// flushing each one would hand the client (or the pipe of an in-process
// client) one small write per event.
type coalescer interface {
	// coalesce holds flushes back while more reports another event is
	// ready to be written at once.
	coalesce(more func() bool)
	// flushHeld flushes the events held back, if any: before the stream
	// waits for more, and when it ends.
	flushHeld()
}

func (s *sseWriter) coalesce(more func() bool) { s.more = more }

func (s *sseWriter) flushHeld() {
	if s.held {
		s.held = false
		_ = s.rc.Flush()
	}
}

// coalesced sets out up to write each burst of sub's events with one
// flush, when it can. The returned function is to be called before the
// stream waits for sub (it flushes what is held once nothing more is
// ready); end flushes what is left when the stream stops.
func coalesced(out sink, sub *hub.Subscription) (idle, end func()) {
	c, ok := out.(coalescer)
	if !ok {
		return func() {}, func() {}
	}
	c.coalesce(func() bool { return len(sub.C()) > 0 })
	return func() {
			if len(sub.C()) == 0 {
				c.flushHeld()
			}
		}, func() {
			c.coalesce(nil)
			c.flushHeld()
		}
}

// newSSE returns a stream that is open at once.
func newSSE(w http.ResponseWriter) *sseWriter {
	s := newLazySSE(w)
	s.begin()
	return s
}

// newLazySSE returns a stream whose headers go out with its first
// message, so that a request failing before it has anything to say can
// still answer with a plain HTTP error (fail).
func newLazySSE(w http.ResponseWriter) *sseWriter {
	return &sseWriter{w: w, rc: http.NewResponseController(w)}
}

func (s *sseWriter) begin() {
	if s.started {
		return
	}
	s.started = true
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	h.Set("X-Accel-Buffering", "no")
	s.w.WriteHeader(http.StatusOK)
	_ = s.rc.Flush()
}

// fail answers with err as a JSON error if the stream has not started,
// and reports whether it did.
func (s *sseWriter) fail(err error) bool {
	if s.started {
		return false
	}
	s.started = true
	writeError(s.w, turnHTTPError(err))
	return true
}

// event writes one event and flushes it. A write deadline keeps a client
// that stopped reading from holding the handler forever.
func (s *sseWriter) event(ev *hub.Event) error {
	b := ev.JSON
	if b == nil {
		var err error
		if b, err = json.Marshal(ev.EventWithMeta); err != nil {
			return fmt.Errorf("encode event: %w", err)
		}
	}
	return s.raw(strconv.FormatUint(ev.Seq, 10), ev.EventType, b)
}

func (s *sseWriter) raw(id, typ string, data []byte) error {
	s.begin()
	_ = s.rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 0, len(data)+64)
	if id != "" {
		buf = append(buf, "id: "...)
		buf = append(buf, id...)
		buf = append(buf, '\n')
	}
	buf = append(buf, "event: "...)
	buf = append(buf, typ...)
	buf = append(buf, "\ndata: "...)
	buf = append(buf, data...)
	buf = append(buf, "\n\n"...)
	if _, err := s.w.Write(buf); err != nil {
		return err
	}
	if id != "" && s.more != nil && s.more() {
		s.held = true
		return nil
	}
	s.held = false
	return s.rc.Flush()
}

// stored writes an event read back from the store.
func (s *sseWriter) stored(e store.Event) error {
	return s.raw(strconv.FormatUint(e.Seq, 10), e.Type, e.Data)
}

// notice writes a message without an event ID.
func (s *sseWriter) notice(typ string, data any) error {
	return s.raw("", typ, noticeJSON(data))
}

// keepAlive writes a comment line.
func (s *sseWriter) keepAlive() error {
	s.begin()
	_ = s.rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := fmt.Fprint(s.w, ": keep-alive\n\n"); err != nil {
		return err
	}
	return s.rc.Flush()
}
