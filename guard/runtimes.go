package guard

import "strings"

// otherRuntimes are language runtimes beside the interpreters whose code
// the script scanner reads: their one-liners are judged by the few
// primitives every language spells alike (socket, connect, download,
// eval, system, exec).
var otherRuntimes = map[string]bool{"julia": true, "Rscript": true, "R": true, "tclsh": true, "wish": true, "emacs": true, "guile": true,
	"racket": true, "sbcl": true, "clojure": true, "bb": true, "elixir": true, "erl": true, "scala": true, "groovy": true, "kotlin": true,
	"dart": true, "crystal": true, "nim": true, "deno": true, "jshell": true, "gawk": false}

// runtimeCode returns the code a runtime from otherRuntimes is given on
// its command line (-e, --eval, -c, -E) or on its input.
func runtimeCode(c *cmd) string {
	if !otherRuntimes[c.name] {
		return ""
	}
	args := c.args()
	var b strings.Builder
	for i, w := range args {
		switch w.s {
		case "-e", "--eval", "-E", "-c", "--execute", "eval":
			if i+1 < len(args) {
				j := i + 1
				for j < len(args) && strings.HasPrefix(args[j].s, "-") && j < i+4 {
					j++ // deno eval -A 'code'
				}
				if j < len(args) {
					b.WriteString(args[j].s)
					b.WriteByte('\n')
				}
			}
		}
	}
	if c.in.kind == flowText {
		b.WriteString(c.in.text)
	}
	return b.String()
}

// runtimeVerdict classifies runtime code: a socket wired to a command
// runner (a reverse shell), downloaded code evaluated, or a secret file
// or the environment sent over the network.
func runtimeVerdict(code string) (cat, what string) {
	if code == "" {
		return "", ""
	}
	l := strings.ToLower(code)
	has := func(ks ...string) string {
		for _, k := range ks {
			if strings.Contains(l, k) {
				return k
			}
		}
		return ""
	}
	// a shell's /dev/tcp redirection inside the code is a socket too
	socket := has("socket", ".connect(", "ztcp", "tcpsocket", "gen_tcp", "net.dial", "/dev/tcp/", "/dev/udp/")
	run := has("system(", "[exec ", "exec(", "command(", "spawn(", "popen", "shell-command", "os.cmd", "run(`", "processbuilder", "getruntime()")
	// a URL handed straight to a call: source("https://..."), include("http://...")
	fetch := has("download(", "geturl", "url-retrieve", "fetch(", "http.get", "urlopen", "readlines(url", "url(", "httr::get", `("https://`, `("http://`, `('https://`, `('http://`)
	eval := has("eval(", "eval [", "eval-buffer", "include(", "source(", "loadstring(", "import(")
	send := has("http.post", "http::geturl", "request(", "fetch(", "post(", "-query", "send(")
	secret := has(".ssh", ".git-credentials", ".vault-token", "credentials", ".aws", ".kube", "deno.env", "env.toobject", "sys.getenv()", ".netrc", "token")
	switch {
	case socket != "" && run != "":
		return CategoryReverseShell, socket + " with " + run
	case fetch != "" && eval != "":
		return CategoryRemoteExec, eval + " of " + fetch
	case send != "" && secret != "" && (strings.Contains(l, "http") || socket != ""):
		return CategoryExfiltration, secret + " sent with " + send
	}
	return "", ""
}
