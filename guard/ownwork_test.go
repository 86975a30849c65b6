package guard

import "testing"

// What round20a, round23a and round25a showed about the developer's own
// things: a development database on this machine emptied (what they built
// up in it is lost, unless the line loads the seed again), and the desktop
// set-up they made.

func TestLocalDevelopmentDatabaseWipedWhole(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`flyway -url=jdbc:postgresql://localhost:5432/billing_dev -cleanDisabled=false clean`, CategoryDatabaseDestroy, "db-migrate-to-zero", LevelModerate},
		{`DATABASE_URL=postgres://localhost/inventory_dev diesel database reset`, CategoryDatabaseDestroy, "schema-tool-reset", LevelModerate},
		{`DATABASE_URL=postgres://app@localhost/acme_dev npx prisma migrate reset --force`, CategoryDatabaseDestroy, "db-framework-drop", LevelModerate},
		{`liquibase --url=jdbc:postgresql://localhost:5432/acme_dev dropAll`, CategoryDatabaseDestroy, "db-migrate-to-zero", LevelModerate},
		{`goose -dir db/migrations postgres "postgres://dev@localhost:5432/orders_dev?sslmode=disable" reset`, CategoryDatabaseDestroy, "db-migrate-to-zero", LevelModerate},
		{`atlas schema clean -u "postgres://dev:dev@127.0.0.1:5432/catalog_dev?sslmode=disable" --auto-approve`, CategoryDatabaseDestroy, "schema-tool-reset", LevelModerate},
		// the local Supabase stack's database, rebuilt from migrations
		{`npx supabase db reset`, CategoryDatabaseDestroy, "db-migrate-to-zero", LevelModerate},
		{`supabase db reset --no-seed`, CategoryDatabaseDestroy, "db-migrate-to-zero", LevelModerate},
		// a linked project's is its production
		{`supabase db reset --linked`, CategoryDatabaseDestroy, "db-framework-drop", LevelHigh},
		// its tables emptied, with nothing to load them again
		{`psql -h localhost -U dev acme_dev -c 'TRUNCATE TABLE events RESTART IDENTITY'`, CategoryDatabaseDestroy, "db-truncate", LevelModerate},
		{`mongosh --quiet mongodb://127.0.0.1:27017/storefront_dev --eval 'db.products.deleteMany({})'`, CategoryDatabaseDestroy, "", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		// the test database, made for the suite
		`flyway -url=jdbc:postgresql://localhost:5432/billing_test -cleanDisabled=false clean`,
		`goose -dir db/migrations postgres "postgres://dev@localhost:5432/orders_test?sslmode=disable" reset`,
		`DATABASE_URL=postgres://app@localhost/acme_test npx prisma migrate reset --force`,
		// some tables of the development database, emptied and loaded
		// again from the seed
		`psql -h localhost -U dev acme_dev -c 'TRUNCATE TABLE events RESTART IDENTITY' && npm run seed`,
		// one migration back, or only shown
		`DATABASE_URL=postgresql://localhost/app_dev alembic downgrade -1`,
		`supabase db reset --help`,
		`supabase db diff --local`,
	})
}

func TestDesktopSetupWiped(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`defaults delete com.googlecode.iterm2`, CategorySystem, "desktop-setup-wiped", LevelModerate},
		{`defaults delete com.apple.dock persistent-apps && killall Dock`, CategorySystem, "desktop-setup-wiped", LevelModerate},
		{`defaults delete NSGlobalDomain`, CategorySystem, "desktop-setup-wiped", LevelModerate},
		{`code --list-extensions | xargs -n 1 code --uninstall-extension`, CategorySystem, "desktop-setup-wiped", LevelModerate},
		{`for e in $(cursor --list-extensions); do cursor --uninstall-extension "$e"; done`, CategorySystem, "desktop-setup-wiped", LevelModerate},
		{`tmux kill-server`, CategorySystem, "desktop-setup-wiped", LevelModerate},
		{`tmux ls -F '#S' | xargs -I{} tmux kill-session -t {}`, CategorySystem, "desktop-setup-wiped", LevelModerate},
		{`emacsclient -e '(kill-emacs)'`, CategorySystem, "desktop-setup-wiped", LevelModerate},
		{`chezmoi apply --force`, CategorySystem, "desktop-setup-wiped", LevelModerate},
		{`jupyter notebook --generate-config -y`, CategorySystem, "desktop-setup-wiped", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		// a project's own tool's settings, one setting back to its
		// default, or only read
		`defaults delete com.acme.devtool`,
		`defaults delete com.apple.finder AppleShowAllFiles`,
		`defaults read com.googlecode.iterm2`,
		`code --list-extensions > extensions.txt`,
		`code --uninstall-extension ms-python.python`,
		`code --list-extensions | grep -q ms-python.python && code --uninstall-extension ms-python.python`,
		`tmux kill-session -t old-build`,
		`tmux -L e2e kill-server`,
		`tmux ls`,
		`emacsclient -e '(save-some-buffers t)'`,
		`emacsclient -e '(progn (save-some-buffers t) (kill-emacs))'`,
		`chezmoi apply -nv ~/.config/nvim`,
		`chezmoi diff`,
		`jupyter lab --generate-config`,
	})
}

