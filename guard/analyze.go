package guard

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Limits that keep the analysis of hostile input bounded.
const (
	// maxDepth bounds re-parsed payloads (bash -c, eval, pipes into a
	// shell, interpreter payloads, ...) nested in one another.
	maxDepth = 8
	// maxCommands bounds the simple commands judged per input.
	maxCommands = 50000
	// maxParseBytes bounds the text parsed per input, payloads included.
	maxParseBytes = 16 << 20
)

var parserPool = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangBash))
}}

// zshParserPool parses what bash cannot but zsh can (anonymous
// functions, parameter-expansion flags, short loop forms): an agent's
// shell is often zsh, and zsh's own syntax is not a reason to give up.
var zshParserPool = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangZsh))
}}

// flowKind says what a command writes to its standard output (and so what
// the next command in a pipeline reads).
type flowKind uint8

const (
	flowNone    flowKind = iota // nothing: no input at all
	flowUnknown                 // something unknown
	flowText                    // known text (flow.text)
	flowLocal                   // the content of a local file
	flowRemote                  // content downloaded from the network
	flowSocket                  // a raw network connection
	flowSecret                  // credentials, keys, the environment
	flowList                    // a list of resources (flow.what)
	flowPaths                   // paths found by find (flow.find)
)

// flow describes a data stream.
type flow struct {
	kind flowKind
	text string
	obf  bool   // it went through a decoder (base64 -d, xxd -r, rev, ...)
	what string // what it is, for reasons: "curl https://x", "~/.ssh/id_rsa"
	find *findSpec
	crit bool // for flowSecret: critical secrets (keys, credentials)
	// partial is set on text that is only part of the stream (the rest
	// is unknown).
	partial bool
	// tree is set on an archive of a whole directory tree.
	tree bool
	// scratch is set on lines kept by a filter for throwaway names
	// (grep -- -pr-).
	scratch bool
	// records names the service whose records an authenticated read
	// printed (a host, or a client's name): stripe customers list, curl
	// -H "Authorization: ..." https://api.service.com/contacts
	records string
}

// maxMergedText bounds the text kept when outputs are combined.
const maxMergedText = 64 << 10

// mergeFlow combines the outputs of two commands run one after the other.
func mergeFlow(x, y flow) flow {
	rank := func(f flow) int {
		switch f.kind {
		case flowRemote:
			return 7
		case flowSocket:
			return 6
		case flowSecret:
			return 5
		case flowList:
			return 4
		case flowPaths:
			return 3
		case flowUnknown, flowLocal:
			return 2
		case flowText:
			return 1
		}
		return 0
	}
	if x.kind == flowText && y.kind == flowText {
		if len(x.text)+len(y.text) > maxMergedText {
			x.partial = true
			return x
		}
		return flow{kind: flowText, text: x.text + y.text, obf: x.obf || y.obf, partial: x.partial || y.partial}
	}
	if x.kind == flowNone {
		return y
	}
	if y.kind == flowNone {
		return x
	}
	if rank(y) > rank(x) {
		x, y = y, x
	}
	if x.kind == flowText || x.kind == flowLocal || x.kind == flowUnknown {
		// known text mixed with unknown output: keep the known part
		if y.kind == flowText {
			return flow{kind: flowText, text: y.text, obf: y.obf, partial: true}
		}
		return flow{kind: flowUnknown}
	}
	return x
}

// findSpec is what a find command visits.
type findSpec struct {
	roots    []word
	filtered bool     // tests such as -name restrict what it visits
	names    []string // literal -name values
	patterns []string // -name globs ('*.py')
	// narrowed: a test other than names and times (-path, -size,
	// -empty, -user ...) restricts what it visits
	narrowed bool
	timed    bool // a time test (-newer, -mmin ...) restricts it
	// aged: a time test keeps only what is older than a bound
	// (-mtime +30): retention, which never reaches recent work
	aged bool
	// empty: -empty keeps only empty files and directories
	empty bool
}

// buildArtefacts are the names and patterns of files a build or an
// interpreter leaves behind and makes again: deleting them loses nothing.
var buildArtefacts = map[string]bool{"*.pyc": true, "*.pyo": true, "*.py[co]": true, "*.py[cod]": true, "__pycache__": true, "*.o": true, "*.obj": true, "*.class": true,
	"*.orig": true, "*.rej": true, "*.tmp": true, "*.swp": true, "*~": true, ".DS_Store": true, "Thumbs.db": true, "*.log": true,
	".pytest_cache": true, ".mypy_cache": true, ".ruff_cache": true, "*.gcda": true, "*.gcno": true, "*.tsbuildinfo": true, "*.egg-info": true}

// artefactsOnly reports a find that selects only what a build leaves
// behind, or only what is empty: the sources it walks stay.
func (f *findSpec) artefactsOnly() bool {
	if len(f.names)+len(f.patterns) == 0 {
		return f.empty
	}
	for _, n := range f.names {
		// .NET's bin and obj, node_modules, target: a build's output
		// folders (bin alone may hold a project's scripts)
		if !buildArtefacts[n] && !buildOutputDirs[n] && !(n == "bin" && slices.Contains(f.names, "obj")) {
			return false
		}
	}
	for _, p := range f.patterns {
		if !buildArtefacts[p] {
			return false
		}
	}
	return true
}

// buildOutputDirs are folders a build or an install makes again, found by
// name among the sources.
var buildOutputDirs = map[string]bool{"obj": true, "node_modules": true, "target": true, "dist": true, ".next": true, ".turbo": true,
	"coverage": true, ".gradle": true, "TestResults": true, ".nuxt": true, ".svelte-kit": true}

// sourceFiles reports a find that selects a project's own files: every
// file whose name has a source extension, or every file by time alone
// (find . -type f -newer x).
func (f *findSpec) sourceFiles() bool {
	if f.narrowed || len(f.names) > 0 {
		return false
	}
	if len(f.patterns) == 0 {
		return f.timed // by time only
	}
	for _, p := range f.patterns {
		if !sourceGlob(p) {
			return false
		}
	}
	return true
}

type assignment struct {
	name string
	val  word
}

type redirect struct {
	op     syntax.RedirOperator
	n      string // the fd number, if given
	w      word   // the target
	body   string // here-doc or here-string text
	isBody bool
}

// writesOutput reports a command with a redirection that writes: its
// output goes to a file rather than the terminal (a here-string or an
// input file only feeds it).
func writesOutput(c *cmd) bool {
	for i := range c.redirs {
		if c.redirs[i].isOutput() {
			return true
		}
	}
	return false
}

// isOutput reports whether the redirection writes (or truncates) a file.
func (r *redirect) isOutput() bool {
	switch r.op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.AppAll,
		syntax.RdrAllClob, syntax.AppAllClob, syntax.RdrInOut:
		return true
	case syntax.DplOut:
		// >& file (not >&2)
		return r.w.ok && !isFD(r.w.s) && r.w.s != "-"
	}
	return false
}

func (r *redirect) isAppend() bool {
	return r.op == syntax.AppOut || r.op == syntax.AppAll || r.op == syntax.AppClob || r.op == syntax.AppAllClob
}

