package guard

import (
	"slices"
	"strconv"
	"strings"
)

// A hosted service's posture changed by a client nobody listed: a
// production app stopped, suspended or scaled to nothing, a production
// database reset, a security control (audit log, MFA, protection,
// encryption, scanning) switched off. Like the other generic client
// rules, these read what the subcommand words mean, not the client's
// name.
var cliPostureRules = []*rule{
	{ID: "cli-production-disrupted", Level: LevelHigh, Category: CategorySystem, Description: "stopping, suspending or scaling to zero a production app or service",
		Suggestions: []string{"Change production through the release process", "Try it on a staging app first"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 3 || cliDestroyExempt[c.name] && !ownCloudRules[c.name] {
				return false, ""
			}
			sub, verb := clientVerb(c, vDisrupt)
			args, low := c.args(), c.lowerArgs()
			if verb == "" && c.clientSub.verbs[vPublish] != "" {
				// accounts:update --status closed: the account shut down
				if v, ok := optValue(args, "", "status"); ok && hasAny(lower(v), "closed", "suspended", "cancel", "terminated", "deactivated") && productionTarget(args, low) {
					return true, c.name + " " + strings.Join(sub.list(), " ") + " --status " + v + " in production"
				}
			}
			if verb == "" && zeroCapacity(low) && !previewOnly(c, low) {
				// update-service --desired-count 0: every task stopped
				// (a shared staging service is down for the whole team)
				if productionTarget(args, low) {
					return true, c.name + " " + strings.Join(sub.list(), " ") + " to zero in production"
				}
				if sharedTarget(args) {
					return true, c.name + " " + strings.Join(sub.list(), " ") + " to zero in a shared environment"
				}
			}
			if verb == "" || readOnlySub(sub.list()) {
				return false, ""
			}
			if hasAnyWord(low, "--help", "-h") || previewOnly(c, low) {
				return false, ""
			}
			if verb == "cancel" {
				for _, s := range sub.list() {
					if hasAny(s, "delet", "terminat", "shutdown", "destroy", "removal") {
						return false, "" // kms cancel-key-deletion: a deletion called off
					}
				}
			}
			switch verb {
			case "scale":
				if !scaledToZero(low) {
					return false, ""
				}
			case "maintenance":
				if !hasAnyWord(low, "on", "enable", "--enable", "--on") {
					return false, ""
				}
			case "drain":
				if (c.name == "kubectl" || c.name == "oc") && !disruptiveDrain(a, c) {
					return false, "" // one node drained within its disruption budgets
				}
			}
			if !productionTarget(args, low) {
				if verb == "scale" && sharedTarget(args) {
					return true, c.name + " " + strings.Join(sub.list(), " ") + " to zero in a shared environment"
				}
				return false, ""
			}
			return true, c.name + " " + strings.Join(sub.list(), " ") + " in production"
		}},
	{ID: "cli-production-data-reset", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "resetting, flushing or emptying a production database or data store",
		Suggestions: []string{"Restore or re-seed through the data team's process", "Reset a staging copy instead"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 3 || cliDestroyExempt[c.name] {
				return false, ""
			}
			sub, verb := clientVerb(c, vReset)
			if verb == "" || readOnlySub(sub.list()) {
				return false, ""
			}
			store := false
			for _, s := range sub.list() {
				if dataNoun(s) {
					store = true
				}
			}
			args, low := c.args(), c.lowerArgs()
			if !store || hasAnyWord(low, "--help", "-h") || previewOnly(c, low) || !productionTarget(args, low) && !touchesProduction(c) {
				return false, ""
			}
			return true, c.name + " " + strings.Join(sub.list(), " ") + " in production"
		}},
	{ID: "cli-security-off", Level: LevelHigh, Category: CategorySystem, Description: "switching off a hosted account's or resource's security control (audit log, MFA, protection, encryption, scanning)",
		Suggestions: []string{"Leave security controls to the account's administrators", "Change the one setting that is in the way, and say why"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 3 || cliDestroyExempt[c.name] && !ownCloudRules[c.name] && !(secondFactorHint(a) && secondFactorOff(c)) {
				// (a package manager's or a local tool's own deletions
				// are other rules'; its account's second factor is not)
				return false, ""
			}
			if c.name == "aws" && hasWord(c.args(), "update-web-acl") {
				// a web ACL given no rules, or let everything through
				if r, ok := optValue(c.args(), "", "rules"); ok && strings.ReplaceAll(strings.Trim(r, `"'`), " ", "") == "[]" {
					return true, "aws wafv2 update-web-acl --rules []"
				}
			}
			sub, verb := clientVerb(c, vSecurityOff)
			if readOnlySub(sub.list()) || sub.n == 0 {
				return false, ""
			}
			if verb == "" {
				// branch-protection delete main, ip-allowlist remove:
				// a control deleted is a control off
				if _, v := clientVerb(c, vDestroy); v != "" {
					verb = v
				}
			}
			control := ""
			for _, s := range sub.list() {
				// mfa disable, mfa:disable, disable-mfa, audit-log-off
				for part := range strings.SplitSeq(s, ":") {
					if verb != "" && securityControl(part) && (securityOffVerb(verb) || deletableControl(part)) {
						control = part
					}
					if v, n, ok := cutVerbNoun(part); ok && securityOffVerb(v) && (securityControl(n) || securityControl(strings.SplitN(n, "-", 2)[0])) {
						control = n // disable-mfa, deactivate-mfa-device
					}
				}
			}
			args, low := c.args(), c.lowerArgs()
			if control == "" {
				control = securityFlagOff(low)
			}
			if control == "" {
				// az sql server audit-policy update --state Disabled: the
				// control named by the subcommand, its state set off
				if v, ok := optValue(args, "", "state", "status"); ok && (lower(v) == "disabled" || lower(v) == "off") {
					for _, s := range sub.list() {
						if securityControl(s) {
							control = s
						}
					}
				}
			}
			if control == "" && weakPasswordPolicy(low) {
				control = "password-policy"
			}
			if control == "" && hasAnyWord(low, "modify-instance-metadata-options") && (hasAnyWord(low, "--http-tokens=optional") || hasAnyWord(low, "--http-tokens") && hasAnyWord(low, "optional")) {
				// IMDSv1 allowed again: the instance's credentials answer
				// any request forged through the application (SSRF)
				control = "instance-metadata-v2"
			}
			if control == "" && (hasAnyWord(low, "--logging=none", "--monitoring=none", "--logging-service=none", "--monitoring-service=none") ||
				hasAnyWord(low, "--no-enable-cloud-logging", "--no-enable-cloud-monitoring")) {
				// a cluster's or service's logs and metrics switched off
				// (a CLI's own --logging=false is its output, not this)
				control = "logging and monitoring"
			}
			if control == "" {
				control = allowListOpened(low)
			}
			if control == "" && encryptionKeyDisabled(sub.list(), low) {
				// gcloud kms keys versions disable, az keyvault key
				// set-attributes --enabled false: what it encrypts can no
				// longer be read
				control = "an encryption key"
			}
			if control == "" && (c.name == "kubectl" || c.name == "oc") && touchesProduction(c) && hasWord(args, "set") && hasWord(args, "env") {
				// kubectl set env deployment/api AUTH_DISABLED=true: the
				// service's own protection switched off in production
				for _, w := range args {
					k, v, ok := strings.Cut(w.s, "=")
					if !ok {
						continue
					}
					uk, lv := strings.ToUpper(k), lower(v)
					guard := hasAny(uk, "AUTH", "SECURITY", "TLS", "SSL", "CSRF", "VERIFY", "2FA", "MFA", "RATE_LIMIT")
					if guard && (strings.Contains(uk, "DISABLE") && (lv == "true" || lv == "1" || lv == "yes") || !strings.Contains(uk, "DISABLE") && falseWord(lv)) {
						control = k + "=" + v
					}
				}
			}
			if control == "" && touchesProduction(c) {
				// az webapp update --https-only false, --min-tls-version
				// 1.0, a listener moved to plain HTTP: production's
				// traffic readable on the way
				control = tlsOff(low)
			}
			if control == "" && wafOff(sub.list(), low) {
				// az network application-gateway waf-config set --enabled
				// false, a front door's policy in Detection mode: attacks
				// let through, only logged
				control = "waf"
			}
			if control == "" && c.name == "gcloud" && slicesContains(sub.list(), "backend-services") {
				// --security-policy="": the Cloud Armor policy detached
				for i, l := range low {
					if l == "--security-policy=" || l == `--security-policy=""` || l == "--security-policy" && i+1 < len(low) && (low[i+1] == "" || low[i+1] == `""`) {
						control = "cloud-armor"
					}
				}
			}
			if control == "" {
				return false, ""
			}
			if hasAnyWord(low, "--help", "-h") || previewOnly(c, low) {
				return false, ""
			}
			for _, w := range c.operands() {
				if scratchName(w.s) {
					return false, "" // a test project's or a preview's own settings
				}
			}
			if v, ok := optValue(args, "", targetOptions...); ok && scratchName(v) {
				return false, ""
			}
			return true, c.name + " " + strings.Join(sub.list(), " ")
		}},
	{ID: "cli-credentials-revoked", Level: LevelHigh, Category: CategorySystem, Description: "revoking or rotating every key or token of an account, or production's (whatever uses them stops working)",
		Suggestions: []string{"Rotate one credential at a time, with its users updated first", "Let the account's administrators rotate keys"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 3 || cliDestroyExempt[c.name] && !ownCloudRules[c.name] && !registryClients[c.name] {
				return false, ""
			}
			sub, verb := clientVerb(c, vRevoke)
			if verb == "" || readOnlySub(sub.list()) {
				return false, ""
			}
			cred := false
			for _, s := range sub.list() {
				for part := range strings.SplitSeq(s, ":") {
					cred = cred || credentialNoun(part)
				}
			}
			args, low := c.args(), c.lowerArgs()
			if !cred || hasAnyWord(low, "--help", "-h") || previewOnly(c, low) {
				return false, ""
			}
			for _, w := range args {
				// --all, or vault token revoke -mode=path auth/: every
				// token under a prefix
				if everythingMarker(w.s) || w.s == "-mode=path" || w.s == "-prefix" || w.s == "--prefix" {
					return true, c.name + " " + strings.Join(sub.list(), " ") + " " + w.s
				}
				// ... token list | xargs ... token revoke: each one listed
				if w.flow != nil && w.s == "<stdin>" && (w.flow.kind == flowSecret || w.flow.kind == flowList) {
					return true, c.name + " " + strings.Join(sub.list(), " ") + " of each listed"
				}
			}
			if productionTarget(args, low) {
				return true, c.name + " " + strings.Join(sub.list(), " ") + " in production"
			}
			return false, ""
		}},
	{ID: "cli-production-config-removed", Level: LevelHigh, Category: CategorySystem, Description: "removing a production app's environment variables or settings (it fails on its next start)",
		Suggestions: []string{"Change production settings through the release process", "Try it on a staging app first"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 3 || cliDestroyExempt[c.name] && !ownCloudRules[c.name] {
				return false, ""
			}
			sub, verb := clientVerb(c, vUnset)
			if verb == "" || readOnlySub(sub.list()) {
				return false, ""
			}
			conf := false
			for _, s := range sub.list() {
				for part := range strings.SplitSeq(s, ":") {
					switch part {
					case "env", "envs", "config", "configs", "vars", "variables", "variable", "env-vars", "envvars", "environment-variables", "settings", "config-vars":
						conf = true
					}
				}
			}
			args, low := c.args(), c.lowerArgs()
			if !conf || hasAnyWord(low, "--help", "-h") || previewOnly(c, low) || !productionTarget(args, low) {
				return false, ""
			}
			return true, c.name + " " + strings.Join(sub.list(), " ") + " in production"
		}},
	{ID: "mesh-mtls-off", Level: LevelHigh, Category: CategorySystem, Description: "a service mesh's mutual TLS switched off (its services then take plain, unauthenticated traffic)",
		Suggestions: []string{"Keep STRICT mode; make an exception for the one workload and port that needs it", "Ask the mesh's owners"}, names: names("kubectl", "oc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// kubectl patch peerauthentication default -p
			// '{"spec":{"mtls":{"mode":"DISABLE"}}}'
			low := lower(c.argsText())
			if !strings.Contains(low, "peerauthentication") || !strings.Contains(low, "mtls") {
				return false, ""
			}
			for _, m := range [...]string{`"mode":"disable"`, `"mode": "disable"`, `"mode":"permissive"`, `"mode": "permissive"`, "mode: disable", "mode: permissive"} {
				if strings.Contains(low, m) {
					return true, "PeerAuthentication mtls " + strings.ToUpper(strings.Trim(m[strings.LastIndexAny(m, ": ")+1:], `"`))
				}
			}
			return false, ""
		}},
	{ID: "prod-db-password-reset", Level: LevelHigh, Category: CategorySystem, Description: "setting a new password for a production database's user or administrator (every client holding the old one fails)",
		Suggestions: []string{"Rotate the password through the secret store the applications read", "Change a staging database's password instead"},
		names:       names("gcloud", "aws", "az"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args, low := c.args(), c.lowerArgs()
			if !hasAnyWord(low, "set-password", "modify-db-instance", "modify-db-cluster", "update") {
				return false, ""
			}
			sub := strings.Join(clientSubWords(c).list(), " ")
			reset := false
			switch c.name {
			case "gcloud":
				reset = strings.HasPrefix(sub, "sql users set-password")
			case "aws":
				reset = (strings.HasPrefix(sub, "rds modify-db-instance") || strings.HasPrefix(sub, "rds modify-db-cluster")) && hasPrefixWord(args, "--master-user-password")
			case "az":
				reset = strings.Contains(sub, "server update") && (hasPrefixWord(args, "--admin-password") || hasPrefixWord(args, "-p"))
			}
			if !reset || previewOnly(c, low) || !productionTarget(args, low) {
				return false, ""
			}
			return true, c.name + " " + sub + " in production"
		}},
}

