package guard

import (
	"net"
	"path"
	"strings"
)

// toolSettingsFile reports a file a tool reads its settings from every
// time it starts: a dotfile or dot-directory file under the home
// directory (~/.tmux.conf, ~/.config/mise/config.toml, ~/.yarnrc.yml,
// ~/.emacs.d/init.el), or a hook manager's file in the project.
func (a *analysis) toolSettingsFile(p string) bool {
	if rel, _, ok := a.homeRel(p); ok {
		// dot-folders, and macOS's per-application settings (an
		// iTerm2 dynamic profile, an app's preferences)
		return strings.HasPrefix(rel, ".") && !strings.HasPrefix(rel, ".cache/") && !strings.HasPrefix(rel, ".local/share/Trash") ||
			strings.HasPrefix(rel, "Library/Application Support/") || strings.HasPrefix(rel, "Library/Preferences/")
	}
	switch base := p[strings.LastIndexByte(p, '/')+1:]; base {
	case "lefthook.yml", "lefthook.yaml", ".lefthook.yml", "lefthook-local.yml", ".pre-commit-config.yaml", ".huskyrc", ".lintstagedrc":
		return true
	}
	return false
}

// payloadInSettings reports settings text that makes the tool run a
// download piped into a shell, a program hidden in a cache or temporary
// directory, or fetch packages from a plain-HTTP address or bare IP.
func payloadInSettings(text string) string {
	l := strings.ToLower(text)
	if (strings.Contains(l, "curl ") || strings.Contains(l, "wget ")) && (strings.Contains(l, "| sh") || strings.Contains(l, "|sh") || strings.Contains(l, "| bash") || strings.Contains(l, "|bash") || strings.Contains(l, "| zsh")) {
		return "a download piped into a shell"
	}
	for _, h := range [...]string{"/.cache/.", "/tmp/.", "/dev/shm/", "/var/tmp/."} {
		if strings.Contains(l, h) {
			return "a hidden program (" + h + ")"
		}
	}
	if p := programSettingValue(text); p != "" {
		return "a program in a temporary or hidden place (" + p + ")"
	}
	// node-options=--require ~/.cache/hook.js, run-shell -b '~/.cache/t.sh',
	// an LD_PRELOAD: code loaded from a cache or a temporary folder each
	// time the tool starts
	if hasAny(l, "--require ", "--require=", "-r ", "--import ", "--import=", "run-shell", "ld_preload", "source-file") {
		for _, h := range [...]string{"/.cache/", "/tmp/", "/dev/shm/", "/var/tmp/"} {
			if strings.Contains(l, h) {
				return "code loaded from " + h
			}
		}
	}
	if strings.Contains(l, "registry") || strings.Contains(l, "index") || strings.Contains(l, "mirror") || strings.Contains(l, "source") {
		for _, f := range strings.FieldsFunc(l, func(r rune) bool { return r == '"' || r == '\'' || r == ' ' || r == '\n' || r == '=' }) {
			i := strings.Index(f, "http://")
			if i < 0 {
				continue
			}
			h := hostOf(f[i:])
			if ip := net.ParseIP(h); ip != nil && !ip.IsLoopback() {
				return "packages from " + f[i:]
			}
		}
	}
	return ""
}

// programSettingValue returns the program a settings line names by a
// key that says it runs one (pinentry-program, credential_process,
// exec-command, a helper, a hook, a script) when it lives in a temporary
// or hidden place.
func programSettingValue(text string) string {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		i := strings.IndexAny(line, " =:\t")
		if i <= 0 {
			continue
		}
		key := strings.ToLower(strings.Trim(line[:i], `"'`))
		if !strings.Contains(key, "program") && !strings.Contains(key, "command") && !strings.Contains(key, "exec") &&
			!strings.Contains(key, "helper") && !strings.Contains(key, "process") && !strings.Contains(key, "hook") && !strings.Contains(key, "script") {
			continue
		}
		val := strings.TrimLeft(line[i:], " =:\t\"'")
		if f := strings.Fields(val); len(f) > 0 {
			prog := strings.Trim(f[0], `"',`)
			if strings.HasPrefix(prog, "/") && untrustedPlace(prog) {
				return prog
			}
		}
	}
	return ""
}

// settingCommand reports a client told to store a setting or a package
// source: config set, sources -a, source add, registry add.
func settingCommand(c *cmd) bool {
	args := c.lowerArgs()
	for i, l := range args {
		if i > 2 {
			break
		}
		switch l {
		case "config", "sources", "source", "registry", "channel", "repo":
			return i+1 < len(args)
		}
	}
	return false
}

