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
		{`firebase hosting:disable --project shop -f`, CategoryCloudDestroy, "cli-destroy-confirmed", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`netlify sites:delete my-site`,
		`firebase hosting:disable --project shop-preview -f`,
		`firebase hosting:channel:list`,
	})
}
