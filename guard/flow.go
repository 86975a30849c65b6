package guard

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// fetchers download content to standard output (or a file).
var fetchers = map[string]bool{
	"curl": true, "wget": true, "fetch": true, "http": true, "https": true, "xh": true, "xhs": true,
	"httpie": true, "aria2c": true, "lwp-request": true, "GET": true, "lynx": true, "wget2": true, "curlie": true,
}

// socketTools open raw network connections.
var socketTools = map[string]bool{"nc": true, "socat": true, "telnet": true, "sbd": true}

// passThrough commands transform their input without changing what it
// is (a remote script stays remote, a secret stays secret).
var passThrough = map[string]bool{
	"cat": true, "tee": true, "head": true, "tail": true, "sort": true, "uniq": true, "grep": true, "egrep": true,
	"fgrep": true, "sed": true, "awk": true, "cut": true, "fold": true, "column": true, "iconv": true,
	"dos2unix": true, "unix2dos": true, "tac": true, "nl": true, "pv": true, "buffer": true, "dd": true,
	"strings": true, "od": true, "hexdump": true, "tar": true, "zip": true, "gpg": true, "jq": true, "yq": true, "gojq": true, "jaq": true,
	"xargs": true, "stdbuf": true, "paste": true, "expand": true, "cpio": true, "split": true, "more": true, "findstr": true,
}

// decoders undo an encoding: their output is obfuscated input.
var decoders = map[string]bool{
	"gzip": true, "gunzip": true, "zcat": true, "bzip2": true, "bunzip2": true, "bzcat": true, "xz": true,
	"unxz": true, "xzcat": true, "zstd": true, "unzstd": true, "zstdcat": true, "lz4": true, "uudecode": true,
	"base32": true, "basenc": true,
}

// computeOut works out what a command writes to standard output.
func (a *analysis) computeOut(c *cmd) flow {
	if c.synthetic != "" || len(c.words) == 0 {
		return flow{}
	}
	args := c.args()
	n := c.name
	logs := logsOut(a, c)
	switch {
	case isShellInit(c):
		return flow{kind: flowText} // its shell code, trusted
	case c.words[0].ok && projectProgram(c.words[0].s) && strings.Count(c.words[0].s, "/") >= 2 && !a.isDownloaded(c.words[0].s, c.cwd) && a.workDir != "" && (c.cwd == a.workDir || a.inWork(c.cwd)),
		n == "make" && len(args) > 0 && !hasWord(args, "-f") && !hasPrefixWord(args, "--file") && !hasPrefixWord(args, "--makefile") && a.workDir != "" && c.cwd == a.workDir && len(a.downloads) == 0:
		// eval "$(./scripts/print-env.sh)", eval "$(make -s print-env)":
		// the project's own scripts print it, as trusted as running them
		// (a bare ./tool may be any binary dropped there)
		return flow{kind: flowText, partial: true}
	case n == "eval" && len(c.words) > 1 && evalShellInit(c):
		// fish: eval TOOL init ARGS | source
		return flow{kind: flowText}
	case (n == "kubectl" || n == "oc") && secretManifestOut(args):
		// kubectl create secret generic X --from-env-file=.env.production
		// --dry-run=client -o yaml: a Secret whose data are the values
		return flow{kind: flowSecret, what: "a Secret manifest with its values", crit: true}
	case n == "openssl" && len(args) > 0 && args[0].s == "pkcs12" && (hasWord(args, "-nodes") || hasWord(args, "-noenc")) && !hasWord(args, "-nokeys") && !hasWord(args, "-out") && !hasWord(args, "-export"):
		// openssl pkcs12 -in vpn.p12 -nodes: the bundle's private key
		// written out unencrypted
		return flow{kind: flowSecret, what: "a private key, unencrypted (openssl pkcs12 -nodes)", crit: true}
	case n == "git-crypt" && len(args) > 1 && args[0].s == "export-key" && (args[len(args)-1].s == "/dev/stdout" || args[len(args)-1].s == "-"):
		// git-crypt export-key /dev/stdout: the key that decrypts the
		// repository's secret files
		return flow{kind: flowSecret, what: "the repository's git-crypt key", crit: true}
	case secretScannerOut(c):
		// trufflehog git file://. --json, gitleaks detect -v: each finding
		// carries the secret it found, in full
		return flow{kind: flowSecret, what: "a secret scanner's findings (the secrets themselves)", crit: true}
	case logs != "":
		// the system's logs, the journal, production's logs: who logged
		// in from where, requests with their tokens and customers' data
		return flow{kind: flowSecret, what: logs}
	case n == "string" && fishStringReadsInput(args) && len(args) > 1 && args[0].s == "match" && (c.in.kind == flowUnknown || c.in.kind == flowList) && grepKeepsScratch(args[1:]):
		// string match '*pr-*': only a pull request's names pass
		return flow{kind: flowUnknown, scratch: true}
	case (n == "docker" || n == "podman") && listFilterScratch(args):
		// docker volume ls -q --filter label=com.docker.compose.project=myapp_test:
		// only a test project's objects are listed
		return flow{kind: flowUnknown, scratch: true}
	case n == "string" && fishStringReadsInput(args):
		// fish: string SUB with no strings given filters its input
		return c.in
	case n == "string" && len(args) >= 2 && args[0].s == "join":
		// fish: string join SEP WORDS...
		parts := make([]string, 0, len(args)-2)
		for _, w := range args[2:] {
			if !w.ok {
				return flow{kind: flowUnknown}
			}
			parts = append(parts, w.s)
		}
		return flow{kind: flowText, text: strings.Join(parts, args[1].s) + "\n"}
	case n == "psub":
		// fish: a file holding what psub reads
		return c.in
	case n == "git" && len(args) > 0 && (args[0].s == "ls-files" && lsFilesAll(args[1:]) || args[0].s == "diff" && diffNamesModified(args[1:]) || args[0].s == "status" && statusListsAll(args[1:])),
		(n == "hg" || n == "svn") && len(args) > 0 && (args[0].s == "status" || args[0].s == "st") && vcsStatusNames(args[1:]):
		// hg status -un0 | xargs -0 rm: the untracked or changed files,
		// every one
		return flow{kind: flowList, what: "tracked files"}
	case n == "losetup" && hasWord(args, "--show") && a.losetupScratchImage(c, args):
		// dev=$(losetup -f --show scratch.img): a loop device over the
		// image file
		return flow{kind: flowText, text: "/dev/loop99\n"}
	case n == "lsblk" && !hasWord(args, "--help"):
		return flow{kind: flowList, what: blockDevices}
	case n == "git" && len(args) > 0 && args[0].s == "archive" && !hasWord(args, "-o") && !hasPrefixWord(args, "--output") && !hasWord(args, "--list") && !hasWord(args, "-l"):
		return flow{kind: flowLocal, what: "an archive of the repository", tree: true}
	case n == "git" && len(args) > 0 && gitShowsChanges(args):
		// git log -p --all, git diff HEAD~50: the code's changes, line
		// by line
		return flow{kind: flowLocal, what: "the repository's changes (git " + args[0].s + ")", tree: true}
	case n == "git" && gitBundleToStdout(c):
		// git bundle create - --all: the history written to the output
		return flow{kind: flowLocal, what: "the repository's history", tree: true}
	case (n == "docker" || n == "podman" || n == "nerdctl") && len(args) > 1 && (args[0].s == "save" || args[0].s == "image" && args[1].s == "save") &&
		!hasWord(args, "-o") && !hasPrefixWord(args, "--output"):
		// docker save IMAGE: the image's layers, the code and whatever
		// was built into it
		return flow{kind: flowLocal, what: "a container image (" + args[len(args)-1].s + ")", tree: true}
	case execDump(c):
		return flow{kind: flowSecret, what: "a database dump made in " + c.base + " exec", crit: true}
	case n == "ssh" && remoteDump(args):
		// ssh db-host 'mysqldump --all-databases': the dump comes back
		return flow{kind: flowSecret, what: "a database dump made on " + firstNonOption(args), crit: true}
	case n == "helm" && hasWord(args, "template") && helmTemplateURL(args) != "":
		// helm template x oci://host/chart: a chart from the network,
		// rendered to the output
		return flow{kind: flowRemote, what: "helm template " + helmTemplateURL(args)}
	case fetchers[n] && secretAPIRead(c) != "":
		// a service's secret values read with its credentials
		return flow{kind: flowSecret, what: secretAPIRead(c), crit: true}
	case fetchers[n]:
		return flow{kind: flowRemote, what: c.base + " " + firstURL(args), records: authedRead(c)}
	case (n == "powershell" || n == "pwsh") && psDownloadOut(args) != "":
		// powershell -c iwr URL: the download, on standard output
		return flow{kind: flowRemote, what: psDownloadOut(args)}
	case socketTools[n]:
		return flow{kind: flowSocket, what: c.base + " " + joinWords(args)}
	case n == "openssl":
		if len(args) > 0 && args[0].s == "s_client" {
			return flow{kind: flowSocket, what: "openssl s_client"}
		}
		if hasWord(args, "-d") && (hasWord(args, "-base64") || hasWord(args, "-a") || len(args) > 0 && args[0].s == "base64") {
			return decode(c.in, "base64")
		}
		if hasWord(args, "-d") && c.in.kind == flowRemote {
			// decrypting a download hides what it is, not where it is from
			return flow{kind: flowRemote, what: c.in.what, obf: true}
		}
		return a.readerFlow(c, args, true)
	case n == "pg_dump" || n == "pg_dumpall" || n == "mysqldump" || n == "mariadb-dump" || n == "mongodump" && hasWord(args, "--archive"):
		if _, ok := optValue(args, "-f", "file"); ok || hasPrefixWord(args, "--result-file") {
			return flow{}
		}
		return flow{kind: flowSecret, what: "a database dump", crit: true}
	case dumpsToOutput(c):
		return flow{kind: flowSecret, what: "a database's records", crit: true}
	case n == "echo":
		return echoFlow(args)
	case n == "print" && len(args) > 0 && !strings.HasPrefix(args[0].s, "-"):
		// zsh's print with plain words: echo -e's output (it reads escapes)
		return echoFlow(append([]word{lit("-e")}, args...))
	case n == "print" && len(args) > 1 && zshPrintFlags(args[0].s) && literalWords(args[1:]):
		// print -l WORDS: one per line; -r leaves escapes alone; -- ends
		// the options
		raw := false
		for len(args) > 0 && zshPrintFlags(args[0].s) {
			raw = raw || strings.IndexByte(args[0].s, 'r') > 0
			args = args[1:]
		}
		if len(args) > 0 && args[0].s == "--" {
			args = args[1:]
		}
		if raw {
			// echo would read a leading -n or -e as its own option
			return flow{kind: flowText, text: joinWords(args) + "\n"}
		}
		return echoFlow(append([]word{lit("-e")}, args...))

	case n == "printf":
		return printfFlow(args)
	case n == "losetup" && (hasWord(args, "--show") || hasPrefixWord(args, "-") && strings.Contains(joinWords(args), "--show")):
		// LOOP=$(losetup -f --show build/disk.img): the device is the
		// file's contents; what is written to it is written to the file
		if ops := posArgs(args, optSpec{short: "o", long: []string{"offset", "sizelimit", "sector-size"}}); len(ops) == 1 && ops[0].ok {
			if p := a.absPath(ops[0].s, c.cwd); p != "" && (a.inWork(p) || underTemp(p)) && !strings.HasPrefix(p, "/dev/") {
				// the project's own image, or one made for a test
				return flow{kind: flowText, text: p + "\n"}
			}
		}
		return flow{kind: flowUnknown}
	case n == "mktemp":
		if c.cwd != "" && hasWord(args, "-p") || hasPrefixWord(args, "--tmpdir=") && !hasPrefixWord(args, "--tmpdir=/tmp") {
			return flow{kind: flowUnknown}
		}
		return flow{kind: flowText, text: "/tmp/tmp.XXXXXXXXXX\n"}
	case n == "whoami" && len(args) == 0, n == "id" && (hasWord(args, "-un") || hasWord(args, "-nu") || hasWord(args, "-u") && hasWord(args, "-n")), n == "logname" && len(args) == 0:
		if u := a.userName(); u != "" {
			return flow{kind: flowText, text: u + "\n"}
		}
		return flow{kind: flowUnknown}
	case n == "pwd":
		if c.cwd != "" {
			return flow{kind: flowText, text: c.cwd + "\n"}
		}
		return flow{kind: flowUnknown}
	case n == "which" || n == "type" && hasWord(args, "-P"):
		if len(args) > 0 && args[len(args)-1].ok {
			return flow{kind: flowText, text: "/usr/bin/" + path.Base(args[len(args)-1].s) + "\n"}
		}
	case n == "command" && len(args) == 2 && args[0].s == "-v":
		return flow{kind: flowText, text: args[1].s + "\n"}
	case n == "dirname" && len(args) == 1 && args[0].ok:
		return flow{kind: flowText, text: path.Dir(args[0].s) + "\n"}
	case n == "getent" && len(args) == 2 && args[0].s == "passwd" && args[1].ok:
		// getent passwd USER: the account's line, its home the sixth
		// field
		home := "/home/" + args[1].s
		if args[1].s == "root" {
			home = "/root"
		} else if u := a.userName(); u == args[1].s && a.home != "" {
			home = a.home
		}
		return flow{kind: flowText, text: args[1].s + ":x:1000:1000::" + home + ":/bin/bash\n"}
	case n == "string" && len(args) == 4 && args[0].s == "repeat" && args[1].s == "-n" && args[2].s == "1" && args[3].ok:
		// fish's string repeat -n 1 X: X
		return flow{kind: flowText, text: args[3].s + "\n"}
	case n == "mkcert" && len(args) == 1 && args[0].s == "-CAROOT" && a.home != "":
		// where the local certificate authority's key is kept
		return flow{kind: flowText, text: a.home + "/.local/share/mkcert\n"}
	case n == "basename" && len(args) >= 1 && args[0].ok:
		return flow{kind: flowText, text: path.Base(args[0].s) + "\n"}
	case n == "base64":
		if hasWord(args, "-d") || hasWord(args, "--decode") || hasWord(args, "-D") || hasWord(args, "-di") {
			in := c.in
			if ops := operands(args, optSpec{short: "w"}); len(ops) > 0 {
				in = a.fileFlow(c, ops[0])
			}
			return decode(in, "base64")
		}
		return a.readerFlow(c, args, false)
	case n == "xxd":
		if hasWord(args, "-r") && (hasWord(args, "-p") || hasWord(args, "-ps") || hasWord(args, "-rp")) || hasWord(args, "-rp") {
			return decode(c.in, "hex")
		}
		if hasWord(args, "-r") {
			return decode(c.in, "")
		}
		return a.readerFlow(c, args, false)
	case n == "cut" && c.in.kind == flowText:
		// echo /home/dev/x | cut -d/ -f1-3: fields of known text
		if t, ok := cutText(args, c.in.text); ok {
			return flow{kind: flowText, text: t, obf: true}
		}
		return flow{kind: flowUnknown, obf: true}
	case n == "rev":
		if c.in.kind == flowText {
			return flow{kind: flowText, text: reverseLines(c.in.text), obf: true}
		}
		return a.readerFlow(c, args, true)
	case n == "tr":
		if c.in.kind == flowText {
			if t, ok := trFlow(args, c.in.text); ok {
				return flow{kind: flowText, text: t, obf: true}
			}
			return flow{kind: flowUnknown, obf: true}
		}
		return passFlow(c.in, true)
	case decoders[n]:
		if hasWord(args, "-d") || hasWord(args, "--decode") || strings.HasPrefix(n, "un") || strings.HasSuffix(n, "cat") || n == "uudecode" {
			return decode(c.in, "")
		}
		return a.readerFlow(c, args, false)
	case n == "ansible-vault" && len(args) > 0 && args[0].s == "view":
		// ansible-vault view F: the vault decrypted onto the output
		return flow{kind: flowSecret, what: "a decrypted Ansible vault", crit: true}
	case n == "env" || n == "printenv":
		return flow{kind: flowSecret, what: "the environment variables", crit: true}
	case (n == "npm" || n == "yarn" || n == "pnpm") && packageEnvScript(args):
		// npm run env: the package manager's own script that lists the
		// environment it runs scripts with, every variable included
		return flow{kind: flowSecret, what: "the environment variables (" + n + " run env)", crit: true}
	case (n == "docker" || n == "podman" || n == "nerdctl") && containerEnvShown(args):
		// docker inspect --format '{{.Config.Env}}': the containers'
		// environment, their database passwords and API keys
		return flow{kind: flowSecret, what: "containers' environment variables", crit: true}
	case n == "finger" && len(args) > 0 && strings.Contains(args[len(args)-1].s, "@"):
		// a finger server answers with whatever text it likes
		return flow{kind: flowRemote, what: "finger " + args[len(args)-1].s}
	case n == "pbpaste" || n == "wl-paste" || n == "xclip" && (hasWord(args, "-o") || hasWord(args, "-out")) ||
		n == "xsel" && (hasWord(args, "-o") || hasWord(args, "--output") || hasWord(args, "-bo") || hasWord(args, "-ob")):
		// what was last copied: often a password or a token
		return flow{kind: flowSecret, what: "the clipboard", crit: true}
	case remoteEnvDump(c) != "":
		return flow{kind: flowSecret, what: remoteEnvDump(c), crit: true}
	case (n == "jq" || n == "gojq" || n == "jaq") && jqPrintsEnv(args):
		// jq -n env, jq -n '$ENV': every environment variable as JSON
		return flow{kind: flowSecret, what: "the environment", crit: true}
	case n == "set" && len(args) == 0, n == "export" && (len(args) == 0 || args[0].s == "-p"),
		n == "set" && len(args) == 1 && (args[0].s == "-x" || args[0].s == "-gx" || args[0].s == "-U" || args[0].s == "--export" || args[0].s == "--show" || args[0].s == "-L" || args[0].s == "--long"), // fish lists them
		n == "declare" && len(args) == 1 && (args[0].s == "-p" || args[0].s == "-x"),
		// compgen -v lists the names; their values come out only through
		// an indirect ${!v} somewhere on the line
		n == "compgen" && hasWord(args, "-v") && strings.Contains(a.src, "${!"),
		n == "typeset" && (len(args) == 0 || len(args) == 1 && (args[0].s == "-p" || args[0].s == "-x" || args[0].s == "-gx")): // zsh and ksh list them
		return flow{kind: flowSecret, what: "the shell variables", crit: true}
	case (n == "typeset" || n == "declare") && secretFamilyPattern(typesetPattern(args)):
		// typeset -p -m 'AWS_*': the service's variables with their values
		return flow{kind: flowSecret, what: "the shell variables " + typesetPattern(args), crit: true}
	case n == "git" && len(args) > 1 && args[0].s == "config" && (hasWord(args, "--list") || hasWord(args, "-l")):
		// every setting, with the tokens in remote URLs, http.extraHeader
		// and credential helpers
		return flow{kind: flowSecret, what: "the git configuration", crit: true}
	case n == "docker" && dockerListFlow(args).kind == flowList:
		return dockerListFlow(args)
	case n == "find":
		if c.find == nil && len(c.words) > 0 {
			a.prepareFind(c) // what it selects: names, types, times
		}
		if c.find != nil {
			return flow{kind: flowPaths, find: c.find}
		}
		spec := &findSpec{filtered: true}
		for _, w := range args {
			if strings.HasPrefix(w.s, "-") {
				break
			}
			spec.roots = append(spec.roots, w)
		}
		if len(spec.roots) == 0 {
			spec.roots = []word{lit(".")}
		}
		for _, w := range args {
			if w.s == "-name" || w.s == "-iname" || w.s == "-path" || w.s == "-mtime" || w.s == "-newer" || w.s == "-regex" {
				return flow{kind: flowPaths, find: spec}
			}
		}
		spec.filtered = false
		return flow{kind: flowPaths, find: spec}
	case n == "mdfind" || n == "locate" || n == "plocate" || n == "mlocate":
		// mdfind -onlyin DIR QUERY, locate PATTERN: files found below
		// DIR, or anywhere
		root := lit("/")
		if d, ok := optValue(args, "-onlyin", ""); ok {
			root = word{s: d, ok: true}
			if p := a.absPath(d, c.cwd); p != "" {
				root.s = p
			}
		}
		return flow{kind: flowPaths, find: &findSpec{roots: []word{root}, filtered: true}}
	case n == "ls" || n == "fd" || n == "fdfind":
		spec := &findSpec{filtered: true}
		for _, w := range args {
			if !strings.HasPrefix(w.s, "-") {
				spec.roots = append(spec.roots, w)
			}
		}
		if len(spec.roots) == 0 {
			spec.roots = []word{lit(".")}
		}
		if n == "ls" {
			spec.filtered = false
			// ls -d DIR, ls FILE, ls GLOB print the paths themselves:
			// curl -F k=@$(ls ~/.mozilla/*/key4.db) sends that file
			return flow{kind: flowPaths, find: spec, text: a.lsPrintedPaths(args, c.cwd)}
		}
		return flow{kind: flowPaths, find: spec}
	case n == "rg" && (hasWord(args, "--files") || hasWord(args, "-l") || hasWord(args, "--files-with-matches")):
		// rg --files DIR..., rg -l PATTERN DIR...: the files below DIR
		return flow{kind: flowPaths, find: &findSpec{roots: rgRoots(args), filtered: true}}
	case n == "git" && len(args) > 0 && (args[0].s == "ls-files" || args[0].s == "diff" && hasWord(args, "--name-only")):
		return flow{kind: flowPaths, find: &findSpec{roots: []word{lit(".")}, filtered: true}}
	case n == "gcloud" && hasWord(args, "print-access-token"), n == "gh" && len(args) > 1 && args[0].s == "auth" && args[1].s == "token",
		n == "kubectl" && hasWord(args, "view") && hasWord(args, "--raw"), n == "aws" && hasWord(args, "export-credentials"),
		n == "aws" && hasWord(args, "get-session-token"), n == "security" && hasWord(args, "-w"),
		n == "aws" && hasWord(args, "eks") && hasWord(args, "get-token"), n == "aws" && hasWord(args, "get-password-data") && hasPrefixWord(args, "--priv-launch-key"):
		return flow{kind: flowSecret, what: "credentials (" + c.base + ")", crit: true}
	case storedSecretRead(c) != "":
		return flow{kind: flowSecret, what: storedSecretRead(c), crit: true}
	case cliSecretOutput(c) != "":
		return flow{kind: flowSecret, what: cliSecretOutput(c), crit: true}
	case settingsShown(c) != "":
		// php artisan config:show services | nc termbin.com 9999
		return flow{kind: flowSecret, what: settingsShown(c), crit: true}
	case n == "history":
		return flow{kind: flowSecret, what: "the shell history"}
	case n == "string" && len(args) > 0 && c.in.kind == flowSecret:
		// fish's string builtin reshaping or filtering secrets: still secrets
		return c.in
	case n == "string" && len(args) > 0 && c.in.kind != flowNone && fishStringPass[args[0].s]:
		// fish's string builtin: what it reads, reshaped
		return passFlow(c.in, false)
	case n == "tee" || n == "pv" || n == "buffer" || n == "mbuffer" || n == "cat" && len(positional(args)) == 0:
		if c.in.kind == flowNone {
			if n == "cat" && c.origin == "command substitution" && len(c.redirs) == 0 {
				// "$(cat)": the input of the command the substitution is in
				return flow{kind: flowUnknown, what: stdinOfParent}
			}
			return flow{kind: flowUnknown}
		}
		return c.in
	case (n == "sqlite3" || n == "sqlite" || n == "duckdb") && len(positional(args)) > 0:
		// sqlite3 FILE .dump: the database's content
		if f := a.readerFlow(c, positional(args)[:1], false); f.kind == flowSecret {
			return f
		}
		return flow{kind: flowUnknown}
	case n == "tar" || n == "zip" || n == "7z" || n == "rar":
		if f := a.archiveFlow(c, args); f.kind != flowNone {
			return f
		}
		return a.readerFlow(c, args, false)
	case n == "redis-cli" || n == "valkey-cli":
		if hasWord(args, "--scan") && (!hasWord(args, "--pattern") || hasWord(args, "*")) || hasWord(args, "KEYS") && hasWord(args, "*") || hasWord(args, "keys") && hasWord(args, "*") {
			return flow{kind: flowList, what: "redis-keys"}
		}
	case n == "pgrep" || n == "pidof":
		ops := posArgs(args, optSpec{short: "uUgGPtsF", long: []string{"euid", "uid", "group", "pgroup", "parent", "terminal", "session", "pidfile"}})
		if u, ok := optValue(args, "-u", "euid"); ok && len(ops) == 0 && n == "pgrep" {
			return flow{kind: flowList, what: "pids:user:" + u} // every process of a user
		}
		if len(ops) > 0 {
			return flow{kind: flowList, what: "pids:" + path.Base(ops[len(ops)-1].s)}
		}
	case n == "seq":
		ops := positional(args)
		if len(ops) > 0 {
			if v, err := strconv.Atoi(ops[len(ops)-1].s); err == nil && v > 64 {
				return flow{kind: flowList, what: "numbers", text: strconv.Itoa(v)}
			}
		}
	case (n == "docker" || n == "podman" || n == "nerdctl") && len(args) > 2 && args[0].s == "cp" && args[len(args)-1].s == "-":
		// docker cp api:/app/.env -: a container's file, as a tar stream
		if _, p, ok := strings.Cut(args[len(args)-2].s, ":"); ok {
			if d, crit := a.sensitive(p, "/"); d != "" {
				return flow{kind: flowSecret, what: d + " in a container", crit: crit}
			}
		}
		return flow{kind: flowUnknown}
	case passThrough[n]:
		if n == "sed" && c.in.kind == flowText && c.in.text == "" && !c.in.partial && sedRenamesOnly(args) {
			// kubectl completion bash | sed 's/kubectl/k/g': a trusted
			// init script with one name replaced by another
			return c.in
		}
		out := a.readerFlow(c, args, false)
		if (n == "grep" || n == "egrep" || n == "fgrep") && (out.kind == flowUnknown || out.kind == flowList) && grepKeepsScratch(args) {
			// only a pull request's, a test's or a preview's names pass:
			// a selection of throwaway objects, not every one
			return flow{kind: flowUnknown, scratch: true}
		}
		return out
	}
	rec := ""
	if recordsListed(c) {
		rec = c.name
	}
	if what := listsEverything(c); what != "" {
		return flow{kind: flowList, what: what, records: rec}
	}
	if rec != "" {
		return flow{kind: flowUnknown, records: rec}
	}
	if p, ok := a.locationQuery(c); ok {
		return flow{kind: flowText, text: p + "\n"}
	}
	return flow{kind: flowUnknown}
}

