package guard

import (
	"strings"
)

// Game servers driven over RCON (rcon, mcrcon, rcon-cli): a live server
// stopped, cheats switched on, its join password cleared, a player made
// an operator. The same commands on a server on this machine (the
// developer's test server) and status queries (list, status) pass.
var gameServerRules = []*rule{
	{ID: "game-server-changed", Level: LevelHigh, Category: CategorySystem, Description: "stopping a live game server or weakening it over RCON (cheats on, its password cleared, operators added, the whitelist off)",
		Suggestions: []string{"Change live servers through their deployment, in a maintenance window", "Try the command on a local test server"},
		names:       names("rcon", "mcrcon", "rcon-cli", "rcon.exe"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			host := ""
			for i, w := range args {
				switch w.s {
				case "-a", "-H", "--host", "--address":
					if i+1 < len(args) {
						host = hostOf(args[i+1].s)
						if host == "" {
							host = args[i+1].s
						}
					}
				}
			}
			if host == "" || isLocalHost(host) || loopback(host) {
				return false, ""
			}
			for _, w := range c.operands() {
				if w.s == host || strings.HasPrefix(w.s, host+":") {
					continue
				}
				if what := rconChange(lower(strings.TrimSpace(w.s))); what != "" {
					return true, what + " on " + host
				}
			}
			return false, ""
		}},
	{ID: "game-server-security-off", Level: LevelHigh, Category: CategorySystem, Description: "editing a game server's settings to switch its protections off: account authentication (online-mode), the whitelist, anti-cheat (VAC's -insecure), cheats on, a guessable RCON password",
		Suggestions: []string{"Change a live server's settings through its deployment, reviewed", "Try it on a local test server in the project"},
		names:       names("sed", "perl", "echo", "printf", "tee", "set-content"),
		match: func(a *analysis, c *cmd) (bool, string) {
			l := a.srcLow()
			what := ""
			switch {
			case strings.Contains(l, "online-mode=false") || strings.Contains(l, "online_mode: false") || strings.Contains(l, "online_mode=false"):
				what = "account authentication off (online-mode false)"
			case strings.Contains(l, "white-list=false") || strings.Contains(l, "enforce-whitelist=false"):
				what = "the whitelist off"
			case strings.Contains(l, "sv_cheats 1") || strings.Contains(l, "sv_cheats \"1\""):
				what = "cheats on"
			case strings.Contains(l, " -insecure") && (strings.Contains(l, "srcds") || strings.Contains(l, "serverfiles") || strings.Contains(l, "start.sh")):
				what = "VAC off (-insecure)"
			case strings.Contains(l, "rcon.password=") && hasAny(l, "rcon.password=minecraft", "rcon.password=password", "rcon.password=admin", "rcon.password=changeme", "rcon.password=123"):
				what = "a guessable RCON password"
			}
			if what == "" {
				return false, ""
			}
			for _, w := range c.operands() {
				if strings.HasPrefix(w.s, "/") && a.classifyUnder(w, c.cwd, false) == pcInside {
					return false, "" // the project's own test server
				}
				if winIsWindowsPath(strings.ToLower(strings.ReplaceAll(w.s, `\`, "/"))) {
					if cl, _ := a.winClassify(a.winAbs(w.s)); cl == wpInside || cl == wpWorkDir {
						return false, ""
					}
				}
			}
			return true, what
		}},
}

func init() { ruleSets = append(ruleSets, gameServerRules) }

// rconChange returns what an RCON command changes on a live server, or "".
func rconChange(cmd string) string {
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return ""
	}
	switch f[0] {
	case "stop", "shutdown", "quit", "exit":
		if len(f) == 1 {
			return "the server stopped"
		}
	case "sv_cheats":
		if len(f) > 1 && f[1] != "0" {
			return "cheats switched on"
		}
	case "sv_password":
		if len(f) == 1 || strings.Trim(f[1], `"'`) == "" {
			return "the join password cleared"
		}
	case "op":
		if len(f) > 1 {
			return "a player made an operator"
		}
	case "whitelist":
		if len(f) > 1 && f[1] == "off" {
			return "the whitelist switched off"
		}
	case "lp", "luckperms":
		// lp group default permission set * true: every permission, to
		// every player
		if strings.Contains(cmd, "permission set * true") || strings.Contains(cmd, "permission set '*' true") {
			return "every permission granted"
		}
	case "sv_pure":
		if len(f) > 1 && f[1] == "0" {
			return "file consistency checks off"
		}
	}
	return ""
}
