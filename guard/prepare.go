package guard

import (
	"strconv"
	"strings"
)

func (a *analysis) prepareShell(c *cmd) {
	args := c.args()
	cFlag, sFlag, noExec := false, false, false
	i := 0
	for ; i < len(args); i++ {
		s := args[i].s
		if s == "--" || s == "-" {
			i++
			break
		}
		if len(s) < 2 || s[0] != '-' && s[0] != '+' {
			break
		}
		if strings.HasPrefix(s, "--") {
			if s == "--rcfile" || s == "--init-file" {
				i++
			}
			continue
		}
		for j := 1; j < len(s); j++ {
			switch s[j] {
			case 'n':
				// bash -n: commands read and checked, none run
				noExec = noExec || s[0] == '-'
			case 'c':
				cFlag = true
			case 's':
				sFlag = true
			case 'o', 'O':
				if j == len(s)-1 {
					i++
				}
				j = len(s)
			}
		}
	}
	ops := args[min(i, len(args)):]
	if noExec {
		return
	}
	if cFlag {
		if len(ops) == 0 {
			return
		}
		c.script = &scriptRef{kind: scriptInline, w: ops[0], params: ops[1:]}
		if ops[0].flow != nil {
			c.script.flow = *ops[0].flow
		}
		return
	}
	if !sFlag && len(ops) > 0 {
		op := ops[0]
		switch {
		case op.proc && op.flow != nil, !op.ok && op.flow != nil && op.flow.kind == flowRemote:
			c.script = &scriptRef{kind: scriptProc, w: op, flow: *op.flow}
			return
		case !isStdinPath(op.s):
			c.script = &scriptRef{kind: scriptFile, w: op, flow: a.fileFlow(c, op)}
			return
		}
	}
	c.script = &scriptRef{kind: scriptStdin, flow: c.in}
}

func (a *analysis) prepareEval(c *cmd) {
	args := c.args()
	if len(args) == 0 {
		return
	}
	if len(args) == 1 {
		c.script = &scriptRef{kind: scriptInline, w: args[0]}
		if args[0].flow != nil {
			c.script.flow = *args[0].flow
		}
		return
	}
	w := word{s: joinWords(args), ok: true, tail: 0}
	for _, x := range args {
		if !x.ok {
			w.ok = false
			w.tail = len(w.s)
		}
	}
	c.script = &scriptRef{kind: scriptInline, w: w}
}

func (a *analysis) prepareSource(c *cmd) {
	args := c.args()
	if len(args) == 0 {
		c.script = &scriptRef{kind: scriptStdin, flow: c.in} // fish: ... | source
		return
	}
	op := args[0]
	switch {
	case op.proc && op.flow != nil, !op.ok && op.flow != nil && op.flow.kind == flowRemote:
		c.script = &scriptRef{kind: scriptProc, w: op, flow: *op.flow}
	case isStdinPath(op.s):
		c.script = &scriptRef{kind: scriptStdin, flow: c.in}
	default:
		c.script = &scriptRef{kind: scriptFile, w: op, flow: a.fileFlow(c, op)}
	}
}

// scriptLangs maps interpreters to the language scanner for their code.
var scriptLangs = map[string]string{
	"python": "python", "perl": "perl", "ruby": "ruby", "node": "js", "bun": "js", "deno": "js",
	"php": "php", "lua": "lua", "awk": "awk", "pwsh": "pwsh", "osascript": "applescript",
	"irb": "ruby", "luajit": "lua",
	"Rscript": "r", "R": "r", "julia": "julia", "tclsh": "tcl", "wish": "tcl", "jimsh": "tcl",
	// the JVM's scripting front ends: groovy -e, kotlinc -e, scala -e
	"groovy": "jvm", "kotlinc": "jvm", "kotlin": "jvm", "scala": "jvm", "jshell": "jvm",
	"elixir": "elixir", "erl": "erlang",
}

