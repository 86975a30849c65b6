package guard

import (
	"path"
	"strings"
)

// Web shops' own command lines: WordPress's wp-cli (WooCommerce
// included) and Magento's bin/magento, aimed at a live site (a wp-cli
// alias or URL naming production, a site folder outside the project, a
// server reached over ssh). Content and orders wiped, every URL
// rewritten, prices and coupons changed for every shopper, HTTPS or
// two-factor login switched off, security plugins removed. The
// developer's own copy in the project, a staging or test site, dry runs,
// lists and status pass.
var shopRules = []*rule{
	{ID: "shop-live-data-changed", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "wiping or rewriting a live shop's or site's data (content emptied, the database reset or queried destructively, every URL rewritten, prices or coupons changed for every shopper)",
		Suggestions: []string{"Run it against a copy of the site first and compare", "Use --dry-run (search-replace) and export the database before changing a live site"},
		names:       names("wp"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if !wpLive(a, c) {
				return false, ""
			}
			if what := wpDataChange(c); what != "" {
				return true, what + " on " + wpTarget(c)
			}
			return false, ""
		}},
	{ID: "dev-site-data-reset", Level: LevelModerate, Category: CategoryDatabaseDestroy, Description: "emptying the developer's own WordPress site (its database reset or dropped, its content emptied) that is not a test's",
		Suggestions: []string{"Export the database first (wp db export)", "Reset the tests' site instead (wp-env run tests-cli)"},
		names:       names("wp"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if wpLive(a, c) || a.testTarget > 0 || a.throwaway > 0 {
				return false, ""
			}
			for _, w := range c.args() {
				if strings.HasPrefix(w.s, "@") || strings.HasPrefix(w.s, "--ssh") || strings.HasPrefix(w.s, "--url") {
					return false, "" // a staging or test site of its alias (wpLive judges the others)
				}
			}
			if v, ok := optValue(c.args(), "", "path", "url"); ok && (testName(v) || strings.Contains(lower(v), "test")) {
				return false, ""
			}
			ops := wpOps(c)
			if len(ops) > 1 && (ops[0] == "site" && ops[1] == "empty" || ops[0] == "db" && (ops[1] == "reset" || ops[1] == "drop")) {
				return true, "wp " + ops[0] + " " + ops[1] + " of " + wpTarget(c)
			}
			return false, ""
		}},
	{ID: "shop-security-off", Level: LevelHigh, Category: CategorySystem, Description: "switching off a live shop's security (HTTPS, two-factor login, security plugins) or putting it in developer mode",
		Suggestions: []string{"Change security settings in a reviewed deployment, never by hand on the live site", "Try the change on a copy of the site"},
		names:       names("wp", "magento", "bin/magento", "php"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "wp" {
				if !wpLive(a, c) {
					return false, ""
				}
				return wpSecurityOff(c)
			}
			ops, live := magentoCall(a, c)
			if len(ops) == 0 || !live {
				return false, ""
			}
			switch ops[0] {
			case "module:disable":
				for _, m := range ops[1:] {
					if hasAny(lower(m), "twofactorauth", "captcha", "security", "adminadobeims") {
						return true, "bin/magento module:disable " + m
					}
				}
			case "config:set":
				if len(ops) > 2 && (ops[1] == "web/secure/use_in_frontend" || ops[1] == "web/secure/use_in_adminhtml") && ops[2] == "0" {
					return true, "HTTPS switched off (" + ops[1] + " 0)"
				}
				if len(ops) > 2 && strings.HasPrefix(ops[1], "twofactorauth/") && ops[2] == "0" {
					return true, "two-factor login switched off (" + ops[1] + ")"
				}
			case "deploy:mode:set":
				if len(ops) > 1 && ops[1] == "developer" {
					return true, "a live shop in developer mode (errors shown, caches off)"
				}
			case "maintenance:enable":
				if !optGiven(c.lowerArgs(), "--ip") || hasWord(c.args(), "--ip=none") {
					return true, "the live shop taken offline for every visitor"
				}
			case "admin:user:create":
				return true, "an administrator added to the live shop"
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, shopRules) }

// wpOps returns wp-cli's subcommand words (aliases and options left out).
func wpOps(c *cmd) []string {
	var out []string
	for _, w := range c.operands() {
		if strings.HasPrefix(w.s, "@") {
			continue
		}
		out = append(out, lower(w.s))
	}
	return out
}

// wpTarget returns the site a wp-cli command reaches, as written.
func wpTarget(c *cmd) string {
	for _, w := range c.args() {
		if strings.HasPrefix(w.s, "@") {
			return w.s
		}
	}
	for _, o := range [...]string{"url", "ssh", "path"} {
		if v, ok := optValue(c.args(), "", o); ok {
			return v
		}
	}
	if c.remote {
		return "a server reached over ssh"
	}
	return "the site"
}

// wpLive reports a wp-cli command aimed at a live site: an alias or URL
// that is not development, staging or a test's, --ssh to another host,
// a site folder outside the project, or the command run on a server
// over ssh.
func wpLive(a *analysis, c *cmd) bool {
	if hasWord(c.args(), "--dry-run") {
		return false
	}
	if a.prodTarget > 0 {
		return true // vip @site.production -- wp ...
	}
	for _, w := range c.args() {
		if alias, ok := strings.CutPrefix(w.s, "@"); ok && alias != "" {
			return !wpScratchName(alias)
		}
	}
	if v, ok := optValue(c.args(), "", "url"); ok {
		return !wpScratchName(hostOf(v)) && !isLocalHost(hostOf(v))
	}
	if v, ok := optValue(c.args(), "", "ssh"); ok {
		return !wpScratchName(v)
	}
	if v, ok := optValue(c.args(), "", "path"); ok {
		if len(v) > 1 && v[1] == ':' || strings.HasPrefix(v, `\\`) {
			p := a.winAbs(v) // --path=C:\work\project\wordpress
			return p != "" && !a.inWork(p)
		}
		return path.IsAbs(v) && !a.inWork(path.Clean(v))
	}
	if c.remote {
		return true
	}
	return c.cwd != "" && path.IsAbs(c.cwd) && !a.inWork(c.cwd) && !strings.HasPrefix(c.cwd, "/tmp")
}

// wpScratchName reports a site alias or host named for development,
// staging or tests.
func wpScratchName(s string) bool {
	l := lower(s)
	return testName(l) || scratchName(l) || devNamed(l) || strings.Contains(l, "staging") || strings.Contains(l, "stage") || isLocalHost(l)
}

// wpDataChange returns what a wp-cli command changes in a site's data
// for good, or "".
func wpDataChange(c *cmd) string {
	ops := wpOps(c)
	if len(ops) < 2 {
		return ""
	}
	args := c.args()
	switch ops[0] {
	case "site":
		if ops[1] == "empty" {
			return "wp site empty"
		}
	case "db":
		switch ops[1] {
		case "reset", "drop", "clean":
			return "wp db " + ops[1]
		case "import":
			return "wp db import (the database replaced)"
		case "query":
			if len(ops) > 2 {
				q := lower(ops[2])
				if hasAny(q, "delete ", "drop ", "truncate ") || strings.HasPrefix(strings.TrimSpace(q), "update ") && !strings.Contains(q, "where") {
					return "wp db query " + truncate(ops[2], 60)
				}
			}
		}
	case "search-replace":
		return "wp search-replace (every matching URL or text rewritten)"
	case "wc":
		// wc product update ... --regular_price=1 for the catalogue, a
		// 100% coupon
		if ops[1] == "shop_coupon" && len(ops) > 2 && ops[2] == "create" {
			if v, ok := optValue(args, "", "amount"); ok && (v == "100" || v == "100.0") {
				return "a 100% coupon created"
			}
		}
		if ops[1] == "product" && len(ops) > 2 && ops[2] == "update" && (hasPrefixWord(args, "--regular_price") || hasPrefixWord(args, "--sale_price")) && c.pipe != nil {
			return "prices changed for every product listed"
		}
	case "post", "user", "comment", "term":
		if ops[1] == "delete" && (hasWord(args, "--force") || strings.HasPrefix(joinWords(c.operands()), "$(")) && c.pipe != nil {
			return "wp " + ops[0] + " delete of every item listed"
		}
	}
	return ""
}

// wpSecurityOff returns a wp-cli command switching a live site's
// security off: security or two-factor plugins deactivated, HTTPS
// checkout switched off, anyone allowed to register as an administrator.
func wpSecurityOff(c *cmd) (bool, string) {
	ops := wpOps(c)
	if len(ops) < 2 {
		return false, ""
	}
	if ops[0] == "eval" {
		code := strings.Join(ops[1:], " ")
		if strings.Contains(code, "force_ssl") && hasAny(code, `"no"`, `'no'`, "false") {
			return true, "HTTPS checkout switched off"
		}
		return false, ""
	}
	if len(ops) < 2 {
		return false, ""
	}
	switch ops[0] {
	case "maintenance-mode":
		if ops[1] == "activate" {
			return true, "the live site taken offline for every visitor"
		}
	case "user":
		if (ops[1] == "update" || ops[1] == "create") && hasPrefixWord(c.args(), "--user_pass") {
			return true, "a password set on the line (wp user " + ops[1] + " --user_pass)"
		}
	case "plugin":
		if ops[1] == "deactivate" || ops[1] == "delete" || ops[1] == "uninstall" {
			for _, p := range ops[2:] {
				if hasAny(p, "wordfence", "sucuri", "security", "two-factor", "2fa", "limit-login", "login-lockdown", "recaptcha") {
					return true, "security plugin " + p + " " + ops[1] + "d"
				}
			}
		}
	case "option":
		if ops[1] == "update" && len(ops) > 3 && (ops[2] == "default_role" && ops[3] == "administrator" || strings.Contains(ops[2], "force_ssl") && (ops[3] == "no" || ops[3] == "0")) {
			return true, "wp option update " + ops[2] + " " + ops[3]
		}
	case "config":
		if ops[1] == "get" && len(ops) > 2 && (strings.Contains(ops[2], "key") || strings.Contains(ops[2], "salt") || strings.Contains(ops[2], "password")) {
			return true, "the live site's " + strings.ToUpper(ops[2]) + " printed"
		}
		if ops[1] == "set" && len(ops) > 3 && (ops[2] == "force_ssl_admin" && (ops[3] == "false" || ops[3] == "0") || ops[2] == "disallow_file_edit" && (ops[3] == "false" || ops[3] == "0")) {
			return true, "wp config set " + ops[2] + " " + ops[3]
		}
	}
	return false, ""
}

// magentoCall returns the subcommand words of a bin/magento call (run
// as bin/magento or through php) in lower case, and whether it reaches a
// live shop: a Magento outside the project, or on a server over ssh.
func magentoCall(a *analysis, c *cmd) ([]string, bool) {
	args := c.args()
	bin := c.base
	switch c.name {
	case "php":
		i := 0
		for i < len(args) && strings.HasPrefix(args[i].s, "-") {
			i++
		}
		if i >= len(args) || path.Base(args[i].s) != "magento" {
			return nil, false
		}
		bin, args = args[i].s, args[i+1:]
	case "magento", "bin/magento":
	default:
		return nil, false
	}
	var ops []string
	for _, w := range args {
		if !strings.HasPrefix(w.s, "-") {
			ops = append(ops, lower(w.s))
		}
	}
	live := c.remote
	if path.IsAbs(bin) {
		live = live || !a.inWork(path.Clean(bin))
	} else if c.cwd != "" && path.IsAbs(c.cwd) {
		live = live || !a.inWork(c.cwd)
	}
	return ops, live
}
