package guard

import "testing"

// Start-up entries made through WMI or through .NET's registry API.
func TestWindowsStartupThroughOtherApis(t *testing.T) {
	d := NewDetector(Options{})
	ps, cmdc := winCorpusContextFor("powershell"), winCorpusContextFor("cmd")
	checkDanger(t, d, cmdc, []dangerCase{
		{`wmic startup call create name=x command=C:\ProgramData\x.exe`, CategoryPersistence, "win-wmic-startup", LevelHigh},
	})
	checkSafe(t, d, cmdc, []string{
		`wmic startup list brief`,
	})
	checkDanger(t, d, ps, []dangerCase{
		{`[Microsoft.Win32.Registry]::CurrentUser.OpenSubKey('Software\Microsoft\Windows\CurrentVersion\Run',$true).SetValue('x','C:\ProgramData\x.exe')`, CategoryPersistence, "win-registry-autorun", LevelHigh},
	})
	checkSafe(t, d, ps, []string{
		`[Microsoft.Win32.Registry]::CurrentUser.OpenSubKey('Software\Acme\DevTool',$true).SetValue('Theme','dark')`,
		`[Microsoft.Win32.Registry]::CurrentUser.OpenSubKey('Software\Microsoft\Windows\CurrentVersion\Run').GetValueNames()`,
	})
}
