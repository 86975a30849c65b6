package guard

import "testing"

// The cloud cmdlets of Google and AWS delete as their CLIs do.
func TestCloudCmdletsDelete(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{`Remove-GcsBucket -Name acme-prod-assets -Force`, CategoryCloudDestroy, "win-cloud-delete", LevelHigh},
		{`Remove-CFNStack -StackName web -Force`, CategoryCloudDestroy, "win-cloud-delete", LevelHigh},
	})
	checkSafe(t, d, ps, []string{
		`Get-GcsBucket`,
		`Get-CFNStack -StackName web`,
	})
}

// Infrastructure forced to be replaced and applied without review.
func TestForcedReplacementApplied(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`terraform taint aws_instance.web && terraform apply -auto-approve`, CategoryCloudDestroy, "iac-replace", LevelHigh},
		{`terraform apply -replace=aws_instance.web -auto-approve`, CategoryCloudDestroy, "iac-replace", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`terraform apply -auto-approve`,
		`terraform plan -replace=aws_instance.web`,
	})
}

// A TOPIC:VERB subcommand that deletes or switches off what the topic
// names, with the prompt answered in advance; prompting forms still ask.
func TestColonVerbsDestroyConfirmed(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`netlify sites:delete my-site --force`, CategoryCloudDestroy, "cli-destroy-confirmed", LevelHigh},
		{`firebase hosting:disable --project shop -f`, CategoryCloudDestroy, "paas-production-change", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`netlify sites:delete my-site`,
		`firebase hosting:disable --project shop-preview -f`,
		`firebase hosting:channel:list`,
	})
}

// Clients nobody listed deleting what a rebuild does not bring back (a
// hosted project, repository, domain or pushed image) or anything named
// production, even where they would ask first; the same verbs on scratch
// resources, local objects or help pages are not.
func TestUnlistedClientsDeleteDurable(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`skyctl projects delete polished-sun-123456`, CategoryCloudDestroy, "cli-destroy-durable", LevelHigh},
		{`modelhub repo delete acme/customer-dataset --repo-type dataset`, CategoryCloudDestroy, "cli-destroy-durable", LevelHigh},
		{`edgectl domains rm shop.example.com`, CategoryCloudDestroy, "cli-destroy-durable", LevelHigh},
		{`imgtool tag delete registry.example.com/acme/api:v3.2.0`, CategoryCloudDestroy, "cli-destroy-durable", LevelHigh},
		{`quill remove --stage production`, CategoryCloudDestroy, "cli-destroy-durable", LevelHigh},
		{`cloudy resource service-instance-delete acme-db-prod`, CategoryCloudDestroy, "cli-destroy-durable", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`skyctl projects delete acme-scratch-123`,
		`skyctl projects delete --help`,
		`quill remove --stage pr-123-preview`,
		`imgtool tag delete localhost:5000/acme/api:test`,
		`edgectl domains list`,
		`skyctl cache rm build-artifacts`,
	})
}

// Account-wide deleters, unless they only inspect or dry-run.
func TestCloudAccountNukers(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`cloud-nuke gcp --force`, CategoryCloudDestroy, "cloud-account-nuke", LevelCritical},
		{`aws-nuke -c nuke.yml --no-dry-run --force`, CategoryCloudDestroy, "cloud-account-nuke", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`cloud-nuke inspect-aws --region eu-west-1`,
		`cloud-nuke aws --dry-run`,
		`aws-nuke -c nuke.yml`,
	})
}
