package guard

import (
	"regexp"
	"strings"
)

// sqlScan is what the statements a database client runs do.
type sqlScan struct {
	dropDB    string
	dropTable string
	truncate  string
	deleteAll string
	// deleteSome is a DELETE of the rows a WHERE clause picks
	deleteSome string
	updateAll  string
	// updateSome is an UPDATE of the rows a WHERE clause picks
	updateSome string
	dropMinor  string
	// serverExec is a statement that makes the database server run an
	// operating-system command, load native code or write a file of its
	// choosing on its host.
	serverExec string
	// serverPriv is a statement that makes an account all-powerful or
	// reachable from anywhere.
	serverPriv string
	// serverExport is a statement that sends query results off the
	// server: to a URL, or to object storage with keys written inline
	// (someone else's account)
	serverExport string
	// serverOpened is a command that opens a Redis server to the network
	// (protected mode off, bound to every address, no password); SQL
	// servers' own are serverPriv
	serverOpened string
	// secretsRead is a SELECT of the columns that hold credentials
	// (passwords, their hashes, API tokens) or of the server's own
	// password table: the results are printed where the command shows
	// them
	secretsRead string
	// serverStopped is a statement that takes a shared server out of
	// service or weakens its copies: shut down, every session killed, a
	// replica made writable, replication cut to one copy
	serverStopped string
}

func (s *sqlScan) any() bool {
	return s.dropDB != "" || s.dropTable != "" || s.truncate != "" || s.deleteAll != "" || s.deleteSome != "" || s.updateAll != "" || s.updateSome != "" || s.dropMinor != "" || s.serverExec != "" ||
		s.serverPriv != "" || s.serverExport != "" || s.serverOpened != "" || s.secretsRead != "" || s.serverStopped != ""
}

// serverExecSQL are what makes a database server run a program, load
// native code or write files on its host, engine by engine, as their
// documentation names them (upper case, spaces single).
var serverExecSQL = [...]string{
	// PostgreSQL
	"FROM PROGRAM", "TO PROGRAM", "PLPYTHON3U", "PLPYTHONU", "PLPERLU", "PLTCLU", "PLSH", "LOAD '/", "SHARED_PRELOAD_LIBRARIES",
	// MySQL and MariaDB
	"SYS_EXEC(", "SYS_EVAL(", "INSTALL PLUGIN", "SONAME", "INTO DUMPFILE",
	// SQL Server
	"XP_CMDSHELL", "SP_OACREATE", "SP_EXECUTE_EXTERNAL_SCRIPT", "PERMISSION_SET = UNSAFE", "PERMISSION_SET=UNSAFE",
	// SQLite, DuckDB and ClickHouse
	"LOAD_EXTENSION(", "ALLOW_UNSIGNED_EXTENSIONS", "EXECUTABLE(",
}

// serverPrivOf returns what in text (SQL) makes an account a superuser,
// gives it every right with the right to give them on, lets the server
// listen everywhere, or deletes the logs replicas and restores need.
func serverPrivOf(text string) string {
	u := strings.Join(strings.Fields(strings.ToUpper(text)), " ")
	switch {
	case strings.Contains(u, "UNSET NETWORK_POLICY") || strings.Contains(u, "UNSET MASKING POLICY") || strings.Contains(u, "UNSET ROW ACCESS POLICY") ||
		strings.Contains(u, "DROP MASKING POLICY") || strings.Contains(u, "DROP NETWORK POLICY"):
		// Snowflake: an account reachable from anywhere, a column's
		// values shown unmasked to every role
		return "a network or masking policy removed"
	case (strings.Contains(u, "CREATE ROLE") || strings.Contains(u, "CREATE USER") || strings.Contains(u, "ALTER ROLE") || strings.Contains(u, "ALTER USER")) &&
		(strings.Contains(u, " SUPERUSER") && !strings.Contains(u, "NOSUPERUSER") || sqlHasWord(u, "CREATEUSER")):
		// (CREATEUSER: Redshift's and old PostgreSQL's superuser)
		return "a superuser role"
	case strings.Contains(u, "NETWORK POLICY") && strings.Contains(u, "ALLOWED_IP_LIST") && strings.Contains(u, "'0.0.0.0/0'"):
		return "a network policy opened to every address"
	case strings.Contains(u, "GRANT ALL") && strings.Contains(u, "ON *.*"):
		return "every right on every database"
	case strings.Contains(u, "SYSADMIN") && (strings.Contains(u, "ADD MEMBER") || strings.Contains(u, "SP_ADDSRVROLEMEMBER")):
		return "a sysadmin member"
	case strings.Contains(u, "PG_EXECUTE_SERVER_PROGRAM") && strings.HasPrefix(strings.TrimSpace(u), "GRANT"):
		return "running programs on the server granted"
	case strings.HasPrefix(strings.TrimSpace(u), "GRANT") && (strings.Contains(u, "PG_READ_ALL_DATA") || strings.Contains(u, "PG_WRITE_ALL_DATA") ||
		strings.Contains(u, "PG_READ_SERVER_FILES") || strings.Contains(u, "PG_WRITE_SERVER_FILES") || strings.Contains(u, "RDS_SUPERUSER") ||
		strings.Contains(u, "AZURE_PG_ADMIN") || strings.Contains(u, "CLOUDSQLSUPERUSER")):
		return "every table's data, or the server's files, granted"
	case strings.Contains(u, "LISTEN_ADDRESSES") && strings.Contains(u, "'*'"):
		return "the server listening on every address"
	case strings.Contains(u, "DISABLE ROW LEVEL SECURITY") || strings.Contains(u, "NO FORCE ROW LEVEL SECURITY"):
		return "row-level security turned off (every row readable by every role the table is granted to)"
	case strings.Contains(u, "GRANT ALL") && (strings.HasSuffix(u, " TO PUBLIC") || strings.Contains(u, " TO PUBLIC;") || strings.HasSuffix(u, " TO ANON") || strings.Contains(u, " TO ANON;")):
		return "every right granted to every user"
	case strings.Contains(u, "RESET MASTER") || strings.Contains(u, "PURGE BINARY LOGS") || strings.Contains(u, "PG_DROP_REPLICATION_SLOT("):
		return "the logs replicas and point-in-time restores need"
	case strings.HasPrefix(strings.TrimSpace(u), "GRANT ROLE") && (strings.Contains(u, "ACCOUNTADMIN") || strings.Contains(u, "SECURITYADMIN") || strings.Contains(u, "ORGADMIN")):
		return "Snowflake's account administrator role granted"
	case strings.Contains(u, "ALTER ACCOUNT UNSET NETWORK_POLICY") || strings.Contains(u, "ALTER ACCOUNT SET NETWORK_POLICY = NONE"):
		return "the account reachable from every address"
	case strings.Contains(u, "PGAUDIT.LOG") && (strings.Contains(u, "'NONE'") || strings.Contains(u, "RESET PGAUDIT")) || strings.Contains(u, "DROP EXTENSION PGAUDIT") ||
		strings.Contains(u, "DROP EXTENSION IF EXISTS PGAUDIT"):
		return "the audit log switched off (pgaudit)"
	case strings.Contains(u, "ALTER SYSTEM SET LOG_STATEMENT") && (strings.Contains(u, "'NONE'") || strings.Contains(u, "= NONE") || strings.Contains(u, "TO NONE")):
		return "the server's statement log switched off"
	case strings.Contains(u, "DATA_RETENTION_TIME_IN_DAYS = 0") || strings.Contains(u, "DATA_RETENTION_TIME_IN_DAYS=0"):
		return "point-in-time restores switched off (Time Travel kept for 0 days)"
	case strings.Contains(u, "VACUUM ") && strings.Contains(u, " RETAIN 0 HOURS"), strings.Contains(u, "RETENTIONDURATIONCHECK.ENABLED") && strings.Contains(u, "FALSE"):
		// Delta Lake's VACUUM ... RETAIN 0 HOURS: every earlier version
		// of the table's files deleted, and with them time travel
		return "every earlier version of a Delta table deleted (VACUUM RETAIN 0 HOURS)"
	case strings.HasPrefix(strings.TrimSpace(u), "GRANT") && (sqlHasWord(u, "DBA") || sqlHasWord(u, "SYSDBA") || strings.Contains(u, "DATA ADMIN") ||
		strings.Contains(u, "USER ADMIN") || strings.Contains(u, "ROLE ADMIN") || strings.Contains(u, "GRANT ALL PRIVILEGES TO")):
		// Oracle's DBA role and system privileges, SAP HANA's
		// administrators' system privileges
		return "a database administrator's role granted"
	case strings.Contains(u, "ALTER USER SYSTEM ACTIVATE"):
		return "HANA's SYSTEM superuser activated"
	case strings.Contains(u, "IDENTIFIED WITH NO_PASSWORD"):
		return "an account left without a password"
	case strings.Contains(u, "ON ALL TABLES") && strings.HasPrefix(strings.TrimSpace(u), "GRANT") && (strings.Contains(u, " TO ROLE PUBLIC") || strings.Contains(u, " TO PUBLIC")):
		return "every table of a schema granted to every user"
	}
	if m := sqlPasswordCleared.FindStringSubmatch(u); m != nil && guessablePassword(strings.Trim(m[1], "'\"`"), "") {
		// MySQL's SET PASSWORD FOR 'root'@'%' = '' (or PASSWORD(''))
		return "an administrator's password set to a guessable one"
	}
	if !strings.Contains(u, "PASSWORD") && !strings.Contains(u, "IDENTIFIED") {
		return ""
	}
	if m := sqlPasswordSet.FindStringSubmatch(text); m != nil && guessablePassword(strings.Trim(m[1], "'\"`"), m[2]) {
		return "an administrator's password set to a guessable one"
	}
	return ""
}

