package guard

import "testing"

// Pruning filtered to what is older than a bound is retention.
func TestAgedPrunes(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`docker container prune -f`, CategoryContainerDestroy, "docker-container-prune", LevelModerate},
		{`docker image prune -a -f`, CategoryContainerDestroy, "docker-image-prune-all", LevelModerate},
		{`docker container prune --filter label=app=web -f`, CategoryContainerDestroy, "docker-container-prune", LevelModerate},
		{`docker container prune --filter until=10m -f`, CategoryContainerDestroy, "docker-container-prune", LevelModerate},
		{`docker image prune --all --force --filter until=1h`, CategoryContainerDestroy, "docker-image-prune-all", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`docker container prune --filter 'until=24h' -f`,
		`docker container prune --filter until=168h`,
	})
}

// A volume named for what an install fills again holds no data.
func TestRebuildableVolumes(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`docker volume rm billing-data`, CategoryContainerDestroy, "docker-volume-rm", LevelModerate},
		{`docker volume rm web_node_modules pgdata`, CategoryContainerDestroy, "docker-volume-rm", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`docker volume rm web_node_modules`,
		`docker volume rm gradle-cache`,
	})
}

// Resetting the node's Kubernetes tears down everything on it.
func TestClusterNodeReset(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo kubeadm reset -f`, CategoryContainerDestroy, "cluster-node-reset", LevelHigh},
		{`sudo /usr/local/bin/k3s-uninstall.sh`, CategoryContainerDestroy, "cluster-node-reset", LevelHigh},
		{`microk8s reset --destroy-storage`, CategoryContainerDestroy, "cluster-node-reset", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`kubeadm token list`,
		`microk8s status`,
	})
}

// Hyper-V machines deleted.
func TestHyperVMachinesRemoved(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{`Get-VM | ForEach-Object { Remove-VM $_ -Force; Remove-Item $_.HardDrives.Path -Force }`, CategoryContainerDestroy, "", LevelHigh},
	})
	checkSafe(t, d, ps, []string{
		`Get-VM | Select-Object Name, State`,
		`Remove-VM build01 -WhatIf`,
	})
}

// Every swarm service scaled to zero.
func TestEveryServiceScaledToZero(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`docker service ls -q | xargs -I{} docker service scale {}=0`, CategoryContainerDestroy, "docker-stop-all", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`docker service scale web=0`,
		`docker service ls -q | xargs -I{} docker service inspect {}`,
	})
}

// Deploy tools tearing down what they deployed to a production or shared
// cluster, kubectl deleting what manifests leave out, compose removing
// services with their volumes.
func TestDeployTeardownsPrunesAndServiceVolumes(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`helmfile -e production destroy`, CategoryContainerDestroy, "orchestrator-teardown", LevelHigh},
		{`devspace purge --kube-context live-cluster`, CategoryContainerDestroy, "orchestrator-teardown", LevelHigh},
		{`kubectl apply --prune -l app=web -f k8s/`, CategoryContainerDestroy, "orchestrator-teardown", LevelHigh},
		{`kubectl replace --force -f deploy.yaml --context prod-west`, CategoryContainerDestroy, "orchestrator-teardown", LevelHigh},
		{`docker compose rm -fsv db`, CategoryContainerDestroy, "compose-down-volumes", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`skaffold delete`,
		`tilt down`,
		`helmfile -e dev destroy`,
		`kubectl apply -f k8s/`,
		`kubectl replace -f deploy.yaml`,
		`docker compose rm -f web`,
	})
}

// Global options written before the verb (the cluster's context, the
// compose file) and the clients a distribution ships under its own name
// do not hide the verb.
func TestClientGlobalsBeforeVerbAndBundledClients(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`helm --kube-context prod-east uninstall payments -n pay`, CategoryContainerDestroy, "", LevelHigh},
		{`kubectl --context prod -n db replace --force -f k8s/db.yaml`, CategoryContainerDestroy, "", LevelHigh},
		{`docker compose -f compose.prod.yml -p shop down --volumes`, CategoryContainerDestroy, "", LevelHigh},
		{`docker --context prod-swarm compose down -v`, CategoryContainerDestroy, "", LevelModerate},
		{`microk8s kubectl delete namespace --all`, CategoryContainerDestroy, "", LevelHigh},
		{`minikube kubectl -- delete all --all -A`, CategoryContainerDestroy, "", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`helm --kube-context prod-east status payments -n pay`,
		`kubectl --context prod -n db get pods`,
		`docker compose -f compose.prod.yml -p shop ps`,
		`docker --context prod-swarm compose logs -f`,
		`microk8s kubectl get nodes`,
		`minikube kubectl -- get pods -A`,
		`k3s server --disable traefik`,
	})
}

// One repository's images, listed by name, are that repository's (the
// project's builds); every image is everyone's.
func TestImagesOfOneRepository(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`docker images -q | sort -u | xargs -r docker rmi -f`, CategoryContainerDestroy, "", LevelModerate},
		{`docker rmi -f $(docker images -q)`, CategoryContainerDestroy, "", LevelModerate},
	})
	checkSafe(t, d, testCtx, []string{
		`docker images -q acme-api | sort -u | xargs -r docker rmi -f`,
		`docker rmi -f $(docker images -q acme-api)`,
	})
}