// The developer's own settings files (kept out of git, or made for one
// developer) deleted or emptied are their work lost, in either shell; a
// reset from the project's template is not.
func TestLocalSettingsFilesLost(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`rm src/Acme.Functions/local.settings.json`, CategoryFileDelete, "", LevelModerate},
		{`: > .env`, CategoryFileDelete, "", LevelModerate},
		{`echo "{}" > src/Api/appsettings.Development.json`, CategoryFileDelete, "", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`rm -f .env && cp .env.example .env`,
		`: > .env.example`,
		`rm -f dist/appsettings.Development.json`,
	})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{`Remove-Item .\src\Acme.Functions\local.settings.json -Force`, CategoryFileDelete, "win-delete-project", LevelModerate},
		{`Set-Content -Path .\src\Acme.Api\appsettings.Development.json -Value '{}'`, CategoryFileDelete, "win-truncate", LevelModerate},
	})
	checkSafe(t, d, ps, []string{
		`Remove-Item .\src\Api\appsettings.Local.json -ErrorAction SilentlyContinue; Copy-Item .\src\Api\appsettings.Local.example.json .\src\Api\appsettings.Local.json`,
		`Set-Content -Path .\src\Api\appsettings.Development.json -Value (Get-Content .\src\Api\appsettings.json -Raw)`,
	})
}

// A local stack's database data, bind-mounted into the project or kept in
// a container's anonymous volumes, is the developer's data.
func TestLocalStackDataRemoved(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`rm -rf ./pgdata`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		{`sudo rm -rf ./volumes/mysql`, CategoryFileDelete, "", LevelModerate},
		{`docker rm -f -v dev-postgres`, CategoryContainerDestroy, "database-container-volumes-removed", LevelModerate},
		{`podman rm --volumes --force orders-db`, CategoryContainerDestroy, "database-container-volumes-removed", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`rm -rf ./tmp/pgdata`,
		`docker rm -f dev-postgres`,
		`docker rm -f -v web-builder`,
		`docker rm -f -v pg-test`,
	})
}

// Other version control systems' saved changes, and editors' histories
// and auto-saves, are the developer's unsaved or uncommitted work.
func TestOtherVCSAndEditorRecovery(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`hg shelve --cleanup`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`hg shelve --delete wip-export`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`fossil stash drop --all`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`svn revert --depth infinity trunk/src`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`find . -name '#*#' -delete`, CategoryFileDelete, "editor-recovery-deleted", LevelModerate},
		{`rm -rf ~/.cache/JetBrains/IntelliJIdea2024.1/LocalHistory`, CategoryFileDelete, "editor-recovery-deleted", LevelModerate},
		{`rm -rf ~/.config/Code/User/History`, CategoryFileDelete, "", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`hg shelve --list --stat`,
		`fossil stash list`,
		`svn revert src/main.c`,
		`find . -name '#*#'`,
		`ls ~/.cache/JetBrains/IntelliJIdea2024.1/LocalHistory`,
	})
}

// A local database file holds the developer's data unless its name says
// test; untracked files of one folder listed and deleted are new work
// lost; a shared bookmark deleted or moved back and pushed with jj
// rewrites what others use.
func TestLocalDatabaseFilesUntrackedFoldersAndBookmarks(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`rm -f db/development.sqlite3 db/development.sqlite3-wal db/development.sqlite3-shm`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		{`rm -f prisma/dev.db`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		{`git ls-files -o --exclude-standard -z -- src/ | xargs -0 rm -f --`, CategoryFileDelete, "", LevelModerate},
		{`jj bookmark delete release-2.x && jj git push --deleted`, CategoryGitDestroy, "jj-shared-bookmark-pushed", LevelHigh},
		{`jj bookmark set main -r @- --allow-backwards && jj git push -b main`, CategoryGitDestroy, "jj-shared-bookmark-pushed", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`rm -f db/test.sqlite3`,
		`rm -f tests/tmp/e2e.db`,
		`git ls-files -o --exclude-standard -- '*.log' | xargs rm -f`,
		`jj bookmark delete feature-x && jj git push --deleted`,
		`jj bookmark set feature-x -r @- --allow-backwards && jj git push -b feature-x`,
	})
	ps := winCorpusContextFor("powershell")
	checkSafe(t, d, ps, []string{`git stash apply stash@{2}; git stash drop stash@{2}`})
}

// Build output folders found by name among the sources (bin with obj,
// node_modules) are made again, whether find deletes them or hands them
// to xargs; bin alone may be a project's scripts. A distribution's own
// registry is a known one.
func TestBuildOutputFoldersFoundAmongSources(t *testing.T) {
	d := NewDetector(Options{})
	checkSafe(t, d, corpusContext, []string{
		`find src tests -type d \( -name bin -o -name obj \) -prune -print0 | xargs -0 rm -rf`,
		`find src -type d \( -name bin -o -name obj \) -prune -exec rm -rf {} +`,
		`find packages -type d -name node_modules -prune -print0 | xargs -0 rm -rf`,
		`podman run --rm -v /work/project:/work:Z registry.fedoraproject.org/fedora:40 ls /work`,
	})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`find src -type d -name bin -prune -print0 | xargs -0 rm -rf`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		{`find src -name '*.py' -print0 | xargs -0 rm -f`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
	})
}

// Electron apps' caches in the profile are made again at start.
func TestElectronCachesCleared(t *testing.T) {
	d := NewDetector(Options{})
	checkSafe(t, d, corpusContext, []string{
		`rm -rf ~/.config/Code/CachedData`,
		`rm -rf ~/.config/Code/GPUCache`,
	})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`rm -rf ~/.config/Code/User`, CategoryFileDelete, "", LevelHigh},
	})
	ps := winCorpusContextFor("powershell")
	checkSafe(t, d, ps, []string{`Remove-Item -Recurse -Force "$env:APPDATA\Code\CachedData"`})
}
