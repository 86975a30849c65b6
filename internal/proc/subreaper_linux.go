package proc

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// EnableSubreaper makes the calling process a child subreaper
// (prctl PR_SET_CHILD_SUBREAPER), so that orphaned descendants re-parent to
// it instead of PID 1 and can be reaped by Terminate. Call it once at start.
func EnableSubreaper() error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("proc: enable child subreaper: %w", err)
	}
	return nil
}
