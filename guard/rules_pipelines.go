package guard

import (
	"path"
	"strings"
)

// A CI/CD pipeline started by hand against production (gh workflow run,
// glab ci run, az pipelines run, CircleCI's and Bitbucket's pipeline
// APIs, a workflow run locally by act with real secrets), and version
// control set up to hand out what it holds: the checkout's auth header
// printed, every repository served to
// the network with push allowed.
var pipelineRules = []*rule{
	{ID: "ci-pipeline-disrupted", Level: LevelHigh, Category: CategorySystem, Description: "disrupting a team's pipelines or deployment settings: a pipeline destroyed or paused, every run's history deleted, a production app's sync switched off or pointed at a branch, a release pipeline or a repository's default branch moved, a shared runner paused, a branch's protection removed",
		Suggestions: []string{"Change shared pipelines through their configuration as code, reviewed", "Act on your own pipeline, preview app or fork"},
		// (gh cache delete --all passes: caches are rebuilt by the next run)
		names: names("fly", "tkn", "argocd", "az", "tea", "glab", "gh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 || hasWord(args, "--help") || hasWord(args, "--dry-run") {
				return false, ""
			}
			switch c.name {
			case "fly":
				// Concourse (fly -t TARGET ...; flyctl's fly has no -t)
				if _, ok := optValue(args, "-t", "target"); !ok {
					return false, ""
				}
				for _, w := range args {
					switch w.s {
					case "destroy-pipeline", "dp", "pause-pipeline", "pp", "destroy-team", "dt", "archive-pipeline", "ap", "pause-job", "pj":
						if p, _ := optValue(args, "-p", "pipeline"); scratchName(p) {
							return false, ""
						}
						return true, "fly " + w.s
					}
				}
			case "tkn":
				// tkn pipelinerun delete --all: every run's logs and results
				if len(ops) > 1 && (ops[1].s == "delete" || ops[1].s == "rm") && hasWord(args, "--all") {
					return true, "tkn " + ops[0].s + " delete --all"
				}
			case "argocd":
				if len(ops) < 3 || ops[0].s != "app" || ops[1].s != "set" || !isProdName(ops[2].s) {
					return false, ""
				}
				if v, ok := optValue(args, "", "sync-policy"); ok && (v == "none" || v == "manual") {
					return true, "argocd app set " + ops[2].s + " --sync-policy " + v
				}
				if v, ok := optValue(args, "", "revision"); ok && branchLikeRef(v) {
					return true, "argocd app set " + ops[2].s + " --revision " + v
				}
			case "az":
				// az pipelines update --name deploy-prod --branch feature/x,
				// az repos update --default-branch refs/heads/legacy
				if len(ops) > 1 && ops[0].s == "pipelines" && ops[1].s == "update" {
					n, _ := optValue(args, "", "name")
					if b, ok := optValue(args, "", "branch"); ok && isProdName(n) && !mainBranch(b) {
						return true, "az pipelines update --name " + n + " --branch " + b
					}
				}
				if len(ops) > 1 && ops[0].s == "repos" && ops[1].s == "update" {
					if b, ok := optValue(args, "", "default-branch"); ok && !mainBranch(b) {
						return true, "az repos update --default-branch " + b
					}
				}
			case "tea":
				// tea branches unprotect main
				if len(ops) > 2 && (ops[0].s == "branches" || ops[0].s == "branch" || ops[0].s == "b") && ops[1].s == "unprotect" && isProtectedBranch(ops[2].s) {
					return true, "tea branches unprotect " + ops[2].s
				}
			case "glab", "gh":
				// glab api -X PUT runners/56 -f paused=true: a runner every
				// project of the group shares, stopped taking jobs
				if ops[0].s == "api" {
					for _, w := range ops[1:] {
						if !strings.HasPrefix(w.s, "runners/") && !strings.Contains(w.s, "/runners/") {
							continue
						}
						if m, _ := optValue(args, "-X", "method"); strings.EqualFold(m, "PUT") || strings.EqualFold(m, "PATCH") || strings.EqualFold(m, "DELETE") {
							if strings.EqualFold(m, "DELETE") || hasAnyWord(c.lowerArgs(), "paused=true", "active=false") {
								return true, c.name + " api " + m + " " + w.s
							}
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "shared-config-changed", Level: LevelHigh, Category: CategorySystem, Description: "changing configuration every service or environment reads (a shared or global key in Consul, SSM Parameter Store or etcd, overwritten)",
		Suggestions: []string{"Change shared configuration through its owners' process", "Write a key of your own service or of a preview"},
		names:       names("consul", "aws", "curl", "http", "https", "xh", "gh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "gh":
				// gh variable set DEPLOY_TARGET --env production: what
				// every production deployment reads (a development or
				// staging environment's are the team's to change)
				// (a secret's name kept in a variable is another rule's)
				if len(ops) > 2 && ops[0].s == "variable" && ops[1].s == "set" && !secretVarName(strings.ToUpper(ops[2].s)) {
					if env, ok := optValue(args, "-e", "env"); ok && isProdName(env) {
						return true, "gh variable set " + ops[2].s + " --env " + env
					}
				}
			case "consul":
				if len(ops) > 2 && ops[0].s == "kv" && ops[1].s == "put" && sharedKey(ops[2].s) {
					return true, "consul kv put " + ops[2].s
				}
			case "aws":
				if len(ops) > 1 && ops[0].s == "ssm" && ops[1].s == "put-parameter" && hasWord(args, "--overwrite") {
					// (a secret's value stored again is a rotation, judged by
					// the secret rules)
					if n, ok := optValue(args, "", "name"); ok && (sharedKey(n) || isProdName(n)) && !secretVarName(path.Base(n)) && !hasWord(args, "SecureString") {
						return true, "aws ssm put-parameter --name " + n + " --overwrite"
					}
				}
			default:
				// Consul's HTTP API: PUT /v1/kv/config/global/...
				if m := httpMethod(c); m == "PUT" || m == "POST" && (hasWord(args, "-d") || hasPrefixWord(args, "--data")) {
					for _, u := range urlArgs(args) {
						if i := strings.Index(u, "/v1/kv/"); i >= 0 && !isLocalHost(hostOf(u)) && sharedKey(u[i+len("/v1/kv/"):]) {
							return true, "PUT " + u
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "ci-server-changed", Level: LevelHigh, Category: CategorySystem, Description: "changing a shared CI server through its client or web API (jobs, nodes or builds deleted, the server shut down or restarted, plugins installed, scripts run on the controller), or switching a repository's checks off",
		Suggestions: []string{"Change the CI server through its administrators or its configuration as code", "Read jobs and builds with list-jobs and get-job"},
		names:       names("java", "jenkins-cli", "curl", "wget", "http", "https", "xh", "gh", "glab"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "curl", "wget", "http", "https", "xh":
				// POST .../quietDown, .../safeRestart, .../job/x/doDelete:
				// Jenkins' own controls through its web API
				if m := httpMethod(c); m != "POST" && !hasWord(args, "-d") && !hasPrefixWord(args, "--data") {
					return false, ""
				}
				for _, u := range urlArgs(args) {
					if h := hostOf(u); isLocalHost(h) {
						continue
					}
					p := strings.TrimRight(u[strings.Index(u, "://")+3:], "/")
					for _, end := range [...]string{"/quietDown", "/safeRestart", "/restart", "/safeExit", "/exit", "/doDelete", "/doDisconnect", "/toggleOffline"} {
						if strings.HasSuffix(p, end) {
							return true, "Jenkins " + strings.TrimPrefix(end, "/") + " (" + u + ")"
						}
					}
				}
				return false, ""
			case "gh", "glab":
				// gh workflow disable ci.yml: the repository's checks no
				// longer run on what is pushed
				ops := positional(args)
				if len(ops) > 2 && (ops[0].s == "workflow" && ops[1].s == "disable" || ops[0].s == "ci" && ops[1].s == "disable") {
					if l := lower(ops[2].s); hasAny(l, "ci", "test", "check", "lint", "security", "codeql", "scan", "build", "verify", "audit", "sast") {
						return true, c.name + " workflow disable " + ops[2].s
					}
				}
				return false, ""
			}
			if c.name == "java" {
				jar, ok := optValue(args, "-jar", "")
				if !ok || !strings.Contains(lower(path.Base(jar)), "jenkins-cli") {
					return false, ""
				}
				for i, w := range args {
					if w.s == jar {
						args = args[i+1:]
						break
					}
				}
			}
			// the client's own options: -s URL, -auth CRED, -i KEY,
			// -webSocket, -http, -ssh, -user NAME
			op, at := "", 0
			for i := 0; i < len(args); i++ {
				switch w := args[i].s; {
				case w == "-s" || w == "-i" || w == "-auth" || w == "-user" || w == "-bearer" || w == "-logger":
					i++
				case strings.HasPrefix(w, "-"):
				default:
					op, at = w, i
				}
				if op != "" {
					break
				}
			}
			if op == "install-plugin" {
				// by name, from the update centre the server trusts; a URL
				// or a plugin file is code from anywhere
				for _, w := range args[at+1:] {
					if strings.Contains(w.s, "://") || strings.HasSuffix(lower(w.s), ".hpi") || strings.HasSuffix(lower(w.s), ".jpi") || w.s == "=" {
						return true, "jenkins-cli install-plugin " + w.s
					}
				}
				return false, ""
			}
			switch op {
			case "delete-job", "delete-node", "delete-builds", "delete-view", "delete-credentials", "shutdown", "safe-shutdown", "restart", "safe-restart",
				"quiet-down", "disconnect-node", "offline-node", "clear-queue", "install-plugin", "groovy", "groovysh":
				return true, "jenkins-cli " + op
			}
			return false, ""
		}},
	{ID: "pipeline-run-production", Level: LevelHigh, Category: CategorySystem, Description: "starting a deployment pipeline against production by hand, or any pipeline with its tests or security checks switched off",
		Suggestions: []string{"Let the release process deploy production", "Run the pipeline against staging"},
		names:       names("gh", "glab", "az", "circleci", "act", "curl", "wget", "http", "https", "xh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) < 2 {
				return false, ""
			}
			var from []word
			switch c.name {
			case "gh":
				if args[0].s == "workflow" && args[1].s == "run" {
					from = args[2:]
				}
			case "glab":
				if (args[0].s == "ci" || args[0].s == "pipeline") && (args[1].s == "run" || args[1].s == "trigger") {
					from = args[2:]
				}
			case "az":
				if args[0].s == "pipelines" && args[1].s == "run" {
					from = args[2:]
				}
			case "circleci":
				if args[0].s == "pipeline" && (args[1].s == "run" || args[1].s == "trigger") {
					from = args[2:]
				}
			case "act":
				secrets := false
				for _, w := range args {
					if w.s == "-s" || w.s == "--secret" || strings.HasPrefix(w.s, "--secret-file") || strings.HasPrefix(w.s, "--secret=") {
						secrets = true
					}
				}
				if !secrets {
					return false, ""
				}
				for _, w := range args {
					l := lower(w.s)
					if strings.Contains(l, "prod") || strings.Contains(l, "publish") || strings.Contains(l, "release") || strings.Contains(l, "deploy") {
						return true, "act " + w.s + " with real secrets"
					}
				}
				return false, ""
			default:
				m := httpMethod(c)
				if m != "POST" {
					return false, ""
				}
				for _, w := range args {
					l := lower(w.s)
					if strings.Contains(l, "://") && (strings.Contains(l, "/pipeline") || strings.Contains(l, "/trigger/") || strings.Contains(l, "/builds")) &&
						(strings.Contains(l, "circleci.com") || strings.Contains(l, "bitbucket.org") || strings.Contains(l, "gitlab") || strings.Contains(l, "buildkite.com") || strings.Contains(l, "dev.azure.com")) {
						from = args
					}
				}
				if from == nil {
					return false, ""
				}
				for _, w := range from {
					if prodInText(w.s) && !strings.Contains(w.s, "://") {
						return true, c.name + " pipeline with " + w.s
					}
				}
				return false, ""
			}
			for _, w := range from {
				// glab ci run --variables SKIP_SECURITY_SCAN:true, gh
				// workflow run -f skip_tests=true: the pipeline's checks
				// switched off for this run
				if k, v := pipelineVariable(w.s); skipsChecks(k, v) {
					return true, c.name + " pipeline with " + w.s
				}
			}
			for _, w := range from {
				v := w.s
				if strings.HasPrefix(v, "-") {
					continue
				}
				if _, val, ok := strings.Cut(v, "="); ok {
					v = val
				} else if _, val, ok := strings.Cut(v, ":"); ok && !strings.Contains(v, "://") {
					v = val
				}
				for p := range strings.SplitSeq(lower(strings.TrimSuffix(strings.TrimSuffix(v, ".yml"), ".yaml")), " ") {
					if prodLabel(p) || strings.HasPrefix(p, "deploy-prod") || strings.HasSuffix(p, "-production") {
						return true, c.name + " " + args[0].s + " " + args[1].s + " " + w.s
					}
				}
			}
			return false, ""
		}},
	{ID: "git-auth-header-printed", Level: LevelHigh, Category: CategoryExfiltration, Description: "printing the checkout's auth header (the job's token) into the log",
		Suggestions: []string{"Check that the header is set with git config --get-regexp ... | wc -l, without its value"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "config" {
				return false, ""
			}
			for _, w := range args {
				l := lower(w.s)
				if strings.Contains(l, "extraheader") && !hasWord(args, "--name-only") && (hasWord(args, "--get") || hasWord(args, "--get-all") || hasWord(args, "--get-regexp") || hasWord(args, "-l") || hasWord(args, "--list")) &&
					a.wantOut == 0 && c.pipe == nil {
					return true, "the checkout's auth header printed"
				}
			}
			return false, ""
		}},
	{ID: "git-daemon-push-open", Level: LevelHigh, Category: CategorySystem, Description: "serving repositories to the network with anonymous push, or every repository under a directory",
		Suggestions: []string{"Serve one repository read-only on 127.0.0.1", "Push through the forge"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "daemon" {
				return false, ""
			}
			local := false
			for _, w := range args {
				if v, ok := strings.CutPrefix(w.s, "--listen="); ok && isLocalHost(v) {
					local = true
				}
			}
			if local {
				return false, ""
			}
			if hasWord(args, "--enable=receive-pack") || hasWord(args, "--export-all") && hasPrefixWord(args, "--base-path=") {
				return true, "git daemon " + joinWords(args)
			}
			return false, ""
		}},
	{ID: "pipeline-from-url", Level: LevelCritical, Category: CategoryRemoteExec, Description: "uploading a pipeline definition fetched from the network (the CI agents run its steps with the build's secrets)",
		Suggestions: []string{"Keep pipeline definitions in the repository, reviewed"}, names: names("buildkite-agent"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) < 2 || args[0].s != "pipeline" || args[1].s != "upload" {
				return false, ""
			}
			if c.in.kind == flowRemote {
				return true, "buildkite-agent pipeline upload of " + c.in.what
			}
			for _, w := range positional(args[2:]) {
				if a.isDownloaded(w.s, c.cwd) {
					return true, "buildkite-agent pipeline upload " + w.s
				}
			}
			return false, ""
		}},
	{ID: "api-production-disrupted", Level: LevelHigh, Category: CategorySystem, Description: "suspending, stopping or scaling down a production service through its platform's API",
		Suggestions: []string{"Change production through the release process"}, names: names("curl", "wget", "http", "https", "xh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if m := httpMethod(c); m != "POST" && m != "PUT" && m != "PATCH" {
				return false, ""
			}
			for _, w := range c.args() {
				l := lower(w.s)
				if !strings.Contains(l, "://") {
					continue
				}
				p := strings.TrimRight(l, "/")
				if i := strings.IndexAny(p, "?#"); i >= 0 {
					p = p[:i]
				}
				for _, suf := range [...]string{"/suspend", "/stop", "/disable", "/pause", "/maintenance"} {
					if strings.HasSuffix(p, suf) && (prodInText(strings.ReplaceAll(w.s, "_", "-")) || strings.Contains(w.s, "PROD")) {
						return true, w.s
					}
				}
			}
			return false, ""
		}},
	{ID: "local-backend-overwritten", Level: LevelModerate, Category: CategoryGitDestroy, Description: "overwriting the local backend definition with the cloud's copy (local edits are lost)",
		Suggestions: []string{"Commit or stash the local changes first"},
		// no names: a client with rules of its own loses the generic
		// production checks of the clients nobody listed
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name != "amplify" || !hasWord(c.args(), "--restore") {
				return false, ""
			}
			return true, "amplify " + c.argsText()
		}},
	{ID: "directory-entries-deleted", Level: LevelHigh, Category: CategoryPrivilege, Description: "deleting accounts or entries from a directory (LDAP, Kerberos, Samba, FreeIPA), or taking the machine out of its domain",
		Suggestions: []string{"Let the directory's administrators remove accounts", "Disable one named test account instead"},
		names:       names("ldapdelete", "kadmin", "kadmin.local", "samba-tool", "realm", "ipa"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if hasWord(args, "--help") || hasWord(args, "-h") && c.name != "ldapdelete" {
				return false, ""
			}
			scratch := func(ws []word) bool {
				for _, w := range ws {
					if scratchName(w.s) {
						return true
					}
				}
				return false
			}
			switch c.name {
			case "ldapdelete":
				// -n only shows what it would do
				if hasWord(args, "-n") || scratch(ops) {
					return false, ""
				}
				return true, "ldapdelete " + joinWords(ops)
			case "kadmin", "kadmin.local":
				q, _ := optValue(args, "-q", "")
				if f := strings.Fields(lower(q)); len(f) > 0 && (f[0] == "delprinc" || f[0] == "delete_principal") && !scratch(ops) {
					return true, q
				}
			case "samba-tool":
				if len(ops) > 1 && (ops[0].s == "user" || ops[0].s == "group" || ops[0].s == "computer" || ops[0].s == "ou") && (ops[1].s == "delete" || ops[1].s == "disable") && !scratch(ops[2:]) {
					return true, "samba-tool " + ops[0].s + " " + ops[1].s
				}
			case "realm":
				if len(ops) > 0 && ops[0].s == "leave" {
					return true, "realm leave" // domain logins on this machine stop
				}
			case "ipa":
				if len(ops) > 0 && strings.HasSuffix(ops[0].s, "-del") && !scratch(ops[1:]) {
					return true, "ipa " + ops[0].s
				}
			}
			return false, ""
		}},
	{ID: "certificate-removed", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting or revoking a site's certificate or an app's signing key (the site stops serving TLS; updates can no longer be signed)",
		Suggestions: []string{"Let a new certificate replace the old one", "Keep signing keys; rotate them through the store's process"},
		names:       names("certbot", "keytool", "acme.sh", "lego"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "acme.sh", "lego":
				// acme.sh --revoke -d DOMAIN, lego --domains D revoke: the
				// live certificate revoked (a staging server's is a test's)
				revoke := c.name == "acme.sh" && hasWord(args, "--revoke") || c.name == "lego" && len(ops) > 0 && ops[len(ops)-1].s == "revoke"
				if !revoke || hasWord(args, "--staging") || hasWord(args, "--test") || strings.Contains(c.argsText(), "staging") {
					return false, ""
				}
				d, _ := optValue(args, "-d", "domain", "domains")
				if scratchName(d) {
					return false, ""
				}
				return true, c.name + " revoking the certificate of " + d
			case "certbot":
				if len(ops) == 0 || ops[0].s != "delete" && ops[0].s != "revoke" || hasWord(args, "--dry-run") || hasWord(args, "--staging") || hasWord(args, "--test-cert") {
					return false, ""
				}
				for _, w := range ops[1:] {
					if scratchName(w.s) {
						return false, ""
					}
				}
				return true, "certbot " + ops[0].s
			case "keytool":
				if !hasWord(args, "-delete") {
					return false, ""
				}
				alias, _ := optValue(args, "-alias", "")
				store, _ := optValue(args, "-keystore", "")
				if l := lower(alias + " " + store); scratchName(l) || strings.Contains(l, "debug") {
					return false, "" // the debug keystore Android makes again
				}
				return true, "keytool -delete -alias " + alias
			}
			return false, ""
		}},
	{ID: "account-locked", Level: LevelHigh, Category: CategoryPrivilege, Description: "locking or expiring another user's account",
		Suggestions: []string{"Let an administrator lock accounts"}, names: names("chage", "usermod", "passwd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 {
				return false, ""
			}
			user := ops[len(ops)-1].s
			if scratchName(user) || user == "$USER" || user == "$(whoami)" {
				return false, ""
			}
			if user == "root" && (c.name == "passwd" || c.name == "usermod") {
				return false, "" // root's password locked: logins go through sudo (the usual hardening)
			}
			switch c.name {
			case "chage":
				if v, ok := optValue(args, "-E", "expiredate"); ok && (v == "0" || v == "1" || strings.HasPrefix(v, "1970")) {
					return true, "chage -E " + v + " " + user
				}
			case "usermod":
				if hasWord(args, "-L") || hasWord(args, "--lock") {
					return true, "usermod -L " + user
				}
				if v, ok := optValue(args, "-e", "expiredate"); ok && (v == "1" || strings.HasPrefix(v, "1970")) {
					return true, "usermod -e " + v + " " + user
				}
			case "passwd":
				if hasWord(args, "-l") || hasWord(args, "--lock") {
					return true, "passwd -l " + user
				}
			}
			return false, ""
		}},
	{ID: "mesh-uninstalled-into-delete", Level: LevelHigh, Category: CategoryContainerDestroy, Description: "deleting a service mesh's or add-on's whole installation from the cluster",
		Suggestions: []string{"Uninstall on a test cluster first", "Let the cluster's operators remove add-ons"}, names: names("kubectl", "oc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) == 0 || args[0].s != "delete" || c.pipe == nil || c.stage == 0 {
				return false, ""
			}
			prev := c.pipe[c.stage-1]
			if prev == nil {
				return false, ""
			}
			for _, w := range prev.args() {
				if w.s == "uninstall" {
					for _, x := range prev.args() {
						if x.s == "--dry-run" {
							return false, ""
						}
					}
					return true, prev.base + " uninstall | " + c.base + " delete"
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, pipelineRules) }

// prodInText reports a production label among the words of a text such
// as a JSON body ({"deploy_env":"production"}).
func prodInText(s string) bool {
	for _, p := range strings.FieldsFunc(lower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-')
	}) {
		if prodLabel(p) {
			return true
		}
	}
	return false
}

// pipelineVariable splits a pipeline variable given as NAME=VALUE or
// NAME:VALUE.
func pipelineVariable(s string) (string, string) {
	if k, v, ok := strings.Cut(s, "="); ok {
		return k, v
	}
	k, v, _ := strings.Cut(s, ":")
	return k, v
}

// skipsChecks reports a pipeline variable that turns its tests or
// security checks off: SKIP_SECURITY_SCAN=true, skip_tests=1,
// DISABLE_SAST=yes.
func skipsChecks(k, v string) bool {
	k, v = lower(k), lower(strings.Trim(v, `"'`))
	if v != "true" && v != "1" && v != "yes" {
		return false
	}
	return (strings.Contains(k, "skip") || strings.Contains(k, "disable") || strings.Contains(k, "no_")) &&
		hasAny(k, "test", "security", "scan", "sast", "dast", "check", "lint", "audit", "verify", "approval", "review", "sign")
}

// sharedKey reports a configuration key every service reads: a path
// with a shared, global or common part (config/shared/payments/url,
// /shared/flags/x, config/global/maintenance_mode).
func sharedKey(k string) bool {
	for seg := range strings.SplitSeq(strings.Trim(lower(k), "/"), "/") {
		switch seg {
		case "shared", "global", "common", "all-services", "platform":
			return true
		}
	}
	return false
}

// mainBranch reports a repository's usual default branch.
func mainBranch(b string) bool {
	switch strings.TrimPrefix(b, "refs/heads/") {
	case "main", "master", "trunk", "develop":
		return true
	}
	return false
}
