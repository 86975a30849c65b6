package gateway

import (
	"context"
	"fmt"
	"time"
)

// Ledger persists what the gateway meters. AddUsage adds each cell's
// totals to what is stored under its (session, owner, model); the gateway
// sends each call's cost once, batched.
type Ledger interface {
	AddUsage(ctx context.Context, cells []UsageCell) error
}

// ledgerTimeout bounds one write, so a stuck store cannot hold the flusher.
const ledgerTimeout = 10 * time.Second

// flusher writes pending cells once a call was metered, gathering the
// calls of FlushEvery into one write, until Close.
func (g *Gateway) flusher() {
	defer close(g.flushDone)
	t := time.NewTimer(0)
	<-t.C
	defer t.Stop()
	for {
		select {
		case <-g.stopFlush:
			return
		case <-g.flushNow:
		}
		t.Reset(g.opts.FlushEvery)
		select {
		case <-g.stopFlush:
			return // Close flushes
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), ledgerTimeout)
		if err := g.Flush(ctx); err != nil {
			g.log.Warn("cannot record model spend; will retry", "err", err)
		}
		cancel()
	}
}

// Flush writes what the Ledger lacks now. On failure the cells stay
// pending for the next write.
func (g *Gateway) Flush(ctx context.Context) error {
	if g.opts.Ledger == nil {
		return nil
	}
	g.flushMu.Lock()
	defer g.flushMu.Unlock()
	cells := g.meter.takePending()
	if len(cells) == 0 {
		return nil
	}
	if err := g.opts.Ledger.AddUsage(ctx, cells); err != nil {
		g.meter.putBack(cells)
		g.wake()
		return fmt.Errorf("gateway: record spend: %w", err)
	}
	return nil
}

// wake asks the flusher for a write.
func (g *Gateway) wake() {
	if g.flushNow == nil {
		return
	}
	select {
	case g.flushNow <- struct{}{}:
	default:
	}
}
