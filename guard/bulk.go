package guard

import "strings"

// Destroying everything a listing printed. "docker rm $(docker ps -aq)",
// "kubectl get ns -o name | xargs kubectl delete", "for p in $(ps -e -o
// pid=); do kill -9 $p; done" and "git tag -d $(git tag -l)" name no target
// of their own: the targets are whatever the same program listed, which
// is every object it manages. The mechanism knows no program: a listing
// is a command whose leading words are a listing verb with no filter and
// at most one kind, and a bulk destruction is a command of the same
// program with a destroying verb whose operands come from that listing.

// listVerbs are the subcommands that print a collection.
var listVerbs = map[string]bool{"ls": true, "list": true, "get": true, "ps": true, "images": true}

// listFilters are the options that narrow a listing to some objects.
var listFilters = map[string]bool{"-l": true, "--selector": true, "--filter": true, "-f": true,
	"--field-selector": true, "--label": true, "--prefix": true, "--query": true}

// notCollections are programs whose listing verb lists files or names of
// the program itself, not objects it would destroy in bulk.
var notCollections = map[string]bool{"ls": true, "find": true, "fd": true, "dir": true, "echo": true, "printf": true,
	"go": true, "npm": true, "pnpm": true, "yarn": true, "pip": true, "pip3": true, "cargo": true, "brew": true, "apt": true,
	"dnf": true, "yum": true, "helm": true}

// bulkListWhat is the flow description of every object of program n.
func bulkListWhat(n string) string { return "every " + n + " object" }

// listsEverything reports what c lists when it prints every object of a
// collection: "every process" for ps -e, "every NAME object" for a
// program's unfiltered listing verb, "" otherwise.
func listsEverything(c *cmd) string {
	args := c.args()
	switch c.name {
	case "ps":
		for _, w := range args {
			s := w.s
			if s == "-A" || s == "aux" || s == "-aux" || s == "ax" || s == "-ax" || strings.HasPrefix(s, "-e") && len(s) <= 4 {
				return "every process"
			}
		}
		return ""
	case "pacman":
		// pacman -Qq: every installed package (-Qdt orphans and -Qm
		// foreign ones are a selection)
		for _, w := range args {
			if strings.HasPrefix(w.s, "-Q") && !strings.ContainsAny(w.s[2:], "dtmu") {
				return bulkListWhat("pacman")
			}
		}
		return ""
	case "git":
		if len(args) >= 1 && args[0].s == "tag" && (len(args) == 1 || len(args) == 2 && (args[1].s == "-l" || args[1].s == "--list")) {
			return bulkListWhat("git")
		}
		if len(args) >= 1 && args[0].s == "branch" && hasPrefixWord(args, "--format") && !hasWord(args, "--merged") {
			return bulkListWhat("git")
		}
		return ""
	}
	if c.name == "" || notCollections[c.name] && !(len(args) > 1 && credentialNoun(args[0].s)) { // npm token list lists tokens
		return ""
	}
	verb := -1
	for i, w := range args {
		if i > 3 {
			break
		}
		if strings.HasPrefix(w.s, "-") {
			if listFilters[w.s] || strings.HasPrefix(w.s, "--filter=") || strings.HasPrefix(w.s, "--selector=") || strings.HasPrefix(w.s, "-l=") {
				return ""
			}
			continue
		}
		if listVerbs[w.s] {
			verb = i
			break
		}
	}
	if verb < 0 {
		return ""
	}
	kinds := 0
	for _, w := range args[verb+1:] {
		if listFilters[w.s] || strings.HasPrefix(w.s, "--filter=") || strings.HasPrefix(w.s, "--selector=") || strings.HasPrefix(w.s, "-l=") || strings.HasPrefix(w.s, "--field-selector=") {
			return ""
		}
		if !w.ok {
			return ""
		}
		if !strings.HasPrefix(w.s, "-") {
			kinds++
		}
	}
	// "-o name" and "--format x" carry a value that is not a kind
	for i, w := range args[verb+1:] {
		if (w.s == "-o" || w.s == "--output" || w.s == "--format" || w.s == "-n" || w.s == "--namespace") && i+verb+2 < len(args) {
			kinds--
		}
	}
	if kinds > 1 || kinds == 1 && args[verb].s == "images" && (c.name == "docker" || c.name == "podman" || c.name == "nerdctl") {
		// (docker images acme-api: one repository's images, not a kind)
		return ""
	}
	return bulkListWhat(c.name)
}

// bulkDestroyVerbs are subcommands and options that destroy their operands.
var bulkDestroyVerbs = map[string]bool{"rm": true, "rmi": true, "delete": true, "del": true, "remove": true, "destroy": true,
	"drop": true, "kill": true, "purge": true, "uninstall": true, "-d": true, "-D": true, "--delete": true, "terminate": true,
	"revoke": true, "unpublish": true, "yank": true}

