package guard

import "testing"

// Git Bash's start returns at once, as & does: an endless loop of it
// starts processes without end.
func TestLoopsOfDetachedStarts(t *testing.T) {
	d := NewDetector(Options{})
	gb := winCorpusContextFor("gitbash")
	checkDanger(t, d, gb, []dangerCase{
		{`while :; do start bash; done`, CategoryForkBomb, "fork-bomb-loop", LevelCritical},
	})
	checkSafe(t, d, gb, []string{
		`start notepad README.md`,
		`for i in 1 2 3; do start bash; done`,
	})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`while true; do setsid -f sleep 1000; done`, CategoryForkBomb, "fork-bomb-loop", LevelCritical},
	})
}
