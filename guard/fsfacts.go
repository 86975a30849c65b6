package guard

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// --- deletions ---

type delTarget struct {
	w     word
	class pclass
	rec   bool
	glob  bool
}

var deleters = names("rm", "unlink", "shred", "srm", "wipe", "find", "mv", "rsync", "rmdir", "rimraf", "del-cli")

// deleteRuleNames are the commands the deletion rules look at: the
// deleters, and the package runners that may start one.
var deleteRuleNames = append(names("npx", "bunx", "pnpx", "npm", "pnpm", "yarn", "bun", "tar", "zip", "7z", "7za", "7zz", "rar", "rclone", "aws", "gsutil", "mc", "mcli"), deleters...)

// nodeDeleters are the npm packages that delete their operands
// recursively, run directly or through npx: rm -rf by another name.
var nodeDeleters = map[string]bool{"rimraf": true, "del-cli": true, "del": true, "premove": true, "rmrf": true}

// posArgs returns the operands of a command whose options may be mixed
// with operands; options in spec.short/long take an argument.
func posArgs(args []word, spec optSpec) []word {
	plain := true
	for _, w := range args {
		if len(w.s) > 1 && w.s[0] == '-' && w.ok {
			plain = false
			break
		}
	}
	if plain {
		return args[:len(args):len(args)] // an append copies
	}
	if i, ok := optionsFirst(args, spec); ok {
		if i >= len(args) {
			return nil
		}
		return args[i:len(args):len(args)]
	}
	var out []word
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if s == "--" {
			out = append(out, args[i+1:]...)
			break
		}
		if len(s) > 1 && s[0] == '-' && args[i].ok {
			if spec.takesNext(s) {
				i++
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// takesNext reports whether option word s takes the next word as its
// argument: a long option of spec.long without "=value", or a cluster of
// short options whose first one in spec.short ends it.
func (spec optSpec) takesNext(s string) bool {
	if strings.HasPrefix(s, "--") {
		name := s[2:]
		return strings.IndexByte(name, '=') < 0 && slices.Contains(spec.long, name)
	}
	for j := 1; j < len(s); j++ {
		if strings.IndexByte(spec.short, s[j]) >= 0 {
			return j == len(s)-1
		}
	}
	return false
}

// optionsFirst reports where the operands start when every option (and
// its argument) comes before them, as posArgs reads them: then the
// operands are the tail of args from there.
func optionsFirst(args []word, spec optSpec) (int, bool) {
	i := 0
	for ; i < len(args); i++ {
		s := args[i].s
		if s == "--" {
			return i + 1, true
		}
		if len(s) <= 1 || s[0] != '-' || !args[i].ok {
			break
		}
		if spec.takesNext(s) {
			i++
		}
	}
	for _, w := range args[min(i, len(args)):] {
		if w.s == "--" || len(w.s) > 1 && w.s[0] == '-' && w.ok {
			return 0, false
		}
	}
	return i, true
}

// retentionRoot reports a find root that is one tool's or one
// application's own directory (/var/log/myapp, ~/ci-cache/builds): a
// directory below the top levels of the system and of the home, where
// deleting what has aged out is routine upkeep.
func (a *analysis) retentionRoot(w word, cwd string) bool {
	if !w.ok || w.find != nil && len(w.find.roots) > 0 && !w.find.roots[0].ok {
		return false // find $LOG_DIR -mtime +7 -delete: whatever the variable holds
	}
	p := a.absPath(w.s, cwd)
	if p == "" {
		return false
	}
	if p == a.workDir || a.inWork(p) {
		return true
	}
	if rel, mine, ok := a.homeRel(p); ok {
		return mine && rel != "" && !strings.HasPrefix(rel, ".") && !strings.Contains(rel, "/.") && !homeDataDirs[strings.SplitN(rel, "/", 2)[0]]
	}
	if strings.Count(p, "/") < 3 {
		return false // /var/log, /srv/data: a whole system area
	}
	if rest, ok := strings.CutPrefix(p, "/var/log/"); ok && systemLogDirs[strings.SplitN(rest, "/", 2)[0]] {
		return false // the system's own records, not an application's
	}
	switch strings.SplitN(p[1:], "/", 2)[0] {
	case "var", "srv", "opt", "tmp", "data", "mnt":
		return true
	}
	return false
}

// systemLogDirs are the directories of /var/log the system itself keeps:
// audit trails and journals.
var systemLogDirs = map[string]bool{"audit": true, "journal": true, "sa": true, "apt": true, "installer": true, "private": true,
	"secure": true, "auth": true, "sssd": true, "samba": true, "cups": true}

// homeDataDirs are the folders of a home that hold a person's own
// documents, never a tool's output.
var homeDataDirs = map[string]bool{"Documents": true, "Desktop": true, "Pictures": true, "Photos": true, "Music": true, "Videos": true,
	"Movies": true, "Mail": true, "Notes": true, "Projects": true, "projects": true, "src": true, "code": true, "work": true, "Dropbox": true,
	"OneDrive": true, "backups": true, "Backups": true}

// deletions lists what a command deletes, classified.
func (a *analysis) deletions(c *cmd) []delTarget {
	if c.delDone {
		return c.dels
	}
	c.delDone = true
	args := c.args()
	var out []delTarget
	add := func(w word, rec bool) {
		if w.ok && isBlockDevice(a.absPath(w.s, c.cwd)) {
			return // judged by the disk rules
		}
		if g, ok := negatedGlob(w.s); ok && w.ok {
			w = word{s: g, ok: true, glob: true}
		}
		if w.find != nil && w.find.aged && a.retentionRoot(w, c.cwd) {
			return // pruning what aged out of one tool's own directory
		}
		cls := a.classifyDelete(w, c.cwd)
		if w.ok && !rec && runtimeFile(a.absPath(w.s, c.cwd)) {
			cls = pcTemp // a stale pid file or socket
		}
		if w.find != nil && !w.find.filtered {
			rec = true // every file find visits
		}
		if !rec && !w.glob && (cls == pcSystemCrit || cls == pcRoot || cls == pcHome) {
			cls = pcSystemSub // a single file (a directory needs -r)
		}
		out = append(out, delTarget{w: w, class: cls, rec: rec, glob: w.glob})
	}
	name := c.name
	switch name {
	case "npm", "pnpm", "yarn", "bun":
		// npm exec -- rimraf ~, pnpm dlx rimraf, bun x rimraf: npx's way
		if len(args) > 1 && (args[0].s == "exec" || args[0].s == "dlx" || args[0].s == "x") {
			name, args = "npx", args[1:]
			if args[0].s == "--" {
				args = args[1:]
			}
		}
	}
	switch name {
	case "rm", "srm", "wipe":
		o := c.opts()
		rec := o.has("rR", "recursive")
		for _, w := range posArgs(args, optSpec{}) {
			add(w, rec)
		}
	case "rimraf", "del-cli", "npx", "bunx", "pnpx":
		ops := posArgs(args, optSpec{short: "p", long: []string{"package", "call"}})
		if name == "npx" || name == "bunx" || name == "pnpx" {
			if len(ops) == 0 {
				break
			}
			if pkg, _, _ := strings.Cut(ops[0].s, "@"); !nodeDeleters[pkg] { // rimraf@5
				break
			}
			ops = ops[1:]
		}
		for _, w := range ops {
			if w.ok && strings.ContainsAny(w.s, "*?") {
				w.glob = true // the tool expands its own patterns
			}
			add(w, true)
		}
	case "tar":
		// tar --remove-files deletes what it archived: the operands, read
		// from the folder -C names
		if !hasWord(args, "--remove-files") {
			break
		}
		dir := ""
		for i, w := range args {
			if (w.s == "-C" || w.s == "--directory") && i+1 < len(args) {
				dir = args[i+1].s
			} else if v, ok := strings.CutPrefix(w.s, "--directory="); ok {
				dir = v
			}
		}
		ops := posArgs(args, optSpec{short: "fCbTXgHKLNV", long: []string{"file", "directory", "exclude", "files-from", "exclude-from", "use-compress-program", "transform", "owner", "group", "mode", "mtime"}})
		if len(args) > 0 && !strings.HasPrefix(args[0].s, "-") && len(ops) > 0 {
			ops = ops[1:] // the old-style bundle (czf)
			if strings.Contains(args[0].s, "f") && len(ops) > 0 {
				ops = ops[1:] // and its archive
			}
		}
		for _, w := range ops {
			if dir != "" && w.ok && !strings.HasPrefix(w.s, "/") {
				w = word{s: strings.TrimSuffix(dir, "/") + "/" + w.s, ok: true}
			}
			add(w, true)
		}
	case "zip":
		// zip -m moves the files into the archive: they are deleted
		o := c.opts()
		if !o.has("m", "move") {
			break
		}
		ops := posArgs(args, optSpec{short: "bnPtx", long: []string{"password", "temp-path", "suffixes", "exclude"}})
		if len(ops) > 1 {
			for _, w := range ops[1:] {
				add(w, o.has("r", "recurse-paths"))
			}
		}
	case "7z", "7za", "7zz", "rar":
		// 7z a -sdel, rar a -df, rar m: the files archived are deleted
		ops := positional(args)
		if len(ops) < 3 {
			break
		}
		move := ops[0].s == "m" && c.name == "rar"
		for _, w := range args {
			if w.s == "-sdel" || w.s == "-df" {
				move = true
			}
		}
		if move && (ops[0].s == "a" || ops[0].s == "u" || ops[0].s == "m") {
			for _, w := range ops[2:] {
				add(w, true)
			}
		}
	case "unlink":
		for _, w := range posArgs(args, optSpec{}) {
			add(w, false)
		}
	case "shred":
		// shred destroys the content even without -u
		for _, w := range posArgs(args, optSpec{short: "ns", long: []string{"iterations", "size", "random-source"}}) {
			add(w, false)
		}
	case "find":
		if c.findDelete && c.find != nil && !(a.inWork(a.absPath(c.find.roots[0].s, c.cwd)) && artifactsOnly(args, c.find)) {
			add(word{s: c.find.roots[0].s, ok: true, find: c.find}, true)
		}
	case "mv":
		ops := posArgs(args, optSpec{short: "tS", long: []string{"target-directory", "suffix"}})
		if len(ops) < 2 {
			break
		}
		dest := ops[len(ops)-1]
		for _, w := range ops[:len(ops)-1] {
			cls := a.classifyDelete(w, c.cwd)
			if dest.s == "/dev/null" {
				out = append(out, delTarget{w: w, class: cls, rec: true})
				continue
			}
			switch cls {
			case pcRoot, pcHome, pcSystemCrit, pcCritFile, pcSecretsHome, pcHistory, pcLogs, pcProtected:
				out = append(out, delTarget{w: w, class: cls, rec: true})
			case pcWorkDir:
				// the project moved into a temporary folder, which the
				// system empties: deleted, a little later
				if d := a.absPath(dest.s, c.cwd); d != "" && (isTempRoot(d) || underTemp(d)) {
					out = append(out, delTarget{w: w, class: cls, rec: true})
				}
			}
		}
	case "rsync":
		o := c.opts()
		if !hasPrefixWord(args, "--delete") && !o.has("", "del", "remove-source-files") {
			break
		}
		ops := posArgs(args, optSpec{short: "eBfT", long: []string{"rsh", "rsync-path", "exclude", "include", "filter", "files-from", "temp-dir", "compare-dest", "link-dest", "backup-dir", "chmod", "chown", "port", "password-file"}})
		if len(ops) < 2 {
			break
		}
		dest := ops[len(ops)-1]
		if isRemoteSpec(dest.s) && hasPrefixWord(args, "--delete") && a.emptySource(ops[len(ops)-2].s, c.cwd) {
			// /tmp/empty/ mirrored over host:/var/www: all of it goes
			out = append(out, delTarget{w: dest, class: pcSystemCrit, rec: true})
			break
		}
		if isRemoteSpec(dest.s) && hasPrefixWord(args, "--delete") {
			// host:~/ or host:/: the whole home or disk over there, mirrored
			// from a source that may hold nothing
			_, rp, _ := strings.Cut(dest.s, ":")
			trimmed := strings.TrimSuffix(rp, "/")
			if h, ok := strings.CutPrefix(trimmed, "/home/"); ok && h != "" && !strings.Contains(h, "/") {
				trimmed = "~" // host:/home/deploy/: that user's whole home over there
			}
			switch trimmed {
			case "", "~", "$HOME":
				out = append(out, delTarget{w: dest, class: pcHome, rec: true})
			case "/", "/home", "/etc", "/usr", "/var", "/root":
				out = append(out, delTarget{w: dest, class: pcSystemCrit, rec: true})
			case "/var/www", "/srv", "/srv/www", "/var/www/html", "/usr/share/nginx/html", "/opt":
				// a production server's shared web root: every other site
				// it serves is deleted to match the one build sent
				if host, _, _ := strings.Cut(dest.s, ":"); (prodMarker(host) || isProdName(host)) && !o.has("n", "dry-run") {
					out = append(out, delTarget{w: dest, class: pcSystemCrit, rec: true})
				}
			}
			break
		}
		if strings.Contains(dest.s, ":") {
			break // remote destination
		}
		// --delete removes whatever the destination holds that the
		// source lacks: all of it when the source is empty.
		switch cls := a.classifyUnder(dest, c.cwd, false); cls {
		case pcNone, pcInside, pcTemp, pcHomeCache, pcHomeCacheRoot:
		default:
			out = append(out, delTarget{w: dest, class: cls, rec: true})
		}
	case "rclone", "aws", "gsutil", "mc", "mcli":
		// rclone sync REMOTE: DIR, aws s3 sync s3://b DIR --delete,
		// gsutil rsync -d gs://b DIR, mc mirror --remove b DIR: a local
		// directory made a copy of the remote, losing what the remote lacks
		ops := positional(args)
		var dest word
		switch {
		case c.name == "rclone" && len(ops) == 3 && ops[0].s == "sync" && !hasWord(args, "--dry-run") && !hasWord(args, "-n"):
			dest = ops[2]
		case c.name == "aws" && len(ops) == 4 && ops[0].s == "s3" && ops[1].s == "sync" && hasWord(args, "--delete") && !hasWord(args, "--dryrun"):
			dest = ops[3]
		case c.name == "gsutil" && len(ops) == 3 && ops[0].s == "rsync" && hasWord(args, "-d") && !hasWord(args, "-n"):
			dest = ops[2]
		case (c.name == "mc" || c.name == "mcli") && len(ops) == 3 && ops[0].s == "mirror" && hasWord(args, "--remove") && !hasWord(args, "--dry-run"):
			dest = ops[2]
		}
		if dest.s == "" || strings.Contains(dest.s, ":") && !strings.HasPrefix(dest.s, "/") || strings.HasPrefix(dest.s, "s3://") {
			break
		}
		if c.name == "mc" || c.name == "mcli" {
			if !strings.HasPrefix(dest.s, "/") && !strings.HasPrefix(dest.s, "~") && !strings.HasPrefix(dest.s, ".") && !strings.HasPrefix(dest.s, "$") {
				break // an alias/bucket, not a directory
			}
		}
		switch cls := a.classifyUnder(dest, c.cwd, false); cls {
		case pcNone, pcInside, pcWorkSource, pcTemp, pcHomeCache, pcHomeCacheRoot:
			// fixtures or build output fetched into the project
		default:
			out = append(out, delTarget{w: dest, class: cls, rec: true})
		}
	}
	c.dels = out
	return out
}

func delRule(id string, level DangerLevel, cat, desc string, sugg []string, rec int, classes ...pclass) *rule {
	return &rule{ID: id, Level: level, Category: cat, Description: desc, Suggestions: sugg, names: deleteRuleNames,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.deletions(c) {
				if rec == 1 && !t.rec || rec == 0 && t.rec {
					continue
				}
				for _, cl := range classes {
					if t.class == cl && !(t.rec && a.reinstalledHere(a.absPath(t.w.s, c.cwd))) {
						return true, t.w.s
					}
				}
			}
			return false, ""
		}}
}

// reinstalledHere reports a tool's install folder (/usr/local/go,
// /opt/nvim) that the line unpacks again from an archive of the same
// name into the same place: the documented way to upgrade it (sudo rm
// -rf /usr/local/go && sudo tar -C /usr/local -xzf go1.22.4.linux-amd64.tar.gz).
func (a *analysis) reinstalledHere(p string) bool {
	if p == "" || !strings.HasPrefix(p, "/usr/local/") && !strings.HasPrefix(p, "/opt/") || strings.Count(p, "/") != 3 {
		return false
	}
	parent, base := path.Dir(p), path.Base(p)
	src := a.src
	if !strings.Contains(src, "tar ") || !strings.Contains(src, "-C "+parent) && !strings.Contains(src, "--directory="+parent) && !strings.Contains(src, "--directory "+parent) {
		return false
	}
	for _, f := range strings.Fields(src) {
		b := path.Base(strings.Trim(f, `"'`))
		if strings.HasPrefix(b, base) && (strings.HasSuffix(b, ".tar.gz") || strings.HasSuffix(b, ".tgz") || strings.HasSuffix(b, ".tar.xz")) {
			return true
		}
	}
	return false
}

// recursive selectors for delRule
const (
	nonRec  = 0
	recOnly = 1
	anyRec  = 2
)

var suggDeleteScoped = []string{"Delete only the specific paths inside the project, e.g. rm -rf ./build", "Use a relative path inside the work directory", "Move files to a trash directory instead of deleting them"}

func histVarDisabled(name, val string) bool {
	switch name {
	case "HISTFILE":
		return val == "/dev/null" || val == ""
	case "HISTSIZE", "HISTFILESIZE", "SAVEHIST":
		return val == "0" || val == ""
	case "HISTIGNORE":
		return val == "*" || strings.HasPrefix(val, "*:") || strings.HasSuffix(val, ":*")
	case "fish_private_mode":
		return true // set to anything, fish keeps no history
	}
	return false
}

var dangerousSUID = map[string]bool{
	"bash": true, "sh": true, "dash": true, "zsh": true, "ksh": true, "fish": true, "csh": true, "tcsh": true, "ash": true,
	"python": true, "python2": true, "python3": true, "perl": true, "ruby": true, "node": true, "php": true, "lua": true,
	"find": true, "vim": true, "vi": true, "nano": true, "less": true, "more": true, "env": true, "nmap": true, "cp": true,
	"mv": true, "tee": true, "awk": true, "gawk": true, "sed": true, "tar": true, "zip": true, "busybox": true, "socat": true,
	"nc": true, "docker": true, "rsync": true, "git": true, "xargs": true, "dd": true, "chmod": true, "chown": true, "su": true,
	"rootbash": true, "emacs": true, "gdb": true, "strace": true, "openssl": true, "wget": true, "curl": true, "make": true,
}

// --- permissions helpers ---

type permTarget struct {
	w     word
	class pclass
	rec   bool
}

func chmodTargets(c *cmd) []word {
	ops := posArgs(c.args(), optSpec{long: []string{"reference"}})
	switch c.name {
	case "chmod", "chown", "chgrp":
		// the mode / owner; a mode like -x reads as an option and is
		// not among the operands
		if len(ops) > 0 && !hasPrefixWord(c.args(), "--reference") && !(c.name == "chmod" && strings.HasPrefix(chmodMode(c), "-")) {
			ops = ops[1:]
		}
	case "setfacl":
		ops = posArgs(c.args(), optSpec{short: "mMxX", long: []string{"modify", "modify-file", "remove", "remove-file", "set", "set-file"}})
	}
	return ops
}

func (a *analysis) permTargets(c *cmd) []permTarget {
	if !c.permsDone {
		c.perms, c.permsDone = a.computePermTargets(c), true
	}
	return c.perms
}

func (a *analysis) computePermTargets(c *cmd) []permTarget {
	o := c.opts()
	rec := o.has("R", "recursive")
	if c.name == "setfacl" {
		rec = o.has("R", "recursive")
	}
	var out []permTarget
	for _, w := range chmodTargets(c) {
		r := rec || w.find != nil && !w.find.filtered
		out = append(out, permTarget{w: w, class: a.classifyDelete(w, c.cwd), rec: r})
	}
	return out
}

// chmodMode returns chmod's mode operand.
func chmodMode(c *cmd) string {
	if c.name == "setfacl" {
		return aclMode(c)
	}
	if c.name != "chmod" {
		return ""
	}
	args := c.args()
	for _, w := range args {
		s := w.s
		if s == "--" {
			continue
		}
		if len(s) > 1 && s[0] == '-' && !strings.ContainsAny(s[1:], "rwxXst=") {
			continue // an option such as -R
		}
		if strings.HasPrefix(s, "--") {
			continue
		}
		return s
	}
	return ""
}

// aclMode returns what setfacl -m grants every other user, as the chmod
// mode that grants the same (-m o::rwx is o+rwx), or "".
func aclMode(c *cmd) string {
	v, ok := optValue(c.args(), "-m", "modify")
	if !ok {
		return ""
	}
	for _, e := range strings.Split(v, ",") {
		// o::rwx, and o:rwx (the other class takes no qualifier)
		tag, perms, ok := strings.Cut(e, ":")
		perms = strings.TrimPrefix(perms, ":")
		if ok && (tag == "o" || tag == "other") && perms != "" && strings.Trim(perms, "rwxX-") == "" {
			return "o+" + strings.ReplaceAll(perms, "-", "")
		}
	}
	return ""
}

func octalMode(m string) (int, bool) {
	if m == "" || len(m) > 5 {
		return 0, false
	}
	n, err := strconv.ParseUint(m, 8, 16)
	return int(n), err == nil
}

// modeGrants reports whether chmod mode m gives one of the users in who
// (u, g, o, a; a clause naming nobody counts as everyone) one of the
// permissions in perms; mask asks the same of an octal mode.
func modeGrants(m string, mask int, who, perms string) bool {
	if n, ok := octalMode(m); ok {
		return n&mask != 0
	}
	for _, cl := range strings.Split(m, ",") {
		w, perm, ok := cutOp(cl)
		if ok && perm[0] != '-' && (w == "" || strings.ContainsAny(w, who)) && strings.ContainsAny(perm[1:], perms) {
			return true
		}
	}
	return false
}

func modeWorldWritable(m string) bool { return modeGrants(m, 0o002, "oa", "w") }

func modeOthersRead(m string) bool { return modeGrants(m, 0o004, "oa", "r") }

// modeSharesRead reports a mode that lets the group or other users read
// (or write): g+r, o+r, a+r, +r, 644, 640.
func modeSharesRead(m string) bool { return modeGrants(m, 0o066, "goa", "rw") }

func modeRemovesAll(m string) bool {
	if n, ok := octalMode(m); ok {
		return n&0o777 == 0
	}
	return m == "a-rwx" || m == "-rwx" || m == "ugo-rwx" || m == "a=" || m == "ugo="
}

// modeRemovesExec reports a mode taking execute away from the owner:
// -x, a-x, u-x, a=r, 644.
func modeRemovesExec(m string) bool {
	if n, ok := octalMode(m); ok {
		return n&0o100 == 0
	}
	for _, cl := range strings.Split(m, ",") {
		who, perm, ok := cutOp(cl)
		if !ok || who != "" && !strings.ContainsAny(who, "ua") {
			continue
		}
		if perm[0] == '-' && strings.Contains(perm[1:], "x") || perm[0] == '=' && !strings.ContainsAny(perm[1:], "xX") {
			return true
		}
	}
	return false
}

func modeSetuid(m string) bool {
	if n, ok := octalMode(m); ok {
		return len(m) == 4 && n&0o4000 != 0
	}
	for _, cl := range strings.Split(m, ",") {
		who, perm, ok := cutOp(cl)
		if ok && perm[0] != '-' && strings.Contains(perm[1:], "s") && (who == "" || strings.ContainsAny(who, "ua")) {
			return true
		}
	}
	return false
}

// cutOp splits a symbolic chmod clause "u+s" into "u" and "+s".
func cutOp(cl string) (string, string, bool) {
	i := strings.IndexAny(cl, "+-=")
	if i < 0 || i == len(cl)-1 && cl[i] != '=' {
		return "", "", false
	}
	who := cl[:i]
	if strings.Trim(who, "ugoa") != "" {
		return "", "", false
	}
	return who, cl[i:], true
}

// --- writes ---

type writeTarget struct {
	path    string // resolved path ("" when unknown)
	raw     string
	class   wclass
	trunc   bool // the file is replaced or truncated (not appended to)
	appends bool // the file is only appended to
	content flow
}

// writeTargets lists the files a command writes.
func (a *analysis) writeTargets(c *cmd) []writeTarget {
	if c.writesDone {
		return c.writes
	}
	c.writesDone = true
	var out []writeTarget
	add := func(w word, trunc bool, content flow) {
		if !w.ok {
			w = dynamicLeaf(w)
		}
		if !w.ok || w.s == "" {
			return
		}
		p := a.absPath(w.s, c.cwd)
		if t := a.links[p]; t != "" && c.name != "ln" && c.name != "mv" {
			// ln -sf ~/.aws/credentials out.txt && cmd > out.txt: a write
			// through a link made earlier lands on its target
			p = t
		}
		out = append(out, writeTarget{path: p, raw: w.s, class: a.classifyWrite(p), trunc: trunc, content: content})
	}
	addAppend := func(w word, content flow) {
		add(w, false, content)
		if len(out) > 0 && out[len(out)-1].raw == w.s {
			out[len(out)-1].appends = true
		}
	}
	for i := range c.redirs {
		r := &c.redirs[i]
		if !r.isOutput() {
			continue
		}
		var content flow
		if r.n == "" || r.n == "1" || r.op == syntax.RdrAll || r.op == syntax.AppAll {
			content = a.computeOut(c)
		}
		if r.isAppend() {
			addAppend(r.w, content)
		} else {
			add(r.w, true, content)
		}
	}
	args := c.args()
	switch c.name {
	case "tee":
		o := c.opts()
		app := o.has("a", "append")
		for _, w := range posArgs(args, optSpec{}) {
			if app {
				addAppend(w, c.in)
			} else {
				add(w, true, c.in)
			}
		}
	case "cp", "install", "ln", "mv":
		ops := posArgs(args, optSpec{short: "tSmogT", long: []string{"target-directory", "suffix", "mode", "owner", "group"}})
		if t, ok := optValue(args, "-t", "target-directory"); ok {
			ops = append(ops, lit(t))
		}
		if len(ops) >= 2 || c.name == "ln" && len(ops) == 2 {
			dest := ops[len(ops)-1]
			src := ops[0]
			if c.name == "cp" && len(ops) == 2 && backupCopyName(src.s, dest.s) {
				break // cp sshd_config sshd_config.bak.$(date +%s): a copy kept beside it, read by nothing
			}
			content := a.fileFlow(c, src)
			if c.name == "ln" {
				content = flow{kind: flowLocal, what: src.s}
			}
			p := a.absPath(dest.s, c.cwd)
			if p != "" && (strings.HasSuffix(dest.s, "/") || a.classifyWrite(p) == wNone && a.classifyWrite(p+"/x") != wNone) {
				// copying into a directory
				dest = lit(strings.TrimSuffix(dest.s, "/") + "/" + path.Base(src.s))
			}
			add(dest, true, content)
		}
	case "dd":
		image := false
		for _, w := range args {
			if v, ok := strings.CutPrefix(lower(w.s), "if="); ok {
				image = strings.HasSuffix(v, ".iso") || strings.HasSuffix(v, ".img") || strings.HasSuffix(v, ".raw")
			}
		}
		for _, w := range args {
			if strings.HasPrefix(w.s, "of=") {
				if image && w.ok && strings.HasPrefix(w.s, "of=/dev/disk/by-id/usb-") {
					continue // an installer image written to the USB stick named by its serial
				}
				add(word{s: w.s[3:], ok: w.ok}, !hasWord(args, "oflag=append"), c.in)
			}
		}
	case "sed", "perl":
		if c.name == "perl" && !perlInPlace(args) {
			break
		}
		// (-ri, -Ei: -i in a bundle of short options)
		if c.name == "sed" && !hasPrefixWord(args, "-i") && !shortCluster(args, 'i') && !hasWord(args, "--in-place") && !hasPrefixWord(args, "--in-place=") {
			break
		}
		spec := optSpec{short: "efEI", long: []string{"expression", "file"}} // perl -E CODE, -I DIR
		if c.name == "sed" {
			spec = optSpec{short: "efl", long: []string{"expression", "file", "line-length"}} // sed -E: extended expressions, no value
		}
		ops := posArgs(args, spec)
		if !hasWord(args, "-e") && !hasWord(args, "--expression") && !hasWord(args, "-f") && !(c.name == "perl" && perlCodeOption(args)) && len(ops) > 0 {
			ops = ops[1:] // the script
		}
		for _, w := range ops {
			add(w, false, flow{kind: flowUnknown})
		}
	case "uudecode", "base64", "zstd", "unzstd", "brotli", "gpg":
		// decoders that write their output to a file they are given
		if f, ok := optValue(args, "-o", "output", "output-file"); ok {
			add(lit(f), true, a.computeOut(c))
		}
	case "openssl":
		if f, ok := optValue(args, "-out"); ok {
			add(lit(f), true, a.computeOut(c))
		}
	case "git":
		// git log --format=TEXT --output=FILE (diff, show, format-patch
		// likewise): the output written to FILE; a format without
		// placeholders is the text written
		if f, ok := optValue(args, "", "output"); ok {
			content := flow{kind: flowUnknown}
			for _, w := range args {
				v, ok := strings.CutPrefix(w.s, "--format=")
				if !ok {
					v, ok = strings.CutPrefix(w.s, "--pretty=format:")
				}
				if ok && w.ok && !strings.Contains(v, "%") {
					content = flow{kind: flowText, text: v + "\n"}
				}
			}
			add(lit(f), true, content)
		}
	case "truncate":
		for _, w := range posArgs(args, optSpec{short: "sr", long: []string{"size", "reference"}}) {
			add(w, true, flow{kind: flowText})
		}
	case "patchelf":
		// patchelf --set-rpath DIR FILE: the program (or --output's
		// copy) rewritten in place to load libraries from elsewhere
		modifies := false
		for _, w := range args {
			for _, p := range [...]string{"--set-", "--add-", "--remove-", "--replace-", "--shrink-rpath", "--rename-", "--no-default-lib", "--clear-"} {
				modifies = modifies || strings.HasPrefix(w.s, p)
			}
		}
		if !modifies {
			break // --print-rpath, --print-needed: a read
		}
		if out, ok := optValue(args, "", "output"); ok {
			add(word{s: out, ok: true}, true, flow{kind: flowUnknown})
			break
		}
		ops := posArgs(args, optSpec{long: []string{"set-interpreter", "set-rpath", "add-rpath", "set-soname", "add-needed", "remove-needed",
			"page-size", "replace-needed", "rename-dynamic-symbols", "remove-rpath-entry", "output"}})
		if hasWord(args, "--replace-needed") && len(ops) > 0 {
			ops = ops[1:] // --replace-needed takes two values
		}
		for _, w := range ops {
			add(w, false, flow{kind: flowUnknown})
		}
	case "curl", "wget":
		for _, f := range a.downloadTargets(c) {
			add(lit(f), true, flow{kind: flowRemote, what: c.base + " " + firstURL(args)})
		}
	case "sudoedit", "visudo", "vipw", "vigr":
		ops := posArgs(args, optSpec{short: "fu"})
		switch c.name {
		case "visudo":
			f, ok := optValue(args, "-f", "file")
			if !ok {
				f = "/etc/sudoers"
			}
			if hasWord(args, "--check") || hasShortFlag(args, 'c') {
				ops = nil // visudo -c, -cf FILE: checks the syntax, writes nothing
				break
			}
			ops = []word{lit(f)}
		case "vipw":
			ops = []word{lit("/etc/passwd")}
		case "vigr":
			ops = []word{lit("/etc/group")}
		}
		for _, w := range ops {
			add(w, false, flow{kind: flowUnknown})
		}
	case "sudo":
		if hasShortBefore(c.words, len(c.words), 'e') {
			for _, w := range c.operands() {
				add(w, false, flow{kind: flowUnknown})
			}
		}
	case "tar":
		if d, ok := optValue(args, "-C", "directory"); ok && (hasPrefixWord(args, "-x") || hasWord(args, "--extract") || len(args) > 0 && strings.Contains(args[0].s, "x") && !strings.HasPrefix(args[0].s, "-")) {
			p := a.absPath(d, c.cwd)
			if p == "/" || p == "/etc" || p == "/usr" || p == "/boot" || p == "/bin" {
				out = append(out, writeTarget{path: p + "/etc/x", raw: d, class: wEtc, trunc: true})
			}
			if arch, _, _ := tarArchive(args); (arch == "" || arch == "-") && c.in.kind == flowRemote {
				// curl URL | tar xz -C /usr/local/bin: the download's
				// files land in the folder
				out = append(out, writeTarget{path: p + "/" + path.Base(c.in.what), raw: d, content: c.in})
			}
		}
	}
	c.writes = out
	return out
}

// installsAsItself reports a program copied onto PATH under the name it
// already has (install -m 755 linux-amd64/helm ~/.local/bin/helm), where
// that name is no system utility's: a tool installed, not one hidden.
// sshdHardeningEdit reports a sed edit of the SSH server's settings (or
// SELinux's) whose every substitution sets a closing value (password and
// root log-in off, keys on, fewer tries, SELinux enforcing).
func sshdHardeningEdit(c *cmd) bool {
	if c.name != "sed" {
		return false
	}
	var scripts []string
	args := c.args()
	for i, w := range args {
		if (w.s == "-e" || w.s == "--expression") && i+1 < len(args) {
			scripts = append(scripts, args[i+1].s)
		}
	}
	if len(scripts) == 0 {
		ops := posArgs(args, optSpec{short: "efl", long: []string{"expression", "file", "line-length"}})
		if len(ops) == 0 {
			return false
		}
		scripts = []string{ops[0].s}
	}
	for _, s := range scripts {
		if len(s) < 4 || s[0] != 's' {
			return false
		}
		parts := strings.Split(s[2:], s[1:2])
		if len(parts) < 2 {
			return false
		}
		if lower(strings.TrimSpace(parts[1])) == "selinux=enforcing" {
			continue // SELinux back to enforcing
		}
		f := strings.Fields(lower(strings.TrimPrefix(parts[1], "#")))
		if len(f) != 2 {
			return false
		}
		switch f[0] + " " + f[1] {
		case "passwordauthentication no", "permitrootlogin no", "permitrootlogin prohibit-password", "pubkeyauthentication yes",
			"permitemptypasswords no", "x11forwarding no", "kbdinteractiveauthentication no", "challengeresponseauthentication no",
			"allowagentforwarding no", "allowtcpforwarding no", "usedns no", "loglevel verbose":
		default:
			if f[0] != "maxauthtries" && f[0] != "logingracetime" && f[0] != "clientaliveinterval" && f[0] != "clientalivecountmax" {
				return false
			}
		}
	}
	return true
}

func installsAsItself(c *cmd, t writeTarget) bool {
	base := path.Base(t.path)
	if coreCommands[base] || t.content.kind == flowText || c.name != "install" && c.name != "cp" && c.name != "mv" {
		return false
	}
	for _, w := range c.operands() {
		if w.ok && w.s != t.raw && path.Base(w.s) == base && !strings.Contains(w.s, "$") {
			return true
		}
	}
	return false
}

// hasShortFlag reports a short option letter alone or in a cluster
// (-c, -cf) among words before "--".
func hasShortFlag(args []word, letter byte) bool {
	for _, w := range args {
		if w.s == "--" {
			break
		}
		if len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && isLetters(w.s[1:]) && strings.IndexByte(w.s[1:], letter) >= 0 {
			return true
		}
	}
	return false
}

func writeRule(id string, level DangerLevel, cat, desc string, sugg []string, truncOnly bool, classes ...wclass) *rule {
	return &rule{ID: id, Level: level, Category: cat, Description: desc, Suggestions: sugg, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.writeTargets(c) {
				// the class first: what follows reads the content, and
				// provisioned judges a job's commands
				if !slices.Contains(classes, t.class) {
					continue
				}
				if truncOnly && t.appends {
					continue
				}
				if t.class == wLogs && webServerLog(t.path) && emptyWrite(c, t) {
					continue // a web server's own log emptied to read it afresh (lines picked out of it are another matter)
				}
				if t.class == wLogs && logToStdio(c) {
					continue // ln -sf /dev/stdout /var/log/nginx/access.log: a container image's logs sent to its output
				}
				if (t.class == wSSHDConfig || t.path == "/etc/selinux/config") && sshdHardeningEdit(c) {
					continue // sed -i 's/^#PasswordAuthentication.*/PasswordAuthentication no/': a door closed
				}
				if t.class == wPathShadow && installsAsItself(c, t) {
					continue // a one-binary tool (kubectl, helm) installed under its own name
				}
				if c.remote && t.class == wAuthKeys && t.appends && !(t.content.kind == flowText && !t.content.partial && strings.Contains(t.content.text, "ssh-")) {
					continue // authorising oneself on a host one already reaches (a key written out on the line is someone's, not the user's own)
				}
				if t.class == wShellRC && (t.appends || rcDropIn(t.path)) && t.content.kind == flowText && !t.content.partial && a.plainSettings(t.content.text) {
					continue // settings only: variables and the user's own PATH
				}
				if t.class == wSSHConfig && t.appends && path.Base(t.path) == "config" && t.content.kind == flowText && !t.content.partial && plainSSHHosts(t.content.text) {
					continue // a host's name, user and port: nothing runs
				}
				if t.class == wShellRC && t.appends && t.content.kind == flowText && !t.content.partial && strings.HasSuffix(lower(t.path), ".ps1") && plainPSAlias(strings.TrimSpace(t.content.text)) {
					continue // a PowerShell profile given an alias for a plain program
				}
				if (t.path == "/etc/hosts" || strings.HasSuffix(lower(t.path), "/drivers/etc/hosts")) && (t.appends && t.content.kind == flowText && !t.content.partial && localHostsEntries(t.content.text) ||
					c.name == "sudoedit") {
					continue // a local development name, or the user at the editor
				}
				if strings.HasPrefix(t.path, "/etc/udev/rules.d/") && t.content.kind == flowText && !t.content.partial && !hasAny(strings.ToUpper(t.content.text), "RUN", "PROGRAM", "IMPORT{") &&
					!udevOpensToAll(t.content.text) {
					continue // a device's owner and mode (GROUP="plugdev"): nothing runs
				}
				if t.class == wService && c.name == "sed" && autostartDisabled(c) {
					continue // X-GNOME-Autostart-enabled=false: an entry switched off
				}
				if t.class == wProcSys && (t.path == "/proc/sys/vm/drop_caches" || t.path == "/proc/sys/vm/compact_memory") {
					continue // the kernel refills its caches: nothing is lost
				}
				if (t.class == wService || t.class == wCron) && a.provisioned(c, t) {
					continue // the project's own unit or job, as reviewed
				}
				if t.class == wEtc && vendorRepoSource(t) {
					continue // a vendor's own package repository, as its install guide writes it
				}
				return true, t.raw
			}
			return false, ""
		}}
}

// udevOpensToAll reports a udev rule giving every user a device
// (MODE="0666"): raw disks or memory read and written by anyone.
func udevOpensToAll(text string) bool {
	for _, m := range [...]string{`MODE="0666"`, `MODE="0777"`, `MODE="666"`, `MODE="0766"`, `MODE:="0666"`, `MODE="0606"`} {
		if strings.Contains(strings.ReplaceAll(text, " ", ""), m) {
			return true
		}
	}
	return false
}

// autostartDisabled reports sed only switching an autostart entry off
// (s/X-GNOME-Autostart-enabled=true/…=false/, Hidden=true).
func autostartDisabled(c *cmd) bool {
	subs := 0
	for _, w := range c.args() {
		from, to, ok := sedSubst(w.s)
		if !ok {
			continue
		}
		subs++
		l := lower(to)
		if !(strings.Contains(l, "autostart-enabled=false") || strings.Contains(l, "hidden=true")) || strings.Contains(lower(from), "exec") {
			return false
		}
	}
	return subs > 0
}

// provisioned reports a unit file or cron job installed from the
// project's own files (cp deploy/app.service /etc/systemd/system/), or a
// cron line that runs a program kept in a permanent place and does
// nothing the analysis stops: provisioning, not a foothold. What such
// content runs is still judged as installed content.
func (a *analysis) provisioned(c *cmd, t writeTarget) bool {
	switch t.content.kind {
	case flowLocal:
		if t.content.what == "" || c.name == "ln" || t.path == "" || strings.HasPrefix(t.path, "/home/") || a.home != "" && strings.HasPrefix(t.path, a.home+"/") ||
			strings.HasPrefix(t.path, "/etc/xdg/") {
			return false // (a desktop's autostart is no server's provisioning)
		}
		p := a.absPath(t.content.what, c.cwd)
		if p == "" || !a.inWork(p) || strings.Contains(p, "/.") || path.Base(p) != path.Base(t.path) {
			return false // renamed on the way in: not the file as shipped
		}
		first, _, _ := strings.Cut(p[len(a.workDir)+1:], "/")
		return deployDirs[first]
	case flowText:
		if t.class != wCron || t.content.partial || suspiciousJob(t.content.text) {
			return false
		}
		fields := 5
		if t.path == "/etc/anacrontab" {
			fields = 3
		}
		jobs := cronCommands(t.content.text, fields)
		if t.path == "/etc/crontab" || strings.HasPrefix(t.path, "/etc/cron.d/") {
			// the system's tables name the user before the command
			var b strings.Builder
			for _, line := range strings.Split(jobs, "\n") {
				if user, rest, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
					if user == "root" {
						return false // a job of root's, whatever it runs
					}
					b.WriteString(rest)
				}
				b.WriteByte('\n')
			}
			jobs = b.String()
		}
		sub := a.capture(func() { a.nested(jobs, "installed into "+t.path) })
		return sub == nil
	}
	return false
}