// archiveFlow is the output of tar/zip creating an archive on standard
// output: a whole directory tree is "tree" data.
func (a *analysis) archiveFlow(c *cmd, args []word) flow {
	create := false
	for i, w := range args {
		s := w.s
		if s == "-c" || s == "--create" || i == 0 && !strings.HasPrefix(s, "-") && strings.Contains(s, "c") || strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.Contains(s, "c") {
			create = true
		}
	}
	if c.name == "zip" {
		create = true
	}
	if !create {
		return flow{}
	}
	var out flow
	cwd := c.cwd
	dirArg := ""
	if d, ok := optValue(args, "-C", "directory"); ok && c.name != "zip" {
		// tar -czf p.tgz -C /work project: operands are taken from -C's
		// directory
		dirArg = d
		if p := a.absPath(d, c.cwd); p != "" {
			cwd = p
		}
	}
	for _, w := range positional(args) {
		if dirArg != "" && w.s == dirArg {
			continue
		}
		if d, crit := a.sensitive(w.s, cwd); d != "" {
			return flow{kind: flowSecret, what: d, crit: crit}
		}
		if f, ok := a.writtenFile(w.s, cwd); ok && (f.kind == flowSecret || f.tree) {
			return f // an archive of a dump taken earlier
		}
		p := a.absPath(w.s, cwd)
		if w.s == "." || w.s == "./" || w.s == "*" || p != "" && (p == a.workDir || p == a.home) {
			out = flow{kind: flowLocal, what: "the whole directory " + w.s, tree: true}
		}
		if out.kind == 0 && p != "" && otherFolder(a, w.s, p) {
			// tar czf - /mnt/eng/Projects, tar czf - /etc/asterisk: a
			// folder of the machine or a share beyond the project
			out = flow{kind: flowLocal, what: "the directory " + w.s, tree: true}
		}
		if strings.TrimSuffix(w.s, "/") == ".git" || p != "" && a.workDir != "" && p == a.workDir+"/.git" {
			out = flow{kind: flowLocal, what: "the repository's history (.git)", tree: true}
		}
	}
	return out
}

// otherFolder reports an archived operand that names a folder outside the
// project (an absolute path or one under the home, its last element
// without an extension): archived whole, not one file of it.
func otherFolder(a *analysis, s, p string) bool {
	if !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "~") && !strings.HasPrefix(s, "$HOME") {
		return false
	}
	if a.workDir != "" && (p == a.workDir || strings.HasPrefix(p, a.workDir+"/")) || p == "/tmp" || p == "/" {
		return false
	}
	return !strings.Contains(path.Base(strings.TrimSuffix(p, "/")), ".")
}

// secretVarIn returns the name of a secret-looking variable referenced in
// an unresolved word ($AWS_SECRET_ACCESS_KEY, ${GITHUB_TOKEN}).
func secretVarIn(s string) string {
	n, _ := secretVarFrom(s, 0)
	return n
}

// secretVarFrom is secretVarIn from byte offset from; it also returns
// where the scan stopped, so a caller can find every secret variable of
// a word ("t=$CI_JOB_TOKEN&g=$GITHUB_TOKEN").
func secretVarFrom(s string, from int) (string, int) {
	return varFrom(s, from, isSecretVar)
}

// varFrom returns the first variable referenced in s from byte offset
// from ($NAME, ${NAME}) whose name is, by is, and where the scan
// stopped.
func varFrom(s string, from int, is func(string) bool) (string, int) {
	for i := from; i < len(s); i++ {
		if s[i] == '%' {
			// %NAME%: cmd's reference, left unexpanded when unknown
			k := i + 1
			for k < len(s) && (s[k] == '_' || s[k] >= 'A' && s[k] <= 'Z' || s[k] >= 'a' && s[k] <= 'z' || k > i+1 && s[k] >= '0' && s[k] <= '9') {
				k++
			}
			if k > i+1 && k < len(s) && s[k] == '%' && is(s[i+1:k]) {
				return s[i+1 : k], k + 1
			}
			continue
		}
		if s[i] != '$' {
			continue
		}
		j := i + 1
		if j < len(s) && s[j] == '{' {
			j++
		}
		k := j
		for k < len(s) && (s[k] == '_' || s[k] >= 'A' && s[k] <= 'Z' || s[k] >= 'a' && s[k] <= 'z' || s[k] >= '0' && s[k] <= '9') {
			k++
		}
		if is(s[j:k]) {
			return s[j:k], k
		}
	}
	return "", len(s)
}

// testedOnly reports a variable the source expands only in forms that
// say whether it is set or how long it is: ${NAME:+set}, ${#NAME}.
func testedOnly(src, name string) bool {
	return !strings.Contains(src, "$"+name) && !strings.Contains(src, "${"+name+"}") &&
		(strings.Contains(src, "${"+name+":+") || strings.Contains(src, "${"+name+"+") || strings.Contains(src, "${#"+name+"}") || shortPrefixOf(src, name))
}

// shortPrefixOf reports ${NAME:0:N} with N of at most 8: the few first
// characters that say which kind of key it is (sk_live_), not the key.
func shortPrefixOf(src, name string) bool {
	_, rest, ok := strings.Cut(src, "${"+name+":0:")
	if !ok {
		return false
	}
	n, _, ok := strings.Cut(rest, "}")
	return ok && len(n) == 1 && n[0] >= '1' && n[0] <= '8'
}

// plainSecretVar is secretVarIn for a secret variable expanded as it is:
// "${TOKEN:+set}" and "${#TOKEN}" say only whether or how long.
func plainSecretVar(s string) string {
	n := secretVarIn(s)
	if n == "" || !expandedPlain(s, n) {
		return ""
	}
	return n
}

// connectionStringVar returns a variable holding a connection string
// (DATABASE_URL, REDIS_URL, MONGO_URI, SENTRY_DSN) expanded as it is in
// word s: its password comes with it.
func connectionStringVar(s string) string {
	for n, at := varFrom(s, 0, connectionStringName); n != ""; n, at = varFrom(s, at, connectionStringName) {
		if expandedPlain(s, n) {
			return n
		}
	}
	return ""
}

func connectionStringName(n string) bool {
	for _, suf := range [...]string{"DATABASE_URL", "DB_URL", "_DSN", "REDIS_URL", "MONGO_URI", "MONGODB_URI", "AMQP_URL"} {
		if strings.HasSuffix(n, suf) {
			return true
		}
	}
	return false
}

// expandedPlain reports that word s expands variable n as it is, not
// only its length or a stand-in for it.
func expandedPlain(s, n string) bool {
	return !strings.Contains(s, "${#") && !strings.Contains(s, n+":+") && !strings.Contains(s, n+":-") && !strings.Contains(s, n+"+")
}

func isSecretVar(name string) bool {
	u := strings.ToUpper(name)
	if len(u) < 4 {
		return false
	}
	for _, m := range [...]string{"SECRET", "TOKEN", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "PRIVATE_KEY", "ACCESS_KEY", "CREDENTIAL", "SESSION_KEY", "AUTH_KEY", "_PASS", "DB_PASS",
		"ACCOUNT_KEY", "STORAGE_CONNECTION_STRING", "SERVICEBUS_CONNECTION_STRING", "EVENTHUB_CONNECTION_STRING", "JSON_KEY", "MNEMONIC", "SEED_PHRASE", "SIGNING_KEY"} {
		if strings.Contains(u, m) {
			return true
		}
	}
	if strings.Contains(u, "PROD") && (strings.Contains(u, "DATABASE_URL") || strings.Contains(u, "DB_URL") || strings.HasSuffix(u, "_DSN") || strings.Contains(u, "CONNECTION_STRING")) {
		return true // PROD_DATABASE_URL: production's connection with its password
	}
	return strings.HasSuffix(u, "_PAT") // a personal access token
}

// readerOpts are the options with an argument of commands that read
// files.
var readerOpts = map[string]optSpec{
	"head": {short: "cn", long: []string{"bytes", "lines"}}, "tail": {short: "cns", long: []string{"bytes", "lines", "pid", "sleep-interval"}},
	"cut":  {short: "bcdf", long: []string{"bytes", "characters", "delimiter", "fields", "output-delimiter"}},
	"sort": {short: "ktoST", long: []string{"key", "field-separator", "output", "buffer-size", "temporary-directory"}},
	"grep": {short: "efmABCd", long: []string{"regexp", "file", "max-count", "after-context", "before-context", "context"}},
	"fold": {short: "w", long: []string{"width"}}, "base64": {short: "w", long: []string{"wrap"}}, "od": {short: "AjNtw"},
	"hexdump": {short: "enNs"}, "xxd": {short: "cglosn"}, "strings": {short: "nteT"}, "split": {short: "abdlnC"},
	"openssl": {short: "", long: []string{"in", "out", "pass", "passin", "K", "iv", "md", "k"}}, "tar": {short: "fCTX", long: []string{"file", "directory", "exclude"}},
	"zip": {short: "xib"}, "gpg": {short: "ro", long: []string{"recipient", "output", "passphrase"}}, "sed": {short: "efl", long: []string{"expression", "file"}},
	"awk": {short: "Ffv", long: []string{"field-separator", "file", "assign"}}, "jq": {short: "", long: []string{"arg", "argjson", "slurpfile", "rawfile", "indent"}},
	"yq": {short: "poI", long: []string{"input-format", "output-format", "indent", "expression"}},
	"nl": {short: "bdfhilnsvw"}, "column": {short: "cstoNRW"},
}

// blockDevices is the list lsblk prints: the machine's disks.
const blockDevices = "block devices"

// deviceWord is what a variable holding each of the machine's disks in
// turn stands for: a disk, for the rules on disks, named so that explain
// shows where it came from.
func deviceWord(name string) word {
	return word{s: lsblkDisk, ok: true, tail: len(name) + 1}
}

// lsblkDisk names any of the disks lsblk lists.
const lsblkDisk = "/dev/disk/each-listed-by-lsblk"

// scriptFirst are the filters whose first operand is their program or
// pattern, not a file.
var scriptFirst = map[string]bool{
	"sed": true, "awk": true, "grep": true, "egrep": true, "fgrep": true, "jq": true, "yq": true, "gojq": true, "jaq": true,
}

// yqCommands are yq's subcommands, which come before its expression.
var yqCommands = map[string]bool{"eval": true, "e": true, "eval-all": true, "ea": true}

// readerFlow is the output of a command that prints (a transform of) its
// file operands, or of its input when it has none.
func (a *analysis) readerFlow(c *cmd, allArgs []word, obf bool) flow {
	var out flow
	files, lead := 0, 0
	args := posArgs(allArgs, readerOpts[c.name])
	for i, w := range args {
		s := w.s
		if s == "" || s[0] == '-' && s != "-" {
			continue
		}
		if c.name == "yq" && i == 0 && yqCommands[s] {
			lead++ // yq eval EXPR [FILE]
			continue
		}
		if scriptFirst[c.name] {
			if i == lead && !hasWord(allArgs, "-e") && !hasWord(allArgs, "-f") {
				continue // the script / pattern
			}
		}
		if c.name == "tar" || c.name == "zip" {
			if !strings.ContainsAny(s, "/.~") && i == 0 {
				continue
			}
		}
		if s == "-" {
			out = mergeFlow(out, c.in)
			files++
			continue
		}
		if w.proc && w.flow != nil {
			out = mergeFlow(out, *w.flow)
			files++
			continue
		}
		f := a.fileFlow(c, w)
		if f.kind == flowSecret || f.kind == flowSocket || f.kind == flowRemote {
			if out.kind != flowRemote && out.kind != flowSocket {
				out = f
			}
		} else if out.kind == flowNone {
			out = f
		}
		files++
	}
	if files == 0 {
		return passFlow(c.in, obf)
	}
	if out.kind == flowNone {
		out.kind = flowUnknown
	}
	return out
}

// sedRenames matches a sed script that swaps one plain name for another.
var sedRenames = regexp.MustCompile(`^s(/[\w.-]+/[\w.-]*/|\|[\w.-]+\|[\w.-]*\||#[\w.-]+#[\w.-]*#)g?$`)

// sedRenamesOnly reports sed arguments that only rename words of the
// input (s/kubectl/k/g), reading nothing but it.
func sedRenamesOnly(args []word) bool {
	n := 0
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w.s == "-e" && i+1 < len(args):
			i++
			if !sedRenames.MatchString(args[i].s) {
				return false
			}
			n++
		case strings.HasPrefix(w.s, "-"):
			if w.s != "-E" && w.s != "-r" {
				return false
			}
		case n == 0 && sedRenames.MatchString(w.s):
			n++
		default:
			return false // a file read, or another command
		}
	}
	return n > 0
}

func passFlow(in flow, obf bool) flow {
	switch in.kind {
	case flowText:
		return flow{kind: flowUnknown, obf: in.obf || obf}
	case flowNone:
		return flow{kind: flowUnknown}
	}
	in.obf = in.obf || obf
	return in
}

func decode(in flow, enc string) flow {
	switch in.kind {
	case flowText:
		switch enc {
		case "base64":
			if t, ok := decodeBase64(in.text); ok {
				return flow{kind: flowText, text: t, obf: true}
			}
		case "hex":
			if t, ok := decodeHex(in.text); ok {
				return flow{kind: flowText, text: t, obf: true}
			}
		}
		return flow{kind: flowUnknown, obf: true}
	case flowNone:
		return flow{kind: flowUnknown, obf: true}
	}
	in.obf = true
	return in
}

func decodeBase64(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return string(b), true
		}
	}
	return "", false
}

func decodeHex(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, s)
	b, err := hex.DecodeString(s)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// decodeUTF16Base64 decodes a PowerShell -EncodedCommand.
func decodeUTF16Base64(s string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u)), true
}

func reverseLines(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		r := []rune(l)
		for x, y := 0, len(r)-1; x < y; x, y = x+1, y-1 {
			r[x], r[y] = r[y], r[x]
		}
		lines[i] = string(r)
	}
	return strings.Join(lines, "\n") + "\n"
}

// trFlow applies "tr SET1 SET2" or "tr -d SET" to text.
func trFlow(args []word, text string) (string, bool) {
	del := false
	var sets []string
	for _, w := range args {
		if !w.ok {
			return "", false
		}
		switch w.s {
		case "-d", "--delete":
			del = true
			continue
		case "-s", "-c", "-C", "-t":
			return "", false
		}
		sets = append(sets, trSet(w.s))
	}
	if del && len(sets) == 1 {
		return strings.Map(func(r rune) rune {
			if strings.ContainsRune(sets[0], r) {
				return -1
			}
			return r
		}, text), true
	}
	if del || len(sets) != 2 || sets[1] == "" {
		return "", false
	}
	from, to := []rune(sets[0]), []rune(sets[1])
	m := make(map[rune]rune, len(from))
	for i, r := range from {
		j := min(i, len(to)-1)
		m[r] = to[j]
	}
	return strings.Map(func(r rune) rune {
		if t, ok := m[r]; ok {
			return t
		}
		return r
	}, text), true
}

func trSet(s string) string {
	switch s {
	case "[:lower:]":
		return "abcdefghijklmnopqrstuvwxyz"
	case "[:upper:]":
		return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	}
	s = ansiC(s)
	var b []rune
	r := []rune(s)
	for i := 0; i < len(r); i++ {
		if i+2 < len(r) && r[i+1] == '-' && r[i] <= r[i+2] && r[i+2]-r[i] < 256 {
			for x := r[i]; x <= r[i+2]; x++ {
				b = append(b, x)
			}
			i += 2
			continue
		}
		b = append(b, r[i])
	}
	return string(b)
}

func echoFlow(args []word) flow {
	interp, newline := false, true
	i := 0
	for ; i < len(args); i++ {
		s := args[i].s
		if len(s) < 2 || s[0] != '-' || strings.Trim(s[1:], "neE") != "" {
			break
		}
		for _, ch := range s[1:] {
			switch ch {
			case 'n':
				newline = false
			case 'e':
				interp = true
			case 'E':
				interp = false
			}
		}
	}
	var b strings.Builder
	for _, w := range args[i:] {
		if !w.ok {
			if name := secretVarIn(w.s); name != "" {
				return flow{kind: flowSecret, what: "the secret variable $" + name, crit: true}
			}
		}
	}
	for j, w := range args[i:] {
		if !w.ok {
			if w.flow != nil && w.flow.kind != flowText {
				return *w.flow
			}
			return flow{kind: flowUnknown}
		}
		if j > 0 {
			b.WriteByte(' ')
		}
		if interp {
			b.WriteString(echoEscapes(w.s))
		} else {
			b.WriteString(w.s)
		}
	}
	if newline {
		b.WriteByte('\n')
	}
	return flow{kind: flowText, text: b.String(), obf: interp && hasEscapes(args[i:])}
}

func hasEscapes(args []word) bool {
	for _, w := range args {
		if strings.Contains(w.s, `\x`) || strings.Contains(w.s, `\0`) || strings.Contains(w.s, `\u`) {
			return true
		}
	}
	return false
}

