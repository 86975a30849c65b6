package guard

import (
	"net/url"
	"strings"
)

// Hosting control panels: cPanel and WHM (whmapi1, uapi, their JSON
// APIs), Plesk, DirectAdmin, ISPConfig, Virtualmin. Each hosted account
// is a customer's sites, mail and databases: a panel call that removes
// one is the customer's data gone, one that sets a password, opens an
// ACL or turns backups off weakens every site on the server.

func init() {
	ruleSets = append(ruleSets, hostingRules, []*rule{webShellPlanted, phpHardeningOff})
}

// panelClients are the programs that reach a panel: its own command-line
// tools and the HTTP clients that call its API.
var panelClients = names("whmapi1", "whmapi0", "uapi", "cpapi2", "plesk", "virtualmin", "da", "pure-pw", "changepass.pl", "curl",
	"restartsrv_httpd", "restartsrv_exim", "restartsrv_mysql", "restartsrv_cpsrvd", "restartsrv_named", "restartsrv_dovecot", "restartsrv_ftpd",
	"restartsrv_pureftpd", "restartsrv_apache_php_fpm", "restartsrv_nginx", "restartsrv_postgresql", "restartsrv_cpdavd", "restartsrv_tailwatchd", "wget", "http", "https", "xh",
	"invoke-restmethod", "invoke-webrequest", "irm", "iwr")

var hostingRules = []*rule{
	{ID: "hosting-account-destroyed", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "removing a hosted customer's account, site, database, mailbox, FTP account, DNS zone or backups through a hosting control panel",
		Suggestions: []string{"Suspend the account instead, and remove it after the customer and a second person agree", "Take a panel backup (pkgacct, plesk backup) first"},
		partial:     true, // (the generic clients' rules judge their other deletes)
		names:       panelClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, p := range panelCalls(c) {
				if p.scratch() {
					continue
				}
				if p.removes() {
					return true, p.what()
				}
			}
			return false, ""
		}},
	{ID: "hosting-panel-weakened", Level: LevelHigh, Category: CategorySystem, Description: "weakening a hosting server through its control panel: a password set on the command line, every privilege given to a reseller, backups or the web firewall turned off, an end-of-life PHP made the default, accounts suspended",
		Suggestions: []string{"Let the customer reset their own password through the panel's link", "Change one setting, for one account, and say why"},
		names:       panelClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, p := range panelCalls(c) {
				if !p.scratch() && p.weakens() {
					return true, p.what()
				}
			}
			return false, ""
		}},
	{ID: "hosting-login-link-printed", Level: LevelHigh, Category: CategoryExfiltration, Description: "printing a hosting panel's one-time administrator login link or session into the transcript",
		Suggestions: []string{"Open the panel through its login page", "Create the session in a browser, never in the agent's output"},
		names:       panelClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, p := range panelCalls(c) {
				switch p.fn {
				case "create_user_session", "plesk:login", "da:login-url", "session/create_webmail_session_for_self":
					return true, p.what()
				}
			}
			return false, ""
		}},
	{ID: "hosting-backup-sent-out", Level: LevelCritical, Category: CategoryExfiltration, Description: "sending hosted accounts' backups (their sites, mail and databases) to another machine's FTP or SSH server",
		Suggestions: []string{"Write the backup to the server's own backup disk", "Send backups only to the destinations the panel's backup configuration names"},
		names:       panelClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, p := range panelCalls(c) {
				if !strings.Contains(p.fn, "backup") {
					continue
				}
				for _, kv := range p.pairs() {
					_, v, ok := strings.Cut(kv, "=")
					if !ok {
						v = kv
					}
					if h := hostOf(v); strings.Contains(v, "://") && h != "" && !isLocalHost(h) && !strings.HasPrefix(lower(v), "file:") {
						return true, p.fn + " to " + h
					}
				}
			}
			return false, ""
		}},
	{ID: "hosting-mail-forwarded-out", Level: LevelCritical, Category: CategoryExfiltration, Description: "forwarding a hosted domain's mail (a mailbox or the catch-all) to an address of another domain",
		Suggestions: []string{"Forward to a mailbox of the customer's own domain", "Ask the customer in writing before mail leaves their domain"},
		names:       panelClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, p := range panelCalls(c) {
				if !strings.Contains(p.fn, "forward") && !strings.Contains(p.fn, "set_default_address") {
					continue
				}
				to, dom := p.param("fwdemail"), p.param("domain")
				if _, at, ok := strings.Cut(to, "@"); ok && dom != "" && at != dom && !strings.HasSuffix(at, "."+dom) {
					return true, p.fn + " to " + to
				}
			}
			return false, ""
		}},
}