func isFD(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

type scriptKind uint8

const (
	scriptNone   scriptKind = iota
	scriptInline            // -c / -e payload
	scriptStdin             // read from standard input
	scriptFile              // a file operand
	scriptProc              // a process substitution operand
)

// scriptRef is what an interpreter runs.
type scriptRef struct {
	kind scriptKind
	w    word
	flow flow
	// params are the operands after a -c payload: $0, $1, ...
	params []word
}

// cmd is one simple command, analysed.
type cmd struct {
	words    []word // after unwrapping; words[0] is the command
	name     string // canonical name ("python3.11" → "python"); "" for none
	base     string // base name as written
	assigns  []assignment
	redirs   []redirect
	wrappers []string // removed wrappers, as written
	origin   string
	depth    int
	bg       bool
	cwd      string // the working directory ("" unknown)
	in       flow   // standard input
	out      *flow  // standard output, computed lazily
	outv     flow   // where outFlow keeps it
	// scriptKnown: the script file it runs was written earlier in the
	// input and judged (diskpart /s FILE)
	scriptKnown bool
	pipe        []*cmd // the pipeline it is a stage of
	stage       int
	asRoot      bool // run through sudo/doas/pkexec/su as root
	remote      bool // runs on another machine or in a container

	// dryRun: the command only reports what it would do (-WhatIf, a
	// help page): no rule's finding applies to it
	dryRun bool

	nameUnresolved bool
	synthetic      string // "function", "loop" for synthetic commands
	text           string // source text of synthetic commands
	forkBomb       bool
	script         *scriptRef
	codes          []word // inline code of an interpreter
	encoded        bool
	scan           *scriptScan
	findExecs      [][]word
	find           *findSpec
	findDelete     bool
	xargs          bool
	sql            *sqlScan
	sqlDone        bool
	delDone        bool
	dels           []delTarget
	writesDone     bool
	writes         []writeTarget
	permsDone      bool
	perms          []permTarget // permTargets, cached
	substs         []flow       // outputs of the command substitutions in its words
	sub            string       // git's subcommand, cached
	subArgs        []word
	subDone        bool
	results        []RuleResult // for Explain
	notes          []string     // unresolved parts, for Explain
	joined         string
	pubIP          string // toPublicIP, cached
	pubIPDone      bool
	argCase        argCase   // lowerArgs and winArgs, cached
	regKey         regKey    // regTarget, cached
	clientSub      clientSub // clientSubWords, cached
	httpc          httpCallCache
	netdev         netVerdicts // netDeviceVerdicts, cached
}

func (c *cmd) args() []word {
	if len(c.words) == 0 {
		return nil
	}
	return c.words[1:]
}

// line is the command's words joined by spaces.
func (c *cmd) line() string {
	if c.joined != "" {
		return c.joined
	}
	if c.synthetic != "" {
		c.joined = c.text
		return c.joined
	}
	c.joined = joinWords(c.words)
	return c.joined
}

// opText is the command with its redirections, for Verdict.Operation.
func (c *cmd) opText() string {
	s := c.line()
	if s == "" && len(c.assigns) > 0 {
		for i, as := range c.assigns {
			if i > 0 {
				s += " "
			}
			s += as.name + "=" + as.val.s
		}
	}
	for _, r := range c.redirs {
		if r.op == syntax.Hdoc || r.op == syntax.DashHdoc || r.op == syntax.WordHdoc {
			continue
		}
		if r.isOutput() || r.op == syntax.RdrIn || strings.HasPrefix(r.w.s, "/dev/") {
			if s != "" {
				s += " "
			}
			s += r.n + r.op.String() + " " + r.w.s
		}
	}
	return s
}

// analysis is the state of one judgement.
type analysis struct {
	d *Detector
	place
	shellState
	effects
	outcome
	engine

	depth    int
	src      string
	srcFacts srcFacts // what rules asked of src as a whole
	inherit  flow     // the standard input payloads inherit
	substs   []flow   // command substitutions seen while building a command

	explain bool
	prompt  bool
	wantOut int // > 0 while the output of what is walked is used
	// piped is set while a cmd.exe pipeline stage that a next stage
	// reads is judged (cmd's stages carry no pipe of their own)
	piped  bool
	remote int // > 0 while analysing a command run on another machine
	seen   map[string]seenState
	stop   bool
	ncmds  int
	nbytes int
}

// place is where commands run: the session's directories and the links
// the line made. A command run on another machine or in a container is
// judged in a place of its own, where none of them is known.
type place struct {
	home    string // "" when unknown
	workDir string // "" when unknown
	// protected are Context.ProtectedPaths, cleaned and absolute.
	protected []string
	// loopGlobs are the loop variables bound to a glob pattern (for f in
	// *), by name, with the pattern: "$f" stands for the files it matches
	loopGlobs map[string]string
	// links are the symbolic links made so far (ln -s), absolute link
	// path to absolute target.
	links map[string]string
	cwd   string // "" when unknown
}

// shellState is what earlier commands of the line defined.
type shellState struct {
	vars map[string]word
	// params are the positional parameters ($1...) when known (set --,
	// sh -c CODE NAME ARGS...), param0 is $0.
	params  []word
	param0  word
	aliases map[string]string
	// gitAliases are git aliases the line defined (git config alias.X,
	// git -c alias.X=...), expanded where git X runs them.
	gitAliases map[string]string
	// funcBodies are the bodies of functions defined earlier, judged
	// again with their arguments where they are called.
	funcBodies map[string]string
	funcs      map[string]bool
	// arrays are array variables with literal elements.
	arrays map[string][]word
}

// effects are what earlier commands left that later ones use.
type effects struct {
	// clones are directories git clone filled from a URL.
	clones []string
	// secretsCopied describes key material copied into the work
	// directory, "" for none.
	secretsCopied string
	downloads     map[string]bool
	// downloadDirs are directories remote archives were unpacked into.
	downloadDirs []string
	// released are the downloads (keys of downloads) fetched from a
	// project's own release site: checked against a published sum before
	// use, they are that project's release, no longer unknown code.
	released map[string]bool
	// errexit is set once the line ran set -e: a failing check stops it.
	errexit bool
	// gated is set while walking a command a && follows: its failure
	// stops what comes after.
	gated bool
	// cdFallback is the directory a cd left when nothing stops the line
	// if it fails (cd build; rm -rf *): what follows may run there
	cdFallback string
	// privateLifted is set once a package.json's "private" guard was
	// removed earlier in the line (npm pkg delete private): what is
	// published next was never meant to be.
	privateLifted bool
	// madeDirs are the directories mkdir made earlier in the line.
	madeDirs []string
	// throwaway counts the enclosing commands that run what follows on
	// a machine made for tests (Invoke-Command -VMName test-vm, a local
	// compose service): what it changes there is that machine's own
	throwaway int
	// sealed counts the enclosing docker run commands whose new container
	// reaches none of the host's files, devices or namespaces: what is
	// deleted or changed inside is the container's own
	sealed int
	// loopbackNet is set inside a container whose published ports are
	// bound to this machine's loopback only (docker run -p
	// 127.0.0.1:8545:8545): what listens on every address there is
	// reached from this machine alone.
	loopbackNet int
	// testTarget counts the enclosing commands that run what follows in
	// a container or pod named for tests (docker exec pg-test ...).
	testTarget int
	// prodTarget counts the enclosing commands that run what follows on
	// a production app, server or pod (fly ssh console -a acme-prod -C
	// ..., kubectl exec -n production ...): what it destroys there is
	// production's
	prodTarget int
	// prodKube and prodDocker are the production cluster context and
	// Docker context the line switched to (kubectl config use-context
	// prod, export KUBECONFIG=~/.kube/prod.yaml, docker context use
	// prod-swarm): later clients that name no context of their own reach
	// it
	prodKube, prodDocker string
	// rootLaunch counts the enclosing commands run as root whose
	// options, hooks or scripts launch what follows on this machine
	// (sudo tar --checkpoint-action=exec=...): it runs as root too
	rootLaunch int
	tcpFDs     map[string]bool
	gitRemotes map[string]string
	// files are what was written to files, by absolute path.
	files map[string]flow
	// appended is the known text appended to files, by absolute path.
	appended map[string]string
}

// outcome is what the analysis found.
type outcome struct {
	best  *finding
	unres *finding
	all   []finding
	cmds  []*cmd
	notes []string
	// topUnparsed is set when the command line itself, not a payload
	// inside it, does not parse as POSIX shell.
	topUnparsed bool
}

// engine is what an analysis reuses from the one before it.
type engine struct {
	parser *syntax.Parser
	reader strings.Reader // what parser reads
	// simple lines are built here, not parsed, simples[i] for the
	// line walked at the i-th level of simple lines
	simples []*simpleTree
	nsimple int // how many of simples are being walked
	free    []*cmd
	// arena holds the commands of the analyses before, handed out again
	// from next on: a judgement keeps no command once its verdict is
	// made, and a line of pipelines would otherwise allocate each stage.
	arena []*cmd
	next  int
	// words and finds are slabs the commands' words and the findings
	// are carved from: nothing is carved twice in one analysis (what it
	// holds may be referred to until the verdict), and the last slab is
	// carved again from the start by the next analysis.
	words []word
	finds []finding
	// dirs are the normal forms of the directories of the sessions
	// judged last
	dirs dirForms
}

// wordBuf returns an empty slice with room for n words.
func (a *analysis) wordBuf(n int) []word {
	const slab = 256
	if n > slab/4 || a.explain {
		return make([]word, 0, n)
	}
	if cap(a.words)-len(a.words) < n {
		a.words = make([]word, 0, slab)
	}
	i := len(a.words)
	a.words = a.words[:i+n]
	return a.words[i : i : i+n] // an append past n copies
}

// newFinding returns f, stored where nothing else is.
func (a *analysis) newFinding(f finding) *finding {
	if a.explain {
		p := new(finding) // (not &f, which would move f to the heap on every call)
		*p = f
		return p
	}
	if len(a.finds) == cap(a.finds) {
		a.finds = make([]finding, 0, 32)
	}
	a.finds = append(a.finds, f)
	return &a.finds[len(a.finds)-1]
}

var analysisPool = sync.Pool{New: func() any { return new(analysis) }}

func (d *Detector) newAnalysis(c Context) *analysis {
	// release left all but the engine zero (and New makes it zero)
	a := analysisPool.Get().(*analysis)
	a.d = d
	if c.Home != "" {
		a.home = a.dirs.clean.of(c.Home, cleanAbs)
	}
	if c.WorkDir != "" {
		wd := c.WorkDir
		if strings.HasPrefix(wd, "~") {
			wd = a.homeText() + wd[1:]
		}
		a.workDir = a.dirs.clean.of(wd, cleanAbs)
	}
	a.cwd = a.workDir
	for _, p := range c.ProtectedPaths {
		if strings.HasPrefix(p, "~") {
			if a.home == "" {
				continue
			}
			p = a.home + p[1:]
		}
		if p = cleanAbs(p); p != "/" && p != "" {
			a.protected = append(a.protected, p)
		}
	}
	if a.parser == nil {
		a.parser = parserPool.Get().(*syntax.Parser)
	}
	return a
}

func (a *analysis) release() {
	if a.nbytes > 64<<10 {
		// drop the references the parser keeps to a large input
		a.parser.Parse(strings.NewReader(""), "")
	}
	if a.explain || a.nbytes > 1<<20 {
		// do not keep what Explain or huge inputs built
		parserPool.Put(a.parser)
		return
	}
	a.nsimple = 0
	// every command made is free again: the free list and the arena
	// would otherwise hand the same one out twice
	a.engine.free = a.engine.free[:0]
	a.engine.next = 0
	a.engine.words = a.engine.words[:0]
	a.engine.finds = a.engine.finds[:0]
	*a = analysis{engine: a.engine}
	analysisPool.Put(a)
}

func cleanAbs(p string) string {
	if p == "" {
		return ""
	}
	if p[0] != '/' {
		p = "/" + p
	}
	return path.Clean(p)
}

// zshClobber matches zsh's clobbering redirections, >! and >>!.
var zshClobber = regexp.MustCompile(`>>?!(?:\s|$)`)

// run analyses a shell source text at the current depth.
func (a *analysis) run(src, origin string) flow {
	if a.stop {
		return flow{}
	}
	a.nbytes += len(src)
	if strings.Contains(src, ">!") {
		// zsh's >! and >>! write even with noclobber set: > and >>
		src = zshClobber.ReplaceAllStringFunc(src, func(m string) string {
			if strings.HasPrefix(m, ">>") {
				return ">>" + m[3:]
			}
			return ">|" + m[2:]
		})
	}
	if a.nbytes > maxParseBytes {
		a.unresolved(nil, "input too large to analyse", "")
		return flow{kind: flowUnknown}
	}
	if !a.d.parseAll && len(src) <= maxSimple {
		// one tree per level of nesting: a payload met while a simple
		// line is walked is built in the next one
		if a.nsimple == len(a.simples) {
			a.simples = append(a.simples, new(simpleTree))
		}
		if f := a.simples[a.nsimple].build(src); f != nil {
			a.nsimple++
			saved := a.src
			a.src = src
			out := a.walkStmts(f.Stmts, origin)
			a.src = saved
			a.nsimple--
			return out
		}
	}
	a.reader.Reset(src)
	f, err := a.parser.Parse(&a.reader, "")
	if err != nil {
		// zsh or fish: analyse the bash it means
		if alt, ok := rewriteDialect(src); ok {
			a.reader.Reset(alt)
			if f2, err2 := a.parser.Parse(&a.reader, ""); err2 == nil {
				f, err, src = f2, nil, alt
			}
		}
		if err != nil {
			zp := zshParserPool.Get().(*syntax.Parser)
			a.reader.Reset(src)
			if f2, err2 := zp.Parse(&a.reader, ""); err2 == nil {
				f, err = f2, nil
			} else if alt, ok := zshAnonymous(src); ok {
				a.reader.Reset(alt)
				if f3, err3 := a.parser.Parse(&a.reader, ""); err3 == nil {
					f, err, src = f3, nil, alt
				}
			}
			zshParserPool.Put(zp)
		}
	}
	if err != nil {
		msg := err.Error()
		if len(msg) > 120 {
			msg = msg[:120]
		}
		a.unresolved(nil, "does not parse as a shell command ("+msg+")", truncate(src, 200))
		a.topUnparsed = a.topUnparsed || a.depth == 0
	}
	if f == nil {
		return flow{kind: flowUnknown}
	}
	saved := a.src
	a.src = src
	out := a.walkStmts(f.Stmts, origin)
	a.src = saved
	return out
}

// nested analyses a payload one level deeper.
func (a *analysis) nested(src, origin string) flow {
	if a.depth >= maxDepth {
		a.unresolved(nil, "payloads nested too deep to analyse", truncate(src, 200))
		return flow{kind: flowUnknown}
	}
	a.depth++
	savedCwd, savedInherit := a.cwd, a.inherit
	a.inherit = flow{}
	out := a.run(src, origin)
	a.cwd, a.inherit = savedCwd, savedInherit
	a.depth--
	return out
}

// nestedKeepInput is nested, but the payload keeps the current standard
// input.
func (a *analysis) nestedKeepInput(src, origin string) flow {
	if a.depth >= maxDepth {
		a.unresolved(nil, "payloads nested too deep to analyse", truncate(src, 200))
		return flow{kind: flowUnknown}
	}
	a.depth++
	savedCwd := a.cwd
	out := a.run(src, origin)
	a.cwd = savedCwd
	a.depth--
	return out
}

// remoteNested analyses a command that runs on another machine or in a
// container: the work directory and home there are unknown. The command
// reads in, what the local side feeds it (ssh forwards its input).
func (a *analysis) remoteNested(src, origin string, in flow) {
	saved, savedIn := a.place, a.inherit
	a.place = place{}
	a.remote++
	a.inherit = in
	a.nestedKeepInput(src, origin)
	a.inherit = savedIn
	a.remote--
	a.place = saved
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func (a *analysis) walkStmts(stmts []*syntax.Stmt, origin string) flow {
	var out flow
	for i, s := range stmts {
		if a.stop {
			break
		}
		f := a.walkStmt(s, origin)
		if a.wantOut == 0 {
			continue
		}
		if i == 0 {
			out = f
		} else {
			out = mergeFlow(out, f)
		}
	}
	return out
}

func (a *analysis) srcText(n syntax.Node) string {
	start, end := n.Pos().Offset(), n.End().Offset()
	if start < end && end <= uint(len(a.src)) {
		return a.src[start:end]
	}
	return ""
}

func (a *analysis) walkStmt(s *syntax.Stmt, origin string) flow {
	if s == nil || a.stop {
		return flow{}
	}
	switch x := s.Cmd.(type) {
	case nil:
		c := &cmd{origin: origin, depth: a.depth, cwd: a.cwd, in: a.inherit}
		c.redirs = a.resolveRedirs(s.Redirs)
		a.finish(c)
		return flow{}
	case *syntax.CallExpr:
		if a.repeated(s, x) {
			return flow{}
		}
		c := a.buildCall(s, x, origin, a.inherit)
		a.finish(c)
		var out flow
		if a.wantOut > 0 {
			out = c.outFlow(a)
		}
		a.recycle(c)
		return out
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			return a.walkPipeline(s, origin)
		}
		// a && b || c ...: walk the chain in order without recursing
		// (ops[j] is the operator before chain[j], read once: walking
		// down to it for each command made a long chain quadratic)
		chain, ops := []*syntax.Stmt{x.Y}, []syntax.BinCmdOperator{x.Op}
		left := x.X
		for {
			b, ok := left.Cmd.(*syntax.BinaryCmd)
			if !ok || b.Op == syntax.Pipe || b.Op == syntax.PipeAll || len(left.Redirs) > 0 || left.Negated || left.Background {
				break
			}
			chain, ops = append(chain, b.Y), append(ops, b.Op)
			left = b.X
		}
		chain = append(chain, left)
		var out flow
		for i := len(chain) - 1; i >= 0 && !a.stop; i-- {
			// chain[i] is followed by the operator of the i-th command
			// unrolled (x first): a && after it gates what follows
			gated := a.gated
			if i > 0 {
				a.gated = ops[i-1] == syntax.AndStmt
			}
			f := a.walkStmt(chain[i], origin)
			a.gated = gated
			if a.wantOut > 0 {
				out = mergeFlow(out, f)
			}
		}
		a.compoundRedirs(s, origin)
		return out
	case *syntax.Subshell:
		saved := a.cwd
		out := a.walkStmts(x.Stmts, origin)
		a.cwd = saved
		a.compoundRedirs(s, origin)
		return out
	case *syntax.Block:
		out := a.walkStmts(x.Stmts, origin)
		a.compoundRedirs(s, origin)
		return out
	case *syntax.IfClause:
		var out flow
		for cl := x; cl != nil; cl = cl.Else {
			a.walkStmts(cl.Cond, origin)
			out = mergeFlow(out, a.walkStmts(cl.Then, origin))
		}
		a.compoundRedirs(s, origin)
		return out
	case *syntax.WhileClause:
		a.loopBomb(s, x, origin)
		if a.inherit.kind == flowSocket && execsVariable(x.Do) {
			c := &cmd{synthetic: "loop", name: "<socket-loop>", origin: origin, depth: a.depth, cwd: a.cwd}
			c.text = truncate(a.srcText(s), 200)
			a.finish(c)
		}
		a.walkStmts(x.Cond, origin)
		restore := a.bindReadVars(s, x)
		out := a.walkStmts(x.Do, origin)
		restore()
		a.compoundRedirs(s, origin)
		return out
	case *syntax.ForClause:
		out := a.walkFor(x, origin)
		a.compoundRedirs(s, origin)
		return out
	case *syntax.CaseClause:
		a.expandOne(x.Word)
		var out flow
		for _, it := range x.Items {
			for _, p := range it.Patterns {
				a.walkNested(p)
			}
			out = mergeFlow(out, a.walkStmts(it.Stmts, origin))
		}
		a.compoundRedirs(s, origin)
		return out
	case *syntax.FuncDecl:
		a.walkFunc(s, x)
		return flow{}
	case *syntax.DeclClause:
		c := a.buildDecl(s, x, origin)
		a.finish(c)
		return c.outFlow(a)
	case *syntax.TimeClause:
		return a.walkStmt(x.Stmt, origin)
	case *syntax.CoprocClause:
		return a.walkStmt(x.Stmt, origin)
	case *syntax.ArithmCmd, *syntax.LetClause, *syntax.TestClause:
		a.walkNested(x)
		a.compoundRedirs(s, origin)
	}
	return flow{}
}

// newCmd returns a zeroed command, reusing one judged earlier if possible.
func (a *analysis) newCmd() *cmd {
	if n := len(a.free); n > 0 {
		c := a.free[n-1]
		a.free = a.free[:n-1]
		return c
	}
	if a.explain {
		return new(cmd)
	}
	if a.next < len(a.arena) {
		c := a.arena[a.next]
		a.next++
		*c = cmd{}
		return c
	}
	c := new(cmd)
	if len(a.arena) < maxArena {
		a.arena = append(a.arena, c)
		a.next++
	}
	return c
}

// maxArena bounds the commands kept from one analysis for the next.
const maxArena = 64

// recycle returns a judged command for reuse; nothing refers to a simple
// command outside a pipeline once it is judged (Explain keeps them all).
func (a *analysis) recycle(c *cmd) {
	if a.explain || c.pipe != nil || len(a.free) >= 16 {
		return
	}
	*c = cmd{}
	a.free = append(a.free, c)
}

// repeated reports whether an identical literal simple command was
// already judged in the same state (long generated command lists repeat
// the same command many times).
func (a *analysis) repeated(s *syntax.Stmt, x *syntax.CallExpr) bool {
	if a.ncmds < 128 || a.explain || a.wantOut > 0 || a.inherit.kind != flowNone || len(x.Assigns) > 0 || len(x.Args) == 0 || len(s.Redirs) > 0 {
		return false
	}
	for _, w := range x.Args {
		for _, p := range w.Parts {
			switch p.(type) {
			case *syntax.Lit, *syntax.SglQuoted:
			default:
				return false
			}
		}
	}
	switch x.Args[0].Lit() {
	case "cd", "pushd", "popd", "exec", "unset", "set", "shopt", "source", ".", "eval", "export":
		return false
	}
	text := a.srcText(s)
	if text == "" || len(text) > 256 {
		return false
	}
	state := seenState{cwd: a.cwd, downloads: len(a.downloads), depth: a.depth}
	if a.seen == nil {
		a.seen = make(map[string]seenState)
	}
	if prev, ok := a.seen[text]; ok && prev == state {
		return true
	}
	a.seen[text] = state
	return false
}

type seenState struct {
	cwd       string
	downloads int
	depth     int
}

// compoundRedirs judges the redirections of a compound command.
func (a *analysis) compoundRedirs(s *syntax.Stmt, origin string) {
	if len(s.Redirs) == 0 {
		return
	}
	c := &cmd{origin: origin, depth: a.depth, cwd: a.cwd}
	c.redirs = a.resolveRedirs(s.Redirs)
	a.finish(c)
}

// walkNested walks command and process substitutions inside any node.
func (a *analysis) walkNested(n syntax.Node) {
	if n == nil {
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			a.walkSubst(n)
			return false
		case *syntax.ProcSubst:
			a.walkProcSubst(n)
			return false
		}
		return !a.stop
	})
}

