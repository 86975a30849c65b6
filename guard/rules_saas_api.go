package guard

import (
	"regexp"
	"strings"
)

// Hosted services administered through their REST APIs with an HTTP
// client (curl, HTTPie, wget, Invoke-RestMethod) or through their own
// CLIs, judged by what the call means rather than by the vendor: a
// private thing made public, an account made an administrator, alerting
// or a production switch turned off.
var saasAPIRules = []*rule{
	{ID: "edr-fleet-action", Level: LevelCritical, Category: CategorySystem, Description: "an endpoint-security console's action (containment, a live-response command) sent to every host it lists",
		Suggestions: []string{"Act on the hosts of the incident by their ids", "Let the security team run fleet-wide actions"},
		names:       names("invoke-falconhostaction", "invoke-falconrtr", "invoke-falconadminaction"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// Get-FalconHost -All | Invoke-FalconHostAction -Name contain:
			// every host of the tenant
			src := a.srcLow()
			if strings.Contains(src, "get-falconhost") && strings.Contains(src, "-all") && !hasSw(wargs(c), "whatif") {
				return true, c.base + " on every host Get-FalconHost -All lists"
			}
			return false, ""
		}},
	{ID: "api-action-disrupts", Level: LevelHigh, Category: CategorySystem, Description: "an API call whose endpoint stops, uninstalls, decommissions, wipes or resets what it names",
		Suggestions: []string{"Do it from the service's console, where it shows what it stops", "Try the call on a sandbox or staging account first"},
		names:       httpClients,
		partial:     true,
		match: func(a *analysis, c *cmd) (bool, string) {
			// POST .../arcgis/admin/machines/GIS01/stop, .../agents/actions/
			// uninstall, .../connections/reset: the last step of the path
			// is the action (a GET reads it; a review app's environment
			// stopped, a sandbox's or this machine's, passes)
			h, ok := readHTTPCall(c)
			if !ok || h.url == "" || h.method == "" || h.method == "GET" || h.method == "HEAD" || h.scratch() {
				return false, ""
			}
			p := h.url
			if i := strings.Index(p, "://"); i >= 0 {
				p = p[i+3:]
			}
			if i := strings.IndexAny(p, "?#"); i >= 0 {
				p = p[:i]
			}
			p = strings.TrimRight(lower(p), "/")
			i := strings.LastIndexByte(p, '/')
			if i < 0 {
				return false, ""
			}
			switch p[i+1:] {
			case "stop", "shutdown", "uninstall", "decommission", "terminate", "wipe", "destroy", "purge", "kill", "reset", "factory-reset", "factoryreset", "bulk_unenroll", "offboard":
				if strings.Contains(p, "/environments/") {
					return false, "" // a review app's environment stopped
				}
				return true, h.method + " " + h.url
			case "isolate", "contain", "disconnect", "unenroll", "quarantine", "runliveresponse", "runscript":
				// an endpoint cut off or commanded: one machine is an
				// incident's answer; every machine a list or a filter
				// yields (a loop over the listing, a filter for all) is
				// the company's outage
				if fleetWide(a, h) {
					return true, "every listed machine: " + h.method + " " + h.url
				}
			}
			return false, ""
		}},
	{ID: "api-made-public", Level: LevelHigh, Category: CategoryPermission, Description: "making a private channel, dashboard, report or site public through a service's API",
		Suggestions: []string{"Share it with the people who need it", "Ask the owner before publishing"},
		names:       httpClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			return changingCall(c, false, []string{"converttopublic", "public_link", "public-link", "public-dashboards", "publicdashboards", "make_public", "makepublic", "publish-to-web"},
				[]string{`"share":"public"`, `"visibility":"public"`, `"ispublic":true`, `"public":true`, `"privacy":"public"`, `"access":"anonymous"`})
		}},
	{ID: "api-admin-granted", Level: LevelHigh, Category: CategoryPrivilege, Description: "making an account an administrator or owner through a service's API",
		Suggestions: []string{"Grant the narrowest role that does the job", "Let the service's administrators grant admin rights"},
		names:       httpClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			// POST .../roles/$ADMIN_ROLE_ID/users: members added to the
			// administrators' role
			if h, ok := readHTTPCall(c); ok && (h.method == "POST" || h.method == "PUT") && !h.scratch() && strings.Contains(h.url, "/roles/") &&
				(strings.HasSuffix(h.url, "/users") || strings.HasSuffix(h.url, "/members")) && (strings.Contains(h.vars, "admin") || strings.Contains(h.url, "admin")) {
				return true, h.method + " " + h.url
			}
			return changingCall(c, true, []string{"setadmin", "setowner", "site-admins", "groupname=admins", "groupname=administrators", "/admins/", "addadmin", "promote"},
				[]string{`"role":"admin"`, `"role":"owner"`, `"role":"administrator"`, `"is_admin":true`, `"isadmin":true`, `"admin":true`, `"role":"superadmin"`,
					`"roles":["admin"`, `"type":"super_admin"`, `"type":"org_admin"`, `"role":"super_admin"`, `"orgrole":"owner"`, `"orgrole":"admin"`,
					`"role":"accountadministrator"`, `"role":"account administrator"`, `"role":"account_admin"`})
		}},
	{ID: "api-mfa-removed", Level: LevelHigh, Category: CategorySystem, Description: "removing an account's second factors through a directory's API (the account is left with a password alone)",
		Suggestions: []string{"Let the identity team reset factors after verifying the user", "Reset one factor the user asked for, in the admin console"},
		names:       httpClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			if ok, d := changingCall(c, false, []string{"reset_factors", "reset_mfa", "resetmfa", "/mfa/reset", "/2fa/disable", "disable_2fa"}, nil); ok {
				return true, d
			}
			// DELETE .../factors/ID, .../authentication/methods/ID: one
			// enrolled factor removed (a POST there enrolls one)
			h, ok := readHTTPCall(c)
			if ok && h.method == "DELETE" && !h.scratch() && hasAny(h.url, "/factors/", "/authentication/", "/mfa/") {
				return true, "DELETE " + h.url
			}
			return false, ""
		}},
	{ID: "api-switched-off", Level: LevelHigh, Category: CategorySystem, Description: "switching off a production service's alerting, integration, destination or feature through its API (pages stop, data stops flowing, the feature disappears)",
		Suggestions: []string{"Change it through the service's reviewed configuration", "Try it on a staging service first"},
		names:       httpClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			h, ok := readHTTPCall(c)
			if !ok || h.method == "GET" || h.method == "HEAD" || h.method == "DELETE" || h.scratch() {
				return false, ""
			}
			u := h.url
			if q := strings.IndexByte(u, '?'); q >= 0 {
				u = u[:q]
			}
			last := u[strings.LastIndexByte(u, '/')+1:]
			switch last {
			case "disable", "deactivate", "mute", "mute_all", "silence", "snooze", "pause":
				return true, h.method + " " + h.url
			case "off":
				// Unleash's .../environments/production/off: the
				// feature switched off for every customer
				if isProdName(u) {
					return true, h.method + " " + h.url
				}
			}
			b := compactJSON(h.body)
			lb := lower(b)
			switch last {
			case "downtime", "downtimes", "maintenance_windows", "silences", "silence", "mutes":
				// a downtime or maintenance window over production: its
				// alerts stop paging
				if h.method == "POST" && (isProdName(b) || strings.Contains(lb, `"scope":"*"`)) {
					return true, h.method + " " + h.url + " (production's alerts muted)"
				}
			}
			// a flag switched in production: LaunchDarkly's JSON patch
			// (/environments/production/on to false) and semantic patch
			// (turnFlagOff in production)
			if strings.Contains(lb, "/environments/production/on") && strings.Contains(lb, `"value":false`) ||
				strings.Contains(lb, `"kind":"turnflagoff"`) && isProdName(lb) {
				return true, h.method + " " + h.url + " (a production flag switched off)"
			}
			switch last {
			case "ssl", "security_level", "waf", "always_use_https", "browser_check", "min_tls_version":
				// a zone's TLS or security setting turned down
				if hasAny(b, `"value":"off"`, `"value":"essentially_off"`, `"value":"flexible"`, `"value":"1.0"`) {
					return true, h.method + " " + h.url + " " + b
				}
			}
			if hasAny(b, `"enabled":false`, `"status":"disabled"`, `"active":false`, `"on":false`, `"status":"ignored"`, `"status":"muted"`, `"disabled":true`, `"paused":true`) {
				return true, h.method + " " + h.url + " " + b
			}
			return false, ""
		}},
	{ID: "api-security-setting-off", Level: LevelHigh, Category: CategorySystem, Description: "turning a security setting off through a service's API (two-factor requirements, data scrubbing, code scanning, a firewall's level)",
		Suggestions: []string{"Change security settings in the service's console, as its administrators", "Ask the security team"},
		names:       append(names("gh", "glab", "auth0"), httpClients...),
		match: func(a *analysis, c *cmd) (bool, string) {
			method, url, body, ok := apiCallParts(c)
			if !ok || method == "GET" || method == "HEAD" || method == "DELETE" {
				return false, ""
			}
			if k := securityKeyOff(url, body); k != "" {
				return true, method + " " + url + " " + k
			}
			if strings.HasSuffix(url, "guardian/policies") && strings.ReplaceAll(body, " ", "") == "[]" {
				return true, method + " " + url + " [] (multi-factor no longer required)"
			}
			if (strings.Contains(url, "/rulesets/") || strings.Contains(url, "/firewall/")) && strings.Contains(compactJSON(body), `"rules":[]`) {
				return true, method + " " + url + " (every firewall rule removed)"
			}
			if a := edrReleaseAction(url, body); a != "" {
				return true, method + " " + url + " (" + a + ")"
			}
			return false, ""
		}},
	{ID: "api-destroy-action", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting, purging or archiving a hosted service's objects through its API (a DELETE, or an action named for it)",
		Suggestions: []string{"Use the service's console or CLI with a preview first", "Delete one named object after confirming it"},
		names:       httpClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			h, ok := readHTTPCall(c)
			if ok && !h.scratch() {
				// Moodle's web services take the function in the query,
				// GET included: wsfunction=core_course_delete_courses
				if _, f, found := strings.Cut(h.url, "wsfunction="); found {
					f, _, _ = strings.Cut(f, "&")
					if strings.Contains(f, "_delete_") || strings.HasSuffix(f, "_delete") {
						return true, "wsfunction=" + f
					}
				}
			}
			if !ok || h.method == "GET" || h.method == "HEAD" || h.scratch() || c.name == "curl" && h.method == "DELETE" || strings.Contains(h.url, "/loki/api/") {
				return false, "" // (curl's DELETE is http-delete-remote's, Loki's deletes log-store-delete's)
			}
			if h.method == "DELETE" {
				return true, "DELETE " + h.url
			}
			u := h.url
			if q := strings.IndexAny(u, "?#"); q >= 0 {
				u = u[:q]
			}
			last := strings.TrimSuffix(u[strings.LastIndexByte(u, '/')+1:], ".json")
			if strings.Contains(last, "cache") {
				// purge_cache of named files: a CDN fetches them again;
				// everything at once sends all traffic to the origin
				if strings.Contains(compactJSON(h.body), `"purge_everything":true`) {
					return true, h.method + " " + h.url + " (everything)"
				}
				return false, ""
			}
			// conversations.archive, gdpr-delete, destroy_many, bulk_delete,
			// admin.conversations.bulkDelete, DeleteAuditData
			for part := range strings.FieldsFuncSeq(last, func(r rune) bool { return r == '.' || r == '-' || r == '_' || r == ':' }) {
				switch part {
				case "delete", "destroy", "purge", "remove", "wipe", "erase", "truncate", "archive", "deleteall", "obliterate", "bulkdelete", "deregister", "dropdb":
					return true, h.method + " " + h.url
				}
				if len(part) > 8 && (strings.HasPrefix(part, "delete") || strings.HasPrefix(part, "purge")) && !strings.HasSuffix(part, "ed") {
					return true, h.method + " " + h.url
				}
			}
			switch last {
			case "drop":
				// Odoo's /web/database/drop, a search engine's index drop
				if strings.Contains(u, "/database") || strings.Contains(u, "/db/") || strings.Contains(u, "/index") {
					return true, h.method + " " + h.url
				}
			case "$expunge", "$delete-expunge":
				// FHIR: resources and their history removed for good
				return true, h.method + " " + h.url
			case "execute-script":
				// Orthanc: a Lua script run on the image server
				return true, h.method + " " + h.url
			case "cancel-all", "cancelall", "cancel_all", "cancelallorders":
				return true, h.method + " " + h.url + " (everything cancelled)"
			}
			if strings.Contains(h.url, "operation=delete") {
				return true, h.method + " " + h.url // QuickBooks' ?operation=delete
			}
			if camelDeleteSegment(rawArg(c, h.url)) {
				return true, h.method + " " + h.url // /dns/deleteByNameType/DOMAIN/MX
			}
			if h.method == "PUT" && strings.HasSuffix(strings.TrimSuffix(u, "/"), "/records") && strings.ReplaceAll(h.body, " ", "") == "[]" {
				return true, "PUT " + h.url + " [] (every record replaced by none)"
			}
			if hasAny(compactJSON(h.body), `"archived":true`, `"deleted":true`, `"status":"voided"`, `"status":"archived"`, `"contactstatus":"archived"`) {
				return true, h.method + " " + h.url
			}
			return false, ""
		}},
	{ID: "identity-api-delete", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting an identity tenant's objects through its CLI's raw API call (auth0 api delete): connections, users, applications",
		Suggestions: []string{"Delete through the dashboard, after checking which applications use it", "Try it on a development tenant first"},
		names:       names("auth0"),
		partial:     true, // auth0's own delete commands stay the clients' rules'
		match: func(a *analysis, c *cmd) (bool, string) {
			method, url, _, ok := apiCallParts(c)
			if !ok || method != "DELETE" {
				return false, ""
			}
			if t, ok := optValue(c.args(), "", "tenant"); ok && scratchName(t) {
				return false, ""
			}
			return true, "auth0 api delete " + url
		}},
	{ID: "domain-nameservers-changed", Level: LevelCritical, Category: CategorySystem, Description: "pointing a domain at other name servers through its registrar's API (whoever runs them answers for the domain: its site, its mail)",
		Suggestions: []string{"Change name servers in the registrar's console, after the new zone is ready", "Have a second person check the servers"},
		names:       httpClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			h, ok := readHTTPCall(c)
			if !ok || h.method == "GET" && !strings.Contains(h.url, "namecheap") || h.scratch() {
				return false, ""
			}
			j := lower(c.argsText())
			switch {
			case strings.Contains(h.url, "/domain/updatens/"): // Porkbun
				return true, h.method + " " + h.url
			case strings.Contains(j, "namecheap.domains.dns.setcustom") && !strings.Contains(h.url, "sandbox"):
				return true, "namecheap.domains.dns.setCustom"
			case strings.Contains(h.url, "/nameservers") && (h.method == "PUT" || h.method == "PATCH" || h.method == "POST"):
				return true, h.method + " " + h.url
			case h.method == "PATCH" && strings.Contains(compactJSON(h.body), `"nameservers":[`):
				return true, h.method + " " + h.url + " (name servers)"
			}
			return false, ""
		}},
	{ID: "identity-policy-weakened", Level: LevelHigh, Category: CategorySystem, Description: "switching a tenant's conditional access policies to report-only or off, or setting a user's password in the command (Microsoft Graph PowerShell)",
		Suggestions: []string{"Change conditional access in the portal, for a pilot group first", "Reset passwords with a temporary one the user must change, sent out of band"},
		names:       names("update-mgidentityconditionalaccesspolicy", "update-mguser", "new-mguser"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.ReplaceAll(strings.Join(c.lowerArgs(), " "), " ", "")
			switch c.name {
			case "update-mgidentityconditionalaccesspolicy":
				j = strings.NewReplacer("'", "", `"`, "").Replace(j)
				if strings.Contains(j, "state=enabledforreportingbutnotenforced") || strings.Contains(j, "state=disabled") ||
					strings.Contains(j, "-stateenabledforreportingbutnotenforced") || strings.Contains(j, "-statedisabled") {
					return true, "a conditional access policy no longer enforced"
				}
			case "update-mguser":
				if _, pw, ok := strings.Cut(j, ";password="); ok && strings.Contains(j, "passwordprofile") && pw != "" && pw[0] != '$' ||
					strings.Contains(j, "passwordprofile") && strings.Contains(j, "{password=") && !strings.Contains(j, "{password=$") {
					return true, "a user's password set in the command"
				}
			}
			return false, ""
		}},
	{ID: "ci-secret-weakened", Level: LevelHigh, Category: CategorySystem, Description: "unmasking a CI secret (its value printed in every job log), or overwriting a production secret with a placeholder from the command line",
		Suggestions: []string{"Keep secrets masked and protected", "Set production secrets through the reviewed rotation, from a file or stdin"},
		names:       append(names("gh", "glab", "az"), httpClients...),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			j := strings.Join(low, " ")
			switch c.name {
			case "gh", "glab":
				ops := plainWords(low)
				if len(ops) < 2 || ops[0] != "secret" || ops[1] != "set" {
					return false, ""
				}
				env, _ := optValue(c.args(), "-e", "env")
				body, ok := optValue(c.args(), "-b", "body")
				if ok && isProdName(lower(env)) && hasAny(lower(body), "localhost", "127.0.0.1", "test", "changeme", "example", "placeholder", "dummy") {
					return true, "the production secret replaced by " + body
				}
			case "az":
				if strings.Contains(j, "pipelines variable") && (strings.Contains(j, "--secret false") || strings.Contains(j, "--secret=false")) {
					return true, "a pipeline secret made a plain variable"
				}
			default:
				h, ok := readHTTPCall(c)
				if !ok || h.method == "GET" || !strings.Contains(h.url, "/variables") {
					return false, ""
				}
				if hasAny(j, "masked=false", `"masked":false`, `"masked": false`) {
					return true, h.method + " " + h.url + " masked=false"
				}
			}
			return false, ""
		}},
	{ID: "chat-history-purged", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "bulk-deleting a chat workspace's messages or files (slack-cleaner --perform): the team's history gone",
		Suggestions: []string{"Run without --perform to see what it would delete", "Delete one channel's messages of one user, after the team agrees"},
		names:       names("slack-cleaner", "slack_cleaner"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// without --perform it only lists what it would delete
			return hasWord(c.args(), "--perform"), c.name + " --perform"
		}},
	{ID: "flag-changed-in-production", Level: LevelHigh, Category: CategorySystem, Description: "switching or rolling out a feature flag in production through the flag service's API (every user gets the change at once)",
		Suggestions: []string{"Change production flags through the release process, with a percentage rollout", "Try the change in a staging environment first"},
		names:       httpClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			h, ok := readHTTPCall(c)
			if !ok || h.method != "PATCH" && h.method != "PUT" && h.method != "POST" || !strings.Contains(h.url, "/flags/") && !strings.Contains(h.url, "/features/") {
				return false, ""
			}
			b := compactJSON(h.body)
			prod := strings.Contains(b, `"environmentkey":"production"`) || strings.Contains(b, `"environmentkey":"prod"`) ||
				strings.Contains(h.url, "/environments/production") || strings.Contains(b, "/environments/production/")
			if !prod {
				return false, ""
			}
			for _, k := range [...]string{"turnflagon", "turnflagoff", "updatefallthroughvariation", "updatefallthroughwithallocation", "replacerules", "removerule", `"on"`, "rollout"} {
				if strings.Contains(b, k) {
					return true, h.method + " " + h.url + " in production"
				}
			}
			return false, ""
		}},
	{ID: "cli-alerting-silenced", Level: LevelHigh, Category: CategorySystem, Description: "silencing every monitor or alert, or switching a production feature flag or alert off, with a service's CLI",
		Suggestions: []string{"Mute one monitor for a bounded time", "Change production flags through the release process"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 3 {
				return false, ""
			}
			if _, v := clientVerb(c, vSilence); v == "" || fetchers[c.name] || cliDestroyExempt[c.name] {
				return false, "" // (the cached verb classes: one comparison for most commands)
			}
			sub := clientSubWords(c).list()
			args, low := c.args(), c.lowerArgs()
			for _, s := range sub {
				switch s {
				case "mute_all", "mute-all", "muteall", "silence-all":
					return true, c.name + " " + strings.Join(sub, " ")
				case "mute", "silence", "snooze", "toggle-off", "turn-off", "disable":
					alerting := false
					for _, n := range sub {
						switch strings.TrimSuffix(n, "s") {
						case "monitor", "alert", "flag", "notification", "alerting", "integration", "destination", "pager", "escalation":
							alerting = true
						case "service", "schedule":
							alerting = alerting || c.name == "pd" || c.name == "opsgenie" // (PagerDuty's services page)
						}
					}
					if alerting && (productionTarget(args, low) || hasAnyWord(low, "--all", "all", "*")) {
						return true, c.name + " " + strings.Join(sub, " ")
					}
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, saasAPIRules, bulkMessageRules) }

// Messages sent to every contact of a list from the command line: a loop
// or xargs over a file of customers, users or phone numbers feeding an
// SMS or mail API. Whatever the text, it is spam or phishing in the
// company's name, and it cannot be unsent.
var bulkMessageRules = []*rule{
	{ID: "telephony-account-disrupted", Level: LevelCritical, Category: CategorySystem, Description: "closing or suspending a telephony account, ending every live call, removing a messaging service or opening a SIP trunk to every address (Twilio)",
		Suggestions: []string{"Change the account from the Twilio console, where it shows what depends on it", "End one named call"},
		names:       names("twilio"),
		partial:     true,
		match: func(a *analysis, c *cmd) (bool, string) {
			p := c.operands()
			if len(p) == 0 || !strings.HasPrefix(p[0].s, "api:") || helpAsked(c.lowerArgs()) {
				return false, ""
			}
			res := p[0].s
			status, _ := optValue(c.args(), "", "status")
			switch {
			case strings.HasSuffix(res, ":accounts:update") && (status == "closed" || status == "suspended"):
				return true, "twilio " + res + " --status " + status
			case (strings.HasSuffix(res, ":calls:update") || strings.HasSuffix(res, ":conferences:update")) && (status == "completed" || status == "canceled") &&
				strings.Contains(a.srcLow(), ":list"):
				return true, "every listed call ended (" + res + ")"
			case strings.HasSuffix(res, ":services:remove") && strings.Contains(res, "messaging"):
				return true, "twilio " + res
			case strings.HasSuffix(res, ":ip-addresses:create"):
				ip, _ := optValue(c.args(), "", "ip-address")
				if n, ok := optValue(c.args(), "", "cidr-prefix-length"); ip == "0.0.0.0" || ok && n == "0" {
					return true, "a SIP access list opened to every address"
				}
			}
			return false, ""
		}},
	{ID: "mass-message-sent", Level: LevelCritical, Category: CategorySystem, Description: "sending a message to every contact of a list (customers, users, phone numbers) through an SMS or mail service",
		Suggestions: []string{"Send campaigns through the service's reviewed campaign tools, with consent and unsubscribe", "Send one test message to yourself"},
		names:       names(append([]string{"twilio", "aws", "sendgrid", "mailgun"}, httpClients...)...),
		match: func(a *analysis, c *cmd) (bool, string) {
			what := ""
			switch c.name {
			case "twilio":
				if p := c.operands(); len(p) > 0 && strings.HasPrefix(p[0].s, "api:") && strings.HasSuffix(p[0].s, ":messages:create") {
					what = "twilio " + p[0].s
				}
			case "aws":
				if op, _ := awsOp(c); op == "ses send-email" || op == "sesv2 send-email" || op == "sns publish" && hasPrefixWord(c.args(), "--phone-number") {
					what = "aws " + op
				}
			default:
				h, ok := readHTTPCall(c)
				if ok && h.method != "GET" && (strings.Contains(h.url, "api.twilio.com") && strings.Contains(h.url, "/messages") ||
					strings.Contains(h.url, "api.sendgrid.com/v3/mail/send") || strings.Contains(h.url, "api.mailgun.net") && strings.HasSuffix(h.url, "/messages") ||
					strings.Contains(h.url, "api.postmarkapp.com/email")) {
					what = h.method + " " + h.url
				}
			}
			if what == "" {
				if h, ok := readHTTPCall(c); ok && h.method != "GET" && !h.scratch() {
					if w := campaignSend(h); w != "" {
						return true, w
					}
				}
				return false, ""
			}
			if !bulkRecipients(a.srcLow()) {
				return false, ""
			}
			return true, what + " for each contact listed"
		}},
	{ID: "ad-platform-changed", Level: LevelHigh, Category: CategorySystem, Description: "changing live ad, tag or analytics accounts through their APIs: campaigns, budgets and users of Google Ads or Meta, a Tag Manager version published, an analytics property's settings, a messaging platform's campaigns (money spent, every visitor's page changed)",
		Suggestions: []string{"Make the change in the platform's console, reviewed", "Send it with validateOnly (Google Ads) or execution_options=validate_only (Meta) first"},
		names:       httpClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			h, ok := readHTTPCall(c)
			if !ok || h.method == "GET" || h.method == "HEAD" || h.scratch() {
				return false, ""
			}
			b := strings.ReplaceAll(lower(h.body+" "+c.argsText()), " ", "")
			if hasAny(b, `"validateonly":true`, "validate_only", "validateonly=true", "dry_run", "dryrun") {
				return false, "" // checked, not made
			}
			host := hostOf(h.url)
			u := lower(h.url)
			switch {
			case host == "googleads.googleapis.com" && strings.Contains(u, ":mutate"):
				return true, "Google Ads " + u[strings.LastIndexByte(u, '/')+1:]
			case host == "graph.facebook.com" && h.method != "GET" && !strings.Contains(u, "debug_token") && !strings.Contains(u, "/oauth"):
				return true, h.method + " " + h.url
			case host == "tagmanager.googleapis.com" && (strings.HasSuffix(u, ":publish") || h.method == "DELETE" || strings.Contains(u, "/tags")):
				return true, "Tag Manager " + h.method + " " + h.url
			case host == "analyticsadmin.googleapis.com":
				return true, "Analytics " + h.method + " " + h.url
			case (host == "api.customer.io" || host == "track.customer.io" || strings.HasSuffix(host, ".braze.com")) && !strings.Contains(u, "/segments") && !strings.Contains(u, "/export"):
				return true, h.method + " " + h.url
			}
			return false, ""
		}},
	{ID: "mail-authentication-weakened", Level: LevelHigh, Category: CategorySystem, Description: "weakening a domain's mail authentication: an SPF record that lets every server send as the domain (+all, ?all), a DMARC policy set to none, a mail service's webhook signatures or spam filtering switched off",
		Suggestions: []string{"Keep SPF ending in -all or ~all and DMARC at quarantine or reject", "Add the one sender that needs it, through the DNS change process"},
		// the HTTP clients and the DNS clients that write records
		names: append(names("aws", "az", "gcloud", "doctl", "cli53", "flarectl", "dnscontrol", "octodns-sync", "hcloud", "linode-cli", "vultr-cli", "ovh",
			"edit-r53resourcerecordset", "add-dnsserverresourcerecord", "set-dnsserverresourcerecord", "add-dnsserverresourcerecordtxt", "set-azdnsrecordset", "new-azdnsrecordset"), httpClients...),
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 2 {
				return false, ""
			}
			t := c.argsText()
			if !strings.Contains(t, "v=") && !strings.Contains(t, "V=") && !strings.Contains(t, "enabled") && !strings.Contains(t, "spam_action") {
				return false, ""
			}
			l := strings.ReplaceAll(lower(t), `\"`, `"`)
			switch {
			case strings.Contains(l, "v=spf1") && (strings.Contains(l, " +all") || strings.Contains(l, " ?all")):
				return true, "an SPF record allowing every sender"
			case strings.Contains(l, "v=dmarc1") && (strings.Contains(l, "p=none") || strings.Contains(l, "pct=0")):
				return true, "a DMARC policy of none"
			case strings.Contains(l, "api.sendgrid.com") && strings.Contains(l, "/event/settings/signed") && strings.Contains(strings.ReplaceAll(l, " ", ""), `"enabled":false`):
				return true, "SendGrid's event webhook signatures switched off"
			case strings.Contains(l, "api.mailgun.net") && strings.Contains(l, "spam_action=disabled"):
				return true, "Mailgun's spam filtering switched off"
			}
			return false, ""
		}},
}