// ipythonShellLines spells IPython's shell escapes (!cmd, and statements
// after ; that start with !) as the os.system calls they are.
func ipythonShellLines(code string) string {
	if !strings.Contains(code, "!") {
		return code
	}
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "!") && !strings.HasPrefix(t, "!=") {
			lines[i] = "import os; os.system(" + strconv.Quote(strings.TrimPrefix(t, "!")) + ")"
		}
	}
	return strings.Join(lines, "\n")
}

// interpreter options: short options with an argument, short options
// whose argument is code, long options with an argument, long options
// whose argument is code.
type interpSpec struct {
	arg   string
	code  string
	long  []string
	lcode []string
}

var interpOpts = map[string]interpSpec{
	"python":      {arg: "WXQ", code: "c"},
	"perl":        {arg: "xMmI", code: "eE"},
	"ruby":        {arg: "ICEFKTWx", code: "e"},
	"js":          {arg: "r", code: "ep", long: []string{"require", "import", "loader", "input-type", "env-file"}, lcode: []string{"eval", "print"}},
	"php":         {arg: "dcfzt", code: "rBRE"},
	"lua":         {arg: "l", code: "e"},
	"applescript": {code: "e"},
	"r":           {arg: "f", code: "e"},
	"julia":       {arg: "CJLOp", code: "eE", lcode: []string{"eval", "print"}},
	"jvm":         {arg: "cdD", code: "e", lcode: []string{"expression"}},
	"elixir":      {arg: "rS", code: "e", long: []string{"erl", "sname", "name", "cookie"}, lcode: []string{"eval"}},
}

func (a *analysis) prepareInterp(c *cmd, lang string) {
	args := c.args()
	switch lang {
	case "awk":
		a.prepareAwk(c)
	case "pwsh":
		a.preparePwsh(c)
	case "erlang":
		// erl -noshell -eval 'Exprs': single-dash long options
		for i, w := range args {
			if w.s == "-eval" && i+1 < len(args) {
				c.codes = append(c.codes, args[i+1])
			}
		}
	default:
		if (c.name == "deno" || c.name == "bun") && len(args) > 0 && args[0].s == "eval" {
			// deno eval -A --ext=ts 'code': the first operand is the code
			for i := 1; i < len(args); i++ {
				switch s := args[i].s; {
				case s == "-c" || s == "--config" || s == "--import-map" || s == "--lock" || s == "--cert" || s == "--location" || s == "--seed" || s == "--ext":
					i++
				case strings.HasPrefix(s, "-"):
				default:
					c.codes = []word{args[i]}
					i = len(args)
				}
			}
			break
		}
		if c.name == "deno" {
			break
		}
		if c.name == "bun" && len(args) > 0 && args[0].s == "run" {
			args = args[1:] // bun run FILE, bun run - (standard input)
		}
		a.prepareInterpArgs(c, lang, args)
	}
	if len(c.codes) > 0 {
		c.script = &scriptRef{kind: scriptInline, w: c.codes[0]}
		if c.codes[0].flow != nil {
			c.script.flow = *c.codes[0].flow
		}
		var b strings.Builder
		for i, w := range c.codes {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(w.s)
		}
		code := b.String()
		if ops := codeOperands(args, c.codes[len(c.codes)-1]); len(ops) > 0 {
			code = bindArgv(lang, code, ops)
		}
		if lang == "js" && (hasWord(args, "-p") || hasWord(args, "--print")) {
			code = "console.log(" + code + ")" // node -p prints the value
		}
		if c.base == "ipython" || c.base == "ipython3" {
			code = ipythonShellLines(code)
		}
		c.scan = scanScript(lang, code)
		return
	}
	if c.script != nil && (c.script.kind == scriptStdin || c.script.kind == scriptProc) && c.script.flow.kind == flowText {
		c.scan = scanScript(lang, c.script.flow.text)
	}
}

