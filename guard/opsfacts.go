package guard

import (
	"strings"
)

// --- helpers ---

// gitSub returns git's subcommand and its arguments, skipping global
// options.
func gitSub(c *cmd) (string, []word) {
	if c.subDone {
		return c.sub, c.subArgs
	}
	c.subDone = true
	c.sub, c.subArgs = gitSubParse(c)
	return c.sub, c.subArgs
}

func gitSubParse(c *cmd) (string, []word) {
	args := c.args()
	i := skipOpts(args, 0, optSpec{short: "Cc", long: []string{"git-dir", "work-tree", "namespace", "exec-path", "config-env", "super-prefix"}})
	if i >= len(args) {
		return "", nil
	}
	return args[i].s, args[i+1:]
}

var protectedBranches = map[string]bool{"main": true, "master": true, "trunk": true, "develop": true, "production": true, "prod": true,
	"release": true, "stable": true, "live": true, "default": true,
	// the environments' branches and the published site's
	"staging": true, "stage": true, "qa": true, "uat": true, "preprod": true, "pre-prod": true, "gh-pages": true,
	// every branch (refs/heads/*)
	"*": true}

func isProtectedBranch(ref string) bool {
	ref = strings.TrimPrefix(ref, "+")
	if i := strings.LastIndexByte(ref, ':'); i >= 0 {
		ref = ref[i+1:]
	}
	ref = strings.TrimPrefix(ref, "refs/heads/")
	for _, suf := range [...]string{"_stable", "-stable", "-prod", "_prod", "-production", "/prod", "/production"} {
		// MOODLE_403_STABLE, edge-config-prod: a maintained line or
		// what production runs
		if len(ref) > len(suf) && strings.HasSuffix(strings.ToLower(ref), suf) {
			return true
		}
	}
	return protectedBranches[ref] || strings.HasPrefix(ref, "release/") || strings.HasPrefix(ref, "release-") || strings.HasPrefix(ref, "releases/") ||
		strings.HasPrefix(ref, "support/")
}

// gitPush describes a git push.
type gitPush struct {
	force, all, mirror, delete, tags bool
	leaseOnly                        bool     // only --force-with-lease
	refs                             []string // refspecs after the remote
}

func parseGitPush(args []word) gitPush {
	var p gitPush
	var ops []string
	for i := 0; i < len(args); i++ {
		s := args[i].s
		switch {
		case s == "--force-with-lease" || strings.HasPrefix(s, "--force-with-lease=") || s == "--force-if-includes":
			if !p.force {
				p.leaseOnly = true
			}
			p.force = true
		case s == "--force":
			p.force, p.leaseOnly = true, false
		case s == "--all" || s == "--branches":
			p.all = true
		case s == "--mirror":
			p.mirror = true
		case s == "--tags":
			p.tags = true
		case s == "--delete":
			p.delete = true
		case s == "--repo" || s == "--receive-pack" || s == "--exec" || s == "-o" || s == "--push-option":
			i++
		case strings.HasPrefix(s, "--"):
		case len(s) > 1 && s[0] == '-':
			if strings.IndexByte(s, 'f') >= 0 {
				p.force, p.leaseOnly = true, false
			}
			if strings.IndexByte(s, 'd') >= 0 {
				p.delete = true
			}
		default:
			ops = append(ops, s)
		}
	}
	if len(ops) > 1 {
		p.refs = ops[1:]
	}
	for _, r := range p.refs {
		if strings.HasPrefix(r, "+") {
			p.force, p.leaseOnly = true, false
		}
	}
	return p
}

var rootShells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "csh": true, "tcsh": true}

var criticalServices = map[string]bool{
	"ssh": true, "sshd": true, "networking": true, "network": true, "NetworkManager": true, "systemd-networkd": true, "systemd-resolved": true,
	"dbus": true, "systemd-logind": true, "docker": true, "containerd": true, "kubelet": true, "cron": true, "crond": true, "polkit": true,
	"firewalld": true, "ufw": true, "nftables": true, "iptables": true, "apparmor": true, "systemd-udevd": true, "getty@tty1": true,
}

