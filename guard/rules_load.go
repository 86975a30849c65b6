package guard

import (
	"strconv"
	"strings"
)

// Load generators (k6, Locust, hey, autocannon, ab, wrk, oha, bombardier,
// siege, JMeter, vegeta) pointed at a live site: hundreds of concurrent
// clients against production is an outage the tests cause. A smoke run
// of a few clients, or any run against a local, staging or test host,
// is what they are for.
var loadRules = []*rule{
	{ID: "load-test-production", Level: LevelHigh, Category: CategorySystem, Description: "a load test of hundreds of concurrent clients against a live site (it can take production down and costs real money)",
		Suggestions: []string{"Run load tests against staging or a copy made for it", "Keep runs against production to a smoke test of a few clients, agreed with its owners"},
		names:       names("k6", "locust", "hey", "autocannon", "ab", "wrk", "oha", "bombardier", "siege", "jmeter", "vegeta", "artillery"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			n := loadClients(c.name, args)
			if n < loadHeavy {
				return false, ""
			}
			for _, h := range loadHosts(c, args) {
				if !loadTarget(h) {
					return true, strconv.Itoa(n) + " clients against " + h
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, loadRules) }

// loadHeavy is the number of concurrent clients from which a load test
// is no longer a smoke test.
const loadHeavy = 100

// loadClients returns the number of concurrent clients (or requests a
// second) a load generator is started with.
func loadClients(name string, args []word) int {
	var v string
	switch name {
	case "k6":
		v, _ = optValue(args, "-u", "vus")
	case "locust":
		v, _ = optValue(args, "-u", "users")
	case "autocannon":
		v, _ = optValue(args, "-c", "connections")
	case "vegeta":
		for _, w := range args {
			if r, ok := strings.CutPrefix(w.s, "-rate="); ok {
				v, _, _ = strings.Cut(r, "/")
			}
		}
	case "jmeter":
		for _, w := range args {
			if k, val, ok := strings.Cut(w.s, "="); ok && (k == "-Jthreads" || k == "-Jusers" || k == "-Jvus") {
				v = val
			}
		}
	default:
		v, _ = optValue(args, "-c", "concurrency", "connections")
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0
	}
	return n
}

// loadHosts returns the hosts a load generator is pointed at: URLs among
// its words, --host, a BASE_URL or HOST given to the script.
func loadHosts(c *cmd, args []word) []string {
	var out []string
	for i, w := range args {
		s := w.s
		if k, v, ok := strings.Cut(s, "="); ok && (strings.HasSuffix(strings.ToUpper(k), "URL") || strings.HasSuffix(strings.ToUpper(k), "HOST") || k == "--host" || k == "-Jhost") {
			s = v
		} else if (s == "--host" || s == "-H" && c.name == "locust" || s == "--target" || s == "-t" && c.name == "artillery") && i+1 < len(args) {
			s = args[i+1].s
		}
		if !strings.Contains(s, "://") {
			continue // a script, a report's folder
		}
		if h := hostOf(s); h != "" {
			out = append(out, h)
		}
	}
	return out
}

// loadTarget reports a host a load test may aim at: this machine, a
// private address, or one named for staging, tests or development.
func loadTarget(h string) bool {
	if isLocalHost(h) || testName(h) || stagingHost(h) {
		return true
	}
	for _, w := range nameWords(lower(h)) {
		switch w {
		case "perf", "load", "loadtest", "internal":
			return true
		}
	}
	return false
}
