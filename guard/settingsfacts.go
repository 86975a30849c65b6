package guard

import (
	"net"
	"strings"
)

// toolSettingsFile reports a file a tool reads its settings from every
// time it starts: a dotfile or dot-directory file under the home
// directory (~/.tmux.conf, ~/.config/mise/config.toml, ~/.yarnrc.yml,
// ~/.emacs.d/init.el), or a hook manager's file in the project.
func (a *analysis) toolSettingsFile(p string) bool {
	if rel, _, ok := a.homeRel(p); ok {
		return strings.HasPrefix(rel, ".") && !strings.HasPrefix(rel, ".cache/") && !strings.HasPrefix(rel, ".local/share/Trash")
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
