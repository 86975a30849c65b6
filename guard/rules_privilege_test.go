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

// A container handed a host disk raw, or root's own capabilities.
func TestContainersGivenHostDisksOrRootCapabilities(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`docker run --rm --device=/dev/nvme0n1 ubuntu bash`, CategoryPrivilege, "container-host-escape", LevelHigh},
		{`podman run --cap-add SYS_ADMIN -it fedora sh`, CategoryPrivilege, "container-host-escape", LevelHigh},
		{`docker run --cap-add=ALL alpine sh`, CategoryPrivilege, "container-host-escape", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`docker run --rm --device /dev/snd alpine aplay -l`,
		`docker run --cap-add SYS_PTRACE --rm debugger gdb -p 1`,
		`docker run --device /dev/fuse alpine ls`,
	})
}

// Impersonating cluster administrators, and forge API calls that publish
// a repository, grant admin on it, archive it or move its default branch,
// by any HTTP client.
func TestImpersonationAndForgeSettingsRaised(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`kubectl get pods -A --as-group=system:masters --as=me`, CategoryPrivilege, "k8s-impersonate-admin", LevelHigh},
		{`kubectl delete pod x --as=system:kube-controller-manager`, CategoryPrivilege, "k8s-impersonate-admin", LevelHigh},
		{`gh api -X PATCH repos/acme/site -F archived=true`, CategoryPrivilege, "forge-settings-raised", LevelHigh},
		{`gh api -X PUT orgs/acme/memberships/someone -f role=admin`, CategoryPrivilege, "forge-settings-raised", LevelHigh},
		{`curl -X PATCH -H "Authorization: token $T" https://api.github.com/repos/acme/site -d '{"private": false}'`, CategoryPrivilege, "forge-settings-raised", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`kubectl auth can-i list pods --as=system:serviceaccount:dev:builder`,
		`kubectl get pods -n dev`,
		`gh api repos/acme/site --jq .visibility`,
		`gh api -X PATCH repos/acme/site -f description='Docs site'`,
		`curl -s https://api.github.com/repos/acme/site`,
	})
}

// A password written into the command and fed to sudo -S or su.
func TestPasswordsFedToSudoAndSu(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`echo 'S3cret!' | sudo -S apt-get update`, CategoryPrivilege, "password-on-stdin", LevelHigh},
		{`sudo -kS id <<< 'S3cret!'`, CategoryPrivilege, "password-on-stdin", LevelHigh},
		{`printf 'toor\n' | su - root -c whoami`, CategoryPrivilege, "password-on-stdin", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`sudo apt-get update`,
		`echo hello | sudo tee ./out.txt`,
		`sudo -S id < /dev/null`,
	})
}
