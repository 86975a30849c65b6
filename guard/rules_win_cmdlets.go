package guard

import (
	"cmp"
	"strings"
)

// Cmdlets of modules nobody listed (a hosting provider's, a vault's, a
// SaaS admin module), read by PowerShell's Verb-Noun convention: the
// verb says what happens (Remove, Reset, Disable, Stop, Revoke), the
// noun what it happens to, the parameters where. Cmdlets with rules of
// their own are judged by those.
var winCmdletRules = []*rule{
	{ID: "win-stored-credential-shown", Level: LevelHigh, Category: CategoryExfiltration, Description: "printing passwords saved in Windows Credential Manager",
		Suggestions: []string{"List the targets only (Get-StoredCredential | Select-Object TargetName, UserName)", "Hand the credential to the command that needs it"},
		names:       names("get-storedcredential"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// Get-StoredCredential -AsCredentialObject gives the password
			// in clear text; shown as it is, or with Password picked
			if !hasFoldWord(c.args(), "-ascredentialobject") || a.wantOut > 0 {
				return false, ""
			}
			if c.pipe == nil || c.stage == len(c.pipe)-1 {
				return true, "Get-StoredCredential -AsCredentialObject"
			}
			// the stages after it (not yet judged): the password picked
			// or every property shown
			l := a.srcLow()
			i := strings.Index(l, "-ascredentialobject")
			if i < 0 {
				return false, ""
			}
			rest, _, _ := strings.Cut(l[i:], ";")
			if strings.Contains(rest, "password") || strings.Contains(rest, "format-list") || strings.Contains(rest, "convertto-json") || strings.Contains(rest, "select-object *") {
				return true, "Get-StoredCredential -AsCredentialObject, its password shown"
			}
			return false, ""
		}},
	{ID: "win-cmdlet-destroy", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "a module's cmdlet removing or resetting a durable or production resource without asking",
		Suggestions: []string{"Run it with -WhatIf first", "Remove one named test resource, and keep the confirmation"},
		match: func(a *analysis, c *cmd) (bool, string) {
			verb, noun, args, ok := unlistedCmdlet(c, "remove", "reset", "clear", "uninstall", "unregister", "delete")
			if !ok {
				return false, ""
			}
			if verb == "clear" && strings.Contains(noun, "cache") || hasSw(args, "whatif") || cmdletScratch(args) || revokesOutsideAccess(a, c) {
				return false, ""
			}
			if cmdletProduction(args) {
				return true, c.base + " in production"
			}
			if h := cmdletRemoteHost(a, c, args); h != "" && verb != "clear" {
				// Remove-SmbShare -CimSession FS01, Get-Printer
				// -ComputerName PRINTSRV01 | Remove-Printer: another
				// machine's shares, printers, namespaces
				return true, c.base + " on " + h
			}
			if !cmdletUnconfirmed(args) {
				return false, ""
			}
			if hasSw(args, "all") {
				return true, c.base + " -All"
			}
			if durableCmdletNoun(noun) {
				return true, c.base + " " + strings.Join(args, " ")
			}
			return false, ""
		}},
	{ID: "win-cmdlet-production-disrupted", Level: LevelHigh, Category: CategorySystem, Description: "a module's cmdlet stopping or suspending a production app or service",
		Suggestions: []string{"Change production through the release process", "Try it on a staging app first"},
		match: func(a *analysis, c *cmd) (bool, string) {
			_, _, args, ok := unlistedCmdlet(c, "stop", "suspend", "disable", "block")
			if !ok {
				return false, ""
			}
			if hasSw(args, "whatif") || cmdletScratch(args) || !cmdletProduction(args) {
				return false, ""
			}
			return true, c.base + " in production"
		}},
	{ID: "win-cmdlet-security-off", Level: LevelHigh, Category: CategorySystem, Description: "a module's cmdlet switching off a security control (audit log, MFA, protection, encryption, scanning)",
		Suggestions: []string{"Leave security controls to the account's administrators", "Change the one setting that is in the way, and say why"},
		match: func(a *analysis, c *cmd) (bool, string) {
			verb, noun, args, ok := unlistedCmdlet(c, "disable", "suspend", "stop", "remove", "set", "update", "edit")
			if !ok || hasSw(args, "whatif") || cmdletScratch(args) {
				return false, ""
			}
			switch verb {
			case "disable", "suspend", "stop", "remove":
				if control := nounControl(noun); control != "" && (verb != "remove" || deletableControl(control)) {
					return true, c.base
				}
			case "set", "update", "edit":
				// -RequireMfa $false, -AuditLogEnabled:$false, -EnableDeletionProtection false
				for i, w := range args {
					name, val, hasVal, isParam := psParam(w)
					if !isParam {
						continue
					}
					if !hasVal && i+1 < len(args) {
						val = args[i+1]
					}
					switch strings.Trim(lower(val), `"'`) {
					case "$false", "false", "0", "disabled", "off", "none":
					default:
						continue
					}
					if control := nounControl(name); control != "" && deletableControl(control) {
						return true, c.base + " -" + name + " " + val
					}
				}
			}
			return false, ""
		}},
	{ID: "win-cmdlet-secret-shown", Level: LevelHigh, Category: CategoryExfiltration, Description: "a module's cmdlet printing a secret, key or password in plain text",
		Suggestions: []string{"Keep the value in a variable and pass it to what needs it", "List secret names only"},
		match: func(a *analysis, c *cmd) (bool, string) {
			_, noun, args, ok := unlistedCmdlet(c, "get", "show", "read", "export")
			if !ok {
				return false, ""
			}
			secretNoun := false
			for _, k := range [...]string{"secret", "key", "password", "credential", "token", "connectionstring"} {
				secretNoun = secretNoun || strings.Contains(noun, k)
			}
			// Get-MgInformationProtectionBitlockerRecoveryKey -Property key:
			// Graph returns a recovery key's value only when asked for it
			asked := hasSw(args, "asplaintext", "plaintext", "reveal", "showsecret", "showvalue", "decrypt", "withdecryption", "includevalue", "unmask") ||
				strings.Contains(noun, "recoverykey") && hasSw(args, "property") && slicesContains(args, "key")
			if !secretNoun || !asked {
				return false, ""
			}
			src := a.srcLow()
			if a.wantOut > 0 || !psShown(c) || !psShownInSource(src, c.name) || psCaptured(src, c.name) || cmdletScratch(withoutVault(args)) {
				return false, ""
			}
			return true, c.base + " " + strings.Join(args, " ")
		}},
	{ID: "win-cmdlet-admin-grant", Level: LevelHigh, Category: CategoryPrivilege, Description: "a module's cmdlet granting an owner or administrator role",
		Suggestions: []string{"Grant the narrowest role that does the job", "Let an administrator grant roles"},
		match: func(a *analysis, c *cmd) (bool, string) {
			verb, noun, args, ok := unlistedCmdlet(c, "add", "new", "set", "grant", "update")
			if !ok {
				return false, ""
			}
			if strings.HasSuffix(noun, "admin") && (verb == "add" || verb == "grant") && !hasSw(args, "whatif") && !cmdletScratch(args) {
				// Add-PnPSiteCollectionAdmin -Owners x: an administrator added
				return true, c.base
			}
			if !strings.Contains(noun, "role") && !strings.Contains(noun, "member") && !strings.Contains(noun, "permission") && !strings.Contains(noun, "access") {
				return false, ""
			}
			for _, w := range args {
				switch strings.Trim(w, `"'`) {
				case "owner", "admin", "administrator", "globaladministrator", "global administrator", "superadmin", "accountadmin", "orgadmin":
					if hasSw(args, "whatif") {
						return false, ""
					}
					return true, c.base + " " + w
				}
			}
			return false, ""
		}},
	{ID: "win-cmdlet-made-public", Level: LevelHigh, Category: CategoryPermission, Description: "a module's cmdlet making a repository, container or app readable by everyone",
		Suggestions: []string{"Share single items through links that expire", "Ask the owner before publishing"},
		match: func(a *analysis, c *cmd) (bool, string) {
			_, _, args, ok := unlistedCmdlet(c, "set", "update", "edit", "grant")
			if !ok {
				return false, ""
			}
			for i, w := range args {
				name, val, hasVal, isParam := psParam(w)
				if !isParam {
					continue
				}
				if !hasVal && i+1 < len(args) {
					val = args[i+1]
				}
				val = strings.Trim(lower(val), `"'`)
				switch {
				case (name == "visibility" || name == "publicaccess" || name == "access") && (val == "public" || val == "blob" || val == "container"),
					name == "sharingcapability" && val == "externaluserandguestsharing", name == "defaultsharinglinktype" && val == "anonymousaccess",
					(name == "allowanonymous" || name == "public" || name == "allowpublicaccess" || name == "anonymousaccess") && (val == "$true" || val == "true" || !hasVal && i+1 == len(args)):
					if hasSw(args, "whatif") || cmdletScratch(args) {
						return false, ""
					}
					return true, c.base + " -" + name + " " + val
				}
			}
			return false, ""
		}},
	{ID: "win-cmdlet-credentials-revoked", Level: LevelHigh, Category: CategorySystem, Description: "a module's cmdlet revoking or resetting every key or token, or production's",
		Suggestions: []string{"Rotate one credential at a time, with its users updated first"},
		match: func(a *analysis, c *cmd) (bool, string) {
			_, noun, args, ok := unlistedCmdlet(c, "revoke", "reset", "invoke")
			if !ok {
				return false, ""
			}
			cred := false
			for _, k := range [...]string{"token", "key", "credential", "secret", "certificate", "password", "session"} {
				cred = cred || strings.Contains(noun, k)
			}
			if !cred || hasSw(args, "whatif") || cmdletScratch(args) {
				return false, ""
			}
			if hasSw(args, "all") || cmdletProduction(args) {
				return true, c.base + " " + strings.Join(args, " ")
			}
			return false, ""
		}},
	{ID: "win-cmdlet-open-to-internet", Level: LevelHigh, Category: CategoryPermission, Description: "a module's cmdlet letting the whole internet (0.0.0.0/0) in to a cloud resource",
		Suggestions: []string{"Allow the addresses that need access (the office's, a VPN's)", "Reach the resource through a bastion or a private endpoint"},
		match: func(a *analysis, c *cmd) (bool, string) {
			// Grant-EC2SecurityGroupIngress -IpPermission @{...;
			// IpRanges='0.0.0.0/0'}, Add-AzNetworkSecurityRuleConfig
			// -SourceAddressPrefix 0.0.0.0/0
			_, _, args, ok := unlistedCmdlet(c, "grant", "add", "new", "set", "update", "edit")
			if !ok || hasSw(args, "whatif") {
				return false, ""
			}
			for i, w := range args {
				if strings.Contains(w, "0.0.0.0/0") || strings.Contains(w, "::/0") {
					return true, c.base + " 0.0.0.0/0"
				}
				// Edit-RDSDBInstance -PubliclyAccessible $true: a
				// database given an address on the internet
				if n, v, _ := strings.Cut(strings.ToLower(w), ":"); n == "-publiclyaccessible" &&
					(v == "$true" || v == "true" || v == "" && i+1 < len(args) && strings.EqualFold(strings.TrimPrefix(args[i+1], "$"), "true")) {
					return true, c.base + " -PubliclyAccessible"
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, winCmdletRules, azureRules) }

// Azure from PowerShell: a network security group opened to the whole
// internet (as az network nsg rule create --source-address-prefixes '*'
// is from the CLI), a runbook published and scheduled.
var azureRules = []*rule{
	{ID: "cloud-runbook-scheduled", Level: LevelHigh, Category: CategoryPersistence, Description: "publishing an automation runbook and scheduling it (the cloud runs the script by itself from now on)",
		Suggestions: []string{"Deploy runbooks through reviewed infrastructure code", "Run the script once, by hand"},
		names:       names("new-azautomationschedule", "register-azautomationscheduledrunbook"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if !a.srcLowHas("import-azautomationrunbook") && !a.srcLowHas("publish-azautomationrunbook") && c.name != "register-azautomationscheduledrunbook" || hasSw(wargs(c), "whatif") {
				return false, ""
			}
			return true, c.base
		}},
	{ID: "nsg-opened-to-internet", Level: LevelHigh, Category: CategorySystem, Description: "allowing inbound traffic from any address in a cloud network security group (every scanner on the internet reaches the port)",
		Suggestions: []string{"Allow the one address or range that needs it", "Reach the machine through a bastion or VPN"},
		names:       names("add-aznetworksecurityruleconfig", "set-aznetworksecurityruleconfig", "new-aznetworksecurityruleconfig"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := wargs(c)
			access, _ := swVal(args, "access")
			dir, _ := swVal(args, "direction")
			src, _ := swVal(args, "sourceaddressprefix")
			if strings.Trim(access, `"'`) != "allow" || strings.Trim(dir, `"'`) != "inbound" || hasSw(args, "whatif") {
				return false, ""
			}
			switch strings.Trim(src, `"'`) {
			case "*", "internet", "any", "0.0.0.0/0", "::/0":
				port, _ := swVal(args, "destinationportrange")
				return true, "inbound from " + src + " to port " + cmp.Or(port, "any")
			}
			return false, ""
		}},
}

// unlistedCmdlet splits a cmdlet of a module nobody listed into its verb
// and noun (lower case) and returns its arguments; ok is false for other
// verbs than those given and for everything else, cmdlets with rules of
// their own included.
func unlistedCmdlet(c *cmd, verbs ...string) (verb, noun string, args []string, ok bool) {
	verb, noun, found := strings.Cut(c.name, "-")
	if !found || noun == "" || !slicesContains(verbs, verb) {
		return "", "", nil, false
	}
	if strings.ContainsAny(noun, "-./\\") || ownsCmdlet(c.name) {
		return "", "", nil, false
	}
	return verb, noun, wargs(c), true
}

// ownsCmdlet reports a cmdlet with a rule of its own that judges all of
// it (partial rules judge one kind of what it does, and leave the rest
// to the generic cmdlet rules).
func ownsCmdlet(name string) bool {
	for _, r := range rulesByName[name] {
		if !r.partial {
			return true
		}
	}
	return false
}

// cmdletRemoteHost returns the other computer a cmdlet acts on (its
// -ComputerName, -CimSession or -Server, or an earlier stage's of the
// same pipeline), or "".
func cmdletRemoteHost(a *analysis, c *cmd, args []string) string {
	remote := func(h string) string {
		h = strings.Trim(h, `"'`)
		switch {
		case h == "", h == ".", h == "localhost", h == "127.0.0.1", strings.HasPrefix(h, "$env:computername"), strings.HasPrefix(h, "$"):
			return ""
		}
		return h
	}
	if v, ok := swVal(args, "computername", "cimsession", "server", "pscomputername"); ok {
		return remote(v)
	}
	if c.pipe == nil || c.stage == 0 {
		return ""
	}
	src := a.srcLow()
	i := strings.Index(src, c.name)
	if i < 0 {
		return ""
	}
	before := src[:i]
	if j := strings.LastIndexByte(before, ';'); j >= 0 {
		before = before[j+1:]
	}
	for _, k := range [...]string{"-computername ", "-cimsession "} {
		if j := strings.LastIndex(before, k); j >= 0 {
			f := strings.Fields(before[j+len(k):])
			if len(f) > 0 {
				return remote(f[0])
			}
		}
	}
	return ""
}

// cmdletUnconfirmed reports -Force or -Confirm:$false.
func cmdletUnconfirmed(args []string) bool {
	if hasSw(args, "force") {
		return true
	}
	v, ok := swVal(args, "confirm")
	return ok && (v == "$false" || v == "false" || v == "0")
}

// cmdletProduction reports a parameter value naming production.
func cmdletProduction(args []string) bool {
	for _, w := range args {
		if !strings.HasPrefix(w, "-") && (prodMarker(w) || isProdName(w)) {
			return true
		}
	}
	return false
}

// cmdletScratch reports a parameter value naming a test, preview or
// throwaway resource.
// withoutVault drops -Vault NAME: a store named LocalStore holds real
// secrets as well as scratch ones; the secret's own name says which.
func withoutVault(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		if args[i] == "-vault" || args[i] == "-vaultname" {
			i++
			continue
		}
		if (args[i] == "-name" || args[i] == "-secretname") && i+1 < len(args) && devSecretName(args[i+1]) {
			out = append(out, "dev-secret") // DevDbPassword, AcmeTestKey: a development secret
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// devSecretName reports a secret named for development or tests
// (DevDbPassword, AcmeDevApiKey, LocalSmtp), not DevOps' own.
func devSecretName(n string) bool {
	l := strings.ReplaceAll(strings.ToLower(strings.Trim(n, `"'`)), "devops", "")
	return strings.Contains(l, "dev") || strings.Contains(l, "test") || strings.HasPrefix(l, "local") || strings.Contains(l, "sandbox")
}

func cmdletScratch(args []string) bool {
	for _, w := range args {
		if strings.HasPrefix(w, `\\`) || strings.HasPrefix(w, "//") {
			// \\arkdesign.local\dfs: an Active Directory domain's .local
			w = strings.ReplaceAll(lower(w), ".local", "")
		}
		if !strings.HasPrefix(w, "-") && scratchName(strings.ReplaceAll(w, "example.", "")) {
			return true
		}
	}
	return false
}

// durableCmdletNoun reports a noun for something whose loss is lasting:
// a database, a backup, a vault, a repository, a domain.
func durableCmdletNoun(noun string) bool {
	for _, k := range [...]string{"database", "db", "backup", "snapshot", "vault", "bucket", "storage", "cluster", "server", "zone", "domain",
		"repository", "repo", "tenant", "subscription", "resourcegroup", "secret", "certificate", "mailbox", "account", "volume", "disk", "table",
		// a domain's file namespaces and their replication
		"dfsnroot", "dfsnfolder", "dfsreplicationgroup"} {
		if strings.Contains(noun, k) {
			return true
		}
	}
	return false
}

// nounControl returns the security control a cmdlet noun or parameter
// names (NimbusAuditLog, RequireMfa, EnableDeletionProtection), or "".
func nounControl(s string) string {
	l := lower(s)
	if strings.Contains(l, "backupprotection") {
		return "" // a backup schedule stopped; its recovery points stay
	}
	for _, k := range [...]struct{ in, control string }{
		{"auditlog", "audit-log"}, {"audit", "audit"}, {"mfa", "mfa"}, {"twofactor", "two-factor"}, {"2fa", "2fa"},
		{"deletionprotection", "deletion-protection"}, {"branchprotection", "branch-protection"}, {"protection", "protection"},
		{"encryption", "encryption"}, {"secretscanning", "secret-scanning"}, {"scanning", "scanning"}, {"defender", "defender"},
		{"waf", "waf"}, {"ipallowlist", "ip-allowlist"}, {"allowlist", "allowlist"}, {"iprestriction", "ip-restrictions"},
		{"securitydefaults", "security"}, {"conditionalaccess", "security"}, {"pointintimerecovery", "pitr"}, {"pitr", "pitr"},
	} {
		if strings.Contains(l, k.in) {
			return k.control
		}
	}
	return ""
}

// psCaptured reports a cmdlet whose output the line keeps rather than
// shows: assigned ($key = Get-X ..., $env:X = Get-X ...) or passed as an
// argument in parentheses (-Password (Get-X ...)).
func psCaptured(src, cmdlet string) bool {
	i := strings.Index(src, cmdlet)
	if i < 0 {
		return false
	}
	before := src[:i]
	if j := strings.LastIndexAny(before, ";\n{"); j >= 0 {
		before = before[j+1:]
	}
	before = strings.TrimRight(before, " \t")
	return strings.HasSuffix(before, "=") || strings.HasSuffix(before, "(") || strings.HasSuffix(before, "$(")
}