// walkSubst analyses a command substitution and returns its output.
func (a *analysis) walkSubst(cs *syntax.CmdSubst) flow {
	saved, savedIn := a.cwd, a.inherit
	a.inherit = flow{}
	savedSubsts := a.substs
	a.wantOut++
	out := a.walkStmts(readSubst(cs.Stmts), "command substitution")
	a.wantOut--
	a.cwd, a.inherit = saved, savedIn
	a.substs = append(savedSubsts, out)
	return out
}

// readSubst returns the statements of a substitution, $(< FILE) (the
// shells' short way to read a file) written as the cat FILE it means.
func readSubst(stmts []*syntax.Stmt) []*syntax.Stmt {
	if len(stmts) != 1 || stmts[0].Cmd != nil || len(stmts[0].Redirs) != 1 || stmts[0].Redirs[0].Op != syntax.RdrIn {
		return stmts
	}
	r := stmts[0].Redirs[0]
	cat := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: r.OpPos, ValueEnd: r.OpPos, Value: "cat"}}}
	return []*syntax.Stmt{{Position: stmts[0].Position, Cmd: &syntax.CallExpr{Args: []*syntax.Word{cat, r.Word}}}}
}

func (a *analysis) walkProcSubst(ps *syntax.ProcSubst) flow {
	saved, savedIn := a.cwd, a.inherit
	a.inherit = flow{}
	a.wantOut++
	out := a.walkStmts(ps.Stmts, "process substitution")
	a.wantOut--
	a.cwd, a.inherit = saved, savedIn
	if ps.Op == syntax.CmdOut {
		// >(cmd) is written to, not read from.
		return flow{kind: flowUnknown}
	}
	return out
}