// deployDirs are the directories where projects keep what they install
// on servers: unit files, cron tables, packaging.
var deployDirs = map[string]bool{"deploy": true, "deployment": true, "packaging": true, "contrib": true, "systemd": true, "init": true,
	"ops": true, "infra": true, "debian": true, "dist": true, "etc": true, "provisioning": true}

// dynamicLeaf stands a path whose last element alone is computed
// (/etc/sudoers.d/$(whoami), /etc/cron.d/$NAME) for a file in its literal
// directory: whatever the name turns out to be, the write lands there.
func dynamicLeaf(w word) word {
	i := strings.IndexByte(w.s, '$')
	if i <= 0 || w.s[0] != '/' || strings.Contains(w.s[i:], "/") {
		return w
	}
	dir := w.s[:strings.LastIndexByte(w.s[:i], '/')+1]
	if len(dir) < 2 {
		return w
	}
	return lit(dir + "_")
}

var writerNames = map[string]bool{"tee": true, "cp": true, "install": true, "ln": true, "mv": true, "dd": true, "sed": true, "perl": true, "patchelf": true,
	"truncate": true, "curl": true, "wget": true, "sudoedit": true, "visudo": true, "vipw": true, "vigr": true, "sudo": true, "tar": true, "rsync": true}

// hookVars are variables whose value changes what every later shell or
// program runs or records: setting them in a start-up file is not a
// plain setting.
var hookVars = map[string]bool{"PROMPT_COMMAND": true, "BASH_ENV": true, "ENV": true, "NODE_OPTIONS": true,
	"PYTHONSTARTUP": true, "PYTHONPATH": true, "PERL5OPT": true, "PERL5LIB": true, "RUBYOPT": true, "RUBYLIB": true,
	"PS0": true, "PS1": true, "PS4": true, "TRAPDEBUG": true, "PAGER": true, "EDITOR": true, "VISUAL": true}