func (a *analysis) prepareInterpArgs(c *cmd, lang string, args []word) {
	spec := interpOpts[lang]
	i := 0
	for ; i < len(args); i++ {
		s := args[i].s
		if s == "--" {
			i++
			break
		}
		if s == "-" || len(s) < 2 || s[0] != '-' {
			break
		}
		if strings.HasPrefix(s, "--") {
			name, val, hasEq := strings.Cut(s[2:], "=")
			for _, l := range spec.lcode {
				if l == name {
					if hasEq {
						c.codes = append(c.codes, word{s: val, ok: args[i].ok})
					} else if i+1 < len(args) {
						i++
						c.codes = append(c.codes, args[i])
					}
				}
			}
			for _, l := range spec.long {
				if l == name && !hasEq {
					i++
				}
			}
			continue
		}
		if lang == "python" && (s == "-m" || strings.HasPrefix(s, "-m")) {
			return // runs a module
		}
		stop := false
		for j := 1; j < len(s) && !stop; j++ {
			ch := s[j]
			switch {
			case strings.IndexByte(spec.code, ch) >= 0:
				if j < len(s)-1 {
					c.codes = append(c.codes, word{s: s[j+1:], ok: args[i].ok})
				} else if i+1 < len(args) {
					i++
					c.codes = append(c.codes, args[i])
				}
				stop = true
			case strings.IndexByte(spec.arg, ch) >= 0:
				if j == len(s)-1 {
					i++
				}
				stop = true
			case lang == "perl" && (ch == 'M' || ch == 'm' || ch == 'I'):
				stop = true // -MModule
			case lang == "python" && ch == 'm':
				return
			}
		}
		if lang == "python" && len(c.codes) > 0 {
			return // python -c CODE: the rest are its arguments
		}
	}
	if len(c.codes) > 0 {
		return
	}
	ops := args[min(i, len(args)):]
	if len(ops) > 0 && !isStdinPath(ops[0].s) {
		op := ops[0]
		if op.proc && op.flow != nil {
			c.script = &scriptRef{kind: scriptProc, w: op, flow: *op.flow}
			return
		}
		c.script = &scriptRef{kind: scriptFile, w: op, flow: a.fileFlow(c, op)}
		return
	}
	if c.in.kind == flowNone {
		return
	}
	c.script = &scriptRef{kind: scriptStdin, flow: c.in}
}

func (a *analysis) prepareAwk(c *cmd) {
	args := c.args()
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if s == "--" {
			if i+1 < len(args) {
				c.codes = []word{args[i+1]}
			}
			return
		}
		if len(s) < 2 || s[0] != '-' {
			c.codes = []word{args[i]}
			return
		}
		switch {
		case s == "-f" || s == "--file":
			return
		case s == "-e" || s == "--source":
			if i+1 < len(args) {
				c.codes = []word{args[i+1]}
			}
			return
		case s == "-F" || s == "-v" || s == "--assign" || s == "--field-separator" || s == "-i" || s == "--include":
			i++
		}
	}
}

func (a *analysis) preparePwsh(c *cmd) {
	args := c.args()
	// "-" (alone or as the -Command) and no code at all read the code
	// from standard input, like sh reading a pipe
	stdin := func() {
		if c.in.kind != flowNone {
			c.script = &scriptRef{kind: scriptStdin, flow: c.in}
		}
	}
	defer func() {
		if len(c.codes) == 0 && c.script == nil {
			for _, w := range args {
				if l := strings.ToLower(w.s); l == "-file" || l == "-f" {
					return
				}
			}
			stdin()
		}
	}()
	for i := 0; i < len(args); i++ {
		s := strings.ToLower(args[i].s)
		switch {
		case s == "-":
			stdin()
			return
		case (s == "-c" || s == "-command" || s == "-com" || s == "-comm" || s == "/c") && i+1 < len(args) && args[i+1].s == "-":
			stdin()
			return
		case s == "-c" || s == "-command" || s == "-com" || s == "-comm" || s == "/c":
			if i+1 < len(args) {
				w := word{s: joinWords(args[i+1:]), ok: true}
				for _, x := range args[i+1:] {
					w.ok = w.ok && x.ok
				}
				c.codes = []word{w}
			}
			return
		case s == "-e" || s == "-enc" || s == "-encodedcommand" || s == "-ec" || strings.HasPrefix(s, "-encoded"):
			if i+1 < len(args) {
				if code, ok := decodeUTF16Base64(args[i+1].s); ok {
					c.codes = []word{lit(code)}
					c.encoded = true
				}
			}
			return
		case s == "-file" || s == "-f":
			return
		case !strings.HasPrefix(s, "-") && i == len(args)-1 && i > 0:
			c.codes = []word{args[i]}
			return
		}
	}
}

