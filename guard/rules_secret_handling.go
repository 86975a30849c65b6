package guard

import (
	"net/url"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// How secrets and data are handled on the way out: written into logs by a
// client's own debugging output, kept in the clear (the process list, a
// plain variable, a shared temporary folder, a key without its
// passphrase), copied out of a browser's profile, mailed, uploaded or
// pushed to a new remote.

// secretLogRules: curl's verbose trace shows every request header, the
// Authorization header with its token included, and git shows its HTTP
// headers unredacted when GIT_TRACE_REDACT=0 is set.
var secretLogRules = []*rule{
	{ID: "verbose-credentials-logged", Level: LevelHigh, Category: CategoryExfiltration, Description: "a client's verbose trace, with the credentials it sends, written to a file or shown",
		Suggestions: []string{"Drop -v / --trace when a token is sent, or keep the trace off disk", "Leave git's trace redaction on (unset GIT_TRACE_REDACT)"},
		names:       names("curl", "git", "wget", "http", "https", "xh", "xhs", "terraform", "packer", "bash", "sh", "zsh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			switch c.name {
			case "terraform", "packer": // (tofu and terragrunt are named terraform)
				return a.iacTraceLogged(c)
			case "bash", "sh", "zsh":
				return shellTraceLogged(a, c)
			case "wget":
				// wget --debug --header="PRIVATE-TOKEN: $T" URL 2>> log:
				// the debug output shows every header it sends
				args := c.args()
				if !hasWord(args, "--debug") && !hasWord(args, "-d") {
					return false, ""
				}
				creds := false
				for i, w := range args {
					l := lower(w.s)
					if l == "--header" && i+1 < len(args) {
						l += "=" + lower(args[i+1].s)
					}
					if strings.HasPrefix(l, "--header") && hasAny(l, "authorization", "token", "api-key", "apikey") || strings.HasPrefix(l, "--password") || strings.HasPrefix(l, "--http-password") {
						creds = true
					}
				}
				if !creds {
					return false, ""
				}
				if f := stderrToFile(c); f != "" {
					return true, "wget --debug with credentials, its log in " + f
				}
				if f, ok := optValue(args, "-o", "output-file"); ok && f != "/dev/null" {
					return true, "wget --debug with credentials, its log in " + f
				}
				if !stderrDiscarded(c) {
					return true, "wget --debug with credentials, its headers shown"
				}
			case "curl":
				args := c.args()
				if !curlSendsCredentials(args) {
					return false, ""
				}
				for i, w := range args {
					if (w.s == "--trace" || w.s == "--trace-ascii") && i+1 < len(args) && args[i+1].s != "/dev/null" {
						if args[i+1].s == "-" || args[i+1].s == "%" {
							return true, "curl " + w.s + " " + args[i+1].s + " with credentials, shown"
						}
						return true, "curl " + w.s + " " + args[i+1].s
					}
				}
				if hasWord(args, "-v") || hasWord(args, "--verbose") || hasBundledFlag(args, 'v') {
					// -v writes every request header, the Authorization
					// header with its token, to standard error
					if f := stderrToFile(c); f != "" {
						return true, "curl -v with credentials, its trace in " + f
					}
					if !stderrDiscarded(c) {
						return true, "curl -v with credentials, its request headers shown"
					}
				}
			case "http", "https", "xh", "xhs":
				// httpie's -v (or --print with H) prints the request it
				// sends, Authorization:Bearer ... included
				args := c.args()
				verbose := hasWord(args, "-v") || hasWord(args, "--verbose") || hasBundledFlag(args, 'v')
				if p, ok := optValue(args, "-p", "print"); ok && strings.Contains(p, "H") {
					verbose = true
				}
				if !verbose || stderrDiscarded(c) {
					return false, ""
				}
				for i, w := range args {
					l := lower(w.s)
					if k, _, ok := strings.Cut(l, ":"); ok && !strings.Contains(k, "/") && hasAny(k, "authorization", "token", "api-key", "apikey", "secret", "password") ||
						(w.s == "-a" || w.s == "--auth") && i+1 < len(args) || strings.HasPrefix(w.s, "--auth=") {
						return true, c.name + " -v with credentials, its request shown"
					}
				}
			case "git":
				redactOff, traced := false, false
				note := func(name, val string) {
					switch name {
					case "GIT_TRACE_REDACT":
						redactOff = val == "0" || strings.EqualFold(val, "false")
					case "GIT_CURL_VERBOSE", "GIT_TRACE_CURL", "GIT_TRACE", "GIT_TRACE_PACKET":
						traced = traced || val != "" && val != "0" && !strings.EqualFold(val, "false")
					}
				}
				// set earlier on the line (export, cmd's set, $env:) or
				// for this command alone
				for _, name := range [...]string{"GIT_TRACE_REDACT", "GIT_CURL_VERBOSE", "GIT_TRACE_CURL", "GIT_TRACE", "GIT_TRACE_PACKET"} {
					if v, ok := a.vars[name]; ok {
						note(name, v.s)
					}
				}
				for _, as := range c.assigns {
					note(as.name, as.val.s)
				}
				if redactOff && traced {
					return true, "GIT_TRACE_REDACT=0 with git's HTTP trace"
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, secretLogRules) }

// envOf returns a variable set for c alone (TF_LOG=TRACE terraform …) or
// earlier on the line (export, cmd's set, $env:).
func (a *analysis) envOf(c *cmd, name string) (string, bool) {
	for _, as := range c.assigns {
		if as.name == name {
			return as.val.s, true
		}
	}
	return a.varValue(name)
}

// iacTraceLogged judges Terraform's or Packer's debug log kept in a file:
// TF_LOG=TRACE (or DEBUG) logs every provider request with its
// credentials and every sensitive value; PACKER_LOG=1 logs the -var
// values given. It matters for a production configuration, or secrets
// given on the command line; a staging plan's debug log is routine.
func (a *analysis) iacTraceLogged(c *cmd) (bool, string) {
	logVar, pathVar := "TF_LOG", "TF_LOG_PATH"
	if c.name == "packer" {
		logVar, pathVar = "PACKER_LOG", "PACKER_LOG_PATH"
	} else if lower(c.base) == "terragrunt" {
		if v, ok := a.envOf(c, "TG_LOG"); ok && (strings.EqualFold(v, "trace") || strings.EqualFold(v, "debug")) {
			logVar = "TG_LOG"
		}
	}
	lvl, ok := a.envOf(c, logVar)
	if !ok {
		return false, ""
	}
	switch l := lower(lvl); {
	case c.name == "packer" && l != "" && l != "0" && l != "false":
	case l == "trace" || l == "debug" || l == "json":
	default:
		return false, ""
	}
	file := stderrToFile(c)
	if p, ok := a.envOf(c, pathVar); ok && p != "" && p != "/dev/null" && !strings.EqualFold(p, "nul") {
		file = p
	}
	if file == "" {
		return false, ""
	}
	secrets := touchesProduction(c)
	for i, w := range c.args() {
		v := w.s
		if v == "-var" && i+1 < len(c.args()) {
			v = c.args()[i+1].s
		} else if !strings.HasPrefix(v, "-var=") {
			continue
		}
		if k, val, ok := strings.Cut(strings.TrimPrefix(v, "-var="), "="); ok && (secretVarName(strings.ToUpper(k)) || secretVarIn(val) != "") {
			secrets = true
		}
	}
	if !secrets {
		return false, ""
	}
	return true, logVar + "=" + lvl + ", its log in " + file
}

// curlSendsCredentials reports a curl command that sends a user and
// password, a bearer token or an authorization or key header.
func curlSendsCredentials(args []word) bool {
	for i, w := range args {
		v := ""
		switch {
		case i+1 < len(args) && (w.s == "-u" || w.s == "--user" || w.s == "-H" || w.s == "--header" || w.s == "--oauth2-bearer" || w.s == "-b" || w.s == "--cookie"):
			v = args[i+1].s
			if w.s == "-u" || w.s == "--user" || w.s == "--oauth2-bearer" {
				return true
			}
		case strings.HasPrefix(w.s, "-H") && len(w.s) > 2:
			v = w.s[2:]
		case strings.HasPrefix(w.s, "--header="):
			v = w.s[len("--header="):]
		}
		if v == "" {
			continue
		}
		l := strings.ToLower(v)
		if hasAny(l, "authorization", "token", "api-key", "apikey", "x-api-key", "private-token", "cookie", "secret", "password") {
			return true
		}
	}
	return false
}

// hasBundledFlag reports short options bundled in one word (-sSv) that
// include f.
func hasBundledFlag(args []word, f byte) bool {
	for _, w := range args {
		if len(w.s) > 2 && w.s[0] == '-' && w.s[1] != '-' && strings.IndexByte(w.s[1:], f) >= 0 && isLetters(w.s[1:]) {
			return true
		}
	}
	return false
}

// stderrDiscarded reports a command whose standard error goes nowhere:
// 2>/dev/null, &>/dev/null.
func stderrDiscarded(c *cmd) bool {
	for i := range c.redirs {
		r := &c.redirs[i]
		if (r.isOutput() && r.n == "2" || r.op == syntax.RdrAll || r.op == syntax.AppAll) && (r.w.s == "/dev/null" || strings.EqualFold(r.w.s, "nul") || r.w.s == "$null") {
			return true
		}
	}
	return false
}

// stderrToFile returns the file a command's standard error is written
// to: 2> F, &> F, 2>&1 with the output in F or handed to tee F.
func stderrToFile(c *cmd) string {
	dup := false
	out := ""
	for i := range c.redirs {
		r := &c.redirs[i]
		switch {
		case r.op == syntax.DplOut && r.n == "2" && r.w.s == "1":
			dup = true
		case r.isOutput() && r.n == "2", r.op == syntax.RdrAll || r.op == syntax.AppAll:
			if r.w.s != "/dev/null" && !isFD(r.w.s) {
				return r.w.s
			}
		case r.isOutput() && (r.n == "" || r.n == "1") && r.w.s != "/dev/null":
			out = r.w.s
		}
	}
	if !dup {
		return ""
	}
	if out != "" {
		return out
	}
	if c.pipe != nil && c.stage+1 < len(c.pipe) {
		if n := c.pipe[c.stage+1]; n != nil && n.name == "tee" {
			for _, w := range positional(n.args()) {
				if w.s != "/dev/null" && !strings.HasPrefix(w.s, "/dev/") {
					return w.s
				}
			}
		}
	}
	return ""
}

// dataExportMailed is the rule for a data export (customers, invoices, a
// database dump, a backup) sent by mail.
var dataExportMailed = &rule{ID: "data-export-mailed", Level: LevelCritical, Category: CategoryExfiltration, Description: "mailing a data export, a database dump or a backup (the data leaves the machine)",
	Suggestions: []string{"Share exports through the organisation's own storage, with access control", "Send a report without the records (counts, a summary)"},
	names:       names("mail", "mailx", "mutt", "sendmail", "msmtp", "swaks", "neomutt", "send-mailmessage", "send-mailkitmessage"),
	match: func(a *analysis, c *cmd) (bool, string) {
		var files []string
		for _, w := range uploadedFiles(c) {
			files = append(files, w.s)
		}
		args := c.args()
		switch c.name {
		case "swaks":
			if v, ok := optValue(args, "", "attach"); ok {
				files = append(files, strings.TrimPrefix(v, "@"))
			}
		case "send-mailmessage", "send-mailkitmessage":
			for i, w := range args {
				if strings.EqualFold(w.s, "-attachments") && i+1 < len(args) {
					for f := range strings.SplitSeq(args[i+1].s, ",") {
						files = append(files, strings.Trim(f, `"' `))
					}
				}
			}
		}
		for _, r := range c.redirs {
			if (r.n == "" || r.n == "0") && r.op == syntax.RdrIn {
				files = append(files, r.w.s)
			}
		}
		for _, f := range files {
			if dataExportFile(f) {
				return true, f
			}
		}
		if len(files) > 0 {
			// any attachment, to a person's own mailbox or an outsider's
			if to := outsideEmailIn(c.argsText()); to != "" {
				return true, "attachments mailed to " + to
			}
		}
		return false, ""
	}}

func init() { ruleSets = append(ruleSets, []*rule{dataExportMailed}) }

// dataExportFile reports a file name that holds records taken out of a
// system: an export, a dump, a backup, a table of customers or orders.
func dataExportFile(f string) bool {
	l := strings.ToLower(strings.ReplaceAll(f, `\`, "/"))
	base := l[strings.LastIndexByte(l, '/')+1:]
	if hasAny(base, "report", "summary", "coverage", "junit", "changelog", "readme", "schema", "migration", "seed", "fixture", "structure") {
		return false
	}
	if hasAny(l, "export", "dump", "backup", "customers", "invoices", "orders", "patients", "payroll", "users.csv", "accounts.csv", "pii", "contacts", "subscribers", "leads.", "employees") {
		return true
	}
	for _, ext := range [...]string{".sql", ".sql.gz", ".dump", ".bak", ".bacpac", ".sqlite", ".sqlite3", ".db", ".parquet", ".xlsx"} {
		if strings.HasSuffix(base, ext) {
			return true
		}
	}
	return false
}

// passStorePushedAway is the rule for a password store's repository
// pointed at a new remote and pushed there.
var passStorePushedAway = &rule{ID: "password-store-pushed", Level: LevelCritical, Category: CategoryExfiltration, Description: "pushing the password store to a remote the line adds (every stored password leaves with it)",
	Suggestions: []string{"Sync the password store only with the remote its owner set up", "Export one entry by hand if it must be shared"},
	names:       names("pass", "gopass"),
	match: func(a *analysis, c *cmd) (bool, string) {
		ops := c.operands()
		if len(ops) < 2 || ops[0].s != "git" || ops[1].s != "push" {
			return false, ""
		}
		if a.srcHas("git remote add") || a.srcHas("git remote set-url") || a.srcHas("git remote rename") {
			return true, c.name + " git push to a remote added on the line"
		}
		return false, ""
	}}

func init() { ruleSets = append(ruleSets, []*rule{passStorePushedAway}) }

// moreSecretRules: secrets and data leaving or weakened through
// everyday tools.
var moreSecretRules = []*rule{
	{ID: "data-export-uploaded", Level: LevelCritical, Category: CategoryExfiltration, Description: "uploading a data export, a database dump or a backup to a web address (the records leave the machine)",
		Suggestions: []string{"Keep exports in the organisation's own storage, with access control", "Share a summary without the records"},
		names:       names("curl", "wget", "http", "https", "xh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			u := firstURL(c.args())
			if u == "" || isLocalHost(hostOf(u)) {
				return false, ""
			}
			what := ""
			for _, w := range uploadedFiles(c) {
				if w.s != "-" && dataExportFile(w.s) {
					what = w.s
					break
				}
			}
			// aws s3 cp s3://acme-prod-backups/db/latest.dump - | curl -T -
			if what == "" && c.pipe != nil && c.stage > 0 && sendsStdin(c) {
				if s := c.pipe[c.stage-1]; s != nil {
					for _, w := range s.args() {
						if dataExportFile(w.s) && !strings.HasPrefix(w.s, "-") && !(strings.Contains(w.s, "://") && hostOf(w.s) == hostOf(u)) {
							what = w.s // (an API's records sent back to the same API are not leaving)
							break
						}
					}
				}
			}
			if what == "" {
				return false, ""
			}
			if hit, _ := ruleByID["exfil-upload-data"].match(a, c); hit {
				return false, "" // a database file: that rule's
			}
			return true, what + " → " + hostOf(u)
		}},
	{ID: "key-passphrase-removed", Level: LevelHigh, Category: CategoryPermission, Description: "removing a private key's passphrase (anyone who copies the file can use it)",
		Suggestions: []string{"Keep the passphrase; load the key into ssh-agent once", "Make a separate deploy key without a passphrase, scoped to one repository"},
		names:       names("ssh-keygen"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if !hasWord(args, "-p") {
				return false, ""
			}
			if v, ok := optValue(args, "-N", ""); ok && strings.Trim(v, `"'`) == "" {
				return true, "ssh-keygen -p -N ''"
			}
			return false, ""
		}},
	{ID: "keychain-opened-to-all-apps", Level: LevelHigh, Category: CategoryPermission, Description: "storing a secret in the login keychain readable by every application without asking (security ... -A)",
		Suggestions: []string{"Name the programs that may read it (-T /usr/bin/codesign)", "Use a separate build keychain for automation"},
		names:       names("security"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) == 0 || !hasWord(args, "-A") {
				return false, ""
			}
			switch args[0].s {
			case "add-generic-password", "add-internet-password", "import":
			default:
				return false, ""
			}
			kc, ok := optValue(args, "-k", "")
			if ok && !strings.Contains(path.Base(kc), "login.keychain") {
				return false, "" // a build keychain made for the job
			}
			return true, "security " + args[0].s + " -A"
		}},
	{ID: "vault-variable-shown", Level: LevelHigh, Category: CategoryExfiltration, Description: "printing a vaulted variable through Ansible's debug module (the decrypted value lands in the output)",
		Suggestions: []string{"Check the variable is defined (var=vault_x is defined) instead of printing it", "Use no_log on tasks that handle secrets"},
		names:       names("ansible"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			m, _ := optValue(args, "-m", "module-name")
			if m != "debug" && m != "ansible.builtin.debug" {
				return false, ""
			}
			// ansible -i inventory/prod db01 -m debug -a 'var=vault_postgres_password'
			v, _ := optValue(args, "-a", "args")
			for f := range strings.FieldsSeq(v) {
				if name, ok := strings.CutPrefix(f, "var="); ok && (strings.HasPrefix(name, "vault_") || isSecretVar(strings.ToUpper(name))) {
					return true, "ansible debug var=" + name
				}
			}
			return false, ""
		}},
	{ID: "sensitive-value-unmasked", Level: LevelHigh, Category: CategoryExfiltration, Description: "printing a value Terraform marks sensitive, unmasked with nonsensitive() in its console",
		Suggestions: []string{"Check the value is set (length(var.x) > 0) instead of printing it", "Read it where it is needed, not on the screen"},
		names:       names("terraform", "tofu"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if ops := c.operands(); len(ops) == 0 || ops[0].s != "console" {
				return false, ""
			}
			// echo 'nonsensitive(var.db_password)' | terraform console;
			// terraform console <<< 'nonsensitive(...)'
			in := ""
			if c.in.kind == flowText {
				in = c.in.text
			}
			for _, r := range c.redirs {
				if r.op.String() == "<<<" || r.op.String() == "<<" {
					in += " " + r.w.s
				}
			}
			if strings.Contains(in, "nonsensitive(") && !strings.Contains(in, "length(nonsensitive(") {
				return true, "terraform console: " + truncate(strings.TrimSpace(in), 60)
			}
			return false, ""
		}},
	{ID: "secret-file-left-in-tmp", Level: LevelHigh, Category: CategoryExfiltration, Description: "writing decrypted secrets or cluster credentials into a shared temporary or public folder (/tmp, C:\\Users\\Public, the Desktop or Downloads)",
		Suggestions: []string{"Write them to a private file (mktemp, mode 600) and delete it in the same line", "Hand the secret to the program that needs it directly"},
		names:       names("ansible-vault", "az", "etcdctl", "aws", "gcloud", "sops", "terraform", "tofu"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			f := ""
			switch {
			case (c.name == "terraform" || c.name == "tofu") && infraStateShown(ops, args):
				// terraform show -json > /tmp/state.json: the state, its
				// sensitive values unmasked, left readable by everyone
				for _, r := range c.redirs {
					if r.isOutput() && (r.n == "" || r.n == "1") && !isFD(r.w.s) {
						f = r.w.s
					}
				}
			case c.name == "ansible-vault" && len(ops) > 0 && ops[0].s == "decrypt":
				f, _ = optValue(args, "", "output")
			case c.name == "az" && len(ops) > 1 && ops[0].s == "aks" && ops[1].s == "get-credentials":
				f, _ = optValue(args, "-f", "file")
			case c.name == "aws" && len(ops) > 1 && ops[0].s == "eks" && ops[1].s == "update-kubeconfig":
				f, _ = optValue(args, "", "kubeconfig")
			case c.name == "etcdctl" && len(ops) > 2 && ops[0].s == "snapshot" && ops[1].s == "save":
				f = ops[2].s // every key of the cluster, its secrets among them
			case c.name == "sops" && (hasWord(args, "-d") || hasWord(args, "--decrypt")):
				f, _ = optValue(args, "", "output")
			}
			if f == "" || f == "-" || !sharedFile(a, f, c.cwd, true) {
				return false, ""
			}
			return true, f
		}},
}

func init() { ruleSets = append(ruleSets, moreSecretRules) }

// secretPlacementRules: secrets put where they are kept in the clear:
// the process list, a plain variable, what a build ships.
var secretPlacementRules = []*rule{
	{ID: "live-token-on-command-line", Level: LevelHigh, Category: CategoryExfiltration, Description: "a live service token written into the command itself (it stays in the shell's history, the process list and logs, and in any file the command writes)",
		Suggestions: []string{"Read the token from the environment or a secret store ($STRIPE_API_KEY, op read ...)", "Rotate a token that was typed in clear"},
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				if t := liveTokenIn(w.s); t != "" {
					return true, t + "… given in clear"
				}
			}
			return false, ""
		}},
	{ID: "secrets-recipient-added", Level: LevelCritical, Category: CategoryPrivilege, Description: "adding a key typed on the command line as a recipient of production's encrypted secrets (whoever holds it can decrypt them)",
		Suggestions: []string{"Add recipients in the reviewed .sops.yaml and run sops updatekeys", "Ask the secrets' owners to add the key"}, names: names("sops"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			added := ""
			for i, w := range args {
				name, val, eq := strings.Cut(w.s, "=")
				switch name {
				case "--add-age", "--add-pgp", "--add-kms", "--add-gcp-kms", "--add-azure-kv", "--add-hc-vault-transit":
					if !eq && i+1 < len(args) {
						val = args[i+1].s
					}
					added = name + " " + val
				}
			}
			if added == "" {
				return false, ""
			}
			for _, w := range c.operands() {
				if isProdName(lower(w.s)) {
					return true, added + " on " + w.s
				}
			}
			return false, ""
		}},
	{ID: "secret-built-into-artifact", Level: LevelHigh, Category: CategoryExfiltration, Description: "building a secret into what the build ships: a browser bundle's public variables, a binary's linked strings, an executable's packed files",
		Suggestions: []string{"Keep secrets on the server; the browser gets only publishable keys", "Read secrets at run time, from the environment or a secret store"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if d := secretBuiltIn(c); d != "" {
				return true, d
			}
			return false, ""
		}},
	{ID: "password-on-command-line", Level: LevelHigh, Category: CategoryExfiltration, Description: "giving a registry's or a hosted account's password on the command line (it shows in the process list and the shell's history)",
		Suggestions: []string{"Pipe it in: echo \"$PASSWORD\" | docker login -u USER --password-stdin REGISTRY", "Use a credential helper, the keychain (@keychain:NAME) or a variable"},
		names:       names("docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras", "xcrun", "altool", "notarytool", "steamcmd", "swaks", "mender-cli"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "xcrun", "altool", "notarytool":
				// an Apple ID's app-specific password
				for i, w := range args {
					if (w.s == "-p" || w.s == "--password") && i+1 < len(args) && clearValue(args[i+1]) {
						return true, c.name + " " + w.s + " (an Apple ID password)"
					}
				}
				return false, ""
			case "steamcmd":
				// steamcmd +login USER PASSWORD: a second word before the
				// next +command
				for i, w := range args {
					if lower(w.s) == "+login" && i+2 < len(args) && !strings.HasPrefix(args[i+2].s, "+") && clearValue(args[i+2]) {
						return true, "steamcmd +login with the account's password"
					}
				}
				return false, ""
			case "swaks":
				if v, ok := optValue(args, "-ap", "auth-password"); ok && clearValue(word{s: v, ok: true}) {
					return true, "swaks --auth-password"
				}
				return false, ""
			}
			if !hasWord(args, "login") || hasWord(args, "--password-stdin") {
				return false, ""
			}
			if v, ok := optValue(args, "-p", "password"); ok && v != "" {
				for _, w := range c.operands() {
					if w.s != "login" && isLocalHost(hostOf("https://"+w.s)) {
						return false, "" // a registry on this machine (localhost:5000)
					}
				}
				return true, c.base + " login -p"
			}
			return false, ""
		}},
	{ID: "db-password-on-command-line", Level: LevelHigh, Category: CategoryExfiltration, Description: "typing a production database's password into the command line (it stays in the shell's history, the process list and the agent's transcript)",
		Suggestions: []string{"Let the client prompt for it, or read it from ~/.pgpass, ~/.my.cnf or a secret manager", "Pass it through a variable set from the secret store"},
		names:       names("mysql", "mariadb", "mysqldump", "psql", "pg_dump", "redis-cli", "valkey-cli", "mongosh", "mongo", "mongodump", "mongorestore", "cqlsh", "sqlcmd", "aws"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			host, pass, pw := "", "", ""
			if c.name == "aws" {
				// aws rds modify-db-instance --db-instance-identifier
				// acme-prod-pg --master-user-password 'Temp1234!'
				ops := c.operands()
				if len(ops) < 2 || (ops[0].s != "rds" || !strings.HasPrefix(ops[1].s, "modify-db-") && !strings.HasPrefix(ops[1].s, "create-db-")) &&
					(ops[0].s != "redshift" || ops[1].s != "modify-cluster" && ops[1].s != "create-cluster") {
					return false, ""
				}
				v, ok := optValue(args, "", "master-user-password")
				if !ok || v == "" || strings.ContainsAny(v, "$%{") {
					return false, ""
				}
				id, _ := optValue(args, "", "db-instance-identifier", "db-cluster-identifier")
				if !isProdName(id) && !touchesProduction(c) {
					return false, ""
				}
				return true, "--master-user-password for " + id
			}
			if v, ok := optValue(args, "-h", "host"); ok {
				host = v
			}
			for _, as := range c.assigns {
				switch as.name {
				case "PGPASSWORD", "MYSQL_PWD", "REDISCLI_AUTH":
					if as.val.ok && as.val.s != "" {
						pass, pw = as.name, as.val.s
					}
				case "PGHOST", "MYSQL_HOST":
					host = as.val.s
				}
			}
			for _, w := range args {
				switch {
				case !w.ok:
				case (c.name == "mysql" || c.name == "mariadb" || c.name == "mysqldump") && len(w.s) > 2 && strings.HasPrefix(w.s, "-p"):
					pass, pw = "-p", w.s[2:] // -pSECRET (the bare -p prompts)
				case strings.HasPrefix(w.s, "--password="):
					pass, pw = "--password", w.s[len("--password="):]
				case strings.Contains(w.s, "://"):
					// postgresql://admin:S3cr3t@host/db, --uri=mongodb://...
					_, u0, _ := strings.Cut(w.s, "=")
					if !strings.Contains(u0, "://") {
						u0 = w.s
					}
					if u, err := url.Parse(u0); err == nil && u.User != nil {
						if p, set := u.User.Password(); set && p != "" {
							pass, host, pw = "a URL's password", u.Hostname(), p
						}
					}
				}
			}
			if c.name == "sqlcmd" {
				// sqlcmd -S server -U sa -P 'secret' (-P %VAR%, $env:X: a variable)
				if v, ok := optValue(args, "-P", ""); ok && v != "" && !strings.ContainsAny(v, "$%") {
					pass, pw = "-P", v
				}
				if v, ok := optValue(args, "-S", ""); ok {
					host = strings.TrimPrefix(strings.TrimPrefix(v, "tcp:"), "np:")
					host, _, _ = strings.Cut(host, ",")
					host, _, _ = strings.Cut(host, `\`)
				}
			}
			if v, ok := optValue(args, "-a", "pass"); ok && (c.name == "redis-cli" || c.name == "valkey-cli") && !strings.HasPrefix(v, "$") {
				pass = "-a"
			}
			if v, ok := optValue(args, "-p", "password"); ok && (c.name == "cqlsh" || c.name == "mongosh" || c.name == "mongo") && !strings.HasPrefix(v, "$") {
				pass = "-p"
			}
			if c.name == "cqlsh" && host == "" {
				if ops := c.operands(); len(ops) > 0 {
					host = ops[0].s
				}
			}
			if pass == "" || host == "" || thisMachine(host) {
				return false, ""
			}
			// production's, or a shared server's (a name with a domain)
			// given a real password (not the dev image's postgres, root,
			// test)
			if !isProdName(host) && (!strings.Contains(host, ".") || testName(host) || devPassword(pw) || strings.ContainsAny(pw, "$%")) {
				return false, ""
			}
			return true, pass + " for " + host
		}},
	{ID: "secret-in-plain-variable", Level: LevelHigh, Category: CategoryExfiltration, Description: "storing a secret as a plain (unencrypted, readable) variable or parameter",
		Suggestions: []string{"Store it as a secret (gh secret set, --type SecureString)", "Keep plain variables for settings that are not secret"},
		names:       names("gh", "glab", "aws", "dvc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "dvc":
				// dvc remote modify NAME secret_access_key VALUE: kept in
				// .dvc/config, which is committed (--local writes the
				// ignored config.local)
				if len(ops) > 3 && ops[0].s == "remote" && ops[1].s == "modify" && !hasWord(args, "--local") && !hasWord(args, "-u") && !hasWord(args, "--unset") {
					switch ops[3].s {
					case "secret_access_key", "access_key_id", "password", "token", "account_key", "connection_string", "sas_token", "gdrive_client_secret", "session_token", "key_secret":
						return true, "dvc remote modify " + ops[2].s + " " + ops[3].s + " (into .dvc/config, committed)"
					}
				}
			case "gh", "glab":
				// gh variable set DB_PASSWORD --body "$DB_PASSWORD"
				if len(ops) > 2 && ops[0].s == "variable" && ops[1].s == "set" {
					body, _ := optValue(args, "-b", "body")
					if isSecretVar(strings.ToUpper(ops[2].s)) || secretVarIn(body) != "" {
						return true, c.name + " variable set " + ops[2].s
					}
				}
			case "aws":
				// aws ssm put-parameter --type String --value "$DB_PASSWORD"
				if len(ops) > 1 && ops[0].s == "ssm" && ops[1].s == "put-parameter" {
					t, _ := optValue(args, "", "type")
					if t != "String" && t != "StringList" {
						return false, ""
					}
					name, _ := optValue(args, "", "name")
					val, _ := optValue(args, "", "value")
					if secretVarIn(val) != "" || hasAny(strings.ToLower(path.Base(name)), "password", "secret", "token", "apikey", "api_key", "private") {
						return true, "ssm parameter " + name + " of type " + t
					}
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, secretPlacementRules) }

// browserCredentialsCopied is the rule for a browser's saved logins,
// cookies or their key copied out of its profile: the first step of
// taking them elsewhere, and labelled so in every blind round.
var browserCredentialsCopied = &rule{ID: "browser-credentials-copied", Level: LevelHigh, Category: CategoryExfiltration, Description: "copying a browser's saved passwords, cookies or the key that decrypts them out of its profile",
	Suggestions: []string{"Leave the browser's profile alone; export one password from the browser itself", "Use a test profile made for the job"},
	names:       names("cp", "rsync", "install", "ditto", "mv"),
	match: func(a *analysis, c *cmd) (bool, string) {
		ops := c.operands()
		if len(ops) < 2 {
			return false, ""
		}
		for _, w := range ops[:len(ops)-1] {
			if !hasAny(w.s, "chrom", "Chrom", "firefox", "mozilla", "Firefox", "Brave", "edge", "Edge", "Login Data", "Cookies", "Library/") {
				continue // (a look at the name spares the path's resolution)
			}
			if d, crit := a.sensitive(w.s, c.cwd); crit && strings.Contains(d, "browser") {
				return true, d + " → " + ops[len(ops)-1].s
			}
		}
		return false, ""
	}}

func init() { ruleSets = append(ruleSets, []*rule{browserCredentialsCopied}) }

// infraStateShown reports terraform or tofu printing the whole state or
// every output with sensitive values unmasked: show -json of the current
// state (a saved plan file is another matter), output -json. (state pull
// is how a backup of the state is taken.)
func infraStateShown(ops []word, args []word) bool {
	if len(ops) != 1 || !hasWord(args, "-json") {
		return false
	}
	return ops[0].s == "show" || ops[0].s == "output"
}

// secretBuiltIn describes a secret a command builds into an artifact, or
// "": a variable the front-end build inlines into the bundle every
// visitor downloads (NEXT_PUBLIC_, VITE_, REACT_APP_...) given a secret
// (VITE_OPENAI_API_KEY=$OPENAI_API_KEY, vercel --build-env
// NEXT_PUBLIC_X="$STRIPE_SECRET_KEY"), a secret linked into a Go
// binary's strings (-ldflags "-X main.key=$K"), a .env file packed into
// an executable (pyinstaller --add-data .env). A secret build argument
// of an image is secret-baked-into-image's, when the image is pushed.
func secretBuiltIn(c *cmd) string {
	check := func(name, val string) string {
		if publicEnvName(name) && (strongSecretVar(strings.TrimPrefix(name, publicPrefix(name))) && secretVarName(name) || secretRef(val) != "") {
			return name + " (inlined into the browser bundle)"
		}
		return ""
	}
	for _, as := range c.assigns {
		if d := check(as.name, as.val.s); d != "" {
			return d
		}
	}
	args := c.args()
	switch c.name {
	case "export":
		for _, w := range args {
			if n, v, ok := strings.Cut(w.s, "="); ok {
				if d := check(n, v); d != "" {
					return d
				}
			}
		}
	case "set":
		// fish: set -x NAME VALUE
		if len(args) > 2 && strings.HasPrefix(args[0].s, "-") && strings.Contains(args[0].s, "x") {
			if d := check(args[1].s, joinWords(args[2:])); d != "" {
				return d
			}
		}
	case "vercel", "netlify":
		for i, w := range args {
			if (w.s == "--build-env" || w.s == "-b" || w.s == "--env" || w.s == "-e") && i+1 < len(args) {
				if n, v, ok := strings.Cut(args[i+1].s, "="); ok {
					if d := check(n, v); d != "" {
						return d
					}
				}
			}
		}
	case "go":
		if len(args) > 0 && args[0].s == "build" || len(args) > 0 && args[0].s == "install" {
			for i, w := range args {
				ld := ""
				if (w.s == "-ldflags" || w.s == "--ldflags") && i+1 < len(args) {
					ld = args[i+1].s
				} else if v, ok := strings.CutPrefix(strings.TrimLeft(w.s, "-"), "ldflags="); ok && strings.HasPrefix(w.s, "-") {
					ld = v
				}
				if n := secretRef(ld); n != "" && strings.Contains(ld, "-X") {
					return "-ldflags -X ...$" + n + " (linked into the binary)"
				}
			}
		}
	case "pyinstaller":
		for i, w := range args {
			v := ""
			if w.s == "--add-data" && i+1 < len(args) {
				v = args[i+1].s
			} else if strings.HasPrefix(w.s, "--add-data=") {
				v = w.s[len("--add-data="):]
			}
			src, _, _ := strings.Cut(strings.ReplaceAll(v, ";", ":"), ":")
			if b := path.Base(src); b == ".env" || strings.HasPrefix(b, ".env.") && !envTemplate(b) {
				return "--add-data " + v + " (the .env file packed into the executable)"
			}
		}
	}
	return ""
}

// envTemplate reports an example .env file (.env.example, .env.sample).
func envTemplate(b string) bool {
	return hasAny(b, "example", "sample", "template", "dist", "defaults")
}

// publicPrefixes are the prefixes front-end builds inline into the
// bundle they ship to browsers.
var publicPrefixes = [...]string{"NEXT_PUBLIC_", "VITE_", "REACT_APP_", "EXPO_PUBLIC_", "NUXT_PUBLIC_", "NUXT_ENV_", "PUBLIC_", "GATSBY_", "VUE_APP_", "STORYBOOK_", "NG_APP_"}

func publicPrefix(name string) string {
	for _, p := range publicPrefixes {
		if strings.HasPrefix(name, p) {
			return p
		}
	}
	return ""
}

func publicEnvName(name string) bool { return publicPrefix(name) != "" }

// strongSecretVar reports a variable's name that holds a secret a
// browser must never see: a secret, private or service key, a password,
// a token, an API key of a paid service (the keys meant for browsers,
// publishable, anonymous, maps and analytics keys, are not).
func strongSecretVar(name string) bool {
	u := strings.ToUpper(name)
	if hasAny(u, "PUBLISHABLE", "PUBLIC", "ANON", "FIREBASE", "MAPS", "MAPBOX", "ALGOLIA", "POSTHOG", "SEGMENT", "AMPLITUDE", "SENTRY", "RECAPTCHA_SITE", "SITE_KEY", "CLIENT_ID") {
		return false
	}
	return hasAny(u, "SECRET", "PRIVATE", "PASSWORD", "PASSWD", "SERVICE_ROLE", "DATABASE_URL", "TOKEN", "API_KEY", "APIKEY", "ACCESS_KEY")
}

// secretRef returns the name of a secret variable a value refers to
// ($STRIPE_SECRET_KEY, ${NPM_TOKEN}, $env:X, %X%), or "".
func secretRef(v string) string {
	for i := 0; i < len(v); i++ {
		var rest string
		switch {
		case v[i] == '$':
			rest = strings.TrimPrefix(strings.TrimPrefix(v[i+1:], "{"), "env:")
		case v[i] == '%':
			rest = v[i+1:]
		default:
			continue
		}
		n := 0
		for n < len(rest) && (rest[n] == '_' || rest[n] >= 'A' && rest[n] <= 'Z' || rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= '0' && rest[n] <= '9') {
			n++
		}
		if name := rest[:n]; name != "" && strongSecretVar(name) && secretVarName(name) {
			return name
		}
	}
	return ""
}

// devPassword reports a password that development images and tutorials
// use (postgres, root, dev, test, secret), which protects nothing.
func devPassword(pw string) bool {
	switch strings.ToLower(pw) {
	case "", "postgres", "root", "dev", "test", "pass", "password", "secret", "example", "admin", "app", "changeme", "mysql", "toor", "local", "guest":
		return true
	}
	return false
}

// liveTokenPrefixes are the prefixes of services' live secret tokens.
var liveTokenPrefixes = [...]string{"sk_live_", "rk_live_", "ghp_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "dckr_pat_", "shpat_", "npm_"}

// liveTokenIn returns the prefix of a live token held in s: the prefix
// followed by at least 20 letters and digits that are not a placeholder
// (ghp_dummy000..., sk_live_xxxx...).
func liveTokenIn(s string) string {
	if len(s) < 24 {
		return ""
	}
	for _, pre := range liveTokenPrefixes {
		i := strings.Index(s, pre)
		if i < 0 {
			continue
		}
		rest := s[i+len(pre):]
		n, digits, upper := 0, 0, 0
		for n < len(rest) && (isAlnum(rest[n]) || rest[n] == '_' || rest[n] == '-') {
			switch b := rest[n]; {
			case b >= '0' && b <= '9':
				digits++
			case b >= 'A' && b <= 'Z':
				upper++
			}
			n++
		}
		l := lower(rest[:n])
		if n >= 20 && digits > 0 && upper > 0 && !hasAny(l, "dummy", "example", "xxxx", "0000", "fake", "test", "redacted", "placeholder") {
			return pre
		}
	}
	return ""
}

// shellTraceLogged judges bash -x of a deploy, release or publish script
// with its trace kept in a file: every command is traced with its
// expanded words, the tokens and passwords the script passes among them.
func shellTraceLogged(a *analysis, c *cmd) (bool, string) {
	args := c.args()
	if len(args) < 2 || !strings.HasPrefix(args[0].s, "-") || strings.HasPrefix(args[0].s, "--") || !strings.Contains(args[0].s, "x") || !isLetters(args[0].s[1:]) {
		return false, ""
	}
	script := lower(path.Base(args[1].s))
	if !hasAny(script, "deploy", "release", "publish") && !hasAny(lower(joinWords(args[2:])), "prod") {
		return false, ""
	}
	if v, ok := a.envOf(c, "BASH_XTRACEFD"); ok && v == "1" {
		// the trace on the standard output, into tee's file
		if next := nextStage(c); next != nil && next.name == "tee" && len(next.operands()) > 0 {
			return true, c.name + " -x " + args[1].s + ", its trace kept in " + next.operands()[0].s
		}
	}
	if f := stderrToFile(c); f != "" {
		return true, c.name + " -x " + args[1].s + ", its trace kept in " + f
	}
	return false, ""
}