// echoEscapes interprets the escapes of echo -e and printf %b.
func echoEscapes(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	// \0NNN is octal for echo; $'...' uses \NNN
	s = strings.ReplaceAll(s, `\0`, `\`)
	return ansiC(s)
}

func printfFlow(args []word) flow {
	if len(args) > 0 && args[0].s == "-v" {
		return flow{}
	}
	if len(args) > 0 && args[0].s == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return flow{kind: flowText}
	}
	for _, w := range args {
		if !w.ok {
			if name := secretVarIn(w.s); name != "" {
				return flow{kind: flowSecret, what: "the secret variable $" + name, crit: true}
			}
			return flow{kind: flowUnknown}
		}
	}
	format := args[0].s
	rest := args[1:]
	var b strings.Builder
	for iter := 0; iter < 64; iter++ {
		used := 0
		for i := 0; i < len(format); i++ {
			ch := format[i]
			if ch == '\\' && i+1 < len(format) {
				j := i + 1
				// collect one escape
				k := j + 1
				if format[j] == 'x' {
					for k < len(format) && k < j+3 && isHex(format[k]) {
						k++
					}
				} else if format[j] >= '0' && format[j] <= '7' {
					for k < len(format) && k < j+4 && format[k] >= '0' && format[k] <= '7' {
						k++
					}
				}
				b.WriteString(echoEscapes(format[i:k]))
				i = k - 1
				continue
			}
			if ch != '%' || i+1 >= len(format) {
				b.WriteByte(ch)
				continue
			}
			i++
			for i < len(format) && strings.IndexByte("-+ #0123456789.", format[i]) >= 0 {
				i++
			}
			if i >= len(format) {
				break
			}
			verb := format[i]
			if verb == '%' {
				b.WriteByte('%')
				continue
			}
			arg := ""
			if used < len(rest) {
				arg = rest[used].s
				used++
			}
			switch verb {
			case 'b':
				b.WriteString(echoEscapes(arg))
			case 'c':
				if arg != "" {
					b.WriteByte(arg[0])
				}
			case 'd', 'i', 'u':
				if arg == "" {
					arg = "0"
				}
				b.WriteString(arg)
			case 'o', 'x', 'X':
				n, _ := strconv.ParseInt(arg, 0, 64)
				base := 8
				if verb != 'o' {
					base = 16
				}
				b.WriteString(strconv.FormatInt(n, base))
			default:
				b.WriteString(arg)
			}
		}
		rest = rest[used:]
		if used == 0 || len(rest) == 0 {
			break
		}
	}
	return flow{kind: flowText, text: b.String(), obf: strings.Contains(format, `\x`) || strings.Contains(format, `\0`) || strings.Contains(format, "%b")}
}

// diffNamesModified reports git diff options that list the files with
// changes not yet committed (git diff --name-only [--cached] [HEAD]).
func diffNamesModified(args []word) bool {
	names := false
	for _, w := range args {
		switch w.s {
		case "--name-only":
			names = true
		case "-z", "--cached", "--staged", "HEAD", "--relative":
		default:
			return false
		}
	}
	return names
}

// lsFilesAll reports git ls-files options that list every tracked file.
func lsFilesAll(args []word) bool {
	for i, w := range args {
		switch w.s {
		case "-z", "-c", "--cached", "--full-name", "-o", "--others", "--exclude-standard", "-m", "--modified", "--directory":
		case "--":
			// -- src/: every such file under a folder of the project
			for _, p := range args[i+1:] {
				if !p.ok || strings.ContainsAny(p.s, "*?[") || strings.Contains(path.Base(p.s), ".") && p.s != "." && p.s != "./" {
					return false
				}
			}
			return true
		default:
			return false
		}
	}
	return true
}

// statusListsAll reports git status options that list every changed
// and untracked file one per line (--porcelain, --short), with no
// pathspec narrowing them.
func statusListsAll(args []word) bool {
	lists := false
	for _, w := range args {
		switch w.s {
		case "--porcelain", "--porcelain=v1", "-s", "--short", "-z":
			lists = true
		case "-u", "-uall", "--untracked-files=all", "--untracked-files", "-unormal", "--untracked-files=normal":
		default:
			return false
		}
	}
	return lists
}

// vcsStatusNames reports hg or svn status options that list every
// changed or untracked file of the working copy, with no path narrowing
// them.
func vcsStatusNames(args []word) bool {
	for _, w := range args {
		l := strings.TrimLeft(w.s, "-")
		if l == w.s || l == "" {
			return false // a path
		}
		if strings.HasPrefix(w.s, "--") {
			switch l {
			case "unknown", "modified", "added", "no-status", "print0", "quiet", "no-ignore", "ignored", "deleted", "removed":
				continue
			}
			return false
		}
		if strings.Trim(l, "umardincq0") != "" {
			return false
		}
	}
	return true
}

func hasWord(args []word, s string) bool {
	for _, w := range args {
		if w.s == s {
			return true
		}
	}
	return false
}

func hasPrefixWord(args []word, p string) bool {
	for _, w := range args {
		if strings.HasPrefix(w.s, p) {
			return true
		}
	}
	return false
}

func firstURL(args []word) string {
	for _, w := range args {
		if strings.Contains(w.s, "://") || strings.HasPrefix(w.s, "www.") {
			return w.s
		}
	}
	for _, w := range args {
		if !strings.HasPrefix(w.s, "-") {
			return w.s
		}
	}
	return ""
}

// dockerListFlow recognises "docker ps -q" and friends: lists of every
// container, image or volume.
func dockerListFlow(args []word) flow {
	sub, i := subcommand(args, dockerGlobal)
	rest := args[min(i+1, len(args)):]
	quiet := false
	for _, w := range rest {
		if w.s == "-q" || w.s == "--quiet" || w.s == "-aq" || w.s == "-qa" || strings.HasPrefix(w.s, "-") && !strings.HasPrefix(w.s, "--") && strings.Contains(w.s, "q") {
			quiet = true
		}
	}
	if !quiet {
		return flow{kind: flowUnknown}
	}
	filtered := hasPrefixWord(rest, "--filter") || hasWord(rest, "-f")
	switch sub {
	case "ps":
		if filtered {
			return flow{kind: flowUnknown}
		}
		return flow{kind: flowList, what: "containers"}
	case "container":
		if len(rest) > 0 && (rest[0].s == "ls" || rest[0].s == "list" || rest[0].s == "ps") && !filtered {
			return flow{kind: flowList, what: "containers"}
		}
	case "images":
		// (docker images -q acme-api: one repository's images)
		if !filtered && len(positional(rest)) == 0 {
			return flow{kind: flowList, what: "images"}
		}
	case "image":
		if len(rest) > 0 && (rest[0].s == "ls" || rest[0].s == "list") && !filtered && len(positional(rest[1:])) == 0 {
			return flow{kind: flowList, what: "images"}
		}
	case "volume":
		if len(rest) > 0 && (rest[0].s == "ls" || rest[0].s == "list") && !filtered {
			return flow{kind: flowList, what: "volumes"}
		}
	case "service", "stack":
		if len(rest) > 0 && (rest[0].s == "ls" || rest[0].s == "list") && !filtered {
			return flow{kind: flowList, what: "services"}
		}
	}
	return flow{kind: flowUnknown}
}

// --- downloads ---

// downloadTargets returns the files a fetcher writes.
func (a *analysis) downloadTargets(c *cmd) []string {
	if socketTools[c.name] {
		// nc HOST PORT > FILE: only its redirections name files
		var out []string
		for _, r := range c.redirs {
			if (r.n == "" || r.n == "1") && r.isOutput() {
				out = append(out, r.w.s)
			}
		}
		return out
	}
	if !fetchers[c.name] {
		return nil
	}
	args := c.args()
	var out []string
	remoteName := false
	prefix := ""
	for i := 0; i < len(args); i++ {
		s := args[i].s
		next := ""
		if i+1 < len(args) {
			next = args[i+1].s
		}
		switch {
		case c.name == "curl" && (s == "-o" || s == "--output"):
			if next != "-" {
				out = append(out, next)
			}
			i++
		case c.name == "curl" && strings.HasPrefix(s, "-o") && len(s) > 2 && !strings.HasPrefix(s, "--"):
			out = append(out, s[2:])
		case c.name == "curl" && (s == "-O" || s == "--remote-name" || s == "--remote-name-all"):
			remoteName = true
		case c.name == "curl" && len(s) > 2 && s[0] == '-' && s[1] != '-' && s[len(s)-1] == 'o' && !strings.Contains(s, "O"):
			// a bundle of short options ending in -o: -sSLo FILE
			if next != "-" {
				out = append(out, next)
			}
			i++
		case c.name != "curl" && !strings.HasPrefix(c.name, "wget") && (s == "-o" || s == "--out" || s == "--output" || s == "--output-file" || s == "--download"):
			// other fetchers name their output file the same way
			if next != "-" && next != "" {
				out = append(out, next)
			}
			i++
		case c.name != "curl" && !strings.HasPrefix(c.name, "wget") && strings.HasPrefix(s, "--out="):
			out = append(out, s[len("--out="):])
		case c.name == "curl" && strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.Contains(s, "O"):
			remoteName = true
			if strings.HasSuffix(s, "o") && next != "" {
				out = append(out, next)
				i++
			}
		case strings.HasPrefix(c.name, "wget") && (s == "-O" || s == "--output-document"):
			if next != "-" {
				out = append(out, next)
			}
			i++
		case strings.HasPrefix(c.name, "wget") && strings.HasPrefix(s, "--output-document="):
			if v := s[len("--output-document="):]; v != "-" {
				out = append(out, v)
			}
		case strings.HasPrefix(c.name, "wget") && strings.HasPrefix(s, "-O") && len(s) > 2:
			if v := s[2:]; v != "-" {
				out = append(out, v)
			}
		case strings.HasPrefix(c.name, "wget") && (s == "-qO-" || s == "-qO" || s == "-q"):
			if s == "-qO" {
				if next != "-" {
					out = append(out, next)
				}
				i++
			}
		case strings.HasPrefix(c.name, "wget") && (s == "-P" || s == "--directory-prefix"):
			prefix = next + "/"
			i++
		}
	}
	if strings.HasPrefix(c.name, "wget") && len(out) == 0 && !hasWord(args, "-qO-") && !hasWord(args, "-O-") && !hasPrefixWord(args, "--output-document=-") && !(hasWord(args, "-O") && hasWord(args, "-")) {
		remoteName = true
	}
	if remoteName {
		if u := firstURL(args); u != "" {
			if pu, err := url.Parse(u); err == nil && pu.Path != "" && path.Base(pu.Path) != "/" {
				out = append(out, prefix+path.Base(pu.Path))
			}
		}
	}
	for _, r := range c.redirs {
		if (r.n == "" || r.n == "1") && r.isOutput() {
			out = append(out, r.w.s)
		}
	}
	return out
}

// containerEnvShown reports docker inspect printing the environment a
// container was given, or docker exec running env in one.
func containerEnvShown(args []word) bool {
	for i, w := range args {
		switch w.s {
		case "inspect":
			formatted := false
			for _, x := range args[i+1:] {
				if strings.Contains(x.s, ".Config.Env") || strings.Contains(x.s, ".Env}}") {
					return true
				}
				if x.s == "-f" || x.s == "--format" || strings.HasPrefix(x.s, "--format=") || x.s == "--type" || strings.HasPrefix(x.s, "--type=") {
					formatted = true
				}
			}
			// docker inspect CONTAINER: the whole record, its Config.Env
			// with the database passwords and API keys included
			return !formatted && (i == 0 || i == 1 && args[0].s == "container")
		case "exec":
			for _, x := range args[i+1:] {
				if x.s == "env" || x.s == "printenv" {
					return true
				}
			}
			return false
		}
	}
	return false
}

// cutText applies cut -d DELIM -f LIST (or -c LIST) to each line of
// text; ok is false for options it does not know.
func cutText(args []word, text string) (string, bool) {
	delim, list, chars := "\t", "", false
	for i := 0; i < len(args); i++ {
		s := args[i].s
		next := func() (string, bool) {
			if i+1 < len(args) {
				i++
				return args[i].s, true
			}
			return "", false
		}
		var ok bool
		switch {
		case s == "-d" || s == "--delimiter":
			if delim, ok = next(); !ok {
				return "", false
			}
		case strings.HasPrefix(s, "--delimiter="):
			delim = s[len("--delimiter="):]
		case strings.HasPrefix(s, "-d"):
			delim = s[2:]
		case s == "-f" || s == "--fields" || s == "-c" || s == "--characters":
			chars = s == "-c" || s == "--characters"
			if list, ok = next(); !ok {
				return "", false
			}
		case strings.HasPrefix(s, "-f") || strings.HasPrefix(s, "-c"):
			chars = s[1] == 'c'
			list = s[2:]
		default:
			return "", false
		}
	}
	if list == "" || len(delim) != 1 {
		return "", false
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		var fields []string
		if chars {
			fields = strings.Split(line, "")
		} else {
			fields = strings.Split(line, delim)
		}
		var keep []string
		for _, r := range strings.Split(list, ",") {
			lo, hi, rng := strings.Cut(r, "-")
			from, err1 := strconv.Atoi(lo)
			to, err2 := strconv.Atoi(hi)
			switch {
			case !rng:
				to, err2 = from, err1
			case lo == "":
				from, err1 = 1, nil
			case hi == "":
				to, err2 = len(fields), nil
			}
			if err1 != nil || err2 != nil || from < 1 {
				return "", false
			}
			for k := from; k <= to && k <= len(fields); k++ {
				keep = append(keep, fields[k-1])
			}
		}
		if chars {
			out = append(out, strings.Join(keep, ""))
		} else {
			out = append(out, strings.Join(keep, delim))
		}
	}
	return strings.Join(out, "\n") + "\n", true
}

// clonedFromArbitraryHost returns the folder git clone fills from a
// repository on a host other than the well-known code hosts; "" for any
// other command.
func clonedFromArbitraryHost(c *cmd) string {
	if c.name != "git" {
		return ""
	}
	args := c.args()
	if len(args) < 2 || args[0].s != "clone" {
		return ""
	}
	ops := posArgs(args[1:], optSpec{short: "bcjo", long: []string{"branch", "depth", "origin", "template", "config", "reference", "separate-git-dir", "jobs", "filter", "shallow-since", "upload-pack"}})
	if len(ops) == 0 || !ops[0].ok {
		return ""
	}
	u := ops[0].s
	h := lower(hostOf(u))
	if !strings.Contains(u, "://") || h == "" || codeHosts[h] || isLocalHost(h) {
		return ""
	}
	if len(ops) > 1 && ops[1].ok {
		return ops[1].s
	}
	return strings.TrimSuffix(path.Base(strings.TrimSuffix(u, "/")), ".git")
}

// wgetTreeDir returns the folder a recursive wget mirrors into.
func wgetTreeDir(c *cmd) string {
	if !strings.HasPrefix(c.name, "wget") {
		return ""
	}
	args := c.args()
	rec := hasWord(args, "-r") || hasWord(args, "--recursive") || hasWord(args, "-m") || hasWord(args, "--mirror")
	for _, w := range args {
		if len(w.s) > 2 && w.s[0] == '-' && w.s[1] != '-' && strings.ContainsAny(w.s[1:], "rm") && isLetters(w.s[1:]) {
			rec = true // -qr, -nr
		}
	}
	if !rec {
		return ""
	}
	if d, ok := optValue(args, "-P", "directory-prefix"); ok {
		return d
	}
	return ""
}

// copiedFromHost returns the local files scp, rsync, sftp or tftp fetch
// from another machine: code that came from there, like a download.
func copiedFromHost(c *cmd) []string {
	args := c.args()
	switch c.name {
	case "scp", "rsync":
		ops := posArgs(args, optSpec{short: "cFiJloPSe", long: []string{"rsh", "rsync-path", "exclude", "include", "filter", "port", "password-file"}})
		if len(ops) < 2 {
			return nil
		}
		dest := ops[len(ops)-1].s
		if isRemoteSpec(dest) {
			return nil
		}
		var out []string
		for _, src := range ops[:len(ops)-1] {
			if !isRemoteSpec(src.s) {
				continue
			}
			host, rp, _ := strings.Cut(src.s, ":")
			if _, h, ok := strings.Cut(host, "@"); ok {
				host = h
			}
			// a machine known only by its address, or a file dropped in
			// a temporary folder: not the project's own build host
			if !isPublicIP(host) && !strings.HasPrefix(dest, "/tmp") && !strings.HasPrefix(dest, "/dev/shm") && !strings.HasPrefix(dest, "/var/tmp") {
				continue
			}
			out = append(out, dest, strings.TrimSuffix(dest, "/")+"/"+path.Base(rp))
		}
		return out
	case "ftpget":
		// busybox ftpget [-u USER -p PASS -P PORT] HOST LOCAL [REMOTE]
		ops := posArgs(args, optSpec{short: "upP", long: []string{"username", "password", "port"}})
		if len(ops) >= 2 {
			return []string{ops[1].s}
		}
		return nil
	case "tftp":
		// tftp HOST -c get REMOTE [LOCAL]
		for i, w := range args {
			if w.s == "-c" && i+2 < len(args) && args[i+1].s == "get" {
				if i+3 < len(args) {
					return []string{args[i+3].s}
				}
				return []string{path.Base(args[i+2].s)}
			}
		}
		// tftp -g -r REMOTE [-l LOCAL] HOST
		if !hasWord(args, "-g") {
			return nil
		}
		if l, ok := optValue(args, "-l", ""); ok {
			return []string{l}
		}
		if r, ok := optValue(args, "-r", ""); ok {
			return []string{path.Base(r)}
		}
	}
	return nil
}

// zshPrintFlags reports print's options that keep its output the words
// given: -l (one per line), -r (raw), -n (no newline), -N.
func zshPrintFlags(s string) bool {
	return len(s) > 1 && s[0] == '-' && strings.Trim(s[1:], "lrnN") == ""
}

// literalWords reports words all known.
func literalWords(ws []word) bool {
	for _, w := range ws {
		if !w.ok {
			return false
		}
	}
	return true
}

// stdinOfParent marks the output of a command substitution that only
// reads standard input: it is whatever the enclosing command reads.
const stdinOfParent = "\x00stdin of the enclosing command"

// dynDownload prefixes the key of a download whose file name is computed.
const dynDownload = "\x00dyn:"

func (a *analysis) recordDownloads(c *cmd) {
	var files []string
	if fetchers[c.name] || socketTools[c.name] && len(c.redirs) > 0 {
		// nc HOST PORT > /tmp/x: what the socket sends is a download
		files = a.downloadTargets(c)
		if dir := wgetTreeDir(c); dir != "" {
			// wget -r -P DIR: whatever it mirrors lands under DIR
			if p := a.absPath(dir, c.cwd); p != "" {
				a.downloadDirs = append(a.downloadDirs, p)
			}
		}
	} else if c.in.kind == flowRemote && (c.name == "tee" || c.name == "cat" || c.name == "dd" || c.name == "openssl" || c.name == "base64" || decoders[c.name] || passThrough[c.name]) {
		// a download unpacked or filtered on its way to a file
		// (curl URL | gunzip > /tmp/p) is as remote as the download
		for _, t := range a.writeTargets(c) {
			files = append(files, t.path)
		}
	} else {
		files = copiedFromHost(c)
		if c.name == "hdiutil" && hasWord(c.args(), "attach") {
			// a downloaded disk image mounted: what it holds appears
			// under /Volumes
			for _, w := range c.operands() {
				if w.s != "attach" && (a.isDownloaded(w.s, c.cwd) || a.inDownloads(a.absPath(w.s, c.cwd))) {
					a.downloadDirs = append(a.downloadDirs, "/Volumes")
				}
			}
		}
		if dir := clonedFromArbitraryHost(c); dir != "" {
			// its setup scripts are code from that host
			if p := a.absPath(dir, c.cwd); p != "" {
				a.downloadDirs = append(a.downloadDirs, p)
			}
		}
	}
	released := len(files) > 0 && fetchers[c.name] && fromReleaseSite(c)
	for _, f := range files {
		if f == "" {
			continue
		}
		if a.downloads == nil {
			a.downloads = make(map[string]bool)
		}
		if released {
			a.markReleased(path.Base(f), a.absPath(f, c.cwd))
		}
		if strings.Contains(f, "$") {
			// a computed name (/tmp/$$, $f): the same words later name
			// the same file
			a.downloads[dynDownload+f] = true
			continue
		}
		a.downloads[path.Base(f)] = true
		if p := a.absPath(f, c.cwd); p != "" {
			a.downloads[p] = true
		}
	}
	// an archive of remote content unpacked: what it holds is as remote
	if extractors[c.name] && a.extractsRemote(c) {
		dir := c.cwd
		args := c.args()
		for i, w := range args {
			switch {
			case (w.s == "-C" || w.s == "--directory" || w.s == "-d") && i+1 < len(args):
				dir = a.absPath(args[i+1].s, c.cwd)
			case strings.HasPrefix(w.s, "--directory="):
				dir = a.absPath(w.s[len("--directory="):], c.cwd)
			}
		}
		if dir != "" {
			a.downloadDirs = append(a.downloadDirs, dir)
		}
	}
	// find -fprintf FILE 'TEXT' writes TEXT for each file found: a
	// script written to be sourced later
	if c.name == "find" {
		args := c.args()
		for i, w := range args {
			if w.s == "-fprintf" && i+2 < len(args) && args[i+1].ok && args[i+2].ok {
				if p := a.absPath(args[i+1].s, c.cwd); p != "" {
					if a.files == nil {
						a.files = make(map[string]flow)
					}
					text := strings.ReplaceAll(args[i+2].s, `\n`, "\n")
					a.files[p] = flow{kind: flowText, text: text, what: "file written earlier (" + args[i+1].s + ")"}
				}
			}
		}
	}
	// known text written to files, in case they are run later
	if len(c.redirs) == 0 && c.name != "tee" && c.name != "cp" {
		return
	}
	for _, t := range a.writeTargets(c) {
		if t.content.kind == flowText && t.path != "" && t.appends && len(t.content.text) < 16<<10 {
			// what is appended is only part of the file: kept apart, for
			// the programs that run a file's rules (make)
			if a.appended == nil {
				a.appended = make(map[string]string)
			}
			a.appended[t.path] += t.content.text
			continue
		}
		if t.content.kind != flowText && t.content.kind != flowSecret || t.path == "" || t.appends {
			continue
		}
		if a.files == nil {
			a.files = make(map[string]flow)
		}
		f := t.content
		if f.kind == flowText {
			f.what = "file written earlier (" + t.raw + ")"
		} else {
			// env > /tmp/e: the file holds the secret until it is sent
			f.what += " (saved to " + t.raw + ")"
		}
		a.files[t.path] = f
	}
}

// releaseSites are the download sites of projects that publish their own
// builds with checksums beside them. Anyone can publish on a forge or a
// bucket, so those are not among them.
var releaseSites = map[string]bool{"dl.k8s.io": true, "cdn.dl.k8s.io": true, "get.helm.sh": true, "cli.codecov.io": true,
	"releases.hashicorp.com": true, "nodejs.org": true, "go.dev": true, "dl.google.com": true, "static.rust-lang.org": true,
	"download.docker.com": true, "awscli.amazonaws.com": true, "packages.microsoft.com": true, "builds.dotnet.microsoft.com": true,
	"dotnetcli.azureedge.net": true, "www.python.org": true, "downloads.python.org": true, "dl.deno.land": true,
	"download.jetbrains.com": true, "cache.nixos.org": true, "releases.nixos.org": true, "ziglang.org": true}

// fromReleaseSite reports a download whose every URL is on a release site.
func fromReleaseSite(c *cmd) bool {
	us := urlArgs(c.args())
	for _, u := range us {
		if !strings.HasPrefix(u, "https://") || !releaseSites[lower(hostOf(u))] {
			return false
		}
	}
	return len(us) > 0
}

// markReleased records download keys as a release site's.
func (a *analysis) markReleased(keys ...string) {
	if a.released == nil {
		a.released = make(map[string]bool)
	}
	for _, k := range keys {
		if k != "" {
			a.released[k] = true
		}
	}
}

// releaseChecked forgets the release sites' downloads as downloads: a
// checksum check that stops the line when it fails has passed before
// anything after it runs.
func (a *analysis) releaseChecked() {
	for k := range a.released {
		delete(a.downloads, k)
	}
	a.released = nil
}

// writtenFile returns the content written to p earlier in the command.
func (a *analysis) writtenFile(p, cwd string) (flow, bool) {
	if len(a.files) == 0 {
		return flow{}, false
	}
	ap := a.absPath(p, cwd)
	if f, ok := a.files[ap]; ok {
		return f, ok
	}
	// a file in a folder an export filled (--output-dir export, then
	// export/Contact.json)
	for d, n := path.Dir(ap), 0; n < 3 && len(d) > 1; d, n = path.Dir(d), n+1 {
		if f, ok := a.files[d]; ok && f.kind == flowSecret && strings.HasPrefix(f.what, "records exported") {
			return f, true
		}
	}
	return flow{}, false
}

// isDownloaded reports whether the file p was downloaded earlier in the
// command.
func (a *analysis) isDownloaded(p, cwd string) bool {
	if len(a.downloads) == 0 && len(a.downloadDirs) == 0 || p == "" {
		return false
	}
	ap := a.absPath(p, cwd)
	if ap != "" && a.downloads[ap] {
		return true
	}
	for _, d := range a.downloadDirs {
		if ap != "" && strings.HasPrefix(ap, d+"/") {
			return true
		}
	}
	return a.downloads[path.Base(p)]
}

// extractors unpack archives.
var extractors = map[string]bool{"tar": true, "bsdtar": true, "gtar": true, "unzip": true, "cpio": true, "7z": true, "7za": true, "unar": true}

// extractsRemote reports whether c unpacks remote content: piped in from
// a download, or an archive file downloaded earlier.
func (a *analysis) extractsRemote(c *cmd) bool {
	if c.in.kind == flowRemote {
		return true
	}
	for _, w := range c.args() {
		if !strings.HasPrefix(w.s, "-") && a.isDownloaded(w.s, c.cwd) {
			return true
		}
	}
	return false
}

// evalShellInit reports eval running a shell-init tool named in its
// literal words (eval /opt/conda/bin/conda "shell.fish" "hook" $argv).
func evalShellInit(c *cmd) bool {
	sub := *c
	sub.words = c.words[1:]
	sub.base = path.Base(sub.words[0].s)
	sub.name = canonicalName(sub.base)
	return sub.words[0].ok && isShellInit(&sub)
}

// fishStringPass are the subcommands of fish's string builtin that pass
// their input on, reshaped.
var fishStringPass = map[string]bool{"collect": true, "trim": true, "join": true, "join0": true, "split": true, "split0": true,
	"lower": true, "upper": true, "escape": true, "unescape": true, "replace": true, "sub": true, "pad": true, "shorten": true}

// storedSecretRead describes a command that prints secrets a store keeps
// (a cluster's secrets, a password store, the desktop keyring, git's
// credential helper), or "".
func storedSecretRead(c *cmd) string {
	args := c.args()
	if len(args) == 0 || c.name == "az" && outputNone(args) {
		return "" // az ... -o none: nothing printed
	}
	first := args[0].s
	if code, ok := elixirCode(c); ok && elixirSecretPrint.MatchString(code) {
		// mix run -e 'IO.puts Application.fetch_env!(...)[:secret_key_base]',
		// bin/app eval 'IO.puts System.fetch_env!("DATABASE_URL")'
		return "an Elixir application's secret setting"
	}
	switch c.name {
	case "cloud-init":
		// cloud-init query userdata: the instance's bootstrap script,
		// with the passwords and tokens it was handed
		if first == "query" && (hasWord(args, "userdata") || hasWord(args, "vendordata")) {
			return "the instance's user data (cloud-init query)"
		}
	case "aws":
		// aws ec2 describe-instance-attribute --attribute userData
		if hasWord(args, "describe-instance-attribute") {
			if v, ok := optValue(args, "", "attribute"); ok && strings.EqualFold(v, "userData") {
				return "an instance's user data (describe-instance-attribute)"
			}
		}
	case "dotnet":
		// dotnet user-secrets list: the project's secrets with their
		// values
		if len(args) > 1 && first == "user-secrets" && args[1].s == "list" {
			return "the project's user secrets (dotnet user-secrets list)"
		}
	case "kubectl", "oc":
		if sa := kubectlSubArgs(args); len(sa) > 0 {
			args, first = sa, sa[0].s // kubectl --context prod get secret ...
		}
		kind := ""
		for i, w := range args[1:] {
			if strings.HasPrefix(w.s, "-") {
				continue
			}
			if prev := args[i].s; prev == "-n" || prev == "--namespace" || prev == "--context" || prev == "-o" || prev == "--output" || prev == "-l" || prev == "--selector" || prev == "--kubeconfig" {
				continue // an option's value
			}
			kind = w.s
			break
		}
		if first == "get" && strings.HasPrefix(kind, "secret") {
			o, _ := optValue(args, "-o", "output")
			if o == "yaml" || o == "json" || (strings.Contains(o, ".data") || strings.Contains(o, "base64decode")) && !templateKeysOnly(o) {
				return "Kubernetes secrets"
			}
		}
	case "php":
		// php bin/console secrets:list --reveal, secrets:reveal NAME:
		// Symfony's vault, decrypted
		if len(args) > 1 && strings.HasSuffix(args[0].s, "console") && (args[1].s == "secrets:reveal" || args[1].s == "secrets:list" && hasWord(args, "--reveal")) {
			return "Symfony's secrets"
		}
	case "rails", "bin/rails":
		// bin/rails runner 'puts Rails.application.credentials...': the
		// decrypted credentials printed by the app itself
		if len(args) > 1 && (args[0].s == "runner" || args[0].s == "r") {
			code := joinWords(args[1:])
			if strings.Contains(code, ".credentials") && hasAny(code, "puts ", "p ", "pp ", "print", "to_yaml", "inspect") &&
				!hasAny(code, ".present?", ".nil?", ".blank?", ".keys", ".key?") {
				return "Rails' credentials"
			}
			// ...connection_db_config.configuration_hash: the database's
			// settings, its password among them
			if hasAny(code, "configuration_hash", "database_configuration", "connection_config)", "connection_config.inspect") && hasAny(code, "puts ", "p ", "pp ", "print", "inspect") {
				return "Rails' database settings"
			}
			// puts ENV["DATABASE_URL"]: a secret variable of the app's
			// environment
			if m := rubyEnvRead.FindStringSubmatch(code); m != nil && secretVarName(m[1]) && hasAny(code, "puts ", "p ", "pp ", "print") {
				return "the secret variable " + m[1]
			}
		}
	case "python", "python3":
		// python manage.py shell -c "...print(settings.DATABASES)": Django's
		// database settings or secret key, printed
		if len(args) > 2 && strings.HasSuffix(args[0].s, "manage.py") && args[1].s == "shell" {
			code := joinWords(args[2:])
			if djangoSecretPrint.MatchString(code) {
				return "Django's secret settings"
			}
		}
	case "pass", "gopass":
		if hasWord(args, "-c") || hasWord(args, "--clip") {
			return "" // into the clipboard, nothing on the output
		}
		switch first {
		case "show", "cat":
			return "a password-store entry"
		case "init", "ls", "list", "find", "search", "grep", "insert", "add", "edit", "generate", "rm", "remove", "mv", "cp", "git",
			"help", "version", "otp", "sync", "setup", "config", "audit", "fsck", "--help", "--version":
			return ""
		}
		if !strings.HasPrefix(first, "-") {
			return "a password-store entry" // pass NAME shows it
		}
	case "secret-tool":
		// an application reading its own entry is how the keyring is
		// used; a forge's, cloud's or registry's token is not its own
		if first == "lookup" && hasAny(strings.ToLower(joinWords(args[1:])), "github", "gitlab", "gh:", "bitbucket", "aws", "azure", "gcloud",
			"google", "npm", "pypi", "docker", "token", "prod", "ssh", "vault", "kube",
			// a browser's key to its saved passwords and cookies, another
			// application's login
			"chrome", "chromium", "brave", "edge", "firefox", "opera", "vivaldi", "safe storage", "slack", "1password", "bitwarden", "keepass", "wifi", "nm-",
			// the mainframe log-ins Zowe keeps
			"zowe", "secure_config") {
			return "a keyring secret"
		}
	case "git":
		for i, w := range args {
			if w.s == "credential" && i+1 < len(args) && args[i+1].s == "fill" {
				return "git's stored credentials"
			}
			// a credential helper asked directly: git credential-manager get
			if strings.HasPrefix(w.s, "credential-") && i+1 < len(args) && args[i+1].s == "get" {
				return "git's stored credentials"
			}
			if !strings.HasPrefix(w.s, "-") && w.s != "credential" {
				break
			}
		}
	}
	if what := secretStoreRead(c.name, args); what != "" {
		return what
	}
	return ""
}

// secretStoreReads are the subcommand paths with which password managers,
// secret managers and cloud key vaults print the secrets they keep
// (values, not names): what they print is a secret wherever it goes.
var secretStoreReads = map[string][][]string{
	"op":            {{"read"}, {"item", "get"}, {"document", "get"}, {"inject"}},
	"bw":            {{"get"}, {"list", "items"}, {"export"}},
	"lpass":         {{"show"}, {"export"}},
	"keepassxc-cli": {{"show"}, {"export"}},
	"vault":         {{"read"}, {"kv", "get"}, {"print", "token"}},
	"doppler":       {{"secrets", "download"}, {"secrets", "get"}},
	"infisical":     {{"export"}, {"secrets", "get"}},
	"aws":           {{"secretsmanager", "get-secret-value"}, {"ssm", "get-parameter"}, {"ssm", "get-parameters"}, {"ssm", "get-parameters-by-path"}, {"ec2", "create-key-pair"}, {"iam", "create-access-key"}, {"rds", "generate-db-auth-token"}, {"redshift", "get-cluster-credentials"}, {"redshift", "get-cluster-credentials-with-iam"}},
	"gcloud":        {{"secrets", "versions", "access"}, {"auth", "print-identity-token"}, {"auth", "print-access-token"}, {"auth", "application-default", "print-access-token"}},
	"az":            {{"keyvault", "secret", "show"}, {"keyvault", "secret", "download"}, {"account", "get-access-token"}, {"storage", "account", "keys"}, {"storage", "account", "show-connection-string"}, {"cosmosdb", "keys", "list"}, {"acr", "credential", "show"}, {"redis", "list-keys"}},
	"heroku":        {{"config"}},
	"vercel":        {{"env", "pull"}},
	"chamber":       {{"export"}, {"read"}},
	"sops":          {{"-d"}, {"--decrypt"}, {"decrypt"}},
	// links and keys that are themselves the credential: signed URLs,
	// SAS tokens, publishing profiles, backup links, connection strings
	"supabase": {{"projects", "api-keys"}},
	"rclone":   {{"config", "show"}, {"config", "dump"}},
	// Rails' encrypted credentials, decrypted in full
	"rails":     {{"credentials:show"}, {"encrypted:show"}},
	"bin/rails": {{"credentials:show"}, {"encrypted:show"}},
	// a project's CI variables and a deployment's secrets, printed
	"glab":  {{"variable", "get"}, {"variable", "export"}},
	"kamal": {{"secrets", "print"}},
	// new API keys and tokens, printed once
	"linode-cli": {{"object-storage", "keys-create"}},
	"oci":        {{"iam", "auth-token", "create"}, {"iam", "customer-secret-key", "create"}},
	"ibmcloud":   {{"iam", "api-key-create"}, {"iam", "service-api-key-create"}},
	// a project's functions' runtime configuration, keys included
	"firebase": {{"functions:config:get"}},
	// a new registry token, printed once
	"npm":          {{"token", "create"}},
	"pnpm":         {{"token", "create"}},
	"dotenv-vault": {{"decrypt"}},
	// new tokens, printed once; a registry's stored login
	"argocd": {{"account", "generate-token"}, {"proj", "role", "create-token"}},
	"crane":  {{"auth", "get"}},
	// a data platform's secret scopes, the environment its login makes,
	// new tokens; a warehouse's temporary credentials, a connection's
	// properties with its password
	"databricks": {{"secrets", "get-secret"}, {"auth", "env"}, {"tokens", "create"}, {"auth", "token"}},
	"fly":        {{"tokens", "create"}, {"auth", "token"}},
	// fastlane spaceauth: the App Store session (FASTLANE_SESSION)
	// printed to be copied
	"fastlane": {{"spaceauth"}},
	"flyctl":   {{"tokens", "create"}, {"auth", "token"}},
}

// composerAuthKey reports a composer setting that holds a credential.
func composerAuthKey(k string) bool {
	for _, p := range [...]string{"github-oauth.", "gitlab-oauth.", "gitlab-token.", "http-basic.", "bearer.", "bitbucket-oauth."} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// credentialOutput begins the description of output that holds a
// credential the user asked to see (a signed link, stack outputs): sent
// away it is a leak, printed it is what the command is for.
const credentialOutput = "credentials in the output of "

// credentialOutputs are subcommand paths, as secretStoreReads spells
// them, whose output is a credential, for clients listed there already.
var credentialOutputs = map[string][][]string{
	"aws":    {{"s3", "presign"}},
	"az":     {{"storage", "container", "generate-sas"}, {"storage", "blob", "generate-sas"}, {"storage", "account", "generate-sas"}, {"webapp", "deployment", "list-publishing-profiles"}, {"aks", "get-credentials"}},
	"gcloud": {{"storage", "sign-url"}},
	"heroku": {{"pg:backups:url"}},
	// a cluster's credentials written to standard output and sent on
	"aws-iam-authenticator": {{"token"}},
	"mc":                    {{"share", "download"}, {"share", "upload"}},
	"doctl":                 {{"databases", "connection"}, {"kubernetes", "cluster", "kubeconfig", "show"}},
	// a release's values hold its passwords and keys as often as not
	"helm": {{"get", "values"}, {"get", "all"}},
	// Django's settings in full (SECRET_KEY, database passwords), pip's
	// (index URLs with their tokens)
	"python":    {{"manage.py", "diffsettings"}},
	"python3":   {{"manage.py", "diffsettings"}},
	"manage.py": {{"diffsettings"}},
	"pip":       {{"config", "list"}},
	"pip3":      {{"config", "list"}},
}

// secretStoreRead describes what c prints when it reads a secret store
// (op item get, vault kv get, aws secretsmanager get-secret-value, ...).
func secretStoreRead(name string, args []word) string {
	switch name {
	case "manage-bde", "manage-bde.exe":
		// manage-bde -protectors -get C: prints the drive's recovery
		// password (the numerical password) unless a type without one
		// is asked for: shown, it is what the command is for (asked for
		// by -Type RecoveryPassword it is judged by secret-printed);
		// sent away or shared, a leak
		low := make([]string, len(args))
		for i, w := range args {
			low[i] = lower(w.s)
		}
		if slicesContains(low, "-protectors") && slicesContains(low, "-get") {
			t := ""
			for i, w := range low {
				if (w == "-type" || w == "-t") && i+1 < len(low) {
					t = low[i+1]
				}
			}
			if t == "" || t == "recoverypassword" || t == "numericalpassword" {
				return credentialOutput + "manage-bde -protectors -get (a BitLocker drive's recovery password)"
			}
		}
	case "pulumi":
		// stack outputs in clear
		if len(args) > 1 && args[0].s == "stack" && args[1].s == "output" && hasWord(args, "--show-secrets") {
			return credentialOutput + name
		}
		// a stack's configuration with its secrets decrypted
		if len(args) > 0 && args[0].s == "config" && hasWord(args, "--show-secrets") {
			return credentialOutput + name
		}
	case "terraform", "tofu":
		// -json and -raw print the outputs marked sensitive; show -json
		// the whole state, sensitive values included
		if len(args) > 0 && hasWord(args, "output") && (hasWord(args, "-json") || hasWord(args, "-raw")) {
			return credentialOutput + name
		}
		if len(args) > 0 && args[0].s == "show" && hasWord(args, "-json") {
			return credentialOutput + name
		}
	case "mvn", "mvnw", "./mvnw":
		// the effective settings with the servers' passwords shown
		if hasWord(args, "help:effective-settings") && hasWord(args, "-DshowPasswords=true") {
			return "the passwords of Maven's settings (" + name + " help:effective-settings)"
		}
	case "bundle":
		// bundle config get HOST: the credentials kept for a gem server
		p := positional(args)
		if len(p) != 3 || p[0].s != "config" || p[1].s != "get" {
			break
		}
		// (mirror.URL, build.GEM, local.GEM: settings, not a server's)
		k := p[2].s
		hostKey := strings.Contains(k, ".") && !strings.Contains(k, "://") && !strings.HasPrefix(k, "mirror.") && !strings.HasPrefix(k, "build.") && !strings.HasPrefix(k, "local.")
		if hostKey || secretVarName(k) {
			return "the credentials bundler keeps for " + k
		}
	case "composer":
		// composer config [--global] github-oauth.github.com: the token
		if p := positional(args); len(p) == 2 && p[0].s == "config" && composerAuthKey(p[1].s) {
			return "the token composer keeps for " + p[1].s
		}
	case "npm", "pnpm", "yarn":
		// npm config get //registry.npmjs.org/:_authToken: the token
		p := positional(args)
		if len(p) >= 3 && p[0].s == "config" && p[1].s == "get" {
			for _, k := range p[2:] {
				if l := lower(k.s); strings.Contains(l, "_authtoken") || strings.HasSuffix(l, ":_auth") || strings.HasSuffix(l, ":_password") || l == "npmauthtoken" {
					return "the registry token " + name + " keeps for " + k.s
				}
			}
		}
		// yarn config --no-redacted: its settings, tokens unmasked
		if name == "yarn" && len(p) > 0 && p[0].s == "config" && hasWord(args, "--no-redacted") {
			return "yarn's settings with their tokens (--no-redacted)"
		}
	case "aws":
		// aws configure get aws_secret_access_key (or
		// profile.NAME.aws_session_token): the key as kept on disk
		p := posArgs(args, optSpec{long: []string{"profile", "region", "output", "endpoint-url"}})
		if len(p) == 3 && p[0].s == "configure" && p[1].s == "get" {
			k := lower(p[2].s)
			if strings.HasSuffix(k, "aws_secret_access_key") || strings.HasSuffix(k, "aws_session_token") {
				return "the AWS key kept for " + p[2].s
			}
		}
		// aws lambda get-function-configuration: the function's
		// environment variables, its keys among them (unless a --query
		// picks something else)
		if ops := posArgs(args, optSpec{long: []string{"profile", "region", "output", "endpoint-url", "function-name", "query"}}); len(ops) > 1 && ops[0].s == "lambda" &&
			(ops[1].s == "get-function-configuration" || ops[1].s == "get-function") {
			if q, ok := optValue(args, "", "query"); !ok || strings.Contains(q, "Environment") && !strings.Contains(q, "keys(") {
				return "a function's environment variables (aws lambda " + ops[1].s + ")"
			}
		}
		// aws ecs describe-task-definition --query '...environment': the
		// variables a service's containers are given
		if ops := posArgs(args, optSpec{long: []string{"profile", "region", "output", "endpoint-url", "task-definition", "query"}}); len(ops) > 1 && ops[0].s == "ecs" && ops[1].s == "describe-task-definition" {
			if q, ok := optValue(args, "", "query"); ok && strings.Contains(lower(q), "environment") && !strings.Contains(q, "keys(") && !strings.Contains(lower(q), ".name") {
				return "a task's environment variables (aws ecs describe-task-definition)"
			}
		}
	case "doppler":
		// doppler secrets [--project P --config C]: the table of every
		// secret with its value (--only-names: the names)
		p := posArgs(args, optSpec{short: "pc", long: []string{"project", "config", "token", "scope", "api-host", "configuration"}})
		if len(p) == 1 && p[0].s == "secrets" && !hasWord(args, "--only-names") {
			return "every secret of a Doppler config, with its value"
		}
	case "nix":
		if p := positional(args); len(p) == 3 && p[0].s == "config" && p[1].s == "show" && p[2].s == "access-tokens" {
			return "nix's access tokens"
		}
	case "bw":
		// bw unlock prints the session key (with --raw, alone): the
		// whole vault opened to whoever reads it
		if len(args) > 0 && args[0].s == "unlock" && !hasWord(args, "--check") {
			return "a Bitwarden session key (bw unlock)"
		}
	case "op":
		if len(args) > 0 && args[0].s == "signin" && hasWord(args, "--raw") {
			return "a 1Password session token (op signin --raw)"
		}
	case "vault", "bao":
		// vault write -f auth/approle/role/ci/secret-id, vault token
		// create: a new credential, printed
		p := positional(args)
		if len(p) > 1 && p[0].s == "write" && (strings.HasSuffix(p[1].s, "/secret-id") || strings.HasSuffix(p[1].s, "/custom-secret-id")) ||
			len(p) > 1 && p[0].s == "token" && p[1].s == "create" {
			return "a new Vault credential (" + name + " " + p[0].s + " " + p[1].s + ")"
		}
	case "az":
		// az servicebus namespace authorization-rule keys list, az signalr
		// key list, az eventhubs ... keys list: a service's access keys
		ops := positional(args)
		for i, w := range ops {
			if (w.s == "keys" || w.s == "key") && i+1 < len(ops) && (ops[i+1].s == "list" || ops[i+1].s == "show") || w.s == "list-keys" {
				if plainFieldsOnly(args) || outputNone(args) {
					return ""
				}
				return "access keys kept by az (" + joinWords(ops[:min(i+2, len(ops))]) + ")"
			}
		}
	case "salt", "salt-call":
		// salt '*' pillar.items: the pillar is where Salt keeps its
		// secrets, printed for every minion
		for _, w := range args {
			switch w.s {
			case "pillar.items", "pillar.raw", "pillar.data": // (pillar.obfuscate hides the values)
				return "Salt's pillar (" + w.s + ")"
			}
		}
	case "yq", "jq":
		// kustomize build overlays/prod | yq 'select(.kind == "Secret") |
		// .data | map_values(@base64d)': the rendered Secrets decoded
		if ops := positional(args); len(ops) > 0 && strings.Contains(ops[0].s, "@base64d") && strings.Contains(ops[0].s, "Secret") && strings.Contains(ops[0].s, ".data") && !jqNamesOnly(args) {
			return "Kubernetes secrets, decoded"
		}
	case "p4":
		// p4 login -p: the ticket itself printed, a password for the
		// whole depot
		if len(args) > 0 && (hasWord(args, "-p") || hasWord(args, "-ap")) && hasWord(args, "login") {
			return "a Perforce ticket (p4 login -p)"
		}
	case "gpg-connect-agent":
		// GET_PASSPHRASE --data: a cached passphrase handed back
		if strings.Contains(strings.ToUpper(joinWords(args)), "GET_PASSPHRASE") {
			return "a cached passphrase from gpg-agent"
		}
	}
	paths := secretStoreReads[name]
	if paths == nil && credentialOutputs[name] == nil {
		return ""
	}
	if plainFieldsOnly(args) {
		return "" // vault kv get -field=username, op item get --fields username
	}
	if name == "sops" {
		// sops -d --extract '["db"]["host"]': one plain value
		if v, ok := optValue(args, "", "extract"); ok && queryPlain(strings.NewReplacer("[", " ", "]", " ", `"`, " ", "'", " ").Replace(v)) {
			return ""
		}
	}
	if name == "lpass" || name == "bw" {
		// lpass show --username X, bw get username X: who, not the secret
		for _, w := range args {
			switch w.s {
			case "--username", "--url", "--name", "--id", "username", "uri", "folder":
				if !hasWord(args, "--password") && !hasWord(args, "--notes") && !hasWord(args, "--all") {
					return ""
				}
			}
		}
	}
	var ops []string
	for i := 0; i < len(args); i++ {
		w := args[i]
		if name == "helm" || name == "glab" {
			// global options with a value before the subcommand
			// (helm --kube-context prod get values)
			switch w.s {
			case "--kube-context", "--kubeconfig", "-n", "--namespace", "-R", "--repo":
				i++
				continue
			}
		}
		if strings.HasPrefix(w.s, "-") && (name != "sops" || len(ops) > 0) {
			continue
		}
		ops = append(ops, w.s)
		if len(ops) == 3 {
			break
		}
	}
	if name == "op" && (hasWord(args, "-o") || hasWord(args, "--out-file") || hasPrefixWord(args, "--out-file=")) {
		return "" // written to the file named, not printed
	}
	if name == "aws" && len(ops) > 1 && ops[0] == "ssm" && !hasWord(args, "--with-decryption") {
		return "" // SecureString values come back encrypted without it
	}

	starts := func(p []string) bool { return len(ops) >= len(p) && slices.Equal(ops[:len(p)], p) }
	for _, p := range paths {
		if starts(p) {
			return "secrets kept by " + name
		}
	}
	for _, p := range credentialOutputs[name] {
		if starts(p) {
			return credentialOutput + name
		}
	}
	return ""
}

