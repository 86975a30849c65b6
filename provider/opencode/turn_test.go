package opencode

import (
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
)

func newTurnState() *turnState {
	return &turnState{start: time.Now(), counted: map[string]bool{}, assistant: map[string]bool{"m1": true, "m2": true},
		texts: map[string]string{}, kinds: map[string]string{}, tools: map[string]*part{}, used: map[string]bool{},
		resulted: map[string]bool{}, began: map[string]time.Time{}}
}

func TestAnswerBlocksJoinedAndStepsCountedOnce(t *testing.T) {
	st := newTurnState()
	c := &process{}
	deliver := func(*event.EventWithMeta) error { return nil }
	c.part(&part{ID: "p1", MessageID: "m1", Type: "text", Text: "I listed the directory."}, st, deliver)
	tool := &part{ID: "p2", MessageID: "m1", Type: "tool", CallID: "c1", Tool: "bash"}
	tool.State.Status = "completed"
	c.part(tool, st, deliver)
	step := &part{ID: "p3", MessageID: "m1", Type: "step-finish", Cost: 0.25}
	step.Tokens.Input, step.Tokens.Output = 100, 10
	c.part(step, st, deliver)
	c.part(step, st, deliver) // announced again
	c.part(&part{ID: "p4", MessageID: "m2", Type: "text", Text: "Done."}, st, deliver)
	step2 := &part{ID: "p5", MessageID: "m2", Type: "step-finish", Cost: 0.5}
	step2.Tokens.Input = 200
	c.part(step2, st, deliver)
	st.flush()
	if want := "I listed the directory.\n\nDone."; st.answer.String() != want {
		t.Errorf("answer %q, want %q", st.answer.String(), want)
	}
	if st.tr.CostUSD != 0.75 || st.tr.InputTokens != 300 || st.tr.OutputTokens != 10 {
		t.Errorf("turn figures %+v; want the sum of each step once", st.tr)
	}
}
