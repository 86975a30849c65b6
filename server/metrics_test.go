package server

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/guard"
)

// Each Metrics counts on its own registry: two daemons in one process do
// not add up, and nothing lands in the global registry.
func TestMetricsCountApart(t *testing.T) {
	a, b := NewMetrics(), NewMetrics()
	res := event.NewEventWithMeta(event.TypeResult, "", &event.EventMeta{DurationMs: 1500})
	res.Turn = &event.TurnResult{InputTokens: 10, OutputTokens: 3, CostUSD: 0.25}
	start := event.NewEventWithMeta(event.TypeSessionStart, "", nil)
	start.SessionStart = &event.SessionStart{ColdStart: true, Resumed: true}
	block := event.NewEventWithMeta(event.TypeDangerBlock, "", nil)
	block.Danger = &guard.DangerBlockEvent{Category: "file_delete"}
	for _, ev := range []*event.EventWithMeta{start, block, res} {
		a.Publish(ev)
	}
	checks := []struct {
		name      string
		got, want float64
	}{
		{"turns", testutil.ToFloat64(a.turns), 1},
		{"cold", testutil.ToFloat64(a.coldStarts), 1},
		{"restarts", testutil.ToFloat64(a.restarts), 1},
		{"input tokens", testutil.ToFloat64(a.inputTokens), 10},
		{"cost", testutil.ToFloat64(a.cost), 0.25},
		{"blocks", testutil.ToFloat64(a.blocks.WithLabelValues("file_delete")), 1},
		{"events", testutil.ToFloat64(a.events.WithLabelValues(event.TypeResult)), 1},
		{"other registry", testutil.ToFloat64(b.turns), 0},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	if n := testutil.CollectAndCount(a.latency, "hotplex_turn_duration_seconds"); n != 1 {
		t.Errorf("latency histogram: %d series", n)
	}
}