func flattenPipe(s *syntax.Stmt, out []*syntax.Stmt) []*syntax.Stmt {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 {
		out = flattenPipe(b.X, out)
		return flattenPipe(b.Y, out)
	}
	return append(out, s)
}

func (a *analysis) walkPipeline(s *syntax.Stmt, origin string) flow {
	stages := flattenPipe(s, nil)
	savedCwd, savedIn := a.cwd, a.inherit
	cmds := make([]*cmd, len(stages))
	prev := a.inherit
	for i, st := range stages {
		if a.stop {
			break
		}
		stageOrigin := origin
		if call, ok := st.Cmd.(*syntax.CallExpr); ok {
			c := a.buildCall(st, call, stageOrigin, prev)
			c.stage = i
			cmds[i] = c
			prev = c.outFlow(a)
		} else {
			a.inherit = prev
			a.wantOut++
			f := a.walkStmt(st, stageOrigin)
			a.wantOut--
			a.inherit = savedIn
			a.cwd = savedCwd
			c := &cmd{synthetic: "compound", stage: i, in: prev, cwd: a.cwd}
			c.out = &f
			cmds[i] = c
			prev = f
		}
	}
	for _, c := range cmds {
		if c != nil {
			c.pipe = cmds
		}
	}
	for _, c := range cmds {
		if c != nil && c.synthetic == "" {
			a.finish(c)
		}
	}
	a.cwd = savedCwd
	return prev
}

func (a *analysis) walkFor(x *syntax.ForClause, origin string) flow {
	wi, ok := x.Loop.(*syntax.WordIter)
	if !ok {
		a.walkNested(x.Loop)
		if cl, ok := x.Loop.(*syntax.CStyleLoop); ok && stmtsBackground(x.Do) && arithBound(cl.Cond) > 256 {
			a.massSpawn(x, origin)
		}
		return a.walkStmts(x.Do, origin)
	}
	large := false
	for _, w := range wi.Items {
		if needsBraceSplit(w) {
			syntax.SplitBraces(w)
		}
		for _, p := range w.Parts {
			if be, ok := p.(*syntax.BraceExp); ok && be.Sequence && len(be.Elems) >= 2 {
				x1, e1 := strconv.Atoi(be.Elems[0].Lit())
				x2, e2 := strconv.Atoi(be.Elems[1].Lit())
				if e1 == nil && e2 == nil && x2-x1 > 256 {
					large = true
				}
			}
		}
	}
	var items []word
	for _, w := range wi.Items {
		items = a.expandWord(w, items)
	}
	for _, it := range items {
		if it.flow != nil && it.flow.kind == flowList && it.flow.what == "numbers" {
			large = true
		}
	}
	if large && stmtsBackground(x.Do) {
		a.massSpawn(x, origin)
	}
	name := wi.Name.Value
	saved, had := a.vars[name]
	var out flow
	allOK := len(items) > 0 && len(items) <= 8
	for _, it := range items {
		if !it.ok {
			allOK = false
		}
	}
	if allOK {
		for _, it := range items {
			a.setVar(name, it)
			if it.glob {
				// for f in *: $f is each name the pattern matches
				if a.loopGlobs == nil {
					a.loopGlobs = make(map[string]string)
				}
				a.loopGlobs[name] = it.s
			}
			out = a.walkStmts(x.Do, origin)
			delete(a.loopGlobs, name)
			if a.stop {
				break
			}
		}
	} else {
		v := word{s: "$" + name, tail: len(name) + 1}
		for _, it := range items {
			if it.flow != nil {
				v.flow = it.flow
			}
		}
		if v.flow != nil && v.flow.kind == flowList && v.flow.what == blockDevices {
			v = deviceWord(name) // for d in $(lsblk -dpno NAME)
		}
		a.setVar(name, v)
		if f := v.flow; f != nil && f.kind == flowPaths && f.find != nil && len(f.find.roots) > 0 {
			// for f in $(find ~/.aws -type f): each a file find picks
			// under its root, as xargs is given them
			r := f.find.roots[0]
			a.vars[name] = word{s: r.s, ok: r.ok, find: f.find}
		}
		out = a.walkStmts(x.Do, origin)
	}
	if had {
		a.vars[name] = saved
	} else {
		delete(a.vars, name)
	}
	return out
}

func (a *analysis) setVar(name string, w word) {
	if a.vars == nil {
		a.vars = make(map[string]word)
	}
	w.proc, w.find = false, nil
	a.vars[name] = w
}

// walkFunc analyses a function body and looks for fork bombs.
func (a *analysis) walkFunc(s *syntax.Stmt, fd *syntax.FuncDecl) {
	name := ""
	if fd.Name != nil {
		name = fd.Name.Value
	}
	if a.funcs == nil {
		a.funcs = make(map[string]bool)
	}
	a.funcs[name] = true
	c := &cmd{synthetic: "function", name: "<function>", origin: "function definition", depth: a.depth, cwd: a.cwd}
	c.text = a.srcText(s)
	if c.text == "" {
		c.text = name + "() { ... }"
	}
	c.forkBomb = funcForkBomb(name, fd.Body)
	a.finish(c)
	saved := a.cwd
	a.walkStmt(fd.Body, "function "+name+" body")
	a.cwd = saved
	if body := a.srcText(fd.Body); body != "" && name != "" && len(a.funcBodies) < 16 {
		if a.funcBodies == nil {
			a.funcBodies = make(map[string]string)
		}
		a.funcBodies[name] = body
	}
}

// funcForkBomb reports whether a function spawns copies of itself in the
// background or through a pipe: f(){ f|f& }.
func funcForkBomb(name string, body *syntax.Stmt) bool {
	bomb := false
	calls := 0
	syntax.Walk(body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background && stmtCalls(n, name) {
				bomb = true
			}
			if b, ok := n.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
				if stmtCalls(b.X, name) && stmtCalls(b.Y, name) {
					bomb = true
				}
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 && n.Args[0].Lit() == name {
				calls++
			}
		}
		return !bomb
	})
	return bomb || calls >= 2 && stmtBackground(body)
}

func stmtCalls(s *syntax.Stmt, name string) bool {
	found := false
	syntax.Walk(s, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			if l := c.Args[0].Lit(); l == name || name != "" && (l == "$0" || l == "\"$0\"") {
				found = true
			}
		}
		return !found
	})
	return found
}