// campaignSend names a call that sends a mail service's campaign to its
// whole audience at once (Mailchimp's actions/send, SendGrid's single
// send scheduled now, a Braze broadcast), or "".
func campaignSend(h httpCall) string {
	u, b := lower(h.url), strings.ReplaceAll(lower(h.body), " ", "")
	switch {
	case strings.Contains(u, ".api.mailchimp.com/") && strings.Contains(u, "/campaigns/") && strings.HasSuffix(strings.TrimRight(u, "/"), "/actions/send"):
		return "a Mailchimp campaign sent to its audience"
	case strings.Contains(u, "api.sendgrid.com/v3/marketing/singlesends/") && strings.HasSuffix(strings.TrimRight(u, "/"), "/schedule") && strings.Contains(b, `"send_at":"now"`):
		return "a SendGrid single send sent now to its lists"
	case strings.Contains(u, ".braze.com/") && (strings.Contains(u, "/campaigns/trigger/send") || strings.Contains(u, "/canvas/trigger/send")) && strings.Contains(b, `"broadcast":true`):
		return "a Braze broadcast to its whole segment"
	}
	return ""
}

// bulkRecipients reports a line (lower case) that runs a command once per
// entry of a list of people: a loop or xargs over a file of customers,
// users, contacts or phone numbers.
func bulkRecipients(src string) bool {
	if !hasAny(src, "for ", "while ", "xargs", "foreach", "% {", "parallel ") {
		return false
	}
	return hasAny(src, "customers", "contacts", "users.csv", "users.txt", "subscribers", "leads", "recipients", "phones", "phone_numbers", "numbers.txt",
		"numbers.csv", "emails.txt", "emails.csv", "mailing", "members.csv")
}