// plainSettings reports start-up text that only sets variables (and adds
// directories of the user's own to PATH) or defines aliases under new
// names: no command, no substitution, no hook, loader or proxy variable,
// no history setting other than a larger history, no alias that shadows
// a common command.
func (a *analysis) plainSettings(text string) bool {
	any := false
	for _, line := range settingLines(text) {
		if rest, ok := strings.CutPrefix(line, "alias "); ok {
			rest = strings.TrimSpace(rest)
			if n, v, ok := strings.Cut(rest, " "); ok && !strings.Contains(n, "=") {
				rest = n + "=" + strings.TrimSpace(v) // fish: alias ll "ls -la"
			}
			if !plainAlias(rest) {
				return false
			}
			any = true
			continue
		}
		if quietInit, ok := strings.CutSuffix(line, "> /dev/null"); ok && shellInitLine(strings.TrimSpace(quietInit)) {
			any = true // eval "$(ssh-agent -s)" > /dev/null
			continue
		}
		if plainHookFunction(line) {
			any = true // preexec(){ _t=$EPOCHSECONDS }, chpwd(){ ls -F }
			continue
		}
		if shellInitLine(line) {
			any = true // eval "$(mise activate zsh)": a version manager's hook
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		if f := strings.Fields(line); len(f) > 1 && !strings.ContainsAny(line, `"'$`) {
			// export HISTSIZE=100000 HISTFILESIZE=200000: each on its own
			all := true
			for _, x := range f {
				all = all && strings.Contains(x, "=")
			}
			if all {
				if !a.plainSettings(strings.Join(f, "\n")) {
					return false
				}
				any = true
				continue
			}
		}
		line = fishSetAsAssign(line)
		if dirs, ok := zshPathArray(line); ok {
			if !a.ownPathDirs(dirs) {
				return false
			}
			any = true
			continue
		}
		name, val, ok := strings.Cut(line, "=")
		if !ok || !isName(name) || strings.ContainsAny(val, "`;|&<>(") || strings.Contains(val, "$(") {
			return false
		}
		up := strings.ToUpper(name)
		if historyGrowth(up, val) || up == "HISTCONTROL" && dedupOnly(val) || (up == "EDITOR" || up == "VISUAL" || up == "PAGER") && plainProgram(val) {
			any = true
			continue
		}
		if agentOption(val) || (up == "RUSTC_WRAPPER" || up == "CARGO_BUILD_RUSTC_WRAPPER") && untrustedPlace(strings.Trim(val, `"'`)) {
			return false // a JVM agent or a toolchain wrapper runs in every later build
		}
		if promptVars[up] && !strings.Contains(val, "$(") && !strings.Contains(val, "`") {
			any = true // a prompt of escapes and text runs nothing
			continue
		}
		if hookVars[up] || commandVars[name] || strings.HasPrefix(up, "HIST") || strings.HasPrefix(up, "LD_") ||
			strings.HasPrefix(up, "DYLD_") || strings.HasSuffix(up, "_PROXY") || strings.HasPrefix(up, "GIT_") || strings.HasPrefix(up, "SSH_") {
			return false
		}
		if up == "PATH" && !a.ownPathDirs(val) {
			return false
		}
		if tlsCheckOffVar(up, strings.Trim(val, `"'`)) {
			return false // every later session trusts any certificate
		}
		if contextVars[up] && (isProdName(strings.Trim(val, `"'`)) || strings.Contains(lower(val), "admin")) {
			return false // every later shell acts on production (AWS_PROFILE=prod-admin)
		}
		any = true
	}
	return any
}

// contextVars choose the account, cluster or project every cloud and
// cluster client of a shell acts on.
var contextVars = map[string]bool{"AWS_PROFILE": true, "AWS_DEFAULT_PROFILE": true, "KUBECONFIG": true, "KUBECONTEXT": true, "KUBE_CONTEXT": true,
	"CLOUDSDK_ACTIVE_CONFIG_NAME": true, "CLOUDSDK_CORE_PROJECT": true, "GOOGLE_CLOUD_PROJECT": true, "AZURE_SUBSCRIPTION_ID": true,
	"ARM_SUBSCRIPTION_ID": true, "TF_WORKSPACE": true, "PULUMI_STACK": true, "DOCKER_HOST": true, "DOCKER_CONTEXT": true, "NOMAD_ADDR": true,
	"VAULT_ADDR": true, "DATABASE_URL": true, "PGHOST": true, "RAILS_ENV": true}

// plainSSHHosts reports ssh_config text of Host blocks that only name a
// host, its user, port and key and keep-alive settings: no command runs
// (ProxyCommand, LocalCommand, Match exec), no agent is forwarded and no
// host-key check is turned off.
func plainSSHHosts(text string) bool {
	hosts := false
	for _, line := range strings.Split(strings.ReplaceAll(text, `\n`, "\n"), "\n") {
		f := strings.Fields(strings.ReplaceAll(line, "=", " "))
		if len(f) == 0 {
			continue
		}
		switch strings.ToLower(f[0]) {
		case "host":
			hosts = true
		case "hostname", "user", "port", "identitiesonly", "serveraliveinterval", "serveralivecountmax", "compression",
			"addkeystoagent", "usekeychain", "connecttimeout", "preferredauthentications", "loglevel":
		case "identityfile":
			if len(f) < 2 || !strings.HasPrefix(f[1], "~/.ssh/") && !strings.HasPrefix(f[1], "%d/.ssh/") {
				return false
			}
		default:
			return false
		}
	}
	return hosts
}

// agentOption reports options that load code into every program they
// reach: a JVM agent, a native agent, Go's -toolexec.
func agentOption(v string) bool {
	return strings.Contains(v, "-javaagent:") || strings.Contains(v, "-agentpath:") || strings.Contains(v, "-agentlib:") || strings.Contains(v, "-toolexec")
}

// promptVars are the shells' prompt strings.
var promptVars = map[string]bool{"PS1": true, "PS2": true, "PROMPT": true, "RPROMPT": true, "RPS1": true}

// plainHookFunction reports a one-line function definition whose body
// only sets variables from plain values and shell parameters or lists
// and prints (zsh's preexec, precmd and chpwd hooks for a timer or a
// directory listing): it runs nothing else and reaches nothing.
func plainHookFunction(line string) bool {
	l := strings.TrimSpace(strings.TrimPrefix(line, "function "))
	i := strings.IndexByte(l, '{')
	j := strings.LastIndexByte(l, '}')
	if i <= 0 || j < i {
		return false
	}
	name := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l[:i]), "()"))
	if !isName(name) || commonCommands[name] || coreCommands[name] || strings.TrimSpace(l[j+1:]) != "" {
		return false
	}
	body := l[i+1 : j]
	if strings.ContainsAny(body, "`|&<>(){}") {
		return false
	}
	for _, stmt := range strings.Split(body, ";") {
		f := strings.Fields(stmt)
		if len(f) == 0 {
			continue
		}
		if n, _, ok := strings.Cut(f[0], "="); ok && isName(n) && len(f) == 1 {
			continue // _t=$EPOCHSECONDS
		}
		switch f[0] {
		case "ls", "echo", "print", "printf", "pwd", "true", ":", "date":
			continue
		}
		return false
	}
	return true
}

