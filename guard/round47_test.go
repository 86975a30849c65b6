package guard

import "testing"

// A package published to its tool's public registry (the default one,
// or named) is code given to everyone and a release that cannot be
// taken back; a dry run, a local, test or organisation registry, and a
// release run whole in one line (built and checked, or attested with
// provenance) pass.
func TestRound47PackagePublished(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`npm publish --tag beta`, CategoryExfiltration, "package-published", LevelCritical},
		{`yarn npm publish --access public`, CategoryExfiltration, "package-published", LevelCritical},
		{`twine upload dist/acme-1.0.tar.gz`, CategoryExfiltration, "package-published", LevelCritical},
		{`twine upload -r pypi dist/*`, CategoryExfiltration, "package-published", LevelCritical},
		{`uv publish --publish-url https://upload.pypi.org/legacy/ --token $UV_TOKEN`, CategoryExfiltration, "package-published", LevelCritical},
		{`cargo publish --no-verify`, CategoryExfiltration, "package-published", LevelCritical},
		{`gem push acme-2.1.0.gem`, CategoryExfiltration, "package-published", LevelCritical},
		{`dart pub publish -f`, CategoryExfiltration, "package-published", LevelCritical},
		{`pod trunk push Acme.podspec`, CategoryExfiltration, "package-published", LevelCritical},
		{`ovsx publish -p $OVSX_TOKEN`, CategoryExfiltration, "package-published", LevelCritical},
		{`./mvnw -B deploy -DskipTests`, CategoryExfiltration, "package-published", LevelCritical},
		{`./gradlew publishToSonatype closeAndReleaseSonatypeStagingRepository`, CategoryExfiltration, "package-published", LevelCritical},
	})
	checkDanger(t, d, winCorpusContextFor("powershell"), []dangerCase{
		{`dotnet nuget push .\out\Acme.Api.3.0.0.nupkg -s https://api.nuget.org/v3/index.json -k $env:NUGET_KEY`, CategoryExfiltration, "package-published", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`npm publish --dry-run`,
		`npm publish --registry http://localhost:4873/`,
		`pnpm publish --registry https://npm.pkg.github.com`,
		`twine upload -r testpypi dist/*`,
		`twine upload --repository-url https://test.pypi.org/legacy/ dist/*`,
		`poetry publish -r acme-internal`,
		`cargo publish --dry-run`,
		`cargo publish --registry acme`,
		`gem push acme-2.1.0.gem --host https://gems.acme.internal`,
		`flutter pub publish --dry-run`,
		`./gradlew publishToMavenLocal`,
		`mvn -B deploy -DaltDeploymentRepository=staging::file:./target/staging`,
		`npm run build && npm publish --provenance --access public`,
		`python -m build && twine check dist/* && twine upload dist/*`,
		`npm view acme versions`,
	})
	checkSafe(t, d, winCorpusContextFor("powershell"), []string{
		`dotnet nuget push .\out\*.nupkg --source https://pkgs.dev.azure.com/acme/_packaging/feed/nuget/v3/index.json --api-key az`,
		`dotnet pack -c Release -o out; dotnet nuget push out\*.nupkg -s https://api.nuget.org/v3/index.json -k $env:NUGET_KEY`,
	})
}
