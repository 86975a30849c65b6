package guard

import (
	"compress/zlib"
	"encoding/hex"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// scriptScan is what a heuristic scan of interpreter code (python -c,
// perl -e, node -e, ...) found.
type scriptScan struct {
	lang     string
	shell    []scriptCall // shell command strings it runs
	argvs    []scriptCall // argument vectors it runs
	deletes  []scriptPath // paths it deletes
	writes   []scriptPath // files it opens for writing
	chmods   []scriptPath // permission changes (path holds "MODE PATH")
	obf      bool         // code decoded from base64 is run
	forkBomb string
	revShell string
	remote   string
	exfil    string
	// shown is a secret the code prints (a key file read and written
	// out, a secret variable or the whole environment printed)
	shown string
}

type scriptCall struct {
	api  string
	cmd  string
	argv []string
}

type scriptPath struct {
	api       string
	path      string
	recursive bool
}

// exec APIs per language: calls whose arguments are commands.
var execAPIs = map[string][]string{
	"python": {"os.system", "os.popen", "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output",
		"subprocess.Popen", "subprocess.getoutput", "subprocess.getstatusoutput", "commands.getoutput", "os.execl", "os.execlp",
		"os.execv", "os.execvp", "os.spawnl", "os.spawnlp", "pty.spawn", "check_output", "check_call", "Popen", "getoutput", "run", "call", "system", "popen"},
	"perl":        {"system", "exec", "qx", "open"},
	"ruby":        {"system", "exec", "spawn", "IO.popen", "Open3.capture2", "Open3.capture3", "Open3.popen3", "Kernel.system", "%x", "sh"},
	"js":          {"execSync", "exec", "spawnSync", "spawn", "execFileSync", "execFile", "Bun.spawn", "Bun.spawnSync", "Deno.run", "Deno.Command", "$"},
	"php":         {"system", "exec", "shell_exec", "passthru", "popen", "proc_open", "pcntl_exec"},
	"lua":         {"os.execute", "io.popen", "vim.fn.system", "vim.fn.systemlist", "vim.system", "vim.fn.jobstart"},
	"awk":         {"system"},
	"pwsh":        {"Invoke-Expression", "iex", "Start-Process", "cmd /c", "bash -c", "sh -c"},
	"applescript": {"do shell script"},
	"r":           {"system", "system2", "shell", "pipe"},
	"julia":       {"run", "read", "pipeline", "success"},
	"tcl":         {"exec", "open"},
	"jvm":         {"exec", "ProcessBuilder", "Runtime.getRuntime().exec"},
	"elixir":      {"System.cmd", ":os.cmd", "System.shell"},
	"erlang":      {"os:cmd"},
}

// delete APIs per language, and whether they delete recursively.
var deleteAPIs = map[string][]scriptPath{
	"python": {{api: "shutil.rmtree", recursive: true}, {api: "rmtree", recursive: true}, {api: "os.remove"}, {api: "os.unlink"},
		{api: "os.rmdir"}, {api: "os.removedirs", recursive: true}, {api: ".unlink"}, {api: "send2trash"}},
	"perl": {{api: "rmtree", recursive: true}, {api: "remove_tree", recursive: true}, {api: "unlink"}},
	"ruby": {{api: "FileUtils.rm_rf", recursive: true}, {api: "FileUtils.rm_r", recursive: true}, {api: "FileUtils.remove_dir", recursive: true},
		{api: "FileUtils.remove_entry", recursive: true}, {api: "FileUtils.rm"}, {api: "File.delete"}, {api: "File.unlink"}, {api: "rm_rf", recursive: true}},
	"js": {{api: "Deno.removeSync", recursive: true}, {api: "Deno.remove", recursive: true}, {api: "fs.rmSync", recursive: true}, {api: "fs.rmdirSync", recursive: true}, {api: "fs.rm", recursive: true}, {api: "rmSync", recursive: true},
		{api: "fs.promises.rm", recursive: true}, {api: "fs.unlinkSync"}, {api: "fs.unlink"}, {api: "rimraf", recursive: true}, {api: "Deno.remove", recursive: true}},
	"php":    {{api: "unlink"}, {api: "rmdir"}},
	"lua":    {{api: "os.remove"}},
	"r":      {{api: "unlink", recursive: true}, {api: "file.remove"}},
	"julia":  {{api: "rm", recursive: true}},
	"tcl":    {{api: "file delete", recursive: true}},
	"jvm":    {{api: "deleteRecursively", recursive: true}, {api: "deleteDir", recursive: true}, {api: "FileUtils.deleteDirectory", recursive: true}, {api: "delete"}, {api: "Files.delete"}},
	"pwsh":   {{api: "Remove-Item", recursive: true}, {api: "rm -r", recursive: true}, {api: "rmdir", recursive: true}},
	"elixir": {{api: "File.rm_rf!", recursive: true}, {api: "File.rm_rf", recursive: true}, {api: "File.rm!"}, {api: "File.rm"}},
	"erlang": {{api: "file:del_dir_r", recursive: true}, {api: "file:delete"}},
}

// write APIs per language: calls whose first argument is a file written.
var writeAPIs = map[string][]string{
	"python": {"open"},
	"perl":   {"open"},
	"ruby":   {"File.write", "File.open", "IO.write"},
	"js":     {"fs.writeFileSync", "fs.appendFileSync", "fs.writeFile", "fs.appendFile", "writeFileSync", "appendFileSync", "Deno.writeTextFile", "Deno.writeTextFileSync", "Deno.writeFileSync", "Bun.write"},
	"php":    {"file_put_contents", "fopen"},
	"lua":    {"io.open"},
	"pwsh":   {"Set-Content", "Add-Content", "Out-File"},
}

// downloadAPIs are the calls per language that save a download to a
// file: the argument at url is where from, the one at path where to.
var downloadAPIs = map[string][]struct {
	api       string
	url, path int
}{
	"python": {{"urlretrieve", 0, 1}, {".urlretrieve", 0, 1}, {"wget.download", 0, 1}},
	"perl":   {{"getstore", 0, 1}, {"mirror", 0, 1}},
	"ruby":   {{"IO.copy_stream", 0, 1}},
	"php":    {{"copy", 0, 1}},
	"r":      {{"download.file", 0, 1}},
	"julia":  {{"download", 0, 1}, {"Downloads.download", 0, 1}},
}

// urlLiteral is the first URL written in code.
var urlLiteral = regexp.MustCompile(`https?://[^\s'"()<>]+`)

// linkDownloads reads code that saves a download to a file (a download
// API, or a file written by code that fetches) as the shell download
// `curl -so FILE URL`, analysed before the commands the code runs, so that
// running the file afterwards is running downloaded code, as it is in a
// shell.
func (sc *scriptScan) linkDownloads(code, low string) {
	url := urlLiteral.FindString(code)
	var dests []string
	for _, d := range downloadAPIs[sc.lang] {
		forEachCall(code, d.api, sc.lang, func(args string) {
			items := splitArgs(args, sc.lang)
			if len(items) <= max(d.url, d.path) {
				return
			}
			if u := items[d.url]; u.isStr && urlLiteral.MatchString(u.str) {
				url = u.str
			} else if sc.lang == "php" || sc.lang == "ruby" && !hasAny(low, langNet["ruby"].fetch...) {
				return // a copy of a local file
			}
			if p := scriptPathOf(items[d.path].raw, sc.lang); p != "" {
				dests = append(dests, p)
			}
		})
	}
	if hasAny(low, langNet[sc.lang].fetch...) {
		for _, w := range sc.writes {
			dests = append(dests, w.path)
		}
	}
	if len(dests) == 0 {
		return
	}
	if url == "" {
		url = "https://unknown.invalid/"
	}
	calls := make([]scriptCall, 0, len(dests)+len(sc.shell))
	for _, p := range dests {
		calls = append(calls, scriptCall{api: "download", cmd: "curl -so " + shellQuote(p) + " " + shellQuote(url)})
	}
	sc.shell = append(calls, sc.shell...)
}

// scanScript scans interpreter code. home markers (os.path.expanduser('~'),
// process.env.HOME, ...) resolve to "~".
func scanScript(lang, code string) *scriptScan {
	sc := &scriptScan{lang: lang}
	if len(code) > maxWordLen {
		code = code[:maxWordLen]
	}
	code = normalizeCode(lang, code)
	// a base64 literal decoded anywhere in the code (eval, exec, a
	// variable later run) is scanned as more code of the same language
	for i := 0; i < 2; i++ {
		dec := decodedLiteral(code, lang)
		if dec == "" || strings.Contains(code, dec) {
			break
		}
		code += "\n" + normalizeCode(lang, dec)
	}
	low := strings.ToLower(code)
	sc.scanCommands(code)
	sc.argvs = append(sc.argvs, sdkCommands(lang, code, low)...)
	if lang == "awk" && strings.Contains(code, "|") {
		sc.shell = append(sc.shell, awkPrintedCommands(code)...)
	}
	sc.scanDeletes(code)
	sc.scanWrites(code)
	if lang == "awk" && strings.Contains(code, ">") {
		// print > "file", printf "" >> "file": awk's own redirections
		for _, m := range awkRedirect.FindAllStringSubmatch(code, 4) {
			sc.writes = append(sc.writes, scriptPath{api: "print >", path: m[1]})
		}
	}
	sc.scanChmods(code)
	sc.forkBomb = endlessSpawn(lang, low)
	sc.scanNetwork(code, low)
	sc.linkDownloads(code, low)
	if sc.remote == "" && lang == "python" {
		sc.remote = unsafeModelLoad(low)
	}
	if sc.exfil == "" {
		sc.shown = secretShown(code, low, lang)
	}
	return sc
}

// secretReads are each language's calls that read a file's content;
// secretPrints its calls that write text to the output.
var (
	secretReads = map[string][]string{
		"python": {".read_text(", ".read()", ".read_bytes(", "readlines(", "configparser", "json.load(", "'read_text'", `"read_text"`, "keyring.get_password(", "keyring.get_credential(",
			"yaml.safe_load(", "yaml.load(", "netrc.netrc(", "browser_cookie3."},
		"js":    {"readfilesync(", "readfile(", "deno.readtextfile", "bun.file(", ".text()"},
		"ruby":  {"file.read(", "io.read(", "file.readlines(", ".read"},
		"perl":  {"<$", "<f>", "<fh>", "slurp", "read_file("},
		"php":   {"file_get_contents(", "file(", "readfile(", "fread("},
		"lua":   {":read(", "io.lines("},
		"r":     {"readlines(", "read_file(", "readchar("},
		"julia": {"read(", "readlines(", "readchomp("},
		"tcl":   {"read $", "read [", "gets "},
	}
	secretPrints = map[string][]string{
		"python": {"print(", "sys.stdout.write"},
		"js":     {"console.log", "process.stdout.write", "console.dir", "console.info"},
		"ruby":   {"puts ", "puts(", "print ", "p ", "pp ", "$stdout"},
		"perl":   {"print", "say "},
		"php":    {"echo ", "echo(", "print ", "print_r", "var_dump", "readfile(", "printf"},
		"lua":    {"print(", "io.write("},
		"r":      {"cat(", "print(", "writelines(", "message("},
		"julia":  {"println(", "print(", "display("},
		"tcl":    {"puts "},
	}
	// envLookup matches a language's lookup of one environment variable
	// by name: os.environ["X"], os.getenv("X"), process.env.X, ENV["X"],
	// getenv("X"), $ENV{X}, Sys.getenv("X"), $env(X).
	envLookup = regexp.MustCompile(`(?:os\.environ\[\s*["']|os\.(?:getenv|environ\.get)\(\s*["']|process\.env\.|process\.env\[\s*["']|Deno\.env\.get\(\s*["']|Bun\.env\.|ENV\[\s*["']|ENV\.fetch\(\s*["']|getenv\(\s*["']|\$ENV\{\s*["']?|Sys\.getenv\(\s*["']|\$env\(|\$_ENV\[\s*["']|\$_SERVER\[\s*["'])([A-Za-z_][A-Za-z0-9_]*)`)
)

// sentSecretVar returns the secret variable that code which sends data
// looks up by name (getenv("STRIPE_SECRET_KEY") in a request's URL), unless
// the code only asks whether it is set.
func sentSecretVar(code, low string) string {
	if hasAny(low, "bool(", "boolean(", "!!", "isset(", " is none", " is not none", "!= null", "!== undefined", "=== undefined") {
		return ""
	}
	if hasAny(low, "authorization", "bearer", "headers", "auth=", "x-api-key", "private-token", "token=") {
		return "" // the token used as a credential for the request, as curl -H does
	}
	for _, m := range envLookup.FindAllStringSubmatch(code, 4) {
		if isSecretVar(m[1]) {
			return m[1]
		}
	}
	return ""
}

// secretShown describes a secret that one-line interpreter code prints
// into the output: a credential file read and printed (python -c
// "print(open(...).read())", node -p, ruby puts File.read), a secret
// variable printed, or the whole environment dumped.
// envAsCondition matches a secret variable's lookup used as a condition
// that picks between two messages: 'set' if os.getenv('X') else
// 'missing', process.env.X ? 'set' : 'missing'.
var envAsCondition = regexp.MustCompile(`['"]\s+if\s+(?:not\s+)?os\.(?:getenv|environ\.get)\([^)]*\)\s+else\s+['"]|(?:env(?:\.\w+|\[[^\]]+\]))\s*\?\s*['"][^'"]*['"]\s*:\s*['"]`)

func secretShown(code, low, lang string) string {
	if lang == "r" && strings.HasSuffix(strings.TrimRight(strings.ReplaceAll(low, " ", ""), ";\n"), "sys.getenv()") {
		// Rscript -e 'Sys.getenv()': a value left at the top level is
		// printed
		return "the environment variables"
	}
	if !hasAny(low, secretPrints[lang]...) {
		return ""
	}
	if lang == "python" && hasAny(low, ".sections()", ".keys()", "list(") && !hasAny(low, "['", `["`, ".values()", ".items()", "secret", "token", "password", "private", "cookie") {
		return "" // print(c.sections()), print(list(json.load(f).get('auths', {}))): the names alone
	}
	if lang == "js" && strings.Contains(low, "object.keys(") && !hasAny(low, "object.values(", "object.entries(", "json.stringify(", "].", "]))", "map(") {
		return "" // console.log(Object.keys(dotenv.parse(...))): the names alone
	}
	if lang == "php" && strings.Contains(low, "array_keys(") && !hasAny(low, "array_values(", "print_r(json", "var_dump(json", "']['", `"]["`) {
		return "" // echo implode(PHP_EOL, array_keys(json_decode(...))): the names alone
	}
	if hasAny(low, secretReads[lang]...) && !hasAny(low, "print(bool(", "print(len(", " is not none)", " is none)") {
		what := sensitiveInCode(code, low, lang)
		publicKey := (strings.Contains(what, "ssh") || strings.Contains(what, "id_")) && strings.Contains(low, ".pub")
		if what != "" && !strings.HasPrefix(what, "the environment") && !publicKey {
			return what // (a public key, id_ed25519.pub, is meant to be shown)
		}
	}
	if what := sensitiveInCode(code, low, lang); what == "the environment variables" {
		return what
	}
	if lang == "js" && hasAny(low, "console.log(process.env)", "console.log(bun.env)", "console.log(deno.env.toobject())", "console.dir(process.env)") {
		return "the environment variables"
	}
	if hasAny(low, "url(", "urlparse(", "urlsplit(", "uri.parse(", "uri(") && hasAny(low, ").hostname", ").host)", ").host,", ").port", ").scheme", ").protocol", ").pathname", ").path)", ").netloc") &&
		!hasAny(low, ".password", ".username", ".userinfo", ".href", ".user", "tostring(") {
		return "" // new URL(process.env.DATABASE_URL).hostname: the host of the connection, not its password
	}
	if hasAny(low, "bool(", "len(", "boolean(", "!!", "in os.environ", "in process.env", "is not none", "is none", ".nil?", "isset(", "haskey(", "defined(", "!= null", "!== undefined", "=== undefined", "isempty(", "nchar(", "length(",
		".startswith(", ".endswith(", ".start_with?(", ".end_with?(") || envAsCondition.MatchString(code) {
		return "" // whether it is set, or how long: not its value
	}
	if hasAny(low, "authorization", "bearer", "headers") && !hasAny(low, "print(os.", "print(f'{os.", `print(f"{os.`, "console.log(process.env", "puts env[", "echo getenv(") {
		return "" // the token sent as the request's credential; what is printed is the answer
	}
	if !strings.Contains(low, "env") && !strings.Contains(code, "$_SERVER") {
		return "" // no lookup envLookup could match: the regular expression is slow on long code
	}
	for _, m := range envLookup.FindAllStringSubmatchIndex(code, 4) {
		name := code[m[2]:m[3]]
		if !isSecretVar(name) && !(strings.HasSuffix(name, "_URL") && strings.Contains(name, "DATABASE")) {
			continue
		}
		if f := enclosingCall(code, m[0]); clientCall(f) {
			// Canvas(url, os.environ['CANVAS_TOKEN']), sql.connect(...,
			// access_token=os.environ[...]): handed to a client, which
			// signs in with it; what is printed is the answer
			continue
		}
		return "the secret variable " + name
	}
	return ""
}

// clientCall reports a call that signs a client in with what it is given:
// a constructor (Canvas(...), WebClient(...); not URL or URI, which only
// parse it) or a connect or login function.
func clientCall(name string) bool {
	if name == "" {
		return false
	}
	switch strings.ToLower(name) {
	case "url", "uri", "urlparse", "urlsplit", "string", "buffer", "json", "date":
		return false
	case "connect", "client", "login", "authenticate", "auth", "session", "create_client", "createclient", "init", "initialize":
		return true
	}
	return name[0] >= 'A' && name[0] <= 'Z'
}

// enclosingCall returns the name of the innermost call whose
// parentheses hold position i of code ("" at the top level).
func enclosingCall(code string, i int) string {
	depth := 0
	for j := i - 1; j >= 0; j-- {
		switch code[j] {
		case ')', ']', '}':
			depth++
		case '[', '{':
			if depth > 0 {
				depth--
			}
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			k := j
			for k > 0 && (isAlnum(code[k-1]) || code[k-1] == '_') {
				k--
			}
			return code[k:j]
		}
	}
	return ""
}

// pickleLoads are the Python loaders that run code a file carries
// (pickle and the libraries built on it, unsafe YAML).
var pickleLoads = [...]string{"pickle.load", "torch.load(", "joblib.load(", "dill.load", "cloudpickle.load", "read_pickle(",
	"yaml.unsafe_load(", "loader=yaml.unsafeloader", "loader=yaml.loader", "shelve.open("}

// unsafeModelLoad describes Python (lower case) that runs code shipped
// with a model or data file: a model repository's own code allowed in
// (trust_remote_code=True), a vector store's pickles allowed
// (allow_dangerous_deserialization=True), or a pickle-family load of a
// file from the network, a temporary folder or the downloads folder.
func unsafeModelLoad(low string) string {
	if strings.Contains(low, "trust_remote_code=true") {
		return "a model repository's own code (trust_remote_code=True)"
	}
	if strings.Contains(low, "allow_dangerous_deserialization=true") {
		return "pickled objects allowed in (allow_dangerous_deserialization=True)"
	}
	load := strings.Contains(low, "allow_pickle=true")
	for _, l := range pickleLoads {
		if strings.Contains(low, l) {
			if l == "torch.load(" && strings.Contains(low, "weights_only=true") {
				continue
			}
			load = true
		}
	}
	if load && (strings.Contains(low, "://") || strings.Contains(low, "urlopen") || strings.Contains(low, "requests.get") ||
		strings.Contains(low, "'/tmp/") || strings.Contains(low, "\"/tmp/") || strings.Contains(low, "/downloads/")) {
		return "a pickle from the network or a temporary folder loaded (it runs the code it carries)"
	}
	return ""
}

// netMarkers are what a language's code uses to reach the network: a
// socket (sock, with sockAlso when set), a download (fetch) run as code
// (run), a request that sends data (send).
type netMarkers struct {
	sock, sockAlso, fetch, run, send []string
}

var langNet = map[string]netMarkers{
	"python": {sock: []string{"socket"}, sockAlso: []string{"connect", "accept("},
		fetch: []string{"urlopen", "requests.get", "urllib", "http.client", "httpx", "urlretrieve"}, run: []string{"exec(", "eval(", "compile(", "exec ("},
		send: []string{"requests.post", "requests.put", "urlopen(", "urllib.request.request", "http.client", ".send(", ".sendall(", "smtplib", "ftplib", "paramiko", "httpx.post", "requests.request",
			"paho.mqtt", ".publish("}},
	"perl": {sock: []string{"io::socket", "socket("}, sockAlso: []string{"connect", "peeraddr", "new("},
		fetch: []string{"lwp", "http::tiny", "get(\"http", "get('http"}, run: []string{"eval", "system(", "system ", "exec(", "qx(", "qx{"},
		send: []string{"->post", "io::socket", "lwp", "http::tiny", "net::smtp", "net::ftp"}},
	"ruby": {sock: []string{"tcpsocket", "socket.new", "socket.tcp"},
		fetch: []string{"open-uri", "net::http", "uri.open", "open(\"http", "open('http", "uri.parse"}, run: []string{"eval", "instance_eval"},
		send: []string{"net::http.post", "post_form", "tcpsocket", ".post(", "net::smtp", "net::ftp"}},
	"js": {sock: []string{"net.socket", "net.connect", "require('net')", "require(\"net\")", "from 'net'", "from \"net\"", "createconnection", "deno.connect", "bun.connect"},
		fetch: []string{"fetch(", "http.get", "https.get", "https').get", "http').get", `https").get`, `http").get`, "axios", "request(",
			"import('http", `import("http`},
		// import('https://…') under network imports, import('data:…'+code)
		run: []string{"eval(", "(eval)", "new function", "vm.run", "runinthiscontext", "runinnewcontext",
			"import('http", `import("http`, "import('data:", `import("data:`},
		send: []string{"fetch(", "http.request", "https.request", "axios", "xmlhttprequest", "net.connect", ".write(",
			// const h = require('https'); h.request(...): the module by another name
			"require('https')", `require("https")`, "require('http')", `require("http")`, "require('node:https')", `require("node:https")`, "require('tls')", "require('dgram')",
			// an MQTT or a WebSocket client publishing what it read
			"require('mqtt')", `require("mqtt")`, "new websocket("}},
	"php": {sock: []string{"fsockopen", "socket_create", "stream_socket_client"},
		fetch: []string{"file_get_contents('http", "file_get_contents(\"http", "curl_exec", "fopen('http", "fopen(\"http", "file_get_contents($_",
			"include 'http", "include \"http", "require 'http", "require \"http", "include('http", "include(\"http"},
		run:  []string{"eval(", "assert(", "create_function", "include", "require"},
		send: []string{"curl_exec", "fsockopen", "stream_context_create", "mail(", "ftp_put", "file_get_contents(\"http", "file_get_contents('http", "fopen(\"http", "fopen('http"}},
	"tcl": {sock: []string{"socket "}, sockAlso: []string{"exec "}},
	"lua": {sock: []string{"socket.tcp", "socket.connect", "require('socket')", "require(\"socket\")"},
		fetch: []string{"http.request", "socket.http"}, run: []string{"loadstring", "load(", "dostring"},
		send: []string{"http.request", "socket.http", "socket.tcp", "socket.connect"}},
	"awk": {sock: []string{"/inet/tcp/", "/inet/udp/"}},
	"r": {sock: []string{"socketconnection("}, sockAlso: []string{"system("},
		fetch: []string{"url(", "httr::get", "download.file", "readlines(\"http", "readlines('http"}, run: []string{"eval(parse", "source("},
		send: []string{"httr::post", "httr::put", "upload_file", "curl_upload", "postform"}},
	"julia": {sock: []string{"connect("}, sockAlso: []string{"run("},
		fetch: []string{"http.get", "downloads.download", "download("}, run: []string{"include(", "eval(meta.parse", "eval(parse"},
		send: []string{"http.post", "http.put", "downloads.request", "upload"}},
	"erlang": {sock: []string{"gen_tcp:connect"}, sockAlso: []string{"os:cmd", "open_port"},
		fetch: []string{"httpc:request"}, run: []string{"erl_eval", "erl_parse", "code:load_binary"},
		send: []string{"httpc:request(post", "httpc:request(put", "gen_tcp:send"}},
	"elixir": {sock: []string{":gen_tcp.connect"}, sockAlso: []string{"system.cmd", ":os.cmd", "port.open"},
		fetch: []string{":httpc.request", "httpoison.get", "req.get", "finch"}, run: []string{"code.eval_string", "code.eval_file", "code.compile_string"},
		send: []string{"httpoison.post", "req.post", ":httpc.request(:post", "httpoison.put", "req.put"}},
	"pwsh": {sock: []string{"net.sockets.tcpclient", "sockets.tcpclient", "tcpclient("},
		fetch: []string{"downloadstring", "invoke-webrequest", "iwr ", "iwr(", "irm ", "irm(", "invoke-restmethod", "net.webclient", "downloadfile"},
		run:   []string{"iex", "invoke-expression", "| iex", "start-process", "&("},
		send:  []string{"invoke-webrequest", "invoke-restmethod", "uploadstring", "uploadfile", "iwr ", "irm ", "-method post"}},
}

// shellOfDownload matches a shell call whose argument is a download.
var shellOfDownload = regexp.MustCompile(`(?:system|popen|check_output|getoutput|run|call)\s*\([^;\n]*(?:urlopen|requests\.get|httpx\.get|urlretrieve)`)

// jsArgsOption is the args list of Deno.Command's options; jsStrLit a
// string literal in it.
var (
	jsArgsOption = regexp.MustCompile(`args\s*:\s*\[([^\]]*)\]`)
	jsStrLit     = regexp.MustCompile(`'([^'\\]*)'|"([^"\\]*)"`)
)

// awkPrintedCmd is awk's print or printf of a literal format, with its
// arguments, into a pipe to a shell.
var awkPrintedCmd = regexp.MustCompile(`printf?\s*\(?\s*"((?:[^"\\]|\\.)*)"\s*((?:,\s*[^,|;)]+)*)\)?\s*\|\s*"\s*(?:/usr)?(?:/bin/)?(?:ba|z|da|k)?sh\s*"`)

// awkPrintedCommands returns the command lines awk prints into a shell
// (printf "rm -rf %s\n", ENVIRON["HOME"] | "sh"): the format with its
// arguments filled in, an environment variable as the shell would
// expand it, any other value as a placeholder word.
func awkPrintedCommands(code string) []scriptCall {
	var out []scriptCall
	for _, m := range awkPrintedCmd.FindAllStringSubmatch(code, 4) {
		var args []string
		for _, a := range strings.Split(m[2], ",") {
			a = strings.TrimSpace(a)
			switch {
			case a == "":
				continue
			case strings.HasPrefix(a, `ENVIRON["`) && strings.HasSuffix(a, `"]`):
				name := a[len(`ENVIRON["`) : len(a)-2]
				if name == "HOME" {
					args = append(args, "~")
				} else {
					args = append(args, "$"+name)
				}
			case strings.HasPrefix(a, `"`) && strings.HasSuffix(a, `"`) && len(a) > 1:
				args = append(args, a[1:len(a)-1])
			default:
				args = append(args, "X")
			}
		}
		text := strings.NewReplacer(`\n`, "\n", `\t`, " ", `\"`, `"`).Replace(m[1])
		var b strings.Builder
		for i := 0; i < len(text); i++ {
			if text[i] == '%' && i+1 < len(text) && strings.IndexByte("sd", text[i+1]) >= 0 {
				if len(args) > 0 {
					b.WriteString(args[0])
					args = args[1:]
				} else {
					b.WriteString("X")
				}
				i++
				continue
			}
			b.WriteByte(text[i])
		}
		out = append(out, scriptCall{api: "print | sh", cmd: b.String()})
	}
	return out
}

// awkPrintToShell is awk's print into a pipe to a shell, which runs
// what is printed.
var awkRedirect = regexp.MustCompile(`\bprintf?\b[^;|>}]*>>?\s*"([^"]+)"`)

var awkPrintToShell = regexp.MustCompile(`print[^|;]*\|\s*"\s*(?:/usr)?(?:/bin/)?(?:ba|z|da|k)?sh(?:\s+-s)?\s*"`)

// shellMarkers are what code wired to a socket uses to hand it a shell.
var shellMarkers = []string{"/bin/sh", "/bin/bash", "/bin/zsh", "subprocess", "pty.spawn", "os.dup2", "dup2(", "exec(", "exec ",
	"spawn", "system(", "popen", "proc_open", "shell_exec", "passthru", "cmd.exe", "sh -i", "bash -i", "iex", "invoke-expression",
	"getstream", "child_process", "io.popen", "os.execute", "|&", "open(stdin", "open(stdout", "while", "read", "loop{", "loop do", "`#{"}

// scanNetwork finds reverse shells, downloaded code run and secrets sent.
func (sc *scriptScan) scanNetwork(code, low string) {
	m := langNet[sc.lang]
	if hasAny(low, m.sock...) && (len(m.sockAlso) == 0 || hasAny(low, m.sockAlso...)) && (sc.lang == "awk" || hasAny(low, shellMarkers...)) {
		sc.revShell = "a network socket wired to a shell"
	}
	fetch := (hasAny(low, m.fetch...) || sc.runsFetcher()) && hasAny(low, m.run...)
	if sc.lang == "awk" {
		// "curl ..." | getline line; system(line) (the getline reads as
		// system("curl ..."))
		for _, c := range sc.shell {
			if hasAny(c.cmd, "curl ", "wget ", "fetch ", "nc ") && strings.Contains(strings.ReplaceAll(low, `system("`, ""), "system(") {
				fetch = true
			}
		}
		// ("curl ..." | getline l) ... print l | "sh": what was read is
		// piped into a shell
		if awkPrintToShell.MatchString(low) && sc.runsFetcher() {
			fetch = true
		}
	}
	if !fetch && sc.lang == "python" && hasAny(low, "urlopen", "requests.get", "httpx.get", "urlretrieve") && shellOfDownload.MatchString(low) {
		// os.system(urlopen(u).read()): the download is the command
		fetch = true
	}
	if fetch {
		sc.remote = "code downloaded and executed"
	}
	if hasAny(low, m.send...) {
		if what := sensitiveInCode(code, low, sc.lang); what != "" {
			sc.exfil = what
		} else if v := sentSecretVar(code, low); v != "" {
			sc.exfil = "the secret variable " + v
		} else if f := openedDataExport(code); f != "" {
			// requests.put(URL, data=open('instance/prod.sqlite','rb')): a
			// database or an export's records sent
			sc.exfil = "the data export " + f
		}
	}
}

// codeOpensFile matches a file opened by name in code: open('x.db', 'rb'),
// File.read("dump.sql"), fs.readFileSync('orders.csv').
var codeOpensFile = regexp.MustCompile(`(?:\bopen|\bread|readFileSync|readFile)\(\s*['"]([^'"]+)['"]`)

// openedDataExport returns the first file code opens that is a data
// export, a dump or a database file (dataExportFile).
func openedDataExport(code string) string {
	for _, m := range codeOpensFile.FindAllStringSubmatch(code, 8) {
		if dataExportFile(m[1]) {
			return m[1]
		}
	}
	return ""
}

// runsFetcher reports whether the code runs a download tool (curl, wget,
// Invoke-WebRequest) through a shell API: what it reads back is
// downloaded, whatever the language fetches with.
func (sc *scriptScan) runsFetcher() bool {
	for _, c := range sc.shell {
		first, _, _ := strings.Cut(strings.TrimSpace(c.cmd), " ")
		switch strings.ToLower(path.Base(first)) {
		case "curl", "wget", "fetch", "aria2c", "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "curl.exe":
			return true
		}
	}
	for _, c := range sc.argvs {
		if len(c.argv) > 0 {
			switch path.Base(c.argv[0]) {
			case "curl", "wget", "aria2c":
				return true
			}
		}
	}
	return false
}

// tclStatements splits Tcl code into its commands, those nested in
// brackets ([exec ...]) included.
func tclStatements(code string) []string {
	return splitStatements(strings.NewReplacer("[", "\n", "]", "\n").Replace(code))
}

// scanCommands finds the shell commands and argument vectors code runs.
func (sc *scriptScan) scanCommands(code string) {
	lang := sc.lang
	if lang == "tcl" {
		// Tcl's exec takes a command's words, not a call's arguments
		for _, st := range tclStatements(code) {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(st), "exec "); ok {
				sc.shell = append(sc.shell, scriptCall{api: "exec", cmd: rest})
			}
		}
	}
	// commands run
	apis := execAPIs[lang]
	if lang == "python" && (strings.Contains(code, "fabric") || strings.Contains(code, "Connection(")) {
		// Fabric: Connection('root@host').run('…'), c.sudo('…') run the
		// command on that machine
		apis = append(apis[:len(apis):len(apis)], ".run", ".sudo")
	}
	for _, api := range apis {
		forEachCall(code, api, lang, func(args string) {
			items := splitArgs(args, lang)
			if len(items) == 0 {
				return
			}
			if items[0].isList && hasAny(args, ".pack(", ".unpack1(", ".unpack(") {
				// system ["6375..."].pack("H*"): the list is the encoded text
				if dec := decodedLiteral(args, lang); dec != "" {
					sc.shell = append(sc.shell, scriptCall{api: api + "(decoded)", cmd: dec})
					sc.obf = true
					return
				}
			}
			if lang == "jvm" && api == "ProcessBuilder" && len(items) > 1 && items[0].isStr && items[1].isStr {
				// ProcessBuilder("sh", "-c", "cmd"): the words of one command
				var argv []string
				for _, it := range items {
					if it.isStr {
						argv = append(argv, it.str)
					}
				}
				sc.argvs = append(sc.argvs, scriptCall{api: api, argv: argv})
				return
			}
			if len(items) > 2 && items[0].isStr && shellNameSet[path.Base(items[0].str)] && items[1].isStr && items[1].str == "-c" && !items[2].isStr {
				// system("bash", "-c", decode_base64("...")): the decoded
				// text is the shell's command
				if dec := decodedLiteral(args, lang); dec != "" {
					sc.shell = append(sc.shell, scriptCall{api: api + "(decoded)", cmd: dec})
					sc.obf = true
					return
				}
			}
			if !items[0].isStr && !items[0].isList {
				if dec := decodedLiteral(args, lang); dec != "" {
					sc.shell = append(sc.shell, scriptCall{api: api + "(decoded)", cmd: dec})
					sc.obf = true
					return
				}
			}
			var denoArgs []string
			if api == "Deno.Command" {
				denoArgs = jsArgsOption.FindStringSubmatch(args)
			}
			switch {
			case items[0].isList:
				sc.argvs = append(sc.argvs, scriptCall{api: api, argv: items[0].list})
			case items[0].isStr && len(items) > 1 && items[1].isList && (strings.Contains(api, "execv") || strings.Contains(api, "spawnv")):
				// os.execvp(file, [argv0, args...]): the file is what runs
				argv := append([]string{items[0].str}, items[1].list...)
				if len(items[1].list) > 0 {
					argv = append([]string{items[0].str}, items[1].list[1:]...)
				}
				sc.argvs = append(sc.argvs, scriptCall{api: api, argv: argv})
			case items[0].isStr && len(items) > 1 && items[1].isList && (lang == "js" || lang == "elixir"):
				// System.cmd("rm", ["-rf", dir]) is Elixir's spawn
				sc.argvs = append(sc.argvs, scriptCall{api: api, argv: append([]string{items[0].str}, items[1].list...)})
			case items[0].isStr && denoArgs != nil:
				// new Deno.Command("git", {args: ["checkout", "--", "."]})
				argv := []string{items[0].str}
				for _, m := range jsStrLit.FindAllStringSubmatch(denoArgs[1], -1) {
					argv = append(argv, m[1]+m[2])
				}
				sc.argvs = append(sc.argvs, scriptCall{api: api, argv: argv})
			case items[0].isStr && len(items) > 1 && items[1].isStr && (lang == "perl" || lang == "ruby" || lang == "php" && api == "pcntl_exec" || api == "os.execlp" || api == "os.execl" || api == "os.spawnlp"):
				var argv []string
				for _, it := range items {
					if it.isStr {
						argv = append(argv, it.str)
					}
				}
				if api == "os.execlp" || api == "os.execl" || api == "os.spawnlp" {
					if len(argv) > 1 {
						argv = argv[1:] // the first is the program path
					}
				}
				sc.argvs = append(sc.argvs, scriptCall{api: api, argv: argv})
			case items[0].isStr:
				s := items[0].str
				if api == "open" && lang == "perl" {
					// open(F, "cmd |") / open(F, "|-", "cmd")
					if len(items) >= 2 && items[1].isStr {
						s = items[len(items)-1].str
						if !(strings.HasSuffix(strings.TrimSpace(s), "|") || strings.HasPrefix(strings.TrimSpace(s), "|") || len(items) >= 3 && strings.Contains(items[1].str, "|")) {
							return
						}
						s = strings.Trim(strings.TrimSpace(s), "|")
					} else {
						return
					}
				}
				if lang == "python" && (api == "run" || api == "call" || api == "system" || api == "popen") && !strings.Contains(s, " ") {
					return
				}
				sc.shell = append(sc.shell, scriptCall{api: api, cmd: s})
			}
		})
	}
	// backticks and %x(), qx{}
	switch lang {
	case "perl", "ruby", "php":
		for _, s := range backticks(code) {
			sc.shell = append(sc.shell, scriptCall{api: "backticks", cmd: s})
		}
		if lang == "perl" {
			for _, s := range quoteOps(code, "qx") {
				sc.shell = append(sc.shell, scriptCall{api: "qx", cmd: s})
			}
		}
		if lang == "ruby" {
			for _, s := range quoteOps(code, "%x") {
				sc.shell = append(sc.shell, scriptCall{api: "%x", cmd: s})
			}
		}
	case "js":
		if strings.Contains(code, "$`") || strings.Contains(code, "zx") {
			for _, s := range backticks(code) {
				sc.shell = append(sc.shell, scriptCall{api: "$``", cmd: s})
			}
		}
	}
	sc.shell = dedupeCalls(sc.shell)
}

