package webhook

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// Outcomes of an attempt in the delivery log.
const (
	// OutcomeDelivered: the receiver answered 2xx.
	OutcomeDelivered = "delivered"
	// OutcomeRetrying: the attempt failed and another will follow.
	OutcomeRetrying = "retrying"
	// OutcomeFailed: the last attempt failed; the delivery is given up.
	OutcomeFailed = "failed"
	// OutcomeDropped: the hook's queue was full and this, its oldest
	// pending delivery, made room for a newer one without being tried.
	OutcomeDropped = "dropped"
)

// Attempt is one entry of a hook's delivery log.
type Attempt struct {
	EventID string `json:"event_id"`
	Type    string `json:"type"`
	// Attempt counts from 1 (0 for a delivery dropped untried).
	Attempt    int       `json:"attempt"`
	StatusCode int       `json:"status_code,omitempty"`
	Error      string    `json:"error,omitempty"`
	Outcome    string    `json:"outcome"`
	Time       time.Time `json:"time"`
	DurationMs int64     `json:"duration_ms"`
}

// Log is a hook's delivery log: its latest attempts, newest first, and
// its counts since the daemon started.
type Log struct {
	Attempts []Attempt `json:"attempts"`
	// Pending counts the deliveries waiting, the one being tried included.
	Pending   int   `json:"pending"`
	Delivered int64 `json:"delivered"`
	Failed    int64 `json:"failed"`
	Dropped   int64 `json:"dropped"`
}

// delivery is one event for one hook.
type delivery struct {
	id, typ     string
	body        []byte
	url, secret string
}

// hookQueue holds one hook's pending deliveries and its log. Its worker
// goroutine runs while deliveries are pending, one at a time and in
// order (a delivery being retried holds the ones behind it, so a
// receiver sees a hook's events in the order they happened).
type hookQueue struct {
	id, owner string

	mu        sync.Mutex
	pending   []delivery
	inFlight  bool
	running   bool // a worker goroutine owns the queue
	gone      bool // the hook was deleted
	log       []Attempt
	delivered int64
	failed    int64
	dropped   int64
}

// push queues d, dropping the oldest pending delivery when the queue is
// full, and starts the worker if none runs. Only the dispatcher pushes.
func (q *hookQueue) push(n *Notifier, d delivery) {
	q.mu.Lock()
	if q.gone {
		q.mu.Unlock()
		return
	}
	if len(q.pending) >= n.opts.QueueSize {
		old := q.pending[0]
		q.pending = q.pending[1:]
		q.dropped++
		q.recordLocked(n, Attempt{EventID: old.id, Type: old.typ, Outcome: OutcomeDropped, Error: "the hook's queue was full", Time: time.Now().UTC()})
		n.log.Warn("webhook delivery dropped: the hook's queue is full", "hook", q.id, "owner", q.owner, "event_id", old.id,
			"type", old.typ, "dropped_total", q.dropped)
	}
	q.pending = append(q.pending, d)
	start := !q.running
	q.running = true
	q.mu.Unlock()
	if start {
		n.wg.Go(func() { q.work(n) })
	}
}

// work delivers the pending deliveries in order and ends when there are
// none, when the hook is deleted or when the notifier closes.
func (q *hookQueue) work(n *Notifier) {
	for {
		q.mu.Lock()
		if len(q.pending) == 0 || q.gone || n.ctx.Err() != nil {
			q.running, q.inFlight = false, false
			q.mu.Unlock()
			return
		}
		d := q.pending[0]
		q.pending = q.pending[1:]
		q.inFlight = true
		q.mu.Unlock()
		q.deliver(n, d)
		q.mu.Lock()
		q.inFlight = false
		q.mu.Unlock()
	}
}

