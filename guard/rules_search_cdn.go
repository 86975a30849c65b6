package guard

import (
	"strings"
)

// Search indexes and caches in front of a live site: Elasticsearch's
// Curator deleting indices, an Algolia key that can delete or reconfigure
// indexes, development settings imported over a production index, a
// Varnish cache banned wholesale or its lifetimes set to zero, a Fastly
// service's origin removed. Dry runs, search-only keys, one URL purged
// and a cache on this machine pass.
var searchCDNRules = []*rule{
	{ID: "cdn-cache-purged", Level: LevelHigh, Category: CategorySystem, Description: "purging everything a production CDN caches at once (every request goes to the origin until the cache fills again)",
		Suggestions: []string{"Purge the paths or keys that changed (or soft-purge them)", "Purge in a quiet hour, after checking the origin can take the load"},
		// (a CloudFront invalidation of /* after a deploy is routine)
		names: names("fastly", "az"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := plainWords(c.lowerArgs())
			every := func(paths []string) bool {
				for _, p := range paths {
					if p == "/*" || p == "*" || p == "/" {
						return true
					}
				}
				return false
			}
			var target string
			switch {
			case c.name == "fastly" && len(ops) > 0 && ops[0] == "purge" && hasWord(args, "--all"):
				target = c.argsText()
			case c.name == "az" && len(ops) > 2 && (ops[0] == "afd" || ops[0] == "cdn") && ops[1] == "endpoint" && ops[2] == "purge":
				if every(optAll(args, "content-paths")) {
					target = c.argsText()
				}
			}
			if target == "" || scratchName(target) || strings.Contains(lower(target), "staging") {
				return false, ""
			}
			return true, c.name + " purging everything cached"
		}},
	{ID: "search-or-cache-disrupted", Level: LevelHigh, Category: CategorySystem, Description: "deleting a live search index's contents, reconfiguring it, minting a key that can, or emptying or disabling the cache in front of a live site",
		Suggestions: []string{"Purge the URLs that changed; ban by a narrow pattern", "Run Curator with --dry-run first; change index settings through the reviewed configuration"},
		names:       append(names("curator_cli", "curator", "algolia", "varnishadm", "fastly"), httpClients...),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			low := c.lowerArgs()
			ops := plainWords(low)
			switch c.name {
			case "curator_cli", "curator":
				if hasWord(args, "--dry-run") {
					return false, ""
				}
				if c.name == "curator_cli" && hasAnyWord(low, "delete_indices") {
					if h, _ := optValue(args, "", "host"); h != "" && (isLocalHost(h) || h == "localhost") {
						return false, ""
					}
					if f, _ := optValue(args, "", "filter_list"); strings.Contains(f, `"age"`) || strings.Contains(f, "'age'") {
						return false, "" // retention: indices older than a date, what the cluster keeps anyway
					}
					return true, "curator_cli delete_indices"
				}
			case "algolia":
				if len(ops) > 1 && ops[0] == "apikeys" && ops[1] == "create" {
					if v, ok := optValue(args, "", "acl"); ok && hasAny(lower(v), "deleteindex", "deleteobject", "editsettings") {
						return true, "an Algolia key allowed " + v
					}
				}
				if len(ops) > 2 && ops[0] == "settings" && ops[1] == "import" && (prodMarker(ops[2]) || isProdName(ops[2])) {
					return true, "settings imported over " + ops[2]
				}
			case "varnishadm":
				if t, _ := optValue(args, "-T", ""); !c.remote && (t == "" || hostOf(t) == "localhost" || loopback(hostOf(t))) {
					return false, "" // the developer's own cache, on this machine
				}
				j := strings.Join(low, " ")
				if i := strings.Index(j, "ban req.url ~ "); i >= 0 {
					switch f := strings.Fields(j[i+len("ban req.url ~ "):]); {
					case len(f) == 0:
					case f[0] == "." || f[0] == "/" || f[0] == "^/" || f[0] == ".*" || f[0] == "^" || f[0] == `"."` || f[0] == `"/"`:
						return true, "every object of a live cache banned"
					}
				}
				if strings.Contains(j, "ban obj.status") {
					return true, "every object of a live cache banned"
				}
				if strings.Contains(j, "param.set default_ttl 0") || strings.Contains(j, "param.set default_grace 0") {
					return true, "a live cache's lifetimes set to zero"
				}
			case "fastly":
				if len(ops) > 1 && ops[0] == "backend" && ops[1] == "delete" {
					return true, "a Fastly service's origin removed"
				}
			default: // an HTTP client
				return searchAPIChange(c)
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, searchCDNRules) }

// searchAPIChange reads a raw call to a live Meilisearch that deletes an
// index's documents or mints a key allowed everything (Elasticsearch's
// settings and role mappings are search-cluster-unguarded's).
func searchAPIChange(c *cmd) (bool, string) {
	h, ok := readHTTPCall(c)
	if !ok || h.method == "GET" || h.method == "HEAD" || h.scratch() {
		return false, ""
	}
	u := lower(h.url)
	if q := strings.IndexAny(u, "?#"); q >= 0 {
		u = u[:q]
	}
	switch body := compactJSON(h.body); {
	case h.method == "DELETE" && strings.Contains(u, "/indexes/") && (strings.HasSuffix(u, "/documents") || strings.Count(u[strings.Index(u, "/indexes/"):], "/") == 2):
		return true, "a live search index's documents deleted (" + h.url + ")"
	case h.method == "POST" && strings.HasSuffix(u, "/keys") && strings.Contains(body, `"actions":["*"]`):
		return true, "a search key allowed every action (" + h.url + ")"
	}
	return false, ""
}

// optAll returns the values a long option takes, the way the cloud CLIs
// give lists: every word after --NAME up to the next option
// (--content-paths '/index.html' '/assets/*'), and --NAME=V.
func optAll(args []word, name string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if v, ok := strings.CutPrefix(s, "--"+name+"="); ok {
			out = append(out, v)
			continue
		}
		if s != "--"+name {
			continue
		}
		for i+1 < len(args) && !strings.HasPrefix(args[i+1].s, "--") {
			i++
			out = append(out, args[i].s)
		}
	}
	return out
}
