package mailbox

import (
	"errors"
	"slices"
	"sync"
	"testing"
)

func TestPushTakeInOrder(t *testing.T) {
	b := New[int]()
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 1000 {
			b.Push(i)
		}
	})
	var got []int
	for len(got) < 1000 {
		<-b.Ready()
		got = append(got, b.Take()...)
	}
	wg.Wait()
	want := make([]int, 1000)
	for i := range want {
		want[i] = i
	}
	if !slices.Equal(got, want) {
		t.Fatalf("messages out of order or lost: %d received", len(got))
	}
	if rest := b.Take(); rest != nil {
		t.Fatalf("Take after draining = %v", rest)
	}
}

func TestAbortKeepsTheFirstCause(t *testing.T) {
	b := New[string]()
	first := errors.New("first")
	b.Abort(first)
	b.Abort(errors.New("second"))
	select {
	case <-b.Aborted():
	default:
		t.Fatal("Aborted not closed")
	}
	if !errors.Is(b.Cause(), first) {
		t.Fatalf("Cause = %v", b.Cause())
	}
}