// sqlPasswordSet matches a statement setting an administrator's
// password: PostgreSQL's ALTER USER postgres PASSWORD 'x', MySQL's
// ALTER USER 'root'@'%' IDENTIFIED BY 'x'.
// sqlPasswordCleared matches MySQL's SET PASSWORD FOR user = ” (upper
// case, spaces single).
var sqlPasswordCleared = regexp.MustCompile(`SET PASSWORD FOR ([^\s@=]+)(?:@\S+)? ?= ?(?:PASSWORD\(''\)|'')`)

var sqlPasswordSet = regexp.MustCompile(`(?i)\b(?:alter|create)\s+(?:user|role)\s+([^\s@]+)(?:@\S+)?\s+(?:with\s+)?(?:encrypted\s+)?(?:password|identified\s+by)\s+'([^']*)'`)

// guessablePassword reports an administrator account (postgres, root,
// sa, admin) given its own name, an empty or a well-known password.
func guessablePassword(user, pw string) bool {
	switch strings.ToLower(user) {
	case "postgres", "root", "sa", "admin", "administrator", "rdsadmin", "mysql", "dba":
	default:
		return false
	}
	switch l := strings.ToLower(pw); l {
	case "", "password", "postgres", "root", "admin", "123456", "12345678", "changeme", "secret", "toor", "pass", "letmein", strings.ToLower(user):
		return true
	default:
		// letmein123, Password1!, temp1234: a word everyone tries first,
		// a number after it
		for _, w := range [...]string{"letmein", "password", "passw0rd", "changeme", "admin", "temp", "welcome", "qwerty"} {
			if strings.HasPrefix(l, w) && len(l) < len(w)+6 {
				return true
			}
		}
	}
	return false
}

// serverExecOf returns the statement of text (SQL) that runs code on the
// database server's host, or "".
func serverExecOf(text string) string {
	u := strings.Join(strings.Fields(strings.ToUpper(text)), " ")
	for _, k := range serverExecSQL {
		if strings.Contains(u, k) {
			if k == "XP_CMDSHELL" && readsConfiguration(u) {
				continue // WHERE name = 'xp_cmdshell': its setting looked at
			}
			return k
		}
	}
	// a query written into the server's web root, keys or cron: a page or
	// a job that runs
	if i := strings.Index(u, "INTO OUTFILE '"); i >= 0 {
		dest := strings.ToLower(u[i+len("INTO OUTFILE '"):])
		for _, k := range [...]string{"/var/www", "/www/", ".php", ".jsp", ".asp", "authorized_keys", "/cron"} {
			if strings.Contains(dest, k) {
				return "INTO OUTFILE a page or a job"
			}
		}
	}
	// DuckDB: INSTALL x FROM 'https://...' (an extension from anywhere)
	if i := strings.Index(u, "INSTALL "); i >= 0 && strings.Contains(u[i:], " FROM 'HTTP") {
		return "INSTALL ... FROM URL"
	}
	return ""
}

