package codex

import (
	"testing"
	"time"
)

func TestResultJoinsAnswerBlocks(t *testing.T) {
	st := &turnState{start: time.Now(), items: map[string]*item{}, began: map[string]time.Time{}}
	completed(st, &item{Type: "agentMessage", Text: "I listed the directory."})
	completed(st, &item{Type: "commandExecution", Command: "ls"})
	completed(st, &item{Type: "agentMessage", Text: "Done."})
	tr := (&process{}).result(st, turnInfo{Status: "completed"})
	if want := "I listed the directory.\n\nDone."; tr.Result != want {
		t.Errorf("result %q, want %q", tr.Result, want)
	}
}