// webShellPlanted is a server-side script downloaded into a web root
// outside the work directory: whatever it does, the site now runs it for
// anyone who asks.
var webShellPlanted = &rule{ID: "web-shell-planted", Level: LevelCritical, Category: CategoryPersistence, Description: "downloading a server-side script (PHP, ASP, JSP) into a live web root, where the web server runs it for every visitor",
	Suggestions: []string{"Install code on a site through its deployment, reviewed", "Download into the work directory and read it first"},
	names:       names("curl", "wget", "invoke-webrequest", "iwr", "invoke-restmethod", "irm"),
	match: func(a *analysis, c *cmd) (bool, string) {
		args := c.args()
		var out []string
		for i, w := range args {
			l := lower(w.s)
			switch {
			case (l == "-o" || l == "--output" || l == "-outfile" || l == "--output-document") && i+1 < len(args):
				out = append(out, args[i+1].s)
			case strings.HasPrefix(l, "--output-document=") || strings.HasPrefix(l, "--output="):
				_, v, _ := strings.Cut(w.s, "=")
				out = append(out, v)
			}
			if c.name == "wget" && w.s == "-O" && i+1 < len(args) {
				out = append(out, args[i+1].s)
			}
		}
		for _, o := range out {
			l := lower(o)
			switch ext := l[strings.LastIndexByte(l, '.')+1:]; ext {
			case "php", "phtml", "php5", "phar", "asp", "aspx", "ashx", "jsp", "jspx", "cfm", "cgi", "pl":
				if a.webRootPath(o, c.cwd) { // (the project's own web root is not one)
					return true, o
				}
			}
		}
		return false, ""
	}}

// panelDatabases are hosting panels' and their billing's own databases
// (Plesk's psa, ISPConfig's, WHMCS's): changed behind the panel's back,
// every hosted account's records are.
var panelDatabases = map[string]bool{"psa": true, "dbispconfig": true, "whmcs": true, "apsc": true}

// phpHardeningOff is php.ini edited to let scripts include remote code or
// run programs: every site on the server gets the weakness.
var phpHardeningOff = &rule{ID: "php-hardening-off", Level: LevelHigh, Category: CategorySystem, Description: "switching off PHP's server-wide protections (remote includes allowed, disabled functions emptied) in php.ini",
	Suggestions: []string{"Change the setting for the one site that needs it, in its own .user.ini", "Leave php.ini to the server's administrators"},
	names:       names("sed", "perl", "tee", "echo", "printf", "set-content", "add-content", "out-file"),
	match: func(a *analysis, c *cmd) (bool, string) {
		j := strings.ToLower(c.argsText())
		if !strings.Contains(j, "php.ini") && !strings.Contains(j, "php-fpm") && !strings.Contains(a.srcLow(), "php.ini") {
			return false, ""
		}
		j = strings.ReplaceAll(j, " ", "")
		for _, s := range [...]string{"allow_url_include=on", "allow_url_include=1", "disable_functions=/", "disable_functions=\"", "disable_functions='", "disable_functions=|"} {
			if strings.Contains(j, s) {
				return true, strings.Trim(s, `/"'|`)
			}
		}
		if strings.HasSuffix(j, "disable_functions=") {
			return true, "disable_functions emptied"
		}
		return false, ""
	}}

