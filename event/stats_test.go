package event

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"
)

func TestRecordTurnAccumulates(t *testing.T) {
	start := time.Unix(1_700_000_000, 0)
	s := NewSessionStats("sess-1", start)

	d := s.Snapshot()
	if d.SessionID != "sess-1" || d.StartTime != start.Unix() {
		t.Errorf("fresh snapshot id/start = %q/%d", d.SessionID, d.StartTime)
	}
	if d.EndTime != 0 || d.Turns != 0 || d.TotalTokens != 0 || d.ModelUsed != "" || d.IsError {
		t.Errorf("fresh snapshot = %+v, want zero figures", d)
	}

	turns := []struct {
		tr   TurnResult
		wall time.Duration
	}{
		{TurnResult{Model: "claude-a", InputTokens: 100, OutputTokens: 20, CacheWrite: 5, CacheRead: 1000, CostUSD: 0.25}, 1500 * time.Millisecond},
		{TurnResult{InputTokens: 10, OutputTokens: 2, CacheWrite: 0, CacheRead: 50, CostUSD: 0.125}, 250 * time.Millisecond},
		{TurnResult{Model: "claude-b", InputTokens: 1, OutputTokens: 3, CacheWrite: 7, CacheRead: 9, CostUSD: 0.5}, 2 * time.Second},
		{TurnResult{InputTokens: 4, OutputTokens: 4, CostUSD: 0.0625}, 999 * time.Microsecond},
	}
	before := time.Now().Unix()
	for i := range turns {
		s.RecordTurn(&turns[i].tr, turns[i].wall, "")
	}
	after := time.Now().Unix()

	d = s.Snapshot()
	want := SessionStatsData{
		SessionID:        "sess-1",
		StartTime:        start.Unix(),
		TotalDurationMs:  1500 + 250 + 2000 + 0,
		InputTokens:      115,
		OutputTokens:     29,
		CacheWriteTokens: 12,
		CacheReadTokens:  1059,
		TotalTokens:      115 + 29 + 12 + 1059,
		ToolsUsed:        []string{},
		FilePaths:        []string{},
		TotalCostUSD:     0.9375,
		ModelUsed:        "claude-b",
		Turns:            4,
	}
	if d.EndTime < before || d.EndTime > after {
		t.Errorf("EndTime = %d, want between %d and %d", d.EndTime, before, after)
	}
	d.EndTime = 0
	if !reflect.DeepEqual(d, want) {
		t.Errorf("snapshot =\n%+v\nwant\n%+v", d, want)
	}
}

