package backend_test

import (
	"context"
	"fmt"

	"github.com/hotplex/hotplex/backend"
	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/provider/claude"
)

// One conversation through the high-level API, on Claude Code: the
// engine's pool, firewall and statistics apply to it.
func Example() {
	ctx := context.Background()
	eng, err := engine.NewEngine(engine.EngineOptions{Namespace: "my-app", Provider: claude.New(claude.Options{})})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	b, err := backend.New(eng, backend.Options{})
	if err != nil {
		panic(err)
	}
	s, err := b.CreateSession(ctx, backend.SessionOptions{CWD: "/srv/repo", Role: "reviewer"})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	answer, err := s.Send(ctx, "Review the last commit")
	if err != nil {
		panic(err)
	}
	fmt.Println(answer, s.State()) // ... idle
	cost, _ := s.Commands().Execute(ctx, "/cost")
	fmt.Println(cost)
}
