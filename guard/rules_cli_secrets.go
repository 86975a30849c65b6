package guard

import (
	"path"
	"regexp"
	"strings"
)

// Clients of hosted services asked to print a credential into the
// transcript: a token issued for the session (fly auth token, openstack
// token issue, ibmcloud iam oauth-tokens), a named secret read back
// (heroku config:get DATABASE_URL, netlify env:get STRIPE_SECRET_KEY,
// buildkite-agent secret get NPM_TOKEN, scw config get secret-key), every
// value with its secrets shown (pulumi config --show-secrets, gh auth
// status --show-token), an application's environment (eb printenv) or a
// database's connection string with its password (doctl databases
// connection). Where the output goes to a program (captured into a
// variable, a file, a login's standard input) the secret is used, not
// shown; sent to the network, the flow rules judge it.
var cliSecretRules = []*rule{
	{ID: "secret-field-printed", Level: LevelHigh, Category: CategoryExfiltration, Description: "picking a token, key or password out of a response with jq and printing it into the transcript",
		Suggestions: []string{"Capture the value into a variable (TOKEN=$(… | jq -r .token)) without printing it", "Print the other fields only"},
		names:       names("jq", "gojq", "jaq", "yq"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if a.wantOut > 0 || !shownOnTerminal(c) {
				return false, ""
			}
			// a response of a web API (curl … /v3/api_keys, gh api …);
			// secret stores' and cloud clients' outputs have rules of
			// their own
			if p := prevStage(c); p == nil || !slicesContains(httpClients, p.name) && p.name != "gh" && p.name != "glab" {
				return false, ""
			}
			ops := c.operands()
			if len(ops) == 0 {
				return false, ""
			}
			f := strings.Trim(ops[0].s, `'"`)
			if strings.ContainsAny(f, "|{},( ") {
				return false, "" // a filter that builds something else
			}
			field := lower(f[strings.LastIndexByte(f, '.')+1:])
			switch strings.Trim(field, `"[]`) {
			case "api_key", "apikey", "token", "access_token", "accesstoken", "secret", "client_secret", "clientsecret", "password", "private_key",
				"privatekey", "secret_key", "secretkey", "refresh_token", "auth_token", "authtoken", "key_secret":
				return true, c.base + " " + f
			}
			return false, ""
		}},
	{ID: "cli-secret-printed", Level: LevelHigh, Category: CategoryExfiltration, Description: "printing a service's token, secret value or connection string into the transcript",
		Suggestions: []string{"Pass the secret to the program that needs it (a variable, --password-stdin) without printing it", "List secret names only"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 2 || c.dryRun || a.wantOut > 0 || a.piped {
				return false, ""
			}
			if what := settingsShown(c); what != "" && shownOnTerminal(c) {
				return true, what
			}
			if what := querySecretField(c); what != "" && shownOnTerminal(c) {
				return true, what
			}
			if what := keystoreShown(c); what != "" && shownOnTerminal(c) {
				return true, what
			}
			if cliSecretPrintExempt[c.name] || psCmdlet(c.name) || !secretWordIn(c) {
				return false, ""
			}
			if c.name == "nmcli" && !hasAnyWord(c.lowerArgs(), "-s", "--show-secrets") {
				return false, "" // its connections are network profiles; -s shows their secrets
			}
			if secretsFilteredLater(c) {
				return false, "" // | jq '{AccessorID, Description}': fields that hold no secret
			}
			var what string
			if fetchers[c.name] {
				what = secretAPIRead(c)
			} else {
				what = cliSecretPrinted(c)
			}
			if what == "" || !shownOnTerminal(c) {
				return false, ""
			}
			return true, what
		}},
	{ID: "secrets-exported-to-file", Level: LevelHigh, Category: CategoryExfiltration, Description: "writing a stack's or a configuration's secrets, decrypted on request, into a file",
		Suggestions: []string{"Export without --show-secrets (the secrets stay encrypted)", "Read the one value needed where it is used"},
		names:       names("pulumi", "serverless", "sls", "php", "symfony", "eas", "terraform"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "terraform" {
				// terraform output -json > outputs.json: every output,
				// the sensitive ones in clear, kept in a file (tofu and
				// terragrunt are named terraform)
				if !iacAllOutputs(c) {
					return false, ""
				}
				for _, t := range a.writeTargets(c) {
					if t.path != "" && t.path != "/dev/null" && !t.appends && a.outputsFileExposed(t.raw, t.path) {
						return true, "terraform output -json → " + t.raw
					}
				}
				if n := nextStage(c); n != nil && n.name == "tee" {
					if ops := n.operands(); len(ops) > 0 && ops[0].s != "/dev/null" && a.outputsFileExposed(ops[0].s, a.absPath(ops[0].s, c.cwd)) {
						return true, "terraform output -json → " + ops[0].s
					}
				}
				return false, ""
			}
			if c.name != "pulumi" {
				// sls print --stage prod > resolved.yml: resolved
				// settings, secrets among them, kept in a file
				what := settingsShown(c)
				if what == "" {
					return false, ""
				}
				for _, t := range a.writeTargets(c) {
					if t.path != "" && t.path != "/dev/null" && !t.appends {
						return true, what + " → " + t.raw
					}
				}
				return false, ""
			}
			// pulumi stack export --show-secrets > stack.json: every
			// secret of the stack in clear, in a file that stays (the
			// encrypted export is the backup)
			if !hasWord(c.args(), "--show-secrets") {
				return false, ""
			}
			if f, ok := optValue(c.args(), "", "file"); ok && f != "/dev/null" {
				return true, "pulumi --show-secrets → " + f
			}
			for _, t := range a.writeTargets(c) {
				if t.path != "" && t.path != "/dev/null" {
					return true, "pulumi --show-secrets → " + t.path
				}
			}
			return false, ""
		}},
	{ID: "secret-config-plaintext", Level: LevelHigh, Category: CategoryExfiltration, Description: "storing a password or key in a stack's configuration in clear (Pulumi.<stack>.yaml is committed with the code)",
		Suggestions: []string{"Add --secret: Pulumi encrypts the value", "Keep the secret in the secrets manager and reference it"},
		names:       names("pulumi"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := posArgs(args, optSpec{short: "sC", long: []string{"stack", "cwd", "config-file"}})
			if len(ops) < 4 || ops[0].s != "config" || ops[1].s != "set" || hasWord(args, "--secret") {
				return false, ""
			}
			key := ops[2].s
			if i := strings.LastIndexByte(key, ':'); i >= 0 {
				key = key[i+1:] // aws:secretKey, app:dbPassword
			}
			if !secretVarName(strings.ToUpper(camelToSnake(key))) {
				return false, ""
			}
			return true, "pulumi config set " + ops[2].s + " (without --secret)"
		}},
	{ID: "git-credentials-plaintext", Level: LevelHigh, Category: CategoryExfiltration, Description: "making git keep every password and token it is given in a plain-text file",
		Suggestions: []string{"Use the platform's credential manager (manager, osxkeychain, libsecret) or cache with a timeout", "Give the tool a token through its own login command"},
		names:       names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			k, v, ok := gitConfigSet(c)
			if !ok || k != "credential.helper" && !(strings.HasPrefix(k, "credential.") && strings.HasSuffix(k, ".helper")) {
				return false, ""
			}
			// credential.helper store (or 'store --file F'): each login
			// used from then on is written out unencrypted
			if f := strings.Fields(v); len(f) > 0 && f[0] == "store" {
				return true, "credential.helper " + v
			}
			return false, ""
		}},
	{ID: "git-remote-credential", Level: LevelHigh, Category: CategoryExfiltration, Description: "writing a token or password into a repository's remote URL (it stays in .git/config, readable by every tool and copied with the folder)",
		Suggestions: []string{"Give git the token through a credential helper or GIT_ASKPASS", "Use an SSH remote, or pass the token for one push only"},
		names:       names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			var url string
			switch ops := positional(args); {
			case sub == "remote" && len(ops) >= 3 && (ops[0].s == "add" || ops[0].s == "set-url"):
				url = ops[len(ops)-1].s
			case sub == "config" && len(ops) >= 2 && strings.HasPrefix(lower(ops[0].s), "remote.") && strings.HasSuffix(lower(ops[0].s), "url"):
				url = ops[1].s
			default:
				return false, ""
			}
			if u := urlUserinfo(url); u != "" {
				return true, "remote URL with " + u
			}
			return false, ""
		}},
	{ID: "secrets-decrypted-to-file", Level: LevelHigh, Category: CategoryExfiltration, Description: "writing production secrets decrypted into a plain file (in the repository, a commit away from being published)",
		Suggestions: []string{"Use the secrets without writing them out (sops exec-env, a pipe into the program)", "Decrypt only development secrets into files"},
		names:       names("sops", "ansible-vault"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			low := c.lowerArgs()
			ops := c.operands()
			var src string
			switch c.name {
			case "sops":
				if !hasAnyWord(low, "-d", "--decrypt", "decrypt") || len(ops) == 0 {
					return false, ""
				}
				src = ops[len(ops)-1].s
			case "ansible-vault":
				if len(ops) < 2 || ops[0].s != "decrypt" {
					return false, ""
				}
				src = ops[1].s
			}
			if !prodMarker(src) && !isProdName(src) {
				return false, ""
			}
			if c.name == "ansible-vault" || hasAnyWord(low, "-i", "--in-place") {
				if v, ok := optValue(args, "", "output"); ok && (v == "-" || v == "/dev/stdout") {
					return false, ""
				}
				return true, c.name + " decrypt " + src
			}
			if v, ok := optValue(args, "", "output"); ok && v != "/dev/null" {
				return true, c.name + " -d " + src + " into " + v
			}
			for _, r := range c.redirs {
				if r.isOutput() && (r.n == "" || r.n == "1") && r.w.s != "/dev/null" && !isFD(r.w.s) {
					return true, c.name + " -d " + src + " into " + r.w.s
				}
			}
			return false, ""
		}},
	{ID: "prod-secrets-into-project", Level: LevelHigh, Category: CategoryExfiltration, Description: "writing production secrets read from a secret store, or a remote cluster's credentials, into a file in the project (a commit away from being published)",
		Suggestions: []string{"Hand the secret to the program that needs it without a file", "Write development secrets only, into an ignored file"},
		writes:      true,
		match: func(a *analysis, c *cmd) (bool, string) {
			what := storedSecretRead(c)
			// kubectl config view --raw > ./ci/kubeconfig-prod.yaml: a
			// cluster's credentials themselves
			// (--flatten embeds the certificates and keys as --raw does)
			rawKubeconfig := c.name == "kubectl" && (hasWord(c.args(), "--raw") || hasWord(c.args(), "--flatten")) && hasWord(c.args(), "view") && hasWord(c.args(), "config")
			if what == "" && !rawKubeconfig || strings.HasPrefix(what, credentialOutput) && !rawKubeconfig {
				return false, ""
			}
			if rawKubeconfig {
				what = "a cluster's credentials"
			}
			// a cluster's credentials other than a local cluster's are
			// never the project's to keep
			prod := touchesProduction(c) || productionTarget(c.args(), c.lowerArgs()) || rawKubeconfig && !localKubeContext(c.args())
			for _, r := range c.redirs {
				if !r.isOutput() || r.n != "" && r.n != "1" || isFD(r.w.s) {
					continue
				}
				if p := a.absPath(r.w.s, c.cwd); p != "" && a.inWork(p) && (prod || isProdName(path.Base(r.w.s))) {
					return true, what + " into " + r.w.s
				}
			}
			return false, ""
		}},
	{ID: "secret-shared-with-every-repository", Level: LevelHigh, Category: CategoryExfiltration, Description: "storing a secret at the organisation's level for every repository (any workflow in any repository can read it)",
		Suggestions: []string{"Give the secret to the repositories that need it (--repos)", "Keep it in the one repository's secrets"},
		names:       names("gh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) < 3 || ops[0].s != "secret" || ops[1].s != "set" {
				return false, ""
			}
			if _, org := optValue(args, "-o", "org"); !org {
				return false, ""
			}
			if v, ok := optValue(args, "-v", "visibility"); ok && v == "all" {
				return true, "gh secret set " + ops[2].s + " --org ... --visibility all"
			}
			return false, ""
		}},
	{ID: "environment-dumped-to-file", Level: LevelHigh, Category: CategoryExfiltration, Description: "writing every environment variable, secrets included, into a file (build output is uploaded, a web root is served, other users can read it)",
		Suggestions: []string{"Write the names only (env | cut -d= -f1)", "Write the one variable the step needs"},
		names:       names("env", "printenv", "tee", "out-file", "set-content", "add-content", "tee-object", "sort", "cat", "uniq", "column", "export-csv", "export-clixml", "export", "typeset", "declare"),
		match: func(a *analysis, c *cmd) (bool, string) {
			var dests []string
			if psCmdlet(c.name) {
				// gci env: | Out-File C:\work\project\env-dump.txt (the
				// redirection Get-ChildItem env: > file is judged where
				// PowerShell's redirections are)
				if c.in.kind != flowSecret || c.in.what != "the environment" {
					return false, ""
				}
				v, ok := swVal(wargs(c), "filepath", "path", "literalpath")
				if !ok {
					if ops := c.operands(); len(ops) > 0 {
						v = ops[0].s
					}
				}
				if v != "" && a.winPersistentFile(v) {
					return true, "the environment into " + v
				}
				return false, ""
			}
			if c.name == "sort" || c.name == "cat" || c.name == "uniq" || c.name == "column" {
				// printenv | sort > build/env.txt: the same, ordered
				if c.in.kind != flowSecret || c.in.what != "the environment variables" || len(c.operands()) > 0 {
					return false, ""
				}
				for _, r := range c.redirs {
					if r.isOutput() && (r.n == "" || r.n == "1") && !isFD(r.w.s) && r.w.s != "/dev/null" {
						dests = append(dests, r.w.s)
					}
				}
			} else if c.name == "tee" {
				if c.in.kind == flowSecret && c.in.what == "the environment variables" {
					for _, w := range c.operands() {
						dests = append(dests, w.s)
					}
				}
			} else if c.name == "export" || c.name == "typeset" || c.name == "declare" {
				// export -p > F, typeset -p -m 'AWS_*' > F: the variables
				// (or a service's) with their values
				args := c.args()
				if secretFamilyPattern(typesetPattern(args)) || len(args) == 1 && args[0].s == "-p" || len(args) == 0 && c.name == "export" {
					for _, r := range c.redirs {
						if r.isOutput() && (r.n == "" || r.n == "1") && !isFD(r.w.s) && r.w.s != "/dev/null" {
							dests = append(dests, r.w.s)
						}
					}
				}
			} else if len(c.operands()) == 0 { // (env VAR=x cmd runs a command; printenv NAME shows one)
				for _, r := range c.redirs {
					if r.isOutput() && (r.n == "" || r.n == "1") && !isFD(r.w.s) && r.w.s != "/dev/null" {
						dests = append(dests, r.w.s)
					}
				}
			}
			for _, d := range dests {
				// the project (build output, artifacts), a served folder, or
				// a file the line makes readable by everyone; a private
				// temporary file looked at and removed is not
				p := a.absPath(d, c.cwd)
				if p != "" && (a.inWork(p) || hasAny(p, "/var/www/", "/srv/", "/public/", "/usr/share/nginx/") ||
					worldReadableLater(a.src, d) || sharedFile(a, d, c.cwd, true)) {
					return true, "the environment into " + d
				}
			}
			return false, ""
		}},
	{ID: "local-env-overwritten", Level: LevelModerate, Category: CategoryFileDelete, Description: "overwriting the project's .env with a service's remote values (the local-only settings in it are lost)",
		Suggestions: []string{"Write the values to a new file (.env.remote) and merge by hand", "Back up .env first"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 3 || cliSecretPrintExempt[c.name] && c.name != "vercel" || psCmdlet(c.name) || fetchers[c.name] {
				return false, ""
			}
			low := c.lowerArgs()
			pulls := false
			for i, l := range low {
				if i > 4 {
					break
				}
				switch l {
				case "pull", "export", "download", "env:pull":
					pulls = true
				}
			}
			if !pulls || !hasAnyWord(low, "env", "secrets", "variables", "config", "export", "env:pull") {
				return false, ""
			}
			dest := ""
			if v, ok := optValue(c.args(), "-o", "output-file", "output", "env-file", "out", "file"); ok {
				dest = v
			}
			for _, r := range c.redirs {
				if r.isOutput() && !r.isAppend() && (r.n == "" || r.n == "1") {
					dest = r.w.s
				}
			}
			if dest == "" {
				for _, w := range c.operands() {
					if strings.HasSuffix(w.s, ".env") {
						dest = w.s // vercel env pull .env
					}
				}
			}
			if path.Base(strings.ReplaceAll(dest, `\`, "/")) != ".env" {
				return false, ""
			}
			if p := a.absPath(dest, c.cwd); p != "" && !a.inWork(p) {
				return false, ""
			}
			return true, c.name + " → " + dest
		}},
	{ID: "xtrace-secrets", Level: LevelHigh, Category: CategoryExfiltration, Description: "a shell's trace (set -x) or a dump of the environment showing the secrets a settings file or a secret store just gave it",
		Suggestions: []string{"Turn tracing off (set +x) around secrets", "Check that the variables are set without printing them: printenv | cut -d= -f1"},
		names:       append(names("source", ".", "export", "declare", "typeset", "readonly", "printenv", "env"), traceClients...),
		match: func(a *analysis, c *cmd) (bool, string) {
			if slicesContains(traceClients, c.name) {
				// set -x; curl -H "Authorization: Bearer $DEPLOY_TOKEN":
				// the trace prints the command with the token expanded
				if !shellTraced(a.src) || traceTurnedOff(a.src) {
					return false, ""
				}
				for _, w := range c.args() {
					if v := secretVarIn(w.s); v != "" && !w.ok {
						return true, "set -x; " + c.name + " … $" + v
					}
				}
				return false, ""
			}
			ops := c.operands()
			switch c.name {
			case "source", ".":
				if len(ops) > 0 && shellTraced(a.src) && (secretSettingsFile(path.Base(ops[0].s)) || secretsScript(path.Base(ops[0].s))) {
					return true, "set -x; " + c.name + " " + ops[0].s
				}
			case "printenv", "env":
				// (set -a; . ./.env; printenv): every variable the file
				// set, exported, printed
				if len(ops) == 0 && !a.piped && c.pipe == nil && len(c.redirs) == 0 && allExport(a.src) && envFileLoaded(a.src, secretSettingsFile) {
					return true, c.name + " after the settings file was exported"
				}
			default:
				if !shellTraced(a.src) {
					return false, ""
				}
				for _, w := range c.args() {
					n, v, ok := strings.Cut(w.s, "=")
					if ok && isSecretVar(n) && strings.ContainsAny(v, "$`") {
						return true, "set -x; " + c.name + " " + n + "=..."
					}
				}
			}
			return false, ""
		}},
}

