package guard

import (
	"path"
	"strings"
)

// --- secrets leaving the machine or the transcript ---

// metadataHosts are cloud instance metadata services, which hand out the
// machine's credentials to whoever asks from it.
var metadataHosts = map[string]bool{
	"169.254.169.254": true, "169.254.170.2": true, "metadata.google.internal": true, "metadata": true,
	"100.100.100.200": true, "fd00:ec2::254": true, "169.254.169.253": false, "metadata.azure.internal": true,
}

// keyNamePatterns are file names a search for private keys and secrets
// looks for.
func keyHunt(s string) bool {
	l := strings.Trim(strings.ToLower(s), `"'*`)
	if strings.HasPrefix(l, "id_") && !strings.HasSuffix(l, ".pub") {
		return true // id_*: every SSH key pair's private half
	}
	for _, k := range [...]string{"id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", ".pem", ".key", ".kdbx", ".p12", ".pfx", ".env",
		"credentials", ".git-credentials", ".netrc", ".pgpass", "wallet.dat", "private", "secret", "token", "password", ".ppk", "keystore"} {
		if strings.Contains(l, k) {
			return true
		}
	}
	return false
}

// secretPattern reports a search pattern for secrets in file contents.
func secretPattern(s string) bool {
	l := strings.ToLower(s)
	for _, k := range [...]string{"private key", "secret", "password", "passwd", "token", "api_key", "apikey", "akia", "aws_secret", "begin rsa", "begin openssh"} {
		if strings.Contains(l, k) {
			return true
		}
	}
	return false
}

// broadRoot reports a search root beyond the project: the filesystem,
// homes, /etc, /var, /proc.
func (a *analysis) broadRoot(w word, cwd string) bool {
	p := a.absPath(w.s, cwd)
	if p == "" || a.inWork(p) {
		return false
	}
	if p == "/" || p == "/home" || p == "/Users" || p == "/root" || p == "/etc" || p == "/var" || p == "/opt" || p == "/srv" || p == "/proc" || p == "/mnt" {
		return true
	}
	rel, _, ok := a.homeRel(p)
	return ok && (rel == "" || strings.HasPrefix(rel, ".ssh") || strings.HasPrefix(rel, ".config") || strings.HasPrefix(rel, ".aws"))
}

// noteSecretArchive remembers an archive file made of keys or
// credentials, so that sending it later is judged as sending them.
func (a *analysis) noteSecretArchive(c *cmd) {
	var archive string
	var inputs []word
	args := c.args()
	switch c.name {
	case "zip", "7z", "7za", "rar":
		ops := posArgs(args, optSpec{short: "bntP", long: []string{"password", "temp-path"}})
		if (c.name == "7z" || c.name == "7za" || c.name == "rar") && len(ops) > 0 {
			ops = ops[1:] // the command letter
		}
		if len(ops) < 2 {
			return
		}
		archive, inputs = ops[0].s, ops[1:]
	case "tar":
		f, rest, ok := tarArchive(args)
		if !ok {
			return
		}
		args = rest
		archive = f
		for _, w := range positional(args) {
			if w.s != f {
				inputs = append(inputs, w)
			}
		}
	default:
		return
	}
	for _, w := range inputs {
		if d, crit := a.sensitive(w.s, c.cwd); crit {
			if p := a.absPath(archive, c.cwd); p != "" {
				if a.files == nil {
					a.files = make(map[string]flow)
				}
				a.files[p] = flow{kind: flowSecret, what: "an archive of " + d, crit: true}
			}
			return
		}
	}
}

// tarArchive returns the archive tar is given (-f F, --file F, -czf F,
// or the old style tar czf F FILES...) and its arguments without the old
// style's letters.
func tarArchive(args []word) (string, []word, bool) {
	if f, ok := optValue(args, "-f", "file"); ok {
		return f, args, true
	}
	if len(args) > 1 && !strings.HasPrefix(args[0].s, "-") && strings.Contains(args[0].s, "f") {
		return args[1].s, args[1:], true // old style: tar czf ARCHIVE FILES...
	}
	for i, w := range args {
		if len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && strings.HasSuffix(w.s, "f") && i+1 < len(args) {
			return args[i+1].s, args, true
		}
	}
	return "", args, false
}

// noteSecretSplit remembers the pieces split cuts a secret into (split
// -b 512 ~/.ssh/id_rsa /tmp/k_): each piece sent is a part of the secret.
func (a *analysis) noteSecretSplit(c *cmd) {
	if c.name != "split" {
		return
	}
	ops := posArgs(c.args(), readerOpts["split"])
	if len(ops) < 2 || !ops[1].ok {
		return
	}
	var in flow
	if ops[0].s == "-" {
		in = c.in
	} else if d, crit := a.sensitive(ops[0].s, c.cwd); d != "" {
		in = flow{kind: flowSecret, what: d, crit: crit}
	}
	if in.kind != flowSecret {
		return
	}
	if p := a.absPath(ops[1].s, c.cwd); p != "" {
		if a.files == nil {
			a.files = map[string]flow{}
		}
		a.files[p+"*"] = flow{kind: flowSecret, what: "pieces of " + in.what, crit: in.crit}
	}
}

