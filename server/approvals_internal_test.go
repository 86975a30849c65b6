package server

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
)

func askRequest(id string) engine.PermissionRequest {
	return engine.PermissionRequest{SessionID: "s", ToolRequest: provider.ToolRequest{Kind: provider.CanUseTool, RequestID: id, ToolName: "Bash"}}
}

// Many clients answer at once: exactly one answer is taken, the agent
// gets that one, and every other client is told whose it was.
func TestApprovalsFirstAnswerWins(t *testing.T) {
	a := NewApprovals(time.Hour)
	a.SetAsk("s", true)
	for round := range 50 {
		id := "r" + strconv.Itoa(round)
		a.Announce(askRequest(id))
		got := make(chan provider.ToolDecision, 1)
		go func() { got <- a.Handle(context.Background(), askRequest(id)) }()
		errs := make([]error, 8)
		var wg sync.WaitGroup
		for i := range errs {
			wg.Go(func() {
				errs[i] = a.Answer("s", id, i%2 == 0, "no", event.Answerer{By: "k" + strconv.Itoa(i), Channel: "ws"})
			})
		}
		wg.Wait()
		d := <-got
		winner := -1
		for i, err := range errs {
			if err == nil {
				if winner >= 0 {
					t.Fatalf("round %d: answers %d and %d both won", round, winner, i)
				}
				winner = i
			}
		}
		if winner < 0 || d.Answerer == nil || d.Answerer.By != "k"+strconv.Itoa(winner) || (d.Behavior == provider.Allow) != (winner%2 == 0) {
			t.Fatalf("round %d: winner %d, the agent got %+v (%+v)", round, winner, d, d.Answerer)
		}
		for i, err := range errs {
			var ae *apiError
			if i != winner && (!errors.As(err, &ae) || ae.Code != "already_answered" || ae.Answered == nil || ae.Answered.By != d.Answerer.By || ae.Answered.Decision != d.Behavior) {
				t.Fatalf("round %d: answer %d got %v", round, i, err)
			}
		}
	}
	if p := a.Pending("s"); len(p) != 0 {
		t.Fatalf("still pending: %v", p)
	}
}

// An answer that races the timeout either wins, and the agent gets it,
// or loses and is told the timeout decided: never both, never neither.
func TestApprovalsAnswerRacesTimeout(t *testing.T) {
	for _, allow := range []bool{false, true} {
		a := NewApprovals(time.Microsecond)
		a.AllowOnTimeout(allow)
		a.SetAsk("s", true)

		// Nobody answers: the timeout's decision, and a late answer is
		// told so.
		a.Announce(askRequest("alone"))
		d := a.Handle(context.Background(), askRequest("alone"))
		if d.Answerer == nil || d.Answerer.By != answeredByTimeout || (d.Behavior == provider.Allow) != allow {
			t.Fatalf("allow=%v: nobody answered, the agent got %+v", allow, d)
		}
		var ae *apiError
		if err := a.Answer("s", "alone", true, "", event.Answerer{By: "alice", Channel: "http"}); !errors.As(err, &ae) || ae.Answered.By != answeredByTimeout {
			t.Fatalf("a late answer: %v", err)
		}

		// An answer between the announcement and the wait is the one
		// taken, however short the timeout.
		a.Announce(askRequest("early"))
		if err := a.Answer("s", "early", !allow, "no", event.Answerer{By: "alice", Channel: "http"}); err != nil {
			t.Fatal(err)
		}
		if d := a.Handle(context.Background(), askRequest("early")); d.Answerer == nil || d.Answerer.By != "alice" || (d.Behavior == provider.Allow) == allow {
			t.Fatalf("allow=%v: an early answer was lost: %+v", allow, d)
		}
		// The same ID asked again after that is a new request.
		a.Announce(askRequest("early"))
		if p := a.Pending("s"); len(p) != 1 || p[0].RequestID != "early" {
			t.Fatalf("a reused request ID is not pending: %v", p)
		}
		_ = a.Handle(context.Background(), askRequest("early"))

		for round := range 200 {
			id := "r" + strconv.Itoa(round)
			a.Announce(askRequest(id))
			got := make(chan provider.ToolDecision, 1)
			go func() { got <- a.Handle(context.Background(), askRequest(id)) }()
			err := a.Answer("s", id, !allow, "no", event.Answerer{By: "alice", Channel: "http"})
			d := <-got
			switch {
			case err == nil:
				if d.Answerer.By != "alice" || (d.Behavior == provider.Allow) == allow {
					t.Fatalf("the answer won but the agent got %+v (%+v)", d, d.Answerer)
				}
			default:
				var ae *apiError
				if !errors.As(err, &ae) || ae.Answered == nil || ae.Answered.By != answeredByTimeout || d.Answerer.By != answeredByTimeout || (d.Behavior == provider.Allow) != allow {
					t.Fatalf("the answer lost with %v, the agent got %+v (%+v)", err, d, d.Answerer)
				}
			}
		}
	}
}
