package guard

import (
	"regexp"
	"strings"
)

// Any command-line client of a hosted service (a forge, a cloud, a
// deployment platform, an orchestrator or container runtime nobody listed)
// that is told to delete something and not to ask first. Tools with a rule
// of their own, package managers and local file tools are left to those;
// targets named as scratch (test, tmp, preview...) are not production.
var cliDestroyRules = []*rule{
	{ID: "cli-destroy-confirmed", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting a hosted resource with the confirmation skipped",
		Suggestions: suggCloud,
		match: func(a *analysis, c *cmd) (bool, string) {
			if cliDestroyExempt[c.name] || len(c.words) < 3 || stripeTestMode(a, c) {
				return false, ""
			}
			args, low := c.args(), c.lowerArgs()
			verb := -1
			for i, w := range args {
				if strings.HasPrefix(w.s, "-") {
					break
				}
				if destroyVerbs[low[i]] || colonDestroyVerb(low[i]) {
					verb = i
					break
				}
				if i >= 3 {
					break
				}
			}
			if verb < 0 || !skipsConfirm(args) || scratchEnvOption(args) || workBranch(args[:verb], positional(args[verb+1:])) {
				return false, ""
			}
			for _, w := range positional(args[verb+1:]) {
				// alice@example.com is a person, not an example
				if scratchName(strings.ReplaceAll(lower(w.s), "example.", "")) {
					return false, ""
				}
			}
			return true, c.name + " " + args[verb].s
		}},
	{ID: "cli-destroy-durable", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting a hosted project, repository, database, domain or released image, or anything in production",
		Suggestions: suggCloud,
		match: func(a *analysis, c *cmd) (bool, string) {
			if cliDestroyExempt[c.name] || len(c.words) < 3 || stripeTestMode(a, c) {
				return false, ""
			}
			args := c.args()
			if hasWord(args, "--help") || hasWord(args, "-h") || hasWord(args, "--dry-run") {
				return false, ""
			}
			if c.name == "dotnet" && len(args) > 0 && args[0].s == "user-secrets" {
				return false, "" // this machine's development secrets of one project
			}
			if strings.HasPrefix(c.name, "new-") && strings.HasSuffix(c.name, "lock") || strings.HasPrefix(c.name, "set-") && strings.HasSuffix(c.name, "resourcelock") {
				return false, "" // New-AzResourceLock -LockLevel CanNotDelete: a deletion forbidden
			}
			low := c.lowerArgs()
			verb := -1
			for i, w := range args {
				if i > 3 {
					break
				}
				if strings.HasPrefix(w.s, "-") {
					continue
				}
				if destroyVerbs[low[i]] || colonDestroyVerb(low[i]) || hyphenDestroyVerb(low[i]) || apiDestroyAction(w.s) != "" {
					verb = i
					break
				}
			}
			if verb < 0 || scratchEnvOption(args) || previewSwitch(args) || revokesOutsideAccess(a, c) {
				return false, ""
			}
			if (c.name == "gam" || c.name == "gamadv-xtd3") && verb+1 < len(low) && strings.HasPrefix(low[verb+1], "message") && !hasAnyWord(low, "doit") {
				return false, "" // GAM lists the messages it would delete until told doit
			}
			ops := positional(args[verb+1:])
			for _, w := range ops {
				if scratchName(strings.ReplaceAll(lower(w.s), "example.", "")) {
					return false, ""
				}
			}
			if workBranch(args[:verb], ops) {
				return false, ""
			}
			if n := apiDestroyAction(args[verb].s); n != "" && (durableNoun(n) || hostedMachine[n]) {
				return true, c.name + " " + joinWords(args[:verb+1])
			}
			if len(ops) > 0 && liveBranch(args[:verb], ops[0].s) {
				return true, c.name + " " + joinWords(args[:verb+1]) + " " + ops[0].s
			}
			for _, w := range args {
				// a client with deletion rules of its own knows its
				// environments, save for TOPIC:delete subcommands those
				// rules do not read
				if (prodMarker(w.s) || isProdName(w.s)) && (!ownsDestroy[c.name] || (colonDestroyVerb(args[verb].s) || hyphenDestroyVerb(args[verb].s) && strings.Count(args[verb].s, "-")+strings.Count(args[verb].s, "_") == 1) && !strings.Contains(args[verb].s, " ")) {
					return true, c.name + " " + args[verb].s + " in production"
				}
			}
			if len(ops) == 0 && !c.xargs {
				return false, "" // (xargs gives it the ones listed)
			}
			if colonDestroyVerb(args[verb].s) && !skipsConfirm(args) && c.name != "twilio" {
				// sites:delete asks which site first (Twilio's api:...:remove
				// asks nothing)
				return false, ""
			}
			if low := lower(args[verb].s); low == "rb" {
				return true, c.name + " rb " + ops[0].s // a bucket removed
			}
			for _, w := range args[:verb+1] {
				if durableNoun(w.s) {
					return true, c.name + " " + joinWords(args[:verb+1])
				}
			}
			if len(ops) == 0 {
				return false, ""
			}
			if imageRef(ops[0].s) {
				return true, c.name + " " + args[verb].s + " " + ops[0].s
			}
			if kind, name, ok := strings.Cut(ops[0].s, "/"); ok && name != "" && !strings.Contains(name, "/") && durableNoun(kind) {
				return true, c.name + " " + args[verb].s + " " + ops[0].s // realms/acme, projects/shop
			}
			return false, ""
		}},
	{ID: "cli-destroy-everything", Level: LevelModerate, Category: CategoryCloudDestroy, Description: "a client told to delete everything it manages",
		Suggestions: suggCloud,
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.base == "podman" {
				// podman machine rm: the VM with every image, container and
				// volume (the default one, or one not made for a test)
				ops := c.operands()
				if len(ops) < 2 || ops[0].s != "machine" || ops[1].s != "rm" && ops[1].s != "remove" {
					return false, ""
				}
				for _, w := range ops[2:] {
					if scratchName(w.s) || testName(w.s) {
						return false, ""
					}
				}
				return true, "podman machine " + ops[1].s
			}
			if cliDestroyExempt[c.name] && !localManagers[c.name] || len(c.words) < 3 || ownsDestroy[c.name] && !localManagers[c.name] {
				return false, ""
			}
			args, low := c.args(), c.lowerArgs()
			verb := -1
			for i, w := range args {
				if i > 5 {
					break
				}
				if destroyVerbs[low[i]] && (i > 0 || !strings.HasPrefix(w.s, "-")) {
					verb = i
					break
				}
			}
			if verb < 0 {
				return false, ""
			}
			named := false
			for _, w := range positional(args[verb+1:]) {
				if !everythingMarker(w.s) {
					named = true
				}
			}
			for _, w := range args[verb+1:] {
				// "--all" beside a name means all of that one (its
				// versions, its jobs); "all", "*" and --purge do not
				if everythingMarker(w.s) && (!named || !strings.HasPrefix(w.s, "-") || w.s == "--purge") {
					return true, c.name + " " + args[verb].s + " " + w.s
				}
			}
			if localManagers[c.name] && len(positional(args[verb+1:])) == 0 {
				// no machine named: the default one, with everything in it
				return true, c.name + " " + args[verb].s
			}
			if c.name == "colima" || c.name == "limactl" {
				// a container runtime's VM holds every image, container and
				// volume of its profile: one made for a test or a spike
				// is throwaway, another is the developer's
				for _, w := range positional(args[verb+1:]) {
					if !scratchName(w.s) && !testName(w.s) {
						return true, c.name + " " + args[verb].s + " " + w.s
					}
				}
			}
			return false, ""
		}},
}