// scanDeletes finds the paths code deletes.
func (sc *scriptScan) scanDeletes(code string) {
	lang := sc.lang
	if lang == "tcl" {
		// file delete ?-force? ?--? PATH...: a command's words, not a
		// call's arguments; -force deletes folders with what they hold
		for _, st := range tclStatements(code) {
			rest, ok := strings.CutPrefix(strings.TrimSpace(st), "file delete ")
			if !ok {
				continue
			}
			force := false
			for _, f := range strings.Fields(rest) {
				switch f = strings.Trim(f, `"{}`); {
				case f == "-force":
					force = true
				case f == "--" || strings.HasPrefix(f, "-"):
				default:
					// $env(HOME)/.mozilla: under the home
					for _, h := range [...]string{"$env(HOME)", "$::env(HOME)"} {
						if rest, ok := strings.CutPrefix(f, h); ok {
							f = "~" + rest
						}
					}
					sc.deletes = append(sc.deletes, scriptPath{api: "file delete", path: f, recursive: force})
				}
			}
		}
		return
	}
	for _, d := range deleteAPIs[lang] {
		forEachCall(code, d.api, lang, func(args string) {
			p := scriptPathOf(args, lang)
			if p == "" {
				return
			}
			rec := d.recursive
			if lang == "js" && (d.api == "fs.rmSync" || d.api == "fs.rm" || d.api == "rmSync" || d.api == "fs.promises.rm" || d.api == "fs.rmdirSync" || d.api == "Deno.remove") {
				rec = strings.Contains(args, "recursive")
			}
			if lang == "pwsh" && d.api == "Remove-Item" {
				l := strings.ToLower(args)
				rec = strings.Contains(l, "-r")
			}
			sc.deletes = append(sc.deletes, scriptPath{api: d.api, path: p, recursive: rec})
		})
	}
}

