package claude

import (
	"context"

	"github.com/hotplex/hotplex/provider"
)

var _ provider.Steerer = (*process)(nil)

// Steer writes text as a user message into the running turn. Claude Code
// (2.1.x, stream-json input) does not start a turn of its own for it: it
// adds the message to the conversation when the model is next called,
// that is after the running tool's result, and the turn ends with one
// result frame. A message that arrives after the model's last call of
// the turn has begun is answered in a turn of its own, whose output the
// next turn drops as stale; steering is for turns still at work.
func (c *process) Steer(ctx context.Context, text string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.cancelMu.Lock()
	running := c.cancelTurn != nil
	c.cancelMu.Unlock()
	if !running {
		return provider.ErrNoTurn
	}
	if err := c.write(userFrame{Type: "user", Message: userMessage{Role: "user", Content: []textBlock{{Type: "text", Text: text}}}}); err != nil {
		return c.deadErr(err.Error())
	}
	return nil
}