var loggingServices = map[string]bool{"rsyslog": true, "syslog": true, "auditd": true, "systemd-journald": true, "syslog-ng": true, "journald": true}

func unitName(s string) string {
	s = strings.TrimSuffix(s, ".service")
	s = strings.TrimSuffix(s, ".socket")
	return s
}

var criticalPackages = map[string]bool{
	"libc6": true, "glibc": true, "libc-bin": true, "systemd": true, "systemd-sysv": true, "bash": true, "coreutils": true, "sudo": true,
	"openssh-server": true, "apt": true, "dpkg": true, "rpm": true, "yum": true, "dnf": true, "linux-image-generic": true, "kernel": true,
	"grub-pc": true, "grub2": true, "grub-efi-amd64": true, "util-linux": true, "login": true, "passwd": true, "base-files": true,
	"init": true, "python3-minimal": true, "libpam0g": true, "pam": true, "perl-base": true, "shadow-utils": true, "filesystem": true,
	"initscripts": true, "sysvinit": true, "procps": true, "mount": true, "e2fsprogs": true, "zlib1g": true,
	// the package managers themselves and Arch's base and kernel
	"pacman": true, "zypper": true, "libzypp": true, "apk-tools": true, "base": true, "linux": true,
}

func isAWSDelete(op string) bool {
	for _, p := range [...]string{"delete-", "terminate-", "remove-", "deregister-", "purge-", "destroy-", "schedule-key-deletion", "disable-", "stop-", "reboot-"} {
		if strings.HasPrefix(op, p) {
			return true
		}
	}
	return false
}

var awsHighOps = map[string]bool{
	"ec2 terminate-instances": true, "rds delete-db-instance": true, "rds delete-db-cluster": true, "dynamodb delete-table": true,
	"eks delete-cluster": true, "cloudformation delete-stack": true, "route53 delete-hosted-zone": true, "kms schedule-key-deletion": true,
	"ecr delete-repository": true, "efs delete-file-system": true, "elasticache delete-cache-cluster": true, "elasticache delete-replication-group": true,
	"redshift delete-cluster": true, "opensearch delete-domain": true, "es delete-domain": true, "ec2 delete-volume": true, "ec2 delete-snapshot": true,
	"s3api delete-bucket": true, "lambda delete-function": true, "ecs delete-cluster": true, "ecs delete-service": true, "iam delete-user": true,
	"iam delete-role": true, "secretsmanager delete-secret": true, "backup delete-backup-vault": true, "rds delete-db-snapshot": true,
	"docdb delete-db-cluster": true, "neptune delete-db-cluster": true, "glacier delete-vault": true, "ec2 delete-vpc": true,
	"organizations delete-organization": true, "s3api delete-objects": true, "elbv2 delete-load-balancer": true, "autoscaling delete-auto-scaling-group": true,
}

var awsLogOps = map[string]bool{"cloudtrail stop-logging": true, "cloudtrail delete-trail": true, "logs delete-log-group": true,
	"logs delete-log-stream": true, "guardduty delete-detector": true, "config stop-configuration-recorder": true,
	"config delete-configuration-recorder": true, "cloudwatch delete-alarms": true, "securityhub disable-security-hub": true}

// awsDetectorOff are the operations that turn off an account's threat
// and data-exposure detection.
var awsDetectorOff = map[string]bool{"inspector2 disable": true, "macie2 disable-macie": true, "detective delete-graph": true,
	"securityhub disable-security-hub": true, "access-analyzer delete-analyzer": true, "guardduty disassociate-from-administrator-account": true}

// awsOp returns "service operation" of an aws CLI call and the words
// after the operation.
func awsOp(c *cmd) (string, []word) {
	args := c.args()
	spec := []string{"profile", "region", "output", "endpoint-url", "query", "cli-read-timeout", "cli-connect-timeout", "ca-bundle", "color"}
	var parts []string
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if strings.HasPrefix(s, "--") {
			if !strings.Contains(s, "=") && containsStr(spec, s[2:]) {
				i++
			}
			continue
		}
		if strings.HasPrefix(s, "-") {
			continue
		}
		parts = append(parts, s)
		if len(parts) == 2 {
			return parts[0] + " " + parts[1], args[i+1:]
		}
	}
	return "", nil
}

