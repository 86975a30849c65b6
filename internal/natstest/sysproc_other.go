//go:build !linux

package natstest

import "syscall"

// sysProcAttr is empty where there is no parent-death signal; the test's
// cleanup ends the server.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }
