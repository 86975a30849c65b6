package guard

import "testing"

// TestParenFlagsGuardsNameQualifier: whenever zshNameQualifier matches,
// parenFlags says so, over every short string of the characters that
// matter to it.
func TestParenFlagsGuardsNameQualifier(t *testing.T) {
	const alphabet = "a(N.)-x "
	var walk func(s string)
	walk = func(s string) {
		if zshNameQualifier.MatchString(s) && !parenFlags(s, "NDM./@^-") {
			t.Errorf("parenFlags(%q) is false but zshNameQualifier matches", s)
		}
		if len(s) == 6 {
			return
		}
		for i := range len(alphabet) {
			walk(s + alphabet[i:i+1])
		}
	}
	walk("")
}