// changingCall reports an HTTP call that changes something (not a read,
// nor a DELETE when noDelete) on a service that is not scratch, whose URL
// holds one of segs or whose body one of marks.
func changingCall(c *cmd, noDelete bool, segs, marks []string) (bool, string) {
	h, ok := readHTTPCall(c)
	if !ok || h.method == "GET" || h.method == "HEAD" || noDelete && h.method == "DELETE" || h.scratch() {
		return false, ""
	}
	for _, seg := range segs {
		if strings.Contains(h.url, seg) {
			return true, h.method + " " + h.url
		}
	}
	if b := compactJSON(h.body); hasAny(b, marks...) {
		return true, h.method + " " + h.url + " " + b
	}
	return false, ""
}

// httpClients are the programs readHTTPCall reads.
var httpClients = names("curl", "curlie", "http", "https", "xh", "wget", "invoke-restmethod", "invoke-webrequest", "irm", "iwr", "invoke-mggraphrequest")

// httpCall is one HTTP request on a command line: its method (upper
// case), URL and body (lower case).
type httpCall struct {
	method, url, body string
	vars              string // the unresolved variables of the URL, lower case
}

// scratch reports a call whose URL, body or variables name a test,
// sandbox, pull request or other throwaway object, or this machine.
func (h httpCall) scratch() bool {
	if developerNetwork(hostOf(h.url)) {
		return true
	}
	for _, s := range [...]string{h.url, h.vars} {
		if s != "" && scratchName(strings.ReplaceAll(s, "example.", "")) && !isProdName(s) {
			return true
		}
	}
	return throwawayName(h.body) // channel=C0TMPPR12, {"name":"test-..."}
}

