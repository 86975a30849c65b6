package guard

import "testing"

// The session's user name ($USER, $LOGNAME, whoami, id -un) names the
// owner of the home directory: a path built from it is resolved.
func TestUserIdentityResolved(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`rm -rf /home/$USER`, CategoryFileDelete, "", LevelCritical},
		{`rm -rf "/home/$(whoami)"`, CategoryFileDelete, "", LevelCritical},
		{`rm -rf /home/$(id -un)/.ssh`, CategoryFileDelete, "", LevelHigh},
	})
	checkSafe(t, d, testCtx, []string{
		`echo "hello $USER"`,
		`rm -rf /home/$USER/project/build`,
		`mkdir -p /tmp/$(whoami)-cache`,
		`chown -R $USER:$USER ./data`,
	})
}

// A person let into an administrators' team is a grant whatever their
// name says: temp-contractor is not a throwaway resource.
func TestMembershipNamesAPersonNotAResource(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`gh api -X PUT orgs/acme/teams/platform-admins/memberships/temp-contractor -f role=maintainer`, CategoryGitDestroy, "forge-api-guard-change", LevelHigh},
		{`gh api -X PUT repos/acme/shop/collaborators/test-bot -f permission=admin`, CategoryGitDestroy, "forge-api-guard-change", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`gh api orgs/acme/teams/platform-admins/memberships/temp-contractor`,
		`gh api orgs/acme/teams/platform-admins/members`,
	})
}

// glab's ci subcommand is not a test's resource: the pipelines it
// deletes are the project's history; one named pipeline is like one run.
func TestGlabPipelinesDeleted(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`glab ci list -R acme/api -F json | jq -r '.[].id' | xargs -I{} glab ci delete {} -R acme/api`, CategoryGitDestroy, "forge-delete", LevelHigh},
		{`glab schedule delete 4 -R acme/api`, CategoryGitDestroy, "forge-delete", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`glab ci delete 12345`,
		`glab ci list -R acme/api`,
	})
}
