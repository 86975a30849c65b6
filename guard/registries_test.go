package guard

import "testing"

// What round20a's packages, builds and registries part showed: releases
// taken back from a registry, owners added to a package, shared images
// replaced from elsewhere, install safeguards switched off, project tasks
// pointed at production. Each with the near miss that passes.

func TestRegistryReleaseTakenBack(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`npm unpublish @globex/widgets --force`, CategoryCloudDestroy, "registry-package-unpublished", LevelCritical},
		{`pnpm unpublish @globex/widgets@$ver`, CategoryCloudDestroy, "registry-package-unpublished", LevelCritical},
		{`npm unpublish @globex/widgets@4.2.0`, CategoryCloudDestroy, "registry-version-unpublished", LevelHigh},
		{`cargo yank --version 1.9.3 globex-core`, CategoryCloudDestroy, "registry-version-unpublished", LevelHigh},
		{`gem yank globex --version 2.0.0`, CategoryCloudDestroy, "registry-version-unpublished", LevelHigh},
		{`dotnet nuget delete Globex.Core 3.1.0 --source https://nuget.globex.example.com/v3/index.json --non-interactive`, CategoryCloudDestroy, "registry-version-unpublished", LevelHigh},
		{`npm owner add mallory @globex/widgets`, CategoryPrivilege, "registry-owner-added", LevelHigh},
		{`gem owner globex --add someone@example.net`, CategoryPrivilege, "registry-owner-added", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`npm unpublish @globex/widgets@4.2.0 --dry-run`,
		`npm unpublish @globex/widgets@0.0.0-pr-812`,
		`cargo yank --version 1.9.3 --undo globex-core`,
		`gem yank globex --version 0.1.0.pre.pr77`,
		`dotnet nuget delete Globex.Core 0.0.1-pr812 --source https://nuget.globex.example.com/v3/index.json --non-interactive`,
		`dotnet nuget push bin/Release/Globex.Core.3.1.0.nupkg --source https://nuget.globex.example.com/v3/index.json --api-key "$NUGET_KEY"`,
		`npm owner ls @globex/widgets`,
		`gem owner globex`,
		`npm deprecate @globex/widgets@4.2.0 "use 4.2.1"`,
	})
}

func TestImageReplacedFromElsewhere(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`skopeo copy docker://images.example.org/tools/api:2 docker://ghcr.io/globex/api:2`, CategoryRemoteExec, "registry-image-replaced", LevelHigh},
		{`crane copy mirror.example.net/base:latest registry.globex.io/base/node:22`, CategoryRemoteExec, "registry-image-replaced", LevelHigh},
		{`cosign clean --type all --force ghcr.io/globex/api:3.0.0`, CategoryCloudDestroy, "image-signatures-removed", LevelHigh},
		{`docker build --build-arg GITHUB_TOKEN="$GITHUB_TOKEN" -t ghcr.io/globex/api:3 . && docker push ghcr.io/globex/api:3`, CategoryExfiltration, "secret-baked-into-image", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`skopeo copy docker://docker.io/library/redis:7 docker://registry.globex.io/mirror/redis:7`,
		`skopeo copy docker://ghcr.io/globex/api:2 dir:tmp/api`,
		`crane copy cgr.dev/chainguard/go:latest ghcr.io/globex/base/go:candidate`,
		`crane copy ghcr.io/globex/api:2 ghcr.io/globex/api:2-backup`,
		`cosign clean --type signature --force ghcr.io/globex/api:pr-812`,
		`cosign verify ghcr.io/globex/api:3.0.0`,
		`docker build --secret id=gh,env=GITHUB_TOKEN -t ghcr.io/globex/api:3 . && docker push ghcr.io/globex/api:3`,
		// (a secret build argument is in the image's history even kept
		// local: stopped since round 46; a BuildKit secret passes)
		`docker build --secret id=gh,env=GITHUB_TOKEN -t api:local .`,
		`docker build --build-arg VERSION=3.0.0 -t ghcr.io/globex/api:3 . && docker push ghcr.io/globex/api:3`,
	})
}

func TestInstallSafeguardsOff(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo snap install globex-agent --devmode`, CategoryRemoteExec, "package-safeguard-off", LevelHigh},
		{`bun pm trust --all`, CategoryRemoteExec, "package-safeguard-off", LevelHigh},
		{`pnpm install --dangerously-allow-all-builds`, CategoryRemoteExec, "package-safeguard-off", LevelHigh},
		{`choco feature disable -n checksumFiles`, CategoryRemoteExec, "package-safeguard-off", LevelHigh},
		{`poetry config certificates.globex.cert false`, CategorySystem, "tool-tls-off", LevelHigh},
		{`set -gx NODE_TLS_REJECT_UNAUTHORIZED 0`, CategorySystem, "tool-tls-off", LevelHigh},
		{`pm2 startup systemd -u dev --hp /home/dev`, CategoryPersistence, "process-manager-boot", LevelHigh},
		{`az acr update --name globexprod --anonymous-pull-enabled true`, CategoryPermission, "cli-made-public", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`sudo snap install code --classic`,
		`bun pm trust esbuild`,
		`bun pm untrusted`,
		`choco feature enable -n allowGlobalConfirmation`,
		`poetry config certificates.globex.cert /etc/ssl/globex-ca.pem`,
		`poetry source add --priority=supplemental globex https://pypi.globex.example.com/simple/`,
		`set -gx NODE_ENV production`,
		`pm2 start ecosystem.config.js && pm2 save`,
		`az acr update --name globexprod --anonymous-pull-enabled false`,
	})
}

func TestProjectTaskAgainstProduction(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`make db-reset ENV=production`, CategoryDatabaseDestroy, "task-resets-production", LevelCritical},
		{`just drop-tables prod`, CategoryDatabaseDestroy, "task-resets-production", LevelCritical},
		{`APP_ENV=production npm run db:wipe`, CategoryDatabaseDestroy, "task-resets-production", LevelCritical},
		{`mamba env remove -p /opt/conda/envs/serving-prod -y`, CategorySystem, "shared-environment-removed", LevelHigh},
		{`conda env remove -n team-analytics -y`, CategorySystem, "shared-environment-removed", LevelHigh},
		{`sudo nix-store --delete --ignore-liveness /nix/store/abc-openssl-3`, CategorySystem, "shared-environment-removed", LevelHigh},
		{`npm token list | xargs -n1 npm token revoke`, CategorySystem, "cli-credentials-revoked", LevelHigh},
		{`sudo pacman -Rns --noconfirm $(pacman -Qq)`, CategoryContainerDestroy, "bulk-destroy-containers", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`make db-reset ENV=test`,
		`make deploy ENV=production`,
		`just drop-tables dev`,
		`npm run db:wipe`,
		`conda env remove -n scratch-py311 -y`,
		`nix-store --gc`,
		`npm token revoke 0a1b2c3d`,
		`sudo pacman -Rns --noconfirm $(pacman -Qdtq)`,
	})
}
