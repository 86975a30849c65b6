package guard

import (
	"strconv"
	"strings"
)

// cliSecretOutput reports what a client prints when its subcommand words
// ask it for secrets: a token (auth token, print-access-token), secret
// values (secret list, secrets get, env:list), an infrastructure state
// (state pull, stack export) or a database dump (db dump, d1 export). The
// words are the same across clients, so a pipeline from a client nobody
// listed into a network sender is judged as sending what it printed.
// Only the first few words before the operands are read, and programs
// that read files are left to the file rules.
func cliSecretOutput(c *cmd) string {
	if fetchers[c.name] || socketTools[c.name] || c.name == "echo" || c.name == "printf" || c.name == "cat" || c.name == "grep" {
		return ""
	}
	args, low := c.args(), c.lowerArgs()
	if p := registryPassword(c); p != "" {
		return p
	}
	if p := credentialPrinted(c); p != "" {
		return p
	}
	switch c.name {
	case "gh", "glab":
		// gh api repos/O/R/tarball/main: the repository's code, whole
		for _, l := range low {
			if strings.Contains(l, "/tarball") || strings.Contains(l, "/zipball") || strings.Contains(l, "/repository/archive") {
				return "a repository's source code (" + c.base + " api " + l + ")"
			}
		}
	case "kubectl", "oc", "docker", "podman", "nerdctl":
		// kubectl exec POD -- printenv: the application's environment,
		// with the secrets it was given
		for i, l := range low {
			if l == "--" && i+1 < len(low) && (low[i+1] == "printenv" || low[i+1] == "env") && i+2 >= len(low) {
				return "an application's environment (" + c.base + " exec ... " + low[i+1] + ")"
			}
		}
	}
	var sub []string
	for i, w := range args {
		if i > 8 || len(sub) >= 4 {
			break
		}
		if strings.HasPrefix(w.s, "-") || !w.ok {
			continue
		}
		for p := range strings.SplitSeq(low[i], ":") {
			if p = strings.Trim(p, "/"); p != "" { // consul kv get -recurse secret/
				sub = append(sub, p)
			}
		}
	}
	has := func(ws ...string) bool { return hasAnyWord(sub, ws...) }
	reads := has("list", "ls", "get", "show", "export", "pull", "reveal", "print", "view", "download", "value", "read", "dump", "cat", "decrypt")
	for _, s := range sub {
		if s == "token" || s == "tokens" || strings.HasSuffix(s, "-token") || strings.HasSuffix(s, "_token") || strings.HasSuffix(s, "-tokens") {
			if has("create", "revoke", "delete", "rm", "help") {
				return ""
			}
			return "credentials (" + c.base + " " + s + ")"
		}
	}
	switch {
	case has("auth", "login") && (hasWord(args, "-t") || hasWord(args, "--show-token") || hasWord(args, "--token")):
		return "credentials (" + c.base + " auth)"
	case has("secret", "secrets", "credential", "credentials", "password", "passwords") && reads:
		return "secret values (" + c.base + ")"
	case has("env") && has("pull", "export", "list", "ls", "get", "dump") && !hasWord(args, "--help"):
		return "environment secrets (" + c.base + " env)"
	case has("kubeconfig") && !has("help"), has("config") && clusterDistros[c.name] && !has("set", "help"):
		return "a cluster's admin credentials (" + c.base + " config)"
	case has("config") && has("dump"), has("admin") && has("export"):
		return "a client's configuration with its keys (" + c.base + ")"
	case has("config", "variables", "vars", "env", "settings") && has("get", "show", "value", "print"):
		// heroku config:get DATABASE_URL, railway variables get X: one
		// setting's value, a secret when its name says so
		for _, w := range c.operands() {
			if secretVarName(w.s) {
				return "a secret setting (" + c.base + " " + w.s + ")"
			}
		}
	case has("printenv"):
		return "an application's environment (" + c.base + " printenv)"
	case has("auth") && has("export"):
		return "user accounts with their password hashes (" + c.base + " auth:export)"
	case has("state") && has("pull"), has("stack") && has("export"):
		return "an infrastructure state with its secrets (" + c.base + ")"
	case has("dump") && has("db", "database", "sql", "data"), has("export") && has("db", "database", "d1", "dump"):
		return "a database dump (" + c.base + ")"
	}
	return ""
}

