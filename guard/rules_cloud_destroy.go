package guard

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Rules for destroying cloud resources (category cloud_destroy).
var cloudDestroyRules = []*rule{
	{ID: "lake-tree-deleted", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting a folder tree of a data platform's file system (its tables' files and everything under them)",
		Suggestions: []string{"Drop the one table through the warehouse, where it can be undropped", "Delete a scratch or tmp folder only"},
		names:       names("databricks"),
		partial:     true, // (databricks deletes more than its file system)
		match: func(a *analysis, c *cmd) (bool, string) {
			// databricks fs rm -r dbfs:/user/hive/warehouse/sales.db
			args := c.args()
			ops := c.operands()
			if len(ops) < 3 || ops[0].s != "fs" || ops[1].s != "rm" || !hasWord(args, "-r") && !hasWord(args, "--recursive") {
				return false, ""
			}
			for _, w := range ops[2:] {
				l := lower(w.s)
				if strings.HasPrefix(l, "dbfs:/tmp/") || strings.Contains(l, "/scratch") || scratchName(l) {
					continue
				}
				return true, "databricks fs rm -r " + w.s
			}
			return false, ""
		}},
	{ID: "lakehouse-opened", Level: LevelHigh, Category: CategoryPermission, Description: "a data platform's catalog granted to every user, or its audit log switched off",
		Suggestions: []string{"Grant the group that needs the catalog the privileges it needs", "Leave the workspace's audit settings to its administrators"},
		names:       names("databricks"),
		partial:     true,
		match: func(a *analysis, c *cmd) (bool, string) {
			// databricks grants update catalog X --json '{"changes":
			// [{"principal":"account users","add":["ALL_PRIVILEGES"]}]}';
			// databricks workspace-conf set-status --json
			// '{"enableVerboseAuditLogs":"false"}'
			ops := c.operands()
			if len(ops) < 2 {
				return false, ""
			}
			body, _ := optValue(c.args(), "", "json")
			b := strings.ReplaceAll(lower(body), " ", "")
			switch {
			case ops[0].s == "grants" && ops[1].s == "update":
				if (strings.Contains(b, `"principal":"accountusers"`) || strings.Contains(b, `"principal":"users"`)) && hasAny(b, "all_privileges", `"manage"`, `"modify"`) {
					return true, "a catalog's privileges granted to every user"
				}
			case ops[0].s == "workspace-conf" && ops[1].s == "set-status":
				if strings.Contains(b, "audit") && strings.Contains(b, `":"false"`) {
					return true, "the workspace's audit log switched off"
				}
			}
			return false, ""
		}},
	{ID: "backup-expiry-shortened", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "a lifecycle rule that expires a backup or production bucket's objects within days (the store empties itself)",
		Suggestions: []string{"Keep backups' retention as the backup policy says", "Expire only a scratch prefix"},
		names:       names("mc", "mcli"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) < 2 || ops[0].s != "ilm" || !(ops[1].s == "add" || ops[1].s == "rule" && len(ops) > 2 && (ops[2].s == "add" || ops[2].s == "edit")) {
				return false, ""
			}
			v, ok := optValue(c.args(), "", "expire-days", "expiry-days", "noncurrent-expire-days", "noncurrentversion-expiration-days")
			if !ok {
				return false, ""
			}
			n, err := strconv.Atoi(v)
			if err != nil || n > 7 {
				return false, ""
			}
			target := ops[len(ops)-1].s
			if l := lower(target); !scratchName(target) && (strings.Contains(l, "backup") || isProdName(target) || strings.Contains(l, "archive")) {
				return true, "objects of " + target + " expired after " + v + " days"
			}
			return false, ""
		}},
	{ID: "api-client-delete-remote", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "a one-liner that deletes through a service's API client pointed at a server elsewhere (models, runs, records)",
		Suggestions: []string{"Delete through the service's own interface, reviewed", "Point the client at a local or test server"},
		names:       names("python", "python3", "node", "ruby"),
		match: func(a *analysis, c *cmd) (bool, string) {
			code, ok := optValue(c.args(), "-c", "")
			if c.name == "node" || c.name == "ruby" {
				code, ok = optValue(c.args(), "-e", "eval")
			}
			if !ok || !strings.Contains(code, "delete_") && !strings.Contains(code, "drop_") && !strings.Contains(code, "purge") {
				return false, ""
			}
			m := apiDeleteCall.FindString(code)
			if m == "" {
				return false, ""
			}
			for _, u := range quotedURLs.FindAllString(code, 8) {
				if h := hostOf(strings.Trim(u, `"'`)); h != "" && !isLocalHost(h) && !testName(h) {
					return true, strings.TrimSuffix(m, "(") + " on " + h
				}
			}
			return false, ""
		}},
	{ID: "fleet-keys-deleted", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting every managed machine's key from the configuration server (the fleet stops being managed until each is enrolled again)",
		Suggestions: []string{"Delete the one machine's key that was retired: salt-key -d NAME", "List the keys first: salt-key -L"},
		names:       names("salt-key"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if hasWord(args, "-D") || hasWord(args, "--delete-all") {
				return true, "salt-key --delete-all"
			}
			// -d '*' is every key too
			if v, ok := optValue(args, "-d", "delete"); ok && (v == "*" || !strings.ContainsAny(v, "0123456789abcdefghijklmnopqrstuvwxyz") ||
				// -d 'prod-*' -y: a whole group's keys, without the question
				strings.ContainsAny(v, "*?[") && (hasWord(args, "-y") || hasWord(args, "--yes"))) {
				return true, "salt-key --delete " + v
			}
			return false, ""
		}},
	{ID: "cloud-account-nuke", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "deleting every resource of a cloud account",
		Suggestions: []string{"Delete the resources one by one after review", "Run the tool's dry run or inspect mode first"},
		names:       names("cloud-nuke", "aws-nuke", "azure-nuke", "gcp-nuke", "aws"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if c.name == "aws" {
				// an account closed, or taken out of its organisation (its
				// guardrails, billing and backups with it)
				if len(ops) > 1 && (ops[0].s == "organizations" && (ops[1].s == "leave-organization" || ops[1].s == "close-account" || ops[1].s == "delete-organization") ||
					ops[0].s == "account" && ops[1].s == "close-account") {
					return true, "aws " + ops[0].s + " " + ops[1].s
				}
				return false, ""
			}
			if len(ops) > 0 && (strings.HasPrefix(ops[0].s, "inspect") || strings.HasPrefix(ops[0].s, "defaults") || ops[0].s == "version" || ops[0].s == "help") {
				return false, ""
			}
			if c.name == "cloud-nuke" {
				return len(ops) > 0 && !hasWord(args, "--dry-run"), joinWords(args)
			}
			// aws-nuke and its kin only list unless told --no-dry-run
			return hasWord(args, "--no-dry-run"), joinWords(args)
		}},
	{ID: "iac-state-destroy", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting or unlocking infrastructure state (what Terraform knows it manages is lost or raced)",
		Suggestions: []string{"Let Terraform manage its state (terraform state list / mv)", "Back the state up first"},
		names:       names("aws", "gsutil", "gcloud", "az", "terraform"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			j := joinWords(args)
			if c.name == "terraform" {
				ops := c.operands()
				if len(ops) > 0 && ops[0].s == "force-unlock" {
					return true, "force-unlock"
				}
				// workspace delete -force: a workspace that still manages
				// resources deleted with its state (they are orphaned)
				if len(ops) > 2 && ops[0].s == "workspace" && ops[1].s == "delete" && (hasWord(args, "-force") || hasWord(args, "--force")) && !testName(ops[2].s) {
					return true, "workspace delete -force " + ops[2].s
				}
				return false, ""
			}
			deleting := strings.Contains(j, " rm ") || strings.HasPrefix(j, "s3 rm") || strings.Contains(j, "delete-object") || strings.Contains(j, "storage rm") ||
				strings.HasPrefix(j, "rm ") || strings.Contains(j, " delete")
			if deleting && (strings.Contains(j, ".tfstate") || strings.Contains(j, "tf-state") || strings.Contains(j, "tfstate")) {
				return true, "Terraform state"
			}
			return false, ""
		}},
	{ID: "bucket-protection-off", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "turning off a bucket's versioning or making its objects expire (data goes without a delete command)",
		Suggestions: []string{"Keep versioning on production buckets", "Review lifecycle rules with the data's owner"}, names: names("aws", "gsutil", "gcloud", "az"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := c.argsText()
			switch {
			case strings.Contains(j, "put-bucket-versioning") && strings.Contains(j, "Suspended"):
				return true, "versioning suspended"
			case strings.Contains(j, "put-bucket-lifecycle") && strings.Contains(j, "Expiration"):
				return true, "objects set to expire"
			case strings.Contains(j, "versioning set off"), strings.Contains(j, "--no-versioning"):
				return true, "versioning off"
			case c.name == "az" && strings.Contains(j, "blob delete-batch") && !hasWord(c.args(), "--dryrun"):
				if v, ok := optValue(c.args(), "", "pattern"); ok && throwawayName(strings.SplitN(v, "/", 2)[0]) {
					return false, "" // a pull request's or a test's prefix
				}
				if localEndpoint(c.args()) {
					return false, "" // the local emulator (Azurite)
				}
				return true, "every blob of a container"
			}
			return false, ""
		}},
	{ID: "db-backups-switched-off", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "switching a hosted database's automated backups off (the ones it has are deleted, point-in-time restore goes)",
		Suggestions: []string{"Keep backups on; shorten the retention instead", "Take a final snapshot first"}, names: names("aws", "gcloud", "az", "doctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			for i, w := range args {
				name, v, hasV := strings.Cut(w.s, "=")
				switch name {
				case "--backup-retention-period", "--backup-retention", "--backup-retention-days", "--retained-backups-count":
					if !hasV && i+1 < len(args) {
						v = args[i+1].s
					}
					if v == "0" {
						return true, name + " 0"
					}
				case "--no-backup", "--no-enable-point-in-time-recovery":
					if c.name == "gcloud" {
						return true, name
					}
				case "--soft-delete-feature-state", "--soft-delete-state":
					// az backup vault backup-properties set
					// --soft-delete-feature-state Disable: deleted backups
					// are gone at once, not kept fourteen days
					if !hasV && i+1 < len(args) {
						v = args[i+1].s
					}
					if strings.EqualFold(v, "disable") || strings.EqualFold(v, "disabled") || strings.EqualFold(v, "off") {
						return true, name + " " + v
					}
				}
				// --retained-backups-count=1, az sql db str-policy set
				// --retention-days 1: production's backups cut to one day
				// or one copy
				if name == "--retained-backups-count" || name == "--retention-days" && (hasWord(args, "str-policy") || hasWord(args, "ltr-policy") || hasWord(args, "backup")) {
					if !hasV && i+1 < len(args) {
						v = args[i+1].s
					}
					if v == "1" && (touchesProduction(c) || isProdName(joinWords(args))) {
						return true, name + " " + v
					}
				}
				// aws backup update-backup-plan '{"Rules":[{"Lifecycle":{"DeleteAfterDays":1}}]}'
				if c.name == "aws" && backupDeletedAfterADay.MatchString(w.s) {
					return !scratchName(joinWords(args)), "backups deleted after a day (DeleteAfterDays)"
				}
				// aws dynamodb update-continuous-backups ...
				// PointInTimeRecoveryEnabled=false: the table's restore
				// points go
				if c.name == "aws" && strings.Contains(w.s, "PointInTimeRecoveryEnabled=false") || strings.Contains(strings.ReplaceAll(w.s, " ", ""), `"PointInTimeRecoveryEnabled":false`) {
					return !scratchName(joinWords(args)), "point-in-time recovery off"
				}
			}
			return false, ""
		}},
	{ID: "backup-lock-bypassed", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "bypassing or lifting the retention lock or legal hold that keeps backups or records from being changed or deleted",
		Suggestions: []string{"Let the lock expire as its policy says", "Ask the account's owners, or the legal team for a hold, to lift it, reviewed"},
		names: names("aws", "gsutil", "gcloud", "az", "gam", "set-retentioncompliancepolicy", "remove-retentioncompliancepolicy", "set-caseholdpolicy",
			"remove-caseholdpolicy", "remove-caseholdrule", "remove-compliancetag", "set-mailbox"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if w := retentionLifted(c); w != "" {
				return true, w
			}
			return false, ""
		}},
	{ID: "iac-protection-removed", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "removing the deletion protection from every resource of an infrastructure stack",
		Suggestions: []string{"Unprotect the one resource that must go, by its URN", "Let the stack's owner change protection"}, names: names("pulumi"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			return len(ops) > 1 && ops[0].s == "state" && ops[1].s == "unprotect" && hasWord(c.args(), "--all"), "pulumi state unprotect --all"
		}},
	{ID: "iac-state-remove", Level: LevelModerate, Category: CategoryCloudDestroy, Description: "removing resources from infrastructure state",
		Suggestions: []string{"Back the state up first (terraform state pull > backup.tfstate)", "Use terraform plan to review"}, names: names("terraform", "pulumi"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			// state rm, or an old state pushed over the current one
			return len(ops) > 1 && ops[0].s == "state" && (ops[1].s == "rm" || ops[1].s == "delete" || ops[1].s == "push" && (hasWord(c.args(), "-force") || hasWord(c.args(), "--force"))), ""
		}},
	{ID: "s3-sync-delete-production", prodAware: true, Level: LevelHigh, Category: CategoryCloudDestroy, Description: "syncing with deletion into a production bucket, a shared drive or a bucket of kept copies, or from a directory just made empty; moving kept copies out of their bucket",
		Suggestions: []string{"Run with --dryrun first", "Sync without --delete"}, names: names("aws", "gsutil", "rclone", "s3cmd", "azcopy", "mc", "mcli"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			deletes := hasWord(args, "--delete") || hasWord(args, "-d") || hasWord(args, "--delete-removed") || c.name == "rclone"
			switch c.name {
			case "azcopy":
				v, _ := optValue(args, "", "delete-destination")
				deletes = strings.EqualFold(v, "true")
			case "mc", "mcli":
				deletes = hasWord(args, "--remove")
			}
			ops := c.operands()
			if c.name == "aws" && len(ops) > 2 && ops[0].s == "s3" && ops[1].s == "mv" && hasWord(args, "--recursive") && !hasWord(args, "--dryrun") &&
				hasAny(lower(ops[2].s), "backup", "archive", "vault", "retention", "legal-hold") {
				// aws s3 mv s3://acme-legal-hold-vault/ ... --recursive: the
				// kept copies taken out of their bucket
				return true, "every object moved out of " + ops[2].s
			}
			if !deletes || hasWord(args, "--dryrun") || hasWord(args, "--dry-run") || hasWord(args, "-n") {
				return false, ""
			}
			switch {
			case c.name == "aws" && (len(ops) < 2 || ops[0].s != "s3" || ops[1].s != "sync"),
				c.name == "rclone" && (len(ops) == 0 || ops[0].s != "sync"),
				c.name == "azcopy" && (len(ops) == 0 || ops[0].s != "sync"),
				(c.name == "mc" || c.name == "mcli") && (len(ops) == 0 || ops[0].s != "mirror"):
				return false, ""
			}
			if len(ops) < 2 {
				return false, ""
			}
			dest := ops[len(ops)-1].s
			if isProdName(dest) {
				return true, dest
			}
			if strings.Contains(dest, "://") && hasAny(lower(dest), "backup", "archive", "vault", "retention") {
				// s3://acme-db-backups-archive/: the copies kept for a
				// restore, deleted wherever the source lacks them
				return true, dest
			}
			if strings.Contains(dest, ":") && sharedTarget([]word{lit(dest)}) {
				// rclone sync ./tmp gdrive:Team/Shared: a team's folder made
				// to match a local one, the rest of it deleted
				return true, dest
			}
			if p := a.absPath(dest, c.cwd); p != "" && !strings.Contains(dest, ":") && (a.inWork(p) || underTemp(p)) {
				return false, "" // the project's own folder, emptied
			}
			if src := ops[len(ops)-2].s; !strings.Contains(src, "://") && a.emptySource(src, c.cwd) {
				// mkdir -p /tmp/empty && … sync /tmp/empty DEST: every
				// object of DEST goes
				return true, dest + " mirrored from the empty " + src
			}
			return false, ""
		}},
	{ID: "aws-s3-delete", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting S3 buckets or every object under a prefix",
		Suggestions: suggCloud, names: names("aws", "s3cmd", "mc", "azcopy"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "azcopy":
				return len(args) > 0 && (args[0].s == "remove" || args[0].s == "rm") && (hasWord(args, "--recursive") || hasPrefixWord(args, "--recursive=true")), ""
			case "s3cmd":
				return len(args) > 0 && (args[0].s == "rb" || (args[0].s == "del" || args[0].s == "rm") && (hasWord(args, "-r") || hasWord(args, "--recursive"))), ""
			case "mc":
				return len(args) > 0 && (args[0].s == "rb" || args[0].s == "rm" && (hasWord(args, "--recursive") || hasWord(args, "-r")) && hasWord(args, "--force")), ""
			}
			op, rest := awsOp(c)
			switch op {
			case "s3 rm":
				return hasWord(rest, "--recursive"), ""
			case "s3 rb":
				return true, ""
			case "s3api delete-bucket":
				return true, ""
			}
			return false, ""
		}},
	{ID: "object-store-emptied", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting every object of a storage bucket, or of a prefix in it, with a storage client",
		Suggestions: suggCloud,
		match: func(a *analysis, c *cmd) (bool, string) {
			u, _ := objectStoreEmptied(c)
			return u != "", u
		}},
	{ID: "object-store-backups-emptied", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "deleting every object (or every version) of a bucket that holds backups or production data",
		Suggestions: suggCloud,
		match: func(a *analysis, c *cmd) (bool, string) {
			u, crit := objectStoreEmptied(c)
			return u != "" && crit, u
		}},
	// (scratchFilteredIDs: terminate-instances --instance-ids $(aws ec2
	// describe-instances --filters Name=tag:Name,Values=scratch-agent-test
	// ...): only what a scratch tag selects)
	{ID: "aws-destroy-resource", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "terminating or deleting AWS infrastructure",
		Suggestions: suggCloud, names: names("aws"),
		match: func(a *analysis, c *cmd) (bool, string) {
			op, rest := awsOp(c)
			if awsHighOps[op] && !hasWord(rest, "--dry-run") && !localEndpoint(c.args()) && !scratchFilteredIDs(a, rest) {
				return true, op
			}
			return false, ""
		}},
	{ID: "aws-delete", Level: LevelModerate, Category: CategoryCloudDestroy, Description: "deleting or stopping an AWS resource",
		Suggestions: suggCloud, names: names("aws"),
		match: func(a *analysis, c *cmd) (bool, string) {
			op, rest := awsOp(c)
			svc, verb, _ := strings.Cut(op, " ")
			if op == "" || awsHighOps[op] || awsLogOps[op] || hasWord(rest, "--dry-run") || svc == "s3" || localEndpoint(c.args()) {
				return false, ""
			}
			return isAWSDelete(verb), op
		}},
	{ID: "gcloud-delete", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting Google Cloud infrastructure",
		Suggestions: suggCloud, names: names("gcloud", "gsutil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "gsutil" {
				ops := c.operands()
				for i, w := range ops {
					if w.s == "rb" || w.s == "rm" && (hasWord(args, "-r") || hasWord(args, "-R") || hasWord(args, "-a") || i+1 < len(ops) && strings.HasSuffix(ops[i+1].s, "**")) {
						scratch := i+1 < len(ops)
						for _, t := range ops[i+1:] {
							// gs://acme-ci-scratch/run-42/: a CI run's own
							// objects (a shared fixtures bucket is not)
							scratch = scratch && testName(t.s) && !strings.Contains(lower(t.s), "shared")
						}
						if scratch {
							return false, ""
						}
						return true, w.s
					}
				}
				return false, ""
			}
			p := cliPath(c)
			if len(p) >= 2 && p[0] == "storage" && (p[1] == "rm" && (hasWord(args, "-r") || hasWord(args, "--recursive")) || p[1] == "buckets" && containsStr(p, "delete")) {
				return true, "storage"
			}
			if !containsStr(p, "delete") || hasWord(args, "--dry-run") || scratchResource(c, p) {
				return false, ""
			}
			if len(p) > 2 && p[0] == "app" && p[1] == "versions" && !touchesProduction(c) {
				return false, "" // an old App Engine version outside production: deployments are made by the dozen
			}
			switch {
			case p[0] == "projects", p[0] == "sql", p[0] == "spanner", p[0] == "bigtable", p[0] == "firestore", p[0] == "redis", p[0] == "filestore",
				len(p) > 1 && p[0] == "container" && p[1] == "clusters", len(p) > 1 && p[0] == "compute" && (p[1] == "instances" || p[1] == "disks" || p[1] == "snapshots" || p[1] == "images"),
				p[0] == "alloydb", p[0] == "run" || p[0] == "functions" || p[0] == "app":
				return true, strings.Join(p, " ")
			}
			return false, ""
		}},
	{ID: "cloud-delete", Level: LevelModerate, Category: CategoryCloudDestroy, Description: "deleting or stopping a cloud resource",
		Suggestions: suggCloud, names: names("gcloud", "az", "doctl", "linode-cli", "hcloud", "vultr-cli", "scw", "oci", "ibmcloud"),
		match: func(a *analysis, c *cmd) (bool, string) {
			p := cliPath(c)
			if c.name == "gcloud" && len(p) > 2 && p[0] == "app" && p[1] == "versions" && !touchesProduction(c) {
				return false, "" // an old App Engine version outside production
			}
			if !(containsStr(p, "delete") || containsStr(p, "destroy") || containsStr(p, "rm") || containsStr(p, "remove") || containsStr(p, "terminate") ||
				containsStr(p, "stop") || containsStr(p, "deallocate") || containsStr(p, "reset") || anyHyphenDestroyVerb(p)) ||
				hasWord(c.args(), "--dryrun") || hasWord(c.args(), "--dry-run") || scratchResource(c, p) || localEndpoint(c.args()) || revokesOutsideAccess(a, c) {
				return false, ""
			}
			return true, strings.Join(p, " ")
		}},
	{ID: "cloud-delete-everything", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "deleting a whole cloud project or resource group with everything in it",
		Suggestions: suggCloud, names: names("gcloud", "az", "doctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			p := cliPath(c)
			if len(p) < 2 || c.name == "az" && scratchResource(c, p) {
				return false, "" // az group delete -n rg-pr1234-ephemeral: a pull request's own group
			}
			switch c.name {
			case "gcloud":
				return p[0] == "projects" && p[1] == "delete", "project"
			case "az":
				return p[0] == "group" && p[1] == "delete", "resource group"
			case "doctl":
				return len(p) > 2 && p[0] == "projects" && p[1] == "delete", "project"
			}
			return false, ""
		}},
	{ID: "azure-delete", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting Azure infrastructure",
		Suggestions: suggCloud, names: names("az"),
		match: func(a *analysis, c *cmd) (bool, string) {
			p := cliPath(c)
			if !containsStr(p, "delete") && !containsStr(p, "purge") || scratchResource(c, p) || localEndpoint(c.args()) {
				return false, ""
			}
			switch p[0] {
			case "group", "vm", "sql", "aks", "cosmosdb", "keyvault", "webapp", "postgres", "mysql", "vmss", "disk", "snapshot", "account", "redis", "functionapp", "acr":
				return true, strings.Join(p, " ")
			case "storage":
				return len(p) > 1 && (p[1] == "account" || p[1] == "container"), strings.Join(p, " ")
			}
			return false, ""
		}},
	{ID: "iac-destroy", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "destroying infrastructure managed as code",
		Suggestions: suggCloud, names: names("terraform", "pulumi", "cdk", "cdktf", "serverless", "sls", "sam", "eksctl", "copilot", "heroku", "fly", "flyctl", "doctl", "firebase", "vercel", "netlify", "kind", "minikube", "ray"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			first := ""
			if len(ops) > 0 {
				first = ops[0].s
			}
			switch c.name {
			case "terraform":
				if first == "destroy" || first == "apply" && (hasWord(args, "-destroy") || hasWord(args, "--destroy") || destroyPlanApplied(a, ops)) || len(ops) > 1 && ops[0].s == "run-all" && ops[1].s == "destroy" || terragruntRunAll(ops, args, "destroy") {
					if hasPrefixWord(args, "-target") || hasPrefixWord(args, "--target") {
						return false, "" // iac-destroy-targeted
					}
					return !hasWord(args, "-help"), first
				}
			case "pulumi", "cdk", "cdktf", "serverless", "sls":
				if first == "destroy" || first == "remove" || c.name == "pulumi" && first == "stack" && len(ops) > 1 && ops[1].s == "rm" {
					return true, first
				}
			case "sam", "copilot":
				return first == "delete" || len(ops) > 1 && ops[1].s == "delete", first
			case "ray":
				// ray down CLUSTER.yaml: every node of the cluster terminated
				return first == "down" && len(ops) > 1 && !scratchName(ops[len(ops)-1].s), "down " + ops[len(ops)-1].s
			case "eksctl":
				return first == "delete" && len(ops) > 1 && ops[1].s == "cluster", "cluster"
			case "heroku":
				if first == "pg:reset" {
					// a staging or review app's database emptied to be seeded
					// again is how those apps are refreshed
					if app, ok := optValue(args, "-a", "app"); ok && (scratchName(app) || strings.Contains(lower(app), "staging")) && !isProdName(app) {
						return false, ""
					}
				}
				return first == "apps:destroy" || first == "apps:delete" || first == "pg:reset" || first == "destroy", first
			case "fly", "flyctl":
				return first == "destroy" || first == "apps" && len(ops) > 1 && (ops[1].s == "destroy" || ops[1].s == "delete"), first
			case "doctl":
				return containsStr(cliPath(c), "delete") && (containsStr(cliPath(c), "droplet") || containsStr(cliPath(c), "databases") || containsStr(cliPath(c), "cluster")), ""
			case "firebase":
				return first == "firestore:delete" && (hasWord(args, "--all-collections") || hasWord(args, "-r") || hasWord(args, "--recursive")) || first == "database:remove" || first == "projects:delete", first
			}
			return false, ""
		}},
	{ID: "iac-replace", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "forcing infrastructure to be destroyed and made again, applied without review (its data and addresses are lost)",
		Suggestions: []string{"Run terraform plan -replace=... and show it", "Apply without -auto-approve so the plan is read first"}, names: names("terraform", "tofu"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 || ops[0].s != "apply" || !hasWord(args, "-auto-approve") && !hasWord(args, "--auto-approve") {
				return false, ""
			}
			// terraform taint X && terraform apply -auto-approve, or
			// apply -replace=X: X is destroyed before it is recreated
			if hasPrefixWord(args, "-replace=") || hasPrefixWord(args, "--replace=") || strings.Contains(a.src, "terraform taint") || strings.Contains(a.src, "tofu taint") {
				return true, "apply after taint or -replace"
			}
			return false, ""
		}},
	{ID: "iac-destroy-targeted", Level: LevelModerate, Category: CategoryCloudDestroy, Description: "destroying selected infrastructure resources",
		Suggestions: suggCloud, names: names("terraform"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 || !(ops[0].s == "destroy" || ops[0].s == "apply" && hasWord(args, "-destroy")) {
				return false, ""
			}
			targeted := hasPrefixWord(args, "-target") || hasPrefixWord(args, "--target")
			return targeted && !scratchTargetsOnly(args), "" // (only preview and test modules: -target=module.preview_env)
		}},
	{ID: "iac-destroy-unattended", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "destroying all infrastructure without confirmation",
		Suggestions: suggCloud, names: names("terraform", "pulumi", "cdk", "cdktf"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 {
				return false, ""
			}
			destroy := ops[0].s == "destroy" || c.name == "terraform" && ops[0].s == "apply" && hasWord(args, "-destroy") || len(ops) > 1 && ops[0].s == "run-all" && ops[1].s == "destroy" || terragruntRunAll(ops, args, "destroy")
			if !destroy {
				return false, ""
			}
			yes := hasWord(args, "-auto-approve") || hasWord(args, "--auto-approve") || hasWord(args, "-auto-approve=true") || hasWord(args, "--yes") || hasWord(args, "-y") || hasWord(args, "--force") || hasWord(args, "-f") || hasWord(args, "--skip-preview") || hasWord(args, "--require-approval=never")
			targeted := hasPrefixWord(args, "-target") || hasPrefixWord(args, "--target")
			return yes && !targeted, ""
		}},
	{ID: "rclone-purge", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "deleting a remote storage path and all its contents",
		Suggestions: suggCloud, names: names("rclone"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 || hasWord(args, "--dry-run") || hasWord(args, "-n") {
				return false, ""
			}
			switch ops[0].s {
			case "purge", "delete":
				if len(ops) > 1 && (!strings.Contains(ops[1].s, ":") || strings.HasPrefix(ops[1].s, "/")) { // (not REMOTE:path)
					if p := a.absPath(ops[1].s, c.cwd); p != "" && a.inWork(p) && underGenerated(p[len(a.workDir):]) {
						return false, "" // a local folder of the project's build output or cache
					}
				}
				return true, ""
			case "rmdirs", "cleanup":
				// every empty folder, or every old version and trashed file
				return true, "rclone " + ops[0].s
			case "dedupe":
				// one copy kept, the others deleted, without asking
				return hasPrefixWord(args, "--dedupe-mode"), "rclone dedupe"
			case "sync":
				// a remote synced over the home folder: whatever the home
				// holds and the remote lacks is deleted
				if len(ops) > 2 {
					switch a.classifyUnder(ops[len(ops)-1], c.cwd, false) {
					case pcHome, pcRoot, pcSystemCrit, pcSecretsHome:
						return true, "rclone sync over " + ops[len(ops)-1].s
					}
				}
			}
			return false, ""
		}},
	{ID: "http-delete-remote", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "a raw DELETE call against a remote API (repositories, DNS, indices, resources)",
		Suggestions: []string{"Use the provider's CLI with a dry run first", "Delete through the web console after confirming the target"},
		names:       names("curl", "wget", "http", "https", "xh", "gh", "glab", "az"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "az" {
				// az rest --method delete --url https://management.azure.com/...
				args := c.args()
				m, _ := optValue(args, "-m", "method")
				if len(args) == 0 || args[0].s != "rest" || !strings.EqualFold(m, "delete") {
					return false, ""
				}
				u, _ := optValue(args, "-u", "url", "uri")
				return true, "az rest DELETE " + u
			}
			if httpMethod(c) != "DELETE" || revokesOutsideAccess(a, c) || withdrawsExposure(c) {
				return false, ""
			}
			if c.name == "gh" || c.name == "glab" {
				if len(c.args()) == 0 || c.args()[0].s != "api" {
					return false, ""
				}
				for _, w := range positional(c.args()[1:]) {
					if disposableAPIPath(w.s) {
						return false, "" // a workflow's caches or artifacts, a run's own branch
					}
				}
				return true, c.argsText()
			}
			for _, w := range c.args() {
				if !strings.Contains(w.s, "://") && !strings.Contains(w.s, ":9200") && !varBaseURL(w.s) {
					continue
				}
				if !strings.Contains(w.s, "://") && scratchName(lower(w.s)) && !isProdName(w.s) {
					continue // $SANDBOX_API_URL/...: a sandbox or test service
				}
				h := hostOf(w.s)
				if developerNetwork(h) || strings.HasPrefix(h, "sandbox.") || strings.HasPrefix(h, "api.sandbox.") {
					continue // (sandbox.zenodo.org: the service's own test instance)
				}
				// the last segment names what is deleted: a pull request's
				// branch or preview (feat%2Fpr-88-retry), a scratch repository
				p := strings.TrimRight(w.s, "/")
				if i := strings.IndexAny(p, "?#"); i >= 0 {
					p = p[:i]
				}
				if last := p[strings.LastIndexByte(p, '/')+1:]; last != "" && !strings.HasPrefix(last, "$") && scratchName(last) {
					continue
				}
				// $PR_PREVIEW_RECORD_ID, /v0/appShopTest42/...?records[]=recTest1:
				// the path or its variables name a test's or a preview's objects
				if _, rest, ok := strings.Cut(strings.SplitN(w.s, "://", 2)[len(strings.SplitN(w.s, "://", 2))-1], "/"); ok && throwawayName(rest) {
					continue
				}
				if silenceEnded(p) {
					continue // a downtime or a silence ended: the alerts come back
				}
				return true, w.s
			}
			return false, ""
		}},
}

