package codex

import (
	"context"
	"fmt"

	"github.com/hotplex/hotplex/provider"
)

var _ provider.Steerer = (*process)(nil)

func (c *process) setRunning(id string) {
	c.runningMu.Lock()
	c.running = id
	c.runningMu.Unlock()
}

// Steer adds text to the turn in progress with turn/steer, naming the
// turn it expects (expectedTurnId), so that a message meant for a turn
// that has just ended is refused instead of starting another.
func (c *process) Steer(ctx context.Context, text string) error {
	c.runningMu.Lock()
	id := c.running
	c.runningMu.Unlock()
	if id == "" {
		return provider.ErrNoTurn
	}
	input := []map[string]any{{"type": "text", "text": text, "text_elements": []any{}}}
	if err := c.rpc.call(ctx, "turn/steer", map[string]any{"threadId": c.threadID, "input": input, "expectedTurnId": id}, nil); err != nil {
		if !c.Alive() {
			return c.deadErr("exited at turn/steer")
		}
		return fmt.Errorf("turn/steer: %w", err)
	}
	return nil
}
