package guard

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Content management systems' own command lines aimed at a live site:
// Drupal's drush (an alias naming production, --uri, a server over ssh)
// and Ghost's CLI on its server. The site's database dropped, reinstalled
// or overwritten, content deleted through PHP, the site's security
// modules removed or development modules installed, an administrator's
// password set on the line, a one-time login link printed. (WordPress's
// wp-cli is in rules_shops.go.) The developer's own site, staging and
// test aliases, lists and status pass.

func init() {
	ruleSets = append(ruleSets, cmsRules, []*rule{dumpInWebRoot, localizationSync})
}

var cmsRules = []*rule{
	{ID: "cms-live-data-destroyed", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "wiping or overwriting a live site's content: its database dropped, reinstalled, synced over or fed a script, its entities deleted",
		Suggestions: []string{"Run it against a copy of the site first", "Take a database backup (drush sql:dump) before changing a live site"},
		partial:     true, // (the generic clients' rules judge their other deletes)
		names:       names("drush", "ghost", "strapi"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "strapi" {
				// strapi transfer --to URL: the target's content replaced
				// by this one's; strapi import with production's settings
				ops := c.operands()
				if len(ops) == 0 {
					return false, ""
				}
				switch ops[0].s {
				case "transfer":
					if v, ok := optValue(c.args(), "", "to"); ok {
						if h := hostOf(v); h != "" && !wpScratchName(h) && !isLocalHost(h) {
							return true, "strapi transfer onto " + h
						}
					}
				case "import":
					if touchesProduction(c) || a.prodTarget > 0 {
						return true, "strapi import over production's content"
					}
				}
				return false, ""
			}
			if c.name == "ghost" {
				ops := c.operands()
				if len(ops) > 0 && ops[0].s == "uninstall" && ghostLive(a, c) {
					return true, "ghost uninstall (the blog's content, database and settings)"
				}
				return false, ""
			}
			op, aliases := drushCall(c)
			switch op {
			case "sql:sync", "sql-sync":
				// sql:sync SOURCE TARGET: the target's database replaced
				if len(aliases) > 1 && drushLiveAlias(aliases[1]) {
					return true, "drush sql:sync onto " + aliases[1]
				}
				return false, ""
			case "rsync", "core:rsync", "core-rsync":
				return false, ""
			}
			if !drushLive(a, c, aliases) {
				return false, ""
			}
			ops := drushOps(c)
			switch op {
			case "sql:drop", "sql-drop", "site:install", "si", "site-install", "entity:delete", "entity-delete":
				return true, "drush " + op + " on " + drushTarget(c, aliases)
			case "sql:cli", "sqlc", "sql-cli":
				for _, r := range c.redirs {
					if r.op == syntax.RdrIn {
						return true, "a script fed to " + drushTarget(c, aliases) + "'s database (" + r.w.s + ")"
					}
				}
			case "sql:query", "sqlq", "sql-query":
				if len(ops) > 1 && destructiveSQL(ops[1]) {
					return true, "drush sql:query " + truncate(ops[1], 60) + " on " + drushTarget(c, aliases)
				}
			case "php:eval", "ev", "php-eval", "eval":
				if len(ops) > 1 && hasAny(lower(ops[1]), "->delete(", "truncate", "drop table", "->deleteall(") {
					return true, "content deleted through PHP on " + drushTarget(c, aliases)
				}
			}
			return false, ""
		}},
	{ID: "cms-live-security-off", Level: LevelHigh, Category: CategorySystem, Description: "weakening a live site: security modules removed, development modules installed, errors shown to visitors, an administrator's password set on the line, a one-time login link printed, the site taken offline",
		Suggestions: []string{"Change a live site's modules and settings through a reviewed deployment", "Log in through the site's login page; reset passwords through its e-mail link"},
		names:       names("drush", "ghost"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "ghost" {
				ops := c.operands()
				if len(ops) > 1 && ops[0].s == "config" && strings.Contains(lower(ops[1].s), "password") && len(ops) == 2 {
					return true, "the blog's database password printed (ghost config " + ops[1].s + ")"
				}
				return false, ""
			}
			op, aliases := drushCall(c)
			if !drushLive(a, c, aliases) {
				return false, ""
			}
			ops := drushOps(c)
			target := drushTarget(c, aliases)
			switch op {
			case "user:login", "uli", "user-login":
				return true, "a one-time administrator login link to " + target + " printed"
			case "user:password", "upwd", "user-password":
				return true, "a password set on the line on " + target
			case "pm:uninstall", "pmu", "pm-uninstall", "pm:disable", "dis", "pm-disable":
				for _, m := range ops[1:] {
					if hasAny(lower(m), "tfa", "seckit", "security", "captcha", "password_policy", "login_security", "flood", "autologout", "honeypot", "antibot") {
						return true, "security module " + m + " removed from " + target
					}
				}
			case "pm:install", "en", "pm-enable", "pm:enable":
				for _, m := range ops[1:] {
					switch lower(m) {
					case "devel", "webprofiler", "php", "devel_php", "kint", "devel_generate":
						return true, "development module " + m + " installed on " + target
					}
				}
			case "config:set", "cset", "config-set":
				if len(ops) > 3 && ops[1] == "system.logging" && ops[2] == "error_level" && (ops[3] == "verbose" || ops[3] == "all") {
					return true, "errors and backtraces shown to every visitor of " + target
				}
			case "state:set", "sset", "state-set":
				if len(ops) > 2 && ops[1] == "system.maintenance_mode" && ops[2] == "1" {
					return true, target + " taken offline for every visitor"
				}
			}
			return false, ""
		}},
}

