package guard

import "testing"

// Deleting through another tool: the npm packages that are rm -rf by
// another name, run directly or through a package runner.
func TestNodeDeleters(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`npx rimraf ~/`, CategoryFileDelete, "rm-recursive-home", LevelCritical},
		{`npx del-cli ~/ --force`, CategoryFileDelete, "rm-recursive-home", LevelCritical},
		{`npx rimraf --no-preserve-root '/home/dev/**'`, CategoryFileDelete, "", LevelCritical},
		{`bunx rimraf@5 /etc`, CategoryFileDelete, "", LevelHigh},
		{`rimraf src`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`npx rimraf ./dist`,
		`npx -y rimraf@5 node_modules coverage`,
		`npx prettier --write .`,
		`rimraf build`,
	})
}

// A find that deletes only what a build leaves behind, or only what is
// empty, among the sources keeps the sources.
func TestFindDeletesArtefactsAmongSources(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`find src -name '*.py' -delete`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		{`find src -type f -delete`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		{`find src -delete`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`find src -type d -empty -delete`,
		`find ./src -name '*.pyc' -delete`,
		`find src -name __pycache__ -type d -exec rm -rf {} +`,
	})
}
