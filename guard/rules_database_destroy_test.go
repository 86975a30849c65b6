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
