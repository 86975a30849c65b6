package pgtest

import "syscall"

// sysProcAttr runs the postmaster as cred, in a process group of its own
// (a Ctrl-C at the terminal reaches the test, which stops the server, and
// not the server directly), and has the kernel send it SIGQUIT, an
// immediate shutdown that ends its children too, if the test process dies
// without stopping it. The death signal is set after the change of user,
// so the kernel keeps it.
func sysProcAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Setpgid: true, Pdeathsig: syscall.SIGQUIT}
}