// cloudGuardRules judge an account's guardrails removed, private data
// made reachable by a link, and a production app opened to another
// account or a new full-rights token made.
var cloudGuardRules = []*rule{
	{ID: "cloud-guardrail-removed", Level: LevelHigh, Category: CategorySystem, Description: "removing an account's guardrails: an organisation's service control policies, the configuration recorder, Defender's plans, a permissions boundary, the audit trail's management events, a bucket's retention, a production project's API",
		Suggestions: []string{"Leave guardrails to the organisation's administrators", "Change the one policy that is in the way, through review"},
		names:       names("aws", "az", "gcloud", "helm", "kubectl", "oc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) < 2 || hasWord(c.args(), "--dry-run") || hasPrefixWord(c.args(), "--dry-run=") {
				return false, ""
			}
			if (c.name == "kubectl" || c.name == "oc") && ops[0].s == "patch" && (ops[1].s == "pv" || strings.HasPrefix(ops[1].s, "pv/") || strings.HasPrefix(ops[1].s, "persistentvolume")) &&
				strings.Contains(strings.Join(strings.Fields(c.argsText()), ""), `"persistentVolumeReclaimPolicy":"Delete"`) && !localKubeContext(c.args()) {
				// a volume's data deleted with its claim from now on
				return true, "a persistent volume's reclaim policy set to Delete"
			}
			if c.name == "kubectl" || c.name == "oc" {
				// kubectl patch networkpolicy default-deny -p
				// '{"spec":{"ingress":[{}]}}': a deny-all policy made to
				// let everything in
				if ops[0].s == "patch" && (ops[1].s == "networkpolicy" || ops[1].s == "netpol" || ops[1].s == "networkpolicies" || strings.HasPrefix(ops[1].s, "networkpolicy/") || strings.HasPrefix(ops[1].s, "netpol/")) {
					if v, ok := optValue(c.args(), "-p", "patch"); ok {
						v = strings.Join(strings.Fields(v), "")
						if strings.Contains(v, `"ingress":[{}]`) || strings.Contains(v, `"egress":[{}]`) || strings.Contains(v, `"policyTypes":[]`) {
							return true, "a network policy opened to all traffic"
						}
					}
				}
				return false, ""
			}
			if c.name == "helm" && !touchesProduction(c) { // (production's charts are chart-production-down's)
				// --set alertmanager.enabled=false, policyEnforcementMode=never,
				// enforcementAction=dryrun: a cluster's alerting or policy
				// engine switched off through its chart
				for i, w := range c.args() {
					v := w.s
					if i > 0 && (c.args()[i-1].s == "--set" || c.args()[i-1].s == "--set-string") {
						for _, kv := range strings.Split(v, ",") {
							k, val, _ := strings.Cut(lower(kv), "=")
							switch {
							case k == "policyenforcementmode" && val == "never", k == "enforcementaction" && (val == "dryrun" || val == "warn"),
								strings.HasSuffix(k, ".enabled") && val == "false" && hasAny(k, "alertmanager", "falco", "gatekeeper", "kyverno", "audit", "networkpolic", "admission", "webhook"):
								return true, "helm --set " + kv
							}
						}
					}
				}
				return false, ""
			}
			if c.name == "helm" {
				return false, ""
			}
			if g := guardrailLowered(c); g != "" {
				return true, g
			}
			// aws s3api put-bucket-logging --bucket-logging-status '{}':
			// the bucket's access log switched off
			if c.name == "aws" && ops[0].s == "s3api" && ops[1].s == "put-bucket-logging" {
				if v, ok := optValue(c.args(), "", "bucket-logging-status"); ok && strings.ReplaceAll(strings.Trim(v, `"' `), " ", "") == "{}" {
					return true, "a bucket's access logging off"
				}
			}
			j := c.argsText()
			switch {
			case c.name == "aws" && ops[0].s == "cloudtrail" && ops[1].s == "update-trail" && (hasWord(c.args(), "--no-enable-log-file-validation") || hasWord(c.args(), "--no-is-multi-region-trail")):
				return true, "a trail's validation or reach cut"
			case c.name == "aws" && ops[0].s == "iam" && ops[1].s == "delete-role-permissions-boundary":
				return true, "a role's permissions boundary removed"
			case c.name == "az" && len(ops) > 2 && ops[0].s == "monitor" && hasWord(c.args(), "--enabled") && strings.Contains(lower(j), "--enabled false"):
				return true, "an alert switched off"
			case c.name == "az" && len(ops) > 1 && ops[0].s == "aks" && ops[1].s == "update" && hasWord(c.args(), "--enable-local-accounts"):
				return true, "a cluster's local admin accounts enabled"
			case c.name == "gcloud" && len(ops) > 2 && ops[0].s == "compute" && ops[1].s == "firewall-rules" && ops[2].s == "update" && hasWord(c.args(), "--disabled") &&
				strings.Contains(lower(j), "deny"):
				return true, "a deny firewall rule disabled"
			case c.name == "gcloud" && len(ops) > 2 && ops[0].s == "resource-manager" && ops[1].s == "org-policies" && (ops[2].s == "disable-enforce" || ops[2].s == "delete"):
				return true, "an organisation policy unenforced"
			case c.name == "gcloud" && len(ops) > 2 && ops[0].s == "storage" && ops[1].s == "buckets" && ops[2].s == "update" && hasWord(c.args(), "--no-public-access-prevention"):
				return true, "a bucket's public-access prevention off"
			}
			// gcloud logging sinks update SINK --disabled: the export of
			// the logs (an organisation's audit trail) stopped
			if c.name == "gcloud" && len(ops) > 2 && ops[0].s == "logging" && ops[1].s == "sinks" && ops[2].s == "update" && hasWord(c.args(), "--disabled") {
				return true, "a log sink disabled"
			}
			switch c.name + " " + ops[0].s + " " + ops[1].s {
			case "aws organizations detach-policy", "aws organizations delete-policy", "aws organizations disable-policy-type",
				"aws configservice stop-configuration-recorder", "aws configservice delete-configuration-recorder", "aws configservice delete-delivery-channel",
				"aws access-analyzer delete-analyzer", "aws detective delete-graph",
				// a load balancer's web firewall detached, keys left unrotated,
				// the password policy gone
				"aws wafv2 disassociate-web-acl", "aws waf-regional disassociate-web-acl", "aws kms disable-key-rotation", "aws iam delete-account-password-policy",
				"aws shield delete-protection":
				return true, c.name + " " + ops[0].s + " " + ops[1].s
			}
			// az security pricing create -n VirtualMachines --tier free:
			// Defender's plan for the resources switched off
			if c.name == "az" && len(ops) > 2 && ops[0].s == "security" && ops[1].s == "pricing" && (ops[2].s == "create" || ops[2].s == "update") {
				if t, ok := optValue(c.args(), "", "tier"); ok && strings.EqualFold(t, "free") {
					return true, "az security pricing --tier free"
				}
			}
			return false, ""
		}},
	{ID: "cloud-link-public", Level: LevelHigh, Category: CategoryExfiltration, Description: "making private data reachable by a link: a bucket's public development URL, a long-lived presigned link to a dump, a backup or production's data",
		Suggestions: []string{"Share a short-lived link with the one person who needs it", "Keep the bucket private and grant access by identity"},
		names:       names("wrangler", "aws"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			switch c.name {
			case "wrangler":
				// wrangler r2 bucket dev-url enable BUCKET: served to anyone
				if len(ops) > 3 && ops[0].s == "r2" && ops[1].s == "bucket" && ops[2].s == "dev-url" && ops[3].s == "enable" {
					return true, "r2 bucket dev-url enable"
				}
			case "aws":
				// aws s3 presign s3://acme-prod-db-dumps/latest.sql.gz
				// --expires-in 604800: a week's link to production's dump
				if len(ops) > 2 && ops[0].s == "s3" && ops[1].s == "presign" {
					exp, ok := optValue(c.args(), "", "expires-in")
					secs, err := strconv.Atoi(exp)
					if !ok || err != nil || secs <= 3600 {
						return false, ""
					}
					obj := lower(ops[2].s)
					if isProdName(ops[2].s) || hasAny(obj, ".sql", "dump", "backup", ".bak", "export", "snapshot") {
						return true, "a presigned link to " + ops[2].s + " for " + exp + "s"
					}
				}
			}
			return false, ""
		}},
	{ID: "hosted-app-access-granted", Level: LevelHigh, Category: CategoryPrivilege, Description: "giving another account rights on a production app, or making a token with the user's full rights",
		Suggestions: []string{"Let the app's owners add people", "Make a token scoped to the one app and task, and keep it out of the transcript"},
		names:       names("heroku"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) == 0 {
				return false, ""
			}
			switch ops[0].s {
			case "access:add", "apps:transfer", "access:update":
				if app, ok := optValue(c.args(), "-a", "app"); ok && isProdName(app) {
					return true, "heroku " + ops[0].s + " on " + app
				}
			case "authorizations:create":
				// a token with the user's full rights, printed
				if a.wantOut == 0 && !outputRedirected(c) && c.pipe == nil {
					return true, "heroku authorizations:create"
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, cliPostureRules, cloudGuardRules) }

// credentialNoun reports a subcommand word naming keys, tokens or
// certificates.
func credentialNoun(s string) bool {
	switch s {
	case "key", "keys", "token", "tokens", "credential", "credentials", "creds", "certificate", "certificates", "cert", "certs",
		"api-key", "api-keys", "apikey", "apikeys", "access-key", "access-keys", "secret", "secrets", "password", "passwords",
		"signing-key", "signing-keys", "client-secret", "client-secrets", "service-account-keys", "sa-keys":
		return true
	}
	return false
}

// subWords are a client's first subcommand words, held without an
// allocation: these rules read every command.
type subWords struct {
	w [4]string
	n int
}

func (s *subWords) list() []string { return s.w[:s.n] }

// clientSub caches a command's subcommand words: the generic client
// rules all read them, and each walking the arguments again was a
// twentieth of a decision.
type clientSub struct {
	done bool
	name string
	gen  uint32
	sub  subWords
	// verbs holds, for each verb class, the first subcommand word or
	// part of one in it ("" for none): read once, so that each rule on a
	// command without such a verb costs one comparison
	verbs [nVerbClasses]string
	// parts are the colon-, hyphen- and underscore-separated parts of
	// the words that have them (apps:suspend, disable-mfa), the word's
	// own parts from partAt[i] to partAt[i+1]
	parts  [12]string
	partAt [5]int
}

// clientSubWords returns a client's subcommand words: the first few
// words that are not options, in lower case, up to an operand (a path,
// a URL, a setting) or "--".
func clientSubWords(c *cmd) *subWords {
	low := c.lowerArgs() // brings argCase.gen up to date
	k := &c.clientSub
	if k.done && k.name == c.name && k.gen == c.argCase.gen {
		return &k.sub
	}
	k.done, k.name, k.gen, k.sub = true, c.name, c.argCase.gen, subWords{}
	sub := &k.sub
	for i, l := range low {
		if i > 4 || sub.n == len(sub.w) || l == "--" {
			break
		}
		if strings.HasPrefix(l, "-") {
			continue
		}
		if strings.ContainsAny(l, "/=@") || l == "" {
			if sub.n > 0 {
				break
			}
			continue
		}
		sub.w[sub.n] = l
		sub.n++
	}
	np := 0
	for i, l := range sub.list() {
		k.partAt[i] = np
		if !strings.ContainsAny(l, ":-_") {
			continue
		}
		for rest := l; rest != "" && np < len(k.parts); {
			part := rest
			if j := strings.IndexAny(rest, ":-_"); j >= 0 {
				part, rest = rest[:j], rest[j+1:]
			} else {
				rest = ""
			}
			if part != "" {
				k.parts[np] = part
				np++
			}
		}
	}
	k.partAt[sub.n] = np
	for cl := range k.verbs {
		k.verbs[cl] = ""
	}
	for i, l := range sub.list() {
		k.noteVerb(l)
		for _, part := range k.parts[k.partAt[i]:k.partAt[i+1]] {
			k.noteVerb(part)
		}
	}
	return sub
}

// verbClass names a kind of subcommand verb the generic client rules
// look for.
type verbClass uint8

const (
	vDisrupt     verbClass = iota // suspend, stop, scale...
	vReset                        // reset, flush, truncate, restore...
	vSecurityOff                  // disable, off, deactivate...
	vDestroy                      // delete, destroy, remove...
	vRevoke                       // revoke, rotate, regenerate...
	vUnset                        // unset, clear, or a destroy verb
	vPublish                      // update, edit, set, share...
	vKeyAdd                       // add, create, import, upload...
	vGrant                        // add, assign, grant, bind, promote...
	vSilence                      // mute, silence, snooze, toggle-off...
	nVerbClasses
)

// noteVerb records w as the verb of each class it belongs to that has
// none yet: one map lookup per word.
func (k *clientSub) noteVerb(w string) {
	bits := verbClasses[w]
	for cl := verbClass(0); bits != 0; cl++ {
		if bits&1 != 0 && k.verbs[cl] == "" {
			k.verbs[cl] = w
		}
		bits >>= 1
	}
}

// verbClasses maps a verb to the classes it belongs to, one bit each.
var verbClasses = func() map[string]uint16 {
	m := map[string]uint16{}
	add := func(cl verbClass, ws ...string) {
		for _, w := range ws {
			m[w] |= 1 << cl
		}
	}
	add(vDisrupt, "suspend", "pause", "stop", "shutdown", "scale", "maintenance", "halt", "offline", "hibernate", "cancel", "drain")
	add(vReset, "reset", "flush", "flushall", "truncate", "wipe", "empty", "erase", "clear", "reinit", "reinitialize", "restore", "overwrite")
	add(vSecurityOff, "disable", "off", "deactivate", "unenforce", "turn-off", "turnoff", "unprotect")
	add(vRevoke, "revoke", "rotate", "regenerate", "roll", "invalidate", "reissue", "cycle")
	add(vUnset, "unset", "clear")
	for w := range destroyVerbs {
		add(vDestroy, w)
		add(vUnset, w)
	}
	add(vPublish, "update", "edit", "set", "share", "change", "modify", "patch", "visibility")
	add(vKeyAdd, "add", "create", "import", "upload", "register", "new")
	add(vGrant, "add", "create", "assign", "grant", "attach", "bind", "invite", "set", "update", "change", "edit", "promote")
	add(vSilence, "mute_all", "mute-all", "muteall", "silence-all", "mute", "silence", "snooze", "toggle-off", "turn-off", "disable")
	return m
}()

// clientVerb returns a client's subcommand words and the first of them,
// or a colon/hyphen part of one, whose verb is of class cl ("" when
// none is).
func clientVerb(c *cmd, cl verbClass) (subWords, string) {
	sub := clientSubWords(c)
	return *sub, c.clientSub.verbs[cl]
}

// secondFactorHint reports a line that names a second factor at all.
func secondFactorHint(a *analysis) bool {
	return a.srcHint(hintSecondFactor, func(s string) bool { return hasAnyFold(s, "2fa", "mfa", "totp", "two-factor") })
}

// secondFactorOff reports a client switching its account's second factor
// off: npm profile disable-2fa, mfa disable.
func secondFactorOff(c *cmd) bool {
	sub := clientSubWords(c).list()
	for i, s := range sub {
		switch s {
		case "disable-2fa", "2fa-disable", "disable-mfa", "mfa-disable", "disable-totp", "remove-2fa", "2fa:disable":
			return true
		case "2fa", "mfa", "totp", "two-factor":
			if i+1 < len(sub) && (sub[i+1] == "disable" || sub[i+1] == "off" || sub[i+1] == "remove") {
				return true
			}
		}
	}
	return false
}

// readOnlySub reports subcommand words that only look: status, list,
// show, get, describe, history.
func readOnlySub(sub []string) bool {
	for _, s := range sub {
		switch s {
		case "status", "list", "ls", "show", "get", "describe", "history", "logs", "info", "inspect", "view", "help", "check":
			return true
		}
	}
	return false
}

// securityOffVerb reports a verb that switches something off.
func securityOffVerb(s string) bool { return verbClasses[s]&(1<<vSecurityOff) != 0 }

// dataNoun reports a subcommand word naming a data store.
func dataNoun(s string) bool {
	switch s {
	case "db", "dbs", "database", "databases", "data", "datastore", "store", "kv", "branch", "branches", "snapshot", "redis", "postgres", "postgresql", "mysql", "mongo", "mongodb",
		"sql", "table", "tables", "collection", "collections", "index", "indices", "bucket", "buckets", "storage", "queue", "queues", "topic", "topics":
		return true
	}
	return false
}

// securityControl reports a word naming a security control.
func securityControl(s string) bool {
	switch s {
	case "audit", "audit-log", "audit-logs", "auditlog", "audit-logging", "auditing", "audit-policy", "auditing-policy", "audit-config", "mfa", "2fa", "two-factor", "totp", "sso", "saml",
		"deletion-protection", "delete-protection", "termination-protection", "branch-protection", "protection", "protections",
		"encryption", "firewall", "waf", "ddos-protection", "guardduty", "defender", "secret-scanning", "push-protection", "scanning",
		"vulnerability-alerts", "security-alerts", "signing", "commit-signing", "ip-allowlist", "allowlist", "ip-restrictions",
		"access-restrictions", "logging", "flow-logs", "cloudtrail", "trail", "pitr", "point-in-time-recovery", "versioning",
		"https-only", "force-https", "hsts", "tls", "ssl", "security", "2sv", "mfa-enforcement", "password-policy",
		// deleted data kept for a while, to be restored
		"delete-retention", "container-delete-retention", "soft-delete", "purge-protection":
		return true
	}
	return false
}

// weakPasswordPolicy reports an account's password policy set below
// what any guideline accepts: complexity rules dropped, or fewer than
// eight characters (aws iam update-account-password-policy).
func weakPasswordPolicy(low []string) bool {
	if !hasAnyWord(low, "update-account-password-policy") {
		return false
	}
	for i, l := range low {
		if strings.HasPrefix(l, "--no-require-") {
			return true
		}
		v, ok := strings.CutPrefix(l, "--minimum-password-length=")
		if !ok && l == "--minimum-password-length" && i+1 < len(low) {
			v, ok = low[i+1], true
		}
		if n, err := strconv.Atoi(v); ok && err == nil && n < 8 {
			return true
		}
	}
	return false
}

// cutVerbNoun splits disable-mfa, audit-log-off and turn-off-scanning
// into verb and noun.
func cutVerbNoun(s string) (verb, noun string, ok bool) {
	if !strings.ContainsRune(s, '-') {
		return "", "", false
	}
	for _, v := range [...]struct{ verb, pre, suf string }{
		{"disable", "disable-", "-disable"}, {"deactivate", "deactivate-", "-deactivate"}, {"unenforce", "unenforce-", "-unenforce"},
		{"turn-off", "turn-off-", "-turn-off"}, {"off", "off-", "-off"}, {"unprotect", "unprotect-", "-unprotect"},
	} {
		if n, found := strings.CutPrefix(s, v.pre); found && n != "" {
			return v.verb, n, true
		}
		if n, found := strings.CutSuffix(s, v.suf); found && n != "" {
			return v.verb, n, true
		}
	}
	return "", "", false
}

// zeroCapacity reports an update that sets a service's or group's
// running count to zero (--desired-count 0, --desired-capacity=0,
// --node-count 0).
func zeroCapacity(low []string) bool {
	for i, l := range low {
		name, v, hasV := strings.Cut(l, "=")
		switch name {
		case "--desired-count", "--desired-capacity", "--node-count", "--num-nodes", "--instance-count", "--replicas", "--task-count", "--capacity",
			"--reserved-concurrent-executions", "--max-size", "--max-instances", "--max-replicas", "--max-nodes", "--total-max-nodes":
			if !hasV && i+1 < len(low) {
				v = low[i+1]
			}
			if v == "0" {
				return true
			}
		}
	}
	return false
}

// scaledToZero reports a scale subcommand's count of zero: 0, web=0,
// --replicas=0, --instances 0 (a minimum of zero is autoscaling, not
// an outage).
func scaledToZero(low []string) bool {
	for i, l := range low {
		if strings.Contains(l, "min") {
			continue
		}
		if _, v, ok := strings.Cut(l, "="); ok && v == "0" {
			return true
		}
		if strings.HasSuffix(l, ":0") && !strings.Contains(l, "/") {
			return true // web:0
		}
		if l == "0" && (i == 0 || !strings.Contains(low[i-1], "min")) {
			return true
		}
	}
	return false
}

// productionTarget reports a client's words naming production, and none
// naming a scratch target.
func productionTarget(args []word, low []string) bool {
	prod := false
	for i, w := range args {
		v := w.s
		if strings.HasPrefix(v, "-") {
			_, v, _ = strings.Cut(v, "=") // an option's name is no target (--test-level)
		}
		if scratchName(v) {
			return false
		}
		if prodMarker(w.s) || strings.HasPrefix(low[i], "-") && i+1 < len(low) && (low[i] == "--env" || low[i] == "-e" || low[i] == "--stage" || low[i] == "--environment") && prodLabel(low[i+1]) {
			prod = true
		}
	}
	return prod
}

// sharedTarget reports a target named for an environment a team shares
// (staging, shared, qa, uat) and for no developer or test run.
func sharedTarget(args []word) bool {
	shared := false
	for _, w := range args {
		v := w.s
		if strings.HasPrefix(v, "-") {
			_, v, _ = strings.Cut(v, "=")
		}
		if scratchName(v) {
			return false
		}
		for _, t := range nameWords(v) {
			switch t {
			case "staging", "stage", "stg", "shared", "uat", "qa", "preprod":
				shared = true
			case "dev", "local", "test", "sandbox", "mine":
				return false
			}
		}
	}
	return shared
}

// previewOnly reports a dry run: the tool's own dry-run flags, or
// --dry-run[=client|server], --dryrun or --preview on a client nobody
// listed.
func previewOnly(c *cmd, low []string) bool {
	if dryRun(c) {
		return true
	}
	for _, l := range low {
		switch {
		case l == "--dry-run" || l == "--dryrun" || l == "--preview" || l == "--whatif" || l == "--what-if":
			return true
		case strings.HasPrefix(l, "--dry-run=") && l != "--dry-run=none" && l != "--dry-run=false":
			return true
		}
	}
	return false
}

// securityFlagOff returns the control an option switches off
// (--disable-mfa, --no-audit-log, --mfa=false, --encryption=disabled),
// or "". Transport settings (--tls=false, --no-ssl) are left to the
// rules on verification: a local server's are everyday.
// wafOff reports a web application firewall's subcommand told to stop
// blocking: --enabled false, --state Disabled, or --mode Detection.
func wafOff(sub, low []string) bool {
	waf := false
	for _, s := range sub {
		waf = waf || strings.Contains(s, "waf")
	}
	if !waf {
		return false
	}
	for i, l := range low {
		next := ""
		if i+1 < len(low) {
			next = low[i+1]
		}
		switch {
		case l == "--enabled=false", l == "--enabled" && next == "false",
			l == "--state=disabled", l == "--state" && next == "disabled",
			l == "--mode=detection", l == "--mode" && next == "detection",
			l == "--firewall-mode=detection", l == "--firewall-mode" && next == "detection":
			return true
		}
	}
	return false
}

func securityFlagOff(low []string) string {
	for i, l := range low {
		if !strings.HasPrefix(l, "--") {
			continue
		}
		if l == "--enable-legacy-authorization" || l == "--enable-legacy-abac" {
			return "legacy-authorization" // GKE's ABAC: every account's old broad rights back
		}
		if (l == "--image-tag-mutability" && i+1 < len(low) && low[i+1] == "mutable") || l == "--image-tag-mutability=mutable" {
			return "image-tag-immutability" // a released tag may be pushed over
		}
		name, val, hasVal := strings.Cut(l[2:], "=")
		if !hasVal && i+1 < len(low) {
			// --mfa-configuration OFF: the value as the next word
			switch low[i+1] {
			case "off", "disabled", "false":
				// --enable-delete-retention false: the control named
				// after the enable
				bare := strings.TrimPrefix(name, "enable-")
				switch first := strings.SplitN(bare, "-", 2)[0]; first {
				case "tls", "ssl", "https", "logging", "security", "signing", "firewall", "versioning":
				default:
					if securityControl(first) || securityControl(bare) {
						return name
					}
				}
			}
		}
		if hasVal {
			switch val {
			case "false", "off", "disabled", "disable", "0", "no", "none":
			default:
				continue
			}
		}
		n := name
		if !hasVal {
			var ok bool
			if n, ok = strings.CutPrefix(name, "disable-"); !ok {
				if n, ok = strings.CutPrefix(name, "no-"); !ok {
					continue
				}
			}
		}
		n = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(n, "enable-"), "require-"), "-enabled")
		if strings.HasSuffix(n, "-encryption") || n == "network-policy" || n == "binary-authorization" || n == "shielded-nodes" || n == "private-nodes" {
			return n // transit-encryption, at-rest-encryption; a cluster's network and image policies
		}
		switch n {
		case "tls", "ssl", "https", "https-only", "force-https", "hsts", "logging", "security", "signing", "firewall", "versioning":
			continue
		}
		if securityControl(n) {
			return n
		}
	}
	return ""
}