// remoteEnvDump describes a command run in a container or pod that
// prints its environment (kubectl exec deploy/api -- env, docker exec
// web printenv): a service's environment holds its credentials.
func remoteEnvDump(c *cmd) string {
	inner := execInner(c)
	if len(inner) == 0 {
		return ""
	}
	switch path.Base(inner[0].s) {
	case "env", "printenv":
		if len(inner) == 1 {
			return "the environment of " + c.base + " exec"
		}
	}
	return ""
}

// execInner returns the command a container or pod runs for kubectl,
// oc, docker, podman or nerdctl exec, or nil.
func execInner(c *cmd) []word {
	switch c.name {
	case "kubectl", "oc", "docker", "podman", "nerdctl":
	default:
		return nil
	}
	args := c.args()
	if c.name == "kubectl" || c.name == "oc" {
		args = skipClusterGlobals(args) // kubectl --context prod exec ...
	}
	if len(args) < 2 || args[0].s != "exec" {
		return nil
	}
	for i, w := range args {
		if w.s == "--" {
			return args[i+1:]
		}
	}
	if c.name != "kubectl" && c.name != "oc" {
		ops := posArgs(args[1:], optSpec{short: "euwi", long: []string{"env", "user", "workdir", "env-file"}})
		if len(ops) > 1 {
			return ops[1:]
		}
	}
	return nil
}