// paasRule: see paasOps.
var paasRule = &rule{ID: "paas-production-change", Level: LevelHigh, Category: CategoryCloudDestroy,
	Description: "taking a hosted application's data, configuration, domains or capacity away",
	Suggestions: []string{"Do it on a staging or preview app first", "Ask before changing production"},
	names:       []string{"heroku", "netlify", "netlify-cli", "vercel", "supabase", "fly", "flyctl", "railway", "firebase", "wrangler", "render"},
	match: func(a *analysis, c *cmd) (bool, string) {
		args := c.args()
		if hasWord(args, "--help") || hasWord(args, "-h") || hasWord(args, "--dry-run") {
			return false, ""
		}
		path := cliPath(c)
		var op *paasOp
		for i := range paasOps[c.name] {
			o := &paasOps[c.name][i]
			if len(path) >= len(o.path) && slices.EqualFunc(path[:len(o.path)], o.path, strings.EqualFold) {
				op = o
				break
			}
		}
		if op == nil {
			return false, ""
		}
		rest := args[len(op.path):]
		for _, w := range rest {
			v := w.s
			if i := strings.IndexByte(v, '='); i > 0 && strings.HasPrefix(v, "-") {
				v = v[i+1:]
			}
			if scratchName(v) && !prodMarker(v) {
				return false, "" // a preview, staging or test app
			}
		}
		what := c.name + " " + strings.Join(op.path, " ") + ": " + op.what
		switch {
		case op.always:
			return true, what
		case paasScaledToZero(op, rest):
			return true, what + " to nothing"
		case op.path[0] == "ps:scale" || op.path[0] == "scale":
			return false, "" // scaled, not stopped
		}
		for _, w := range rest {
			if prodMarker(w.s) {
				return true, what + " in production"
			}
		}
		if op.vars {
			for _, w := range positional(rest) {
				name, _, _ := strings.Cut(w.s, "=")
				if isSecretVar(name) || strings.HasSuffix(strings.ToUpper(name), "_URL") && strings.Contains(strings.ToUpper(name), "DATABASE") || strings.HasSuffix(strings.ToUpper(name), "_KEY") {
					return true, what + " (" + name + ")"
				}
			}
		}
		if c.name == "railway" && op.path[0] == "down" && skipsConfirm(rest) {
			return true, what
		}
		return false, ""
	}}

