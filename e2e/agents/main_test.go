// Package agents drives every real agent CLI the Makefile installs through
// the engine, offline against HotPlex's scripted model server: a table of
// agents, each proven on the same conversation, interrupt, resume and
// firewall checks.
package agents

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
