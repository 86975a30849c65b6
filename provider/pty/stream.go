package pty

import (
	"strings"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
)

// streamEvery bounds how often the answer is cut out of the screen while
// a turn runs.
const streamEvery = 250 * time.Millisecond

// answerStream sends the answer as it grows on the screen, in whole lines.
type answerStream struct {
	sent     string // what the deltas carried so far
	diverged bool   // the screen rewrote what was sent: no more deltas
	checked  time.Time
	screen   string
}

// update sends the answer's new whole lines. busy says the program is still
// writing, so its last line may be incomplete.
func (s *answerStream) update(screen string, extract func() string, busy bool, emit provider.Emit) error {
	if s.diverged || screen == s.screen || time.Since(s.checked) < streamEvery {
		return nil
	}
	s.checked, s.screen = time.Now(), screen
	text := extract()
	if busy {
		i := strings.LastIndexByte(text, '\n')
		text = text[:i+1] // "" when there is no whole line yet
	}
	return s.send(text, emit)
}

func (s *answerStream) send(text string, emit provider.Emit) error {
	if !strings.HasPrefix(text, s.sent) {
		s.diverged = s.sent != ""
		return nil
	}
	if len(text) == len(s.sent) {
		return nil
	}
	delta := text[len(s.sent):]
	s.sent = text
	return emit(event.NewEventWithMeta(event.TypeAnswer, delta, &event.EventMeta{Status: "delta"}))
}

// finish sends the rest of the answer: as a last delta when deltas went
// out, else as one answer event.
func (s *answerStream) finish(answer string, durationMs int64, emit provider.Emit) error {
	if s.sent == "" {
		return emit(event.NewEventWithMeta(event.TypeAnswer, answer, &event.EventMeta{Status: "success", TotalDurationMs: durationMs}))
	}
	return s.send(answer, emit)
}
