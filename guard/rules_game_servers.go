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
	case "sv_pure":
		if len(f) > 1 && f[1] == "0" {
			return "file consistency checks off"
		}
	}
	return ""
}
