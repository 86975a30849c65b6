package guard

import "testing"

// Another project's build output is made again by its build: deleting it
// outside the work directory loses nothing. The same names at a system
// location or a shallow path are not build outputs.
func TestBuildOutputsOutsideWorkDir(t *testing.T) {
	d := NewDetector(Options{})
	checkSafe(t, d, testCtx, []string{
		`rm -rf /data/repos/acme-web/node_modules`,
		`rm -rf /c/src/acme/build`,
		`rm -rf /data/src/api/target /data/src/api/.pytest_cache`,
	})
	checkDanger(t, d, testCtx, []dangerCase{
		{`rm -rf /srv/acme/src`, CategoryFileDelete, "", LevelHigh},
		{`sudo rm -rf /usr/lib/node_modules`, CategoryFileDelete, "", LevelHigh},
		{`rm -rf /srv/build`, CategoryFileDelete, "", LevelHigh},
	})
	gb := winCorpusContextFor("gitbash")
	checkSafe(t, d, gb, []string{
		`rm -rf C:/src/api/bin C:/src/api/obj`,
	})
	checkDanger(t, d, gb, []dangerCase{
		{`rm -rf C:/tools/bin`, CategoryFileDelete, "", LevelHigh},
		{`rm -rf C:/src/api/Controllers`, CategoryFileDelete, "", LevelHigh},
	})
}
