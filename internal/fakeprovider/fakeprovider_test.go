package fakeprovider

import (
	"context"
	"errors"
	"testing"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
)

func allow(context.Context, provider.ToolRequest) provider.ToolDecision {
	return provider.ToolDecision{Behavior: provider.Allow}
}

func turn(t *testing.T, p provider.Process, ctx context.Context, prompt string) ([]string, *event.TurnResult, error) {
	t.Helper()
	var answers []string
	tr, err := p.Turn(ctx, prompt, allow, func(ev *event.EventWithMeta) error {
		if ev.EventType == event.TypeAnswer {
			answers = append(answers, ev.EventData)
		}
		return nil
	})
	return answers, tr, err
}

func TestConversationsOutliveProcesses(t *testing.T) {
	ctx := context.Background()
	p := New("fake")
	a, err := p.Start(ctx, provider.StartOptions{SessionID: "s", ProviderSessionID: "c1", SystemPrompt: "rules"})
	if err != nil {
		t.Fatal(err)
	}
	if got, _, _ := turn(t, a, ctx, "sysprompt"); got[0] != "system prompt: |rules" {
		t.Fatalf("answer %q", got)
	}
	if got, _, _ := turn(t, a, ctx, "blocks:2"); len(got) != 2 || got[1] != "part 2" {
		t.Fatalf("answers %q", got)
	}
	if _, _, err := turn(t, a, ctx, "crash"); !errors.Is(err, provider.ErrSessionDead) || a.Alive() {
		t.Fatalf("crash: %v, alive %v", err, a.Alive())
	}
	b, _ := p.Start(ctx, provider.StartOptions{SessionID: "s", ProviderSessionID: "c1", Resume: true})
	if !b.Info().Resumed {
		t.Fatal("not resumed")
	}
	if got, _, _ := turn(t, b, ctx, "history"); got[0] != "sysprompt | blocks:2 | crash" {
		t.Fatalf("history %q", got)
	}
	c, _ := p.Start(ctx, provider.StartOptions{SessionID: "n", ProviderSessionID: "c2", Resume: true})
	if c.Info().Resumed || c.Info().Fallback == "" {
		t.Fatalf("resume of nothing: %+v", c.Info())
	}
	if o := p.Overlaps(); len(o) != 0 {
		t.Fatalf("overlaps %v", o)
	}
	_, _ = p.Start(ctx, provider.StartOptions{SessionID: "n", ProviderSessionID: "c2"})
	if o := p.Overlaps(); len(o) != 1 || o[0] != "c2" {
		t.Fatalf("a second process of c2 went unnoticed: %v", o)
	}
}

func TestGatesHoldTurnsUntilOpenedOrInterrupted(t *testing.T) {
	p := New("fake")
	pr, _ := p.Start(context.Background(), provider.StartOptions{ProviderSessionID: "c"})
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("stop")
	done := make(chan error, 1)
	go func() {
		_, tr, err := turn(t, pr, ctx, "wait:g hello")
		if tr == nil || !tr.Interrupted {
			err = errors.Join(err, errors.New("no interrupted result"))
		}
		done <- err
	}()
	if err := p.Gate("g").WaitArrivals(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	cancel(stop)
	if err := <-done; !errors.Is(err, stop) {
		t.Fatalf("interrupted turn: %v", err)
	}
	p.Gate("g").Open()
	if got, _, err := turn(t, pr, context.Background(), "wait:g hello"); err != nil || got[0] != "echo: wait:g hello" {
		t.Fatalf("through the open gate: %q %v", got, err)
	}
}

func TestSpareClaims(t *testing.T) {
	ctx := context.Background()
	p := New("fake")
	old, _ := p.Start(ctx, provider.StartOptions{ProviderSessionID: "exists"})
	_ = old.Close(ctx)
	sc, err := p.WithSpares().Prewarm(ctx, provider.StartOptions{})
	if err != nil || p.Live() != 1 {
		t.Fatalf("prewarm: %v, live %d", err, p.Live())
	}
	if _, err := sc.Claim(ctx, provider.StartOptions{ProviderSessionID: "exists"}); !errors.Is(err, provider.ErrNotClaimable) {
		t.Fatalf("claim for an existing conversation: %v", err)
	}
	pr, err := sc.Claim(ctx, provider.StartOptions{SessionID: "new", ProviderSessionID: "fresh"})
	if err != nil || pr.Info().ProviderSessionID == "fresh" || pr.Info().PID != sc.PID() {
		t.Fatalf("claim: %+v %v", pr, err)
	}
	_ = pr.Close(ctx)
	if p.Live() != 0 {
		t.Fatalf("live %d after close", p.Live())
	}
}
