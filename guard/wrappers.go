package guard

import (
	"path"
	"slices"
	"strconv"
	"strings"
)

// optSpec describes the options of a wrapper: which short options take
// an argument, and which long ones do when not written with "=".
type optSpec struct {
	short string
	long  []string
}

// skipOpts returns the index of the first operand in ws at or after i.
// "--" ends the options and is skipped.
func skipOpts(ws []word, i int, spec optSpec) int {
	for i < len(ws) {
		s := ws[i].s
		if s == "--" {
			return i + 1
		}
		if len(s) < 2 || s[0] != '-' {
			return i
		}
		if strings.HasPrefix(s, "--") {
			name := s[2:]
			if strings.IndexByte(name, '=') >= 0 {
				i++
				continue
			}
			i++
			for _, l := range spec.long {
				if l == name {
					i++
					break
				}
			}
			continue
		}
		i++
		for j := 1; j < len(s); j++ {
			if strings.IndexByte(spec.short, s[j]) >= 0 {
				if j == len(s)-1 {
					i++
				}
				break
			}
		}
	}
	return i
}

// hasShort reports whether a short option letter appears in the option
// words before the first operand (ws[0] is the command).
func hasShortBefore(ws []word, end int, letter byte) bool {
	for _, w := range ws[1:min(end, len(ws))] {
		s := w.s
		if len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.IndexByte(s[1:], letter) >= 0 {
			return true
		}
	}
	return false
}

