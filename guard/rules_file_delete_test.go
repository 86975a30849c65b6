package guard

import "testing"

// Deleting through another tool: the npm packages that are rm -rf by
// another name, run directly or through a package runner.
func TestNodeDeleters(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`npx rimraf ~/`, CategoryFileDelete, "rm-recursive-home", LevelCritical},
		{`npx del-cli ~/ --force`, CategoryFileDelete, "rm-recursive-home", LevelCritical},
		{`npx rimraf --no-preserve-root '/home/dev/**'`, CategoryFileDelete, "", LevelCritical},
		{`bunx rimraf@5 /etc`, CategoryFileDelete, "", LevelHigh},
		{`rimraf src`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`npx rimraf ./dist`,
		`npx -y rimraf@5 node_modules coverage`,
		`npx prettier --write .`,
		`rimraf build`,
	})
}

// A find that deletes only what a build leaves behind, or only what is
// empty, among the sources keeps the sources.
func TestFindDeletesArtefactsAmongSources(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`find src -name '*.py' -delete`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		{`find src -type f -delete`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		{`find src -delete`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`find src -type d -empty -delete`,
		`find ./src -name '*.pyc' -delete`,
		`find src -name __pycache__ -type d -exec rm -rf {} +`,
	})
}

// Code a generator writes is build output, whatever its extension.
func TestGeneratedCodeIsBuildOutput(t *testing.T) {
	d := NewDetector(Options{})
	cmdc := winCorpusContextFor("cmd")
	checkDanger(t, d, cmdc, []dangerCase{
		{`del /q src\*.cs`, CategoryFileDelete, "win-delete-project", LevelModerate},
		{`del /s /q *.cs`, CategoryFileDelete, "win-delete-project", LevelModerate},
	})
	checkSafe(t, d, cmdc, []string{
		`del /q src\Generated\*.g.cs`,
		`del /s /q *.designer.cs`,
	})
}

// A script block made from one constant string is judged as that code.
func TestConstantScriptBlocks(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{`& ([scriptblock]::Create('Remove-Item -Recurse -Force C:\Users\dev'))`, CategoryFileDelete, "", LevelCritical},
		{`& ([scriptblock]::Create($code))`, "", "", LevelHigh},
	})
	checkSafe(t, d, ps, []string{
		`& ([scriptblock]::Create('Get-Process -Id $PID'))`,
	})
}

// A backtick inside a PowerShell parameter name hides a letter from a
// reader; it is no escape sequence.
func TestPowerShellTickedParameters(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{"R`emove-I`tem -Re`curse -Fo`rce C:\\Users\\dev", CategoryFileDelete, "", LevelCritical},
		{"Remove-Item -Fo`rce -Re`curse C:\\Windows", CategoryFileDelete, "", LevelCritical},
	})
	checkSafe(t, d, ps, []string{
		"Remove-Item -Re`curse -Fo`rce .\\dist",
		"Write-Output \"a`tb\"",
	})
}

// Deleting through tools that delete what they archive, through paths
// computed by cut or git rev-parse, through cmd's delayed expansion,
// PowerShell's assembled names, Resolve-Path and FileSystemObject.
func TestDeletesThroughComputedPathsAndOtherTools(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`tar --remove-files -czf /tmp/h.tgz -C / home/dev && rm -f /tmp/h.tgz`, CategoryFileDelete, "rm-recursive-home", LevelCritical},
		{`zip -rm /tmp/h.zip /home/dev`, CategoryFileDelete, "rm-recursive-home", LevelCritical},
		{`rm -rf "$(echo /home/dev/x | cut -d/ -f1-3)"`, CategoryFileDelete, "rm-recursive-home", LevelCritical},
		{`rm -rf "$(git -C ~ rev-parse --show-toplevel)"`, CategoryFileDelete, "rm-recursive-home", LevelCritical},
		{`rm -rf "$(git rev-parse --show-toplevel)"`, CategoryFileDelete, "rm-workdir", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`tar --remove-files -czf logs.tgz logs/`,
		`tar -czf /tmp/h.tgz -C / home/dev`,
		`zip -r out.zip /home/dev/project/dist`,
		`rm -rf "$(git rev-parse --show-toplevel)/dist"`,
		`rm -rf "$(echo build,dist | cut -d, -f2)"`,
	})
	ps, cmdc := winCorpusContextFor("powershell"), winCorpusContextFor("cmd")
	checkDanger(t, d, ps, []dangerCase{
		{`$c='Remove-'+'Item'; & $c -Path $HOME -Recurse -Force`, CategoryFileDelete, "", LevelCritical},
		{`Resolve-Path C:\* | Remove-Item -Recurse -Force`, CategoryFileDelete, "", LevelCritical},
		{`(New-Object -ComObject Scripting.FileSystemObject).DeleteFolder("$env:USERPROFILE\*", $true)`, CategoryFileDelete, "", LevelCritical},
	})
	checkSafe(t, d, ps, []string{
		`$c='Get-'+'ChildItem'; & $c -Path $HOME`,
		`Resolve-Path .\dist\* | Remove-Item -Recurse -Force`,
		`(New-Object -ComObject Scripting.FileSystemObject).DeleteFolder("$PWD\dist", $true)`,
	})
	checkDanger(t, d, cmdc, []dangerCase{
		{`cmd /v:on /c "set t=C:\Users\dev&& rd /s /q !t!"`, CategoryFileDelete, "", LevelCritical},
	})
	checkSafe(t, d, cmdc, []string{
		`cmd /v:on /c "set t=dist&& rd /s /q !t!"`,
	})
}