// fishSetAsAssign turns fish's set -gx NAME VALUE... into NAME=VALUE so
// that a fish start-up line is read like its sh spelling; other lines,
// and set with any other option (-e erases), come back unchanged.
func fishSetAsAssign(line string) string {
	f := strings.Fields(line)
	if len(f) < 3 || f[0] != "set" || !strings.HasPrefix(f[1], "-") || strings.Trim(f[1], "-gxUl") != "" || !isName(f[2]) {
		return line
	}
	return f[2] + "=" + strings.Join(f[3:], " ")
}

// dedupOnly reports a HISTCONTROL that only drops repeated lines, or
// lines typed with a leading space (ignoreboth, the default of Debian's
// and Ubuntu's .bashrc); history stays on.
func dedupOnly(val string) bool {
	for _, v := range strings.Split(strings.Trim(val, `"'`), ":") {
		switch v {
		case "ignoredups", "erasedups", "ignoreboth":
		default:
			return false
		}
	}
	return true
}

// tlsCheckOffVar reports an environment variable set to turn certificate
// checks off for the programs that read it.
func tlsCheckOffVar(name, val string) bool {
	switch name {
	case "NODE_TLS_REJECT_UNAUTHORIZED", "PYTHONHTTPSVERIFY":
		return val == "0"
	case "AZURE_CLI_DISABLE_CONNECTION_VERIFICATION", "HELM_INSECURE_SKIP_TLS_VERIFY":
		return val != "" && val != "0" && !strings.EqualFold(val, "false")
	case "ANSIBLE_HOST_KEY_CHECKING":
		// every host's key accepted, whoever answers
		l := strings.ToLower(val)
		return l == "false" || l == "0" || l == "no"
	case "GIT_SSL_NO_VERIFY", "CURL_INSECURE", "GONOSUMDB", "GOINSECURE", "GOFLAGS":
		return name != "GOFLAGS" && val != "" && val != "0" && val != "false" || name == "GOFLAGS" && strings.Contains(val, "-insecure")
	case "GOSUMDB":
		return val == "off"
	case "GOPRIVATE", "GONOSUMCHECK":
		// GOPRIVATE='*': no module checked against the checksum database
		return val == "*" || name == "GONOSUMCHECK" && val == "1"
	case "CONDA_SSL_VERIFY":
		l := strings.ToLower(val)
		return l == "false" || l == "0" || l == "no"
	case "BUNDLE_SSL_VERIFY_MODE":
		return val == "0"
	case "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "SSL_CERT_FILE":
		return val == ""
	case "PIP_TRUSTED_HOST", "UV_INSECURE_HOST":
		// '*', or the public index itself (pypi.org, its file host):
		// every package fetched without a certificate check
		l := strings.ToLower(val)
		return val == "*" || strings.Contains(l, "pypi.org") || strings.Contains(l, "pythonhosted.org")
	case "MAVEN_OPTS", "MAVEN_ARGS", "GRADLE_OPTS", "JAVA_TOOL_OPTIONS":
		// -Dmaven.wagon.http.ssl.insecure=true for every build it runs
		l := strings.ToLower(val)
		return strings.Contains(l, "maven.wagon.http.ssl.insecure=true") || strings.Contains(l, "maven.wagon.http.ssl.allowall=true") ||
			strings.Contains(l, "aether.connector.https.securitymode=insecure") || strings.Contains(l, "org.gradle.dependency.verification=off")
	case "DOCKER_HOST":
		// tcp://build01:2375: a remote Docker engine, root on its
		// machine, driven in clear and without authentication
		h := strings.TrimPrefix(strings.ToLower(val), "tcp://")
		return strings.HasPrefix(strings.ToLower(val), "tcp://") && strings.HasSuffix(h, ":2375") && !isLocalHost(strings.TrimSuffix(h, ":2375"))
	case "NPM_CONFIG_STRICT_SSL", "YARN_ENABLE_STRICT_SSL", "npm_config_strict_ssl", "DOTNET_NUGET_SIGNATURE_VERIFICATION":
		return val == "false" || val == "0"
	case "HOMEBREW_CASK_OPTS":
		return strings.Contains(val, "--no-quarantine") // Gatekeeper skips every app installed
	case "GIT_SSH_COMMAND", "RSYNC_RSH":
		// every server's host key accepted: a swapped server goes unnoticed
		l := strings.ToLower(val)
		return strings.Contains(l, "stricthostkeychecking=no") || strings.Contains(l, "userknownhostsfile=/dev/null")
	}
	return false
}