// deliver tries d until it is delivered, its attempts run out, the hook
// is deleted or the notifier closes.
func (q *hookQueue) deliver(n *Notifier, d delivery) {
	r := n.opts.Retry
	for attempt := 1; ; attempt++ {
		start := time.Now()
		code, err := n.send(d)
		if n.ctx.Err() != nil {
			return // closing: the attempt was cut short, not failed
		}
		a := Attempt{EventID: d.id, Type: d.typ, Attempt: attempt, StatusCode: code, Time: start.UTC(),
			DurationMs: time.Since(start).Milliseconds(), Outcome: OutcomeDelivered}
		if err != nil {
			a.Error = err.Error()
			a.Outcome = OutcomeRetrying
			if attempt >= r.Attempts {
				a.Outcome = OutcomeFailed
			}
		}
		q.mu.Lock()
		q.recordLocked(n, a)
		switch a.Outcome {
		case OutcomeDelivered:
			q.delivered++
		case OutcomeFailed:
			q.failed++
		}
		gone := q.gone
		q.mu.Unlock()
		switch {
		case a.Outcome == OutcomeDelivered:
			return
		case a.Outcome == OutcomeFailed:
			n.log.Warn("webhook delivery failed", "hook", q.id, "owner", q.owner, "event_id", d.id, "type", d.typ, "attempts", attempt, "err", err)
			return
		case gone:
			return
		}
		t := time.NewTimer(backoff(r, attempt))
		select {
		case <-n.ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// backoff is the wait after the attempt-th failure: Base doubled each
// time up to Max, drawn between half and all of it.
func backoff(r Retry, attempt int) time.Duration {
	d := r.Max
	if attempt-1 < 32 {
		d = min(r.Max, r.Base<<(attempt-1))
	}
	if d <= 0 {
		d = r.Max
	}
	return d/2 + rand.N(d/2+1)
}

// send makes one attempt: signed now, a 2xx answer within the timeout is
// a success.
func (n *Notifier) send(d delivery) (int, error) {
	ctx, cancel := context.WithTimeout(n.ctx, n.opts.Retry.Timeout)
	defer cancel()
	now := time.Now()
	sig, err := Sign(d.secret, d.id, now, d.body)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.url, bytes.NewReader(d.body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "HotPlex-Webhooks/1")
	req.Header.Set(HeaderID, d.id)
	req.Header.Set(HeaderTimestamp, fmt.Sprint(now.Unix()))
	req.Header.Set(HeaderSignature, sig)
	resp, err := n.client.Do(req)
	if err != nil {
		return 0, err
	}
	// Read a little of the answer so the connection can be reused.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("the receiver answered %s", resp.Status)
	}
	return resp.StatusCode, nil
}

// recordLocked adds a to the log, keeping the latest LogSize entries.
func (q *hookQueue) recordLocked(n *Notifier, a Attempt) {
	q.log = append(q.log, a)
	if over := len(q.log) - n.opts.LogSize; over > 0 {
		q.log = append(q.log[:0], q.log[over:]...)
	}
}

// clear forgets the pending deliveries of a deleted hook; an attempt in
// flight ends without retries.
func (q *hookQueue) clear() {
	q.mu.Lock()
	q.gone = true
	q.pending = nil
	q.mu.Unlock()
}

func (q *hookQueue) snapshot() Log {
	q.mu.Lock()
	defer q.mu.Unlock()
	l := Log{Attempts: make([]Attempt, 0, len(q.log)), Pending: len(q.pending), Delivered: q.delivered, Failed: q.failed, Dropped: q.dropped}
	if q.inFlight {
		l.Pending++
	}
	for i := len(q.log) - 1; i >= 0; i-- {
		l.Attempts = append(l.Attempts, q.log[i])
	}
	return l
}

// configID is the ID of a hook from the configuration file: the same for
// the same key and URL at every start.
func configID(owner, url string) string {
	sum := sha256.Sum256([]byte(owner + "\x00" + url))
	return "hook_cfg_" + hex.EncodeToString(sum[:10])
}
