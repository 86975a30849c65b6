//go:build !linux

package pgtest

import "syscall"

// sysProcAttr runs the postmaster as cred in a process group of its own.
func sysProcAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Setpgid: true}
}
