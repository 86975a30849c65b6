package claude

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The exported StreamMessage model must read every frame the real CLI
// writes, flattening array content as the decoder does.
func TestStreamMessageDecodesRecordedFrames(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	flattened := false
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			line := sc.Bytes()
			if !json.Valid(line) {
				continue
			}
			var m StreamMessage
			if err := json.Unmarshal(line, &m); err != nil {
				t.Errorf("%s: %v: %.200s", path, err, line)
				continue
			}
			if m.Message == nil {
				continue
			}
			for _, b := range m.Message.Content {
				if b.Type == "tool_result" && strings.Contains(b.Content, "Async agent launched") {
					flattened = true
				}
			}
		}
		f.Close()
	}
	if !flattened {
		t.Error("the array-valued Task result was not flattened into Content")
	}
}
