package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/proc"
)

// Hibernate ends the process of an idle session and keeps the session:
// its next turn resumes the conversation in a new process.
func TestHibernateKeepsTheConversation(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{})
	ctx := context.Background()
	if err := f.eng.Hibernate(ctx, "h"); !errors.Is(err, engine.ErrSessionNotFound) {
		t.Fatalf("Hibernate of an unknown session = %v", err)
	}
	pid := f.mustRun(t, "h", "remember the heron").First(event.TypeSessionStart).PID
	if err := f.eng.Hibernate(ctx, "h"); err != nil {
		t.Fatal(err)
	}
	s, ok := f.eng.GetSession("h")
	if !ok || s.Status != engine.StatusHibernated || s.PID != 0 || proc.Alive(pid) {
		t.Fatalf("after Hibernate: %v, status %s, pid %d (old %d alive: %v)", ok, s.Status, s.PID, pid, proc.Alive(pid))
	}
	// Nothing to end: it stays hibernated.
	if err := f.eng.Hibernate(ctx, "h"); err != nil {
		t.Fatal(err)
	}
	if s, _ := f.eng.GetSession("h"); s.Status != engine.StatusHibernated {
		t.Fatalf("second Hibernate: status %s", s.Status)
	}
	r := f.mustRun(t, "h", "history")
	st := r.First(event.TypeSessionStart)
	if st.PID == pid || !st.Resumed {
		t.Fatalf("want a resumed new process: %+v", st.SessionStart)
	}
	if got := r.First(event.TypeAnswer).EventData; !strings.Contains(got, "remember the heron") {
		t.Fatalf("history lost: %q", got)
	}
	if s, _ := f.eng.GetSession("h"); s.Status != engine.StatusIdle {
		t.Fatalf("after the resumed turn: status %s", s.Status)
	}
}