// shellTraced reports a line that turns the shell's trace on (set -x,
// set -ex, set -o xtrace) for what follows.
func shellTraced(src string) bool {
	return strings.Contains(src, "set -") && xtraceOn.MatchString(src) ||
		strings.Contains(src, "fish_trace") && fishTraceOn.MatchString(src)
}

var xtraceOn = regexp.MustCompile(`(?:^|[;&|({\n]\s*)set\s+(?:-[a-wyzA-Z]*x[a-zA-Z]*|-o\s+xtrace)(?:\s|;|$)`)

// fishTraceOn is fish's trace turned on: set fish_trace 1, set -g
// fish_trace on (set -e fish_trace erases it).
var fishTraceOn = regexp.MustCompile(`(?:^|[;&|({\n]\s*)set\s+(?:-[gUlx]+\s+)*fish_trace\s+[^;&|\s]`)

// allExport reports a line that exports every variable it sets (set -a).
func allExport(src string) bool {
	return strings.Contains(src, "set -a") || strings.Contains(src, "set -o allexport")
}

// secretSettingsFile reports a project settings file that holds secrets
// (.env, .env.production, prod.env), not a template or a test's.
func secretSettingsFile(base string) bool {
	l := lower(base)
	if !strings.HasPrefix(l, ".env") && !strings.HasSuffix(l, ".env") || testEnvFile(l) {
		return false
	}
	return !hasAny(l, "example", "sample", "template", "dist", "defaults", ".envrc")
}

