package daemon

import (
	"bytes"
	"log/slog"
	"maps"
	"strings"
	"testing"

	"github.com/hotplex/hotplex/internal/fakeprovider"
	"github.com/hotplex/hotplex/provider"
)

// A configuration shared by machines may count spares for an agent one of
// them lacks: the count is dropped with a warning naming the agent, the
// others kept.
func TestInstalledSpares(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	agents := []provider.Provider{fakeprovider.New("claude"), fakeprovider.New("codex")}
	got := installedSpares(map[string]int{"claude": 2, "codex": 0, "gemini": 1}, agents, log)
	if want := map[string]int{"claude": 2, "codex": 0}; !maps.Equal(got, want) {
		t.Fatalf("kept %v, want %v", got, want)
	}
	if !strings.Contains(logs.String(), "agent=gemini") {
		t.Fatalf("no warning about gemini:\n%s", logs.String())
	}
	if got := installedSpares(nil, agents, log); got != nil {
		t.Fatalf("no counts became %v", got)
	}
}
