package pty

import (
	"bytes"
	"context"
	"strings"
)

// terminal is where the program runs: a pseudo-terminal of our own with an
// emulator keeping its screen, or a tmux window.
type terminal interface {
	// screen returns the visible screen, one string per row, trailing
	// spaces removed.
	screen() []string
	// transcript returns the lines that scrolled off the top followed by
	// the screen.
	transcript() []string
	// changed is signalled (without blocking, capacity one) when the
	// screen may have changed.
	changed() <-chan struct{}
	// keys sends raw input bytes to the program.
	keys(s string) error
	// paste sends text as a paste, bracketed when the program asked for it.
	paste(s string) error
	// pid is the program's process ID.
	pid() int
	// exited reports whether the program has ended.
	exited() bool
	// done is closed once the program has ended.
	done() <-chan struct{}
	// close ends the program and everything it started, and the terminal.
	close(ctx context.Context) error
}

// bracketTracker follows the program's bracketed paste mode (DECSET 2004)
// through its output, including sequences split between two reads.
type bracketTracker struct {
	on   bool
	tail []byte
}

var (
	bracketOn  = []byte("\x1b[?2004h")
	bracketOff = []byte("\x1b[?2004l")
)

func (b *bracketTracker) feed(p []byte) {
	buf := append(b.tail, p...)
	on, off := bytes.LastIndex(buf, bracketOn), bytes.LastIndex(buf, bracketOff)
	switch {
	case on > off:
		b.on = true
	case off > on:
		b.on = false
	}
	keep := len(bracketOn) - 1
	if len(buf) < keep {
		keep = len(buf)
	}
	b.tail = append(b.tail[:0], buf[len(buf)-keep:]...)
}

func bracket(s string) string {
	return string(bracketStart) + s + string(bracketEnd)
}

var (
	bracketStart = []byte("\x1b[200~")
	bracketEnd   = []byte("\x1b[201~")
)

// trimLines removes trailing spaces of every line and blank lines at the end.
func trimLines(lines []string) []string {
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\u00a0")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// signal wakes a waiter without blocking.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