// fleetWide reports a call made for every machine a listing yields (the
// line loops over a list of machines or agents) or whose body's filter
// takes them all.
func fleetWide(a *analysis, h httpCall) bool {
	b := strings.ReplaceAll(lower(h.body), " ", "")
	if strings.Contains(b, `"filter":{}`) || strings.Contains(b, `"isactive":true`) || strings.Contains(b, `policy_id:*`) || strings.Contains(b, `"ostypes":[`) {
		return true
	}
	src := a.srcLow()
	loops := strings.Contains(src, "foreach-object") || strings.Contains(src, "| % {") || strings.Contains(src, "xargs") || strings.Contains(src, "for ") && strings.Contains(src, "; do ")
	return loops && (strings.Contains(src, "/machines") || strings.Contains(src, "/agents") || strings.Contains(src, "/hosts") || strings.Contains(src, "/devices"))
}

// httpCallCache holds a command's readHTTPCall: several rules read it.
type httpCallCache struct {
	done bool
	name string
	gen  uint32
	h    httpCall
	ok   bool
}

// readHTTPCall reads c's request, once per command. Methods default as
// the clients do: GET, or POST when a body is given.
func readHTTPCall(c *cmd) (httpCall, bool) {
	c.lowerArgs() // brings argCase.gen up to date
	k := &c.httpc
	if !k.done || k.name != c.name || k.gen != c.argCase.gen {
		k.h, k.ok = parseHTTPCall(c)
		k.done, k.name, k.gen = true, c.name, c.argCase.gen
	}
	return k.h, k.ok
}