func init() { ruleSets = append(ruleSets, append(cloudDestroyRules, paasRule)) }

// apiDeleteCall matches a client's deleting method (delete_registered_model,
// delete_run, drop_table, purge); quotedURLs the URLs a piece of code
// names.
var (
	apiDeleteCall = regexp.MustCompile(`\.(?:delete_[a-z_]+|drop_[a-z_]+|purge[a-z_]*)\(`)
	quotedURLs    = regexp.MustCompile(`["'](?:https?|postgres(?:ql)?|mysql|mongodb(?:\+srv)?|redis)://[^"'\s]+["']`)
	// backupDeletedAfterADay matches a backup plan's lifecycle that
	// deletes each recovery point after a day or at once.
	backupDeletedAfterADay = regexp.MustCompile(`DeleteAfterDays"?\s*[:=]\s*[01]\b`)
)

// anyHyphenDestroyVerb reports a subcommand with the verb joined to its
// object (ibmcloud is instance-delete, linode-cli domains records-delete).
func anyHyphenDestroyVerb(p []string) bool {
	for _, s := range p {
		if hyphenDestroyVerb(s) {
			return true
		}
	}
	return false
}

// disposableAPIPath reports a forge API path whose deletion loses nothing
// anyone keeps: a workflow's cache entries or artifacts, or a branch or
// tag made for one CI run or as scratch (refs/heads/ci/tmp-$GITHUB_RUN_ID).
func disposableAPIPath(p string) bool {
	path, _, _ := strings.Cut(p, "?")
	if strings.Contains(path, "/actions/caches") || strings.Contains(path, "/actions/artifacts/") {
		return true
	}
	if _, ref, ok := strings.Cut(path, "/git/refs/"); ok {
		return ciRunName(ref) || scratchName(ref) && !prodMarker(ref)
	}
	return false
}

