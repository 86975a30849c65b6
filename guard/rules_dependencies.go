package guard

import (
	"path"
	"strings"
)

// Dependencies: a project's manifests, lock files and package settings
// pointed at code from elsewhere. Nothing runs yet, but the next install
// or build (the developer's, a teammate's, CI's) fetches that code and
// runs its install scripts.

var dependencyRules = []*rule{
	{ID: "ci-config-exfil", Level: LevelCritical, Category: CategoryExfiltration, Description: "making the CI pipeline send its environment or secrets to a site, or replacing a pipeline with one downloaded from elsewhere (it runs with the repository's secrets on the next push)",
		Suggestions: []string{"Print the names of the variables a job sees, not their values", "Write pipeline changes by hand and have them reviewed"},
		names:       names("echo", "printf", "print", "cat", "tee", "sed", "yq", "perl", "curl", "wget"),
		match: func(a *analysis, c *cmd) (bool, string) {
			targets := a.writeTargets(c)
			if (c.name == "yq" || c.name == "sed" || c.name == "perl") && hasPrefixWord(c.args(), "-i") {
				// yq -i EXPR .gitlab-ci.yml: edited in place
				for _, w := range c.operands() {
					if p := a.absPath(w.s, c.cwd); p != "" && ciConfigFile(p) {
						targets = append(targets, writeTarget{path: p, raw: w.s})
					}
				}
			}
			for _, t := range targets {
				if t.path == "" || !ciConfigFile(t.path) {
					continue
				}
				if c.name == "curl" || c.name == "wget" {
					for _, u := range urlArgs(c.args()) {
						if h := lower(hostOf(u)); h != "" && !isLocalHost(h) && !internalHost(h) {
							return true, t.raw + " downloaded from " + h
						}
					}
					continue
				}
				text := t.content.text
				for _, w := range c.args() {
					text += " " + w.s
				}
				if l := lower(text); hasAny(l, "curl ", "wget ", "invoke-webrequest", "invoke-restmethod", "nc ", "ncat ") &&
					hasAny(l, "printenv", "$(env)", "`env`", "env |", "env|", "secrets.", "tojson(secrets)", "set |", "export -p") {
					return true, t.raw + ": a step sending the job's environment away"
				}
			}
			return false, ""
		}},
	{ID: "dependency-source-swapped", Level: LevelCritical, Category: CategoryRemoteExec, Description: "pointing a project's dependencies at code from an unknown server, a stranger's fork or a repository's moving branch (the next install or build runs it)",
		Suggestions: []string{"Add the dependency from the usual registry, at a released version", "Pin a reviewed commit of a fork you own, and say why"},
		names:       names("go", "npm", "pnpm", "yarn", "sed", "perl", "jq", "cargo", "gradlew", "./gradlew", "gradlew.bat", "gradle"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "go":
				// go mod edit -replace OLD=NEW: every import of OLD
				// compiled from NEW
				if len(ops) < 2 || ops[0].s != "mod" || ops[1].s != "edit" {
					return false, ""
				}
				for i, w := range args {
					v, ok := strings.CutPrefix(w.s, "-replace=")
					if !ok {
						v, ok = strings.CutPrefix(w.s, "--replace=")
					}
					if !ok && (w.s == "-replace" || w.s == "--replace") && i+1 < len(args) {
						v, ok = args[i+1].s, true
					}
					if ok && foreignReplace(v) {
						return true, "go mod edit -replace " + v
					}
				}
			case "npm", "pnpm", "yarn":
				// npm pkg set dependencies.lodash=https://host/l.tgz
				if len(ops) < 3 || ops[0].s != "pkg" || ops[1].s != "set" {
					return false, ""
				}
				for _, w := range ops[2:] {
					k, v, ok := strings.Cut(w.s, "=")
					if ok && k == "publishConfig.registry" {
						// the next publish, and its token, sent there
						if h := hostOf(strings.Trim(v, `"'`)); h != "" && !ownPackageHost(h) {
							return true, k + "=" + v
						}
					}
					if ok && dependencyKey(k) {
						if u := foreignDependency(v); u != "" {
							return true, k + "=" + u
						}
					}
				}
			case "gradlew", "./gradlew", "gradlew.bat", "gradle":
				// gradlew wrapper --gradle-distribution-url http://IP/x.zip:
				// the build tool itself from elsewhere, run by every build
				if v, ok := optValue(args, "", "gradle-distribution-url"); ok && !officialDistribution(v) {
					return true, "gradle wrapper from " + v
				}
			case "sed", "perl":
				// sed -i 's#registry.npmjs.org#npm.host#' package-lock.json,
				// sed -i '/^\[dependencies\]/a x = { git = "URL" }' Cargo.toml
				for _, t := range a.writeTargets(c) {
					base := path.Base(t.path)
					if !manifestFile(base) && !(projectPackageSettings(t.path) && !a.isHomeSettings(t.path)) {
						continue
					}
					for _, w := range args {
						if u := registrySwapScript(w.s); u != "" {
							return true, t.raw + ": " + u
						}
						// distributionUrl=https\://dl.example.net/gradle.zip in
						// the wrapper's properties
						if strings.HasSuffix(base, "-wrapper.properties") {
							if _, to, ok := sedSubst(w.s); ok && strings.Contains(to, "distributionUrl=") {
								if u := strings.ReplaceAll(strings.SplitN(to, "distributionUrl=", 2)[1], `\:`, ":"); !officialDistribution(u) {
									return true, t.raw + ": the build tool from " + u
								}
							}
						}
						// s/"integrity": "[^"]*",//, /integrity/d: the lock
						// file's hashes stripped, any tarball then accepted
						deletes := func(l string) bool {
							return strings.HasSuffix(l, "/d") || strings.HasPrefix(l, "s") && (strings.HasSuffix(l, "//") || strings.HasSuffix(l, "//g"))
						}
						if l := strings.TrimSpace(lower(w.s)); (strings.Contains(l, "integrity") || strings.Contains(l, "checksum") || strings.Contains(l, "--hash")) && deletes(l) {
							return true, t.raw + ": its integrity hashes removed"
						}
						// /^ignore-scripts=true/d in .npmrc: every package's
						// install scripts run again
						if l := strings.TrimSpace(lower(w.s)); strings.Contains(l, "ignore-scripts") && deletes(l) {
							return true, t.raw + ": install scripts allowed again"
						}
					}
					if c.name == "sed" {
						if u := foreignDependencyIn(sedInsertedText(args)); u != "" {
							return true, t.raw + ": " + u
						}
					}
				}
			case "jq":
				// jq '.dependencies.x = "git+https://…"' package.json > p.json
				if !outputRedirected(c) && c.pipe == nil {
					return false, ""
				}
				if len(ops) < 2 || !manifestFile(path.Base(ops[len(ops)-1].s)) || !strings.Contains(ops[0].s, "=") {
					return false, ""
				}
				for _, f := range strings.FieldsFunc(ops[0].s, func(r rune) bool { return r == '"' || r == ' ' || r == '\'' }) {
					if u := foreignDependency(f); u != "" {
						return true, "jq " + u + " into " + ops[len(ops)-1].s
					}
				}
			case "cargo":
				// cargo add NAME --git URL: the branch's head, built with
				// its build script at the next build
				if len(ops) == 0 || ops[0].s != "add" {
					return false, ""
				}
				if u, ok := optValue(args, "", "git"); ok && !hasWord(args, "--tag") && !hasWord(args, "--rev") && !hasPrefixWord(args, "--tag=") && !hasPrefixWord(args, "--rev=") && !isLocalHost(hostOf(u)) {
					return true, "cargo add --git " + u
				}
			}
			return false, ""
		}},
	{ID: "dependency-source-written", Level: LevelCritical, Category: CategoryRemoteExec, Description: "writing into a project's manifest, lock file or package settings a dependency or package source from an unknown server or a moving branch (the next install runs it)",
		Suggestions: []string{"Add the dependency with the package manager, from the usual registry", "Keep the project's package sources on the registries it already uses"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.writeTargets(c) {
				if t.content.kind != flowText || t.path == "" || a.isHomeSettings(t.path) || t.class != wNone {
					continue
				}
				base := path.Base(t.path)
				switch {
				case manifestFile(base) && payloadInSettings(t.content.text) == "":
					// (a lifecycle script that fetches and runs code is
					// the persistence rules' finding)
					if u := foreignDependencyIn(t.content.text); u != "" {
						return true, t.raw + ": " + u
					}
				case projectPackageSettings(t.path):
					if u := foreignPackageSource(t.content.text); u != "" {
						return true, t.raw + ": packages from " + u
					}
				}
			}
			return false, ""
		}},
}

