package event

import (
	"slices"
	"sync"
	"time"
)

// SessionStats accumulates one session's figures across its turns. It is
// safe for concurrent use; read it through Snapshot, since the exported
// fields change while turns run.
type SessionStats struct {
	SessionID            string          // Unique identifier for the session
	StartTime            time.Time       // Timestamp when the session started
	TotalDurationMs      int64           // Total duration of the session's turns in milliseconds
	ThinkingDurationMs   int64           // Total time spent in thinking phase in milliseconds
	ToolDurationMs       int64           // Total time spent executing tools in milliseconds
	GenerationDurationMs int64           // Total time spent generating text in milliseconds
	InputTokens          int32           // Total input tokens consumed
	OutputTokens         int32           // Total output tokens generated
	CacheWriteTokens     int32           // Total tokens written to cache
	CacheReadTokens      int32           // Total tokens read from cache
	ToolCallCount        int32           // Number of tool calls made
	ToolsUsed            map[string]bool // Set of unique tool names used
	FilesModified        int32           // Number of files modified
	FilePaths            []string        // List of paths of files modified

	mu        sync.Mutex
	turns     int32
	costUSD   float64
	model     string
	lastEnd   time.Time
	isError   bool
	errMsg    string
	fileIndex map[string]bool
}

// NewSessionStats starts the statistics of session id.
func NewSessionStats(id string, start time.Time) *SessionStats {
	return &SessionStats{SessionID: id, StartTime: start, ToolsUsed: map[string]bool{}, fileIndex: map[string]bool{}}
}

// fileTools are the tools whose input names a file they write, and the
// input key that holds it.
var fileTools = map[string]string{
	"Write":        "file_path",
	"Edit":         "file_path",
	"MultiEdit":    "file_path",
	"NotebookEdit": "notebook_path",
}

// ModifiedFile returns the path a tool call writes to, if it is a file tool.
func ModifiedFile(toolName string, input map[string]any) (string, bool) {
	key, ok := fileTools[toolName]
	if !ok {
		return "", false
	}
	p, _ := input[key].(string)
	return p, p != ""
}

// RecordToolUse counts a tool call and remembers files it modifies.
func (s *SessionStats) RecordToolUse(name string, input map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ToolCallCount++
	s.ToolsUsed[name] = true
	if p, ok := ModifiedFile(name, input); ok && !s.fileIndex[p] {
		s.fileIndex[p] = true
		s.FilePaths = append(s.FilePaths, p)
		s.FilesModified++
	}
}

// RecordFiles remembers files a turn modified, however it modified them
// (the engine compares the work directory before and after the turn).
func (s *SessionStats) RecordFiles(paths []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range paths {
		if p != "" && !s.fileIndex[p] {
			s.fileIndex[p] = true
			s.FilePaths = append(s.FilePaths, p)
			s.FilesModified++
		}
	}
}

// Phase names a part of a turn's time.
type Phase int

// The phases a turn's time is split into.
const (
	PhaseThinking Phase = iota
	PhaseTool
	PhaseGeneration
)

// AddDuration adds d to the time spent in phase p.
func (s *SessionStats) AddDuration(p Phase, d time.Duration) {
	ms := d.Milliseconds()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch p {
	case PhaseThinking:
		s.ThinkingDurationMs += ms
	case PhaseTool:
		s.ToolDurationMs += ms
	case PhaseGeneration:
		s.GenerationDurationMs += ms
	}
}

// RecordTurn adds a finished turn: its wall time and what the CLI reported.
// tr may be nil when the turn ended without a result (crash, cancellation).
func (s *SessionStats) RecordTurn(tr *TurnResult, wall time.Duration, errMsg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns++
	s.TotalDurationMs += wall.Milliseconds()
	s.lastEnd = time.Now()
	s.isError = errMsg != ""
	s.errMsg = errMsg
	if tr == nil {
		return
	}
	s.InputTokens += tr.InputTokens
	s.OutputTokens += tr.OutputTokens
	s.CacheWriteTokens += tr.CacheWrite
	s.CacheReadTokens += tr.CacheRead
	s.costUSD += tr.CostUSD
	if tr.Model != "" {
		s.model = tr.Model
	}
	if tr.IsError && errMsg == "" {
		s.isError = true
		s.errMsg = tr.Result
	}
}

// SetModel records the model the CLI reports it uses.
func (s *SessionStats) SetModel(model string) {
	if model == "" {
		return
	}
	s.mu.Lock()
	s.model = model
	s.mu.Unlock()
}