// execsVariable reports whether statements run a command named by a
// variable ($line).
func execsVariable(ss []*syntax.Stmt) bool {
	found := false
	for _, s := range ss {
		syntax.Walk(s, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 && len(c.Args[0].Parts) > 0 {
				if _, ok := c.Args[0].Parts[0].(*syntax.ParamExp); ok {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

func stmtsBackground(ss []*syntax.Stmt) bool {
	for _, s := range ss {
		if stmtBackground(s) {
			return true
		}
	}
	return false
}

// arithBound returns the literal upper bound of a loop condition such as
// i<5000, or 0.
func arithBound(e syntax.ArithmExpr) int {
	b, ok := e.(*syntax.BinaryArithm)
	if !ok {
		return 0
	}
	if w, ok := b.Y.(*syntax.Word); ok {
		if n, err := strconv.Atoi(w.Lit()); err == nil {
			return n
		}
	}
	return 0
}

func (a *analysis) massSpawn(x *syntax.ForClause, origin string) {
	c := &cmd{synthetic: "spawn", name: "<spawn>", origin: origin, depth: a.depth, cwd: a.cwd}
	c.text = truncate(a.srcText(x), 200)
	a.finish(c)
}

func stmtBackground(s *syntax.Stmt) bool {
	bg := false
	syntax.Walk(s, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.Stmt); ok && st.Background {
			bg = true
		}
		return !bg
	})
	return bg
}

// loopBomb flags infinite loops that keep spawning background processes
// without pausing: while true; do sh & done.
func (a *analysis) loopBomb(s *syntax.Stmt, w *syntax.WhileClause, origin string) {
	if w.Until && !neverCond(w.Cond) || !w.Until && !infiniteCond(w.Cond) {
		return
	}
	spawns, pauses := false, false
	for _, st := range w.Do {
		syntax.Walk(st, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Stmt:
				if n.Background {
					// what runs in the background does not pause the loop
					spawns = true
					return false
				}
				if b, ok := n.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
					if selfSpawn(b.X) && selfSpawn(b.Y) {
						spawns = true
					}
				}
			case *syntax.CallExpr:
				spawns = spawns || pilesUp(n)
				if len(n.Args) > 0 {
					switch path.Base(n.Args[0].Lit()) {
					case "sleep", "wait", "break", "exit", "return", "read", "usleep", "timeout":
						pauses = true
					case "start", "daemonize":
						// Git Bash's start (cmd's) opens the program and
						// returns at once, as & does
						spawns = spawns || len(n.Args) > 1
					case "cmd", "cmd.exe", "powershell", "powershell.exe", "pwsh", "pwsh.exe":
						spawns = spawns || a.winShellStarts(n.Args[1:])
					case "setsid":
						spawns = spawns || len(n.Args) > 2 && (n.Args[1].Lit() == "-f" || n.Args[1].Lit() == "--fork")
					}
				}
			}
			return true
		})
	}
	if spawns && !pauses {
		c := &cmd{synthetic: "loop", name: "<loop>", origin: origin, depth: a.depth, cwd: a.cwd, forkBomb: true}
		c.text = truncate(a.srcText(s), 200)
		a.finish(c)
	}
}

func selfSpawn(s *syntax.Stmt) bool {
	found := false
	syntax.Walk(s, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			switch l := c.Args[0].Lit(); {
			case l == "$0", isShellName(path.Base(l)):
				found = true
			}
			if pe, ok := c.Args[0].Parts[0].(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == "0" {
				found = true
			}
		}
		return !found
	})
	return found
}

// bindReadVars gives the variables of while read VAR... what the loop
// reads: the pipe into it, or a process substitution or file it is
// redirected from. It returns what undoes the binding.
func (a *analysis) bindReadVars(s *syntax.Stmt, w *syntax.WhileClause) func() {
	if len(w.Cond) != 1 {
		return func() {}
	}
	call, ok := w.Cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) < 2 || call.Args[0].Lit() != "read" {
		return func() {}
	}
	in := a.inherit
	for _, r := range s.Redirs {
		if r.Op == syntax.RdrIn {
			if rw := a.expandOne(r.Word); rw.flow != nil {
				in = *rw.flow
			} else if rw.ok {
				in = a.fileFlow(&cmd{cwd: a.cwd}, rw) // done < .env: the file's lines
			} else {
				in = flow{kind: flowUnknown}
			}
		}
	}
	if in.kind == flowNone {
		return func() {}
	}
	type binding struct {
		name string
		w    word
		had  bool
	}
	var saved []binding
	for _, arg := range call.Args[1:] {
		name := arg.Lit()
		if name == "" || strings.HasPrefix(name, "-") {
			continue
		}
		old, had := a.vars[name]
		saved = append(saved, binding{name, old, had})
		fl := in
		if in.kind == flowList && in.what == blockDevices {
			a.setVar(name, deviceWord(name)) // lsblk -dpno NAME | while read d
			continue
		}
		a.setVar(name, word{s: "$" + name, tail: len(name) + 1, flow: &fl})
	}
	return func() {
		for _, b := range saved {
			if b.had {
				a.vars[b.name] = b.w
			} else {
				delete(a.vars, b.name)
			}
		}
	}
}

// neverCond reports an until condition that never holds (until false).
func neverCond(cond []*syntax.Stmt) bool {
	if len(cond) != 1 {
		return false
	}
	x, ok := cond[0].Cmd.(*syntax.CallExpr)
	return ok && len(x.Args) == 1 && x.Args[0].Lit() == "false"
}

func infiniteCond(cond []*syntax.Stmt) bool {
	if len(cond) != 1 {
		return false
	}
	switch x := cond[0].Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Args) == 0 {
			return false
		}
		switch x.Args[0].Lit() {
		case "true", ":":
			return len(x.Args) == 1
		case "[", "test":
			return len(x.Args) <= 3
		}
	case *syntax.ArithmCmd:
		if w, ok := x.X.(*syntax.Word); ok {
			l := w.Lit()
			return l != "" && l != "0"
		}
	}
	return false
}

// buildDecl turns export/declare/local/readonly/typeset into a command.
func (a *analysis) buildDecl(s *syntax.Stmt, x *syntax.DeclClause, origin string) *cmd {
	c := &cmd{origin: origin, depth: a.depth, cwd: a.cwd, bg: s.Background, in: a.inherit}
	variant := "declare"
	if x.Variant != nil {
		variant = x.Variant.Value
	}
	c.words = append(c.words, lit(variant))
	nameref := false
	for _, as := range x.Args {
		switch {
		case as.Naked && as.Name == nil && as.Value != nil:
			n := len(c.words)
			c.words = a.expandWord(as.Value, c.words)
			for _, w := range c.words[n:] {
				if strings.HasPrefix(w.s, "-") && strings.Contains(w.s, "n") {
					nameref = true
				}
				// declare "$x=/": the name is computed
				if name, val, ok := strings.Cut(w.s, "="); ok && w.ok && isVarName(name) {
					a.setVar(name, lit(val))
				}
			}
		case nameref && as.Name != nil && as.Value != nil:
			// declare -n r=HOME: r stands for HOME
			target := a.expandOne(as.Value)
			if v, ok := a.varValue(target.s); ok && target.ok {
				a.setVar(as.Name.Value, lit(v))
			} else if target.ok && isVarName(target.s) {
				// a variable whose value is not known: r reads as $TARGET
				a.setVar(as.Name.Value, word{s: "$" + target.s, tail: len(target.s) + 1})
			}
		case as.Naked && as.Name != nil:
			c.words = append(c.words, lit(as.Name.Value))
		case as.Name != nil:
			var v word
			if as.Value != nil {
				v = a.expandOne(as.Value)
			} else if as.Array != nil {
				a.walkNested(as.Array)
				v = word{s: "(...)", tail: 5}
			} else {
				v = lit("")
			}
			c.assigns = append(c.assigns, assignment{as.Name.Value, v})
			c.words = append(c.words, word{s: as.Name.Value + "=" + v.s, ok: v.ok})
			a.setVar(as.Name.Value, v)
		}
	}
	c.redirs = a.resolveRedirs(s.Redirs)
	a.stdinFromRedirs(c)
	c.setName()
	return c
}

// buildCall resolves a simple command's words, assignments and
// redirections, and unwraps wrappers.
func (a *analysis) buildCall(s *syntax.Stmt, x *syntax.CallExpr, origin string, stdin flow) *cmd {
	c := a.newCmd()
	c.origin, c.depth, c.bg, c.in = origin, a.depth, s.Background, stdin
	for _, as := range x.Assigns {
		if as.Name == nil {
			continue
		}
		var v word
		switch {
		case as.Value != nil:
			v = a.expandOne(as.Value)
		case as.Array != nil:
			a.walkNested(as.Array)
			v = word{s: "(...)", tail: 5}
			if elems, ok := a.arrayWords(as.Array); ok {
				if len(x.Args) == 0 {
					if a.arrays == nil {
						a.arrays = make(map[string][]word)
					}
					a.arrays[as.Name.Value] = elems
				}
				v = lit(joinWords(elems))
			} else if len(as.Array.Elems) == 1 && as.Array.Elems[0].Index == nil && as.Array.Elems[0].Value != nil {
				// ids=(${(f)"$(docker ps -aq)"}): the words of one
				// expansion, what ids=$(docker ps -aq) holds
				v = a.expandOne(as.Array.Elems[0].Value)
			}
		default:
			v = lit("")
		}
		if as.Append {
			if old, ok := a.varValue(as.Name.Value); ok && v.ok {
				v = lit(old + v.s)
			} else {
				v = word{s: "$" + as.Name.Value + v.s, tail: len(as.Name.Value) + 1}
			}
		}
		if as.Index != nil && as.Name.Value == "functions" {
			// zsh: functions[NAME]=BODY defines a function
			a.payload(c, v, "function body")
		}
		c.assigns = append(c.assigns, assignment{as.Name.Value, v})
	}
	savedSubsts := a.substs
	a.substs = nil
	words := a.wordBuf(len(x.Args))
	for _, w := range x.Args {
		words = a.expandWord(w, words)
	}
	c.substs = a.substs
	a.substs = savedSubsts
	c.redirs = a.resolveRedirs(s.Redirs)
	c.cwd = a.cwd
	a.stdinFromRedirs(c)
	if len(words) == 0 {
		for _, as := range c.assigns {
			a.setVar(as.name, as.val)
		}
	}
	c.words = words
	a.unwrap(c)
	c.setName()
	a.envArgs(c)
	a.feedOutputSubsts(s, x, c)
	fishExport(c)
	return c
}

