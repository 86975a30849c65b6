package natstest

import "syscall"

// sysProcAttr has the kernel kill nats-server if the test process dies
// without stopping it, so no server outlives a crashed or killed test.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