// sendVerbs are subcommands that move the operands off the machine
// whatever the client (hf upload, wormhole send, ftpput, share).
var sendVerbs = map[string]bool{"upload": true, "send": true, "put": true, "ftpput": true, "share": true, "publish": true, "push": true, "mput": true}

// copyVerbs move the operands to a destination the command names; they
// send only when that destination is remote.
var copyVerbs = map[string]bool{"backup": true, "sync": true, "copy": true, "cp": true, "mirror": true}

// clientUploadsSecret reports the credentials a client is told to send: a
// send verb among its first words, or a copy verb with a remote
// destination, and an operand that holds keys or logins. Local file tools
// have no such subcommand word and version control is judged elsewhere.
func clientUploadsSecret(a *analysis, c *cmd) string {
	switch c.name {
	case "git", "docker", "podman", "kubectl", "oc", "cp", "mv", "rsync", "scp", "npm", "pnpm", "yarn", "cargo", "gem", "twine",
		"aws", "gsutil", "gcloud", "az", "s3cmd", "azcopy":
		return "" // judged by the uploader and version-control rules
	case "keytool":
		if hasWord(c.args(), "-exportcert") || hasWord(c.args(), "-export") || hasWord(c.args(), "-list") || hasWord(c.args(), "-printcert") {
			return "" // a certificate's public half, or the entries' names, written or shown
		}
	}
	args := c.args()
	if len(args) < 2 {
		return ""
	}
	verb := -1
	if sendVerbs[c.name] {
		verb = -1 // busybox ftpput HOST REMOTE LOCAL: the program is the verb
	} else {
		for i, l := range c.lowerArgs() {
			if i > 3 {
				break
			}
			if sendVerbs[l] || copyVerbs[l] {
				verb = i
				break
			}
		}
		if verb < 0 {
			if c.name != "tftp" || !hasWord(args, "-p") && !hasWord(args, "--put") {
				return ""
			}
		}
	}
	rest := args[verb+1:]
	if verb >= 0 && copyVerbs[c.lowerArgs()[verb]] {
		remote := false
		for _, w := range args { // restic -r rest:https://... backup: the destination comes first
			v := w.s
			if i := strings.Index(v, "://"); i >= 0 {
				if h := hostOf(v[i:]); h == "" || !isLocalHost(h) {
					remote = true
				}
			} else if strings.Contains(v, "url=") {
				remote = true
			}
		}
		if !remote {
			return ""
		}
	}
	for _, w := range rest {
		v := w.s
		if strings.HasPrefix(v, "-") {
			if i := strings.IndexByte(v, '='); i > 0 {
				v = v[i+1:]
			} else {
				continue
			}
		}
		if strings.Contains(v, "://") || isRemoteSpec(v) {
			continue // the remote end, not a local file
		}
		if d, crit := a.sensitive(v, c.cwd); d != "" && crit {
			return d
		}
	}
	return ""
}

// clusterDistros print their cluster's admin kubeconfig with "config".
var clusterDistros = map[string]bool{"microk8s": true, "k3s": true, "k0s": true, "rke2": true, "k3d": true, "kind": true}

