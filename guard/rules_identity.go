package guard

import "strings"

// Identity providers: Keycloak's kcadm, Microsoft Entra ID through Graph
// PowerShell and az rest, Okta's and Auth0's APIs and CLIs, OpenLDAP. A
// second factor or its enrolment switched off, security defaults and
// conditional access disabled, the audit trail of logins stopped, a
// client opened to any redirect, an outside identity provider or domain
// federation trusted, signing keys wiped or revoked, the break-glass
// account disabled, a password reset link or client secret printed. Reads
// and a development realm's or tenant's changes pass.

func init() { ruleSets = append(ruleSets, identityRules) }

// identityClients reach an identity provider's administration.
var identityClients = names("kcadm.sh", "kcadm.bat", "kcadm", "kc.sh", "kc.bat", "curl", "az", "auth0", "a0deploy", "ldapsearch", "ldapmodify",
	"update-mgpolicyidentitysecuritydefaultenforcementpolicy", "update-mgpolicyauthenticationmethodpolicyauthenticationmethodconfiguration",
	"update-mgidentityconditionalaccesspolicy", "remove-mgidentityconditionalaccesspolicy", "update-mguser", "new-mgdomainfederationconfiguration",
	"update-mgserviceprincipal", "update-mgapplication", "invoke-restmethod", "invoke-webrequest", "irm", "iwr", "invoke-mggraphrequest")