// fishExport gives fish's set -x NAME VALUE (-gx, --export) the
// assignment export NAME=VALUE has, for the rules that judge what a
// variable exported to every later program points at.
func fishExport(c *cmd) {
	if c.name != "set" || len(c.assigns) > 0 {
		return
	}
	args := c.args()
	export := false
	for len(args) > 0 && strings.HasPrefix(args[0].s, "-") {
		switch args[0].s {
		case "-x", "-gx", "-xg", "-Ux", "-xU", "--export":
			export = true
		case "-g", "-U", "-l", "--global", "--universal", "--local":
		default:
			return
		}
		args = args[1:]
	}
	if !export || len(args) < 2 || !isVarName(args[0].s) {
		return
	}
	v := lit(joinWords(args[1:]))
	for _, w := range args[1:] {
		v.ok = v.ok && w.ok
	}
	c.assigns = append(c.assigns, assignment{args[0].s, v})
}

// feedOutputSubsts walks again, with what they are given, the process
// substitutions a command writes to: tee's arguments get its input (tee
// >(curl --data-binary @- URL) < .env), an output redirection's target
// the command's output (cat .env > >(nc HOST PORT)). Their first walk,
// when the words were expanded, gave them nothing to read.
func (a *analysis) feedOutputSubsts(s *syntax.Stmt, x *syntax.CallExpr, c *cmd) {
	outSubst := func(w *syntax.Word) *syntax.ProcSubst {
		if w == nil || len(w.Parts) != 1 {
			return nil
		}
		if ps, ok := w.Parts[0].(*syntax.ProcSubst); ok && ps.Op == syntax.CmdOut {
			return ps
		}
		return nil
	}
	feed := func(ps *syntax.ProcSubst, in flow) {
		if in.kind == flowUnknown || in.kind == flowNone {
			return
		}
		saved, savedIn := a.cwd, a.inherit
		a.inherit = in
		a.wantOut++
		a.walkStmts(ps.Stmts, "process substitution")
		a.wantOut--
		a.cwd, a.inherit = saved, savedIn
	}
	if c.name == "tee" {
		for _, w := range x.Args {
			if ps := outSubst(w); ps != nil {
				feed(ps, c.in)
			}
		}
	}
	for _, r := range s.Redirs {
		if ps := outSubst(r.Word); ps != nil && (r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.ClbOut) && (r.N == nil || r.N.Value == "1") {
			feed(ps, a.computeOut(c))
		}
	}
}

// envArgs adds the arguments a program takes from its environment to its
// words: Terraform's TF_CLI_ARGS and TF_CLI_ARGS_<subcommand>, set on the
// command or earlier on the line, come right after the subcommand.
func (a *analysis) envArgs(c *cmd) {
	if c.name != "terraform" && c.name != "tofu" {
		return
	}
	args := c.args()
	sub := -1
	for i, w := range args {
		if !strings.HasPrefix(w.s, "-") {
			sub = i
			break
		}
	}
	if sub < 0 {
		return
	}
	var extra []word
	for _, name := range [...]string{"TF_CLI_ARGS", "TF_CLI_ARGS_" + args[sub].s} {
		v, ok := word{}, false
		for _, as := range c.assigns {
			if as.name == name {
				v, ok = as.val, true
			}
		}
		if !ok {
			if s, known := a.varValue(name); known {
				v, ok = lit(s), true
			}
		}
		for _, f := range strings.Fields(strings.Trim(v.s, `"'`)) {
			extra = append(extra, word{s: f, ok: v.ok})
		}
	}
	if len(extra) == 0 {
		return
	}
	at := len(c.words) - len(args) + sub + 1
	c.words = append(c.words[:at:at], append(extra, c.words[at:]...)...)
}

func (a *analysis) resolveRedirs(rs []*syntax.Redirect) []redirect {
	if len(rs) == 0 {
		return nil
	}
	out := make([]redirect, 0, len(rs))
	for _, r := range rs {
		rd := redirect{op: r.Op}
		if r.N != nil {
			rd.n = r.N.Value
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			rd.body = a.heredocBody(r)
			rd.isBody = true
		case syntax.WordHdoc:
			rd.w = a.expandOne(r.Word)
			rd.body = rd.w.s + "\n"
			rd.isBody = true
		default:
			rd.w = a.expandOne(r.Word)
		}
		out = append(out, rd)
	}
	return out
}

// heredocBody returns a here-document's text; expansions in an unquoted
// here-document are resolved where known and kept as written otherwise.
func (a *analysis) heredocBody(r *syntax.Redirect) string {
	if r.Hdoc == nil {
		return ""
	}
	quoted := false
	if r.Word != nil {
		for _, p := range r.Word.Parts {
			switch p := p.(type) {
			case *syntax.SglQuoted, *syntax.DblQuoted:
				quoted = true
			case *syntax.Lit:
				if strings.IndexByte(p.Value, '\\') >= 0 {
					quoted = true
				}
			}
		}
	}
	var b []byte
	for _, p := range r.Hdoc.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if quoted {
				b = append(b, p.Value...)
			} else {
				b = appendDQ(b, p.Value)
			}
		case *syntax.ParamExp:
			if v, ok := a.paramValue(p); ok {
				b = append(b, v...)
			} else {
				b = append(b, paramText(p)...)
			}
		case *syntax.CmdSubst:
			fl := a.walkSubst(p)
			if fl.kind == flowText {
				b = append(b, strings.TrimRight(fl.text, "\n")...)
			} else {
				b = append(b, a.srcText(p)...)
			}
		default:
			a.walkNested(p)
			b = append(b, a.srcText(p)...)
		}
		if len(b) > maxWordLen {
			break
		}
	}
	return string(b)
}

// stdinFromRedirs sets what a command reads from its redirections.
func (a *analysis) stdinFromRedirs(c *cmd) {
	for i := range c.redirs {
		r := &c.redirs[i]
		if r.n != "" && r.n != "0" {
			continue
		}
		switch r.op {
		case syntax.WordHdoc:
			if r.w.flow != nil && r.w.flow.kind != flowText {
				c.in = *r.w.flow
			} else {
				c.in = flow{kind: flowText, text: r.body, what: "here-document"}
			}
		case syntax.Hdoc, syntax.DashHdoc:
			c.in = flow{kind: flowText, text: r.body, what: "here-document"}
		case syntax.RdrIn, syntax.RdrInOut:
			c.in = a.fileFlow(c, r.w)
		case syntax.DplIn:
			if a.tcpFDs[r.w.s] {
				c.in = flow{kind: flowSocket, what: "network socket"}
			}
		}
	}
}

// stdinRedirected reports a command whose standard input is a file
// named in its own redirections (base64 < key).
func stdinRedirected(c *cmd) bool {
	for _, r := range c.redirs {
		if (r.n == "" || r.n == "0") && (r.op == syntax.RdrIn || r.op == syntax.RdrInOut) {
			return true
		}
	}
	return false
}

// fileFlow is what reading a file gives.
func (a *analysis) fileFlow(c *cmd, w word) flow {
	if !w.ok {
		if w.flow != nil {
			return *w.flow
		}
		if a.downloads[dynDownload+w.s] {
			return flow{kind: flowRemote, what: "downloaded file " + w.s}
		}
		return flow{kind: flowUnknown}
	}
	if w.proc && w.flow != nil {
		return *w.flow
	}
	if isNetDev(w.s) {
		return flow{kind: flowSocket, what: w.s}
	}
	if d, crit := a.sensitive(w.s, c.cwd); d != "" {
		return flow{kind: flowSecret, what: d, crit: crit}
	}
	if a.isDownloaded(w.s, c.cwd) {
		return flow{kind: flowRemote, what: "downloaded file " + w.s}
	}
	if f, ok := a.writtenFile(w.s, c.cwd); ok {
		return f
	}
	if strings.Contains(w.s, "Downloads/") || c.cwd != a.workDir && strings.Contains(c.cwd, "Downloads") {
		// ~/Downloads/setup.txt: what a browser or a chat saved, of
		// unknown origin
		if rel, mine, home := a.homeRel(a.absPath(w.s, c.cwd)); home && mine && strings.HasPrefix(rel, "Downloads/") {
			return flow{kind: flowRemote, what: "a file from the Downloads folder (" + w.s + ")"}
		}
	}
	return flow{kind: flowLocal, what: w.s}
}

func isNetDev(s string) bool {
	return strings.HasPrefix(s, "/dev/tcp/") || strings.HasPrefix(s, "/dev/udp/")
}