func init() {
	ruleSets = append(ruleSets, cliDestroyRules, cliRollbackRules, apiMutationRules, destructiveDeployRules)
}

// destructiveDeployRules judge deployments that carry deletions with them.
var destructiveDeployRules = []*rule{
	{ID: "deploy-destructive-changes", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "a deployment to production that deletes what a destructive-changes manifest lists (fields, objects, their data)",
		Suggestions: []string{"Deploy the destructive changes to a sandbox first and review what they remove", "Let the release process run destructive deployments"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 4 {
				return false, ""
			}
			args := c.args()
			for _, w := range args {
				l := w.s
				if !strings.HasPrefix(l, "--p") || cliDestroyExempt[c.name] {
					continue // (most words; the options are written in lower case)
				}
				if strings.HasPrefix(l, "--post-destructive-changes") || strings.HasPrefix(l, "--pre-destructive-changes") || strings.HasPrefix(l, "--purge-on-delete") {
					low := c.lowerArgs()
					if hasAnyWord(low, "--dry-run", "--check-only") {
						return false, ""
					}
					// the org or environment deployed to (the test level's
					// value names tests, not the target)
					if v, ok := optValue(args, "-o", "target-org", "org", "env", "environment", "stage", "target"); ok && (prodMarker(v) || isProdName(v)) {
						return true, c.name + " " + l + " to " + v
					}
				}
			}
			return false, ""
		}},
}

