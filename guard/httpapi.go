package guard

import (
	"strings"
)

// --- destruction through remote APIs, forge CLIs and orchestrators ---

// httpMethod returns the method a curl, wget, httpie or gh api call uses
// ("" for the default GET/POST).
func httpMethod(c *cmd) string {
	args := c.args()
	switch c.name {
	case "curl":
		if v, ok := optValue(args, "-X", "request"); ok {
			return strings.ToUpper(v)
		}
	case "wget":
		for _, w := range args {
			if v, ok := strings.CutPrefix(w.s, "--method="); ok {
				return strings.ToUpper(v)
			}
		}
		if v, ok := optValue(args, "", "method"); ok {
			return strings.ToUpper(v)
		}
	case "http", "https", "xh":
		for _, w := range args {
			switch u := strings.ToUpper(w.s); u {
			case "DELETE", "PUT", "PATCH", "POST":
				return u
			}
		}
	case "gh", "glab":
		if v, ok := optValue(args, "-X", "method"); ok {
			return strings.ToUpper(v)
		}
	}
	return ""
}

// forgeAPIReads reports a gh or glab api call that only reads: no method
// given and no field or input (which make it a POST), or GET named.
func forgeAPIReads(c *cmd) bool {
	args := c.args()
	if m := httpMethod(c); m != "" {
		return m == "GET"
	}
	for _, w := range args {
		switch {
		case w.s == "-f" || w.s == "-F" || w.s == "--input" || w.s == "-r":
			return false
		case strings.HasPrefix(w.s, "--field") || strings.HasPrefix(w.s, "--raw-field") || strings.HasPrefix(w.s, "--input=") ||
			strings.HasPrefix(w.s, "-f") && len(w.s) > 2 || strings.HasPrefix(w.s, "-F") && len(w.s) > 2:
			return false
		}
	}
	return true
}
