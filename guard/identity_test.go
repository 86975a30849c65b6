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