// noteSecretCopy remembers key material copied into the work directory,
// so that a later commit or push of it is caught.
func (a *analysis) noteSecretCopy(c *cmd) {
	if len(c.redirs) > 0 || c.name == "tee" {
		// echo "//registry.npmjs.org/:_authToken=$NPM_TOKEN" >> .npmrc:
		// a secret written into a file of the repository
		for _, t := range a.writeTargets(c) {
			if t.path == "" || t.class != wNone || !a.inWork(t.path) {
				continue
			}
			if t.content.kind == flowSecret && t.content.crit {
				a.secretsCopied = t.content.what + " → " + t.raw
			} else if t.content.kind == flowText {
				if v := secretVarIn(t.content.text); v != "" {
					a.secretsCopied = "$" + v + " → " + t.raw
				}
			}
		}
	}
	if c.name == "composer" && hasWord(c.args(), "--auth") && !hasWord(c.args(), "-g") && !hasWord(c.args(), "--global") {
		// composer config --auth github-oauth.github.com "$TOKEN": written
		// into the project's auth.json
		for _, w := range c.args() {
			if v := secretVarIn(w.s); v != "" && !w.ok {
				a.secretsCopied = "$" + v + " → auth.json"
			}
		}
	}
	if c.name != "cp" && c.name != "mv" && c.name != "rsync" && c.name != "install" {
		return
	}
	ops := posArgs(c.args(), optSpec{short: "tS", long: []string{"target-directory", "suffix"}})
	if len(ops) < 2 {
		return
	}
	dest := a.absPath(ops[len(ops)-1].s, c.cwd)
	if dest == "" {
		return
	}
	if !a.inWork(dest) {
		// a copy elsewhere (/tmp/x) keeps what it holds: an upload of
		// the copy is an upload of the secret
		if len(ops) == 2 && c.name != "mv" {
			if d, crit := a.sensitive(ops[0].s, c.cwd); crit && !strings.HasPrefix(d, "the home directory") {
				if a.files == nil {
					a.files = map[string]flow{}
				}
				a.files[dest] = flow{kind: flowSecret, what: d, crit: true}
			}
		}
		return
	}
	for _, w := range ops[:len(ops)-1] {
		if d, crit := a.sensitive(w.s, c.cwd); crit && !a.inWork(a.absPath(w.s, c.cwd)) {
			a.secretsCopied = d + " → " + path.Clean(ops[len(ops)-1].s)
		} else if d != "" && len(ops) == 2 && exampleFileName(path.Base(dest)) && !exampleFileName(path.Base(w.s)) {
			// cp .env .env.example: the real values put in the file the
			// repository tracks as the template
			a.secretsCopied = d + " → " + path.Clean(ops[1].s)
		}
	}
}

// exampleFileName reports the name of a settings template a repository
// keeps under version control (.env.example, config.sample.yml).
func exampleFileName(base string) bool {
	l := strings.ToLower(base)
	for _, s := range [...]string{".example", ".sample", ".template", ".dist", ".tmpl", "example.", "sample.", "template."} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// captureTools record the microphone, the screen or the camera into the
// file named by their last operand (or by -o).
var captureTools = map[string]string{"arecord": "the microphone", "rec": "the microphone", "parecord": "the microphone",
	"screencapture": "the screen", "scrot": "the screen", "grim": "the screen", "gnome-screenshot": "the screen", "spectacle": "the screen",
	"imagesnap": "the camera", "fswebcam": "the camera", "import": "the screen", "xwd": "the screen"}

// noteCapture remembers a file a recording of the microphone, screen or
// camera was written to: sending it sends what the user said or saw.
func (a *analysis) noteCapture(c *cmd) {
	what, ok := captureTools[c.name]
	args := c.args()
	if c.name == "ffmpeg" {
		// ffmpeg -f alsa|pulse|avfoundation|x11grab|v4l2 -i DEV ... OUT
		if f, ok2 := optValue(args, "-f", ""); ok2 {
			switch f {
			case "alsa", "pulse", "avfoundation", "x11grab", "v4l2", "dshow", "gdigrab", "kmsgrab":
				what, ok = "a device ("+f+")", true
			}
		}
	}
	if c.name == "import" && !hasWord(args, "-window") {
		return // ImageMagick import of a region chosen by hand, or a file
	}
	if !ok || len(args) == 0 {
		return
	}
	out := args[len(args)-1]
	if v, ok2 := optValue(args, "-o", "output"); ok2 && c.name != "ffmpeg" {
		out = word{s: v, ok: true}
	}
	if !out.ok || strings.HasPrefix(out.s, "-") {
		return
	}
	p := a.absPath(out.s, c.cwd)
	if p == "" {
		return
	}
	if a.files == nil {
		a.files = map[string]flow{}
	}
	a.files[p] = flow{kind: flowSecret, what: "a recording of " + what, crit: true}
}