// setName derives the command's canonical name from its first word.
func (c *cmd) setName() {
	if len(c.words) == 0 {
		return
	}
	w := c.words[0]
	s := w.s
	if !w.ok {
		t := s[min(w.tail, len(s)):]
		i := strings.LastIndexByte(t, '/')
		if w.tail == 0 || i < 0 || i == len(t)-1 {
			c.nameUnresolved = true
			return
		}
		s = t[i+1:]
	}
	// zsh expands =cmd to the path of cmd; no program is named "=..."
	if len(s) > 1 && s[0] == '=' && s[1] != '=' {
		s = s[1:]
	}
	base := s
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		base = s[i+1:]
	}
	if i := strings.LastIndexByte(base, '\\'); i >= 0 && i < len(base)-1 && winProgramPath(base) {
		// C:\kafka\bin\windows\kafka-acls.bat, %plesk_cli%\mail.exe,
		// $env:ProgramFiles\x\tool.exe: the program is the last element
		base = base[i+1:]
	}
	c.base = base
	c.name = canonicalName(base)
}

// winProgramPath reports a Windows path to a program: a drive, a share,
// a variable or a relative folder before its backslashes.
func winProgramPath(s string) bool {
	return len(s) > 2 && s[1] == ':' && s[2] == '\\' && isDriveLetter(s[0]) || strings.HasPrefix(s, `\\`) || strings.HasPrefix(s, `.\`) ||
		strings.HasPrefix(s, `..\`) || s[0] == '%' || strings.HasPrefix(strings.ToLower(s), "$env:")
}

// canonicalName folds versions and aliases of a command onto one name.
func canonicalName(b string) string {
	if n, ok := nameAliases[b]; ok {
		return n
	}
	for _, p := range versionedNames {
		if strings.HasPrefix(b, p) && len(b) > len(p) && isVersion(b[len(p):]) {
			return p
		}
	}
	if strings.HasPrefix(b, "mkfs.") || strings.HasPrefix(b, "newfs_") {
		return "mkfs" // newfs_apfs, newfs_hfs, newfs_msdos: macOS and BSD
	}
	if strings.HasSuffix(b, ".exe") {
		return canonicalName(strings.TrimSuffix(b, ".exe"))
	}
	// a tool's Windows launcher script (kafka-topics.bat, pulsar-admin.cmd)
	// is the tool
	for _, ext := range [...]string{".bat", ".cmd"} {
		if n := strings.TrimSuffix(b, ext); n != b && rulesByName[n] != nil && !coreCommands[n] && !commonCommands[n] {
			return n
		}
	}
	return b
}

var versionedNames = []string{"python", "pypy", "perl", "php", "lua", "ruby", "node", "pip", "psql", "bash", "zsh"}

func isVersion(s string) bool {
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != '.' && s[i] != '-' {
			return false
		}
	}
	return true
}

var nameAliases = map[string]string{
	"pypy": "python", "pypy3": "python", "python3": "python", "python2": "python", "ipython": "python", "ipython3": "python",
	// the Python launcher (py.exe on Windows, python-launcher elsewhere)
	// runs the newest Python with the same options
	"py":     "python",
	"nodejs": "node", "gawk": "awk", "mawk": "awk", "nawk": "awk", "busybox-awk": "awk",
	"ncat": "nc", "netcat": "nc", "nc64": "nc", "nc.openbsd": "nc", "nc.traditional": "nc", "cryptcat": "nc", "pwncat": "nc",
	"podman": "docker", "nerdctl": "docker", "podman-compose": "docker-compose",
	"oc": "kubectl", "microk8s.kubectl": "kubectl", "k3s": "kubectl",
	"tofu": "terraform", "terragrunt": "terraform",
	"mke2fs": "mkfs", "mkfs": "mkfs", "newfs": "mkfs",
	"mongosh": "mongo", "mariadb": "mysql", "mysqlsh": "mysql",
	"powershell": "pwsh", "pwsh-preview": "pwsh",
	"rbash": "bash",
	// yadm is git with the home folder as its work tree
	"yadm": "git",
	// OpenBao's client is Vault's, renamed
	"bao": "vault",
	// zsh's zsh/files module: builtin versions of the file tools
	"zf_rm": "rm", "zf_mv": "mv", "zf_ln": "ln", "zf_chmod": "chmod", "zf_chown": "chown", "zf_chgrp": "chgrp", "zf_rmdir": "rmdir", "zf_mkdir": "mkdir",
	"[": "test",
}

var shellNameSet = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true,
	"yash": true, "posh": true, "fish": true, "csh": true, "tcsh": true, "ksh93": true, "oksh": true,
}

func isShellName(s string) bool { return shellNameSet[canonicalName(s)] }

// unresolved records something the analysis cannot see through.
func (a *analysis) unresolved(c *cmd, why, op string) {
	if a.prompt {
		return
	}
	if c != nil {
		c.notes = append(c.notes, why)
		if op == "" {
			op = c.opText()
		}
	}
	if a.explain {
		a.notes = append(a.notes, why+": "+op)
	}
	if a.unres == nil {
		a.unres = &finding{id: "unresolved", category: CategoryUnresolved, level: LevelHigh,
			reason: "cannot be analysed: " + why, op: op,
			suggestions: []string{"Spell the command out literally so it can be checked", "Run it yourself if you trust it"}}
	}
}

// finish judges a built command and records what it changes.
func (a *analysis) finish(c *cmd) {
	if a.stop {
		return
	}
	a.ncmds++
	if a.ncmds > maxCommands {
		a.unresolved(nil, "too many commands to analyse", "")
		a.stop = true
		return
	}
	if c.cwd == "" && c.synthetic == "" {
		c.cwd = a.cwd
	}
	if a.remote > 0 {
		c.remote = true
	}
	if a.explain {
		a.cmds = append(a.cmds, c)
	}
	if c.nameUnresolved {
		why := "the command name is not a literal"
		if len(c.words) > 0 && c.words[0].flow != nil && c.words[0].flow.kind == flowRemote {
			why = "the command name is downloaded"
		}
		a.unresolved(c, why+" ("+truncate(c.words[0].s, 60)+")", "")
	}
	if body, ok := a.funcBodies[c.name]; ok && len(c.words) > 1 && c.synthetic == "" {
		bodies := a.funcBodies
		savedP, saved0 := a.params, a.param0
		a.funcBodies, a.params, a.param0 = nil, append([]word{}, c.args()...), c.words[0]
		a.nested(body, "function "+c.name+" called")
		a.funcBodies, a.params, a.param0 = bodies, savedP, saved0
		if a.stop {
			return
		}
	}
	if text := a.aliased(c); text != "" {
		aliases := a.aliases
		a.aliases = nil // an alias is not expanded in its own text
		a.nested(text, "alias "+c.words[0].s)
		a.aliases = aliases
		if a.stop {
			return
		}
	}
	a.prepare(c)
	a.judge(c)
	if a.stop {
		return
	}
	a.expand(c)
	a.after(c)
}

// bareVar reports "$NAME" or "${NAME}" alone.
func bareVar(s string) bool {
	s, ok := strings.CutPrefix(s, "$")
	if !ok {
		return false
	}
	if inner, ok := strings.CutPrefix(s, "{"); ok {
		s, ok = strings.CutSuffix(inner, "}")
		if !ok {
			return false
		}
	}
	return s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) < 0
}

// after records state changes: cd, downloads, sockets opened with exec.
func (a *analysis) after(c *cmd) {
	if !a.privateLifted && liftsPrivate(c) {
		a.privateLifted = true
	}
	a.contextSwitched(c)
	switch c.name {
	case "read":
		// while read -r line; do echo "$line"; done < .env: each line of
		// the secret held in the variable read
		if c.in.kind != flowSecret {
			return
		}
		in := c.in
		for _, w := range posArgs(c.args(), optSpec{short: "pdntuNi"}) {
			if isVarName(w.s) {
				a.setVar(w.s, word{s: "$" + w.s, tail: len(w.s) + 1, flow: &in})
			}
		}
	case "cd", "pushd":
		if c.pipe != nil {
			return
		}
		args := c.args()
		for len(args) > 0 && (args[0].s == "-P" || args[0].s == "-L" || args[0].s == "-e" || args[0].s == "--") {
			args = args[1:]
		}
		if len(args) == 0 {
			a.cwd = a.home
			if a.home == "" {
				a.cwd = ""
			}
			return
		}
		w := args[0]
		if !w.ok && bareVar(w.s) && !strings.Contains(a.src, `"`+w.s) && a.home != "" {
			// cd $DIR with DIR empty is cd alone: the home directory,
			// the worst place the next command can run
			if _, set := a.vars[strings.Trim(w.s, "${}")]; !set {
				a.cwd = a.home
				return
			}
		}
		if !w.ok || w.s == "-" {
			a.cwd = ""
			return
		}
		p := w.s
		if strings.HasPrefix(p, "~") {
			if a.home == "" {
				a.cwd = ""
				return
			}
			p = a.home + p[1:]
		}
		if !strings.HasPrefix(p, "/") {
			if a.cwd == "" {
				return
			}
			p = a.cwd + "/" + p
		}
		if !a.gated && !a.errexit && c.name == "cd" {
			a.cdFallback = a.cwd // (cd build; ...: if build is missing, here)
		}
		a.cwd = path.Clean(p)
	case "exec", "":
		for _, r := range c.redirs {
			if isNetDev(r.w.s) && r.n != "" {
				if a.tcpFDs == nil {
					a.tcpFDs = make(map[string]bool)
				}
				a.tcpFDs[r.n] = true
			}
		}
	}
	if c.name == "ln" && c.pipe == nil {
		a.recordLink(c)
	}
	if (c.name == "mount" || c.name == "bindfs") && c.pipe == nil {
		a.recordBindMount(c)
	}
	if c.name == "losetup" {
		// losetup /dev/loop9 /dev/sda: the loop device is that disk
		ops := posArgs(c.args(), optSpec{short: "ob", long: []string{"offset", "sizelimit", "sector-size"}})
		if len(ops) == 2 && loopDevice(ops[0].s) && isBlockDevice(ops[1].s) {
			if a.links == nil {
				a.links = map[string]string{}
			}
			a.links[ops[0].s] = ops[1].s
		}
	}
	switch c.name {
	case "alias":
		a.recordAliases(c)
	case "set":
		a.recordSet(c)
	case "sha256sum", "sha512sum", "sha384sum", "shasum", "b2sum":
		if (a.gated || a.errexit) && len(a.released) > 0 && (hasWord(c.args(), "-c") || hasWord(c.args(), "--check")) {
			a.releaseChecked()
		}

	case "git":
		a.recordClone(c)
	}
	a.noteSecretCopy(c)
	a.noteSecretArchive(c)
	a.noteSecretSplit(c)
	a.noteCapture(c)
	if c.name == "git" {
		if sub, args := gitSub(c); sub == "remote" && len(args) >= 3 && (args[0].s == "add" || args[0].s == "set-url") {
			ops := positional(args[1:])
			if len(ops) >= 2 {
				if a.gitRemotes == nil {
					a.gitRemotes = make(map[string]string)
				}
				a.gitRemotes[ops[0].s] = ops[1].s
			}
		}
	}
	a.recordDownloads(c)
	for _, e := range a.exports(c) {
		if p := a.absPath(e.name, c.cwd); p != "" {
			if a.files == nil {
				a.files = make(map[string]flow)
			}
			a.files[p] = e.content
		}
	}
	if c.name == "mkdir" {
		// a directory made here holds nothing yet: mirroring it with
		// deletion empties the destination
		for _, w := range c.operands() {
			if p := a.absPath(w.s, c.cwd); p != "" {
				a.madeDirs = append(a.madeDirs, p)
			}
		}
	}
}

