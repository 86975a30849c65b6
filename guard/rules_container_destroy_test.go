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