// checksSkippedRule: a project's security checks switched off for what
// follows: secret scanners skipped by pre-commit's SKIP, audit and
// scanning steps deleted from the CI configuration, every vulnerability
// ignored, a browser's extension signatures no longer required.
var checksSkippedRule = &rule{ID: "security-checks-skipped", Level: LevelHigh, Category: CategorySystem, Description: "switching a project's security checks off: secret scanning skipped at commit, audit or scanning steps deleted from CI, every vulnerability ignored, extension signatures off",
	Suggestions: []string{"Fix or ignore the one finding, with a reason", "Keep the checks; ask the project's owners to change them"},
	names:       names("git", "sed", "echo", "printf", "tee", "perl", "yq"),
	match: func(a *analysis, c *cmd) (bool, string) {
		switch c.name {
		case "git":
			// SKIP=gitleaks,detect-secrets git commit: pre-commit's
			// secret scanners skipped for this commit
			sub, _ := gitSub(c)
			if sub != "commit" && sub != "push" && sub != "merge" {
				return false, ""
			}
			for _, as := range c.assigns {
				if as.name == "SKIP" && hasAny(lower(as.val.s), "gitleaks", "detect-secrets", "trufflehog", "ggshield", "talisman", "secretlint", "semgrep", "bandit", "trivy", "osv-scanner") {
					return true, "SKIP=" + as.val.s
				}
			}
			return false, ""
		case "sed", "perl", "yq":
			for _, t := range a.writeTargets(c) {
				if !a.inWork(t.path) {
					continue
				}
				// s/verify=True/verify=False/ in the project's code: its
				// clients stop checking certificates
				for _, w := range c.args() {
					if from, to, ok := sedSubst(w.s); ok && tlsOffText(to) && !tlsOffText(from) {
						return true, t.raw + ": certificate checks turned off in the code"
					}
				}
				if !ciConfigFile(t.path) {
					continue
				}
				// s#uses: actions/checkout@v4#uses: act1ons/checkout@v4#:
				// a workflow's action taken from another owner
				for _, w := range c.args() {
					if from, to, ok := sedSubst(w.s); ok {
						fo, to2 := actionOwner(from), actionOwner(to)
						if fo != "" && to2 != "" && fo != to2 {
							return true, t.raw + ": action " + fo + " replaced by " + to2
						}
					}
				}
				for _, w := range c.args() {
					l := lower(w.s)
					if (strings.HasSuffix(strings.TrimSpace(l), "/d") || strings.Contains(l, "del(")) &&
						hasAny(l, "audit", "trivy", "snyk", "semgrep", "codeql", "gitleaks", "bandit", "grype", "dependency-check", "sonar", "osv-scanner", "trufflehog") {
						return true, t.raw + ": security steps removed"
					}
				}
			}
			return false, ""
		}
		for _, t := range a.writeTargets(c) {
			base := lower(path.Base(t.path))
			text := ""
			for _, w := range c.operands() {
				text += w.s + "\n"
			}
			switch {
			case base == ".trivyignore" || base == ".grype.yaml" || base == ".snyk" || base == ".nsprc" || base == ".auditignore":
				// CVE-* or *: every finding, now and later
				for line := range strings.SplitSeq(text, "\n") {
					if l := strings.TrimSpace(line); l == "*" || l == "CVE-*" || strings.HasSuffix(l, ":*") || l == "GHSA-*" {
						return true, t.raw + ": every vulnerability ignored"
					}
				}
			case (base == "user.js" || base == "prefs.js") && strings.Contains(text, "xpinstall.signatures.required") && strings.Contains(text, "false"):
				return true, "Firefox extension signatures not required"
			}
		}
		return false, ""
	}}