func parseHTTPCall(c *cmd) (httpCall, bool) {
	var h httpCall
	args := c.args()
	switch c.name {
	case "invoke-restmethod", "invoke-webrequest", "irm", "iwr", "invoke-mggraphrequest":
		w := wargs(c)
		h.method, _ = swVal(w, "method")
		h.url, _ = swVal(w, "uri")
		h.body, _ = swVal(w, "body")
		if h.url == "" {
			for _, s := range w {
				if strings.HasPrefix(s, "http") {
					h.url = s
					break
				}
			}
		}
	case "http", "https", "xh", "curlie":
		for _, w := range args {
			switch u := strings.ToUpper(w.s); {
			case u == "GET" || u == "POST" || u == "PUT" || u == "PATCH" || u == "DELETE":
				h.method = u
			case h.url == "" && (strings.Contains(w.s, "://") || strings.HasPrefix(w.s, ":") || strings.Contains(w.s, ".") && strings.Contains(w.s, "/")):
				h.url = w.s
			case h.url != "" && (strings.Contains(w.s, "=") || strings.Contains(w.s, ":=")):
				h.body += " " + w.s
			}
		}
	case "wget":
		h.method, _ = optValue(args, "", "method")
		if v, ok := optValue(args, "", "body-data", "post-data"); ok {
			h.body = v
		}
		if us := urlArgs(args); len(us) > 0 {
			h.url = us[0]
		} else {
			for _, w := range c.operands() {
				if varBaseURL(w.s) {
					h.url = w.s
					break
				}
			}
		}
	default: // curl
		h.method, _ = optValue(args, "-X", "request")
		if h.method == "" && (hasWord(args, "-G") || hasWord(args, "--get")) {
			h.method = "GET" // -G: the data goes into the query of a GET
		}
		for i, w := range args {
			switch {
			case (w.s == "-d" || w.s == "--data" || w.s == "--data-raw" || w.s == "--data-binary" || w.s == "--json" || w.s == "--data-urlencode" || w.s == "-F" || w.s == "--form") && i+1 < len(args):
				h.body += " " + args[i+1].s // (a form is posted too)
			case strings.HasPrefix(w.s, "--data=") || strings.HasPrefix(w.s, "--json="):
				h.body += " " + w.s[strings.IndexByte(w.s, '=')+1:]
			}
		}
		if us := urlArgs(args); len(us) > 0 {
			h.url = us[0]
		} else {
			// curl takes es-01.prod:9200/_cluster/settings without a scheme
			for _, w := range c.operands() {
				if schemelessURL(w.s) {
					h.url = "http://" + w.s
					break
				}
				if varBaseURL(w.s) {
					h.url = w.s
					break
				}
			}
		}
	}
	if h.url == "" {
		return h, false
	}
	h.method = strings.ToUpper(strings.Trim(h.method, `"'`))
	if h.method == "" {
		h.method = "GET"
		if strings.TrimSpace(h.body) != "" {
			h.method = "POST"
		}
	}
	h.url = lower(strings.Trim(h.url, `"'`))
	h.body = lower(h.body)
	for rest := h.url; ; {
		i := strings.IndexByte(rest, '$')
		if i < 0 {
			break
		}
		j := i + 1
		for j < len(rest) && (isAlnum(rest[j]) || rest[j] == '_' || rest[j] == '{' || rest[j] == ':') {
			j++
		}
		h.vars += " " + rest[i:j]
		rest = rest[j:]
	}
	return h, true
}

