package opencode

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
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
//
// It also knows which turns each stream has told the end of, so that a
// synchronous prompt can answer only once its caller's streams have shown
// the whole turn: OpenCode's CLI (`opencode run --attach`) prints what its
// stream shows and exits as soon as the prompt answers.
type ocBus struct {
	mu        sync.Mutex
	listeners map[*ocListener]struct{}
	changed   chan struct{} // closed and replaced when listeners change
}

type ocListener struct {
	caller Caller
	c      chan ocBusEvent
	full   chan struct{} // closed when the listener fell a queue behind
	once   sync.Once
	// ended holds, by session key, the number of the last turn end the
	// stream has written.
	ended map[string]uint64
}

type ocBusEvent struct {
	dir string
	ev  ocEvent
}

// ocListenerQueue bounds the bus events a stream may fall behind.
const ocListenerQueue = 256

func (b *ocBus) listen(c Caller) *ocListener {
	l := &ocListener{caller: c, c: make(chan ocBusEvent, ocListenerQueue), full: make(chan struct{}), ended: map[string]uint64{}}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.listeners == nil {
		b.listeners = map[*ocListener]struct{}{}
	}
	b.listeners[l] = struct{}{}
	b.signal()
	return l
}

func (b *ocBus) stop(l *ocListener) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.listeners, l)
	b.signal()
}

// signal wakes whoever waits for a change; b.mu is held.
func (b *ocBus) signal() {
	if b.changed != nil {
		close(b.changed)
	}
	b.changed = make(chan struct{})
}

// wakeup is closed at the next change; b.mu is held.
func (b *ocBus) wakeup() <-chan struct{} {
	if b.changed == nil {
		b.changed = make(chan struct{})
	}
	return b.changed
}

// turnEnded records that l has written the end of key's turn numbered seq.
func (b *ocBus) turnEnded(l *ocListener, key string, seq uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	l.ended[key] = seq
	b.signal()
}

// awaitStream waits, at most for wait, until the key id has an event
// stream open.
func (b *ocBus) awaitStream(ctx context.Context, id string, wait time.Duration) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		b.mu.Lock()
		open := false
		for l := range b.listeners {
			open = open || l.caller.ID == id
		}
		ch := b.wakeup()
		b.mu.Unlock()
		if open {
			return
		}
		select {
		case <-ch:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// streamsOf are the event streams of the key id open now.
func (b *ocBus) streamsOf(id string) []*ocListener {
	b.mu.Lock()
	defer b.mu.Unlock()
	var streams []*ocListener
	for l := range b.listeners {
		if l.caller.ID == id {
			streams = append(streams, l)
		}
	}
	return streams
}

// awaitEnd waits, at most for wait, until every one of streams (open
// before the turn began, so each is sure to see it end) has written the
// end of key's turn numbered seq, or closed.
func (b *ocBus) awaitEnd(ctx context.Context, streams []*ocListener, key string, seq uint64, wait time.Duration) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		b.mu.Lock()
		behind := false
		for _, l := range streams {
			if _, open := b.listeners[l]; open && l.ended[key] < seq {
				behind = true
			}
		}
		ch := b.wakeup()
		b.mu.Unlock()
		if !behind {
			return
		}
		select {
		case <-ch:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
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
	st      store.Session
	conv    *ocConversation
}

type ocSessionDiff struct {
	SessionID string       `json:"sessionID"`
	Diff      []ocFileDiff `json:"diff"`
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
	// A client that (re)connects is asked again what still waits for a
	// person, however long ago it was first asked.
	if sessions, perms, err := a.pending(ctx, c); err == nil {
		for i, st := range sessions {
			for _, p := range perms[i] {
				if write(st.WorkDir, ocEvent{"permission.asked", permissionRequestOf(publicID(st), "", p.ID, p.Tool, p.CallID, p.Input)}) != nil {
					return
				}
			}
		}
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
			if ev.EventType == event.TypeResult {
				// What the turn changed, for the TUI's list of modified
				// files, told before the turn's end.
				if d, err := a.sessionDiff(ctx, f.st); err == nil {
					if write(f.dir, ocEvent{"session.diff", ocSessionDiff{f.conv.sessionID, d}}) != nil {
						return
					}
				}
			}
			for _, oe := range f.conv.apply(ev.EventWithMeta) {
				if write(f.dir, oe) != nil {
					return
				}
			}
			if ev.EventType == event.TypeResult {
				a.bus.turnEnded(l, ev.SessionID, ev.Seq)
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
	conv.waiting = func(id string) bool {
		return slices.ContainsFunc(a.host.Pending(st), func(p Permission) bool { return p.ID == id })
	}
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
	return &ocFollowed{allowed: true, dir: st.WorkDir, st: st, conv: conv}
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