// settingLines splits start-up text into its statements: lines, and the
// parts of a line between semicolons outside quotes. Comments and blank
// statements are dropped.
func settingLines(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, splitOutsideQuotes(line, ';')...)
	}
	return out
}

// splitOutsideQuotes splits s at each sep outside single or double
// quotes, and returns the parts that are not blank, trimmed.
func splitOutsideQuotes(s string, sep byte) []string {
	var out []string
	var q byte
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			switch ch := s[i]; {
			case q != 0:
				if ch == q {
					q = 0
				}
				continue
			case ch == '\'' || ch == '"':
				q = ch
				continue
			case ch != sep:
				continue
			}
		}
		if part := strings.TrimSpace(s[start:i]); part != "" {
			out = append(out, part)
		}
		start = i + 1
	}
	return out
}

// plainAlias reports an alias definition (k=kubectl, gl='git log') that
// names a new command and expands to one plain command line.
func plainAlias(def string) bool {
	name, val, ok := strings.Cut(def, "=")
	if !ok || name == "" || commonCommands[name] || coreCommands[name] || strings.ContainsAny(name, "$`'\" /") {
		return false
	}
	if len(val) >= 2 && (val[0] == '\'' || val[0] == '"') && val[len(val)-1] == val[0] {
		val = val[1 : len(val)-1]
	}
	if val == "" || strings.ContainsAny(val, "`;|&<>(){}$'\"\\") {
		return false
	}
	first, arg, _ := strings.Cut(val, " ")
	if (first == "source" || first == ".") && venvActivate(arg) {
		return true // alias venv="source .venv/bin/activate"
	}
	switch first {
	case "sudo", "su", "doas", "curl", "wget", "nc", "ncat", "eval", "exec", "source", ".", "rm", "dd":
		return false
	}
	return !strings.Contains(first, "/")
}

