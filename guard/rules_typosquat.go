package guard

import "strings"

// Packages whose name is one keystroke away from a well-known one
// (colourama, lodahs, serde_jsonn): the shape of typo-squatting, where a
// registry serves whatever someone published under the misspelling.
var typosquatRules = []*rule{
	{ID: "package-name-typosquat", Level: LevelCritical, Category: CategoryRemoteExec, Description: "installing a package whose name is one keystroke from a well-known package's (a typo-squatted name runs its author's install code)",
		Suggestions: []string{"Check the spelling against the registry's page of the package you meant", "Install from the project's lockfile"},
		names: names("npm", "pnpm", "yarn", "bun", "npx", "pnpx", "bunx", "pip", "pip3", "uv", "uvx", "poetry", "pipx", "cargo", "gem", "code", "codium", "cursor", "composer",
			"go", "install-module", "install-script", "install-package", "install-psresource", "dotnet", "nuget", "nuget.exe"),
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
	ops := c.operands()
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
	case "uvx":
		eco, names = "pypi", ops[:1]
	case "go":
		// go get / go install MODULE[@version]: the module's path, its
		// host, owner and repository compared
		if ops[0].s == "get" || ops[0].s == "install" {
			var out []string
			for _, w := range ops[1:] {
				if n := lower(strings.SplitN(w.s, "@", 2)[0]); w.ok && strings.Count(n, "/") >= 2 {
					out = append(out, n)
				}
			}
			return "go", out
		}
		return "", nil
	case "install-module", "install-script", "install-psresource":
		if v, ok := optValue(args, "", "Name"); ok {
			return "psgallery", []string{lower(strings.Trim(v, `"'`))}
		}
		return "psgallery", []string{lower(ops[0].s)}
	case "install-package":
		if v, ok := optValue(args, "", "Name"); ok {
			return "nuget", []string{lower(strings.Trim(v, `"'`))}
		}
		return "nuget", []string{lower(ops[0].s)}
	case "dotnet":
		// dotnet add [PROJECT] package NAME
		for i, w := range ops {
			if w.s == "package" && i > 0 && ops[0].s == "add" && i+1 < len(ops) {
				return "nuget", []string{lower(ops[i+1].s)}
			}
		}
		return "", nil
	case "nuget", "nuget.exe":
		if ops[0].s == "install" && len(ops) > 1 {
			return "nuget", []string{lower(ops[1].s)}
		}
		return "", nil
	case "pip", "pip3", "pipx":
		if ops[0].s == "install" {
			eco, names = "pypi", posArgs(args, pipInstallOpts)[1:]
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
	"npm": {"create-next-app", "create-vite", "windows-build-tools", "node-gyp", "ts-node", "concurrently", "husky", "lint-staged", "vitest",
		"playwright", "http-server", "json-server", "npm-check-updates", "lodash", "react", "react-dom", "express", "axios", "chalk", "commander", "moment", "webpack", "typescript", "eslint",
		"prettier", "jest", "mocha", "vue", "next", "nodemon", "dotenv", "uuid", "debug", "request", "underscore", "jquery",
		"bluebird", "async", "yargs", "inquirer", "colors", "cross-env", "rimraf", "mkdirp", "glob", "minimist", "semver",
		"body-parser", "cookie-parser", "mongoose", "redis", "socket.io", "electron", "create-react-app", "vite", "babel-cli",
		"eslint-plugin-react", "styled-components", "tailwindcss", "zod", "dayjs", "date-fns", "cypress", "puppeteer", "sharp",
		// more of the most installed, and the fields' own
		"node-red", "node-red-contrib-modbus", "node-red-dashboard", "modbus-serial", "serialport", "socket.io-client", "mysql2",
		"sqlite3", "sequelize", "typeorm", "prisma", "ioredis", "kafkajs", "amqplib", "aws-sdk", "firebase", "firebase-tools",
		"firebase-admin", "stripe", "twilio", "nodemailer", "passport", "jsonwebtoken", "bcrypt", "bcryptjs", "helmet", "morgan",
		"winston", "validator", "node-fetch", "superagent", "cheerio", "xml2js", "papaparse", "marked", "handlebars", "nunjucks",
		"postcss", "autoprefixer", "rollup", "esbuild", "parcel", "pm2", "live-server", "browser-sync", "karma", "sinon",
		"supertest", "redux", "react-redux", "react-router", "react-router-dom", "next-auth", "svelte", "three", "chart.js",
		"leaflet", "contentful", "contentful-cli", "ghost-cli", "wrangler", "vercel", "netlify-cli", "serverless", "aws-cdk",
		"pulumi", "ethers", "hardhat", "truffle", "ganache", "ts-jest", "execa", "shelljs", "fs-extra", "chokidar", "stylelint",
		"graphql", "apollo-server", "strapi", "directus", "@sanity/cli", "gatsby", "gatsby-cli", "hexo", "hexo-cli", "eleventy"},
	"pypi": {"ruff", "mypy", "poetry", "pre-commit", "requests", "numpy", "pandas", "urllib3", "colorama", "python-dateutil", "setuptools", "boto3", "botocore", "six",
		"pyyaml", "django", "flask", "fastapi", "pydantic", "matplotlib", "scipy", "scikit-learn", "tensorflow", "torch", "pillow",
		"beautifulsoup4", "selenium", "pytest", "black", "cryptography", "jinja2", "sqlalchemy", "psycopg2", "psycopg2-binary", "psycopg", "psycopg-binary", "psycopg-pool",
		"openai", "httpx", "aiohttp", "click", "rich", "tqdm", "jupyter", "virtualenv", "uvicorn", "gunicorn", "celery", "paramiko",
		// more of the most installed, and the fields' own (industrial, vehicles, data, ML, clouds)
		"pymodbus", "python-can", "cantools", "paho-mqtt", "opcua", "asyncua", "python-snap7", "pyserial", "pycryptodome", "pyjwt", "python-jose",
		"passlib", "bcrypt", "redis", "pymongo", "elasticsearch", "kafka-python", "confluent-kafka", "pika", "httpie", "docker", "kubernetes",
		"ansible", "fabric", "invoke", "netmiko", "napalm", "lxml", "openpyxl", "pyarrow", "polars", "duckdb", "transformers", "datasets",
		"huggingface-hub", "langchain", "anthropic", "tiktoken", "keras", "xgboost", "lightgbm", "opencv-python", "seaborn", "plotly",
		"streamlit", "gradio", "notebook", "jupyterlab", "ipython", "sphinx", "mkdocs", "coverage", "flake8", "pylint", "isort", "pipenv",
		"twine", "wheel", "attrs", "marshmallow", "alembic", "pymysql", "mysqlclient", "oracledb", "pyodbc", "snowflake-connector-python",
		"google-cloud-storage", "google-cloud-bigquery", "azure-identity", "azure-storage-blob", "awscli", "s3fs", "fsspec", "dask",
		"prefect", "apache-airflow", "dbt-core", "mlflow", "wandb", "optuna", "nltk", "spacy", "sympy", "networkx", "shapely", "geopandas",
		"djangorestframework", "starlette", "tornado", "twisted", "websockets", "grpcio", "protobuf", "pyopenssl", "certifi", "packaging",
		"typing-extensions", "python-dotenv", "loguru", "structlog", "sentry-sdk", "ldap3", "keyring", "pexpect", "psutil", "watchdog",
		"schedule", "apscheduler", "pendulum", "faker", "hypothesis", "responses", "locust", "playwright", "pywin32", "pyinstaller",
		"cython", "numba", "pygments", "msgpack", "orjson", "pyzmq", "minimalmodbus", "web3", "solana", "pyusb", "esptool", "platformio"},
	"crates": {"serde", "serde_json", "tokio", "rand", "clap", "anyhow", "thiserror", "reqwest", "regex", "log", "env_logger",
		"chrono", "futures", "hyper", "axum", "syn", "quote", "proc-macro2", "lazy_static", "once_cell", "itertools", "tracing"},
	"gems": {"rails", "rake", "bundler", "rspec", "nokogiri", "devise", "puma", "sidekiq", "rubocop", "pry", "activesupport", "json",
		"rest-client", "httparty", "faraday", "sinatra", "capistrano", "mysql2", "dotenv", "aws-sdk", "colorize", "byebug"},
	"packagist": {"laravel/installer", "laravel/framework", "symfony/console", "symfony/http-foundation", "guzzlehttp/guzzle", "monolog/monolog",
		"phpunit/phpunit", "doctrine/orm", "twig/twig", "vlucas/phpdotenv", "nesbot/carbon", "league/flysystem", "composer/composer"},
	"go": {"github.com/stretchr/testify", "github.com/aws/aws-sdk-go-v2", "github.com/aws/aws-sdk-go", "github.com/gin-gonic/gin", "github.com/spf13/cobra",
		"github.com/spf13/viper", "github.com/sirupsen/logrus", "github.com/google/uuid", "github.com/golang-jwt/jwt", "github.com/gorilla/mux",
		"github.com/labstack/echo", "github.com/jackc/pgx", "github.com/redis/go-redis", "github.com/go-redis/redis", "github.com/golangci/golangci-lint",
		"github.com/prometheus/client_golang", "github.com/grpc-ecosystem/grpc-gateway", "github.com/go-sql-driver/mysql", "github.com/lib/pq",
		"github.com/mattn/go-sqlite3", "github.com/gofiber/fiber", "github.com/urfave/cli", "github.com/joho/godotenv", "github.com/rs/zerolog"},
	"psgallery": {"psreadline", "pester", "az.accounts", "az.resources", "az.storage", "powershellget", "packagemanagement", "posh-git", "oh-my-posh",
		"terminal-icons", "psscriptanalyzer", "dbatools", "aws.tools.common", "microsoft.graph", "exchangeonlinemanagement", "importexcel", "sqlserver",
		"microsoft.powershell.secretmanagement", "platyps", "invokebuild"},
	"nuget": {"newtonsoft.json", "serilog", "automapper", "dapper", "xunit", "nunit", "moq", "fluentassertions", "polly", "mediatr",
		"swashbuckle.aspnetcore", "entityframework", "microsoft.entityframeworkcore", "stackexchange.redis", "npgsql", "nlog", "log4net", "restsharp",
		"system.text.json", "awssdk.core", "azure.identity", "azure.storage.blobs", "bouncycastle", "htmlagilitypack", "castle.core"},
	"vscode": {"ms-python.python", "ms-python.vscode-pylance", "esbenp.prettier-vscode", "dbaeumer.vscode-eslint", "ms-vscode.cpptools",
		"golang.go", "rust-lang.rust-analyzer", "ms-azuretools.vscode-docker", "github.copilot", "redhat.vscode-yaml", "eamodio.gitlens"},
}

// knownNearNames are well-known packages of their own one edit from
// another's name (scapy and scipy, tslint and eslint).
var knownNearNames = map[string]bool{"scapy": true, "color": true, "tslint": true, "dotenvx": true, "jinja": true, "redux": true,
	"colors": true, "chalk": true, "requests": true, "request": true, "pyyaml": true, "ruamel": true, "sharp": true,
	"mysql": true, "pytz": true, "bcrypt": true, "twine": true, "mocks": true, "react-route": true, "opcua": true}

// pipInstallOpts are pip install's options that take a value.
var pipInstallOpts = optSpec{short: "rcietdfb", long: []string{"requirement", "constraint", "editable", "index-url", "extra-index-url", "find-links",
	"target", "prefix", "root", "src", "platform", "python-version", "implementation", "abi", "no-binary", "only-binary", "progress-bar",
	"upgrade-strategy", "trusted-host", "cert", "client-cert", "cache-dir", "log", "proxy", "retries", "timeout", "exists-action", "report", "config-settings", "global-option"}}

// nearPopular returns the well-known package n is one edit from (a
// letter added, dropped, changed or two swapped), or "".
func nearPopular(eco, n string) string {
	if eco == "pypi" {
		// PyPI's names: case, _ and . are -, extras and versions apart
		n = strings.ToLower(n)
		if i := strings.IndexAny(n, "[=<>!~;@ "); i >= 0 {
			n = n[:i]
		}
		n = strings.NewReplacer("_", "-", ".", "-").Replace(strings.Trim(n, `"'`))
	}
	if knownNearNames[n] {
		return ""
	}
	for _, p := range popularPackages[eco] {
		if p == n {
			return ""
		}
	}
	if eco == "go" {
		return nearPopularModule(n)
	}
	for _, p := range popularPackages[eco] {
		if len(p) >= 5 && len(n) >= 5 && oneEdit(n, p) {
			return p
		}
		// ruf for ruff: a doubled letter typed once, in a short name
		if len(p) >= 4 && len(n) == len(p)-1 && doubledOnce(n, p) {
			return p
		}
	}
	return ""
}

// doubledOnce reports n as p with one of its doubled letters typed once
// (ruf, ruff).
func doubledOnce(n, p string) bool {
	for i := 1; i < len(p); i++ {
		if p[i] == p[i-1] && p[:i]+p[i+1:] == n {
			return true
		}
	}
	return false
}

// nearPopularModule returns the well-known Go module whose host, owner
// and repository path n imitates: one keystroke away
// (github.com/stretchr/testifi), or the same repository under an owner
// that differs by a word (github.com/aws-sdk/aws-sdk-go-v2 for
// github.com/aws/aws-sdk-go-v2), or "".
func nearPopularModule(n string) string {
	parts := strings.SplitN(n, "/", 4)
	if len(parts) < 3 {
		return ""
	}
	repo := strings.Join(parts[:3], "/")
	for _, p := range popularPackages["go"] {
		if repo == p || strings.HasPrefix(p, repo+"/") || strings.HasPrefix(repo, p+"/") {
			return ""
		}
	}
	for _, p := range popularPackages["go"] {
		pp := strings.SplitN(p, "/", 3)
		if oneEdit(repo, p) {
			return p
		}
		// the same host and repository, an owner that contains the real
		// one's name (aws-sdk for aws, golang-jwt-io for golang-jwt)
		if pp[0] == parts[0] && pp[2] == parts[2] && parts[1] != pp[1] && strings.Contains(parts[1], pp[1]) {
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