func isAssignWord(s string) bool {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// wrapperFunc returns the index in c.words where the wrapped command
// starts, or -1 when there is none.
type wrapperFunc func(a *analysis, c *cmd) int

var wrappers map[string]wrapperFunc

func simpleWrapper(spec optSpec) wrapperFunc {
	return func(a *analysis, c *cmd) int { return skipOpts(c.words, 1, spec) }
}

// rootWrapper is sudo-like: it runs a command as another user (root by
// default).
func rootWrapper(spec optSpec, userOpt byte, userLong string) wrapperFunc {
	return func(a *analysis, c *cmd) int {
		ws := c.words
		i := skipOpts(ws, 1, spec)
		if hasShortBefore(ws, i, 'e') || hasShortBefore(ws, i, 'l') {
			return -1 // sudo -e edits files; sudo -l lists
		}
		user := ""
		for j := 1; j < i && j < len(ws); j++ {
			s := ws[j].s
			if s == "-"+string(userOpt) && j+1 < len(ws) {
				user = ws[j+1].s
			} else if len(s) > 2 && s[0] == '-' && s[1] == userOpt {
				user = s[2:]
			} else if userLong != "" && strings.HasPrefix(s, "--"+userLong+"=") {
				user = s[len(userLong)+3:]
			} else if userLong != "" && s == "--"+userLong && j+1 < len(ws) {
				user = ws[j+1].s
			}
		}
		if user == "" || user == "root" || user == "0" || user == "#0" || rootUID(user) {
			c.asRoot = true
		}
		return takeAssigns(c, ws, i)
	}
}

func init() {
	wrappers = map[string]wrapperFunc{
		"sudo": rootWrapper(optSpec{short: "CDghpRrtTUu", long: []string{"close-from", "chdir", "group", "host", "prompt", "chroot", "role", "type", "command-timeout", "other-user", "user"}}, 'u', "user"),
		"doas": rootWrapper(optSpec{short: "uC"}, 'u', ""),
		"pkexec": func(a *analysis, c *cmd) int {
			i := skipOpts(c.words, 1, optSpec{long: []string{"user"}})
			c.asRoot = true
			if i >= len(c.words) {
				return -1
			}
			return i
		},
		"env":          envWrapper,
		"nice":         simpleWrapper(optSpec{short: "n", long: []string{"adjustment"}}),
		"nohup":        simpleWrapper(optSpec{}),
		"shx":          simpleWrapper(optSpec{}), // npx shx rm -rf dist: ShellJS's portable rm, cp, mv
		"setsid":       simpleWrapper(optSpec{}),
		"timeout":      skipThen(optSpec{short: "sk", long: []string{"signal", "kill-after"}}, 1),
		"repeat":       zshRepeat, // zsh: repeat N COMMAND, repeat N { LIST }
		"time":         simpleWrapper(optSpec{short: "fo", long: []string{"format", "output"}}),
		"command":      commandWrapper,
		"builtin":      simpleWrapper(optSpec{}),
		"exec":         simpleWrapper(optSpec{short: "a"}),
		"stdbuf":       simpleWrapper(optSpec{short: "ioe", long: []string{"input", "output", "error"}}),
		"ionice":       simpleWrapper(optSpec{short: "cnpPuN", long: []string{"class", "classdata"}}),
		"chrt":         skipThen(optSpec{}, 1),
		"taskset":      skipThen(optSpec{}, 1),
		"chroot":       skipThen(optSpec{long: []string{"userspec", "groups"}}, 1),
		"strace":       simpleWrapper(optSpec{short: "abeEIoOpPsSuUX"}),
		"ltrace":       simpleWrapper(optSpec{short: "aeEnopsuxXAFDl"}),
		"unbuffer":     simpleWrapper(optSpec{}),
		"sshpass":      simpleWrapper(optSpec{short: "pfdP"}), // sshpass -p PW ssh HOST CMD: the ssh it runs
		"fakeroot":     simpleWrapper(optSpec{short: "slbi", long: []string{"lib", "faked"}}),
		"eatmydata":    simpleWrapper(optSpec{}),
		"nocache":      simpleWrapper(optSpec{}),
		"caffeinate":   simpleWrapper(optSpec{short: "tw"}),
		"proxychains":  simpleWrapper(optSpec{short: "f"}),
		"proxychains4": simpleWrapper(optSpec{short: "f"}),
		"torsocks":     simpleWrapper(optSpec{short: "upaP"}),
		"tsocks":       simpleWrapper(optSpec{}),
		"firejail":     simpleWrapper(optSpec{}),
		"catchsegv":    simpleWrapper(optSpec{}),
		"xvfb-run":     simpleWrapper(optSpec{short: "nsfepw", long: []string{"server-num", "server-args", "auth-file", "error-file", "xauth-protocol", "wait"}}),
		"unshare":      simpleWrapper(optSpec{short: "SGRw", long: []string{"setuid", "setgid", "root", "wd", "map-user", "map-group"}}),
		"nsenter":      nsenterWrapper,
		"systemd-run":  systemdRunWrapper,
		"gosu":         skipThen(optSpec{}, 1),
		"su-exec":      skipThen(optSpec{}, 1),
		"runuser":      runuserWrapper,
		"busybox":      busyboxWrapper,
		"toybox":       busyboxWrapper,
		"xargs":        xargsWrapper,
		"screen":       simpleWrapper(optSpec{short: "SchepsTtL", long: []string{}}),
		"rlwrap":       simpleWrapper(optSpec{short: "aAbcCDefFgGhHiIlmMnNoOpPqrRsStTvwWz"}),
		"parallel":     nil,
		"flock":        flockWrapper,
		"sg":           nil,
		"watch":        nil,
		"poetry":       subWrapper("run", optSpec{short: "CP", long: []string{"directory", "project"}}),
		"pipenv":       subWrapper("run", optSpec{}),
		"uv": subWrapper("run", optSpec{short: "pw", long: []string{"python", "with", "with-requirements", "with-editable", "package",
			"extra", "group", "env-file", "directory", "project", "index", "default-index", "index-url", "extra-index-url", "find-links"}}),
		"bundle":    subWrapper("exec", optSpec{long: []string{"gemfile"}}),
		"npx":       nil,
		"python":    pythonModuleWrapper,
		"python3":   pythonModuleWrapper,
		"py":        pythonModuleWrapper,
		"dotenv":    simpleWrapper(optSpec{short: "efv"}),
		"noglob":    simpleWrapper(optSpec{}),
		"winpty":    simpleWrapper(optSpec{}),
		"and":       simpleWrapper(optSpec{}),
		"or":        simpleWrapper(optSpec{}),
		"not":       simpleWrapper(optSpec{}),
		"nocorrect": simpleWrapper(optSpec{}),
		"setarch":   setarchWrapper,
		"linux32":   simpleWrapper(optSpec{}),
		"linux64":   simpleWrapper(optSpec{}),
		"valgrind":  simpleWrapper(optSpec{}),
		"cpulimit":  simpleWrapper(optSpec{short: "lpe", long: []string{"limit", "pid", "exe"}}),
		"prlimit":   simpleWrapper(optSpec{}),
		"sem":       simpleWrapper(optSpec{short: "j", long: []string{"id", "jobs"}}),
		// tools that run a command with secrets, a profile or a
		// project's environment loaded, as their documentation spells it
		"doppler":    envRunner("run", 0, optSpec{short: "cp", long: []string{"command", "config", "project", "token", "scope", "mount", "mount-format", "fallback", "name-transformer"}}),
		"infisical":  envRunner("run", 0, optSpec{long: []string{"command", "env", "path", "projectId", "token", "domain", "tags", "watch-interval"}}),
		"op":         envRunner("run", 0, optSpec{long: []string{"env-file", "account", "session", "config"}}),
		"dotenvx":    envRunner("run", 0, optSpec{short: "fe", long: []string{"env-file", "env", "convention"}}),
		"teller":     envRunner("run", 0, optSpec{short: "c", long: []string{"config"}}),
		"berglas":    envRunner("exec", 0, optSpec{long: []string{"local", "project"}}),
		"chamber":    envRunner("exec", 1, optSpec{short: "b", long: []string{"backend"}}),
		"aws-vault":  envRunner("exec", 1, optSpec{short: "dtn", long: []string{"duration", "mfa-token", "region", "prompt", "backend"}}),
		"saml2aws":   envRunner("exec", 0, optSpec{short: "ap", long: []string{"exec-profile", "profile", "idp-account"}}),
		"summon":     envRunner("", 0, optSpec{short: "fpD", long: []string{"yaml", "provider", "environment"}}),
		"mise":       envRunner("exec x", 0, optSpec{short: "C", long: []string{"cd", "jobs"}}),
		"rtx":        envRunner("exec x", 0, optSpec{short: "C", long: []string{"cd", "jobs"}}),
		"asdf":       envRunner("exec", 0, optSpec{}),
		"devbox":     envRunner("run", 0, optSpec{short: "c", long: []string{"config", "environment"}}),
		"hatch":      envRunner("run", 0, optSpec{short: "e", long: []string{"env"}}),
		"pdm":        envRunner("run", 0, optSpec{short: "p", long: []string{"project"}}),
		"rye":        envRunner("run", 0, optSpec{}),
		"conda":      envRunner("run", 0, optSpec{short: "np", long: []string{"name", "prefix", "cwd"}}),
		"mamba":      envRunner("run", 0, optSpec{short: "np", long: []string{"name", "prefix", "cwd"}}),
		"micromamba": envRunner("run", 0, optSpec{short: "np", long: []string{"name", "prefix", "cwd"}}),
		"direnv":     envRunner("exec", 1, optSpec{}),
		"railway":    envRunner("run", 0, optSpec{short: "se", long: []string{"service", "environment"}}),
		"k3s":        bundledClient,
		"microk8s":   bundledClient,
		"minikube":   bundledClient,
		"rancher":    bundledClient,
	}
	for k, v := range wrappers {
		if v == nil {
			delete(wrappers, k)
		}
	}
}

// loaderWrapper unwraps the dynamic loader run as a program
// (/lib64/ld-linux-x86-64.so.2 /bin/rm ...).
func loaderWrapper(a *analysis, c *cmd) int {
	i := 1
	for i < len(c.words) && strings.HasPrefix(c.words[i].s, "--") {
		switch c.words[i].s {
		case "--library-path", "--preload", "--argv0", "--audit", "--inhibit-rpath":
			i++
		}
		i++
	}
	if i >= len(c.words) {
		return -1
	}
	return i
}

// setarchWrapper unwraps setarch ARCH [options] CMD.
func setarchWrapper(a *analysis, c *cmd) int {
	i := 2
	for i < len(c.words) && strings.HasPrefix(c.words[i].s, "-") {
		i++
	}
	if i >= len(c.words) {
		return -1
	}
	return i
}

// skipThen skips options, then n operands (a duration, a user, a mask).
// zshRepeat unwraps zsh's repeat N COMMAND, and repeat N { COMMAND } as
// bash reads it (the braces are words when no ; closes the group).
func zshRepeat(a *analysis, c *cmd) int {
	i := 2
	if i >= len(c.words) {
		return -1
	}
	if c.words[i].s == "{" && c.words[i].ok {
		i++
		if n := len(c.words); n > i && c.words[n-1].s == "}" {
			c.words = c.words[:n-1]
			c.joined = ""
		}
		if i >= len(c.words) {
			return -1
		}
	}
	return i
}

func skipThen(spec optSpec, n int) wrapperFunc {
	return func(a *analysis, c *cmd) int {
		i := skipOpts(c.words, 1, spec) + n
		if i >= len(c.words) {
			return -1
		}
		return i
	}
}

// envRunner unwraps "TOOL SUB [options] [operands] [--] CMD": a secrets
// manager, credential broker or environment manager that runs CMD with
// what it loads. subs lists the subcommands that do ("" for a tool that
// takes the command directly), operands the words before the command (a
// profile, a directory). A "--" ends the tool's own words wherever it is.
func envRunner(subs string, operands int, spec optSpec) wrapperFunc {
	verbs := strings.Fields(subs)
	return func(a *analysis, c *cmd) int {
		i := 1
		if len(verbs) > 0 {
			if len(c.words) < 3 || !slices.Contains(verbs, c.words[1].s) {
				return -1
			}
			i = 2
		}
		for j := i; j < len(c.words); j++ {
			if c.words[j].s == "--" {
				if j+1 < len(c.words) {
					return j + 1
				}
				return -1
			}
		}
		i = skipOpts(c.words, i, spec) + operands
		if i >= len(c.words) {
			return -1
		}
		return i
	}
}

// subWrapper unwraps "poetry run CMD" and the like.
func subWrapper(sub string, spec optSpec) wrapperFunc {
	return func(a *analysis, c *cmd) int {
		if len(c.words) > 2 && c.words[1].s == sub {
			return skipOpts(c.words, 2, spec)
		}
		return -1
	}
}

// pythonModuleCLIs are the modules python -m runs as the command of the
// same name: python3 -m pip install X is pip install X.
var pythonModuleCLIs = map[string]bool{"pip": true, "pip3": true, "pipx": true, "uv": true, "poetry": true, "pytest": true,
	"esptool": true, "espefuse": true, "espsecure": true}

func pythonModuleWrapper(a *analysis, c *cmd) int {
	if len(c.words) > 3 && c.words[1].s == "-m" && pythonModuleCLIs[c.words[2].s] {
		return 2
	}
	return -1
}

func envWrapper(a *analysis, c *cmd) int {
	ws := c.words
	i := 1
	for i < len(ws) {
		s := ws[i].s
		switch {
		case s == "--":
			i++
		case s == "-" || s == "-i" || s == "--ignore-environment" || s == "-0" || s == "--null" || s == "-v" || s == "--debug":
			i++
			continue
		case s == "-u" || s == "--unset" || s == "-C" || s == "--chdir":
			i += 2
			continue
		case s == "-S" || s == "--split-string" || strings.HasPrefix(s, "-S") || strings.HasPrefix(s, "--split-string="):
			// env -S "cmd args": the string is split into words.
			str := ""
			n := 1
			switch {
			case s == "-S" || s == "--split-string":
				if i+1 < len(ws) {
					str = ws[i+1].s
				}
				n = 2
			case strings.HasPrefix(s, "--split-string="):
				str = s[len("--split-string="):]
			default:
				str = s[2:]
			}
			var split []word
			for _, f := range strings.Fields(str) {
				split = append(split, lit(f))
			}
			rest := append(split, ws[min(i+n, len(ws)):]...)
			c.words = append(append([]word{}, ws[:i]...), rest...)
			ws = c.words
			continue
		case strings.HasPrefix(s, "--unset=") || strings.HasPrefix(s, "--chdir=") || strings.HasPrefix(s, "-u") && len(s) > 2 || strings.HasPrefix(s, "-C") && len(s) > 2:
			i++
			continue
		case len(s) > 1 && s[0] == '-' && !isAssignWord(s):
			i++
			continue
		}
		break
	}
	return takeAssigns(c, ws, i)
}

// takeAssigns records the VAR=value words at i (as env and sudo allow
// before the command) and returns where the command starts, or -1 when
// none is left.
func takeAssigns(c *cmd, ws []word, i int) int {
	for i < len(ws) && isAssignWord(ws[i].s) {
		s := ws[i].s
		eq := strings.IndexByte(s, '=')
		c.assigns = append(c.assigns, assignment{s[:eq], word{s: s[eq+1:], ok: ws[i].ok}})
		i++
	}
	if i >= len(ws) {
		return -1
	}
	return i
}

func commandWrapper(a *analysis, c *cmd) int {
	for i := 1; i < len(c.words); i++ {
		s := c.words[i].s
		if s == "--" {
			if i+1 < len(c.words) {
				return i + 1
			}
			return -1
		}
		if len(s) < 2 || s[0] != '-' {
			return i
		}
		if strings.ContainsAny(s[1:], "vV") {
			return -1 // command -v only looks the name up
		}
	}
	return -1
}

func nsenterWrapper(a *analysis, c *cmd) int {
	ws := c.words
	i := 1
	for i < len(ws) {
		s := ws[i].s
		if s == "--" {
			i++
			break
		}
		if len(s) < 2 || s[0] != '-' {
			break
		}
		if s == "-t" || s == "--target" || s == "-S" || s == "-G" || s == "--setuid" || s == "--setgid" {
			i += 2
			continue
		}
		i++
	}
	if i >= len(ws) {
		return -1
	}
	return i
}

// systemdRunWrapper unwraps systemd-run; --uid=0 (or root) runs the
// command as root.
func systemdRunWrapper(a *analysis, c *cmd) int {
	i := skipOpts(c.words, 1, optSpec{short: "pEuMHds", long: []string{"unit", "property", "description", "slice", "uid", "gid", "nice", "working-directory", "setenv", "on-active", "on-boot", "on-calendar", "machine", "host"}})
	for j := 1; j < i && j < len(c.words); j++ {
		u := ""
		if v, ok := strings.CutPrefix(c.words[j].s, "--uid="); ok {
			u = v
		} else if c.words[j].s == "--uid" && j+1 < len(c.words) {
			u = c.words[j+1].s
		}
		if u == "0" || u == "root" {
			c.asRoot = true
		}
	}
	return i
}

func runuserWrapper(a *analysis, c *cmd) int {
	for _, w := range c.words[1:] {
		if w.s == "-c" || w.s == "--command" || strings.HasPrefix(w.s, "--command=") {
			return -1 // handled as a payload
		}
	}
	if len(c.words) > 2 && (c.words[1].s == "-u" || c.words[1].s == "--user") {
		if c.words[2].s == "root" {
			c.asRoot = true
		}
		return skipOpts(c.words, 3, optSpec{short: "gG", long: []string{"group", "supp-group"}})
	}
	return -1
}

func flockWrapper(a *analysis, c *cmd) int {
	ws := c.words
	for _, w := range ws[1:] {
		if w.s == "-c" || w.s == "--command" || strings.HasPrefix(w.s, "--command=") {
			return -1 // flock FILE -c CMD: a payload
		}
	}
	i := skipOpts(ws, 1, optSpec{short: "wE", long: []string{"timeout", "conflict-exit-code"}})
	i++ // the lock file
	if i >= len(ws) {
		return -1
	}
	return i
}

func busyboxWrapper(a *analysis, c *cmd) int {
	if len(c.words) > 1 && !strings.HasPrefix(c.words[1].s, "-") {
		return 1
	}
	return -1
}

// xargsWrapper unwraps "xargs [opts] cmd args": the command also gets the
// words read from standard input.
func xargsWrapper(a *analysis, c *cmd) int {
	ws := c.words
	replace := ""
	var argFile word // -a FILE: the input is read from FILE, not stdin
	per := 0         // -n N, -L N: the items each run is given
	i := 1
	for i < len(ws) {
		s := ws[i].s
		if s == "--" {
			i++
			break
		}
		if len(s) < 2 || s[0] != '-' {
			break
		}
		switch {
		case s == "-I" || s == "--replace":
			if i+1 < len(ws) && s == "-I" {
				replace = ws[i+1].s
				i += 2
				continue
			}
			replace = "{}"
		case strings.HasPrefix(s, "-I"):
			replace = s[2:]
		case s == "-i":
			replace = "{}"
		case strings.HasPrefix(s, "--replace="):
			replace = s[len("--replace="):]
		case strings.HasPrefix(s, "-i"):
			replace = s[2:]
		case (s == "-a" || s == "--arg-file") && i+1 < len(ws):
			argFile = ws[i+1]
			i += 2
			continue
		case strings.HasPrefix(s, "--arg-file="):
			argFile = word{s: s[len("--arg-file="):], ok: ws[i].ok, flow: ws[i].flow}
		case (s == "-n" || s == "-L" || s == "--max-args" || s == "--max-lines") && i+1 < len(ws):
			per, _ = strconv.Atoi(ws[i+1].s)
			i += 2
			continue
		case len(s) > 2 && (strings.HasPrefix(s, "-n") || strings.HasPrefix(s, "-L")) && s[2] >= '0' && s[2] <= '9':
			per, _ = strconv.Atoi(s[2:])
		case strings.HasPrefix(s, "--max-args=") || strings.HasPrefix(s, "--max-lines="):
			_, v, _ := strings.Cut(s, "=")
			per, _ = strconv.Atoi(v)
		case s == "-P" || s == "-s" || s == "-d" || s == "-E" ||
			s == "--max-procs" || s == "--delimiter" || s == "--arg-file" || s == "--max-chars" || s == "--process-slot-var":
			i += 2
			continue
		}
		i++
	}
	i = min(i, len(ws))
	var inner []word
	if i < len(ws) {
		inner = append(inner, ws[i:]...)
	} else {
		inner = []word{lit("echo")}
	}
	in := c.in
	if argFile.flow != nil {
		in = *argFile.flow
	} else if d, crit := a.sensitive(argFile.s, c.cwd); argFile.s != "" && d != "" {
		in = flow{kind: flowSecret, what: d, crit: crit} // xargs -a ~/.git-credentials: each stored login
	} else if argFile.s != "" {
		in = flow{kind: flowUnknown, what: argFile.s}
	}
	input := xargsInput(in)
	if replace != "" {
		out := inner[:0:0]
		for _, w := range inner {
			if w.s == replace && len(input) > 0 {
				out = append(out, input...)
			} else if strings.Contains(w.s, replace) && len(input) > 0 && input[0].ok {
				w.s = strings.ReplaceAll(w.s, replace, input[0].s)
				out = append(out, w)
			} else if strings.Contains(w.s, replace) && len(input) > 0 {
				// part of a word (a URL's query, sh -c '...{}...'):
				// the word carries what is read
				w.s = strings.ReplaceAll(w.s, replace, input[0].s)
				w.ok, w.flow = false, input[0].flow
				out = append(out, w)
			} else {
				out = append(out, w)
			}
		}
		inner = out
	} else if per > 0 && len(input) > per {
		// xargs -n1 with read words: one run per item, each judged (the
		// first in place, the others as commands it runs)
		for k := per; k < len(input) && k < 16*per; k += per {
			run := append(append([]word{}, inner...), input[k:min(k+per, len(input))]...)
			a.subCommand(c, run, "xargs -n")
		}
		inner = append(inner, input[:per]...)
	} else {
		inner = append(inner, input...)
	}
	c.words = append(append([]word{}, ws[:i]...), inner...)
	c.xargs = true
	return i
}

// xargsInput turns what xargs reads into the words it appends.
func xargsInput(f flow) []word {
	switch f.kind {
	case flowText:
		var out []word
		for _, s := range strings.Fields(f.text) {
			out = append(out, lit(s))
			if len(out) >= 64 {
				break
			}
		}
		return out
	case flowPaths:
		if f.find == nil || len(f.find.roots) == 0 {
			return nil
		}
		return []word{{s: f.find.roots[0].s, ok: f.find.roots[0].ok, find: f.find}}
	case flowNone:
		return nil
	case flowList:
		if f.what == blockDevices {
			return []word{deviceWord("")} // lsblk -dpno NAME | xargs -n1 sgdisk -Z
		}
	}
	fl := f
	return []word{{s: "<stdin>", tail: 7, flow: &fl}}
}

// unwrap removes wrappers (sudo, env, timeout, xargs, ...) so that the
// command they run is judged.
func (a *analysis) unwrap(c *cmd) {
	defer verbFirst(c)
	if a.rootLaunch > 0 {
		c.asRoot = true
	}
	for iter := 0; iter < 16 && len(c.words) > 0; iter++ {
		w0 := c.words[0]
		if !w0.ok {
			return
		}
		if w0.glob {
			if g := globCommand(w0.s); g != "" {
				c.words[0] = lit(g)
				w0 = c.words[0]
			}
		}
		base := path.Base(w0.s)
		fn, ok := wrappers[base]
		if !ok && (strings.HasPrefix(base, "ld-linux") || strings.HasPrefix(base, "ld-musl") || base == "ld.so") {
			fn, ok = loaderWrapper, true
		}
		if !ok {
			return
		}
		i := fn(a, c)
		if i <= 0 || i >= len(c.words) {
			return
		}
		c.wrappers = append(c.wrappers, joinWords(c.words[:i]))
		c.words = c.words[i:]
	}
}

func joinWords(ws []word) string {
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return ws[0].s
	}
	// sized up front: rules join a command's words on every command, and
	// growing the builder word by word was a large share of allocations
	n := len(ws) - 1
	for _, w := range ws {
		n += len(w.s)
	}
	var b strings.Builder
	b.Grow(n)
	for i, w := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.s)
	}
	return b.String()
}

