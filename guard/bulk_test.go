package guard

import "testing"

// Destroying whatever a listing of the same program printed is destroying
// everything, whichever program it is; a filtered listing, a listing of
// one kind by name, or session objects stay allowed.
func TestBulkDestroyFromListing(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`sudo ctr -n k8s.io images rm $(sudo ctr -n k8s.io images ls -q)`, CategoryContainerDestroy, "bulk-destroy-containers", LevelHigh},
		{`docker ps -a --format '{{.ID}}' | awk '{print}' | xargs -r -n 20 docker rm -f`, CategoryContainerDestroy, "bulk-destroy-containers", LevelHigh},
		{`kubectl get ns -o name | xargs kubectl delete`, CategoryContainerDestroy, "", LevelHigh},
		{`podman pod rm -f $(podman pod ls -q)`, CategoryContainerDestroy, "bulk-destroy-containers", LevelHigh},
		{`virsh list --name | xargs -n1 virsh destroy`, CategoryContainerDestroy, "bulk-destroy-containers", LevelHigh},
		{`for p in $(ps -e -o pid=); do kill -9 $p; done`, CategorySystem, "bulk-kill-processes", LevelHigh},
		{`git tag -d $(git tag -l)`, CategoryGitDestroy, "bulk-delete-refs", LevelModerate},
	})
	checkSafe(t, d, testCtx, []string{
		`docker rm $(docker ps -q --filter status=exited --filter label=acme.test)`,
		`kubectl get pods -l app=web -o name | xargs kubectl delete`,
		`git tag -l 'v0.*' | xargs git tag -d`,
		`for p in $(pgrep -f acme-dev-server); do kill $p; done`,
		`docker images ls -q | wc -l`,
		`kubectl get pods -o name | xargs -n1 kubectl describe`,
		`ls build | xargs rm -rf`,
	})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{`Get-VM | Get-VMSnapshot | Remove-VMSnapshot -IncludeAllChildSnapshots`, CategoryContainerDestroy, "bulk-destroy-containers", LevelHigh},
		{`Get-AppxPackage | Remove-AppxPackage`, CategoryContainerDestroy, "bulk-destroy-containers", LevelHigh},
	})
	checkSafe(t, d, ps, []string{
		`Get-Job | Remove-Job -Force`,
		`Get-PSSession | Remove-PSSession`,
		`Get-VM -Name test-vm | Get-VMSnapshot | Remove-VMSnapshot`,
		`Get-Module | Remove-Module`,
	})
}
