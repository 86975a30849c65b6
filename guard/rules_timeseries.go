package guard

import (
	"regexp"
	"strings"
	"time"
)

// Time-series databases (InfluxDB): a plant's, a grid's or a fleet's
// measurements, kept for years, deleted by a range or a predicate, their
// bucket dropped, or their retention cut so the server deletes them
// itself. The same on this machine's server, and reads, pass.

func init() { ruleSets = append(ruleSets, timeseriesRules) }

var timeseriesRules = []*rule{
	{ID: "timeseries-data-deleted", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "deleting a time-series database's measurements (a range or predicate deleted, a bucket or series dropped, retention cut to hours) on a server that is not this machine's",
		Suggestions: []string{"Export the range first (influx query ... --raw > backup.csv)", "Delete on a copy, or let retention policies age data out"},
		partial:     true, // (the generic clients' rules judge their other deletes)
		names:       names("influx", "curl", "python", "python3", "py"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "influx":
				host := influxHost(args)
				if host == "" && !c.remote || host != "" && loopback(host) {
					return false, "" // the server on this machine
				}
				ops := plainWords(c.lowerArgs())
				switch {
				case len(ops) > 0 && ops[0] == "delete":
					return true, "influx delete on " + orRemote(host)
				case len(ops) > 1 && ops[0] == "bucket" && ops[1] == "delete":
					return true, "influx bucket delete on " + orRemote(host)
				case len(ops) > 1 && ops[0] == "bucket" && ops[1] == "update":
					if r, ok := optValue(args, "-r", "retention"); ok && influxShortRetention(r) {
						return true, "a bucket's retention cut to " + r + " on " + orRemote(host)
					}
				}
				// influx 1.x: -execute 'DROP SERIES ...'
				if q, ok := optValue(args, "", "execute"); ok && influxQLDeletes(q) {
					return true, truncate(q, 60) + " on " + orRemote(host)
				}
			case "curl":
				for _, u := range urlArgs(args) {
					h := hostOf(u)
					if h == "" || loopback(h) || !strings.Contains(u, "/query") {
						continue
					}
					if influxQLDeletes(u) || influxQLDeletes(c.argsText()) {
						return true, "InfluxQL deleting on " + h
					}
				}
			default:
				code, ok := optValue(args, "-c", "")
				if !ok || !strings.Contains(code, "influxdb") || !strings.Contains(code, ".delete(") && !strings.Contains(code, "delete_bucket(") {
					return false, ""
				}
				if hasAny(code, "localhost", "127.0.0.1") {
					return false, ""
				}
				return true, "an InfluxDB client deleting data"
			}
			return false, ""
		}},
	{ID: "timeseries-admin-token", Level: LevelHigh, Category: CategoryPrivilege, Description: "minting an all-access token for a time-series database that is not this machine's (printed into the transcript)",
		Suggestions: []string{"Create a token scoped to the buckets the job reads or writes", "Create tokens in the UI and keep them in a secret store"},
		names:       names("influx"),
		match: func(a *analysis, c *cmd) (bool, string) {
			host := influxHost(c.args())
			if host == "" && !c.remote || host != "" && loopback(host) {
				return false, ""
			}
			ops := plainWords(c.lowerArgs())
			if len(ops) > 1 && ops[0] == "auth" && ops[1] == "create" && (optGiven(c.lowerArgs(), "--all-access") || optGiven(c.lowerArgs(), "--operator")) {
				return true, "an all-access token on " + orRemote(host)
			}
			return false, ""
		}},
}

func orRemote(h string) string {
	if h == "" {
		return "a server reached over ssh"
	}
	return h
}

// influxHost is the server an influx command reaches (--host URL, or
// -host NAME for 1.x), or "".
func influxHost(args []word) string {
	if v, ok := optValue(args, "", "host"); ok {
		if h := hostOf(v); h != "" {
			return h
		}
		return v
	}
	if v, ok := optValue(args, "-host", ""); ok {
		return v
	}
	return ""
}

// influxQLDeletes reports InfluxQL that deletes: DROP SERIES, MEASUREMENT,
// DATABASE, RETENTION POLICY, SHARD, or DELETE (also URL-encoded).
func influxQLDeletes(q string) bool {
	l := strings.ToLower(strings.NewReplacer("+", " ", "%20", " ").Replace(q))
	return hasAny(l, "drop series", "drop measurement", "drop database", "drop retention policy", "drop shard", "delete from", "delete where")
}

// influxShortRetention reports a bucket retention of a day or less
// (InfluxDB's durations: 1h, 30m, 1d, 2w; 0 keeps everything).
func influxShortRetention(r string) bool {
	l := lower(r)
	mult := time.Duration(1)
	switch {
	case strings.HasSuffix(l, "d"):
		l, mult = strings.TrimSuffix(l, "d")+"h", 24
	case strings.HasSuffix(l, "w"):
		l, mult = strings.TrimSuffix(l, "w")+"h", 24*7
	}
	d, err := time.ParseDuration(l)
	return err == nil && d > 0 && d*mult <= 24*time.Hour
}