// apiMutationRules judge GraphQL mutations sent by any client (curl, gh
// api graphql, a vendor's query command) by the field they call.
var apiMutationRules = []*rule{
	{ID: "api-mutation-destroys", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "a GraphQL mutation that deletes or removes something on a hosted service",
		Suggestions: suggCloud,
		match: func(a *analysis, c *cmd) (bool, string) {
			if !a.srcHas("mutation") {
				return false, "" // one look at the line spares every command
			}
			for _, w := range c.args() {
				if f := destroyingMutation(w.s); f != "" {
					return true, f
				}
			}
			return false, ""
		}},
}

// destroyingMutation returns the field of a GraphQL mutation in s whose
// name says it deletes (alertsPolicyDelete, deleteRepository,
// removeMember), or "".
func destroyingMutation(s string) string {
	i := strings.Index(s, "mutation")
	if i < 0 {
		return ""
	}
	body := s[i+len("mutation"):]
	j := strings.IndexByte(body, '{')
	if j < 0 {
		return ""
	}
	body = body[j+1:]
	k := strings.IndexByte(body, '(')
	if k < 0 {
		k = strings.IndexByte(body, '{')
	}
	if k < 0 {
		return ""
	}
	field := strings.TrimSpace(body[:k])
	if c := strings.IndexByte(field, ':'); c >= 0 {
		field = strings.TrimSpace(field[c+1:]) // alias: realName
	}
	for _, v := range [...]string{"Delete", "Remove", "Destroy", "Purge", "Wipe"} {
		lv := lower(v)
		if strings.HasPrefix(field, lv) || strings.Contains(field, v) {
			if lb := lower(body); scratchName(strings.ReplaceAll(lb, "example.", "")) && !isProdName(lb) {
				return "" // a test object's removal
			}
			return field
		}
	}
	return ""
}