// scratchResource reports a cloud client's deletion whose named
// resource (the word after the subcommand path's delete, or --name/-n)
// is named as throwaway (a pull request's preview, a test) and none as
// production.
func scratchResource(c *cmd, path []string) bool {
	if touchesProduction(c) {
		return false
	}
	named := 0
	if v, ok := optValue(c.args(), "", "pattern"); ok {
		// blob delete-batch --pattern 'pr-1423/*': the prefix is what goes
		return throwawayName(strings.SplitN(v, "/", 2)[0])
	}
	v, ok := optValue(c.args(), "-s", "slot") // a deployment slot of the app named
	if !ok {
		v, ok = optValue(c.args(), "-n", "name")
	}
	if ok {
		if !scratchName(v) || isProdName(v) {
			return false
		}
		named++
	}
	for i, w := range path {
		if (w == "delete" || w == "purge") && i+1 < len(path) {
			if v := path[i+1]; strings.HasPrefix(v, "$") || !scratchName(v) || isProdName(v) {
				return false
			}
			named++
		}
	}
	return named > 0
}

// objectStoreClientsJudged have storage rules of their own.
var objectStoreClientsJudged = map[string]bool{"aws": true, "gsutil": true, "gcloud": true, "az": true, "azcopy": true, "s3cmd": true, "mc": true,
	"mcli": true, "rclone": true, "rm": true, "find": true, "xargs": true}

