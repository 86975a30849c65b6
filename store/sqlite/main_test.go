package sqlite

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	// The crash test re-runs this binary as a child that writes and then
	// kills itself; see crash_test.go.
	if path := os.Getenv(crashChildEnv); path != "" {
		crashChild(path)
		return
	}
	goleak.VerifyTestMain(m)
}