// cliRollbackRules: production put back to an old release, or its
// server rebuilt from an image, by hand; and a hosted machine's backups
// cancelled (which deletes the ones it has).
var cliRollbackRules = []*rule{
	{ID: "cli-production-rollback", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "rolling production back to an old release, or rebuilding a production server, by hand",
		Suggestions: []string{"Roll back through the release process, reviewed", "Try it on staging first"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 2 || c.name == "git" || c.name == "kubectl" || c.name == "helm" || c.name == "terraform" || c.name == "docker" {
				return false, ""
			}
			args, low := c.args(), c.lowerArgs()
			verb := -1
			for i, l := range low {
				if i > 3 {
					break
				}
				if strings.HasPrefix(l, "-") {
					continue
				}
				_, v, _ := strings.Cut(l, ":")
				if l == "rollback" || l == "rebuild" || v == "rollback" || l == "revert" && i > 0 {
					verb = i
					break
				}
			}
			if verb < 0 || hasAnyWord(low, "--help", "-h", "--dry-run") {
				return false, ""
			}
			if c.name == "vercel" && low[verb] == "rollback" && !hasAnyWord(low, "status") {
				return true, "vercel rollback" // the production alias moved back
			}
			for _, w := range args {
				if scratchName(w.s) {
					return false, ""
				}
			}
			for i, w := range args {
				if prodMarker(w.s) || (w.s == "--stage" || w.s == "-s" || w.s == "--env" || w.s == "-e") && i+1 < len(args) && prodLabel(lower(args[i+1].s)) {
					return true, c.name + " " + args[verb].s + " in production"
				}
			}
			return false, ""
		}},
	{ID: "cli-backups-cancelled", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "cancelling a hosted machine's or database's backups (the existing backups are deleted)",
		Suggestions: []string{"Keep backups on; take a snapshot before changing the plan"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 3 || cliDestroyExempt[c.name] {
				return false, ""
			}
			for i, l := range c.lowerArgs() {
				if i > 3 {
					break
				}
				switch l {
				case "backups-cancel", "cancel-backups", "backups-disable", "disable-backups", "backups:cancel", "backups:disable":
					return true, c.name + " " + l
				}
			}
			return false, ""
		}},
}

// localManagers are tools exempt from cli-destroy-confirmed (deleting one
// named machine of theirs is everyday) whose deleting everything, or the
// default machine that holds every container, is not. Vagrant is not
// among them: its default machine is the project's own.
var localManagers = map[string]bool{"colima": true, "limactl": true, "multipass": true, "minikube": true}

// everythingMarker reports an operand or option meaning every object:
// "all", "--all", "*", "--purge", "--everything".
func everythingMarker(s string) bool {
	l := lower(strings.Trim(s, `"'`))
	switch l {
	case "all", "--all", "-a", "*", "--purge", "--everything", "everything", "--all-namespaces", "-a=true", "--all=true":
		return true
	}
	// --all-runners, --all-projects: every one of the kind
	return strings.HasPrefix(l, "--all-") && !strings.ContainsAny(l, "=") && l != "--all-commits" && l != "--all-branches" && l != "--all-tags"
}

// destroyVerbs are the subcommands CLIs delete things with.
var destroyVerbs = map[string]bool{
	"delete": true, "destroy": true, "remove": true, "rm": true, "rmp": true, "rmi": true, "purge": true,
	"teardown": true, "terminate": true, "deprovision": true, "nuke": true, "wipe": true, "drop": true, "rb": true, "del": true,
	"deleteall": true, "rmr": true, "unregister": true,
}

// colonDestroyVerb reports a TOPIC:VERB subcommand (firebase
// hosting:disable, netlify sites:delete, heroku addons:destroy) whose verb
// deletes or switches off what the topic names.
func colonDestroyVerb(s string) bool {
	l := lower(s)
	i := strings.LastIndexByte(l, ':') // api:core:numbers:remove
	if i < 0 {
		return false
	}
	v := l[i+1:]
	return destroyVerbs[v] || v == "disable" || v == "unset"
}

// stripeTestMode reports a stripe command run in the CLI's default test
// mode: without --live or a live secret key (sk_live_, rk_live_), it
// reaches only the account's test data.
func stripeTestMode(a *analysis, c *cmd) bool {
	if c.name != "stripe" || hasWord(c.args(), "--live") {
		return false
	}
	for _, w := range c.args() {
		if strings.Contains(w.s, "_live_") || strings.HasPrefix(w.s, "$") || strings.Contains(w.s, "${") {
			return false // a live key given, or a key whose value is not known
		}
	}
	if v, ok := a.envOf(c, "STRIPE_API_KEY"); ok && !strings.Contains(v, "_test_") {
		return false
	}
	return true
}