// schemelessURL reports a host (with a dot or a port) and a path written
// without a scheme: es-01.prod:9200/_cat/indices, api.acme.io/v1/x.
func schemelessURL(s string) bool {
	i := strings.IndexByte(s, '/')
	if i <= 0 || strings.HasPrefix(s, "-") || strings.HasPrefix(s, "@") || strings.HasPrefix(s, ".") {
		return false
	}
	host := s[:i]
	if j := strings.IndexByte(host, ':'); j > 0 {
		port := host[j+1:]
		host = host[:j]
		if port == "" || strings.Trim(port, "0123456789") != "" {
			return false
		}
		return host != "" && strings.Trim(lower(host), "abcdefghijklmnopqrstuvwxyz0123456789.-") == ""
	}
	return strings.Contains(host, ".") && strings.Trim(lower(host), "abcdefghijklmnopqrstuvwxyz0123456789.-") == "" && !strings.HasSuffix(host, ".")
}

// varBaseURL reports a URL written as a variable that holds a service's
// address followed by a path on it: "$OKTA_ORG_URL/api/v1/users",
// ${API_BASE}/v2/items, %SVC_URL%/a. The variable's name says it is an
// address (url, host, endpoint, base, server, org, domain, api).
func varBaseURL(s string) bool {
	var name, rest string
	switch {
	case strings.HasPrefix(s, "${"):
		i := strings.IndexByte(s, '}')
		if i < 0 {
			return false
		}
		name, rest = s[2:i], s[i+1:]
	case strings.HasPrefix(s, "$env:"), strings.HasPrefix(s, "$"):
		t := strings.TrimPrefix(strings.TrimPrefix(s, "$"), "env:")
		i := 0
		for i < len(t) && (isAlnum(t[i]) || t[i] == '_') {
			i++
		}
		name, rest = t[:i], t[i:]
	case strings.HasPrefix(s, "%"):
		i := strings.IndexByte(s[1:], '%')
		if i < 0 {
			return false
		}
		name, rest = s[1:i+1], s[i+2:]
	default:
		return false
	}
	if name == "" || len(rest) < 2 || rest[0] != '/' || rest[1] == '/' {
		return false
	}
	return hasAny(lower(name), "url", "host", "endpoint", "base", "server", "org", "domain", "api", "addr")
}

