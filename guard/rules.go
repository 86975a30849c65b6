package guard

import (
	"sort"
	"strings"
	"sync"
)

// rule is one built-in danger rule. Rules are dispatched by command name
// (the canonical name after unwrapping); rules without names run on every
// command. A rule without a match function is reported by the analysis
// itself (for example when content installed into a crontab is malicious).
type rule struct {
	ID          string
	Level       DangerLevel
	Category    string
	Description string
	Suggestions []string
	names       []string
	match       func(a *analysis, c *cmd) (bool, string)
	// prodAware rules already take production targets into account; the
	// others are raised one level when they touch production.
	prodAware bool
	// writes rules look only at the files a command writes.
	writes bool
	// devOwn rules judge the developer's own data: a file named for
	// development (compose.dev.yml) does not make it a test's throwaway.
	devOwn bool
	// fallback rules run after a command's other rules, the generic ones
	// included, and only when none of them found as much: the others say
	// it more precisely (a drop site's upload of credentials is the
	// credentials' leak).
	fallback bool
	// partial rules judge one kind of a program's deletes only: the
	// generic clients' rules still judge the rest of what it deletes.
	partial bool
}

var (
	rulesOnce   sync.Once
	allRules    []*rule
	ruleByID    map[string]*rule
	rulesByName map[string][]*rule
	// ownsDestroy holds the programs with a rule of their own that judges
	// what they delete: the generic clients' rules leave those to it
	ownsDestroy map[string]bool
	genericRule []*rule
)

// ruleSets are the rule tables; each file of rules adds its table here.
var ruleSets [][]*rule

func initRules() {
	rulesOnce.Do(func() {
		ruleByID = make(map[string]*rule)
		rulesByName = make(map[string][]*rule)
		ownsDestroy = make(map[string]bool)
		for _, set := range ruleSets {
			for _, r := range set {
				if _, dup := ruleByID[r.ID]; dup {
					panic("guard: duplicate rule " + r.ID)
				}
				if len(r.Suggestions) == 0 || r.Description == "" {
					panic("guard: rule " + r.ID + " lacks a description or suggestions")
				}
				allRules = append(allRules, r)
				ruleByID[r.ID] = r
				if r.match == nil {
					continue
				}
				if len(r.names) == 0 {
					genericRule = append(genericRule, r)
				}
				for _, n := range r.names {
					rulesByName[n] = append(rulesByName[n], r)
					if r.partial {
						continue
					}
					switch r.Category {
					case CategoryCloudDestroy, CategoryDatabaseDestroy, CategoryContainerDestroy, CategoryFileDelete, CategoryGitDestroy:
						ownsDestroy[n] = true
					}
				}
			}
		}
	})
}

// RuleInfo describes a built-in rule.
type RuleInfo struct {
	ID          string
	Level       DangerLevel
	Category    string
	Description string
	Suggestions []string
	// Commands are the command names the rule looks at; empty means every
	// command.
	Commands []string
}