// venvActivate reports a virtual environment's activation script named
// relative to the folder one is in (.venv/bin/activate, venv/bin/activate).
func venvActivate(p string) bool {
	dir, ok := strings.CutSuffix(p, "/bin/activate")
	return ok && dir != "" && !strings.ContainsAny(dir, "/~$ ") && dir != ".."
}

// plainProgram reports a setting naming a program found on PATH, with
// plain options at most (nvim, code --wait, less -R).
func plainProgram(val string) bool {
	val = strings.Trim(val, `"'`)
	f := strings.Fields(val)
	if len(f) == 0 || strings.ContainsAny(val, "/$`;|&<>()\\") || isShellName(f[0]) || scriptLangs[f[0]] != "" {
		return false
	}
	for _, x := range f[1:] {
		if !strings.HasPrefix(x, "-") {
			return false
		}
	}
	return true
}

// historyGrowth reports a setting that keeps more history (HISTSIZE=50000),
// never one that keeps less or none.
func historyGrowth(name, val string) bool {
	switch name {
	case "HISTSIZE", "SAVEHIST", "HISTFILESIZE":
	default:
		return false
	}
	n, err := strconv.Atoi(strings.Trim(val, `"'`))
	return err == nil && n >= 1000
}

// ownPathDirs reports a PATH value made of the old PATH and directories
// of the user's own that are not hidden (other than ~/.local and
// ~/.cargo, where tools install themselves).
func (a *analysis) ownPathDirs(val string) bool {
	for _, dir := range strings.Split(strings.Trim(val, `"'`), ":") {
		var rel string
		switch {
		case dir == "$PATH" || dir == "${PATH}":
			continue
		case strings.HasPrefix(dir, "$HOME/"):
			rel = dir[len("$HOME/"):]
		case strings.HasPrefix(dir, "${HOME}/"):
			rel = dir[len("${HOME}/"):]
		case strings.HasPrefix(dir, "~/"):
			rel = dir[2:]
		case a.home != "" && strings.HasPrefix(dir, a.home+"/"):
			rel = dir[len(a.home)+1:]
		default:
			return false
		}
		for i, seg := range strings.Split(rel, "/") {
			if strings.HasPrefix(seg, ".") && !(i == 0 && (seg == ".local" || seg == ".cargo")) {
				return false // a hidden directory of the home, other than the usual ones
			}
		}
	}
	return true
}

