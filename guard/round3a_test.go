package guard

import "testing"

// The classes below are the third blind round's Windows misses and false
// positives, each with forms of its own on both sides of the line.

func TestWindowsScheduledTaskDeletion(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	cmdc := winCorpusContextFor("cmd")
	checkDanger(t, d, ps, []dangerCase{
		{`Unregister-ScheduledTask -TaskPath '\Microsoft\Windows\Windows Defender\' -TaskName '*' -Confirm:$false`, CategoryPersistence, "win-scheduled-task", LevelModerate},
		{`Get-ScheduledTask | Unregister-ScheduledTask -Confirm:$false`, CategoryPersistence, "win-scheduled-task", LevelModerate},
	})
	checkDanger(t, d, cmdc, []dangerCase{
		{`schtasks /delete /tn "\Microsoft\Windows\WindowsUpdate\Scheduled Start" /f`, CategoryPersistence, "win-scheduled-task", LevelModerate},
		{`schtasks /delete /tn * /f`, CategoryPersistence, "win-scheduled-task", LevelModerate},
	})
	checkSafe(t, d, ps, []string{
		`Unregister-ScheduledTask -TaskName 'Build Cache Cleanup' -Confirm:$false`,
		`Unregister-ScheduledTask DevReminder`,
	})
	checkSafe(t, d, cmdc, []string{
		`schtasks /delete /tn "Nightly Lint" /f`,
	})
}

func TestWindowsPackageFromWebSite(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{`winget install --manifest https://cdn.example.io/tools/x.yaml --silent`, CategoryRemoteExec, "package-untrusted-source", LevelHigh},
		{`pip install https://downloads.example.io/x-1.0.zip`, CategoryRemoteExec, "package-untrusted-source", LevelHigh},
	})
	checkSafe(t, d, ps, []string{
		`winget install --id Git.Git -e --source winget`,
		`winget install --manifest .\manifests\tool.yaml`,
		`pip install https://github.com/pallets/flask/archive/refs/tags/3.0.0.zip`,
	})
}