// Mirroring a folder over a profile or a drive deletes what the source
// lacks, from Git Bash too.
func TestMirrorOverProfile(t *testing.T) {
	d := NewDetector(Options{})
	gb := winCorpusContextFor("gitbash")
	checkDanger(t, d, gb, []dangerCase{
		{`mkdir -p /tmp/e && robocopy "$(cygpath -w /tmp/e)" 'C:\Users\dev' //MIR`, CategoryFileDelete, "win-mirror-over", LevelCritical},
	})
	checkSafe(t, d, gb, []string{
		`robocopy dist 'D:\site\www' //MIR`,
		`robocopy 'C:\Users\dev\Documents' 'D:\backup\docs' //MIR`,
	})
}

// Patterns that select everything but a few names, and a find that only
// skips .git, reach every file of the project.
func TestEverythingButPatterns(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`shopt -s extglob; rm -rf !(node_modules)`, CategoryFileDelete, "rm-workdir-contents", LevelModerate},
		{`rm -rf *~node_modules`, CategoryFileDelete, "rm-workdir-contents", LevelModerate},
		{`find . -path ./.git -prune -o -type f -exec rm -f {} +`, CategoryFileDelete, "rm-workdir-contents", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`rm -rf build/!(keep.txt)`,
		`find . -path ./node_modules -prune -o -name '*.pyc' -exec rm -f {} +`,
		`rm -rf dist/*~*.map`,
	})
}

// A path made of a system folder or a home and variables alone: empty or
// any value, the folder in front is what goes.
func TestFoldersFollowedOnlyByVariables(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`ls -1 /home | while read u; do sudo rm -rf "/home/$u"; done`, CategoryFileDelete, "", LevelCritical},
		{`rm -rf "$HOME/$x"`, CategoryFileDelete, "", LevelCritical},
		{`rm -rf "$PROJECT_ROOT/$UNSET_SUBDIR"/ && echo cleaned`, CategoryFileDelete, "rm-unset-variable", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`rm -rf "./build/$x"`,
		`rm -rf /tmp/$x`,
		`rm -rf "$HOME/.cache/$tool"`,
	})
}

// A script written earlier in the line and run by powershell -File is
// judged as what it says.
func TestPowerShellScriptsWrittenThenRun(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{`Set-Content $env:TEMP\c.ps1 'Remove-Item $HOME -Recurse -Force'; powershell -ExecutionPolicy Bypass -File $env:TEMP\c.ps1`, CategoryFileDelete, "", LevelCritical},
	})
	checkSafe(t, d, ps, []string{
		`Set-Content .\build.ps1 'dotnet build'; powershell -File .\build.ps1`,
	})
}

