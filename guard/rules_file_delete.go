package guard

import (
	"cmp"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Rules for deleting, emptying or overwriting files that matter (category file_delete).
var fileDeleteRules = []*rule{
	{ID: "zmv-overwrites", Level: LevelModerate, Category: CategoryFileDelete, Description: "zsh's zmv renaming files over existing ones (-f), or moving the project's files out of it",
		Suggestions: []string{"Preview with zmv -n first", "Rename without -f: zmv stops where a name is taken"},
		names:       names("zmv"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			force := false
			for _, w := range args {
				if len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && isLetters(w.s[1:]) {
					if strings.ContainsRune(w.s, 'n') {
						return false, "" // -n: what would be renamed, printed
					}
					force = force || strings.ContainsRune(w.s, 'f')
				}
			}
			ops := c.operands()
			if len(ops) < 2 {
				return false, ""
			}
			if force {
				return true, "zmv -f " + ops[0].s + " " + ops[len(ops)-1].s
			}
			// zmv '(**/)(*).ts' '/tmp/x/$2.ts': the project's files moved
			// to another folder
			dest := ops[len(ops)-1].s
			if (strings.HasPrefix(dest, "/") || strings.HasPrefix(dest, "~")) && !strings.HasPrefix(ops[0].s, "/") && !strings.HasPrefix(ops[0].s, "~") {
				if p := a.absPath(dest, c.cwd); p == "" || !a.inWork(p) {
					return true, "zmv " + ops[0].s + " " + dest
				}
			}
			return false, ""
		}},
	{ID: "remote-mirror-deletes", Level: LevelCritical, Category: CategoryFileDelete, Description: "mirroring a local folder onto a production machine's data (uploads, backups, shared files) with deletion: whatever the folder lacks is deleted there",
		Suggestions: []string{"Run it with --dry-run first and read what it would delete", "Copy without --delete, or deploy through the release process"},
		names:       names("rsync"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			del := false
			for _, w := range args {
				del = del || w.s == "--del" || strings.HasPrefix(w.s, "--delete")
			}
			ops := c.operands()
			if !del || len(ops) < 2 || dryRun(c) {
				return false, ""
			}
			dest := ops[len(ops)-1].s
			host, _, remote := strings.Cut(dest, ":")
			if strings.HasPrefix(dest, "rsync://") {
				host, remote = hostOf(dest), true
			}
			if _, h, ok := strings.Cut(host, "@"); ok {
				host = h
			}
			if !remote || host == "" || strings.ContainsAny(host, "/\\") || isLocalHost(host) {
				return false, "" // a local path (C:\x is a drive, not a host)
			}
			if !isProdName(host) && !prodMarker(host) {
				return false, ""
			}
			// a release into the app's own folder is a deploy; a folder
			// of what users and jobs wrote is data (the roots of system
			// folders are the other rules')
			_, rpath, _ := strings.Cut(dest, ":")
			for _, part := range strings.Split(lower(rpath), "/") {
				switch part {
				case "uploads", "upload", "data", "backups", "backup", "shared", "media", "storage", "files", "attachments", "userdata", "user-content":
					return true, "rsync --delete onto " + dest
				}
			}
			return false, ""
		}},
	{ID: "credentials-file-overwritten", Level: LevelCritical, Category: CategoryFileDelete, Description: "overwriting a credentials file of the user's (cloud keys, kubeconfig, registry and forge logins) with other output",
		Suggestions: []string{"Back the file up first (cp ~/.aws/credentials ~/.aws/credentials.bak)", "Write the output to a file in the project"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.writeTargets(c) {
				if !t.trunc || t.appends || t.path == "" {
					continue
				}
				rel, mine, home := a.homeRel(t.path)
				if !home || !mine || !credentialsFileRel(rel) {
					continue
				}
				if credentialsWriter[c.name] || c.stage > 0 && len(c.pipe) > 0 && credentialsWriter[c.pipe[0].name] {
					continue // kind get kubeconfig > ~/.kube/config: the tool's own credentials written
				}
				if (c.name == "echo" || c.name == "printf" || c.name == "cat" || c.name == "tee") && t.content.kind == flowText &&
					hasAny(lower(t.content.text), "token", "key", "passw", "auth", "machine", "login", "registry", "[default]", "apiversion") {
					continue // echo '//registry.npmjs.org/:_authToken=${NPM_TOKEN}' > ~/.npmrc: a login written
				}
				if a.srcHas(path.Base(rel)+".bak") || a.srcHas(path.Base(rel)+".orig") || backupName(path.Base(t.raw)) {
					continue
				}
				return true, t.raw
			}
			return false, ""
		}},
	{ID: "ssh-key-overwritten", Level: LevelCritical, Category: CategoryFileDelete, Description: "answering yes to ssh-keygen's question whether to overwrite an existing private key",
		Suggestions: []string{"Write the new key under a new name (-f ~/.ssh/id_ed25519_new)", "Back the old key up first"}, names: names("ssh-keygen"),
		match: func(a *analysis, c *cmd) (bool, string) {
			f, ok := optValue(c.args(), "-f", "")
			if !ok || strings.HasSuffix(f, ".pub") {
				return false, ""
			}
			p := a.absPath(f, c.cwd)
			if rel, mine, home := a.homeRel(p); !home || !mine || !strings.HasPrefix(rel, ".ssh/") {
				return false, ""
			}
			yes := false
			for _, r := range c.redirs {
				if r.op == syntax.WordHdoc && strings.HasPrefix(lower(r.w.s), "y") {
					yes = true // <<< y
				}
			}
			if p := prevStage(c); p != nil {
				switch p.name {
				case "yes", "echo", "printf":
					yes = yes || p.name == "yes" && len(p.args()) == 0 || len(p.args()) > 0 && strings.HasPrefix(lower(p.args()[len(p.args())-1].s), "y")
				}
			}
			if !yes {
				return false, "" // it asks, and without an answer keeps the key
			}
			return true, "ssh-keygen -f " + f + " told yes"
		}},
	{ID: "sftp-batch-delete", Level: LevelHigh, Category: CategoryFileDelete, Description: "an sftp batch deleting files by wildcard on the server",
		Suggestions: []string{"List the files first and delete them by name", "Keep a copy of what the server serves before deleting"}, names: names("sftp"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.in.kind != flowText {
				return false, ""
			}
			for _, l := range strings.Split(c.in.text, "\n") {
				f := strings.Fields(l)
				if len(f) > 1 && (f[0] == "rm" || f[0] == "rmdir") && strings.ContainsAny(f[len(f)-1], "*?") {
					return true, strings.TrimSpace(l)
				}
			}
			return false, ""
		}},
	{ID: "backup-repo-emptied", Level: LevelCritical, Category: CategoryFileDelete, Description: "a backup repository deleted whole or told to keep (almost) no snapshots",
		Suggestions: []string{"Keep a retention policy of several snapshots (--keep-daily 7 --keep-weekly 4)", "Run with --dry-run and read what would go", "Delete single named snapshots"},
		names:       names("restic", "borg", "kopia", "pgbackrest", "duplicity", "nodetool", "tarsnap"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if what := backupRepoEmptied(c, a.src); what != "" {
				return true, what
			}
			return false, ""
		}},
	{ID: "backup-restored-over-live", Level: LevelCritical, Category: CategoryFileDelete, Description: "a backup restored over live data (the home, a system directory, a database server's data directory) with the tool told to overwrite what is there",
		Suggestions: []string{"Restore into a new empty directory and compare", "Stop the service and move its data aside first"},
		names:       names("duplicity", "xtrabackup", "mariabackup", "restic", "consul", "vault", "velero"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "velero":
				// velero restore create --existing-resource-policy update:
				// the cluster's objects that exist now overwritten by the
				// backup's older copies (the default skips them)
				if len(ops) > 1 && ops[0].s == "restore" && ops[1].s == "create" {
					if v, ok := optValue(args, "", "existing-resource-policy"); ok && v == "update" {
						return true, "velero restore --existing-resource-policy update"
					}
				}
				return false, ""
			case "consul", "vault":
				// consul snapshot restore F, vault operator raft snapshot
				// restore F: the cluster's whole state replaced by the
				// snapshot's (what changed since is gone); a server on this
				// machine is a development one
				at := 0
				if c.name == "vault" {
					if len(ops) < 2 || ops[0].s != "operator" || ops[1].s != "raft" {
						return false, ""
					}
					at = 2
				}
				if len(ops) < at+3 || ops[at].s != "snapshot" || ops[at+1].s != "restore" || a.hashiLocalServer(c) || touchesProduction(c) {
					// (production's is cli-production-data-reset's)
					return false, ""
				}
				return true, c.name + " snapshot restore " + ops[len(ops)-1].s + " over the running cluster"
			case "xtrabackup", "mariabackup":
				// --copy-back into a data directory that still holds files
				if (hasWord(args, "--copy-back") || hasWord(args, "--move-back")) && hasWord(args, "--force-non-empty-directories") {
					d, _ := optValue(args, "", "datadir")
					return true, c.name + " restored over " + cmp.Or(d, "the server's data directory")
				}
			case "duplicity":
				// duplicity restore --force URL /home/dev: every file of
				// the home replaced by the backup's copy
				if len(ops) > 2 && ops[0].s == "restore" && hasWord(args, "--force") && !hasPrefixWord(args, "--file-to-restore") {
					switch a.classifyDelete(ops[len(ops)-1], c.cwd) {
					case pcRoot, pcHome, pcSystemCrit, pcProtected:
						return true, "duplicity restore --force over " + ops[len(ops)-1].s
					}
				}
			case "restic":
				// restic restore latest --target /: the snapshot's files
				// written over the system's
				ops := posArgs(args, optSpec{short: "rtpo", long: []string{"repo", "repository-file", "password-file", "password-command", "target", "option", "host", "path", "tag", "include", "exclude", "cache-dir"}})
				if len(ops) > 1 && ops[0].s == "restore" && !hasWord(args, "--dry-run") {
					if t, ok := optValue(args, "-t", "target"); ok {
						switch a.classifyDelete(word{s: t, ok: true}, c.cwd) {
						case pcRoot, pcHome, pcSystemCrit, pcProtected:
							return true, "restic restore --target " + t
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "scaffold-over-project", Level: LevelModerate, Category: CategoryFileDelete, Description: "a generator told to overwrite existing files in the project",
		Suggestions: []string{"Generate into a new directory and merge by hand", "Commit or stash first, then review the diff"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if d := a.scaffoldOverProject(c); d != "" {
				return true, d
			}
			return false, ""
		}},
	{ID: "extract-over-project", Level: LevelModerate, Category: CategoryFileDelete, Description: "unpacking an archive from elsewhere over the project, overwriting its files without asking",
		Suggestions: []string{"Unpack into a new directory and compare", "Commit or stash first, then review the diff"}, names: names("unzip", "tar", "bsdtar", "gtar"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if a.workDir == "" {
				return false, ""
			}
			args := c.args()
			var archive, dest string
			switch c.name {
			case "unzip":
				if !hasWord(args, "-o") && !hasWord(args, "-of") && !hasWord(args, "-oq") && !hasWord(args, "-qo") {
					return false, ""
				}
				dest, _ = optValue(args, "-d", "")
				if ops := posArgs(args, optSpec{short: "dx"}); len(ops) > 0 {
					archive = ops[0].s
				}
			default:
				if !tarReplaces(args) {
					return false, ""
				}
				dest, _ = optValue(args, "-C", "directory")
				archive, _ = optValue(args, "-f", "file")
				if archive == "" {
					for _, w := range args {
						if len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && strings.HasSuffix(w.s, "f") && strings.Contains(w.s, "x") {
							archive = "?" // -xzf ARCHIVE: the next word
						}
					}
					if ops := c.operands(); archive == "?" && len(ops) > 0 {
						archive = ops[0].s
					}
				}
			}
			if dest == "" {
				dest = "."
			}
			if a.absPath(dest, c.cwd) != a.workDir {
				return false, ""
			}
			if (archive == "" || archive == "-") && c.pipe != nil && c.stage > 0 {
				// git archive HEAD | tar -x: the last commit's files over
				// the uncommitted changes
				if p := c.pipe[c.stage-1]; p != nil && p.name == "git" && len(p.args()) > 0 && p.args()[0].s == "archive" {
					return true, "git archive → " + dest
				}
			}
			src := a.absPath(archive, c.cwd)
			if src == "" || a.inWork(src) {
				return false, ""
			}
			return true, archive + " → " + dest
		}},
	{ID: "extract-over-system", Level: LevelCritical, Category: CategoryFileDelete, Description: "unpacking an archive over the filesystem root or a system directory, replacing its files",
		Suggestions: []string{"Unpack into a new directory and compare", "Install through the package manager"}, names: archiveExtractors,
		match: func(a *analysis, c *cmd) (bool, string) {
			dest, cl := a.extractDest(c)
			if strings.HasPrefix(dest, "/usr/local") || strings.HasPrefix(dest, "/opt") {
				return false, "" // where software is unpacked to be installed (Go in /usr/local)
			}
			if cl == pcRoot || cl == pcSystemCrit || cl == pcCritFile || cl == pcSystemSub && strings.HasPrefix(dest, "/etc") {
				return true, dest
			}
			return false, ""
		}},
	{ID: "extract-over-home", Level: LevelHigh, Category: CategoryFileDelete, Description: "unpacking an archive over the home directory or its settings, replacing what is there",
		Suggestions: []string{"Unpack into a new directory and copy what you mean", "Back the settings up first"}, names: archiveExtractors,
		match: func(a *analysis, c *cmd) (bool, string) {
			dest, cl := a.extractDest(c)
			if strings.Contains(dest, "/.local/") || strings.HasSuffix(dest, "/.local") {
				return false, "" // ~/.local: programs and fonts installed for the user
			}
			if cl == pcHome || cl == pcHomeConfig || cl == pcSecretsHome || (cl == pcHomeSub || cl == pcHomeCacheRoot) && homeSettingsDir(dest) {
				return true, dest
			}
			return false, ""
		}},
	{ID: "overwrite-workdir", Level: LevelModerate, Category: CategoryFileDelete, Description: "copying a tree from elsewhere over the whole work directory",
		Suggestions: []string{"Copy into a new subdirectory and merge by hand", "Commit or stash first"}, names: names("cp", "rsync", "svn"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "svn" {
				// svn export --force URL .: the repository's files over
				// the project's
				args := c.args()
				if len(args) < 3 || args[0].s != "export" || !hasWord(args, "--force") || a.workDir == "" {
					return false, ""
				}
				ops := positional(args[1:])
				if len(ops) >= 2 && a.absPath(ops[len(ops)-1].s, c.cwd) == a.workDir {
					return true, "svn export " + ops[0].s
				}
				return false, ""
			}
			o := c.opts()
			if !o.has("rRa", "recursive", "archive") || a.workDir == "" {
				return false, ""
			}
			ops := posArgs(c.args(), optSpec{short: "tSe", long: []string{"target-directory", "suffix", "rsh", "exclude"}})
			if len(ops) < 2 || a.absPath(ops[len(ops)-1].s, c.cwd) != a.workDir {
				return false, ""
			}
			for _, w := range ops[:len(ops)-1] {
				if p := a.absPath(w.s, c.cwd); p != "" && !a.inWork(p) && (strings.HasSuffix(w.s, "/.") || strings.HasSuffix(w.s, "/") || strings.HasSuffix(w.s, "/*")) {
					return true, w.s
				}
			}
			return false, ""
		}},
	delRule("rm-recursive-root", LevelCritical, CategoryFileDelete, "recursive deletion of the filesystem root",
		[]string{"Never delete /; name the directory you mean inside the project", "Use rm -rf ./dir for project files"}, anyRec, pcRoot),
	delRule("rm-recursive-home", LevelCritical, CategoryFileDelete, "recursive deletion of a home directory",
		[]string{"Delete only the specific subdirectory you mean", "Use a path inside the project instead of ~"}, recOnly, pcHome),
	delRule("rm-recursive-system", LevelCritical, CategoryFileDelete, "deletion of a system directory",
		[]string{"Do not delete system directories; use the package manager to remove software", "Limit the deletion to the project directory"}, recOnly, pcSystemCrit),
	delRule("rm-system-contents", LevelCritical, CategoryFileDelete, "deletion of every file in a system or home directory",
		[]string{"Name the specific files you mean", "Limit the deletion to the project directory"}, nonRec, pcRoot, pcHome, pcSystemCrit),
	delRule("rm-critical-file", LevelCritical, CategoryFileDelete, "deletion of a critical system file",
		[]string{"Do not delete system files such as /etc/passwd", "Edit configuration through the proper tool (visudo, vipw) with a backup"}, anyRec, pcCritFile),
	delRule("rm-ssh-keys", LevelCritical, CategoryFileDelete, "deletion of SSH or GPG keys",
		[]string{"Keep keys; rotate them with ssh-keygen if needed", "Back up ~/.ssh before changing it"}, recOnly, pcSecretsHome),
	delRule("rm-home-config", LevelHigh, CategoryFileDelete, "deletion of credentials or configuration in the home directory",
		[]string{"Back the file up first", "Edit the file instead of deleting it"}, anyRec, pcHomeConfig),
	delRule("rm-key-file", LevelHigh, CategoryFileDelete, "deletion of a private key",
		[]string{"Keep the key; rotate it with ssh-keygen if needed", "Back up ~/.ssh before changing it"}, nonRec, pcSecretsHome),
	{ID: "rm-signing-key", Level: LevelHigh, Category: CategoryFileDelete, Description: "deletion of a release signing keystore or store key (an app signed with it cannot be updated without it)",
		Suggestions: []string{"Keep the keystore; move it out of the project if it must not be committed", "Back the keystore up before changing signing"},
		names:       deleteRuleNames,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.deletions(c) {
				if signingKeystore(t.w.s) {
					return true, t.w.s
				}
			}
			return false, ""
		}},
	delRule("rm-system-file", LevelHigh, CategoryFileDelete, "deletion of files in a system directory",
		[]string{"Use the package manager to remove installed software", "Limit the deletion to the project directory"}, nonRec, pcSystemSub),
	delRule("rm-recursive-outside-workdir", LevelHigh, CategoryFileDelete, "recursive deletion outside the work directory",
		suggDeleteScoped, recOnly, pcOutside, pcHomeSub, pcSystemSub, pcEscape),
	delRule("rm-tmp-root", LevelHigh, CategoryFileDelete, "deletion of a whole temporary directory",
		[]string{"Delete only your own files, e.g. rm -rf /tmp/myjob-*", "Use mktemp -d and remove that directory"}, recOnly, pcTempRoot),
	delRule("rm-file-outside-workdir", LevelModerate, CategoryFileDelete, "deletion of files outside the work directory",
		suggDeleteScoped, nonRec, pcOutside, pcHomeSub, pcEscape),
	delRule("rm-workdir", LevelHigh, CategoryFileDelete, "deletion of the whole work directory",
		[]string{"Delete specific build outputs instead, e.g. rm -rf ./dist", "Use git clean -n to preview what would go"}, recOnly, pcWorkDir),
	delRule("rm-tmp-contents", LevelModerate, CategoryFileDelete, "deletion of everything in a temporary directory",
		[]string{"Delete only your own files, e.g. rm -rf /tmp/myjob-*", "Use mktemp -d and remove that directory"}, anyRec, pcTempContents),
	delRule("rm-unset-variable", LevelModerate, CategoryFileDelete, "recursive deletion of \"$VAR/\": if the variable is empty this deletes from /",
		[]string{"Guard the variable: rm -rf \"${DIR:?}\"/*", "Check the variable is set before deleting"}, recOnly, pcVarRoot),
	delRule("rm-unknown-input", LevelModerate, CategoryFileDelete, "recursive deletion of paths read from input",
		[]string{"List the paths first, then delete specific ones", "Restrict the producer (find . -name ...) to the project"}, recOnly, pcUnknownInput),
	delRule("rm-protected", LevelCritical, CategoryFileDelete, "deletion of what HotPlex owns (its data, its database, other sessions' work directories)",
		[]string{"Delete only paths inside this session's work directory", "Leave HotPlex's data to HotPlex"}, anyRec, pcProtected),
	{ID: "rm-no-preserve-root", Level: LevelCritical, Category: CategoryFileDelete, Description: "rm --no-preserve-root disables the protection of /",
		Suggestions: []string{"Never pass --no-preserve-root", "Name the directory you mean inside the project"}, names: names("rm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			return hasWord(c.args(), "--no-preserve-root"), ""
		}},
	writeRule("overwrite-protected", LevelCritical, CategoryFileDelete, "overwriting or truncating what HotPlex owns (its data, its database, other sessions' files)",
		[]string{"Write only inside this session's work directory"}, true, wProtected),
	writeRule("write-protected", LevelHigh, CategoryFileDelete, "writing into what HotPlex owns (its data, its database, other sessions' work directories)",
		[]string{"Write only inside this session's work directory"}, false, wProtected),
	{ID: "empty-file-outside", Level: LevelModerate, Category: CategoryFileDelete, Description: "emptying a file outside the work directory",
		Suggestions: []string{"Write to a file inside the project", "Back the file up before replacing it"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			if t := a.emptiedOutside(c); t != "" {
				return true, t
			}
			return false, ""
		}},
	{ID: "file-emptied-before-read", Level: LevelModerate, Category: CategoryFileDelete, Description: "a file emptied by the redirection of the command that reads it (the shell truncates it first)",
		Suggestions: []string{"Write to a new file and move it over the old one: sort -u f > f.new && mv f.new f", "Use the program's in-place option (sed -i, sponge from moreutils)"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.writeTargets(c) {
				if t.trunc && !t.appends && t.path != "" && !underTemp(t.path) && !strings.HasPrefix(t.path, "/dev/") && readsOwnTarget(c, t.raw) {
					if hit, _ := ruleByID["empty-project-sources"].match(a, c); hit {
						return false, "" // the project's sources: that rule's
					}
					return true, t.raw
				}
			}
			return false, ""
		}},
	{ID: "user-config-replaced", Level: LevelHigh, Category: CategoryFileDelete, Description: "replacing one of the user's own settings or data files (a dot-file, an application's data) with another file",
		Suggestions: []string{"Back the file up first (cp ~/.npmrc ~/.npmrc.bak) or use cp -n / ln -s without -f", "Point the tool at the project's file instead (npm --userconfig ./.npmrc, GIT_CONFIG_GLOBAL)"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			if t := a.userConfigReplaced(c); t != "" {
				return true, t
			}
			return false, ""
		}},
	{ID: "make-dir-override", Level: LevelCritical, Category: CategoryFileDelete, Description: "a clean or uninstall target run with a directory variable overridden to /, a home or a system directory",
		Suggestions: []string{"Leave the Makefile's directory variables at their defaults", "Run make -n first to see the commands"}, names: names("make", "gmake", "bmake", "task", "just"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range cleanDirOverrides(c) {
				_, val, _ := strings.Cut(w.s, "=")
				switch a.classifyDelete(word{s: val, ok: w.ok}, c.cwd) {
				case pcRoot, pcHome, pcSystemCrit, pcProtected:
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "make-clean-sources", Level: LevelModerate, Category: CategoryFileDelete, Description: "a clean target run with its output directory pointed at the project itself or its sources",
		Suggestions: []string{"Leave the build's output directory at its default", "Run make -n clean first to see what it deletes"}, names: names("make", "gmake", "bmake", "task", "just"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// make clean BUILD_DIR=src, task clean OUT_DIR=.: what the
			// target deletes as output is the work itself
			for _, w := range cleanDirOverrides(c) {
				_, val, _ := strings.Cut(w.s, "=")
				if p := a.absPath(val, c.cwd); p != "" && w.ok && (p == a.workDir || a.sourceTarget(p+"/*", true)) {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "empty-project-sources", Level: LevelModerate, Category: CategoryFileDelete, Description: "emptying the project's source or data files",
		Suggestions: []string{"Name the one file you mean to reset", "Commit or stash first"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			if t := a.emptiedSources(c); t != "" {
				return true, t
			}
			return false, ""
		}},
	{ID: "truncate-tracked-files", Level: LevelModerate, Category: CategoryFileDelete, Description: "emptying every tracked file",
		Suggestions: []string{"Name the files you mean", "Commit or stash first"}, names: names("truncate", "shred"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.args() {
				if w.flow != nil && w.flow.kind == flowList && w.flow.what == "tracked files" {
					return true, w.s
				}
			}
			return false, ""
		}},
	delRule("rm-workdir-source", LevelModerate, CategoryFileDelete, "deleting the project's source tree",
		[]string{"Delete build outputs only, e.g. rm -rf ./dist", "Commit or stash first"}, anyRec, pcWorkSource),
	delRule("rm-home-cache-root", LevelModerate, CategoryFileDelete, "deleting a whole cache, toolchain or trash of the home directory",
		[]string{"Delete the one tool's cache you mean, e.g. rm -rf ~/.cache/pip", "Use the tool's own cleanup (cargo cache, brew cleanup, gradle --stop)"}, anyRec, pcHomeCacheRoot),
	delRule("rm-workdir-contents", LevelModerate, CategoryFileDelete, "deleting every file in the work directory",
		[]string{"Delete the specific build outputs instead, e.g. rm -rf ./dist", "Use git clean -n to preview what would go"}, anyRec, pcWorkContents),
}

// cdFallbackRule: a recursive delete of everything in a directory a cd
// reached with nothing stopping the line if it failed (cd build; rm -rf
// *): when the directory is missing, the project itself is emptied.
var cdFallbackRule = &rule{ID: "rm-after-unchecked-cd", Level: LevelModerate, Category: CategoryFileDelete, Description: "deleting everything in a directory reached by a cd whose failure does not stop the line (a missing directory empties the one before)",
	Suggestions: []string{"Join with &&: cd build && rm -rf ./*", "Name the directory: rm -rf build/*"},
	names:       names("rm"),
	match: func(a *analysis, c *cmd) (bool, string) {
		if a.cdFallback == "" || a.cdFallback == c.cwd || !a.inWork(a.cdFallback) && a.cdFallback != a.workDir || slicesContains(c.wrappers, "and") {
			return false, "" // (fish: cd build; and rm -rf *: only after the cd worked)
		}
		o := c.opts()
		if !o.has("rR", "recursive") {
			return false, ""
		}
		for _, w := range c.operands() {
			if w.s == "*" || w.s == "./*" || w.s == ".[!.]*" || w.s == ".*" {
				return true, "rm -rf " + w.s + " (if the cd failed: " + a.cdFallback + ")"
			}
		}
		return false, ""
	}}

func init() {
	ruleSets = append(ruleSets, fileDeleteRules, trashAndUninstallRules, []*rule{cdFallbackRule})
}

// archiveExtractors unpack archives over a directory.
var archiveExtractors = names("unzip", "tar", "bsdtar", "gtar", "7z", "7za", "7zz", "ditto", "borg")

// extractDest returns where c unpacks an archive, replacing the files
// there, and the class of that place; "" when it does not (a listing, a
// prompt before each overwrite, an archive being made).
func (a *analysis) extractDest(c *cmd) (string, pclass) {
	args := c.args()
	dest := ""
	switch c.name {
	case "unzip":
		// -o overwrites without asking; without it unzip asks
		o := false
		for _, w := range args {
			if len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && strings.Contains(w.s, "o") && !strings.Contains(w.s, "l") {
				o = true
			}
		}
		if !o {
			return "", pcNone
		}
		dest, _ = optValue(args, "-d", "")
		if hasWord(args, "-:") {
			dest = "/" // -: keeps the entries' ../ parts: anywhere they point
		}
	case "7z", "7za", "7zz":
		if len(args) == 0 || args[0].s != "x" && args[0].s != "e" || !hasWord(args, "-y") && !hasWord(args, "-aoa") {
			return "", pcNone
		}
		for _, w := range args {
			if v, ok := strings.CutPrefix(w.s, "-o"); ok && v != "" {
				dest = v
			}
		}
	case "borg":
		// borg extract REPO::ARCHIVE: into the current directory
		if len(args) == 0 || args[0].s != "extract" || hasWord(args, "--dry-run") || hasWord(args, "-n") || hasWord(args, "--stdout") {
			return "", pcNone
		}
	case "ditto":
		// ditto -x -k ARCHIVE DEST
		if !hasWord(args, "-x") {
			return "", pcNone
		}
		if ops := c.operands(); len(ops) >= 2 {
			dest = ops[len(ops)-1].s
		}
	default: // tar, bsdtar, gtar: x replaces what is there
		abs := hasWord(args, "--absolute-names")
		for _, l := range tarLetterWords(args) {
			if strings.ContainsRune(l.letters, 'P') {
				abs = true
			}
		}
		if !tarReplaces(args) {
			return "", pcNone
		}
		dest, _ = optValue(args, "-C", "directory")
		if dest == "" && abs {
			dest = "/" // -P: the names in the archive, absolute
		}
	}
	if dest == "" {
		// no destination named: the archive unpacks where the command
		// runs (cd / && tar xzf etc.tar.gz)
		dest = c.cwd
	}
	if dest == "" {
		return "", pcNone
	}
	p := a.absPath(dest, c.cwd)
	if p == "" || a.inWork(p) || p == a.workDir {
		return "", pcNone
	}
	return p, a.classifyAbs(p)
}

// tarReplaces reports a tar that extracts, replacing the files that are
// there (-k, --skip-old-files and --keep-newer-files keep them).
func tarReplaces(args []word) bool {
	extract := hasWord(args, "--extract") || hasWord(args, "--get")
	for _, l := range tarLetterWords(args) {
		extract = extract || strings.ContainsRune(l.letters, 'x') && !strings.ContainsAny(l.letters, "tck")
	}
	return extract && !hasWord(args, "--keep-old-files") && !hasWord(args, "-k") && !hasWord(args, "--skip-old-files") && !hasWord(args, "--keep-newer-files")
}

// homeSettingsDir reports a folder of the home directory where programs
// keep their settings and data (~/.config, ~/Library/Preferences).
func homeSettingsDir(p string) bool {
	for _, d := range [...]string{"/.config", "/Library/Preferences", "/Library/Application Support", "/AppData/Roaming"} {
		if strings.Contains(p, d) {
			return true
		}
	}
	return false
}

// trashAndUninstallRules: the trash emptied (what the user deleted can no
// longer be restored), files removed through GIO, and package managers
// told to remove everything they installed.
var trashAndUninstallRules = []*rule{
	{ID: "trash-emptied", Level: LevelHigh, Category: CategoryFileDelete, Description: "emptying the trash (files deleted earlier can no longer be restored)",
		Suggestions: []string{"Leave the trash to the user", "Delete only the project's own files"},
		names:       names("trash-empty", "gio", "osascript", "gvfs-trash"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "trash-empty":
				// trash-empty [DAYS]: everything, or what is older than DAYS
				if hasWord(args, "--help") || hasWord(args, "--dry-run") || hasWord(args, "--version") {
					return false, ""
				}
				return true, "trash-empty " + joinWords(args)
			case "gio", "gvfs-trash":
				return hasWord(args, "--empty"), "gio trash --empty"
			case "osascript":
				j := lower(joinWords(args))
				return strings.Contains(j, "empty trash") || strings.Contains(j, "empty the trash"), "Finder empty trash"
			}
			return false, ""
		}},
	{ID: "gio-remove-user-files", Level: LevelCritical, Category: CategoryFileDelete, Description: "deleting the home directory's or the system's files through GIO (no trash)",
		Suggestions: []string{"Move them to the trash (gio trash) or delete only the project's files"}, names: names("gio"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) < 2 || args[0].s != "remove" && args[0].s != "rm" {
				return false, ""
			}
			for _, w := range positional(args[1:]) {
				p := a.absPath(strings.TrimSuffix(w.s, "/*"), c.cwd)
				if p == "" || a.inWork(p) || underTemp(p) {
					continue
				}
				if rel, _, ok := a.homeRel(p); ok && !strings.HasPrefix(rel, ".cache") {
					return true, w.s
				}
				if p == "/" || strings.HasPrefix(p, "/etc") || strings.HasPrefix(p, "/usr") {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "uninstall-everything", Level: LevelHigh, Category: CategoryFileDelete, Description: "a package manager told to remove everything it installed",
		Suggestions: []string{"Uninstall the one package the task needs gone"},
		names:       names("pipx", "nix", "choco", "scoop", "brew", "winget", "cargo", "gem"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "pipx":
				return len(ops) > 0 && ops[0].s == "uninstall-all", "pipx uninstall-all"
			case "nix":
				// nix profile remove --all, or the pattern of every name
				if len(ops) >= 2 && ops[0].s == "profile" && ops[1].s == "remove" {
					return hasWord(args, "--all") || len(ops) > 2 && (ops[2].s == ".*" || ops[2].s == "'.*'"), "nix profile remove --all"
				}
			case "choco", "scoop":
				return len(ops) >= 2 && (ops[0].s == "uninstall" || ops[0].s == "remove") && (ops[1].s == "all" || ops[1].s == "*"), c.name + " uninstall all"
			case "gem":
				return len(ops) > 0 && ops[0].s == "uninstall" && (hasWord(args, "--all") || hasWord(args, "-a")) && len(ops) == 1, "gem uninstall --all"
			}
			return false, ""
		}},
}

// generatedCode reports a path (lower case, forward slashes) of code a
// generator writes: in a generated/ folder, or named as generated output
// (*.g.cs, *.designer.cs, *_pb2.py, *.pb.go). Deleting it loses nothing
// the next build does not make again.
func generatedCode(p string) bool {
	if strings.Contains("/"+p, "/generated/") || strings.Contains("/"+p, "/__generated__/") || strings.Contains("/"+p, "/autogen/") {
		return true
	}
	for _, suf := range [...]string{".g.cs", ".g.i.cs", ".designer.cs", ".generated.cs", ".generated.ts", ".generated.go", "_pb2.py", "_pb2_grpc.py", ".pb.go", "_grpc.pb.go", ".pb.cc", ".pb.h"} {
		if strings.HasSuffix(p, suf) {
			return true
		}
	}
	return false
}

// backupRepoEmptied names what a backup tool is told to delete when that
// is every snapshot: a whole borg repository, a forget or prune whose
// retention keeps at most one snapshot or one day, every snapshot of a
// kopia source. Pruning by a real policy and deleting one named snapshot
// are maintenance.
func backupRepoEmptied(c *cmd, src string) string {
	args := c.args()
	if hasWord(args, "--dry-run") || hasWord(args, "-n") {
		return ""
	}
	ops := c.operands()
	switch c.name {
	case "nodetool":
		// every snapshot of every keyspace (Cassandra's backups)
		ops := posArgs(args, optSpec{short: "hpu", long: []string{"host", "port", "username", "password"}})
		if len(ops) > 0 && ops[0].s == "-pw" && len(ops) > 2 {
			ops = ops[2:]
		}
		if len(ops) > 0 && ops[0].s == "clearsnapshot" && (hasWord(args, "--all") || len(ops) == 1 && !hasWord(args, "-t")) {
			return "nodetool clearsnapshot --all"
		}
		return ""
	case "pgbackrest":
		// every backup and archived WAL of the stanza, or all but one
		// full backup expired
		for _, w := range ops {
			if w.s == "stanza-delete" {
				return "pgbackrest stanza-delete"
			}
			if w.s == "expire" {
				for _, x := range args {
					if v, ok := strings.CutPrefix(x.s, "--repo1-retention-full="); ok && (v == "0" || v == "1") {
						return "pgbackrest expire keeping " + v + " full backup"
					}
				}
			}
		}
		return ""
	case "tarsnap":
		// tarsnap -d -f ARCHIVE: an archive deleted; --nuke: every one
		if hasWord(args, "--nuke") {
			return "tarsnap --nuke"
		}
		if (hasWord(args, "-d") || len(args) > 0 && strings.HasPrefix(args[0].s, "-d")) && !hasWord(args, "--dry-run") {
			f, _ := optValue(args, "-f", "")
			return "tarsnap -d -f " + f
		}
		return ""
	case "duplicity":
		if len(ops) > 1 && (ops[0].s == "remove-all-but-n-full" || ops[0].s == "remove-all-inc-of-but-n-full") && (ops[1].s == "0" || ops[1].s == "1") ||
			len(ops) > 1 && ops[0].s == "remove-older-than" && shortRetention(ops[1].s) {
			if hasWord(args, "--force") {
				return "duplicity " + ops[0].s + " " + ops[1].s
			}
		}
		return ""
	}
	sub := ""
	for i, w := range ops {
		if i > 2 {
			break
		}
		switch w.s {
		case "forget", "prune", "delete", "rdelete", "snapshot":
			sub = w.s
		}
		if sub != "" {
			break
		}
	}
	switch {
	case c.name == "kopia" && sub == "snapshot":
		if hasWord(args, "--all-snapshots-for-source") && hasWord(args, "--delete") {
			return "kopia snapshot delete --all-snapshots-for-source"
		}
	case c.name == "borg" && sub == "rdelete":
		return "borg rdelete"
	case c.name == "kopia" && len(ops) > 1 && ops[0].s == "policy" && ops[1].s == "set" && keepsAlmostNothing(args):
		return "kopia policy set keeping almost nothing"
	case c.name == "borg" && len(ops) > 0 && ops[0].s == "recreate" && (hasPrefixWord(args, "--exclude") || hasPrefixWord(args, "-e")):
		// the archives rewritten without what is excluded: those files
		// gone from every backup
		return "borg recreate --exclude"
	case c.name == "borg" && sub == "delete":
		for _, w := range args {
			if v, ok := optValue(args, "-a", "glob-archives", "match-archives"); ok && strings.Contains(v, "*") && strings.Contains(lower(v), "prod") {
				return "borg delete of every archive matching " + v // db-prod-*: production's backups
			}
			if strings.HasPrefix(w.s, "-a") || strings.HasPrefix(w.s, "--glob-archives") || strings.HasPrefix(w.s, "--match-archives") || strings.HasPrefix(w.s, "--prefix") ||
				strings.Contains(w.s, "::") && !strings.HasSuffix(w.s, "::") { // REPO:: names no archive
				return "" // named archives, not the repository
			}
		}
		return "borg delete (the whole repository)"
	case sub == "forget" && c.name == "restic", sub == "prune" && c.name == "borg":
		if keepsAlmostNothing(args) {
			return c.name + " " + sub + " keeping almost nothing"
		}
		if c.name == "restic" && everySnapshotListed(src, ops) {
			return "restic forget of every snapshot the repository lists"
		}
	}
	return ""
}

// everySnapshotListed reports restic forget given, as its operands, the
// ids of a snapshot listing nothing filters (forget $(restic snapshots
// --json | jq -r '.[].id')).
func everySnapshotListed(src string, ops []word) bool {
	computed := false
	for _, w := range ops {
		if !w.ok {
			computed = true
		}
	}
	if !computed {
		return false
	}
	j := lower(src)
	i := strings.Index(j, "snapshots")
	if i < 0 {
		return false
	}
	rest := j[i:]
	for _, f := range [...]string{"select(", "grep", "head", "tail", "--tag", "--host", "--path", "sed ", "awk "} {
		if strings.Contains(rest, f) {
			return false
		}
	}
	return true
}

// keepsAlmostNothing reports a retention policy (--keep-* options)
// that, all counted, keeps at most one snapshot and no more than a day.
func keepsAlmostNothing(args []word) bool {
	seen, kept := false, 0
	for i, w := range args {
		name, val, ok := strings.Cut(w.s, "=")
		if !strings.HasPrefix(name, "--keep-") {
			continue
		}
		if !ok && i+1 < len(args) {
			val = args[i+1].s
		}
		seen = true
		if strings.HasPrefix(name, "--keep-within") {
			if !withinADay(val) {
				return false
			}
			continue
		}
		n := 0
		for _, r := range val {
			if r < '0' || r > '9' {
				return false // a tag or a variable keeps what it names
			}
			n = n*10 + int(r-'0')
			if n > 1 {
				return false
			}
		}
		kept += n
	}
	return seen && kept <= 1
}

// withinADay reports a restic or borg duration ("1h", "0d", "1d",
// "12H") no longer than a day.
func withinADay(v string) bool {
	v = lower(v)
	if len(v) < 2 {
		return false
	}
	unit, num := v[len(v)-1], v[:len(v)-1]
	n := 0
	for _, r := range num {
		if r < '0' || r > '9' {
			return false
		}
		n = n*10 + int(r-'0')
		if n > 24 {
			return false
		}
	}
	switch unit {
	case 'h':
		return n <= 24
	case 'd':
		return n <= 1
	}
	return false
}

// shortRetention reports a duplicity age that keeps about nothing: now,
// seconds, minutes, hours, or a day or two.
func shortRetention(v string) bool {
	if lower(v) == "now" {
		return true
	}
	// duplicity's units: s m h D W M Y (m minutes, M months)
	if n := len(v); n > 1 {
		num, unit := v[:n-1], v[n-1]
		if strings.Trim(num, "0123456789") != "" || num == "" {
			return false
		}
		switch unit {
		case 's', 'm', 'h':
			return true
		case 'D', 'd':
			return num == "0" || num == "1" || num == "2"
		}
	}
	return false
}

// signingKeystore reports a release signing keystore or an app store's
// API key: release.jks, upload-keystore.jks, AuthKey_ABC123.p8,
// dist.p12. The debug keystore and test fixtures are made again.
func signingKeystore(p string) bool {
	switch ext := path.Ext(p); {
	case strings.EqualFold(ext, ".jks"), strings.EqualFold(ext, ".keystore"), strings.EqualFold(ext, ".p8"), strings.EqualFold(ext, ".p12"), strings.EqualFold(ext, ".pfx"):
	case ext == ".key":
		// Rails' master key (config/master.key, config/credentials/
		// production.key): kept out of git, the only way to read the
		// encrypted credentials committed beside it
		b := path.Base(strings.ReplaceAll(p, `\`, "/"))
		return b == "master.key" || strings.Contains(p, "config/credentials/") && !strings.Contains(lower(b), "test") && !strings.Contains(lower(b), "development")
	default:
		return false // (most deletions: no lowering)
	}
	l := lower(p)
	if strings.Contains(l, "debug") || strings.Contains(l, "test") || strings.Contains(l, "fixture") || strings.ContainsAny(l, "*?") {
		return false
	}
	base := path.Base(strings.ReplaceAll(l, `\`, "/"))
	switch path.Ext(base) {
	case ".jks", ".keystore":
		return true
	case ".p8":
		return strings.HasPrefix(base, "authkey_")
	case ".p12", ".pfx":
		return hasAny(base, "release", "dist", "sign", "upload", "prod")
	}
	return false
}

// credentialsFileRel reports a file of the home (relative to it) that
// holds the user's logins: losing it locks the user out of a cloud, a
// cluster, a registry or a forge.
func credentialsFileRel(rel string) bool {
	switch rel {
	case ".aws/credentials", ".git-credentials", ".pgpass", ".netrc", ".pypirc", ".config/gh/hosts.yml", ".docker/config.json", ".kube/config",
		".config/gcloud/credentials.db", ".azure/msal_token_cache.json", ".npmrc":
		return true
	}
	return strings.HasPrefix(rel, ".gnupg/private-keys") || strings.HasPrefix(rel, ".password-store/")
}

// credentialsWriter are the programs whose output is the credentials
// such a file holds (a cluster's kubeconfig, a login's token).
var credentialsWriter = map[string]bool{"kind": true, "k3d": true, "minikube": true, "kubectl": true, "oc": true, "aws": true, "az": true, "gcloud": true,
	"doctl": true, "gh": true, "op": true, "vault": true, "pass": true, "gpg": true, "sops": true, "cp": true, "install": true, "k3s": true, "microk8s": true,
	"talosctl": true, "eksctl": true, "linode-cli": true, "scw": true, "civo": true, "vcluster": true}

// cleanDirOverrides returns the directory variables (BUILD_DIR=x,
// PREFIX=/) given to a build tool's clean or uninstall target.
func cleanDirOverrides(c *cmd) []word {
	args := c.args()
	cleans := false
	for _, w := range c.operands() {
		if !strings.Contains(w.s, "=") && (strings.Contains(w.s, "clean") || strings.Contains(w.s, "uninstall") || w.s == "distclean" || w.s == "purge") {
			cleans = true
		}
	}
	if !cleans {
		return nil
	}
	var out []word
	for _, w := range args {
		name, _, ok := strings.Cut(w.s, "=")
		u := strings.ToUpper(name)
		if ok && !strings.HasPrefix(name, "-") && (strings.Contains(u, "DIR") || strings.Contains(u, "PREFIX") || strings.Contains(u, "ROOT") ||
			strings.Contains(u, "DEST") || strings.Contains(u, "PATH") || strings.Contains(u, "OUT")) {
			out = append(out, w)
		}
	}
	return out
}

// inPlaceRewriteRule: tools that rewrite the files they are given where
// they are (ImageMagick's mogrify without -path, exiftool told to
// overwrite the original, touch given another date for a set of files).
var inPlaceRewriteRule = &rule{ID: "files-rewritten-in-place", Level: LevelHigh, Category: CategoryFileDelete, Description: "rewriting files outside the project where they are (images re-encoded, metadata stripped, dates changed): the originals are gone, evidence altered",
	Suggestions: []string{"Write the results to a new folder (mogrify -path, exiftool -o)", "Work on copies in the project"},
	names:       names("mogrify", "exiftool", "touch"),
	match: func(a *analysis, c *cmd) (bool, string) {
		low := c.lowerArgs()
		switch c.name {
		case "mogrify":
			if optGiven(low, "-path") {
				return false, ""
			}
		case "exiftool":
			if !optGiven(low, "-overwrite_original") && !optGiven(low, "-overwrite_original_in_place") {
				return false, ""
			}
			tags := false
			for _, l := range low {
				tags = tags || strings.HasPrefix(l, "-") && strings.Contains(l, "=")
			}
			if !tags {
				return false, ""
			}
		case "touch":
			if !optGiven(low, "-d") && !optGiven(low, "-t") && !optGiven(low, "--date") && !optGiven(low, "-r") && !optGiven(low, "--reference") {
				return false, ""
			}
		}
		for _, w := range c.operands() {
			if !w.ok && !w.glob || strings.HasPrefix(w.s, "-") || c.name == "touch" && (w.s == "-d" || w.s == "-t") {
				continue
			}
			p := a.absPath(w.s, c.cwd)
			if p == "" || a.inWork(p) || strings.HasPrefix(p, "/tmp/") || p == "/tmp" {
				continue
			}
			if c.name == "touch" && !w.glob && !strings.ContainsAny(w.s, "*?[") {
				continue // one named file: more often made than backdated
			}
			return true, c.base + " " + w.s
		}
		return false, ""
	}}

func init() { ruleSets = append(ruleSets, []*rule{inPlaceRewriteRule}) }

// mlWorkDiscarded: a data scientist's experiments thrown away by DVC
// (their parameters, metrics and outputs, kept nowhere else). Clearing
// notebooks' outputs and purging a tracking store's deleted runs are
// routine (earlier rounds' decision).
var mlWorkDiscarded = &rule{ID: "ml-work-discarded", Level: LevelModerate, Category: CategoryFileDelete, Description: "removing a project's DVC experiments or a workflow's results (snakemake --delete-all-output, nextflow clean -f): parameters, metrics and outputs kept nowhere else",
	Suggestions: []string{"List the experiments first (dvc exp show) and keep the ones not yet compared", "Push the ones worth keeping (dvc exp push); preview a clean with -n"},
	names:       names("dvc", "snakemake", "nextflow"),
	match: func(a *analysis, c *cmd) (bool, string) {
		low := c.lowerArgs()
		ops := plainWords(low)
		switch c.name {
		case "snakemake":
			if hasAnyWord(low, "--delete-all-output") && !hasAnyWord(low, "-n", "--dry-run", "--dryrun") {
				return true, "snakemake --delete-all-output"
			}
		case "nextflow":
			if len(ops) > 0 && ops[0] == "clean" && hasAnyWord(low, "-f", "-force") && !hasAnyWord(low, "-n", "-dry-run") {
				return true, "nextflow clean -f"
			}
		default:
			if len(ops) > 1 && ops[0] == "exp" && (ops[1] == "remove" || ops[1] == "rm" || ops[1] == "gc") {
				return true, "dvc exp " + ops[1]
			}
		}
		return false, ""
	}}

func init() { ruleSets = append(ruleSets, []*rule{mlWorkDiscarded}) }

// serverFilesDeleted is the rule for folders or every file of a pattern
// deleted on another machine through a file-transfer client's script:
// lftp -e 'rm -r DIR', mrm, mirror -R --delete; smbclient -c 'deltree'.
// One named file deleted is routine (as sftp-batch-delete decides for
// sftp's batches).
var serverFilesDeleted = &rule{ID: "server-files-deleted", Level: LevelHigh, Category: CategoryFileDelete, Description: "deleting folders, or every file of a pattern, on another machine through a file-transfer client (lftp, smbclient)",
	Suggestions: []string{"List the remote folder first and delete one named file after a second look", "Let the server's owner clean it up"},
	names:       names("lftp", "smbclient"),
	match: func(a *analysis, c *cmd) (bool, string) {
		args := c.args()
		var script []string
		for _, o := range [...]string{"-e", "-c"} {
			if v, ok := optValue(args, o, ""); ok {
				script = append(script, strings.Split(v, ";")...)
			}
		}
		for _, line := range script {
			f := strings.Fields(strings.TrimSpace(line))
			if len(f) < 2 {
				continue
			}
			verb := strings.ToLower(f[0])
			if slicesContains(f, "--dry-run") {
				continue // only lists what it would do
			}
			if verb == "mirror" && (slicesContains(f, "-R") || slicesContains(f, "--reverse")) && (slicesContains(f, "--delete") || slicesContains(f, "-e")) {
				// mirror -R --delete: the server's folder made like the
				// local one, what the local one lacks deleted there
				return true, c.name + " " + strings.TrimSpace(line)
			}
			recursive := slicesContains(f, "-r") || slicesContains(f, "-rf") || slicesContains(f, "-fr")
			glob := strings.ContainsAny(strings.Join(f[1:], " "), "*?")
			switch {
			case verb == "mrm" || verb == "deltree",
				(verb == "rm" || verb == "del") && (recursive || glob),
				verb == "glob" && len(f) > 2 && f[1] == "rm":
				return true, c.name + " " + strings.TrimSpace(line)
			}
		}
		return false, ""
	}}

func init() { ruleSets = append(ruleSets, []*rule{serverFilesDeleted}) }
