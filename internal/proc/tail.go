package proc

import "sync"

// tailBuffer keeps the last size bytes written to it. A fixed ring is used
// instead of an ever-growing buffer because an agent CLI may write to stderr
// for hours; only the most recent output is useful in an error report.
type tailBuffer struct {
	mu   sync.Mutex
	size int    // capacity of the ring
	buf  []byte // ring storage, allocated at the first write (most CLIs never write stderr)
	pos  int    // next write position in buf
	full bool   // buf has wrapped at least once
}

func newTailBuffer(size int) *tailBuffer {
	return &tailBuffer{size: size}
}

// Write stores p, discarding the oldest bytes beyond the buffer size. It
// never fails, so it can sit behind a reader loop without error handling.
func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.buf == nil && n > 0 {
		t.buf = make([]byte, t.size)
	}
	size := t.size
	if n >= size {
		// Only the final size bytes of p can survive; start the ring afresh.
		copy(t.buf, p[n-size:])
		t.pos, t.full = 0, true
		return n, nil
	}
	c := copy(t.buf[t.pos:], p)
	if c < n {
		copy(t.buf, p[c:])
		t.full = true
	}
	t.pos = (t.pos + n) % size
	if t.pos == 0 && n > 0 {
		t.full = true
	}
	return n, nil
}

// String returns the retained bytes, oldest first.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.full {
		return string(t.buf[:t.pos])
	}
	out := make([]byte, 0, len(t.buf))
	out = append(out, t.buf[t.pos:]...)
	out = append(out, t.buf[:t.pos]...)
	return string(out)
}