// objectStoreEmptied reads a storage client nobody listed (b2, s5cmd,
// ossutil, coscli, obsutil, swift) told to remove recursively a bucket
// URL (SCHEME://bucket/ or a prefix in it). It returns the URL, and
// whether the bucket holds backups or production data or every version
// goes too; "" when the command is no such deletion or names scratch.
func objectStoreEmptied(c *cmd) (string, bool) {
	if objectStoreClientsJudged[c.name] || len(c.words) < 3 {
		return "", false
	}
	args, low := c.args(), c.lowerArgs()
	verb := -1
	for i, l := range low {
		if i > 2 {
			break
		}
		if l == "rm" || l == "del" || l == "delete" || l == "remove" || l == "rb" || l == "purge" {
			verb = i
			break
		}
	}
	if verb < 0 || hasAnyWord(low, "--dry-run", "--dryrun", "-n") {
		return "", false
	}
	recursive := hasAnyWord(low, "-r", "-R", "--recursive", "-rf", "-fr", "--all") || low[verb] == "rb" || low[verb] == "purge"
	for _, l := range low[verb+1:] {
		// s5cmd rm 's3://bucket/*': every key the wildcard matches
		if strings.Contains(l, "://") && strings.HasSuffix(l, "*") {
			recursive = true
		}
	}
	if !recursive {
		return "", false
	}
	for _, w := range positional(args[verb+1:]) {
		s := w.s
		i := strings.Index(s, "://")
		if i <= 0 || !isLetters(s[:1]) || !allAlnum(s[:i]) || strings.HasPrefix(lower(s), "http") {
			continue
		}
		bucket, _, _ := strings.Cut(s[i+3:], "/")
		if bucket == "" || throwawayName(s[i+3:]) || ciRunName(s) {
			return "", false
		}
		l := lower(bucket)
		return s, strings.Contains(l, "backup") || strings.Contains(l, "archive") || prodMarker(bucket) || isProdName(bucket) || hasAnyWord(low, "--versions", "--all-versions")
	}
	return "", false
}

