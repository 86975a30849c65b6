package guard

import "testing"

// A client told to delete everything it manages, whichever client, or a
// local VM manager deleting its default machine (and every container in
// it).
func TestClientDeletingEverything(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`cli53 delete --purge example.com`, CategoryCloudDestroy, "cli-destroy-everything", LevelModerate},
		{`xcrun simctl delete all`, CategoryCloudDestroy, "cli-destroy-everything", LevelModerate},
		{`acmectl projects delete --all`, CategoryCloudDestroy, "", LevelModerate},
		{`colima delete --force`, CategoryCloudDestroy, "cli-destroy-everything", LevelModerate},
	})
	checkSafe(t, d, testCtx, []string{
		`xcrun simctl delete unavailable`,
		`acmectl projects delete scratch-42`,
		`colima delete dev-test`,
		`acmectl projects list --all`,
	})
}
