package guard

import (
	"cmp"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
)

// Interpreter code reaches a shell or deletes files through indirection
// as often as through a literal os.system: names assembled from string
// pieces, modules imported by name, methods fetched with getattr or [],
// paths walked before each file is removed. normalizeCode rewrites those
// forms, per language, into the direct calls the scanner knows, before it
// scans.

// rewrite is one normalisation: a pattern and its replacement, tried
// only on code that contains hint (regular expressions cost more than the
// rest of the analysis).
type rewrite struct {
	re   *regexp.Regexp
	with string
	hint string
}

// apply rewrites code when it holds the hint; changed is kept, or set
// when the code changed.
func (r rewrite) apply(code string, changed bool) (string, bool) {
	if !strings.Contains(code, r.hint) {
		return code, changed
	}
	if out := r.re.ReplaceAllString(code, r.with); out != code {
		return out, true
	}
	return code, changed
}

func rw(hint, pat, with string) rewrite {
	return rewrite{re: regexp.MustCompile(pat), with: with, hint: hint}
}

// concatRewrites join adjacent string literals ("o"+"s" → "os").
var concatRewrites = map[string][]rewrite{
	"python": {rw("+", `"([^"\\\n]*)"\s*\+\s*"([^"\\\n]*)"`, `"$1$2"`), rw("+", `'([^'\\\n]*)'\s*\+\s*'([^'\\\n]*)'`, `'$1$2'`),
		rw("+", `"([^"\\\n]*)"\s*\+\s*'([^'\\\n]*)'`, `"$1$2"`), rw("+", `'([^'\\\n]*)'\s*\+\s*"([^"\\\n]*)"`, `"$1$2"`)},
	"js": {rw("+", `"([^"\\\n]*)"\s*\+\s*"([^"\\\n]*)"`, `"$1$2"`), rw("+", `'([^'\\\n]*)'\s*\+\s*'([^'\\\n]*)'`, `'$1$2'`),
		rw("+", `"([^"\\\n]*)"\s*\+\s*'([^'\\\n]*)'`, `"$1$2"`), rw("+", `'([^'\\\n]*)'\s*\+\s*"([^"\\\n]*)"`, `"$1$2"`)},
	"ruby": {rw("+", `"([^"\\\n]*)"\s*\+\s*"([^"\\\n]*)"`, `"$1$2"`), rw("+", `'([^'\\\n]*)'\s*\+\s*'([^'\\\n]*)'`, `'$1$2'`)},
	"perl": {rw(".", `"([^"\\\n]*)"\s*\.\s*"([^"\\\n]*)"`, `"$1$2"`), rw(".", `'([^'\\\n]*)'\s*\.\s*'([^'\\\n]*)'`, `'$1$2'`)},
	"php":  {rw(".", `"([^"\\\n]*)"\s*\.\s*"([^"\\\n]*)"`, `"$1$2"`), rw(".", `'([^'\\\n]*)'\s*\.\s*'([^'\\\n]*)'`, `'$1$2'`)},
	"lua":  {rw("..", `"([^"\\\n]*)"\s*\.\.\s*"([^"\\\n]*)"`, `"$1$2"`), rw("..", `'([^'\\\n]*)'\s*\.\.\s*'([^'\\\n]*)'`, `'$1$2'`)},
	// awk concatenates by juxtaposition
	"awk": {rw("\"", `"([^"\\\n]*)"\s+"([^"\\\n]*)"`, `"$1$2"`)},
}

// pathJoins join the literal pieces of a path built by the language's
// own join (os.path.join("~", ".ssh"), File.join(Dir.home, "**"),
// path.join(os.homedir(), "Documents")), two at a time, and take the
// call away when one piece is left.
var pathJoins = map[string][]rewrite{
	"python": {rw("join", `(os\.path\.join\(\s*)["']([^"'\\\n]*)["']\s*,\s*["']([^"'\\\n]*)["']`, `$1"$2/$3"`),
		rw("join", `os\.path\.join\(\s*("[^"\\\n]*")\s*\)`, `$1`)},
	"ruby": {rw("join", `(File\.join\(\s*)["']([^"'\\\n]*)["']\s*,\s*["']([^"'\\\n]*)["']`, `$1"$2/$3"`),
		rw("join", `File\.join\(\s*("[^"\\\n]*")\s*\)`, `$1`)},
	// R: file.path(Sys.getenv("HOME"), "Documents"): the home read from
	// the environment, then joined
	"r": {rw("Sys.getenv", `Sys\.getenv\(\s*["'](?:HOME|USERPROFILE)["']\s*\)`, `"~"`),
		rw("file.path", `(file\.path\(\s*)["']([^"'\\\n]*)["']\s*,\s*["']([^"'\\\n]*)["']`, `$1"$2/$3"`),
		rw("file.path", `file\.path\(\s*("[^"\\\n]*")\s*\)`, `$1`)},
	"js": {rw("join", `((?:require\(\s*["'](?:node:)?path["']\s*\)|\bpath)\.(?:join|resolve)\(\s*)["']([^"'\\\n]*)["']\s*,\s*["']([^"'\\\n]*)["']`, `$1"$2/$3"`),
		rw("join", `(?:require\(\s*["'](?:node:)?path["']\s*\)|\bpath)\.(?:join|resolve)\(\s*("[^"\\\n]*")\s*\)`, `$1`)},
}

// argConcat matches a command's text that ends with a space and has an
// expression added to it ('sudo usermod -aG sudo ' + os.getlogin()): the
// expression is the command's last argument, whose value is not known.
// Python and JavaScript write it alike.
var argConcat = func() map[string][]rewrite {
	const expr = `\s*\+\s*[A-Za-z_][\w.]*(?:\((?:[^()"']|"[^"]*"|'[^']*')*\))?(?:\.[A-Za-z_]\w*(?:\((?:[^()"']|"[^"]*"|'[^']*')*\))?)*`
	rs := []rewrite{rw("+", `"([^"\\\n]* )"`+expr, `"$1$${EXPR}"`), rw("+", `'([^'\\\n]* )'`+expr, `'$1$${EXPR}'`)}
	return map[string][]rewrite{"python": rs, "js": rs}
}()

