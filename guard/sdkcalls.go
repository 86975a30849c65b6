package guard

import (
	"regexp"
	"strings"
)

// Interpreter code reaches the cloud and databases through libraries as
// often as through their command-line clients: boto3's
// delete_bucket is `aws s3api delete-bucket`, a driver's
// execute("TRUNCATE users") on a production host is psql -c on it.
// sdkCommands reads those calls as the client commands they amount to,
// so that the clients' rules judge them (what is deleted, where, whether
// it is production).

// sdkCommands returns the client commands code's SDK and driver calls
// amount to, as argument vectors.
func sdkCommands(lang, code, low string) []scriptCall {
	var out []scriptCall
	switch lang {
	case "python":
		if strings.Contains(code, "getattr(") {
			// getattr(boto3.client('s3'), 'delete_bucket'): the method
			code = sdkGetattr.ReplaceAllString(code, "$1.$2")
		}
		out = append(out, pythonLibCalls(code)...)
		if strings.Contains(code, "boto3") {
			out = append(out, boto3Calls(code)...)
		}
		if strings.Contains(code, "google.cloud") || strings.Contains(code, "storage.Client") || strings.Contains(code, "bigquery.Client") {
			code = inlineSDKNames(code)
			out = append(out, googleCloudCalls(code)...)
		}
		if strings.Contains(code, "azure") {
			out = append(out, azureCalls(code)...)
		}
		if strings.Contains(code, "kubernetes") && strings.Contains(code, "Api(") {
			out = append(out, kubernetesCalls(code)...)
		}
		if strings.Contains(code, ".sql(") && (strings.Contains(code, "pyspark") || strings.Contains(code, "SparkSession") || strings.Contains(code, "spark.")) {
			// SparkSession...sql('DROP TABLE ...'): what spark-sql -e runs
			for _, m := range sparkSQL.FindAllStringSubmatch(code, 4) {
				out = append(out, scriptCall{api: "pyspark", argv: []string{"spark-sql", "-e", m[1] + m[2] + m[3]}})
			}
		}
		if strings.Contains(code, "winreg") && strings.Contains(code, "SetValueEx") {
			// winreg.OpenKey(HKEY_CURRENT_USER, r'Software\...\Run', ...);
			// SetValueEx(k, 'name', 0, REG_SZ, 'value'): what reg add does
			if m := winregKey.FindStringSubmatch(code); m != nil {
				hive := "HKCU"
				if strings.HasSuffix(m[1], "LOCAL_MACHINE") {
					hive = "HKLM"
				}
				argv := []string{"reg", "add", hive + `\` + m[2]}
				if v := winregValue.FindStringSubmatch(code); v != nil {
					argv = append(argv, "/v", v[1], "/d", v[2])
				}
				out = append(out, scriptCall{api: "winreg", argv: append(argv, "/f")})
			}
		}
		if strings.Contains(code, "FileSystem(") && strings.Contains(code, ".rm(") {
			// gcsfs.GCSFileSystem().rm('bucket/path', recursive=True),
			// s3fs.S3FileSystem().rm(...): the bucket's objects deleted
			for _, m := range fsspecRm.FindAllStringSubmatch(code, 2) {
				argv := []string{"gsutil", "rm", "gs://" + m[2]}
				if m[1] == "S3" {
					argv = []string{"aws", "s3", "rm", "s3://" + m[2]}
				}
				if m[1] == "AzureBlob" {
					argv = []string{"az", "storage", "blob", "delete-batch", "--source", m[2]}
				}
				if strings.Contains(m[3], "recursive=True") {
					if m[1] == "GCS" {
						argv = []string{"gsutil", "rm", "-r", "gs://" + m[2]}
					} else if m[1] == "S3" {
						argv = append(argv, "--recursive")
					}
				}
				out = append(out, scriptCall{api: "fsspec", argv: argv})
			}
		}
		if strings.Contains(code, "deltalake") || strings.Contains(code, "delta.tables") {
			// DeltaTable(...).vacuum(0) or vacuum(retention_hours=0, ...):
			// every earlier version of the table's files deleted (the
			// deltalake package's vacuum only lists them unless told
			// dry_run=False)
			if m := deltaVacuum.FindStringSubmatch(code); m != nil && (strings.Contains(code, "delta.tables") || strings.Contains(strings.ReplaceAll(m[0], " ", ""), "dry_run=False")) {
				out = append(out, scriptCall{api: "delta", argv: []string{"spark-sql", "-e", "VACUUM t RETAIN 0 HOURS"}})
			}
		}
		if strings.Contains(code, "call_command(") {
			// call_command('flush', interactive=False): Django's
			// management command, what manage.py flush --noinput does
			for _, m := range pyCallCommand.FindAllStringSubmatch(code, 4) {
				argv := []string{"python", "manage.py", m[1]}
				if strings.Contains(m[2], "interactive=False") {
					argv = append(argv, "--noinput")
				}
				out = append(out, scriptCall{api: "django", argv: argv})
			}
		}
		if (strings.Contains(code, "'w')") || strings.Contains(code, `"w")`)) && !strings.Contains(code, ".write") && !strings.Contains(code, "print(") {
			// open('src/app.py', 'w') and nothing written: the file emptied
			for _, m := range pyTruncateOpen.FindAllStringSubmatch(code, 2) {
				out = append(out, scriptCall{api: "open", argv: []string{"truncate", "-s", "0", m[1] + m[2]}})
			}
		}
	case "js":
		if strings.Contains(code, "Command(") && strings.Contains(code, "aws-sdk") {
			out = append(out, awsJSCalls(code)...)
		}
		if strings.Contains(code, ".bucket(") {
			// new Storage().bucket('x').deleteFiles(): every object gone
			for _, m := range jsGCSBucket.FindAllStringSubmatch(code, 2) {
				out = append(out, scriptCall{api: "@google-cloud/storage", argv: []string{"gsutil", "-m", "rm", "-r", "gs://" + m[1]}})
			}
		}
		if strings.Contains(code, "fetch(") || strings.Contains(code, "axios") {
			// fetch(URL, {method: 'DELETE'}), axios.delete(URL)
			for _, m := range jsFetchChange.FindAllStringSubmatch(code, 4) {
				out = append(out, scriptCall{api: "fetch", argv: []string{"curl", "-X", strings.ToUpper(m[2]), m[1]}})
			}
			for _, m := range jsAxiosChange.FindAllStringSubmatch(code, 4) {
				out = append(out, scriptCall{api: "axios", argv: []string{"curl", "-X", strings.ToUpper(m[1]), m[2]}})
			}
		}
	case "ruby":
		if strings.Contains(code, "Aws::") {
			out = append(out, rubyAWSCalls(code)...)
		}
		out = append(out, rubyHTTPChanges(code)...)
	case "perl":
		out = append(out, perlHTTPChanges(code)...)
	case "php":
		if strings.Contains(code, "RecursiveDirectoryIterator(") && (strings.Contains(code, "rmdir") || strings.Contains(code, "unlink")) {
			// new RecursiveIteratorIterator(new RecursiveDirectoryIterator(
			// DIR), CHILD_FIRST) with rmdir/unlink: everything under DIR
			if m := phpDirIterator.FindStringSubmatch(code); m != nil {
				dir := m[1] + m[2]
				if m[3] != "" {
					dir = "~"
				}
				out = append(out, scriptCall{api: "RecursiveDirectoryIterator", argv: []string{"find", dir, "-mindepth", "1", "-delete"}})
			}
		}
	}
	if lang == "python" && strings.Contains(code, "os.listdir(") && strings.Contains(code, "rmtree(") {
		// [shutil.rmtree(p) if os.path.isdir(p) else os.remove(p) for p in
		// os.listdir('.')]: every entry of the folder, dot-files included
		if m := pyListdirRmtree.FindStringSubmatch(code); m != nil {
			dir := m[2]
			if dir == "" {
				dir = "." // os.listdir(): the current directory
			}
			out = append(out, scriptCall{api: "shutil.rmtree", argv: []string{"find", dir, "-mindepth", "1", "-delete"}})
		}
	}
	if lang == "js" && strings.Contains(code, "Octokit") {
		out = append(out, octokitCalls(code)...)
	}
	if (lang == "perl" || lang == "awk") && strings.Contains(code, "kill") {
		// kill "KILL", map {...} grep { /sshd/ } `ps aux`; awk's
		// $2 ~ /^(nginx|mysqld)$/ { system("kill -9 " $1) }: every process
		// of those names killed
		re := perlKillGrep
		if lang == "awk" {
			re = awkKillMatch
		}
		if m := re.FindStringSubmatch(code); m != nil {
			for _, n := range strings.Split(m[1], "|") {
				if n = strings.Trim(n, "^$()"); n != "" {
					out = append(out, scriptCall{api: "kill", argv: []string{"pkill", "-9", "-x", n}})
				}
			}
		}
	}
	out = append(out, driverCalls(lang, code, low)...)
	return out
}

var (
	sdkGetattr = regexp.MustCompile(`getattr\(\s*([\w.]+(?:\([^()]*\))?)\s*,\s*['"](\w+)['"]\s*\)`)
	// name = boto3.client('s3') / boto3.Session().resource('ec2') / a
	// chain built on one (s3.Bucket('x')): the name stands for it later
	sdkAssign = regexp.MustCompile(`\b([A-Za-z_]\w*)\s*=\s*((?:boto3|storage|bigquery|[A-Za-z_]\w*Client)\b[^;\n]*?)\s*(?:;|\n|$)`)
	boto3Svc  = `boto3(?:\.session)?(?:\.Session\([^()]*\))?\.(client|resource)\(\s*['"]([\w-]+)['"][^()]*\)`
	// boto3.client('s3').delete_bucket(Bucket='x')
	boto3ClientCall = regexp.MustCompile(boto3Svc + `\.([a-z]\w*)\(((?:[^()]|\([^()]*\))*)\)`)
	// boto3.resource('s3').Bucket('x') ... .delete()
	boto3ResourceCall = regexp.MustCompile(boto3Svc + `\.([A-Z]\w*)\(\s*['"]([^'"]*)['"][^()]*\)((?:\.\w+(?:\([^()]*\))?)*)`)
	// boto3.resource('ec2').instances.all().terminate()
	boto3Collection = regexp.MustCompile(boto3Svc + `\.([a-z]\w*)\.(?:all|filter|limit)\([^()]*\)((?:\.\w+(?:\([^()]*\))?)*)`)
	sdkKwarg        = regexp.MustCompile(`\b([A-Za-z]\w*)\s*=\s*(?:'([^']*)'|"([^"]*)"|\[([^\]]*)\]|(True|False|\d+))`)
	camelBreak      = regexp.MustCompile(`([a-z0-9])([A-Z])|([A-Z]+)([A-Z][a-z])`)
)

// inlineSDKNames writes the chains a name was given (s3 =
// boto3.client('s3'); b = s3.Bucket('x')) in place of the name, twice, so
// that a call on the name reads as a call on the chain.
func inlineSDKNames(code string) string {
	for range 2 {
		ms := sdkAssign.FindAllStringSubmatchIndex(code, 8)
		if len(ms) == 0 {
			return code
		}
		changed := false
		for i := len(ms) - 1; i >= 0; i-- {
			m := ms[i]
			name, expr := code[m[2]:m[3]], code[m[4]:m[5]]
			if strings.Contains(expr, name+".") || !strings.Contains(expr, "(") {
				continue
			}
			rest := code[m[1]:]
			if nr := replaceName(rest, name+".", expr+"."); nr != rest {
				code = code[:m[1]] + nr
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	return code
}

// replaceName replaces each old in s that does not continue a longer
// name (s3. but not mys3.) with new.
func replaceName(s, old, new string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			break
		}
		b.WriteString(s[:i])
		if i > 0 && isIdentByte(s[i-1]) {
			b.WriteString(old)
		} else {
			b.WriteString(new)
		}
		s = s[i+len(old):]
	}
	b.WriteString(s)
	return b.String()
}

// kebab turns an SDK's name (DBInstanceIdentifier, delete_db_instance)
// into its client's spelling (db-instance-identifier, delete-db-instance).
func kebab(s string) string {
	s = camelBreak.ReplaceAllString(s, "${1}${3}-${2}${4}")
	return strings.ToLower(strings.ReplaceAll(s, "_", "-"))
}

// kwargOptions turns keyword arguments (Bucket='x', SkipFinalSnapshot=True)
// into the client's options (--bucket x --skip-final-snapshot).
func kwargOptions(args string) []string {
	out := keyOptions(sdkKwarg.FindAllStringSubmatch(args, -1))
	for i, o := range out {
		if cli, ok := sdkOptionNames[o]; ok {
			out[i] = cli
		}
	}
	return out
}

// sdkOptionNames are the keyword arguments the aws client spells
// otherwise (boto3's CidrIp is --cidr).
var sdkOptionNames = map[string]string{"--cidr-ip": "--cidr", "--ip-protocol": "--protocol", "--cidr-ipv6": "--cidr"}

// keyOptions turns matches of a key and its value (the key; a single- or
// double-quoted string; a list; a boolean or number) into options.
func keyOptions(ms [][]string) []string {
	var out []string
	for _, m := range ms {
		opt := "--" + kebab(m[1])
		switch {
		case m[5] == "True" || m[5] == "true":
			out = append(out, opt)
		case m[5] == "False" || m[5] == "false":
		case m[4] != "":
			out = append(out, opt)
			for _, v := range strings.Split(m[4], ",") {
				if v = strings.Trim(strings.TrimSpace(v), `'"`); v != "" {
					out = append(out, v)
				}
			}
		default:
			out = append(out, opt, m[2]+m[3]+m[5])
		}
	}
	return out
}

// awsService is the aws client's command for a boto3 service name.
func awsService(svc string) string {
	if svc == "s3" {
		return "s3api"
	}
	return svc
}

// boto3Calls reads boto3's client methods, resources and collections.
func boto3Calls(code string) []scriptCall {
	code = inlineSDKNames(code)
	var out []scriptCall
	for _, m := range boto3ClientCall.FindAllStringSubmatch(code, 8) {
		if m[1] != "client" || !sdkVerb(m[3]) {
			continue
		}
		argv := append([]string{"aws", awsService(m[2]), kebab(m[3])}, kwargOptions(m[4])...)
		out = append(out, scriptCall{api: "boto3", argv: argv})
	}
	for _, m := range boto3ResourceCall.FindAllStringSubmatch(code, 8) {
		svc, typ, id, chain := m[2], m[3], m[4], m[5]
		if m[1] != "resource" {
			continue
		}
		switch {
		case svc == "s3" && typ == "Bucket" && (strings.Contains(chain, "objects.") || strings.Contains(chain, "object_versions.")) && strings.Contains(chain, ".delete("):
			out = append(out, scriptCall{api: "boto3", argv: []string{"aws", "s3", "rm", "s3://" + id, "--recursive"}})
		case svc == "s3" && typ == "Bucket" && strings.HasPrefix(chain, ".delete("):
			out = append(out, scriptCall{api: "boto3", argv: []string{"aws", "s3", "rb", "s3://" + id}})
		case svc == "s3" && typ == "Object" && strings.Contains(chain, ".delete("):
			out = append(out, scriptCall{api: "boto3", argv: []string{"aws", "s3", "rm", "s3://" + id}})
		case svc == "ec2" && typ == "Instance" && (strings.Contains(chain, ".terminate(") || strings.Contains(chain, ".stop(")):
			verb := "terminate-instances"
			if strings.Contains(chain, ".stop(") {
				verb = "stop-instances"
			}
			out = append(out, scriptCall{api: "boto3", argv: []string{"aws", "ec2", verb, "--instance-ids", id}})
		case svc == "dynamodb" && typ == "Table" && strings.Contains(chain, ".delete("):
			out = append(out, scriptCall{api: "boto3", argv: []string{"aws", "dynamodb", "delete-table", "--table-name", id}})
		case strings.Contains(chain, ".delete(") || strings.Contains(chain, ".terminate("):
			out = append(out, scriptCall{api: "boto3", argv: []string{"aws", awsService(svc), "delete-" + kebab(typ), id}})
		}
	}
	for _, m := range boto3Collection.FindAllStringSubmatch(code, 8) {
		svc, coll, chain := m[2], m[3], m[4]
		if m[1] != "resource" {
			continue
		}
		if strings.Contains(code, " in "+m[0]) {
			// [i.terminate() for i in ...instances.filter(...)]: what
			// the loop calls on each one
			chain = code
		}
		switch {
		case svc == "ec2" && coll == "instances" && strings.Contains(chain, ".terminate("):
			out = append(out, scriptCall{api: "boto3", argv: []string{"aws", "ec2", "terminate-instances", "--instance-ids", "every-instance"}})
		case svc == "s3" && coll == "buckets" && strings.Contains(chain, ".delete("):
			out = append(out, scriptCall{api: "boto3", argv: []string{"aws", "s3", "rb", "s3://every-bucket", "--force"}})
		}
	}
	return out
}

// sdkVerb reports an SDK method that changes or reveals something: the
// ones the clients' rules judge (list_ and describe_ calls only read).
func sdkVerb(m string) bool {
	for _, p := range [...]string{"delete", "terminate", "remove", "put_", "create_", "update_", "attach_", "detach_", "modify_", "stop_",
		"revoke_", "disable_", "deregister", "purge", "empty", "get_secret_value", "get_parameter", "reset_", "restore_", "authorize_", "add_", "set_", "schedule_"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

var (
	// storage.Client().bucket('x') / get_bucket('x') ... .delete()
	gcsBucket = regexp.MustCompile(`(?:(?:\w+\.)?Client\([^()]*\)|[A-Za-z_]\w*)\.(?:get_)?bucket\(\s*['"]([^'"]+)['"]\s*\)((?:\.\w+(?:\((?:[^()]|\([^()]*\))*\))?)*)`)
	gcsBlobs  = regexp.MustCompile(`list_blobs\(\s*['"]([^'"]+)['"]`)
	bqDelete  = regexp.MustCompile(`\.delete_(dataset|table)\(\s*['"]([^'"]+)['"]([^()]*)\)`)
	gceDelete = regexp.MustCompile(`(Instances|Disks|Networks|Firewalls)Client\([^()]*\)\.delete\(((?:[^()]|\([^()]*\))*)\)`)
)

// googleCloudCalls reads Google Cloud's client libraries: buckets and
// their objects deleted, BigQuery datasets and tables dropped, Compute
// Engine resources deleted.
func googleCloudCalls(code string) []scriptCall {
	code = inlineSDKNames(code)
	var out []scriptCall
	for _, m := range gcsBucket.FindAllStringSubmatch(code, 8) {
		b, chain := m[1], m[2]
		switch {
		case strings.HasPrefix(chain, ".delete("):
			out = append(out, scriptCall{api: "google-cloud-storage", argv: []string{"gcloud", "storage", "rm", "-r", "gs://" + b}})
		case strings.Contains(chain, ".blob(") && strings.Contains(chain, ".delete("):
			out = append(out, scriptCall{api: "google-cloud-storage", argv: []string{"gcloud", "storage", "rm", "gs://" + b + "/object"}})
		case strings.Contains(chain, "list_blobs(") && strings.Contains(code, ".delete("):
			out = append(out, scriptCall{api: "google-cloud-storage", argv: []string{"gcloud", "storage", "rm", "-r", "gs://" + b + "/**"}})
		}
	}
	if strings.Contains(code, ".delete(") || strings.Contains(code, "delete_blobs(") {
		for _, m := range gcsBlobs.FindAllStringSubmatch(code, 4) {
			out = append(out, scriptCall{api: "google-cloud-storage", argv: []string{"gcloud", "storage", "rm", "-r", "gs://" + m[1] + "/**"}})
		}
	}
	for _, m := range bqDelete.FindAllStringSubmatch(code, 8) {
		argv := []string{"bq", "rm", "-f"}
		if m[1] == "dataset" {
			argv = append(argv, "-d")
			if strings.Contains(m[3], "delete_contents=True") {
				argv = append(argv, "-r")
			}
		} else {
			argv = append(argv, "-t")
		}
		out = append(out, scriptCall{api: "google-cloud-bigquery", argv: append(argv, m[2])})
	}
	for _, m := range gceDelete.FindAllStringSubmatch(code, 8) {
		kind := strings.ToLower(m[1])
		name := ""
		for _, k := range sdkKwarg.FindAllStringSubmatch(m[2], -1) {
			if k[1] == strings.TrimSuffix(kind, "s") || k[1] == "instance" || k[1] == "disk" || k[1] == "network" || k[1] == "firewall" {
				name = k[2] + k[3]
			}
		}
		argv := []string{"gcloud", "compute", kind, "delete", name, "--quiet"}
		for _, k := range sdkKwarg.FindAllStringSubmatch(m[2], -1) {
			if k[1] == "project" || k[1] == "zone" {
				argv = append(argv, "--"+k[1], k[2]+k[3])
			}
		}
		out = append(out, scriptCall{api: "google-cloud-compute", argv: argv})
	}
	return out
}

var (
	azGroupDelete     = regexp.MustCompile(`resource_groups\.(?:begin_)?delete\(\s*['"]([^'"]+)['"]`)
	azContainerDelete = regexp.MustCompile(`\.delete_container\(\s*['"]([^'"]+)['"]`)
	azVMDelete        = regexp.MustCompile(`virtual_machines\.(?:begin_)?delete\(\s*['"]([^'"]+)['"]\s*,\s*['"]([^'"]+)['"]`)
	azSecretGet       = regexp.MustCompile(`\.get_secret\(\s*['"]([^'"]+)['"]\s*\)\.value`)
)

// azureCalls reads the Azure SDK for Python: resource groups, containers
// and machines deleted, Key Vault secrets' values read.
func azureCalls(code string) []scriptCall {
	var out []scriptCall
	for _, m := range azGroupDelete.FindAllStringSubmatch(code, 4) {
		out = append(out, scriptCall{api: "azure-mgmt-resource", argv: []string{"az", "group", "delete", "--name", m[1], "--yes"}})
	}
	for _, m := range azContainerDelete.FindAllStringSubmatch(code, 4) {
		out = append(out, scriptCall{api: "azure-storage-blob", argv: []string{"az", "storage", "container", "delete", "--name", m[1]}})
	}
	for _, m := range azVMDelete.FindAllStringSubmatch(code, 4) {
		out = append(out, scriptCall{api: "azure-mgmt-compute", argv: []string{"az", "vm", "delete", "-g", m[1], "-n", m[2], "--yes"}})
	}
	if strings.Contains(code, "print") {
		for _, m := range azSecretGet.FindAllStringSubmatch(code, 4) {
			out = append(out, scriptCall{api: "azure-keyvault-secrets", argv: []string{"az", "keyvault", "secret", "show", "--name", m[1], "--query", "value"}})
		}
	}
	return out
}

var (
	// new S3Client({...}).send(new DeleteBucketCommand({Bucket: 'x'}))
	awsJSCommand = regexp.MustCompile(`new\s+([A-Z][A-Za-z0-9]*)Command\(\s*(\{[^{}]*\})?`)
	awsJSClient  = regexp.MustCompile(`new\s+([A-Z][A-Za-z0-9]*)Client\(`)
	jsKey        = regexp.MustCompile(`\b([A-Za-z]\w*)\s*:\s*(?:'([^']*)'|"([^"]*)"|\[([^\]]*)\]|(true|false|\d+))`)
)

// awsJSCalls reads the AWS SDK for JavaScript (v3): each Command sent is
// the aws client's subcommand of the same name.
func awsJSCalls(code string) []scriptCall {
	svc := ""
	if m := awsJSClient.FindStringSubmatch(code); m != nil {
		svc = strings.ToLower(m[1])
	}
	if svc == "" {
		return nil
	}
	var out []scriptCall
	for _, m := range awsJSCommand.FindAllStringSubmatch(code, 8) {
		verb := kebab(m[1])
		if !sdkVerb(strings.ReplaceAll(verb, "-", "_")) {
			continue
		}
		argv := append([]string{"aws", awsService(svc), verb}, keyOptions(jsKey.FindAllStringSubmatch(m[2], -1))...)
		out = append(out, scriptCall{api: "aws-sdk", argv: argv})
	}
	return out
}

// phpDirIterator matches a RecursiveDirectoryIterator over a literal
// folder or the home; pyListdirRmtree a comprehension removing every
// entry os.listdir gives.
var (
	phpDirIterator  = regexp.MustCompile(`RecursiveDirectoryIterator\(\s*(?:"([^"]+)"|'([^']+)'|(getenv\(\s*["']HOME["']\s*\)|\$_SERVER\[\s*["']HOME["']\s*\]))`)
	pyListdirRmtree = regexp.MustCompile(`rmtree\(\s*(\w+)\s*\)[^\]]*\bfor\s+\w+\s+in\s+os\.listdir\(\s*(?:['"]([^'"]*)['"])?\s*\)`)
)

// winregKey matches winreg's OpenKey or CreateKey(Ex) of a hive's key;
// winregValue a SetValueEx of a string value.
var (
	winregKey   = regexp.MustCompile(`(?:OpenKey|CreateKey)(?:Ex)?\(\s*(?:\w+\.)?(HKEY_CURRENT_USER|HKEY_LOCAL_MACHINE)\s*,\s*r?['"]([^'"]+)['"]`)
	winregValue = regexp.MustCompile(`SetValueEx\(\s*\w+\s*,\s*['"]([^'"]*)['"]\s*,\s*\w+\s*,\s*(?:\w+\.)?REG_\w+\s*,\s*r?['"]([^'"]*)['"]`)
)

// sparkSQL matches a Spark session's sql('...') call; deltaVacuum a
// Delta table's vacuum that keeps no earlier version.
var (
	sparkSQL    = regexp.MustCompile(`\.sql\(\s*[rf]?(?:"""([^"]*)"""|'([^']*)'|"([^"]*)")`)
	fsspecRm    = regexp.MustCompile(`(GCS|S3|AzureBlob)FileSystem\([^)]*\)\.rm\(\s*["'](?:gs://|s3://|az://|abfs://)?([^"']+)["']([^)]*)`)
	deltaVacuum = regexp.MustCompile(`\.vacuum\(\s*(?:0\s*[,)]|retention_hours\s*=\s*0\b|retentionHours\s*=\s*0\b)[^)]*`)
)

// A database driver's connection and the statements run on it.
var (
	driverConnect = regexp.MustCompile(`(?i)(psycopg2?|pg8000|asyncpg|pymysql|MySQLdb|mysql\.connector|mysqli?|sqlite3|duckdb|pyodbc|pymssql|cx_Oracle|oracledb|create_engine|MongoClient|PG(?:::Connection)?|Mysql2::Client|SQLite3::Database|Sequel|DBI|PDO|pg_connect|mysqli_connect|redis\.(?:Strict)?Redis|redis\.from_url|Redis\.from_url|Redis|clickhouse_connect\.get_client|get_client|dbConnect|createConnection|createPool|Client|Pool|knex|LibPQ\.Connection|snowflake\.connector|redshift_connector|\bsql)\s*(?:\.|->|::)?\s*(?:connect|new|open)?\s*\(((?:[^()]|\([^()]*\))*)\)`)
	// execute("..."), ->exec('...'), .query(`...`)
	driverExec = regexp.MustCompile(`(?:(?:\.|->)(?:execute|executescript|executemany|exec|query|run|raw|do|prepare|command)\(|\bdb(?:Execute|SendQuery|SendStatement|GetQuery)\(\s*\w+\s*,|\bexecute\(\s*(?:\w+|LibPQ\.Connection\((?:[^()]*)\))\s*,)\s*(?:text\(\s*)?(?:[rRbBfF]?)(?:"""|'''|"|'|` + "`" + `)\s*((?i:drop|truncate|delete|alter|update|grant|revoke|create\s+(?:user|role)|select\s+pg_terminate_backend|shutdown|flush)[^"'` + "`" + `]*)`)
	// Mongo and Redis methods that empty a store
	mongoDrop   = regexp.MustCompile(`\.(drop_database|dropDatabase|drop_collection|drop|delete_many|deleteMany|remove)\(\s*([^()]*)\)`)
	redisWipe   = regexp.MustCompile(`(?i)\.(flushall|flushdb)\(`)
	connHost    = regexp.MustCompile(`(?i)(?:\bhost\s*[=:]\s*['"]?|@|://)([A-Za-z0-9][\w.-]*[A-Za-z0-9])`)
	driverAlias = regexp.MustCompile(`\bimport\s+(snowflake\.connector|redshift_connector|psycopg2?|pymysql|oracledb|cx_Oracle)\s+as\s+(\w+)`)
	// a warehouse driver's target: Databricks' server_hostname,
	// Snowflake's account or saved connection, Redshift's host
	warehouseTarget = regexp.MustCompile(`(?i)\b(?:server_hostname|account|connection_name|host)\s*=\s*['"]([\w.-]+)`)
	connDB          = regexp.MustCompile(`(?i)(?:\bdbname|\bdatabase|\bdb)\s*[=:]\s*['"]?([\w.-]+)`)
	connEnv         = regexp.MustCompile(`(?:environ(?:\.get)?\(?\[?\s*|getenv\(\s*|ENV\[\s*|ENV\.fetch\(\s*|process\.env\.|\$_ENV\[\s*|\$ENV\{)['"]?([A-Z][A-Z0-9_]*)`)
)

// driverCalls reads a database driver's connection and the destructive
// statements run on it as the database's client run with them: psql
// -h HOST -c SQL, mysql, sqlite3, mongosh, redis-cli.
func driverCalls(lang, code, low string) []scriptCall {
	if lang != "python" && lang != "ruby" && lang != "php" && lang != "js" && lang != "perl" && lang != "r" && lang != "julia" || !emptiesData(low) {
		return nil
	}
	if m := driverAlias.FindStringSubmatch(code); m != nil {
		// import snowflake.connector as sf; sf.connect(...)
		code = strings.ReplaceAll(code, m[2]+".connect(", m[1]+".connect(")
	}
	conn := driverConnect.FindStringSubmatch(code)
	if conn == nil {
		return nil
	}
	driver, args := strings.ToLower(conn[1]), conn[2]
	host, db := "", ""
	hm, em := connHost.FindStringSubmatch(args), connEnv.FindStringSubmatch(args)
	switch {
	case hm != nil && strings.Contains(strings.ToLower(args), "host="):
		host = hm[1] // host=... written out: a variable after it is the password's
	case em != nil:
		host = "$" + em[1]
	case hm != nil:
		host = hm[1]
	}
	if m := connDB.FindStringSubmatch(args); m != nil {
		db = m[1]
	}
	switch driver {
	case "snowflake.connector", "redshift_connector", "sql":
		// a hosted warehouse: its account, a saved connection's name or
		// the workspace's host (never this machine)
		if m := warehouseTarget.FindStringSubmatch(args); m != nil {
			host = m[1]
		} else if host == "" {
			host = "the-warehouse"
		}
	}
	lowArgs := strings.ToLower(args)
	var out []scriptCall
	switch {
	case strings.Contains(driver, "mongo"):
		for _, m := range mongoDrop.FindAllStringSubmatch(code, 4) {
			eval := "db.dropDatabase()"
			switch m[1] {
			case "drop_collection", "drop":
				eval = "db.c.drop()"
			case "delete_many", "deleteMany", "remove":
				if strings.Trim(m[2], " {}") != "" {
					continue // a filter: some documents
				}
				eval = "db.c.deleteMany({})"
			}
			out = append(out, scriptCall{api: driver, argv: []string{"mongosh", mongoTarget(host), "--eval", eval}})
		}
		return out
	case strings.Contains(driver, "redis"):
		for _, m := range redisWipe.FindAllStringSubmatch(code, 2) {
			h := host
			if h == "" {
				h = "127.0.0.1"
			}
			out = append(out, scriptCall{api: driver, argv: []string{"redis-cli", "-h", h, strings.ToLower(m[1])}})
		}
		return out
	}
	for _, m := range driverExec.FindAllStringSubmatch(code, 8) {
		sql := strings.TrimSpace(m[1])
		var argv []string
		switch {
		case strings.Contains(driver, "sqlite") || driver == "duckdb":
			f := db
			if f == "" {
				if s, _, ok := strLit(args, strings.IndexAny(args, `"'`), lang); ok {
					f = s
				}
			}
			argv = []string{"sqlite3", f, sql}
			if driver == "duckdb" {
				argv[0] = "duckdb"
			}
		case strings.Contains(driver, "mysql") || strings.HasPrefix(lowArgs, `"mysql:`) || strings.HasPrefix(lowArgs, `'mysql:`) || strings.Contains(lowArgs, "mysql://"):
			argv = []string{"mysql"}
			if strings.HasPrefix(host, "$") {
				argv = append(argv, host)
			} else if host != "" {
				argv = append(argv, "-h", host)
			}
			if db != "" {
				argv = append(argv, db)
			}
			argv = append(argv, "-e", sql)
		case strings.Contains(driver, "clickhouse") || strings.Contains(driver, "get_client"):
			argv = []string{"clickhouse-client", "--host", orLocal(host), "--query", sql}
		case strings.Contains(driver, "pyodbc") || strings.Contains(driver, "pymssql") || strings.Contains(lowArgs, "sqlserver"):
			argv = []string{"sqlcmd", "-S", orLocal(host), "-Q", sql}
		default:
			argv = []string{"psql"}
			if strings.HasPrefix(host, "$") {
				argv = append(argv, host)
			} else {
				argv = append(argv, "-h", orLocal(host))
				if db != "" {
					argv = append(argv, "-d", db)
				}
			}
			argv = append(argv, "-c", sql)
		}
		out = append(out, scriptCall{api: driver, argv: argv})
	}
	return out
}

// dataVerbs are the words of the statements and methods driverCalls
// reads; code without any of them is not read further (the patterns cost
// more than the rest of a decision).
var dataVerbs = []string{"drop", "truncate", "delete", "alter", "update", "grant", "revoke", "create", "pg_terminate", "shutdown", "flush", "remove"}

// emptiesData reports lower-cased code that holds one of dataVerbs.
func emptiesData(low string) bool {
	for _, v := range dataVerbs {
		if strings.Contains(low, v) {
			return true
		}
	}
	return false
}

func orLocal(h string) string {
	if h == "" {
		return "localhost"
	}
	return h
}

// mongoTarget is mongosh's connection argument for a host.
func mongoTarget(h string) string {
	switch {
	case strings.HasPrefix(h, "$"):
		return h
	case h == "":
		return "mongodb://localhost"
	}
	return "mongodb://" + h
}

var (
	// [p.kill() for p in psutil.process_iter() if p.info['name'] == 'postgres']
	psutilKill     = regexp.MustCompile(`process_iter[\s\S]*?==\s*['"]([\w.-]+)['"]`)
	dockerSDKPrune = regexp.MustCompile(`\.(volumes|containers|images|networks)\.prune\(`)
	dockerSDKEach  = regexp.MustCompile(`\.remove\([^()]*\)\s+for\s+\w+\s+in\s+[\w.()]*\.(volumes|containers|images|networks)\.list\(([^()]*)\)`)
	hvacRead       = regexp.MustCompile(`read_secret(?:_version)?\(\s*(?:path\s*=\s*)?['"]([^'"]+)['"]`)
	// requests.delete('https://...'), httpx.patch(...)
	pyJSONArg   = regexp.MustCompile(`\bjson\s*=\s*(\{[^{}]*\})`)
	httpLibCall = regexp.MustCompile(`\b(?:requests|httpx|session|s)\.(delete|put|patch)\(\s*[fr]?['"]([^'"]+)['"]([^()]*(?:\([^()]*\)[^()]*)*)\)`)
)

// pythonLibCalls reads Python libraries that stand for a command:
// psutil killing processes by name, os.kill over /proc, the Docker SDK's
// prunes, credentials printed through boto3, hvac or google.auth, and
// HTTP libraries' deleting and changing requests.
func pythonLibCalls(code string) []scriptCall {
	var out []scriptCall
	if strings.Contains(code, ".kill()") || strings.Contains(code, ".terminate()") {
		if m := psutilKill.FindStringSubmatch(code); m != nil {
			out = append(out, scriptCall{api: "psutil", argv: []string{"pkill", "-9", m[1]}})
		} else if strings.Contains(code, "process_iter") {
			out = append(out, scriptCall{api: "psutil", argv: []string{"kill", "-9", "-1"}})
		}
	}
	if strings.Contains(code, "os.kill(") && (strings.Contains(code, "listdir('/proc')") || strings.Contains(code, `listdir("/proc")`)) {
		out = append(out, scriptCall{api: "os.kill", argv: []string{"kill", "-9", "-1"}})
	}
	if strings.Contains(code, "make_archive(") && (strings.Contains(code, "ftplib") || strings.Contains(code, "requests.post") || strings.Contains(code, "requests.put")) {
		// shutil.make_archive('/tmp/src', 'zip', '.') then the archive
		// stored on an FTP server or posted: the tree, sent
		if m := pyMakeArchive.FindStringSubmatch(code); m != nil {
			arch := m[1] + "." + strings.TrimSuffix(strings.TrimSuffix(m[2], "tar"), "_")
			host := ""
			if h := pyFTPHost.FindStringSubmatch(code); h != nil {
				host = "ftp://" + h[1] + "/"
			} else if h := pyPostURL.FindStringSubmatch(code); h != nil {
				host = h[1]
			}
			if host != "" {
				out = append(out, scriptCall{api: "shutil", argv: []string{"tar", "czf", arch, m[3]}},
					scriptCall{api: "ftplib", argv: []string{"curl", "-T", arch, host}})
			}
		}
	}
	if strings.Contains(code, "docker") {
		for _, m := range dockerSDKPrune.FindAllStringSubmatch(code, 4) {
			out = append(out, scriptCall{api: "docker", argv: []string{"docker", strings.TrimSuffix(m[1], "s"), "prune", "-f"}})
		}
		// [v.remove(force=True) for v in client.volumes.list()]: every
		// volume removed, one by one
		for _, m := range dockerSDKEach.FindAllStringSubmatch(code, 2) {
			if !strings.Contains(m[0], "filters") {
				out = append(out, scriptCall{api: "docker", argv: []string{"docker", strings.TrimSuffix(m[1], "s"), "prune", "-a", "-f"}})
			}
		}
	}
	if strings.Contains(code, "print") {
		switch {
		case strings.Contains(code, "get_credentials()") && (strings.Contains(code, "secret_key") || strings.Contains(code, "token") || strings.Contains(code, "get_frozen_credentials")):
			out = append(out, scriptCall{api: "boto3", argv: []string{"aws", "configure", "export-credentials"}})
		case strings.Contains(code, "google.auth") && strings.Contains(code, ".token"):
			out = append(out, scriptCall{api: "google.auth", argv: []string{"gcloud", "auth", "print-access-token"}})
		case strings.Contains(code, "wandb") && strings.Contains(code, ".api_key"):
			// wandb.Api().api_key: the key wandb login saved
			out = append(out, scriptCall{api: "wandb", argv: []string{"cat", "~/.netrc"}})
		case strings.Contains(code, "huggingface_hub") && (strings.Contains(code, "get_token()") || strings.Contains(code, "HfFolder.get_token")) &&
			!hasAny(code, "bool(", " is None", " is not None", "len("):
			// the Hugging Face token the CLI saved
			out = append(out, scriptCall{api: "huggingface_hub", argv: []string{"cat", "~/.cache/huggingface/token"}})
		}
		if strings.Contains(code, "hvac") {
			for _, m := range hvacRead.FindAllStringSubmatch(code, 2) {
				out = append(out, scriptCall{api: "hvac", argv: []string{"vault", "kv", "get", m[1]}})
			}
		}
	}
	if !strings.Contains(code, ".delete(") && !strings.Contains(code, ".put(") && !strings.Contains(code, ".patch(") {
		return out
	}
	for _, m := range httpLibCall.FindAllStringSubmatch(code, 4) {
		argv := []string{"curl", "-X", strings.ToUpper(m[1])}
		if strings.Contains(m[3], "Authorization") || strings.Contains(m[3], "auth=") {
			argv = append(argv, "-H", "Authorization: token $TOKEN")
		}
		if b := pyJSONArg.FindStringSubmatch(m[3]); b != nil {
			// json={'value': 'essentially_off'}: the body, as JSON
			argv = append(argv, "-d", strings.ReplaceAll(b[1], "'", `"`))
		}
		out = append(out, scriptCall{api: "requests", argv: append(argv, m[2])})
	}
	return out
}

var (
	// open('src/app.py', 'w'): opened for writing, so emptied
	// pyCallCommand matches Django's call_command with a literal command
	// name, and its other arguments.
	pyCallCommand  = regexp.MustCompile(`call_command\(\s*["']([a-z_]+)["']([^)]*)\)`)
	pyTruncateOpen = regexp.MustCompile(`(?:^|[;\n])\s*(?:open\(\s*['"]([^'"]+)['"]\s*,\s*['"]w['"]\s*\)(?:\.close\(\))?|with\s+open\(\s*['"]([^'"]+)['"]\s*,\s*['"]w['"]\s*\)(?:\s+as\s+\w+)?\s*:\s*pass)\s*(?:$|[;\n])`)
	jsGCSBucket    = regexp.MustCompile(`\.bucket\(\s*['"]([\w.-]+)['"]\s*\)\.(?:deleteFiles|delete)\(`)
	jsFetchChange  = regexp.MustCompile(`\bfetch\(\s*['"` + "`" + `]([^'"` + "`" + `]+)['"` + "`" + `]\s*,\s*\{[^{}]*\bmethod\s*:\s*['"](DELETE|PUT|PATCH|delete|put|patch)['"]`)
	jsAxiosChange  = regexp.MustCompile(`\baxios\.(delete|put|patch)\(\s*['"` + "`" + `]([^'"` + "`" + `]+)['"` + "`" + `]`)
	// Kubernetes' Python client: the context loaded, and the API's
	// delete_/read_ methods with their name and namespace
	k8sContext = regexp.MustCompile(`load_kube_config\([^()]*\bcontext\s*=\s*['"]([^'"]+)['"]`)
	k8sCall    = regexp.MustCompile(`\.(delete|read)_(namespaced_)?([a-z_]+?)\(\s*(?:name\s*=\s*)?(?:['"]([^'"]*)['"]|([\w.]+))?\s*(?:,\s*(?:namespace\s*=\s*)?['"]([^'"]*)['"])?`)
	// Aws::S3::Resource.new(...).bucket("x").delete! / .clear!
	rbS3Bucket = regexp.MustCompile(`\.bucket\(\s*['"]([\w.-]+)['"]\s*\)(?:\.objects(?:\([^()]*\))?)?\.(delete!|clear!|batch_delete!|delete)`)
	// Aws::EC2::Client.new(...).terminate_instances(instance_ids: [...])
	rbAWSClientCall = regexp.MustCompile(`Aws::(\w+)::Client\.new(?:\([^()]*\))?\.(\w+)\(([^()]*)\)`)
	rbKwarg         = regexp.MustCompile(`\b(\w+):\s*(?:"([^"]*)"|'([^']*)'|\[([^\]]*)\])`)
)

// kubernetesCalls reads the Kubernetes Python client's deletions and
// secret reads as the kubectl commands they are.
func kubernetesCalls(code string) []scriptCall {
	// only a context named for a shared cluster is read: the current
	// one, or a local one, is the developer's own more often than not
	m := k8sContext.FindStringSubmatch(code)
	if m == nil || localKubeContext([]word{lit("--context"), lit(m[1])}) || scratchName(m[1]) && !isProdName(m[1]) {
		return nil
	}
	ctx := []string{"--context", m[1]}
	var out []scriptCall
	for _, m := range k8sCall.FindAllStringSubmatch(code, 4) {
		kind := strings.ReplaceAll(m[3], "_", "")
		name := m[4]
		if name == "" {
			// a name from a listing (d.metadata.name for d in
			// list_namespaced_deployment(...)): every one of them
			name = "--all"
		}
		argv := append([]string{"kubectl"}, ctx...)
		switch {
		case m[1] == "delete":
			argv = append(argv, "delete", kind, name)
		case m[1] == "read" && kind == "secret" && strings.Contains(code, "print("):
			argv = append(argv, "get", "secret", name, "-o", "yaml")
		default:
			continue
		}
		if m[6] != "" {
			argv = append(argv, "-n", m[6])
		}
		out = append(out, scriptCall{api: "kubernetes", argv: argv})
	}
	return out
}

// rubyAWSCalls reads the AWS SDK for Ruby's bucket deletions and client
// calls as the aws commands they are.
func rubyAWSCalls(code string) []scriptCall {
	var out []scriptCall
	for _, m := range rbS3Bucket.FindAllStringSubmatch(code, 2) {
		argv := []string{"aws", "s3", "rb", "s3://" + m[1], "--force"}
		if m[2] != "delete!" && m[2] != "delete" || strings.Contains(m[0], ".objects") {
			argv = []string{"aws", "s3", "rm", "s3://" + m[1], "--recursive"}
		}
		out = append(out, scriptCall{api: "aws-sdk", argv: argv})
	}
	for _, m := range rbAWSClientCall.FindAllStringSubmatch(code, 4) {
		argv := []string{"aws", strings.ToLower(m[1]), kebab(m[2])}
		for _, kv := range rbKwarg.FindAllStringSubmatch(m[3], 8) {
			v := kv[2] + kv[3]
			if kv[4] != "" {
				v = strings.Trim(strings.ReplaceAll(strings.ReplaceAll(kv[4], `"`, ""), "'", ""), " ")
			}
			argv = append(argv, "--"+kebab(kv[1]), v)
		}
		out = append(out, scriptCall{api: "aws-sdk", argv: argv})
	}
	return out
}

var (
	// HTTP::Tiny->new->request("DELETE", "URL"), LWP's ->delete("URL"),
	// HTTP::Request->new(DELETE => "URL")
	perlHTTPRequest = regexp.MustCompile(`(?:->request|HTTP::Request->new)\(\s*['"]?(DELETE|PUT|PATCH)['"]?\s*(?:,|=>)\s*['"]([^'"]+)['"]`)
	perlHTTPMethod  = regexp.MustCompile(`->(delete|put|patch)\(\s*['"]([^'"]+)['"]`)
	// Net::HTTP::Delete.new(URI("URL")) or .new(u) with u = URI("URL");
	// RestClient.delete("URL"), HTTParty.delete("URL"), Faraday.delete("URL")
	rbNetHTTPChange = regexp.MustCompile(`Net::HTTP::(Delete|Put|Patch)\.new\(\s*(?:URI(?:\.parse)?\(\s*['"]([^'"]+)['"]\s*\)|(\w+))`)
	rbURIAssign     = regexp.MustCompile(`\b(\w+)\s*=\s*URI(?:\.parse)?\(\s*['"]([^'"]+)['"]\s*\)`)
	rbHTTPClient    = regexp.MustCompile(`\b(?:RestClient|HTTParty|Faraday|HTTP)\.(delete|put|patch)\(\s*['"]([^'"]+)['"]`)
)

// perlHTTPChanges reads Perl's HTTP libraries' deleting and changing
// requests as the curl calls they are.
func perlHTTPChanges(code string) []scriptCall {
	if !hasAnyFold(code, "delete", "put", "patch") {
		return nil
	}
	var out []scriptCall
	for _, m := range perlHTTPRequest.FindAllStringSubmatch(code, 4) {
		out = append(out, scriptCall{api: "HTTP::Tiny", argv: []string{"curl", "-X", m[1], m[2]}})
	}
	for _, m := range perlHTTPMethod.FindAllStringSubmatch(code, 4) {
		out = append(out, scriptCall{api: "LWP", argv: []string{"curl", "-X", strings.ToUpper(m[1]), m[2]}})
	}
	return out
}

// rubyHTTPChanges reads Ruby's HTTP libraries' deleting and changing
// requests (Net::HTTP's request classes, RestClient, HTTParty, Faraday)
// as the curl calls they are.
func rubyHTTPChanges(code string) []scriptCall {
	if !hasAnyFold(code, "delete", "put", "patch") {
		return nil
	}
	var out []scriptCall
	for _, m := range rbNetHTTPChange.FindAllStringSubmatch(code, 4) {
		url := m[2]
		if m[3] != "" {
			for _, a := range rbURIAssign.FindAllStringSubmatch(code, 4) {
				if a[1] == m[3] {
					url = a[2]
				}
			}
		}
		if url != "" {
			out = append(out, scriptCall{api: "Net::HTTP", argv: []string{"curl", "-X", strings.ToUpper(m[1]), url}})
		}
	}
	for _, m := range rbHTTPClient.FindAllStringSubmatch(code, 4) {
		out = append(out, scriptCall{api: "http", argv: []string{"curl", "-X", strings.ToUpper(m[1]), m[2]}})
	}
	return out
}

var (
	// octokit.repos.deleteBranchProtection({owner: 'o', repo: 'r', branch: 'main'})
	octokitCall = regexp.MustCompile(`\.(repos|git)\.(delete|deleteBranchProtection|deleteRef|deleteRelease|updateBranchProtection)\(\s*\{([^{}]*)\}`)
	jsObjKey    = regexp.MustCompile(`\b(owner|repo|branch|ref|release_id)\s*:\s*['"]([^'"]+)['"]`)
)

// octokitCalls reads Octokit's deletions of repositories, refs and
// branch protections as the REST calls gh api makes.
func octokitCalls(code string) []scriptCall {
	var out []scriptCall
	for _, m := range octokitCall.FindAllStringSubmatch(code, 4) {
		kv := map[string]string{}
		for _, k := range jsObjKey.FindAllStringSubmatch(m[3], 6) {
			kv[k[1]] = k[2]
		}
		if kv["owner"] == "" || kv["repo"] == "" {
			continue
		}
		repo := "repos/" + kv["owner"] + "/" + kv["repo"]
		var argv []string
		switch m[2] {
		case "delete":
			argv = []string{"gh", "repo", "delete", kv["owner"] + "/" + kv["repo"], "--yes"}
		case "deleteBranchProtection":
			argv = []string{"gh", "api", "-X", "DELETE", repo + "/branches/" + kv["branch"] + "/protection"}
		case "deleteRef":
			argv = []string{"gh", "api", "-X", "DELETE", repo + "/git/refs/" + kv["ref"]}
		default:
			continue
		}
		out = append(out, scriptCall{api: "octokit", argv: argv})
	}
	return out
}

var (
	perlKillGrep = regexp.MustCompile(`\bkill\s*\(?\s*["']?(?:KILL|SIGKILL|TERM|9|-9|15)["']?\s*,[^;]*\bgrep\s*\{\s*/\^?([\w.|()-]+?)\$?/`)
	awkKillMatch = regexp.MustCompile(`~\s*/\^?\(?([\w.|-]+?)\)?\$?/[^{]*\{[^}]*system\(\s*"[^"]*\bkill\b`)
)

var (
	pyMakeArchive = regexp.MustCompile(`make_archive\(\s*['"]([^'"]+)['"]\s*,\s*['"](\w+)['"]\s*,\s*['"]([^'"]+)['"]`)
	pyFTPHost     = regexp.MustCompile(`FTP(?:_TLS)?\(\s*['"]([^'"]+)['"]`)
	pyPostURL     = regexp.MustCompile(`requests\.(?:post|put)\(\s*['"]([^'"]+)['"]`)
)
