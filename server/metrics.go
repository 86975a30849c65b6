package server

import (
	"errors"
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/gateway"
)

// Metrics counts what the daemon does, for Prometheus at /metrics. It
// watches the event stream (add it to the engine's sinks with Sinks); the
// server adds the pool's gauges when it is given the metrics. Each Metrics
// has a registry of its own, so that several daemons in one process (as
// in tests) count apart.
type Metrics struct {
	registry *prometheus.Registry

	turns, turnErrors, restarts, cost prometheus.Counter
	starts, tokens, events, blocks    *prometheus.CounterVec
	latency                           prometheus.Histogram
	coldStarts, warmStarts            prometheus.Counter
	inputTokens, outputTokens         prometheus.Counter
	// failures counts turns the daemon ran that failed, by error code,
	// whether or not the agent got as far as a result.
	failures *prometheus.CounterVec

	// reg registers into registry, with the node's label on a node of a
	// cluster.
	reg prometheus.Registerer

	wsQueuedBytes prometheus.Gauge
	wsSlowDrops   prometheus.Counter
	wsPeakMu      sync.Mutex
	wsPeak        int
}

// latencyBuckets are the turn latency histogram's upper bounds, in seconds.
var latencyBuckets = []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300}

// NewMetrics returns zeroed metrics with the Go runtime's and the
// process's own.
func NewMetrics() *Metrics { return NewNodeMetrics("") }

// NewNodeMetrics is NewMetrics for a node of a cluster: every series
// carries the label node="<node>", so one Prometheus scraping every node
// tells them apart and sums them. An empty node adds no label.
func NewNodeMetrics(node string) *Metrics {
	m := &Metrics{registry: prometheus.NewRegistry()}
	m.reg = m.registry
	if node != "" {
		m.reg = prometheus.WrapRegistererWith(prometheus.Labels{"node": node}, m.registry)
	}
	counter := func(name, help string) prometheus.Counter {
		return prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
	}
	vec := func(name, help, label string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{label})
	}
	m.turns = counter("hotplex_turns_total", "Turns completed.")
	m.turnErrors = counter("hotplex_turn_errors_total", "Turns that ended in an error.")
	m.restarts = counter("hotplex_process_restarts_total", "CLI processes started to resume a conversation (after reaping, a crash or a restart).")
	m.cost = counter("hotplex_cost_usd_total", "Model cost reported by the CLIs.")
	m.starts = vec("hotplex_turn_starts_total", "Turns by how their process was found.", "start")
	m.tokens = vec("hotplex_tokens_total", "Tokens by direction.", "direction")
	m.events = vec("hotplex_events_total", "Events by type.", "type")
	m.blocks = vec("hotplex_danger_blocks_total", "Firewall blocks by category.", "category")
	m.latency = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "hotplex_turn_duration_seconds", Help: "Turn latency.", Buckets: latencyBuckets})
	// Both label values of the fixed sets exist from the start, at zero.
	m.coldStarts, m.warmStarts = m.starts.WithLabelValues("cold"), m.starts.WithLabelValues("warm")
	m.inputTokens, m.outputTokens = m.tokens.WithLabelValues("input"), m.tokens.WithLabelValues("output")
	m.failures = vec("hotplex_turn_failures_total", "Turns served by the daemon that failed, by error code (busy, overloaded, agent_died, timeout, ...).", "code")
	m.wsQueuedBytes = prometheus.NewGauge(prometheus.GaugeOpts{Name: "hotplex_ws_queued_bytes", Help: "Bytes waiting to be written to WebSocket clients."})
	m.wsSlowDrops = counter("hotplex_ws_slow_clients_dropped_total", "WebSocket clients closed for falling too far behind.")
	wsPeak := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "hotplex_ws_queue_peak_bytes", Help: "Most bytes one WebSocket connection has held waiting to be written."}, func() float64 {
		m.wsPeakMu.Lock()
		defer m.wsPeakMu.Unlock()
		return float64(m.wsPeak)
	})
	m.reg.MustRegister(m.failures, m.wsQueuedBytes, m.wsSlowDrops, wsPeak)
	m.reg.MustRegister(m.turns, m.turnErrors, m.restarts, m.cost, m.starts, m.tokens, m.events, m.blocks, m.latency,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Publish observes one event; it makes Metrics an engine.EventSink.
func (m *Metrics) Publish(ev *event.EventWithMeta) {
	m.events.WithLabelValues(ev.EventType).Inc()
	switch ev.EventType {
	case event.TypeSessionStart:
		switch {
		case ev.SessionStart == nil:
		case ev.ColdStart && ev.Resumed:
			m.coldStarts.Inc()
			m.restarts.Inc()
		case ev.ColdStart:
			m.coldStarts.Inc()
		default:
			m.warmStarts.Inc()
		}
	case event.TypeDangerBlock:
		cat := "unknown"
		if ev.Danger != nil {
			cat = ev.Danger.Category
		}
		m.blocks.WithLabelValues(cat).Inc()
	case event.TypeResult:
		m.turns.Inc()
		if ev.Turn != nil {
			m.inputTokens.Add(float64(ev.Turn.InputTokens))
			m.outputTokens.Add(float64(ev.Turn.OutputTokens))
			if ev.Turn.CostUSD > 0 {
				m.cost.Add(ev.Turn.CostUSD)
			}
			if ev.Turn.IsError {
				m.turnErrors.Inc()
			}
		}
		if ev.Meta != nil {
			m.latency.Observe(float64(ev.Meta.DurationMs) / 1000)
		}
	}
}

// turnFailed counts a failed turn.
func (m *Metrics) turnFailed(err error) {
	m.failures.WithLabelValues(errorCode(err)).Inc()
}

// wsQueued follows the bytes waiting for WebSocket clients; held is what
// one connection now holds.
func (m *Metrics) wsQueued(delta, held int) {
	m.wsQueuedBytes.Add(float64(delta))
	m.wsPeakMu.Lock()
	m.wsPeak = max(m.wsPeak, held)
	m.wsPeakMu.Unlock()
}

// poolCollector reports the engine's sessions by status when scraped.
type poolCollector struct {
	engine *engine.Engine
	desc   *prometheus.Desc
}

func newPoolCollector(e *engine.Engine) *poolCollector {
	return &poolCollector{engine: e, desc: prometheus.NewDesc("hotplex_sessions", "Sessions in the pool by status.", []string{"status"}, nil)}
}

func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	byStatus := map[engine.SessionStatus]int{}
	for _, s := range c.engine.ListActiveSessions() {
		byStatus[s.Status]++
	}
	for _, st := range engine.Statuses {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(byStatus[st]), string(st))
	}
}

