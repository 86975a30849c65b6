package guard

import "testing"

// A graph database emptied by Cypher, and a key-value store flushed by
// speaking its protocol over a raw connection.
func TestGraphAndRawProtocolWipes(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`cypher-shell -u neo4j -p "$PW" 'MATCH (n) DETACH DELETE n'`, CategoryDatabaseDestroy, "graph-db-wipe", LevelCritical},
		{`cypher-shell -a neo4j://10.0.11.1 -u neo4j 'DROP DATABASE graph'`, CategoryDatabaseDestroy, "graph-db-wipe", LevelCritical},
		{`printf 'FLUSHALL\r\n' | nc 10.0.0.9 6379`, CategoryDatabaseDestroy, "db-wipe-raw-protocol", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`cypher-shell -u neo4j 'MATCH (n:Temp) WHERE n.created < 0 DETACH DELETE n'`,
		`cypher-shell -u neo4j 'MATCH (n) RETURN count(n)'`,
		`printf 'PING\r\n' | nc 10.0.0.9 6379`,
		`printf 'flush_all\r\nquit\r\n' | nc 127.0.0.1 11211`,
	})
}

// A statement sp_MSforeachtable runs on every table.
func TestForEachTableStatements(t *testing.T) {
	d := NewDetector(Options{})
	cmdc := winCorpusContextFor("cmd")
	checkDanger(t, d, cmdc, []dangerCase{
		{`sqlcmd -S sqlprod -d Sales -Q "EXEC sp_MSforeachtable 'DROP TABLE ?'"`, CategoryDatabaseDestroy, "db-drop-table", LevelCritical},
	})
	checkSafe(t, d, cmdc, []string{
		`sqlcmd -S sqlprod -d Sales -Q "EXEC sp_MSforeachtable 'UPDATE STATISTICS ?'"`,
	})
}

// A database client reached through a compose service or a package
// runner is judged like the client itself; redis-cli's flags that take
// no value do not hide the command after them.
func TestClientsBehindComposeRunnersAndRedisFlags(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`docker compose --project-name shop exec -T postgres psql -U app -c 'DROP DATABASE orders'`, CategoryDatabaseDestroy, "db-drop-database", LevelCritical},
		{`docker-compose run --rm mysql mysql -h db -e 'DROP TABLE users'`, CategoryDatabaseDestroy, "db-drop-table", LevelHigh},
		{`podman exec -it pg psql -c 'TRUNCATE accounts'`, CategoryDatabaseDestroy, "db-truncate", LevelHigh},
		{`pnpm dlx prisma@5 db push --accept-data-loss`, CategoryDatabaseDestroy, "db-framework-drop", LevelHigh},
		{`bunx prisma migrate reset --force`, CategoryDatabaseDestroy, "db-framework-drop", LevelHigh},
		{`redis-cli -c -h cache.internal.example.com FLUSHALL`, CategoryDatabaseDestroy, "db-drop-database", LevelCritical},
		{`valkey-cli --tls -h kv.example.net flushdb`, CategoryDatabaseDestroy, "db-drop-table", LevelHigh},
		{`redis-cli -h 10.1.2.3 flushdb`, CategoryDatabaseDestroy, "db-drop-table", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`docker compose exec postgres psql -U app -c 'SELECT count(*) FROM orders'`,
		`docker-compose run --rm web npm test`,
		`pnpm dlx prisma db push`,
		`npx prisma migrate status`,
		`DATABASE_URL=postgres://localhost/shop_test npx prisma migrate reset --force`,
		`redis-cli -c -h cache.internal.example.com GET session:1`,
		`redis-cli -h localhost -p 6390 FLUSHDB`,
	})
}

// A statement that names a test database is scoped to tests, however the
// rest of its name is computed; one that names others too is not.
func TestStatementsNamingTestDatabases(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`mysql -h db.internal -e "DROP DATABASE IF EXISTS orders_${REGION}"`, CategoryDatabaseDestroy, "db-drop-database", LevelCritical},
		{`psql -c "DROP TABLE users, test_${RUN}"`, CategoryDatabaseDestroy, "db-drop-table", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`mysql -h 127.0.0.1 -e "DROP DATABASE IF EXISTS ci_${BUILD_NUMBER}"`,
		`psql -h localhost -c "DROP DATABASE IF EXISTS app_test_${WORKER}"`,
	})
}

// Restores that drop what they replace, by any dump tool, and InfluxQL
// statements; a restore printed as a script, or into a test database,
// is not.
func TestRestoresThatDropAndInfluxStatements(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`pg_restore -c -d shop -h db.internal dump.pgdump`, CategoryDatabaseDestroy, "restore-drops-first", LevelHigh},
		{`mongorestore --drop --uri mongodb://10.0.0.9/shop ./dump`, CategoryDatabaseDestroy, "restore-drops-first", LevelHigh},
		{`influx -host 10.0.0.9 -execute 'DROP DATABASE metrics'`, CategoryDatabaseDestroy, "db-drop-database", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`pg_restore --clean -f restore.sql dump.pgdump`,
		`pg_restore -d shop_test --clean dump.pgdump`,
		`mongorestore --uri mongodb://10.0.0.9/shop ./dump`,
		`influx -execute 'SHOW DATABASES'`,
	})
}