// execDump reports a container's or pod's command that dumps a database
// to its output (kubectl exec deploy/api -- pg_dump "$DATABASE_URL"):
// the dump comes out of exec as it would from ssh.
func execDump(c *cmd) bool {
	inner := execInner(c)
	return len(inner) > 0 && remoteDump(append([]word{lit("container")}, inner...))
}

// fishStringReadsInput reports fish's string called without strings of its
// own (env | string join \n): it then reads and filters its input.
func fishStringReadsInput(args []word) bool {
	if len(args) == 0 {
		return false
	}
	need := 0
	switch args[0].s {
	case "join", "join0", "split", "split0", "match":
		need = 1
	case "replace":
		need = 2
	case "upper", "lower", "trim", "collect", "escape", "unescape", "length", "sub", "shorten", "pad", "repeat":
	default:
		return false
	}
	if args[0].s == "join0" || args[0].s == "split0" {
		need = 0
	}
	return len(posArgs(args[1:], optSpec{short: "rmncslfq", long: []string{"max", "chars", "count", "start", "length", "end", "width"}})) <= need
}

// dumpsToOutput reports a database client told to write records or a
// snapshot to its standard output: psql's \copy ... to stdout, redis-cli
// --rdb -, mongoexport without --out, sqlite3's .dump.
func dumpsToOutput(c *cmd) bool {
	args := c.args()
	switch c.name {
	case "redis-cli", "valkey-cli":
		v, ok := optValue(args, "", "rdb")
		return ok && (v == "-" || v == "/dev/stdout")
	case "psql", "mysql", "mariadb", "clickhouse-client":
		for _, w := range args {
			l := lower(w.s)
			if strings.Contains(l, " to stdout") {
				return true
			}
		}
		// SELECT * FROM users FORMAT CSV on another server: a whole
		// table's rows
		for _, w := range args {
			if wholeTableSelect(w.s) && (namesOtherServer(c) || touchesProduction(c) || connectionFromVariable(c)) {
				return true
			}
		}
	case "cqlsh":
		// COPY ks.table TO STDOUT: the table's rows
		for _, w := range args {
			if strings.Contains(lower(w.s), " to stdout") {
				return true
			}
		}
	case "mongosh", "mongo":
		// --eval 'db.users.find().toArray()' against another server: a
		// collection's documents
		if v, ok := optValue(args, "", "eval"); ok && hasAny(v, ".find(", ".aggregate(", "toArray(") && (namesOtherServer(c) || touchesProduction(c) || connectionFromVariable(c)) {
			return true
		}
	case "manage.py", "django-admin", "python", "python3":
		// manage.py dumpdata auth.user: every record of the models, to
		// the output unless -o names a file
		ops := c.operands()
		if c.name == "python" || c.name == "python3" {
			if len(ops) == 0 || path.Base(ops[0].s) != "manage.py" {
				return false
			}
			ops = ops[1:]
		}
		if len(ops) > 0 && ops[0].s == "dumpdata" {
			_, ok := optValue(args, "-o", "output")
			return !ok
		}
	case "mongoexport":
		_, ok := optValue(args, "-o", "out")
		return !ok
	case "sqlite3":
		return hasWord(args, ".dump")
	}
	return false
}

