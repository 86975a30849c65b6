// Command faketui is a small scripted terminal chat program for testing
// HotPlex's terminal backend. It runs in raw mode on its terminal, draws a
// prompt line ("faketui> "), echoes what is typed, understands bracketed
// paste, shows a spinner while it "works", and answers from a tiny script:
//
//	remember X              keeps X in the conversation's memory
//	what do you remember    lists what it was asked to remember
//	slow N                  works for N seconds (Esc or Ctrl-C interrupts)
//	run CMD                 asks "Allow command: CMD? (y/n)", runs CMD with sh on y
//	runfile FILE            the same with the command written in FILE
//	lines N                 answers with N numbered lines
//	stream N                writes N lines, one every 200ms, while it works
//	exit                    quits
//	anything else           answered with "echo: ..." after a short spinner
//
// With --state FILE the memory survives a restart: it is loaded at start
// and saved after every change, so a killed program resumes the conversation.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

const prompt = "faketui> "

type app struct {
	out   *bufio.Writer
	in    chan byte
	state string
	facts []string
}

func main() {
	statePath := flag.String("state", "", "file that keeps the conversation's memory")
	spin := flag.Duration("spin", 300*time.Millisecond, "how long ordinary answers work before answering")
	flag.Parse()

	restore, err := rawMode(int(os.Stdin.Fd()))
	if err != nil {
		fmt.Fprintln(os.Stderr, "faketui: a terminal is required:", err)
		os.Exit(2)
	}
	defer restore()
	// Hangup (the terminal went away) and terminate end the program cleanly.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGTERM)
	go func() {
		<-sigs
		restore()
		os.Exit(0)
	}()

	a := &app{out: bufio.NewWriter(os.Stdout), in: make(chan byte, 4096), state: *statePath}
	a.load()
	go func() {
		buf := make([]byte, 1024)
		for {
			n, err := os.Stdin.Read(buf)
			for _, b := range buf[:n] {
				a.in <- b
			}
			if err != nil {
				close(a.in)
				return
			}
		}
	}()

	a.printf("\x1b[?2004h") // bracketed paste on
	a.printf("faketui 1.0 — a scripted terminal agent\r\n")
	if len(a.facts) > 0 {
		a.printf("resumed a conversation with %d facts\r\n", len(a.facts))
	}
	for {
		a.printf("\r\n%s", prompt)
		line, ok := a.readLine()
		if !ok {
			return
		}
		a.printf("\r\n")
		if !a.answer(strings.TrimSpace(line), *spin) {
			a.printf("\x1b[?2004l")
			a.out.Flush()
			return
		}
	}
}

func (a *app) printf(format string, args ...any) {
	fmt.Fprintf(a.out, format, args...)
	a.out.Flush()
}

// readLine reads keys until Enter, echoing them; pasted text arrives
// between ESC[200~ and ESC[201~ and may hold newlines, which are kept.
func (a *app) readLine() (string, bool) {
	var line []byte
	pasting := false
	var esc []byte
	for b := range a.in {
		if esc != nil {
			esc = append(esc, b)
			s := string(esc)
			switch {
			case s == "\x1b[200~":
				pasting, esc = true, nil
			case s == "\x1b[201~":
				pasting, esc = false, nil
			case len(esc) >= 6 || (len(esc) > 2 && (b >= 0x40 && b <= 0x7e)):
				esc = nil // another sequence: ignored
			}
			continue
		}
		switch {
		case b == 0x1b:
			esc = []byte{b}
		case pasting && (b == '\r' || b == '\n'):
			line = append(line, '\n')
			a.printf("\r\n")
		case b == '\r' || b == '\n':
			return string(line), true
		case b == 0x7f || b == 0x08:
			if len(line) > 0 {
				line = line[:len(line)-1]
				a.printf("\b \b")
			}
		case b == 0x03: // Ctrl-C at the prompt clears the line
			line = line[:0]
			a.printf("\r\x1b[K%s", prompt)
		case b == 0x04 && len(line) == 0:
			return "", false
		case b >= 0x20:
			line = append(line, b)
			a.out.WriteByte(b)
			a.out.Flush()
		}
	}
	return "", false
}