// negatedGlob rewrites the patterns that select everything but a few
// names into the plain glob they reach nearly all of: bash's !(x), zsh's
// ^x and *~x select every entry of the folder but x, and zsh's *.(ts|tsx)
// is *.{ts,tsx}. ok is false for any other word.
func negatedGlob(s string) (string, bool) {
	dir, last := "", s
	if i := strings.LastIndexByte(strings.TrimSuffix(s, "/"), '/'); i >= 0 {
		dir, last = s[:i+1], s[i+1:]
	}
	last = strings.TrimSuffix(last, "/")
	if strings.HasPrefix(last, "^") {
		last = stripGlobQualifier(last) // ^.git(D)
	}
	switch {
	case strings.HasPrefix(last, "!(") && strings.HasSuffix(last, ")"):
		return dir + "*", true
	case strings.HasPrefix(last, "^") && len(last) > 1:
		return dir + "*", true
	case strings.HasPrefix(last, "*~") && len(last) > 2:
		return dir + "*", true // (*~ alone: the editors' backup files)
	}
	if i := strings.Index(last, ".("); i >= 0 && strings.HasSuffix(last, ")") && strings.Contains(last[i:], "|") {
		return dir + last[:i] + ".{" + strings.ReplaceAll(last[i+2:len(last)-1], "|", ",") + "}", true
	}
	return "", false
}

