// Package jsonl reads newline-delimited frames with a bound on line size,
// so that one oversized or endless line from a child process can neither
// exhaust memory nor stop the frames after it.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ErrLineTooLong is wrapped by the error Next returns for a line longer
// than the limit. The line is skipped; the next call reads the one after.
var ErrLineTooLong = errors.New("line too long")

// Reader reads lines of at most Max bytes.
type Reader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

// NewReader reads from r, allowing lines of up to limit bytes (at least 64 KiB).
func NewReader(r io.Reader, limit int) *Reader {
	// A small buffer keeps idle readers cheap (one per hot session); longer
	// lines are assembled in buf, which shrinks again after a big one.
	return &Reader{r: bufio.NewReaderSize(r, 2<<10), max: max(limit, 64<<10)}
}

// Next returns the next non-empty line without its newline. The slice is
// valid until the following call. At the end of input it returns io.EOF;
// a final line without a newline is returned first.
func (lr *Reader) Next() ([]byte, error) {
	for {
		line, err := lr.readLine()
		if err != nil {
			return nil, err
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return line, nil
		}
	}
}

func (lr *Reader) readLine() ([]byte, error) {
	chunk, err := lr.r.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		// The common case: the whole line is in the read buffer.
		if err != nil && len(chunk) == 0 {
			return nil, err
		}
		return chunk, nil
	}
	// A long line is assembled in buf, which is let go afterwards so that
	// one big frame does not pin its memory for the session's life.
	lr.buf = append(lr.buf[:0], chunk...)
	defer func() {
		if cap(lr.buf) > 64<<10 {
			lr.buf = nil
		}
	}()
	skipped := 0
	for errors.Is(err, bufio.ErrBufferFull) {
		chunk, err = lr.r.ReadSlice('\n')
		if skipped == 0 && len(lr.buf)+len(chunk) <= lr.max {
			lr.buf = append(lr.buf, chunk...)
		} else {
			// Count and drop the rest of the line instead of holding it.
			skipped += len(lr.buf) + len(chunk)
			lr.buf = lr.buf[:0]
		}
	}
	if skipped > 0 {
		return nil, fmt.Errorf("%w: %d bytes exceed the %d-byte limit (skipped)", ErrLineTooLong, skipped, lr.max)
	}
	if len(lr.buf) > lr.max {
		return nil, fmt.Errorf("%w: %d bytes exceed the %d-byte limit (skipped)", ErrLineTooLong, len(lr.buf), lr.max)
	}
	return lr.buf, nil
}