var identityRules = []*rule{
	{ID: "identity-protection-off", Level: LevelHigh, Category: CategorySystem, Description: "switching off an identity provider's protections: a second factor or its enrolment, security defaults, a conditional access policy, login and admin event logging, a client's redirect limits, the break-glass account",
		Suggestions: []string{"Change sign-in policies in the provider's console with a second administrator", "Exclude one named account from a policy instead of turning it off"},
		partial:     true, // (the generic cmdlet rules judge the rest of what they do)
		names:       identityClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			if !strings.HasPrefix(c.name, "kc") && !strings.HasPrefix(c.name, "update-mg") && !strings.HasPrefix(c.name, "remove-mg") &&
				!hasAnyFold(c.argsText(), "conditionalaccess", "/api/v1/policies/") {
				return false, "" // (the REST clients: only these two APIs)
			}
			if identityScratch(a, c) {
				return false, ""
			}
			j := strings.ReplaceAll(strings.ReplaceAll(lower(c.argsText()), " ", ""), `\"`, `"`)
			switch c.name {
			case "kcadm.sh", "kcadm.bat", "kcadm":
				ops := c.operands()
				if len(ops) < 2 || ops[0].s != "update" && ops[0].s != "create" {
					return false, ""
				}
				target := lower(ops[1].s)
				switch {
				case strings.HasPrefix(target, "authentication/required-actions/") && strings.Contains(j, "enabled=false"):
					return true, "the required action " + ops[1].s + " switched off"
				case target == "events/config" && (strings.Contains(j, "eventsenabled=false") || strings.Contains(j, "admineventsenabled=false")):
					return true, "login and admin events switched off"
				case strings.HasPrefix(target, "clients/") && (strings.Contains(j, `redirecturis=["*"]`) || strings.Contains(j, "redirecturis=[*]")):
					return true, "a client accepting any redirect URI"
				case strings.HasPrefix(target, "realms/") && (strings.Contains(j, "bruteforceprotected=false") || strings.Contains(j, "sslrequired=none")):
					return true, "the realm's brute-force protection or TLS requirement switched off"
				case target == "identity-provider/instances" && ops[0].s == "create":
					return true, "an outside identity provider trusted by the realm"
				}
			case "update-mgpolicyidentitysecuritydefaultenforcementpolicy":
				if strings.Contains(j, "isenabled=$false") || strings.Contains(j, "isenabled=false") || strings.Contains(j, `"isenabled":false`) {
					return true, "the tenant's security defaults (its MFA) switched off"
				}
			case "update-mgpolicyauthenticationmethodpolicyauthenticationmethodconfiguration":
				if strings.Contains(j, `state="disabled"`) || strings.Contains(j, "state='disabled'") || strings.Contains(j, "state=disabled") {
					return true, "an authentication method switched off"
				}
			case "update-mgidentityconditionalaccesspolicy":
				if strings.Contains(j, "disabled") {
					return true, "a conditional access policy disabled"
				}
			case "remove-mgidentityconditionalaccesspolicy":
				return true, "a conditional access policy removed"
			case "update-mguser":
				if (strings.Contains(j, "accountenabled:$false") || strings.Contains(j, "accountenabled:false") || strings.Contains(j, "accountenabled=$false") || strings.Contains(j, "-accountenabled$false")) &&
					hasAny(j, "breakglass", "break-glass", "emergency") {
					return true, "the break-glass account disabled"
				}
			default:
				// REST: Graph's conditional access, Okta's policies
				if strings.Contains(j, "/conditionalaccess/policies") && strings.Contains(j, `"state":"disabled"`) {
					return true, "a conditional access policy disabled"
				}
				if strings.Contains(j, "/api/v1/policies/") && strings.Contains(j, `"factormode":"1fa"`) {
					return true, "an Okta sign-on rule allowing one factor"
				}
			}
			return false, ""
		}},
	{ID: "identity-trust-subverted", Level: LevelCritical, Category: CategoryPersistence, Description: "making an identity provider trust or feed an outsider: a domain federated to another sign-in service, an event hook or login action posting users to an outside host, a realm imported over production",
		Suggestions: []string{"Federate domains and add hooks in the console, reviewed by a second administrator", "Import realms into a new realm, never over a live one"},
		partial:     true, // (the generic cmdlet rules judge the rest of what they do)
		names:       identityClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			switch c.name {
			case "new-mgdomainfederationconfiguration", "auth0", "kc.sh", "kc.bat":
			default:
				if !hasAnyFold(c.argsText(), "eventhooks") {
					return false, ""
				}
			}
			if identityScratch(a, c) {
				return false, ""
			}
			j := lower(c.argsText())
			switch c.name {
			case "new-mgdomainfederationconfiguration":
				return true, "the domain's sign-in federated to " + orAnother(firstURLHost(c.args()))
			case "auth0":
				if strings.Contains(j, "actions create") && strings.Contains(j, "post-login") && strings.Contains(j, "fetch(") {
					return true, "a login action posting users to " + orAnother(firstURLHost(c.args()))
				}
			case "kc.sh", "kc.bat":
				if strings.Contains(j, "import") && (strings.Contains(j, "--override true") || strings.Contains(j, "--override=true")) && (a.prodTarget > 0 || touchesProduction(c)) {
					return true, "a realm file imported over production's"
				}
			default:
				if strings.Contains(j, "/api/v1/eventhooks") && (hasWord(c.args(), "POST") || strings.Contains(j, "-x post")) {
					if u := strings.Index(j, `"uri":"`); u >= 0 {
						return true, "an event hook sending sign-ins to " + hostOf(strings.Trim(j[u+7:], `"}'`))
					}
					return true, "an event hook sending sign-ins out"
				}
			}
			return false, ""
		}},
	{ID: "identity-keys-destroyed", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "wiping or revoking an identity provider's signing keys or an application's credentials (every token and sign-in that depends on them stops)",
		Suggestions: []string{"Rotate keys with the new one published before the old one is revoked", "Remove one named credential after its replacement works"},
		partial:     true, // (the generic clients' rules judge their other deletes)
		names:       identityClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			switch c.name {
			case "update-mgserviceprincipal", "update-mgapplication", "auth0", "a0deploy":
			default:
				return false, ""
			}
			if identityScratch(a, c) {
				return false, ""
			}
			j := strings.ReplaceAll(lower(c.argsText()), " ", "")
			switch c.name {
			case "update-mgserviceprincipal", "update-mgapplication":
				if strings.Contains(j, "-keycredentials@()") || strings.Contains(j, "-passwordcredentials@()") {
					return true, "an application's certificates and secrets wiped"
				}
			case "auth0":
				if strings.Contains(j, "keys/signing/") && strings.Contains(j, "/revoke") {
					return true, "a tenant signing key revoked"
				}
			case "a0deploy":
				for _, as := range c.assigns {
					if as.name == "AUTH0_ALLOW_DELETE" && lower(as.val.s) == "true" {
						return true, "a0deploy import deleting what its file lacks"
					}
				}
			}
			return false, ""
		}},
	{ID: "identity-secret-printed", Level: LevelHigh, Category: CategoryExfiltration, Description: "printing an identity provider's secrets: a client secret, users' password hashes, a password reset link meant for its owner",
		Suggestions: []string{"Hand secrets to the program that needs them through a secret store", "Let the user receive their reset link by e-mail"},
		partial:     true, // (the generic cmdlet rules judge the rest of what they do)
		names:       identityClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			switch c.name {
			case "kcadm.sh", "kcadm.bat", "kcadm":
				ops := c.operands()
				if len(ops) > 1 && ops[0].s == "get" && strings.HasSuffix(lower(ops[1].s), "/client-secret") {
					return true, "a client's secret (" + ops[1].s + ")"
				}
			case "ldapsearch":
				for _, w := range c.operands() {
					if l := lower(w.s); l == "userpassword" || l == "*" && hasWord(c.args(), "-Y") {
						return true, "the directory's userPassword hashes"
					}
				}
			default:
				if j := lower(c.argsText()); strings.Contains(j, "/lifecycle/reset_password") && strings.Contains(j, "sendemail=false") {
					return true, "a password reset link printed instead of mailed to its owner"
				}
			}
			return false, ""
		}},
}