// winProfileVar matches the name of a Windows profile folder's variable
// in quotes; winProfileLookup the lookups of one in the languages' own
// forms (os.environ['APPDATA'], os.getenv("LOCALAPPDATA"),
// process.env.APPDATA, Deno.env.get("APPDATA")).
var (
	winProfileVar    = regexp.MustCompile(`["']?(LOCALAPPDATA|APPDATA|OneDriveCommercial|OneDriveConsumer|OneDrive|ONEDRIVE)["']?`)
	winProfileLookup = regexp.MustCompile(`(?:os\.environ\[\s*|os\.(?:getenv|environ\.get)\(\s*|ENV\[\s*|getenv\(\s*|Deno\.env\.get\(\s*)["'](?:LOCALAPPDATA|APPDATA|OneDriveCommercial|OneDriveConsumer|OneDrive|ONEDRIVE)["']\s*[\])]|process\.env\.(?:LOCALAPPDATA|APPDATA|OneDriveCommercial|OneDrive)`)
	winProfileDirs   = map[string]string{"localappdata": "AppData/Local", "appdata": "AppData/Roaming", "onedrive": "OneDrive",
		"onedriveconsumer": "OneDrive", "onedrivecommercial": "OneDrive - Work"}
)

// homeRewrites turn expressions for the home directory into "~".
var homeRewrites = map[string][]rewrite{
	"python": {rw("expanduser", `(?:__import__\(\s*["']os(?:\.path)?["']\s*\)\.|os\.)(?:path\.)?expanduser\(\s*["']~([^"'\\]*)["']\s*\)`, `"~$1"`), rw("HOME", `os\.environ\[\s*["']HOME["']\s*\]`, `"~"`),
		rw("HOME", `os\.(?:getenv|environ\.get)\(\s*["']HOME["']\s*\)`, `"~"`), rw("home()", `(?:pathlib\.)?Path\.home\(\)`, `Path("~")`),
		// Path("~") / '.ssh' / 'authorized_keys', .joinpath('.ssh'): one
		// path, joined a part at a time (twice: two parts deep)
		rw(`Path("~`, `Path\("(~[^"]*)"\)\s*(?:/\s*["']([^"']+)["']|\.joinpath\(\s*["']([^"']+)["']\s*\))`, `Path("$1/$2$3")`),
		rw(`Path("~`, `Path\("(~[^"]*)"\)\s*(?:/\s*["']([^"']+)["']|\.joinpath\(\s*["']([^"']+)["']\s*\))`, `Path("$1/$2$3")`)},
	"ruby":   {rw("Dir.home", `Dir\.home`, `"~"`), rw("HOME", `ENV\[\s*["']HOME["']\s*\]`, `"~"`)},
	"elixir": {rw("user_home", `System\.user_home!?\(\)`, `"~"`), rw("HOME", `System\.get_env\(\s*"HOME"\s*\)`, `"~"`)},
	"erlang": {rw("HOME", `os:getenv\(\s*"HOME"\s*\)`, `"~"`)},
	"r":      {rw("~", `path\.expand\(\s*["']~["']\s*\)`, `"~"`), rw("HOME", `Sys\.getenv\(\s*["']HOME["']\s*\)`, `"~"`)},
	"julia":  {rw("homedir", `homedir\(\)`, `"~"`), rw("HOME", `ENV\[\s*"HOME"\s*\]`, `"~"`)},
	"js": {rw("homedir", `(?:require\(\s*["'](?:node:)?os["']\s*\)|os)\.homedir\(\)`, `"~"`), rw("HOME", `process\.env\.HOME`, `"~"`),
		rw("HOME", `Deno\.env\.get\(\s*["']HOME["']\s*\)`, `"~"`), rw("HOME", `Bun\.env\.HOME`, `"~"`)},
	"php": {rw("HOME", `getenv\(\s*["']HOME["']\s*\)`, `"~"`), rw("HOME", `\$_(?:SERVER|ENV)\[\s*["']HOME["']\s*\]`, `"~"`),
		rw("posix_getpwuid", `posix_getpwuid\(\s*posix_getuid\(\)\s*\)\[\s*["']dir["']\s*\]`, `"~"`)},
	"lua": {rw("HOME", `os\.getenv\(\s*["']HOME["']\s*\)`, `"~"`)},
}

// cwdRewrites turn expressions for the working directory into ".", for
// code that does not change directory first (after a chdir, "." is not
// the directory the command started in).
var cwdRewrites = map[string][]rewrite{
	"python": {rw("getcwd", `os\.getcwd\(\)`, `"."`), rw("cwd()", `(?:pathlib\.)?Path\.cwd\(\)`, `Path(".")`)},
	"ruby":   {rw("Dir.", `Dir\.(?:pwd|getwd)\b`, `"."`)},
	"js":     {rw("cwd", `process\.cwd\(\)`, `"."`), rw("cwd", `Deno\.cwd\(\)`, `"."`)},
	"php":    {rw("getcwd", `\bgetcwd\(\)`, `"."`)},
}

