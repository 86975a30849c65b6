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
