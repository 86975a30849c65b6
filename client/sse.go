package client

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
)

// Event is one Server-Sent Event of the /v1 streams: a session event
// (id: its number, event: its type, data: its JSON) or a notice such as
// turn_error (no id).
type Event struct {
	ID   uint64
	Type string
	Data []byte
}

// maxSSELine bounds one line of a stream; an event's data line holds a
// whole event, tool output included.
const maxSSELine = 16 << 20

// ReadSSE calls f with each event of r until r ends, f returns false, or
// a line is longer than maxSSELine. Comments (keep-alives) are skipped.
func ReadSSE(r io.Reader, f func(Event) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxSSELine)
	var ev Event
	var data [][]byte
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			if data != nil {
				ev.Data = bytes.Join(data, []byte("\n"))
				if !f(ev) {
					return nil
				}
			}
			ev, data = Event{}, nil
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "id":
			ev.ID, _ = strconv.ParseUint(string(value), 10, 64)
		case "event":
			ev.Type = string(value)
		case "data":
			data = append(data, bytes.Clone(value))
		}
	}
	return sc.Err()
}
