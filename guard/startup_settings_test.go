package guard

import "testing"

// Appending plain settings to a start-up file (variables, the user's own
// directories on PATH) is everyday; hooks, loader and history variables,
// PATH entries elsewhere and commands are persistence.
func TestStartupFileSettings(t *testing.T) {
	d := NewDetector(Options{})
	checkSafe(t, d, testCtx, []string{
		`echo 'export PATH="$HOME/.local/bin:$PATH"' >> ~/.bashrc`,
		`echo 'export GOPATH=$HOME/go' >> ~/.zshrc`,
		`echo 'export PATH="$PATH:$HOME/.cargo/bin"' >> ~/.profile`,
	})
	checkDanger(t, d, testCtx, []dangerCase{
		{`echo 'export PATH=/tmp/.bin:$PATH' >> ~/.bashrc`, CategoryPersistence, "", LevelModerate},
		{`echo 'export PATH="$HOME/.x:$PATH"' >> ~/.bashrc`, CategoryPersistence, "", LevelModerate},
		{`echo 'export LD_PRELOAD=$HOME/l.so' >> ~/.bashrc`, CategoryPersistence, "", LevelModerate},
		{`echo 'export HISTFILE=/dev/null' >> ~/.bashrc`, "", "", LevelModerate},
		{`echo 'alias sudo="sudo -E"' >> ~/.bashrc`, CategoryPersistence, "", LevelModerate},
		{`echo 'export X=1; cd /srv' >> ~/.bashrc`, CategoryPersistence, "", LevelModerate},
		{`echo 'export PATH="$HOME/bin:$PATH"' > ~/.bashrc`, CategoryPersistence, "", LevelModerate},
	})
}