// langRewrites turn indirect forms into direct calls.
var langRewrites = map[string][]rewrite{
	"python": {
		rw("__import__", `__import__\(\s*["'](\w+)["']\s*\)`, `$1`),
		rw("importlib", `importlib\.import_module\(\s*["'](\w+)["']\s*\)`, `$1`),
		rw("getattr", `getattr\(\s*([\w.]+)\s*,\s*["'](\w+)["']\s*\)`, `$1.$2`),
		rw("__dict__", `\b(os|subprocess|shutil)\.__dict__\[\s*["'](\w+)["']\s*\]`, `$1.$2`),
		// os.open(path, os.O_WRONLY): the file opened for writing
		rw("os.open", `\bos\.open\(\s*(["'][^"']*["'])\s*,[^)]*\bO_(?:WRONLY|RDWR)[^)]*\)`, `open($1,'wb')`),
		// libc's system through ctypes, given bytes
		rw("CDLL", `\b(?:ctypes\.)?(?:CDLL|cdll\.LoadLibrary)\([^()]*\)\.system\(\s*b?(["'])`, `os.system($1`),
	},
	"js": {
		rw("require(", `require\(\s*["'](?:node:)?([\w_]+)["']\s*\)\s*\[\s*["'](\w+)["']\s*\]`, `require("$1").$2`),
		rw("[", `([\w)\]])\s*\[\s*["'](\w+)["']\s*\]\s*\(`, `$1.$2(`),
		// global.require('child_process'): require, fetched from the global object
		rw("require(", `\b(?:global|globalThis|window|self)\.require\(`, `require(`),
		rw("spawn_sync", `process\.binding\(\s*["']spawn_sync["']\s*\)`, `child_process`),
		rw("promises", `require\(\s*["'](?:node:)?fs/promises["']\s*\)`, `fs.promises`),
	},
	"perl": {
		rw("q", `\bqq?\s*\{([^{}]*)\}`, `"$1"`),
		rw("q", `\bqq?\s*\(([^()]*)\)`, `"$1"`),
		rw("q", `\bqq?\s*\[([^\[\]]*)\]`, `"$1"`),
		rw("q", `\bqq?\s*\|([^|]*)\|`, `"$1"`),
		rw("unlink", `\bunlink\s+glob\s*\(?\s*("[^"]*"|'[^']*')\s*\)?`, `unlink($1)`),
		rw("unlink", `\bunlink\s+("[^"]*"|'[^']*')`, `unlink($1)`),
		rw("system", `\bsystem\s+("[^"]*"|'[^']*')`, `system($1)`),
		rw("exec", `\bexec\s+("[^"]*"|'[^']*')`, `exec($1)`),
		// open my $d, ">", "/dev/sda": the call without its parentheses
		rw("open", `\bopen\s+((?:my\s+)?[$\w]+\s*,\s*(?:"[^"]*"|'[^']*')\s*,\s*(?:"[^"]*"|'[^']*'))`, `open($1)`),
		// system qw(git checkout -- .): the words of one command
		rw("qw", `\b(system|exec)\s*\(?\s*qw\s*[(\[{/]([^)\]}/]*)[)\]}/]\s*\)?`, `$1("$2")`),
	},
	"php": {
		// array_map('unlink', glob('/srv/x/*')): each file the pattern finds
		rw("array_map", `\barray_map\(\s*["'](unlink|rmdir)["']\s*,\s*glob\(\s*("[^"]*"|'[^']*')\s*\)\s*\)`, `$1($2)`),
	},
	"ruby": {
		rw("send(", `\b(Kernel|Object)\.(?:public_)?send\(\s*:(system|exec|spawn)\s*,`, `$2(`),
		rw("send(", `\.(?:public_)?send\(\s*["':](system|exec|spawn)["']?\s*,`, `.$1(`),
		// FileUtils.public_send(:rm_rf, dir): the method named
		rw("send(", `\b(FileUtils|File|Dir|IO)\.(?:public_)?send\(\s*[:"'](\w+)["']?\s*,\s*`, `$1.$2(`),
	},
	"lua": {
		// os["exec".."ute"] (joined first), then the function kept in a
		// local and called by that name
		rw("[", `\b(os|io)\[\s*["'](\w+)["']\s*\]`, `$1.$2`),
		// string.reverse("/~ fr- mr"), ("..."):reverse(): read back
		rw("reverse", `string\.reverse\(\s*("[^"\\\n]*")\s*\)`, `$1.reverse`),
		rw("reverse", `\(\s*("[^"\\\n]*")\s*\):reverse\(\)`, `$1.reverse`),
	},
	"r": {
		// do.call(system, list("cmd")): system("cmd")
		rw("do.call", `do\.call\(\s*["']?(system2?|shell)["']?\s*,\s*list\(`, `$1(`),
	},
	"awk": {
		rw("ENVIRON", `ENVIRON\[\s*"(\w+)"\s*\]`, `"$$$1"`),
		rw("getline", `("[^"]*")\s*\|\s*getline`, `system($1)`),
	},
}

// walkRewrites: a tree walked and every file in it deleted deletes the
// tree.
var (
	pyWalkRoot = regexp.MustCompile(`os\.walk\(\s*(["'][^"']*["'])`)
	pyGlobRoot = regexp.MustCompile(`Path\(\s*(["'][^"']*["'])\s*\)\s*\.(rglob|glob|iterdir)\(\s*(["'][^"']*["'])?`)
	phpVarFunc = regexp.MustCompile(`\$(\w+)\s*=\s*["'](\w+)["']\s*;`)
	// Dir.glob("~/**/*.pem").each { |f| File.delete(f) }: each file the
	// pattern finds
	rbGlobRoot = regexp.MustCompile(`Dir(?:\.glob\(\s*|\[\s*)("[^"]*"|'[^']*')`)
	rbRemove   = regexp.MustCompile(`\b(?:File\.(?:delete|unlink)|FileUtils\.(?:rm|rm_f|rm_rf|rm_r|remove|remove_file))\b`)
	pyRemove   = regexp.MustCompile(`os\.(?:remove|unlink)\(|\.unlink\(|shutil\.rmtree\(`)
	// File::Find's find or finddepth with a callback that unlinks
	plFindUnlink = regexp.MustCompile(`\bfind(?:depth)?\s*\(\s*(?:\{[^}]*\}|sub\s*\{[^}]*\bunlink\b[^}]*\})\s*,\s*("[^"]*"|'[^']*')`)
	// jsRenamedImport matches child_process's functions destructured
	// under other names ({execSync: x, spawn: s} = require(...)).
	jsRenamedImport = regexp.MustCompile(`\{([^{}]*:[^{}]*)\}\s*=\s*(?:require\(\s*["'](?:node:)?child_process["']\s*\)|await\s+import\(\s*["'](?:node:)?child_process["']\s*\))`)
	jsConst         = regexp.MustCompile(`(?:const|let|var)\s+(\w+)\s*=\s*("[^"\\\n]*"|'[^'\\\n]*')`)
)

var (
	pyImportAs = regexp.MustCompile(`\bimport\s+(os|subprocess|shutil|pathlib|pty|commands)\s+as\s+(\w+)`)
	pyExecStr  = regexp.MustCompile(`\bexec\(\s*"((?:[^"\\]|\\.)*)"\s*\)|\bexec\(\s*'((?:[^'\\]|\\.)*)'\s*\)`)
)

// pyLiteralAssign matches an assignment of a literal path or string to a
// name (p = '/usr/bin/find', k = Path("~/.ssh/authorized_keys"), o =
// __import__('os')), at the start of a statement.
var pyLiteralAssign = regexp.MustCompile(`(?:^|[;\n])\s*([A-Za-z_]\w*)\s*=\s*((?:pathlib\.)?Path\(\s*(?:"[^"\n]*"|'[^'\n]*')\s*\)|"[^"\n]*"|'[^'\n]*'|__import__\(\s*["']\w+["']\s*\))\s*(?:;|\n|$)`)

