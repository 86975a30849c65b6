package guard

import (
	"strings"
)

var (
	shellNames  = names("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "fish", "csh", "tcsh", "ksh93", "oksh")
	interpNames = names("python", "perl", "ruby", "node", "bun", "deno", "php", "lua", "awk", "pwsh", "osascript", "irb", "luajit", "Rscript", "julia", "tclsh",
		"groovy", "kotlinc", "kotlin", "scala", "jshell", "elixir", "erl", "R", "wish", "jimsh")
	execNames = append(append(append([]string{}, shellNames...), interpNames...), "eval", "source", ".", "iex", "Invoke-Expression")
	netSinks  = names("curl", "wget", "nc", "socat", "telnet", "ssh", "scp", "sftp", "rsync", "ftp", "tftp", "mail", "mailx", "sendmail",
		"mutt", "openssl", "gh", "aws", "gsutil", "rclone", "http", "https", "xh", "smbclient", "dig", "nslookup", "host", "ping",
		"s3cmd", "az", "gcloud", "lftp", "httpie", "curlie", "wget2", "swaks", "tailscale", "azcopy", "mc", "mcli", "glab", "restic", "borg", "duplicity", "oras",
		"pscp.pssh", "parallel-scp", "prsync", "parallel-rsync",
		// chat and ticket clients: what they are given is posted
		"telegram-send", "jira", "slackcat", "ntfy", "apprise", "teams",
		// message brokers' publishers: what they publish, every subscriber
		// of the topic reads (a public broker's, anyone)
		"mosquitto_pub", "kcat", "kafkacat", "nats")
)

var suggRemote = []string{"Download the script, read it, then run it: curl -fsSLo install.sh URL && less install.sh", "Install from a package manager with verified packages", "Pin a checksum and verify it before running"}

var suggExfil = []string{"Do not send credentials or keys over the network", "Share only the specific non-secret data that is needed"}

var suggRevShell = []string{"Do not open shells over the network", "Use ssh for remote access"}

// laterStage reports whether a pipeline stage after c matches fn.
func laterStage(c *cmd, fn func(*cmd) bool) *cmd {
	if c.pipe == nil {
		return nil
	}
	for _, s := range c.pipe[c.stage+1:] {
		if s != nil && s.synthetic == "" && fn(s) {
			return s
		}
	}
	return nil
}

func isSocketCmd(s *cmd) bool {
	if socketTools[s.name] {
		return true
	}
	if s.name == "openssl" && len(s.words) > 1 && s.words[1].s == "s_client" {
		return true
	}
	for _, r := range s.redirs {
		if isNetDev(r.w.s) {
			return true
		}
	}
	return false
}

// curlStdin reports whether curl/wget/httpie sends its standard input.
func curlStdin(args []word) bool {
	for i, w := range args {
		s := w.s
		if strings.Contains(s, "@-") || strings.Contains(s, "@/dev/stdin") || strings.HasSuffix(s, "=/dev/stdin") || s == "--post-file=-" || s == "--body-file=-" {
			return true
		}
		if strings.HasSuffix(s, "=<-") && i > 0 && (args[i-1].s == "--form" || shortBundleEnds(args[i-1].s, 'F')) || strings.HasPrefix(s, "--form=") && strings.HasSuffix(s, "=<-") {
			return true // -F 'f=<-': a form field's text read from standard input
		}
		if curlUploadOpt(s) && i+1 < len(args) && (args[i+1].s == "-" || args[i+1].s == ".") {
			return true
		}
		if (s == "--data-binary" || s == "-d" || s == "--data" || s == "--json") && i+1 < len(args) && args[i+1].s == "@-" {
			return true
		}
	}
	return false
}

// curlUploadOpt reports whether s is curl's upload option, alone or
// ending a bundle of short options (-sT FILE): the next word is the file.
func curlUploadOpt(s string) bool {
	return s == "--upload-file" || shortBundleEnds(s, 'T')
}

// shortBundleEnds reports the short option -o alone or ending a bundle
// of letters (-sF, -sSLT): the next word is its value.
func shortBundleEnds(s string, o byte) bool {
	if len(s) < 2 || s[0] != '-' || s[1] == '-' || s[len(s)-1] != o {
		return false
	}
	for _, r := range s[1:] {
		if r < 'A' || r > 'z' || r > 'Z' && r < 'a' {
			return false
		}
	}
	return true
}

// fieldName reports a form field's name: letters, digits, '-', '_', '.'.
func fieldName(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return s != ""
}

// sendsStdin reports whether a network tool sends what it reads.
func sendsStdin(c *cmd) bool {
	args := c.args()
	switch c.name {
	case "curl", "wget", "wget2", "curlie":
		return curlStdin(args)
	case "http", "https", "xh", "httpie":
		return true
	case "gh", "glab":
		// gh gist create; gh issue create --body-file - (an issue or a
		// comment posts what it reads for everyone with access to read)
		if len(args) > 1 && args[0].s == "gist" && args[1].s == "create" {
			return true
		}
		if len(args) > 1 && (args[0].s == "issue" || args[0].s == "pr" || args[0].s == "mr") && (args[1].s == "create" || args[1].s == "comment" || args[1].s == "note") {
			v, ok := optValue(args, "-F", "body-file")
			return ok && v == "-"
		}
		return false
	case "aws", "gsutil", "rclone", "s3cmd":
		return hasWord(args, "-") || hasWord(args, "rcat")
	case "openssl":
		// s_client sends what it reads; x509, dgst and their kind read a
		// certificate or a key here and print about it
		return len(args) == 0 || !opensslLocal[args[0].s]
	case "nc", "socat", "telnet", "ssh", "mail", "mailx", "sendmail", "mutt", "ftp", "tftp", "smbclient", "lftp":
		return true
	case "mosquitto_pub":
		// -s: the message is the input; -l: each of its lines
		return hasWord(args, "-s") || hasWord(args, "-l") || hasWord(args, "--stdin-file") || hasWord(args, "--stdin-line")
	case "kcat", "kafkacat":
		return hasWord(args, "-P") // producer mode: what it reads is published
	case "nats":
		return len(args) > 0 && args[0].s == "pub" && len(c.operands()) < 3 // nats pub SUBJECT: the message read
	case "swaks":
		// swaks --attach - (or --body -, --data -): the input is mailed
		for i, w := range args {
			if (w.s == "--attach" || w.s == "--body" || w.s == "--data" || w.s == "--attach-body") && i+1 < len(args) && args[i+1].s == "-" {
				return true
			}
		}
	}
	return false
}

// opensslLocal are openssl's commands that inspect, convert or make
// keys and certificates without a connection.
var opensslLocal = map[string]bool{"x509": true, "verify": true, "dgst": true, "req": true, "rsa": true, "pkey": true, "ec": true, "crl": true,
	"asn1parse": true, "genrsa": true, "genpkey": true, "rand": true, "version": true, "ciphers": true, "list": true, "prime": true, "speed": true,
	"errstr": true, "sha256": true, "sha1": true, "md5": true, "pkcs7": true}

// awsValueOpts are the AWS CLI's global and s3 options that take a value.
var awsValueOpts = []string{"profile", "region", "endpoint-url", "output", "query", "ca-bundle", "cli-read-timeout", "cli-connect-timeout",
	"sse", "sse-kms-key-id", "acl", "storage-class", "exclude", "include", "content-type", "cache-control", "expires", "metadata", "grants"}

// mcRemote reports a MinIO client target naming a server by its alias
// (prod/bucket/key) rather than a local path.
func mcRemote(s string) bool {
	if s == "" || strings.HasPrefix(s, "/") || strings.HasPrefix(s, ".") || strings.HasPrefix(s, "~") || strings.HasPrefix(s, "$") {
		return false
	}
	alias, rest, ok := strings.Cut(s, "/")
	return ok && alias != "" && rest != "" && !strings.ContainsAny(alias, ".:*")
}

// uploadedFiles lists the local files a network tool sends.
func uploadedFiles(c *cmd) []word {
	args := c.args()
	var out []word
	switch c.name {
	case "curl", "curlie":
		for i, w := range args {
			s := w.s
			if curlBundleEnds(s, 'F') {
				s = "-F" // -sF: silent, then a form field
			} else if curlBundleEnds(s, 'd') {
				s = "-d"
			}
			next := ""
			if i+1 < len(args) {
				next = args[i+1].s
			}
			switch {
			case s == "-d" || s == "--data" || s == "--data-binary" || s == "--data-ascii" || s == "--json" || s == "--data-raw":
				if strings.HasPrefix(next, "@") {
					out = append(out, lit(next[1:]))
				}
			case s == "-F" || s == "--form" || s == "--form-string":
				if j := strings.IndexAny(next, "@<"); j >= 0 {
					f := next[j+1:]
					if k := strings.IndexByte(f, ';'); k >= 0 {
						f = f[:k]
					}
					out = append(out, lit(strings.Trim(f, `"`)))
				}
			case curlUploadOpt(s):
				if i+1 < len(args) && (args[i+1].flow != nil || args[i+1].find != nil) {
					// -T <(env): what the substitution prints; find -exec
					// curl -T {}: each file found
					out = append(out, args[i+1])
				} else {
					out = append(out, lit(next))
				}
			case s == "--data-urlencode":
				if j := strings.IndexByte(next, '@'); j >= 0 {
					out = append(out, lit(next[j+1:]))
				}
			case strings.HasPrefix(s, "-d@") || strings.HasPrefix(s, "--data-binary=@") || strings.HasPrefix(s, "--data=@"):
				out = append(out, lit(s[strings.IndexByte(s, '@')+1:]))
			case strings.HasPrefix(s, "-F") && strings.Contains(s, "=@"):
				out = append(out, lit(s[strings.Index(s, "=@")+2:]))
			case strings.HasPrefix(s, "-T") && len(s) > 2:
				out = append(out, lit(s[2:]))
			}
		}
	case "socat":
		net := false
		var files []word
		for _, w := range args {
			l := lower(w.s)
			switch {
			case strings.HasPrefix(l, "tcp") || strings.HasPrefix(l, "udp") || strings.HasPrefix(l, "openssl") || strings.HasPrefix(l, "ssl"):
				net = true
			case strings.HasPrefix(l, "file:") || strings.HasPrefix(l, "open:") || strings.HasPrefix(l, "gopen:"):
				f := w.s[strings.IndexByte(w.s, ':')+1:]
				if i := strings.IndexByte(f, ','); i >= 0 {
					f = f[:i]
				}
				files = append(files, lit(f))
			case strings.HasPrefix(w.s, "/") || strings.HasPrefix(w.s, "~"):
				files = append(files, lit(strings.SplitN(w.s, ",", 2)[0]))
			}
		}
		if net {
			out = append(out, files...)
		}
	case "wget", "wget2":
		for _, w := range args {
			for _, p := range [...]string{"--post-file=", "--body-file="} {
				if strings.HasPrefix(w.s, p) {
					out = append(out, lit(w.s[len(p):]))
				}
			}
		}
	case "http", "https", "xh", "httpie":
		form := hasWord(args, "--form") || hasWord(args, "-f") || hasWord(args, "--multipart")
		for _, w := range args {
			if i := strings.Index(w.s, "@"); i > 0 && strings.Contains(w.s[:i], "=") || strings.HasPrefix(w.s, "@") {
				out = append(out, lit(w.s[i+1:]))
			} else if form && i > 0 && fieldName(w.s[:i]) {
				// --form file@~/.pgpass: the file sent as a form's field
				out = append(out, lit(w.s[i+1:]))
			}
		}
	case "sftp":
		if c.in.kind == flowText {
			for _, l := range strings.Split(c.in.text, "\n") {
				f := strings.Fields(l)
				if len(f) >= 2 && (f[0] == "put" || f[0] == "mput" || f[0] == "reput") {
					for _, x := range f[1:] {
						if !strings.HasPrefix(x, "-") { // put -r DIR: the options first
							out = append(out, lit(x))
							break
						}
					}
				}
			}
		}
	case "scp", "rsync", "rclone", "s3cmd":
		ops := posArgs(args, optSpec{short: "cFiJloPSeBfT", long: []string{"rsh", "exclude", "include", "filter", "port"}})
		remote := false
		for _, w := range ops[min(1, len(ops)):] {
			if isRemoteSpec(w.s) {
				remote = true
			}
		}
		if remote && len(ops) > 1 {
			for _, w := range ops[:len(ops)-1] {
				if !isRemoteSpec(w.s) {
					out = append(out, w)
				}
			}
		}
	case "pscp.pssh", "parallel-scp", "prsync", "parallel-rsync":
		// parallel-ssh's copies: every source goes to every host listed
		if ops := posArgs(args, optSpec{short: "hHlpteoxXO"}); len(ops) > 1 {
			out = append(out, ops[:len(ops)-1]...)
		}
	case "aws", "gsutil":
		ops := posArgs(args, optSpec{long: awsValueOpts})
		for i, w := range ops {
			if (w.s == "cp" || w.s == "mv" || w.s == "sync") && i+2 < len(ops) {
				if strings.Contains(ops[i+2].s, "://") {
					out = append(out, ops[i+1])
				}
			}
		}
	case "lftp", "smbclient":
		// lftp -e|-c 'put F; ...', smbclient -c 'put F': the script's
		// put and mput send files
		for _, o := range [...]string{"-e", "-c"} {
			if v, ok := optValue(args, o, ""); ok {
				for _, cmdline := range strings.Split(v, ";") {
					f := strings.Fields(cmdline)
					if len(f) >= 2 && (f[0] == "put" || f[0] == "mput" || f[0] == "reput") {
						out = append(out, lit(f[1]))
					}
				}
			}
		}
	case "glab":
		// glab snippet create FILES
		if len(args) > 1 && args[0].s == "snippet" && args[1].s == "create" {
			out = append(out, posArgs(args[2:], optSpec{short: "tdfv", long: []string{"title", "description", "filename", "visibility", "repo"}})...)
		}
	case "restic":
		// restic -r REMOTE backup PATHS
		if repo, ok := optValue(args, "-r", "repo"); ok && strings.Contains(repo, ":") && !strings.HasPrefix(repo, "local:") {
			ops := posArgs(args, optSpec{short: "r", long: []string{"repo", "password-file", "tag", "host", "exclude", "exclude-file", "files-from"}})
			if len(ops) > 1 && ops[0].s == "backup" {
				out = append(out, ops[1:]...)
			}
		}
	case "borg":
		// borg create REMOTE::ARCHIVE PATHS
		ops := c.operands()
		if len(ops) > 2 && ops[0].s == "create" && (strings.HasPrefix(ops[1].s, "ssh://") || isRemoteSpec(strings.Split(ops[1].s, "::")[0])) {
			out = append(out, ops[2:]...)
		}
	case "azcopy":
		// azcopy copy|cp|sync SRC URL: SRC goes to the storage account
		ops := c.operands()
		if len(ops) >= 3 && (ops[0].s == "copy" || ops[0].s == "cp" || ops[0].s == "sync") && strings.Contains(ops[2].s, "://") && !strings.Contains(ops[1].s, "://") {
			out = append(out, ops[1])
		}
	case "az":
		// az storage blob upload --file F, az storage file upload
		// --source F, upload-batch --source DIR: to a storage account
		ops := c.operands()
		if len(ops) >= 3 && ops[0].s == "storage" && (ops[2].s == "upload" || ops[2].s == "upload-batch") {
			for _, o := range [...][2]string{{"-f", "file"}, {"-s", "source"}} {
				if v, ok := optValue(args, o[0], o[1]); ok {
					out = append(out, lit(v))
				}
			}
		}
	case "oras":
		// oras push REF FILE[:mediatype]...: the files become an
		// artifact on the registry
		ops := c.operands()
		if len(ops) >= 3 && ops[0].s == "push" {
			for _, w := range ops[2:] {
				f := w.s
				// (FILE:application/yaml: the media type after the colon;
				// C:\x is a drive)
				if i := strings.IndexByte(f, ':'); i > 1 && !strings.HasPrefix(f[i+1:], "/") && !strings.HasPrefix(f[i+1:], `\`) {
					f = f[:i]
				}
				out = append(out, word{s: f, ok: w.ok})
			}
		}
	case "hping3", "hping":
		// hping3 -E FILE: the file's bytes are the packets' payload
		if v, ok := optValue(args, "-E", "file"); ok {
			out = append(out, lit(v))
		}
	case "mc", "mcli":
		// mc cp|mirror|put SRC... ALIAS/BUCKET/PATH: local sources go to
		// the server behind the alias
		ops := c.operands()
		if len(ops) >= 3 && (ops[0].s == "cp" || ops[0].s == "mirror" || ops[0].s == "put") && mcRemote(ops[len(ops)-1].s) {
			for _, w := range ops[1 : len(ops)-1] {
				if !mcRemote(w.s) {
					out = append(out, w)
				}
			}
		}
	case "git":
		// git send-email FILES: each file goes out as a mail
		if len(args) > 1 && args[0].s == "send-email" {
			out = append(out, posArgs(args[1:], optSpec{long: []string{"to", "cc", "bcc", "from", "smtp-server", "smtp-user", "smtp-server-port", "subject", "in-reply-to"}})...)
		}
	case "gh":
		// an issue's, pull request's or comment's body read from a file
		if len(args) > 1 && (args[0].s == "issue" || args[0].s == "pr") {
			if v, ok := optValue(args, "-F", "body-file"); ok && v != "-" {
				out = append(out, lit(v))
			}
		}
		if len(args) > 1 && args[0].s == "api" {
			// gh api -F key=@FILE (a field read from the file), --input FILE
			for i, w := range args {
				s := w.s
				if (s == "-F" || s == "--field") && i+1 < len(args) {
					s = args[i+1].s
				} else if v, ok := strings.CutPrefix(s, "--field="); ok {
					s = v
				} else {
					s = ""
				}
				if _, v, ok := strings.Cut(s, "=@"); ok && v != "" && v != "-" {
					out = append(out, lit(v))
				}
			}
			if v, ok := optValue(args, "", "input"); ok && v != "-" {
				out = append(out, lit(v))
			}
		}
		if len(args) > 1 && args[0].s == "gist" && args[1].s == "create" {
			out = append(out, positional(args[2:])...)
		}
		if len(args) > 1 && args[0].s == "release" && args[1].s == "upload" {
			out = append(out, positional(args[2:])...)
		}
		if len(args) > 3 && args[0].s == "release" && args[1].s == "create" {
			// gh release create TAG FILES...: each file is an asset
			if ops := positional(args[2:]); len(ops) > 1 {
				out = append(out, ops[1:]...)
			}
		}
	case "swaks":
		// swaks --attach FILE (or @FILE): the file goes out in the mail;
		// --body @FILE and --data @FILE read the message from it
		for i, w := range args {
			if (w.s == "--attach" || w.s == "--attach-body") && i+1 < len(args) {
				out = append(out, lit(strings.TrimPrefix(args[i+1].s, "@")))
			}
			if (w.s == "--body" || w.s == "--data") && i+1 < len(args) && strings.HasPrefix(args[i+1].s, "@") {
				out = append(out, lit(args[i+1].s[1:]))
			}
		}
	case "mosquitto_pub":
		// mosquitto_pub -f FILE: the file is the message
		if f, ok := optValue(args, "-f", "file"); ok {
			out = append(out, lit(f))
		}
	case "tailscale":
		// tailscale file cp FILES... NODE: every file goes to the node
		if len(args) > 3 && args[0].s == "file" && args[1].s == "cp" {
			out = append(out, positional(args[2:len(args)-1])...)
		}
	case "mail", "mailx", "mutt":
		if f, ok := optValue(args, "-A", "attach"); ok {
			out = append(out, lit(f))
		}
		if f, ok := optValue(args, "-a", ""); ok {
			out = append(out, lit(f))
		}
	}
	return out
}

func isRemoteSpec(s string) bool {
	if rest, ok := strings.CutPrefix(s, ":"); ok && strings.Contains(rest, ":") && rest[0] != ':' {
		return true // rclone's remote made on the fly (:sftp,host=H:/path)
	}
	i := strings.IndexByte(s, ':')
	if i <= 0 || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") {
		return false
	}
	host := s[:i]
	return !strings.Contains(host, "/") && host != "C"
}

// curlBundleEnds reports bundled short options ending in the one that
// takes a value (-sF, -sSd), so the next word is that option's value.
func curlBundleEnds(s string, last byte) bool {
	if len(s) < 3 || s[0] != '-' || s[1] == '-' || s[len(s)-1] != last {
		return false
	}
	for _, r := range s[1 : len(s)-1] {
		if !strings.ContainsRune("sSfLkvi", r) {
			return false
		}
	}
	return true
}

// tokenIssuers ties words in the names of secret variables to the hosts
// of the service that issued them. A GitHub token sent to api.github.com
// signs a request in; the same token sent to any other host is given
// away. A self-hosted instance keeps the service's name in its host
// (gitlab.corp.example, ghe.corp.example for GitHub Enterprise), so a
// host naming the service counts as its own.
var tokenIssuers = [...]struct {
	word  string
	hosts []string
}{
	{"github", []string{"github.com", "githubusercontent.com", "ghcr.io", "github", "ghe"}},
	// GitLab CI's job token and registry password, for GitLab and its
	// registry (on the company's own host, named gitlab or registry)
	{"ci_job_token", []string{"gitlab", "registry"}}, {"ci_registry_password", []string{"gitlab", "registry"}},
	{"ci_deploy_password", []string{"gitlab", "registry"}},
	// the Azure and Google Cloud CLIs' access tokens, for their own APIs
	{"azure_cli", []string{"graph.microsoft.com", "management.azure.com", "vault.azure.net", "login.microsoftonline.com", "dev.azure.com", "database.windows.net", "azurecr.io"}},
	{"gcloud_cli", []string{"googleapis.com", "gcr.io", "pkg.dev"}},
	{"gh_", []string{"github.com", "githubusercontent.com", "ghcr.io", "github", "ghe"}},
	{"ghe_", []string{"github", "ghe"}},
	{"gitlab", []string{"gitlab"}},
	{"npm", []string{"npmjs.org", "npmjs.com", "npm"}},
	{"nuget", []string{"nuget.org", "nuget"}},
	{"pypi", []string{"pypi.org", "pypi"}},
	{"openai", []string{"openai.com", "openai.azure.com"}},
	{"anthropic", []string{"anthropic.com"}},
	{"azdo", []string{"dev.azure.com", "visualstudio.com", "azure"}},
	{"azure_devops", []string{"dev.azure.com", "visualstudio.com", "azure"}},
	{"ado_", []string{"dev.azure.com", "visualstudio.com", "azure"}},
	{"huggingface", []string{"huggingface.co", "hf.co"}},
	{"hf_", []string{"huggingface.co", "hf.co"}},
	{"slack", []string{"slack.com"}},
	{"stripe", []string{"stripe.com"}},
	{"qbo_", []string{"intuit.com"}}, {"quickbooks", []string{"intuit.com"}},
	{"sentry", []string{"sentry.io", "sentry"}},
	{"docker", []string{"docker.com", "docker.io", "docker"}},
	{"cloudflare", []string{"cloudflare.com"}},
	{"vercel", []string{"vercel.com"}},
	{"netlify", []string{"netlify.com"}},
	{"heroku", []string{"heroku.com"}},
	{"atlassian", []string{"atlassian.net", "atlassian.com"}},
	{"jira", []string{"atlassian.net", "jira"}},
	{"confluence", []string{"atlassian.net", "confluence"}},
	{"hubspot", []string{"hubapi.com", "hubspot.com"}},
	{"canvas", []string{"instructure.com", "canvas"}},
	{"godaddy", []string{"godaddy.com", "ote-godaddy.com"}}, {"gd_", []string{"godaddy.com", "ote-godaddy.com"}},
	{"porkbun", []string{"porkbun.com"}}, {"namecheap", []string{"namecheap.com"}},
	{"fastly", []string{"fastly.com"}}, {"akamai", []string{"akamaiapis.net", "akamai.com"}},
	{"gemini", []string{"googleapis.com"}},
	{"hcloud", []string{"hetzner.cloud", "hetzner.com"}},
	{"digitalocean", []string{"digitalocean.com"}},
	{"scw_", []string{"scaleway.com"}},
	{"linode", []string{"linode.com"}},
	{"vultr", []string{"vultr.com"}},
	{"render_", []string{"render.com"}},
	{"circle", []string{"circleci.com"}},
	{"bitbucket", []string{"bitbucket.org", "atlassian.com", "bitbucket"}},
	// commercetools' CTP_ variables, CrowdStrike Falcon's API, Shopify's
	// shops, Algolia's API
	{"ctp_", []string{"commercetools.com", "commercetools.co"}},
	{"falcon", []string{"crowdstrike.com"}},
	{"shopify", []string{"myshopify.com", "shopify.com"}},
	{"algolia", []string{"algolia.net", "algolianet.com", "algolia.com", "algolia.io"}},
}

// selfHostedServices name services run on the organisation's own hosts
// under any name (git.acme.internal for Gitea), so no host tells their
// tokens' issuer from a stranger.
var selfHostedServices = map[string]bool{"gitea": true, "forgejo": true, "jenkins": true, "harbor": true, "nexus": true, "artifactory": true,
	"sonar": true, "sonarqube": true, "grafana": true, "drone": true, "woodpecker": true, "mattermost": true, "keycloak": true, "minio": true,
	"nomad": true, "consul": true, "argocd": true, "rancher": true, "portainer": true, "gogs": true, "teamcity": true, "youtrack": true,
	"twine": true} // twine's own TWINE_PASSWORD is for whichever index it uploads to

// foreignToIssuer reports a secret variable named for a service
// (GITHUB_TOKEN, OPENAI_API_KEY, AZDO_PAT, LINEAR_API_KEY) sent to host,
// a public host that is not the service's: for the services of
// tokenIssuers, none of their hosts; for others, a host without the name's
// first word in it. Secrets named for no service may be meant for the
// very host they go to, and bare addresses have rules of their own.
func foreignToIssuer(name, host string) bool {
	host = strings.ToLower(host)
	if host == "" || isLocalHost(host) || localOnlyName(host) || !strings.Contains(host, ".") || strings.Contains(host, "$") {
		return false
	}
	if _, ok := parseIP(host); ok {
		return false
	}
	n := strings.ToLower(name)
	for _, ti := range tokenIssuers {
		// short words (gh_, hf_, ado_) only begin a name: HIGH_SCORE is
		// no GitHub token
		if strings.HasSuffix(ti.word, "_") && !strings.HasPrefix(n, ti.word) || !strings.Contains(n, ti.word) {
			continue
		}
		for _, h := range ti.hosts {
			if !strings.Contains(h, ".") {
				// a self-hosted instance: the word is a label of the host
				// or begins one (npm.corp.example, gitlab-ci.acme.io), not
				// a look-alike's (registry.npm-mirror.xyz)
				if hostLabelNamed(host, h) {
					return false
				}
				continue
			}
			if host == h || strings.HasSuffix(host, "."+h) {
				return false
			}
		}
		return true
	}
	service, _, _ := strings.Cut(n, "_")
	for _, h := range serviceAliases[service] {
		if host == h || strings.HasSuffix(host, "."+h) {
			return false // META_TOKEN to graph.facebook.com
		}
	}
	return len(service) >= 3 && !genericSecretWords[service] && !selfHostedServices[service] && !strings.Contains(host, service)
}

// knownIssuer reports a secret variable whose name says which service's
// hosts it belongs to (a word of tokenIssuers, or an alias): only such a
// name makes a host foreign on its own. ETRM_TOKEN or WHM_TOKEN in the
// Authorization header of a request to an API whose host does not hold
// the word is how an in-house or hosted service is signed in to.
func knownIssuer(name string) bool {
	n := strings.ToLower(name)
	for _, ti := range tokenIssuers {
		if strings.HasSuffix(ti.word, "_") && strings.HasPrefix(n, ti.word) || !strings.HasSuffix(ti.word, "_") && strings.Contains(n, ti.word) {
			return true
		}
	}
	service, _, _ := strings.Cut(n, "_")
	return len(serviceAliases[service]) > 0
}

// serviceAliases are the hosts of services whose variables are named by
// a short or older name the hosts do not hold: Meta's Graph API at
// facebook.com, Google's Tag Manager, Ads and Analytics (GTM_, GADS_,
// GA4_, GCP_) at googleapis.com, Customer.io (CIO_).
var serviceAliases = map[string][]string{
	"meta": {"facebook.com", "instagram.com", "whatsapp.com", "fb.com"}, "fb": {"facebook.com"}, "ig": {"instagram.com", "facebook.com"},
	"gtm": {"googleapis.com"}, "gads": {"googleapis.com"}, "ga4": {"googleapis.com", "google-analytics.com"}, "gcp": {"googleapis.com"},
	"cio": {"customer.io"}, "msgraph": {"graph.microsoft.com"}, "sfdc": {"salesforce.com", "force.com"}, "amp": {"amplitude.com"},
	"vonage": {"nexmo.com", "vonage.com"}, "nexmo": {"nexmo.com", "vonage.com"},
}

// hostLabelNamed reports a host one of whose labels is word, or begins
// with it followed by a digit or a hyphen that is not a mirror's
// (gitlab2, ghe-eu; not npm-mirror).
func hostLabelNamed(host, word string) bool {
	for l := range strings.SplitSeq(host, ".") {
		if l == word {
			return true
		}
		if rest, ok := strings.CutPrefix(l, word); ok && rest != "" && (rest[0] >= '0' && rest[0] <= '9' || rest[0] == '-' && !strings.Contains(rest, "mirror") && !strings.Contains(rest, "proxy") && !strings.Contains(rest, "cdn")) {
			return true
		}
		if strings.HasSuffix(l, "-"+word) || strings.Contains(l, "-"+word+"-") {
			return true // acme-gitlab, corp-registry-eu
		}
	}
	return false
}

// genericSecretWords are the words of secret variables' names that name
// no service (API_TOKEN, DEPLOY_KEY, CI_JOB_TOKEN).
var genericSecretWords = map[string]bool{"api": true, "auth": true, "access": true, "secret": true, "private": true, "app": true,
	"my": true, "user": true, "session": true, "token": true, "password": true, "passwd": true, "client": true, "service": true,
	"bot": true, "admin": true, "root": true, "prod": true, "production": true, "dev": true, "test": true, "staging": true,
	"local": true, "deploy": true, "webhook": true, "refresh": true, "bearer": true, "basic": true, "master": true, "signing": true,
	"encryption": true, "jwt": true, "ssh": true, "gpg": true, "pat": true, "job": true, "build": true, "release": true, "key": true,
	"db": true, "database": true, "server": true, "backend": true, "frontend": true, "web": true, "http": true, "oauth": true}