// secretsScript reports a shell file named for the secrets it sets
// (secrets.fish, credentials.sh, tokens.zsh), not a template.
func secretsScript(base string) bool {
	l := lower(base)
	return hasAny(l, "secret", "credential", "token") && !hasAny(l, "example", "sample", "template")
}

// secretPostedRule: a secret variable's value put into text others read
// on a shared service: a CI annotation, an issue or pull-request
// comment, release notes.
var secretPostedRule = &rule{ID: "secret-posted", Level: LevelHigh, Category: CategoryExfiltration, Description: "posting a secret's value where others read it (a CI annotation, a comment, release notes)",
	Suggestions: []string{"Post the secret's name or a fingerprint, never its value", "Check it is set with [ -n \"$VAR\" ]"},
	names:       names("buildkite-agent", "gh", "glab"),
	match: func(a *analysis, c *cmd) (bool, string) {
		ops := c.operands()
		if len(ops) < 2 {
			return false, ""
		}
		switch c.name + " " + ops[0].s + " " + ops[1].s {
		case "gh issue comment", "gh pr comment", "gh pr create", "gh issue create", "gh release create", "gh pr review", "gh gist create",
			"glab mr note", "glab issue note", "glab mr create", "glab issue create", "glab release create":
		default:
			if c.name != "buildkite-agent" || ops[0].s != "annotate" && ops[0].s != "meta-data" {
				return false, ""
			}
		}
		for _, w := range c.args() {
			if v := secretVarIn(w.s); v != "" && !w.ok {
				return true, "$" + v + " posted by " + c.base + " " + ops[0].s
			}
		}
		return false, ""
	}}

