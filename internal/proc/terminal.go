package proc

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// launchOnTerminal starts the child on spec.TTY as the leader of a new
// session, with the terminal as its controlling terminal: interactive
// programs need one to read keys and to get SIGINT and SIGWINCH. The
// session leader also leads a process group with its own pid, so
// Terminate's group signals reach the tree as they do for piped children.
// The process has no pipes: stdin, stdout and stderr stay nil, and their
// nil-safe Close calls do nothing.
func launchOnTerminal(spec Spec, env []string, cgroupFD int, ns bool) (*Process, error) {
	if ns {
		n, pid, err := launchInNamespace(spec, env, cgroupFD, [3]*os.File{spec.TTY, spec.TTY, spec.TTY})
		if err != nil {
			return nil, err
		}
		p := newProcess(spec, n.cmd, pid)
		p.ns = n
		if err := n.release(); err != nil {
			<-n.gone
			closeExitFD(p.exitFD)
			_ = n.statusFile.Close()
			return nil, err
		}
		return p, nil
	}
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
	return newProcess(spec, cmd, cmd.Process.Pid), nil
}
