package guard

import "testing"

// Manifests rendered from production's overlay and piped to kubectl
// delete are deleted there; a command behind winpty is still the command.
func TestRenderedManifestsDeleted(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`kustomize build overlays/production | kubectl delete -f -`, CategoryContainerDestroy, "orchestrator-teardown", LevelHigh},
		{`helm template api charts/api -f values-prod.yaml | kubectl delete -f -`, CategoryContainerDestroy, "orchestrator-teardown", LevelHigh},
		{`winpty kubectl exec -it -n production deploy/redis -- redis-cli FLUSHALL`, CategoryDatabaseDestroy, "", LevelCritical},
	})
	checkSafe(t, d, testCtx, []string{
		`kustomize build overlays/production | kubectl apply -f -`,
		`kustomize build overlays/dev | kubectl delete -f -`,
		`winpty docker exec -it web bash`,
	})
}

// Settings that open a shared service or weaken an account: anonymous
// users let in, a production cache's password dropped, soft delete off,
// a storage account's containers allowed to go public, a password policy
// below eight characters.
func TestServiceSettingsWeakened(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`helm upgrade grafana grafana/grafana -n monitoring --reuse-values --set 'grafana\.ini.auth\.anonymous.enabled=true'`, CategorySystem, "chart-auth-off", LevelHigh},
		{`helm install cache bitnami/redis --set auth.enabled=false -n production`, CategorySystem, "chart-auth-off", LevelHigh},
		{`az storage account blob-service-properties update --account-name acmebackups --resource-group rg-backup --enable-delete-retention false`, CategorySystem, "cli-security-off", LevelHigh},
		{`az keyvault update --name kv-prod --enable-purge-protection false`, CategorySystem, "cli-security-off", LevelHigh},
		{`az storage account update --name acmeprodstore --resource-group rg-data-prod --allow-blob-public-access true`, CategoryExfiltration, "", LevelHigh},
		{`aws iam update-account-password-policy --minimum-password-length 6`, CategorySystem, "cli-security-off", LevelHigh},
		{`aws iam update-account-password-policy --minimum-password-length 12 --no-require-symbols`, CategorySystem, "cli-security-off", LevelHigh},
	})
	checkSafe(t, d, testCtx, []string{
		`helm install cache bitnami/redis --set auth.enabled=false -n dev`,
		`helm install cache bitnami/redis --set auth.enabled=true -n production`,
		`helm upgrade grafana grafana/grafana -n monitoring --set 'grafana\.ini.auth\.anonymous.enabled=false'`,
		`az storage account blob-service-properties update --account-name acmebackups --resource-group rg-backup --enable-delete-retention true --delete-retention-days 14`,
		`az storage account update --name acmeprodstore --resource-group rg-data-prod --allow-blob-public-access false`,
		`aws iam update-account-password-policy --minimum-password-length 14 --require-symbols --require-numbers`,
	})
}

// A database's connection URL printed carries its password; ending a
// monitoring downtime brings the alerts back; a scratch dataset of the
// staging project is a throwaway.
func TestConnectionURLsDowntimesAndScratchDatasets(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`heroku pg:credentials:url DATABASE -a acme-api-prod`, CategoryExfiltration, "cli-secret-printed", LevelHigh},
		{`curl -X DELETE https://api.datadoghq.com/api/v1/monitor/2910 -H "DD-API-KEY: $DD_API_KEY"`, CategoryCloudDestroy, "http-delete-remote", LevelHigh},
		{`bq rm -f -t acme-staging-118273:analytics.events`, CategoryDatabaseDestroy, "", LevelHigh},
	})
	checkSafe(t, d, testCtx, []string{
		`heroku pg:info -a acme-api-prod`,
		`curl -X DELETE https://api.datadoghq.com/api/v1/downtime/2910 -H "DD-API-KEY: $DD_API_KEY"`,
		`curl -X DELETE https://api.pagerduty.com/maintenance_windows/PW98YIO -H "Authorization: Token token=$PD_TOKEN"`,
		`bq rm -f -t acme-staging-118273:scratch.jsmith_tmp_join`,
	})
}