// clearTextStoreRule: a package source's password written in clear text
// (dotnet nuget add source -p $TOKEN --store-password-in-clear-text):
// read by every tool and copied with the file.
var clearTextStoreRule = &rule{ID: "secret-stored-in-clear", Level: LevelHigh, Category: CategoryExfiltration, Description: "storing a password or token in clear text in a settings file, the registry or the user's permanent environment",
	Suggestions: []string{"Let the tool encrypt it (drop --store-password-in-clear-text), or use its login command", "Use a credential provider or an environment variable read at run time"},
	names:       names("dotnet", "nuget", "setx", "p4", "echo", "printf"),
	match: func(a *analysis, c *cmd) (bool, string) {
		args := c.args()
		switch c.name {
		case "echo", "printf":
			// echo 'export MATCH_PASSWORD="..."' >> ~/.zshrc: the secret
			// in a file every shell reads, and every backup of it
			rc := false
			for _, r := range c.redirs {
				if r.isOutput() && shellRCFile(path.Base(r.w.s)) {
					rc = true
				}
			}
			if !rc {
				return false, ""
			}
			for _, w := range args {
				t := strings.TrimSpace(w.s)
				t = strings.TrimPrefix(strings.TrimPrefix(t, "export "), "set -gx ")
				if k, v, ok := strings.Cut(t, "="); ok && secretVarName(strings.ToUpper(strings.TrimSpace(k))) && clearValue(word{s: strings.TrimSpace(v), ok: true}) &&
					!strings.HasPrefix(strings.Trim(v, `"' `), "~") && !strings.HasPrefix(strings.Trim(v, `"' `), "/") {
					// (a path to the secret's file is not the secret)
					return true, k + " written in clear into " + c.redirs[len(c.redirs)-1].w.s
				}
			}
			return false, ""
		case "setx":
			// setx KEYSTORE_PASSWORD "s3cret": in the registry, in every
			// later process's environment
			ops := c.operands()
			if len(ops) > 1 && !strings.HasPrefix(ops[0].s, "/") && secretVarName(strings.ToUpper(ops[0].s)) && clearValue(ops[1]) && !hasFoldWord(args, "/m") {
				// (machine-wide, /M, is win-secret-stored-machine-wide's)
				return true, "setx " + ops[0].s + " (a secret in the user's permanent environment)"
			}
			return false, ""
		case "p4":
			// p4 set P4PASSWD=...: in the registry (or P4ENVIRO) in clear
			for _, w := range args {
				if v, ok := strings.CutPrefix(w.s, "P4PASSWD="); ok && clearValue(word{s: v, ok: w.ok}) {
					return true, "p4 set P4PASSWD"
				}
			}
			return false, ""
		}
		if !hasWord(args, "--store-password-in-clear-text") && !hasWord(args, "-storepasswordincleartext") && !hasWord(args, "-StorePasswordInClearText") {
			return false, ""
		}
		if _, ok := optValue(args, "-p", "password"); ok || hasWord(args, "-Password") {
			return true, c.base + " source with its password in clear text"
		}
		return false, ""
	}}

// shellRCFile reports a shell's startup file name.
func shellRCFile(base string) bool {
	switch base {
	case ".bashrc", ".zshrc", ".profile", ".bash_profile", ".zprofile", ".zshenv", "config.fish", ".cshrc", ".kshrc":
		return true
	}
	return false
}

// clearValue reports a value written out in the command, not read from
// a variable or a file at run time.
func clearValue(w word) bool {
	v := strings.Trim(w.s, `"'`)
	if !w.ok || v == "" || strings.HasPrefix(v, "@") {
		return false
	}
	for i := 0; i+1 < len(v); i++ {
		switch n := v[i+1]; v[i] {
		case '$': // $NAME, ${NAME}, $(cmd)
			if n == '{' || n == '(' || n == '_' || n >= 'A' && n <= 'Z' || n >= 'a' && n <= 'z' {
				return false
			}
		case '%': // cmd's %NAME%
			if j := strings.IndexByte(v[i+1:], '%'); j > 0 {
				return false
			}
		}
	}
	return true
}

