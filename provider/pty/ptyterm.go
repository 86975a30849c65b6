package pty

import (
	"context"
	"errors"
	"fmt"
	"golang.org/x/sys/unix"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/charmbracelet/x/vt"
	creackpty "github.com/creack/pty"

	"github.com/hotplex/hotplex/internal/proc"
)

// ptyTerminal runs the program on a pseudo-terminal of our own and keeps
// its screen in a terminal emulator.
type ptyTerminal struct {
	cp     *proc.Process
	master *os.File
	emu    *vt.Emulator
	// emuMu guards the emulator's screen: vt.SafeEmulator leaves its
	// String and Scrollback unguarded.
	emuMu sync.Mutex
	grace time.Duration

	writeMu sync.Mutex // keeps key sequences whole

	mu      sync.Mutex
	bracket bracketTracker

	notify   chan struct{}
	readDone chan struct{} // the output reader ended
	respDone chan struct{} // the emulator's reply pump ended
	closeMu  sync.Mutex
	closed   bool
}

// startPTY starts spec on a new pseudo-terminal of cols x rows.
func startPTY(spec proc.Spec, cols, rows int, grace time.Duration) (*ptyTerminal, error) {
	master, slave, err := creackpty.Open()
	if err != nil {
		return nil, fmt.Errorf("open a pseudo-terminal: %w", err)
	}
	if err := creackpty.Setsize(master, &creackpty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		_ = master.Close()
		_ = slave.Close()
		return nil, fmt.Errorf("size the pseudo-terminal: %w", err)
	}
	if err := quiet(slave); err != nil {
		_ = master.Close()
		_ = slave.Close()
		return nil, err
	}
	spec.TTY = slave
	cp, err := proc.Start(spec)
	// The child has its own copy; ours must go so that reads on the master
	// end (EIO) once every process holding the terminal has exited.
	_ = slave.Close()
	if err != nil {
		_ = master.Close()
		return nil, err
	}
	emu := vt.NewEmulator(cols, rows)
	// Enough history for an answer many screens long; each line costs a
	// row of cells.
	emu.SetScrollbackSize(2000)
	t := &ptyTerminal{
		cp: cp, master: master, emu: emu, grace: grace,
		notify:   make(chan struct{}, 1),
		readDone: make(chan struct{}),
		respDone: make(chan struct{}),
	}
	go t.readOutput()
	go t.pumpReplies()
	return t, nil
}

// readOutput feeds the program's output to the emulator until the
// terminal's last holder goes away.
func (t *ptyTerminal) readOutput() {
	defer close(t.readDone)
	buf := make([]byte, 32<<10)
	for {
		n, err := t.master.Read(buf)
		if n > 0 {
			t.mu.Lock()
			t.bracket.feed(buf[:n])
			t.mu.Unlock()
			t.emuMu.Lock()
			_, _ = t.emu.Write(buf[:n])
			t.emuMu.Unlock()
			signal(t.notify)
		}
		if err != nil {
			signal(t.notify)
			return
		}
	}
}

// pumpReplies forwards the emulator's answers to the program's terminal
// queries (cursor position, device attributes): programs that ask wait
// for them. It ends when the emulator is closed.
func (t *ptyTerminal) pumpReplies() {
	defer close(t.respDone)
	buf := make([]byte, 1024)
	for {
		n, err := t.emu.Read(buf)
		if n > 0 {
			t.writeMu.Lock()
			_, _ = t.master.Write(buf[:n])
			t.writeMu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

func (t *ptyTerminal) screen() []string {
	t.emuMu.Lock()
	defer t.emuMu.Unlock()
	return trimLines(strings.Split(t.emu.String(), "\n"))
}

func (t *ptyTerminal) transcript() []string {
	t.emuMu.Lock()
	defer t.emuMu.Unlock()
	var lines []string
	if sb := t.emu.Scrollback(); sb != nil {
		for _, l := range sb.Lines() {
			lines = append(lines, l.String())
		}
	}
	// The emulator's String trims the screen's trailing blank rows, which
	// is what a transcript wants too.
	return trimLines(append(lines, strings.Split(t.emu.String(), "\n")...))
}

func (t *ptyTerminal) changed() <-chan struct{} { return t.notify }

func (t *ptyTerminal) keys(s string) error {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	if _, err := io.WriteString(t.master, s); err != nil {
		return fmt.Errorf("write to the terminal: %w", err)
	}
	return nil
}

func (t *ptyTerminal) paste(s string) error {
	t.mu.Lock()
	on := t.bracket.on
	t.mu.Unlock()
	if on {
		s = bracket(s)
	}
	return t.keys(s)
}

func (t *ptyTerminal) pid() int              { return t.cp.PID() }
func (t *ptyTerminal) exited() bool          { return t.cp.Ending() }
func (t *ptyTerminal) done() <-chan struct{} { return t.cp.Done() }
func (t *ptyTerminal) kill() error           { return t.cp.Kill() }

// close hangs up the terminal, as closing a terminal window does, then ends
// whatever is left of the tree the usual way: SIGTERM, grace, SIGKILL.
func (t *ptyTerminal) close(ctx context.Context) error {
	t.closeMu.Lock()
	defer t.closeMu.Unlock()
	if t.closed {
		return nil
	}
	t.closed = true
	if !t.cp.Exited() {
		_ = syscall.Kill(-t.cp.PID(), syscall.SIGHUP)
	}
	err := t.cp.Terminate(ctx, t.grace)
	// With the tree gone the master reads EIO; closing it covers a holder
	// that escaped the sweep.
	select {
	case <-t.readDone:
	case <-time.After(2 * time.Second):
	}
	_ = t.master.Close()
	<-t.readDone
	// Emulator.Close sets a flag that its Read checks without a lock, a
	// data race with the reply pump blocked in Read. Closing the pipe the
	// replies travel through ends the pump the same way, race-free.
	if pw, ok := t.emu.InputPipe().(*io.PipeWriter); ok {
		_ = pw.CloseWithError(io.EOF)
	}
	<-t.respDone
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// quiet turns the terminal's echo off before the program starts. The
// emulator answers the program's terminal queries (cursor position,
// device attributes) by writing to the terminal; a program that asks
// before it switches the terminal to raw mode, or an answer that arrives
// late, would otherwise be echoed back into the program's output and
// drawn over its screen. Programs that want echo turn it on themselves.
func quiet(tty *os.File) error {
	tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		return fmt.Errorf("read the terminal's modes: %w", err)
	}
	tio.Lflag &^= unix.ECHO | unix.ECHOE | unix.ECHOK | unix.ECHONL | unix.ECHOCTL
	if err := unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, tio); err != nil {
		return fmt.Errorf("turn the terminal's echo off: %w", err)
	}
	return nil
}