func TestModelFromLatestTurnThatNamesOne(t *testing.T) {
	cases := []struct {
		name   string
		models []string // "" = turn without a model; "set:" prefix = SetModel
		want   string
	}{
		{"none", []string{"", ""}, ""},
		{"single", []string{"m1"}, "m1"},
		{"later unnamed keeps earlier", []string{"m1", ""}, "m1"},
		{"later named wins", []string{"m1", "", "m2", ""}, "m2"},
		{"SetModel then turn", []string{"set:s1", "m1"}, "m1"},
		{"turn then SetModel", []string{"m1", "set:s1", ""}, "s1"},
		{"empty SetModel ignored", []string{"m1", "set:"}, "m1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSessionStats("x", time.Now())
			for _, m := range tc.models {
				if len(m) >= 4 && m[:4] == "set:" {
					s.SetModel(m[4:])
					continue
				}
				s.RecordTurn(&TurnResult{Model: m}, 0, "")
			}
			if got := s.Snapshot().ModelUsed; got != tc.want {
				t.Errorf("ModelUsed = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRecordToolUse(t *testing.T) {
	s := NewSessionStats("x", time.Now())
	calls := []struct {
		name  string
		input map[string]any
	}{
		{"Write", map[string]any{"file_path": "/w/a.go", "content": "x"}},
		{"Edit", map[string]any{"file_path": "/w/b.go"}},
		{"Bash", map[string]any{"command": "echo > /w/c.go", "file_path": "/w/bash.go"}},
		{"MultiEdit", map[string]any{"file_path": "/w/a.go"}}, // duplicate path
		{"NotebookEdit", map[string]any{"notebook_path": "/w/n.ipynb"}},
		{"NotebookEdit", map[string]any{"file_path": "/w/wrong-key.ipynb"}},
		{"Read", map[string]any{"file_path": "/w/read.go"}},
		{"Edit", map[string]any{"file_path": ""}},
		{"Write", map[string]any{"file_path": 42}},
		{"Write", nil},
		{"Grep", map[string]any{"pattern": "x"}},
		{"Edit", map[string]any{"file_path": "/w/b.go"}}, // duplicate path
		{"Write", map[string]any{"file_path": "/w/d.go"}},
	}
	for _, c := range calls {
		s.RecordToolUse(c.name, c.input)
	}
	d := s.Snapshot()
	if d.ToolCallCount != int32(len(calls)) {
		t.Errorf("ToolCallCount = %d, want %d", d.ToolCallCount, len(calls))
	}
	if want := []string{"Bash", "Edit", "Grep", "MultiEdit", "NotebookEdit", "Read", "Write"}; !reflect.DeepEqual(d.ToolsUsed, want) {
		t.Errorf("ToolsUsed = %v, want %v", d.ToolsUsed, want)
	}
	if want := []string{"/w/a.go", "/w/b.go", "/w/n.ipynb", "/w/d.go"}; !reflect.DeepEqual(d.FilePaths, want) {
		t.Errorf("FilePaths = %v, want %v (first-use order, no duplicates)", d.FilePaths, want)
	}
	if d.FilesModified != 4 {
		t.Errorf("FilesModified = %d, want 4", d.FilesModified)
	}
	if d.Turns != 0 || d.TotalTokens != 0 {
		t.Errorf("tool uses changed turn figures: %+v", d)
	}
}

func TestModifiedFile(t *testing.T) {
	cases := []struct {
		tool  string
		input map[string]any
		want  string
		ok    bool
	}{
		{"Write", map[string]any{"file_path": "/a"}, "/a", true},
		{"Edit", map[string]any{"file_path": "/b"}, "/b", true},
		{"MultiEdit", map[string]any{"file_path": "/c", "edits": []any{}}, "/c", true},
		{"NotebookEdit", map[string]any{"notebook_path": "/d.ipynb"}, "/d.ipynb", true},
		{"NotebookEdit", map[string]any{"file_path": "/d.ipynb"}, "", false},
		{"Read", map[string]any{"file_path": "/e"}, "", false},
		{"Bash", map[string]any{"command": "touch /f"}, "", false},
		{"write", map[string]any{"file_path": "/g"}, "", false},
		{"Write", map[string]any{}, "", false},
		{"Write", nil, "", false},
		{"Write", map[string]any{"file_path": 1}, "", false},
		{"Write", map[string]any{"file_path": ""}, "", false},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/%v", tc.tool, tc.input), func(t *testing.T) {
			got, ok := ModifiedFile(tc.tool, tc.input)
			if got != tc.want || ok != tc.ok {
				t.Errorf("ModifiedFile = %q, %v; want %q, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestAddDurationByPhase(t *testing.T) {
	s := NewSessionStats("x", time.Now())
	s.AddDuration(PhaseThinking, 1200*time.Millisecond)
	s.AddDuration(PhaseThinking, 300*time.Millisecond)
	s.AddDuration(PhaseTool, 2*time.Second)
	s.AddDuration(PhaseGeneration, 40*time.Millisecond)
	s.AddDuration(PhaseGeneration, 500*time.Microsecond) // rounds down to 0 ms
	s.AddDuration(Phase(99), time.Hour)                  // unknown phase: ignored
	d := s.Snapshot()
	if d.ThinkingDurationMs != 1500 || d.ToolDurationMs != 2000 || d.GenerationDurationMs != 40 {
		t.Errorf("thinking/tool/generation = %d/%d/%d, want 1500/2000/40", d.ThinkingDurationMs, d.ToolDurationMs, d.GenerationDurationMs)
	}
	if d.TotalDurationMs != 0 {
		t.Errorf("phase time leaked into TotalDurationMs = %d", d.TotalDurationMs)
	}
}

func TestErrorTurnThenRecovery(t *testing.T) {
	cases := []struct {
		name    string
		tr      *TurnResult
		errMsg  string
		wantErr bool
		wantMsg string
	}{
		{"engine error", &TurnResult{InputTokens: 1}, "turn timed out", true, "turn timed out"},
		{"CLI error result", &TurnResult{IsError: true, Result: "API Error: 500"}, "", true, "API Error: 500"},
		{"engine error wins over result", &TurnResult{IsError: true, Result: "from cli"}, "from engine", true, "from engine"},
		{"crash", nil, "process died", true, "process died"},
		{"good", &TurnResult{Result: "fine"}, "", false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSessionStats("x", time.Now())
			s.RecordTurn(tc.tr, time.Second, tc.errMsg)
			d := s.Snapshot()
			if d.IsError != tc.wantErr || d.ErrorMessage != tc.wantMsg {
				t.Errorf("IsError/ErrorMessage = %v/%q, want %v/%q", d.IsError, d.ErrorMessage, tc.wantErr, tc.wantMsg)
			}
			// A later good turn clears the error.
			s.RecordTurn(&TurnResult{Result: "ok"}, time.Second, "")
			if d := s.Snapshot(); d.IsError || d.ErrorMessage != "" {
				t.Errorf("after a good turn IsError/ErrorMessage = %v/%q", d.IsError, d.ErrorMessage)
			}
		})
	}
}

func TestNilTurnOnlyAddsWallTime(t *testing.T) {
	s := NewSessionStats("x", time.Now())
	s.RecordTurn(&TurnResult{Model: "m", InputTokens: 10, OutputTokens: 5, CacheRead: 3, CacheWrite: 2, CostUSD: 0.5}, time.Second, "")
	before := s.Snapshot()
	s.RecordTurn(nil, 3*time.Second, "")
	after := s.Snapshot()

	if after.TotalDurationMs != before.TotalDurationMs+3000 {
		t.Errorf("TotalDurationMs = %d, want %d", after.TotalDurationMs, before.TotalDurationMs+3000)
	}
	if after.Turns != before.Turns+1 {
		t.Errorf("Turns = %d, want %d (a crashed turn is still a turn)", after.Turns, before.Turns+1)
	}
	if after.EndTime == 0 {
		t.Error("EndTime not set")
	}
	// Nothing the CLI would have reported changes.
	after.TotalDurationMs, after.Turns, after.EndTime = before.TotalDurationMs, before.Turns, before.EndTime
	if !reflect.DeepEqual(after, before) {
		t.Errorf("nil turn changed more than wall time:\nbefore %+v\nafter  %+v", before, after)
	}
}

func TestSnapshotReturnsCopies(t *testing.T) {
	s := NewSessionStats("x", time.Now())
	s.RecordToolUse("Write", map[string]any{"file_path": "/a"})
	s.RecordToolUse("Edit", map[string]any{"file_path": "/b"})
	s.RecordToolUse("Bash", nil)

	d1 := s.Snapshot()
	d1.FilePaths[0] = "/mutated"
	d1.ToolsUsed[0] = "Mutated"
	_ = append(d1.FilePaths[:1], "/appended")
	_ = append(d1.ToolsUsed[:1], "Appended")

	d2 := s.Snapshot()
	if want := []string{"/a", "/b"}; !reflect.DeepEqual(d2.FilePaths, want) {
		t.Errorf("FilePaths = %v after mutating an earlier snapshot, want %v", d2.FilePaths, want)
	}
	if want := []string{"Bash", "Edit", "Write"}; !reflect.DeepEqual(d2.ToolsUsed, want) {
		t.Errorf("ToolsUsed = %v after mutating an earlier snapshot, want %v", d2.ToolsUsed, want)
	}

	// Later records do not show up in an earlier snapshot either.
	s.RecordToolUse("Write", map[string]any{"file_path": "/c"})
	if len(d2.FilePaths) != 2 || s.Snapshot().FilesModified != 3 {
		t.Errorf("snapshot shares FilePaths with the live stats: %v", d2.FilePaths)
	}
}

func TestConcurrentUse(t *testing.T) {
	s := NewSessionStats("x", time.Now())
	const workers, perWorker = 32, 50
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < perWorker; i++ {
				s.RecordToolUse("Write", map[string]any{"file_path": fmt.Sprintf("/f/%d", i)})
				s.RecordToolUse(fmt.Sprintf("Tool%d", w), nil)
				s.AddDuration(PhaseTool, time.Millisecond)
				s.RecordTurn(&TurnResult{InputTokens: 1, OutputTokens: 2, CostUSD: 0.5, Model: "m"}, time.Millisecond, "")
				s.SetModel("m")
				d := s.Snapshot()
				if d.TotalTokens != d.InputTokens+d.OutputTokens+d.CacheReadTokens+d.CacheWriteTokens {
					t.Errorf("inconsistent snapshot: %+v", d)
					return
				}
				_, _ = json.Marshal(d)
			}
		}(w)
	}
	wg.Wait()
	d := s.Snapshot()
	n := int32(workers * perWorker)
	if d.Turns != n || d.InputTokens != n || d.OutputTokens != 2*n || d.TotalTokens != 3*n {
		t.Errorf("turns/in/out/total = %d/%d/%d/%d, want %d/%d/%d/%d", d.Turns, d.InputTokens, d.OutputTokens, d.TotalTokens, n, n, 2*n, 3*n)
	}
	if d.TotalCostUSD != float64(n)*0.5 {
		t.Errorf("cost = %v, want %v", d.TotalCostUSD, float64(n)*0.5)
	}
	if d.ToolCallCount != 2*n || d.FilesModified != perWorker || len(d.FilePaths) != perWorker {
		t.Errorf("tool calls/files/paths = %d/%d/%d, want %d/%d/%d", d.ToolCallCount, d.FilesModified, len(d.FilePaths), 2*n, perWorker, perWorker)
	}
	if len(d.ToolsUsed) != workers+1 {
		t.Errorf("%d tools used, want %d", len(d.ToolsUsed), workers+1)
	}
	if d.ToolDurationMs != int64(n) || d.TotalDurationMs != int64(n) {
		t.Errorf("tool/total ms = %d/%d, want %d", d.ToolDurationMs, d.TotalDurationMs, n)
	}
}

func TestSessionStatsDataJSON(t *testing.T) {
	s := NewSessionStats("sess-json", time.Unix(1_700_000_000, 0))
	s.RecordTurn(&TurnResult{Model: "claude-x", InputTokens: 1, OutputTokens: 2, CacheWrite: 3, CacheRead: 4, CostUSD: 0.01}, time.Second, "")
	s.RecordToolUse("Write", map[string]any{"file_path": "/p"})
	s.AddDuration(PhaseThinking, time.Second)

	raw, err := json.Marshal(s.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"session_id":             "sess-json",
		"start_time":             float64(1_700_000_000),
		"total_duration_ms":      float64(1000),
		"thinking_duration_ms":   float64(1000),
		"tool_duration_ms":       float64(0),
		"generation_duration_ms": float64(0),
		"input_tokens":           float64(1),
		"output_tokens":          float64(2),
		"cache_write_tokens":     float64(3),
		"cache_read_tokens":      float64(4),
		"total_tokens":           float64(10),
		"tool_call_count":        float64(1),
		"tools_used":             []any{"Write"},
		"files_modified":         float64(1),
		"file_paths":             []any{"/p"},
		"total_cost_usd":         0.01,
		"model_used":             "claude-x",
		"turns":                  float64(1),
		"is_error":               false,
	}
	if _, ok := m["end_time"].(float64); !ok {
		t.Errorf("end_time missing or not a number: %s", raw)
	}
	delete(m, "end_time")
	if !reflect.DeepEqual(m, want) {
		t.Errorf("JSON =\n%s\nwant keys/values %v", raw, want)
	}

	// error_message appears only when set; empty lists are [] not null.
	s2 := NewSessionStats("e", time.Now())
	raw, _ = json.Marshal(s2.Snapshot())
	m = nil
	_ = json.Unmarshal(raw, &m)
	if _, ok := m["error_message"]; ok {
		t.Errorf("error_message present without an error: %s", raw)
	}
	for _, k := range []string{"tools_used", "file_paths"} {
		if l, ok := m[k].([]any); !ok || len(l) != 0 {
			t.Errorf("%s = %v, want []: %s", k, m[k], raw)
		}
	}
	s2.RecordTurn(nil, 0, "boom")
	raw, _ = json.Marshal(s2.Snapshot())
	m = nil
	_ = json.Unmarshal(raw, &m)
	if m["error_message"] != "boom" || m["is_error"] != true {
		t.Errorf("error fields in %s", raw)
	}
}

func TestNewEventWithMeta(t *testing.T) {
	ev := NewEventWithMeta(TypeAnswer, "hello", nil)
	if ev == nil || ev.Meta == nil {
		t.Fatal("NewEventWithMeta(nil meta) returned nil event or nil Meta")
	}
	if ev.EventType != TypeAnswer || ev.EventData != "hello" {
		t.Errorf("event = %+v", ev)
	}
	raw, _ := json.Marshal(ev)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	if _, ok := m["meta"].(map[string]any); !ok {
		t.Errorf("meta is not an object in %s", raw)
	}

	meta := &EventMeta{ToolName: "Bash", Status: "running"}
	ev = NewEventWithMeta(TypeToolUse, "", meta)
	if ev.Meta != meta {
		t.Error("NewEventWithMeta did not keep the given meta")
	}
	if NewEventWithMeta(TypeThinking, "", nil).Meta == NewEventWithMeta(TypeThinking, "", nil).Meta {
		t.Error("events share one default Meta")
	}
}

func TestSessionStartInlinedInJSON(t *testing.T) {
	ev := NewEventWithMeta(TypeSessionStart, "", nil)
	ev.SessionID = "s1"
	ev.SessionStart = &SessionStart{PID: 4242, ProviderSessionID: "prov-1", Provider: "claude", WorkDir: "/w", ColdStart: true, Resumed: true}
	raw, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"pid": float64(4242), "provider_session_id": "prov-1", "provider": "claude",
		"work_dir": "/w", "cold_start": true, "resumed": true,
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %v, want %v at the top level of %s", k, m[k], v, raw)
		}
	}
	if _, ok := m["SessionStart"]; ok {
		t.Errorf("SessionStart nested instead of inlined: %s", raw)
	}
	if m["event_type"] != TypeSessionStart || m["session_id"] != "s1" {
		t.Errorf("event fields lost: %s", raw)
	}
	// cold_start and resumed are sent even when false.
	ev.SessionStart = &SessionStart{PID: 1}
	raw, _ = json.Marshal(ev)
	m = nil
	_ = json.Unmarshal(raw, &m)
	if m["cold_start"] != false || m["resumed"] != false {
		t.Errorf("false cold_start/resumed omitted: %s", raw)
	}

	// Round trip restores the embedded struct.
	ev.SessionStart = &SessionStart{PID: 7, ProviderSessionID: "p", Resumed: true}
	raw, _ = json.Marshal(ev)
	var back EventWithMeta
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if back.SessionStart == nil || *back.SessionStart != *ev.SessionStart {
		t.Errorf("round trip SessionStart = %+v, want %+v", back.SessionStart, ev.SessionStart)
	}

	// Without a SessionStart none of its fields appear.
	plain := NewEventWithMeta(TypeAnswer, "x", nil)
	raw, _ = json.Marshal(plain)
	m = nil
	_ = json.Unmarshal(raw, &m)
	for _, k := range []string{"pid", "provider_session_id", "provider", "work_dir", "cold_start", "resumed", "fallback", "startup_ms"} {
		if _, ok := m[k]; ok {
			t.Errorf("%s present without a SessionStart: %s", k, raw)
		}
	}
}