// scanWrites finds the files code opens for writing.
func (sc *scriptScan) scanWrites(code string) {
	lang := sc.lang
	for _, api := range writeAPIs[lang] {
		forEachCall(code, api, lang, func(args string) {
			items := splitArgs(args, lang)
			if len(items) == 0 {
				return
			}
			p := ""
			switch {
			case lang == "perl" && len(items) >= 3 && items[1].isStr && (strings.Contains(items[1].str, ">") || strings.Contains(items[1].str, "+<")):
				p = scriptPathOf(items[2].raw, lang)
			case lang == "perl" && len(items) == 2 && items[1].isStr && strings.HasPrefix(strings.TrimSpace(items[1].str), ">"):
				p = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(items[1].str), ">"))
			case lang == "perl":
				return
			case lang == "python" || lang == "php" && api == "fopen" || lang == "ruby" && api == "File.open" || lang == "lua":
				if len(items) < 2 || !items[1].isStr || !strings.ContainsAny(items[1].str, "wax+") {
					return
				}
				p = scriptPathOf(items[0].raw, lang)
			default:
				p = scriptPathOf(items[0].raw, lang)
			}
			if p != "" {
				sc.writes = append(sc.writes, scriptPath{api: api, path: p})
			}
		})
	}
}

// scanChmods finds the permission changes code makes.
func (sc *scriptScan) scanChmods(code string) {
	lang := sc.lang
	for _, api := range chmodAPIs[lang] {
		forEachCall(code, api.api, lang, func(args string) {
			items := splitArgs(args, lang)
			if len(items) < 2 {
				return
			}
			pathItem, modeItem := items[0], items[1]
			if api.modeFirst {
				pathItem, modeItem = items[1], items[0]
			}
			p := scriptPathOf(pathItem.raw, lang)
			m := modeLiteral(modeItem)
			if p == "" || m == "" {
				return
			}
			sc.chmods = append(sc.chmods, scriptPath{api: api.api, path: m + " " + p, recursive: api.recursive})
		})
	}
}

