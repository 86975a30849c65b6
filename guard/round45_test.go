package guard

import "testing"

// A cmd for loop's variable with modifiers (%~nxr, %~fr) stands for the
// item as the plain variable does: a loop over every repository but the
// project, removing each, is stopped; the same loop over the project's
// build folders passes.
func TestRound45ForModifiers(t *testing.T) {
	d := NewDetector(Options{})
	cmd := winCorpusContextFor("cmd")
	checkDanger(t, d, cmd, []dangerCase{
		{`for /d %r in ("%USERPROFILE%\source\repos\*") do @if /i not "%~nxr"=="app" rmdir /s /q "%r"`, CategoryFileDelete, "win-delete-outside", LevelHigh},
		{`for /d %g in (C:\Users\dev\Documents\*) do rd /s /q "%~fg"`, CategoryFileDelete, "win-delete-outside", LevelHigh},
	})
	checkSafe(t, d, cmd, []string{
		`for /d %r in (.\build\*) do @if /i not "%~nxr"=="keep" rmdir /s /q "%r"`,
		`for /d %g in (.\out\*) do rd /s /q "%~fg"`,
		`for %f in (*.log) do @echo %~nxf %~zf`,
	})
	if got := forVarBind(`"%~dpnxr" %~zr %%~nxq`, "%r", `C:\a\b.txt`); got != `"C:\a\b.txt" 0 %%~nxq` {
		t.Errorf("forVarBind = %q", got)
	}
}

// git status --porcelain piped to a loop that removes each path (cut
// out of the status line with Substring or Trim) discards every change
// of the project; the same loop that only looks at them passes.
func TestRound45StatusLoopRemoves(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{`git status -s | ForEach-Object { Remove-Item $_.Substring(3) -Force }`, CategoryFileDelete, "", LevelModerate},
		{`git status --porcelain | % { Remove-Item -LiteralPath $_.Trim() -Recurse }`, CategoryFileDelete, "", LevelModerate},
	})
	checkSafe(t, d, ps, []string{
		`git status -s | ForEach-Object { Get-Item $_.Substring(3) }`,
		`git status --porcelain | ForEach-Object { Write-Host $_.Substring(3) }`,
	})
}
