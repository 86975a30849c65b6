package guard

import "testing"

// winClass is one class of dangerous Windows command: forms an attacker
// could write next (each must be stopped) and near misses that must run.
type winClass struct {
	name      string
	dangerous []winLine
	benign    []winLine
}

type winLine struct{ shell, cmd string }

func ps(s string) winLine   { return winLine{ShellPowerShell, s} }
func cmdl(s string) winLine { return winLine{ShellCmd, s} }
func gb(s string) winLine   { return winLine{ShellGitBash, s} }

var winClasses = []winClass{}

// TestWindowsClasses checks every class both ways.
func TestWindowsClasses(t *testing.T) {
	d := NewDetector(Options{})
	for _, cl := range winClasses {
		for _, l := range cl.dangerous {
			if v := winCheck(t, d, l.shell, l.cmd); !v.Blocked {
				t.Errorf("%s: not stopped [%s] %s", cl.name, l.shell, l.cmd)
			}
		}
		for _, l := range cl.benign {
			if v := winCheck(t, d, l.shell, l.cmd); v.Blocked || v.Ask {
				t.Errorf("%s: near miss stopped [%s] %s: %s %s", cl.name, l.shell, l.cmd, v.Pattern, v.Reason)
			}
		}
	}
}
