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

// Reader reads lines of at most a given size. It is resumable: when the
// underlying reader fails with a transient error (a read deadline), Next
// returns that error and the next call carries on with the same line.
type Reader struct {
	r   *bufio.Reader
	max int
	// buf holds the part of a line read so far when the line did not fit
	// the read buffer or a read failed midway.
	buf []byte
	// skipped counts the bytes of an oversized line being thrown away.
	skipped int
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
	if cap(lr.buf) > 64<<10 && len(lr.buf) == 0 {
		lr.buf = nil // do not pin the memory of one big line for the session's life
	}
	for {
		chunk, err := lr.r.ReadSlice('\n')
		switch {
		case lr.skipped > 0:
			lr.skipped += len(chunk)
		case len(lr.buf)+len(chunk) > lr.max:
			// Count and drop the rest of the line instead of holding it.
			lr.skipped = len(lr.buf) + len(chunk)
			lr.buf = lr.buf[:0]
		case err == nil && len(lr.buf) == 0:
			return chunk, nil // the common case: the whole line was buffered
		default:
			lr.buf = append(lr.buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		atEOF := errors.Is(err, io.EOF)
		if err != nil && !atEOF {
			return nil, err // transient: the partial line waits for the next call
		}
		if lr.skipped > 0 {
			n := lr.skipped
			lr.skipped = 0
			return nil, fmt.Errorf("%w: %d bytes exceed the %d-byte limit (skipped)", ErrLineTooLong, n, lr.max)
		}
		if atEOF && len(lr.buf) == 0 {
			return nil, io.EOF
		}
		line := lr.buf
		lr.buf = lr.buf[:0]
		return line, nil
	}
}

// Buffered reports how many bytes are read ahead and waiting, including a
// partial line kept from an interrupted read.
func (lr *Reader) Buffered() int { return lr.r.Buffered() + len(lr.buf) }
