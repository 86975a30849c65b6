package guard

import "testing"

// A developer's local data, emptied or rolled back: a local database
// file truncated or emptied by SQL, the default database of the local
// redis flushed by its number, several migrations rolled back, a dev
// service's data folder deleted. Their near misses: a test's database,
// one row, one migration, a session table, a numbered scratch database.
func TestLocalDevelopmentDataLost(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`truncate -s 0 var/data/app.db`, CategoryFileDelete, "empty-project-sources", LevelModerate},
		{`: > db/development.sqlite3`, CategoryFileDelete, "empty-project-sources", LevelModerate},
		{`cp /dev/null dev.db`, CategoryFileDelete, "empty-project-sources", LevelModerate},
		{`truncate -s 0 terraform.tfstate`, CategoryFileDelete, "empty-project-sources", LevelModerate},
		{`sqlite3 instance/dev.db 'DELETE FROM posts; VACUUM;'`, CategoryDatabaseDestroy, "db-delete-all", LevelModerate},
		{`sqlite3 dev.db 'TRUNCATE TABLE posts'`, CategoryDatabaseDestroy, "db-truncate", LevelModerate},
		{`redis-cli -h localhost -p 6379 -n 0 flushdb`, CategoryDatabaseDestroy, "", LevelHigh},
		{`cargo sqlx database reset -y`, CategoryDatabaseDestroy, "db-migrate-to-zero", LevelModerate},
		{`poetry run alembic downgrade -3`, CategoryDatabaseDestroy, "db-migrate-to-zero", LevelModerate},
		{`mix ecto.rollback --all`, CategoryDatabaseDestroy, "db-migrate-to-zero", LevelModerate},
		{`mix ecto.rollback --step 4`, CategoryDatabaseDestroy, "db-migrate-to-zero", LevelModerate},
		{`bin/rails db:rollback STEP=3`, CategoryDatabaseDestroy, "db-migrate-to-zero", LevelModerate},
		{`rm -rf .data/minio`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		// a schema's migrations, wherever the tool keeps them
		{`rm -rf prisma/migrations && npx prisma migrate dev --name init`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		{`rm -rf alembic/versions`, CategoryFileDelete, "rm-workdir-source", LevelModerate},
		// a seed restored over the development file, Atlas taking
		// several versions down
		{`sqlite3 db/development.sqlite3 '.restore db/seed.sqlite3'`, CategoryDatabaseDestroy, "db-restore-over", LevelModerate},
		{`atlas migrate down --url "postgres://dev:dev@localhost:5432/inventory_dev" --dir file://migrations --amount 5`, CategoryDatabaseDestroy, "db-migrate-to-zero", LevelModerate},
	})
	checkSafe(t, d, testCtx, []string{
		`truncate -s 0 storage/test.sqlite`,
		`truncate -s 0 logs/app.log`,
		`sqlite3 test.db 'DELETE FROM posts'`,
		`sqlite3 instance/dev.db 'DELETE FROM posts WHERE id = 3'`,
		`cd /work/project && sqlite3 data/dev.sqlite3 'DELETE FROM sessions;' && npm run dev`,
		`redis-cli -n 15 flushdb`,
		`alembic downgrade -1`,
		`mix ecto.rollback`,
		`bin/rails db:rollback STEP=1`,
		`rm -rf .cache/minio`,
		`rm -rf alembic/__pycache__`,
		`rm -rf prisma/generated`,
		`sqlite3 db/development.sqlite3 '.backup db/backup.sqlite3'`,
		`sqlite3 test.db '.restore fixtures/seed.db'`,
		`atlas migrate down --url "postgres://dev:dev@localhost:5432/inventory_dev" --dir file://migrations`,
	})
}

// The developer's git work: a hard reset right after everything was
// committed discards nothing; hg keeps reverted edits as .orig files
// unless told not to; a remote-tracking ref is made again by the next
// fetch. A force push without a refspec pushes the branch the line
// switched to.
func TestGitWorkKeptOrRewritten(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`git switch main && git rebase -i --autosquash HEAD~8 && git push --force-with-lease`, CategoryGitDestroy, "git-force-push-protected", LevelHigh},
		{`git checkout develop; git reset --hard HEAD~3; git push -f`, CategoryGitDestroy, "git-force-push-protected", LevelHigh},
		{`hg revert --all --no-backup`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`hg revert -C --all`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`git update-ref -d refs/heads/feature/payments`, CategoryGitDestroy, "git-discard-stashes", LevelModerate},
		{`git add -A && git commit -m wip && git reset --hard HEAD~1`, CategoryGitDestroy, "git-discard-work", LevelModerate},
		{`git add src && git commit -m wip && git reset --hard HEAD`, CategoryGitDestroy, "git-discard-work", LevelModerate},
	})
	checkSafe(t, d, testCtx, []string{
		`git add -A && git commit -m 'wip: checkpoint' && git reset --hard HEAD`,
		`hg revert --all`,
		`git update-ref -d refs/remotes/origin/feature/gone`,
		`git switch feature/login && git rebase -i main && git push --force-with-lease`,
	})
}
