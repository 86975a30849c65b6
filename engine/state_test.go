package engine_test

import (
	"errors"
	"testing"

	"github.com/hotplex/hotplex/engine"
)

func TestTransition(t *testing.T) {
	legal := map[engine.SessionStatus][]engine.SessionStatus{
		engine.StatusNew:        {engine.StatusStarting, engine.StatusClosed},
		engine.StatusStarting:   {engine.StatusIdle, engine.StatusError, engine.StatusClosed},
		engine.StatusIdle:       {engine.StatusRunning, engine.StatusHibernated, engine.StatusError, engine.StatusClosed},
		engine.StatusRunning:    {engine.StatusIdle, engine.StatusError, engine.StatusClosed},
		engine.StatusHibernated: {engine.StatusStarting, engine.StatusClosed},
		engine.StatusError:      {engine.StatusStarting, engine.StatusClosed},
		engine.StatusClosed:     nil,
	}
	for _, from := range engine.Statuses {
		for _, to := range engine.Statuses {
			want := from == to
			for _, l := range legal[from] {
				want = want || l == to
			}
			got, err := engine.Transition(from, to)
			switch {
			case want && (err != nil || got != to):
				t.Errorf("%s → %s: %v, %v; want legal", from, to, got, err)
			case !want && (!errors.Is(err, engine.ErrIllegalTransition) || got != from):
				t.Errorf("%s → %s: %v, %v; want ErrIllegalTransition, staying %s", from, to, got, err, from)
			}
		}
	}
	if len(engine.Statuses) != len(legal) {
		t.Errorf("Statuses lists %d states, the table %d", len(engine.Statuses), len(legal))
	}
	// The ones that matter most, spelled out.
	for _, c := range [][2]engine.SessionStatus{
		{engine.StatusNew, engine.StatusIdle},           // no process without a start
		{engine.StatusNew, engine.StatusRunning},        // no turn without a process
		{engine.StatusHibernated, engine.StatusRunning}, // a hibernated session must start first
		{engine.StatusClosed, engine.StatusStarting},    // a deleted session never comes back
		{engine.StatusRunning, engine.StatusHibernated}, // a running turn is never hibernated
	} {
		if _, err := engine.Transition(c[0], c[1]); !errors.Is(err, engine.ErrIllegalTransition) {
			t.Errorf("%s → %s allowed", c[0], c[1])
		}
	}
}
