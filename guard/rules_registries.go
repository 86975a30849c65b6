package guard

import (
	"path"
	"strings"
)

// Package registries and image registries: what other projects install
// from. A published package removed or yanked, an owner added who can
// publish over it, a shared image overwritten with one from elsewhere.
var registryRules = []*rule{
	{ID: "internal-package-published", Level: LevelCritical, Category: CategoryExfiltration, Description: "publishing a package named as internal or private to the public registry (its code is then anyone's)",
		Suggestions: []string{"Push internal packages to the organisation's own feed", "Rename and review the package before making it public"},
		names:       names("dotnet", "nuget"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// dotnet nuget push Acme.Internal.Billing.1.4.2.nupkg --source
			// https://api.nuget.org/v3/index.json
			args := c.args()
			if !hasWord(args, "push") {
				return false, ""
			}
			src, ok := optValue(args, "-s", "source")
			if !ok || !strings.Contains(lower(src), "nuget.org") {
				return false, ""
			}
			for _, w := range c.operands() {
				l := lower(path.Base(strings.ReplaceAll(w.s, `\`, "/")))
				if strings.HasSuffix(l, ".nupkg") && (strings.Contains(l, ".internal.") || strings.Contains(l, ".private.") || strings.HasPrefix(l, "internal.") || strings.Contains(l, ".corp.")) {
					return true, w.s + " → nuget.org"
				}
			}
			return false, ""
		}},
	{ID: "registry-package-unpublished", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "unpublishing a whole published package, or every version of one (every project that installs it breaks)",
		Suggestions: suggRegistry,
		match: func(a *analysis, c *cmd) (bool, string) {
			pkg, version, ok := unpublished(c)
			if !ok {
				return false, ""
			}
			if version != "" && !strings.HasPrefix(version, "$") && version != "*" {
				// one release: the rule for a version reports it
				a.emit(c, ruleByID["registry-version-unpublished"], c.name+" "+unpublishVerb(c)+" "+pkg+" "+version)
				return false, ""
			}
			return true, c.name + " " + unpublishVerb(c) + " " + pkg
		}},
	{ID: "registry-version-unpublished", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "unpublishing or yanking a released version of a published package (new installs of it fail)",
		Suggestions: suggRegistry}, // reported by registry-package-unpublished
	{ID: "registry-private-published", Level: LevelCritical, Category: CategoryExfiltration, Description: "publishing a package whose private guard was just removed (its code goes to a public registry)",
		Suggestions: []string{"Leave \"private\": true in place; ask the owner before publishing", "Publish to the organisation's own registry"},
		names:       names("npm", "pnpm", "yarn", "bun", "gem", "twine"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if !a.privateLifted {
				// gem push acme-internal-2.0.0.gem: a package named for
				// staying inside, sent to the public registry
				if c.name == "gem" || c.name == "twine" {
					for _, w := range c.operands() {
						if l := lower(path.Base(w.s)); (strings.HasSuffix(l, ".gem") || strings.HasSuffix(l, ".whl") || strings.HasSuffix(l, ".tar.gz")) && hasAny(l, "internal", "private", "confidential", "proprietary") {
							if h, ok := optValue(c.args(), "", "host", "repository-url"); !ok || publicPackageHosts[lower(hostOf(h))] {
								return true, c.name + " " + w.s + " to the public registry"
							}
						}
					}
				}
				return false, ""
			}
			if ops := c.operands(); len(ops) > 0 && (ops[0].s == "publish" || len(ops) > 1 && ops[0].s == "npm" && ops[1].s == "publish") && !hasWord(c.args(), "--dry-run") {
				return true, c.name + " publish after the package's private flag was removed"
			}
			return false, ""
		}},
	{ID: "registry-package-made-public", Level: LevelCritical, Category: CategoryExfiltration, Description: "making a private package of the registry public (its source and every version become anyone's)",
		Suggestions: []string{"Ask the package's owners before changing its visibility", "Publish a separate public package from reviewed sources"},
		names:       names("npm", "pnpm", "yarn"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) > 0 && ops[0].s == "npm" && c.name == "yarn" {
				ops = ops[1:]
			}
			// npm access public @acme/x (npm 6-8), npm access set
			// status=public @acme/x (npm 9 and later)
			if len(ops) > 1 && ops[0].s == "access" && (ops[1].s == "public" || len(ops) > 2 && ops[1].s == "set" && ops[2].s == "status=public") && !hasWord(c.args(), "--dry-run") {
				return true, c.name + " access " + joinWords(ops[1:])
			}
			return false, ""
		}},
	{ID: "registry-latest-moved", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "moving or removing a published package's latest tag, or deprecating its releases (what every new install gets, or the warning every user sees)",
		Suggestions: suggRegistry,
		names:       names("npm", "pnpm", "yarn"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) > 0 && ops[0].s == "npm" && c.name == "yarn" {
				ops = ops[1:] // yarn npm tag add
			}
			if len(ops) < 2 || hasWord(c.args(), "--dry-run") {
				return false, ""
			}
			switch {
			case (ops[0].s == "dist-tag" || ops[0].s == "dist-tags" || ops[0].s == "tag") && (ops[1].s == "add" || ops[1].s == "rm" || ops[1].s == "remove"):
				// npm dist-tag add PKG@0.9.0-canary.3 latest: a prerelease
				// handed to every new install; rm PKG latest: none at all
				if len(ops) > 3 && ops[3].s == "latest" && (ops[1].s != "add" || strings.Contains(ops[2].s[strings.LastIndexByte(ops[2].s, '@')+1:], "-")) {
					return true, c.name + " " + ops[0].s + " " + ops[1].s + " latest"
				}
			case ops[0].s == "deprecate":
				// one broken release deprecated with a pointer to the
				// fix is routine; a range or the whole package is not
				spec := ops[1].s
				version := ""
				if i := strings.LastIndexByte(spec, '@'); i > 0 {
					version = spec[i+1:]
				}
				if len(ops) > 2 && strings.Trim(ops[2].s, `"'`) != "" && strings.ContainsAny(version, "<>*^~| x") {
					return true, c.name + " deprecate " + ops[1].s
				}
			}
			return false, ""
		}},
	{ID: "registry-image-published", Level: LevelCritical, Category: CategoryExfiltration, Description: "copying an image from the organisation's private registry to a public one (its code and whatever was baked in go with it)",
		Suggestions: []string{"Push images only to the organisation's registries", "Ask the owner before publishing an internal image"},
		names:       names("skopeo", "crane", "gcrane", "regctl", "oras"),
		match: func(a *analysis, c *cmd) (bool, string) {
			src, dst, ok := imageCopy(c)
			if !ok {
				return false, ""
			}
			if strings.HasPrefix(dst, "dir:") || strings.HasPrefix(dst, "oci:") || strings.HasPrefix(dst, "docker-archive:") || strings.HasPrefix(src, "dir:") || strings.HasPrefix(src, "oci:") {
				return false, ""
			}
			// from a registry of the organisation's (an internal name, a
			// private path) to one anyone pulls from
			sh, dh := imageHost(src), imageHost(dst)
			if knownRegistry(sh) || trustedImageHost(sh) || isLocalHost(sh) || !publicImageRegistry(dh) {
				return false, ""
			}
			if l := lower(src); !internalHost(sh) && !hasAny(l, "corp", "internal", "private", "intranet") {
				return false, ""
			}
			return true, src + " → " + dst
		}},
	{ID: "image-pushed-to-docker-hub", Level: LevelCritical, Category: CategoryExfiltration, Description: "pushing an image to a Docker Hub namespace named outright (public unless that repository was made private: the code, data and secrets in its layers go with it)",
		Suggestions: []string{"Push to the organisation's own registry", "Ask the owner before publishing an image"},
		names:       names("docker", "podman", "nerdctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, rest := dockerSub(c)
			if sub != "push" && sub != "image push" {
				return false, ""
			}
			for _, w := range rest {
				l := lower(w.s)
				if strings.HasPrefix(l, "docker.io/") || strings.HasPrefix(l, "index.docker.io/") || strings.HasPrefix(l, "registry-1.docker.io/") {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "registry-owner-added", Level: LevelHigh, Category: CategoryPrivilege, Description: "adding an owner to a published package (they can publish, yank and hand it on)",
		Suggestions: []string{"Ask the package's owners to add maintainers themselves"},
		names:       names("npm", "pnpm", "yarn", "gem", "cargo"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub := clientSubWords(c).list()
			args := c.args()
			for i, s := range sub {
				if s != "owner" && s != "owners" {
					continue
				}
				// npm owner add USER PKG; gem owner GEM --add EMAIL; cargo owner --add USER
				if i+1 < len(sub) && sub[i+1] == "add" {
					return true, c.name + " owner add"
				}
				if v, ok := optValue(args, "-a", "add"); ok {
					return true, c.name + " owner --add " + v
				}
			}
			return false, ""
		}},
	{ID: "registry-image-replaced", Level: LevelHigh, Category: CategoryRemoteExec, Description: "overwriting an image in a shared registry with one copied from an unknown registry (everything that pulls it runs that code)",
		Suggestions: []string{"Build the image from reviewed sources", "Copy from the official registry, pinned by digest"},
		names:       names("skopeo", "crane", "gcrane", "regctl", "oras"),
		match: func(a *analysis, c *cmd) (bool, string) {
			src, dst, ok := imageCopy(c)
			if !ok {
				return false, ""
			}
			if src == "" || dst == "" || strings.HasPrefix(dst, "dir:") || strings.HasPrefix(dst, "oci:") || strings.HasPrefix(dst, "docker-archive:") {
				return false, "" // copied to a file for a look
			}
			// a release's tag overwritten with a development build of the
			// same repository: everything that pulls v1.4.0 runs it
			srcRepo, srcTag := splitImageTag(src)
			dstRepo, dstTag := splitImageTag(dst)
			if srcRepo == dstRepo && releaseTag(dstTag) && !releaseTag(srcTag) && !strings.HasPrefix(srcTag, "sha") && !strings.Contains(src, "@sha256:") {
				return true, dst + " overwritten with " + srcTag
			}
			sh, dh := imageHost(src), imageHost(dst)
			if sh == dh || knownRegistry(sh) || ownPackageHost(sh) || trustedImageHost(sh) || scratchName(strings.ReplaceAll(lower(dst), "example.", "")) || strings.Contains(lower(dst), "candidate") {
				return false, ""
			}
			return true, c.name + " copy " + src + " " + dst
		}},
	{ID: "package-safeguard-off", Level: LevelHigh, Category: CategoryRemoteExec, Description: "installing packages with a safeguard switched off (a snap's confinement, every dependency's install scripts, download checksums)",
		Suggestions: []string{"Keep the safeguard on and allow the one package that needs it", "Ask the user before changing how packages are checked"},
		names:       names("snap", "bun", "pnpm", "choco", "winget"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			sub := clientSubWords(c).list()
			switch c.name {
			case "snap":
				// unconfined: the snap reads and changes the whole system
				return len(sub) > 0 && sub[0] == "install" && hasWord(args, "--devmode"), "snap install --devmode"
			case "bun":
				return len(sub) > 1 && sub[0] == "pm" && sub[1] == "trust" && hasWord(args, "--all"), "bun pm trust --all"
			case "pnpm":
				return hasWord(args, "--dangerously-allow-all-builds"), "--dangerously-allow-all-builds"
			case "winget":
				// hash checks overridden: a changed installer runs anyway
				low := c.lowerArgs()
				return hasAnyWord(low, "--ignore-security-hash") || len(sub) > 0 && sub[0] == "settings" && hasAnyWord(low, "installerhashoverride") && hasAnyWord(low, "--enable"), "winget hash check off"
			case "choco":
				// choco feature disable -n checksumFiles; enable -n allowEmptyChecksums
				if len(sub) < 2 || sub[0] != "feature" {
					return false, ""
				}
				f, _ := optValue(args, "-n", "name")
				f = lower(f)
				return sub[1] == "disable" && f == "checksumfiles" || sub[1] == "enable" && (f == "allowemptychecksums" || f == "allowemptychecksumssecure"), "choco feature " + sub[1] + " " + f
			}
			return false, ""
		}},
	{ID: "image-signatures-removed", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "removing a shared image's signatures and attestations (verified deploys refuse it; its provenance is gone)",
		Suggestions: []string{"Sign again rather than clean", "Clean only a scratch image's signatures"},
		names:       names("cosign"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) < 2 || ops[0].s != "clean" || hasWord(c.args(), "--help") {
				return false, ""
			}
			ref := ops[len(ops)-1].s
			if scratchName(strings.ReplaceAll(lower(ref), "example.", "")) || isLocalHost(imageHost(ref)) {
				return false, ""
			}
			return true, "cosign clean " + ref
		}},
	{ID: "secret-baked-into-image", Level: LevelHigh, Category: CategoryExfiltration, Description: "building a secret into an image's layers or metadata as a build argument (docker history shows it to whoever gets the image, pushed now or later)",
		Suggestions: []string{"Pass secrets with docker build --secret id=...,env=...", "Read the token at run time, not at build time"},
		names:       names("docker", "podman", "buildah", "nerdctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			sub := clientSubWords(c).list()
			if len(sub) == 0 || sub[0] != "build" && !(sub[0] == "buildx" && len(sub) > 1 && sub[1] == "build") && sub[0] != "bud" {
				return false, ""
			}
			where := " (pushed)"
			if !imageLeavesMachine(a, c) {
				where = " (kept in the image's history)"
			}
			for i, w := range args {
				v := ""
				switch {
				case w.s == "--build-arg" && i+1 < len(args):
					v = args[i+1].s
				case strings.HasPrefix(w.s, "--build-arg="):
					v = w.s[len("--build-arg="):]
				default:
					continue
				}
				name, val, _ := strings.Cut(v, "=")
				if isSecretVar(strings.ToUpper(name)) && (val == "" || secretVarIn(val) != "" || strings.HasPrefix(val, "$(") || strings.HasPrefix(val, "`") ||
					!strings.HasPrefix(val, "$") && len(val) >= 16) {
					return true, "--build-arg " + name + where
				}
			}
			return false, ""
		}},
	{ID: "package-published", Level: LevelCritical, Category: CategoryExfiltration, Description: "publishing a package to a public registry (its code is anyone's, and a release cannot be taken back)",
		Suggestions: []string{"Publish from the release pipeline, after review", "Try it first with --dry-run, or publish to a local or the organisation's own registry"},
		names: names("npm", "pnpm", "yarn", "bun", "twine", "poetry", "uv", "hatch", "flit", "cargo", "gem", "dotnet", "nuget", "vsce", "ovsx",
			"flutter", "dart", "pod", "mvn", "mvnw", "./mvnw", "gradle", "gradlew", "./gradlew", "gradlew.bat"),
		match: func(a *analysis, c *cmd) (bool, string) {
			what, registry := publication(c)
			if what == "" || hasAnyWord(c.lowerArgs(), "--dry-run", "-n", "--dryrun") && !mavenLike(c.name) {
				return false, ""
			}
			if registry != "" && !publicRegistry(registry) {
				return false, "" // a local, test or the organisation's own registry
			}
			if releaseRunWhole(a.src) {
				return false, ""
			}
			return true, what
		}},
}

func init() { ruleSets = append(ruleSets, registryRules) }

// imageCopy returns the source and destination of an image copy (skopeo
// copy, crane cp, regctl image copy, oras cp: "copy" or "cp" among the
// first words, then the two locations).
func imageCopy(c *cmd) (src, dst string, ok bool) {
	ops := c.operands()
	k := 0
	for k < len(ops) && k < 3 && ops[k].s != "copy" && ops[k].s != "cp" {
		k++
	}
	if k == len(ops) || k == 3 || len(ops) < k+3 {
		return "", "", false
	}
	return imageLocation(ops[k+1].s), imageLocation(ops[k+2].s), true
}

// registryClients are package managers whose account commands (tokens,
// owners) reach the registry they publish to.
var registryClients = map[string]bool{"npm": true, "pnpm": true, "yarn": true, "gem": true, "cargo": true}

var suggRegistry = []string{"Deprecate the version instead of removing it", "Ask the package's owners before touching a release"}

// unpublished reads a client's unpublish or yank of a package: npm
// unpublish PKG[@V], cargo yank --version V PKG, gem yank PKG -v V,
// nuget delete PKG V. version is "" for the whole package. Dry runs,
// undos and pre-releases made for a pull request are not.
func unpublished(c *cmd) (pkg, version string, ok bool) {
	// (a look at the first words as written: this runs for every command)
	found := false
	for i, w := range c.words {
		if i > 4 {
			break
		}
		if w.s == "unpublish" || w.s == "yank" || w.s == "delete" {
			found = true
			break
		}
	}
	if !found {
		return "", "", false
	}
	sub := clientSubWords(c).list()
	args := c.args()
	verb := unpublishVerb(c)
	if verb == "" || hasWord(args, "--dry-run") || hasWord(args, "--undo") || hasWord(args, "--help") {
		return "", "", false
	}
	ops := c.operands()
	// the operands after the verb, less option values
	var rest []string
	seen := false
	for _, w := range ops {
		if !seen {
			seen = lower(w.s) == verb
			continue
		}
		rest = append(rest, w.s)
	}
	v, hasV := optValue(args, "-v", "version", "vers")
	switch {
	case verb == "delete" && len(rest) >= 2: // nuget delete PKG VERSION
		pkg, version = rest[0], rest[1]
	case hasV:
		version = v
		for _, r := range rest {
			if r != v {
				pkg = r
				break
			}
		}
	case len(rest) > 0:
		pkg = rest[0]
		if i := strings.LastIndexByte(pkg, '@'); i > 0 {
			pkg, version = pkg[:i], pkg[i+1:]
		}
	}
	if len(sub) > 0 && pkg == "" && verb != "delete" {
		pkg = "(this package)" // npm unpublish in the package's folder
	}
	if pkg == "" || prereleaseVersion(version) || scratchName(pkg) {
		return "", "", false
	}
	return pkg, version, true
}

// unpublishVerb returns the subcommand that takes a release back:
// unpublish, yank, or a package feed's delete ("" for none).
func unpublishVerb(c *cmd) string {
	sub := clientSubWords(c).list()
	for i, s := range sub {
		switch s {
		case "unpublish", "yank":
			return s
		case "delete":
			if i > 0 && sub[i-1] == "nuget" || c.name == "nuget" && i == 0 {
				return s
			}
		}
	}
	return ""
}

// prereleaseVersion reports a version made for a pull request, a CI run
// or a preview: 0.0.1-pr1423, 1.2.0-ci.88, 3.0.0.pre.pr12.
func prereleaseVersion(v string) bool {
	l := lower(v)
	return l != "" && (pullRequestName(strings.ReplaceAll(strings.ReplaceAll(l, ".", "-"), "pre-", "")) || hasAny(l, "-ci", "-preview", "-canary", "-test", "-dev", "snapshot", "-pr"))
}

// imageLocation returns an image reference without its transport
// (docker://), keeping dir:, oci: and archive transports visible.
func imageLocation(s string) string {
	s = strings.Trim(s, `"'`)
	if r, ok := strings.CutPrefix(s, "docker://"); ok {
		return r
	}
	return s
}

// trustedImageHost reports registries of well-known publishers of base
// images beyond the clouds' own.
func trustedImageHost(h string) bool {
	switch lower(h) {
	case "cgr.dev", "registry.redhat.io", "docker.elastic.co", "registry.suse.com", "container-registry.oracle.com":
		return true
	}
	return false
}

// imageHost returns the registry of an image reference: the part before
// the first slash when it looks like a host, docker.io for Docker Hub's
// short names (postgres:16, acme/api).
func imageHost(ref string) string {
	h, _, ok := strings.Cut(ref, "/")
	if !ok || !strings.ContainsAny(h, ".:") && h != "localhost" {
		return "docker.io"
	}
	return lower(h)
}

// liftsPrivate reports a command removing package.json's "private"
// guard: npm pkg delete private, npm pkg set private=false, an in-place
// edit or jq program touching it.
func liftsPrivate(c *cmd) bool {
	args := c.args()
	switch c.name {
	case "npm", "pnpm", "yarn":
		ops := c.operands()
		if len(ops) < 3 || ops[0].s != "pkg" {
			return false
		}
		for _, w := range ops[2:] {
			if ops[1].s == "delete" && w.s == "private" || ops[1].s == "set" && (w.s == "private=false" || w.s == "private=") {
				return true
			}
		}
	case "sed", "perl", "jq":
		mentions, manifest := false, false
		for _, w := range args {
			if strings.Contains(w.s, "private") {
				mentions = true
			}
			if strings.HasSuffix(w.s, "package.json") {
				manifest = true
			}
		}
		return mentions && manifest && (c.name == "jq" || hasPrefixWord(args, "-i") || hasWord(args, "--in-place") || hasPrefixWord(args, "-pi"))
	}
	return false
}

// splitImageTag splits an image reference into its repository and tag
// ("latest" when none is given).
func splitImageTag(ref string) (repo, tag string) {
	if i := strings.LastIndexByte(ref, ':'); i > strings.LastIndexByte(ref, '/') {
		return ref[:i], ref[i+1:]
	}
	return ref, "latest"
}

// releaseTag reports a tag naming a released version: 1.4.0, v2.3.
func releaseTag(t string) bool {
	t = strings.TrimPrefix(t, "v")
	if t == "" || strings.Count(t, ".") < 1 {
		return false
	}
	for i := 0; i < len(t); i++ {
		if (t[i] < '0' || t[i] > '9') && t[i] != '.' {
			return false
		}
	}
	return true
}

// publicImageRegistry reports a registry anyone can pull from by default.
func publicImageRegistry(h string) bool {
	switch h {
	case "docker.io", "registry-1.docker.io", "index.docker.io", "quay.io", "ghcr.io", "registry.gitlab.com", "public.ecr.aws", "ttl.sh":
		return true
	}
	return false
}

// imageLeavesMachine reports a build whose image is pushed in the line
// or tagged for a registry elsewhere (registry.example.com/acme/web): a
// local tag (api:local, localhost:5000/x) stays on the machine.
func imageLeavesMachine(a *analysis, c *cmd) bool {
	if hasWord(c.args(), "--push") || a.srcHas(" push ") {
		return true
	}
	t, _ := optValue(c.args(), "-t", "tag")
	first, _, ok := strings.Cut(t, "/")
	return ok && strings.ContainsAny(first, ".:") && !isLocalHost(hostOf("https://"+first))
}

// publication reads a command that publishes a package: what it
// publishes, and the registry it names ("" for the tool's default,
// the public one).
func publication(c *cmd) (what, registry string) {
	ops, args := c.operands(), c.args()
	verb := func(v ...string) bool {
		for i, w := range v {
			if i >= len(ops) || ops[i].s != w {
				return false
			}
		}
		return true
	}
	reg := func(short string, long ...string) string {
		v, _ := optValue(args, short, long...)
		return strings.Trim(v, `"'`)
	}
	switch c.name {
	case "npm", "pnpm", "bun", "yarn":
		if verb("publish") || c.name == "yarn" && verb("npm", "publish") {
			return c.name + " publish", reg("", "registry")
		}
	case "twine":
		if verb("upload") {
			if r := reg("", "repository-url"); r != "" {
				return "twine upload", r
			}
			return "twine upload", reg("-r", "repository")
		}
	case "poetry", "hatch", "flit":
		if verb("publish") {
			return c.name + " publish", reg("-r", "repository", "repo")
		}
	case "uv":
		if verb("publish") {
			return "uv publish", reg("", "publish-url", "index")
		}
	case "cargo":
		if verb("publish") {
			if r := reg("", "index"); r != "" {
				return "cargo publish", r
			}
			return "cargo publish", reg("", "registry")
		}
	case "gem":
		if verb("push") {
			return "gem push", reg("", "host")
		}
	case "dotnet", "nuget":
		if c.name == "dotnet" && verb("nuget", "push") || c.name == "nuget" && verb("push") {
			return c.name + " push", reg("-s", "source", "Source")
		}
	case "vsce", "ovsx":
		if verb("publish") {
			return c.name + " publish", ""
		}
	case "flutter", "dart":
		if verb("pub", "publish") {
			return c.name + " pub publish", ""
		}
	case "pod":
		if verb("trunk", "push") {
			return "pod trunk push", ""
		}
	case "mvn", "mvnw", "./mvnw":
		for _, w := range args {
			if w.s == "deploy" || strings.HasPrefix(w.s, "deploy:deploy") {
				for _, o := range args {
					if v, ok := strings.CutPrefix(o.s, "-DaltDeploymentRepository="); ok {
						if i := strings.LastIndex(v, "::"); i >= 0 {
							v = v[i+2:] // id::layout::url, or id::url
						}
						return "mvn deploy", v
					}
					if v, ok := strings.CutPrefix(o.s, "-Durl="); ok {
						return "mvn " + w.s, v
					}
				}
				return "mvn " + w.s, ""
			}
		}
	case "gradle", "gradlew", "./gradlew", "gradlew.bat":
		for _, w := range args {
			l := lower(w.s)
			if l == "publish" || l == "publishplugins" || strings.HasPrefix(l, "publish") && (strings.Contains(l, "mavencentral") || strings.Contains(l, "sonatype") || strings.HasSuffix(l, "toossrhrepository")) {
				return c.name + " " + w.s, ""
			}
		}
	}
	return "", ""
}

func mavenLike(name string) bool {
	switch name {
	case "mvn", "mvnw", "./mvnw", "gradle", "gradlew", "./gradlew", "gradlew.bat":
		return true
	}
	return false
}

// publicRegistry reports a registry, named by its address or by a name
// the tool knows, that is one of the tools' public registries (a test
// index, a local or internal feed, an organisation's hosted feed and an
// address nobody knows are not: the last are other rules' to judge).
func publicRegistry(r string) bool {
	l := lower(r)
	switch l {
	case "pypi", "crates-io", "rubygems", "nuget.org", "npmjs":
		return true
	}
	if !strings.Contains(l, "://") {
		return false // a repository named in the tool's configuration (acme-internal, testpypi) or a folder
	}
	h := lower(hostOf(r))
	if h == "" || isLocalHost(h) || internalHost(h) || strings.HasPrefix(h, "test.") {
		return false
	}
	for _, own := range [...]string{"pkgs.dev.azure.com", ".pkg.github.com", ".jfrog.io", ".pkg.dev", ".codeartifact.", "gitlab.", ".cloudsmith.io", "pkgs.visualstudio.com"} {
		if strings.Contains(h, own) {
			return false
		}
	}
	return publicPackageHosts[h] || h == "upload.pypi.org" || h == "api.nuget.org" || h == "www.nuget.org" || h == "push.rubygems.org"
}

// releaseRunWhole reports a line that builds, checks or attests the
// package before publishing it (python -m build && twine check && twine
// upload, dotnet pack; dotnet nuget push, npm publish --provenance): the
// project's release run as a whole, not whatever lies in the folder
// published with its checks skipped.
func releaseRunWhole(src string) bool {
	return hasAnyFold(src, "--provenance", "twine check", "python -m build", "python3 -m build", "dotnet pack", "npm version", "npm run build", "cargo package", "gem build")
}