// pyPathMethods turn pathlib's methods on a literal path into the
// functions the scanner reads: Path("x").open('a') is open("x", 'a'),
// .write_text( is open(.., 'w').write(, .unlink() os.remove, .chmod(
// os.chmod. A Path("x") handed on as an argument is its string.
var pyPathMethods = []rewrite{
	rw("Path(", `(?:pathlib\.)?Path\(\s*("[^"\n]*"|'[^'\n]*')\s*\)\.open\(\s*\)`, `open($1)`),
	rw("Path(", `(?:pathlib\.)?Path\(\s*("[^"\n]*"|'[^'\n]*')\s*\)\.open\(\s*`, `open($1, `),
	rw("Path(", `(?:pathlib\.)?Path\(\s*("[^"\n]*"|'[^'\n]*')\s*\)\.write_text\(`, `open($1,'w').write(`),
	rw("Path(", `(?:pathlib\.)?Path\(\s*("[^"\n]*"|'[^'\n]*')\s*\)\.write_bytes\(`, `open($1,'wb').write(`),
	rw("Path(", `(?:pathlib\.)?Path\(\s*("[^"\n]*"|'[^'\n]*')\s*\)\.read_(?:text|bytes)\(`, `open($1).read(`),
	rw("Path(", `(?:pathlib\.)?Path\(\s*("[^"\n]*"|'[^'\n]*')\s*\)\.(?:unlink|rmdir)\(\s*(?:missing_ok\s*=\s*\w+\s*)?\)`, `os.remove($1)`),
	rw("Path(", `(?:pathlib\.)?Path\(\s*("[^"\n]*"|'[^'\n]*')\s*\)\.chmod\(`, `os.chmod($1, `),
	rw("Path(", `(?:pathlib\.)?Path\(\s*("[^"\n]*"|'[^'\n]*')\s*\)(\s*[,)\]])`, `$1$2`),
}

// pythonBindings writes what a name assigned once holds where it is
// used after the assignment, then pathlib's methods on literal paths as
// the plain functions, so that p = '/usr/bin/find'; os.chmod(p, ...) and
// k = Path.home() / '.ssh'; k.open('a').write(...) are read as written
// out.
func pythonBindings(code string) string {
	if strings.Contains(code, "=") {
		for range 4 {
			m := pyLiteralAssign.FindStringSubmatchIndex(code)
			if m == nil {
				break
			}
			name, val := code[m[2]:m[3]], code[m[4]:m[5]]
			rest := code[m[1]:]
			if strings.Count(code, name+"=")+strings.Count(code, name+" =") > 1 {
				break // assigned again: its value is not the literal
			}
			// (the assignment itself dropped: a name bound to a
			// module is the module's alias)
			if strings.HasPrefix(val, "__import__") {
				val = val[strings.IndexAny(val, `"'`)+1:]
				val = val[:strings.IndexAny(val, `"'`)]
			}
			code = code[:m[0]] + ";" + replaceToken(rest, name, val)
		}
	}
	if strings.Contains(code, "Path(") {
		for _, r := range pyPathMethods {
			code = r.re.ReplaceAllString(code, r.with)
		}
	}
	return code
}

