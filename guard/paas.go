package guard

import "strings"

// Application platforms' clients (Heroku, Fly.io, Vercel, Netlify,
// Supabase, Railway, Firebase, Cloudflare's wrangler, Render,
// DigitalOcean's App Platform): the subcommands, from each client's own
// reference, that take a running application's data, configuration,
// domains or capacity away. Each platform's applications are remote and
// shared; what tells production from a developer's own is the app,
// project or environment named.
type paasOp struct {
	path []string // the subcommand, word by word ("config:unset"; "secrets", "unset")
	// always: the operation removes durable state whichever app it
	// names (a database overwritten, backups deleted), and a scratch
	// name is the only way out
	always bool
	// vars: the operands are variable names; removing one of the app's
	// credentials (DATABASE_URL, *_KEY, *_SECRET) breaks it wherever it
	// runs
	vars bool
	what string
}

var paasOps = map[string][]paasOp{
	"heroku": {
		{path: []string{"config:unset"}, vars: true, what: "the app's configuration variables unset"},
		{path: []string{"config:remove"}, vars: true, what: "the app's configuration variables unset"},
		{path: []string{"domains:clear"}, what: "every custom domain removed"},
		{path: []string{"domains:remove"}, what: "a custom domain removed"},
		{path: []string{"pg:copy"}, always: true, what: "a database overwritten with another's copy"},
		{path: []string{"pg:backups:delete"}, always: true, what: "a database backup deleted"},
		{path: []string{"pg:backups:restore"}, what: "a database overwritten with a backup"},
		{path: []string{"pg:killall"}, what: "every database connection killed"},
		{path: []string{"pg:promote"}, what: "the app's database replaced by another"},
		{path: []string{"ps:scale"}, what: "dynos scaled"},
		{path: []string{"ps:stop"}, what: "dynos stopped"},
		{path: []string{"releases:rollback"}, what: "the app rolled back to an old release"},
		{path: []string{"rollback"}, what: "the app rolled back to an old release"},
		{path: []string{"maintenance:on"}, what: "the app taken offline"},
		{path: []string{"certs:remove"}, what: "the app's certificate removed"},
		{path: []string{"buildpacks:clear"}, what: "the app's buildpacks cleared"},
		{path: []string{"addons:detach"}, what: "an add-on detached from the app"},
	},
	"netlify": {
		{path: []string{"env:unset"}, vars: true, what: "environment variables unset"},
		{path: []string{"env:clear"}, always: true, what: "every environment variable removed"},
		{path: []string{"sites:delete"}, what: "a site deleted"},
	},
	"vercel": {
		{path: []string{"env", "rm"}, vars: true, what: "environment variables removed"},
		{path: []string{"env", "remove"}, vars: true, what: "environment variables removed"},
		{path: []string{"remove"}, what: "deployments or a project removed"},
		{path: []string{"rm"}, what: "deployments or a project removed"},
		{path: []string{"domains", "rm"}, always: true, what: "a domain removed"},
		{path: []string{"domains", "remove"}, always: true, what: "a domain removed"},
		{path: []string{"dns", "rm"}, what: "a DNS record removed"},
		{path: []string{"alias", "rm"}, what: "an alias removed"},
		{path: []string{"project", "rm"}, always: true, what: "a project removed"},
		{path: []string{"projects", "rm"}, always: true, what: "a project removed"},
		{path: []string{"rollback"}, what: "production rolled back"},
	},
	"supabase": {
		{path: []string{"secrets", "unset"}, vars: true, what: "the project's secrets unset"},
		{path: []string{"projects", "delete"}, always: true, what: "a project deleted"},
		{path: []string{"functions", "delete"}, what: "an edge function deleted"},
		{path: []string{"branches", "delete"}, what: "a branch deleted"},
		{path: []string{"storage", "rm"}, what: "stored objects removed"},
	},
	"fly": {
		{path: []string{"secrets", "unset"}, vars: true, what: "the app's secrets unset"},
		{path: []string{"volumes", "destroy"}, always: true, what: "a volume destroyed"},
		{path: []string{"volumes", "delete"}, always: true, what: "a volume destroyed"},
		{path: []string{"volume", "destroy"}, always: true, what: "a volume destroyed"},
		{path: []string{"scale", "count"}, what: "the app's machines scaled"},
		{path: []string{"ips", "release"}, what: "the app's address released"},
		{path: []string{"certs", "remove"}, what: "a certificate removed"},
		{path: []string{"postgres", "detach"}, what: "the app's database detached"},
		{path: []string{"machine", "destroy"}, what: "a machine destroyed"},
		{path: []string{"machines", "destroy"}, what: "a machine destroyed"},
		{path: []string{"releases", "rollback"}, what: "the app rolled back"},
	},
	"railway": {
		{path: []string{"down"}, what: "the latest deployment removed"},
		{path: []string{"delete"}, always: true, what: "a project deleted"},
		{path: []string{"variables", "delete"}, vars: true, what: "variables deleted"},
		{path: []string{"variable", "delete"}, vars: true, what: "variables deleted"},
		{path: []string{"environment", "delete"}, what: "an environment deleted"},
		{path: []string{"volume", "delete"}, always: true, what: "a volume deleted"},
	},
	"firebase": {
		{path: []string{"database:set"}, what: "a database path overwritten"},
		{path: []string{"database:update"}, what: "a database path overwritten"},
		{path: []string{"database:remove"}, always: true, what: "a database path removed"},
		{path: []string{"firestore:delete"}, what: "documents deleted"},
		{path: []string{"hosting:disable"}, always: true, what: "the site taken down"},
		{path: []string{"functions:delete"}, what: "functions deleted"},
		{path: []string{"functions:config:unset"}, vars: true, what: "the functions' configuration unset"},
		{path: []string{"functions:secrets:destroy"}, vars: true, what: "a secret destroyed"},
		{path: []string{"remoteconfig:rollback"}, what: "the app's remote configuration rolled back"},
		{path: []string{"apps:delete"}, always: true, what: "an app deleted"},
		{path: []string{"auth:import"}, what: "the project's users overwritten"},
	},
	"wrangler": {
		{path: []string{"delete"}, always: true, what: "a Worker deleted"},
		{path: []string{"secret", "delete"}, vars: true, what: "a Worker's secret deleted"},
		{path: []string{"d1", "delete"}, always: true, what: "a D1 database deleted"},
		{path: []string{"r2", "bucket", "delete"}, always: true, what: "an R2 bucket deleted"},
		{path: []string{"r2", "object", "delete"}, what: "an R2 object deleted"},
		{path: []string{"kv", "namespace", "delete"}, always: true, what: "a KV namespace deleted"},
		{path: []string{"kv:namespace", "delete"}, always: true, what: "a KV namespace deleted"},
		{path: []string{"kv", "bulk", "delete"}, what: "KV keys deleted"},
		{path: []string{"pages", "project", "delete"}, always: true, what: "a Pages project deleted"},
		{path: []string{"queues", "delete"}, always: true, what: "a queue deleted"},
		{path: []string{"vectorize", "delete"}, always: true, what: "a vector index deleted"},
		{path: []string{"rollback"}, what: "a Worker rolled back"},
	},
	"render": {
		{path: []string{"services", "delete"}, always: true, what: "a service deleted"},
	},
}

func init() {
	paasOps["flyctl"] = paasOps["fly"]
	paasOps["netlify-cli"] = paasOps["netlify"]
}

// paasScaledToZero reports ps:scale web=0 or fly scale count 0: the app
// stops serving.
func paasScaledToZero(op *paasOp, rest []word) bool {
	if op.path[0] != "ps:scale" && op.path[0] != "scale" {
		return false
	}
	for _, w := range positional(rest) {
		if w.s == "0" || strings.HasSuffix(w.s, "=0") {
			return true
		}
	}
	return false
}