// envFileIn reports a .env file named in code: not a property
// (process.env, Bun.env), a longer name (.environ, .envoy) or the
// committed template (.env.example).
func envFileIn(low string) bool {
	for from := 0; ; {
		k := strings.Index(low[from:], ".env")
		if k < 0 {
			return false
		}
		i := from + k
		from = i + 4
		if before := low[:i]; strings.HasSuffix(before, "process") || strings.HasSuffix(before, "bun") || strings.HasSuffix(before, "deno") || strings.HasSuffix(before, "meta") {
			continue // process.env, Bun.env, import.meta.env: a property
		}
		j := i + 4
		if j < len(low) && (low[j] >= 'a' && low[j] <= 'z' || low[j] == 'i') {
			continue // .environ, .envoy, ...
		}
		if rest := low[j:]; strings.HasPrefix(rest, ".example") || strings.HasPrefix(rest, ".sample") || strings.HasPrefix(rest, ".template") || strings.HasPrefix(rest, ".dist") {
			continue // the committed template, no secret in it
		}
		return true
	}
}

// sensitiveInCode finds secrets a piece of code reads.
func sensitiveInCode(code, low, lang string) string {
	// joinpath('.aws', 'credentials'), File.join(".ssh", "id_rsa"): the
	// pieces of a path given one by one
	low = pieceJoiner.Replace(low)
	for _, m := range [...]string{".ssh/id_", ".ssh/", ".aws/credentials", ".aws/", "/etc/shadow", ".kube/config", ".gnupg", ".git-credentials",
		".netrc", ".docker/config.json", ".npmrc", ".pypirc", "/proc/self/environ", ".env", "id_rsa", "id_ed25519", "keychain", ".config/gcloud",
		"_history", ".pgpass", ".my.cnf", ".vault-token", "/etc/gitlab-runner/", ".composer/auth.json", ".cargo/credentials", ".gem/credentials",
		".config/gh/hosts.yml", ".terraform.d/credentials", "gcloud/credentials.db", "gcloud\\credentials.db", "gcloud/access_tokens.db", "gcloud\\access_tokens.db"} {
		if m == ".env" {
			if envFileIn(low) {
				return "secrets (.env)"
			}
			continue
		}
		if strings.Contains(low, m) {
			return "secrets (" + m + ")"
		}
	}
	// homedir() + '/.config/fastly/config.toml': any tool's login store
	for _, cs := range homeCredentialStores {
		if cs.prefix[0] != '.' {
			continue
		}
		pre := strings.ToLower(cs.prefix)
		if strings.Contains(low, "/"+pre) || strings.Contains(low, "'"+pre) || strings.Contains(low, `"`+pre) || strings.Contains(low, "~/"+pre) {
			return "secrets (" + cs.what + ")"
		}
	}
	switch lang {
	case "python":
		// the browsers' cookies and saved logins, decrypted by a library
		// made for it; the keyring's passwords
		if hasAny(low, "browser_cookie3", "pycookiecheat", "browsercookie", "keyring.get_password", "keyring.get_credential") {
			return "browser cookies or keyring passwords"
		}
		if hasAny(low, "dict(os.environ)", "str(os.environ)", "os.environ.copy()", "os.environ.items()", "json.dumps(os.environ", "repr(os.environ)", "os.environ.values()") {
			return "the environment variables"
		}
		if strings.Contains(low, "os.environ)") && !hasAny(low, "sorted(os.environ)", "list(os.environ)", "set(os.environ)", "len(os.environ)", " in os.environ)") {
			return "the environment variables" // (sorted(os.environ): the names alone)
		}
	case "js":
		if hasAny(low, "json.stringify(process.env", "object.entries(process.env)", "object.values(process.env)") ||
			strings.Contains(low, "process.env)") && !strings.Contains(low, "object.keys(process.env)") {
			// (Object.keys(process.env): the names alone)
			return "the environment variables"
		}
	case "perl":
		if strings.Count(code, "%ENV") > strings.Count(code, "keys %ENV") || strings.Contains(code, "$ENV{$") {
			return "the environment variables" // (keys %ENV: the names alone)
		}
	case "ruby":
		if hasAny(low, "env.to_h", "env.inspect", "env.to_a", "env.map", "env.each", "env.select", "env.filter", "env.reject", "env.sort") {
			return "the environment variables"
		}
	case "php":
		if hasAny(low, "getenv()", "$_env", "print_r($_server", "json_encode($_server", "json_encode(getenv()") {
			return "the environment variables"
		}
	case "pwsh":
		if hasAny(low, "env:", "get-childitem env") {
			return "the environment variables"
		}
	case "r":
		// Sys.getenv() with no name: every variable with its value
		if l := strings.ReplaceAll(low, " ", ""); strings.Contains(l, "sys.getenv()") && !hasAny(l, "names(sys.getenv())", "length(sys.getenv())") {
			return "the environment variables" // (names(Sys.getenv()): the names alone)
		}
	}
	return ""
}

func hasAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// forEachCall calls fn with the argument text of every call of api in
// code: "api(args)" and, for perl/ruby/awk/pwsh, "api args" up to the end
// of the statement.
func forEachCall(code, api, lang string, fn func(args string)) {
	from := 0
	for n := 0; n < 256; n++ {
		i := strings.Index(code[from:], api)
		if i < 0 {
			return
		}
		i += from
		from = i + len(api)
		// the match must not be the tail of a longer identifier
		if i > 0 {
			p := code[i-1]
			if api[0] != '.' && (p == '_' || p >= 'a' && p <= 'z' || p >= 'A' && p <= 'Z' || p >= '0' && p <= '9') {
				continue
			}
			if api[0] != '.' && p == '.' && !strings.Contains(api, ".") && lang != "js" {
				continue
			}
		}
		j := from
		if j < len(code) {
			c := code[j]
			if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
				continue
			}
		}
		for j < len(code) && (code[j] == ' ' || code[j] == '\t') {
			j++
		}
		if j >= len(code) {
			return
		}
		if code[j] == '(' {
			end := matchParen(code, j)
			fn(code[j+1 : end])
			continue
		}
		if lang == "js" && api == "$" && code[j] == '`' {
			continue
		}
		switch lang {
		case "perl", "ruby", "awk", "pwsh", "applescript", "lua", "php":
			// chmod 0777, glob("/etc/*"): a mode first, without brackets
			digit := code[j] >= '0' && code[j] <= '9' && (lang == "perl" || lang == "ruby")
			// open F, "+<", "/dev/sda": a bareword file handle first
			handle := lang == "perl" && api == "open" && code[j] >= 'A' && code[j] <= 'Z'
			// system decode_base64 "...": a decoder's result as the argument
			decoder := lang == "perl" && (strings.HasPrefix(code[j:], "decode_base64") || strings.HasPrefix(code[j:], "pack") || strings.HasPrefix(code[j:], "scalar reverse"))
			if digit || handle || decoder || code[j] == '\'' || code[j] == '"' || code[j] == '[' || code[j] == '$' || code[j] == '-' || code[j] == '/' || code[j] == '{' || code[j] == '@' || code[j] == 'q' {
				end := j
				depth := 0
				for end < len(code) {
					c := code[end]
					if c == '\'' || c == '"' {
						_, e, ok := strLit(code, end, lang)
						if ok {
							end = e
							continue
						}
					}
					if c == '(' || c == '[' || c == '{' {
						depth++
					}
					if c == ')' || c == ']' || c == '}' {
						if depth == 0 {
							break
						}
						depth--
					}
					if depth == 0 && (c == ';' || c == '\n' || c == '|' && lang == "pwsh") {
						break
					}
					end++
				}
				fn(code[j:end])
			}
		}
	}
}