// exportedFile is a file a command fills with what it exports: a
// database's dump or records, a snapshot of a secrets store or a
// cluster's state, captured traffic, an archive of a directory.
type exportedFile struct {
	name    string
	content flow
}

// exports lists the files c writes its export to, by the tool's own
// options rather than a redirection (pg_dump -f, mongodump --archive=,
// psql's \copy ... to 'file', tar -cf), so that sending the file later
// in the command is judged as sending what it holds.
func (a *analysis) exports(c *cmd) []exportedFile {
	args := c.args()
	dump := flow{kind: flowSecret, what: "a database dump", crit: true}
	one := func(name string, f flow) []exportedFile {
		if name == "" || name == "-" || name == "/dev/stdout" {
			return nil
		}
		f.what += " (saved to " + name + ")"
		return []exportedFile{{name, f}}
	}
	switch c.name {
	case "pg_dump", "pg_dumpall", "mysqldump", "mariadb-dump":
		if v, ok := optValue(args, "-f", "file"); ok {
			return one(v, dump)
		}
		if v, ok := optValue(args, "-r", "result-file"); ok && c.name != "pg_dump" && c.name != "pg_dumpall" {
			return one(v, dump)
		}
	case "mongodump":
		if v, ok := optValue(args, "", "archive"); ok {
			return one(v, dump)
		}
		if v, ok := optValue(args, "-o", "out"); ok {
			return one(v, dump)
		}
	case "redis-cli", "valkey-cli":
		if v, ok := optValue(args, "", "rdb"); ok {
			return one(v, flow{kind: flowSecret, what: "a Redis snapshot", crit: true})
		}
	case "psql", "mysql", "mariadb", "clickhouse-client", "duckdb", "sqlite3":
		for _, w := range args {
			if name := sqlExportFile(w.s); name != "" {
				return one(name, flow{kind: flowSecret, what: "a database's records", crit: true})
			}
		}
	case "influx":
		// influx backup DIR: every bucket's data
		if ops := c.operands(); len(ops) > 1 && ops[0].s == "backup" {
			return one(ops[1].s, flow{kind: flowSecret, what: "a backup of " + c.base + "'s data", crit: true})
		}
	case "vault", "etcdctl", "consul":
		// vault operator raft snapshot save F, etcdctl snapshot save F,
		// consul snapshot save F: the whole store, secrets and all
		ops := c.operands()
		for i := 0; i+2 < len(ops); i++ {
			if ops[i].s == "snapshot" && ops[i+1].s == "save" {
				return one(ops[i+2].s, flow{kind: flowSecret, what: "a snapshot of " + c.base + "'s data", crit: true})
			}
		}
	case "tcpdump", "tshark", "dumpcap":
		if v, ok := optValue(args, "-w", ""); ok {
			return one(v, flow{kind: flowSecret, what: "captured network traffic", crit: true})
		}
	case "docker", "podman", "nerdctl", "kubectl", "oc":
		// docker cp db:/var/lib/postgresql/data /tmp/pg: a service's
		// data taken out of its container
		ops := c.operands()
		for i := 0; i+2 < len(ops); i++ {
			if ops[i].s != "cp" {
				continue
			}
			_, src, ok := strings.Cut(ops[i+1].s, ":")
			if ok && (strings.HasPrefix(src, "/var/lib/") || strings.HasPrefix(src, "/etc/") || strings.HasPrefix(src, "/root/") || strings.HasPrefix(src, "/data")) {
				return one(ops[i+2].s, flow{kind: flowSecret, what: "a container's data (" + ops[i+1].s + ")", crit: true})
			}
			break
		}
	case "git":
		if sub, sargs := gitSub(c); sub == "bundle" {
			ops := positional(sargs)
			if len(ops) >= 2 && ops[0].s == "create" {
				return one(ops[1].s, flow{kind: flowLocal, what: "the repository's history", tree: true})
			}
		}
	case "tar", "bsdtar", "gtar", "zip", "7z", "7za", "ditto":
		name, rest := archiveFile(c.name, args)
		if name == "" {
			return nil
		}
		if f := a.archiveFlow(c, rest); f.kind == flowSecret || f.tree {
			return one(name, f)
		}
	default:
		// a service's client exporting its records to a file (firebase
		// auth:export users.json, sf data export tree --output-dir out,
		// airflow variables export vars.json)
		if name := clientExportFile(c); name != "" {
			return one(name, flow{kind: flowSecret, what: "records exported by " + c.base, crit: true})
		}
	}
	return nil
}

// clientExportFile returns the file or folder a hosted service's client
// exports records into, or "".
func clientExportFile(c *cmd) string {
	if len(c.words) < 3 {
		return ""
	}
	seen := false // (the words as written first: this runs for every command)
	for i, w := range c.words {
		if i > 5 {
			break
		}
		if strings.Contains(w.s, "xport") || strings.Contains(w.s, "dump") || strings.Contains(w.s, "backup") {
			seen = true
			break
		}
	}
	if !seen || cliDestroyExempt[c.name] || fetchers[c.name] || ownURLRules[c.name] {
		return ""
	}
	sub := clientSubWords(c).list()
	verb := -1
	for i, s := range sub {
		if strings.HasSuffix(s, "export") || s == "dump" || s == "backup" {
			verb = i
		}
	}
	if verb < 0 {
		return ""
	}
	args := c.args()
	if v, ok := optValue(args, "-o", "output", "out", "output-file", "output-dir", "outfile", "file"); ok {
		return v
	}
	nsub := 0 // the subcommand words passed so far
	for _, w := range c.operands() {
		if nsub <= verb {
			if lower(w.s) == sub[nsub] {
				nsub++
			}
			continue
		}
		switch path.Ext(lower(w.s)) {
		case ".json", ".jsonl", ".ndjson", ".csv", ".sql", ".xml", ".yaml", ".yml", ".zip", ".gz", ".bak", ".dump", ".env", ".tsv":
			return w.s
		}
	}
	return ""
}

// sqlExportFile returns the file a statement exports records to: psql's
// \copy ... to 'F', COPY ... TO 'F', MySQL's INTO OUTFILE 'F', DuckDB's
// and ClickHouse's INTO OUTFILE.
func sqlExportFile(s string) string {
	l := lower(s)
	for _, key := range []string{" into outfile ", " into dumpfile ", " to "} {
		i := strings.LastIndex(l, key)
		if i < 0 {
			continue
		}
		if key == " to " && !strings.Contains(l, "copy ") {
			continue
		}
		rest := strings.TrimSpace(s[i+len(key):])
		if rest == "" || rest[0] != '\'' && rest[0] != '"' {
			continue
		}
		q := rest[0]
		if j := strings.IndexByte(rest[1:], q); j > 0 {
			return rest[1 : j+1]
		}
	}
	return ""
}

// archiveFile returns the archive a tar, zip, 7z or ditto command
// creates and the arguments naming what goes in it (tar -czf F DIR, zip
// -r F DIR, 7z a F DIR, ditto -c -k DIR F); "" when it creates none or
// writes to standard output.
func archiveFile(name string, args []word) (string, []word) {
	switch name {
	case "zip":
		ops := posArgs(args, optSpec{short: "bnPtx"})
		if len(ops) < 2 {
			return "", nil
		}
		return ops[0].s, append([]word{lit("-c")}, ops[1:]...)
	case "7z", "7za":
		ops := positional(args)
		if len(ops) < 3 || ops[0].s != "a" {
			return "", nil
		}
		return ops[1].s, append([]word{lit("-c")}, ops[2:]...)
	case "ditto":
		// ditto -c -k --keepParent SRC DEST.zip (macOS)
		ops := positional(args)
		if !hasWord(args, "-c") || len(ops) < 2 {
			return "", nil
		}
		return ops[len(ops)-1].s, append([]word{lit("-c")}, ops[:len(ops)-1]...)
	}
	// tar: -f FILE, --file=FILE, or a cluster ending in f (czf FILE)
	for i, w := range args {
		s := w.s
		switch {
		case s == "-f" || s == "--file":
			if i+1 < len(args) {
				return args[i+1].s, args
			}
		case strings.HasPrefix(s, "--file="):
			return s[len("--file="):], args
		case !strings.HasPrefix(s, "--") && strings.HasSuffix(s, "f") && isLetters(strings.TrimPrefix(s, "-")) && strings.ContainsRune(s, 'c') && (i == 0 || strings.HasPrefix(s, "-")):
			if i+1 < len(args) {
				rest := make([]word, 0, len(args))
				rest = append(rest, args[:i]...)
				rest = append(rest, lit("-c"))
				rest = append(rest, args[i+2:]...)
				return args[i+1].s, rest
			}
		}
	}
	return "", nil
}

// losetupScratchImage reports losetup given an image file of the project
// or a temporary directory to set up (an image in the home may hold the
// user's data).
func (a *analysis) losetupScratchImage(c *cmd, args []word) bool {
	ops := posArgs(args, optSpec{short: "ob", long: []string{"offset", "sizelimit", "sector-size"}})
	if len(ops) != 1 || !ops[0].ok || strings.HasPrefix(ops[0].s, "/dev/") {
		return false
	}
	p := a.absPath(ops[0].s, c.cwd)
	return p != "" && (a.inWork(p) || underTemp(p))
}

// jqPrintsEnv reports jq -n printing the whole environment (env, $ENV).
func jqPrintsEnv(args []word) bool {
	if !hasWord(args, "-n") && !hasWord(args, "--null-input") && !hasWord(args, "-nc") && !hasWord(args, "-cn") {
		return false
	}
	for _, w := range positional(args) {
		switch strings.TrimSpace(w.s) {
		case "env", "$ENV", "{env: env}", "env | tojson", "$ENV | tojson":
			return true
		}
	}
	return false
}

// gitShowsChanges reports git subcommands that print the code's changes
// as patches: log -p (--patch, -u), diff (not --stat or --name-only),
// show, format-patch --stdout.
func gitShowsChanges(args []word) bool {
	rest := args[1:]
	if hasWord(rest, "--stat") || hasWord(rest, "--name-only") || hasWord(rest, "--name-status") || hasWord(rest, "--shortstat") || hasWord(rest, "--quiet") || hasWord(rest, "--numstat") {
		return false
	}
	switch args[0].s {
	case "log", "whatchanged":
		return hasWord(rest, "-p") || hasWord(rest, "--patch") || hasWord(rest, "-u")
	case "diff", "show":
		return true
	case "format-patch":
		return hasWord(rest, "--stdout")
	}
	return false
}

// remoteDump reports ssh arguments whose remote command dumps a database
// to its output.
func remoteDump(args []word) bool {
	ops := posArgs(args, optSpec{short: "bcDEeFIiJLlmOopQRSWw"})
	if len(ops) < 2 {
		return false
	}
	f := strings.Fields(joinWords(ops[1:]))
	for i, w := range f {
		switch strings.Trim(w, `'"`) {
		case "mysqldump", "mariadb-dump", "pg_dump", "pg_dumpall":
			rest := strings.Join(f[i+1:], " ")
			return !strings.Contains(rest, " -f ") && !strings.Contains(rest, "--file") && !strings.Contains(rest, "--result-file") && !strings.Contains(rest, ">")
		}
	}
	return false
}