// compactJSON drops the spaces of a JSON body (lower case) so that
// "enabled": false and "enabled":false read the same.
func compactJSON(s string) string {
	if !strings.ContainsAny(s, " \t\n") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\t' && s[i] != '\n' {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// rawArg returns the argument of c that is s in lower case, as written
// (s itself when none is).
func rawArg(c *cmd, s string) string {
	for _, w := range c.args() {
		if len(w.s) == len(s) && strings.EqualFold(w.s, s) {
			return w.s
		}
	}
	return s
}

// camelDeleteSegment reports a URL path segment that is a delete verb
// in camel case (deleteByNameType, removeRecord, purgeAll), an RPC-style
// API's method in the middle of its path.
func camelDeleteSegment(u string) bool {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	_, p, _ := strings.Cut(u, "/")
	for seg := range strings.SplitSeq(p, "/") {
		for _, v := range [...]string{"delete", "remove", "purge"} {
			if len(seg) > len(v)+1 && strings.HasPrefix(seg, v) && seg[len(v)] >= 'A' && seg[len(v)] <= 'Z' {
				return true
			}
		}
	}
	return false
}

// apiCallParts reads an API call's method, URL (or path) and body, lower
// case: an HTTP client's request, gh or glab api with its fields (-f
// key=value, which make it a POST), auth0 api METHOD PATH --data JSON.
func apiCallParts(c *cmd) (method, url, body string, ok bool) {
	args := c.args()
	switch c.name {
	case "gh", "glab":
		if len(args) < 2 || args[0].s != "api" {
			return "", "", "", false
		}
		method = httpMethod(c)
		for i, w := range args[1:] {
			switch {
			case (w.s == "-f" || w.s == "-F" || w.s == "--field" || w.s == "--raw-field") && i+2 < len(args):
				body += " " + args[i+2].s
			case strings.HasPrefix(w.s, "--field=") || strings.HasPrefix(w.s, "--raw-field="):
				body += " " + w.s[strings.IndexByte(w.s, '=')+1:]
			case url == "" && !strings.HasPrefix(w.s, "-") && (i == 0 || !strings.HasPrefix(args[i].s, "-")):
				url = w.s
			}
		}
		if method == "" {
			method = "GET"
			if body != "" {
				method = "POST"
			}
		}
	case "auth0":
		// auth0 api patch "guardian/factors/otp" --data '{"enabled": false}'
		if len(args) < 3 || args[0].s != "api" {
			return "", "", "", false
		}
		method, url = strings.ToUpper(args[1].s), args[2].s
		if v, ok := optValue(args, "-d", "data"); ok {
			body = v
		}
	default:
		h, ok := readHTTPCall(c)
		if !ok || h.scratch() {
			return "", "", "", false
		}
		return h.method, h.url, h.body, true
	}
	return method, lower(url), lower(body), url != ""
}

// securityOffValue matches a setting given a value that turns it off, in
// a JSON body ("enabled":false) or a field (require_two_factor_authentication=false).
var securityOffValue = regexp.MustCompile(`"?([a-z0-9_.-]+)"?\s*[:=]\s*"?(false|off|disabled|disable|none|null|not-configured|not_configured|essentially_off|0)\b`)

// securityKeyOff returns the security setting a call's body turns off,
// "" when none: a key that names the control (two_factor, dataScrubber,
// security_level), or a generic switch (enabled, state) on a path that
// does (guardian/factors/otp, code-scanning/default-setup).
// keySeparators and urlSeparators drop the separators of a setting's
// name (two_factor, two-factor, two.factor) and of a URL's words.
var (
	keySeparators = strings.NewReplacer("_", "", "-", "", ".", "")
	urlSeparators = strings.NewReplacer("_", "", "-", "")
)

// edrReleaseAction returns the action of a security tool's API call
// that lets a contained machine back onto the network, hides it from the
// console (CrowdStrike's lift_containment and hide_host, Defender for
// Endpoint's unisolate) or disables detection rules in bulk (Elastic
// Security's _bulk_action), or "".
func edrReleaseAction(url, body string) string {
	l := lower(url)
	switch {
	case strings.Contains(l, "/detection_engine/rules/_bulk_action") && hasAny(compactJSON(lower(body)), `"action":"disable"`, `"action":"delete"`):
		return "detection rules disabled in bulk"
	case strings.Contains(l, "action_name=lift_containment"):
		return "containment lifted"
	case strings.Contains(l, "action_name=hide_host"):
		return "host hidden from the console"
	case strings.Contains(l, "/machines/") && strings.HasSuffix(strings.TrimSuffix(l[:strings.IndexAny(l+"?", "?")], "/"), "/unisolate"):
		return "machine released from isolation"
	}
	return ""
}

func securityKeyOff(url, body string) string {
	b := strings.ReplaceAll(compactJSON(body), `\`, "")
	for _, m := range securityOffValue.FindAllStringSubmatch(b, -1) {
		key := keySeparators.Replace(m[1])
		where := key
		switch key {
		case "enabled", "enable", "isenabled", "state", "status", "value", "active", "mode":
			where = urlSeparators.Replace(url)
		}
		if hasAny(where, "twofactor", "2fa", "mfa", "otp", "scrub", "securitylevel", "codescanning", "secretscanning", "pushprotection",
			"requiresignedcommits", "sso", "waf", "ssl", "tls", "audit", "encryption", "bruteforce", "passwordpolicy", "ipallowlist", "guardian",
			"locked", "dnssec", "protection", "securitydefaults") {
			return m[1] + "=" + m[2]
		}
	}
	return ""
}