// watchPool adds the pool's gauges to m; a second server on the same
// metrics keeps the first one's.
func (m *Metrics) watchPool(e *engine.Engine) error {
	if e == nil {
		return nil
	}
	err := m.reg.Register(newPoolCollector(e))
	var dup prometheus.AlreadyRegisteredError
	if errors.As(err, &dup) {
		return nil
	}
	return err
}

// handler serves the registry in Prometheus' formats.
func (m *Metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// Sinks hands each event to several sinks, in order.
type Sinks []engine.EventSink

// Publish implements engine.EventSink.
func (s Sinks) Publish(ev *event.EventWithMeta) {
	for _, sink := range s {
		sink.Publish(ev)
	}
}

// metrics serves the fleet's figures (every owner's turns, tokens and
// cost) to admin keys only; an ordinary key sees its own sessions' figures
// in GET /v1/sessions.
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	if !callerOf(r).Admin {
		writeError(w, errorf(http.StatusForbidden, "forbidden", "/metrics shows every owner's figures: it needs an admin key"))
		return
	}
	s.metricsHandler.ServeHTTP(w, r)
}

// watchUsage exports what the model gateway metered, by owner (API key ID,
// never a secret) and model, read from src at each scrape.
func (m *Metrics) watchUsage(src UsageSource) error {
	if src == nil {
		return nil
	}
	err := m.reg.Register(usageCollector{src})
	var dup prometheus.AlreadyRegisteredError
	if errors.As(err, &dup) {
		return nil
	}
	return err
}

var (
	modelTokensDesc = prometheus.NewDesc("hotplex_model_tokens_total",
		"Model tokens metered by the gateway, by API key, model and kind (input, output, cache_read, cache_write); spend before a restart included.",
		[]string{"owner", "model", "kind"}, nil)
	modelCostDesc = prometheus.NewDesc("hotplex_model_cost_usd_total",
		"Model cost metered and priced by the gateway, by API key and model; spend before a restart included.",
		[]string{"owner", "model"}, nil)
)

// usageCollector turns the gateway's cells into counters. The gateway's
// totals only grow (a deleted session's spend moves to its owner), so the
// sums by owner and model are counters.
type usageCollector struct{ src UsageSource }

func (c usageCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- modelTokensDesc
	ch <- modelCostDesc
}

func (c usageCollector) Collect(ch chan<- prometheus.Metric) {
	type om struct{ owner, model string }
	sums := map[om]*gateway.Totals{}
	for _, cell := range c.src.Usage() {
		if cell.Model == "" {
			continue // refused before a model was named: no tokens, no cost
		}
		k := om{cell.Owner, cell.Model}
		if sums[k] == nil {
			sums[k] = &gateway.Totals{}
		}
		addTotals(sums[k], cell.Totals)
	}
	for k, t := range sums {
		for _, kv := range []struct {
			kind string
			n    int64
		}{{"input", t.InputTokens}, {"output", t.OutputTokens}, {"cache_read", t.CacheReadTokens}, {"cache_write", t.CacheWriteTokens}} {
			ch <- prometheus.MustNewConstMetric(modelTokensDesc, prometheus.CounterValue, float64(kv.n), k.owner, k.model, kv.kind)
		}
		ch <- prometheus.MustNewConstMetric(modelCostDesc, prometheus.CounterValue, t.CostUSD, k.owner, k.model)
	}
}