// firstNonOption is the first argument that is not an option, or "".
func firstNonOption(args []word) string {
	for _, w := range args {
		if !strings.HasPrefix(w.s, "-") {
			return w.s
		}
	}
	return ""
}

// rgValued are ripgrep's options that take a value as the next word.
var rgValued = map[string]bool{"-g": true, "--glob": true, "--iglob": true, "-t": true, "--type": true, "-T": true, "--type-not": true,
	"-d": true, "--max-depth": true, "-e": true, "--regexp": true, "-f": true, "--file": true, "-m": true, "--max-count": true,
	"-j": true, "--threads": true, "-A": true, "-B": true, "-C": true, "-M": true, "--max-columns": true, "--type-add": true,
	"--ignore-file": true, "--sort": true, "--sortr": true, "-E": true, "--encoding": true, "--max-filesize": true}

// rgRoots are the directories ripgrep lists files below: its positional
// words, less the pattern when it searches (-l) without -e or -f.
func rgRoots(args []word) []word {
	var pos []word
	pattern := !hasWord(args, "--files") && !hasWord(args, "-e") && !hasWord(args, "--regexp") && !hasWord(args, "-f") && !hasWord(args, "--file")
	for i := 0; i < len(args); i++ {
		w := args[i].s
		if strings.HasPrefix(w, "-") {
			if rgValued[w] {
				i++
			}
			continue
		}
		pos = append(pos, args[i])
	}
	if pattern && len(pos) > 0 {
		pos = pos[1:]
	}
	if len(pos) == 0 {
		return []word{lit(".")}
	}
	return pos
}

// psDownloadOut is the download a PowerShell command line
// (powershell -c iwr URL) writes to standard output, or "".
func psDownloadOut(args []word) string {
	for i, w := range args {
		switch lower(w.s) {
		case "-c", "-command", "/c", "-com":
		default:
			continue
		}
		code := joinWords(args[i+1:])
		first, _, _ := strings.Cut(strings.TrimSpace(strings.Trim(code, `"'{} `)), " ")
		switch lower(first) {
		case "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "curl", "wget":
		default:
			return ""
		}
		low := lower(code)
		if strings.Contains(low, "-outfile") || strings.Contains(low, " -o ") || strings.Contains(low, "|") || strings.Contains(low, ";") {
			return ""
		}
		if u := urlLiteral.FindString(code); u != "" {
			return first + " " + u
		}
		return ""
	}
	return ""
}

// logReaders are the commands that print the files they are given.
var logReaders = map[string]bool{"cat": true, "tail": true, "head": true, "zcat": true, "bzcat": true, "xzcat": true, "zstdcat": true, "tac": true, "less": true, "more": true}

// logsOut describes the logs a command prints: system log files, the
// journal, a production service's logs; "" for anything else.
func logsOut(a *analysis, c *cmd) string {
	args := c.args()
	switch n := c.name; {
	case logReaders[n]:
		for _, w := range c.operands() {
			if p := a.absPath(w.s, c.cwd); p != "" && isLogPath(p) {
				return "system logs (" + w.s + ")"
			}
		}
	case n == "journalctl":
		for _, w := range args {
			switch {
			case strings.HasPrefix(w.s, "--vacuum"), w.s == "--rotate", w.s == "--disk-usage", w.s == "--verify", w.s == "--flush", w.s == "--list-boots":
				return ""
			}
		}
		return "the system journal"
	case n == "kubectl" && len(args) > 0 && args[0].s == "logs" && touchesProduction(c):
		return "production logs (kubectl logs)"
	case n == "aws" && len(args) > 1 && args[0].s == "logs" && (args[1].s == "get-log-events" || args[1].s == "filter-log-events" || args[1].s == "tail") && touchesProduction(c):
		return "production logs (aws logs)"
	case n == "gcloud" && len(args) > 1 && args[0].s == "logging" && args[1].s == "read" && touchesProduction(c):
		return "production logs (gcloud logging)"
	}
	return ""
}

// plainFieldsOnly reports a secret store's read narrowed by -field,
// --field or --fields to fields that hold no secret (username, host).
func plainFieldsOnly(args []word) bool {
	seen := false
	for i, w := range args {
		name, v, hasV := strings.Cut(strings.TrimLeft(w.s, "-"), "=")
		if !strings.HasPrefix(w.s, "-") || name != "field" && name != "fields" && name != "query" {
			continue
		}
		if !hasV {
			if i+1 >= len(args) {
				return false
			}
			v = args[i+1].s
		}
		if name == "query" {
			// az keyvault secret show --query attributes.expires: a
			// JMESPath projection of fields that hold no secret
			if !queryPlain(v) {
				return false
			}
			seen = true
			continue
		}
		for f := range strings.SplitSeq(v, ",") {
			if !plainField(strings.TrimPrefix(strings.TrimSpace(f), "label=")) {
				return false
			}
		}
		seen = true
	}
	return seen
}

// queryPlain reports a JMESPath query (az and aws --query) that picks
// only fields that hold no secret: attributes, expiresOn, [].name.
func queryPlain(q string) bool {
	l := lower(strings.TrimSpace(q))
	if l == "" || l == "@" || strings.Contains(l, "*") {
		return false
	}
	if strings.HasPrefix(l, "keys(") && strings.HasSuffix(l, ")") && !strings.Contains(l[5:], "(") {
		return true // keys(Environment.Variables): the names alone
	}
	if !strings.ContainsAny(l, "[]{}| ,()") {
		// a plain path (Credentials.Expiration): its last field is what
		// is shown
		l = l[strings.LastIndexByte(l, '.')+1:]
	}
	for _, w := range [...]string{"value", "token", "secret", "password", "key", "credential", "connection", "sas", "cert", "auth", "private", "@"} {
		if strings.Contains(l, w) {
			return false
		}
	}
	return true
}

// grepKeepsScratch reports a grep that keeps only lines naming a pull
// request's or a test's resources (grep -- '-pr-', grep -E '^preview-'):
// what it passes on is throwaway.
func grepKeepsScratch(args []word) bool {
	if hasWord(args, "-v") || hasWord(args, "--invert-match") {
		return false
	}
	pat, ok := optValue(args, "-e", "regexp")
	if !ok {
		ops := positional(args)
		if len(ops) == 0 {
			return false
		}
		pat = ops[0].s
	}
	l := strings.Trim(lower(pat), "^$'\"*")
	for _, m := range [...]string{"-pr-", "pr-", "-preview", "preview-", "-test-", "test-", "-tmp-", "tmp-", "-ci-", "ci-", "-rc", "nightly"} {
		if strings.Trim(l, "-.*") == strings.Trim(m, "-") || l == m {
			return true
		}
	}
	return false
}

// authedRead returns the host a fetcher reads from with credentials (an
// Authorization or API-key header, -u user:token, a secret variable in
// the URL), or "".
func authedRead(c *cmd) string {
	u := firstURL(c.args())
	h := hostOf(u)
	if h == "" || isLocalHost(h) {
		return ""
	}
	for _, w := range c.args() {
		// (as written, without lowering: headers are written Authorization:
		// or authorization:, X-Api-Key or x-api-key)
		s := w.s
		if s == "-u" || s == "--user" || hasAny(s, "uthorization:", "UTHORIZATION:", "-Token:", "-token:", "pi-key", "pi-Key", "PI-Key", "PI-KEY", "apikey=", "access_token=") {
			return h
		}
	}
	return ""
}

// recordsListed reports a hosted service's client printing its records:
// a listing, browse, export or query (stripe customers list, algolia
// objects browse, sf data query), or a topic read from its start (kcat
// -C, kafka-console-consumer).
func recordsListed(c *cmd) bool {
	switch c.name {
	case "kcat", "kafkacat":
		return hasWord(c.args(), "-C")
	case "kafka-console-consumer", "kafka-console-consumer.sh":
		return true
	case "adb":
		// adb shell content query --uri content://sms/inbox: the phone's
		// messages, contacts or call log
		j := lower(c.argsText())
		return strings.Contains(j, "content query") && hasAny(j, "content://sms", "content://contacts", "content://call_log", "content://com.android.contacts")
	}
	if len(c.words) < 3 || cliDestroyExempt[c.name] || fetchers[c.name] || ownURLRules[c.name] {
		return false
	}
	// (a look at the words as written first: most commands have none of
	// these verbs, and this runs for every command whose output is read)
	seen := false
	for i, w := range c.args() {
		if i > 4 {
			break
		}
		switch w.s {
		case "list", "browse", "export", "dump", "query", "List", "Browse", "Export", "Dump", "Query":
			seen = true
		}
	}
	if !seen {
		return false
	}
	for _, s := range clientSubWords(c).list() {
		switch s {
		case "list", "browse", "export", "dump", "query":
			return true
		}
	}
	return false
}

// lsPrintedPaths returns what ls prints when it only names its operands
// (files, globs, secrets, -d folders, one per line): the operands
// themselves; "" when it lists contents or prints more than names (-l,
// -s, -R).
func (a *analysis) lsPrintedPaths(args []word, cwd string) string {
	var roots []string
	dirs := false
	for _, w := range args {
		switch {
		case w.s == "-d" || w.s == "--directory":
			dirs = true
		case strings.HasPrefix(w.s, "-"):
			if strings.Trim(w.s, "-1aAtrSUd") != "" {
				return ""
			}
			dirs = dirs || strings.Contains(w.s, "d")
		case !w.ok:
			return ""
		default:
			roots = append(roots, w.s)
		}
	}
	if len(roots) == 0 {
		return ""
	}
	for _, r := range roots {
		base := path.Base(r)
		if _, secret := a.sensitive(r, cwd); !dirs && !secret && !strings.ContainsAny(base, "*?[") && strings.LastIndexByte(base, '.') <= 0 {
			return "" // a folder's contents, by their names alone
		}
	}
	return strings.Join(roots, "\n")
}

// wholeTableSelect reports a query that reads every row and column of
// a table (SELECT * without WHERE or LIMIT), not the server's catalog.
func wholeTableSelect(q string) bool {
	if !strings.Contains(q, "*") || len(q) < 14 {
		return false
	}
	u := strings.Join(strings.Fields(strings.ToUpper(q)), " ")
	i := strings.Index(u, "SELECT * FROM ")
	if i < 0 || strings.Contains(u, " WHERE ") || strings.Contains(u, " LIMIT ") {
		return false
	}
	from := u[i+len("SELECT * FROM "):]
	return !strings.HasPrefix(from, "PG_") && !strings.HasPrefix(from, "INFORMATION_SCHEMA") && !strings.HasPrefix(from, "SYSTEM.")
}

// helmTemplateURL returns the chart URL helm template renders (oci://,
// https://), or "".
func helmTemplateURL(args []word) string {
	ops := posArgs(args, helmGlobal)
	if len(ops) < 2 || ops[0].s != "template" {
		return ""
	}
	for _, w := range ops[1:] {
		if strings.Contains(w.s, "://") {
			return w.s
		}
	}
	if v, ok := optValue(args, "", "repo"); ok && strings.Contains(v, "://") {
		return v
	}
	return ""
}

// stdoutFile reports a file name that is the standard output: "-" or
// one of the device paths for it.
func stdoutFile(s string) bool {
	switch s {
	case "-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		return true
	}
	return false
}

// secretManifestOut reports kubectl create secret printing the Secret it
// would make (-o yaml or json): its values, base64-encoded.
func secretManifestOut(args []word) bool {
	ops := positional(args)
	if len(ops) < 2 || ops[0].s != "create" || ops[1].s != "secret" {
		return false
	}
	o, ok := optValue(args, "-o", "output")
	return ok && (o == "yaml" || o == "json")
}

// gitBundleToStdout reports git bundle create - (or /dev/stdout), with
// git's own options first (git -C DIR bundle create - --all).
func gitBundleToStdout(c *cmd) bool {
	sub, sargs := gitSub(c)
	return sub == "bundle" && len(sargs) > 1 && sargs[0].s == "create" && stdoutFile(sargs[1].s)
}

// djangoSecretPrint matches Django settings that hold secrets printed
// whole: print(settings.DATABASES), print(settings.SECRET_KEY).
var djangoSecretPrint = regexp.MustCompile(`print\(\s*settings\.(DATABASES|SECRET_KEY|CACHES)\s*\)`)

// packageEnvScript reports npm's, Yarn's or pnpm's built-in env script
// (npm run env, yarn run --silent env): it prints the environment.
func packageEnvScript(args []word) bool {
	if len(args) < 2 || args[len(args)-1].s != "env" {
		return false // (most npm commands: no list made)
	}
	ops := positional(args)
	return len(ops) == 2 && (ops[0].s == "run" || ops[0].s == "run-script") && ops[1].s == "env"
}

// secretScannerOut reports a secret scanner writing its findings, with
// the secrets in them, to its output: trufflehog always does; gitleaks
// unless told to redact them or to write its report to a file.
func secretScannerOut(c *cmd) bool {
	args := c.args()
	if len(args) == 0 || hasWord(args, "--help") || hasWord(args, "-h") {
		return false
	}
	switch c.name {
	case "trufflehog":
		return args[0].s != "--version"
	case "gitleaks":
		if hasPrefixWord(args, "--redact") || args[0].s == "version" {
			return false
		}
		r, ok := optValue(args, "-r", "report-path")
		return !ok || r == "-" || r == "/dev/stdout"
	}
	return false
}

// listFilterScratch reports a container runtime's listing filtered to a
// test's or a throwaway's objects (--filter name=pr-42_, -f
// label=com.docker.compose.project=myapp_test).
func listFilterScratch(args []word) bool {
	if len(args) < 2 || args[len(args)-1].s == "rm" || !hasWord(args, "ls") && !hasWord(args, "ps") && !hasWord(args, "list") {
		return false
	}
	found := false
	for _, v := range optValues(args, optTable{"--filter": "", "-f": ""}) {
		val := v.val
		if i := strings.LastIndexByte(val, '='); i >= 0 {
			val = val[i+1:]
		}
		if val == "" || !testName(val) || strings.Contains(lower(val), "shared") {
			return false
		}
		found = true
	}
	return found
}

// rubyEnvRead matches Ruby's read of an environment variable.
var rubyEnvRead = regexp.MustCompile(`ENV(?:\[|\.fetch\(\s*)["']([A-Za-z_][A-Za-z0-9_]*)["']`)

// elixirSecretPrint matches Elixir code printing a setting or an
// environment variable whose name says it is secret.
var elixirSecretPrint = regexp.MustCompile(`(?i)IO\.(puts|inspect)[\s(]+(System\.(fetch_env!|get_env)\(\s*\\?"[A-Z0-9_]*(SECRET|KEY|TOKEN|PASSWORD|DATABASE_URL|DSN)[A-Z0-9_]*\\?"|Application\.(fetch_env!|get_env)\([^)]*\)\s*\[:\w*(secret|key|token|password)\w*\])`)

// elixirCode returns the Elixir code a command evaluates: elixir -e,
// mix run -e, or a release's eval / rpc.
func elixirCode(c *cmd) (string, bool) {
	args := c.args()
	switch {
	case c.name == "elixir" || c.name == "iex":
		return optValue(args, "-e", "eval")
	case c.name == "mix" && len(args) > 1 && args[0].s == "run":
		return optValue(args[1:], "-e", "eval")
	case len(args) > 1 && (args[0].s == "eval" || args[0].s == "rpc"):
		return args[1].s, true
	}
	return "", false
}