// scratchEnvOption reports a target, environment or stage option naming
// a development or test deployment (databricks bundle destroy -t dev,
// serverless remove --stage test).
func scratchEnvOption(args []word) bool {
	v, ok := optValue(args, "-t", "target", "env", "environment", "stage", "context")
	if !ok {
		v, ok = optValue(args, "-e", "env", "environment")
	}
	if !ok {
		return false
	}
	switch lower(strings.Trim(v, `"'`)) {
	case "dev", "development", "test", "testing", "local", "sandbox", "preview", "ci":
		return true
	}
	return false
}

// skipsConfirm reports a flag that answers a deletion prompt in advance.
func skipsConfirm(args []word) bool {
	for _, w := range args {
		switch w.s {
		case "--yes", "-y", "--force", "-f", "--confirm", "--no-confirm", "--no-prompt", "--quiet", "-q", "--skip-confirmation", "--auto-approve", "-af", "-fa":
			return true
		}
		if strings.HasPrefix(w.s, "--yes=") || strings.HasPrefix(w.s, "--confirm=") || strings.HasPrefix(w.s, "--force=") {
			return true
		}
	}
	return false
}

// scratchName reports a resource named as throwaway.
// exampleDomain matches the documentation domains (RFC 2606) that stand
// for a real one in a name.
var exampleDomain = regexp.MustCompile(`\.example(\.(com|net|org))?\b|\bexample\.(com|net|org)\b`)

// localDomain matches a host name's .local suffix.
var localDomain = regexp.MustCompile(`\.local([/:'"\s]|$)`)

func scratchName(s string) bool {
	l := strings.ReplaceAll(lower(s), "%2f", "/")
	if strings.Contains(l, "example") {
		// acme.example, registry.example.com: a real domain's placeholder,
		// not a throwaway resource
		l = exampleDomain.ReplaceAllString(l, "")
	}
	if strings.Contains(l, "shared") || strings.Contains(l, "release") {
		// qa-shared, shared-test-db: others use it too; libs-release-local:
		// what was released
		return false
	}
	if strings.Contains(l, ".local") {
		// pacs.hosp.local, fs01.corp.local: a machine of the site's own
		// network (an mDNS or directory domain), not this machine's
		l = localDomain.ReplaceAllString(l, "$1")
	}
	lw := notTestWords.Replace(l)
	for _, m := range [...]string{"test", "tmp", "temp", "scratch", "sandbox", "preview", "dummy", "example", "demo", "ephemeral", "throwaway", "local"} {
		if strings.Contains(lw, m) {
			return true
		}
	}
	if devWord(l) {
		return true
	}
	if strings.Contains(l, "-git-") && strings.HasSuffix(strings.TrimRight(l, "/"), ".vercel.app") {
		return true // a branch's preview deployment (PROJECT-git-BRANCH-TEAM.vercel.app)
	}
	if !strings.HasPrefix(l, "/") && !strings.HasPrefix(l, "\\\\.\\") {
		// acme-ci-artifacts, review.acme.io, qa-db: a name whose words
		// say CI, QA or review (a device path is no name; "dev" is also a
		// user's name: /home/dev, tank/home/dev@lunch)
		for rest := l; rest != ""; {
			tok := rest
			if i := strings.IndexFunc(rest, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }); i >= 0 {
				tok, rest = rest[:i], rest[i+1:]
			} else {
				rest = ""
			}
			switch tok {
			case "ci", "qa", "e2e", "review":
				return true
			}
		}
	}
	return pullRequestName(l)
}

