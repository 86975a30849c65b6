package guard

import "testing"

// Rows deleted or rewritten on a shared database server: one named by its
// address or host name that is not this machine, a compose service or a
// test's, development's or staging's. The same statements on a local,
// test or staging server, or rolled back, pass.
func TestRound54SharedDatabaseRows(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`mysql -h sis-db.college.internal sis -e "UPDATE enrollments SET status='withdrawn' WHERE term='2025SP'"`, CategoryDatabaseDestroy, "db-rows-changed-shared", LevelHigh},
		{`PGPASSWORD=$PW psql -h 10.40.1.22 -U mirth mirthdb -c "DELETE FROM event WHERE date_created < now() - interval '30 days'"`, CategoryDatabaseDestroy, "db-rows-changed-shared", LevelHigh},
		{`psql "host=radius-pg.corp.net dbname=radius user=rad" -c "DELETE FROM radacct WHERE acctstarttime < now()"`, CategoryDatabaseDestroy, "db-rows-changed-shared", LevelHigh},
		{`mysql -h openemr-db.prod -u root -p openemr -e "UPDATE globals SET gl_value=0 WHERE gl_name = 'enable_auditlog'"`, CategoryDatabaseDestroy, "db-rows-changed-shared", LevelCritical},
		{`sqlcmd -S HRSQL01 -d Payroll -Q "UPDATE dbo.Employee SET NetPayAccount='44' WHERE EmployeeID=1042"`, CategoryDatabaseDestroy, "db-rows-changed-shared", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`mysql -h 127.0.0.1 -P 3307 -u test -ptest billing_test -e 'UPDATE invoices SET status="void" WHERE id < 10'`,
		`psql -h staging-pg.acme.internal -U app -d shop_staging -c "DELETE FROM carts WHERE updated_at < now() - interval '30 days'"`,
		`psql -h db -U postgres app -c "UPDATE users SET admin = true WHERE email = 'me@example.com'"`,
		`psql -h pg.acme.internal -U app shop -c "BEGIN; DELETE FROM carts WHERE id = 4; SELECT count(*) FROM carts; ROLLBACK;"`,
		`mysql -h sis-db.college.internal sis -e "SELECT count(*) FROM enrollments WHERE term='2025SP'"`,
		`psql -h localhost -d app -c "UPDATE feature_flags SET enabled = true WHERE name = 'x'"`,
	})
	win := winCorpusContextFor("powershell")
	checkDanger(t, d, win, []dangerCase{
		{`Invoke-Sqlcmd -ServerInstance SIS-SQL02 -Database Gradebook -Query "UPDATE FinalGrades SET LetterGrade='A' WHERE CourseSection='CHEM101-03'"`, CategoryDatabaseDestroy, "db-rows-changed-shared", LevelHigh},
	})
	checkSafe(t, d, win, []string{
		`Invoke-Sqlcmd -ServerInstance '(localdb)\MSSQLLocalDB' -Database AppDev -Query "UPDATE dbo.Sessions SET Expired = 1 WHERE ExpiresAt < SYSUTCDATETIME()"`,
		`Invoke-Sqlcmd -ServerInstance SIS-SQL02 -Database Gradebook -Query "SELECT TOP 10 * FROM FinalGrades"`,
	})
}
