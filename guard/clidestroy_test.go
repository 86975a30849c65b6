package guard

import "testing"

// A client told to delete everything it manages, whichever client, or a
// local VM manager deleting its default machine (and every container in
// it).
func TestClientDeletingEverything(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`cli53 delete --purge example.com`, CategoryCloudDestroy, "cli-destroy-everything", LevelModerate},
		{`xcrun simctl delete all`, CategoryCloudDestroy, "cli-destroy-everything", LevelModerate},
		{`acmectl projects delete --all`, CategoryCloudDestroy, "", LevelModerate},
		{`colima delete --force`, CategoryCloudDestroy, "cli-destroy-everything", LevelModerate},
	})
	checkSafe(t, d, testCtx, []string{
		`xcrun simctl delete unavailable`,
		`acmectl projects delete scratch-42`,
		`colima delete dev-test`,
		`acmectl projects list --all`,
	})
}

// Clients of hosted services whose target is production only by the host
// they talk to (api.prod.internal, shop-prod.example.com), whose verb is
// joined to its object (bucket-delete) or an API action (DeleteInstance),
// and database-branching services whose main branch is the live one.
func TestClientDeletingInProduction(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`acmectl --api https://api.prod.acme.internal jobs delete nightly`, CategoryCloudDestroy, "cli-destroy-durable", LevelHigh},
		{`akamai property-manager delete --property shop-prod.example.com`, CategoryCloudDestroy, "cli-destroy-durable", LevelHigh},
		{`couchbase-cli bucket-delete -c cb1.internal -u admin --bucket orders`, CategoryCloudDestroy, "cli-destroy-durable", LevelHigh},
		{`neonctl branches delete main --project-id quiet-sun-42`, CategoryCloudDestroy, "cli-destroy-durable", LevelHigh},
		{`pscale branch delete shop production --force`, CategoryCloudDestroy, "", LevelHigh},
		{`aliyun ecs DeleteInstance --InstanceId i-bp1abc`, CategoryCloudDestroy, "cli-destroy-durable", LevelHigh},
		{`tccli cvm TerminateInstances --InstanceIds '["ins-1"]'`, CategoryCloudDestroy, "cli-destroy-durable", LevelHigh},
	})
	checkSafe(t, d, testCtx, []string{
		`acmectl --api https://api.staging.acme.internal jobs delete nightly`,
		`acmectl --api https://api.prod.acme.internal jobs list`,
		`akamai property-manager delete --property shop-staging.example.com`,
		`couchbase-cli bucket-list -c cb1.internal -u admin`,
		`neonctl branches delete feature-login --project-id quiet-sun-42`,
		`aliyun ecs DescribeInstances --RegionId cn-hangzhou`,
		`tccli cvm DescribeInstances`,
	})
}