// localizationSync is a translation platform's upload or push that
// deletes what the local files lack, or overwrites translators' work.
var localizationSync = &rule{ID: "translations-overwritten", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting or overwriting a translation platform's strings and translators' work (obsolete sources deleted, cleanup mode, translations pushed with --force)",
	Suggestions: []string{"Upload without deleting, and remove obsolete strings in the platform after a review", "Pull the translators' work before pushing over it"},
	partial:     true, // (the generic clients' rules judge their other deletes)
	names:       names("crowdin", "lokalise2", "tx", "phrase"),
	match: func(a *analysis, c *cmd) (bool, string) {
		low := c.lowerArgs()
		if hasAnyWord(low, "--dryrun", "--dry-run", "--preview") {
			return false, ""
		}
		switch c.name {
		case "crowdin":
			if hasAnyWord(low, "upload", "push") && hasAnyWord(low, "--delete-obsolete") {
				return true, "crowdin upload --delete-obsolete"
			}
		case "lokalise2":
			for _, l := range low {
				if l == "--cleanup-mode" || l == "--cleanup-mode=true" {
					return true, "lokalise2 file upload --cleanup-mode"
				}
			}
		case "tx":
			if hasAnyWord(low, "push") && hasAnyWord(low, "--force", "-f") && hasAnyWord(low, "--translation", "-t", "--translations") {
				return true, "tx push --translation --force"
			}
		case "phrase":
			if hasAnyWord(low, "push") && hasAnyWord(low, "--cleanup") {
				return true, "phrase push --cleanup"
			}
		}
		return false, ""
	}}

// drushCall returns a drush command's subcommand and its site aliases
// (@prod), in the order written.
func drushCall(c *cmd) (string, []string) {
	var aliases []string
	op := ""
	for _, w := range c.args() {
		switch {
		case strings.HasPrefix(w.s, "@"):
			aliases = append(aliases, w.s)
		case strings.HasPrefix(w.s, "-"):
		case op == "":
			op = lower(w.s)
		}
	}
	return op, aliases
}

// drushOps are drush's words that are neither aliases nor options.
func drushOps(c *cmd) []string {
	var out []string
	for _, w := range c.args() {
		if !strings.HasPrefix(w.s, "@") && !strings.HasPrefix(w.s, "-") {
			out = append(out, w.s)
		}
	}
	return out
}