// secretCopiedOutRule: a key or a credential file put on the clipboard
// (every application and clipboard manager reads it, and it is pasted
// anywhere) or printed on a shared printer.
var secretCopiedOutRule = &rule{ID: "secret-to-clipboard-or-printer", Level: LevelHigh, Category: CategoryExfiltration, Description: "putting a private key or a credential file on the clipboard or a shared printer",
	Suggestions: []string{"Copy the one value needed through the password manager, which clears it", "Never print key material"},
	names:       names("xclip", "xsel", "wl-copy", "pbcopy", "clip", "clip.exe", "lpr", "lp"),
	match: func(a *analysis, c *cmd) (bool, string) {
		if c.name == "xclip" && (hasWord(c.args(), "-o") || hasWord(c.args(), "-out")) || c.name == "xsel" && (hasWord(c.args(), "-o") || hasWord(c.args(), "--output")) {
			return false, "" // reading the clipboard is the other rules'
		}
		// (a password manager's one value piped to the clipboard is how
		// it is meant to be used; a whole key or credential file is not)
		var files []string
		for _, r := range c.redirs {
			if r.op.String() == "<" {
				files = append(files, r.w.s)
			}
		}
		for _, w := range posArgs(c.args(), optSpec{short: "PdnT#", long: []string{"selection", "display", "type"}}) {
			files = append(files, w.s)
		}
		if c.pipe != nil && c.stage > 0 {
			// cat ~/.ssh/id_rsa | clip: the file read into the pipe
			if s := c.pipe[c.stage-1]; s != nil && (s.name == "cat" || s.name == "type" || s.name == "cmd:type" || s.name == "get-content") {
				for _, w := range s.operands() {
					files = append(files, w.s)
				}
			}
		}
		for _, f := range files {
			if d, crit := a.sensitive(f, c.cwd); d != "" && crit {
				return true, d + " → " + c.base
			}
		}
		// sops -d secrets/prod.enc.json | jq -r .stripe.secret_key |
		// pbcopy: production's secret, or a private key, left on the
		// clipboard (a development password copied there is how a
		// password manager is used)
		if c.pipe != nil && c.stage > 0 && c.in.kind == flowSecret && c.in.crit && (prodWords(a.srcLow()) || strings.Contains(lower(c.in.what), "private key")) {
			return true, c.in.what + " → " + c.base
		}
		return false, ""
	}}

func init() {
	ruleSets = append(ruleSets, cliSecretRules, []*rule{secretPostedRule, clearTextStoreRule, secretCopiedOutRule})
}

// urlUserinfo returns the secret part of an http(s) URL's user
// information (https://x-access-token:${GH_TOKEN}@host/...,
// https://$TOKEN@host), or "" when the URL carries none.
func urlUserinfo(u string) string {
	l := lower(u)
	if !strings.HasPrefix(l, "https://") && !strings.HasPrefix(l, "http://") {
		return ""
	}
	rest := u[strings.Index(u, "://")+3:]
	at := strings.LastIndexByte(rest, '@')
	if at <= 0 {
		return ""
	}
	host := rest[at+1:]
	if strings.IndexByte(rest[:at], '/') >= 0 || host == "" {
		return ""
	}
	info := rest[:at]
	_, pass, hasPass := strings.Cut(info, ":")
	switch {
	case hasPass && pass != "":
		return "a password or token"
	case strings.HasPrefix(info, "$"), len(info) >= 20 && !strings.ContainsAny(info, ".-"):
		return "a token as the user"
	}
	return ""
}

// cliSecretPrintExempt are programs whose printing of secrets other rules
// judge (file readers, the environment's own printers, version control,
// the clients with rules of their own) or that print no secrets.
var cliSecretPrintExempt = map[string]bool{
	"echo": true, "cmd:echo": true, "printf": true, "cat": true, "grep": true, "rg": true, "env": true, "printenv": true, "set": true, "export": true,
	"git": true, "aws": true, "gcloud": true, "az": true, "vault": true, "security": true, "op": true, "bw": true, "pass": true, "gopass": true,
	"kubectl": true, "oc": true, "helm": true, "docker": true, "podman": true, "jq": true, "yq": true, "sed": true, "awk": true,
	"npm": true, "pnpm": true, "yarn": true, "make": true, "just": true, "task": true, "sops": true, "age": true, "gpg": true,
	"man": true, "tldr": true, "which": true, "type": true,
	// fish's string: its matches are judged with the output they filter
	"string": true,
	// interpreters, build tools and test runners: their words name
	// scripts, targets and tests
	"python": true, "node": true, "deno": true, "bun": true, "npx": true, "ruby": true, "perl": true, "php": true, "java": true,
	"go": true, "cargo": true, "mvn": true, "gradle": true, "dotnet": true, "pytest": true, "jest": true, "vitest": true, "mocha": true,
	"rake": true, "bundle": true, "composer": true, "tox": true, "nox": true, "poetry": true, "uv": true, "pip": true, "code": true, "vim": true,
}

// shownOnTerminal reports a command whose standard output reaches the
// transcript: not captured, not written to a file, and either the last
// stage of its pipeline or piped only through programs that show what
// they read (jq, grep, head, base64, tee).
// selectStringDropsSecrets reports Select-String -NotMatch of a pattern
// for secrets: every line but the secret ones passes.
func selectStringDropsSecrets(c *cmd) bool {
	if c.name != "select-string" {
		return false
	}
	args := wargs(c)
	if !hasSw(args, "notmatch") {
		return false
	}
	for i, w := range args {
		if !strings.HasPrefix(w, "-") && (i == 0 || !strings.EqualFold(args[i-1], "-path")) && secretishPattern(w) {
			return true
		}
	}
	return false
}

// psPassThrough are PowerShell's cmdlets that pass objects on or show
// them (what goes in comes out, reshaped), or keep them in a file.
var psPassThrough = map[string]bool{"convertfrom-json": true, "convertto-json": true, "select-object": true, "format-list": true, "format-table": true,
	"format-wide": true, "out-string": true, "out-host": true, "sort-object": true, "where-object": true, "foreach-object": true, "write-output": true,
	"write-host": true, "get-unique": true, "convertfrom-csv": true, "convertto-csv": true, "convertfrom-stringdata": true,
	// written to a file: a readable copy of it (as before the later
	// stages were seen)
	"out-file": true, "set-content": true, "add-content": true, "tee-object": true}

// psBlockNamesOnly reports a ForEach-Object or Select-Object whose block
// keeps the names alone: { ($_ -split '=')[0] }, { $_.Name },
// .PSObject.Properties.Name.
func psBlockNamesOnly(s *cmd) bool {
	if s.name != "foreach-object" && s.name != "select-object" {
		return false
	}
	j := strings.ToLower(strings.ReplaceAll(joinWords(s.args()), " ", ""))
	return strings.Contains(j, "-split") && strings.Contains(j, ")[0]") || strings.HasSuffix(strings.TrimRight(j, "}"), ".name") && !strings.Contains(j, "value")
}

func shownOnTerminal(c *cmd) bool {
	if outputRedirected(c) {
		return false
	}
	for s := nextStage(c); s != nil; s = nextStage(s) {
		if psPassThrough[s.name] {
			// ConvertFrom-Json, Select-Object, ForEach-Object, Format-List:
			// the objects shown, unless cut to their names or counted
			if psNamesOnly(s.args()) || psBlockNamesOnly(s) {
				return false
			}
			continue
		}
		if !displayFilters[s.name] || s.name == "jq" && namesOnlyJq(s) || (s.name == "cut" || s.name == "awk" || s.name == "sed") && namesOfAssignments(s) ||
			s.name == "grep" && grepKeepsLabels(s) || grepDropsSecrets(s) || selectStringDropsSecrets(s) || s.name == "sed" && sedMasks(s.args()) {
			return false // (the names alone: cut -d= -f1, grep '^label')
		}
		if outputRedirected(s) {
			return false
		}
	}
	return true
}