// serverExportOf finds a statement that sends query results off the
// server, engine by engine as their documentation names it: ClickHouse's
// url() and s3() table functions written to, DuckDB's and Snowflake's
// COPY ... TO a URL, Redshift's UNLOAD, BigQuery's EXPORT DATA, with the
// destination's keys written into the statement (the account is not the
// caller's own, or the keys would come from its configuration).
func serverExportOf(text string) string {
	u := strings.Join(strings.Fields(strings.ToUpper(text)), " ")
	if strings.Contains(u, "INSERT INTO FUNCTION URL(") || strings.Contains(u, "INSERT INTO TABLE FUNCTION URL(") {
		return "INSERT INTO FUNCTION url(...)"
	}
	// Snowflake's ALTER SHARE ... ADD ACCOUNTS = X: the share's tables
	// readable from another account
	if strings.Contains(u, "ALTER SHARE ") && (strings.Contains(u, " ADD ACCOUNTS") || strings.Contains(u, " SET ACCOUNTS")) {
		return "tables shared with another Snowflake account"
	}
	inlineKeys := strings.Contains(u, "AWS_KEY_ID") || strings.Contains(u, "AWS_SECRET") || strings.Contains(u, "ACCESS_KEY_ID") ||
		strings.Contains(u, "SECRET_ACCESS_KEY") || strings.Contains(u, "AZURE_SAS_TOKEN") || strings.Contains(u, "CREDENTIALS '") ||
		strings.Contains(u, "CREDENTIALS=(") || strings.Contains(u, "CREDENTIALS = (")
	toURL := func(key string) bool {
		i := strings.Index(u, key)
		if i < 0 {
			return false
		}
		rest := u[i+len(key):]
		return strings.HasPrefix(rest, "'HTTP") || strings.HasPrefix(rest, "'S3://") || strings.HasPrefix(rest, "'GS://") ||
			strings.HasPrefix(rest, "'GCS://") || strings.HasPrefix(rest, "'AZURE://") || strings.HasPrefix(rest, "'AZ://") || strings.HasPrefix(rest, "'R2://")
	}
	// SQL Server: BACKUP DATABASE ... TO DISK = '\\IP\share\x.bak', a
	// whole database written to a machine known only by its address
	if i := strings.Index(u, "BACKUP DATABASE"); i >= 0 {
		if j := strings.Index(u[i:], "TO DISK"); j >= 0 {
			rest := strings.TrimLeft(u[i+j+len("TO DISK"):], " =")
			if host, ok := uncHost(strings.TrimPrefix(strings.TrimPrefix(rest, "N"), "'")); ok { // (N'...': a Unicode literal)
				if isPublicIP(host) {
					return "BACKUP DATABASE to the share of " + host
				}
			}
		}
	}
	switch {
	case strings.Contains(u, "INSERT INTO FUNCTION S3(") && inlineKeys, strings.Contains(u, "INSERT INTO FUNCTION S3('HTTP") && strings.Count(u, "','") >= 2,
		// a bucket's public URL written to without keys: only a bucket
		// anyone may write to takes it
		strings.Contains(u, "INSERT INTO FUNCTION S3('HTTP") && strings.Contains(u, ".AMAZONAWS.COM/"):
		return "INSERT INTO FUNCTION s3(...) with keys"
	case toURL("COPY INTO ") && inlineKeys:
		return "COPY INTO an outside location with keys"
	case strings.Contains(u, "UNLOAD (") && toURL(") TO ") && inlineKeys:
		return "UNLOAD to an outside bucket with keys"
	case strings.Contains(u, "COPY ") && toURL(" TO ") && (inlineKeys || strings.Contains(u, " TO 'HTTP")):
		return "COPY ... TO a URL"
	}
	return ""
}

var dbClients = names("psql", "mysql", "sqlite3", "sqlite", "duckdb", "clickhouse-client", "clickhouse", "cockroach", "sqlcmd",
	"cqlsh", "snowsql", "snow", "bq", "mongo", "redis-cli", "valkey-cli", "keydb-cli", "trino", "presto", "usql", "pgcli", "mycli", "litecli", "vsql", "isql",
	"cypher-shell", "mariadb", "mongosh", "sqlplus", "db2", "beeline", "impala-shell", "influx", "spark-sql", "hive", "heroku", "aws", "fly", "flyctl", "prisma", "gcloud", "dbt",
	"surreal", "hdbsql", "dbsqlcli")

// dbtSQLArg is the statement of a dbt run-operation's arguments
// ({sql: 'DROP ...'}, {"query": "..."}).
var dbtSQLArg = regexp.MustCompile(`(?i)["']?(?:sql|query|statement)["']?\s*:\s*(?:'([^']*)'|"([^"]*)")`)

// statementOptions are the options with which database clients are
// given statements to run, client by client as their documentation names
// them (InfluxQL's -execute, the Hive family's -e, sqlcmd's -Q and -q).
var statementOptions = map[string][]struct{ short, long string }{
	"influx":            {{"-execute", "execute"}},
	"beeline":           {{"-e", ""}},
	"hive":              {{"-e", ""}},
	"spark-sql":         {{"-e", ""}},
	"impala-shell":      {{"-q", "query"}},
	"cockroach":         {{"-e", "execute"}},
	"cqlsh":             {{"-e", "execute"}},
	"isql":              {{"-e", "execute"}},
	"sqlcmd":            {{"-Q", ""}, {"-q", ""}},
	"snowsql":           {{"-q", "query"}},
	"snow":              {{"-q", "query"}}, // snow sql -q: Snowflake's newer client
	"clickhouse-client": {{"-q", "query"}, {"", "execute"}},
	"clickhouse":        {{"-q", "query"}, {"", "execute"}},
	"trino":             {{"-q", "query"}, {"", "execute"}},
	"presto":            {{"-q", "query"}, {"", "execute"}},
	"dbsqlcli":          {{"-e", "execute"}}, // Databricks SQL's client
}

// redisCLIOpts are redis-cli's (and its forks') options that take a value.
var redisCLIOpts = optSpec{short: "hpsanurdDi", long: []string{"user", "pass", "cacert", "cacertdir", "cert", "key", "sni", "tls-ciphers",
	"tls-ciphersuites", "rdb", "functions-rdb", "pipe-timeout", "eval", "pattern", "quoted-pattern", "count", "memkeys-samples", "intrinsic-latency"}}

