package guard

import "testing"

// A fish block opened after a pipe (producer | while read -l x; ...; end)
// is read as fish, both ways: what its body does is judged.
func TestFishBlockAfterPipe(t *testing.T) {
	d := NewDetector(Options{})
	checkSafe(t, d, testCtx, []string{
		`docker ps --format '{{.Names}}' | while read -l name; echo $name; end`,
		`git branch --format '%(refname:short)' | while read -l b; echo $b; end`,
	})
	checkDanger(t, d, testCtx, []dangerCase{
		{`ls -d ~/* | while read -l x; rm -rf $x; end`, CategoryFileDelete, "", LevelHigh},
	})
}
