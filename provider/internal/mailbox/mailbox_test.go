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

func TestSlot(t *testing.T) {
	var s Slot[int]
	if s.Current() != nil || s.Abort(errors.New("x")) {
		t.Fatal("an empty slot has a box")
	}
	b := s.Open()
	if s.Current() != b {
		t.Fatal("the opened box is not current")
	}
	closed := errors.New("closed")
	if !s.Abort(closed) {
		t.Fatal("Abort found no box")
	}
	select {
	case <-b.Aborted():
	default:
		t.Fatal("the current box was not aborted")
	}
	if !errors.Is(b.Cause(), closed) {
		t.Fatalf("cause %v", b.Cause())
	}
	s.Close(b)
	if s.Current() != nil {
		t.Fatal("a closed box stays current")
	}
	// Closing an older box leaves a newer one in place.
	old, cur := s.Open(), s.Open()
	s.Close(old)
	if s.Current() != cur {
		t.Fatal("closing an old box removed the current one")
	}
	select {
	case <-old.Aborted():
	default:
		t.Fatal("a closed box is not aborted")
	}
}
