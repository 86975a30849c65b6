package client

import (
	"bufio"
	"bytes"
	"errors"
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

// ErrSSELineTooLong is the error of a stream with a line longer than
// maxSSELine.
var ErrSSELineTooLong = errors.New("client: a line of the event stream is longer than 16 MiB")

// ReadSSE calls f with each event of r until r ends, f returns false, or
// a line is longer than maxSSELine. Comments (keep-alives) are skipped.
func ReadSSE(r io.Reader, f func(Event) bool) error {
	return ReadSSEBursts(r, f, nil)
}

// ReadSSEBursts is ReadSSE that also calls idle, if not nil, each time it
// has handed f all it read and is about to wait on r: the end of a burst
// of events. A reader that passes events on can hold its own writes
// until then, and write a burst at once.
func ReadSSEBursts(r io.Reader, f func(Event) bool, idle func()) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		ev   Event
		data [][]byte
		long []byte // a line longer than br's buffer, so far
	)
	for {
		if idle != nil && br.Buffered() == 0 {
			idle()
		}
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if long = append(long, line...); len(long) > maxSSELine {
				return ErrSSELineTooLong
			}
			continue
		}
		if long != nil {
			line, long = append(long, line...), nil
			if len(line) > maxSSELine+2 {
				return ErrSSELineTooLong
			}
		}
		if err != nil && len(line) == 0 {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		switch {
		case len(line) == 0:
			if data != nil {
				ev.Data = bytes.Join(data, []byte("\n"))
				if !f(ev) {
					return nil
				}
			}
			ev, data = Event{}, nil
		case line[0] == ':':
		default:
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
		if err != nil {
			// The stream ended without a newline after its last line.
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}