// Package sources. A package manager's global source decides where every
// later install comes from: pointed at a site that is neither a public
// registry, a hosted artifact service nor a name on the organisation's
// own network, each install runs that site's code. The project's own
// settings files are reviewed with the project and are not judged here.

// publicPackageHosts are the registries and mirrors the ecosystems run.
var publicPackageHosts = map[string]bool{"services.gradle.org": true, "downloads.gradle.org": true, "registry.npmjs.org": true, "registry.yarnpkg.com": true, "registry.npmmirror.com": true,
	"pypi.org": true, "pypi.python.org": true, "files.pythonhosted.org": true, "test.pypi.org": true, "download.pytorch.org": true,
	"rubygems.org": true, "index.rubygems.org": true, "crates.io": true, "index.crates.io": true, "static.crates.io": true,
	"proxy.golang.org": true, "sum.golang.org": true, "goproxy.io": true, "goproxy.cn": true, "repo.maven.apache.org": true,
	"repo1.maven.org": true, "maven.google.com": true, "plugins.gradle.org": true, "packagist.org": true, "repo.packagist.org": true,
	"conda.anaconda.org": true, "repo.anaconda.com": true, "jsr.io": true, "deno.land": true, "github.com": true, "gitlab.com": true,
	"bitbucket.org": true, "codeload.github.com": true, "ssh.github.com": true,
	"cloud.r-project.org": true, "cran.r-project.org": true, "cran.rstudio.com": true, "packagemanager.posit.co": true,
	"packagemanager.rstudio.com": true, "pkg.julialang.org": true, "pub.dev": true, "hex.pm": true, "repo.hex.pm": true,
	"builds.hex.pm": true, "luarocks.org": true, "dl.flathub.org": true, "flathub.org": true, "www.cpan.org": true, "cpan.metacpan.org": true, "api.nuget.org": true,
	"cache.nixos.org": true, "channels.nixos.org": true, "releases.nixos.org": true}

// ownPackageHost reports a package source that is a public registry, a
// hosted artifact service (JFrog, Cloudsmith, GitHub Packages, the
// clouds' registries), a self-hosted forge, or a name or address of the
// local network.
func ownPackageHost(h string) bool {
	h = strings.ToLower(h)
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(h, "]") {
		h = h[:i]
	}
	if h == "" || strings.ContainsAny(h, "$%{") || publicPackageHosts[h] || knownFeedHost(h) || knownRegistry(h) || isLocalHost(h) || localOnlyName(h) {
		return true
	}
	for _, suf := range [...]string{".jfrog.io", ".cloudsmith.io", ".pkg.dev", ".amazonaws.com", ".azure.com", ".pkg.github.com", ".packagecloud.io",
		".fury.io", ".internal", ".corp", ".intranet", ".intra", ".svc", ".home.arpa"} {
		if strings.HasSuffix(h, suf) {
			return true
		}
	}
	for _, forge := range [...]string{"gitlab.", "github.", "bitbucket.", "gitea.", "nexus.", "artifactory."} {
		if strings.HasPrefix(h, forge) {
			return true
		}
	}
	return false
}

// packageSettingsFile reports a package manager's own settings file in
// the home directory: where its global sources are kept.
func packageSettingsFile(p string) bool {
	switch path.Base(p) {
	case ".npmrc", ".yarnrc", ".yarnrc.yml", "pip.conf", "pip.ini", "uv.toml", ".pydistutils.cfg", ".gemrc", ".condarc", "bunfig.toml", ".bowerrc":
		return true
	case "settings.xml":
		return strings.Contains(p, "/.m2/")
	case "config", "config.toml":
		return strings.Contains(p, "/.cargo/") || strings.Contains(p, "/pypoetry/")
	case "init.gradle", "gradle.properties":
		return strings.Contains(p, "/.gradle/")
	}
	return false
}

// foreignPackageSource returns the first URL in settings text, or in a
// setting command's words, that names a package source or a rewrite of
// fetched URLs (git's insteadOf) on a site ownPackageHost does not know.
func foreignPackageSource(text string) string {
	l := strings.ToLower(text)
	if !strings.Contains(l, "registry") && !strings.Contains(l, "index") && !strings.Contains(l, "mirror") && !strings.Contains(l, "insteadof") &&
		!strings.Contains(l, "source") && !strings.Contains(l, "channel") && !strings.Contains(l, "url") {
		return ""
	}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return r == '"' || r == '\'' || r == ' ' || r == '\n' || r == '=' || r == '<' || r == '>' || r == '#' || r == ','
	}) {
		i := strings.Index(f, "https://")
		if i < 0 {
			i = strings.Index(f, "http://")
		}
		if i < 0 {
			continue
		}
		u := f[i:]
		if h := hostOf(u); !ownPackageHost(h) {
			return u
		}
	}
	return ""
}