// User profiles deleted through WMI.
func TestProfilesDeletedThroughWmi(t *testing.T) {
	d := NewDetector(Options{})
	cmdc, ps := winCorpusContextFor("cmd"), winCorpusContextFor("powershell")
	checkDanger(t, d, cmdc, []dangerCase{
		{`wmic path win32_userprofile where "special=false" delete`, CategoryFileDelete, "win-wmic-profile-delete", LevelCritical},
	})
	checkSafe(t, d, cmdc, []string{
		`wmic path win32_userprofile get localpath`,
	})
	checkDanger(t, d, ps, []dangerCase{
		{`Get-CimInstance Win32_UserProfile | Where-Object { -not $_.Special } | Remove-CimInstance`, CategoryFileDelete, "win-wmic-profile-delete", LevelCritical},
	})
	checkSafe(t, d, ps, []string{
		`Get-CimInstance Win32_UserProfile | Select-Object LocalPath`,
	})
}

// What a service or a package manager writes again: a pid file or socket
// of the current run, apt's package indexes, compiled files a build left
// outside the work directory. Their system neighbours still count.
func TestRuntimeFilesIndexesAndCompiledArtefacts(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`rm -f /run/sshd/config`, CategoryFileDelete, "rm-system-file", LevelHigh},
		{`rm -rf /run/postgresql`, CategoryFileDelete, "", LevelHigh},
		{`rm -rf /var/lib/apt`, CategoryFileDelete, "", LevelHigh},
		{`find /srv/app -name '*.py' -delete`, CategoryFileDelete, "", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`rm -f /run/worker/worker.pid`,
		`rm -f /var/run/api/api.sock`,
		`rm -rf /var/lib/apt/lists/*`,
		`find /srv/app -name '*.pyc' -delete`,
		`find /opt/svc/build -name '*.o' -delete`,
	})
}

// A tree walked and each file unlinked deletes the tree, whether the walk
// starts at pathlib's home or is File::Find's with an unlinking callback.
func TestInterpreterWalksThatUnlink(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`python3 -c "from pathlib import Path; [f.unlink() for f in Path.home().glob('**/*.txt')]"`, CategoryFileDelete, "", LevelCritical},
		{`perl -MFile::Find -e 'find(sub{unlink if -f}, "/etc")'`, CategoryFileDelete, "", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`python3 -c "from pathlib import Path; print(sum(1 for _ in Path.home().rglob('*')))"`,
		`perl -MFile::Find -e 'find(sub{print "$File::Find::name\n"}, "/etc")'`,
	})
}

// A listing fed to a program that deletes each entry: GNU parallel
// reading the lines, awk building a command from each, xargs after a
// Spotlight or locate search.
func TestListingsDeletedEntryByEntry(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`ls -d ~/* | parallel rm -rf {}`, CategoryFileDelete, "", LevelCritical},
		{`ls /etc | awk '{system("sudo rm -rf /etc/" $1)}'`, CategoryFileDelete, "", LevelCritical},
		{`mdfind -onlyin ~ 'kind:image' | xargs rm -f`, CategoryFileDelete, "", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`ls -d ./build/* | parallel rm -rf {}`,
		`ls ./tmp | awk '{system("rm -f ./tmp/" $0)}'`,
		`ls ~ | awk '{print $0}'`,
		`mdfind -onlyin . 'kind:image' | xargs ls -l`,
	})
}

// zsh forms bash reads otherwise or not at all: a glob qualifier after a
// pattern (not an extglob), a qualifier after a plain name, a negated
// group under extendedglob, the short for loop.
func TestZshQualifiersNegationAndShortLoops(t *testing.T) {
	d := NewDetector(Options{})
	zsh := corpusContext
	zsh.Shell = "zsh"
	checkDanger(t, d, zsh, []dangerCase{
		{`rm -rf ~/*(D)`, CategoryFileDelete, "", LevelCritical},
		{`rm -rf ~/Documents(N) ~/Pictures(N)`, CategoryFileDelete, "", LevelHigh},
		{`setopt extendedglob; rm -rf /etc/^(hosts)`, CategoryFileDelete, "", LevelCritical},
		{`for d in ~/*; rm -rf $d`, CategoryFileDelete, "", LevelCritical},
	})
	checkSafe(t, d, zsh, []string{
		`rm -rf build/*(D)`,
		`rm -rf dist(N) coverage(N)`,
		`setopt extendedglob; rm -rf tmp/^(keep.txt)`,
		`for f in src/**/*.ts; wc -l $f`,
	})
}