// cliPath returns the positional words of a gcloud/az/doctl call.
// Global options before the first word are stepped over (gcloud
// --project=acme-prod run services delete ...).
func cliPath(c *cmd) []string {
	var out []string
	args := c.args()
	for i := 0; i < len(args); i++ {
		w := args[i]
		if strings.HasPrefix(w.s, "-") {
			if len(out) > 0 {
				break
			}
			if strings.Contains(w.s, "=") || cliGlobalFlags[w.s] {
				continue
			}
			if cliGlobalOpts[w.s] && i+1 < len(args) {
				i++
				continue
			}
			break
		}
		out = append(out, w.s)
		if len(out) > 6 {
			break
		}
	}
	return out
}

// cliGlobalOpts are the cloud CLIs' global options that take a value,
// and cliGlobalFlags those that do not, as given before the command.
var (
	cliGlobalOpts = map[string]bool{"--project": true, "--account": true, "--configuration": true, "--subscription": true, "--context": true,
		"--profile": true, "--region": true, "--zone": true, "-o": true, "--output": true, "--format": true, "--verbosity": true,
		"--impersonate-service-account": true, "-t": true, "--access-token": true, "--config": true}
	cliGlobalFlags = map[string]bool{"-q": true, "--quiet": true, "--verbose": true, "--debug": true, "--only-show-errors": true}
)

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// kubectlDelete describes a kubectl delete.
func kubectlDelete(c *cmd) (ns string, kinds []string, objs []string, all, allNS, ok bool) {
	args := c.args()
	sub, i := subcommand(args, kubectlGlobal)
	if sub != "delete" {
		return
	}
	ok = true
	for j := 0; j < len(args); j++ {
		s := args[j].s
		switch {
		case s == "-n" || s == "--namespace":
			if j+1 < len(args) {
				ns = args[j+1].s
			}
		case strings.HasPrefix(s, "--namespace="):
			ns = s[len("--namespace="):]
		case strings.HasPrefix(s, "-n") && len(s) > 2 && !strings.HasPrefix(s, "--"):
			ns = s[2:]
		case s == "--all":
			all = true
		case s == "-A" || s == "--all-namespaces":
			allNS = true
		}
	}
	rest := args[i+1:]
	for j := 0; j < len(rest); j++ {
		s := rest[j].s
		if strings.HasPrefix(s, "-") {
			if s == "-n" || s == "--namespace" || s == "-l" || s == "--selector" || s == "-f" || s == "--filename" || s == "--context" || s == "-o" || s == "--grace-period" || s == "--timeout" || s == "-k" || s == "--field-selector" {
				j++
			}
			continue
		}
		if len(kinds) == 0 {
			for k := range strings.SplitSeq(s, ",") {
				if kk, name, has := strings.Cut(k, "/"); has {
					kinds = append(kinds, kk)
					objs = append(objs, name)
				} else {
					kinds = append(kinds, k)
				}
			}
			continue
		}
		objs = append(objs, s)
	}
	return
}

func isNSKind(k string) bool { return k == "ns" || k == "namespace" || k == "namespaces" }

var systemNamespaces = map[string]bool{"kube-system": true, "kube-public": true, "kube-node-lease": true, "default": true,
	"istio-system": true, "cert-manager": true, "ingress-nginx": true, "argocd": true, "gatekeeper-system": true}

// wordFlowList reports whether any argument is a list of every container,
// image or volume (from "docker ps -aq" and friends).
func wordFlowList(ws []word, what string) bool {
	for _, w := range ws {
		if w.flow != nil && w.flow.kind == flowList && w.flow.what == what {
			return true
		}
	}
	return false
}

