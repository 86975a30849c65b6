package proc

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// EnableSubreaper makes the calling process a child subreaper
// (prctl PR_SET_CHILD_SUBREAPER), so that orphaned descendants re-parent to
// it instead of PID 1 and can be reaped by Terminate. Call it once at start.
//
// Adopted orphans that exit become zombies of the caller until a Terminate
// reaps them. Terminate reaps zombie children that no pidfd of the process
// refers to, which os/exec children never are (it holds a pidfd until Wait).
// A program that forks children by other means and waits for them by pid
// (syscall.ForkExec with syscall.Wait4) could lose their exit status to it.
func EnableSubreaper() error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("proc: enable child subreaper: %w", err)
	}
	return nil
}