// tlsOff reports options that take TLS away from a service: https-only
// or TLS turned off, an old TLS version allowed, a listener on plain HTTP.
func tlsOff(low []string) string {
	for i, l := range low {
		name, val, hasVal := strings.Cut(strings.TrimLeft(l, "-"), "=")
		if !strings.HasPrefix(l, "--") {
			continue
		}
		if !hasVal && i+1 < len(low) {
			val = low[i+1]
		}
		switch strings.ReplaceAll(name, "-", "") {
		case "httpsonly", "forcehttps", "requirehttps", "enablehttps", "ssl", "tls", "enabletls", "hsts":
			if falseWord(val) || val == "disabled" {
				return name + " " + val
			}
		case "mintlsversion", "minimumtlsversion", "mintls":
			if val == "1.0" || val == "1.1" || val == "tls1_0" || val == "tls1_1" {
				return name + " " + val
			}
		case "protocol":
			if val == "http" && hasAnyWord(low, "modify-listener", "create-listener") {
				return "a listener on plain HTTP"
			}
		}
	}
	return ""
}

// allowListOpened reports an option that empties the address allow-list
// of a cluster's API or a service (--api-server-authorized-ip-ranges "",
// --no-enable-master-authorized-networks, publicAccessCidrs=0.0.0.0/0):
// it is then reachable from anywhere.
func allowListOpened(low []string) string {
	for i, l := range low {
		if !strings.HasPrefix(l, "--") {
			if strings.Contains(l, "publicaccesscidrs=0.0.0.0/0") {
				return "the public endpoint's address allow-list"
			}
			continue
		}
		name, val, hasVal := strings.Cut(l[2:], "=")
		if !hasAny(name, "authorized-ip-ranges", "authorized-networks", "ip-allowlist", "allowed-ips", "access-cidrs", "ip-whitelist") {
			continue
		}
		if strings.HasPrefix(name, "no-") || strings.HasPrefix(name, "disable-") {
			return name
		}
		if !hasVal {
			if i+1 >= len(low) {
				continue
			}
			val = low[i+1]
		}
		switch strings.Trim(val, `"'`) {
		case "", "0.0.0.0/0", "*", "::/0", "0.0.0.0/0,::/0", "any":
			return name + " opened to every address"
		}
	}
	return ""
}