// matchParen returns the index of the parenthesis closing the one at i
// (or len(s)), skipping string literals.
func matchParen(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch c := s[j]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return j
			}
		case '\'', '"', '`':
			if _, e, ok := strLit(s, j, ""); ok {
				j = e - 1
			}
		}
	}
	return len(s)
}

type argItem struct {
	raw    string
	str    string
	isStr  bool
	list   []string
	isList bool
}

// splitArgs splits a call's argument text at top-level commas and reads
// string literals and lists of string literals.
func splitArgs(args, lang string) []argItem {
	var items []argItem
	depth := 0
	start := 0
	for j := 0; j <= len(args); j++ {
		if j < len(args) {
			c := args[j]
			switch c {
			case '(', '[', '{':
				depth++
				continue
			case ')', ']', '}':
				depth--
				continue
			case '\'', '"', '`':
				if _, e, ok := strLit(args, j, lang); ok {
					j = e - 1
				}
				continue
			case ',':
				if depth != 0 {
					continue
				}
			default:
				continue
			}
		}
		raw := strings.TrimSpace(args[start:j])
		start = j + 1
		if raw == "" {
			continue
		}
		items = append(items, parseArgItem(raw, lang))
		if len(items) > 16 {
			break
		}
	}
	return items
}

func parseArgItem(raw, lang string) argItem {
	it := argItem{raw: raw}
	if raw[0] == '[' || lang == "perl" && raw[0] == '(' || lang == "ruby" && strings.HasPrefix(raw, "%w") {
		body := raw
		if strings.HasPrefix(body, "%w") {
			body = strings.TrimSpace(body[2:])
			if len(body) > 2 {
				it.list = strings.Fields(body[1 : len(body)-1])
				it.isList = true
			}
			return it
		}
		end := matchParen(body, 0)
		inner := body[1:min(end, len(body))]
		for _, sub := range splitArgs(inner, lang) {
			if !sub.isStr {
				return it
			}
			it.list = append(it.list, sub.str)
		}
		it.isList = len(it.list) > 0
		return it
	}
	// string literal, possibly concatenated with + or .
	var b strings.Builder
	i := 0
	for i < len(raw) {
		for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t') {
			i++
		}
		if i >= len(raw) {
			break
		}
		s, e, ok := strLit(raw, i, lang)
		if !ok {
			return it
		}
		b.WriteString(s)
		i = e
		for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t') {
			i++
		}
		if i < len(raw) && (raw[i] == '+' || raw[i] == '.') {
			i++
		}
	}
	it.str = b.String()
	it.isStr = true
	return it
}

