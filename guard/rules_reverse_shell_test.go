package guard

import "testing"

// A shell served to the network with no password: a writable web
// terminal on every interface, or an SSH server taking empty passwords.
// A read-only or local terminal, or one with a credential, is not.
func TestShellServersWithoutPasswords(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`ttyd --writable -p 9000 zsh`, CategoryReverseShell, "shell-server-open", LevelCritical},
		{`gotty -w -a 0.0.0.0 bash`, CategoryReverseShell, "shell-server-open", LevelCritical},
		{`sudo dropbear -F -B -p 2022`, CategoryReverseShell, "shell-server-open", LevelCritical},
		{`sudo /usr/sbin/sshd -p 2200 -o PermitEmptyPasswords=yes`, CategoryReverseShell, "shell-server-open", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`ttyd -p 7681 htop`,
		`ttyd -W -i lo -p 7681 bash`,
		`ttyd -W -c dev:s3cret -p 7681 bash`,
		`dropbear -F -p 2022 -r ./hostkey`,
		`sudo sshd -t`,
	})
}
