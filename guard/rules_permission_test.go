package guard

import "testing"

// Granting only the current user access to a key, with inheritance cut,
// tightens it.
func TestKeyTightenedToItsOwner(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{`icacls $HOME\.ssh\id_ed25519 /grant "Users:R"`, CategoryPermission, "", LevelHigh},
		{`icacls $HOME\.ssh\id_ed25519 /grant Everyone:F`, CategoryPermission, "", LevelHigh},
	})
	checkSafe(t, d, ps, []string{
		`icacls $HOME\.ssh\id_ed25519 /inheritance:r /grant:r "$($env:USERNAME):R"`,
		`icacls $HOME\.ssh\id_ed25519 /inheritance:r /grant:r "${env:USERNAME}:R"`,
	})
}

// Cloud machines opened to the whole internet: every port, or one for
// remote administration or a database; the web ports are what is meant
// to be open.
func TestCloudFirewallsOpenedToAll(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`aws ec2 authorize-security-group-ingress --group-id sg-0123456789abcdef0 --protocol -1 --cidr 0.0.0.0/0`, CategoryPermission, "cloud-firewall-open", LevelHigh},
		{`aws ec2 authorize-security-group-ingress --group-id sg-0123456789abcdef0 --protocol tcp --port 22 --cidr 0.0.0.0/0`, CategoryPermission, "cloud-firewall-open", LevelHigh},
		{`az network nsg rule create -g prod --nsg-name web --name any --priority 100 --access Allow --source-address-prefixes '*' --destination-port-ranges '*'`, CategoryPermission, "cloud-firewall-open", LevelHigh},
		{`gcloud compute firewall-rules create allow-all --allow all --source-ranges 0.0.0.0/0`, CategoryPermission, "cloud-firewall-open", LevelHigh},
		{`setfacl -R -m o::rwx /home/dev`, CategoryPermission, "chmod-world-writable-outside", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`aws ec2 authorize-security-group-ingress --group-id sg-0123456789abcdef0 --protocol tcp --port 443 --cidr 0.0.0.0/0`,
		`aws ec2 authorize-security-group-ingress --group-id sg-0123456789abcdef0 --protocol tcp --port 22 --cidr 203.0.113.0/24`,
		`az network nsg rule create -g dev --nsg-name web --name https --priority 100 --access Allow --source-address-prefixes '*' --destination-port-ranges 443`,
		`gcloud compute firewall-rules create allow-web --allow tcp:80,tcp:443 --source-ranges 0.0.0.0/0`,
		`setfacl -R -m u:www-data:rx ./public`,
	})
}

// Everyone granted rights with subinacl.
func TestSubinaclEveryone(t *testing.T) {
	d := NewDetector(Options{})
	cmdc := winCorpusContextFor("cmd")
	checkDanger(t, d, cmdc, []dangerCase{
		{`subinacl /keyreg HKEY_LOCAL_MACHINE\SYSTEM\CurrentControlSet\Services /grant=Everyone=F`, CategoryPermission, "win-subinacl-everyone", LevelHigh},
	})
	checkSafe(t, d, cmdc, []string{
		`subinacl /file C:\work\project\out.log /display`,
	})
}

// A system program or library handed to an ordinary user, who can then
// replace what root runs; a tool of /usr/local, or root's ownership
// restored, is not that.
func TestSystemProgramsGivenAway(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo chown dev:dev /usr/bin/passwd`, CategoryPermission, "chown-system-program", LevelHigh},
		{`sudo chgrp staff /usr/lib/x86_64-linux-gnu/libc.so.6`, CategoryPermission, "chown-system-program", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`sudo chown root:root /usr/bin/passwd`,
		`sudo chown dev /usr/local/bin/mytool`,
		`chown dev ./bin/tool`,
	})
}

// Managed databases opened to every address: Cloud SQL's authorized
// networks, an Azure server firewall spanning all of IPv4, a public RDS
// instance; one office range, or Azure's own services, is not.
func TestManagedDatabasesOpenedToAll(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`gcloud sql instances patch orders-db --authorized-networks=203.0.113.0/24,0.0.0.0/0`, CategoryPermission, "cloud-firewall-open", LevelHigh},
		{`az postgres flexible-server firewall-rule create -g rg -n pg1 -r all --start-ip-address 0.0.0.0 --end-ip-address 255.255.255.255`, CategoryPermission, "cloud-firewall-open", LevelHigh},
		{`aws rds modify-db-instance --db-instance-identifier orders --publicly-accessible --apply-immediately`, CategoryPermission, "cloud-firewall-open", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`gcloud sql instances patch orders-db --authorized-networks=203.0.113.0/24`,
		`az postgres flexible-server firewall-rule create -g rg -n pg1 -r azure --start-ip-address 0.0.0.0 --end-ip-address 0.0.0.0`,
		`aws rds modify-db-instance --db-instance-identifier orders --no-publicly-accessible`,
	})
}

// DigitalOcean and Hetzner firewalls opened to every address on all
// ports or an administration or database port; web ports and narrow
// sources are how a site is served.
func TestSmallCloudFirewallsOpened(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`doctl compute firewall add-rules fw-1 --inbound-rules 'protocol:tcp,ports:22,address:0.0.0.0/0'`, CategoryPermission, "cloud-firewall-open", LevelHigh},
		{`doctl compute firewall create --name fw --inbound-rules "protocol:tcp,ports:all,address:::/0"`, CategoryPermission, "cloud-firewall-open", LevelHigh},
		{`hcloud firewall add-rule fw-1 --direction in --protocol tcp --port 5432 --source-ips 0.0.0.0/0`, CategoryPermission, "cloud-firewall-open", LevelHigh},
		{`hcloud firewall add-rule fw-1 --direction in --protocol tcp --port any --source-ips ::/0`, CategoryPermission, "cloud-firewall-open", LevelHigh},
	})
	checkSafe(t, d, testCtx, []string{
		`doctl compute firewall add-rules fw-1 --inbound-rules 'protocol:tcp,ports:443,address:0.0.0.0/0'`,
		`doctl compute firewall add-rules fw-1 --inbound-rules 'protocol:tcp,ports:22,address:203.0.113.7/32'`,
		`hcloud firewall add-rule fw-1 --direction in --protocol tcp --port 443 --source-ips 0.0.0.0/0`,
		`hcloud firewall add-rule fw-1 --direction in --protocol tcp --port 22 --source-ips 203.0.113.7/32`,
		`doctl compute firewall list`,
	})
}
