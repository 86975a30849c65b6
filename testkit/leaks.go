package testkit

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/internal/proc"
)

// LiveDescendants returns the live processes descending from this test
// process. Processes that escaped their group re-parent to us (the engine
// is a child subreaper), so they are counted too.
func LiveDescendants() []int {
	return proc.Descendants(os.Getpid(), "")
}

// AssertNoDescendants fails the test if any process started by it is still
// alive, after a short grace for exits already under way. Register it with
// t.Cleanup before the engine's own cleanup so that it runs after it.
func AssertNoDescendants(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		left := LiveDescendants()
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			var desc []string
			for _, pid := range left {
				b, _ := os.ReadFile("/proc/" + itoa(pid) + "/cmdline")
				desc = append(desc, itoa(pid)+" "+strings.ReplaceAll(string(b), "\x00", " "))
			}
			t.Fatalf("%d processes outlived the test:\n%s", len(left), strings.Join(desc, "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