// regexSyntax strips the anchors, groups and word boundaries of a
// pattern, leaving its words and alternatives.
var regexSyntax = strings.NewReplacer("^", "", "(", "", ")", "", "\\b", "", " ", "")

// grepKeepsLabels reports a grep that keeps only a keyring's describing
// lines (secret-tool search | grep -E '^(label|attribute)'), never the
// secret line.
func grepKeepsLabels(s *cmd) bool {
	if s.name != "grep" && s.name != "egrep" && s.name != "rg" || hasWord(s.args(), "-v") || contextLines(s) {
		return false
	}
	p := lower(grepPattern(s))
	p = regexSyntax.Replace(p)
	if p == "" {
		return false
	}
	for alt := range strings.SplitSeq(p, "|") {
		switch strings.TrimRight(alt, "s:=.*") {
		case "label", "attribute", "name", "user", "username", "service", "schema", "created", "modified":
		default:
			return false
		}
	}
	return true
}

// displayFilters show (part of) what they read.
var displayFilters = map[string]bool{"jq": true, "yq": true, "grep": true, "egrep": true, "rg": true, "head": true, "tail": true, "less": true,
	"more": true, "cat": true, "column": true, "sed": true, "awk": true, "tee": true, "sort": true, "cut": true, "base64": true, "xxd": true,
	"od": true, "tr": true, "fold": true, "nl": true, "bat": true, "fx": true,
	// decompressors: the same text, unpacked
	"gunzip": true, "zcat": true, "bunzip2": true, "bzcat": true, "xzcat": true, "unxz": true, "zstdcat": true,
	// fish's string match / replace, PowerShell's Select-String
	"string": true, "select-string": true, "findstr": true}

// secretWordIn reports a word that may ask a client for a secret (a
// token, a secret, a password, a key, an environment or a connection, or
// an option that shows them): the commands without one are not read
// further.
func secretWordIn(c *cmd) bool {
	if fetchers[c.name] {
		return true
	}
	low := c.lowerArgs()
	for _, l := range low {
		if secretAskWords.in(l) {
			return true
		}
	}
	switch c.name {
	case "kubectl", "oc", "docker", "podman", "nerdctl":
		if len(low) > 1 && low[len(low)-1] == "env" && low[len(low)-2] == "--" {
			return true // kubectl exec POD -- env: the application's environment
		}
	}
	// gh auth status -t: the token shown
	return hasAnyWord(low, "-t") && hasAnyWord(low, "auth") && hasAnyWord(low, "status")
}

// secretAskWords are the parts of words that may ask a client for a
// secret.
var secretAskWords = newKeywords("token", "secret", "passw", "key", "printenv", "connection", "connstr", "dsn", "credential", "database_url",
	"--show", "--reveal", "--plain", "--unmask", "env:", "postgres", "redis_url", "mongo", "mysql_url")

// cliSecretPrinted reports what secret a client's subcommand words ask
// it to print, or "".
// keystoreShown names a server's own keystore or secret decrypted onto
// the output: elasticsearch-keystore show, splunk show-decrypted.
func keystoreShown(c *cmd) string {
	switch c.name {
	case "elasticsearch-keystore", "opensearch-keystore", "logstash-keystore":
		if ops := c.operands(); len(ops) > 1 && ops[0].s == "show" {
			return c.name + " show " + ops[1].s
		}
	case "splunk":
		if hasWord(c.args(), "show-decrypted") {
			return "splunk show-decrypted"
		}
	}
	return ""
}

func cliSecretPrinted(c *cmd) string {
	args, low := c.args(), c.lowerArgs()
	var sub []string
	var ops []word
	for i, w := range args {
		if strings.HasPrefix(w.s, "-") {
			switch low[i] {
			case "-t":
				if hasAnyWord(low, "auth") && hasAnyWord(low, "status") {
					return "credentials shown (" + c.base + " auth status -t)"
				}
			case "--show-secrets", "--show-secret", "--reveal", "--show-token", "--show-values", "--plaintext", "--unmask", "--reveal-secrets", "--reveal-secret", "--showsecret":
				if !helpAsked(low) {
					return "secrets shown (" + c.base + " " + w.s + ")"
				}
			}
			continue
		}
		if !w.ok {
			continue
		}
		if len(sub) < 4 && i < 6 {
			for p := range strings.SplitSeq(low[i], ":") {
				if p != "" {
					sub = append(sub, p)
				}
			}
		}
		ops = append(ops, w)
	}
	has := func(ws ...string) bool { return hasAnyWord(sub, ws...) }
	for _, l := range low {
		// appcmd list apppool X /text:processModel.password
		if strings.HasPrefix(l, "/text:") && strings.Contains(l, "password") {
			return "a password (" + c.base + " " + l + ")"
		}
	}
	if !helpAsked(low) && productionTarget(args, low) {
		// netlify env:list --context production --plain, infisical secrets
		// --env=prod: production's values, not their names
		if has("env") && has("list") && hasAnyWord(low, "--plain", "--json") || len(sub) == 1 && sub[0] == "secrets" {
			return "production's secret values (" + c.base + " " + strings.Join(sub, " ") + ")"
		}
	}
	if helpAsked(low) || has("help", "create", "revoke", "delete", "rm", "remove", "list", "ls", "new", "add", "set", "unset", "rotate", "lookup-accessor", "exchange") {
		return ""
	}
	for _, w := range ops {
		if scratchName(w.s) {
			return ""
		}
		for p := range strings.SplitSeq(lower(w.s), "/") {
			if p == "dev" || p == "ci" || p == "staging" {
				return "" // a development branch or environment (neonctl dev/alice)
			}
		}
	}
	for _, s := range sub {
		if s == "token" || s == "tokens" || s == "oauth-tokens" || s == "access-token" || s == "print-access-token" ||
			strings.HasSuffix(s, "-token") && s != "api-token" || s == "get-token" || s == "oauth_token" || s == "auth_token" {
			return "a token (" + c.base + " " + s + ")"
		}
	}
	switch {
	case has("printenv"):
		return "an application's environment (" + c.base + " printenv)"
	case has("access") && has("secret", "secrets"):
		return "a secret value (" + c.base + " secret access)"
	case has("connection", "connection-string", "connection-uri", "connstr") && !has("pool", "pools", "test"),
		has("connections") && has("get") && !has("test"), // airflow connections get X: its password too
		has("credentials", "credential") && has("url"):   // heroku pg:credentials:url: the URL with its password
		return "a database connection string (" + c.base + " connection)"
	case has("get", "get-value", "value", "reveal", "read", "show", "cat") && has("secret", "secrets") && c.name != "firebase":
		// (firebase functions:secrets:get shows a secret's versions;
		// functions:secrets:access prints it)
		return "a secret value (" + c.base + " secret)"
	case has("get", "get-value", "value", "reveal", "read") && c.name != "firebase":
		for _, w := range ops[min(len(ops), 1):] {
			if secretVarName(w.s) {
				return "a secret value (" + c.base + " " + w.s + ")"
			}
		}
	}
	return ""
}