// officialDistribution reports a build tool's distribution URL on its
// publisher's own servers (or this machine).
func officialDistribution(u string) bool {
	h := lower(hostOf(u))
	return h == "services.gradle.org" || h == "downloads.gradle.org" || h == "repo.maven.apache.org" || h == "repo1.maven.org" || loopback(h)
}

// sedSubst splits a sed substitution (s/from/to/flags, any separator
// but a letter, a digit, a space or a backslash; an escaped separator,
// http:\/\/host, is part of the text).
func sedSubst(script string) (from, to string, ok bool) {
	script = strings.TrimSpace(script)
	if len(script) < 4 || script[0] != 's' {
		return "", "", false
	}
	sep := script[1]
	if sep == ' ' || sep == '\\' || isAlnum(sep) {
		return "", "", false
	}
	parts := strings.Split(strings.ReplaceAll(script[2:], `\`+string(sep), "\x00"), string(sep))
	if len(parts) < 2 {
		return "", "", false
	}
	unescape := func(t string) string { return strings.ReplaceAll(t, "\x00", string(sep)) }
	return unescape(parts[0]), unescape(parts[1]), true
}

// tlsOffText reports code or settings text that turns certificate checks
// off (verify=False, rejectUnauthorized: false, InsecureSkipVerify:
// true, ssl_verify: false, check_hostname = False, CERT_NONE).
func tlsOffText(s string) bool {
	l := strings.ReplaceAll(lower(s), " ", "")
	return hasAny(l, "verify=false", "rejectunauthorized:false", "rejectunauthorized=false", "insecureskipverify:true", "insecureskipverify=true",
		"ssl_verify:false", "ssl_verify=false", "verify_ssl=false", "verify_ssl:false", "check_hostname=false", "cert_none", "verify_none", "sslverify=false")
}

// actionOwner returns the owner of a workflow step's action in text
// holding "uses: OWNER/NAME@REF", or "".
func actionOwner(s string) string {
	i := strings.Index(s, "uses:")
	if i < 0 {
		return ""
	}
	ref := strings.TrimSpace(s[i+len("uses:"):])
	owner, _, ok := strings.Cut(ref, "/")
	if !ok {
		return ""
	}
	return lower(owner)
}

// ciConfigFile reports a CI system's configuration file.
func ciConfigFile(p string) bool {
	base := lower(path.Base(p))
	return strings.Contains(p, "/.github/workflows/") || base == ".gitlab-ci.yml" || base == "jenkinsfile" || base == "azure-pipelines.yml" ||
		strings.Contains(p, "/.circleci/") || base == "bitbucket-pipelines.yml" || base == ".travis.yml" || strings.Contains(p, "/.buildkite/") ||
		base == ".drone.yml" || base == ".woodpecker.yml"
}

func init() { ruleSets = append(ruleSets, dependencyRules, []*rule{checksSkippedRule}) }

// manifestFile reports a file naming a project's dependencies or pinning
// them: what the next install or build fetches.
func manifestFile(base string) bool {
	switch base {
	case "package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "pnpm-workspace.yaml", "bun.lock",
		"go.mod", "go.sum", "go.work", "Cargo.toml", "Cargo.lock", "pyproject.toml", "poetry.lock", "uv.lock", "pdm.lock", "Pipfile", "Pipfile.lock",
		"setup.cfg", "environment.yml", "environment.yaml", "Gemfile", "Gemfile.lock", "composer.json", "composer.lock", "pom.xml",
		"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "libs.versions.toml", "mix.exs", "mix.lock",
		"pubspec.yaml", "Package.swift", "Package.resolved", "Podfile", "Cartfile", "deno.json", "deno.jsonc", "vcpkg.json", "conanfile.txt",
		"packages.config", "Directory.Packages.props", "flake.nix", "flake.lock", "rebar.config", "stack.yaml", "cabal.project", "DESCRIPTION", "renv.lock",
		// the build tool itself, downloaded by its wrapper
		"maven-wrapper.properties", "gradle-wrapper.properties":
		return true
	}
	if strings.HasSuffix(base, ".csproj") || strings.HasSuffix(base, ".fsproj") || strings.HasSuffix(base, ".gemspec") {
		return true
	}
	return (strings.HasPrefix(base, "requirements") || strings.HasPrefix(base, "constraints")) && (strings.HasSuffix(base, ".txt") || strings.HasSuffix(base, ".in") || strings.HasSuffix(base, ".lock"))
}

// projectPackageSettings reports a package manager's settings file as a
// project keeps it: its registries serve everyone who installs there.
func projectPackageSettings(p string) bool {
	switch path.Base(p) {
	case ".npmrc", ".yarnrc", ".yarnrc.yml", "bunfig.toml", "uv.toml", "pip.conf", "pip.ini", "nuget.config", "NuGet.Config", "NuGet.config", ".condarc", ".gemrc":
		return true
	case "config.toml", "config":
		return strings.HasSuffix(path.Dir(p), "/.cargo") || path.Dir(p) == ".cargo"
	case "settings.xml":
		return strings.HasSuffix(path.Dir(p), "/.mvn") || path.Dir(p) == ".mvn"
	case ".bundle":
		return false
	}
	return strings.HasSuffix(p, "/.bundle/config")
}

// isHomeSettings reports a path in the home outside the project: the
// user's own settings, which the persistence rules judge.
func (a *analysis) isHomeSettings(p string) bool {
	_, _, ok := a.homeRel(p)
	return ok && !a.inWork(p)
}

// dependencyKey reports a package.json key holding dependency versions.
func dependencyKey(k string) bool {
	for _, p := range [...]string{"dependencies.", "devDependencies.", "optionalDependencies.", "peerDependencies.", "overrides.", "resolutions.", "pnpm.overrides."} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// foreignDependency reports a dependency specification fetched from
// somewhere other than a registry: a package file on a web site or bare
// address, or a repository's moving branch.
func foreignDependency(v string) string {
	v = strings.Trim(v, `"'`)
	l := lower(v)
	l = strings.TrimPrefix(l, "git+")
	if i := strings.Index(l, "@http"); i > 0 {
		l = l[i+1:]
	}
	switch {
	case strings.HasPrefix(l, "github:") || strings.HasPrefix(l, "gitlab:") || strings.HasPrefix(l, "bitbucket:"):
		if !pinnedGitRef("x://" + l[strings.IndexByte(l, ':')+1:]) {
			return v
		}
		return ""
	case !strings.HasPrefix(l, "https://") && !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "git://") && !strings.HasPrefix(l, "ssh://"):
		return ""
	}
	h := lower(hostOf(l))
	if h == "" || isLocalHost(h) || strings.ContainsAny(h, "$%{") {
		return ""
	}
	if codeHosts[h] || publicPackageHosts[h] {
		if publicPackageHosts[h] && !strings.HasPrefix(h, "git") && !strings.Contains(h, "github") && h != "bitbucket.org" {
			return "" // a registry's own file
		}
		// a repository: its moving head unless a commit or tag is named
		if strings.HasSuffix(l, ".tgz") || strings.HasSuffix(l, ".tar.gz") || strings.Contains(l, "/releases/download/") {
			return ""
		}
		if !pinnedGitRef(l) {
			return v
		}
		return ""
	}
	if ownPackageHost(h) {
		return ""
	}
	return v
}

// foreignDependencyIn reports the first foreign dependency among the
// words of a manifest's text.
func foreignDependencyIn(text string) string {
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return r == '"' || r == '\'' || r == ' ' || r == '\n' || r == ',' || r == '=' || r == '\t' || r == ';' || r == '{' || r == '}' || r == '(' || r == ')'
	}) {
		if u := foreignDependency(f); u != "" {
			return u
		}
	}
	return ""
}