// Snapshot returns a consistent copy of the statistics.
func (s *SessionStats) Snapshot() SessionStatsData {
	s.mu.Lock()
	defer s.mu.Unlock()
	tools := make([]string, 0, len(s.ToolsUsed))
	for name := range s.ToolsUsed {
		tools = append(tools, name)
	}
	slices.Sort(tools)
	d := SessionStatsData{
		SessionID:            s.SessionID,
		StartTime:            s.StartTime.Unix(),
		TotalDurationMs:      s.TotalDurationMs,
		ThinkingDurationMs:   s.ThinkingDurationMs,
		ToolDurationMs:       s.ToolDurationMs,
		GenerationDurationMs: s.GenerationDurationMs,
		InputTokens:          s.InputTokens,
		OutputTokens:         s.OutputTokens,
		CacheWriteTokens:     s.CacheWriteTokens,
		CacheReadTokens:      s.CacheReadTokens,
		TotalTokens:          s.InputTokens + s.OutputTokens + s.CacheWriteTokens + s.CacheReadTokens,
		ToolCallCount:        s.ToolCallCount,
		ToolsUsed:            tools,
		FilesModified:        s.FilesModified,
		FilePaths:            slices.Clone(s.FilePaths),
		TotalCostUSD:         s.costUSD,
		ModelUsed:            s.model,
		Turns:                s.turns,
		IsError:              s.isError,
		ErrorMessage:         s.errMsg,
	}
	if !s.lastEnd.IsZero() {
		d.EndTime = s.lastEnd.Unix()
	}
	if d.FilePaths == nil {
		d.FilePaths = []string{}
	}
	return d
}

// RestoreSessionStats rebuilds statistics from their saved form, so that a
// session restored after a restart keeps accumulating where it left off.
func RestoreSessionStats(d SessionStatsData) *SessionStats {
	s := NewSessionStats(d.SessionID, time.Unix(d.StartTime, 0))
	s.TotalDurationMs, s.ThinkingDurationMs = d.TotalDurationMs, d.ThinkingDurationMs
	s.ToolDurationMs, s.GenerationDurationMs = d.ToolDurationMs, d.GenerationDurationMs
	s.InputTokens, s.OutputTokens = d.InputTokens, d.OutputTokens
	s.CacheWriteTokens, s.CacheReadTokens = d.CacheWriteTokens, d.CacheReadTokens
	s.ToolCallCount = d.ToolCallCount
	for _, t := range d.ToolsUsed {
		s.ToolsUsed[t] = true
	}
	for _, p := range d.FilePaths {
		if !s.fileIndex[p] {
			s.fileIndex[p] = true
			s.FilePaths = append(s.FilePaths, p)
		}
	}
	s.FilesModified = int32(len(s.FilePaths))
	s.turns, s.costUSD, s.model = d.Turns, d.TotalCostUSD, d.ModelUsed
	s.isError, s.errMsg = d.IsError, d.ErrorMessage
	if d.EndTime > 0 {
		s.lastEnd = time.Unix(d.EndTime, 0)
	}
	return s
}

// SessionStatsData is the JSON form of SessionStats.
type SessionStatsData struct {
	SessionID            string   `json:"session_id"`
	StartTime            int64    `json:"start_time"` // Unix timestamp
	EndTime              int64    `json:"end_time"`   // Unix timestamp of the latest turn's end
	TotalDurationMs      int64    `json:"total_duration_ms"`
	ThinkingDurationMs   int64    `json:"thinking_duration_ms"`
	ToolDurationMs       int64    `json:"tool_duration_ms"`
	GenerationDurationMs int64    `json:"generation_duration_ms"`
	InputTokens          int32    `json:"input_tokens"`
	OutputTokens         int32    `json:"output_tokens"`
	CacheWriteTokens     int32    `json:"cache_write_tokens"`
	CacheReadTokens      int32    `json:"cache_read_tokens"`
	TotalTokens          int32    `json:"total_tokens"`
	ToolCallCount        int32    `json:"tool_call_count"`
	ToolsUsed            []string `json:"tools_used"`
	FilesModified        int32    `json:"files_modified"`
	FilePaths            []string `json:"file_paths"`
	TotalCostUSD         float64  `json:"total_cost_usd"`
	ModelUsed            string   `json:"model_used"`
	Turns                int32    `json:"turns"`
	IsError              bool     `json:"is_error"`
	ErrorMessage         string   `json:"error_message,omitempty"`
}

// Replace sets the statistics to their saved form d in place, for a
// session that another node of a cluster ran since they were taken.
func (s *SessionStats) Replace(d SessionStatsData) {
	n := RestoreSessionStats(d)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.SessionID, s.StartTime = n.SessionID, n.StartTime
	s.TotalDurationMs, s.ThinkingDurationMs = n.TotalDurationMs, n.ThinkingDurationMs
	s.ToolDurationMs, s.GenerationDurationMs = n.ToolDurationMs, n.GenerationDurationMs
	s.InputTokens, s.OutputTokens = n.InputTokens, n.OutputTokens
	s.CacheWriteTokens, s.CacheReadTokens = n.CacheWriteTokens, n.CacheReadTokens
	s.ToolCallCount, s.ToolsUsed = n.ToolCallCount, n.ToolsUsed
	s.FilesModified, s.FilePaths, s.fileIndex = n.FilesModified, n.FilePaths, n.fileIndex
	s.turns, s.costUSD, s.model, s.lastEnd = n.turns, n.costUSD, n.model, n.lastEnd
	s.isError, s.errMsg = n.isError, n.errMsg
}
