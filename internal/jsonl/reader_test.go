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