// sqlOf returns the statements a database client runs (from its options
// or its standard input) and its query language ("sql", "mongo",
// "redis").
func (a *analysis) sqlOf(c *cmd) (string, string) {
	args := c.args()
	var b strings.Builder
	add := func(s string) {
		b.WriteString(s)
		b.WriteString(";\n")
	}
	lang := "sql"
	stdinStatements := c.name != "aws" && c.name != "dbt" && c.name != "heroku" && c.name != "fly" && c.name != "flyctl" && c.name != "prisma"
	for _, o := range statementOptions[c.name] {
		if v, ok := optValue(args, o.short, o.long); ok {
			add(v)
		}
	}
	switch c.name {
	case "psql", "pgcli", "usql", "vsql":
		for i, w := range args {
			switch {
			case (w.s == "-c" || w.s == "--command") && i+1 < len(args):
				add(args[i+1].s)
			case strings.HasPrefix(w.s, "--command="):
				add(w.s[len("--command="):])
			case strings.HasPrefix(w.s, "-c") && len(w.s) > 2:
				add(w.s[2:])
			case flagClusterEnds(w.s, 'c', "cdfhpUvoLFRTP") && i+1 < len(args):
				add(args[i+1].s) // psql -Atc 'SQL'
			}
		}
	case "mysql", "mycli", "mariadb":
		for i, w := range args {
			switch {
			case (w.s == "-e" || w.s == "--execute") && i+1 < len(args):
				add(args[i+1].s)
			case strings.HasPrefix(w.s, "--execute="):
				add(w.s[len("--execute="):])
			case strings.HasPrefix(w.s, "-e") && len(w.s) > 2:
				add(w.s[2:])
			case flagClusterEnds(w.s, 'e', "ehupPDSOWT") && i+1 < len(args):
				add(args[i+1].s) // mysql -Ne 'SQL'
			}
		}
	case "sqlite3", "sqlite", "duckdb", "litecli":
		ops := posArgs(args, optSpec{short: "c", long: []string{"cmd", "init", "separator", "newline", "nullvalue"}})
		if len(ops) > 1 {
			for _, w := range ops[1:] {
				add(w.s)
			}
		}
		if v, ok := optValue(args, "-cmd", "cmd"); ok {
			add(v)
		}
		if v, ok := optValue(args, "-c", ""); ok && c.name == "duckdb" {
			add(v)
		}
	case "heroku":
		// heroku pg:psql -a APP -c 'SQL'; pg:psql and redis:cli also run
		// what they read
		if len(args) > 0 && args[0].s == "pg:psql" {
			if v, ok := optValue(args, "-c", "command"); ok {
				add(v)
			}
			stdinStatements = true
		}
		if len(args) > 0 && args[0].s == "redis:cli" {
			lang = "redis"
			stdinStatements = true
		}
	case "fly", "flyctl":
		// fly postgres connect -a APP: a psql on the app's database,
		// running what it reads
		if p := cliPath(c); len(p) >= 2 && (p[0] == "postgres" || p[0] == "pg" || p[0] == "mpg") && p[1] == "connect" {
			stdinStatements = true
		}
	case "aws":
		// aws rds-data execute-statement --sql 'SQL', aws athena
		// start-query-execution --query-string 'SQL', aws
		// redshift-data execute-statement --sql 'SQL'
		if len(args) > 1 && (args[0].s == "rds-data" || args[0].s == "redshift-data") {
			if v, ok := optValue(args, "", "sql"); ok {
				add(v)
			}
		}
		if len(args) > 1 && args[0].s == "athena" && args[1].s == "start-query-execution" {
			if v, ok := optValue(args, "", "query-string"); ok {
				add(v)
			}
		}
	case "dbt":
		// dbt run-operation run_sql --args "{sql: 'DROP ...'}": a
		// macro that runs the statement it is given
		if p := c.operands(); len(p) > 0 && p[0].s == "run-operation" {
			if v, ok := optValue(args, "", "args"); ok {
				if m := dbtSQLArg.FindStringSubmatch(v); m != nil {
					add(m[1] + m[2])
				}
			}
		}
	case "gcloud":
		// gcloud spanner databases execute-sql DB --instance=I --sql='SQL'
		if ops := c.operands(); len(ops) > 2 && ops[0].s == "spanner" && ops[1].s == "databases" && ops[2].s == "execute-sql" {
			if v, ok := optValue(args, "", "sql"); ok {
				add(v)
			}
		}
	case "prisma":
		// prisma db execute --stdin, or --file FILE: the statements it is
		// given, run on the database of --url or DATABASE_URL
		if p := c.operands(); len(p) >= 2 && p[0].s == "db" && p[1].s == "execute" {
			stdinStatements = hasWord(args, "--stdin")
		}
	case "hdbsql":
		// hdbsql -n HOST:PORT -u USER -p PW "SQL": SAP HANA's client runs
		// its operands
		if ops := posArgs(args, optSpec{short: "nupdiUIocBgm"}); len(ops) > 0 {
			add(joinWords(ops))
		}
	case "db2":
		// db2 "DROP TABLE x": the statement is the operand
		if ops := c.operands(); len(ops) > 0 {
			add(joinWords(ops))
		}
	case "bq":
		ops := c.operands()
		if len(ops) > 1 && ops[0].s == "query" {
			add(ops[len(ops)-1].s)
		}
		if len(ops) > 1 && ops[0].s == "rm" && (hasWord(args, "-r") || hasWord(args, "-f")) {
			add("DROP TABLE bq")
		}
		if len(ops) > 1 && ops[0].s == "update" && strings.Contains(ops[len(ops)-1].s, ".") {
			// bq update --expiration 3600 ds.table: the table deletes
			// itself in an hour (0 removes the expiry)
			if v, ok := optValue(args, "", "expiration"); ok && v != "0" {
				add("DROP TABLE bq")
			}
		}
	case "snow":
		// snow object drop database RAW -c prod: Snowflake's DROP
		if ops := plainWords(c.lowerArgs()); len(ops) > 3 && ops[0] == "object" && ops[1] == "drop" {
			switch ops[2] {
			case "database", "schema", "table":
				add("DROP " + strings.ToUpper(ops[2]) + " " + ops[3])
			}
		}
	case "mongo", "mongosh":
		lang = "mongo"
		if v, ok := optValue(args, "", "eval"); ok {
			add(v)
		}
	case "redis-cli", "valkey-cli", "keydb-cli":
		lang = "redis"
		// the command is the operands: -c (cluster) and --tls take no
		// value, so that the host after them is not taken for one
		ops := posArgs(args, redisCLIOpts)
		for i, w := range args {
			if w.s == "--cluster" && i+3 < len(args) && strings.EqualFold(args[i+1].s, "call") {
				// --cluster call HOST:PORT CMD...: CMD run on every node
				ops = args[i+3:]
				break
			}
		}
		if len(ops) > 0 {
			add(joinWords(ops))
		}
	}
	for _, f := range sqlScriptFiles(c.name, args) {
		// psql -f /tmp/x.sql, sqlcmd -i %TEMP%\c.sql: a script the line
		// wrote earlier runs
		if t, ok := a.writtenText(f.s, c.cwd); ok {
			add(t)
		}
	}
	if c.in.kind == flowText && (c.script == nil || c.script.kind != scriptFile) && stdinStatements {
		// (the cloud clients' input is data, not statements)
		b.WriteString(c.in.text)
	}
	return b.String(), lang
}

// sqlScriptFiles are the script files a database client is told to run.
func sqlScriptFiles(name string, args []word) []word {
	var opts []string
	switch name {
	case "psql", "pgcli", "usql", "vsql", "snowsql", "cockroach":
		opts = []string{"-f", "--file"}
	case "sqlcmd":
		opts = []string{"-i", "-input-file", "--input-file"}
	case "clickhouse-client", "clickhouse":
		opts = []string{"--queries-file"}
	case "prisma":
		opts = []string{"--file"}
	default:
		return nil
	}
	var out []word
	for i, w := range args {
		for _, o := range opts {
			switch {
			case w.s == o && i+1 < len(args):
				out = append(out, args[i+1])
			case strings.HasPrefix(o, "--") && strings.HasPrefix(w.s, o+"="):
				out = append(out, word{s: w.s[len(o)+1:], ok: w.ok})
			}
		}
	}
	return out
}

