package engine_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/hotplex/hotplex/engine"
)

// EngineOptions.Hibernated hears of every session whose process ended to
// free room, whichever way: Hibernate, and residency making room for a
// start; a session with nothing to end is not reported.
func TestHibernatedIsReported(t *testing.T) {
	var (
		mu  sync.Mutex
		got []string
	)
	f := newFixture(t, engine.EngineOptions{MaxResident: 1, Hibernated: func(id string) {
		mu.Lock()
		got = append(got, id)
		mu.Unlock()
	}})
	reported := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
	f.mustRun(t, "a", "hello")
	if err := f.eng.Hibernate(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	if err := f.eng.Hibernate(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	if r := reported(); !slices.Equal(r, []string{"a"}) {
		t.Fatalf("after Hibernate: %v", r)
	}
	f.mustRun(t, "a", "again")
	f.mustRun(t, "b", "room for me") // one resident at most: a makes room
	if r := reported(); !slices.Equal(r, []string{"a", "a"}) {
		t.Fatalf("after b's start: %v", r)
	}
}
