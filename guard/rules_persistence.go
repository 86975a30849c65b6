package guard

import (
	"path"
	"strings"
)

// --- persistence: what keeps running or comes back later ---

// knownServices are services developers commonly enable on their own
// machines; enabling one of them is set-up, not persistence.
var knownServices = map[string]bool{
	"docker": true, "containerd": true, "podman": true, "podman.socket": true, "docker.socket": true, "nginx": true, "apache2": true, "httpd": true,
	"postgresql": true, "mysql": true, "mariadb": true, "redis": true, "redis-server": true, "mongod": true, "ssh": true, "sshd": true,
	"cron": true, "crond": true, "chronyd": true, "ntp": true, "systemd-timesyncd": true, "libvirtd": true, "cups": true, "bluetooth": true,
	"NetworkManager": true, "syncthing": true, "snapd": true, "tailscaled": true, "k3s": true, "kubelet": true, "fail2ban": true,
	"ufw": true, "firewalld": true, "rabbitmq-server": true, "elasticsearch": true, "memcached": true, "php-fpm": true, "pipewire": true,
	"pipewire-pulse": true, "wireplumber": true, "gpg-agent": true, "gpg-agent.socket": true, "ssh-agent": true, "emacs": true,
	"fstrim.timer": true, "docker.service": true, "containerd.service": true, "nginx.service": true, "postgresql.service": true,
	"redis.service": true, "ssh.service": true, "sshd.service": true, "syncthing.service": true, "mpd": true, "jellyfin": true,
}

// startupLang returns the language of an interpreter's or editor's
// start-up file (IPython's startup folder, PYTHONSTARTUP's usual name,
// irb's, R's, Julia's, node's REPL, Emacs's), or "".
func startupLang(p string) string {
	switch {
	case strings.Contains(p, "/.ipython/") && strings.Contains(p, "/startup/") && strings.HasSuffix(p, ".py"),
		strings.HasSuffix(p, "/.pythonrc"), strings.HasSuffix(p, "/.pythonrc.py"), strings.HasSuffix(p, "/.pythonstartup"):
		return "python"
	case strings.HasSuffix(p, "/.irbrc"), strings.HasSuffix(p, "/.pryrc"):
		return "ruby"
	case strings.HasSuffix(p, "/.Rprofile"):
		return "r"
	case strings.HasSuffix(p, "/.julia/config/startup.jl"):
		return "julia"
	case strings.HasSuffix(p, "/.emacs"), strings.HasSuffix(p, "/.emacs.d/init.el"), strings.HasSuffix(p, "/.config/emacs/init.el"):
		return "elisp"
	}
	return ""
}

// untrustedPlace reports a program or library kept in a temporary or
// hidden location.
func untrustedPlace(s string) bool {
	return strings.HasPrefix(s, "/tmp/") || strings.HasPrefix(s, "/var/tmp/") || strings.HasPrefix(s, "/dev/shm/") ||
		strings.Contains(s, "/Downloads/") || strings.HasPrefix(s, "~/Downloads") ||
		strings.Contains(s, "/.") && !strings.Contains(s, "/.local/") && !strings.Contains(s, "/.cargo/") && !strings.Contains(s, "/./") ||
		strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// winUntrustedPlace reports a Windows program path in a folder anyone can
// write to or that holds downloads: Public, the temporary folder,
// ProgramData.
func winUntrustedPlace(s string) bool {
	l := strings.ReplaceAll(lower(s), `\`, "/")
	return strings.Contains(l, "/users/public/") || strings.Contains(l, "/appdata/local/temp/") || strings.Contains(l, "%temp%") ||
		strings.Contains(l, "$env:temp") || strings.Contains(l, ":/programdata/") || strings.Contains(l, "/c/programdata/")
}

// callsOut reports shell text that fetches from or sends to the network.
func callsOut(s string) bool {
	l := lower(s)
	for _, t := range [...]string{"curl ", "wget ", "nc ", "ncat ", "invoke-webrequest", "iwr ", "irm ", "/dev/tcp/"} {
		if strings.Contains(l, t) {
			return true
		}
	}
	return false
}

// agentSettingsWriters are the programs that write a coding agent's
// settings file in the forms agents use.
var agentSettingsWriters = names("jq", "python", "python3", "node", "echo", "printf", "tee", "sed", "cat", "mv", "cp", "perl", "sponge", "yq",
	"add-content", "set-content", "out-file", "copy-item", "move-item")

// agentSettingsWritten returns the coding agent's settings file a line
// writes (a redirection, a move or copy over it, an in-place edit, a
// dump back), only the user's own (~/.claude/settings.json) with
// userOnly.
func agentSettingsWritten(a *analysis, c *cmd, userOnly bool) string {
	f := ""
	src := a.srcLow()
	if strings.Contains(src, `\`) {
		src = strings.ReplaceAll(src, `\`, "/") // .codex\config.toml
	}
	for _, s := range [...]string{".claude/settings.json", ".claude/settings.local.json", ".gemini/settings.json", ".cursor/hooks.json", ".qwen/settings.json",
		".codex/config.toml", "claude_desktop_config.json", ".cursor/mcp.json", ".vscode/mcp.json", ".mcp.json", ".claude.json", ".cursor/cli-config.json"} {
		if strings.Contains(src, s) {
			f = s
		}
	}
	if f == "" {
		return ""
	}
	written := strings.Contains(src, "> ") || strings.Contains(src, ">/") || c.name == "mv" || c.name == "cp" || c.name == "tee" || c.name == "sponge" ||
		c.name == "add-content" || c.name == "set-content" || c.name == "out-file" || c.name == "copy-item" || c.name == "move-item" ||
		strings.Contains(src, "json.dump") || strings.Contains(src, "writefile") || hasPrefixWord(c.args(), "-i")
	if !written {
		return ""
	}
	if userOnly && !strings.Contains(src, "~/"+f) && !strings.Contains(src, "$home/"+f) && !strings.Contains(src, "${home}/"+f) &&
		!(a.home != "" && strings.Contains(src, lower(a.home)+"/"+f)) && !strings.Contains(src, "expanduser('~/"+f) && !strings.Contains(src, "expanduser(\"~/"+f) {
		return ""
	}
	return f
}

// backupJob reports cron entries that each run a backup script
// (backup-db.sh, /opt/app/bin/backup.sh) and nothing else.
func backupJob(text string) bool {
	n := 0
	for line := range strings.SplitSeq(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 6 || strings.HasPrefix(f[0], "#") {
			continue
		}
		n++
		if !strings.Contains(lower(path.Base(f[5])), "backup") || strings.ContainsAny(strings.Join(f[6:], " "), "|;&`$") && !strings.HasPrefix(strings.Join(f[6:], " "), ">>") {
			return false
		}
	}
	return n > 0
}