// strLit reads a string literal starting at s[i] (with an optional
// python prefix such as r or f); it returns the value and the index after
// it.
func strLit(s string, i int, lang string) (string, int, bool) {
	j := i
	for j < len(s) && j-i < 2 && strings.IndexByte("rbfuRBFU", s[j]) >= 0 {
		j++
	}
	if j >= len(s) {
		return "", i, false
	}
	q := s[j]
	if q != '\'' && q != '"' && q != '`' {
		return "", i, false
	}
	if j > i && lang != "python" && lang != "" {
		return "", i, false
	}
	raw := j > i && strings.ContainsAny(s[i:j], "rR")
	if q != '`' && j+2 < len(s) && s[j+1] == q && s[j+2] == q {
		tq := s[j : j+3]
		end := strings.Index(s[j+3:], tq)
		if end < 0 {
			return "", i, false
		}
		return s[j+3 : j+3+end], j + 3 + end + 3, true
	}
	var b []byte
	for k := j + 1; k < len(s); k++ {
		c := s[k]
		if c == '\\' && k+1 < len(s) && !raw {
			if q == '\'' && (lang == "perl" || lang == "ruby" || lang == "php") {
				if s[k+1] == '\\' || s[k+1] == '\'' {
					b = append(b, s[k+1])
					k++
					continue
				}
				b = append(b, c)
				continue
			}
			k++
			switch e := s[k]; e {
			case 'n':
				b = append(b, '\n')
			case 't':
				b = append(b, '\t')
			case 'r':
				b = append(b, '\r')
			case 'x':
				if k+2 < len(s) && isHex(s[k+1]) && isHex(s[k+2]) {
					n, _ := strconv.ParseUint(s[k+1:k+3], 16, 8)
					b = append(b, byte(n))
					k += 2
				} else {
					b = append(b, e)
				}
			case '0', '1', '2', '3', '4', '5', '6', '7':
				m := k
				for m < len(s) && m-k < 3 && s[m] >= '0' && s[m] <= '7' {
					m++
				}
				n, _ := strconv.ParseUint(s[k:m], 8, 16)
				b = append(b, byte(n))
				k = m - 1
			default:
				b = append(b, e)
			}
			continue
		}
		if c == q {
			return string(b), k + 1, true
		}
		b = append(b, c)
	}
	return "", i, false
}

// backticks returns the contents of `...` strings.
func backticks(code string) []string {
	var out []string
	for i := 0; i < len(code) && len(out) < 64; i++ {
		if code[i] != '`' {
			continue
		}
		end := strings.IndexByte(code[i+1:], '`')
		if end < 0 {
			break
		}
		out = append(out, code[i+1:i+1+end])
		i += end + 1
	}
	return out
}

// quoteOps returns the contents of perl qx{...} / ruby %x(...) strings.
func quoteOps(code, op string) []string {
	var out []string
	from := 0
	for len(out) < 64 {
		i := strings.Index(code[from:], op)
		if i < 0 {
			break
		}
		i += from + len(op)
		from = i
		if i >= len(code) {
			break
		}
		open := code[i]
		close := open
		switch open {
		case '(':
			close = ')'
		case '{':
			close = '}'
		case '[':
			close = ']'
		case '<':
			close = '>'
		case ' ', '\t', '\n', '_':
			continue
		}
		if open >= 'a' && open <= 'z' || open >= 'A' && open <= 'Z' || open >= '0' && open <= '9' {
			continue
		}
		end := strings.IndexByte(code[i+1:], close)
		if end < 0 {
			break
		}
		out = append(out, code[i+1:i+1+end])
		from = i + 1 + end
	}
	return out
}

// pieceJoiner joins the quoted pieces of a path passed as separate
// arguments.
var pieceJoiner = strings.NewReplacer("', '", "/", "','", "/", `", "`, "/", `","`, "/")

// homeMarkers are expressions for the home directory.
var homeMarkers = []string{"expanduser('~')", "expanduser(\"~\")", "environ['HOME']", "environ[\"HOME\"]", "getenv('HOME')", "getenv(\"HOME\")",
	"environ.get('HOME')", "environ.get(\"HOME\")", "Path.home()", "homedir()", "process.env.HOME", "process.env['HOME']", "ENV['HOME']", "ENV[\"HOME\"]",
	"Dir.home", "$ENV{HOME}", "$ENV{'HOME'}", "$ENV{\"HOME\"}", "$_SERVER['HOME']", "File.expand_path('~')", "File.expand_path(\"~\")",
	"os.getenv(\"HOME\")", "os.getenv('HOME')", "$env:HOME", "$HOME", "~", "Deno.env.get(\"HOME\")", "Deno.env.get('HOME')", "Bun.env.HOME"}

// scriptPathOf resolves the path expression of a call's first argument.
func scriptPathOf(args, lang string) string {
	items := splitArgs(args, lang)
	if len(items) == 0 {
		return ""
	}
	first := items[0].raw
	if lang == "pwsh" {
		f := strings.Fields(args)
		for i := 0; i < len(f); i++ {
			x := f[i]
			if strings.HasPrefix(x, "-") {
				if strings.EqualFold(x, "-Path") || strings.EqualFold(x, "-LiteralPath") {
					if i+1 < len(f) {
						return strings.Trim(f[i+1], `'"`)
					}
				}
				continue
			}
			return strings.Trim(x, `'"`)
		}
		return ""
	}
	home := false
	if strings.Contains(args, "os.path.join") || strings.Contains(args, "path.join") || strings.Contains(args, "File.join") {
		first = args
	}
	for _, m := range homeMarkers {
		if m == "~" || m == "$HOME" {
			continue
		}
		if i := strings.Index(first, m); i >= 0 {
			home = true
			// only the literals after the marker extend the path
			first = first[i+len(m):]
			break
		}
	}
	if !home {
		for _, fn := range [...]string{"expanduser(", "expand_path(", "File.expand_path("} {
			if i := strings.Index(first, fn); i >= 0 {
				if s, _, ok := strLit(first, i+len(fn), lang); ok && strings.HasPrefix(s, "~") {
					home = true
					first = first[i+len(fn):]
				}
			}
		}
	}
	// collect the string literals in order
	var lits []string
	for i := 0; i < len(first); i++ {
		c := first[i]
		if c == '\'' || c == '"' || c == '`' {
			s, e, ok := strLit(first, strPrefixStart(first, i, lang), lang)
			if ok {
				lits = append(lits, s)
				i = e - 1
			}
		}
	}
	if home {
		p := "~"
		for _, l := range lits {
			l = strings.Trim(strings.TrimPrefix(l, "~"), "/")
			if l == "" || l == "~" || l == "HOME" {
				continue
			}
			p += "/" + l
		}
		return p
	}
	if len(lits) == 0 {
		return ""
	}
	sep := ""
	if strings.Contains(first, "join") {
		sep = "/"
	}
	p := strings.Join(lits, sep)
	p = strings.ReplaceAll(p, "$ENV{HOME}", "~")
	if strings.HasPrefix(p, "$HOME") {
		p = "~" + p[5:]
	}
	return p
}

func dedupeCalls(cs []scriptCall) []scriptCall {
	if len(cs) < 2 {
		return cs
	}
	seen := make(map[string]bool, len(cs))
	out := cs[:0]
	for _, c := range cs {
		if seen[c.cmd] {
			continue
		}
		seen[c.cmd] = true
		out = append(out, c)
	}
	return out
}

type chmodAPI struct {
	api       string
	modeFirst bool
	recursive bool
}