// devWord reports "dev" joined to a name by a hyphen as a word of its
// own (acme-dev, dev-db, shop-dev-eu), not inside one (mfa-device).
func devWord(l string) bool {
	for i := strings.Index(l, "dev"); i >= 0; {
		before := i == 0 || !isAlnum(l[i-1])
		after := i+3 == len(l) || !isAlnum(l[i+3])
		if before && after && (i > 0 && l[i-1] == '-' || i+3 < len(l) && l[i+3] == '-') {
			return true
		}
		j := strings.Index(l[i+1:], "dev")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// throwawayName reports a name made for one test, preview, pull request
// or CI run (the narrow part of scratchName: a dev, demo or local
// resource may be somebody's).
func throwawayName(s string) bool {
	l := lower(s)
	if isProdName(l) || strings.Contains(l, "shared") {
		return false
	}
	if hasAny(notTestWords.Replace(l), "test", "tmp", "temp", "scratch", "sandbox", "preview", "ephemeral", "throwaway") {
		return true
	}
	return pullRequestName(l) || camelPullRequest(s)
}

// notTestWords are words holding "test" or "temp" that name no test or
// temporary object: the latest release, an app's beta testers, an
// attestation, a template.
var notTestWords = strings.NewReplacer("latest", "", "testers", "people", "tester", "person", "attest", "", "contest", "", "template", "")

// camelPullRequest reports a CamelCase name holding a pull request's
// number as a word of its own: ShopPr1423Stack, WebPR88 (not Apr2024).
func camelPullRequest(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] != 'P' || s[i+1] != 'r' && s[i+1] != 'R' || s[i+2] < '0' || s[i+2] > '9' {
			continue
		}
		if i == 0 || s[i-1] >= 'a' && s[i-1] <= 'z' || s[i-1] >= '0' && s[i-1] <= '9' {
			return true
		}
	}
	return false
}

// ciRunName reports a name made for one CI job or run: one that holds
// the job's or the run's own number (ci-$CI_JOB_ID, it-$GITHUB_RUN_ID).
func ciRunName(s string) bool {
	for _, v := range [...]string{"CI_JOB_ID", "CI_PIPELINE_ID", "GITHUB_RUN_ID", "GITHUB_RUN_NUMBER", "BUILD_ID", "BUILD_NUMBER",
		"BUILDKITE_BUILD_NUMBER", "CIRCLE_BUILD_NUM", "BITBUCKET_BUILD_NUMBER", "DRONE_BUILD_NUMBER"} {
		if strings.Contains(s, "$"+v) || strings.Contains(s, "${"+v+"}") {
			return true
		}
	}
	return false
}

// pullRequestName reports a name (lower case) made for one pull or merge
// request's preview: pr-482, web-pr-1207, mr-31.
func pullRequestName(l string) bool {
	for _, p := range [...]string{"pr-", "mr-", "pr", "mr"} {
		for i := strings.Index(l, p); i >= 0; {
			j := i + len(p)
			if (i == 0 || !isAlnum(l[i-1])) && j < len(l) && l[j] >= '0' && l[j] <= '9' {
				return true
			}
			if len(p) == 2 && i > 0 && l[i-1] >= 'a' && l[i-1] <= 'z' && j+1 < len(l) && allDigits(l[j:]) {
				return true // acmepr1423: a name and the request's number run together
			}
			k := strings.Index(l[i+1:], p)
			if k < 0 {
				break
			}
			i += 1 + k
		}
	}
	return false
}

// cliDestroyExempt are programs whose deletions are judged by rules of
// their own or touch only local, rebuildable state (package caches,
// toolchains, local VMs and clusters, kernels, models).
var cliDestroyExempt = map[string]bool{
	"kopia": true, // its deletions of a whole source are the backup rule's; one snapshot by id is housekeeping
	"rm":    true, "git": true, "npm": true, "pnpm": true, "yarn": true, "pip": true, "pip3": true, "pipx": true, "cargo": true,
	"go": true, "gem": true, "bundle": true, "poetry": true, "uv": true, "conda": true, "mamba": true, "micromamba": true,
	"apt": true, "apt-get": true, "dnf": true, "yum": true, "apk": true, "pacman": true, "brew": true, "snap": true,
	"flatpak": true, "nix-env": true, "rustup": true, "asdf": true, "mise": true, "pyenv": true, "nvm": true, "volta": true,
	"sdk": true, "helm": false, "docker": true, "podman": true, "kubectl": true, "terraform": true, "aws": true,
	"gcloud": true, "az": true, "gh": true, "glab": true, "sqlite3": true, "redis-cli": true, "psql": true, "mysql": true,
	"find": true, "xargs": true, "trash": true, "trash-put": true, "gio": true, "rclone": true, "rsync": true, "ssh": true,
	"tmux": true, "screen": true, "systemctl": true, "crontab": true, "at": true, "atrm": true, "ip": true, "nmcli": true,
	"update-alternatives": true, "alternatives": true, "dpkg": true, "rpm": true, "ln": true, "unlink": true, "shred": true,
	"pre-commit": true, "direnv": true, "keyring": true, "secret-tool": true, "security": true, "pass": true, "gpg": true,
	"ssh-add": true, "ssh-keygen": true, "npx": true, "code": true, "cursor": true, "jq": true, "yq": true, "sed": true,
	"vagrant": true, "multipass": true, "kind": true, "minikube": true, "k3d": true, "colima": true, "limactl": true,
	"ollama": true, "dvc": true, "pipenv": true, "jupyter": true, "ipython": true, "conan": true, "vcpkg": true,
	"tsc": true, "make": true, "cmake": true, "bazel": true, "nx": true, "turbo": true, "lerna": true, "deno": true, "bun": true,
}

