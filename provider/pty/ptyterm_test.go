package pty

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/internal/proc"
)

// A program that asks the terminal where its cursor is before it turns
// echo off (as a TUI does while it starts) must not find the emulator's
// answer echoed onto its screen.
func TestTerminalAnswersAreNotEchoed(t *testing.T) {
	// The program asks, waits for the answer to arrive, then prints a
	// marker; with echo on the answer would be drawn before the marker.
	term, err := startPTY(proc.Spec{Path: "/bin/sh", Args: []string{"-c", `printf '\033[6n'; sleep 0.5; printf 'done\n'; sleep 30`}}, 80, 10, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = term.close(context.Background()) }()
	deadline := time.After(20 * time.Second)
	for {
		screen := strings.Join(term.screen(), "\n")
		if strings.Contains(screen, "done") {
			if strings.Contains(screen, "R") || strings.Contains(screen, "^[") {
				t.Fatalf("the emulator's answer was echoed onto the screen:\n%s", screen)
			}
			return
		}
		select {
		case <-term.changed():
		case <-deadline:
			t.Fatalf("the program never printed its marker:\n%s", screen)
		}
	}
}