// foreignReplace reports a go.mod replacement (OLD[@v]=NEW[@v]) taking a
// module from another owner's repository rather than a local directory or
// another version of itself.
func foreignReplace(spec string) bool {
	old, repl, ok := strings.Cut(spec, "=")
	if !ok {
		return false
	}
	if strings.HasPrefix(repl, ".") || strings.HasPrefix(repl, "/") || strings.HasPrefix(repl, "~") || strings.HasPrefix(repl, "$") {
		return false // a local checkout
	}
	old, _, _ = strings.Cut(old, "@")
	repl, _, _ = strings.Cut(repl, "@")
	if old == repl {
		return false // another version of the same module
	}
	oh, ow := moduleOwner(old)
	rh, rw := moduleOwner(repl)
	if isLocalHost(rh) || ownPackageHost(rh) && !codeHosts[rh] && !strings.HasPrefix(rh, "github.") && !strings.HasPrefix(rh, "gitlab.") {
		return false // the organisation's own module proxy or host
	}
	return oh != rh || ow != rw
}

// moduleOwner splits a module path into its host and first path element.
func moduleOwner(m string) (host, owner string) {
	parts := strings.SplitN(m, "/", 3)
	if len(parts) > 0 {
		host = lower(parts[0])
	}
	if len(parts) > 1 {
		owner = lower(parts[1])
	}
	return host, owner
}