// Rules for what keeps running or comes back later (category persistence).
var persistenceRules = []*rule{
	{ID: "vm-startup-script-set", Level: LevelCritical, Category: CategoryPersistence, Description: "setting a production machine's startup script from a local file (it runs as root at every boot)",
		Suggestions: []string{"Change production machines through the deployment pipeline", "Review the script and apply it to a test machine first"},
		names:       names("gcloud"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) < 4 || ops[0].s != "compute" || ops[1].s != "instances" || ops[2].s != "add-metadata" && ops[2].s != "create" {
				return false, ""
			}
			v, ok := optValue(args, "", "metadata-from-file")
			if !ok || !strings.Contains(v, "startup-script=") && !strings.Contains(v, "windows-startup-script") {
				return false, ""
			}
			if !isProdName(ops[3].s) && !touchesProduction(c) {
				return false, ""
			}
			return true, "startup script of " + ops[3].s + " from " + v
		}},
	{ID: "agent-hook-planted", Level: LevelHigh, Category: CategoryPersistence, Description: "adding a hook to a coding agent's user settings (its command runs at every session or tool call, outside any review)",
		Suggestions: []string{"Add hooks to the project's own settings, where they are reviewed with the code", "Ask the user to add the hook"},
		names:       agentSettingsWriters,
		match: func(a *analysis, c *cmd) (bool, string) {
			if !a.srcLowHas("hooks") || !a.srcLowHas("command") {
				return false, ""
			}
			// the user's own settings (every project), not the project's
			// .claude/settings.json, which is reviewed with the code
			if f := agentSettingsWritten(a, c, true); f != "" {
				return true, "hooks in ~/" + f
			}
			return false, ""
		}},
	{ID: "agent-permissions-bypassed", Level: LevelCritical, Category: CategorySystem, Description: "switching a coding agent's permission checks off in its settings (every later command and edit runs without asking), or adding a tool server fetched from an arbitrary repository or URL",
		Suggestions: []string{"Leave the agent's permission mode to the user", "Allow the one command that is needed in the project's permission list"},
		names:       agentSettingsWriters,
		match: func(a *analysis, c *cmd) (bool, string) {
			what := agentSettingsWidened(a.srcLow())
			if what == "" {
				return false, ""
			}
			if f := agentSettingsWritten(a, c, false); f != "" {
				return true, what + " in " + f
			}
			return false, ""
		}},
	{ID: "shell-plugin-from-stranger", Level: LevelCritical, Category: CategoryPersistence, Description: "cloning a stranger's repository into a shell's or an editor's plugin folder (its code runs at every shell start or editor launch)",
		Suggestions: []string{"Install plugins from the plugin manager's reviewed list", "Read the plugin's code first, and pin it to a commit"},
		names:       names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub, args := gitSub(c)
			if sub != "clone" {
				return false, ""
			}
			ops := posArgs(args, optSpec{short: "bo", long: []string{"branch", "origin", "depth", "reference", "template", "config", "filter", "jobs"}})
			if len(ops) < 2 || !codeURL(ops[0].s) {
				return false, ""
			}
			dst := strings.ToLower(ops[1].s)
			for _, d := range [...]string{"zsh_custom", ".oh-my-zsh/custom/", ".oh-my-zsh/plugins/", ".zsh/plugins/", "/site/pack/", ".vim/pack/", ".tmux/plugins/",
				".config/fish/conf.d", ".bash_it/", ".oh-my-bash/custom/", ".zprezto/modules/", ".local/share/zinit/plugins/"} {
				if strings.Contains(dst, d) && (!strings.Contains(d, "pack/") || strings.Contains(dst, "/start/")) {
					return true, "git clone " + ops[0].s + " into " + ops[1].s
				}
			}
			return false, ""
		}},
	{ID: "ci-runner-registered", Level: LevelHigh, Category: CategoryPersistence, Description: "registering this machine as a CI runner, or installing one as a service (whoever can push a workflow runs code here)",
		Suggestions: []string{"Run CI on the provider's hosted runners, or on an isolated machine set up for it", "Let an administrator register runners"},
		names:       names("config.sh", "config.cmd", "svc.sh", "gitlab-runner", "act_runner", "forgejo-runner"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "config.sh", "config.cmd":
				// the Actions runner's own configuration script
				_, url := optValue(args, "", "url")
				_, tok := optValue(args, "", "token")
				if url && tok && !hasWord(args, "remove") {
					return true, c.name + " --url --token"
				}
			case "svc.sh":
				if len(ops) > 0 && ops[0].s == "install" {
					return true, "svc.sh install"
				}
			default:
				if len(ops) > 0 && (ops[0].s == "register" || ops[0].s == "install") {
					return true, c.name + " " + ops[0].s
				}
			}
			return false, ""
		}},
	{ID: "process-manager-boot", Level: LevelHigh, Category: CategoryPersistence, Description: "having a process manager start its saved programs at every boot (pm2 startup, forever-service)",
		Suggestions: []string{"Start the program by hand for this session", "Let the user install boot services"},
		names:       names("pm2", "forever-service"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) == 0 || hasWord(c.args(), "--help") {
				return false, ""
			}
			if c.name == "pm2" && ops[0].s == "startup" || c.name == "forever-service" && ops[0].s == "install" {
				return true, c.name + " " + joinWords(ops)
			}
			return false, ""
		}},
	{ID: "write-git-hook", Level: LevelHigh, Category: CategoryPersistence, Description: "installing a git hook (runs on every git operation)",
		Suggestions: []string{"Keep hooks in the repository (e.g. .githooks) and let the user enable them", "Run the script explicitly instead"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.writeTargets(c) {
				if t.class == wGitHook && !a.ownHook(c, t) {
					return true, t.raw
				}
			}
			return false, ""
		}},
	writeRule("path-shadow-command", LevelHigh, CategoryPersistence, "placing a program named like a system command first on PATH",
		[]string{"Give the program its own name", "Install it into the project (./bin) instead"}, false, wPathShadow),
	{ID: "git-setting-runs-more", Level: LevelHigh, Category: CategoryPersistence, Description: "hiding a second command in a git setting that runs a program (pager, editor, SSH command): it runs on every git call that uses the setting",
		Suggestions: []string{"Set the setting to the program alone", "Run the extra command yourself, once"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			k, v, ok := gitConfigSet(c)
			if !ok || !gitCommandKey(k) || strings.HasPrefix(k, "alias.") || strings.HasPrefix(k, "filter.") {
				return false, "" // (aliases and filters are scripts by design)
			}
			v = strings.TrimSpace(v)
			if strings.Contains(v, ";") || strings.Contains(v, "&&") || strings.Contains(v, "||") || strings.HasSuffix(v, "&") ||
				strings.Contains(v, "& ") || strings.Contains(v, "`") || strings.Contains(v, "$(") {
				return true, k + " = " + truncate(v, 80)
			}
			if a.gitConfigUserWide(c) && unusualProgram(v) {
				// diff.external ~/bin/wrap.sh, gpg.program /tmp/.g/gpg, an
				// editor with a shell escape: a program of its own, run by
				// every git call in every repository
				return true, k + " = " + truncate(v, 80)
			}
			return false, ""
		}},
	{ID: "git-hooks-path", Level: LevelHigh, Category: CategoryPersistence, Description: "pointing git hooks at a directory outside the repository",
		Suggestions: []string{"Keep hooks inside the repository (core.hooksPath .githooks)", "Review hooks before enabling them"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			k, v, ok := gitConfigSet(c)
			if ok && (k == "include.path" || strings.HasPrefix(k, "includeif.") && strings.HasSuffix(k, ".path")) {
				// include.path /tmp/x: settings (hooks, pagers, aliases)
				// anyone on the machine can write, read by every git call
				// --global include.path /work/project/.gitconfig: a file
				// the project's commits change, read by every repository
				// (a repository's own config including it is its own)
				p := a.absPath(v, c.cwd)
				return underTemp(p) || a.gitConfigUserWide(c) && p != "" && a.inWork(p), v
			}
			if !ok || k != "core.hookspath" && k != "init.templatedir" {
				// git clone/init --template=DIR copies DIR's hooks into
				// the new repository, where they run on checkout
				sub, args := gitSub(c)
				if sub != "clone" && sub != "init" {
					return false, ""
				}
				if v, ok = optValue(args, "", "template"); !ok {
					return false, ""
				}
			}
			p := a.absPath(v, c.cwd)
			if k == "core.hookspath" && a.gitConfigUserWide(c) && p != "" {
				// git config --global core.hooksPath /work/project/.githooks:
				// this project's hooks run in every repository of the user
				return true, "--global core.hooksPath " + v
			}
			if p == "" || a.inWork(p) {
				return false, ""
			}
			return !strings.HasPrefix(v, ".") || !a.inWork(p), v
		}},
	{ID: "install-over-distribution", Level: LevelHigh, Category: CategorySystem, Description: "installing a build into the distribution's own folders (/usr, /usr/bin), over files the package manager owns",
		Suggestions: []string{"Install under /usr/local or ~/.local (the default of most builds)", "Build a package, or stage with DESTDIR, and let the package manager install it"},
		names:       names("make", "gmake", "cmake", "gem", "ninja", "meson", "cargo"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			distro := func(v string) bool {
				switch strings.TrimSuffix(strings.Trim(v, `"'`), "/") {
				case "/usr", "", "/usr/bin", "/bin", "/sbin", "/usr/sbin", "/usr/lib", "/lib":
					return true
				}
				return false
			}
			for _, w := range args {
				if strings.HasPrefix(w.s, "DESTDIR=") {
					return false, "" // staged into a folder of its own
				}
			}
			switch c.name {
			case "make", "gmake":
				if c.asRoot && hasWord(args, "modules_install") {
					// kernel modules built here, into /lib/modules
					return true, "make modules_install as root"
				}
				if !hasWord(args, "install") {
					return false, ""
				}
				for _, w := range args {
					if k, v, ok := strings.Cut(w.s, "="); ok && (k == "PREFIX" || k == "prefix" || k == "BINDIR" || k == "bindir") && distro(v) && v != "" {
						return true, "make install " + w.s
					}
				}
			case "cmake", "meson", "ninja":
				if v, ok := optValue(args, "", "prefix"); ok && (hasWord(args, "--install") || hasWord(args, "install")) && distro(v) && v != "" {
					return true, c.name + " install --prefix " + v
				}
			case "gem":
				if v, ok := optValue(args, "-n", "bindir"); ok && hasWord(args, "install") && distro(v) && v != "" {
					return true, "gem install -n " + v
				}
			case "cargo":
				if v, ok := optValue(args, "", "root"); ok && len(args) > 0 && args[0].s == "install" && distro(v) && v != "" {
					return true, "cargo install --root " + v
				}
			}
			return false, ""
		}},
	{ID: "ssh-key-to-root", Level: LevelHigh, Category: CategoryPersistence, Description: "authorising a key for another machine's root account (a way in as root that outlives the session)",
		Suggestions: []string{"Log in as your own user and use sudo there", "Ask the machine's administrators to grant access"}, names: names("ssh-copy-id", "ssh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "ssh" {
				// ssh root@host 'cat >> /root/.ssh/authorized_keys': what
				// ssh-copy-id does, by hand
				j := c.argsText()
				if !strings.Contains(j, "authorized_keys") || !strings.Contains(j, ">>") && !strings.Contains(j, "tee ") {
					return false, ""
				}
				for _, w := range c.args() {
					if strings.HasPrefix(w.s, "root@") {
						return true, w.s
					}
				}
				if strings.Contains(j, "/root/.ssh/authorized_keys") {
					return true, "/root/.ssh/authorized_keys"
				}
				return false, ""
			}
			ops := posArgs(c.args(), optSpec{short: "iopFJ", long: []string{"i", "p", "o"}})
			for _, w := range ops {
				if strings.HasPrefix(w.s, "root@") {
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "systemd-unit-created", Level: LevelHigh, Category: CategoryPersistence, Description: "creating a new service or timer unit in an editor (systemctl edit --force): what it will run is typed where the firewall cannot see it",
		Suggestions: []string{"Write the unit file in the project and show it for review", "Run the program in the foreground instead"}, names: names("systemctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) < 2 || ops[0].s != "edit" || !hasWord(args, "--force") && !hasWord(args, "-f") {
				return false, ""
			}
			return true, "systemctl edit --force " + ops[1].s
		}},
	{ID: "systemd-enable-file", Level: LevelModerate, Category: CategoryPersistence, Description: "enabling a service from a unit file outside the system",
		Suggestions: []string{"Install unit files through a reviewed package or configuration", "Run the program in the foreground instead"}, names: names("systemctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) < 2 || ops[0].s != "enable" && ops[0].s != "link" {
				return false, ""
			}
			for _, w := range ops[1:] {
				if strings.Contains(w.s, "/") {
					return true, w.s
				}
			}
			return false, ""
		}},
	writeRule("write-ld-preload", LevelCritical, CategoryPersistence, "installing a library preloaded into every program (/etc/ld.so.preload)",
		[]string{"Use LD_PRELOAD for a single command instead", "Do not modify /etc/ld.so.preload"}, false, wLdPreload),
	writeRule("write-shell-startup", LevelHigh, CategoryPersistence, "modifying a shell start-up file",
		[]string{"Put project settings in a project-local .envrc or script", "Show the line to add and let the user add it"}, false, wShellRC),
	writeRule("write-tool-hook", LevelHigh, CategoryPersistence, "adding code every user's builds load (Maven's lib/ext, system-wide Gradle init scripts)",
		[]string{"Keep build logic in the project's own build files", "Show the file and let the user install it"}, false, wToolHook),
	writeRule("write-cron", LevelHigh, CategoryPersistence, "installing a scheduled job",
		[]string{"Show the cron entry and let the user install it", "Use a CI schedule for project tasks"}, false, wCron),
	writeRule("write-service", LevelHigh, CategoryPersistence, "installing a service or autostart entry",
		[]string{"Show the unit file and let the user install it", "Run the program in the foreground instead"}, false, wService),
	writeRule("write-authorized-keys", LevelCritical, CategoryPersistence, "adding SSH login keys or login commands (a remote backdoor)",
		[]string{"Let the user add keys to authorized_keys", "Use ssh-copy-id interactively"}, false, wAuthKeys),
	writeRule("write-ssh-config", LevelHigh, CategoryPersistence, "modifying SSH configuration or keys",
		[]string{"Let the user edit SSH configuration", "Use a project-local ssh config with -F"}, false, wSSHConfig),
	{ID: "persistence-remote-payload", Level: LevelCritical, Category: CategoryPersistence, Description: "installing downloaded code to run automatically",
		Suggestions: []string{"Download, review and install scripts by hand", "Pin and verify what is installed"}},
	{ID: "persistence-suspicious-job", Level: LevelHigh, Category: CategoryPersistence, Description: "scheduling a job that runs at boot or from a temporary or hidden location",
		Suggestions: []string{"Show the cron entry and let the user install it", "Keep scheduled programs in reviewed, permanent locations"}},
	{ID: "persistence-malicious-payload", Level: LevelCritical, Category: CategoryPersistence, Description: "installing a dangerous command to run automatically",
		Suggestions: []string{"Review what is installed into start-up files and schedules", "Do not install network shells or downloads as jobs"}},
	{ID: "k8s-foreign-workload", Level: LevelHigh, Category: CategoryPersistence, Description: "running in the cluster, on a schedule or restarted for ever, an image from an arbitrary registry",
		Suggestions: []string{"Run images from the project's own or an official registry", "Deploy through the reviewed manifests"}, names: names("kubectl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := posArgs(args, kubectlGlobal) // after --context, -n
			if len(ops) < 2 {
				return false, ""
			}
			if ops[0].s == "set" && ops[1].s == "image" && touchesProduction(c) && !dryRun(c) {
				// kubectl set image deployment/api api=docker.io/someone/api:latest
				// in production: whatever that tag points to next, from an
				// account the team does not run, serves production (a pinned
				// release, or the team's own cloud registry, is a deploy)
				for _, w := range ops[2:] {
					_, img, ok := strings.Cut(w.s, "=")
					if !ok {
						continue
					}
					h := lower(imageHost(img))
					name, tag := img, ""
					if i := strings.LastIndexByte(img, ':'); i > strings.LastIndexByte(img, '/') {
						name, tag = img[:i], img[i+1:]
					}
					if strings.Contains(name, "@sha256") || strings.HasSuffix(h, ".amazonaws.com") || strings.HasSuffix(h, ".azurecr.io") || strings.HasSuffix(h, ".pkg.dev") {
						continue
					}
					if tag == "" || tag == "latest" {
						return true, "production's image set to " + img
					}
				}
				return false, ""
			}
			if !(ops[0].s == "run" || ops[0].s == "create" && (ops[1].s == "cronjob" || ops[1].s == "deployment" || ops[1].s == "daemonset" || ops[1].s == "job")) {
				return false, ""
			}
			img, ok := optValue(args, "", "image")
			if !ok {
				return false, ""
			}
			if knownRegistry(imageHost(img)) {
				return false, "" // Docker Hub's short names, official registries
			}
			if ops[0].s == "create" || hasWord(args, "--restart=Always") {
				return true, img
			}
			return false, ""
		}},
	{ID: "shell-function-autoload", Level: LevelHigh, Category: CategoryPersistence, Description: "installing an autoloaded shell function that is downloaded or takes the name of a common command (it runs whenever that name is typed)",
		Suggestions: []string{"Give the function a name of its own", "Show the function and let the user install it"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.writeTargets(c) {
				name := a.autoloadedFunction(t.path)
				if name == "" {
					continue
				}
				if t.content.kind == flowRemote {
					return true, t.raw + " ← " + t.content.what
				}
				// a wrapper over a common command (ls with colours) is a
				// habit; one that also starts something hidden, in the
				// background or from the network is a foothold
				if (commonCommands[name] || coreCommands[name] || name == "cd" || name == "sudo" || fishEventFunctions[name]) && t.content.kind == flowText &&
					(callsOut(t.content.text) || strings.Contains(t.content.text, "/tmp/") || strings.Contains(t.content.text, "/.") || strings.Contains(t.content.text, "&;") || strings.Contains(t.content.text, "& ")) {
					return true, "the function " + name + " (" + t.raw + ")"
				}
			}
			return false, ""
		}},
	{ID: "editor-startup-command", Level: LevelHigh, Category: CategoryPersistence, Description: "putting a shell command into an editor's start-up file (it runs whenever the editor opens)",
		Suggestions: []string{"Keep editor settings to options and mappings", "Show the line and let the user add it"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.writeTargets(c) {
				if !editorStartup(t.path) {
					continue
				}
				if t.content.kind == flowText && runsHiddenProgram(t.content.text) {
					return true, t.raw // silent !/tmp/.v &
				}
				if t.content.kind == flowRemote {
					return true, t.raw + " ← " + t.content.what
				}
				if t.content.kind != flowText {
					continue
				}
				l := lower(t.content.text)
				// :!cmd, silent !cmd, system(), jobstart(), shell-command
				if strings.Contains(l, "!") && (callsOut(l) || strings.Contains(l, "rm -") || strings.Contains(l, "sh ")) ||
					strings.Contains(l, "system(") || strings.Contains(l, "jobstart(") || strings.Contains(l, "shell-command") || strings.Contains(l, "os.execute") {
					return true, t.raw
				}
			}
			return false, ""
		}},
	{ID: "crontab-install", Level: LevelModerate, Category: CategoryPersistence, Description: "replacing the user's crontab, or adding a job to it that runs by itself from then on",
		Suggestions: []string{"Show the cron entry and let the user install it", "Use a CI schedule for project tasks"}, names: names("crontab"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			for _, w := range args {
				switch w.s {
				case "-l", "-e", "-r", "-ir", "-ri", "--list", "--remove", "-V", "--help":
					return false, ""
				}
			}
			ops := c.operands()
			if c.in.kind == flowText && c.in.partial && len(ops) <= 1 && !suspiciousJob(c.in.text) {
				// the current crontab with a line added ((crontab -l;
				// echo JOB) | crontab -): nothing else is replaced, but
				// the job runs again and again by itself from now on
				// (a backup script's job only keeps copies)
				if backupJob(c.in.text) {
					return false, ""
				}
				return true, "a job added: " + truncate(strings.TrimSpace(c.in.text), 80)
			}
			if (len(ops) == 0 || len(ops) == 1 && ops[0].s == "-") && a.srcHas("crontab -l") && (a.srcHas("grep -v") || a.srcHas("sed ") && a.srcHas("/d")) &&
				!a.srcHas("echo") && !a.srcHas("printf") && !a.srcHas("<<") {
				// (crontab -l | grep -v 'old-job') | crontab -: the current
				// entries without one, nothing added; unless the one
				// dropped is the backup
				if src := a.srcLow(); hasAny(src, "backup", "pg_dump", "mysqldump", "restic", "borg", "snapshot", "rsnapshot") {
					return true, "the backup job removed"
				}
				return false, ""
			}
			if len(ops) > 0 || c.in.kind != flowNone {
				return true, ""
			}
			return false, ""
		}},
	{ID: "service-enable", Level: LevelHigh, Category: CategoryPersistence, Description: "enabling a service to start at boot or login",
		Suggestions: []string{"Run the program in the foreground for the task", "Show the unit and let the user enable it"}, names: names("systemctl", "rc-update", "update-rc.d", "chkconfig", "launchctl", "sv"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) < 2 && c.name != "launchctl" {
				return false, ""
			}
			switch c.name {
			case "systemctl":
				if ops[0].s != "enable" && ops[0].s != "reenable" && ops[0].s != "link" && ops[0].s != "preset" {
					return false, ""
				}
				for _, u := range ops[1:] {
					if !knownServices[u.s] && !knownServices[strings.TrimSuffix(u.s, ".service")] {
						return true, u.s
					}
				}
			case "launchctl":
				if len(ops) >= 2 && (ops[0].s == "load" || ops[0].s == "bootstrap" || ops[0].s == "enable" || ops[0].s == "submit") {
					return true, ops[len(ops)-1].s
				}
			case "rc-update", "update-rc.d", "chkconfig":
				if hasWord(args, "add") || hasWord(args, "enable") || hasWord(args, "on") || hasWord(args, "defaults") {
					if !knownServices[ops[0].s] {
						return true, ops[0].s
					}
				}
			}
			return false, ""
		}},
	{ID: "scheduled-transient", Level: LevelHigh, Category: CategoryPersistence, Description: "scheduling a program to run again and again (a timer, a login hook)",
		Suggestions: []string{"Run the program once, in the foreground", "Show the schedule and let the user install it"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name != "defaults" && len(c.wrappers) == 0 {
				return false, ""
			}
			args := c.args()
			for _, wr := range c.wrappers {
				// systemd-run is a wrapper: its options stay with it
				if strings.HasPrefix(wr, "systemd-run ") && (strings.Contains(wr, "--on-calendar") || strings.Contains(wr, "--on-boot") ||
					strings.Contains(wr, "--on-startup") || strings.Contains(wr, "--on-unit-")) {
					return true, wr
				}
			}
			switch c.name {
			case "systemd-run":
				for _, w := range args {
					for _, o := range [...]string{"--on-calendar", "--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-active"} {
						if w.s == o || strings.HasPrefix(w.s, o+"=") {
							if o == "--on-active" && !hasPrefixWord(args, "--timer-property") {
								continue // once, after a delay
							}
							return true, w.s
						}
					}
				}
			case "defaults":
				// macOS login and logout hooks run a script as root
				j := lower(joinWords(args))
				if strings.HasPrefix(j, "write") && (strings.Contains(j, "loginhook") || strings.Contains(j, "logouthook")) {
					return true, "login hook"
				}
			}
			return false, ""
		}},
	{ID: "credential-plugin-untrusted", Level: LevelHigh, Category: CategoryPersistence, Description: "making a client fetch its credentials by running a program from a temporary or hidden place (it runs at every login, with the credentials)",
		Suggestions: []string{"Point the credential plugin at an installed, reviewed program"}, names: names("kubectl", "aws"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "kubectl":
				ops := posArgs(args, kubectlGlobal)
				if len(ops) < 2 || ops[0].s != "config" || ops[1].s != "set-credentials" {
					return false, ""
				}
				if v, ok := optValue(args, "", "exec-command"); ok && untrustedPlace(v) {
					return true, "kubectl config set-credentials --exec-command=" + v
				}
			case "aws":
				// aws configure set credential_process /tmp/x
				ops := c.operands()
				if len(ops) >= 4 && ops[0].s == "configure" && ops[1].s == "set" && strings.HasSuffix(ops[2].s, "credential_process") {
					if f := strings.Fields(ops[3].s); len(f) > 0 && untrustedPlace(f[0]) {
						return true, "aws configure set credential_process " + f[0]
					}
				}
			}
			return false, ""
		}},
	{ID: "startup-code-remote", Level: LevelHigh, Category: CategoryPersistence, Description: "writing into an interpreter's or editor's start-up file code that fetches and runs code (it runs at every start)",
		Suggestions: []string{"Keep start-up files to settings", "Install what you need through a package manager"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.writeTargets(c) {
				lang := startupLang(t.path)
				if lang == "" || t.content.kind != flowText {
					continue
				}
				if sc := scanScript(lang, t.content.text); sc.remote != "" || sc.revShell != "" {
					return true, t.raw
				}
				if lang == "elisp" && strings.Contains(t.content.text, "(load \"http") {
					return true, t.raw
				}
			}
			return false, ""
		}},
	{ID: "tunnel-service-install", Level: LevelHigh, Category: CategoryPersistence, Description: "installing a tunnel client as a service (it keeps the machine reachable from outside after every boot)",
		Suggestions: []string{"Run the tunnel in the foreground while it is needed"}, names: names("cloudflared", "ngrok", "frpc", "chisel", "bore"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) >= 2 && ops[0].s == "service" && ops[1].s == "install" {
				return true, c.name + " service install"
			}
			return false, ""
		}},
	{ID: "app-setting-hook", Level: LevelHigh, Category: CategoryPersistence, Description: "storing in an application's settings a script or command to run, from a temporary or hidden place",
		Suggestions: []string{"Point the setting at a reviewed script in the project"}, names: names("defaults"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) < 4 || ops[0].s != "write" {
				return false, ""
			}
			k := lower(ops[2].s)
			if !strings.Contains(k, "script") && !strings.Contains(k, "command") && !strings.Contains(k, "hook") {
				return false, ""
			}
			for _, w := range ops[3:] {
				if strings.HasPrefix(w.s, "/") && untrustedPlace(w.s) || strings.HasPrefix(w.s, "~/.") {
					return true, ops[1].s + " " + ops[2].s + " " + w.s
				}
			}
			return false, ""
		}},
	{ID: "tailnet-join-by-key", Level: LevelHigh, Category: CategoryPersistence, Description: "joining this machine to a private network with an auth key spelled out, or as an SSH server or exit node (whoever runs that network reaches the machine)",
		Suggestions: []string{"Log in interactively with tailscale up and check the network's name", "Take the key from the organisation's secret store"}, names: names("tailscale", "tailscale.exe"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if len(args) == 0 || args[0].s != "up" && args[0].s != "login" {
				return false, ""
			}
			key, ok := optValue(args, "", "authkey")
			if !ok {
				key, ok = optValue(args, "", "auth-key")
			}
			if !ok {
				return false, ""
			}
			literal := strings.HasPrefix(key, "tskey-")
			exposes := hasWord(args, "--ssh") || hasWord(args, "--advertise-exit-node") || hasWord(args, "--unattended")
			return literal || exposes, "tailscale " + args[0].s + " --authkey"
		}},
	{ID: "user-linger", Level: LevelHigh, Category: CategoryPersistence, Description: "letting a user's services run without a login session",
		Suggestions: []string{"Run the service only while you are logged in", "Ask an administrator to set up a system service"}, names: names("loginctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			return hasWord(c.args(), "enable-linger"), "enable-linger"
		}},
	{ID: "account-key-added", Level: LevelHigh, Category: CategoryPersistence, Description: "adding a login key or long-lived credential to an account",
		Suggestions: []string{"Let the account owner add keys", "Use short-lived credentials"}, names: names("gh", "aws", "glab", "gcloud", "az"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := c.argsText()
			switch {
			case (c.name == "gh" || c.name == "glab") && (strings.HasPrefix(j, "ssh-key add") || strings.HasPrefix(j, "gpg-key add")):
				// the user's own key, from their ~/.ssh, added to their account
				ops := positional(c.args()[2:])
				if len(ops) > 0 && strings.HasPrefix(j, "ssh-key add") && (strings.Contains(ops[0].s, "/.ssh/") || strings.Contains(ops[0].s, `\.ssh\`)) && strings.HasSuffix(ops[0].s, ".pub") {
					return false, ""
				}
				// gpg --armor --export dev@acme.com | gh gpg-key add -:
				// the user's own public signing key, straight from gpg
				if strings.HasPrefix(j, "gpg-key add") && (len(ops) == 0 || ops[0].s == "-") {
					if p := prevStage(c); p != nil && p.name == "gpg" && hasWord(p.args(), "--export") {
						return false, ""
					}
				}
				return true, j
			case (c.name == "gh" || c.name == "glab") && (strings.HasPrefix(j, "deploy-key add") || strings.HasPrefix(j, "repo deploy-key add")) &&
				(strings.Contains(j, "--can-push") || strings.Contains(j, "--allow-write") || strings.Contains(j, " -w")):
				return true, j
			case c.name == "aws" && (strings.Contains(j, "iam create-access-key") || strings.Contains(j, "iam create-login-profile") || strings.Contains(j, "iam create-user")):
				return true, j
			case c.name == "gcloud" && strings.Contains(j, "service-accounts keys create"):
				return true, j
			case c.name == "az" && (strings.Contains(j, "ad sp credential reset") || strings.HasPrefix(j, "ad sp create-for-rbac") && !strings.Contains(j, "--role")):
				return true, j
			}
			return false, ""
		}},
	{ID: "git-command-untrusted", Level: LevelHigh, Category: CategoryPersistence, Description: "making git run a program from a temporary or hidden place",
		Suggestions: []string{"Point git settings at reviewed programs", "Keep hooks and helpers in the repository"}, names: names("git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			k, v, ok := gitConfigSet(c)
			if !ok || !gitCommandKey(k) {
				return false, ""
			}
			cmdline := strings.TrimPrefix(strings.TrimSpace(v), "!")
			if k == "credential.helper" {
				// credential.helper 'cache --socket ~/.cache/git/sock':
				// git's own helper; its options name its files
				switch f := strings.Fields(cmdline); {
				case len(f) > 0 && (f[0] == "cache" || f[0] == "store" || f[0] == "osxkeychain" || f[0] == "libsecret" || f[0] == "manager" || f[0] == "manager-core" || f[0] == "wincred"):
					return false, ""
				}
			}
			// the user's own keys in ~/.ssh are what an SSH command
			// is expected to name
			checked := strings.NewReplacer("~/.ssh/", "~/ssh/", "$HOME/.ssh/", "$HOME/ssh/").Replace(cmdline)
			if untrustedPlace(checked) || winUntrustedPlace(checked) {
				return true, k + " " + v
			}
			// a shell alias that reaches the network runs that call on
			// every use of a command people type all day
			if strings.HasPrefix(strings.TrimSpace(v), "!") && callsOut(cmdline) {
				return true, k + " " + v
			}
			return false, ""
		}},
	{ID: "env-hijack-persistent", Level: LevelHigh, Category: CategoryPersistence, Description: "persistently putting a temporary or hidden directory on PATH or preloading a library",
		Suggestions: []string{"Add project tools to PATH for one command only", "Install tools into a reviewed location"}, names: names("set", "launchctl", "setx", "systemctl", "fish_add_path"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "fish_add_path" {
				// fish_add_path DIR: into the universal fish_user_paths,
				// for every fish from now on, unless told otherwise
				if hasWord(args, "-g") || hasWord(args, "--global") || hasWord(args, "-P") || hasWord(args, "--path") || hasWord(args, "-n") || hasWord(args, "--dry-run") {
					return false, ""
				}
				for _, w := range c.operands() {
					// tools' own hidden folders (~/.bun/bin, ~/.deno/bin)
					// are where they install; a cache or a temporary
					// folder is not
					if underTemp(w.s) || strings.Contains(w.s, "/Downloads/") || strings.Contains(w.s, "/.cache/") {
						return true, "fish_add_path " + w.s
					}
				}
				return false, ""
			}
			if c.name == "systemctl" {
				// systemctl set-environment NAME=VALUE: every service the
				// manager starts from now on gets it
				ops := c.operands()
				if len(ops) < 2 || ops[0].s != "set-environment" {
					return false, ""
				}
				for _, w := range ops[1:] {
					k, v, _ := strings.Cut(w.s, "=")
					if strings.HasPrefix(k, "LD_") || strings.HasPrefix(k, "DYLD_") || (k == "PATH" || k == "PYTHONPATH" || k == "NODE_OPTIONS") && untrustedPlace(v) {
						return true, w.s
					}
				}
				return false, ""
			}
			universal := c.name == "launchctl" && len(args) > 0 && args[0].s == "setenv"
			for _, w := range args {
				if w.s == "-U" || w.s == "-Ux" || w.s == "-xU" || w.s == "--universal" {
					universal = true
				}
			}
			if !universal {
				return false, ""
			}
			ops := c.operands()
			if c.name == "launchctl" && len(ops) > 0 {
				ops = ops[1:]
			}
			if len(ops) < 2 {
				return false, ""
			}
			switch ops[0].s {
			case "fish_user_paths", "PATH", "LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "PYTHONPATH", "NODE_OPTIONS", "PERL5LIB", "RUBYOPT":
				for _, v := range ops[1:] {
					if untrustedPlace(v.s) || strings.HasPrefix(ops[0].s, "LD_") || strings.HasPrefix(ops[0].s, "DYLD_") {
						return true, ops[0].s + " " + v.s
					}
				}
			}
			return false, ""
		}},
	{ID: "python-startup-hook", Level: LevelHigh, Category: CategoryPersistence, Description: "installing code that runs every time Python starts (.pth, sitecustomize)",
		Suggestions: []string{"Install a package with pip instead", "Import the module explicitly"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, r := range c.redirs {
				if r.isOutput() && (strings.HasSuffix(r.w.s, ".pth") || strings.HasSuffix(r.w.s, "/sitecustomize.py") || strings.HasSuffix(r.w.s, "/usercustomize.py")) {
					return true, r.w.s
				}
			}
			for _, t := range a.writeTargets(c) {
				if strings.HasSuffix(t.raw, ".pth") && strings.Contains(t.raw, "-packages") || strings.HasSuffix(t.raw, "/sitecustomize.py") || strings.HasSuffix(t.raw, "/usercustomize.py") {
					return true, t.raw
				}
			}
			return false, ""
		}},
	{ID: "shadowing-function-saved", Level: LevelHigh, Category: CategoryPersistence, Description: "saving a function that takes the place of a command and also reaches the network",
		Suggestions: []string{"Do not override standard commands in saved functions", "Review the function body before saving it"},
		names:       names("funcsave", "autoload"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, w := range c.operands() {
				body, ok := a.funcBodies[w.s]
				if ok && (shadowsCommand(w.s, body) || credentialPrompts[w.s] || fishEventFunctions[w.s]) && (reachesNetwork(body) || runsFromUntrusted(body) || runsHomeProgram(body)) {
					// (ls or git as a function that also starts a hidden
					// program: it runs at every use)
					// sudo as a function: whatever password it is given
					// goes where the function says
					return true, w.s
				}
			}
			return false, ""
		}},
	{ID: "config-hook-payload", Level: LevelHigh, Category: CategoryPersistence, Description: "writing into a tool's settings a hook, command or package source that runs a download or a hidden program",
		Suggestions: []string{"Show the setting and let the user add it", "Keep hooks pointing at reviewed scripts in the project"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.writeTargets(c) {
				if t.class != wNone || t.content.kind != flowText || t.path == "" || !a.toolSettingsFile(t.path) {
					continue
				}
				if d := payloadInSettings(t.content.text); d != "" {
					return true, t.path + ": " + d
				}
				if packageSettingsFile(t.path) {
					if u := foreignPackageSource(t.content.text); u != "" {
						return true, t.path + ": packages from " + u
					}
				}
			}
			return false, ""
		}},
	{ID: "setting-command-payload", Level: LevelHigh, Category: CategoryPersistence, Description: "storing a setting or package source that runs a hidden program or fetches from a bare address",
		Suggestions: []string{"Show the setting and let the user add it", "Keep package sources on the usual registries over HTTPS"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if settingCommand(c) {
				// npm config set node-options ..., gem sources -a URL
				if d := payloadInSettings(c.name + " " + c.argsText()); d != "" {
					return true, c.base + ": " + d
				}
				if u := foreignPackageSource(c.argsText()); u != "" && !narrowSource(c) {
					return true, c.base + ": packages or fetches from " + u
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, persistenceRules) }

// shadowsCommand reports a function body that runs the command it is
// named after (command NAME, builtin NAME): the function takes that
// command's place in every later shell.
func shadowsCommand(name, body string) bool {
	return strings.Contains(body, "command "+name) || strings.Contains(body, "builtin "+name) || strings.Contains(body, "/usr/bin/"+name)
}

// credentialPrompts are commands that ask for a password or unlock keys:
// a function taking their name sees what is typed into them.
var credentialPrompts = map[string]bool{
	"sudo": true, "su": true, "doas": true, "ssh": true, "passwd": true, "gpg": true, "ssh-add": true, "pass": true, "op": true, "login": true,
}

// runsFromUntrusted reports shell text that names a program or file in a
// temporary or hidden place.
func runsFromUntrusted(body string) bool {
	for _, f := range strings.FieldsFunc(body, func(r rune) bool {
		return r == ' ' || r == ';' || r == '\n' || r == '|' || r == '&' || r == '(' || r == '"' || r == '\''
	}) {
		if (strings.HasPrefix(f, "/") || strings.HasPrefix(f, "~/") || strings.HasPrefix(f, "$HOME/")) && untrustedPlace(f) {
			return true
		}
	}
	return false
}

// runsHomeProgram reports shell text that runs, as one of its commands, a
// program kept in the home or a temporary folder (~/.local/bin/track,
// $HOME/.cache/x): in a function that takes a command's place, a program
// of its own started at every use.
func runsHomeProgram(body string) bool {
	for _, seg := range strings.FieldsFunc(body, func(r rune) bool { return r == ';' || r == '|' || r == '&' || r == '\n' }) {
		f := strings.Fields(seg)
		for len(f) > 0 && (f[0] == "and" || f[0] == "or" || f[0] == "not" || f[0] == "command" || f[0] == "exec" || f[0] == "nohup") {
			f = f[1:]
		}
		if len(f) == 0 {
			continue
		}
		p := strings.Trim(f[0], `"'`)
		for _, pre := range [...]string{"~/", "$HOME/", "/home/", "/Users/", "/tmp/", "/var/tmp/", "/dev/shm/"} {
			if strings.HasPrefix(p, pre) {
				return true
			}
		}
	}
	return false
}

// reachesNetwork reports code that contacts another machine or pushes.
func reachesNetwork(body string) bool {
	for _, f := range strings.FieldsFunc(body, func(r rune) bool { return r == ' ' || r == ';' || r == '\n' || r == '|' || r == '&' || r == '(' }) {
		switch f {
		case "curl", "wget", "nc", "ncat", "socat", "ssh", "scp", "rsync", "push", "ftp", "telnet":
			return true
		}
	}
	return false
}

// knownRegistry reports a container registry run by a cloud or a
// project's forge, or this machine.
func knownRegistry(host string) bool {
	h := lower(host)
	if i := strings.IndexByte(h, ':'); i >= 0 {
		h = h[:i]
	}
	switch h {
	case "docker.io", "registry-1.docker.io", "ghcr.io", "gcr.io", "quay.io", "registry.k8s.io", "k8s.gcr.io", "mcr.microsoft.com",
		"public.ecr.aws", "registry.gitlab.com", "localhost", "127.0.0.1", "kind-registry", "registry.access.redhat.com", "nvcr.io",
		// distributions' own registries
		"registry.fedoraproject.org", "registry.opensuse.org", "registry.suse.com", "container-registry.oracle.com":
		return true
	}
	return strings.HasSuffix(h, ".amazonaws.com") || strings.HasSuffix(h, ".azurecr.io") || strings.HasSuffix(h, ".pkg.dev") || strings.HasSuffix(h, ".gcr.io")
}

// editorStartup reports an editor's start-up file: vim, neovim, emacs.
func editorStartup(p string) bool {
	base := path.Base(p)
	switch base {
	case ".vimrc", ".gvimrc", ".exrc", "_vimrc", ".emacs", "init.el", "init.vim", "init.lua", ".nexrc":
		return base != "init.lua" || strings.Contains(p, "/nvim/")
	}
	return strings.Contains(p, "/.vim/plugin/") || strings.Contains(p, "/nvim/plugin/")
}

// autoloadedFunction returns the name of the function a file defines when
// the shell loads it by name on first use: fish's functions folder, and
// the usual zsh fpath folders; "" for any other file.
func (a *analysis) autoloadedFunction(p string) string {
	rel, _, ok := a.homeRel(p)
	if !ok {
		return ""
	}
	for _, dir := range [...]string{".config/fish/functions/", ".zfunc/", ".zsh/functions/", ".zfunctions/", ".oh-my-zsh/custom/functions/"} {
		if name, ok := strings.CutPrefix(rel, dir); ok && name != "" && !strings.Contains(name, "/") {
			return strings.TrimSuffix(name, ".fish")
		}
	}
	return ""
}

// fishEventFunctions are the functions fish itself calls: at every
// prompt, at start, for an unknown command.
var fishEventFunctions = map[string]bool{"fish_prompt": true, "fish_right_prompt": true, "fish_greeting": true, "fish_title": true,
	"fish_command_not_found": true, "fish_mode_prompt": true}

// runsHiddenProgram reports editor start-up code whose shell escape (!)
// starts a program kept in a temporary folder or under a hidden name:
// nothing an editor plugin installs, what a foothold hides as.
func runsHiddenProgram(text string) bool {
	for i := strings.IndexByte(text, '!'); i >= 0; {
		rest := strings.TrimSpace(text[i+1:])
		f := strings.Fields(rest + " ")[0]
		if strings.HasPrefix(f, "/tmp/") || strings.HasPrefix(f, "/dev/shm/") || strings.HasPrefix(f, "/var/tmp/") || strings.Contains(f, "/.") && !strings.Contains(f, "/../") {
			return true
		}
		j := strings.IndexByte(text[i+1:], '!')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// unusualProgram reports a setting's command that runs a program from a
// place no package installs to (the home directory, a temporary or
// shared-data folder), or escapes to a shell to run one, or writes what
// passes through it to a temporary file.
func unusualProgram(v string) bool {
	l := strings.ToLower(strings.ReplaceAll(v, `\`, "/"))
	if strings.Contains(l, "!~/") || strings.Contains(l, "!/") {
		return true
	}
	f := strings.Trim(strings.Fields(l + " ")[0], `"'`)
	if len(f) > 3 && f[0] == '/' && f[2] == ':' {
		f = f[1:] // /c:/users/...: a Windows path as the analysis spells it
	}
	if !strings.ContainsAny(f, "/") {
		return false // a program found on PATH (code --wait, delta, less)
	}
	for _, p := range [...]string{"/usr/", "/bin/", "/opt/", "/snap/", "/nix/", "/c/program files", "c:/program files", "/applications/", "/library/"} {
		if strings.HasPrefix(f, p) || strings.Contains(f, "program files") {
			return false
		}
	}
	return strings.HasPrefix(f, "~/") || strings.HasPrefix(f, "$home") || strings.HasPrefix(f, "$env:userprofile") || strings.HasPrefix(f, "/home/") ||
		strings.HasPrefix(f, "/users/") || strings.HasPrefix(f, "%userprofile%") || len(f) > 9 && f[1] == ':' && strings.HasPrefix(f[2:], "/users/")
}