// secretAPIRead reports an HTTP client reading a hosted service's secret
// values with its credentials: a project's CI/CD variables (GitLab's
// /variables), an app's environment (Render's /env-vars, Heroku's
// /config-vars, Vercel's /env), a vault's secret. GitHub's secrets API
// returns names only.
func secretAPIRead(c *cmd) string {
	if m := httpMethod(c); m != "" && m != "GET" {
		return ""
	}
	var u string
	for _, w := range c.args() {
		if strings.Contains(w.s, "://") {
			u = w.s
		}
	}
	if u == "" {
		return ""
	}
	u = lower(u)
	p := u
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	p = strings.TrimRight(p, "/")
	what := ""
	for _, suf := range [...]string{"/variables", "/env-vars", "/config-vars", "/env", "/environment-variables", "/secrets"} {
		if strings.HasSuffix(p, suf) {
			what = suf
		}
	}
	if what == "" && !strings.Contains(p, "/v1/secret/data/") && !strings.Contains(p, "/v1/kv/data/") {
		return ""
	}
	auth := hasWord(c.args(), "-u") || hasWord(c.args(), "--user")
	for _, l := range c.lowerArgs() {
		if strings.Contains(l, "authorization:") || strings.Contains(l, "private-token:") || strings.Contains(l, "x-api-key:") ||
			strings.Contains(l, "token:") || strings.Contains(l, "x-vault-token") {
			auth = true
		}
	}
	if !auth {
		return ""
	}
	h := hostOf(u)
	if strings.HasSuffix(h, "github.com") {
		return ""
	}
	if what != "" {
		return "a service's secret values (" + h + what + ")"
	}
	return "a vault's secret (" + h + ")"
}

// registryPassword reports a command that prints a package or container
// registry's password: a credential helper's get, aws ecr
// get-login-password (good for twelve hours), az acr login
// --expose-token.
func registryPassword(c *cmd) string {
	low := c.lowerArgs()
	if strings.HasPrefix(c.name, "docker-credential-") && len(low) > 0 && low[0] == "get" {
		return "a registry's saved password (" + c.base + " get)"
	}
	switch c.name {
	case "aws":
		for _, l := range low {
			if l == "get-login-password" || l == "get-authorization-token" {
				return "a registry's password (aws " + l + ")"
			}
		}
	case "az":
		if hasAnyWord(low, "--expose-token") {
			if q, ok := optValue(c.args(), "", "query"); ok && strings.Trim(lower(q), `"'`) == "loginserver" {
				return "" // the registry's address alone
			}
			return "a registry's access token (az acr login --expose-token)"
		}
	}
	return ""
}