// allAlnum reports a non-empty string of ASCII letters and digits.
func allAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) {
			return false
		}
	}
	return s != ""
}

// scratchTargetsOnly reports a -target list (terraform, pulumi --target)
// every entry of which names a test's or a preview's resources.
func scratchTargetsOnly(args []word) bool {
	n := 0
	for i, w := range args {
		v, ok := strings.CutPrefix(w.s, "-target=")
		if !ok {
			v, ok = strings.CutPrefix(w.s, "--target=")
		}
		if !ok && (w.s == "-target" || w.s == "--target") && i+1 < len(args) {
			v, ok = args[i+1].s, true
		}
		if !ok {
			continue
		}
		if !testName(v) || isProdName(v) {
			return false
		}
		n++
	}
	return n > 0
}

// silenceEnded reports an API path whose DELETE ends a monitoring
// downtime, maintenance window or alert silence (Datadog's downtime,
// PagerDuty's maintenance_windows, Alertmanager's silence): the alerts
// it held back start again.
func silenceEnded(p string) bool {
	l := lower(p)
	for _, seg := range [...]string{"/downtime/", "/downtimes/", "/maintenance_windows/", "/silence/", "/silences/", "/mutes/"} {
		if i := strings.Index(l, seg); i >= 0 && !strings.Contains(l[i+len(seg):], "/") {
			return true
		}
	}
	return false
}