func (a *analysis) prepareFind(c *cmd) {
	args := c.args()
	i := 0
	for i < len(args) {
		s := args[i].s
		if s == "-H" || s == "-L" || s == "-P" || strings.HasPrefix(s, "-O") {
			i++
			continue
		}
		if s == "-D" {
			i += 2
			continue
		}
		break
	}
	spec := &findSpec{}
	for i < len(args) {
		s := args[i].s
		if s != "" && (s[0] == '-' || s == "(" || s == "!" || s == ")") && args[i].ok {
			break
		}
		spec.roots = append(spec.roots, args[i])
		i++
	}
	if len(spec.roots) == 0 {
		spec.roots = []word{lit(".")}
	}
	c.find = spec
	// a negated test (-not -path './.git*') keeps a few entries and
	// selects all the others: it does not narrow what goes
	negated := false
	// alternatives (-o): without parentheses an action binds to the
	// last one (-name '*.orig' -o -name '*.py' -delete deletes the
	// sources); inside them it acts on every one
	sawOr, parens, actedLast := false, false, false
	altPat, altName := 0, 0
	deleteFirst := false // find . -delete -name X: -delete acts before the test
	defer func() {
		if deleteFirst {
			spec.patterns, spec.names = nil, nil
			spec.filtered, spec.narrowed, spec.timed, spec.aged, spec.empty = false, false, false, false, false
			return
		}
		if !sawOr {
			return
		}
		if !parens && actedLast {
			spec.patterns, spec.names = spec.patterns[altPat:], spec.names[altName:]
			return
		}
		var src []string
		for _, p := range spec.patterns {
			if sourceGlob(p) {
				src = append(src, p)
			}
		}
		if len(src) > 0 {
			spec.patterns, spec.names = src, nil
		}
	}()
	for i < len(args) {
		s := args[i].s
		if s == "-not" || s == "!" {
			negated = true
			i++
			continue
		}
		neg := negated
		negated = false
		switch s {
		case "-o", "-or":
			sawOr, actedLast = true, false
			altPat, altName = len(spec.patterns), len(spec.names)
		case "(", `\(`:
			parens = true
		case "-exec", "-execdir", "-ok", "-okdir":
			actedLast = true
			j := i + 1
			for j < len(args) && args[j].s != ";" && args[j].s != "+" {
				j++
			}
			c.findExecs = append(c.findExecs, args[i+1:j])
			i = j + 1
			continue
		case "-delete":
			c.findDelete = true
			actedLast = true
			if !spec.filtered && !sawOr && !neg {
				deleteFirst = true
			}
		case "-name", "-iname":
			if i+3 < len(args) && args[i+2].s == "-prune" && (args[i+3].s == "-o" || args[i+3].s == "-or") {
				i += 3 // -name .git -prune -o ...: what it skips, not what it selects
				continue
			}
			if (i+1 >= len(args) || args[i+1].s != "*") && !neg {
				spec.filtered = true // -name '*' selects everything
			}
			if i+1 < len(args) && !strings.ContainsAny(args[i+1].s, "*?[") {
				spec.names = append(spec.names, args[i+1].s)
			} else if i+1 < len(args) && !neg {
				spec.patterns = append(spec.patterns, args[i+1].s)
			}
			i += 2
			continue
		case "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-newermt", "-used":
			spec.filtered = spec.filtered || !neg
			spec.timed = spec.timed || !neg
			if !neg && s != "-newer" && s != "-newermt" && i+1 < len(args) && strings.HasPrefix(args[i+1].s, "+") && args[i+1].s != "+0" {
				spec.aged = true
			}
			i += 2
			continue
		case "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-size", "-user", "-uid",
			"-group", "-gid", "-perm", "-inum", "-samefile", "-links", "-lname", "-ilname":
			if i+2 < len(args) && args[i+2].s == "-prune" {
				i += 3 // -path ./.git -prune -o ...: what it skips, not what it selects
				continue
			}
			spec.filtered = spec.filtered || !neg
			spec.narrowed = spec.narrowed || !neg
			i += 2
			continue
		case "-empty", "-nouser", "-nogroup":
			spec.empty = spec.empty || s == "-empty" && !neg
			spec.filtered = spec.filtered || !neg
			spec.narrowed = spec.narrowed || !neg
		case "-maxdepth", "-mindepth", "-type", "-xtype", "-fstype", "-printf", "-fprintf", "-fprint", "-fprint0", "-fls", "-context":
			i += 2
			continue
		}
		i++
	}
}

