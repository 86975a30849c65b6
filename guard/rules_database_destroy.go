package guard

import (
	"net/url"
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Rules for destroying databases and their data (category database_destroy).
var databaseDestroyRules = []*rule{
	{ID: "warehouse-table-replaced", prodAware: true, Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "replacing a production warehouse table's rows with a file's or another table's",
		Suggestions: []string{"Load into a new table and swap after checking it", "Append instead of replacing, or snapshot the table first"},
		names:       names("bq"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// bq load --replace acme-prod:crm.contacts ./sample.csv, bq cp
			// -f src prod.table: every row it held is gone
			ops := c.operands()
			if len(ops) < 2 {
				return false, ""
			}
			replace := false
			switch ops[0].s {
			case "load":
				replace = hasWord(c.args(), "--replace") || hasWord(c.args(), "--replace=true")
			case "cp":
				replace = hasWord(c.args(), "-f") || hasWord(c.args(), "--force") || hasWord(c.args(), "--force=true")
			}
			if !replace {
				return false, ""
			}
			target := ops[1].s
			if ops[0].s == "cp" {
				target = ops[len(ops)-1].s
			}
			if !isProdName(target) {
				return false, ""
			}
			return true, "bq " + ops[0].s + " over " + target
		}},
	{ID: "schema-tool-reset", Level: LevelModerate, Category: CategoryDatabaseDestroy, Description: "a schema tool told to reset the database or to push a schema that drops data without asking",
		Suggestions: []string{"Generate a migration and review what it drops", "Back the database up first"},
		names:       names("drizzle-kit", "diesel", "sqlx", "typeorm", "mikro-orm", "atlas"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 {
				return false, ""
			}
			j := joinWords(ops)
			switch c.name {
			case "drizzle-kit":
				return ops[0].s == "push" && (hasWord(args, "--force") || hasWord(args, "--accept-data-loss")), j
			case "diesel", "sqlx":
				// (diesel migration redo --all: every migration reverted, its
				// tables dropped, and run again on empty ones)
				return len(ops) > 1 && ops[0].s == "database" && (ops[1].s == "reset" || ops[1].s == "drop") ||
					c.name == "diesel" && len(ops) > 1 && ops[0].s == "migration" && ops[1].s == "redo" && (hasWord(args, "--all") || hasWord(args, "-a")), j
			case "typeorm", "mikro-orm":
				return ops[0].s == "schema:drop" || ops[0].s == "schema:fresh" || ops[0].s == "migration:fresh", j
			case "atlas":
				if u, _ := optValue(args, "-u", "url"); strings.HasPrefix(u, "docker://") {
					return false, "" // a throwaway database Atlas starts in a container
				}
				return ops[0].s == "schema" && len(ops) > 1 && (ops[1].s == "clean" || ops[1].s == "apply" && hasWord(args, "--auto-approve")), j
			}
			return false, ""
		}},
	{ID: "graph-db-wipe", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "deleting every node of a graph database, or the database itself",
		Suggestions: []string{"Match only the nodes you mean (MATCH (n:Label {id: ...}))", "Back the database up first (neo4j-admin database dump)"},
		names:       names("cypher-shell"),
		match: func(a *analysis, c *cmd) (bool, string) {
			code := lower(joinWords(c.operands()))
			if c.in.kind == flowText {
				code += " " + lower(c.in.text)
			}
			if strings.Contains(code, "drop database") {
				return true, "DROP DATABASE"
			}
			// MATCH (n) DETACH DELETE n: every node, with no label or WHERE
			if strings.Contains(code, "delete") && strings.Contains(code, "match (n)") && !strings.Contains(code, "where") {
				return true, "every node deleted"
			}
			return false, ""
		}},
	{ID: "db-wipe-raw-protocol", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "wiping a cache or key-value store by speaking its protocol over a raw connection",
		Suggestions: []string{"Use the store's own client against a local instance", "Delete only the keys you mean"},
		names:       names("nc", "ncat", "netcat", "telnet", "socat"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.in.kind != flowText {
				return false, ""
			}
			for _, w := range c.operands() {
				if loopback(w.s) || w.s == "localhost" {
					return false, "" // a developer's local cache
				}
			}
			t := lower(c.in.text)
			if strings.Contains(t, "flushall") || strings.Contains(t, "flushdb") || strings.Contains(t, "flush_all") {
				return true, strings.TrimSpace(strings.Fields(t + " ")[0])
			}
			return false, ""
		}},
	{ID: "managed-cache-flush", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "emptying a cloud-managed cache (every key of every database)",
		Suggestions: []string{"Delete only the keys you mean with the store's own client", "Flush a local or test instance instead"}, names: names("az"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// az redis flush, az redisenterprise database flush: FLUSHALL
			// run by the cloud's control plane
			j := c.argsText()
			j = " " + j + " "
			return strings.Contains(j, " redis flush ") || strings.Contains(j, " redisenterprise database flush "), strings.TrimSpace(j)
		}},
	{ID: "db-drop-object", Level: LevelModerate, Category: CategoryDatabaseDestroy, Description: "dropping a database index, view, function or role",
		Suggestions: suggDB, names: dbClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			if s := a.scanSQLOf(c); s != nil && s.dropMinor != "" {
				return true, s.dropMinor
			}
			return false, ""
		}},
	{ID: "db-delete-all-keys", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "deleting every key of a key-value store",
		Suggestions: []string{"Delete keys by a narrow pattern after listing them", "Back the data up first"}, names: names("redis-cli", "valkey-cli", "etcdctl", "consul"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "etcdctl":
				if key, ok := etcdDelKey(args); ok && (hasWord(args, "--prefix") || hasWord(args, "--from-key") || hasWord(args, "--prefix=true") || hasWord(args, "--from-key=true")) && (key == "" || key == "/" || key == "\x00") {
					return true, "etcd keys"
				}
			case "consul":
				return len(args) > 2 && args[0].s == "kv" && args[1].s == "delete" && hasWord(args, "-recurse"), "consul keys"
			default:
				if hasWord(args, "DEL") || hasWord(args, "del") || hasWord(args, "UNLINK") || hasWord(args, "unlink") {
					if wordFlowList(args, "redis-keys") {
						return true, "every redis key"
					}
				}
			}
			return false, ""
		}},
	{ID: "http-delete-all", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "an HTTP DELETE of every index or collection",
		Suggestions: []string{"Delete a single named index", "Snapshot the cluster first"}, names: names("curl", "http", "https", "xh", "wget"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			del := false
			if v, ok := optValue(args, "-X", "request"); ok && strings.EqualFold(v, "DELETE") {
				del = true
			}
			if hasWord(args, "-XDELETE") || hasWord(args, "DELETE") || hasWord(args, "--method=DELETE") {
				del = true
			}
			urls := clientURLs(args)
			if !del {
				// POST _delete_by_query matching everything
				for _, u := range urls {
					if strings.Contains(u, "/_delete_by_query") && strings.Contains(joinWords(args), "match_all") {
						if pu, err := url.Parse(u); err == nil && isLocalHost(pu.Hostname()) {
							if index, _, _ := strings.Cut(strings.TrimPrefix(pu.Path, "/"), "/"); testName(index) {
								continue // a test index on this machine's cluster
							}
						}
						return true, u
					}
				}
				return false, ""
			}
			for _, u := range urls {
				pu, err := url.Parse(u)
				if err != nil {
					continue
				}
				p := pu.Path
				// an index pattern (/logs-*) names every index it matches
				pattern := strings.Count(strings.TrimPrefix(p, "/_data_stream"), "/") == 1 && strings.Contains(p, "*")
				if pattern || p == "/_all" || strings.HasSuffix(p, "/_all") || strings.HasPrefix(p, "/_all/") || strings.HasPrefix(p, "/*/") {
					return true, u
				}
			}
			return false, ""
		}},
	delRule("rm-database-files", LevelCritical, CategoryDatabaseDestroy, "deletion of a database's data files",
		[]string{"Drop data through the database after a backup", "Stop and back up the database first"}, anyRec, pcDBData),
	writeRule("overwrite-database-files", LevelCritical, CategoryDatabaseDestroy, "overwriting or truncating a database's data files",
		[]string{"Drop data through the database after a backup", "Stop and back up the database first"}, true, wDBData),
	{ID: "db-drop-database", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "dropping a whole database",
		Suggestions: suggDB, names: dbClients,
		match: sqlFinding(func(s *sqlScan) string { return s.dropDB })},
	{ID: "db-drop-table", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "dropping tables or collections",
		Suggestions: suggDB, names: dbClients,
		match: sqlFinding(func(s *sqlScan) string { return s.dropTable })},
	{ID: "db-truncate", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "emptying tables (TRUNCATE)",
		Suggestions: suggDB, names: dbClients,
		match: sqlFinding(func(s *sqlScan) string { return s.truncate })},
	{ID: "db-delete-all", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "deleting every row of a table (DELETE without WHERE)",
		Suggestions: suggDB, names: dbClients,
		match: sqlFinding(func(s *sqlScan) string { return s.deleteAll })},
	{ID: "db-delete-rows-production", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "deleting rows of a production database (what the WHERE clause picks is gone for every user)",
		Suggestions: []string{"Run the SELECT with the same WHERE first, and delete in a transaction a reviewer approves", "Back the table up first"},
		names:       dbClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			if !touchesProduction(c) && a.prodTarget == 0 {
				return false, ""
			}
			return sqlFinding(func(s *sqlScan) string { return s.deleteSome })(a, c)
		}},
	{ID: "db-rows-changed-shared", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "deleting or rewriting rows of a shared database server (one named by its address, not this machine's, a container's or a test's)",
		Suggestions: []string{"Run the SELECT with the same WHERE first, and change the rows in a transaction a reviewer approves", "Work on a local or staging copy"},
		names:       dbClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			s := a.scanSQLOf(c)
			if s == nil || s.deleteSome == "" && s.updateSome == "" {
				return false, ""
			}
			host := sharedDBServer(c)
			if host == "" {
				for _, w := range c.args() {
					if panelDatabases[lower(w.s)] {
						host = "the hosting panel's own database (" + w.s + ")"
					}
				}
			}
			if host == "" && (touchesProduction(c) || a.prodTarget > 0) && s.updateSome != "" {
				host = "production" // (production's deletes are db-delete-rows-production's)
			}
			if host == "" || a.testScoped(c) || rolledBack(a, c) {
				return false, ""
			}
			st := s.deleteSome
			if st == "" {
				st = s.updateSome
			}
			return true, st + " on " + host
		}},
	{ID: "production-destroy-script", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "running a script named for destroying data (drop, wipe, truncate, purge) with production's settings or on a production host",
		Suggestions: []string{"Run it against a staging copy first", "Take a backup and have the change reviewed before running it in production"},
		names:       names("node", "python", "python3", "ruby", "php", "perl", "bash", "sh", "zsh", "deno", "bun", "tsx", "ts-node", "go"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if !touchesProduction(c) && a.prodTarget == 0 {
				return false, ""
			}
			ops := c.operands()
			for len(ops) > 0 && (ops[0].s == "run" || ops[0].s == "exec" || ops[0].s == "run-script" || ops[0].s == "x" || ops[0].s == "tsx" || ops[0].s == "ts-node") {
				ops = ops[1:]
			}
			if len(ops) == 0 {
				return false, ""
			}
			// a script file (code given inline is judged as code; npm
			// scripts by task-resets-production)
			f := ops[0].s
			if hasWord(c.args(), "-c") || hasWord(c.args(), "-e") || hasWord(c.args(), "--eval") || strings.ContainsAny(f, " ;()'\"") || !strings.ContainsAny(f, "/.") {
				return false, ""
			}
			if destructiveScriptName(f) {
				return true, c.name + " " + f + " in production"
			}
			return false, ""
		}},
	{ID: "db-update-all", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "changing every row or dropping columns",
		Suggestions: suggDB, names: dbClients,
		match: sqlFinding(func(s *sqlScan) string { return s.updateAll })},
	{ID: "db-destructive-script", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "running statements that destroy data: a script named for it, or statements generated by a query and piped in",
		Suggestions: suggDB, names: dbClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			// psql -f drop_all.sql, mysql < wipe.sql: the file says what it does
			for i, w := range args {
				f := ""
				switch {
				case (w.s == "-f" || w.s == "--file" || w.s == "-i" || w.s == "--source") && i+1 < len(args):
					f = args[i+1].s
				case strings.HasPrefix(w.s, "--file="):
					f = w.s[len("--file="):]
				}
				if f != "" && destructiveScriptName(f) {
					return true, f
				}
			}
			for _, r := range c.redirs {
				if r.op == syntax.RdrIn && destructiveScriptName(r.w.s) {
					return true, r.w.s
				}
			}
			// SELECT CONCAT('DROP TABLE ', ...) | mysql: the statements
			// are made by the query before
			for _, s := range c.pipe {
				if s == nil || s == c || s.stage >= c.stage {
					continue
				}
				j := strings.ToUpper(joinWords(s.args()))
				for _, kw := range [...]string{"DROP TABLE", "DROP DATABASE", "DROP SCHEMA", "TRUNCATE", "DELETE FROM"} {
					if strings.Contains(j, kw) && strings.Contains(j, "SELECT") {
						return true, "generated " + kw
					}
				}
			}
			return false, ""
		}},
	{ID: "db-restore-over", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "restoring a backup over a live database (what it holds now is replaced)",
		Suggestions: []string{"Restore under a new database name and compare", "Back the current database up first"}, names: dbClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			text, _ := a.sqlOf(c)
			u := strings.ToUpper(text)
			if strings.Contains(u, "RESTORE DATABASE") && strings.Contains(u, "REPLACE") {
				return true, "RESTORE DATABASE ... WITH REPLACE"
			}
			if embeddedDBClient(c.name) && strings.HasPrefix(strings.TrimSpace(text), ".restore") {
				return true, ".restore" // sqlite3 db/development.sqlite3 '.restore seed.sqlite3'
			}
			return false, ""
		}},
	{ID: "restore-drops-first", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "restoring a dump that drops the database's objects first (what it holds now and the dump lacks is gone)",
		Suggestions: []string{"Restore into a new database and compare", "Back the current database up first"}, names: names("pg_restore", "mongorestore", "mongoimport", "mysqlimport", "myloader"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "myloader":
				// -o / --overwrite-tables: each table dropped before it is
				// loaded
				if hasWord(args, "--overwrite-tables") || hasWord(args, "-o") {
					if h, ok := optValue(args, "-h", "host"); !ok || isLocalHost(h) {
						return false, ""
					}
					return true, "myloader --overwrite-tables"
				}

			case "pg_restore":
				// --clean drops each object before recreating it; without
				// -d it only prints the script
				if (hasWord(args, "--clean") || shortCluster(args, 'c')) && (hasPrefixWord(args, "-d") || hasPrefixWord(args, "--dbname")) {
					if v, ok := optValue(args, "-d", "dbname"); ok && throwawayDBURL(v) {
						return false, ""
					}
					// a local server's development copy or test database
					if h, ok := optValue(args, "-h", "host"); ok && isLocalHost(h) {
						if v, ok := optValue(args, "-d", "dbname"); ok && !strings.Contains(v, "://") && (scratchName(v) || hasAny(lower(v), "_dev", "dev_", "_copy", "_test")) && !isProdName(v) {
							return false, ""
						}
					}
					return true, "pg_restore --clean"
				}
			case "mongorestore", "mongoimport":
				if !hasWord(args, "--drop") {
					return false, ""
				}
				// a restore drill into renamed namespaces on this machine's
				// server (--nsTo shop_drill.*) drops only the drill's copy
				if u, ok := optValue(args, "", "uri"); ok && thisMachine(hostOf(u)) {
					if to, ok := optValue(args, "", "nsTo"); ok && scratchName(to) || strings.Contains(lower(to), "drill") {
						return false, ""
					}
				}
				return true, c.name + " --drop"
			case "mysqlimport":
				if hasWord(args, "--delete") || shortCluster(args, 'd') {
					return true, "mysqlimport --delete"
				}
			}
			return false, ""
		}},
	{ID: "dbatools-destroy", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "removing, shrinking or overwriting SQL Server databases with dbatools",
		Suggestions: suggDB, names: names("remove-dbadatabase", "remove-dbaagdatabase", "remove-dbadbsnapshot", "remove-dbabackuphistory",
			"restore-dbadatabase", "invoke-dbadbshrink", "remove-dbadbtable", "remove-dbalogin", "clear-dbaconnectionpool",
			// the rest of dbatools' Remove- cmdlets, from its command index
			"remove-dbaagentjob", "remove-dbaagentjobstep", "remove-dbaagentschedule", "remove-dbaagentoperator", "remove-dbaagentalert",
			"remove-dbaagentproxy", "remove-dbaavailabilitygroup", "remove-dbaagreplica", "remove-dbaaglistener", "remove-dbabackup",
			"remove-dbacredential", "remove-dbadatabasesafely", "remove-dbadbasymmetrickey", "remove-dbadbbackuprestorehistory",
			"remove-dbadbcertificate", "remove-dbadbmasterkey", "remove-dbadbmirror", "remove-dbadborphanuser", "remove-dbadbrole",
			"remove-dbadbrolemember", "remove-dbadbschema", "remove-dbadbsequence", "remove-dbadbsynonym", "remove-dbadbudf",
			"remove-dbadbuser", "remove-dbadbview", "remove-dbadblogshipping", "remove-dbaendpoint", "remove-dbalinkedserver",
			"remove-dbaserverrole", "remove-dbaserverrolemember", "remove-dbaxesession", "remove-dbadbpartitionfunction",
			"remove-dbadbpartitionscheme", "remove-dbadbdata", "remove-dbadbencryptionkey", "remove-dbadbfilegroup"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			for i, w := range args {
				if strings.EqualFold(w.s, "-SqlInstance") && i+1 < len(args) {
					h, _, _ := strings.Cut(args[i+1].s, `\`)
					if loopback(h) || h == "." || strings.EqualFold(h, "(localdb)") {
						return false, "" // the developer's own SQL Server
					}
				}
			}
			if c.name == "restore-dbadatabase" {
				return hasWord(c.args(), "-WithReplace") || hasWord(c.args(), "-withreplace"), "-WithReplace"
			}
			return true, c.base
		}},
	{ID: "db-dropdb", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "dropping a whole database",
		Suggestions: suggDB, names: names("dropdb", "dropuser", "mysqladmin", "influx", "pg_dropcluster", "pg_resetwal", "pg_resetxlog"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "dropuser":
				// a production role dropped: every client logging in
				// with it is locked out
				return len(c.operands()) > 0 && touchesProduction(c), "dropuser in production"
			case "dropdb", "pg_dropcluster":
				return len(c.operands()) > 0, ""
			case "pg_resetwal", "pg_resetxlog":
				// forced, the write-ahead log is thrown away: committed data
				// may be lost and the cluster left inconsistent
				return hasWord(args, "-f") || hasWord(args, "--force"), c.name + " -f"
			case "mysqladmin":
				return hasWord(args, "drop"), ""
			case "influx":
				return hasWord(args, "delete") && (hasWord(args, "bucket") || hasWord(args, "org")), ""
			}
			return false, ""
		}},
	{ID: "db-url-destroy", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "a migration or schema tool told to clean, drop or reset a database on another machine",
		Suggestions: suggDB,
		match: func(a *analysis, c *cmd) (bool, string) {
			if d := dbURLDestroy(c); d != "" {
				return true, d
			}
			return false, ""
		}},
	{ID: "db-framework-drop", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "dropping or wiping an application database",
		Suggestions: []string{"Back the database up first", "Run resets only against a local development database, by hand"},
		names:       names("rails", "rake", "php", "python", "dotnet", "npx", "prisma", "sequelize", "bin/rails", "knex", "artisan", "manage.py", "supabase", "mix", "ruby", "bundle", "bin/console", "console", "airflow", "magento", "bin/magento"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "airflow" {
				// airflow db reset (resetdb): the metadata database of every
				// DAG run, connection and variable emptied
				// (the default is a SQLite file in AIRFLOW_HOME: a database
				// named on the line or in production's settings is shared)
				sub := clientSubWords(c).list()
				if len(sub) > 1 && sub[0] == "db" && sub[1] == "clean" && hasWord(c.args(), "--skip-archive") && (hasWord(c.args(), "--yes") || hasWord(c.args(), "-y")) && !hasWord(c.args(), "--dry-run") {
					// airflow db clean --skip-archive --yes: the history
					// before the timestamp deleted, no archive table kept
					return true, "airflow db clean --skip-archive"
				}
				if !(len(sub) > 1 && sub[0] == "db" && sub[1] == "reset" || len(sub) > 0 && sub[0] == "resetdb") || a.testScoped(c) || localTestDatabase(a, c) {
					return false, ""
				}
				if touchesProduction(c) || remoteConnectionAssigned(c) || c.remote && a.prodTarget > 0 {
					return true, "airflow " + strings.Join(sub, " ")
				}
				// export AIRFLOW__DATABASE__SQL_ALCHEMY_CONN=...prod...;
				// airflow db reset: the connection set earlier on the line
				for _, k := range [...]string{"AIRFLOW__DATABASE__SQL_ALCHEMY_CONN", "AIRFLOW__CORE__SQL_ALCHEMY_CONN"} {
					if v, ok := a.envOf(c, k); ok {
						if h := lower(hostOf(v)); h != "" && !isLocalHost(h) && (isProdName(v) || prodMarker(v) || !strings.HasPrefix(v, "sqlite")) {
							return true, "airflow " + strings.Join(sub, " ") + " on " + h
						}
					}
				}
				return false, ""
			}
			// manage.py sqlflush | manage.py dbshell: flush's SQL, run
			if p := prevStage(c); p != nil && hasWord(c.args(), "dbshell") && hasWord(p.args(), "sqlflush") && !testSettings(c) && !localTestDatabase(a, c) {
				return true, "sqlflush | dbshell"
			}
			for _, w := range c.args() {
				if c.name == "mix" {
					w.s = strings.TrimSuffix(w.s, ",") // mix do ecto.drop, ecto.create
				}
				w.s = railsTaskBase(w.s)
				if w.s == "loaddata" && touchesProduction(c) && !testSettings(c) {
					// fixtures loaded into production: rows with the same
					// keys are overwritten
					return true, "loaddata into production"
				}
				switch w.s {
				case "db:drop", "db:drop:all", "db:wipe", "db:purge", "db:purge:all", "db:reset", "db:schema:load", "migrate:fresh", "migrate:reset", "migrate:refresh", "flush", "reset_db", "--force-reset",
					"db:migrate:reset", "db:schema:load:all", "db:seed:replant", "db:truncate_all",
					"ecto.drop", "ecto.reset", "drop", "--accept-data-loss",
					// Symfony's console: bin/console doctrine:schema:drop --force
					"doctrine:schema:drop", "doctrine:database:drop", "d:s:d", "d:d:d",
					// Saleor's manage.py cleardb, Magento's bin/magento
					// setup:uninstall (the store's database dropped) and
					// setup:rollback (an old backup loaded over it)
					"cleardb", "setup:uninstall", "setup:rollback":
					if strings.HasPrefix(w.s, "doctrine:") || strings.HasPrefix(w.s, "d:") {
						if !hasWord(c.args(), "--force") && !hasWord(c.args(), "-f") {
							continue // --dump-sql, or without --force: it only shows what it would do
						}
					}
					if w.s == "drop" && !(hasWord(c.args(), "database") && c.name == "dotnet") {
						continue
					}
					if w.s == "migrate:refresh" && !touchesProduction(c) && a.prodTarget == 0 {
						continue // a developer's own database rebuilt and seeded: labels split
					}
					if (w.s == "flush" || w.s == "cleardb") && !hasWord(c.args(), "manage.py") && c.name != "manage.py" {
						continue
					}
					if strings.HasPrefix(w.s, "setup:") && c.name != "magento" && !hasWord(c.args(), "bin/magento") {
						continue
					}
					if testSettings(c) || localTestDatabase(a, c) {
						return false, "" // the test settings' database, made for the suite
					}
					return true, w.s
				case "reset":
					if c.name == "prisma" || hasWord(c.args(), "prisma") && hasWord(c.args(), "migrate") || c.name == "supabase" && hasWord(c.args(), "--linked") {
						if localTestDatabase(a, c) {
							return false, "" // DATABASE_URL names a test database on this machine
						}
						return true, "migrate reset"
					}
				}
			}
			return false, ""
		}},
	{ID: "db-migrate-to-zero", Level: LevelModerate, Category: CategoryDatabaseDestroy, Description: "reverting every migration, which drops the tables they made and their data",
		Suggestions: []string{"Roll back one migration at a time (alembic downgrade -1)", "Back the database up first"},
		names: names("python", "python3", "manage.py", "alembic", "knex", "npx", "sequelize", "flyway", "liquibase", "dotnet", "goose", "migrate",
			"rake", "rails", "bin/rails", "yarn", "pnpm", "php", "artisan", "gradle", "gradlew", "./gradlew", "mvn", "mvnw", "./mvnw", "sqlx", "diesel", "dbmate",
			"update-database", "supabase", "cargo", "mix", "atlas", "flask"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if localTestDatabase(a, c) {
				return false, "" // DATABASE_URL names a test database on this machine
			}
			args := c.args()
			j := joinWords(args)
			switch c.name {
			case "flask":
				// Flask-Migrate: flask db downgrade base, Alembic underneath
				return hasWord(args, "db") && hasWord(args, "downgrade") && hasWord(args, "base"), j
			case "alembic":
				// downgrade base, or -3 and more: the tables of several
				// revisions go with their data
				for i, w := range args {
					if w.s == "downgrade" && i+1 < len(args) {
						if n, err := strconv.Atoi(strings.TrimPrefix(args[i+1].s, "-")); err == nil && strings.HasPrefix(args[i+1].s, "-") && n >= 3 {
							return true, j
						}
					}
				}
				return hasWord(args, "downgrade") && hasWord(args, "base"), j
			case "atlas":
				// atlas migrate down --amount 5: several versions undone
				if p := c.operands(); len(p) < 2 || p[0].s != "migrate" || p[1].s != "down" {
					return false, ""
				}
				v, ok := optValue(args, "", "amount")
				n, err := strconv.Atoi(v)
				return ok && err == nil && n >= 3 || hasWord(args, "--to-version") && hasWord(args, "0"), j
			case "mix":
				// mix ecto.rollback --all, --to 0, or -n/--step of many
				if !hasWord(args, "ecto.rollback") {
					return false, ""
				}
				if hasWord(args, "--all") {
					return true, j
				}
				if v, ok := optValue(args, "-n", "step"); ok {
					n, err := strconv.Atoi(v)
					return err == nil && n >= 3, j
				}
				v, ok := optValue(args, "", "to")
				return ok && v == "0", j
			case "cargo":
				// cargo sqlx database reset: sqlx-cli as cargo's subcommand
				ops := c.operands()
				return len(ops) >= 3 && ops[0].s == "sqlx" && ops[1].s == "database" && (ops[2].s == "drop" || ops[2].s == "reset"), j
			case "flyway":
				// (an in-memory database made for the run is the run's own)
				return hasWord(args, "clean") && !inMemoryJDBC(lower(j)), j
			case "liquibase":
				// dropAll, or a rollback of more changesets than a
				// project has (rollback-count 9999)
				for i, w := range args {
					if (w.s == "rollback-count" || w.s == "rollbackCount") && i+1 < len(args) {
						if n, err := strconv.Atoi(args[i+1].s); err == nil && n >= 100 {
							return true, j
						}
					}
				}
				return hasWord(args, "dropAll") || hasWord(args, "drop-all"), j
			case "gradle", "gradlew", "./gradlew", "mvn", "mvnw", "./mvnw":
				// the Flyway and Liquibase plugins' tasks
				for _, w := range args {
					switch w.s {
					case "flywayClean", "flyway:clean", "dropAll", "liquibase:dropAll", "liquibaseDropAll":
						return true, j
					}
				}
				return false, ""
			case "dbmate":
				return hasWord(args, "drop"), j
			case "sqlx", "diesel":
				// sqlx database drop, diesel database reset
				ops := c.operands()
				return len(ops) >= 2 && ops[0].s == "database" && (ops[1].s == "drop" || ops[1].s == "reset"), j
			case "goose":
				// reset, or down-to 0: every migration undone
				return hasWord(args, "reset") || hasWord(args, "down-to") && hasWord(args, "0"), j
			case "supabase":
				// supabase db reset of the local stack: the database the
				// developer has been filling, rebuilt from migrations and
				// seed (--linked and --db-url reach a project's own,
				// judged by db-framework-drop)
				ops := c.operands()
				_, remote := optValue(args, "", "db-url")
				// (--local, said outright, is the developer asking for the
				// local stack's reset)
				return len(ops) >= 2 && ops[0].s == "db" && ops[1].s == "reset" && !hasWord(args, "--linked") && !remote && !hasWord(args, "--local") &&
					!hasWord(args, "--help") && !hasWord(args, "-h"), j
			case "migrate":
				return hasWord(args, "drop") || hasWord(args, "down") && hasWord(args, "-all"), j
			case "update-database":
				// Entity Framework's Package Manager Console: Update-Database -Migration 0
				v, ok := swVal(wargs(c), "migration", "targetmigration")
				return ok && v == "0" && !hasSw(wargs(c), "whatif"), "Update-Database -Migration 0"
			case "dotnet":
				ops := c.operands()
				return len(ops) >= 4 && ops[0].s == "ef" && ops[1].s == "database" && ops[2].s == "update" && (ops[3].s == "0" || ops[3].s == "InitialCreate" && touchesProduction(c)), j
			}
			for i, w := range args {
				switch {
				case w.s == "migrate" && (hasWord(args, "manage.py") || c.name == "manage.py") && i+2 < len(args) && args[i+2].s == "zero":
					// (--plan only lists the migrations it would reverse)
					return !hasWord(args, "--plan"), j
				case (w.s == "migrate:rollback" || w.s == "migrate:down") && hasWord(args, "--all"),
					w.s == "db:migrate:undo:all", w.s == "migrate:reset",
					strings.HasPrefix(w.s, "db:") && hasWord(args, "VERSION=0"):
					return true, j
				case w.s == "db:rollback" && manySteps(args):
					// rails db:rollback STEP=20: most of the schema undone,
					// with the data of its tables
					return true, j
				}
			}
			return false, ""
		}},
	{ID: "data-service-delete", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "deleting topics, secrets, images or remote tables",
		Suggestions: []string{"Back up or snapshot first", "Delete one named item after review"},
		names: names("kafka-topics", "kafka-topics.sh", "kafka-topics.bat", "kafka-delete-records", "kafka-delete-records.sh", "kafka-delete-records.bat",
			"kafka-consumer-groups", "kafka-consumer-groups.sh", "op", "bw", "vault", "aws", "wrangler", "redis-cli", "rabbitmqctl", "rabbitmqadmin", "etcdctl", "consul", "gcloud", "az",
			"kafka-configs", "kafka-configs.sh", "kafka-configs.bat", "influx"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			j := joinWords(args)
			switch c.name {
			case "kafka-configs", "kafka-configs.sh", "kafka-configs.bat":
				// retention.ms=1000 on a topic: the broker deletes what
				// it holds within seconds
				if v, ok := optValue(args, "", "add-config"); ok && hasWord(args, "--alter") {
					for kv := range strings.SplitSeq(v, ",") {
						k, n, _ := strings.Cut(kv, "=")
						if k == "retention.ms" || k == "retention.bytes" || k == "log.retention.ms" || k == "log.retention.hours" {
							// seconds' worth, or an hour's for every topic
							// of the brokers (--entity-default)
							v, err := strconv.ParseInt(n, 10, 64)
							short := err == nil && v >= 0 && (len(n) <= 4 || k == "log.retention.hours" && v <= 1 ||
								hasWord(args, "--entity-default") && (k == "log.retention.ms" || k == "retention.ms") && v <= 6*3600*1000)
							if !short {
								continue
							}
							name, _ := optValue(args, "", "entity-name")
							return !scratchName(name), j
						}
					}
				}
				return false, ""
			case "influx":
				// influx delete over all time, with no predicate: the
				// bucket emptied
				ops := c.operands()
				if len(ops) == 0 || ops[0].s != "delete" {
					return false, ""
				}
				if _, ok := optValue(args, "-p", "predicate"); ok {
					return false, ""
				}
				start, _ := optValue(args, "", "start")
				b, _ := optValue(args, "-b", "bucket")
				return strings.HasPrefix(start, "1970") && !scratchName(b), j
			case "kafka-topics", "kafka-topics.sh", "kafka-topics.bat":
				return hasWord(args, "--delete"), j
			case "kafka-consumer-groups", "kafka-consumer-groups.sh":
				// a group moved past or back over every topic: messages
				// skipped or processed twice
				return hasWord(args, "--reset-offsets") && hasWord(args, "--execute") && (hasWord(args, "--all-topics") || touchesProduction(c)) ||
					hasWord(args, "--delete") && (hasWord(args, "--all-groups") || touchesProduction(c)) || hasWord(args, "--delete-offsets") && touchesProduction(c), j
			case "op":
				// a vault's item, document or the vault itself deleted
				ops := c.operands()
				return len(ops) > 1 && (ops[0].s == "item" || ops[0].s == "document" || ops[0].s == "vault") && ops[1].s == "delete", j
			case "bw":
				// deleted for good, not to the trash
				return len(args) > 0 && args[0].s == "delete" && hasWord(args, "--permanent"), j
			case "kafka-delete-records", "kafka-delete-records.sh", "kafka-delete-records.bat":
				// every record before the offsets the file gives
				return !hasWord(args, "--help"), j
			case "vault":
				return strings.HasPrefix(j, "kv metadata delete") || strings.HasPrefix(j, "kv destroy") || strings.HasPrefix(j, "secrets disable") ||
					strings.HasPrefix(j, "delete ") || strings.HasPrefix(j, "auth disable"), j
			case "aws":
				return strings.Contains(j, "ecr batch-delete-image") || strings.Contains(j, "ecr delete-repository") || strings.Contains(j, "secretsmanager delete-secret") ||
					strings.Contains(j, "kms schedule-key-deletion") || strings.Contains(j, "ssm delete-parameter"), j
			case "wrangler":
				if hasWord(args, "--local") {
					return false, "" // the emulator's copy under .wrangler/ in the project
				}
				l := strings.ToUpper(j)
				return strings.Contains(j, "d1 execute") && (strings.Contains(l, "DROP ") || strings.Contains(l, "TRUNCATE") || strings.Contains(l, "DELETE FROM")) ||
					strings.Contains(j, "d1 delete") || strings.Contains(j, "kv namespace delete") || strings.Contains(j, "r2 bucket delete") || strings.Contains(j, "delete"), j
			case "rabbitmqctl", "rabbitmqadmin":
				if vh, _ := optValue(args, "-p", "vhost"); vh != "" && testOrDevVhost(vh) {
					return false, "" // -p /dev: a development virtual host's queues
				}
				if hasWord(args, "set_policy") && (strings.Contains(strings.ReplaceAll(j, " ", ""), `"max-length":0`) || strings.Contains(strings.ReplaceAll(j, " ", ""), `"max-length-bytes":0`)) {
					return true, j // every message of the queues it applies to dropped
				}
				return hasWord(args, "delete_queue") || hasWord(args, "purge_queue") || hasWord(args, "delete_vhost") || hasWord(args, "reset") || hasWord(args, "force_reset") || brokerObjectDeleted(args), j
			case "etcdctl":
				_, del := etcdDelKey(args)
				if del && (hasWord(args, "--prefix") || hasWord(args, "--from-key")) {
					return true, j
				}
				// a key of production's cluster emptied ('{}', ''): the
				// configuration the services read is gone
				if ops := c.operands(); !del && len(ops) > 2 && ops[0].s == "put" && touchesProduction(c) {
					switch strings.TrimSpace(ops[2].s) {
					case "", "{}", "[]", "null", `""`:
						return true, "etcdctl put " + ops[1].s + " " + ops[2].s
					}
				}
				return false, ""
			case "consul":
				return strings.HasPrefix(j, "kv delete") && hasWord(args, "-recurse"), j
			case "gcloud":
				return strings.Contains(j, "secrets delete") || strings.Contains(j, "kms keys versions destroy") || strings.Contains(j, "artifacts docker images delete"), j
			case "az":
				return strings.Contains(j, "keyvault secret purge") || strings.Contains(j, "keyvault delete") || strings.Contains(j, "acr repository delete"), j
			}
			return false, ""
		}},
	{ID: "dbt-production-rebuild", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "rebuilding a production warehouse's tables from scratch, or running a macro that drops them, with dbt",
		Suggestions: []string{"Run against a development target", "Rebuild one model with --select after review"}, names: names("dbt"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			target, ok := optValue(args, "-t", "target")
			if !ok || !prodLabel(lower(target)) {
				return false, ""
			}
			ops := c.operands()
			if len(ops) == 0 {
				return false, ""
			}
			switch ops[0].s {
			case "run", "build", "seed":
				// incremental models lose the history they kept
				return hasWord(args, "--full-refresh") || hasWord(args, "-f"), "dbt " + ops[0].s + " --full-refresh --target " + target
			case "run-operation":
				if len(ops) > 1 {
					m := lower(ops[1].s)
					for _, k := range [...]string{"drop", "delete", "truncate", "purge", "clean"} {
						if strings.Contains(m, k) {
							return true, "dbt run-operation " + ops[1].s + " --target " + target
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "dump-over-production", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "loading a dump into a production database (what it holds is overwritten by another environment's data)",
		Suggestions: []string{"Load dumps into a new database and compare", "Back the production database up first"}, names: names("mysql", "psql", "mariadb", "gcloud", "sqlcmd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "gcloud" {
				// gcloud sql import sql|csv INSTANCE URI into a production instance
				ops := c.operands()
				if len(ops) > 4 && ops[0].s == "sql" && ops[1].s == "import" && prodMarker(ops[3].s) {
					return true, "gcloud sql import into " + ops[3].s
				}
				// gcloud sql backups restore ID --restore-instance=prod-db
				// --backup-instance=staging-db: another instance's backup
				// over production
				if len(ops) > 2 && ops[0].s == "sql" && ops[1].s == "backups" && ops[2].s == "restore" {
					if v, ok := optValue(c.args(), "", "restore-instance"); ok && prodMarker(v) {
						return true, "gcloud sql backups restore over " + v
					}
				}
				return false, ""
			}
			// pg_dump --clean -h localhost shop_dev | psql -h
			// pg.shared-dev.internal shop: another database's dump,
			// dropping first, over a shared server's
			if c.pipe != nil && c.stage > 0 && c.pipe[c.stage-1] != nil && !touchesProduction(c) {
				switch prev := c.pipe[c.stage-1]; prev.name {
				case "pg_dump", "mysqldump", "mariadb-dump":
					if h, ok := optValue(c.args(), "-h", "host"); ok && !loopback(h) && (sharedTarget([]word{lit(h)}) || strings.Contains(lower(h), "shared")) {
						return true, prev.base + " | " + c.base + " -h " + h
					}
				}
			}
			if !touchesProduction(c) {
				return false, ""
			}
			for _, r := range c.redirs {
				if r.op.String() == "<" && strings.HasSuffix(lower(r.w.s), ".sql") {
					return true, c.base + " < " + r.w.s
				}
			}
			// gunzip -c snapshot.sql.gz | psql -h prod: a dump read into
			// the pipe
			if c.pipe != nil && c.stage > 0 && c.pipe[c.stage-1] != nil {
				if f := sqlFileRead(c.pipe[c.stage-1]); f != "" {
					return true, c.pipe[c.stage-1].base + " " + f + " | " + c.base
				}
			}
			// psql -f FILE: a script named for another environment or
			// for wiping (reset_dev.sql, seed.sql, drop_all.sql); a
			// migration of production's own is everyday
			if v, ok := optValue(c.args(), "-f", "file"); ok && c.name == "psql" && resetScript(v) {
				return true, "psql -f " + v
			}
			if v, ok := optValue(c.args(), "-i", "input-file"); ok && c.name == "sqlcmd" && resetScript(strings.ReplaceAll(v, `\`, "/")) {
				return true, "sqlcmd -i " + v
			}
			return false, ""
		}},
	{ID: "empty-database-file", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "emptying a database file",
		Suggestions: []string{"Back the database up first", "Drop data through the database itself"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			if t := a.emptiedOutside(c); t != "" && isDBFile(t) {
				return true, t
			}
			return false, ""
		}},
}

func init() {
	ruleSets = append(ruleSets, databaseDestroyRules, []*rule{sqlpackageRule, ormConsoleRule, ormConsoleDevRule})
}

// ormConsoleRule: a framework's console handed code that deletes every
// row or drops a table, in production (php artisan tinker --execute,
// manage.py shell -c, rails runner).
var ormConsoleRule = &rule{ID: "orm-destroy-production", Level: LevelHigh, Category: CategoryDatabaseDestroy,
	Description: "a framework console told to delete every row or drop tables in production",
	Suggestions: []string{"Run it against a copy first", "Delete through a reviewed migration or script"},
	names:       ormConsoles,
	match: func(a *analysis, c *cmd) (bool, string) {
		if !touchesProduction(c) && a.prodTarget == 0 {
			return false, ""
		}
		if p := ormConsoleDestroys(c); p != "" {
			return true, p
		}
		return false, ""
	}}

// ormConsoleDevRule: the same console code run against the development
// database, whose rows are the data the developer works with.
var ormConsoleDevRule = &rule{ID: "orm-destroy-development", Level: LevelModerate, Category: CategoryDatabaseDestroy,
	Description: "a framework console told to delete every row or drop tables of the development database (the data the developer works with)",
	Suggestions: []string{"Reset the database from its seeds (rails db:seed:replant, manage.py flush with fixtures)", "Run it against the test database (RAILS_ENV=test)"},
	names:       ormConsoles,
	match: func(a *analysis, c *cmd) (bool, string) {
		if touchesProduction(c) || a.prodTarget > 0 || a.testScoped(c) {
			return false, "" // (production's is orm-destroy-production's)
		}
		if p := ormConsoleDestroys(c); p != "" && !reseeded(a.src) {
			return true, p
		}
		return false, ""
	}}

// ormConsoles are the programs that open a framework's console.
var ormConsoles = names("php", "artisan", "python", "python3", "manage.py", "rails", "bin/rails", "ruby", "bundle")

// ormConsoleDestroys returns the ORM call that deletes every row or
// drops a table in code handed to a framework's console (tinker, manage.py
// shell -c, rails runner), in its arguments or on its input.
func ormConsoleDestroys(c *cmd) string {
	args := c.args()
	console := false
	for _, w := range args {
		switch w.s {
		case "tinker", "shell", "runner", "r", "console", "dbshell":
			console = true
		}
	}
	if !console {
		return ""
	}
	for _, w := range args {
		if p := ormDestroys(w.s); p != "" {
			return p
		}
	}
	if c.in.kind == flowText {
		return ormDestroys(c.in.text)
	}
	return ""
}

// ormDestroys finds an ORM call that deletes every row of a table or
// drops it: Laravel's truncate() and unfiltered delete(), Django's
// objects.all().delete(), ActiveRecord's delete_all and destroy_all.
func ormDestroys(code string) string {
	l := strings.ReplaceAll(strings.ToLower(code), " ", "")
	for _, p := range [...]string{"->truncate()", "::truncate()", ".objects.all().delete()", ".delete_all", ".destroy_all", "schema::drop(", "schema::dropifexists(",
		"drop_table", "dropdatabase", "db::statement('drop", `db::statement("drop`, ".execute('droptable", `.execute("droptable`, ".execute('truncate", `.execute("truncate`, "execute(%q(truncate"} {
		if strings.Contains(l, p) {
			return p
		}
	}
	// DB::table('users')->delete(): no where() before it
	if i := strings.Index(l, "db::table("); i >= 0 && strings.Contains(l[i:], ")->delete()") && !strings.Contains(l[i:], "->where") {
		return "DB::table(...)->delete()"
	}
	return ""
}

// sqlpackageRule: a DACPAC published with the options that let it drop
// what the package does not hold, accept data loss, or make the database
// anew, on a server not the developer's own.
var sqlpackageRule = &rule{ID: "dacpac-publish-destructive", Level: LevelHigh, Category: CategoryDatabaseDestroy,
	Description: "publishing a database package that drops what it does not hold or accepts data loss",
	Suggestions: []string{"Generate the deployment report first (/Action:DeployReport)", "Publish without DropObjectsNotInSource and with BlockOnPossibleDataLoss"},
	names:       names("sqlpackage"),
	match: func(a *analysis, c *cmd) (bool, string) {
		args := wargs(c)
		act, _ := swVal(args, "action", "a")
		if strings.Trim(act, `"'`) != "publish" {
			return false, ""
		}
		srv, _ := swVal(args, "targetservername", "tsn")
		h, _, _ := strings.Cut(strings.Trim(srv, `"'`), `\`)
		if h == "." || loopback(h) || h == "(localdb)" {
			return false, ""
		}
		for _, w := range args {
			switch strings.ReplaceAll(strings.TrimLeft(w, "/-"), " ", "") {
			case "p:dropobjectsnotinsource=true", "p:blockonpossibledataloss=false", "p:createnewdatabase=true":
				return true, w
			}
		}
		return false, ""
	}}

// resetScript reports a SQL file named for another environment's data or
// for wiping a database.
func resetScript(name string) bool {
	l := lower(path.Base(name))
	if !strings.HasSuffix(l, ".sql") {
		return false
	}
	for _, m := range [...]string{"dev", "reset", "seed", "fixture", "dump", "drop", "truncate", "wipe", "teardown", "test", "staging", "local", "clean", "purge"} {
		if strings.Contains(l, m) {
			return true
		}
	}
	return false
}

// etcdDelKey finds etcdctl's del subcommand after any connection options
// (--endpoints URL) and returns the key it deletes ("" when none).
func etcdDelKey(args []word) (string, bool) {
	ops := positional(args)
	for i, w := range ops {
		if i > 2 {
			break
		}
		if w.s == "del" || w.s == "delete" {
			if i+1 < len(ops) {
				return ops[i+1].s, true
			}
			return "", true
		}
	}
	return "", false
}

// brokerObjectDeleted reports rabbitmqadmin's "delete queue", "purge
// queue", "delete exchange" or "delete vhost", wherever its connection
// options leave the verb.
func brokerObjectDeleted(args []word) bool {
	for i := 0; i+1 < len(args); i++ {
		if args[i].s != "delete" && args[i].s != "purge" {
			continue
		}
		switch args[i+1].s {
		case "queue", "exchange", "vhost":
			return true
		}
	}
	return false
}

// streamDataDeleted is a message stream's data deleted: NATS JetStream's
// streams and buckets removed, purged or cut to minutes, Pulsar's
// namespaces, topics and backlogs.
var streamDataDeleted = &rule{ID: "stream-data-deleted", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "deleting a message stream's data: a stream, bucket, topic or namespace removed or purged, its retention cut to nothing",
	Suggestions: []string{"Back the stream up first (nats stream backup)", "Delete one named item after review"},
	partial:     true,
	names:       names("nats", "pulsar-admin"),
	match: func(a *analysis, c *cmd) (bool, string) {
		args := c.args()
		j := joinWords(args)
		switch c.name {
		case "nats":
			// JetStream: a stream, key-value or object bucket removed or
			// purged, or a stream's history cut to minutes, on a server
			// that is not this machine's
			if natsLocal(args) {
				return false, ""
			}
			ops := lowerWords(posArgs(args, optSpec{short: "s", long: []string{"server", "creds", "context", "user", "password", "tlscert", "tlskey", "tlsca", "nkey", "timeout", "js-domain", "connection-name", "inbox-prefix", "socks-proxy", "domain"}}))
			if len(ops) > 1 && (ops[0] == "stream" || ops[0] == "str" || ops[0] == "kv" || ops[0] == "object" || ops[0] == "obj") {
				switch ops[1] {
				case "rm", "del", "delete", "purge":
					return true, j
				case "edit":
					if v, ok := optValue(args, "", "max-age"); ok && shortRetention(v) {
						return true, j
					}
				}
			}
			return false, ""
		case "pulsar-admin":
			ops := lowerWords(posArgs(args, optSpec{long: []string{"admin-url", "auth-plugin", "auth-params", "tls-trust-cert-path", "tls-cert-file", "tls-key-file", "size", "time", "role", "actions", "cluster", "clusters"}}))
			if len(ops) < 2 {
				return false, ""
			}
			switch {
			case ops[1] == "delete" && (ops[0] == "namespaces" || ops[0] == "topics" || ops[0] == "tenants" || ops[0] == "clusters"),
				ops[0] == "topics" && (ops[1] == "delete-partitioned-topic" || ops[1] == "clear-backlog" || ops[1] == "skip-all"),
				ops[0] == "namespaces" && ops[1] == "clear-backlog":
				return true, j
			case ops[0] == "namespaces" && ops[1] == "set-retention":
				size, _ := optValue(args, "", "size")
				tm, _ := optValue(args, "", "time")
				return size == "0" || tm == "0", j
			}
			return false, ""
		}
		return false, ""
	}}

func init() { ruleSets = append(ruleSets, []*rule{streamDataDeleted}) }

// lowerWords returns the words' text in lower case.
func lowerWords(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = lower(w.s)
	}
	return out
}

// natsLocal reports a nats command aimed at this machine's server (no
// --server, -s or --context, or a loopback one).
func natsLocal(args []word) bool {
	if v, ok := optValue(args, "-s", "server"); ok {
		return loopback(hostOf(v)) || loopback(v) || hostOf(v) == "localhost"
	}
	if v, ok := optValue(args, "", "context"); ok {
		return devNamed(lower(v)) || testName(v) || lower(v) == "local"
	}
	return true
}

// destructiveScriptName reports a SQL script whose name says it drops,
// empties or wipes (drop_all.sql, truncate-tables.sql, wipe.sql).
func destructiveScriptName(f string) bool {
	base := f
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	for _, t := range nameWords(base) {
		switch t {
		case "drop", "dropall", "truncate", "wipe", "purge", "nuke", "teardown", "destroy", "obliterate", "erase":
			return true
		}
	}
	return false
}

// localTestDatabase reports a command whose DATABASE_URL (given to it, or
// set earlier in the line) names a test database on this machine:
// postgres://localhost:5432/app_test.
func localTestDatabase(a *analysis, c *cmd) bool {
	u, ok := "", false
	for _, as := range c.assigns {
		if as.name == "DATABASE_URL" {
			u, ok = as.val.s, as.val.ok
		}
	}
	if !ok {
		u, ok = a.varValue("DATABASE_URL")
	}
	if !ok && envFileLoaded(a.src, testEnvFile) && !prodEnvLoaded(a.src) {
		// dotenv -e .env.test -- ...: the test settings loaded for it
		return true
	}
	if !ok || u == "" {
		return false
	}
	if l := lower(u); strings.HasPrefix(l, "file:") || strings.HasPrefix(l, "sqlite:") {
		// file:./test.db, sqlite:///tmp/ci.sqlite: a database file here
		f := strings.SplitN(strings.ReplaceAll(l, `\`, "/"), "?", 2)[0]
		db := path.Base(f)
		// (a file under /tmp is a scratch copy: sqlite:////tmp/roundtrip.db)
		return strings.Contains(db, "test") || strings.HasPrefix(db, "ci.") || strings.Contains(db, "_ci.") || strings.Contains(db, "e2e") ||
			strings.Contains(f, ":////tmp/") || strings.HasPrefix(f, "file:/tmp/")
	}
	pu, err := url.Parse(u)
	if err != nil || !isLocalHost(pu.Hostname()) {
		return false
	}
	db := lower(strings.TrimPrefix(pu.Path, "/"))
	return strings.Contains(db, "test") || strings.HasSuffix(db, "_ci") || strings.HasSuffix(db, "_e2e")
}

// prodEnvLoaded reports a line that reads a production settings file
// (.env.production) for what it runs.
func prodEnvLoaded(src string) bool { return envFileLoaded(src, prodEnvFile) }

// envFileLoaded reports a word of the line that names a settings file
// kind accepts.
func envFileLoaded(src string, kind func(string) bool) bool {
	if !strings.Contains(src, "env") {
		return false
	}
	for _, f := range strings.FieldsFunc(src, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '"' || r == '\'' || r == '|' || r == ';' || r == '&' || r == '(' || r == ')' || r == '=' || r == '<' || r == '>'
	}) {
		if kind(path.Base(strings.ReplaceAll(f, `\`, "/"))) {
			return true
		}
	}
	return false
}

// testEnvFile reports a project's file of test settings (.env.test,
// .env.ci, test.env).
func testEnvFile(base string) bool {
	l := lower(base)
	switch {
	case strings.HasPrefix(l, ".env."):
		rest := strings.TrimSuffix(l[5:], ".local")
		return rest == "test" || rest == "testing" || rest == "ci" || rest == "e2e"
	case strings.HasSuffix(l, ".env"):
		n := strings.TrimSuffix(l, ".env")
		return n == "test" || n == "testing" || n == "ci"
	}
	return false
}

// clientURLs are the URLs an HTTP client is given, with or without their
// scheme (curl takes es-prod:9200/logs as http://es-prod:9200/logs).
func clientURLs(args []word) []string {
	out := urlArgs(args)
	for _, w := range positional(args) {
		s := w.s
		if strings.Contains(s, "://") {
			continue
		}
		host, rest, ok := strings.Cut(s, "/")
		if !ok {
			continue
		}
		if h, port, ok := strings.Cut(host, ":"); ok && h != "" && allDigits(port) || host == "localhost" {
			out = append(out, "http://"+host+"/"+rest)
		}
	}
	return out
}

// testOrDevVhost reports a broker's virtual host named for development or
// tests (/dev, /test, /ci, /local).
func testOrDevVhost(vh string) bool {
	switch strings.Trim(lower(vh), "/") {
	case "dev", "development", "test", "tests", "testing", "ci", "local", "sandbox":
		return true
	}
	return false
}

// remoteConnectionAssigned reports a connection variable set on the
// command line to a server other than this machine
// (AIRFLOW__DATABASE__SQL_ALCHEMY_CONN=postgresql://db.internal/...).
func remoteConnectionAssigned(c *cmd) bool {
	for _, as := range c.assigns {
		if !connectionVar(as.name) {
			continue
		}
		v := as.val.s
		if i := strings.Index(v, "://"); i >= 0 {
			if h := hostOf(v[i:]); h != "" && !loopback(h) {
				return true
			}
		}
	}
	return false
}

// taskRules judge a project's own tasks (make, just, npm scripts) by their
// names and the environment they are pointed at.
// migrationRevertRules: a schema migration undone in production: the
// tables and columns it made go, with their data, whatever the number of
// steps.
var migrationRevertRules = []*rule{
	{ID: "db-package-over-production", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "importing or publishing a database package onto a production server (its schema, and with an import its data, replaced by the package's)",
		Suggestions: []string{"Import into a new database and compare", "Deploy schema changes through the release pipeline"},
		names:       names("sqlpackage", "sqlpackage.exe"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// sqlpackage /Action:Import /SourceFile:dev.bacpac
			// /TargetServerName:sql-prod01
			args := c.args()
			action, target := "", ""
			for _, w := range args {
				k, v, ok := strings.Cut(strings.TrimLeft(w.s, "/-"), ":")
				if !ok {
					continue
				}
				switch strings.ToLower(k) {
				case "action", "a":
					action = strings.ToLower(v)
				case "targetservername", "tsn", "targetconnectionstring", "tcs", "targetdatabasename", "tdn":
					target += " " + v
				}
			}
			if (action == "import" || action == "publish") && (isProdName(target) || prodMarker(target) || strings.Contains(lower(target), "prod")) {
				return true, "sqlpackage /Action:" + action + " onto" + target
			}
			return false, ""
		}},
	{ID: "db-migration-reverted-production", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "undoing a database migration in production (the tables and columns it made are dropped with their data)",
		Suggestions: []string{"Write a new forward migration instead, through the release process", "Try the rollback on a restored copy first"},
		names: names("knex", "sequelize", "sequelize-cli", "typeorm", "rails", "bin/rails", "rake", "alembic", "flask", "liquibase", "atlas", "goose", "flyway",
			"migrate", "dbmate", "mix", "php", "artisan", "sqitch", "yii", "node-pg-migrate", "db-migrate", "umzug", "mikro-orm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			verb := ""
			for i, l := range low {
				if strings.HasPrefix(l, "-") {
					continue
				}
				switch {
				case l == "migrate:down" || l == "migrate:rollback" || l == "migrate:reset" || l == "migrate:undo" || l == "migration:revert" || l == "migration:down",
					l == "db:migrate:undo" || l == "db:migrate:undo:all" || l == "db:rollback" || l == "db:migrate:down" || l == "ecto.rollback" || l == "migrate/down",
					l == "downgrade" && (c.name == "alembic" || c.name == "flask"),
					(l == "rollback" || l == "rollback-count" || l == "rollbackcount" || l == "rollback-to-date" || l == "rollback-one-changeset") && c.name == "liquibase",
					l == "undo" && c.name == "flyway", l == "revert" && c.name == "sqitch",
					(l == "down" || l == "down-to" || l == "reset") && (c.name == "goose" || c.name == "migrate" || c.name == "node-pg-migrate" || c.name == "db-migrate"),
					(l == "rollback" || l == "down") && c.name == "dbmate",
					l == "down" && c.name == "atlas" && i > 0 && low[i-1] == "migrate",
					l == "down" && (c.name == "umzug" || c.name == "mikro-orm"):
					verb = l
				}
				if verb != "" {
					break
				}
			}
			if verb == "" || hasAnyWord(low, "--dry-run", "--help", "-h", "--plan") || localTestDatabase(a, c) {
				return false, ""
			}
			if !touchesProduction(c) {
				return false, ""
			}
			return true, c.base + " " + verb + " in production"
		}},
	{ID: "migration-history-rewritten", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "rewriting a production database's migration history (marked applied without running, failed and missing migrations ignored, checksums reset): the schema and the history disagree from then on",
		Suggestions: []string{"Fix the migration and apply it through the release process", "Repair history on a restored copy first, reviewed"},
		names:       names("flyway", "alembic", "prisma", "npx", "liquibase"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			if hasAnyWord(low, "--help", "-h", "--dry-run") || localTestDatabase(a, c) || !touchesProduction(c) {
				return false, ""
			}
			j := strings.Join(low, " ")
			switch {
			case c.name == "flyway" && hasAnyWord(low, "repair"):
				return true, "flyway repair"
			case c.name == "flyway" && hasAnyWord(low, "migrate") && (strings.Contains(j, "-outoforder=true") || strings.Contains(j, "ignoremigrationpatterns=") && strings.Contains(j, "failed")):
				return true, "flyway migrate ignoring missing, failed or out-of-order migrations"
			case c.name == "alembic" && hasAnyWord(low, "stamp"):
				return true, "alembic stamp"
			case (c.name == "prisma" || c.name == "npx") && strings.Contains(j, "migrate resolve"):
				return true, "prisma migrate resolve"
			case c.name == "liquibase" && hasAnyWord(low, "changelog-sync", "changelogsync", "changelog-sync-force", "clear-checksums", "clearchecksums", "mark-next-changeset-ran"):
				return true, "liquibase " + j
			}
			return false, ""
		}},
	{ID: "online-schema-change-drops", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "an online schema change run for real that drops columns, indexes or keys of a shared database",
		Suggestions: []string{"Run it without --execute first (gh-ost's noop, pt-osc's --dry-run)", "Drop in a reviewed migration, after a backup"},
		names:       names("gh-ost", "pt-online-schema-change"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			if !hasAnyWord(low, "--execute") || hasAnyWord(low, "--dry-run") {
				return false, ""
			}
			alter, _ := optValue(c.args(), "", "alter")
			l := strings.ToLower(alter)
			if strings.Contains(l, "drop ") || strings.Contains(l, "drop\t") {
				if h, ok := optValue(c.args(), "-h", "host"); ok && isLocalHost(h) {
					return false, ""
				}
				return true, c.name + " --alter=\"" + alter + "\" --execute"
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, migrationRevertRules) }

var taskRules = []*rule{
	{ID: "task-resets-production", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "running a project task that resets, drops or destroys, pointed at production",
		Suggestions: []string{"Run the task against a development or test environment", "Let the release process change production"},
		names:       names("make", "gmake", "just", "task", "mage", "rake", "invoke", "npm", "yarn", "pnpm", "bun"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			target := ""
			for i, w := range args {
				if strings.HasPrefix(w.s, "-") || strings.Contains(w.s, "=") {
					continue
				}
				if (c.name == "npm" || c.name == "pnpm" || c.name == "bun" || c.name == "yarn") && i == 0 && w.s == "run" {
					continue
				}
				if destroyingTask(w.s) {
					target = w.s
					break
				}
				if c.name == "npm" || c.name == "pnpm" || c.name == "bun" {
					return false, "" // npm's first word is its command
				}
			}
			// (production's settings file read on the line for it:
			// DATABASE_URL=$(grep ... .env.production) npm run db:reset)
			if target == "" || !touchesProduction(c) && !prodEnvLoaded(a.src) {
				return false, ""
			}
			return true, c.name + " " + target + " in production"
		}},
}

func init() { ruleSets = append(ruleSets, taskRules) }

// destroyingTask reports a task name whose parts say it resets, drops or
// destroys (db-reset, db:drop, destroy_all, nuke).
func destroyingTask(s string) bool {
	l := lower(s)
	if !hasAny(l, "reset", "drop", "destroy", "wipe", "nuke", "teardown", "purge", "truncate", "flush", "erase") {
		return false
	}
	for part := range strings.FieldsFuncSeq(l, func(r rune) bool { return r == '-' || r == '_' || r == ':' || r == '.' }) {
		switch part {
		case "reset", "drop", "destroy", "wipe", "nuke", "teardown", "purge", "truncate", "flush", "flushall", "erase", "dropdb":
			return true
		}
	}
	return false
}

// manySteps reports a migration rollback of three steps or more
// (STEP=20): the tables of those migrations go, with their data.
func manySteps(args []word) bool {
	for _, w := range args {
		if v, ok := strings.CutPrefix(w.s, "STEP="); ok {
			n, err := strconv.Atoi(v)
			return err == nil && n >= 3
		}
	}
	return false
}

// railsTaskBase returns a Rails database task without the database name
// of a multi-database application (db:drop:primary is db:drop on the
// primary database).
func railsTaskBase(t string) string {
	for _, base := range [...]string{"db:drop:", "db:reset:", "db:purge:", "db:schema:load:", "db:truncate_all:", "db:migrate:reset:"} {
		if rest, ok := strings.CutPrefix(t, base); ok && rest != "" && rest != "all" && !strings.Contains(rest, ":") {
			return strings.TrimSuffix(base, ":")
		}
	}
	return t
}

// inMemoryJDBC reports a JDBC URL of a database that lives only in the
// process's memory (H2's and HSQLDB's mem:, Derby's memory:, SQLite's
// :memory:).
func inMemoryJDBC(l string) bool {
	return hasAny(l, "jdbc:h2:mem:", "jdbc:hsqldb:mem:", "jdbc:derby:memory:", "jdbc:sqlite::memory:")
}

// sqlFileRead returns the SQL dump a reader puts on its output (cat,
// zcat, gunzip -c, pv of dump.sql or dump.sql.gz), or "".
func sqlFileRead(r *cmd) string {
	switch r.name {
	case "cat", "zcat", "gzcat", "gunzip", "gzip", "xzcat", "xz", "bzcat", "bzip2", "zstdcat", "zstd", "pv", "unzstd":
	default:
		return ""
	}
	for _, w := range positional(r.args()) {
		l := lower(w.s)
		for _, ext := range [...]string{"", ".gz", ".xz", ".bz2", ".zst"} {
			if strings.HasSuffix(l, ".sql"+ext) {
				return w.s
			}
		}
	}
	return ""
}