// dockerSub returns the docker subcommand path ("rm", "container rm",
// "system prune") and its arguments.
func dockerSub(c *cmd) (string, []word) {
	args := c.args()
	sub, i := subcommand(args, dockerGlobal)
	rest := args[min(i+1, len(args)):]
	if sub == "compose" {
		s, j := subcommand(rest, optSpec{short: "fp", long: []string{"file", "project-name", "env-file", "profile", "project-directory", "ansi", "progress", "parallel"}})
		if s != "" {
			return "compose " + s, rest[j+1:]
		}
	}
	switch sub {
	case "container", "image", "volume", "system", "network", "builder", "compose", "buildx", "service", "stack", "swarm", "node", "secret", "config", "plugin", "context", "pod":
		if len(rest) > 0 {
			j := 0
			for j < len(rest) && strings.HasPrefix(rest[j].s, "-") {
				j++
			}
			if j < len(rest) {
				return sub + " " + rest[j].s, rest[j+1:]
			}
		}
	}
	return sub, rest
}

var suggDB = []string{"Back up first (pg_dump, mysqldump) and run destructive statements by hand", "Add a WHERE clause that selects only the rows you mean", "Use a transaction and check the row count before COMMIT"}

var suggGit = []string{"Push to a feature branch and open a pull request", "Use --force-with-lease on your own branch only", "Create a backup branch first"}

var suggCloud = []string{"Review the plan first (terraform plan -destroy, --dry-run)", "Delete specific resources by hand after confirming their names", "Protect production resources with deletion protection"}

var suggContainer = []string{"Remove specific containers or volumes by name", "Use docker system df / docker ps -a to review first"}

// mountSource returns the source of a --mount specification.
func mountSource(s string) string {
	for kv := range strings.SplitSeq(s, ",") {
		k, v, _ := strings.Cut(kv, "=")
		if k == "source" || k == "src" {
			return v + ":"
		}
	}
	return ""
}

// sqlFinding matches a database client whose SQL holds the finding pick
// returns (the offending statement, or "").
func sqlFinding(pick func(*sqlScan) string) func(a *analysis, c *cmd) (bool, string) {
	return func(a *analysis, c *cmd) (bool, string) {
		if s := a.scanSQLOf(c); s != nil {
			if f := pick(s); f != "" {
				return true, f
			}
		}
		return false, ""
	}
}

// localEndpoint reports a client pointed at an emulator on this machine
// (--endpoint-url http://localhost:8000: DynamoDB Local, LocalStack,
// MinIO), whose resources are the developer's own.
func localEndpoint(args []word) bool {
	for _, k := range [...]string{"endpoint-url", "endpoint"} {
		if v, ok := optValue(args, "", k); ok {
			return isLocalHost(hostOf(v))
		}
	}
	// az storage ... --connection-string "...BlobEndpoint=http://127.0.0.1:10000/...":
	// the Azurite emulator
	if v, ok := optValue(args, "", "connection-string"); ok {
		if strings.Contains(v, "UseDevelopmentStorage=true") {
			return true
		}
		local := false
		for part := range strings.SplitSeq(v, ";") {
			k, u, ok := strings.Cut(part, "=")
			if !ok || !strings.HasSuffix(k, "Endpoint") {
				continue
			}
			if !isLocalHost(hostOf(u)) {
				return false
			}
			local = true
		}
		return local
	}
	return false
}

// throwawayDBURL reports a connection string to a database on this
// machine whose name marks it as scratch (app_test, app_scratch, e2e).
func throwawayDBURL(v string) bool {
	if !strings.Contains(v, "://") {
		return false
	}
	h := hostOf(v)
	if !isLocalHost(h) {
		return false
	}
	rest := v[strings.Index(v, "://")+3:]
	i := strings.IndexByte(rest, '/')
	if i < 0 {
		return false
	}
	name, _, _ := strings.Cut(rest[i+1:], "?")
	return scratchName(name) || strings.Contains(lower(name), "e2e")
}

// testSettings reports a command run with a test configuration in its
// environment (DJANGO_SETTINGS_MODULE=app.settings.test, RAILS_ENV=test).
func testSettings(c *cmd) bool {
	for _, as := range c.assigns {
		n := strings.ToUpper(as.name)
		if n == "DJANGO_SETTINGS_MODULE" || strings.HasSuffix(n, "_ENV") || n == "ENV" {
			v := lower(as.val.s)
			if v == "test" || v == "testing" || v == "ci" || strings.HasSuffix(v, ".test") || strings.HasSuffix(v, ".testing") || strings.HasSuffix(v, "_test") || strings.HasSuffix(v, ".ci") && n == "DJANGO_SETTINGS_MODULE" {
				return true
			}
		}
	}
	// php artisan migrate:fresh --env=testing: the framework's own
	// environment option, naming the test or this machine's database
	if v, ok := optValue(c.args(), "", "env"); ok {
		switch lower(v) {
		case "test", "testing", "local":
			return true
		}
	}
	return false
}

