package server

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
)

// Metrics counts what the daemon does and serves it in the Prometheus text
// format at /metrics. It watches the event stream (add it to the engine's
// sinks with Sinks) and reads the pool for gauges.
//
// The exposition is written by hand: the official client library could
// not be fetched when this was written, and the handful of counters and
// one histogram here need little. It follows the text format 0.0.4.
type Metrics struct {
	turns, coldStarts, warmStarts, resumes, errors atomic.Int64
	inputTokens, outputTokens                      atomic.Int64

	mu           sync.Mutex
	costMicroUSD int64
	events       map[string]int64
	blocks       map[string]int64
	latency      histogram
}

// latencyBuckets are the turn latency histogram's upper bounds, in seconds.
var latencyBuckets = []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300}

type histogram struct {
	counts []int64 // per bucket, not cumulative
	sum    float64
	n      int64
}

// NewMetrics returns zeroed metrics.
func NewMetrics() *Metrics {
	return &Metrics{events: map[string]int64{}, blocks: map[string]int64{}, latency: histogram{counts: make([]int64, len(latencyBuckets))}}
}

// Publish observes one event; it makes Metrics an engine.EventSink.
func (m *Metrics) Publish(ev *event.EventWithMeta) {
	switch ev.EventType {
	case event.TypeSessionStart:
		switch {
		case ev.SessionStart == nil:
		case ev.ColdStart && ev.Resumed:
			m.coldStarts.Add(1)
			m.resumes.Add(1)
		case ev.ColdStart:
			m.coldStarts.Add(1)
		default:
			m.warmStarts.Add(1)
		}
	case event.TypeResult:
		m.turns.Add(1)
		if ev.Turn != nil {
			m.inputTokens.Add(int64(ev.Turn.InputTokens))
			m.outputTokens.Add(int64(ev.Turn.OutputTokens))
			if ev.Turn.IsError {
				m.errors.Add(1)
			}
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.events[ev.EventType]++
	switch ev.EventType {
	case event.TypeDangerBlock:
		cat := "unknown"
		if ev.Danger != nil {
			cat = ev.Danger.Category
		}
		m.blocks[cat]++
	case event.TypeResult:
		if ev.Turn != nil {
			m.costMicroUSD += int64(math.Round(ev.Turn.CostUSD * 1e6))
		}
		secs := float64(ev.Meta.DurationMs) / 1000
		i := sort.SearchFloat64s(latencyBuckets, secs)
		if i < len(m.latency.counts) {
			m.latency.counts[i]++
		}
		m.latency.sum += secs
		m.latency.n++
	}
}

// Sinks hands each event to several sinks, in order.
type Sinks []engine.EventSink

// Publish implements engine.EventSink.
func (s Sinks) Publish(ev *event.EventWithMeta) {
	for _, sink := range s {
		sink.Publish(ev)
	}
}

func (s *Server) metrics(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	m := s.opts.Metrics
	if m == nil {
		m = NewMetrics()
	}
	byStatus := map[string]int{}
	for _, sess := range s.opts.Engine.ListActiveSessions() {
		byStatus[string(sess.Status)]++
	}
	m.write(w, byStatus)
}

func (m *Metrics) write(w io.Writer, byStatus map[string]int) {
	gauge := func(name, help string) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name)
	}
	counter := func(name, help string, v int64) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n%s %d\n", name, help, name, name, v)
	}
	gauge("hotplex_sessions", "Sessions in the pool by status.")
	for _, st := range []engine.SessionStatus{engine.StatusStarting, engine.StatusReady, engine.StatusBusy, engine.StatusDead} {
		fmt.Fprintf(w, "hotplex_sessions{status=%q} %d\n", st, byStatus[string(st)])
	}
	counter("hotplex_turns_total", "Turns completed.", m.turns.Load())
	counter("hotplex_turn_errors_total", "Turns that ended in an error.", m.errors.Load())
	fmt.Fprintf(w, "# HELP hotplex_turn_starts_total Turns by how their process was found.\n# TYPE hotplex_turn_starts_total counter\n")
	fmt.Fprintf(w, "hotplex_turn_starts_total{start=\"cold\"} %d\nhotplex_turn_starts_total{start=\"warm\"} %d\n", m.coldStarts.Load(), m.warmStarts.Load())
	counter("hotplex_process_restarts_total", "CLI processes started to resume a conversation (after reaping, a crash or a restart).", m.resumes.Load())
	fmt.Fprintf(w, "# HELP hotplex_tokens_total Tokens by direction.\n# TYPE hotplex_tokens_total counter\n")
	fmt.Fprintf(w, "hotplex_tokens_total{direction=\"input\"} %d\nhotplex_tokens_total{direction=\"output\"} %d\n", m.inputTokens.Load(), m.outputTokens.Load())

	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Fprintf(w, "# HELP hotplex_cost_usd_total Model cost reported by the CLIs.\n# TYPE hotplex_cost_usd_total counter\nhotplex_cost_usd_total %g\n", float64(m.costMicroUSD)/1e6)
	fmt.Fprintf(w, "# HELP hotplex_events_total Events by type.\n# TYPE hotplex_events_total counter\n")
	for _, k := range sortedKeys(m.events) {
		fmt.Fprintf(w, "hotplex_events_total{type=%q} %d\n", k, m.events[k])
	}
	fmt.Fprintf(w, "# HELP hotplex_danger_blocks_total Firewall blocks by category.\n# TYPE hotplex_danger_blocks_total counter\n")
	for _, k := range sortedKeys(m.blocks) {
		fmt.Fprintf(w, "hotplex_danger_blocks_total{category=%q} %d\n", k, m.blocks[k])
	}
	fmt.Fprintf(w, "# HELP hotplex_turn_duration_seconds Turn latency.\n# TYPE hotplex_turn_duration_seconds histogram\n")
	var cum int64
	for i, le := range latencyBuckets {
		cum += m.latency.counts[i]
		fmt.Fprintf(w, "hotplex_turn_duration_seconds_bucket{le=%q} %d\n", strings.TrimSuffix(fmt.Sprintf("%g", le), ".0"), cum)
	}
	fmt.Fprintf(w, "hotplex_turn_duration_seconds_bucket{le=\"+Inf\"} %d\nhotplex_turn_duration_seconds_sum %g\nhotplex_turn_duration_seconds_count %d\n",
		m.latency.n, m.latency.sum, m.latency.n)
}

func sortedKeys(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
