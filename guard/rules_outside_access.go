package guard

import "strings"

// Rights given to someone outside the team: a personal mailbox, a
// directory's guest, a contractor's, vendor's or partner's identity
// invited, made a member, given a role, a share or a token, through any
// client or a service's API. Who receives the rights decides, not the
// vendor: the same words mean the same thing across clients. Removing
// such an account's rights, listing them and looking them up pass.
var outsideAccessRules = []*rule{
	{ID: "access-granted-outside", Level: LevelCritical, Category: CategoryPrivilege, Description: "giving an outside account (a personal mailbox, a guest, a contractor's, vendor's or partner's identity) rights on the team's accounts, resources or secrets",
		Suggestions: []string{"Invite people through the team's access process, to their company account, with an expiry", "Share one item with the narrowest role, reviewed by its owner"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 3 {
				return false, ""
			}
			who, bare := outsideIdentity(a, c)
			if who == "" {
				return false, ""
			}
			if readOnlyGrant(c) && !touchesProduction(c) || dryRun(c) || hasFoldWord(c.args(), "--dry-run") || hasFoldWord(c.args(), "-whatif") {
				return false, "" // -Role Reader outside production; a dry run
			}
			// a bare name (yarn add partner-sdk) is an account only
			// where the call is about accounts (group addmembers, acl
			// setuser, team add)
			if how, accounts := grantsAccess(c); how != "" && (!bare || accounts) {
				return true, who + " given rights (" + how + ")"
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, outsideAccessRules) }

// outsideIdentity returns the outside account c names: an address at a
// personal mail service, a directory guest (#EXT#), or a user, member
// or principal whose name says contractor, vendor, partner, external.
// bare tells a name that stood alone among the arguments, not given to
// an option naming who receives.
func outsideIdentity(a *analysis, c *cmd) (who string, bare bool) {
	if !outsiderHint(a) {
		return "", false
	}
	low := c.lowerArgs()
	identOpt := false
	for i, w := range c.args() {
		v := strings.Trim(w.s, `"'`)
		l := low[i]
		if strings.Contains(l, "#ext#") {
			return v, false // a guest of the directory
		}
		if e := outsideEmailIn(strings.Trim(l, `"'`)); e != "" {
			return e, false
		}
		if strings.HasPrefix(v, "-") {
			name, val, eq := strings.Cut(v, "=")
			name = lower(name)
			if eq && identityOption(name) && outsiderName(val) {
				return val, false
			}
			identOpt = !eq && identityOption(name)
			continue
		}
		if identOpt && outsiderName(v) {
			return v, false
		}
		identOpt = false
		if i > 0 && !strings.ContainsAny(v, `/\:`) && outsiderName(v) {
			return v, true // addmembers "Domain Admins" ext_tech
		}
	}
	return "", false
}

// outsiderHint reports a line that may name an outside account: an
// address, or an outsider's word somewhere in it.
func outsiderHint(a *analysis) bool {
	return a.srcHint(hintOutsider, func(s string) bool {
		return strings.IndexByte(s, '@') >= 0 || hasAnyFold(s, "ext", "partner", "vendor", "contract", "freelanc", "consult", "outside")
	})
}

// identityOption reports an option naming who receives something.
func identityOption(name string) bool {
	n := strings.TrimLeft(name, "-")
	return hasAny(n, "user", "member", "assignee", "email", "principal", "grantee", "login", "invitee", "collaborator", "account") ||
		n == "name" || n == "display-name" || n == "displayname" || n == "signinname" || n == "identity" || n == "to"
}

// outsiderWords are the parts of a name that say it belongs to someone
// outside the team.
var outsiderWords = map[string]bool{"ext": true, "external": true, "contractor": true, "contractors": true, "vendor": true, "vendors": true,
	"partner": true, "partners": true, "freelance": true, "freelancer": true, "outsider": true, "outside": true, "consultant": true,
	"consulting": true, "thirdparty": true}

// outsiderName reports a user or principal name with an outsider word
// among its parts (ext-sync, partner_ops, dba.freelance, role/VendorRole,
// "partner access").
func outsiderName(s string) bool {
	for _, p := range wordParts(s) {
		if outsiderWords[p] {
			return true
		}
	}
	return false
}

// personalMail are mail services whose addresses belong to persons, not
// to the team.
var personalMail = map[string]bool{"gmail": true, "googlemail": true, "outlook": true, "hotmail": true, "live": true, "yahoo": true,
	"protonmail": true, "proton": true, "pm": true, "tutanota": true, "tuta": true, "icloud": true, "me": true, "gmx": true, "yandex": true,
	"aol": true, "zoho": true, "fastmail": true, "mailinator": true, "guerrillamail": true, "qq": true, "163": true, "mail": true,
	"mailbox": true, "posteo": true, "disroot": true, "hey": true, "duck": true, "rambler": true, "inbox": true}

// outsideEmailIn returns the first address in s at a personal mail
// service or an outsider's domain.
func outsideEmailIn(s string) string {
	for off := 0; ; {
		i := strings.IndexByte(s[off:], '@')
		if i < 0 {
			return ""
		}
		i += off
		off = i + 1
		j := i + 1
		for j < len(s) && (isAlnum(s[j]) || s[j] == '.' || s[j] == '-') {
			j++
		}
		k := i
		for k > 0 && (isAlnum(s[k-1]) || s[k-1] == '.' || s[k-1] == '-' || s[k-1] == '_' || s[k-1] == '+') {
			k--
		}
		domain := s[i+1 : j]
		dot := strings.IndexByte(domain, '.')
		if k == i || dot <= 0 {
			continue // user@host of a URL or ssh, a decorator
		}
		// (sync@partner-analytics.iam.gserviceaccount.com is a partner's;
		// partner-sync@acme-prod.iam.gserviceaccount.com the team's own)
		if personalMail[domain[:dot]] || outsiderName(domain) || outsiderName(s[k:i]) && !strings.Contains(domain, "gserviceaccount") {
			return s[k:j]
		}
	}
}

// grantRevokes are words of a call that takes rights away or only looks.
var grantRevokes = map[string]bool{"remove": true, "delete": true, "revoke": true, "deactivate": true, "detach": true, "unshare": true,
	"disassociate": true, "rm": true, "list": true, "ls": true, "get": true, "show": true, "describe": true, "simulate": true, "what": true,
	"view": true, "search": true, "check": true, "deny": true, "suspend": true, "block": true, "ban": true, "kick": true, "unassign": true,
	"unbind": true, "uninvite": true, "expire": true, "disable": true, "lookup": true, "audit": true, "test": true, "whoami": true}

// grantVerbs are words of a call that gives rights.
var grantVerbs = map[string]bool{"add": true, "invite": true, "invites": true, "invitation": true, "invitations": true, "grant": true,
	"share": true, "assign": true, "attach": true, "associate": true, "addmembers": true, "setuser": true, "bind": true, "promote": true,
	"collaborators": true, "memberships": true}

// grantNouns are what a create gives: an account, a membership, a token.
var grantNouns = map[string]bool{"user": true, "users": true, "member": true, "members": true, "token": true, "tokens": true, "grant": true,
	"entry": true, "binding": true, "rolebinding": true, "clusterrolebinding": true, "auth": true, "access": true, "admin": true, "account": true,
	"identitymapping": true, "role": true, "roles": true}

// accountNouns are words of a call about accounts and their rights.
var accountNouns = map[string]bool{"user": true, "users": true, "member": true, "members": true, "group": true, "groups": true, "team": true,
	"teams": true, "role": true, "roles": true, "acl": true, "admin": true, "access": true, "collaborator": true, "collaborators": true,
	"membership": true, "memberships": true, "setuser": true, "addmembers": true, "account": true, "principal": true, "owner": true, "owners": true,
	"token": true, "tokens": true, "auth": true}

// grantsAccess reports how c gives rights: its client's subcommand or
// cmdlet words, or an API call adding members, roles, invitations or
// shares. It is empty when the call takes rights away or only looks.
// accounts tells a call whose words are about accounts.
func grantsAccess(c *cmd) (how string, accounts bool) {
	if h, ok := readHTTPCall(c); ok && fetchers[c.name] || ok && strings.HasPrefix(c.name, "invoke-") {
		if h.method != "POST" && h.method != "PUT" && h.method != "PATCH" {
			return "", false
		}
		u := h.url
		if q := strings.IndexByte(u, '?'); q >= 0 {
			u = u[:q]
		}
		grant := false
		for _, p := range wordParts(u) {
			if grantRevokes[p] {
				return "", false
			}
			switch p {
			case "users", "roles", "acl", "access", "shares", "share", "grants":
				grant = true
			}
			// (the URL is lower case: conversations.inviteshared)
			grant = grant || hasAny(p, "member", "collaborator", "invite", "invitation", "permission", "admins", "owners")
		}
		if grant {
			return h.method + " " + h.url, true
		}
		return "", false
	}
	var parts []string
	parts = append(parts, wordParts(c.base)...)
	n := 0
	for i, w := range c.args() {
		if strings.HasPrefix(w.s, "-") {
			if v, ok := strings.CutPrefix(lower(w.s), "--action="); ok {
				parts = append(parts, v)
			} else if lower(w.s) == "--action" && i+1 < len(c.args()) {
				parts = append(parts, lower(c.args()[i+1].s))
			}
			continue
		}
		if l := lower(w.s); strings.Contains(l, "create user ") || strings.Contains(l, "grant ") && strings.Contains(l, " to ") {
			// a query's CREATE USER or GRANT ... TO: its words
			parts = append(parts, wordParts(w.s)...)
			continue
		}
		if n++; n > 4 || strings.ContainsAny(w.s, "@/\\=' ") {
			continue
		}
		parts = append(parts, wordParts(w.s)...)
	}
	verb, create, noun := "", false, false
	for _, p := range parts {
		accounts = accounts || accountNouns[p]
		switch {
		case grantRevokes[p]:
			return "", false
		case grantVerbs[p] && verb == "":
			verb = p
		case p == "create" || p == "new" || p == "put" || p == "write" || p == "manage":
			create = true
		case grantNouns[p]:
			noun = true
		}
	}
	if verb == "" && create && noun {
		verb = "create"
	}
	return verb, accounts
}

// wordParts splits a command's word into its lower-case parts at
// punctuation and at camelCase boundaries (AttachPolicyToUser, Add-TeamUser).
func wordParts(s string) []string {
	var out []string
	start := 0
	flush := func(end int) {
		if end > start {
			out = append(out, lower(s[start:end]))
		}
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case !isAlnum(ch):
			flush(i)
			start = i + 1
		case ch >= 'A' && ch <= 'Z' && i > start && s[i-1] >= 'a' && s[i-1] <= 'z':
			flush(i)
			start = i
		}
	}
	flush(len(s))
	return out
}

// revokesOutsideAccess reports a call that takes an outside account's
// rights away (a role binding or assignment, a membership, a service's
// user): it protects the team's resources rather than deleting one.
func revokesOutsideAccess(a *analysis, c *cmd) bool {
	if h, ok := readHTTPCall(c); ok && (fetchers[c.name] || strings.HasPrefix(c.name, "invoke-")) {
		if h.method != "DELETE" {
			return false
		}
		u := h.url
		if q := strings.IndexByte(u, '?'); q >= 0 {
			u = u[:q]
		}
		segs := strings.Split(strings.TrimRight(u, "/"), "/")
		last := segs[len(segs)-1]
		if !outsiderName(last) && outsideEmailIn(last) == "" {
			return false
		}
		for _, s := range segs[:len(segs)-1] {
			if accountNouns[s] {
				return true
			}
		}
		return false
	}
	if who, _ := outsideIdentity(a, c); who == "" {
		return false
	}
	parts := wordParts(c.base)
	n := 0
	for _, w := range c.args() {
		if strings.HasPrefix(w.s, "-") {
			continue
		}
		if n++; n > 4 {
			break
		}
		if !strings.ContainsAny(w.s, "@/\\=' ") {
			parts = append(parts, wordParts(w.s)...)
		}
	}
	removes, accounts := false, false
	for _, p := range parts {
		switch p {
		case "remove", "delete", "revoke", "detach", "unassign", "unbind", "uninvite", "deactivate", "rm":
			removes = true
		case "binding", "bindings", "assignment", "assignments", "iam", "permission", "permissions":
			accounts = true
		default:
			accounts = accounts || accountNouns[p]
		}
	}
	return removes && accounts
}

// readOnlyGrant reports a call whose role or permission is only to look
// (Reader, roles/viewer, --permissions view, allow_viewing).
func readOnlyGrant(c *cmd) bool {
	for _, l := range c.lowerArgs() {
		if _, v, ok := strings.Cut(l, "="); ok && strings.HasPrefix(l, "-") {
			l = v
		}
		l = strings.Trim(l, `"'`)
		all := l != ""
		for _, p := range strings.Split(l, ",") {
			p = p[strings.LastIndexAny(p, "/.")+1:]
			switch p {
			case "reader", "viewer", "read", "readonly", "read-only", "read_only", "view", "guest", "browser", "allow_viewing", "viewing", "view_only", "view-only":
			default:
				all = false
			}
		}
		if all {
			return true
		}
	}
	return false
}

// withdrawsExposure reports an API call deleting a public link or share
// (a dashboard's public view, a file's shared link) or a member's role:
// exposure or rights taken away, nothing the team keeps deleted.
func withdrawsExposure(c *cmd) bool {
	h, ok := readHTTPCall(c)
	if !ok || h.method != "DELETE" {
		return false
	}
	u := h.url
	if q := strings.IndexByte(u, '?'); q >= 0 {
		u = u[:q]
	}
	segs := strings.Split(strings.TrimRight(u, "/"), "/")
	for i, s := range segs {
		switch s {
		case "public-dashboards", "publicdashboards", "public_link", "public-link", "shared_links", "shared-links", "sharedlinks":
			return true
		case "roles", "permissions":
			// .../members/ID/roles/ID: one role taken from one member
			if i == len(segs)-2 && i >= 2 && (segs[i-2] == "members" || segs[i-2] == "users") {
				return true
			}
		}
	}
	return false
}
