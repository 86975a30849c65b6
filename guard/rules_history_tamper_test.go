package guard

import "testing"

// The logs Windows keeps are evidence; a log the project registered for
// itself is its developer's to clear.
func TestWindowsSystemLogsAndOwnLogs(t *testing.T) {
	d := NewDetector(Options{})
	cmdc, ps := winCorpusContextFor("cmd"), winCorpusContextFor("powershell")
	checkDanger(t, d, cmdc, []dangerCase{
		{`wevtutil cl Security`, CategoryHistoryTamper, "win-log-clear", LevelHigh},
		{`wevtutil cl Microsoft-Windows-Sysmon/Operational`, CategoryHistoryTamper, "win-log-clear", LevelHigh},
		{`wevtutil sl Security /ms:1024`, CategoryHistoryTamper, "win-log-clear", LevelHigh},
		{`for /f %x in ('wevtutil el') do wevtutil cl "%x"`, CategoryHistoryTamper, "", LevelHigh},
	})
	checkSafe(t, d, cmdc, []string{
		`wevtutil cl AcmeDev`,
		`wevtutil sl Application /ms:104857600`,
		`wevtutil qe Security /c:5`,
	})
	checkDanger(t, d, ps, []dangerCase{
		{`Clear-EventLog -LogName Security`, CategoryHistoryTamper, "win-log-clear", LevelHigh},
		{`Clear-EventLog -LogName Application,System,Security`, CategoryHistoryTamper, "win-log-clear", LevelHigh},
	})
	checkSafe(t, d, ps, []string{
		`Clear-EventLog -LogName AcmeDev`,
	})
}

// A system file's timestamps set to another date hide an edit.
func TestTimestompSystemFiles(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`touch -r /etc/hostname /etc/passwd`, CategoryHistoryTamper, "timestomp-system", LevelHigh},
		{`sudo touch -d '2021-01-01 00:00' /usr/bin/sudo`, CategoryHistoryTamper, "timestomp-system", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`touch /tmp/ready`,
		`touch -d '2 hours ago' build/stamp`,
		`touch -r package.json node_modules/.stamp`,
	})
}

// Login records cleared, or a shell started that keeps no history.
func TestLoginRecordsAndPrivateShells(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo lastlog --clear --user "$USER"`, CategoryHistoryTamper, "login-records-cleared", LevelHigh},
		{`fish --private`, CategoryHistoryTamper, "login-records-cleared", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`lastlog --user dev`,
		`fish -c 'echo hi'`,
	})
}

// fish turns history off through set, as other shells do through
// assignments.
func TestFishHistoryVariables(t *testing.T) {
	d := NewDetector(Options{})
	fish := corpusContext
	fish.Shell = "fish"
	checkDanger(t, d, fish, []dangerCase{
		{`set -gx HISTFILE /dev/null`, CategoryHistoryTamper, "history-disable", LevelHigh},
		{`set -g fish_history ""`, CategoryHistoryTamper, "", LevelHigh},
		{`set -e fish_history`, CategoryHistoryTamper, "", LevelHigh},
	})
	checkSafe(t, d, fish, []string{
		`set -gx EDITOR vim`,
		`set -g fish_history work`,
		`set -x PATH $PATH ~/.local/bin`,
	})
}

// fish's clear-session and deletes of searched entries, and history
// managers' own deletes; searching or listing history is not.
func TestHistoryManagersAndFishSessions(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`history clear-session`, CategoryHistoryTamper, "history-delete", LevelHigh},
		{`for e in (history search --contains token); history delete --exact -- $e; end`, CategoryHistoryTamper, "history-delete", LevelHigh},
		{`mcfly search --delete-all`, CategoryHistoryTamper, "history-delete", LevelHigh},
		{`atuin history prune`, CategoryHistoryTamper, "history-delete", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`history search --contains docker`,
		`atuin search --limit 20 docker`,
		`atuin stats`,
	})
}

// fish's private mode keeps no history; a history variable written
// before one program only sets that program's environment.
func TestFishPrivateModeAndOneProgramEnv(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`set -U fish_private_mode yes`, CategoryHistoryTamper, "history-disable", LevelHigh},
		{`export HISTFILE=; ./deploy.sh`, CategoryHistoryTamper, "history-disable", LevelHigh},
		{`HISTFILE=/dev/null bash`, CategoryHistoryTamper, "history-disable", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`set -e fish_private_mode`,
		`HISTFILE= ./scripts/rotate-keys.sh`,
		`HISTSIZE=0 make release`,
	})
}

// A container image's logs linked to its output are not logs erased;
// the same log emptied, or linked to nothing, is.
func TestLogsLinkedToOutput(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`ln -sf /dev/null /var/log/auth.log`, CategoryHistoryTamper, "", LevelHigh},
	})
	checkSafe(t, d, testCtx, []string{
		`ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log`,
	})
}