// scriptNested analyses what interpreter code runs: the shell commands it
// passes to os.system & co, and the paths it deletes or writes.
func (a *analysis) scriptNested(c *cmd, origin string) {
	sc := c.scan
	if sc == nil {
		return
	}
	if c.encoded {
		a.unresolved(c, "encoded PowerShell command", "")
	}
	if sc.obf {
		a.unresolved(c, "decoded (obfuscated) code is run", "")
	}
	for _, call := range sc.shell {
		src := strings.ReplaceAll(call.cmd, "$ENV{HOME}", "$HOME")
		a.nested(src, origin+" "+call.api+"()")
		if a.stop {
			return
		}
	}
	for _, call := range sc.argvs {
		if len(call.argv) == 0 {
			continue
		}
		ws := make([]word, len(call.argv))
		for i, s := range call.argv {
			ws[i] = lit(s)
			if strings.HasPrefix(s, "~") {
				ws[i] = lit(a.tildeExpand(s))
			}
		}
		a.subCommand(c, ws, origin+" "+call.api+"()")
		if a.stop {
			return
		}
	}
	for _, d := range sc.deletes {
		p := d.path
		if strings.HasPrefix(p, "~") {
			p = a.tildeExpand(p)
		}
		ws := []word{lit("rm"), lit("-f"), lit(p)}
		if d.recursive {
			ws[1] = lit("-rf")
		}
		if strings.ContainsAny(p, "*?[") {
			ws[2].glob = true
		}
		a.subCommand(c, ws, origin+" "+d.api+"()")
		if a.stop {
			return
		}
	}
	for _, ch := range sc.chmods {
		mode, p, _ := strings.Cut(ch.path, " ")
		if strings.HasPrefix(p, "~") {
			p = a.tildeExpand(p)
		}
		ws := []word{lit("chmod"), lit(mode), lit(p)}
		if ch.recursive {
			ws = []word{lit("chmod"), lit("-R"), lit(mode), lit(p)}
		}
		a.subCommand(c, ws, origin+" "+ch.api+"()")
		if a.stop {
			return
		}
	}
	for _, w := range sc.writes {
		p := w.path
		if strings.HasPrefix(p, "~") {
			p = a.tildeExpand(p)
		}
		a.subCommand(c, []word{lit("tee"), lit(p)}, origin+" "+w.api+"()")
		if a.stop {
			return
		}
	}
}
