package guard

import "testing"

// What round20a (data stores and backups; networks, DNS, certificates
// and identity) showed, both sides of each line.

func TestDataStoreServersAdministered(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`mongosh admin --eval 'db.createUser({user:"debug",pwd:"x",roles:["root"]})'`, CategoryPrivilege, "datastore-superuser-granted", LevelHigh},
		{`rabbitmqctl set_user_tags agent administrator`, CategoryPrivilege, "datastore-superuser-granted", LevelHigh},
		{`rabbitmqctl set_permissions -p /production guest ".*" ".*" ".*"`, CategoryPrivilege, "datastore-superuser-granted", LevelHigh},
		{`kafka-acls.sh --bootstrap-server kafka-prod-1:9092 --add --allow-principal 'User:*' --operation All --topic '*'`, CategoryPrivilege, "datastore-superuser-granted", LevelHigh},
		{`etcdctl user grant-role ci root`, CategoryPrivilege, "datastore-superuser-granted", LevelHigh},
		{`mysqladmin -h mysql-staging -u root -p shutdown`, CategorySystem, "datastore-server-stopped", LevelHigh},
		{`sudo -u postgres pg_ctl -D /var/lib/postgresql/16/main stop -m immediate`, CategorySystem, "datastore-server-stopped", LevelHigh},
		{`rabbitmqctl -n rabbit@mq-staging-1 stop_app`, CategorySystem, "datastore-server-stopped", LevelHigh},
		{`psql -h pg-staging.acme.internal -U postgres -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()"`, CategorySystem, "datastore-server-stopped", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`mongosh admin --eval 'db.createUser({user:"reporter",pwd:"x",roles:["read"]})'`,
		`rabbitmqctl set_user_tags agent monitoring`,
		`rabbitmqctl set_permissions -p /dev-test guest ".*" ".*" ".*"`,
		`etcdctl user grant-role ci readonly`,
		`mysqladmin -h 127.0.0.1 -u root -p shutdown`,
		`pg_ctl -D ./tmp/pgdata stop`,
		`rabbitmqctl status`,
		`psql -h pg-staging.acme.internal -c "SELECT pid, state FROM pg_stat_activity"`,
	})
}

func TestBackupsKeptToNothing(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`duplicity remove-all-but-n-full 1 --force s3://acme-backups/duplicity/prod`, CategoryFileDelete, "backup-repo-emptied", LevelCritical},
		{`duplicity remove-older-than 1D --force s3://acme-backups/duplicity/prod`, CategoryFileDelete, "backup-repo-emptied", LevelCritical},
		{`pgbackrest --stanza=prod-main --repo1-retention-full=1 expire`, CategoryFileDelete, "backup-repo-emptied", LevelCritical},
		{`borg delete --glob-archives 'db-prod-*' ssh://backup@backup.example.net/./acme-prod`, CategoryFileDelete, "backup-repo-emptied", LevelCritical},
		{`nodetool -h cassandra-prod-2 clearsnapshot --all`, CategoryFileDelete, "backup-repo-emptied", LevelCritical},
		{`clickhouse-client --host ch-prod.acme.internal --query "ALTER TABLE events.page_views DELETE WHERE 1"`, CategoryDatabaseDestroy, "", LevelCritical},
		{`neonctl branches reset production --parent --project-id shy-sun-12345678`, CategoryDatabaseDestroy, "cli-production-data-reset", LevelCritical},
		{`CONSUL_HTTP_ADDR=https://consul.prod.acme.internal:8501 consul snapshot restore /tmp/consul-dev.snap`, CategoryDatabaseDestroy, "cli-production-data-reset", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`duplicity remove-all-but-n-full 4 --force s3://acme-backups/duplicity/prod`,
		`duplicity remove-older-than 6M --force s3://acme-backups/duplicity/prod`,
		`pgbackrest --stanza=prod-main --repo1-retention-full=4 expire`,
		`borg delete ssh://backup@backup.example.net/./acme-prod::db-prod-2023-01-01`,
		`nodetool -h cassandra-prod-2 clearsnapshot -t before-upgrade-2024`,
		`nodetool -h cassandra-prod-2 listsnapshots`,
		`clickhouse-client --host ch-prod.acme.internal --query "ALTER TABLE events.page_views DELETE WHERE day < '2020-01-01'"`,
		`neonctl branches reset pr-1423 --parent --project-id shy-sun-12345678`,
		`CONSUL_HTTP_ADDR=http://127.0.0.1:8500 consul snapshot restore /tmp/consul-dev.snap`,
		`atlas schema clean -u "docker://postgres/16/dev" --auto-approve`,
	})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`atlas schema clean -u "postgres://admin@pg-prod.acme.internal:5432/app" --auto-approve`, CategoryDatabaseDestroy, "", LevelHigh},
	})
}