// panelCall is one call of a hosting panel's function: its name (lower
// case, "module/function" for cPanel's UAPI, "plesk:utility" for Plesk's
// utilities) and its parameters as written.
type panelCall struct {
	fn     string
	params []string
}

func (p panelCall) what() string {
	if len(p.params) == 0 {
		return p.fn
	}
	return p.fn + " " + truncate(strings.Join(p.params, " "), 80)
}

// param is the value of a key=value parameter, in lower case.
func (p panelCall) param(k string) string {
	for _, kv := range p.pairs() {
		if key, v, ok := strings.Cut(kv, "="); ok && strings.EqualFold(key, k) {
			return lower(v)
		}
	}
	return ""
}

func (p panelCall) has(s string) bool {
	for _, w := range p.params {
		if strings.Contains(lower(w), s) {
			return true
		}
	}
	return false
}

// pairs are the parameters split into words and key=value pairs (a
// query's &, a PowerShell hashtable's ;), quotes and braces trimmed.
func (p panelCall) pairs() []string {
	var out []string
	for _, s := range p.params {
		for _, kv := range strings.FieldsFunc(s, func(r rune) bool { return r == '&' || r == ';' || r == ',' || r == ' ' || r == '{' || r == '}' }) {
			kv = strings.Trim(kv, `"'@ `)
			if k, v, ok := strings.Cut(kv, "="); ok {
				kv = strings.Trim(k, `"' `) + "=" + strings.Trim(v, `"' `)
			}
			if kv != "" {
				out = append(out, kv)
			}
		}
	}
	return out
}

// scratch reports a call on a test's or staging's account or domain.
func (p panelCall) scratch() bool {
	for _, w := range p.pairs() {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			v = w
		} else if strings.Contains(lower(k), "pass") || lower(k) == "api.version" {
			continue // (a password's words say nothing of whose account)
		}
		if strings.HasPrefix(v, "-") {
			continue
		}
		if l := lower(v); throwawayName(l) || strings.Contains(l, "staging") || strings.HasPrefix(l, "qa") {
			return true
		}
	}
	return false
}

// removes reports a call that removes what a customer has.
func (p panelCall) removes() bool {
	fn := p.fn
	if i := strings.LastIndexAny(fn, "/:"); i >= 0 {
		fn = fn[i+1:]
	}
	switch {
	case p.fn == "plesk:db":
		// the panel's own database changed behind its back
		return p.has("delete from") || p.has("drop ") || p.has("truncate ")
	case strings.HasPrefix(p.fn, "plesk:"):
		return p.has("--remove") || p.has("-remove") || p.has("--delete") || p.has("-delete")
	case strings.HasPrefix(p.fn, "cmd_api_"):
		// DirectAdmin: the function says what, action=delete does it
		return p.param("action") == "delete" || p.param("delete") == "yes"
	case p.fn == "pure-pw:userdel":
		return true
	}
	if hasAny(fn, "expired", "cache", "session", "temp", "log", "validate") {
		return false
	}
	return hasAny(fn, "remove", "delete", "kill", "terminate", "destroy", "purge", "wipe")
}

// weakens reports a call that weakens the server or its accounts.
func (p panelCall) weakens() bool {
	switch p.fn {
	case "passwd", "virtualmin:modify-domain", "virtualmin:modify-user":
		return p.fn == "passwd" || p.has("--pass")
	case "setacls":
		return p.param("acl-all") == "1"
	case "backup_config_set":
		return p.has("enable=0")
	case "php_set_system_default_version":
		return strings.Contains(p.param("version"), "php5") || strings.Contains(p.param("version"), "php70")
	case "suspendacct":
		return true
	case "restartsrv_httpd", "restartsrv_exim", "restartsrv_mysql", "restartsrv_cpsrvd", "restartsrv_named", "restartsrv_dovecot", "restartsrv_ftpd",
		"restartsrv_pureftpd", "restartsrv_apache_php_fpm", "restartsrv_nginx", "restartsrv_postgresql", "restartsrv_cpdavd", "restartsrv_tailwatchd":
		return p.has("--stop")
	case "virtualmin:backup-domain", "fullbackup_to_ftp", "plesk:pleskbackup":
		return false
	case "plesk:server_pref":
		return p.has("off") && (p.has("firewall") || p.has("waf"))
	}
	if strings.HasSuffix(p.fn, "mass_edit_zone") || strings.HasSuffix(p.fn, "edit_zone_record") {
		// a domain's mail exchanger repointed
		return p.has("\"mx\"") || p.param("record_type") == "mx" || p.param("type") == "mx"
	}
	return strings.HasSuffix(p.fn, "/passwd") || strings.HasSuffix(p.fn, "change_password") || strings.HasSuffix(p.fn, "passwd_pop")
}

