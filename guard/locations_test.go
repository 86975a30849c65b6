package guard

import "testing"

// A target named through a path converter or a tool's install location is
// judged as the location it prints.
func TestLocationQueries(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`rm -rf "$(brew --prefix)/Cellar"`, CategoryFileDelete, "", LevelModerate},
		{`rm -rf "$(npm root -g)"`, CategoryFileDelete, "", LevelModerate},
		{`rm -rf "$(realpath ~)"`, CategoryFileDelete, "", LevelCritical},
		{`rm -rf "$(go env GOROOT)"`, CategoryFileDelete, "", LevelModerate},
	})
	checkSafe(t, d, testCtx, []string{
		`rm -rf "$(realpath ./build)"`,
		`ls "$(brew --prefix)/bin"`,
		`rm -rf "$(npm root)/.cache"`,
		`cd "$(go env GOPATH)/src"`,
	})
	gb := winCorpusContextFor("gitbash")
	checkDanger(t, d, gb, []dangerCase{
		{`rm -rf "$(cygpath -u "$USERPROFILE")"`, CategoryFileDelete, "", LevelCritical},
	})
	checkSafe(t, d, gb, []string{
		`rm -rf "$(cygpath -u "$USERPROFILE")/AppData/Local/Temp/acme-build"`,
	})
}
