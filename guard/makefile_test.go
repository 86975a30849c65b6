package guard

import "testing"

// Recipes the line writes or appends to the makefile that make then reads
// are judged where make runs them.
func TestMakefileWrittenThenMade(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`printf '\n.bkd:\n\t@echo "@reboot $$HOME/.local/bin/.agent" | crontab -\n' >> Makefile && make .bkd`, CategoryPersistence, "", LevelModerate},
		{`printf 'x:\n\trm -rf ~\n' > build.mk && make -f build.mk x`, CategoryFileDelete, "", LevelCritical},
	})
	checkSafe(t, d, testCtx, []string{
		`printf '\nfmt:\n\tgofmt -w .\n' >> Makefile && make fmt`,
		`printf 'x:\n\trm -rf ~\n' > build.mk && make x`,
	})
}
