package proc

import "syscall"

// setParentDeathSignal asks the kernel to send the leader SIGTERM if we die
// without terminating it (SIGKILL, a crash): a CLI must not outlive the
// program that manages it. The signal is tied to the thread that started
// the child; the Go runtime keeps its threads, so in practice it fires when
// the program exits.
func setParentDeathSignal(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGTERM
}
