package guard

import "testing"

// A cluster's own roles and the bindings its components run under deleted;
// their near misses: an application's own binding, a namespaced binding, a
// look at the built-in role.
func TestRound41ClusterBuiltinRoles(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`kubectl delete clusterrolebinding cluster-admin`, CategoryContainerDestroy, "k8s-delete-system", LevelHigh},
		{`kubectl delete clusterrole/cluster-admin`, CategoryContainerDestroy, "k8s-delete-system", LevelHigh},
		{`kubectl delete clusterrolebindings.rbac.authorization.k8s.io system:kube-controller-manager`, CategoryContainerDestroy, "k8s-delete-system", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`kubectl delete clusterrolebinding my-app-reader`,
		`kubectl delete rolebinding dev-reader -n team-a`,
		`kubectl get clusterrolebinding cluster-admin -o yaml`,
		`kubectl describe clusterrole system:node`,
	})
}

// PowerShell's environment written into a file that stays (the project,
// the desktop, a public folder), by redirection or by a file cmdlet; its
// near misses: the names alone, a filtered look, one variable that holds
// no secret, the null device, the user's own temporary folder.
func TestRound41PowerShellEnvironmentToFile(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{`Get-ChildItem env: > C:\work\project\env.txt`, CategoryExfiltration, "environment-dumped-to-file", LevelHigh},
		{`gci env: | Out-File C:\Users\dev\Desktop\vars.txt`, CategoryExfiltration, "environment-dumped-to-file", LevelHigh},
		{`dir env: | Export-Csv env.csv`, CategoryExfiltration, "environment-dumped-to-file", LevelHigh},
		{`ls env: | Tee-Object -FilePath env.log`, CategoryExfiltration, "environment-dumped-to-file", LevelHigh},
		{`Get-ChildItem env: | Format-Table -AutoSize | Out-String -Width 200 > C:\Users\Public\env.txt`, CategoryExfiltration, "environment-dumped-to-file", LevelHigh},
	})
	checkSafe(t, d, ps, []string{
		`Get-ChildItem env: | Where-Object Name -like 'PATH*' > path-vars.txt`,
		`Get-ChildItem env: | Select-Object -ExpandProperty Name > names.txt`,
		`(Get-ChildItem env:).Name > names.txt`,
		`Get-ChildItem env:PATH > path.txt`,
		`Get-Item env:Path | Out-File path.txt`,
		`Get-ChildItem env: > $null`,
		`Get-ChildItem env: | Sort-Object Name | Out-File $env:TEMP\env.txt`,
	})
}