// panelCalls returns the panel functions c calls: through a panel's own
// tool, or through its HTTP API (WHM's /json-api/, cPanel's /execute/,
// DirectAdmin's CMD_API_, ISPConfig's remote json.php).
func panelCalls(c *cmd) []panelCall {
	args := c.args()
	var out []panelCall
	switch c.name {
	case "whmapi1", "whmapi0":
		if ops := c.operands(); len(ops) > 0 {
			out = append(out, panelCall{fn: lower(ops[0].s), params: wordsText(ops[1:])})
		}
		return out
	case "uapi", "cpapi2":
		if ops := c.operands(); len(ops) > 1 {
			out = append(out, panelCall{fn: lower(ops[0].s + "/" + ops[1].s), params: wordsText(ops[2:])})
		}
		return out
	case "plesk":
		ops := c.operands()
		switch {
		case len(ops) > 1 && ops[0].s == "bin":
			out = append(out, panelCall{fn: "plesk:" + lower(ops[1].s), params: wordsText(args[1:])})
		case len(ops) > 0 && ops[0].s == "login":
			out = append(out, panelCall{fn: "plesk:login", params: wordsText(ops[1:])})
		case len(ops) > 1 && ops[0].s == "db":
			out = append(out, panelCall{fn: "plesk:db", params: wordsText(ops[1:])})
		}
		return out
	case "restartsrv_httpd", "restartsrv_exim", "restartsrv_mysql", "restartsrv_cpsrvd", "restartsrv_named", "restartsrv_dovecot", "restartsrv_ftpd",
		"restartsrv_pureftpd", "restartsrv_apache_php_fpm", "restartsrv_nginx", "restartsrv_postgresql", "restartsrv_cpdavd", "restartsrv_tailwatchd":
		// cPanel's service scripts: --stop takes the service down for
		// every hosted domain
		return []panelCall{{fn: c.name, params: wordsText(args)}}
	case "changepass.pl":
		// Webmin's: a login's password set on the command line
		return []panelCall{{fn: "passwd", params: wordsText(args)}}
	case "virtualmin", "da", "pure-pw":
		if ops := c.operands(); len(ops) > 0 {
			out = append(out, panelCall{fn: c.name + ":" + lower(ops[0].s), params: wordsText(args[1:])})
		}
		return out
	}
	h, ok := readHTTPCall(c)
	if !ok {
		return nil
	}
	u, err := url.Parse(h.url)
	if err != nil {
		return nil
	}
	path := u.Path
	params := []string{u.RawQuery, h.body}
	switch {
	case strings.Contains(path, "/json-api/"):
		out = append(out, panelCall{fn: strings.Trim(path[strings.Index(path, "/json-api/")+len("/json-api/"):], "/"), params: params})
	case strings.Contains(path, "/execute/"):
		out = append(out, panelCall{fn: strings.Trim(path[strings.Index(path, "/execute/")+len("/execute/"):], "/"), params: params})
	case strings.Contains(path, "/cmd_api_"):
		out = append(out, panelCall{fn: strings.Trim(path[strings.Index(path, "/cmd_api_")+1:], "/"), params: params})
	case strings.HasSuffix(path, "/remote/json.php") && u.RawQuery != "":
		fn, _, _ := strings.Cut(u.RawQuery, "&")
		out = append(out, panelCall{fn: fn, params: []string{h.body}})
	}
	return out
}
