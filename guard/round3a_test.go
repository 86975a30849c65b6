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

func TestWindowsWholeCacheDeleted(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	cmdc := winCorpusContextFor("cmd")
	checkDanger(t, d, ps, []dangerCase{
		{`Remove-Item $env:LOCALAPPDATA\Yarn\Cache -Recurse -Force`, CategoryFileDelete, "win-delete-cache-root", LevelModerate},
		{`Get-ChildItem $env:LOCALAPPDATA\Temp | Remove-Item -Recurse -Force`, CategoryFileDelete, "", LevelModerate},
		{`Remove-Item "$env:USERPROFILE\.gradle\caches\*" -Recurse -Force`, CategoryFileDelete, "win-delete-cache-root", LevelModerate},
	})
	checkDanger(t, d, cmdc, []dangerCase{
		{`rd /s /q "%LOCALAPPDATA%\pip\cache"`, CategoryFileDelete, "win-delete-cache-root", LevelModerate},
	})
	checkSafe(t, d, ps, []string{
		`Remove-Item $env:TEMP\acme-test-* -Recurse -Force`,
		`Remove-Item $env:USERPROFILE\.nuget\packages\acme.core -Recurse -Force`,
		`Remove-Item $env:LOCALAPPDATA\Temp\vitest -Recurse -Force`,
	})
	checkSafe(t, d, cmdc, []string{
		`rd /s /q "%TEMP%\acme-build"`,
	})
}
