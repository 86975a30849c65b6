package opencode

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/store"
)

// ocGlobalEvent is an event of /global/event: the payload with the
// directory of the session it concerns.
type ocGlobalEvent struct {
	Directory string  `json:"directory"`
	Payload   ocEvent `json:"payload"`
}

// ocBus carries the OpenCode events that do not come from a session's
// event stream (a session created, renamed, deleted, a prompt refused) to
// the /event streams allowed to see them.
type ocBus struct {
	mu        sync.Mutex
	listeners map[*ocListener]struct{}
}

type ocListener struct {
	caller Caller
	c      chan ocBusEvent
	full   chan struct{} // closed when the listener fell a queue behind
	once   sync.Once
}

type ocBusEvent struct {
	dir string
	ev  ocEvent
}

// ocListenerQueue bounds the bus events a stream may fall behind.
const ocListenerQueue = 256

func (b *ocBus) listen(c Caller) *ocListener {
	l := &ocListener{caller: c, c: make(chan ocBusEvent, ocListenerQueue), full: make(chan struct{})}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.listeners == nil {
		b.listeners = map[*ocListener]struct{}{}
	}
	b.listeners[l] = struct{}{}
	return l
}

func (b *ocBus) stop(l *ocListener) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.listeners, l)
}

// publish hands an event about a session of owner to the listeners that
// may see it.
func (b *ocBus) publish(owner, dir string, ev ocEvent) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for l := range b.listeners {
		if !l.caller.Admin && l.caller.ID != owner {
			continue
		}
		select {
		case l.c <- ocBusEvent{dir: dir, ev: ev}:
		default:
			l.once.Do(func() { close(l.full) })
		}
	}
}

// ocFollowed is what an event stream knows of one session.
type ocFollowed struct {
	allowed bool
	dir     string
	conv    *ocConversation
}

func (a *API) ocEvents(w http.ResponseWriter, r *http.Request) { a.ocStream(w, r, false) }

func (a *API) ocGlobalEvents(w http.ResponseWriter, r *http.Request) { a.ocStream(w, r, true) }

// ocStream streams the events of every session the caller may see, as
// OpenCode's event stream does: SSE data lines only, no IDs (OpenCode's
// clients do not resume; they list messages again).
func (a *API) ocStream(w http.ResponseWriter, r *http.Request, global bool) {
	ctx := r.Context()
	c := a.host.Caller(r)
	sub := a.hub.SubscribeAll()
	defer sub.Close()
	l := a.bus.listen(c)
	defer a.bus.stop(l)
	out := newSSE(w)
	write := func(dir string, ev ocEvent) error {
		var v any = ev
		if global {
			v = ocGlobalEvent{Directory: dir, Payload: ev}
		}
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		return out.data(b)
	}
	if write("", ocEvent{"server.connected", struct{}{}}) != nil {
		return
	}
	followed := map[string]*ocFollowed{}
	keepAlive := time.NewTicker(a.every)
	defer keepAlive.Stop()
	for {
		select {
		case ev, ok := <-sub.C():
			if !ok {
				return // too slow, or the daemon is closing: the client reconnects
			}
			f := followed[ev.SessionID]
			if f == nil {
				f = a.ocFollow(ctx, c, ev.EventWithMeta)
				followed[ev.SessionID] = f
			}
			if !f.allowed {
				continue
			}
			for _, oe := range f.conv.apply(ev.EventWithMeta) {
				if write(f.dir, oe) != nil {
					return
				}
			}
		case be := <-l.c:
			if be.ev.Type == "session.deleted" {
				if info, ok := be.ev.Properties.(ocInfo); ok {
					if sess, ok := info.Info.(ocSession); ok {
						delete(followed, sess.ID)
					}
				}
			}
			if write(be.dir, be.ev) != nil {
				return
			}
		case <-l.full:
			return
		case <-keepAlive.C:
			if out.keepAlive() != nil {
				return
			}
		case <-ctx.Done():
			return
		case <-a.done:
			return
		}
	}
}

// ocReplayWindow is how far back a stream looks for the start of a turn
// it joins in the middle.
const ocReplayWindow = 1024

// ocFollow decides whether the caller may see ev's session and, if so,
// prepares its conversation: when ev is not the first event of a turn, the
// turn's earlier events are read back from the store, where the recorder
// put them before ev was published.
func (a *API) ocFollow(ctx context.Context, c Caller, ev *event.EventWithMeta) *ocFollowed {
	st, err := a.host.SessionByKey(ctx, c, ev.SessionID)
	if err != nil {
		return &ocFollowed{}
	}
	conv := &ocConversation{sessionID: publicID(st), provider: st.Provider, workDir: st.WorkDir, keep: 1}
	if ev.EventType != event.TypeSessionStart && ev.Seq > 1 {
		after := uint64(0)
		if ev.Seq > ocReplayWindow {
			after = ev.Seq - ocReplayWindow
		}
		earlier, err := a.store.Events(ctx, st.ID, after, int(ev.Seq-after-1))
		if err == nil {
			prior := make([]*event.EventWithMeta, 0, len(earlier))
			for _, e := range earlier {
				if e.Seq >= ev.Seq {
					break
				}
				if pe := decodeStored(e); pe != nil {
					prior = append(prior, pe)
				}
			}
			// Only the turn ev belongs to matters: start after the last
			// result before it.
			from := 0
			for i, pe := range prior {
				if pe.EventType == event.TypeResult {
					from = i + 1
				}
			}
			for _, pe := range prior[from:] {
				conv.apply(pe)
			}
		}
	}
	return &ocFollowed{allowed: true, dir: st.WorkDir, conv: conv}
}

// decodeStored reads a stored event back, or nil if it cannot be.
func decodeStored(e store.Event) *event.EventWithMeta {
	var ev event.EventWithMeta
	if json.Unmarshal(e.Data, &ev) != nil {
		return nil
	}
	if ev.Meta == nil {
		ev.Meta = &event.EventMeta{}
	}
	return &ev
}

// sseWriter writes a stream of Server-Sent Events with data lines only,
// as OpenCode's event stream is.
type sseWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

// writeTimeout bounds each write to a stream's client.
const writeTimeout = 10 * time.Second

// newSSE opens a stream.
func newSSE(w http.ResponseWriter) *sseWriter {
	s := &sseWriter{w: w, rc: http.NewResponseController(w)}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	_ = s.rc.Flush()
	return s
}

// data writes an SSE message with only a data line.
func (s *sseWriter) data(b []byte) error {
	_ = s.rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	buf := make([]byte, 0, len(b)+8)
	buf = append(buf, "data: "...)
	buf = append(buf, b...)
	buf = append(buf, "\n\n"...)
	if _, err := s.w.Write(buf); err != nil {
		return err
	}
	return s.rc.Flush()
}

// keepAlive writes a comment line.
func (s *sseWriter) keepAlive() error {
	_ = s.rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	if _, err := io.WriteString(s.w, ": keep-alive\n\n"); err != nil {
		return err
	}
	return s.rc.Flush()
}