// searchIndexDestroyed is a search engine's index emptied or dropped over
// its HTTP API: Solr's delete-all update, a collection or its backups
// deleted; an Elasticsearch lifecycle policy deleting indices at once.
var searchIndexDestroyed = &rule{ID: "search-index-destroyed", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "emptying or dropping a search engine's index over its API (Solr's delete-all, a collection or its backups deleted, a lifecycle policy deleting indices at once) on a server that is not this machine's",
	Suggestions: []string{"Delete by a narrow query, after a backup (Solr's BACKUP, an Elasticsearch snapshot)", "Change lifecycle policies in a reviewed deployment"},
	partial:     true,
	names:       httpClients,
	match: func(a *analysis, c *cmd) (bool, string) {
		if !hasAnyFold(c.argsText(), "/solr/", "/_ilm/", "/_ism/") {
			return false, ""
		}
		req, ok := readHTTPCall(c)
		if !ok {
			return false, ""
		}
		body := strings.ReplaceAll(strings.ReplaceAll(req.body, " ", ""), `\"`, `"`)
		for _, u := range []string{req.url} {
			h := hostOf(u)
			lh := strings.TrimSuffix(lower(h), ".local") // (a site's machine, pacs.hosp.local)
			if h == "" || loopback(h) || lh == "localhost" || testName(lh) || devNamed(lh) || strings.Contains(lh, "staging") {
				continue
			}
			l := lower(u)
			switch {
			case strings.Contains(l, "/solr/admin/collections") || strings.Contains(l, "/solr/admin/cores"):
				for _, act := range [...]string{"action=delete&", "action=deletebackup", "action=deletealias", "action=unload&deleteindex=true"} {
					if strings.Contains(l+"&", act) {
						return true, "Solr " + strings.TrimSuffix(strings.TrimPrefix(act, "action="), "&") + " on " + h
					}
				}
			case strings.Contains(l, "/solr/") && strings.Contains(l, "/update"):
				if strings.Contains(body, "<delete><query>*:*</query></delete>") || strings.Contains(body, `"delete":{"query":"*:*"}`) || strings.Contains(l, "stream.body=%3cdelete") {
					return true, "every document of a Solr core deleted on " + h
				}
			case strings.Contains(l, "/_ilm/policy/") || strings.Contains(l, "/_plugins/_ism/policies/"):
				if strings.Contains(body, `"delete":{"min_age":"0`) || strings.Contains(body, `"min_age":"0ms","actions":{"delete"`) || strings.Contains(body, `"min_age":"0s","actions":{"delete"`) || strings.Contains(body, `"min_age":"0d","actions":{"delete"`) {
					return true, "a lifecycle policy deleting indices at once on " + h
				}
			}
		}
		return false, ""
	}}

func init() { ruleSets = append(ruleSets, []*rule{searchIndexDestroyed}) }

// prodTokenVar finds a variable naming a production or live credential
// ($SQUARE_PROD_ACCESS_TOKEN, %STRIPE_LIVE_KEY%, $env:PROD_API_SECRET).
var prodTokenVar = regexp.MustCompile(`(?:\$\{?|\$env:|%)([A-Za-z0-9_]*(?:^|_)(?:PROD|LIVE|PRODUCTION)(?:_[A-Za-z0-9_]*)?)\b`)

// productionAPIWrite is a request that changes something, signed with a
// credential its variable names production's or live: refunds, bookings,
// tickets and availability on the real accounts.
var productionAPIWrite = &rule{ID: "production-api-write", Level: LevelHigh, Category: CategoryCloudDestroy, Description: "a changing API request (POST, PUT, PATCH, DELETE) signed with a production or live credential: real accounts, orders, bookings or money changed",
	Suggestions: []string{"Make the request with the service's sandbox or test credential", "Let a person run production changes through the service's console"},
	partial:     true,
	names:       httpClients,
	match: func(a *analysis, c *cmd) (bool, string) {
		text := c.argsText()
		if !strings.Contains(text, "PROD") && !strings.Contains(text, "LIVE") && !strings.Contains(text, "prod") && !strings.Contains(text, "live") {
			return false, ""
		}
		m := prodTokenVar.FindStringSubmatch(text)
		if m == nil {
			return false, ""
		}
		name := strings.ToUpper(m[1])
		if !hasAny(name, "TOKEN", "KEY", "SECRET", "PASS", "AUTH", "CRED") {
			return false, ""
		}
		h, ok := readHTTPCall(c)
		switch {
		case !ok:
			return false, ""
		case h.method != "POST" && h.method != "PUT" && h.method != "PATCH" && h.method != "DELETE":
			return false, ""
		}
		if path := strings.SplitN(h.url, "?", 2)[0]; strings.HasSuffix(path, "/_search") || strings.HasSuffix(path, "/_count") || strings.HasSuffix(path, "/search") ||
			strings.HasSuffix(path, "/query") || strings.HasSuffix(path, "/graphql") && !strings.Contains(h.body, "mutation") {
			return false, "" // a read sent as POST
		}
		if host := hostOf(h.url); host != "" && (strings.Contains(host, "sandbox") || strings.Contains(host, "test") || loopback(host)) {
			return false, ""
		}
		method := h.method
		return true, method + " signed with $" + m[1]
	}}

func init() { ruleSets = append(ruleSets, []*rule{productionAPIWrite}) }