// settingsShown reports a hosted app's or a framework's settings printed
// with their values: az webapp config appsettings list (a --query that
// keeps the names prints none), php artisan config:show database (the
// connections and their passwords); "" otherwise. These clients'
// other printing is judged by rules of their own.
// querySecretField reports aws's --query naming a field that holds a
// secret (UserPoolClient.ClientSecret, Plaintext, SecretAccessKey): that
// field's value printed. (az's reads of keys and connection strings are
// secret-printed's.)
func querySecretField(c *cmd) string {
	if c.name != "aws" {
		return ""
	}
	q, ok := optValue(c.args(), "", "query")
	if !ok {
		return ""
	}
	for _, f := range strings.FieldsFunc(q, func(r rune) bool {
		return r == '.' || r == '[' || r == ']' || r == '|' || r == ' ' || r == '{' || r == '}' || r == ',' || r == ':'
	}) {
		switch lower(strings.Trim(f, "'\"`")) {
		case "clientsecret", "plaintext", "secretaccesskey", "masteruserpassword", "sessiontoken", "authtoken", "password":
			return "--query " + q
		}
	}
	return ""
}

func settingsShown(c *cmd) string {
	if what := frameworkSettingsShown(c); what != "" {
		return what
	}
	if c.name == "glab" && len(c.words) > 2 && c.words[1].s == "api" {
		// glab api projects/X/variables: GitLab returns every CI
		// variable with its value, masked ones too
		ops := c.operands()
		if m, ok := optValue(c.args(), "-X", "method"); (!ok || strings.EqualFold(m, "GET")) && len(ops) > 1 {
			if p := strings.TrimRight(strings.SplitN(ops[1].s, "?", 2)[0], "/"); strings.HasSuffix(p, "/variables") {
				return "CI variables with their values (glab api " + ops[1].s + ")"
			}
		}
		return ""
	}
	if len(c.words) < 3 || (c.name != "az" && c.name != "php" && c.name != "artisan") {
		return ""
	}
	low := c.lowerArgs()
	if helpAsked(low) {
		return ""
	}
	var sub []string
	for i, l := range low {
		if i > 6 || strings.HasPrefix(l, "-") {
			continue
		}
		sub = append(sub, strings.Split(l, ":")...)
	}
	has := func(ws ...string) bool { return hasAnyWord(sub, ws...) }
	if c.name == "az" && has("appsettings", "connection-string") && has("list", "show") {
		if q, ok := optValue(c.args(), "", "query"); !ok || !strings.Contains(lower(q), "name") || strings.Contains(lower(q), "value") {
			return "an app's settings with their values (az " + strings.Join(sub, " ") + ")"
		}
	}
	if c.name != "az" && has("artisan") == (c.name == "php") && has("config") && has("show") &&
		(has("database", "mail", "services", "redis", "queue", "broadcasting", "filesystems", "cache") || artisanSecretKey(sub)) {
		return "a framework's secret settings (" + c.base + " " + strings.Join(sub, " ") + ")"
	}
	return ""
}

// artisanSecretKey reports config:show of a dotted key inside a group
// that holds credentials (database.connections.mysql, services.stripe).
func artisanSecretKey(sub []string) bool {
	for _, s := range sub {
		group, _, dotted := strings.Cut(s, ".")
		if dotted && hasAnyWord([]string{group}, "database", "mail", "services", "redis", "queue", "broadcasting", "filesystems", "cache") {
			return true
		}
	}
	return false
}

// frameworkSettingsShown reports a framework's or deployment tool's
// command that prints the settings it resolved, secrets in clear: a
// Symfony container's environment variables (debug:container
// --env-vars, debug:config X --resolve-env, debug:dotenv, symfony
// var:export), Serverless's whole resolved configuration (print without
// --path), EAS's environment with its sensitive values.
func frameworkSettingsShown(c *cmd) string {
	switch c.name {
	case "php", "symfony", "serverless", "sls", "eas":
	default:
		return "" // (every command passes here: the name first)
	}
	args := c.args()
	if len(args) == 0 || c.pipe != nil && c.stage > 0 {
		return ""
	}
	low := c.lowerArgs()
	if helpAsked(low) {
		return ""
	}
	ops := c.operands()
	switch c.name {
	case "php":
		if len(ops) < 2 || !strings.HasSuffix(ops[0].s, "console") {
			return ""
		}
		switch ops[1].s {
		case "debug:container":
			if hasPrefixWord(args, "--env-var") {
				return "a Symfony container's environment variables (" + ops[1].s + " --env-vars)"
			}
		case "debug:config":
			if hasWord(args, "--resolve-env") {
				return "a Symfony bundle's settings with their secrets resolved (debug:config --resolve-env)"
			}
		case "debug:dotenv":
			return "a Symfony project's .env values (debug:dotenv)"
		}
	case "symfony":
		if ops0(ops) == "var:export" {
			return "the environment Symfony's CLI gives the app (symfony var:export)"
		}
	case "serverless", "sls":
		// sls print --stage prod: the whole configuration, its secrets
		// resolved from SSM and the environment (--path picks one value;
		// PowerShell's sls is Select-String, with a pattern and a path)
		if ops0(ops) == "print" && bareOperands(args) == 1 && !hasPrefixWord(args, "--path") && !hasPrefixWord(args, "-p") {
			return "a Serverless service's resolved configuration (" + c.name + " print)"
		}
	case "eas":
		if strings.HasPrefix(ops0(ops), "env:") && hasWord(args, "--include-sensitive") {
			return "an EAS environment's sensitive values (eas " + ops[0].s + " --include-sensitive)"
		}
	}
	return ""
}

// bareOperands counts the arguments that are neither options nor the
// word after an option (its value, as in --stage prod).
func bareOperands(args []word) int {
	n := 0
	for i, w := range args {
		if strings.HasPrefix(w.s, "-") || i > 0 && strings.HasPrefix(args[i-1].s, "-") && !strings.Contains(args[i-1].s, "=") {
			continue
		}
		n++
	}
	return n
}

// ops0 is the first operand, or "".
func ops0(ops []word) string {
	if len(ops) == 0 {
		return ""
	}
	return ops[0].s
}

// helpAsked reports --help, or -h standing alone (glab config get token
// -h HOST gives -h a host).
func helpAsked(low []string) bool {
	for i, l := range low {
		if l == "--help" || l == "-h" && (i+1 == len(low) || strings.HasPrefix(low[i+1], "-")) {
			return true
		}
	}
	return false
}