// pythonAliases undoes "import os as o" and appends the code of
// exec("...") so that both are scanned as written directly.
func pythonAliases(code string) string {
	if strings.Contains(code, " as ") {
		for _, m := range pyImportAs.FindAllStringSubmatch(code, 4) {
			code = replaceToken(code, m[2]+".", m[1]+".")
		}
	}
	if strings.Contains(code, "exec(") {
		for _, m := range pyExecStr.FindAllStringSubmatch(code, 4) {
			inner := m[1] + m[2]
			code += "\n" + strings.NewReplacer(`\"`, `"`, `\'`, `'`, `\\`, `\`, `\n`, "\n").Replace(inner)
		}
	}
	return code
}

// normalizeCode rewrites indirect forms of code in lang into direct ones.
func normalizeCode(lang, code string) string {
	if len(code) > 64<<10 {
		return code
	}
	code = foldCharCodes(lang, code)
	if lang == "jvm" {
		code = jvmCalls(code)
	}
	if lang == "python" && (strings.Contains(code, "chr") || strings.Contains(code, "bytes(")) {
		code = foldCharLists(code)
	}
	if re := codeListCalls[lang]; re != nil && strings.Contains(code, codeListHints[lang]) {
		// String.fromCharCode(114,109,...), string.char(114,109,...)
		code = re.ReplaceAllStringFunc(code, func(m string) string {
			if v, ok := charCodeText(re.FindStringSubmatch(m)[1]); ok {
				return `"` + v + `"`
			}
			return m
		})
	}
	if lang == "ruby" && strings.Contains(code, "#{") {
		// `#{"rm"} -rf ~`: a literal interpolated is the literal
		code = rubyLiteralInterp.ReplaceAllString(code, "$1$2")
	}
	if lang == "perl" && strings.Contains(code, "join") {
		// join "", "rm -rf ~": the one string it joins
		code = perlJoinOne.ReplaceAllString(code, "$1")
	}
	if strings.Contains(code, "USERPROFILE") {
		// Windows names the home directory so
		code = strings.ReplaceAll(code, "USERPROFILE", "HOME")
	}
	if strings.Contains(code, "APPDATA") || strings.Contains(code, "OneDrive") {
		// the profile's application data and synced files, looked up by
		// name (os.environ['APPDATA']): their folders under the home
		code = winProfileLookup.ReplaceAllStringFunc(code, func(m string) string {
			sub := winProfileVar.FindStringSubmatch(m)
			if len(sub) < 2 {
				return m
			}
			return `"~/` + winProfileDirs[strings.ToLower(sub[1])] + `"`
		})
	}
	if lang == "js" && strings.Contains(code, ":") && strings.Contains(code, "child_process") {
		// const {execSync: x} = require('child_process'); x('...'): the
		// function under another name
		for _, m := range jsRenamedImport.FindAllStringSubmatch(code, 4) {
			for _, pair := range strings.Split(m[1], ",") {
				orig, alias, ok := strings.Cut(pair, ":")
				if orig, alias = strings.TrimSpace(orig), strings.TrimSpace(alias); ok && orig != "" && alias != "" && alias != orig {
					code = replaceToken(code, alias+"(", orig+"(")
				}
			}
		}
	}
	if lang == "js" && strings.Contains(code, "require(") {
		// const m = "child_process"; require(m) → require("child_process")
		for _, m := range jsConst.FindAllStringSubmatch(code, 8) {
			code = strings.ReplaceAll(code, "require("+m[1]+")", "require("+m[2]+")")
			code = strings.ReplaceAll(code, "["+m[1]+"]", "["+m[2]+"]")
		}
	}
	for _, r := range homeRewrites[lang] {
		if strings.Contains(code, r.hint) {
			code = r.re.ReplaceAllString(code, r.with)
		}
	}
	if !strings.Contains(strings.ToLower(code), "chdir") {
		for _, r := range cwdRewrites[lang] {
			if strings.Contains(code, r.hint) {
				code = r.re.ReplaceAllString(code, r.with)
			}
		}
	}
	if lang == "python" {
		code = pythonAliases(code)
	}
	for i := 0; i < 4; i++ {
		changed := false
		for _, r := range concatRewrites[lang] {
			code, changed = r.apply(code, changed)
		}
		for _, r := range pathJoins[lang] {
			code, changed = r.apply(code, changed)
		}
		if !changed {
			break
		}
	}
	if lang == "python" {
		code = pythonBindings(code)
	}
	for _, r := range argConcat[lang] {
		if strings.Contains(code, r.hint) {
			code = r.re.ReplaceAllString(code, r.with)
		}
	}
	if lang == "php" && strings.Contains(code, "$") {
		// $f = "shell_exec"; $f("cmd"): a variable called as the function
		// whose name it holds
		for _, m := range phpVarFunc.FindAllStringSubmatch(code, 8) {
			code = strings.ReplaceAll(code, "$"+m[1]+"(", m[2]+"(")
		}
	}
	if lang == "ruby" && strings.Contains(code, ".join") {
		code = rbWordLists(code)
	}
	for _, r := range langRewrites[lang] {
		if strings.Contains(code, r.hint) {
			code = r.re.ReplaceAllString(code, r.with)
		}
	}
	if lang == "awk" && strings.Contains(code, "system(") {
		code = awkStringVars(code)
	}
	code = reversedLiterals(lang, code)
	if lang == "perl" && (strings.Contains(code, "system") || strings.Contains(code, "exec")) {
		// $c = "rm -rf ~"; system $c: the string the variable holds
		for _, m := range plScalarLit.FindAllStringSubmatch(code, 8) {
			for _, f := range [...]string{"system ", "system(", "exec ", "exec("} {
				code = strings.ReplaceAll(code, f+"$"+m[1]+";", f+m[2]+";")
				code = strings.ReplaceAll(code, f+"$"+m[1]+")", f+m[2]+")")
				if strings.HasSuffix(code, f+"$"+m[1]) {
					code = strings.TrimSuffix(code, "$"+m[1]) + m[2]
				}
			}
		}
	}
	switch lang {
	case "perl":
		code = perlFold(code)
	case "lua":
		code = luaAliases(code)
	case "r":
		code = rFold(code)
	}
	if (lang == "python" || lang == "js" || lang == "php" || lang == "ruby") && (strings.Contains(code, "for") || strings.Contains(code, "glob")) {
		code += loopLiteralCalls(code)
	}
	if lang == "perl" && strings.Contains(code, "unlink") && strings.Contains(code, "find") {
		for _, m := range plFindUnlink.FindAllStringSubmatch(code, 4) {
			code += "\nrmtree(" + m[1] + ");"
		}
	}
	if lang == "ruby" && strings.Contains(code, "Dir") && rbRemove.MatchString(code) {
		for _, m := range rbGlobRoot.FindAllStringSubmatch(code, 4) {
			code += "\nFileUtils.rm_rf(" + m[1] + ")"
		}
	}
	if lang == "python" && (strings.Contains(code, "os.walk(") || strings.Contains(code, "Path(")) && pyRemove.MatchString(code) {
		for _, m := range pyWalkRoot.FindAllStringSubmatch(code, 4) {
			code += "\nshutil.rmtree(" + m[1] + ")"
		}
		for _, m := range pyGlobRoot.FindAllStringSubmatch(code, 4) {
			// what the pattern matches under the root is removed:
			// Path('.').rglob('__pycache__') is ./**/__pycache__
			root, pat := strings.Trim(m[1], `"'`), strings.Trim(m[3], `"'`)
			switch {
			case m[2] == "iterdir" || pat == "":
				pat = "*"
			case m[2] == "rglob":
				pat = "**/" + pat
			}
			code += "\nshutil.rmtree(\"" + strings.TrimSuffix(root, "/") + "/" + pat + "\")"
		}
	}
	return code
}

// charCodeCalls are each language's call that turns character codes into
// a string: chr(126) is "~".
var charCodeCalls = map[string]*regexp.Regexp{
	"python": regexp.MustCompile(`\bchr\(\s*(\d{1,3})\s*\)`),
	"perl":   regexp.MustCompile(`\bchr\(?\s*(\d{1,3})\s*\)?`),
	"php":    regexp.MustCompile(`\bchr\(\s*(\d{1,3})\s*\)`),
	"ruby":   regexp.MustCompile(`\b(\d{1,3})\.chr\b`),
	"lua":    regexp.MustCompile(`\bstring\.char\(\s*(\d{1,3})\s*\)`),
	"js":     regexp.MustCompile(`\bString\.fromCharCode\(\s*(\d{1,3})\s*\)`),
}

var charCodeHints = map[string]string{"python": "chr(", "perl": "chr", "php": "chr(", "ruby": ".chr", "lua": "string.char(", "js": "fromCharCode("}

// pyCharList matches Python building a string from a list of character
// codes: ”.join(map(chr, [...])), ”.join(chr(c) for c in [...]),
// bytes([...]).decode().
var pyCharList = regexp.MustCompile(`(?:(?:''|"")\.join\(\s*(?:map\(\s*chr\s*,\s*|chr\(\s*(\w+)\s*\)\s+for\s+\w+\s+in\s+)[\[(]([\d,\s]+)[\])]\s*\)?\s*\)|bytes\(\s*\[([\d,\s]+)\]\s*\)\.decode\(\s*\))`)

// foldCharLists replaces Python's strings built from lists of printable
// character codes with the string they spell.
func foldCharLists(code string) string {
	return pyCharList.ReplaceAllStringFunc(code, func(m string) string {
		sub := pyCharList.FindStringSubmatch(m)
		list := sub[2]
		if list == "" {
			list = sub[3]
		}
		v, ok := charCodeText(list)
		if !ok {
			return m
		}
		return `"` + v + `"`
	})
}

// codeListCalls are calls that build a string from a list of character
// codes, per language; codeListHints the text each needs.
var (
	codeListCalls = map[string]*regexp.Regexp{
		"js":  regexp.MustCompile(`String\.fromCharCode\(\s*([\d,\s]+)\)`),
		"lua": regexp.MustCompile(`string\.char\(\s*([\d,\s]+)\)`),
		// join "", map { chr } (114,109,...); pack("C*", 114,109,...)
		"perl": regexp.MustCompile(`(?:map\s*\{\s*chr(?:\s*\(?\s*\$_\s*\)?)?\s*\}\s*\(?|pack\s*\(?\s*["'][Cc]\*["']\s*,\s*)([\d,\s]+)\)?`),
		// [114,109,...].pack("c*"), [114,109,...].map(&:chr).join
		"ruby": regexp.MustCompile(`\[([\d,\s]+)\]\s*\.(?:pack\(\s*["'][Cc]\*["']\s*\)|map\(&:chr\)\.join(?:\(\s*["']{2}\s*\))?)`),
	}
	rubyLiteralInterp = regexp.MustCompile(`#\{\s*(?:"([^"#\\]*)"|'([^'\\]*)')\s*\}`)
	perlJoinOne       = regexp.MustCompile(`join\s*\(?\s*(?:""|'')\s*,\s*("[^"]*")\s*\)?`)
	codeListHints     = map[string]string{"js": "fromCharCode", "lua": "string.char", "perl": "", "ruby": "["}
)

// foldCharCodes replaces calls that build one printable character from
// its code with the character as a string literal, so that the string
// pieces around it are joined and read like the literal they spell.
func foldCharCodes(lang, code string) string {
	re := charCodeCalls[lang]
	if re == nil || !strings.Contains(code, charCodeHints[lang]) {
		return code
	}
	return re.ReplaceAllStringFunc(code, func(m string) string {
		sub := re.FindStringSubmatch(m)
		n, err := strconv.Atoi(sub[1])
		if err != nil || n < 32 || n > 126 || n == '"' || n == '\\' || n == '\'' {
			return m
		}
		return `"` + string(rune(n)) + `"`
	})
}

// argvForms are how each language's inline code reads its operands, and
// the index its first operand has: python -c CODE a b reads a as
// sys.argv[1], node -e CODE a as process.argv[1], ruby and perl as
// ARGV[0] and $ARGV[0], php -r as $argv[1].
var argvForms = map[string]struct {
	prefix string
	first  int
}{
	"python": {"sys.argv[", 1}, "js": {"process.argv[", 1}, "ruby": {"ARGV[", 0}, "perl": {"$ARGV[", 0}, "php": {"$argv[", 1},
}

// codeOperands are the words after the last word of inline code.
func codeOperands(args []word, last word) []word {
	for i := len(args) - 1; i >= 0; i-- {
		if args[i].s == last.s {
			return args[i+1:]
		}
	}
	return nil
}

// bindArgv replaces the operands inline code reads (sys.argv[1], ARGV[0],
// ...) with the literal words given on the command line, so that
// "python -c 'shutil.rmtree(sys.argv[1])' /etc" is read as the call it
// makes.
func bindArgv(lang, code string, ops []word) string {
	f, ok := argvForms[lang]
	if !ok || !strings.Contains(code, f.prefix) {
		return code
	}
	for i, w := range ops {
		if i >= 8 {
			break
		}
		if !w.ok || strings.ContainsAny(w.s, `"\`) {
			continue
		}
		code = strings.ReplaceAll(code, f.prefix+strconv.Itoa(i+f.first)+"]", `"`+w.s+`"`)
	}
	return code
}

var (
	// join("", map { chr } (114, 109, ...)) and pack("C*", 114, ...)
	plCharList = regexp.MustCompile(`join\(\s*(?:""|'')\s*,\s*map\s*\{\s*chr(?:\s*\(\s*\$_\s*\))?\s*\}\s*\(?([\d,\s]+)\)?\s*\)|pack\(\s*["']C\*["']\s*,\s*([\d,\s]+)\)`)
	plPackHex  = regexp.MustCompile(`pack\(\s*["']H\*["']\s*,\s*["']([0-9a-fA-F]+)["']\s*\)`)
	plReverse  = regexp.MustCompile(`\breverse\s*\(?\s*"([^"\\]*)"\s*\)?`)
	plMyStr    = regexp.MustCompile(`\bmy\s+\$(\w+)\s*=\s*("[^"\\]*")\s*;`)
	luaAlias   = regexp.MustCompile(`\blocal\s+(\w+)\s*=\s*(os\.execute|io\.popen|os\.remove)\b`)
	rPaste0    = regexp.MustCompile(`paste0\(\s*((?:"[^"\\]*"\s*,\s*)*"[^"\\]*")\s*\)`)
	rSystem2   = regexp.MustCompile(`system2\(\s*"([^"\\]*)"\s*,\s*(?:args\s*=\s*)?c\(\s*((?:"[^"\\]*"\s*,?\s*)*)\)`)
	rStrLit    = regexp.MustCompile(`"([^"\\]*)"`)
)

// perlFold reads Perl's strings built from character codes or reversed,
// and string variables set once, as the literals they are.
func perlFold(code string) string {
	if strings.Contains(code, "chr") || strings.Contains(code, "pack") {
		code = plCharList.ReplaceAllStringFunc(code, func(m string) string {
			sub := plCharList.FindStringSubmatch(m)
			if v, ok := charCodeText(sub[1] + sub[2]); ok {
				return `"` + v + `"`
			}
			return m
		})
	}
	if strings.Contains(code, "H*") {
		// pack("H*", "726d..."): the bytes the hex digits spell
		code = plPackHex.ReplaceAllStringFunc(code, func(m string) string {
			b, err := hex.DecodeString(plPackHex.FindStringSubmatch(m)[1])
			if err != nil || !printableText(b) {
				return m
			}
			return `"` + string(b) + `"`
		})
	}
	if strings.Contains(code, "reverse") {
		code = plReverse.ReplaceAllStringFunc(code, func(m string) string {
			r := []rune(plReverse.FindStringSubmatch(m)[1])
			for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
				r[i], r[j] = r[j], r[i]
			}
			return `"` + string(r) + `"`
		})
	}
	if strings.Contains(code, "my $") {
		for _, m := range plMyStr.FindAllStringSubmatch(code, 4) {
			code = replaceToken(strings.Replace(code, m[0], "", 1), "$"+m[1], m[2])
		}
	}
	return code
}

// printableText reports bytes that are printable ASCII without quotes or
// backslashes: text that can stand in a string literal as it is.
func printableText(b []byte) bool {
	for _, c := range b {
		if c < 32 || c > 126 || c == '"' || c == '\\' {
			return false
		}
	}
	return len(b) > 0
}

// charCodeText spells a comma-separated list of printable character
// codes.
func charCodeText(list string) (string, bool) {
	var b strings.Builder
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 32 || n > 126 || n == '"' || n == '\\' {
			return "", false
		}
		b.WriteByte(byte(n))
	}
	return b.String(), b.Len() > 0
}

// luaAliases reads a function kept in a local (local x = os.execute)
// and called by that name as the function.
func luaAliases(code string) string {
	if !strings.Contains(code, "local") {
		return code
	}
	for _, m := range luaAlias.FindAllStringSubmatch(code, 4) {
		code = replaceToken(code, m[1]+"(", m[2]+"(")
	}
	return code
}

// rFold joins R's paste0 of string literals and reads system2(cmd,
// c(args)) as the command line it runs.
func rFold(code string) string {
	if strings.Contains(code, "paste0") {
		code = rPaste0.ReplaceAllStringFunc(code, func(m string) string {
			var b strings.Builder
			for _, s := range rStrLit.FindAllStringSubmatch(m, -1) {
				b.WriteString(s[1])
			}
			return `"` + b.String() + `"`
		})
	}
	if strings.Contains(code, "system2") {
		code = rSystem2.ReplaceAllStringFunc(code, func(m string) string {
			sub := rSystem2.FindStringSubmatch(m)
			words := []string{sub[1]}
			for _, s := range rStrLit.FindAllStringSubmatch(sub[2], -1) {
				words = append(words, s[1])
			}
			return `system("` + strings.Join(words, " ") + `"`
		})
	}
	return code
}

// replaceToken replaces old in code where it stands as a token: where old
// begins or ends with a name's character, the code beside it must not
// continue the name (the regular expression \bold\b, without compiling
// one for each name a script defines).
func replaceToken(code, old, with string) string {
	if old == "" {
		return code
	}
	var b strings.Builder
	for i := 0; ; {
		j := strings.Index(code[i:], old)
		if j < 0 {
			b.WriteString(code[i:])
			return b.String()
		}
		j += i
		end := j + len(old)
		before := isIdentByte(old[0]) && j > 0 && isIdentByte(code[j-1])
		after := isIdentByte(old[len(old)-1]) && end < len(code) && isIdentByte(code[end])
		b.WriteString(code[i:j])
		if before || after {
			b.WriteString(old)
		} else {
			b.WriteString(with)
		}
		i = end
	}
}

// loopOverLiterals matches a loop over a list of quoted strings: Python's
// for p in ("a", "b") (in a comprehension too) and JavaScript's
// for (const p of ["a", "b"]).
var loopOverLiterals = regexp.MustCompile(`for\s*\(?\s*(?:const\s+|let\s+|var\s+)?([A-Za-z_]\w*)\s+(?:in|of)\s+[(\[]\s*((?:["'][^"'\n]*["']\s*,?\s*)+)[)\]]`)

// loopOverGlobs match a loop over the files a glob pattern matches, the
// pattern first and the loop's variable second: Python's for f in
// glob.glob(P), PHP's foreach (glob(P) as $f), Ruby's Dir.glob(P).each
// { |f| ... }.
var loopOverGlobs = []*regexp.Regexp{
	regexp.MustCompile(`for\s+(?P<var>\w+)\s+in\s+glob\.i?glob\(\s*(?P<pat>"[^"\n]*"|'[^'\n]*')`),
	// for p in Path(D).iterdir(): each entry of D (D/*); .glob(P) and
	// .rglob(P): D/P and D/**/P
	regexp.MustCompile(`for\s+(?P<var>\w+)\s+in\s+(?:pathlib\.)?Path\(\s*["'](?P<dir>[^"'\n]*)["']\s*\)\.(?P<meth>iterdir|r?glob)\(\s*(?:["'](?P<glob>[^"'\n]*)["'])?`),
	regexp.MustCompile(`foreach\s*\(\s*glob\(\s*(?P<pat>(?:[^()]|\([^()]*\))*)\)\s+as\s+(?P<var>\$\w+)\s*\)`),
	regexp.MustCompile(`Dir\.glob\(\s*(?P<pat>"[^"\n]*"|'[^'\n]*')\s*\)\.each\s*(?:\{|do)\s*\|(?P<var>\w+)\|`),
}

// quotedLiteral matches one quoted string of such a list.
var quotedLiteral = regexp.MustCompile(`["'][^"'\n]*["']`)

// loopLiteralCalls returns, one per line, each call that takes a loop's
// variable as its first argument written once per string the loop goes
// over ([shutil.rmtree(p) for p in ("~/.ssh", "~/.aws")] gives
// shutil.rmtree("~/.ssh") and shutil.rmtree("~/.aws")), so that each is
// judged as if written out.
func loopLiteralCalls(code string) string {
	var b strings.Builder
	type loop struct {
		name string
		over []string
	}
	var loops []loop
	for _, m := range loopOverLiterals.FindAllStringSubmatch(code, 4) {
		loops = append(loops, loop{m[1], quotedLiteral.FindAllString(m[2], 8)})
	}
	// for f in glob.glob(P), foreach (glob(P) as $f), Dir.glob(P).each
	// { |f| ...}: each file the pattern matches, the pattern stands for
	for _, re := range loopOverGlobs {
		for _, m := range re.FindAllStringSubmatch(code, 4) {
			pat := ""
			if i := re.SubexpIndex("pat"); i >= 0 {
				pat = m[i]
			} else {
				dir, glob := m[re.SubexpIndex("dir")], cmp.Or(m[re.SubexpIndex("glob")], "*")
				if m[re.SubexpIndex("meth")] == "rglob" {
					glob = "**/" + glob
				}
				pat = `"` + strings.TrimSuffix(dir, "/") + "/" + glob + `"`
			}
			loops = append(loops, loop{m[re.SubexpIndex("var")], []string{pat}})
		}
	}
	if len(loops) == 0 {
		return ""
	}
	calls := callOfName.FindAllStringSubmatchIndex(code, 32)
	for _, m := range loops {
		n := 0
		for _, at := range calls {
			if code[at[4]:at[5]] != m.name || n == 4 {
				continue
			}
			n++
			callee, rest := code[at[2]:at[3]], ""
			if code[at[6]] == ',' {
				rest = code[at[6]:closingParen(code, at[6])] // the other arguments: , {recursive: true}
			}
			for _, l := range m.over {
				b.WriteString("\n" + callee + "(" + l + rest + ")")
			}
		}
	}
	return b.String()
}

// callOfName matches a call whose first argument is a bare name: the
// callee with its receiver (shutil.rmtree, require("fs").rmSync), the
// name, and what follows it.
var callOfName = regexp.MustCompile(`((?:[A-Za-z_]\w*(?:\([^()]*\))?\.)*[A-Za-z_]\w*)\(\s*(\$?[A-Za-z_]\w*)\s*([,)])`)

// closingParen returns the index of the parenthesis that closes the call
// whose arguments continue at i (or len(s)).
func closingParen(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return len(s)
}

// The JVM languages' one-liners run commands and delete files through
// methods of the value: ["rm", "-rf", d].execute() (Groovy),
// File(d).deleteRecursively() (Kotlin); and name the home directory
// through a system property.
var (
	jvmExecute = regexp.MustCompile(`(\[[^\[\]]*\]|"[^"\n]*")\s*\.execute\(\)`)
	jvmFileOp  = regexp.MustCompile(`(?:new\s+)?(?:java\.io\.)?File\(((?:[^()]|\([^()]*\))*)\)\.(deleteRecursively|deleteDir|delete)\(\)`)
	// File(d).walkBottomUp().forEach { it.delete() }: the tree deleted
	jvmWalkDelete = regexp.MustCompile(`(?:new\s+)?(?:java\.io\.)?File\(((?:[^()]|\([^()]*\))*)\)\.walk(?:BottomUp|TopDown)?\(\)[^\n]*?\bdelete\(\)`)
	// new String[]{"sh", "-c", "cmd"} handed to exec (through reflection too)
	jvmStrArray = regexp.MustCompile(`new\s+String\[\]\s*\{([^{}]*)\}`)
	jvmHome     = regexp.MustCompile(`System\.(?:getProperty\("user\.home"\)|getenv\("HOME"\))`)
)

// rbWordLists writes a word list joined into a string (%w[m e t s y
// s].reverse.join) as that string.
func rbWordLists(code string) string {
	return rbWordList.ReplaceAllStringFunc(code, func(m string) string {
		sub := rbWordList.FindStringSubmatch(m)
		f := strings.Fields(sub[1])
		if sub[2] != "" {
			// ["r", "m"]: the quoted items
			f = f[:0]
			for _, q := range strings.Split(sub[2], ",") {
				f = append(f, strings.Trim(strings.TrimSpace(q), `"`))
			}
		}
		if sub[3] != "" {
			for i, j := 0, len(f)-1; i < j; i, j = i+1, j-1 {
				f[i], f[j] = f[j], f[i]
			}
		}
		return `"` + strings.Join(f, "") + `"`
	})
}

var rbWordList = regexp.MustCompile(`(?:%w\[([^\]]*)\]|\[((?:\s*"[^"\\\n]*"\s*,)*\s*"[^"\\\n]*"\s*)\])(\.reverse)?\.join\b(?:\(\s*(?:""|'')?\s*\))?`)

// awkStringVars writes a variable assigned a string (cmd = "rm -rf "
// "$HOME" "/*", joined already) as that string where system() runs it.
func awkStringVars(code string) string {
	for i := 0; i < 4; i++ {
		changed := false
		for _, r := range concatRewrites["awk"] {
			code, changed = r.apply(code, changed)
		}
		if !changed {
			break
		}
	}
	for _, m := range awkStrAssign.FindAllStringSubmatch(code, 8) {
		code = strings.ReplaceAll(code, "system("+m[1]+")", "system("+m[2]+")")
	}
	return code
}

var awkStrAssign = regexp.MustCompile(`\b(\w+)\s*=\s*("[^"\n]*")\s*[;}\n]`)

// jvmCalls rewrites those forms as calls the language tables know:
// exec(LIST), deleteRecursively(PATH), "~".
func jvmCalls(code string) string {
	code = jvmHome.ReplaceAllString(code, `"~"`)
	code = jvmWalkDelete.ReplaceAllString(code, "deleteRecursively($1)")
	if strings.Contains(code, "exec") {
		code = jvmStrArray.ReplaceAllString(code, "\nexec([$1])\n")
	}
	code = jvmExecute.ReplaceAllString(code, "exec($1)")
	return jvmFileOp.ReplaceAllString(code, "$2($1)")
}

var (
	plScalarLit = regexp.MustCompile(`(?:my\s+)?\$(\w+)\s*=\s*("[^"\\\n]*"|'[^'\\\n]*')\s*;`)
	// 'cmd'[::-1] in Python, reverse "cmd" in Perl, "cmd".reverse in Ruby
	pyReversed   = regexp.MustCompile(`(["'])([^"'\\\n]*)(["'])\s*\[\s*::\s*-1\s*\]`)
	plReversed   = regexp.MustCompile(`\breverse\s*\(?\s*(["'])([^"'\\\n]*)(["'])\s*\)?`)
	rbReversed   = regexp.MustCompile(`(["'])([^"'\\\n]*)(["'])\.reverse\b`)
	jsReversed   = regexp.MustCompile(`(["'])([^"'\\\n]*)(["'])\.split\(\s*(?:""|'')\s*\)\.reverse\(\)\.join\(\s*(?:""|'')\s*\)`)
	reversedRule = map[string]*regexp.Regexp{"python": pyReversed, "perl": plReversed, "ruby": rbReversed, "js": jsReversed, "lua": rbReversed}
)

// reversedLiterals writes a string literal the code reverses as the
// string it becomes ('~ fr- mr'[::-1] is "rm -rf ~").
func reversedLiterals(lang, code string) string {
	re := reversedRule[lang]
	if re == nil || !strings.Contains(code, "reverse") && !strings.Contains(code, "::-1") {
		return code
	}
	return re.ReplaceAllStringFunc(code, func(m string) string {
		sub := re.FindStringSubmatch(m)
		if sub[1] != sub[3] {
			return m
		}
		r := []rune(sub[2])
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return `"` + string(r) + `"`
	})
}
