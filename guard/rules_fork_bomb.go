package guard

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Rules for exhausting processes (category fork_bomb).
var forkBombRules = []*rule{
	{ID: "scale-runaway", Level: LevelHigh, Category: CategoryForkBomb, Description: "scaling a service or job to thousands of copies (it exhausts the cluster or the bill)",
		Suggestions: []string{"Scale in small steps and watch the load", "Set an autoscaler with a maximum instead"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if n := hugeReplicas(c.args(), c.lowerArgs()); n != "" {
				return true, n
			}
			return false, ""
		}},
	{ID: "fork-bomb-source", Level: LevelHigh, Category: CategoryForkBomb, Description: "writing fork-bomb code to a file",
		Suggestions: []string{"Do not create fork bombs", "Bound the number of processes"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.redirs) == 0 && c.name != "tee" {
				return false, ""
			}
			for _, t := range a.writeTargets(c) {
				if t.content.kind == flowText && forkBombText(strings.ToLower(t.content.text)) {
					return true, t.raw
				}
			}
			return false, ""
		}},
	{ID: "mass-spawn", Level: LevelModerate, Category: CategoryForkBomb, Description: "starting thousands of processes at once",
		Suggestions: []string{"Bound the parallelism (xargs -P 8)", "Use a job queue"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.synthetic == "spawn" {
				return true, ""
			}
			if !c.xargs && c.name != "parallel" {
				return false, ""
			}
			ws := c.words
			if c.xargs {
				ws = nil
				for _, w := range c.wrappers {
					for _, f := range strings.Fields(w) {
						ws = append(ws, lit(f))
					}
				}
			}
			for i, w := range ws {
				if w.s == "-P0" || w.s == "--max-procs=0" || w.s == "--jobs=0" {
					return true, w.s
				}
				if (w.s == "-P" || w.s == "--max-procs" || w.s == "-j" || w.s == "--jobs") && i+1 < len(ws) && ws[i+1].s == "0" {
					return true, "unbounded"
				}
			}
			return false, ""
		}},
	{ID: "endless-input-buffered", Level: LevelHigh, Category: CategoryForkBomb, Description: "a program that holds its whole input reading an endless device (memory runs out)",
		Suggestions: []string{"Read a bounded amount (head -c 1M /dev/urandom)", "Stream instead of buffering"}, names: names("sort", "tac", "shuf", "tail", "jq", "rev", "gsort"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "tail" && (hasPrefixWord(args, "-f") || hasWord(args, "-F") || hasPrefixWord(args, "--follow")) {
				return false, "" // follows what is added; holds nothing
			}
			if c.name == "jq" && !hasWord(args, "-s") && !hasWord(args, "--slurp") {
				return false, ""
			}
			if dev := endlessInput(c); dev != "" {
				return true, dev
			}
			return false, ""
		}},
	{ID: "make-unbounded-jobs", Level: LevelModerate, Category: CategoryForkBomb, Description: "a parallel build without a job limit (every target's compiler at once)",
		Suggestions: []string{"Give -j a bound (make -j\"$(nproc)\")"}, names: names("make", "gmake"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			for i, w := range args {
				if w.s == "--jobs" || w.s == "-j" {
					if i+1 >= len(args) || !allDigits(args[i+1].s) && args[i+1].ok {
						return true, w.s // no number: no limit
					}
					if n := args[i+1].s; allDigits(n) && len(n) >= 4 {
						return true, w.s + " " + n
					}
				}
				if n, ok := strings.CutPrefix(w.s, "-j"); ok && allDigits(n) && len(n) >= 4 {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "fork-bomb-function", Level: LevelCritical, Category: CategoryForkBomb, Description: "a fork bomb: a function that keeps spawning copies of itself",
		Suggestions: []string{"Do not run fork bombs", "Limit processes with ulimit -u when testing"}, names: names("<function>"),
		match: func(a *analysis, c *cmd) (bool, string) { return c.forkBomb, "" }},
	{ID: "fork-bomb-loop", Level: LevelCritical, Category: CategoryForkBomb, Description: "an endless loop spawning background processes",
		Suggestions: []string{"Add a sleep and a bound to the loop", "Limit processes with ulimit -u when testing"}, names: names("<loop>"),
		match: func(a *analysis, c *cmd) (bool, string) { return c.forkBomb, "" }},
	{ID: "fork-bomb-compiled", Level: LevelCritical, Category: CategoryForkBomb, Description: "compiling source that forks without end",
		Suggestions: []string{"Do not build fork bombs", "Bound the number of processes"}, names: names("cc", "gcc", "clang", "tcc", "g++", "c++", "clang++", "go", "rustc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.in.kind == flowText && forkBombText(strings.ToLower(c.in.text)) {
				return true, truncate(c.in.text, 80)
			}
			return false, ""
		}},
	{ID: "fork-bomb-script", Level: LevelCritical, Category: CategoryForkBomb, Description: "interpreter code forking without end",
		Suggestions: []string{"Do not run fork bombs", "Bound the number of processes"}, names: interpNames,
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.scan != nil && c.scan.forkBomb != "" {
				return true, c.scan.forkBomb
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, forkBombRules) }

// endlessDevices never reach the end of their data.
var endlessDevices = map[string]bool{"/dev/zero": true, "/dev/urandom": true, "/dev/random": true, "/dev/full": true}

// endlessInput returns the endless device c reads: an operand, a
// redirection, or a pipe from cat, pv or yes.
func endlessInput(c *cmd) string {
	for _, w := range c.operands() {
		if endlessDevices[w.s] {
			return w.s
		}
	}
	for _, r := range c.redirs {
		if r.op == syntax.RdrIn && endlessDevices[r.w.s] {
			return r.w.s
		}
	}
	if c.pipe != nil && c.stage > 0 {
		prev := c.pipe[c.stage-1]
		if prev != nil && prev.synthetic == "" {
			switch prev.name {
			case "yes":
				return "yes"
			case "cat", "pv":
				for _, w := range positional(prev.args()) {
					if endlessDevices[w.s] {
						return w.s
					}
				}
			}
		}
	}
	return ""
}

// hugeReplicas reports a replica, instance or task count of a thousand
// or more given to any client (--replicas=10000, scale api=5000); low
// are the arguments in lower case.
func hugeReplicas(args []word, low []string) string {
	for i, w := range args {
		l := low[i]
		name, val, eq := strings.Cut(l, "=")
		if !eq && strings.HasPrefix(l, "-") && i+1 < len(args) {
			val = args[i+1].s
		}
		if !strings.HasPrefix(name, "-") {
			// scale web=5000
			if !eq || i == 0 || low[i-1] != "scale" && (i < 2 || low[i-2] != "scale") {
				continue
			}
		} else {
			n := strings.TrimLeft(name, "-")
			if n != "replicas" && n != "instances" && n != "desired-count" && n != "min-instances" && n != "scale" {
				continue
			}
		}
		if len(val) >= 4 && strings.Trim(val, "0123456789") == "" {
			return w.s
		}
	}
	return ""
}

// pilesUp reports a command that, run again and again by an endless loop,
// leaves something more behind each time: a detached container (docker
// run -d returns at once, as & does), or a file or folder whose name
// changes with a variable (touch /tmp/f$i), until the inodes run out.
func pilesUp(call *syntax.CallExpr) bool {
	if len(call.Args) < 2 {
		return false
	}
	switch path.Base(call.Args[0].Lit()) {
	case "docker", "podman", "nerdctl":
		if len(call.Args) < 3 || call.Args[1].Lit() != "run" && call.Args[1].Lit() != "start" {
			return false
		}
		for _, a := range call.Args[2:] {
			if l := a.Lit(); l == "--detach" || l == "-d" || len(l) > 2 && l[0] == '-' && l[1] != '-' && strings.ContainsRune(l, 'd') && isLetters(l[1:]) {
				return true
			}
		}
	case "touch", "mkdir", "fallocate", "mkfifo":
		for _, a := range call.Args[1:] {
			for _, p := range a.Parts {
				switch p.(type) {
				case *syntax.ParamExp, *syntax.ArithmExp, *syntax.CmdSubst:
					return true
				}
			}
		}
	}
	return false
}
