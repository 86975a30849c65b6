package testkit

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
	"strings"
)

// SSEEvent is one parsed Server-Sent Event.
type SSEEvent struct {
	ID   uint64
	Type string
	Data json.RawMessage
}

// ReadSSE parses events from body until it ends or stop returns true.
func ReadSSE(body io.Reader, stop func(SSEEvent) bool) []SSEEvent {
	sc := bufio.NewScanner(body)
	sc.Buffer(nil, 4<<20)
	var out []SSEEvent
	var cur SSEEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Type != "" {
				out = append(out, cur)
				if stop != nil && stop(cur) {
					return out
				}
			}
			cur = SSEEvent{}
		case strings.HasPrefix(line, "id: "):
			cur.ID, _ = strconv.ParseUint(line[4:], 10, 64)
		case strings.HasPrefix(line, "event: "):
			cur.Type = line[7:]
		case strings.HasPrefix(line, "data: "):
			cur.Data = json.RawMessage(line[6:])
		}
	}
	return out
}