// Local emulators, the developer's scratch databases and test settings
// are the developer's own; the same commands elsewhere are not.
func TestLocalAndTestDatabasesReset(t *testing.T) {
	d := NewDetector(Options{})
	checkSafe(t, d, corpusContext, []string{
		`aws dynamodb delete-table --table-name orders --endpoint-url http://localhost:8000`,
		`pg_restore --clean --if-exists -d postgres://postgres@localhost/shop_scratch snapshot.dump`,
		`APP_ENV=testing python manage.py flush --no-input`,
	})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`aws dynamodb delete-table --table-name orders --endpoint-url https://dynamodb.us-east-1.amazonaws.com`, CategoryCloudDestroy, "aws-destroy-resource", LevelHigh},
		{`pg_restore --clean --if-exists -d postgres://admin@db.prod.example.com/shop snapshot.dump`, CategoryDatabaseDestroy, "", LevelHigh},
		{`APP_ENV=production python manage.py flush --no-input`, CategoryDatabaseDestroy, "db-framework-drop", LevelHigh},
	})
}

// Any schema or migration tool told to clean, drop or reset a database on
// another machine; the same on localhost, or a dry run, is not.
func TestMigrationToolsEmptyRemoteDatabases(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`schemactl clean --url "postgres://admin:$PW@db.prod.example.com:5432/app" --auto-approve`, CategoryDatabaseDestroy, "db-url-destroy", LevelCritical},
		{`migr8 --database-url "mysql://root:$PW@10.0.3.7:3306/shop" drop`, CategoryDatabaseDestroy, "db-url-destroy", LevelCritical},
		{`migr8 down 40 --url "$PROD_DATABASE_URL"`, CategoryDatabaseDestroy, "db-url-destroy", LevelCritical},
		{`docker run --rm acme/migrator -url=jdbc:postgresql://10.1.0.4/billing clean`, CategoryDatabaseDestroy, "db-url-destroy", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`schemactl clean --url "postgres://postgres@localhost:5432/app_test" --auto-approve`,
		`schemactl clean --url "postgres://admin@db.prod.example.com:5432/app" --dry-run`,
		`migr8 down 1 --url "$DATABASE_URL"`,
		`migr8 status --url "postgres://admin@db.prod.example.com:5432/app"`,
	})
}

// Schema tools told to reset the database or to push a schema without
// asking about the data it drops.
func TestSchemaToolsResetAndForcedPush(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`npx drizzle-kit push --force --config drizzle.config.ts`, CategoryDatabaseDestroy, "schema-tool-reset", LevelModerate},
		{`sqlx database reset -y`, CategoryDatabaseDestroy, "schema-tool-reset", LevelModerate},
		{`npx typeorm schema:drop -d src/data-source.ts`, CategoryDatabaseDestroy, "schema-tool-reset", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`npx drizzle-kit push`,
		`npx drizzle-kit generate`,
		`diesel migration run`,
		`sqlx database create`,
		`npx typeorm migration:run -d src/data-source.ts`,
	})
}

// An HTTP DELETE of an index pattern removes every index it matches; a
// local emulator's database is the project's own copy.
func TestIndexPatternsAndLocalEmulators(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`curl -X DELETE "http://10.1.2.3:9200/metrics-2025*"`, CategoryDatabaseDestroy, "http-delete-all", LevelHigh},
		{`npx wrangler d1 execute prod-db --remote --command 'DELETE FROM users'`, CategoryDatabaseDestroy, "", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`curl -X DELETE "http://10.1.2.3:9200/metrics-2025.01.02"`,
		`curl "http://search.internal:9200/metrics-*/_search?q=error"`,
		`npx wrangler d1 execute dev-db --local --command 'DELETE FROM users'`,
	})
}

// Admin clients whose connection options come before the subcommand:
// the option's value is not the subcommand.
func TestDataServiceVerbsAfterConnectionOptions(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`etcdctl --endpoints https://10.0.0.5:2379 del "" --prefix`, CategoryDatabaseDestroy, "db-delete-all-keys", LevelHigh},
		{`rabbitmqadmin -H mq.internal purge queue name=orders`, CategoryDatabaseDestroy, "data-service-delete", LevelHigh},
		{`rabbitmqadmin --host mq.internal delete exchange name=events`, CategoryDatabaseDestroy, "data-service-delete", LevelHigh},
	})
	checkSafe(t, d, testCtx, []string{
		`etcdctl --endpoints https://10.0.0.5:2379 get "" --prefix --keys-only`,
		`rabbitmqadmin -H mq.internal list queues`,
		`rabbitmqadmin -H mq.internal declare queue name=orders`,
	})
}

// Rows a WHERE clause picks, deleted on production, are gone for every
// user; the same statement elsewhere is everyday work.
func TestRowsDeletedOnProduction(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`kubectl exec -n prod statefulset/postgres -- psql -U app -d app -c "DELETE FROM payments WHERE status = 'pending';"`, CategoryDatabaseDestroy, "db-delete-rows-production", LevelCritical},
		{`psql -h orders.prod.internal -U app orders -c "DELETE FROM carts WHERE updated_at < now() - interval '1 day'"`, CategoryDatabaseDestroy, "db-delete-rows-production", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`psql -h localhost -U app orders_dev -c "DELETE FROM carts WHERE updated_at < now() - interval '1 day'"`,
		`psql -h orders.prod.internal -U app orders -c "SELECT count(*) FROM carts WHERE updated_at < now() - interval '1 day'"`,
		`sqlite3 data/test.db "DELETE FROM jobs WHERE status = 'done';"`,
	})
}