// answer handles one prompt; it returns false to quit.
func (a *app) answer(line string, spin time.Duration) bool {
	word, rest, _ := strings.Cut(line, " ")
	switch {
	case line == "exit":
		a.printf("bye\r\n")
		return false
	case word == "remember":
		if !a.work(spin) {
			return true
		}
		a.facts = append(a.facts, rest)
		a.save()
		a.printf("OK, I will remember %s\r\n", rest)
	case strings.HasPrefix(line, "what do you remember"):
		if !a.work(spin) {
			return true
		}
		if len(a.facts) == 0 {
			a.printf("I remember nothing yet\r\n")
		} else {
			a.printf("You asked me to remember: %s\r\n", strings.Join(a.facts, "; "))
		}
	case word == "slow":
		secs, _ := strconv.ParseFloat(rest, 64)
		if !a.work(time.Duration(secs * float64(time.Second))) {
			return true
		}
		a.printf("finished the slow work\r\n")
	case word == "run":
		a.run(rest)
	case word == "runfile":
		b, err := os.ReadFile(rest)
		if err != nil {
			a.printf("cannot read %s: %v\r\n", rest, err)
			return true
		}
		a.run(strings.TrimSpace(string(b)))
	case word == "stream":
		n, _ := strconv.Atoi(rest)
		for i := 1; i <= n; i++ {
			if !a.work(200 * time.Millisecond) {
				return true
			}
			a.printf("chunk %d of %d\r\n", i, n)
		}
	case word == "lines":
		n, _ := strconv.Atoi(rest)
		if !a.work(spin) {
			return true
		}
		for i := 1; i <= n; i++ {
			a.printf("line %d of %d\r\n", i, n)
		}
	default:
		if !a.work(spin) {
			return true
		}
		a.printf("echo: %s\r\n", strings.ReplaceAll(line, "\n", "\r\n"))
	}
	return true
}

// work shows a spinner for d and reports whether it ran to the end: Esc or
// Ctrl-C interrupt it.
func (a *app) work(d time.Duration) bool {
	frames := []rune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
	deadline := time.Now().Add(d)
	tick := time.NewTicker(80 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		left := time.Until(deadline)
		if left <= 0 {
			a.printf("\r\x1b[K")
			return true
		}
		a.printf("\r\x1b[K%c working %.1fs (esc to interrupt)", frames[i%len(frames)], left.Seconds())
		select {
		case b, ok := <-a.in:
			if !ok || b == 0x1b || b == 0x03 {
				a.printf("\r\x1b[Kinterrupted\r\n")
				return false
			}
		case <-tick.C:
		}
	}
}

// run asks before running cmd, as agents ask before using a tool.
func (a *app) run(cmd string) {
	a.printf("Allow command: %s? (y/n) ", cmd)
	for b := range a.in {
		switch b {
		case 'y', 'Y':
			a.printf("y\r\n")
			c := exec.Command("sh", "-c", cmd)
			out, err := c.CombinedOutput()
			out = bytes.ReplaceAll(bytes.TrimRight(out, "\n"), []byte("\n"), []byte("\r\n"))
			if len(out) > 0 {
				a.printf("%s\r\n", out)
			}
			if err != nil {
				a.printf("command failed: %v\r\n", err)
			} else {
				a.printf("command done\r\n")
			}
			return
		case 'n', 'N', 0x1b, 0x03:
			a.printf("n\r\ndenied: %s\r\n", cmd)
			return
		}
	}
}

func (a *app) load() {
	if a.state == "" {
		return
	}
	b, err := os.ReadFile(a.state)
	if err == nil {
		_ = json.Unmarshal(b, &a.facts)
	}
}

func (a *app) save() {
	if a.state == "" {
		return
	}
	b, _ := json.Marshal(a.facts)
	_ = os.WriteFile(a.state, b, 0o600)
}

// rawMode turns off line editing, echo and signal keys, so that the
// program sees every key (Esc, Ctrl-C) itself.
func rawMode(fd int) (restore func(), err error) {
	old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return nil, err
	}
	raw := *old
	raw.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	raw.Oflag &^= unix.OPOST
	raw.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	raw.Cflag &^= unix.CSIZE | unix.PARENB
	raw.Cflag |= unix.CS8
	raw.Cc[unix.VMIN] = 1
	raw.Cc[unix.VTIME] = 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, &raw); err != nil {
		return nil, err
	}
	return func() { _ = unix.IoctlSetTermios(fd, unix.TCSETS, old) }, nil
}
