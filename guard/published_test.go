package guard

import "testing"

// Keys copied or linked where others read files (a web root, a shared
// folder, the project's public assets) are published.
func TestSecretsPublished(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`cp ~/.ssh/id_* /var/www/html/`, CategoryExfiltration, "secret-published", LevelHigh},
		{`cp ~/.aws/credentials ./public/`, CategoryExfiltration, "secret-published", LevelHigh},
		{`ln -s ~/.ssh /var/www/html/keys`, CategoryExfiltration, "secret-published", LevelHigh},
		{`cp ~/.kube/config /Users/Shared/`, CategoryExfiltration, "secret-published", LevelHigh},
	})
	checkSafe(t, d, testCtx, []string{
		`cp ~/.ssh/id_ed25519.pub ./public/`,
		`cp dist/index.html /var/www/html/`,
		`cp .env.example ./public/`,
		`cp ~/.gitconfig ./backup/`,
	})
}
