package guard

import "strings"

// Windows administration modules' cmdlets and system tools that round 19
// (the long tail) showed the firewall did not know: a cloud or vault
// cmdlet printing keys and secrets, accounts disabled, IIS sites removed,
// a tenant's or a domain's security switched off, a mailbox or a key
// vault opened to someone else, Remote Desktop let through the firewall,
// a build mirrored over a production share.
var winLongTailRules = []*rule{
	{ID: "win-secret-printed", Level: LevelHigh, Category: CategoryExfiltration, Description: "printing a cloud's keys, a vault's secret or a recovery password into the transcript",
		Suggestions: []string{"Keep the value in a variable and pass it to what needs it", "List secret names only"},
		names: names("get-azstorageaccountkey", "get-azkeyvaultsecret", "get-secsecretvalue", "get-ssmparameter", "get-ssmparametervalue",
			"get-azaccesstoken", "get-azcosmosdbaccountkey", "get-azrediscachekey", "get-azwebapppublishingprofile", "get-azcontainerregistrycredential",
			"get-bitlockervolume", "get-azsqlserveradministratorpassword"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			src := a.srcLow()
			if strings.HasPrefix(strings.TrimSpace(src), "$") && strings.Contains(src, "=") && !strings.Contains(src, "|") {
				return false, "" // kept in a variable
			}
			switch c.name {
			case "get-bitlockervolume":
				return strings.Contains(src, "recoverypassword") && !strings.Contains(src, "backup-bitlockerkeyprotector"), "the BitLocker recovery password"
			case "get-azkeyvaultsecret":
				if !hasSw(args, "asplaintext") && !strings.Contains(src, "secretvaluetext") && !strings.Contains(src, "convertfrom-securestring") {
					return false, ""
				}
			case "get-ssmparameter", "get-ssmparametervalue":
				if !hasSw(args, "withdecryption") {
					return false, ""
				}
			}
			if a.wantOut > 0 || !psShown(c) || !psShownInSource(src, c.name) {
				return false, ""
			}
			for _, w := range args {
				if scratchName(w) {
					return false, ""
				}
			}
			return true, c.base + " " + j
		}},
	{ID: "win-accounts-disabled", Level: LevelHigh, Category: CategoryPrivilege, Description: "disabling user accounts (their owners are locked out)",
		Suggestions: []string{"Let an administrator disable accounts", "Disable one named test account"},
		names:       names("disable-adaccount", "disable-localuser", "disable-mguser"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if hasSw(wargs(c), "whatif") {
				return false, ""
			}
			for _, w := range wargs(c) {
				if scratchName(w) {
					return false, ""
				}
			}
			return true, c.base
		}},
	{ID: "win-site-removed", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "removing an IIS site, application or application pool",
		Suggestions: []string{"Stop the site instead, or remove a test site by its name"},
		names:       names("remove-website", "remove-iissite", "remove-webapppool", "remove-webapplication", "remove-webvirtualdirectory", "appcmd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if hasSw(args, "whatif") {
				return false, ""
			}
			if c.name == "appcmd" {
				// appcmd delete site|app|apppool|vdir NAME
				if len(args) < 2 || args[0] != "delete" || args[1] != "site" && args[1] != "app" && args[1] != "apppool" && args[1] != "vdir" {
					return false, ""
				}
			}
			for _, w := range args {
				if scratchName(w) || strings.Contains(w, "dev") {
					return false, ""
				}
			}
			return true, c.base + " " + strings.Join(args, " ")
		}},
	{ID: "win-site-auth-weakened", Level: LevelHigh, Category: CategorySystem, Description: "letting anyone into an IIS site or application: anonymous access or folder listings turned on, or its TLS requirement dropped",
		Suggestions: []string{"Leave the site's authentication to its administrators", "Try the change on a test site first"},
		names:       names("set-webconfigurationproperty", "set-webconfiguration", "add-webconfigurationproperty", "appcmd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			if hasSw(args, "whatif") {
				return false, ""
			}
			j := strings.Join(args, " ")
			if c.name == "appcmd" {
				// appcmd set config SITE /section:anonymousAuthentication /enabled:true
				if len(args) < 2 || args[0] != "set" || args[1] != "config" {
					return false, ""
				}
				if strings.Contains(j, "anonymousauthentication") && strings.Contains(j, "/enabled:true") {
					return true, "appcmd: anonymous access on"
				}
				if strings.Contains(j, "/section:directorybrowse") && strings.Contains(j, "/enabled:true") {
					return true, "appcmd: every folder's listing shown"
				}
				if strings.Contains(j, "/section:access") && strings.Contains(j, "/sslflags:none") {
					return true, "appcmd: TLS no longer required"
				}
				return false, ""
			}
			filter, _ := swVal(args, "filter")
			name, _ := swVal(args, "name")
			v, _ := swVal(args, "value")
			v = strings.Trim(v, `"'$`)
			switch {
			case strings.Contains(filter, "anonymousauthentication") && name == "enabled" && (v == "true" || v == "1"):
				return true, c.base + ": anonymous access on"
			case strings.Contains(filter, "directorybrowse") && name == "enabled" && (v == "true" || v == "1"):
				return true, c.base + ": every folder's listing shown"
			case strings.HasSuffix(filter, "/access") && name == "sslflags" && (v == "none" || v == "0" || v == ""):
				return true, c.base + ": TLS no longer required"
			}
			return false, ""
		}},
	{ID: "win-tenant-security-off", Level: LevelCritical, Category: CategorySystem, Description: "switching off a tenant's or a domain's security (security defaults, antivirus by group policy)",
		Suggestions: []string{"Leave tenant and domain security to their administrators"},
		names:       names("update-mgpolicyidentitysecuritydefaultenforcementpolicy", "set-gpregistryvalue", "set-gpprefregistryvalue"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if hasSw(args, "whatif") {
				return false, ""
			}
			if c.name == "update-mgpolicyidentitysecuritydefaultenforcementpolicy" {
				v, ok := psFlag(args, "isenabled", 2)
				return ok && (v == "$false" || v == "false" || v == "0"), "security defaults off"
			}
			for _, k := range [...]string{"disableantispyware", "disableantivirus", "disablerealtimemonitoring", "disablebehaviormonitoring",
				"disableioavprotection", "disableonaccessprotection", "enablelua", "enablefirewall"} {
				if strings.Contains(j, k) {
					return true, "group policy " + k
				}
			}
			return false, ""
		}},
	{ID: "win-mailbox-or-vault-opened", Level: LevelHigh, Category: CategoryPrivilege, Description: "giving another account full access to a mailbox or read access to a key vault's secrets",
		Suggestions: []string{"Let the owner or an administrator grant access"},
		names:       names("add-mailboxpermission", "add-recipientpermission", "set-azkeyvaultaccesspolicy", "set-mailbox"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			j := strings.Join(args, " ")
			if hasSw(args, "whatif") {
				return false, ""
			}
			switch c.name {
			case "add-mailboxpermission":
				return strings.Contains(j, "fullaccess"), "FullAccess"
			case "add-recipientpermission":
				return strings.Contains(j, "sendas"), "SendAs"
			case "set-mailbox":
				// mail forwarded to another address
				v, ok := swVal(args, "forwardingsmtpaddress", "forwardingaddress")
				return ok && !psCleared(v), "forwarding"
			}
			if !hasSw(args, "permissionstosecrets", "permissionstokeys", "permissionstocertificates") || !hasSw(args, "userprincipalname", "emailaddress") {
				return false, "" // an application's identity given what it reads
			}
			for _, w := range args {
				if scratchName(w) && !strings.Contains(w, "@") {
					return false, ""
				}
			}
			return true, "key vault secrets for " + j
		}},
	{ID: "win-rdp-allowed", Level: LevelHigh, Category: CategorySystem, Description: "letting Remote Desktop through the firewall",
		Suggestions: []string{"Reach the machine through a VPN or a bastion"},
		names:       names("netsh", "enable-netfirewallrule"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(wargs(c), " ")
			if c.name == "netsh" {
				return strings.Contains(j, "set rule") && strings.Contains(j, "remote desktop") && (strings.Contains(j, "enable=yes") || strings.Contains(j, "enable=true")), j
			}
			return strings.Contains(j, "remote desktop") || strings.Contains(j, "remotedesktop"), j
		}},
	{ID: "win-mirror-production", Level: LevelHigh, Category: CategoryFileDelete, Description: "mirroring a folder over a production or backup share (whatever the source lacks is deleted there)",
		Suggestions: []string{"Deploy through the release pipeline", "Copy without /MIR or /PURGE"}, names: names("robocopy"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if !hasSw(wargs(c), "mir", "purge") || hasSw(wargs(c), "l") {
				return false, ""
			}
			ops := robocopyOperands(c.args())
			if len(ops) < 2 || !strings.HasPrefix(ops[1].s, `\\`) && !strings.HasPrefix(ops[1].s, "//") {
				return false, ""
			}
			for _, p := range strings.FieldsFunc(strings.ToLower(ops[1].s), func(r rune) bool { return r == '\\' || r == '/' || r == '$' || r == '.' }) {
				if prodLabel(p) || strings.HasPrefix(p, "prod") || strings.Contains(p, "-prod-") || strings.Contains(p, "backup") || p == "bak" || p == "archive" || p == "releases" || p == "release" {
					return true, ops[1].s // (a backup or releases share: what the source lacks is its history)
				}
			}
			return false, ""
		}},
	{ID: "win-secret-hunt", Level: LevelHigh, Category: CategoryExfiltration, Description: "searching the profile or the disk for private keys, certificates or password databases",
		Suggestions: []string{"Search only the project folder", "Ask the user where the file is"},
		names:       names("get-childitem", "cmd:dir", "cmd:where"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			wa := wargs(c)
			var roots, patterns []string
			switch c.name {
			case "get-childitem":
				if !hasSw(wa, "recurse", "r", "rec", "recu", "recur", "recurs") {
					return false, ""
				}
				pa := parsePSArgs(args, []string{"path", "literalpath", "filter", "include", "exclude", "depth"}, []string{"recurse", "force", "file", "directory", "name", "hidden"})
				if p := psPathArg(pa); p != nil {
					roots = append(roots, splitComma(p.s)...)
				}
				for _, k := range [...]string{"filter", "include"} {
					if w, ok := pa.get(k); ok {
						patterns = append(patterns, splitComma(w.s)...)
					}
				}
				for _, r := range roots {
					patterns = append(patterns, r) // C:\Users\*.kdbx
				}
			case "cmd:dir":
				if !hasSw(wa, "s") {
					return false, ""
				}
				for _, w := range c.operands() {
					if !strings.HasPrefix(w.s, "/") {
						roots = append(roots, w.s)
						patterns = append(patterns, w.s)
					}
				}
			case "cmd:where":
				v, ok := swVal(wa, "r")
				if !ok {
					return false, ""
				}
				roots = append(roots, v)
				for _, w := range c.operands() {
					if !strings.HasPrefix(w.s, "/") && !strings.EqualFold(w.s, v) {
						patterns = append(patterns, w.s)
					}
				}
			}
			broad := false
			for _, r := range roots {
				dir := r
				if i := strings.IndexAny(dir, "*?"); i >= 0 {
					dir = dir[:max(strings.LastIndexAny(dir[:i], `\/`), 0)]
				}
				if p := a.winAbs(dir); p != "" {
					if cl, _ := a.winClassify(p); cl != wpInside && cl != wpWorkDir {
						broad = true
					}
				}
			}
			if !broad {
				return false, ""
			}
			for _, p := range patterns {
				base := p[strings.LastIndexAny(p, `\/`)+1:]
				if keyHunt(base) {
					return true, c.base + " " + p
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, winLongTailRules) }

// psShown reports a PowerShell command whose output reaches the
// transcript: the last stage, or piped only through cmdlets that select,
// filter or format what they show.
func psShown(c *cmd) bool {
	for s := nextStage(c); s != nil; s = nextStage(s) {
		switch s.name {
		case "select-object", "format-table", "format-list", "select", "ft", "fl":
			if props := positional(s.args()); len(props) > 0 && !secretProperty(props) {
				return false // ExpiresOn, Name: no value shown
			}
		case "where-object", "out-host", "write-output", "write-host", "convertto-json",
			"out-string", "foreach-object", "sort-object", "where", "%", "?":
		default:
			return false
		}
	}
	for _, r := range c.redirs {
		if r.isOutput() {
			return false
		}
	}
	return true
}

// secretProperty reports a projection that keeps a secret's value: its
// value, key, token, password or secret string, or every property.
func secretProperty(props []word) bool {
	for _, p := range props {
		l := lower(p.s)
		for _, m := range [...]string{"value", "key", "token", "password", "secret", "string", "credential", "*"} {
			if strings.Contains(l, m) && l != "keyname" {
				return true
			}
		}
	}
	return false
}

// psShownInSource reads the pipeline after cmdlet in the (lower-case)
// source line, for a front end that judges a stage before it links the
// next: a projection to properties that hold no secret, a variable or
// the clipboard shows nothing.
func psShownInSource(src, cmdlet string) bool {
	i := strings.Index(src, cmdlet)
	if i < 0 {
		return true
	}
	for _, stage := range strings.Split(src[i:], "|")[1:] {
		f := strings.Fields(strings.TrimSpace(stage))
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "select-object", "select", "format-table", "ft", "format-list", "fl":
			var props []word
			for _, p := range f[1:] {
				if !strings.HasPrefix(p, "-") || p == "-expandproperty" {
					props = append(props, lit(strings.Trim(p, ",'\"")))
				}
			}
			if len(props) > 0 && !secretProperty(props) {
				return false
			}
		case "set-clipboard", "out-null", "out-file", "set-content", "add-content", "export-csv", "export-clixml", "clip", "clip.exe":
			return false
		}
	}
	return true
}

// psCleared reports a parameter value that clears a setting: $null, an
// empty string, or nothing (PowerShell passes $null as no value).
func psCleared(v string) bool {
	return v == "" || v == "$null" || v == `""` || v == "''" || strings.HasPrefix(v, "-")
}
