package guard

import (
	"slices"
	"strconv"
	"strings"
)

// A developer's workstation: its screen lock, quarantine and workspace
// trust switched off, its apps' data purged, its remote desktop opened,
// its sandboxes widened, its editors given code from nowhere, its
// password store emptied.
var workstationRules = []*rule{
	{ID: "desktop-security-off", Level: LevelHigh, Category: CategorySystem, Description: "switching off a workstation's protection: the screen lock, download quarantine, autorun prompts, an editor's workspace trust or file-local code, or turning its remote desktop on",
		Suggestions: []string{"Leave the desktop's security settings to the user", "Trust one reviewed folder, not every workspace"},
		names:       names("gsettings", "kwriteconfig5", "kwriteconfig6", "sysadminctl", "xattr", "defaults", "xfconf-query", "echo", "printf", "jq", "sed", "code", "tee"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 2 {
				return false, ""
			}
			low := c.lowerArgs()
			switch c.name {
			case "gsettings":
				j := strings.Join(low, " ")
				for _, k := range [...]string{"screensaver lock-enabled false", "media-handling autorun-never false", "screensaver idle-activation-enabled false",
					"lockdown disable-lock-screen true", "session idle-delay 0", "remote-desktop.rdp enable true", "remote-desktop.vnc enable true",
					"remote-desktop.rdp view-only false", "screensaver ubuntu-lock-on-suspend false"} {
					if strings.Contains(j, k) {
						return true, "gsettings " + k
					}
				}
				// lock-delay 3600: the screen locks an hour after it blanks
				if i := slices.Index(low, "lock-delay"); i >= 0 && i+1 < len(low) {
					if n, err := strconv.Atoi(strings.TrimPrefix(low[i+1], "uint32 ")); err == nil && n >= 300 {
						return true, "gsettings lock-delay " + low[i+1]
					}
				}
			case "xfconf-query":
				// xfconf-query -c xfce4-session -p /shutdown/LockScreen -s false
				j := strings.Join(low, " ")
				if (strings.Contains(j, "/shutdown/lockscreen") || strings.Contains(j, "lock-screen-suspend-hibernate")) && hasAnyWord(low, "false") {
					return true, "Xfce's screen lock off"
				}
			case "defaults":
				// macOS: the screen saver never starts or asks for no
				// password; a browser's safe browsing off or an extension
				// forced in by policy
				j := strings.Join(low, " ")
				num := func(key string) (int, bool) {
					i := slices.Index(low, key)
					for k := i + 1; i >= 0 && k < len(low); k++ {
						if n, err := strconv.Atoi(low[k]); err == nil {
							return n, true
						}
					}
					return 0, false
				}
				if strings.Contains(j, "com.apple.screensaver") && hasAnyWord(low, "write") {
					if n, ok := num("idletime"); ok && n == 0 {
						return true, "the screen saver never starts"
					}
					if n, ok := num("askforpassword"); ok && n == 0 {
						return true, "the screen saver asks for no password"
					}
					if n, ok := num("askforpassworddelay"); ok && n >= 300 {
						return true, "the screen saver asks for the password after " + strconv.Itoa(n) + " seconds"
					}
				}
				if (strings.Contains(j, "com.google.chrome") || strings.Contains(j, "com.microsoft.edge") || strings.Contains(j, "com.brave.browser")) && hasAnyWord(low, "write") {
					if n, ok := num("safebrowsingprotectionlevel"); ok && n == 0 {
						return true, "the browser's safe browsing off"
					}
					if hasAnyWord(low, "safebrowsingenabled") && hasAnyWord(low, "false", "0", "-bool false") {
						return true, "the browser's safe browsing off"
					}
					if hasAnyWord(low, "extensioninstallforcelist") && strings.Contains(j, "http") {
						return true, "an extension forced into the browser from " + firstURL(c.args())
					}
				}
			case "kwriteconfig5", "kwriteconfig6":
				// KDE's screen locker: --group Daemon --key Autolock false
				j := strings.Join(low, " ")
				if strings.Contains(j, "kscreenlockerrc") && (hasAnyWord(low, "autolock", "lockonresume") && hasAnyWord(low, "false") || hasAnyWord(low, "timeout") && hasAnyWord(low, "0")) {
					return true, "KDE's screen lock off"
				}
			case "sysadminctl":
				if hasWord(c.args(), "-screenLock") && hasAnyWord(low, "off") {
					return true, "sysadminctl -screenLock off"
				}
			case "xattr":
				// quarantine stripped from every app or download at once
				rec := false
				for _, l := range low {
					if strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "--") && strings.Contains(l, "r") {
						rec = true
					}
				}
				if rec && hasAnyWord(low, "com.apple.quarantine") {
					for _, w := range c.operands() {
						if p := strings.TrimRight(w.s, "/"); p == "/Applications" || strings.HasSuffix(p, "/Downloads") || p == "~/Downloads" || p == "/" || p == "~" {
							return true, "quarantine removed under " + w.s
						}
					}
				}
			}
			if c.name == "echo" || c.name == "printf" || c.name == "jq" || c.name == "sed" || c.name == "code" || c.name == "tee" {
				if a.srcLowHas("security.workspace.trust.enabled") && a.srcLowHas("false") {
					return true, "VS Code's workspace trust off"
				}
				if a.srcLowHas("enable-local-variables :all") || a.srcLowHas("enable-local-eval t") {
					return true, "Emacs runs every file's local code"
				}
				if a.srcLowHas("modelineexpr") && a.srcLowHas("set modeline") {
					return true, "Vim evaluates every file's modeline"
				}
			}
			return false, ""
		}},
	{ID: "tool-safety-off", Level: LevelHigh, Category: CategorySystem, Description: "switching off a developer tool's own safety check for every project: every package's install scripts allowed, any flake's settings accepted, every .envrc trusted, a folder's tasks run when it is opened",
		Suggestions: []string{"Allow the one package, flake, folder or task that needs it", "Leave the tool's defaults in the user's settings"},
		names:       names("pnpm", "npm", "yarn", "echo", "printf", "tee", "sed", "jq", "cat"),
		match: func(a *analysis, c *cmd) (bool, string) {
			switch c.name {
			case "pnpm", "npm", "yarn":
				// pnpm config set --location=global dangerously-allow-all-builds true
				ops := c.operands()
				if len(ops) >= 4 && ops[0].s == "config" && ops[1].s == "set" && ops[3].s == "true" {
					// (pnpm's camelCase dangerouslyAllowAllBuilds, yarn's
					// enableScripts: every package's install scripts run)
					switch strings.ReplaceAll(lower(ops[2].s), "-", "") {
					case "dangerouslyallowallbuilds", "unsafeperm", "enablescripts":
						return true, ops[2].s + " true"
					}
				}
				// npm access set mfa=none @scope/pkg: publishing without
				// the second factor
				if c.name == "npm" && len(ops) >= 3 && ops[0].s == "access" && ops[1].s == "set" && lower(ops[2].s) == "mfa=none" {
					return true, "npm access set mfa=none"
				}
				return false, ""
			}
			switch {
			case a.srcCompactHas("accept-flake-config=true") && a.srcCompactHas("nix.conf"):
				return true, "nix accepts every flake's settings (accept-flake-config)"
			case a.srcCompactHas("task.allowautomatictasks") && (a.srcCompactHas(`"on"`) || a.srcCompactHas(":on")):
				return true, "VS Code runs a folder's tasks when it is opened"
			case a.srcCompactHas("direnv.toml") && (a.srcCompactHas(`prefix=["/"]`) || a.srcCompactHas(`prefix=["~"]`) || a.srcCompactHas(`prefix=["/home"]`) ||
				a.srcCompactHas(`prefix=["/users"]`) || a.srcCompactHas(`prefix=["$home"]`)):
				return true, "direnv trusts every .envrc"
			}
			return false, ""
		}},
	{ID: "rollback-generations-deleted", Level: LevelModerate, Category: CategoryFileDelete, Description: "deleting every earlier generation of the system or user profile (nothing left to roll back to)",
		Suggestions: []string{"Keep recent generations: nix-collect-garbage --delete-older-than 30d", "Collect garbage without deleting generations"},
		names:       names("nix-collect-garbage", "nix-env", "guix", "home-manager"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if hasWord(args, "--dry-run") {
				return false, ""
			}
			switch c.name {
			case "nix-collect-garbage":
				return hasWord(args, "-d") || hasWord(args, "--delete-old"), "nix-collect-garbage --delete-old"
			case "nix-env":
				// --delete-generations old: all but the current one
				return hasWord(args, "--delete-generations") && hasWord(args, "old"), "nix-env --delete-generations old"
			case "guix":
				ops := c.operands()
				return len(ops) > 0 && ops[0].s == "gc" && (hasWord(args, "--delete-generations") || hasWord(args, "-d")), "guix gc --delete-generations"
			}
			return false, ""
		}},
	{ID: "desktop-setup-wiped", Level: LevelModerate, Category: CategorySystem, Description: "wiping the developer's own desktop set-up: an app's preferences, every editor extension, every terminal session, dotfiles overwritten, a config file reset",
		Suggestions: []string{"Read the settings first (defaults read, code --list-extensions)", "Change one key or one extension, or preview with a dry run"},
		names:       names("defaults", "code", "code-insiders", "codium", "cursor", "tmux", "emacsclient", "chezmoi", "jupyter", "jupyter-notebook", "jupyter-lab"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "defaults":
				// an app's whole preferences (or one of its lists), of
				// the system or of a well-known publisher's app
				// (one setting deleted goes back to its default: only a
				// list the user built up is lost with it)
				if len(ops) >= 2 && ops[0].s == "delete" && othersPrefsDomain(ops[1].s) &&
					(len(ops) == 2 || strings.HasPrefix(lower(ops[2].s), "persistent-") || strings.Contains(lower(ops[2].s), "favorites")) {
					return true, "defaults delete " + joinWords(ops[1:])
				}
			case "code", "code-insiders", "codium", "cursor":
				// every installed extension uninstalled, fed from the list
				// (the one named extension, a literal, is not every one)
				if v, ok := optValue(args, "", "uninstall-extension"); hasWord(args, "--uninstall-extension") && strings.Contains(a.src, "--list-extensions") &&
					(!ok || strings.HasPrefix(v, "-") || strings.Contains(v, "$") || v == "{}" || v == "<stdin>") {
					return true, c.name + " --uninstall-extension of every extension"
				}
			case "tmux":
				if _, own := optValue(args, "-L", ""); own {
					return false, "" // a server of its own socket, not the user's sessions
				}
				if _, own := optValue(args, "-S", ""); own {
					return false, ""
				}
				if len(ops) > 0 && ops[0].s == "kill-server" {
					return true, "tmux kill-server"
				}
				if len(ops) > 0 && ops[0].s == "kill-session" && (hasWord(args, "-a") || strings.Contains(a.src, "tmux ls") || strings.Contains(a.src, "list-sessions")) {
					return true, "tmux kill-session of every session"
				}
			case "emacsclient":
				if strings.Contains(a.src, "(kill-emacs)") && !strings.Contains(a.src, "save-some-buffers") && !strings.Contains(a.src, "save-buffers-kill") {
					return true, "emacsclient (kill-emacs): unsaved buffers lost"
				}
			case "chezmoi":
				if len(ops) > 0 && ops[0].s == "apply" && hasWord(args, "--force") && !hasWord(args, "-n") && !hasWord(args, "--dry-run") && !strings.HasPrefix(joinWords(args), "-n") {
					return true, "chezmoi apply --force over local dotfile edits"
				}
			default: // jupyter
				if hasWord(args, "--generate-config") && (hasWord(args, "-y") || hasWord(args, "--y") || hasWord(args, "--yes")) {
					return true, "jupyter --generate-config -y over the user's config"
				}
			}
			return false, ""
		}},
	{ID: "editor-recovery-deleted", Level: LevelModerate, Category: CategoryFileDelete, Description: "deleting an editor's local history or auto-saved copies (the only record of unsaved or uncommitted edits)",
		Suggestions: []string{"Leave the editor's history to the editor", "Save or discard the buffers from inside the editor"},
		names:       names("rm", "find", "rd", "rmdir", "remove-item", "del"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "find" && !hasWord(c.args(), "-delete") && len(c.findExecs) == 0 {
				return false, ""
			}
			for _, w := range c.args() {
				l := strings.ReplaceAll(lower(w.s), `\`, "/")
				switch {
				case strings.Contains(l, "/localhistory"), strings.Contains(l, "/code/user/history"), strings.Contains(l, "/code/backups"),
					strings.Contains(l, "/cursor/user/history"), strings.Contains(l, "/code - insiders/user/history"), strings.Contains(l, "/sublime text/local/session"):
					return true, w.s
				case c.name == "find" && (l == "#*#" || l == ".#*"):
					return true, "Emacs auto-save files"
				}
			}
			return false, ""
		}},
	{ID: "network-profile-deleted", Level: LevelModerate, Category: CategorySystem, Description: "deleting a saved network or VPN connection (its settings and stored secrets go with it)",
		Suggestions: []string{"Bring the connection down instead: nmcli connection down NAME", "Export it first: nmcli connection export NAME"},
		names:       names("nmcli"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) < 2 || !strings.HasPrefix("connection", ops[0].s) || len(ops[0].s) < 1 {
				return false, ""
			}
			verb := ops[1].s
			return len(verb) >= 3 && strings.HasPrefix("delete", verb), "nmcli connection delete " + joinWords(ops[2:])
		}},
	{ID: "app-data-purged", Level: LevelHigh, Category: CategoryFileDelete, Description: "uninstalling applications together with the data they hold (containers, VMs, documents)",
		Suggestions: []string{"Uninstall without purging, and keep the data", "Back the data up first"},
		names:       names("snap", "flatpak", "brew"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 || hasWord(args, "--dry-run") || hasWord(args, "-n") {
				return false, ""
			}
			switch c.name {
			case "snap":
				// --purge: no snapshot of the snap's data is kept (a
				// browser's profiles, a database's files, LXD's containers)
				if ops[0].s == "remove" && hasWord(args, "--purge") && len(ops) > 1 {
					return true, "snap remove --purge " + joinWords(ops[1:])
				}
			case "flatpak":
				// --delete-data: the apps' data in ~/.var/app (mail,
				// chats, profiles) deleted with them
				if (ops[0].s == "uninstall" || ops[0].s == "remove") && hasWord(args, "--delete-data") {
					if hasWord(args, "--all") || len(ops) == 1 {
						return true, "flatpak uninstall --all --delete-data"
					}
					return true, "flatpak uninstall --delete-data " + joinWords(ops[1:])
				}
			case "brew":
				if ops[0].s == "uninstall" && hasWord(args, "--zap") {
					return true, "brew uninstall --zap (the app's settings and data)"
				}
			}
			return false, ""
		}},
	{ID: "os-erase-install", Level: LevelCritical, Category: CategoryDiskWipe, Description: "reinstalling the operating system over the disk (everything on it erased)",
		Suggestions: []string{"Reinstall by hand, after a backup"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "startosinstall" && hasWord(c.args(), "--eraseinstall") {
				return true, "startosinstall --eraseinstall"
			}
			return false, ""
		}},
	{ID: "password-store-emptied", Level: LevelHigh, Category: CategoryFileDelete, Description: "deleting a folder of a password store",
		Suggestions: []string{"Remove one named entry", "Keep the store's history (pass git log) to restore it"},
		names:       names("pass", "gopass"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) < 2 || ops[0].s != "rm" && ops[0].s != "remove" && ops[0].s != "delete" {
				return false, ""
			}
			rec := hasWord(args, "-r") || hasWord(args, "-rf") || hasWord(args, "-fr") || hasWord(args, "--recursive")
			if rec && !scratchName(ops[1].s) {
				return true, c.name + " rm -r " + ops[1].s
			}
			return false, ""
		}},
	{ID: "remote-desktop-enabled", Level: LevelHigh, Category: CategorySystem, Description: "turning on remote desktop or screen sharing (the session reachable from the network)",
		Suggestions: []string{"Share the screen through a call the user starts", "Reach the machine over SSH"},
		names:       names("grdctl", "kickstart"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := strings.Join(c.lowerArgs(), " ")
			switch c.name {
			case "grdctl":
				if strings.Contains(j, "rdp enable") || strings.Contains(j, "vnc enable") {
					return true, "grdctl " + j
				}
			case "kickstart":
				if strings.Contains(j, "-activate") {
					return true, "Apple Remote Desktop activated"
				}
			}
			return false, ""
		}},
	{ID: "sandbox-widened", Level: LevelHigh, Category: CategoryPrivilege, Description: "giving a sandboxed app the whole file system, the session bus or every device",
		Suggestions: []string{"Grant the one folder the app needs (--filesystem=~/Documents/Notes)"},
		names:       names("flatpak"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 || ops[0].s != "override" {
				return false, ""
			}
			for _, w := range args {
				switch w.s {
				case "--filesystem=host", "--filesystem=host-os", "--filesystem=home", "--filesystem=/", "--device=all", "--socket=session-bus", "--socket=system-bus":
					return true, "flatpak override " + w.s
				}
			}
			return false, ""
		}},
	{ID: "editor-extension-untrusted", Level: LevelHigh, Category: CategoryRemoteExec, Description: "installing an editor extension from a downloaded package (it runs with the editor's rights)",
		Suggestions: []string{"Install extensions from the marketplace", "Build the project's own extension from its source"},
		names:       names("code", "code-insiders", "codium", "cursor", "windsurf"),
		match: func(a *analysis, c *cmd) (bool, string) {
			v, ok := optValue(c.args(), "", "install-extension")
			if ok && strings.Contains(v, "://") && !isLocalHost(hostOf(v)) {
				return true, "code --install-extension " + v // a package from any web site
			}
			if !ok || !strings.HasSuffix(lower(v), ".vsix") {
				return false, ""
			}
			p := a.absPath(v, c.cwd)
			if p == "" || a.inWork(p) {
				return false, "" // the project's own package
			}
			return true, "code --install-extension " + v
		}},
}

func init() { ruleSets = append(ruleSets, workstationRules) }

// othersPrefsDomain reports a macOS preferences domain of the system or
// of a well-known publisher's app (com.apple.dock, com.googlecode.iterm2,
// NSGlobalDomain): the user's settings, not a project's own tool's.
func othersPrefsDomain(d string) bool {
	l := lower(d)
	if l == "-g" || l == "-globaldomain" || l == "nsglobaldomain" {
		return true
	}
	parts := strings.Split(l, ".")
	if len(parts) < 2 {
		return false
	}
	switch parts[1] {
	case "apple", "googlecode", "google", "microsoft", "jetbrains", "mozilla", "docker", "github", "sublimetext", "spotify", "tinyspeck", "raycast",
		"runningwithcrayons", "agilebits", "1password", "brave", "operasoftware", "postmanlabs", "hnc", "lwouis", "knollsoft", "rectangleapp", "alacritty", "kapeli", "getdropbox", "obsproject":
		return true
	}
	return false
}