// writtenText is the text written earlier in the line to the file p.
func (a *analysis) writtenText(p, cwd string) (string, bool) {
	if len(a.files) == 0 {
		return "", false
	}
	f, ok := a.writtenFile(p, cwd)
	if !ok && a.winHome() != "" {
		f, ok = a.files[a.winAbs(p)]
	}
	if !ok || f.kind != flowText {
		return "", false
	}
	return f.text, true
}

// scanSQL analyses the statements of a client.
func (a *analysis) scanSQLOf(c *cmd) *sqlScan {
	if c.sqlDone {
		return c.sql
	}
	c.sqlDone = true
	text, lang := a.sqlOf(c)
	if text == "" {
		return nil
	}
	var s sqlScan
	switch lang {
	case "mongo":
		l := strings.ToLower(text)
		switch {
		case strings.Contains(l, "system.users.find") || strings.Contains(l, "getusers(") && strings.Contains(l, "showcredentials"):
			s.secretsRead = "the server's password hashes (system.users)"
		}
		switch {
		case strings.Contains(l, "shutdownserver(") || strings.Contains(l, "shutdown:") || strings.Contains(l, "shutdown :") || strings.Contains(l, "\"shutdown\"") || strings.Contains(l, "stepdown("):
			s.serverStopped = "the server shut down or stepped down"
		case strings.Contains(l, "rs.remove("):
			s.serverStopped = "a member removed from the replica set (rs.remove)"
		}
		if strings.Contains(l, ".explain(") {
			break // a query plan: nothing runs
		}
		switch {
		case strings.Contains(l, "dropdatabase("):
			s.dropDB = "db.dropDatabase()"
		case strings.Contains(l, ".drop()"):
			s.dropTable = "collection.drop()"
		case strings.Contains(l, ".deletemany({})") || strings.Contains(l, ".remove({})") || strings.Contains(l, ".deletemany({ })"):
			s.deleteAll = "deleteMany({})"
		case strings.Contains(l, ".updatemany({},") || strings.Contains(l, ".updatemany({ },") || strings.Contains(l, ".update({},") && strings.Contains(strings.ReplaceAll(l, " ", ""), "multi:true"):
			// every document of the collection rewritten
			s.updateAll = "updateMany({}, ...)"
		}
		if strings.Contains(l, ".find(") && hasAny(l, "passwordhash", "password:", "password_hash", "mfasecret", "mfa_secret", "totpsecret", "apikey:", "api_key:", "resettoken", "reset_token") {
			// a projection of the users' credentials
			s.secretsRead = "users' credentials (a find() projecting them)"
		}
	case "redis":
		for _, line := range strings.Split(text, "\n") {
			f := strings.Fields(strings.TrimSuffix(strings.TrimSpace(line), ";"))
			if len(f) == 0 {
				continue
			}
			switch strings.ToUpper(f[0]) {
			case "FLUSHALL":
				s.dropDB = "FLUSHALL"
			case "FLUSHDB":
				s.dropTable = "FLUSHDB"
			case "SHUTDOWN":
				// NOSAVE: what was written since the last snapshot is lost
				if len(f) > 1 && strings.EqualFold(f[1], "NOSAVE") {
					s.deleteAll = "SHUTDOWN NOSAVE"
				}
				s.serverStopped = "SHUTDOWN"
			case "DEBUG":
				if len(f) > 1 && (strings.EqualFold(f[1], "SEGFAULT") || strings.EqualFold(f[1], "SLEEP")) {
					s.serverStopped = "DEBUG " + f[1]
				}

			case "MIGRATE":
				// MIGRATE host port key db timeout: the key moved to
				// another server (and deleted here), one known only by
				// its address
				if len(f) > 1 && isPublicIP(f[1]) {
					s.serverExport = "MIGRATE to " + f[1]
				}
			case "DEL", "UNLINK":
				// keys fed in by xargs (from a --scan of a pattern) on a
				// server elsewhere: every key found is deleted
				if c.xargs {
					h, ok := optValue(c.args(), "-h", "")
					if u, uok := optValue(c.args(), "-u", ""); !ok && uok {
						h, ok = hostOf(u), true // -u redis://HOST:PORT
					}
					if ok && !isLocalHost(h) {
						s.deleteAll = f[0] + " of every key listed"
					}
				} else if len(f) > 1 {
					// named keys: the rules that judge rows deleted on a
					// production server judge them
					s.deleteSome = f[0] + " " + strings.Join(f[1:], " ")
				}
			case "EVAL", "EVALSHA_RO", "EVAL_RO", "FCALL":
				// EVAL "return redis.call('DEL', unpack(redis.call('KEYS',
				// 'cart:*')))" 0 on a server elsewhere: every key matched,
				// deleted by the server's own Lua
				script := strings.ToLower(strings.Join(f[1:], " "))
				if hasAny(script, "'del'", "\"del\"", "'unlink'", "\"unlink\"") && hasAny(script, "'keys'", "\"keys\"", "'scan'", "\"scan\"") {
					h, ok := optValue(c.args(), "-h", "")
					if u, uok := optValue(c.args(), "-u", ""); !ok && uok {
						h, ok = hostOf(u), true
					}
					if ok && !isLocalHost(h) {
						s.deleteAll = "EVAL deleting every key a pattern matches"
					}
				}
			case "MODULE":
				// a module is native code loaded into the server
				if len(f) > 1 && strings.EqualFold(f[1], "LOAD") {
					s.serverExec = "MODULE LOAD"
				}
			case "ACL":
				// ACL SETUSER default on nopass ~* +@all: every client that
				// reaches the server may do anything without a password
				if len(f) > 2 && strings.EqualFold(f[1], "SETUSER") && containsFold(f[3:], "nopass") && (strings.EqualFold(f[2], "default") || containsFold(f[3:], "+@all")) {
					s.serverOpened = "ACL SETUSER " + f[2] + " nopass"
				}
				// a new user allowed every command on every key
				if len(f) > 2 && strings.EqualFold(f[1], "SETUSER") && (containsFold(f[3:], "allcommands") || containsFold(f[3:], "+@all")) &&
					(containsFold(f[3:], "allkeys") || containsFold(f[3:], "~*")) && !strings.EqualFold(f[2], "default") {
					s.serverPriv = "ACL SETUSER " + f[2] + " with every command on every key"
				}
			case "CONFIG":
				// CONFIG GET requirepass / masterauth: the server's password
				if len(f) > 2 && strings.EqualFold(f[1], "GET") && (strings.EqualFold(f[2], "requirepass") || strings.EqualFold(f[2], "masterauth") || f[2] == "*") {
					s.secretsRead = "the server's password (CONFIG GET " + f[2] + ")"
				}
				// the dump written where the caller says: a key file, a
				// cron entry, a web page on the server's host
				if len(f) > 2 && strings.EqualFold(f[1], "SET") && (strings.EqualFold(f[2], "dir") || strings.EqualFold(f[2], "dbfilename")) {
					s.serverExec = "CONFIG SET " + f[2]
				}
				if len(f) > 3 || len(f) == 3 && strings.EqualFold(f[2], "requirepass") { // requirepass "": the empty word is gone
					if !strings.EqualFold(f[1], "SET") {
						break
					}
					v := ""
					if len(f) > 3 {
						v = strings.Trim(strings.ToLower(strings.Join(f[3:], " ")), `"'`)
					}
					switch strings.ToLower(f[2]) {
					case "tls-auth-clients":
						if v == "no" {
							s.serverOpened = "CONFIG SET tls-auth-clients no"
						}
					case "protected-mode":
						if v == "no" {
							s.serverOpened = "CONFIG SET protected-mode no"
						}
					case "bind":
						if strings.Contains(v, "0.0.0.0") || strings.Contains(v, "*") || v == "::" {
							s.serverOpened = "CONFIG SET bind " + v
						}
					case "requirepass":
						if v == "" {
							s.serverOpened = "CONFIG SET requirepass to nothing"
						}
					}
				}
			case "SLAVEOF", "REPLICAOF":
				if len(f) > 1 && !strings.EqualFold(f[1], "no") && !isLocalHost(f[1]) && isPublicIP(f[1]) {
					s.serverExec = f[0] + " " + f[1]
				}
				// REPLICAOF NO ONE: a replica made a primary of its own
				// (writes split between two servers)
				if len(f) > 2 && strings.EqualFold(f[1], "NO") && strings.EqualFold(f[2], "ONE") {
					s.serverStopped = "a replica made writable (" + strings.ToUpper(f[0]) + " NO ONE)"
				}
			}
		}
	default:
		scanSQLText(text, &s)
		s.serverExec = serverExecOf(text)
		s.serverPriv = serverPrivOf(text)
		s.serverExport = serverExportOf(text)
		s.secretsRead = sqlSecretsRead(text)
		s.serverStopped = serverStoppedOf(text)
	}
	if s.any() {
		c.sql = &s
	}
	return c.sql
}

