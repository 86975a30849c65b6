package e2e

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/testkit"
)

// The real CLI reports total_cost_usd counted from its process's start;
// a turn's figure must be the turn's own, the session's the sum of what
// each process spent, also across a kill and resume and an interrupt.
func TestClaudeCostPerTurnAndSession(t *testing.T) {
	// Every turn's model call reports the same usage, so every turn costs
	// the same however long the conversation grows.
	same := scriptedmodel.Reply{Text: []string{"the same answer"}, InputTokens: 1000, OutputTokens: 100}
	// After an interrupt the CLI sends the unanswered prompt and the next
	// one together, so the fast rule comes first.
	script := scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("same question", same),
		scriptedmodel.Then("take your time", scriptedmodel.Reply{Text: []string{"slow"}, Delay: time.Minute, InputTokens: 1000, OutputTokens: 100}),
	}}
	h := newHarness(t, script, engine.EngineOptions{Namespace: "cost"})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	turn := func(prompt string) (*event.TurnResult, event.SessionStatsData, *event.SessionStart) {
		t.Helper()
		r, err := h.exec(t, ctx, "conv", prompt)
		if err != nil {
			t.Fatalf("%s: %v", prompt, err)
		}
		return r.First(event.TypeResult).Turn, *r.First(event.TypeSessionStats).Stats, r.First(event.TypeSessionStart).SessionStart
	}
	first, _, start := turn("same question")
	one := first.CostUSD
	if one <= 0 {
		t.Fatalf("the first turn costs %v", one)
	}
	var stats event.SessionStatsData
	for i := 2; i <= 4; i++ {
		var tr *event.TurnResult
		tr, stats, _ = turn("same question")
		if !near(tr.CostUSD, one) {
			t.Errorf("turn %d costs %v, want %v like turn 1 (the CLI's figure is cumulative)", i, tr.CostUSD, one)
		}
	}
	if !near(stats.TotalCostUSD, 4*one) {
		t.Errorf("session total after four equal turns is %v, want %v", stats.TotalCostUSD, 4*one)
	}

	// A new process after a kill counts from zero again.
	testkit.KillAndWait(t, start.PID)
	tr, stats, start5 := turn("same question")
	if !start5.Resumed {
		t.Fatalf("turn 5 did not resume: %+v", start5)
	}
	if !near(tr.CostUSD, one) || !near(stats.TotalCostUSD, 5*one) {
		t.Errorf("after a resume: turn costs %v, session %v; want %v and %v", tr.CostUSD, stats.TotalCostUSD, one, 5*one)
	}

	// An interrupted turn reports what it spent, and the next one only its own.
	ictx, icancel := context.WithCancel(ctx)
	go func() {
		// Interrupt once the model has the slow request.
		for ictx.Err() == nil {
			reqs := h.model.TurnRequests()
			if len(reqs) > 0 && reqs[len(reqs)-1].Prompt == "take your time" {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		icancel()
	}()
	r, _ := h.exec(t, ictx, "conv", "take your time")
	icancel()
	if res := r.First(event.TypeResult); res == nil || res.Turn == nil || res.Turn.CostUSD < 0 {
		t.Fatalf("interrupted turn's result: %+v", res)
	}
	before := r.First(event.TypeSessionStats).Stats.TotalCostUSD
	tr, stats, _ = turn("same question")
	if !near(tr.CostUSD, one) || !near(stats.TotalCostUSD, before+one) {
		t.Errorf("after an interrupt: turn costs %v, session %v; want %v and %v", tr.CostUSD, stats.TotalCostUSD, one, before+one)
	}
}