var chmodAPIs = map[string][]chmodAPI{
	"python": {{api: "os.chmod"}, {api: ".chmod"}},
	"perl":   {{api: "chmod", modeFirst: true}},
	"ruby":   {{api: "File.chmod", modeFirst: true}, {api: "FileUtils.chmod", modeFirst: true}, {api: "FileUtils.chmod_R", modeFirst: true, recursive: true}},
	"js":     {{api: "fs.chmodSync"}, {api: "fs.chmod"}, {api: "fs.promises.chmod"}, {api: ").chmodSync"}, {api: ").chmod"}, {api: "Deno.chmodSync"}, {api: "Deno.chmod"}},
	"php":    {{api: "chmod"}},
	"lua":    {},
}

// modeLiteral reads a permission mode literal (0o777, 0777, 511, '755').
func modeLiteral(it argItem) string {
	if it.isStr {
		return it.str
	}
	m := strings.TrimSpace(it.raw)
	switch {
	case strings.Contains(m, "S_ISUID"):
		// os.stat(p).st_mode | stat.S_ISUID: the mode it has, set-user-ID
		// added
		return "4755"
	case strings.Contains(m, "S_ISGID"):
		return "2755"
	case strings.HasPrefix(m, "0o") || strings.HasPrefix(m, "0O"):
		return m[2:]
	case len(m) > 1 && m[0] == '0':
		return m[1:]
	}
	if n, err := strconv.Atoi(m); err == nil && n >= 0 && n < 0o10000 {
		return strconv.FormatInt(int64(n), 8)
	}
	return ""
}

// decodedLiteral finds base64-decoding of a string literal in an
// expression (base64.b64decode('...'), Buffer.from('...', 'base64'),
// base64_decode('...'), Base64.decode64('...'), decode_base64('...')).
func decodedLiteral(expr, lang string) string {
	if strings.Contains(expr, "unpack") {
		if m := rbUnpackBase64.FindStringSubmatch(expr); m != nil {
			// "c3lz...".unpack1("m"): Ruby's base64 decode
			if d, ok := decodeBase64(m[1]); ok {
				return d
			}
		}
	}
	for _, fn := range [...]string{"b64decode(", "base64_decode(", "decode64(", "decode_base64(", "decode_base64 ", "Buffer.from(", "atob(", "FromBase64String("} {
		i := strings.Index(expr, fn)
		if i < 0 {
			continue
		}
		j := i + len(fn)
		for j < len(expr) && expr[j] == ' ' {
			j++
		}
		s, _, ok := strLit(expr, j, lang)
		if !ok {
			continue
		}
		if fn == "Buffer.from(" && !strings.Contains(expr[j:], "base64") {
			continue
		}
		if d, ok := decodeBase64(s); ok {
			if strings.Contains(expr, "decompress(") {
				// zlib.decompress(b64decode('eJx...')): the packed code
				if z := inflate(d); z != "" {
					return z
				}
			}
			return d
		}
	}
	// hex and rot13 hide code the same way
	for _, fn := range [...]string{"fromhex(", "unhexlify(", "codecs.decode("} {
		i := strings.Index(expr, fn)
		if i < 0 {
			continue
		}
		j := i + len(fn)
		for j < len(expr) && expr[j] == ' ' {
			j++
		}
		s, end, ok := strLit(expr, j, lang)
		if !ok {
			continue
		}
		if fn == "codecs.decode(" {
			if rest := expr[end:min(len(expr), end+16)]; strings.Contains(rest, "rot") {
				return rot13(s)
			}
			continue
		}
		if b, err := hex.DecodeString(strings.ReplaceAll(s, " ", "")); err == nil {
			return string(b)
		}
	}
	// pack("H*", "7379..."), ["7379..."].pack("H*"), hex2bin("7379..."),
	// Buffer.from("7379...", "hex")
	if !strings.Contains(expr, "pack(") && !strings.Contains(expr, "hex") {
		return ""
	}
	if m := hexPacked.FindStringSubmatch(expr); m != nil {
		for _, h := range m[1:] {
			if b, err := hex.DecodeString(h); h != "" && err == nil {
				return string(b)
			}
		}
	}
	return ""
}

// rbUnpackBase64 matches Ruby's base64 decoding of a literal.
var rbUnpackBase64 = regexp.MustCompile(`["']([A-Za-z0-9+/=]{8,})["']\.unpack1?\(\s*["']m0?["']\s*\)`)

// inflate returns zlib-compressed data unpacked (at most 64 KiB), or "".
func inflate(d string) string {
	r, err := zlib.NewReader(strings.NewReader(d))
	if err != nil {
		return ""
	}
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, 64<<10))
	if err != nil && len(b) == 0 {
		return ""
	}
	return string(b)
}

// hexPacked matches the languages' own ways of decoding a hex literal.
var hexPacked = regexp.MustCompile(`pack\(\s*["']H\*["']\s*,\s*["']([0-9a-fA-F]+)["']|\[\s*["']([0-9a-fA-F]+)["']\s*\]\.pack\(\s*["']H\*["']|hex2bin\(\s*["']([0-9a-fA-F]+)["']|Buffer\.from\(\s*["']([0-9a-fA-F]+)["']\s*,\s*["']hex["']`)

// rot13 rotates the letters of s by 13.
func rot13(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return string(b)
}

// endlessMarkers are the ways code loops without end.
var endlessMarkers = []string{"while true", "while 1", "while(1)", "while (1)", "while(true)", "while (true)", "for(;;)", "for (;;)",
	"loop do", "loop {", "loop{", "fork while", "while fork", "until false", "itertools.count", "iter(int", "while($true)", "while ($true)", "repeat"}

// spawnMarkers are the ways code starts a process without waiting for it.
var spawnMarkers = []string{"fork", "spawn", "popen", "start-process", "start-job", "child_process"}

// endlessSpawn reports code that starts processes in an endless loop
// without pausing: a fork bomb whichever API starts them.
func endlessSpawn(lang, low string) string {
	if lang == "python" {
		nl := strings.ReplaceAll(low, " ", "")
		// [a.append(" "*10**9) for _ in iter(int, 1)]: memory taken
		// without end
		if strings.Contains(nl, "iter(int,1)") && hasAny(nl, ".append(", "bytearray(", "*10**") {
			return "memory allocated in an endless loop"
		}
		// f=lambda: [threading.Thread(target=f).start() ...]; f(): each
		// thread starts more of itself; range(10**7) threads at once
		if strings.Contains(nl, "thread(target=") && (strings.Contains(nl, "range(10**") || lambdaStartsItself(nl)) {
			return "threads started without end"
		}
	}
	if lang == "js" && hasAny(low, "spawn(", "fork(") && hasAny(low, "process.execpath", "process.argv[0]", "process.argv0") {
		// spawn(process.execPath, ['-e', '('+f+')()']): node started again
		// with this same code, each copy starting more, or copies started
		// in a loop
		if hasAny(low, "process.argv[1]", "+f+", "__filename", "f.tostring()") ||
			hasAny(low, "setinterval(", "while(true)", "while (true)", "for(;;)", "for (;;)", "for(let i=0;i<", "for (let i = 0; i <") {
			return "node starting copies of itself without end"
		}
	}
	if !hasAny(low, spawnMarkers...) {
		return ""
	}
	if !hasAny(low, endlessMarkers...) && !(strings.Count(low, "fork") >= 2 && hasAny(low, "while", "for ")) {
		return ""
	}
	if hasAny(low, "sleep", "wait") && !hasAny(low, "fork while fork", "fork while 1", "fork while true") {
		return ""
	}
	if lang == "pwsh" || !strings.Contains(low, "fork") {
		return "processes started in an endless loop"
	}
	return "fork() in an endless loop"
}

// lambdaStartsItself reports f=lambda: ... Thread(target=f) ...: a
// function whose threads run the function again.
func lambdaStartsItself(nl string) bool {
	i := strings.Index(nl, "=lambda")
	if i <= 0 {
		return false
	}
	j := i
	for j > 0 && isIdentByte(nl[j-1]) {
		j--
	}
	name := nl[j:i]
	return name != "" && strings.Contains(nl, "target="+name+")")
}

// strPrefixStart returns where the python string literal whose quote is
// at i begins, its prefix included: r'C:\Users\dev' keeps its
// backslashes only when it is read from the r.
func strPrefixStart(s string, i int, lang string) int {
	if lang != "python" {
		return i
	}
	k := i
	for k > 0 && i-k < 2 && strings.IndexByte("rbfuRBFU", s[k-1]) >= 0 {
		k--
	}
	if k > 0 && (isIdentByte(s[k-1])) {
		return i // a name ending in r, not a prefix
	}
	return k
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