// bulkDestroyed reports the listing c destroys the objects of: c runs a
// destroying verb of the program that listed them (or kills every
// process).
func bulkDestroyed(c *cmd) (string, bool) {
	args := c.args()
	from := ""
	for _, w := range args {
		if w.flow != nil && w.flow.kind == flowList && strings.HasPrefix(w.flow.what, "every ") {
			from = w.flow.what
			break
		}
	}
	if from == "" {
		return "", false
	}
	if from == "every process" {
		return from, c.name == "kill" || c.name == "pkill"
	}
	if from != bulkListWhat(c.name) {
		return "", false
	}
	for i, w := range args {
		if i > 4 || w.flow != nil {
			break
		}
		if bulkDestroyVerbs[w.s] || c.name == "pacman" && strings.HasPrefix(w.s, "-R") {
			return from, true
		}
	}
	return "", false
}

// bulkFamily is the category a bulk destruction by program n falls in.
func bulkFamily(n string) string {
	switch n {
	case "git":
		return CategoryGitDestroy
	case "kill", "pkill":
		return CategorySystem
	case "aws", "gcloud", "az", "doctl", "gsutil", "s3cmd", "rclone", "terraform", "pulumi", "cli53", "linode-cli", "hcloud":
		return CategoryCloudDestroy
	case "psql", "mysql", "redis-cli", "mongo", "mongosh", "dropdb":
		return CategoryDatabaseDestroy
	}
	return CategoryContainerDestroy
}

// bulkRuleIDs are the rule of each category a bulk destruction falls in.
var bulkRuleIDs = map[string]string{CategoryContainerDestroy: "bulk-destroy-containers", CategoryCloudDestroy: "bulk-destroy-cloud",
	CategoryDatabaseDestroy: "bulk-destroy-databases", CategorySystem: "bulk-kill-processes", CategoryGitDestroy: "bulk-delete-refs"}

func bulkRule(id string, level DangerLevel, category string) *rule {
	return &rule{ID: id, Level: level, Category: category,
		Description: "destroying every object a listing printed (the targets are all of them)",
		Suggestions: []string{"Name the objects to remove", "Filter the listing to what you mean to remove and review it first"}}
}

// bulkDestroyRules: one generic rule looks at every command and reports
// the rule of the category the destruction falls in, so that commands pay
// for one look, not one per category.
var bulkDestroyRules = func() []*rule {
	rs := []*rule{
		bulkRule("bulk-destroy-containers", LevelHigh, CategoryContainerDestroy),
		bulkRule("bulk-destroy-cloud", LevelHigh, CategoryCloudDestroy),
		bulkRule("bulk-destroy-databases", LevelHigh, CategoryDatabaseDestroy),
		bulkRule("bulk-kill-processes", LevelHigh, CategorySystem),
		bulkRule("bulk-delete-refs", LevelModerate, CategoryGitDestroy),
	}
	rs[0].match = func(a *analysis, c *cmd) (bool, string) {
		from, ok := bulkDestroyed(c)
		if !ok {
			return false, ""
		}
		if cat := bulkFamily(c.name); cat != CategoryContainerDestroy {
			a.emit(c, ruleByID[bulkRuleIDs[cat]], from)
			return false, ""
		}
		return true, from
	}
	return rs
}()

func init() { ruleSets = append(ruleSets, bulkDestroyRules) }

// psSessionNouns are PowerShell nouns whose objects belong to the session
// itself (jobs, modules, variables): removing all of them loses nothing.
var psSessionNouns = map[string]bool{"job": true, "pssession": true, "module": true, "variable": true, "alias": true,
	"psdrive": true, "event": true, "eventsubscriber": true, "typedata": true, "runspace": true, "psbreakpoint": true,
	"item": true, "childitem": true, "content": true, "location": true, "date": true, "command": true, "help": true,
	"member": true, "history": true, "host": true, "culture": true, "uiculture": true, "random": true, "credential": true}

// psNoun is the noun of a Verb-Noun cmdlet name, lower case.
func psNoun(name string) (verb, noun string) {
	v, n, ok := strings.Cut(name, "-")
	if !ok {
		return "", ""
	}
	return v, n
}

// psListsEverything is the output of Get-NOUN with no argument: every
// object of that kind, or of a kind reached from every object of another
// (Get-VM | Get-VMSnapshot).
func psListsEverything(c *cmd) (flow, bool) {
	verb, noun := psNoun(c.name)
	if verb != "get" || psSessionNouns[noun] {
		return flow{}, false
	}
	for _, w := range c.args() {
		if !strings.HasPrefix(w.s, "-") || listFilters[strings.ToLower(w.s)] {
			return flow{}, false
		}
	}
	switch {
	case c.in.kind == flowNone:
	case c.in.kind == flowList && strings.HasPrefix(c.in.what, "every "):
	default:
		return flow{}, false
	}
	return flow{kind: flowList, what: "every " + noun}, true
}

// psBulkRemoves reports whether c is Remove-NOUN (or Uninstall-, Clear-)
// with no target of its own, fed every object of a kind.
func psBulkRemoves(c *cmd) bool {
	verb, noun := psNoun(c.name)
	if verb != "remove" && verb != "uninstall" || psSessionNouns[noun] {
		return false
	}
	if c.in.kind != flowList || !strings.HasPrefix(c.in.what, "every ") || c.in.what == "every process" || c.in.what == "every service" {
		return false
	}
	for _, w := range c.args() {
		if !strings.HasPrefix(w.s, "-") {
			return false
		}
		switch strings.ToLower(w.s) {
		case "-name", "-id", "-whatif", "-path", "-literalpath":
			return false
		}
	}
	return true
}