// credentialPrinted reports a command that prints a credential made or
// unwrapped for the purpose: a kubeconfig with its keys (config view
// --raw), a certificate bundle's private key decrypted (openssl pkcs12
// -nodes), a CI login token (firebase login:ci).
func credentialPrinted(c *cmd) string {
	args := c.args()
	switch c.name {
	case "kubectl", "oc":
		// (kubectl --context staging config view --raw: the global
		// options' values are not operands)
		ops := posArgs(args, optSpec{short: "ns", long: []string{"context", "namespace", "kubeconfig", "cluster", "user", "server", "as", "token"}})
		if len(ops) >= 2 && ops[0].s == "config" && ops[1].s == "view" && (hasWord(args, "--raw") || hasWord(args, "--flatten")) && !jsonpathOnly(args) {
			return "a kubeconfig's keys and tokens (" + c.base + " config view --raw)"
		}
		// kubectl create token deployer -n prod: a production service
		// account's new token, or one of the cluster's own (kube-system)
		// or one that lasts a month or more (a dev namespace's short token
		// is the developer's own)
		if ops := posArgs(args, kubectlGlobal); len(ops) > 1 && ops[0].s == "create" && ops[1].s == "token" && (touchesProduction(c) || longLivedToken(args)) {
			return "a service account's token (" + c.base + " create token)"
		}
	case "rails":
		// EDITOR=cat rails credentials:edit: the decrypted credentials
		// handed to a printer
		if ops := c.operands(); len(ops) > 0 && ops[0].s == "credentials:edit" {
			for _, as := range c.assigns {
				if p, _, _ := strings.Cut(strings.Trim(as.val.s, `"' `), " "); (as.name == "EDITOR" || as.name == "VISUAL") && (pagerOf[p] || p == "cat" || p == "tee") {
					return "the application's credentials (" + as.name + "=" + p + " rails credentials:edit)"
				}
			}
		}
	case "gcloud":
		if hasWord(args, "config-helper") {
			return "the current access token (gcloud config config-helper)"
		}
	case "consul":
		if ops := c.operands(); len(ops) > 2 && ops[0].s == "acl" && ops[1].s == "token" {
			switch ops[2].s {
			case "list", "read":
				// every token with its SecretID, unless a later stage
				// picks fields without it
				for _, s := range c.pipe[min(c.stage+1, len(c.pipe)):] {
					if s != nil && (s.name == "select-object" || s.name == "select" || s.name == "jq" || s.name == "cut" || s.name == "awk" || s.name == "format-table") {
						if !strings.Contains(lower(s.argsText()), "secretid") {
							return ""
						}
						break
					}
				}
				return "ACL tokens' secret IDs (consul acl token " + ops[2].s + ")"
			case "create":
				// a new management token, printed
				if p, ok := optValue(args, "-policy-name", "policy-name"); ok && (strings.Contains(p, "management") || strings.Contains(p, "admin")) {
					return "a new management token (consul acl token create)"
				}
			}
		}
		// consul kv get -recurse secret/: every value under a secrets prefix
		if ops := c.operands(); len(ops) > 2 && ops[0].s == "kv" && ops[1].s == "get" && !hasWord(args, "-keys") {
			for _, part := range strings.Split(lower(ops[len(ops)-1].s), "/") {
				if part == "secret" || part == "secrets" || part == "credentials" {
					return "secret values (consul kv get " + ops[len(ops)-1].s + ")"
				}
			}
		}
	case "ps":
		// ps eww, ps auxe: the environment of each process shown with it
		if len(args) > 0 && args[0].ok && !strings.HasPrefix(args[0].s, "-") && strings.Contains(args[0].s, "e") && strings.Trim(args[0].s, "auxwejfHlSvrTgc") == "" {
			return "processes' environments (ps " + args[0].s + ")"
		}
	case "openssl":
		ops := c.operands()
		if len(ops) > 0 && ops[0].s == "pkcs12" && (hasWord(args, "-nodes") || hasWord(args, "-noenc")) && !hasWord(args, "-nokeys") && !hasWord(args, "-out") {
			return "a private key decrypted (openssl pkcs12 -nodes)"
		}
	case "firebase":
		if len(args) > 0 && args[0].s == "login:ci" {
			return "a long-lived CI token (firebase login:ci)"
		}
	case "getent":
		if ops := c.operands(); len(ops) > 0 && (ops[0].s == "shadow" || ops[0].s == "gshadow") {
			return "the password hashes (getent " + ops[0].s + ")"
		}
	}
	return ""
}

// longLivedToken reports kubectl create token options asking for a
// token of the cluster's own namespace or one lasting 30 days or more.
func longLivedToken(args []word) bool {
	if ns, ok := optValue(args, "-n", "namespace"); ok && ns == "kube-system" {
		return true
	}
	d, ok := optValue(args, "", "duration")
	if !ok {
		return false
	}
	if h, ok := strings.CutSuffix(d, "h"); ok {
		n, err := strconv.Atoi(h)
		return err == nil && n >= 720
	}
	return false
}

// jsonpathOnly reports an output format that picks one field out (-o
// jsonpath=..., --output=jsonpath): what is printed is that field.
func jsonpathOnly(args []word) bool {
	v, ok := optValue(args, "-o", "output")
	if l := lower(v); strings.Contains(l, "token") || strings.Contains(l, "key-data") || strings.Contains(l, "password") || strings.Contains(l, "auth-provider") {
		return false // {.users[0].user.token}: the credential itself
	}
	return ok && (strings.HasPrefix(v, "jsonpath") || strings.HasPrefix(v, "go-template") || v == "name")
}
