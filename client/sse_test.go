package client

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// chunks is a reader that hands out one chunk a Read, as a stream
// arrives in bursts.
type chunks struct{ parts []string }

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.parts[0])
	if c.parts[0] = c.parts[0][n:]; c.parts[0] == "" {
		c.parts = c.parts[1:]
	}
	return n, nil
}

func TestReadSSE(t *testing.T) {
	stream := ": keep-alive\n\nid: 1\nevent: answer\ndata: {\"a\":1}\n\n" +
		"id: 2\r\nevent: result\r\ndata: line one\r\ndata: line two\r\n\r\n" +
		"event: turn_error\ndata: {}\n\n" +
		"id: 3\nevent: cut\ndata: never dispatched"
	var got []Event
	if err := ReadSSE(strings.NewReader(stream), func(e Event) bool { got = append(got, e); return true }); err != nil {
		t.Fatal(err)
	}
	want := []Event{
		{ID: 1, Type: "answer", Data: []byte(`{"a":1}`)},
		{ID: 2, Type: "result", Data: []byte("line one\nline two")},
		{Type: "turn_error", Data: []byte("{}")},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

// The idle hook runs once per burst, after the burst's last event and
// before the next burst's first; a burst cut inside an event is one.
func TestReadSSEBurstsMarksEachBurst(t *testing.T) {
	ev := func(id string) string { return "id: " + id + "\nevent: e\ndata: {}\n\n" }
	r := &chunks{parts: []string{ev("1") + ev("2") + ev("3"), ev("4"), ev("5")[:10], ev("5")[10:] + ev("6")}}
	var log []string
	err := ReadSSEBursts(r, func(e Event) bool {
		log = append(log, string(rune('0'+e.ID)))
		return true
	}, func() { log = append(log, "|") })
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(log, ""), "|123|4|56|"; got != want {
		t.Fatalf("events and idles %q, want %q", got, want)
	}
}

func TestReadSSEBoundsALine(t *testing.T) {
	huge := "data: " + strings.Repeat("x", maxSSELine+1) + "\n\n"
	err := ReadSSE(strings.NewReader(huge), func(Event) bool { return true })
	if !errors.Is(err, ErrSSELineTooLong) {
		t.Fatalf("a line past the bound: %v", err)
	}
	long := "id: 7\ndata: " + strings.Repeat("y", 200<<10) + "\n\n"
	var got []Event
	if err := ReadSSE(strings.NewReader(long), func(e Event) bool { got = append(got, e); return true }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ID != 7 || len(got[0].Data) != 200<<10 {
		t.Fatalf("a line longer than the buffer came back as %d events", len(got))
	}
}