// scanSQLText classifies SQL statements.
func scanSQLText(text string, s *sqlScan) {
	norm := normalizeSQL(text)
	var made map[string]bool // tables the statements themselves created
	for _, st := range strings.Split(norm, ";") {
		st = strings.TrimSpace(st)
		if st == "" {
			continue
		}
		f := strings.Fields(st)
		if len(f) < 2 {
			continue
		}
		if t := createdTable(f); t != "" {
			if f[1] == "OR" && f[2] == "REPLACE" && !hasAnyWord(f, "TEMP", "TEMPORARY") && prodSchema(t) {
				// CREATE OR REPLACE TABLE PROD.MARTS.X AS SELECT ...: the
				// production table dropped and made again from the query
				s.dropTable = trimSQL(st)
			}
			if made == nil {
				made = map[string]bool{}
			}
			made[t] = true
			continue
		}
		if made != nil && (f[0] == "DROP" || f[0] == "TRUNCATE" || f[0] == "DELETE") && onlyMadeTables(f, made) {
			continue // create table t ...; drop table t: the line's own table
		}
		// WITH ... DELETE is rare; look at the leading verb
		if f[0] == "EXPLAIN" {
			// EXPLAIN ANALYZE DELETE ...: PostgreSQL runs the statement to
			// time it (EXPLAIN alone only plans it)
			if i := explainedStatement(f); i > 0 {
				scanSQLText(strings.Join(f[i:], " "), s)
			}
			continue
		}
		switch f[0] {
		case "DROP":
			switch f[1] {
			case "DATABASE", "SCHEMA", "KEYSPACE", "TABLESPACE":
				s.dropDB = trimSQL(st)
			case "TABLE", "COLLECTION":
				s.dropTable = trimSQL(st)
			case "OWNED":
				s.dropDB = trimSQL(st)
			case "INDEX", "VIEW", "MATERIALIZED", "FUNCTION", "PROCEDURE", "TRIGGER", "SEQUENCE", "TYPE", "USER", "ROLE", "EXTENSION", "POLICY", "COLUMN":
				s.dropMinor = trimSQL(st)
			}
		case "REMOVE":
			// SurrealQL: REMOVE NAMESPACE / DATABASE / TABLE
			switch f[1] {
			case "NAMESPACE", "DATABASE":
				s.dropDB = trimSQL(st)
			case "TABLE":
				s.dropTable = trimSQL(st)
			}
		case "EXEC", "EXECUTE":
			// sp_MSforeachtable 'DROP TABLE ?': the statement runs on every
			// table (or database) in turn
			if strings.Contains(f[1], "SP_DELETE_BACKUPHISTORY") || strings.Contains(f[1], "SP_DELETE_DATABASE_BACKUPHISTORY") || strings.Contains(f[1], "SP_PURGE_JOBHISTORY") || strings.Contains(f[1], "SP_DELETE_JOB") {
				// msdb's record of backups (what a restore is chosen
				// from) or its jobs (the backups' schedule) deleted
				s.deleteAll = trimSQL(st)
			}
			if strings.Contains(f[1], "SP_MSFOREACHTABLE") || strings.Contains(f[1], "SP_MSFOREACHDB") {
				raw := strings.Join(strings.Fields(strings.ToUpper(text)), " ") // the statement is a string literal
				switch {
				case strings.Contains(raw, "DROP DATABASE"):
					s.dropDB = trimSQL(st)
				case strings.Contains(raw, "DROP TABLE"):
					s.dropTable = trimSQL(st)
				case strings.Contains(raw, "TRUNCATE TABLE"):
					s.truncate = trimSQL(st)
				case strings.Contains(raw, "DELETE FROM ?") || strings.Contains(raw, "DELETE ?"):
					s.deleteAll = trimSQL(st)
				}
			}
		case "TRUNCATE":
			s.truncate = trimSQL(st)
		case "DELETE":
			if !containsWord(f, "WHERE") || tautology(st) {
				s.deleteAll = trimSQL(st)
			} else if s.deleteSome == "" {
				s.deleteSome = trimSQL(st)
			}
		case "UPDATE":
			if containsWord(f, "SET") && (!containsWord(f, "WHERE") || tautology(st)) {
				s.updateAll = trimSQL(st)
			} else if containsWord(f, "SET") && s.updateSome == "" {
				s.updateSome = trimSQL(st)
			}
		case "ALTER":
			// ClickHouse: ALTER TABLE t DELETE WHERE 1 (a mutation over
			// every row)
			if len(f) > 3 && f[1] == "TABLE" && containsWord(f, "DELETE") && containsWord(f, "WHERE") && tautology(st) {
				s.deleteAll = trimSQL(st)
			}
			if len(f) > 3 && f[1] == "TABLE" && containsWord(f, "DROP") && !containsWord(f, "CONSTRAINT") && !containsWord(f, "INDEX") && !containsWord(f, "DEFAULT") {
				if s.updateAll == "" {
					s.updateAll = trimSQL(st)
				}
			}
		}
	}
}