// secretVarName reports a configuration name that holds a credential:
// DATABASE_URL, STRIPE_SECRET_KEY, NPM_TOKEN, secret-key, db.password.
func secretVarName(s string) bool {
	l := lower(s)
	if strings.ContainsAny(l, " /\\") || len(l) > 64 {
		return false
	}
	for _, suf := range [...]string{"delay", "length", "policy", "enabled", "required", "timeout", "expiry", "minlen", "maxage"} {
		if strings.HasSuffix(l, suf) {
			return false // askForPasswordDelay, PASSWORD_MIN_LENGTH: a setting about the secret
		}
	}
	for _, m := range [...]string{"secret", "token", "password", "passwd", "api_key", "api-key", "apikey", "private_key", "private-key",
		"access_key", "access-key", "database_url", "_dsn", "credentials", "auth_key", "signing_key", "client_secret", "connectionstring"} {
		if strings.Contains(l, m) {
			return true
		}
	}
	if (strings.HasSuffix(l, "_url") || strings.HasSuffix(l, "_uri")) && hasAny(l, "postgres", "mysql", "redis", "mongo", "database", "_db", "amqp", "rabbit") {
		return true // HEROKU_POSTGRESQL_AMBER_URL, REDIS_URL: a connection string with its password
	}
	return l == "dsn" || strings.HasSuffix(l, "_key") && !strings.HasSuffix(l, "public_key") && !strings.HasSuffix(l, "publishable_key")
}

// hasAnyWord reports whether any of ws is among the (lowered) words.
func hasAnyWord(low []string, ws ...string) bool {
	for _, l := range low {
		for _, w := range ws {
			if l == w {
				return true
			}
		}
	}
	return false
}

// psCmdlet reports a PowerShell cmdlet's name (Select-String,
// Get-Content): its words are patterns and paths, not subcommands.
func psCmdlet(name string) bool {
	v, _, ok := strings.Cut(name, "-")
	if !ok {
		return false
	}
	switch v {
	case "get", "select", "set", "new", "remove", "write", "out", "invoke", "convertto", "convertfrom", "format", "where", "foreach",
		"measure", "sort", "test", "add", "copy", "move", "export", "import", "read", "start", "stop", "clear", "show", "find", "update", "tee":
		return true
	}
	return false
}

// namesOnlyJq reports a jq filter that keeps the names of what it reads
// and not their values: keys, .key, .name.
func namesOnlyJq(s *cmd) bool {
	if jqNamesOnly(s.args()) {
		return true // keys, length, map_values(length)
	}
	for _, w := range positional(s.args()) {
		// map_values("***"): every value replaced as it is shown
		if f := strings.ReplaceAll(w.s, " ", ""); strings.HasPrefix(f, `map_values("`) && strings.HasSuffix(f, `")`) && hasAny(lower(f), "***", "redacted", "xxx", "masked") {
			return true
		}
	}
	for _, w := range positional(s.args()) {
		l := lower(w.s)
		if plainJqPaths(l) {
			return true // .login.username, .revisionDate: who and when
		}
		l = strings.ReplaceAll(l, ".values[]", "")
		if strings.Contains(l, "value") || strings.Contains(l, "secret") || strings.Contains(l, "token") {
			return false
		}
		if strings.Contains(l, "keys") || strings.Contains(l, ".key") || strings.Contains(l, ".name") || strings.HasSuffix(strings.Trim(l, `"' `), "[].label") {
			return true
		}
	}
	return false
}

// plainJqPaths reports a jq filter made only of paths to fields that hold
// no secret (.login.username, .revisionDate, .name, .id).
func plainJqPaths(f string) bool {
	any := false
	for _, t := range strings.FieldsFunc(f, func(r rune) bool {
		return r == ',' || r == '|' || r == ' ' || r == '(' || r == ')' || r == '[' || r == ']'
	}) {
		if !strings.HasPrefix(t, ".") {
			return false
		}
		last := t[strings.LastIndexByte(t, '.')+1:]
		switch last {
		case "revisiondate", "creationdate", "folderid", "url", "uris", "uri", "type", "updated", "created",
			"metadata", "created_time", "version", "versions", "current_version": // Vault's KV metadata: versions and times
		default:
			if !plainField(last) {
				return false
			}
		}
		any = true
	}
	return any
}

// worldReadableLater reports a line that makes file f readable by every
// user after writing it (chmod 644 f, chmod a+r f, chmod o+r f).
func worldReadableLater(src, f string) bool {
	i := strings.Index(src, "chmod ")
	if i < 0 || !strings.Contains(src[i:], f) {
		return false
	}
	rest := src[i+len("chmod "):]
	return hasAny(rest, "644 ", "664 ", "666 ", "755 ", "777 ", "a+r", "o+r", "+r ")
}

// traceClients are the clients a token is given to as an argument or a
// header: under set -x their command line is printed expanded.
var traceClients = names("curl", "wget", "http", "https", "xh", "docker", "helm", "git", "npm", "gh", "glab", "psql", "mysql", "vault", "terraform", "twine")

// traceTurnedOff reports a line that also turns the trace off (set +x):
// which commands run traced is then not worked out, and none is judged.
func traceTurnedOff(src string) bool {
	return strings.Contains(src, "set +x") || strings.Contains(src, "set +o xtrace")
}

// winPersistentFile reports whether a Windows output path is a file that
// stays where others or later uploads can read it: anywhere but the
// user's own temporary folder and the null device.
func (a *analysis) winPersistentFile(v string) bool {
	switch strings.ToLower(v) {
	case "$null", "nul", "nul:", `\\.\nul`:
		return false
	}
	p := a.winAbs(v)
	if p == "" {
		return false
	}
	if h := a.winHome(); h != "" && strings.HasPrefix(p, h+"/appdata/local/temp/") {
		return false
	}
	return true
}

// camelToSnake spells a camelCase name with underscores (dbPassword →
// db_Password) so that its words can be told apart.
func camelToSnake(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if i > 0 && s[i] >= 'A' && s[i] <= 'Z' && s[i-1] >= 'a' && s[i-1] <= 'z' {
			b.WriteByte('_')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// iacAllOutputs reports terraform output -json with no output named:
// every output, sensitive values unmasked.
func iacAllOutputs(c *cmd) bool {
	ops := c.operands()
	return len(ops) == 1 && ops[0].s == "output" && hasWord(c.args(), "-json")
}

// outputsFileExposed reports a file of secrets that does not stay the
// developer's own: in a temporary or public folder others read, or added
// to the repository by the same line (a file in the project, left there,
// is a near miss).
func (a *analysis) outputsFileExposed(raw, p string) bool {
	if p != "" && (underTemp(p) || strings.Contains(lower(p), "/users/public/")) || winUntrustedPlace(raw) {
		return true
	}
	return strings.Contains(a.src, "git add") && strings.Contains(a.src[strings.Index(a.src, "git add"):], path.Base(strings.ReplaceAll(raw, `\`, "/")))
}
