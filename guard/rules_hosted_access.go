package guard

import "strings"

// Access to hosted resources opened by a client nobody listed (a second
// cloud's, a storage provider's, an identity service's): the same words
// mean the same thing across clients, so they are read from the words
// alone. Clients with rules of their own are judged by those.
var hostedAccessRules = []*rule{
	{ID: "cli-firewall-open-world", Level: LevelHigh, Category: CategoryPermission, Description: "a firewall or security-group rule opening a remote-administration or database port to every address",
		Suggestions: []string{"Allow only the addresses that need access (your office or VPN range)", "Open only the web ports (80, 443) to everyone"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 3 {
				return false, ""
			}
			if (c.name == "terraform" || c.name == "tofu" || c.name == "terragrunt") && hasWord(c.args(), "apply") {
				// terraform apply -var 'allowed_cidrs=["0.0.0.0/0"]': the
				// module's allow list given every address
				for _, w := range c.args() {
					k, v, ok := strings.Cut(strings.TrimPrefix(w.s, "-var="), "=")
					if lk := lower(k); ok && hasAny(lk, "cidr", "allowed", "source", "ingress", "whitelist", "allowlist", "ip_range", "ranges") && strings.Contains(v, "0.0.0.0/0") {
						return true, c.name + " -var " + w.s
					}
				}
				return false, ""
			}
			if c.name == "az" && len(c.words) > 3 && c.words[1].s == "vm" && c.words[2].s == "open-port" {
				// az vm open-port --port P: P let in from every address
				// (the rule it adds has no source)
				if p, ok := optValue(c.args(), "", "port"); ok && (p == "*" || openedPortRisky(p)) {
					return true, "az vm open-port --port " + p
				}
				return false, ""
			}
			if len(c.words) < 4 || ownCloudRules[c.name] || cliDestroyExempt[c.name] || fetchers[c.name] {
				return false, ""
			}
			args, low := c.args(), c.lowerArgs()
			world, rulish, accessList := false, false, false
			for i, l := range low {
				v := l
				if j := strings.IndexByte(v, '='); j >= 0 {
					v = v[j+1:]
				}
				if v == "0.0.0.0/0" || v == "::/0" || v == "0.0.0.0" && i+2 < len(low) && (low[i+1] == "--size" || low[i+1] == "--prefix") && low[i+2] == "0" {
					world = true
				}
				if i < 6 && !strings.HasPrefix(l, "-") && (strings.Contains(l, "firewall") || strings.Contains(l, "security-group") || strings.Contains(l, "secgroup") ||
					strings.Contains(l, "rule") || strings.Contains(l, "ingress") || l == "inbound" || strings.Contains(l, "allow")) {
					rulish = true
				}
				if l == "direction=inbound" || l == "inbound" || l == "--ingress" {
					rulish = true
				}
				if i < 6 && hasAny(l, "accesslist", "access-list", "ip-allowlist", "ipallowlist", "authorized-networks", "whitelist", "allowlist") {
					accessList = true
				}
			}
			if world && accessList {
				// atlas accessLists create 0.0.0.0/0: a database service's
				// address allow list that lets every address in
				return true, c.name + " access list open to every address"
			}
			if !world || !rulish {
				return false, ""
			}
			for i, w := range args {
				for _, p := range portsIn(w.s, low, i) {
					if sensitivePorts(p) {
						return true, c.name + " port " + p + " open to every address"
					}
				}
			}
			return false, ""
		}},
	{ID: "cli-public-acl", Level: LevelHigh, Category: CategoryPermission, Description: "making a bucket or its objects readable by everyone",
		Suggestions: []string{"Share single objects through signed URLs that expire", "Keep backups and exports private"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 3 || ownCloudRules[c.name] || cliDestroyExempt[c.name] || fetchers[c.name] {
				return false, ""
			}
			low := c.lowerArgs()
			public, aclVerb := false, false
			for i, l := range low {
				v := strings.TrimPrefix(strings.TrimPrefix(l, "--acl="), "acl=")
				if v == "public-read" || v == "public-read-write" || v == "--acl-public" || v == "allusers:r" || v == "allusers:read" {
					public = true
				}
				if i < 5 && !strings.HasPrefix(l, "-") && strings.Contains(l, "acl") || l == "--acl-public" {
					aclVerb = true
				}
			}
			if !public || !aclVerb {
				return false, ""
			}
			for _, w := range c.operands() {
				if l := lower(w.s); l != "public-read" && l != "public-read-write" && (strings.Contains(l, "://") || strings.Contains(l, "-")) {
					if publicContent(l) {
						return false, ""
					}
				}
			}
			return true, c.name + " public-read"
		}},
	{ID: "cli-admin-grant", Level: LevelHigh, Category: CategoryPrivilege, Description: "granting an administrator or owner role on a hosted account or project",
		Suggestions: []string{"Grant the narrowest role that does the job", "Let an administrator grant roles"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 4 || ownCloudRules[c.name] || cliDestroyExempt[c.name] || fetchers[c.name] {
				return false, ""
			}
			_, verb := clientVerb(c, vGrant)
			if verb == "" {
				return false, ""
			}
			args, low := c.args(), c.lowerArgs()
			role := verb == "promote" // members promote bob --to owner
			for _, l := range low {
				role = role || strings.Contains(l, "role")
			}
			if !role {
				return false, ""
			}
			for i, l := range low {
				v := l
				if j := strings.IndexByte(v, '='); j >= 0 && strings.HasPrefix(v, "-") {
					v = v[j+1:]
				}
				// a role option's value naming an administrator role by id
				// (--roles rol_TenantAdmin01)
				roleValue := strings.HasPrefix(l, "--role") || i > 0 && (low[i-1] == "--role" || low[i-1] == "--roles" || low[i-1] == "-r")
				for r := range strings.SplitSeq(strings.Trim(v, `"'`), ",") {
					if roleValue && strings.Contains(r, "admin") && !hasAny(r, "read", "view", "audit") {
						r = "admin"
					}
					switch r {
					case "admin", "administrator", "owner", "superadmin", "super-admin", "super_admin", "org-admin", "account-admin", "accountadmin", "root":
						for _, w := range c.operands() {
							if !strings.Contains(w.s, "@") && scratchName(w.s) {
								return false, ""
							}
						}
						return true, c.name + " " + args[i].s
					}
				}
			}
			return false, ""
		}},
	{ID: "cli-ownership-transfer", Level: LevelCritical, Category: CategoryPrivilege, Description: "handing a hosted app, project or repository to another owner or organisation",
		Suggestions: []string{"Let the owner transfer it in the web console"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 3 || cliDestroyExempt[c.name] && c.name != "gh" && c.name != "glab" && c.name != "az" || fetchers[c.name] {
				return false, ""
			}
			args, low := c.args(), c.lowerArgs()
			if (c.name == "gh" || c.name == "glab") && len(low) > 1 && low[0] == "api" {
				for _, w := range args[1:] {
					if p := strings.Trim(w.s, `"'`); !strings.HasPrefix(p, "-") && (strings.HasSuffix(p, "/transfer") || strings.Contains(p, "/transfer?")) {
						return true, c.name + " api " + p
					}
				}
				return false, ""
			}
			if c.name == "gh" || c.name == "glab" || dataTransferClients[c.name] {
				return false, "" // (globus transfer copies data between endpoints)
			}
			for i, l := range low {
				if i > 3 || strings.HasPrefix(l, "-") {
					break
				}
				_, v, _ := strings.Cut(l, ":")
				if l == "transfer" || v == "transfer" || l == "transfer-ownership" || l == "change-owner" {
					return true, c.name + " " + args[i].s
				}
				if l == "move" || v == "move" {
					for _, o := range [...]string{"org", "organization", "team", "owner", "namespace"} {
						if _, ok := optValue(args, "", o); ok {
							return true, c.name + " " + args[i].s + " --" + o
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "cli-made-public", Level: LevelHigh, Category: CategoryPermission, Description: "making an existing private repository, project or app visible to everyone",
		Suggestions: []string{"Ask the owner before publishing", "Publish a copy that has been reviewed for secrets"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 3 || cliDestroyExempt[c.name] && c.name != "gh" && c.name != "glab" && c.name != "az" || fetchers[c.name] {
				return false, ""
			}
			sub, verb := clientVerb(c, vPublish)
			if verb == "" {
				return false, ""
			}
			low := c.lowerArgs()
			public := ""
			for i, l := range low {
				switch {
				case l == "--visibility" || l == "--privacy" || l == "--access":
					if i+1 < len(low) && low[i+1] == "public" {
						public = l + " public"
					}
				case l == "--visibility=public" || l == "visibility=public" || l == "--privacy=public" || l == "--private=false" || l == "private=false" ||
					l == "--public" || l == "--public=true" || l == "--no-private":
					public = l
				case l == "--private" && i+1 < len(low) && low[i+1] == "false":
					public = "--private false"
				case (verb == "visibility" || l == "set-visibility") && i+1 < len(low) && low[i+1] == "public":
					public = "visibility public"
				case l == "--anonymous-pull-enabled" && i+1 < len(low) && low[i+1] == "true", l == "--anonymous-pull-enabled=true":
					public = "anonymous pulls" // a registry anyone can pull from
				}
			}
			if public == "" {
				return false, ""
			}
			for _, w := range c.operands() {
				if l := lower(w.s); l != "public" && l != "false" && (publicContent(l) || scratchName(strings.ReplaceAll(l, "example.", ""))) {
					return false, "" // a site, docs, or a demo meant to be seen
				}
			}
			return true, c.name + " " + strings.Join(sub.list(), " ") + " " + public
		}},
	{ID: "cli-login-key-pasted", Level: LevelHigh, Category: CategoryPersistence, Description: "adding a login key pasted into the command to a hosted account or server",
		Suggestions: []string{"Add your own key from ~/.ssh", "Let the account owner add other people's keys"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) >= 3 && (c.name == "curl" || c.name == "http" || c.name == "https" || c.name == "xh") && a.srcHint(hintPastedKey, func(s string) bool { return hasAny(s, "AAAA", "ecdsa-sha2-", "sk-ssh-") }) {
				// curl -X POST https://api.github.com/user/keys -d
				// '{"key":"ssh-ed25519 AAAA…"}': a key pasted into the
				// body added to the account (a key read from ~/.ssh is the
				// user's own)
				for _, w := range c.args() {
					if u := lower(w.s); strings.Contains(u, "://") && (strings.HasSuffix(strings.TrimRight(u, "/"), "/user/keys") || strings.Contains(u, "/ssh_keys") ||
						strings.Contains(u, "/ssh-keys") || strings.HasSuffix(strings.TrimRight(u, "/"), "/account/keys")) {
						for _, b := range c.args() {
							if strings.Contains(b.s, "ssh-ed25519 AAAA") || strings.Contains(b.s, "ssh-rsa AAAA") || strings.Contains(b.s, "ecdsa-sha2-") {
								return true, c.name + " " + w.s + " (a pasted public key)"
							}
						}
					}
				}
				return false, ""
			}
			if len(c.words) < 3 || fetchers[c.name] || c.name == "echo" || c.name == "printf" || c.name == "ssh-keygen" {
				return false, ""
			}
			if a.srcHint(hintPastedKey, func(s string) bool { return hasAny(s, "AAAA", "ecdsa-sha2-", "sk-ssh-") }) && pastedKeyArg(c) && appendsAuthorizedKey(c.name, c.argsText()) {
				// ssh host "echo 'ssh-ed25519 AAAA… x@tmp' >>
				// ~/.ssh/authorized_keys", salt ssh.set_auth_key, ansible's
				// authorized_key module: someone else's key let in there
				return true, c.name + " (a pasted public key added to authorized_keys)"
			}
			sub, verb := clientVerb(c, vKeyAdd)
			if verb == "" {
				return false, ""
			}
			keyish := false
			for _, s := range sub.list() {
				keyish = keyish || strings.Contains(s, "key") || strings.Contains(s, "ssh")
			}
			if !keyish {
				return false, ""
			}
			for _, w := range c.args() {
				v := strings.Trim(w.s, `"'`)
				if _, after, ok := strings.Cut(v, "="); ok && strings.HasPrefix(v, "-") {
					v = after
				}
				if strings.HasPrefix(v, "ssh-rsa ") || strings.HasPrefix(v, "ssh-ed25519 ") || strings.HasPrefix(v, "ecdsa-sha2-") || strings.HasPrefix(v, "sk-ssh-ed25519") {
					return true, c.name + " " + strings.Join(sub.list(), " ") + " (a pasted public key)"
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, hostedAccessRules) }

// pastedLoginKey reports text holding an SSH public key itself (its type
// and body, or the body alone), not a file that holds one.
func pastedLoginKey(s string) bool {
	for _, k := range [...]string{"ssh-rsa AAAA", "ssh-ed25519 AAAA", "ecdsa-sha2-", "sk-ssh-ed25519", "AAAAB3NzaC1yc2E", "AAAAC3NzaC1lZDI1NTE5", "AAAAE2VjZHNh"} {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// pastedKeyArg reports an argument holding a pasted public key.
func pastedKeyArg(c *cmd) bool {
	for _, w := range c.args() {
		if pastedLoginKey(w.s) {
			return true
		}
	}
	return false
}

// appendsAuthorizedKey reports a remote command or a configuration
// tool's call that adds a key to a machine's authorized_keys: an append
// or a tee there, salt's ssh.set_auth_key, ansible's authorized_key
// module (unless state=absent).
func appendsAuthorizedKey(name, j string) bool {
	l := lower(j)
	switch {
	case strings.Contains(l, "set_auth_key"):
		return true
	case (name == "ansible" || name == "ansible-playbook") && strings.Contains(l, "authorized_key"):
		return !strings.Contains(l, "state=absent")
	case strings.Contains(l, "authorized_keys"):
		return strings.Contains(l, ">>") || strings.Contains(l, "tee ")
	}
	return false
}

// ownCloudRules are the clouds' clients whose firewall, ACL and role
// commands rules of their own judge.
var ownCloudRules = map[string]bool{"aws": true, "az": true, "gcloud": true, "gsutil": true, "doctl": true, "hcloud": true, "kubectl": true, "oc": true}

// portsIn reads the ports a word names: 22, --port 22, --port-min=22,
// dest-port-from=22, tcp:22, 22/tcp, 20-25.
func portsIn(s string, low []string, i int) []string {
	l := lower(strings.Trim(s, `"'`))
	if strings.HasPrefix(l, "-") {
		if j := strings.IndexByte(l, '='); j >= 0 && strings.Contains(l[:j], "port") {
			return []string{l[j+1:]}
		}
		if strings.Contains(l, "port") && i+1 < len(low) {
			return []string{low[i+1]}
		}
		return nil
	}
	if k, v, ok := strings.Cut(l, "="); ok && strings.Contains(k, "port") {
		return []string{v}
	}
	if p, ok := strings.CutPrefix(l, "tcp:"); ok {
		return []string{p}
	}
	if p, ok := strings.CutSuffix(l, "/tcp"); ok {
		return []string{p}
	}
	return nil
}

// publicContent reports a bucket named for what is meant to be public: a
// site, its static assets, downloads, documentation.
func publicContent(s string) bool {
	l := lower(s)
	for _, m := range [...]string{"site", "static", "public", "cdn", "docs", "www", "website", "assets", "download", "release"} {
		if strings.Contains(l, m) {
			return true
		}
	}
	return false
}

// dataTransferClients are clients whose "transfer" copies data between
// storage endpoints rather than handing anything to a new owner.
var dataTransferClients = map[string]bool{"globus": true, "gsutil": true, "azcopy": true, "strapi": true}