// Rules lists the built-in rules, sorted by category and ID.
func Rules() []RuleInfo {
	initRules()
	out := make([]RuleInfo, 0, len(allRules))
	for _, r := range allRules {
		out = append(out, RuleInfo{ID: r.ID, Level: r.Level, Category: r.Category, Description: r.Description,
			Suggestions: append([]string(nil), r.Suggestions...), Commands: append([]string(nil), r.names...)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Category != out[j].Category {
			return out[i].Category < out[j].Category
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// finding is one rule that matched.
type finding struct {
	id          string
	level       DangerLevel
	category    string
	reason      string // see text
	suggestions []string
	op          string
	// note and prod complete the reason (text); a rule's finding keeps
	// them apart so that the text is written only for what is reported
	note string
	prod bool
}

// text is the finding's reason: the rule's, what it noted, and whether a
// production target raised it.
func (f *finding) text() string {
	switch {
	case f.note != "" && f.prod:
		return f.reason + ": " + f.note + " (production)"
	case f.note != "":
		return f.reason + ": " + f.note
	case f.prod:
		return f.reason + " (production)"
	}
	return f.reason
}

func (f *finding) verdict() Verdict {
	return Verdict{Level: f.level, Category: f.category, Reason: f.text(), Pattern: f.id,
		Suggestions: f.suggestions, Operation: f.op}
}

// judge runs the rules that apply to c.
func (a *analysis) judge(c *cmd) {
	if a.inert(c) {
		return
	}
	named := rulesByName[c.name]
	for i, w := range c.words {
		if w.s == "--" {
			break // what follows is an operand or a script's own argument
		}
		// --help, --version: only prints usage (dotnet add package X
		// --version 13.0.3 gives a value: the command runs)
		if w.s == "--help" || w.s == "--version" && (i+1 == len(c.words) || strings.HasPrefix(c.words[i+1].s, "-")) {
			named = nil
			break
		}
	}
	if named != nil && dryRun(c) {
		named = nil // only shows what it would do
	}
	if c.name == "aws" && len(c.words) > 2 && c.words[len(c.words)-1].s == "help" {
		named = nil // aws SERVICE COMMAND help: the command's manual page
	}
	fallbacks := false
	for _, r := range named {
		if r.fallback {
			fallbacks = true
			continue // after every other rule
		}
		a.try(c, r)
		if a.stop {
			return
		}
	}
	mayWrite := len(c.redirs) > 0 || writerNames[c.name]
	for _, r := range genericRule {
		if r.writes && !mayWrite {
			if a.explain {
				c.results = append(c.results, RuleResult{ID: r.ID, Level: r.Level, Category: r.Category, Generic: true})
			}
			continue
		}
		if !a.explain && a.best != nil && r.Level+1 <= a.best.level {
			continue // cannot beat what was found, even against production
		}
		if hit, note := r.match(a, c); hit {
			a.emit(c, r, note)
			if a.stop {
				return
			}
		} else if a.explain {
			c.results = append(c.results, RuleResult{ID: r.ID, Level: r.Level, Category: r.Category, Generic: true})
		}
	}
	for _, r := range named {
		if !fallbacks || !r.fallback || a.best != nil && a.best.level >= r.Level && !a.explain {
			continue // (none, or said already, more precisely)
		}
		a.try(c, r)
		if a.stop {
			return
		}
	}
	if len(a.d.opts.Patterns) > 0 && (len(c.words) > 0 || c.synthetic != "") {
		line := c.line()
		for i := range a.d.opts.Patterns {
			p := &a.d.opts.Patterns[i]
			if p.Pattern == nil {
				continue
			}
			hit := p.Pattern.MatchString(line)
			if a.explain {
				c.results = append(c.results, RuleResult{ID: "pattern:" + p.Pattern.String(), Level: p.Level, Category: p.Category, Matched: hit})
			}
			if hit {
				cat := p.Category
				if cat == "" {
					cat = "custom"
				}
				a.add(finding{id: p.Pattern.String(), level: p.Level, category: cat, reason: p.Description,
					suggestions: p.Suggestions, op: c.opText()})
			}
		}
	}
}

// inert reports a command that can only print text the line itself
// holds: echo or printf of literal words (none shaped like a token),
// nothing redirected, piped, captured or wrapped. No rule can find more
// in it, and a chain of ten thousand of them was most of a long input's
// cost.
func (a *analysis) inert(c *cmd) bool {
	switch c.name {
	case "echo", "printf", "true", ":":
	default:
		return false
	}
	if len(c.redirs) > 0 || c.pipe != nil || a.piped || a.wantOut > 0 || len(c.assigns) > 0 || len(c.wrappers) > 0 || c.synthetic != "" ||
		c.remote || c.asRoot || a.explain || len(a.d.opts.Patterns) > 0 {
		return false
	}
	for _, w := range c.words {
		if !w.ok || w.flow != nil || w.glob || w.find != nil || tokenShaped(w.s) {
			return false
		}
	}
	return true
}

// dryRunFlags are the options with which a tool only reports what it
// would do. Tools that have no such option (rm, dd, mkfs) are absent:
// they do not honour it.
var dryRunFlags = map[string][]string{
	"kubectl": {"--dry-run", "--dry-run=client", "--dry-run=server"}, "oc": {"--dry-run", "--dry-run=client", "--dry-run=server"},
	"helm": {"--dry-run", "--dry-run=client", "--dry-run=server"}, "rsync": {"-n", "--dry-run"},
	"git": {"-n", "--dry-run", "--analyze"}, "aws": {"--dryrun", "--dry-run"}, "dotnet": {"--dry-run"}, "rclone": {"--dry-run", "-n"},
	"docker": {"--dry-run"}, "docker-compose": {"--dry-run"}, "apt": {"-s", "--simulate", "--dry-run", "--just-print", "--no-act"},
	"apt-get": {"-s", "--simulate", "--dry-run", "--just-print", "--no-act", "--recon"}, "dnf": {"--assumeno"}, "yum": {"--assumeno"},
	"npm": {"--dry-run"}, "pnpm": {"--dry-run"}, "yarn": {"--dry-run"}, "cargo": {"--dry-run", "-n"},
	"alembic": {"--sql"}, "ansible": {"--check", "-C"}, "ansible-playbook": {"--check", "-C"}, "make": {"-n", "--dry-run", "--just-print", "--recon"},
	"restic": {"--dry-run", "-n"}, "borg": {"--dry-run", "-n"}, "argocd": {"--dry-run"}, "flux": {"--dry-run"}, "wrangler": {"--dry-run"},
	"terraform": {"-dry-run"}, "s3cmd": {"--dry-run", "-n"}, "gsutil": {"-n"}, "mc": {"--dry-run"}, "az": {"--dry-run"},
	"gcloud": {"--dry-run"}, "git-filter-repo": {"--dry-run"}, "lvremove": {"--test", "-t"}, "kustomize": {"--dry-run"},
	"pulumi": {"--preview-only"}, "find": {}, "journalctl": {}, "zfs": {"-n"}, "gh": {"--dry-run"}, "eksctl": {"--dry-run"},
	"ufw": {"--dry-run"}, "bq": {"--dry_run", "--dry_run=true"}, "mongorestore": {"--dryRun"},
}

// dryRun reports a command run with its tool's dry-run option.
func dryRun(c *cmd) bool {
	flags := dryRunFlags[c.name]
	if len(flags) == 0 {
		return false
	}
	for _, w := range c.args() {
		if !w.ok {
			continue
		}
		for _, f := range flags {
			if w.s == f {
				return true
			}
			// a short flag inside a cluster: rsync -avn
			if len(f) == 2 && f[0] == '-' && len(w.s) > 2 && w.s[0] == '-' && w.s[1] != '-' && isLetters(w.s[1:]) &&
				strings.IndexByte(w.s[1:], f[1]) >= 0 && (c.name == "rsync" || c.name == "git" || c.name == "make") {
				return true
			}
		}
	}
	return false
}

func (a *analysis) try(c *cmd, r *rule) {
	hit, note := r.match(a, c)
	if a.explain && !hit {
		c.results = append(c.results, RuleResult{ID: r.ID, Level: r.Level, Category: r.Category, Generic: len(r.names) == 0})
	}
	if hit {
		a.emit(c, r, note)
	}
}

// emit reports that rule r matched c.
func (a *analysis) emit(c *cmd, r *rule, note string) {
	if r == nil || c.dryRun {
		return
	}
	if !a.explain && a.best != nil && r.Level+1 <= a.best.level {
		return // cannot beat what was found, even against production
	}
	switch r.Category {
	case CategoryCloudDestroy, CategoryContainerDestroy, CategoryDatabaseDestroy, CategoryFileDelete, CategoryGitDestroy:
		if dryRun(c) {
			return // mc rm --recursive --force --dry-run: a dry run deletes nothing
		}
	}
	if a.throwaway > 0 {
		switch r.Category {
		case CategorySystem, CategoryPrivilege, CategoryPersistence, CategoryHistoryTamper, CategoryPermission:
			return // a test machine's or a local container's own settings
		}
	}
	if a.sealed > 0 {
		switch r.Category {
		case CategoryFileDelete, CategoryDiskWipe, CategoryPermission, CategoryHistoryTamper, CategoryPersistence:
			// docker run --rm alpine sh -c 'chmod -R 777 /srv/data': the
			// new container's own files (what it serves to the network
			// is still judged)
			return
		}
	}
	switch r.Category {
	case CategoryCloudDestroy, CategoryPermission, CategorySystem, CategoryExfiltration, CategoryPrivilege:
		if revokesBroadAccess(c) {
			return // an owner role, a public grant or an open rule taken away: access narrowed
		}
	}
	level := r.Level
	prod := false
	switch r.Category {
	case CategoryContainerDestroy, CategoryDatabaseDestroy, CategoryGitDestroy, CategoryCloudDestroy:
		// databases, volumes, repositories and cloud resources that only
		// tests or throwaway work use
		if a.testScoped(c) && !(r.devOwn && devFilesOnly(c)) {
			return
		}
		// a developer's local database: what they built up in it is
		// their own work lost (moderate), unless the line loads its seed
		// data again
		if r.Category == CategoryDatabaseDestroy && r.Level < LevelCritical && localDevScoped(c) {
			if !wipesWholeDatabase(r) && reseeded(a.src) {
				return // some tables emptied and loaded again (TRUNCATE ...; npm run seed)
			}
			if (r.ID == "db-delete-all" || r.ID == "db-truncate") && ephemeralTables(note) {
				return // DELETE FROM sessions: logins and caches, made again as they are used
			}
			level = LevelModerate
		}
	}
	if r.Category == CategoryContainerDestroy && level > LevelModerate && a.localCluster(c) {
		// a cluster on this machine (kind delete cluster --name
		// prod-replica, kubectl --context kind-dev delete pvc --all): the
		// developer's own work lost, whatever the names say
		level = LevelModerate
	}
	if r.Category == CategoryDatabaseDestroy && level > LevelModerate && sharedDevServer(c) {
		// a team's development server: their data, not production's
		level = LevelModerate
	}
	switch r.Category {
	case CategoryCloudDestroy, CategoryContainerDestroy, CategoryDatabaseDestroy:
		// the same operation against production is one level worse
		if level < LevelCritical && !r.prodAware && (touchesProduction(c) || a.prodTarget > 0) {
			level++
			prod = true
		}
	case CategoryFileDelete, CategoryGitDestroy:
		// files deleted on a production server or in a production pod
		if level < LevelCritical && a.prodTarget > 0 && !r.prodAware {
			level++
			prod = true
		}
	}
	if a.explain {
		c.results = append(c.results, RuleResult{ID: r.ID, Level: level, Category: r.Category, Matched: true, Detail: note, Generic: len(r.names) == 0})
	} else if a.best != nil && level <= a.best.level {
		return // add would keep the earlier finding
	}
	op := c.opText()
	switch r.Category {
	case CategoryRemoteExec, CategoryReverseShell, CategoryExfiltration:
		if c.pipe != nil {
			op = pipelineText(c.pipe)
		}
	}
	a.add(finding{id: r.ID, level: level, category: r.Category, reason: r.Description, note: note, prod: prod, suggestions: r.Suggestions, op: op})
}

func (a *analysis) add(f finding) {
	if a.explain {
		a.all = append(a.all, f)
	}
	if a.best == nil || f.level > a.best.level {
		a.best = a.newFinding(f)
		if f.level >= LevelCritical && !a.explain {
			a.stop = true
		}
	}
}

// pipelineText renders a pipeline's stages.
func pipelineText(stages []*cmd) string {
	var b strings.Builder
	for i, s := range stages {
		if i > 0 {
			b.WriteString(" | ")
		}
		switch {
		case s == nil:
		case s.synthetic != "":
			b.WriteString("(...)")
		default:
			b.WriteString(s.opText())
		}
	}
	return b.String()
}

// --- helpers for rules ---

// opts scans a command's options up to "--": short letters and long
// names (without "=value").
type opts struct {
	short [128]bool
	long  []string
}

func (c *cmd) opts() opts {
	var o opts
	for _, w := range c.args() {
		s := w.s
		if s == "--" {
			break
		}
		if strings.HasPrefix(s, "--") {
			name, _, _ := strings.Cut(s[2:], "=")
			o.long = append(o.long, name)
			continue
		}
		if len(s) > 1 && s[0] == '-' {
			for i := 1; i < len(s); i++ {
				if s[i] < 128 {
					o.short[s[i]] = true
				}
			}
		}
	}
	return o
}

func (o *opts) has(short string, long ...string) bool {
	for i := 0; i < len(short); i++ {
		if o.short[short[i]] {
			return true
		}
	}
	for _, l := range long {
		for _, x := range o.long {
			if x == l {
				return true
			}
		}
	}
	return false
}

// plainWords returns the words of low that are not options (the
// subcommands and operands of a client whose option values never come
// first), a new slice.
func plainWords(low []string) []string {
	var out []string
	for _, l := range low {
		if !strings.HasPrefix(l, "-") {
			out = append(out, l)
		}
	}
	return out
}

// positional returns the non-option words; after "--" every word is one.
// optionWord reports an option: a word starting with a dash, resolved,
// or a long option whose value alone is unknown (--endpoints=$ADDR).
func optionWord(w word) bool {
	if len(w.s) < 2 || w.s[0] != '-' {
		return false
	}
	if w.ok {
		return true
	}
	if len(w.s) < 4 || w.s[1] != '-' {
		return false
	}
	eq := strings.IndexByte(w.s, '=')
	if eq < 3 {
		return false
	}
	for i := 2; i < eq; i++ {
		if c := w.s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func positional(args []word) []word {
	plain := true
	for _, w := range args {
		if optionWord(w) {
			plain = false
			break
		}
	}
	if plain {
		return args[:len(args):len(args)] // an append copies
	}
	// options first and operands after them (rm -rf a b): the operands
	// are the tail of args
	n := len(args)
	k := 0
	for k < n && args[k].s != "--" && optionWord(args[k]) {
		k++
	}
	if k < n && args[k].s == "--" {
		k++
	} else {
		for _, w := range args[k:] {
			if w.s == "--" || optionWord(w) {
				k = -1 // options among the operands
				break
			}
		}
	}
	if k == n {
		return nil
	}
	if k >= 0 {
		return args[k:n:n]
	}
	out := make([]word, 0, len(args)) // one allocation: this runs for dozens of rules
	dash := false
	for _, w := range args {
		if !dash && w.s == "--" {
			dash = true
			continue
		}
		if !dash && optionWord(w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// optValue returns the value of an option written "-x V", "-xV",
// "--long V" or "--long=V".
func optValue(args []word, short string, long ...string) (string, bool) {
	for i, w := range args {
		s := w.s
		if s == "--" {
			break
		}
		if len(s) > 2 && s[0] == '-' && s[1] == '-' {
			// (compared in place: building "--"+l for every word of every
			// command was a share of the time of a decision)
			body := s[2:]
			for _, l := range long {
				if !strings.HasPrefix(body, l) {
					continue
				}
				if len(body) == len(l) && i+1 < len(args) {
					return args[i+1].s, true
				}
				if len(body) > len(l) && body[len(l)] == '=' {
					return body[len(l)+1:], true
				}
			}
		}
		if short != "" {
			if s == short && i+1 < len(args) {
				return args[i+1].s, true
			}
			if len(short) == 2 && strings.HasPrefix(s, short) && len(s) > 2 && !strings.HasPrefix(s, "--") {
				return s[2:], true
			}
			// a cluster of flags ending with the option: -ou 0
			if len(short) == 2 && len(s) > 2 && s[0] == '-' && s[1] != '-' && s[len(s)-1] == short[1] && i+1 < len(args) && isLetters(s[1:]) {
				return args[i+1].s, true
			}
		}
	}
	return "", false
}

func lower(s string) string { return strings.ToLower(s) }

func names(n ...string) []string { return n }

// judgeScan runs the interpreter-code rules after a late script scan.
func (a *analysis) judgeScan(c *cmd) {
	for _, r := range rulesByName[c.name] {
		switch r.ID {
		case "remote-code-exec", "revshell-script", "exfil-script", "fork-bomb-script":
			a.try(c, r)
		}
	}
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !(s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
			return false
		}
	}
	return true
}

// reseeded reports a line that loads seed data after what it empties.
func reseeded(src string) bool {
	l := lower(src)
	return strings.Contains(l, "seed") || strings.Contains(l, "fixtures") || strings.Contains(l, "loaddata")
}

// wipesWholeDatabase reports a rule that finds a whole database or schema
// emptied (dropped, cleaned, migrated back to nothing, reset by its
// framework) rather than some of its tables.
// ephemeralTables reports a statement's tables that all hold what an
// application makes again as it runs (sessions, caches, queued jobs).
func ephemeralTables(stmt string) bool {
	f := strings.Fields(strings.ToLower(stmt))
	if len(f) < 3 {
		return false
	}
	for _, t := range strings.Split(strings.Join(f[2:], ""), ",") {
		t = strings.Trim(t, "`\"'[];")
		switch t {
		case "sessions", "session", "django_session", "cache", "cache_entries", "cache_locks", "jobs", "failed_jobs", "job_batches":
		default:
			return false
		}
	}
	return true
}

func wipesWholeDatabase(r *rule) bool {
	switch r.ID {
	case "db-drop-database", "db-dropdb", "db-framework-drop", "db-migrate-to-zero", "schema-tool-reset", "db-url-destroy", "db-wipe-raw-protocol", "db-restore-over":
		return true
	}
	return false
}