func TestMigrationsRevertedAndDevTargets(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`liquibase --url=jdbc:postgresql://pg-prod.acme.internal:5432/app rollback-count --count=50`, CategoryDatabaseDestroy, "", LevelCritical},
		{`sqitch revert --to @ROOT -y db:pg://sqitch@pg-prod.acme.internal/flipr`, CategoryDatabaseDestroy, "", LevelCritical},
		{`rabbitmqctl purge_queue orders -p /production`, CategoryDatabaseDestroy, "data-service-delete", LevelHigh},
		{`sqlcmd -S sql-staging -Q "EXEC sp_configure 'xp_cmdshell', 1; RECONFIGURE"`, CategoryRemoteExec, "", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`liquibase --url=jdbc:postgresql://localhost:5432/app_test rollback-count --count=1`,
		`sqitch revert --to @HEAD^ -y db:pg://sqitch@localhost/flipr_test`,
		`rabbitmqctl purge_queue dev.emails -p /dev`,
		`kopia snapshot delete 3f0e8a9c1d2b4e5f6a7b8c9d0e1f2a3b`,
		`set -x PGDATABASE myapp_test; and psql -c 'TRUNCATE audit_events, orders RESTART IDENTITY'`,
		`export PGDATABASE=shop_test && psql -c 'TRUNCATE orders'`,
		`sqlcmd -S sql-staging -Q "SELECT name, value_in_use FROM sys.configurations WHERE name = 'xp_cmdshell'"`,
	})
}

