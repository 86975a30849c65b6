package claude

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// goldenLine is the part of an event the golden files pin down.
type goldenLine struct {
	Type      string `json:"type"`
	Data      string `json:"data,omitempty"`
	Tool      string `json:"tool,omitempty"`
	ToolID    string `json:"tool_id,omitempty"`
	Status    string `json:"status,omitempty"`
	Summary   string `json:"summary,omitempty"`
	FilePath  string `json:"file_path,omitempty"`
	Parent    string `json:"parent,omitempty"`
	Subtype   string `json:"turn_subtype,omitempty"`
	IsError   bool   `json:"turn_is_error,omitempty"`
	Model     string `json:"turn_model,omitempty"`
	InTokens  int32  `json:"turn_input_tokens,omitempty"`
	CostMicro int64  `json:"turn_cost_micro_usd,omitempty"`
	Control   string `json:"control,omitempty"`
}

// decodeTranscript runs a recorded transcript through the decoder the way
// a process does: control frames go to the control protocol, result frames
// end turns, everything else becomes events.
func decodeTranscript(t *testing.T, path string) []goldenLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	clock := time.Unix(0, 0)
	d := newDecoder(func() time.Time { clock = clock.Add(time.Millisecond); return clock })
	d.startTurn()
	var out []goldenLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		m := parse(line)
		switch m.Type {
		case "control_response":
			out = append(out, goldenLine{Type: "control_response", Control: m.Response.Subtype + " " + m.Response.RequestID})
			continue
		case "control_request":
			c := m.Request.Subtype + " " + m.Request.ToolName
			if m.Request.Subtype == "hook_callback" {
				c += " " + m.Request.Input["tool_name"].(string)
			}
			out = append(out, goldenLine{Type: "control_request", Control: strings.TrimSpace(c)})
			continue
		case "result":
			tr := d.turnResult(m)
			out = append(out, goldenLine{Type: "result", Data: trim(tr.Result), Subtype: tr.Subtype, IsError: tr.IsError,
				Model: tr.Model, InTokens: tr.InputTokens, CostMicro: int64(tr.CostUSD * 1e6)})
			d.startTurn()
			continue
		}
		for _, ev := range d.events(m, line) {
			if ev.Meta == nil {
				t.Fatalf("event without meta: %+v", ev)
			}
			if _, err := json.Marshal(ev); err != nil {
				t.Fatalf("event does not marshal: %v", err)
			}
			gl := goldenLine{Type: ev.EventType, Data: trim(ev.EventData), Tool: ev.Meta.ToolName, ToolID: ev.Meta.ToolID,
				Status: ev.Meta.Status, Summary: ev.Meta.InputSummary, FilePath: ev.Meta.FilePath, Parent: ev.ParentToolUseID}
			out = append(out, gl)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func trim(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

func TestCodecGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	if len(files) < 5 {
		t.Fatalf("want the recorded transcripts, found %v", files)
	}
	for _, in := range files {
		t.Run(filepath.Base(in), func(t *testing.T) {
			got := decodeTranscript(t, in)
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			for _, g := range got {
				if err := enc.Encode(g); err != nil {
					t.Fatal(err)
				}
			}
			golden := strings.TrimSuffix(in, ".jsonl") + ".golden"
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Fatalf("decoding %s changed; got:\n%s\nwant:\n%s", in, buf.Bytes(), want)
			}
		})
	}
}

