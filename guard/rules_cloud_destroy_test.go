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