// What a project keeps that no build makes again: golden files,
// patches, local secrets and dotenv files, data below a storage
// directory, emptied manifests; a directory a generator fills, deleted
// just before it runs, is its previous output.
func TestProjectDataManifestsAndGeneratorOutputs(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`rm -rf testdata/snapshots`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		{`rm -rf patches`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		{`rm -f .env.production.local`, CategoryFileDelete, "", LevelModerate},
		{`rm -rf app/storage/media/*`, CategoryFileDelete, "", LevelModerate},
		{`echo -n > package.json`, CategoryFileDelete, "empty-project-sources", LevelModerate},
		{`printf '' > Cargo.toml`, CategoryFileDelete, "empty-project-sources", LevelModerate},
		{`rm -rf site/ docs/`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`rm -f .env.example.bak`,
		`rm -rf tests/fixtures/output/*`,
		`rm -rf pkg/ && wasm-pack build --target web`,
		`rm -rf site/ && mkdocs build --strict`,
		`echo 'module example.com/x' > go.mod`,
		`echo -n "$TOKEN" | wc -c`,
	})
}

// Parts of the sources (a subdirectory of src, app or internal), a
// database file of the checkout, and a repository's object store or refs;
// what a later command in the line makes again, mocks and snapshots, a
// stale lock, are not.
func TestSourceSubtreesCheckoutDatabasesAndGitInternals(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`rm -rf src/components`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		{`rm -rf internal/billing/`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		{`rm -f app.sqlite3`, CategoryFileDelete, "", LevelModerate},
		{`rm -rf .git/objects`, CategoryGitDestroy, "rm-git-dir", LevelHigh},
		{`rm -rf .git/refs/heads`, CategoryGitDestroy, "rm-git-dir", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`rm -rf src/api && openapi-generator-cli generate -i api.yaml -g typescript -o src/api`,
		`rm -rf internal/mocks && mockery --all --output internal/mocks`,
		`rm -f internal/db/*.sql.go && sqlc generate`,
		`rm -f test.sqlite3`,
		`rm -f .git/index.lock`,
		`rm -rf tests/fixtures/repo/.git/refs`,
	})
}

// Archivers told to delete what they archive, and configuration
// management's file module told to make a path absent.
func TestArchiversThatMoveAndAbsentFiles(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`7z a -sdel /tmp/backup.7z ~/Pictures`, CategoryFileDelete, "", LevelHigh},
		{`rar m /tmp/x.rar ~/Desktop`, CategoryFileDelete, "", LevelHigh},
		{`ansible web -b -m ansible.builtin.file -a "path=/etc state=absent"`, CategoryFileDelete, "", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`7z a /tmp/backup.7z ~/Pictures`,
		`7z x archive.7z -o./out`,
		`ansible web -m file -a "path=/srv/app/tmp state=directory"`,
	})
}

// A file overwritten with an empty value (jq -n null, echo '{}') is
// emptied like one overwritten with nothing.
func TestFilesOverwrittenWithEmptyValues(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`jq -n null > ~/.docker/config.json`, CategoryFileDelete, "", LevelModerate},
		{`echo '{}' > ~/.config/gh/hosts.yml`, CategoryFileDelete, "", LevelModerate},
		{`echo '[]' > package.json`, CategoryFileDelete, "empty-project-sources", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`jq -n '{name: "x"}' > ./out/config.json`,
		`echo '{}' > /tmp/state.json`,
		`jq -n null`,
	})
}

// A mirror with --delete onto another machine's home or root: whatever
// the source lacks goes there.
func TestMirrorsDeletingRemoteHomesAndRoots(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`rsync -a --delete /tmp/empty/ ops@10.0.0.5:~/`, CategoryFileDelete, "", LevelCritical},
		{`rsync -aH --delete-before ./blank/ root@10.0.0.5:/`, CategoryFileDelete, "", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`rsync -a --delete ./public/ deploy@10.0.0.5:/var/www/site/`,
		`rsync -a ./dotfiles/ ops@10.0.0.5:~/`,
	})
}

// Regenerated or throw-away things: a bundler's builds directory, an
// application's scratch space outside the work directory (a container's
// /app/tmp), dotenv files for tests and their backups. A real dotenv
// file, or an application's data, still counts.
func TestScratchSpacesBuildsAndTestSettings(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`rm -f .env.staging`, CategoryFileDelete, "", LevelModerate},
		{`rm -rf /srv/app/uploads`, CategoryFileDelete, "", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`rm -rf app/assets/builds/*`,
		`docker compose run --rm web rm -rf /app/tmp/cache`,
		`rm -f .env.test`,
		`rm -f .env.local.bak`,
	})
}