// awsFilterValues matches the values of an AWS CLI --filters entry.
var awsFilterValues = regexp.MustCompile(`Values=([^\s'"]+)`)

// scratchFilteredIDs reports resource ids computed by a describe call
// whose filters select only scratch or test resources by name or tag.
func scratchFilteredIDs(a *analysis, args []word) bool {
	computed := false
	for _, w := range args {
		if !w.ok {
			computed = true
		}
	}
	if !computed || !strings.Contains(a.src, "--filters") {
		return false
	}
	ms := awsFilterValues.FindAllStringSubmatch(a.src, -1)
	if len(ms) == 0 {
		return false
	}
	scratch := false
	for _, m := range ms {
		for v := range strings.SplitSeq(m[1], ",") {
			if strings.HasPrefix(v, "Name=") {
				continue // the next filter's name
			}
			switch lower(v) {
			case "running", "stopped", "pending", "available", "in-use":
				continue // a state, not a name
			}
			if !scratchName(v) || isProdName(v) {
				return false
			}
			scratch = true
		}
	}
	return scratch
}

// destroyPlanApplied reports terraform apply PLANFILE where the line made
// PLANFILE with plan -destroy -out: the destroy, applied unreviewed.
func destroyPlanApplied(a *analysis, ops []word) bool {
	if len(ops) < 2 || !strings.Contains(a.src, "-destroy") {
		return false
	}
	f := ops[len(ops)-1].s
	return strings.Contains(a.src, "-out="+f) || strings.Contains(a.src, "-out "+f)
}