// dbDestroyVerbs are the subcommands schema and migration tools empty a
// database with.
var dbDestroyVerbs = map[string]bool{"clean": true, "drop": true, "reset": true, "wipe": true, "purge": true, "destroy": true, "truncate": true, "drop-all": true, "dropall": true}

// dbURLDestroy reports any client given a database connection (a URL
// with a database scheme, or a variable named for a production database)
// and a verb that empties it (clean, drop, reset; down by many steps).
// A connection to this machine is left to the rules for local databases.
func dbURLDestroy(c *cmd) string {
	switch c.name {
	case "psql", "mysql", "mariadb", "sqlite3", "redis-cli", "mongosh", "mongo", "curl", "wget", "echo", "printf", "git":
		return "" // SQL clients are judged by the statements they run
	}
	args, low := c.args(), c.lowerArgs()
	target := ""
	for k, w := range args {
		// l is v in lower case: lowering keeps quotes and '=' in place
		v, l := strings.Trim(w.s, `"'`), strings.Trim(low[k], `"'`)
		if i := strings.IndexByte(v, '='); i > 0 && strings.HasPrefix(v, "-") {
			v, l = v[i+1:], l[strings.IndexByte(l, '=')+1:]
		}
		switch {
		case strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://") || strings.HasPrefix(l, "mysql://") ||
			strings.HasPrefix(l, "jdbc:") || strings.HasPrefix(l, "mongodb://") || strings.HasPrefix(l, "mongodb+srv://") ||
			strings.HasPrefix(l, "sqlserver://") || strings.HasPrefix(l, "mariadb://") || strings.HasPrefix(l, "cockroachdb://") ||
			strings.HasPrefix(l, "db:pg://") || strings.HasPrefix(l, "db:mysql://") || strings.HasPrefix(l, "db:postgres://"):
			l = strings.TrimPrefix(l, "db:") // sqitch's targets: db:pg://host/db
			h := hostOf(strings.TrimPrefix(strings.TrimPrefix(l, "jdbc:"), "mysql:"))
			if strings.HasPrefix(l, "jdbc:") {
				j := strings.Index(l, "//")
				if j < 0 {
					continue // jdbc:h2:mem:x, jdbc:sqlite:app.db: an embedded database, no server
				}
				h = hostOf("x:" + l[j:])
			}
			if h != "" && !loopback(h) && h != "host.docker.internal" { // a private address is a shared server
				target = h
			}
		case !w.ok && strings.Contains(strings.ToUpper(v), "PROD") && (strings.Contains(strings.ToUpper(v), "DATABASE") || strings.Contains(strings.ToUpper(v), "DB_")):
			target = v
		}
	}
	if target == "" || hasWord(args, "--dry-run") || hasWord(args, "--help") {
		return ""
	}
	for i, w := range args {
		l := low[i]
		if strings.HasPrefix(l, "-") {
			continue
		}
		if dbDestroyVerbs[l] {
			return c.base + " " + w.s + " on " + target
		}
		// liquibase rollback-count --count=50, sqitch revert --to @ROOT
		// (or with no --to: every change)
		if l == "rollback-count" || l == "rollbackcount" || l == "revert" && (!hasPrefixWord(args, "--to") || hasWord(args, "@ROOT") || hasPrefixWord(args, "--to=@ROOT")) {
			return c.base + " " + w.s + " on " + target
		}
		if l == "down" && i+1 < len(args) {
			if n := args[i+1].s; len(n) > 1 && strings.Trim(n, "0123456789") == "" || n == "--all" {
				return c.base + " down " + n + " on " + target
			}
		}
	}
	return ""
}
