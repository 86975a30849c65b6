package guard

import "testing"

// Granting only the current user access to a key, with inheritance cut,
// tightens it.
func TestKeyTightenedToItsOwner(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{`icacls $HOME\.ssh\id_ed25519 /grant "Users:R"`, CategoryPermission, "", LevelHigh},
		{`icacls $HOME\.ssh\id_ed25519 /grant Everyone:F`, CategoryPermission, "", LevelHigh},
	})
	checkSafe(t, d, ps, []string{
		`icacls $HOME\.ssh\id_ed25519 /inheritance:r /grant:r "$($env:USERNAME):R"`,
		`icacls $HOME\.ssh\id_ed25519 /inheritance:r /grant:r "${env:USERNAME}:R"`,
	})
}