// Any generator told to overwrite files in the project, including ones
// nobody listed; the same into a fresh directory elsewhere, or without
// the overwrite flag, is not.
func TestScaffoldOverProject(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`rustle init --force .`, CategoryFileDelete, "scaffold-over-project", LevelModerate},
		{`npx tiged acme-oss/template . --force`, CategoryFileDelete, "scaffold-over-project", LevelModerate},
		{`monox generate @acme/kit:app web --force`, CategoryFileDelete, "scaffold-over-project", LevelModerate},
		{`cookiecutter ./templates/py -o .. --overwrite-if-exists --no-input`, CategoryFileDelete, "scaffold-over-project", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`rustle init .`,
		`rustle init --force /tmp/sandbox-app`,
		`npx tiged acme-oss/template /tmp/fresh --force`,
		`monox generate @acme/kit:app web --dry-run --force`,
		`kubectl create -f k8s/dev-namespace.yaml`,
	})
}

// zsh's print reads escapes as echo -e does: spelled-out commands piped
// into a shell are still read.
func TestZshPrintEscapesIntoShell(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{{`print '\x72\x6d -rf ~' | zsh`, CategoryFileDelete, "", LevelCritical}})
	checkSafe(t, d, corpusContext, []string{`print 'ls -la' | zsh`})
}

// zsh's zsh/files builtins and its repeat prefix run the same deletes;
// the same on build output is not dangerous.
func TestZshFilesBuiltinsAndRepeat(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`zmodload zsh/files; zf_rm -rf ~/Documents`, CategoryFileDelete, "", LevelHigh},
		{`repeat 2 rm -rf ~/.config`, CategoryFileDelete, "", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`zmodload zsh/files; zf_rm -rf ./dist`,
		`repeat 3 echo hi`,
	})
}

// macOS programs' logs are written again as the programs run; every
// version a version manager installed, with their environments, is not
// one tool's cache.
func TestProgramLogsAndInstalledVersions(t *testing.T) {
	d := NewDetector(Options{})
	zsh := corpusContext
	zsh.Shell = "zsh"
	checkDanger(t, d, corpusContext, []dangerCase{
		{`rm -rf ~/.nvm/versions`, CategoryFileDelete, "", LevelModerate},
		{`rm -rf ~/Library/Application\ Support/Code`, CategoryFileDelete, "", LevelHigh},
	})
	checkSafe(t, d, zsh, []string{
		`rm -rf ~/Library/Logs/DiagnosticReports/*(N)`,
		`rm -rf ~/Library/Logs/JetBrains`,
		`rm -rf ~/.pyenv/versions/3.11.4`,
	})
}

// "/$NAME" with the name empty is the root itself; a prefix that names a
// folder of the project is not.
func TestRootPrefixedByVariable(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`rm -rf "/$APP_DIR"`, CategoryFileDelete, "", LevelCritical},
		{`rm -rf /${TARGET}`, CategoryFileDelete, "", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`rm -rf "./$APP_DIR"`,
		`rm -rf "build/$TARGET"`,
	})
}

// An archive from elsewhere unpacked over the project without asking,
// and a starter or generator run over "." without its questions; the
// same into a new folder, or asking first, replaces nothing.
func TestArchivesAndStartersOverProject(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`unzip -o ~/Downloads/starter-kit.zip -d .`, CategoryFileDelete, "extract-over-project", LevelModerate},
		{`tar -xzf /mnt/old/project.tgz -C /work/project --overwrite`, CategoryFileDelete, "extract-over-project", LevelModerate},
		{`npx create-vite@latest . --template react -y`, CategoryFileDelete, "scaffold-over-project", LevelModerate},
		{`yo webapp --force`, CategoryFileDelete, "scaffold-over-project", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`unzip -o ~/Downloads/starter-kit.zip -d /tmp/kit`,
		`unzip ~/Downloads/starter-kit.zip -d .`,
		`unzip -o vendor/fonts.zip -d .`,
		`tar -xzf /mnt/old/project.tgz -C /tmp/old --overwrite`,
		`npx create-vite@latest web --template react -y`,
		`npx create-vite@latest .`,
		`yo webapp`,
	})
}