// rootUID reports a #uid that sudo resolves to root: #0, and #-1 or
// #4294967295, which old sudo (CVE-2019-14287) turned into 0.
func rootUID(u string) bool {
	n, ok := strings.CutPrefix(u, "#")
	if !ok {
		return false
	}
	n = strings.TrimLeft(n, "0")
	return n == "" || strings.HasPrefix(n, "-") || n == "4294967295"
}

// bundledClient unwraps the cluster clients a Kubernetes distribution
// ships under its own name: k3s kubectl, microk8s helm, minikube kubectl
// -- VERB. They are the same clients, pointed at that cluster.
func bundledClient(a *analysis, c *cmd) int {
	if len(c.words) < 3 {
		return -1
	}
	switch s := strings.TrimPrefix(c.words[1].s, "microk8s."); s {
	case "kubectl", "helm", "helm3", "ctr", "crictl":
		if c.words[2].s == "--" {
			// minikube kubectl -- VERB: keep the client's name
			c.words = append(c.words[:2:2], c.words[3:]...)
		}
		return 1
	}
	return -1
}

// clientGlobals are the global options, taking a value, that clients of
// clusters and compose accept before their verb: kubectl --context prod
// delete ..., helm --kube-context prod uninstall ..., docker compose -f
// prod.yml --context prod down. Rules read the verb as the first operand,
// so verbFirst moves it before these options. docker's own globals are
// not moved: dockerSub reads past them, also before a group (docker
// --context prod volume prune).
var clientGlobals = map[string]map[string]bool{
	"kubectl": kubeGlobals, "oc": kubeGlobals, "helm": kubeGlobals, "helm3": kubeGlobals,
	"compose": {"-f": true, "--file": true, "-p": true, "--project-name": true, "--profile": true, "--env-file": true,
		"--project-directory": true, "--context": true, "--ansi": true, "--parallel": true, "--progress": true},
}

