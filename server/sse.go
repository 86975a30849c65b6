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
}

func newSSE(w http.ResponseWriter) *sseWriter {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s := &sseWriter{w: w, rc: http.NewResponseController(w)}
	_ = s.rc.Flush()
	return s
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
	_ = s.rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := fmt.Fprint(s.w, ": keep-alive\n\n"); err != nil {
		return err
	}
	return s.rc.Flush()
}