// createdTable returns the table a CREATE [TEMPORARY] TABLE statement
// (its upper-case words) makes, or "".
func createdTable(f []string) string {
	if f[0] != "CREATE" {
		return ""
	}
	i := 1
	for i < len(f) && (f[i] == "OR" || f[i] == "REPLACE" || f[i] == "TEMP" || f[i] == "TEMPORARY" || f[i] == "LOCAL" || f[i] == "GLOBAL" || f[i] == "TRANSIENT") {
		i++
	}
	if i+1 >= len(f) || f[i] != "TABLE" {
		return ""
	}
	i++
	if i+3 < len(f) && f[i] == "IF" && f[i+1] == "NOT" && f[i+2] == "EXISTS" {
		i += 3
	}
	return strings.Trim(strings.TrimSuffix(f[i], "("), "`\"[]")
}

// prodSchema reports a table named in a production database or schema
// (PROD.MARTS.X, analytics_prod.orders).
func prodSchema(t string) bool {
	db, _, ok := strings.Cut(t, ".")
	return ok && isProdName(strings.ToLower(db))
}

// onlyMadeTables reports a DROP TABLE, TRUNCATE or DELETE FROM (its
// upper-case words) whose every table is in made.
func onlyMadeTables(f []string, made map[string]bool) bool {
	i := 1
	switch f[0] {
	case "DROP":
		if f[1] != "TABLE" {
			return false
		}
		i = 2
		if i+1 < len(f) && f[i] == "IF" && f[i+1] == "EXISTS" {
			i += 2
		}
	case "TRUNCATE":
		if f[1] == "TABLE" {
			i = 2
		}
	case "DELETE":
		if f[1] != "FROM" {
			return false
		}
		i = 2
	}
	if i >= len(f) {
		return false
	}
	// the tables: a, b, c (what follows the last is not a table)
	for ; i < len(f); i++ {
		for _, t := range strings.Split(f[i], ",") {
			if t = strings.Trim(t, "`\"[]"); t != "" && !made[t] {
				return false
			}
		}
		if !strings.HasSuffix(f[i], ",") && (i+1 >= len(f) || !strings.HasPrefix(f[i+1], ",")) {
			break
		}
	}
	return true
}

// explainedStatement returns where the statement an EXPLAIN ANALYZE runs
// begins in f (the words of EXPLAIN ANALYZE VERBOSE DELETE ..., EXPLAIN
// (ANALYZE, BUFFERS) UPDATE ...), or 0 when the EXPLAIN only plans it.
func explainedStatement(f []string) int {
	analyze := false
	for i, w := range f[1:] {
		w = strings.Trim(w, "(),")
		switch w {
		case "ANALYZE", "ANALYSE":
			analyze = true
		case "DELETE", "UPDATE", "INSERT", "MERGE", "TRUNCATE":
			if analyze {
				return i + 1
			}
			return 0
		}
		if i > 6 {
			break
		}
	}
	return 0
}

// tautology reports a WHERE clause that matches every row (WHERE 1=1).
func tautology(st string) bool {
	i := strings.LastIndex(st, "WHERE ")
	if i < 0 {
		return false
	}
	cond := st[i+6:]
	for _, stop := range [...]string{" ORDER ", " LIMIT ", " RETURNING "} {
		if j := strings.Index(cond, stop); j >= 0 {
			cond = cond[:j]
		}
	}
	if f := strings.Fields(cond); len(f) >= 4 && f[1] == "NOT" && strings.HasPrefix(f[2], "IN") && !strings.Contains(cond, " AND ") && !strings.Contains(cond, " OR ") {
		// WHERE user_name NOT IN ('SYSADMIN','GUEST'): every row but the
		// few it lists
		return true
	}
	cond = strings.ReplaceAll(cond, " ", "")
	switch cond {
	case "1=1", "TRUE", "1", "X=X", "0=0", "1<>0", "NOT0", "1>0", "(1=1)", "'1'='1'":
		return true
	}
	return strings.HasPrefix(cond, "1=1OR") || strings.HasSuffix(cond, "OR1=1")
}

// sqlHasWord reports w as a whole word of the statement text u.
func sqlHasWord(u, w string) bool {
	for rest := u; ; {
		i := strings.Index(rest, w)
		if i < 0 {
			return false
		}
		j := i + len(w)
		if (i == 0 || !isAlnum(rest[i-1]) && rest[i-1] != '_') && (j == len(rest) || !isAlnum(rest[j]) && rest[j] != '_') {
			return true
		}
		rest = rest[j:]
	}
}

func containsWord(f []string, w string) bool {
	for _, x := range f {
		if x == w {
			return true
		}
	}
	return false
}

func trimSQL(s string) string { return truncate(s, 80) }

// normalizeSQL upper-cases SQL outside string literals and removes
// comments and literal contents.
func normalizeSQL(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b = append(b, ' ')
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				i = len(s)
			} else {
				i += end + 3
			}
			b = append(b, ' ')
		case c == '\'' || c == '"' || c == '`':
			end := strings.IndexByte(s[i+1:], c)
			if end < 0 {
				i = len(s)
			} else {
				i += end + 1
			}
			b = append(b, 'x')
		case c >= 'a' && c <= 'z':
			b = append(b, c-32)
		case c == '(' || c == ')' || c == ',':
			b = append(b, ' ', c, ' ')
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// readsConfiguration reports a statement that only reads a server's
// settings (SELECT ... FROM sys.configurations, sp_configure with no
// value): a name in it is looked at, not switched on or called.
func readsConfiguration(u string) bool {
	if strings.HasPrefix(u, "SELECT ") && strings.Contains(u, "SYS.CONFIGURATIONS") && !strings.Contains(u, "EXEC") {
		return true
	}
	return false
}

// sqlSecretColumn matches a column that holds a credential.
var sqlSecretColumn = regexp.MustCompile(`\b(passwd|password|password_hash|encrypted_password|api_token|api_key|access_token|refresh_token|auth_token|secret|client_secret|otp_secret|authentication_string)\b`)

