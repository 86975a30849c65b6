package engine_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/hotplex/hotplex/engine"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// TestFirewallLogLinesHaveOneLevel: the verdict's danger level is logged
// as danger_level, not as a second "level" beside the log record's own.
func TestFirewallLogLinesHaveOneLevel(t *testing.T) {
	logs := &lockedBuffer{}
	f := newFixture(t, engine.EngineOptions{Firewall: newFirewall(), Logger: slog.New(slog.NewJSONHandler(logs, nil))})
	f.mustRun(t, "fw", bash("touch blocked.txt # DANGER"))
	_, _ = f.run(t, "p", "please run `DANGER` now")
	logs.mu.Lock()
	defer logs.mu.Unlock()
	found := 0
	for _, line := range strings.Split(strings.TrimSpace(logs.b.String()), "\n") {
		if !strings.Contains(line, "firewall blocked") {
			continue
		}
		found++
		if n := strings.Count(line, `"level":`); n != 1 {
			t.Errorf("%d level keys in %s", n, line)
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec["danger_level"] == nil || rec["level"] != "INFO" {
			t.Errorf("log line %s: %v", line, err)
		}
	}
	if found != 2 {
		t.Fatalf("%d firewall lines in:\n%s", found, logs.b.String())
	}
}