// TestCodecShapes pins the behaviours the golden files are meant to show,
// so that a careless -update cannot bless a regression.
func TestCodecShapes(t *testing.T) {
	count := func(lines []goldenLine, pred func(goldenLine) bool) int {
		n := 0
		for _, l := range lines {
			if pred(l) {
				n++
			}
		}
		return n
	}
	tt := decodeTranscript(t, "testdata/tool_and_thinking.jsonl")
	if count(tt, func(l goldenLine) bool { return l.Type == event.TypeThinking }) != 1 {
		t.Error("thinking block not decoded")
	}
	if count(tt, func(l goldenLine) bool { return l.Type == event.TypeAnswer && (l.Data == "one" || l.Data == "two") }) != 2 {
		t.Error("several text blocks not decoded as several answers")
	}
	if count(tt, func(l goldenLine) bool {
		return l.Type == event.TypeToolResult && l.Tool == "Bash" && l.Status == "success"
	}) != 1 {
		t.Error("tool result not matched to its Bash call")
	}

	sub := decodeTranscript(t, "testdata/subagent_partial.jsonl")
	if count(sub, func(l goldenLine) bool {
		return l.Type == event.TypeToolResult && l.Tool == "Task" && strings.Contains(l.Data, "Async agent")
	}) != 1 {
		t.Error("array-valued Task result not flattened")
	}
	if count(sub, func(l goldenLine) bool { return l.Parent != "" && l.Type == event.TypeToolUse && l.Tool == "Bash" }) != 1 {
		t.Error("nested sub-agent tool_use not marked with its parent")
	}
	if count(sub, func(l goldenLine) bool { return l.Parent != "" && l.Type == event.TypeToolResult && l.Tool == "Bash" }) != 1 {
		t.Error("sub-agent result arriving a turn later lost its tool name")
	}
	if count(sub, func(l goldenLine) bool { return l.Type == event.TypeRaw }) != 0 {
		t.Error("stream_event frames must not surface as raw events")
	}
	var streamed string
	for _, l := range sub {
		switch {
		case l.Type == event.TypeAnswer && l.Parent != "":
			// The CLI streams only the main agent; a sub-agent's text
			// arrives whole.
			if l.Status == "delta" || l.Data != "sub done: from-subagent" {
				t.Errorf("sub-agent answer: %+v", l)
			}
		case l.Type == event.TypeAnswer:
			if l.Status != "delta" {
				t.Errorf("a streamed message's complete text was delivered again: %q", l.Data)
			}
			streamed += l.Data
		}
	}
	if !strings.HasPrefix(streamed, "delegated: Async agent launched") || !strings.Contains(streamed, "read it") {
		t.Errorf("text deltas do not add up to the answers: %q", streamed)
	}

	unk := decodeTranscript(t, "testdata/unknown_frames.jsonl")
	if n := count(unk, func(l goldenLine) bool { return l.Type == event.TypeRaw }); n != 3 {
		t.Errorf("want 3 raw events (unknown type, non-JSON, no type), got %d", n)
	}
	if count(unk, func(l goldenLine) bool { return l.Type == event.TypeAnswer && l.Data == "a plain string message" }) != 1 {
		t.Error("string message content not decoded")
	}
	if count(unk, func(l goldenLine) bool {
		return l.Type == event.TypeToolResult && l.Status == "error" && l.Data == "line one\n[image]\nline two"
	}) != 1 {
		t.Error("array tool_result with an image not flattened in order")
	}
	if count(unk, func(l goldenLine) bool { return l.Type == event.TypeToolUse && l.FilePath == "/w/a.txt" }) != 1 {
		t.Error("Write tool path not in meta")
	}
}

func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		for _, l := range bytes.Split(b, []byte("\n")) {
			if len(l) > 0 && len(l) < 4096 {
				f.Add(l)
			}
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		d := newDecoder(time.Now)
		m := parse(line)
		for _, ev := range d.events(m, line) {
			if ev.Meta == nil {
				t.Fatal("nil meta")
			}
			if _, err := json.Marshal(ev); err != nil {
				t.Fatalf("event does not marshal: %v", err)
			}
		}
		if m.Type == "result" {
			_ = d.turnResult(m)
		}
	})
}

// The CLI's total_cost_usd and duration_api_ms count from the start of its
// process (verified with 2.1.x: four identical turns report 0.006, 0.012,
// 0.018, 0.024, and a process started with --resume counts from zero
// again); a turn's own figures are the differences.
func TestTurnResultCostIsTheTurnsOwn(t *testing.T) {
	d := newDecoder(time.Now)
	for i, cum := range []float64{0.006, 0.012, 0.018000000000000002, 0.024} {
		m := parse([]byte(fmt.Sprintf(`{"type":"result","subtype":"success","total_cost_usd":%v,"duration_api_ms":%d,"usage":{"input_tokens":1000,"output_tokens":100}}`, cum, 40*(i+1))))
		tr := d.turnResult(m)
		if math.Abs(tr.CostUSD-0.006) > 1e-12 || tr.APIMs != 40 {
			t.Errorf("turn %d: cost %v, api %d ms; want the turn's own 0.006 and 40 ms", i+1, tr.CostUSD, tr.APIMs)
		}
		if tr.InputTokens != 1000 || tr.OutputTokens != 100 {
			t.Errorf("turn %d: tokens %d/%d; the CLI reports them per turn", i+1, tr.InputTokens, tr.OutputTokens)
		}
	}
	// A new process (a resume) has its own decoder, so it counts from zero.
	if tr := newDecoder(time.Now).turnResult(parse([]byte(`{"type":"result","total_cost_usd":0.006}`))); tr.CostUSD != 0.006 {
		t.Errorf("a fresh process's first turn costs %v, want 0.006", tr.CostUSD)
	}
}