// hyphenDestroyVerb reports a verb joined to its object
// (service-instance-delete, delete-project, db-destroy).
func hyphenDestroyVerb(s string) bool {
	l := lower(s)
	i := strings.LastIndexAny(l, "-_.") // govc's vm.destroy, datastore.rm
	if i <= 0 || i == len(l)-1 || strings.HasPrefix(l, "-") {
		return false
	}
	v := l[i+1:]
	if v == "deletion" && strings.HasPrefix(l, "schedule-") {
		return true // oci kms ... key schedule-deletion: gone when the window ends
	}
	if v == "all" {
		// deleteall, delete-all: the verb is before
		v = l[:i]
		if j := strings.LastIndexAny(v, "-_."); j >= 0 {
			v = v[j+1:]
		}
	}
	return destroyVerbs[v] || destroyVerbs[l[:strings.IndexAny(l, "-_.")]]
}

// durableNoun reports a subcommand naming something whose loss is not
// rebuilt by running the build again: hosted projects, repositories,
// databases, domains, buckets and accounts, alone or joined to a verb
// (bucket-delete, delete-project).
func durableNoun(s string) bool {
	l := lower(s)
	if i := strings.LastIndexByte(l, ':'); i > 0 {
		// api:core:incoming-phone-numbers:remove: each topic before the
		// verb
		for _, t := range strings.Split(l[:i], ":") {
			if durableNoun(t) {
				return true
			}
		}
		return false
	}
	if strings.IndexAny(l, "-.") > 0 {
		for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == '-' || r == '.' }) {
			if durableNounWord(part) {
				return true
			}
		}
		return false
	}
	return durableNounWord(l)
}

func durableNounWord(l string) bool {
	if l == "dns" {
		return true
	}
	switch strings.TrimSuffix(l, "s") {
	case "project", "repo", "repository", "database", "db", "domain", "bucket", "org", "organization", "account", "workspace", "space",
		"dataset", "model", "volume", "backup", "snapshot", "zone", "vault", "keyvault", "key", "secret", "registry", "team", "site", "tag", "image",
		"record", "realm", "tenant", "certificate", "cert", "cluster", "monitor", "dashboard", "alert", "release", "number",
		// telephony's call recordings and SIP trunks
		"recording", "trunk",
		// a hypervisor's storage and golden images (govc datastore.rm,
		// library.rm, virsh vol-delete)
		"datastore", "vol", "library", "template":
		return true
	}
	return false
}

// prodMarker reports an operand or option value naming production:
// prod, production, live, main stage, or a host or path with such a
// label (api.prod.internal, shop-prod.example.com, acme/prod).
func prodMarker(s string) bool {
	l := lower(s)
	if l == "--live" || l == "--production" || l == "--prod" {
		return true // stripe --live, a client's switch to its production mode
	}
	if i := strings.IndexByte(l, '='); i >= 0 && strings.HasPrefix(l, "-") {
		l = l[i+1:]
	}
	if prodLabel(l) {
		return true
	}
	if !strings.ContainsAny(l, "./") {
		return false
	}
	for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == '.' || r == '/' || r == ':' || r == '@' }) {
		if prodLabel(part) {
			return true
		}
	}
	return false
}