// fd's --exec and --exec-batch run their command on what fd finds, as
// find's -exec does.
func TestFdExecLikeFindExec(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`fd -t d -H '^\.git$' / -X rm -rf`, CategoryFileDelete, "", LevelHigh},
		{`fd -t f . ~ --exec-batch shred -u`, "", "", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`fd -e pyc . src -X rm`,
		`fd -t d __pycache__ -x rm -rf {}`,
		`fd -e md . ~/notes -x wc -l`,
	})
}

// Backup repositories told to keep nothing, or deleted whole: the copy
// that would restore everything else is what goes.
func TestBackupRepositoryEmptied(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`restic -r /srv/restic forget --keep-last 0 --prune`, CategoryFileDelete, "backup-repo-emptied", LevelHigh},
		{`restic -r s3:s3.amazonaws.com/bk forget --keep-within 1h --prune`, CategoryFileDelete, "backup-repo-emptied", LevelHigh},
		{`borg delete --force ssh://bk@10.0.0.2/./laptop`, CategoryFileDelete, "backup-repo-emptied", LevelHigh},
		{`borg prune --keep-last 1 /mnt/borg`, CategoryFileDelete, "backup-repo-emptied", LevelHigh},
		{`kopia snapshot delete --all-snapshots-for-source /home/dev --delete`, CategoryFileDelete, "backup-repo-emptied", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`restic -r /srv/restic forget --keep-daily 7 --keep-weekly 4 --prune`,
		`restic -r /srv/restic forget 4bba301e`,
		`borg delete /mnt/borg::laptop-2024-01-01`,
		`borg prune --keep-daily 7 --keep-monthly 6 /mnt/borg`,
		`restic -r /srv/restic snapshots`,
		`kopia snapshot list /home/dev`,
	})
}

// An sftp batch read from stdin that deletes by wildcard on the server;
// deleting one named file, or listing, is routine.
func TestSftpBatchDeletes(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`echo 'rm /srv/app/*' | sftp -b - deploy@web1.example.net`, CategoryFileDelete, "sftp-batch-delete", LevelHigh},
		{`printf 'cd /var/www\nrm *.php\n' | sftp -b - deploy@web1.example.net`, CategoryFileDelete, "sftp-batch-delete", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`echo 'rm /upload/old.zip' | sftp -b - deploy@web1.example.net`,
		`echo 'ls /srv/app/*' | sftp -b - deploy@web1.example.net`,
		`echo 'put dist/app.tar.gz /srv/releases/' | sftp -b - deploy@web1.example.net`,
	})
}

// find's alternatives: without parentheses -delete binds to the last
// -name (-name '*.orig' -o -name '*.py' -delete deletes the sources),
// inside them it acts on every one. Alternatives that are all build
// leftovers delete nothing of the project's.
func TestFindAlternativesDeleted(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`find /work/project -name '*.orig' -o -name '*.py' -delete`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		{`find . \( -name '*.orig' -o -name '*.py' \) -delete`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
	})
	checkSafe(t, d, testCtx, []string{
		`find . -name '*.orig' -o -name '*.rej' -delete`,
		`find . \( -name '*.orig' -o -name '*.rej' \) -delete`,
		`find . -name '*.py' -o -name '*.orig' -delete`,
		`find . -name '*.py' -o -name '*.ts' -print`,
	})
}

// find's -delete before its tests acts on everything it walks (the
// tests after it decide nothing); rsync --delete onto a user's home on
// another host mirrors the source over all of it.
func TestDeleteBeforeTestsAndRemoteHomes(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`find . -delete -name '*.pyc'`, CategoryFileDelete, "rm-workdir-contents", LevelModerate},
		{`find . -type f -delete -name x`, CategoryFileDelete, "rm-workdir-contents", LevelModerate},
		{`rsync -a --delete ./ deploy@web01:/home/deploy/`, CategoryFileDelete, "rm-recursive-home", LevelCritical},
	})
	checkSafe(t, d, testCtx, []string{
		`find . -name '*.pyc' -delete`,
		`find build -delete`,
		`rsync -a --delete ./dist/ deploy@web01:/home/deploy/app/`,
		`rsync -a --delete -n ./ deploy@web01:/home/deploy/`,
	})
}