// identityScratch reports a call on a development or test realm, tenant
// or host.
func identityScratch(a *analysis, c *cmd) bool {
	if strings.HasPrefix(c.name, "kcadm") && hasAny(a.srcLow(), "--server http://localhost", "--server http://127.0.0.1", "--server=http://localhost") {
		return true // kcadm logged in to the Keycloak on this machine
	}
	if r, ok := optValue(c.args(), "-r", "target-realm", "realm"); ok && (wpScratchName(r) || r == "master" && false) {
		return true
	}
	for _, u := range urlArgs(c.args()) {
		if h := hostOf(u); h != "" && (wpScratchName(h) || strings.Contains(h, "oktapreview") || loopback(h)) {
			return true
		}
	}
	return false
}

// complianceWeakened is Microsoft 365's records protection undone from
// Exchange Online and Security & Compliance PowerShell: mail deleted from
// a mailbox, auditing turned off, retention tags that delete, a mailbox
// exported to a share elsewhere, eDiscovery and export roles granted.
var complianceWeakened = &rule{ID: "compliance-records-weakened", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "undoing a tenant's records protection: mail deleted from mailboxes, auditing turned off, retention set to delete at once, a mailbox exported off the network, eDiscovery or export roles granted",
	Suggestions: []string{"Change compliance settings with the records team, in the portal, with the change recorded", "Export to the compliance team's own storage"},
	partial:     true,
	names: names("search-mailbox", "set-organizationconfig", "set-adminauditlogconfig", "set-retentionpolicytag", "new-mailboxexportrequest",
		"add-rolegroupmember", "new-managementroleassignment", "set-labelpolicy"),
	match: func(a *analysis, c *cmd) (bool, string) {
		j := strings.ReplaceAll(lower(c.argsText()), " ", "")
		switch c.name {
		case "search-mailbox":
			if strings.Contains(j, "-deletecontent") {
				return true, "mail deleted from the mailbox (Search-Mailbox -DeleteContent)"
			}
		case "set-organizationconfig", "set-adminauditlogconfig":
			if strings.Contains(j, "-auditdisabled$true") || strings.Contains(j, "-auditdisabledtrue") || strings.Contains(j, "-auditdisabled:$true") ||
				strings.Contains(j, "-unifiedauditlogingestionenabled$false") || strings.Contains(j, "-unifiedauditlogingestionenabled:$false") || strings.Contains(j, "-unifiedauditlogingestionenabledfalse") {
				return true, "the tenant's auditing turned off"
			}
		case "set-retentionpolicytag":
			if strings.Contains(j, "permanentlydelete") || strings.Contains(j, "deleteandallowrecovery") {
				if v, ok := swVal(wargs(c), "agelimitforretention"); !ok || len(v) <= 2 {
					return true, "a retention tag deleting mail within days"
				}
			}
		case "new-mailboxexportrequest":
			if v, ok := swVal(wargs(c), "filepath"); ok && strings.HasPrefix(v, `\\`) {
				host, _, _ := strings.Cut(strings.TrimPrefix(v, `\\`), `\`)
				if strings.Contains(host, ".") && !strings.HasSuffix(lower(host), ".local") && !strings.HasSuffix(lower(host), ".corp") {
					return true, "a mailbox exported to " + host
				}
			}
		case "add-rolegroupmember", "new-managementroleassignment":
			if hasAny(j, "ediscoverymanager", "mailboximportexport", "organizationmanagement", "compliancemanagement") {
				return true, "eDiscovery or mailbox export rights granted"
			}
		case "set-labelpolicy":
			if strings.Contains(j, "-removelabels") {
				return true, "sensitivity labels unpublished"
			}
		}
		return false, ""
	}}

func init() { ruleSets = append(ruleSets, []*rule{complianceWeakened}) }

// orAnother is h, or "another service" when no host was found.
func orAnother(h string) string {
	if h == "" {
		return "another service"
	}
	return h
}