// revokesBroadAccess reports a cloud or cluster command that takes away a
// grant to everyone, to anonymous users, to an outside account or of an
// owner's or administrator's rights, or an ingress rule open to every
// address: what it removes is the danger, not what is left.
func revokesBroadAccess(c *cmd) bool {
	switch c.name {
	case "aws", "gcloud", "gsutil", "az", "doctl", "kubectl", "oc":
	default:
		return false
	}
	t := strings.ToLower(c.argsText())
	revoke := false
	for _, v := range [...]string{"remove-iam-policy-binding", "detach-user-policy", "detach-role-policy", "detach-group-policy", "remove-permission",
		"role assignment delete", "nsg rule delete", "remove-rules", "revoke-security-group-ingress", "delete clusterrolebinding", "delete rolebinding",
		"iam ch -d", "acl ch -d"} {
		if strings.Contains(t, v) {
			revoke = true
			break
		}
	}
	if !revoke {
		return false
	}
	// (an owner role taken from the team's own group is a lockout, not a
	// narrowing: only outsiders and everyone count)
	return hasAny(t, "allusers", "allauthenticatedusers", "0.0.0.0/0", "::/0", "anonymous", "system:unauthenticated", "public", "contractor",
		"vendor", "external", "guest", "allow-any", "allow-all") ||
		strings.Contains(t, "detach-") && strings.Contains(t, "administratoraccess")
}

// terragruntRunAll reports Terragrunt's newer spelling of run-all: run
// --all VERB (run --all destroy), VERB among its operands.
func terragruntRunAll(ops, args []word, verb string) bool {
	if len(ops) < 2 || ops[0].s != "run" || !hasWord(args, "--all") && !hasWord(args, "-a") {
		return false
	}
	for _, w := range ops[1:] {
		if w.s == verb {
			return true
		}
		if w.s == "--" {
			break
		}
	}
	return false
}

// retentionLifted returns the retention lock or legal hold c lifts or
// bypasses (object storage's locks and holds, Microsoft Purview's
// retention and case holds, a mailbox's litigation hold, Google Vault's
// holds), or "".
func retentionLifted(c *cmd) string {
	args := c.args()
	ops := plainWords(c.lowerArgs())
	j := strings.Join(ops, " ")
	switch c.name {
	case "aws":
		// aws s3api put-object-retention ... --bypass-governance-retention:
		// the lock shortened or lifted, the object deletable
		if len(ops) < 2 || ops[0] != "s3api" || strings.HasPrefix(ops[1], "get-") || strings.HasPrefix(ops[1], "list-") || strings.HasPrefix(ops[1], "head-") {
			return ""
		}
		if hasWord(args, "--bypass-governance-retention") {
			return "aws s3api " + ops[1] + " --bypass-governance-retention"
		}
		if v, ok := optValue(args, "", "legal-hold"); ok && ops[1] == "put-object-legal-hold" && strings.Contains(strings.ToUpper(v), "OFF") {
			return "an object's legal hold lifted"
		}
	case "gsutil":
		if strings.HasPrefix(j, "retention clear") || strings.HasPrefix(j, "retention temp release") || strings.HasPrefix(j, "retention event release") {
			return "gsutil " + j
		}
	case "gcloud":
		low := c.lowerArgs()
		// (a bucket's retention period cleared is cloud-guardrail-removed's)
		if strings.HasPrefix(j, "storage objects update") && (optGiven(low, "--no-event-based-hold") || optGiven(low, "--no-temporary-hold")) {
			return "objects' holds lifted"
		}
	case "az":
		switch {
		case strings.Contains(j, "legal-hold clear"), strings.Contains(j, "immutability-policy delete"):
			return "az " + j
		case strings.Contains(j, "set-legal-hold"):
			if v, ok := optValue(args, "", "legal-hold"); ok && strings.EqualFold(v, "false") {
				return "a blob's legal hold lifted"
			}
		}
	case "gam":
		// gam update vaulthold H matter M removeaccounts ..., gam delete
		// vaulthold, gam close|delete vaultmatter
		if strings.Contains(j, "vaulthold") && (strings.Contains(j, "removeaccounts") || strings.Contains(j, "removeorg") || strings.HasPrefix(j, "delete ")) ||
			strings.Contains(j, "vaultmatter") && (strings.HasPrefix(j, "delete ") || strings.HasPrefix(j, "close ")) {
			return "a Google Vault hold lifted (gam " + truncate(j, 60) + ")"
		}
	default:
		// Purview and Exchange Online
		if psWhatIf(c.name, args) {
			return ""
		}
		w := wargs(c)
		switch c.name {
		case "remove-retentioncompliancepolicy", "remove-caseholdpolicy", "remove-caseholdrule", "remove-compliancetag":
			return c.base
		case "set-retentioncompliancepolicy", "set-caseholdpolicy":
			if v, ok := swVal(w, "enabled"); ok && strings.Contains(v, "false") {
				return c.base + " -Enabled $false"
			}
			for _, k := range [...]string{"removeexchangelocation", "removesharepointlocation", "removeonedrivelocation", "removepublicfolderlocation", "removemodernGroupLocation", "removeteamschannellocation", "removeteamschatlocation"} {
				if hasSw(w, strings.ToLower(k)) {
					return c.base + " removing locations from the hold"
				}
			}
		case "set-mailbox":
			if v, ok := swVal(w, "litigationholdenabled"); ok && strings.Contains(v, "false") {
				return "a mailbox's litigation hold lifted"
			}
			if hasSw(w, "removedelayholdapplied", "removedelayreleaseholdapplied") {
				return "a mailbox's delay hold removed (what the hold kept is purged)"
			}
		}
	}
	return ""
}

// underGenerated reports a path (relative to the work directory) below a
// directory a build, a test run or a package manager makes again.
func underGenerated(rel string) bool {
	for _, c := range strings.Split(strings.Trim(rel, "/"), "/") {
		if generatedDirs[c] {
			return true
		}
	}
	return false
}