func TestWorkstationsProtectionAndData(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`gsettings set org.gnome.desktop.screensaver lock-enabled false`, CategorySystem, "desktop-security-off", LevelHigh},
		{`sysadminctl -screenLock off -password "$LOGIN_PW"`, CategorySystem, "desktop-security-off", LevelHigh},
		{`sudo xattr -dr com.apple.quarantine /Applications`, CategorySystem, "desktop-security-off", LevelHigh},
		{`jq '."security.workspace.trust.enabled" = false' ~/.config/Code/User/settings.json > /tmp/s`, CategorySystem, "desktop-security-off", LevelHigh},
		{`sudo snap remove --purge lxd`, CategoryFileDelete, "app-data-purged", LevelHigh},
		{`flatpak uninstall --user --all --delete-data --noninteractive`, CategoryFileDelete, "app-data-purged", LevelHigh},
		{`sudo '/Applications/Install macOS Sonoma.app/Contents/Resources/startosinstall' --eraseinstall --agreetolicense`, CategoryDiskWipe, "os-erase-install", LevelCritical},
		{`pass rm -rf acme/prod`, CategoryFileDelete, "password-store-emptied", LevelHigh},
		{`grdctl rdp enable`, CategorySystem, "remote-desktop-enabled", LevelHigh},
		{`flatpak override --user --filesystem=host --socket=session-bus com.example.Notes`, CategoryPrivilege, "sandbox-widened", LevelHigh},
		{`code --install-extension ~/Downloads/copilot-pro-unlocked.vsix`, CategoryRemoteExec, "editor-extension-untrusted", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`gsettings get org.gnome.desktop.screensaver lock-enabled`,
		`gsettings set org.gnome.desktop.interface color-scheme prefer-dark`,
		`xattr -d com.apple.quarantine ./dist/MyApp.app`,
		`sudo snap remove lxd`,
		`flatpak uninstall --unused`,
		`brew uninstall --cask --zap --dry-run docker`,
		`pass rm acme/dev/old-token`,
		`pass rm -r acme/test-fixtures`,
		`grdctl status`,
		`flatpak override --user --filesystem=~/Documents/Notes com.example.Notes`,
		`code --install-extension ./dist/acme-helper-0.3.0.vsix`,
		`code --install-extension dbaeumer.vscode-eslint`,
		// what round20a's benign side showed
		`bw get item 'staging postgres' | jq -r '.login.username, .revisionDate'`,
		`security export -k ~/Library/Keychains/login.keychain-db -t certs -f pemseq -o ./certs/trusted.pem`,
		`diskutil eraseVolume HFS+ RAMDisk $(hdiutil attach -nomount ram://2097152)`,
		`sudo dscacheutil -flushcache; sudo killall -HUP mDNSResponder`,
		`lpass show --username 'Shared-Dev/staging-db'`,
		`echo 'export HISTSIZE=100000 HISTFILESIZE=200000' >> ~/.bashrc`,
	})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo killall -HUP WindowServer`, CategorySystem, "", LevelModerate},
		{`lpass show --password 'Shared-Dev/staging-db'`, CategoryExfiltration, "", LevelHigh},
		{`echo 'export HISTSIZE=0 HISTFILESIZE=0' >> ~/.bashrc`, CategoryPersistence, "", LevelHigh},
	})
}

func TestDNSRecordsFirewallsAndTrust(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`gcloud dns record-sets update www.acme.com. --zone=acme-prod --type=A --ttl=300 --rrdatas=203.0.113.80`, CategorySystem, "dns-records-changed", LevelCritical},
		{`doctl compute domain records update acme.io --record-id 128734592 --record-data 198.51.100.14`, CategorySystem, "dns-records-changed", LevelCritical},
		{`aws route53domains update-domain-nameservers --domain-name acme.com --nameservers Name=ns1.example.net`, CategorySystem, "dns-records-changed", LevelCritical},
		{`samba-tool dns zonedelete dc01 acme.local -U administrator`, CategorySystem, "dns-records-changed", LevelCritical},
		{`sudo ufw allow 5432/tcp`, CategorySystem, "host-firewall-opened", LevelHigh},
		{`sudo firewall-cmd --permanent --zone=trusted --change-interface=eth0`, CategorySystem, "host-firewall-opened", LevelHigh},
		{`sudo wg show wg0 private-key`, CategoryExfiltration, "private-key-printed", LevelHigh},
		{`sudo openssl rsa -in /etc/ssl/private/acme-prod.key -text -noout`, CategoryExfiltration, "private-key-printed", LevelHigh},
		{`kdb5_util -r ACME.COM destroy -f`, CategoryPrivilege, "directory-weakened", LevelHigh},
		{`kcadm.sh update realms/acme-prod -s sslRequired=NONE -s bruteForceProtected=false`, CategoryPrivilege, "directory-weakened", LevelHigh},
		{`samba-tool user setpassword administrator --newpassword='Welcome1!'`, CategoryPrivilege, "directory-weakened", LevelHigh},
		{`sudo realm permit --all`, CategoryPrivilege, "directory-weakened", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`gcloud dns record-sets list --zone=acme-prod`,
		`gcloud dns record-sets update pr-42.preview.acme.com. --zone=acme-previews --type=A --rrdatas=203.0.113.80`,
		`doctl compute domain records list acme.io`,
		`sudo ufw allow 22/tcp`,
		`sudo ufw allow from 10.0.0.0/8 to any port 5432`,
		`sudo firewall-cmd --zone=public --add-service=https`,
		`wg show wg0`,
		`openssl rsa -in /etc/ssl/private/acme-prod.key -check -noout`,
		`openssl pkey -in ./certs/dev.key -pubout`,
		`kcadm.sh config credentials --server http://localhost:8080 --realm master --user admin && kcadm.sh update realms/master -s sslRequired=NONE`,
		`samba-tool user setpassword test-user-3 --newpassword='x'`,
		`realm list`,
	})
	checkDanger(t, d, winCorpusContextFor(ShellCmd), []dangerCase{
		{`certutil -delstore Root "Acme Internal Root CA"`, CategorySystem, "trust-store-tampered", LevelHigh},
		{`netsh advfirewall firewall delete rule name=all dir=in`, CategorySystem, "host-firewall-opened", LevelHigh},
	})
	checkSafe(t, d, winCorpusContextFor(ShellCmd), []string{`certutil -delstore My "dev-localhost"`, `netsh advfirewall firewall delete rule name="acme-dev-5000"`})
}