// deletableControl reports a control that deleting switches off: a
// branch protection, an allow-list, an audit trail. Deleting a
// firewall, a certificate or a logging sink is judged by the destroy
// rules instead.
func deletableControl(s string) bool {
	switch s {
	case "firewall", "tls", "ssl", "https-only", "force-https", "hsts", "security", "logging", "signing", "versioning":
		return false
	}
	return securityControl(s)
}

// guardrailLowered reports a guardrail lowered rather than removed: a
// permissions boundary deleted, the audit trail's management events or
// writes no longer recorded, a bucket's retention or soft delete cleared,
// a production project's API switched off.
func guardrailLowered(c *cmd) string {
	args := c.args()
	if hasWord(args, "--dry-run") || hasWord(args, "--help") {
		return ""
	}
	switch c.name {
	case "aws":
		op, _ := awsOp(c)
		switch op {
		case "iam delete-user-permissions-boundary", "iam delete-role-permissions-boundary":
			// what the user or role may grant itself, no longer bounded
			return op
		case "cloudtrail put-event-selectors":
			j := strings.ToLower(compactJSON(c.argsText()))
			if strings.Contains(j, `"includemanagementevents":false`) || strings.Contains(j, "includemanagementevents=false") ||
				strings.Contains(j, `"readwritetype":"readonly"`) || strings.Contains(j, "readwritetype=readonly") {
				return op + ": writes or management events no longer recorded"
			}
		}
	case "gcloud":
		ops := c.operands()
		if len(ops) > 2 && ops[0].s == "storage" && ops[1].s == "buckets" && ops[2].s == "update" {
			for _, f := range [...]string{"--clear-retention-period", "--clear-soft-delete", "--no-versioning", "--clear-retention"} {
				if hasWord(args, f) {
					return "gcloud storage buckets update " + f
				}
			}
		}
		if len(ops) > 2 && ops[0].s == "services" && ops[1].s == "disable" && touchesProduction(c) {
			// an API of a production project switched off: what
			// uses it stops (--force: with its dependants)
			return "gcloud services disable " + ops[2].s + " in production"
		}
	}
	return ""
}

// encryptionKeyDisabled reports a client disabling a key-management key
// (gcloud kms keys versions disable, az keyvault key set-attributes
// --enabled false): the data encrypted under it becomes unreadable.
func encryptionKeyDisabled(sub, low []string) bool {
	kms, disable := false, false
	for _, s := range sub {
		kms = kms || s == "kms" || s == "keyvault" && slices.Contains(sub, "key")
		disable = disable || s == "disable" || s == "disable-key"
	}
	if !kms {
		return false
	}
	if disable {
		return true
	}
	for i, l := range low {
		if (l == "--enabled" && i+1 < len(low) && falseWord(low[i+1])) || l == "--enabled=false" {
			return true
		}
	}
	return false
}
