package proc

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"syscall"
)

// launchOnTerminal starts the child on spec.TTY as the leader of a new
// session, with the terminal as its controlling terminal: interactive
// programs need one to read keys and to get SIGINT and SIGWINCH. The
// session leader also leads a process group with its own pid, so
// Terminate's group signals reach the tree as they do for piped children.
// The process has no pipes: stdin, stdout and stderr stay nil, and their
// nil-safe Close calls do nothing.
func launchOnTerminal(spec Spec, env []string, cgroupFD int) (*Process, error) {
	cmd := exec.Command(spec.Path, spec.Args...)
	cmd.Dir = spec.Dir
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = spec.TTY, spec.TTY, spec.TTY
	// Ctty is a descriptor number in the child, where the terminal is stdin.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	setParentDeathSignal(cmd.SysProcAttr)
	if cgroupFD >= 0 {
		setCgroupFD(cmd.SysProcAttr, cgroupFD)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("proc: start %s: %w", spec.Path, err)
	}
	p := &Process{
		cmd:     cmd,
		pid:     cmd.Process.Pid,
		name:    filepath.Base(spec.Path),
		tail:    newTailBuffer(spec.StderrTail),
		drained: make(chan struct{}),
		exited:  make(chan struct{}),
		done:    make(chan struct{}),
		termSem: make(chan struct{}, 1),
		killNow: make(chan struct{}),
	}
	if info, err := readStat(p.pid); err == nil {
		p.start = info.start
	}
	p.exitFD = openExitFD(p.pid)
	p.pidfds = p.exitFD >= 0
	return p, nil
}