// registrySwapScript reports a sed or perl substitution that replaces a
// public registry's host with another, or writes a URL from an unknown
// server: the host it brings in.
func registrySwapScript(s string) string {
	if len(s) < 4 || s[0] != 's' {
		if i := strings.Index(s, "s#"); i >= 0 {
			s = s[i:]
		} else if i := strings.Index(s, "s|"); i >= 0 {
			s = s[i:]
		} else if i := strings.Index(s, "s/"); i >= 0 {
			s = s[i:]
		} else {
			return ""
		}
	}
	from, to, ok := sedSubst(s)
	if !ok {
		return ""
	}
	pat, repl := lower(from), lower(to)
	if u := foreignDependencyIn(repl); u != "" {
		return u
	}
	fromRegistry := false
	for h := range publicPackageHosts {
		if strings.Contains(strings.ReplaceAll(pat, `\.`, "."), h) {
			fromRegistry = true
			break
		}
	}
	if !fromRegistry {
		return ""
	}
	for _, f := range strings.FieldsFunc(repl, func(r rune) bool { return r == '/' || r == ':' || r == '"' || r == ' ' || r == '\'' }) {
		f = strings.ReplaceAll(f, `\.`, ".")
		if strings.Count(f, ".") >= 1 && isHostName(f) && !ownPackageHost(f) {
			return f
		}
	}
	return ""
}

// isHostName reports a dotted name of letters, digits and dashes.
func isHostName(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) && s[i] != '.' && s[i] != '-' {
			return false
		}
	}
	return true
}