// sqlSecretsRead returns the credentials a SELECT reads: columns named
// for them, or the server's password tables (pg_shadow, mysql.user's
// authentication_string); "" for none.
func sqlSecretsRead(text string) string {
	l := strings.ToLower(text)
	for _, st := range strings.Split(l, ";") {
		i := strings.Index(st, "select ")
		j := strings.Index(st, " from ")
		if i < 0 || j < i {
			continue
		}
		if from := strings.TrimSpace(st[j+6:]); strings.HasPrefix(from, "pg_shadow") || strings.HasPrefix(from, "pg_authid") ||
			// Oracle's password hashes (sys.user$'s spare4 and password)
			(strings.HasPrefix(from, "sys.user$") || strings.HasPrefix(from, "user$")) && hasAny(st[i+7:j], "spare4", "password") {
			return "the server's password hashes (" + strings.Fields(from)[0] + ")"
		}
		if m := sqlSecretColumn.FindString(st[i+7 : j]); m != "" {
			return "the " + m + " column"
		}
	}
	return ""
}

// flagClusterEnds reports a cluster of one-letter options (-Atc) whose
// last letter is last, taking the next word as its value, the letters
// before it being flags without values (none of valued).
func flagClusterEnds(w string, last byte, valued string) bool {
	if len(w) < 3 || w[0] != '-' || w[1] == '-' || w[len(w)-1] != last {
		return false
	}
	for i := 1; i < len(w)-1; i++ {
		ch := w[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9') || strings.IndexByte(valued, ch) >= 0 {
			return false
		}
	}
	return true
}

// serverStoppedOf returns the statement of text (SQL, CQL) that takes the
// server out of service or weakens its copies, or "".
func serverStoppedOf(text string) string {
	u := strings.Join(strings.Fields(strings.ToUpper(text)), " ")
	switch {
	case strings.Contains(u, "PG_TERMINATE_BACKEND(") && strings.Contains(u, "PG_STAT_ACTIVITY"):
		return "every session matched killed (pg_terminate_backend)"
	case strings.Contains(u, "READ_ONLY = OFF") || strings.Contains(u, "READ_ONLY=OFF") || strings.Contains(u, "READ_ONLY = 0") || strings.Contains(u, "READ_ONLY=0"):
		return "a replica made writable (read_only off)"
	case strings.Contains(u, "ALTER KEYSPACE") && (strings.Contains(u, "'REPLICATION_FACTOR': 1") || strings.Contains(u, "'REPLICATION_FACTOR':1") || strings.Contains(u, ": 1}") && strings.Contains(u, "REPLICATION")):
		return "replication cut to one copy"
	case strings.HasPrefix(strings.TrimSpace(u), "SHUTDOWN") || strings.Contains(u, "; SHUTDOWN"):
		return "SHUTDOWN"
	case strings.Contains(u, "STOP SLAVE") || strings.Contains(u, "STOP REPLICA"):
		return "replication stopped"
	case strings.Contains(u, "ALTER SYSTEM SET ARCHIVE_COMMAND") && (strings.Contains(u, "'/BIN/TRUE'") || strings.Contains(u, "'TRUE'") || strings.Contains(u, "''") || strings.Contains(u, "'/USR/BIN/TRUE'")),
		strings.Contains(u, "ALTER SYSTEM SET ARCHIVE_MODE") && strings.Contains(u, "OFF"):
		// the write-ahead log no longer archived: point-in-time
		// recovery and the replicas fed from the archive stop
		return "WAL archiving switched off"
	case strings.Contains(u, "ALTER SYSTEM SET") && (strings.Contains(u, "WAL_LEVEL = MINIMAL") || strings.Contains(u, "WAL_LEVEL=MINIMAL") || strings.Contains(u, "WAL_LEVEL TO MINIMAL") ||
		strings.Contains(u, "MAX_WAL_SENDERS = 0") || strings.Contains(u, "MAX_WAL_SENDERS=0")):
		return "the write-ahead log replicas stream from cut (wal_level minimal, no senders)"
	case strings.Contains(u, "ALTER SYSTEM SET") && (strings.Contains(u, "FSYNC = OFF") || strings.Contains(u, "FSYNC=OFF") || strings.Contains(u, "FSYNC TO OFF") ||
		strings.Contains(u, "FULL_PAGE_WRITES = OFF") || strings.Contains(u, "FULL_PAGE_WRITES=OFF")):
		return "the server's crash safety switched off (a crash corrupts it)"
	case strings.Contains(u, "SET RECOVERY SIMPLE"):
		// SQL Server's log backups end: no restore to a point in time
		return "point-in-time restores cut (recovery model SIMPLE)"
	case strings.Contains(u, "DISABLE TRIGGER ALL"):
		return "every trigger of a table switched off (the audit and checks they keep)"
	case (strings.Contains(u, "SERVER AUDIT") || strings.Contains(u, "AUDIT SPECIFICATION")) && (strings.Contains(u, "STATE = OFF") || strings.Contains(u, "STATE=OFF")),
		strings.Contains(u, "DROP SERVER AUDIT"), strings.Contains(u, "DROP DATABASE AUDIT SPECIFICATION"), strings.Contains(u, "DROP SERVER AUDIT SPECIFICATION"):
		return "the server's audit switched off"
	case strings.Contains(u, "AUDIT_TRAIL") && strings.Contains(u, "ALTER SYSTEM") && strings.Contains(u, "NONE"), strings.HasPrefix(strings.TrimSpace(u), "NOAUDIT ALL"):
		return "the database's audit trail switched off"
	case strings.Contains(u, "SP_UPDATE_JOB") && strings.Contains(strings.ReplaceAll(u, " ", ""), "@ENABLED=0") && strings.Contains(u, "BACKUP"):
		return "a backup job disabled (SQL Server Agent)"
	case strings.Contains(u, "ALTER SYSTEM STOP DATABASE"):
		return "a tenant database stopped (SAP HANA)"
	case strings.Contains(u, "'LOG_MODE') = 'OVERWRITE'") || strings.Contains(u, "'LOG_MODE')='OVERWRITE'"):
		return "point-in-time restores ended (SAP HANA's log_mode overwrite)"
	case strings.Contains(u, "'GLOBAL_AUDITING_STATE') = 'FALSE'") || strings.Contains(u, "'GLOBAL_AUDITING_STATE')='FALSE'"):
		return "the database's auditing switched off (SAP HANA)"
	case strings.Contains(u, "BACKUP CATALOG DELETE") && strings.Contains(u, " COMPLETE"):
		return "backups deleted with their catalog entries (BACKUP CATALOG DELETE ... COMPLETE)"
	case strings.Contains(u, "DROP SUBSCRIPTION") || strings.Contains(u, "ALTER SUBSCRIPTION") && strings.Contains(u, " SKIP "):
		return "a logical replication subscription dropped or skipped (the replica stops following, or loses changes)"
	}
	return ""
}

// containsFold reports whether any of f equals w, ignoring case.
func containsFold(f []string, w string) bool {
	for _, x := range f {
		if strings.EqualFold(strings.Trim(x, `'"`), w) {
			return true
		}
	}
	return false
}