func prodLabel(l string) bool {
	return l == "prod" || l == "production" || l == "live" || strings.HasPrefix(l, "prod-") || strings.HasSuffix(l, "-prod") || strings.HasSuffix(l, "-production") ||
		strings.Contains(l, "-prod-")
}

// apiDestroyAction returns the object of an API action named as one
// word (aliyun ecs DeleteInstance, tccli cvm TerminateInstances), the
// way clients generated from a cloud's API name their subcommands, in
// lower case and singular; "" when the word is no such action.
func apiDestroyAction(s string) string {
	if s == "" || (s[0] < 'A' || s[0] > 'Z') && (s[0] < 'a' || s[0] > 'z') {
		return ""
	}
	// DeleteInstance, and the camelCase of JavaScript clients' methods
	// (netlify api deleteSite)
	for _, v := range [...]string{"Delete", "Terminate", "Destroy", "Remove", "Purge", "Drop", "delete", "terminate", "destroy", "remove", "purge", "drop"} {
		if len(s) > len(v) && strings.HasPrefix(s, v) && s[len(v)] >= 'A' && s[len(v)] <= 'Z' {
			return strings.TrimSuffix(lower(s[len(v):]), "s")
		}
	}
	return ""
}

// hostedMachine are the objects of API actions that are running servers
// or clusters holding data: terminating one is not undone.
var hostedMachine = map[string]bool{"instance": true, "dbinstance": true, "dbcluster": true, "cluster": true, "server": true, "vm": true}

// liveBranch reports deleting the main branch of a database-branching
// service (neonctl branches delete main, pscale branch delete db
// main): the branch the application serves from. Forges are left to
// their own rules.
func liveBranch(before []word, target string) bool {
	if !hasWord(before, "branch") && !hasWord(before, "branches") {
		return false
	}
	switch lower(target) {
	case "main", "master", "production", "prod":
		return true
	}
	return false
}

// workBranch reports the deletion of a hosted database's or project's
// working branch (pscale branch delete DB add-index, neon branches
// delete feature-x): the last name is the branch, and it is not the one
// production runs on.
func workBranch(before, ops []word) bool {
	if len(ops) == 0 || !hasWord(before, "branch") && !hasWord(before, "branches") {
		return false
	}
	for _, w := range ops {
		// (the branch is the last name or the first: pscale branch
		// delete DB BRANCH, neonctl branches delete BRANCH)
		if liveBranch(before, w.s) || strings.HasPrefix(w.s, "$") {
			return false
		}
	}
	b := ops[len(ops)-1].s
	return !prodMarker(b) && !isProdName(b)
}

// imageRef reports a pushed image reference (registry/name:tag,
// name@sha256:..., docker://...).
func imageRef(s string) bool {
	if strings.HasPrefix(s, "docker://") {
		return true
	}
	slash := strings.IndexByte(s, '/')
	return slash > 0 && strings.Contains(s[:slash], ".") && (strings.Contains(s[slash:], ":") || strings.Contains(s, "@sha256:"))
}

// previewSwitch reports PowerShell's -WhatIf among the words, or inside
// one (pwsh -c "Remove-AzResourceGroup -Name x -WhatIf"): nothing is
// changed.
func previewSwitch(args []word) bool {
	for _, w := range args {
		s := w.s
		for i := strings.IndexByte(s, '-'); i >= 0 && i+7 <= len(s); {
			if strings.EqualFold(s[i:i+7], "-whatif") && !(i+14 <= len(s) && strings.EqualFold(s[i+7:i+14], ":$false")) {
				return true
			}
			j := strings.IndexByte(s[i+1:], '-')
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return false
}
