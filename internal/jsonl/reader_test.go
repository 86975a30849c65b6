package jsonl

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReaderSkipsOversizedLinesAndContinues(t *testing.T) {
	huge := strings.Repeat("x", 200<<10)
	in := "first\n\n" + huge + "\nsecond\n" + huge + "\nlast-without-newline"
	r := NewReader(strings.NewReader(in), 100<<10)
	var got []string
	var tooLong int
	for {
		line, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, ErrLineTooLong) {
			tooLong++
			if !strings.Contains(err.Error(), "bytes exceed the 102400-byte limit") {
				t.Errorf("error does not say the size: %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
	}
	want := []string{"first", "second", "last-without-newline"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("lines = %q, want %q", got, want)
	}
	if tooLong != 2 {
		t.Fatalf("too-long errors = %d, want 2", tooLong)
	}
}

func TestReaderOversizedFinalLine(t *testing.T) {
	r := NewReader(strings.NewReader("ok\n"+strings.Repeat("y", 300<<10)), 64<<10)
	if l, err := r.Next(); err != nil || string(l) != "ok" {
		t.Fatalf("first = %q, %v", l, err)
	}
	if _, err := r.Next(); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("want ErrLineTooLong, got %v", err)
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("want EOF, got %v", err)
	}
}

func FuzzReader(f *testing.F) {
	f.Add("a\nb\n", 10)
	f.Add(strings.Repeat("z", 1000)+"\n", 1)
	f.Fuzz(func(t *testing.T, in string, _ int) {
		r := NewReader(strings.NewReader(in), 1)
		for i := 0; i < 100000; i++ {
			line, err := r.Next()
			if err != nil && !errors.Is(err, ErrLineTooLong) {
				return
			}
			if len(line) > 64<<10 {
				t.Fatalf("line of %d bytes over the limit", len(line))
			}
		}
	})
}

// stepReader yields its steps one Read at a time; an error step fails that
// Read, as a read deadline does.
type stepReader struct{ steps []any }

var errTimeout = errors.New("deadline")

func (s *stepReader) Read(p []byte) (int, error) {
	if len(s.steps) == 0 {
		return 0, io.EOF
	}
	step := s.steps[0]
	if err, ok := step.(error); ok {
		s.steps = s.steps[1:]
		return 0, err
	}
	str := step.(string)
	n := copy(p, str)
	if n < len(str) {
		s.steps[0] = str[n:] // the rest comes with the next Read
	} else {
		s.steps = s.steps[1:]
	}
	return n, nil
}

func TestReaderResumesAfterTransientErrors(t *testing.T) {
	long := strings.Repeat("L", 5000) // longer than the read buffer
	r := NewReader(&stepReader{steps: []any{
		"first\nsec", errTimeout, "ond\n", long[:3000], errTimeout, long[3000:] + "\n", errTimeout, "tail",
	}}, 64<<10)
	var got []string
	timeouts := 0
	for {
		line, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, errTimeout) {
			timeouts++
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
	}
	want := []string{"first", "second", long, "tail"}
	if strings.Join(got, "|") != strings.Join(want, "|") || timeouts != 3 {
		t.Fatalf("got %d lines (%d timeouts), want %d lines (3 timeouts): %.40q", len(got), timeouts, len(want), got)
	}
}
