package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/hotplex/hotplex/store"
)

// journal is the file where a recorder with a store on this machine puts
// events before it delivers them, so that what a client saw survives a
// crash of the daemon although the store writes it a little later: one
// line of JSON per event (the event as the store keeps it), appended with
// one write per batch. Once the store holds every event written here, the
// file is emptied. At start, whatever it still holds (the daemon died
// before storing it) is stored first (see replayJournal).
type journal struct {
	mu      sync.Mutex
	f       *os.File
	path    string
	written uint64 // events given to append since the file was opened
	size    int64  // the file's length
	buf     []byte
}

// openJournal opens (creating it) the journal at path, storing in st what
// an earlier run left there, then emptying it.
func openJournal(ctx context.Context, path string, st store.Store) (*journal, int, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, 0, fmt.Errorf("event journal: %w", err)
	}
	n, err := replayJournal(ctx, f, st)
	if err == nil {
		err = emptyFile(f)
	}
	if err != nil {
		_ = f.Close()
		return nil, 0, fmt.Errorf("event journal %s: %w", path, err)
	}
	return &journal{f: f, path: path}, n, nil
}

// append writes a batch's events, one line each, in one write. A batch
// whose write fails is still counted: the store is then the only copy.
func (j *journal) append(batch []queued) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.written += uint64(len(batch))
	j.buf = j.buf[:0]
	for _, q := range batch {
		if q.err == nil {
			j.buf = append(append(j.buf, q.data...), '\n')
		}
	}
	if len(j.buf) == 0 {
		return nil
	}
	if _, err := j.f.Write(j.buf); err != nil {
		// A part written (the disk filled) would spoil the next line:
		// the file goes back to where it was.
		if fi, serr := j.f.Stat(); serr == nil && fi.Size() > j.size {
			_ = j.f.Truncate(j.size)
		}
		return fmt.Errorf("event journal %s: %w", j.path, err)
	}
	j.size += int64(len(j.buf))
	return nil
}

// caughtUp empties the file when the store holds every event it was
// given (stored counts them as append does).
func (j *journal) caughtUp(stored uint64) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if stored != j.written {
		return nil
	}
	if j.size == 0 {
		return nil
	}
	if err := emptyFile(j.f); err != nil {
		return fmt.Errorf("event journal %s: %w", j.path, err)
	}
	j.size = 0
	return nil
}

func (j *journal) close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.f.Close()
}

func emptyFile(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.Seek(0, io.SeekStart)
	return err
}

// journalLine is what replay reads of an event's JSON.
type journalLine struct {
	SessionID string    `json:"session_id"`
	Seq       uint64    `json:"seq"`
	Type      string    `json:"event_type"`
	Time      time.Time `json:"time"`
}

// replayJournal stores the events of a journal that the store does not
// hold yet, in order, and returns how many it stored. An event at or
// below its session's stored LastSeq was stored before the daemon died;
// one of a session deleted since is dropped with it; a last line without
// its newline was being written when the daemon died, and was never
// delivered. A line that is not an event is an error: the journal is then
// left as it is for a person to look at.
func replayJournal(ctx context.Context, f *os.File, st store.Store) (int, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	var (
		events []store.Event
		order  []string
		by     = map[string][]store.Event{}
	)
	r := bufio.NewReaderSize(f, 64<<10)
	for line := 1; ; line++ {
		b, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			break // a torn last line, or none
		}
		if err != nil {
			return 0, err
		}
		b = bytes.TrimSuffix(b, []byte{'\n'})
		var l journalLine
		if err := json.Unmarshal(b, &l); err != nil || l.SessionID == "" || l.Seq == 0 {
			return 0, fmt.Errorf("line %d is not an event (%.60q): %w", line, b, store.ErrInvalid)
		}
		if _, ok := by[l.SessionID]; !ok {
			order = append(order, l.SessionID)
		}
		by[l.SessionID] = append(by[l.SessionID], store.Event{SessionID: l.SessionID, Seq: l.Seq, Type: l.Type, Data: b, Time: l.Time})
	}
	stored := 0
	for _, id := range order {
		s, err := st.GetSession(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return stored, fmt.Errorf("session %q: %w", id, err)
		}
		events = events[:0]
		last := s.LastSeq
		for _, e := range by[id] {
			if e.Seq > last {
				events = append(events, e)
				last = e.Seq
			}
		}
		for rest := events; len(rest) > 0; {
			chunk := rest[:min(len(rest), recorderBatch)]
			rest = rest[len(chunk):]
			if err := st.AppendEvents(ctx, chunk...); err != nil && !errors.Is(err, store.ErrNotFound) {
				return stored, fmt.Errorf("session %q: %w", id, err)
			}
			stored += len(chunk)
		}
	}
	return stored, nil
}
