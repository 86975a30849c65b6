package guard

import "testing"

// The user's own settings and data files replaced with another file (a
// project's .npmrc over ~/.npmrc, a build's database over an application's,
// a keyring zeroed); their near misses: a copy that cannot replace, a
// backup taken or put back, an edit through a temporary copy, a directory
// the line made, the user's programs and completions.
func TestRound40UserConfigReplaced(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`cp -f .npmrc ~/.npmrc`, CategoryFileDelete, "user-config-replaced", LevelHigh},
		{`mv config/settings.json ~/.config/Code/User/settings.json`, CategoryFileDelete, "user-config-replaced", LevelHigh},
		{`ln -sf "$PWD/.gitconfig" ~/.gitconfig`, CategoryFileDelete, "user-config-replaced", LevelHigh},
		{`cp templates/kubeconfig ~/.kube/config`, CategoryFileDelete, "user-config-replaced", LevelHigh},
		{`mv -f ./build/app.db ~/Library/Application\ Support/MyApp/app.db`, CategoryFileDelete, "user-config-replaced", LevelHigh},
		{`dd if=/dev/zero of=$HOME/.local/share/keyrings/login.keyring bs=4k count=1`, CategoryFileDelete, "user-config-replaced", LevelHigh},
		{`install -m 600 creds/netrc /home/dev/.netrc`, CategoryFileDelete, "user-config-replaced", LevelHigh},
		{`jq '."extensions.verifySignature"=false' ~/.config/Code/User/settings.json > /tmp/s.json && mv /tmp/s.json ~/.config/Code/User/settings.json`, CategoryFileDelete, "user-config-replaced", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`cp -n .npmrc ~/.npmrc`,
		`cp -i .npmrc ~/.npmrc`,
		`cp --backup=numbered .npmrc ~/.npmrc`,
		`ln -s "$PWD/.gitconfig" ~/.gitconfig`,
		`cp ~/.gitconfig ~/.gitconfig.bak`,
		`cp ~/.gitconfig.bak ~/.gitconfig`,
		`cp ~/.npmrc ~/.npmrc.bak && cp .npmrc ~/.npmrc`,
		`mkdir -p ~/.config/acme && cp config.toml ~/.config/acme/config.toml`,
		`jq '."editor.formatOnSave"=true' ~/.config/Code/User/settings.json > /tmp/s.json && mv /tmp/s.json ~/.config/Code/User/settings.json`,
		`ln -sf "$PWD/bin/acme" ~/.local/bin/acme`,
		`cp build/_acme ~/.zfunc/_acme`,
		`cp .env.example .env`,
		`cp -r themes/dark ~/.config/alacritty/themes/`,
	})
}