// perlInPlace reports perl -i, alone or in a cluster of switches (-pi,
// -0pi, -i.bak, -lpi): the files named are rewritten.
func perlInPlace(args []word) bool {
	for _, w := range args {
		s := w.s
		if len(s) < 2 || s[0] != '-' || s[1] == '-' {
			continue
		}
		for i := 1; i < len(s); i++ {
			c := s[i]
			if c == 'i' {
				return true
			}
			if c == 'e' || c == 'E' || c == 'M' || c == 'm' || c == 'I' {
				break // the rest is an argument
			}
		}
	}
	return false
}

// vendorRepoSources are the hosts of software vendors' own package
// repositories, the ones their install guides add.
var vendorRepoSources = map[string]bool{"download.docker.com": true, "packages.microsoft.com": true, "apt.releases.hashicorp.com": true,
	"rpm.releases.hashicorp.com": true, "deb.nodesource.com": true, "rpm.nodesource.com": true, "dl.google.com": true,
	"packages.cloud.google.com": true, "pkgs.k8s.io": true, "cli.github.com": true, "apt.postgresql.org": true,
	"download.postgresql.org": true, "repo.mysql.com": true, "dl.yarnpkg.com": true, "deb.debian.org": true, "archive.ubuntu.com": true,
	"security.ubuntu.com": true, "repo.mongodb.org": true, "artifacts.elastic.co": true, "apt.grafana.com": true,
	"repos.influxdata.com": true, "download.opensuse.org": true, "dl.fedoraproject.org": true, "packages.adoptium.net": true}

// vendorRepoSource reports an APT or YUM source file whose written text
// points only at vendors' own repositories, with a signing key named.
func vendorRepoSource(t writeTarget) bool {
	if !strings.HasPrefix(t.path, "/etc/apt/sources.list.d/") && !strings.HasPrefix(t.path, "/etc/yum.repos.d/") ||
		t.content.kind != flowText || t.content.partial {
		return false
	}
	text := t.content.text
	if !strings.Contains(text, "signed-by=") && !strings.Contains(text, "gpgkey=") {
		return false
	}
	hosts := 0
	for _, f := range strings.Fields(text) {
		f = strings.TrimPrefix(strings.TrimPrefix(f, "baseurl="), "gpgkey=")
		if !strings.Contains(f, "://") {
			continue
		}
		if !strings.HasPrefix(f, "https://") || !vendorRepoSources[lower(hostOf(f))] {
			return false
		}
		hosts++
	}
	return hosts > 0
}

// perlCodeOption reports perl given its code by -e or -E, alone or at the
// end of a cluster (-ne, -pi -e, -lane).
func perlCodeOption(args []word) bool {
	for _, w := range args {
		if w.s == "--" {
			return false
		}
		if len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && isLetters(w.s[1:]) && strings.ContainsAny(w.s[1:], "eE") {
			return true
		}
	}
	return false
}

// artifactPatterns are the -name patterns of files a build or a tool
// leaves beside the sources, never the sources themselves.
var artifactPatterns = map[string]bool{"*.map": true, "*.js.map": true, "*.css.map": true, "*.pyc": true, "*.pyo": true, "*.py[co]": true, "*.py[cod]": true, "__pycache__": true,
	"*.o": true, "*.obj": true, "*.class": true, "*.tsbuildinfo": true, "*.log": true, "*.tmp": true, "*.orig": true, "*.rej": true,
	"*.swp": true, "*~": true, ".DS_Store": true, "*.bak": true, ".pytest_cache": true, ".mypy_cache": true, "*.gcda": true, "*.gcno": true,
	"*.coverage": true, ".coverage": true, "*.egg-info": true, "Thumbs.db": true, "*.xcuserstate": true, "xcuserdata": true}

// artifactsOnly reports a find -delete that only ever names build
// artifacts (find ./src -name '*.js.map' -delete): no negation, no test
// but -name, -type and depth limits.
func artifactsOnly(args []word, f *findSpec) bool {
	if len(f.names)+len(f.patterns) == 0 {
		return false
	}
	for _, n := range append(append([]string(nil), f.names...), f.patterns...) {
		if !artifactPatterns[n] {
			return false
		}
	}
	or := hasWord(args, "-o") || hasWord(args, "-or")
	for i := 0; i < len(args); i++ {
		switch w := args[i].s; {
		case !strings.HasPrefix(w, "-") && w != "(" && w != ")" && w != "!" && i < len(f.roots):
			// a root
		case w == "-type" && or:
			return false // -name '*.map' -o -type f: every file
		case w == "-name" || w == "-iname" || w == "-type" || w == "-maxdepth" || w == "-mindepth":
			i++
		case w == "-delete" || w == "-print" || w == "-o" || w == "-or" || w == "(" || w == ")":
		default:
			return false
		}
	}
	return true
}

// logToStdio reports ln -s of /dev/stdout or /dev/stderr over a log
// file: how container images send a server's log to the container's
// output.
func logToStdio(c *cmd) bool {
	if c.name != "ln" {
		return false
	}
	ops := c.operands()
	return len(ops) == 2 && (ops[0].s == "/dev/stdout" || ops[0].s == "/dev/stderr" || ops[0].s == "/proc/self/fd/1" || ops[0].s == "/proc/self/fd/2")
}

// backupCopyName reports a copy's name that is its source's with a
// backup suffix (.bak, .orig, .old, .save, ~), in the same folder.
func backupCopyName(src, dest string) bool {
	rest, ok := strings.CutPrefix(dest, src)
	if !ok || src == "" || strings.HasSuffix(src, "/") {
		return false
	}
	if rest == "~" {
		return true
	}
	for _, suf := range [...]string{".bak", ".orig", ".old", ".save", ".backup", "-bak", "_bak", ".pre-"} {
		if strings.HasPrefix(strings.ToLower(rest), suf) {
			return true
		}
	}
	return false
}
