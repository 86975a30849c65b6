package proc

import "golang.org/x/sys/unix"

// openExitFD opens a pidfd for pid, or returns -1.
func openExitFD(pid int) int {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return -1
	}
	return fd
}

// pollExitFD reports whether the process behind the pidfd has exited: a
// pidfd becomes readable when its process terminates.
func pollExitFD(fd int) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n > 0 && fds[0].Revents&unix.POLLIN != 0
}

func closeExitFD(fd int) {
	if fd >= 0 {
		_ = unix.Close(fd)
	}
}