// drushLiveAlias reports a site alias that is not the developer's own
// site nor one named for development, staging or tests.
func drushLiveAlias(alias string) bool {
	name := strings.TrimPrefix(lower(alias), "@")
	switch name {
	case "self", "none", "sites", "local", "default", "dev", "ddev", "lando", "docker":
		return false
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:] // @mysite.prod: the environment
	}
	return !wpScratchName(name)
}

// drushLive reports a drush command aimed at a live site: an alias or
// --uri that is not development, staging or a test's, or run on a server
// over ssh.
func drushLive(a *analysis, c *cmd, aliases []string) bool {
	if len(aliases) > 0 {
		return drushLiveAlias(aliases[0])
	}
	if v, ok := optValue(c.args(), "-l", "uri"); ok {
		h := hostOf(v)
		if h == "" {
			h = v
		}
		return !wpScratchName(h) && !isLocalHost(h)
	}
	return c.remote && a.testTarget == 0
}

func drushTarget(c *cmd, aliases []string) string {
	if len(aliases) > 0 {
		return aliases[0]
	}
	if v, ok := optValue(c.args(), "-l", "uri"); ok {
		return v
	}
	return "a server reached over ssh"
}

// ghostLive reports Ghost's CLI run in an installed blog: on a server
// over ssh, or in a folder outside the project.
func ghostLive(a *analysis, c *cmd) bool {
	if c.remote {
		return a.testTarget == 0
	}
	return c.cwd != "" && path.IsAbs(c.cwd) && !a.inWork(c.cwd)
}

// destructiveSQL reports a statement that deletes or drops what it
// names, or rewrites every row.
func destructiveSQL(q string) bool {
	l := lower(q)
	return hasAny(l, "delete ", "drop ", "truncate ") || strings.HasPrefix(strings.TrimSpace(l), "update ") && !strings.Contains(l, "where")
}

// webRootPath reports a path in a web server's document root (outside
// the work directory): what is written there, anyone can download.
func (a *analysis) webRootPath(p, cwd string) bool {
	l := strings.ReplaceAll(lower(p), `\`, "/")
	if !hasAny(l, "/public_html/", "/htdocs/", "/httpdocs/", "/wwwroot/", "/var/www/", "/srv/www/", "/inetpub/") {
		return false
	}
	abs := a.absPath(p, cwd)
	return abs == "" || !a.inWork(abs)
}

// dumpInWebRoot is a database dump written into a web root: the whole
// database, its users' password hashes with it, is one download away.
var dumpInWebRoot = &rule{ID: "db-dump-in-web-root", Level: LevelCritical, Category: CategoryExfiltration, Description: "writing a database dump into a web server's document root, where anyone can download it",
	Suggestions: []string{"Write dumps outside the document root (/var/backups) and keep them private", "Download it over ssh instead"},
	names:       names("wp", "mysqldump", "pg_dump", "mariadb-dump", "drush"),
	match: func(a *analysis, c *cmd) (bool, string) {
		var out []string
		switch c.name {
		case "wp":
			if ops := wpOps(c); len(ops) > 2 && ops[0] == "db" && ops[1] == "export" {
				out = append(out, ops[2])
			}
		case "drush":
			if v, ok := optValue(c.args(), "", "result-file"); ok {
				out = append(out, v)
			}
		default:
			for _, o := range [...]string{"-f", "-r"} {
				if v, ok := optValue(c.args(), o, "file", "result-file"); ok {
					out = append(out, v)
				}
			}
		}
		for _, r := range c.redirs {
			if r.op == syntax.RdrOut || r.op == syntax.AppOut || r.op == syntax.RdrAll {
				out = append(out, r.w.s)
			}
		}
		for _, o := range out {
			if a.webRootPath(o, c.cwd) && !strings.HasSuffix(lower(o), ".log") {
				return true, o
			}
		}
		return false, ""
	}}
