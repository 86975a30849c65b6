package guard

import "strings"

// Packages whose name is one keystroke away from a well-known one
// (colourama, lodahs, serde_jsonn): the shape of typo-squatting, where a
// registry serves whatever someone published under the misspelling.
var typosquatRules = []*rule{
	{ID: "package-name-typosquat", Level: LevelCritical, Category: CategoryRemoteExec, Description: "installing a package whose name is one keystroke from a well-known package's (a typo-squatted name runs its author's install code)",
		Suggestions: []string{"Check the spelling against the registry's page of the package you meant", "Install from the project's lockfile"},
		names:       names("npm", "pnpm", "yarn", "bun", "npx", "pnpx", "bunx", "pip", "pip3", "uv", "poetry", "pipx", "cargo", "gem", "code", "codium", "cursor", "composer"),
		match: func(a *analysis, c *cmd) (bool, string) {
			eco, pkgs := installedNames(c)
			for _, p := range pkgs {
				if near := nearPopular(eco, p); near != "" {
					return true, p + " (not " + near + ")"
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, typosquatRules) }

// installedNames returns the registry a command installs from and the
// package names it installs ("" and nil when it installs nothing).
func installedNames(c *cmd) (string, []string) {
	args := c.args()
	ops := positional(args)
	if len(ops) == 0 {
		return "", nil
	}
	var eco string
	var names []word
	switch c.name {
	case "npm", "pnpm", "yarn", "bun":
		switch ops[0].s {
		case "install", "i", "add", "exec", "dlx", "x":
			eco, names = "npm", ops[1:]
		}
		if ops[0].s == "create" && len(ops) > 1 {
			eco, names = "npm", []word{lit("create-" + ops[1].s)}
		}
	case "npx", "pnpx", "bunx":
		eco, names = "npm", ops[:1]
	case "pip", "pip3", "pipx":
		if ops[0].s == "install" {
			eco, names = "pypi", ops[1:]
		}
	case "uv":
		if ops[0].s == "add" {
			eco, names = "pypi", ops[1:]
		} else if len(ops) > 1 && ops[0].s == "pip" && ops[1].s == "install" {
			eco, names = "pypi", ops[2:]
		}
	case "poetry":
		if ops[0].s == "add" {
			eco, names = "pypi", ops[1:]
		}
	case "cargo":
		if ops[0].s == "add" || ops[0].s == "install" {
			eco, names = "crates", ops[1:]
		}
	case "gem":
		if ops[0].s == "install" {
			eco, names = "gems", ops[1:]
		}
	case "composer":
		// composer [global] require vendor/name: the vendor's slash kept
		if ops[0].s == "global" {
			ops = ops[1:]
		}
		if len(ops) > 1 && ops[0].s == "require" {
			var out []string
			for _, w := range ops[1:] {
				if n := lower(w.s); w.ok && strings.Count(n, "/") == 1 {
					out = append(out, strings.SplitN(n, ":", 2)[0])
				}
			}
			return "packagist", out
		}
		return "", nil
	case "code", "codium", "cursor":
		if v, ok := optValue(args, "", "install-extension"); ok {
			eco, names = "vscode", []word{lit(v)}
		}
	}
	var out []string
	for _, w := range names {
		if !w.ok {
			continue
		}
		n := lower(w.s)
		// the name without its version or extras: lodash@4, requests==2.31, black[jupyter]
		if i := strings.IndexAny(n, "=<>!~[;"); i > 0 {
			n = n[:i]
		}
		if i := strings.LastIndexByte(n, '@'); i > 0 {
			n = n[:i]
		}
		if n != "" && !strings.ContainsAny(n, "/:\\") {
			out = append(out, n)
		}
	}
	return eco, out
}

// popularPackages are well-known packages per registry, the names typo
// squatters imitate.
var popularPackages = map[string][]string{
	"npm": {"lodash", "react", "react-dom", "express", "axios", "chalk", "commander", "moment", "webpack", "typescript", "eslint",
		"prettier", "jest", "mocha", "vue", "next", "nodemon", "dotenv", "uuid", "debug", "request", "underscore", "jquery",
		"bluebird", "async", "yargs", "inquirer", "colors", "cross-env", "rimraf", "mkdirp", "glob", "minimist", "semver",
		"body-parser", "cookie-parser", "mongoose", "redis", "socket.io", "electron", "create-react-app", "vite", "babel-cli",
		"eslint-plugin-react", "styled-components", "tailwindcss", "zod", "dayjs", "date-fns", "cypress", "puppeteer", "sharp"},
	"pypi": {"requests", "numpy", "pandas", "urllib3", "colorama", "python-dateutil", "setuptools", "boto3", "botocore", "six",
		"pyyaml", "django", "flask", "fastapi", "pydantic", "matplotlib", "scipy", "scikit-learn", "tensorflow", "torch", "pillow",
		"beautifulsoup4", "selenium", "pytest", "black", "cryptography", "jinja2", "sqlalchemy", "psycopg2", "psycopg2-binary", "psycopg", "psycopg-binary", "psycopg-pool",
		"openai", "httpx", "aiohttp", "click", "rich", "tqdm", "jupyter", "virtualenv", "uvicorn", "gunicorn", "celery", "paramiko"},
	"crates": {"serde", "serde_json", "tokio", "rand", "clap", "anyhow", "thiserror", "reqwest", "regex", "log", "env_logger",
		"chrono", "futures", "hyper", "axum", "syn", "quote", "proc-macro2", "lazy_static", "once_cell", "itertools", "tracing"},
	"gems": {"rails", "rake", "bundler", "rspec", "nokogiri", "devise", "puma", "sidekiq", "rubocop", "pry", "activesupport", "json",
		"rest-client", "httparty", "faraday", "sinatra", "capistrano", "mysql2", "dotenv", "aws-sdk", "colorize", "byebug"},
	"packagist": {"laravel/installer", "laravel/framework", "symfony/console", "symfony/http-foundation", "guzzlehttp/guzzle", "monolog/monolog",
		"phpunit/phpunit", "doctrine/orm", "twig/twig", "vlucas/phpdotenv", "nesbot/carbon", "league/flysystem", "composer/composer"},
	"vscode": {"ms-python.python", "ms-python.vscode-pylance", "esbenp.prettier-vscode", "dbaeumer.vscode-eslint", "ms-vscode.cpptools",
		"golang.go", "rust-lang.rust-analyzer", "ms-azuretools.vscode-docker", "github.copilot", "redhat.vscode-yaml", "eamodio.gitlens"},
}

// knownNearNames are well-known packages of their own one edit from
// another's name (scapy and scipy, tslint and eslint).
var knownNearNames = map[string]bool{"scapy": true, "color": true, "tslint": true, "dotenvx": true, "jinja": true, "redux": true,
	"colors": true, "chalk": true, "requests": true, "request": true, "pyyaml": true, "ruamel": true, "sharp": true}

// nearPopular returns the well-known package n is one edit from (a
// letter added, dropped, changed or two swapped), or "".
func nearPopular(eco, n string) string {
	if len(n) < 5 {
		return ""
	}
	if knownNearNames[n] {
		return ""
	}
	for _, p := range popularPackages[eco] {
		if p == n {
			return ""
		}
	}
	for _, p := range popularPackages[eco] {
		if len(p) >= 5 && oneEdit(n, p) {
			return p
		}
	}
	return ""
}

// oneEdit reports whether a and b differ by one insertion, deletion,
// substitution or transposition of adjacent letters.
func oneEdit(a, b string) bool {
	if a == b {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	la, lb := len(a), len(b)
	i := 0
	for i < la && a[i] == b[i] {
		i++
	}
	switch lb - la {
	case 0:
		if a[i+1:] == b[i+1:] {
			return true // one letter changed
		}
		return i+1 < la && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] // two swapped
	case 1:
		return a[i:] == b[i+1:] // one letter added
	}
	return false
}