var kubeGlobals = map[string]bool{"--context": true, "--kube-context": true, "-n": true, "--namespace": true, "--kubeconfig": true,
	"--cluster": true, "--user": true, "-s": true, "--server": true, "--as": true, "--as-group": true, "--token": true,
	"--request-timeout": true, "--kube-apiserver": true, "--kube-token": true, "--kube-as-user": true, "--registry-config": true,
	"--repository-config": true, "--repository-cache": true, "--tls-server-name": true, "--certificate-authority": true}

// verbFirst moves a client's verb before the global options written
// ahead of it (kubectl --context prod cordon X becomes kubectl cordon
// --context prod X); docker compose and docker-compose are read past
// "compose". An option it does not know leaves the words as they are.
func verbFirst(c *cmd) {
	if len(c.words) < 3 || !c.words[0].ok {
		return
	}
	base := path.Base(c.words[0].s)
	start := 1
	if (base == "cargo" || base == "rustc" || base == "rustdoc") && strings.HasPrefix(c.words[1].s, "+") {
		// cargo +nightly install ...: rustup's toolchain, then the command
		c.words = append(c.words[:1:1], c.words[2:]...)
		return
	}
	switch {
	case base == "docker-compose" || base == "podman-compose":
		base = "compose"
	case (base == "docker" || base == "podman") && c.words[1].s == "compose":
		base, start = "compose", 2
	}
	opts := clientGlobals[base]
	if opts == nil {
		return
	}
	i := start
	for i < len(c.words) && strings.HasPrefix(c.words[i].s, "-") {
		s := c.words[i].s
		name, _, eq := strings.Cut(s, "=")
		switch {
		case opts[name] && eq:
			i++
		case opts[s]:
			i += 2
		default:
			return
		}
	}
	if i == start || i >= len(c.words) {
		return
	}
	switch c.words[i].s {
	case "exec", "run", "debug", "attach", "cp":
		// their own options come before a command or a container; the
		// readers of those verbs skip the global ones themselves
		return
	}
	words := make([]word, 0, len(c.words))
	words = append(words, c.words[:start]...)
	words = append(words, c.words[i])
	words = append(words, c.words[start:i]...)
	c.words = append(words, c.words[i+1:]...)
}

// tarLetters is one word of tar's bundled option letters and its index
// among the arguments.
type tarLetters struct {
	i       int
	letters string
}

// tarLetterWords returns the words of tar's single-letter options: the
// first word, whose dash tar lets one omit (tar czf), and every word
// with one dash (-xzf).
func tarLetterWords(args []word) []tarLetters {
	var out []tarLetters
	for i, w := range args {
		if strings.HasPrefix(w.s, "--") || i > 0 && !strings.HasPrefix(w.s, "-") {
			continue
		}
		out = append(out, tarLetters{i, strings.TrimPrefix(w.s, "-")})
	}
	return out
}
