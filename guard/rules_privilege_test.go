package guard

import "testing"

// What a program run as root starts runs as root: a shell find -exec
// opens under sudo is a root shell.
func TestRootProgramsStartRootShells(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo find . -exec /bin/sh -p \; -quit`, CategoryPrivilege, "root-shell", LevelHigh},
		{`sudo find /etc -maxdepth 0 -exec bash \;`, CategoryPrivilege, "root-shell", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`find . -exec /bin/sh -c 'wc -l "$1"' _ {} \;`,
		`sudo find /var/log -name '*.gz' -exec ls -l {} \;`,
	})
}

// Adding a user to an administrators group through AWS's cmdlets.
func TestAwsCmdletAdminGroup(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{`Add-IAMUserToGroup -UserName dev -GroupName Admins`, CategoryPrivilege, "win-admin-group", LevelHigh},
	})
	checkSafe(t, d, ps, []string{
		`Add-IAMUserToGroup -UserName dev -GroupName Developers`,
	})
}

// kubectl's global options before the subcommand change nothing of what
// it grants.
func TestKubectlGlobalOptionsBeforeBindings(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`kubectl -n kube-system create rolebinding sa-admin --clusterrole=admin --serviceaccount=kube-system:default`, CategoryPrivilege, "k8s-cluster-admin-binding", LevelHigh},
		{`kubectl --context prod create clusterrolebinding x --clusterrole=cluster-admin --user=dev`, CategoryPrivilege, "k8s-cluster-admin-binding", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`kubectl -n dev create rolebinding read --clusterrole=view --serviceaccount=dev:ci`,
	})
}

// Azure's Owner role granted from PowerShell.
func TestAzureOwnerCmdlet(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{`New-AzRoleAssignment -SignInName dev@example.com -RoleDefinitionName Owner -Scope /subscriptions/00000000-0000-0000-0000-000000000000`, CategoryPrivilege, "win-admin-group", LevelHigh},
	})
	checkSafe(t, d, ps, []string{
		`New-AzRoleAssignment -SignInName dev@example.com -RoleDefinitionName Reader -Scope /subscriptions/0`,
	})
}

// perl -i in a cluster of switches rewrites its files as sed -i does.
func TestPerlInPlaceClusters(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo perl -0pi -e 's/^/auth       sufficient     pam_permit.so\n/' /etc/pam.d/sudo`, CategoryPrivilege, "write-pam", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`perl -0pi -e 's/foo/bar/' src/main.c`,
		`perl -0ne 'print if /x/' /etc/pam.d/sudo`,
	})
}