// madeHere reports whether p names a directory made earlier in the
// command line (and so empty unless something was put in it).
func (a *analysis) madeHere(p, cwd string) bool {
	if len(a.madeDirs) == 0 {
		return false
	}
	ap := strings.TrimSuffix(a.absPath(p, cwd), "/")
	for _, d := range a.madeDirs {
		if ap == d {
			return true
		}
	}
	return false
}

// emptySource reports a mirror's source that holds nothing: a directory
// made earlier in the line, or one named for being empty (/tmp/empty,
// ./blank, /var/empty, C:\empty), which a mirror uses only to delete
// whatever its destination holds.
func (a *analysis) emptySource(p, cwd string) bool {
	if a.madeHere(p, cwd) {
		return true
	}
	b := strings.ToLower(path.Base(strings.TrimRight(strings.ReplaceAll(p, `\`, "/"), "/")))
	switch b {
	case "empty", "blank", "null", "nothing", "void", "emptydir", "empty-dir", "empty_dir", "empty.d", "blank-dir", "nada",
		"tmp.xxxxxxxxxx": // "$(mktemp -d)/": a folder made a moment ago
		return true
	}
	return false
}

// arrayWords expands an array literal whose elements are all known.
func (a *analysis) arrayWords(arr *syntax.ArrayExpr) ([]word, bool) {
	var out []word
	for _, e := range arr.Elems {
		if e.Index != nil || e.Value == nil {
			return nil, false
		}
		n := len(out)
		out = a.expandWord(e.Value, out)
		for _, w := range out[n:] {
			if !w.ok {
				return nil, false
			}
		}
	}
	return out, len(out) > 0
}

// recordAliases remembers aliases (bash NAME=VALUE, fish NAME VALUE, zsh
// -g for global ones), which later commands are judged through.
func (a *analysis) recordAliases(c *cmd) {
	args := c.args()
	global := false
	for len(args) > 0 && strings.HasPrefix(args[0].s, "-") {
		if strings.Contains(args[0].s, "g") {
			global = true
		}
		args = args[1:]
	}
	set := func(name, val string) {
		if a.aliases == nil {
			a.aliases = make(map[string]string)
		}
		if global {
			name = "\x00" + name
		}
		a.aliases[name] = val
	}
	if len(args) == 2 && !strings.Contains(args[0].s, "=") && args[0].ok && args[1].ok {
		set(args[0].s, args[1].s) // fish
		return
	}
	for _, w := range args {
		if name, val, ok := strings.Cut(w.s, "="); ok && w.ok && name != "" {
			set(name, val)
		}
	}
}

// recordSet follows set -- ARGS (the positional parameters) and fish's
// set [-lgUx] NAME VALUE.
func (a *analysis) recordSet(c *cmd) {
	args := c.args()
	if len(args) > 0 && args[0].s == "--" {
		a.params = append([]word{}, args[1:]...)
		return
	}
	for _, w := range args {
		// set -e, set -euo pipefail, set -o errexit
		if w.s == "errexit" || len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && strings.IndexByte(w.s, 'e') > 0 {
			a.errexit = true
		}
	}
	fish := len(args) >= 2 && isVarName(args[0].s) // set NAME VALUE...
	for len(args) > 0 && strings.HasPrefix(args[0].s, "-") {
		switch args[0].s {
		case "-l", "-g", "-U", "-x", "-gx", "-xg", "-Ux", "-xU", "-lx", "-xl", "--local", "--global", "--universal", "--export", "-f", "--function":
			fish = true
		default:
			return
		}
		args = args[1:]
	}
	if fish && len(args) >= 1 && isVarName(args[0].s) {
		v := lit(joinWords(args[1:]))
		for _, w := range args[1:] {
			if !w.ok {
				v.ok = false
			}
		}
		if len(args) == 2 && args[1].flow != nil {
			v = args[1] // set -l t (gh auth token): the variable holds what the substitution printed
		}
		a.setVar(args[0].s, v)
	}
}

// aliased is the command text c stands for through an alias, or "".
func (a *analysis) aliased(c *cmd) string {
	if a.aliases == nil || len(c.words) == 0 || c.synthetic != "" || c.name == "alias" {
		return ""
	}
	if v, ok := a.aliases[c.words[0].s]; ok && c.words[0].ok {
		return v + " " + quoteWords(c.args())
	}
	parts := make([]string, len(c.words))
	hit := false
	for i, w := range c.words {
		if v, ok := a.aliases["\x00"+w.s]; ok && w.ok {
			parts[i], hit = v, true
		} else {
			parts[i] = shellQuote(w.s)
		}
	}
	if hit {
		return strings.Join(parts, " ")
	}
	return ""
}

// recordLink remembers a symbolic link "ln -s TARGET LINK", so that later
// paths through LINK are judged where they lead.
func (a *analysis) recordLink(c *cmd) {
	args := c.args()
	o := c.opts()
	if !o.has("s", "symbolic") {
		return
	}
	ops := posArgs(args, optSpec{short: "tS", long: []string{"target-directory", "suffix"}})
	if len(ops) != 2 || !ops[0].ok || !ops[1].ok {
		return
	}
	link := a.absPath(ops[1].s, c.cwd)
	if link == "" {
		return
	}
	target := ops[0].s
	if !strings.HasPrefix(target, "/") && !strings.HasPrefix(target, "~") {
		target = path.Dir(link) + "/" + target // relative to the link's directory
	}
	t := a.absPath(target, c.cwd)
	if t == "" || t == link {
		return
	}
	if strings.HasSuffix(ops[1].s, "/") {
		link += "/" + path.Base(t)
	}
	if a.links == nil {
		a.links = make(map[string]string)
	}
	a.links[link] = t
}

// recordBindMount notes mount --bind SRC DIR (and bindfs SRC DIR): paths
// under DIR are SRC's, judged where they lead, as through a link.
func (a *analysis) recordBindMount(c *cmd) {
	args := c.args()
	if c.name == "mount" {
		bind := false
		for i, w := range args {
			switch {
			case w.s == "--bind" || w.s == "--rbind" || w.s == "-B" || w.s == "-R":
				bind = true
			case w.s == "-o" && i+1 < len(args) && strings.Contains(args[i+1].s, "bind"):
				bind = true
			}
		}
		if !bind {
			return
		}
	}
	ops := posArgs(args, optSpec{short: "otL", long: []string{"options", "types", "label"}})
	if len(ops) != 2 || !ops[0].ok || !ops[1].ok {
		return
	}
	dir, src := a.absPath(ops[1].s, c.cwd), a.absPath(ops[0].s, c.cwd)
	if dir == "" || src == "" || dir == src {
		return
	}
	if a.links == nil {
		a.links = make(map[string]string)
	}
	a.links[dir] = src
}

// outFlow is what the command writes to standard output.
func (c *cmd) outFlow(a *analysis) flow {
	if c.out != nil {
		return *c.out
	}
	f := a.computeOut(c)
	for _, r := range c.redirs {
		if (r.n == "" || r.n == "1") && r.isOutput() {
			f = flow{} // stdout goes to a file
		}
	}
	c.outv = f
	c.out = &c.outv
	return f
}

// zshAnonymous rewrites zsh's anonymous function, () { body } args, as
// the bash it means: a function defined and called at once with args.
func zshAnonymous(src string) (string, bool) {
	t := strings.TrimSpace(src)
	rest, ok := strings.CutPrefix(t, "()")
	if !ok {
		return "", false
	}
	rest = strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(rest, "{") {
		return "", false
	}
	depth := 0
	var q byte
	for i := 0; i < len(rest); i++ {
		ch := rest[i]
		switch {
		case q != 0:
			if ch == q {
				q = 0
			}
		case ch == '\'' || ch == '"':
			q = ch
		case ch == '{':
			depth++
		case ch == '}':
			depth--
			if depth == 0 {
				return "__zsh_anon() {\n" + rest[1:i] + "\n}; __zsh_anon" + rest[i+1:], true
			}
		}
	}
	return "", false
}
