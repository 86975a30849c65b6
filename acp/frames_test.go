package acp

import (
	"bytes"
	"strings"
	"testing"
)

// countingWriter counts the writes that reach the editor.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.Buffer.Write(p)
}

// Messages written while held go out at the last release, in order, in
// one write; a burst past maxHeld goes out without waiting.
func TestLockedWriterHoldsABurst(t *testing.T) {
	out := &countingWriter{}
	w := &lockedWriter{w: out}
	_, _ = w.Write([]byte("a\n"))
	w.hold()
	w.hold()
	_, _ = w.Write([]byte("b\n"))
	_, _ = w.Write([]byte("c\n"))
	w.release()
	if out.String() != "a\n" {
		t.Fatalf("released once of two holds, the editor has %q", out.String())
	}
	w.release()
	if out.String() != "a\nb\nc\n" || out.writes != 2 {
		t.Fatalf("after the last release the editor has %q in %d writes", out.String(), out.writes)
	}

	out.Reset()
	w.hold()
	big := strings.Repeat("x", maxHeld)
	_, _ = w.Write([]byte("d\n"))
	_, _ = w.Write([]byte(big))
	if out.String() != "d\n"+big {
		t.Fatalf("a burst past maxHeld was held back: the editor has %d bytes", out.Len())
	}
	w.release()
}

// A hold released with the next message sends that message with what
// was held, in one write, whoever writes it.
func TestLockedWriterReleasesWithTheNextMessage(t *testing.T) {
	out := &countingWriter{}
	w := &lockedWriter{w: out}
	w.hold()
	_, _ = w.Write([]byte("update\n"))
	w.releaseWithNext()
	if out.writes != 0 {
		t.Fatalf("released with the next message, the editor already has %q", out.String())
	}
	_, _ = w.Write([]byte("answer\n"))
	if out.String() != "update\nanswer\n" || out.writes != 1 {
		t.Fatalf("the editor has %q in %d writes", out.String(), out.writes)
	}
	_, _ = w.Write([]byte("later\n"))
	if out.String() != "update\nanswer\nlater\n" || out.writes != 2 {
		t.Fatalf("after the hold ended, a message waited: %q in %d writes", out.String(), out.writes)
	}
}
