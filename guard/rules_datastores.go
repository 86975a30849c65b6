package guard

import (
	"path"
	"slices"
	"strconv"
	"strings"
)

// Data stores' servers administered through their own clients: a
// superuser made or granted, the server stopped for everyone, every
// connection killed, the cluster's membership changed. Their data's
// destruction is judged by the database rules.
var dataStoreRules = []*rule{
	{ID: "subscription-backlog-skipped", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "moving a production subscription or consumer group past its backlog (the unprocessed messages are never delivered)",
		Suggestions: []string{"Seek to a snapshot taken before, or replay from an earlier time", "Drain the backlog with a consumer instead"},
		names:       names("gcloud"),
		match: func(a *analysis, c *cmd) (bool, string) {
			sub := clientSubWords(c).list()
			if len(sub) < 3 || sub[0] != "pubsub" || sub[1] != "subscriptions" || sub[2] != "seek" || !touchesProduction(c) {
				return false, ""
			}
			// --time NOW (or a time computed on the line): everything
			// published before it is acknowledged unread
			// (a computed time going back, $(date -d '1 hour ago'), replays)
			if v, ok := optValue(c.args(), "", "time"); ok && (strings.Contains(v, "$(") || !strings.Contains(v, "-")) && !strings.Contains(v, "ago") && !strings.Contains(v, " -d") {
				return true, "pubsub subscriptions seek --time " + v
			}
			return false, ""
		}},
	{ID: "experiment-history-purged", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "purging a shared tracking server's deleted runs and experiments for good (their metrics and artifacts go with them)",
		Suggestions: []string{"Leave deleted runs in the trash until their owners agree", "Purge a local tracking store only"},
		names:       names("mlflow"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) == 0 || ops[0].s != "gc" {
				return false, ""
			}
			// the store named on the line, or in MLFLOW_TRACKING_URI
			store, ok := a.optOrEnv(c, "backend-store-uri", "MLFLOW_TRACKING_URI")
			if !ok || !strings.Contains(store, "://") || isLocalHost(hostOf(store)) || strings.HasPrefix(store, "sqlite:") || strings.HasPrefix(store, "file:") {
				return false, "" // the default ./mlruns, or a store on this machine
			}
			return true, "mlflow gc on " + hostOf(store)
		}},
	{ID: "datastore-superuser-granted", Level: LevelHigh, Category: CategoryPrivilege, Description: "making a data store user a superuser or opening it to every user (root, administrator, superuser roles; every permission)",
		Suggestions: []string{"Grant the narrowest role that does the job", "Let the data store's administrators manage users"},
		names:       names("mongosh", "mongo", "rabbitmqctl", "kafka-acls", "kafka-acls.sh", "etcdctl", "curl", "sqlcmd", "invoke-sqlcmd", "add-dbadbrolemember", "add-dbaserverrolemember", "psql", "mysql"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			low := c.lowerArgs()
			j := strings.Join(low, " ")
			switch c.name {
			case "mongosh", "mongo":
				// db.createUser({... roles: ["root"]}), grantRolesToUser(u, ["root"])
				if (strings.Contains(j, "createuser(") || strings.Contains(j, "grantrolestouser(")) &&
					hasAny(j, `"root"`, `'root'`, "useradminanydatabase", "dbadminanydatabase", `"__system"`, "clusteradmin") {
					return true, "a MongoDB superuser"
				}
			case "rabbitmqctl":
				ops := posArgs(args, optSpec{short: "nt", long: []string{"node", "timeout", "longnames"}})
				if len(ops) > 2 && ops[0].s == "set_user_tags" && hasAny(lower(joinWords(ops[2:])), "administrator") {
					return true, "rabbitmqctl set_user_tags " + ops[1].s + " administrator"
				}
				if len(ops) > 3 && ops[0].s == "set_permissions" && ops[len(ops)-1].s == ".*" && ops[len(ops)-2].s == ".*" && ops[len(ops)-3].s == ".*" {
					if vh, _ := optValue(args, "-p", "vhost"); !scratchName(vh) {
						return true, "rabbitmqctl set_permissions " + ops[1].s + " .* .* .*"
					}
				}
			case "kafka-acls", "kafka-acls.sh":
				p, _ := optValue(args, "", "allow-principal")
				op, _ := optValue(args, "", "operation")
				if hasWord(args, "--add") && (p == "User:*" || strings.EqualFold(op, "All") && (strings.Contains(j, "--topic *") || strings.Contains(j, "--cluster"))) {
					return true, "kafka-acls --allow-principal " + p + " --operation " + op
				}
			case "etcdctl":
				ops := c.operands()
				if len(ops) > 3 && ops[0].s == "user" && ops[1].s == "grant-role" && ops[3].s == "root" {
					return true, "etcdctl user grant-role " + ops[2].s + " root"
				}
			case "curl":
				// Elasticsearch's security API: a user or role mapping given
				// the superuser role
				if strings.Contains(j, "/_security/") && (strings.Contains(j, `"superuser"`) || strings.Contains(j, `\"superuser\"`)) && httpMethod(c) != "GET" {
					return true, "an Elasticsearch superuser"
				}
				// a user's password replaced (elastic's own), or an
				// OpenSearch user made with the admin roles, on a server
				// elsewhere
				if m := httpMethod(c); m != "GET" && m != "HEAD" {
					for _, u := range urlArgs(args) {
						h, lu := hostOf(u), lower(u)
						if h == "" || loopback(h) {
							continue
						}
						if strings.Contains(lu, "/_security/user/") && strings.HasSuffix(strings.SplitN(lu, "?", 2)[0], "/_password") {
							return true, "an Elasticsearch user's password replaced on " + h
						}
						if strings.Contains(lu, "/_plugins/_security/api/internalusers/") && hasAny(j, "admin", "all_access") {
							return true, "an OpenSearch administrator made on " + h
						}
					}
				}
			case "add-dbadbrolemember", "add-dbaserverrolemember":
				if r, ok := swVal(wargs(c), "role", "serverrole"); ok && hasAny(r, "db_owner", "sysadmin", "securityadmin") && !hasSw(wargs(c), "whatif") {
					return true, c.base + " -Role " + r
				}
			default:
				// ALTER LOGIN sa ENABLE / WITH PASSWORD: the server's built-in
				// administrator switched on or given a known password
				if strings.Contains(j, "alter login sa ") && (strings.Contains(j, " enable") || strings.Contains(j, "with password")) {
					return true, "ALTER LOGIN sa"
				}
			}
			return false, ""
		}},
	{ID: "datastore-server-stopped", Level: LevelHigh, Category: CategorySystem, Description: "stopping a shared database or broker server, or killing every connection to it",
		Suggestions: []string{"Stop only a local development server", "Terminate the one session that is stuck"},
		names:       names("mysqladmin", "pg_ctl", "pg_ctlcluster", "mongosh", "mongo", "rabbitmqctl", "psql", "stop-dbaservice", "redis-cli", "mysql", "mariadb", "sqlcmd", "invoke-sqlcmd", "nodetool"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			low := c.lowerArgs()
			j := strings.Join(low, " ")
			if c.name == "nodetool" {
				// a Cassandra node removed from its ring, its hints or
				// its clients cut: nodetool -h HOST assassinate IP
				h, _ := optValue(args, "-h", "host")
				if h != "" && loopback(h) || h == "localhost" || h == "" && !touchesProduction(c) {
					return false, ""
				}
				for _, v := range plainWords(low) {
					switch v {
					case "assassinate", "decommission", "removenode", "truncatehints", "stopdaemon", "disablebinary", "disablegossip", "drain", "resetlocalschema":
						return true, "nodetool " + v
					}
				}
				return false, ""
			}
			local := func() bool {
				for _, h := range dbTargetOf(c).hosts {
					if h != "" && !loopback(h) {
						return false
					}
				}
				return true
			}
			switch c.name {
			case "mysqladmin":
				if hasWord(args, "shutdown") && !local() {
					return true, "mysqladmin shutdown"
				}
			case "pg_ctl", "pg_ctlcluster":
				// the system's cluster (/var/lib/postgresql), stopped at once
				d, _ := optValue(args, "-D", "pgdata")
				if (hasWord(args, "stop") || hasWord(args, "kill")) && (strings.HasPrefix(d, "/var/lib/") || c.name == "pg_ctlcluster" || hasAnyWord(low, "immediate", "-mimmediate")) {
					return true, c.name + " stop"
				}
			case "mongosh", "mongo":
				if (strings.Contains(j, "shutdownserver(") || strings.Contains(j, "shutdown: 1") || strings.Contains(j, "shutdown:1")) && !local() {
					return true, "a MongoDB server shut down"
				}
				if strings.Contains(j, "shutdownserver(") && !scratchTarget(c) {
					return true, "a MongoDB server shut down"
				}
			case "rabbitmqctl":
				ops := posArgs(args, optSpec{short: "npt", long: []string{"node", "vhost", "timeout"}})
				if len(ops) > 0 && ops[0].s == "close_all_connections" {
					// every client of the broker (of a vhost) disconnected
					if n, _ := optValue(args, "-n", "node"); n != "" && !scratchName(n) || n == "" && !local() || touchesProduction(c) {
						return true, "rabbitmqctl close_all_connections"
					}
				}
				if len(ops) > 0 && (ops[0].s == "stop_app" || ops[0].s == "stop" || ops[0].s == "forget_cluster_node" || ops[0].s == "reset" || ops[0].s == "force_reset") {
					if n, _ := optValue(args, "-n", "node"); n != "" && !scratchName(n) || n == "" && !local() {
						return true, "rabbitmqctl " + ops[0].s
					}
					if ops[0].s == "forget_cluster_node" && len(ops) > 1 && !scratchName(ops[1].s) {
						return true, "rabbitmqctl forget_cluster_node " + ops[1].s // a node taken out of the cluster
					}
				}
			case "psql":
				// every other session terminated
				if strings.Contains(j, "pg_terminate_backend") && strings.Contains(j, "pg_stat_activity") && !strings.Contains(j, "datname =") && !strings.Contains(j, "usename =") && !local() {
					return true, "every connection terminated"
				}
			case "mysql", "mariadb":
				// SET GLOBAL read_only = ON on a shared server: every
				// application's writes refused
				if nj := strings.ReplaceAll(j, " ", ""); strings.Contains(j, "set global") && hasAny(nj, "read_only=on", "read_only=1", "offline_mode=on", "offline_mode=1", "max_connections=") && !local() && !scratchTarget(c) {
					return true, "a shared server's global settings changed"
				}
			case "sqlcmd", "invoke-sqlcmd":
				// ALTER DATABASE Orders SET SINGLE_USER WITH ROLLBACK
				// IMMEDIATE: every other session cut off, their
				// transactions rolled back
				if strings.Contains(j, "alter database") && hasAny(j, "single_user", "set offline", "restricted_user") && !local() && !scratchTarget(c) {
					if srv, ok := swVal(wargs(c), "serverinstance", "s"); !ok || !loopback(srv) && !strings.Contains(srv, "localdb") && srv != "." {
						return true, "a shared database taken from its users"
					}
				}
			case "stop-dbaservice":
				if cn, _ := swVal(wargs(c), "computername", "sqlinstance"); cn != "" && !loopback(cn) && !scratchName(cn) {
					return true, "Stop-DbaService " + cn
				}
			case "redis-cli":
				// CLIENT KILL TYPE normal: every application's connection cut
				if hasAnyWord(low, "client") && hasAnyWord(low, "kill") && (hasAnyWord(low, "type") || hasAnyWord(low, "skipme")) && !local() {
					return true, "redis-cli CLIENT KILL"
				}
				if hasWord(args, "SHUTDOWN") || hasWord(args, "shutdown") {
					if !local() {
						return true, "redis-cli SHUTDOWN"
					}
				}
				// CONFIG SET maxmemory-policy noeviction on another
				// machine's server: every client of it behaves differently
				// (a REWRITE makes it stay)
				if i := slices.Index(low, "config"); i >= 0 && i+1 < len(low) && low[i+1] == "set" && i+2 < len(low) && !local() && !scratchTarget(c) &&
					hasAny(low[i+2], "maxmemory", "maxclients", "save", "appendonly", "timeout", "read-only", "min-replicas", "lazyfree", "notify-keyspace") {
					return true, "redis-cli CONFIG SET on a shared server"
				}
			}
			return false, ""
		}},
	{ID: "dns-records-changed", Level: LevelCritical, Category: CategorySystem, Description: "changing or deleting a domain's DNS records or name servers by hand (traffic and mail go elsewhere, or nowhere)",
		Suggestions: []string{"Change DNS through the reviewed zone file or IaC", "Preview the change first (dnscontrol preview, terraform plan)"},
		names: names("aws", "gcloud", "doctl", "az", "samba-tool", "add-dnsserverresourcerecorda", "add-dnsserverresourcerecord", "add-dnsserverresourcerecordcname",
			"set-dnsserverresourcerecord"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			p := cliPath(c)
			j := strings.Join(c.lowerArgs(), " ")
			if hasWord(args, "--dry-run") || hasWord(args, "--help") {
				return false, ""
			}
			for _, w := range args {
				// (by its words: acme.local is a directory's domain)
				if testName(strings.TrimSuffix(w.s, ".")) {
					return false, "" // a test zone or a preview's record
				}
			}
			switch c.name {
			case "aws":
				switch {
				case len(p) > 1 && p[0] == "route53" && p[1] == "change-resource-record-sets":
					if b, _ := optValue(args, "", "change-batch"); !strings.HasPrefix(b, "file://") && (strings.Contains(b, `"DELETE"`) || strings.Contains(b, `"UPSERT"`)) {
						return true, "route53 records changed"
					} else if f := lower(path.Base(strings.TrimPrefix(b, "file://"))); strings.HasPrefix(b, "file://") && strings.Contains(f, "delete") {
						// --change-batch file://delete-apex.json: a batch
						// named for what it does
						return true, "route53 records deleted (" + f + ")"
					}
				case len(p) > 1 && p[0] == "route53domains" && (p[1] == "update-domain-nameservers" || p[1] == "transfer-domain-to-another-aws-account" || p[1] == "disable-domain-transfer-lock"):
					return true, "route53domains " + p[1]
				case len(p) > 1 && p[0] == "route53" && p[1] == "disassociate-vpc-from-hosted-zone":
					return true, "route53 " + p[1]
				}
			case "gcloud":
				if len(p) > 2 && p[0] == "dns" && p[1] == "record-sets" && (p[2] == "update" || p[2] == "delete") {
					return true, "gcloud dns record-sets " + p[2]
				}
			case "doctl":
				if len(p) > 4 && p[0] == "compute" && p[1] == "domain" && p[2] == "records" && (p[3] == "update" || p[3] == "delete") {
					return true, "doctl compute domain records " + p[3]
				}
			case "az":
				if len(p) > 3 && p[0] == "network" && p[1] == "dns" && p[2] == "record-set" && hasAny(j, " update", " delete", " remove-record") {
					return true, "az network dns record-set changed"
				}
			case "samba-tool":
				if len(p) > 1 && p[0] == "dns" && (p[1] == "zonedelete" || p[1] == "delete" || p[1] == "update") {
					return true, "samba-tool dns " + p[1]
				}
			case "add-dnsserverresourcerecorda", "add-dnsserverresourcerecord", "add-dnsserverresourcerecordcname":
				// wpad and isatap: the names browsers and Windows look up
				// to find a proxy or a router, answered by another host
				if n, ok := swVal(wargs(c), "name"); ok && (strings.Trim(n, `"'`) == "wpad" || strings.Trim(n, `"'`) == "isatap") {
					return true, "a " + n + " record"
				}
			default:
				if !hasSw(wargs(c), "whatif") {
					return true, c.base
				}
			}
			return false, ""
		}},
	{ID: "host-firewall-opened", Level: LevelHigh, Category: CategorySystem, Description: "opening the host firewall: an administration or database port to everyone, an interface made trusted, every rule deleted",
		Suggestions: []string{"Allow the port from the addresses that need it (ufw allow from 10.0.0.0/8 to any port 5432)", "Leave the firewall's rules to the administrators"},
		names:       names("ufw", "firewall-cmd", "netsh", "remove-netfirewallrule", "iptables", "ip6tables", "nft", "csf"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			low := c.lowerArgs()
			switch c.name {
			case "nft":
				// nft add rule inet filter input tcp dport { 22, 3306 }
				// accept: let in from every address (no saddr, no iif)
				// (nft 'add rule ... accept': the rule quoted as one word)
				j := strings.Join(low, " ")
				low := strings.Fields(j)
				if !hasAnyWord(low, "add", "insert") || !hasAnyWord(low, "rule") || !hasAnyWord(low, "input") || !hasAnyWord(low, "accept") ||
					strings.Contains(j, "saddr") || strings.Contains(j, "iif") || strings.Contains(j, "ct state") || strings.Contains(j, "flush") {
					return false, ""
				}
				if !strings.Contains(j, "dport") && !strings.Contains(j, "sport") && !strings.Contains(j, "icmp") && !strings.Contains(j, "udp") && !strings.Contains(j, "tcp") && low[len(low)-1] == "accept" {
					return true, "nft accepting every port from anywhere"
				}
				for i, l := range low {
					if l != "dport" {
						continue
					}
					var ports []string
					for _, p := range low[i+1:] {
						p = strings.Trim(p, "{},")
						if p == "" {
							continue
						}
						if p == "accept" || strings.ContainsAny(p[:1], "abcdefghijklmnopqrstuvwxyz") {
							break
						}
						ports = append(ports, p)
					}
					for _, p := range ports {
						if p != "22" && openedPortRisky(p) {
							return true, "nft accepting port " + p + " from anywhere"
						}
					}
				}
			case "iptables", "ip6tables":
				// -I INPUT ... --dport 27017 -j ACCEPT: the port let in from
				// every address (no -s, not the loopback interface)
				if !hasAnyWord(low, "-a", "-i", "--append", "--insert") || !hasAnyWord(low, "input") || !hasAnyWord(low, "accept") {
					return false, "" // (lower case: -I INPUT reads as -i input)
				}
				for i, l := range low {
					if (l == "-s" || l == "--source" || l == "--in-interface") && i+1 < len(low) {
						return false, "" // from some addresses, or on one interface
					}
					if l == "-i" && i+1 < len(low) && low[i+1] != "input" && !strings.HasPrefix(low[i+1], "-") {
						return false, "" // -i lo, -i wg0 (-I INPUT is the insert)
					}
				}
				if port, ok := optValue(args, "", "dport"); ok && port != "22" && openedPortRisky(port) {
					return true, c.name + " accepting port " + port + " from anywhere"
				}
				// -m multiport --dports 2375,2376
				if ports, ok := optValue(args, "", "dports"); ok {
					for p := range strings.SplitSeq(ports, ",") {
						if p != "22" && openedPortRisky(p) {
							return true, c.name + " accepting port " + p + " from anywhere"
						}
					}
				}
			case "csf":
				// ConfigServer's firewall on a hosting server: turned off,
				// flushed, or every address allowed
				for i, l := range low {
					switch l {
					case "-x", "--disable", "-f", "--flush":
						return true, "csf " + l
					case "-a", "--add", "-ta", "--tempallow":
						if i+1 < len(low) && (low[i+1] == "0.0.0.0/0" || low[i+1] == "::/0" || low[i+1] == "0/0") {
							return true, "csf " + l + " " + low[i+1]
						}
					}
				}
			case "ufw":
				ops := c.operands()
				if (len(ops) == 2 || len(ops) == 4 && ops[2].s == "comment") && ops[0].s == "allow" && !hasWord(args, "from") {
					port, _, _ := strings.Cut(ops[1].s, "/")
					// (SSH is how the machine is reached: allowing it before
					// ufw enable is the usual first step)
					if port != "22" && (openedPortRisky(port) || lower(port) == "postgresql" || lower(port) == "mysql") {
						return true, "ufw allow " + ops[1].s + " from anywhere"
					}
				}
			case "firewall-cmd":
				// a rich rule accepting every source address
				if j := strings.Join(low, " "); strings.Contains(j, "rich-rule") && strings.Contains(j, "source address=0.0.0.0/0") && strings.Contains(j, "accept") {
					return true, "a rich rule accepting every address"
				}
				for _, l := range low {
					if l == "--zone=trusted" || l == "--set-default-zone=trusted" {
						if hasAnyWord(low, "--change-interface", "--add-interface") || strings.Contains(strings.Join(low, " "), "--change-interface=") ||
							strings.Contains(strings.Join(low, " "), "--add-interface=") || l == "--set-default-zone=trusted" || strings.Contains(strings.Join(low, " "), "--add-source=0.0.0.0/0") {
							return true, "an interface or every address trusted"
						}
					}
				}
			case "netsh":
				j := strings.Join(low, " ")
				if strings.Contains(j, "firewall delete rule") && strings.Contains(j, "name=all") {
					return true, "netsh: every firewall rule deleted"
				}
				// advfirewall firewall add rule dir=in action=allow
				// localport=5432: a database's port let in from every
				// address (no remoteip=)
				if strings.Contains(j, "firewall add rule") && strings.Contains(j, "dir=in") && strings.Contains(j, "action=allow") && !strings.Contains(j, "remoteip=") {
					for _, l := range low {
						if v, ok := strings.CutPrefix(l, "localport="); ok {
							for p := range strings.SplitSeq(v, ",") {
								if p != "22" && openedPortRisky(p) {
									return true, "netsh: port " + p + " let in from every address"
								}
							}
						}
					}
				}
			case "remove-netfirewallrule":
				wa := wargs(c)
				// (a name given by position comes first; the other words
				// are the values of -Direction, -PolicyStore...)
				if !hasSw(wa, "whatif") && !hasSw(wa, "name", "displayname", "displaygroup", "group") && (len(wa) == 0 || strings.HasPrefix(wa[0], "-")) {
					return true, "Remove-NetFirewallRule without a name (every rule it matches)"
				}
			}
			return false, ""
		}},
	{ID: "trust-store-tampered", Level: LevelHigh, Category: CategorySystem, Description: "deleting the machine's trusted root or intermediate certificates",
		Suggestions: []string{"Remove one named certificate you added", "Leave the system's trust store to its updates"},
		names:       names("certutil", "remove-item", "ri", "del"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name == "certutil" {
				wa := wargs(c)
				for i, w := range wa {
					if (w == "-delstore" || w == "/delstore") && i+1 < len(wa) {
						switch strings.Trim(wa[i+1], `"'`) {
						case "root", "ca", "authroot", "trust", "trustedpublisher":
							return true, "certutil -delstore " + wa[i+1]
						}
					}
				}
				return false, ""
			}
			src := a.srcLow()
			if strings.Contains(src, "where-object") || strings.Contains(src, "| ?") || strings.Contains(src, "-thumbprint") {
				return false, "" // one certificate picked out of the store
			}
			for _, store := range [...]string{`cert:\localmachine\root`, `cert:\localmachine\ca`, `cert:\localmachine\authroot`, `cert:\currentuser\root`} {
				if strings.Contains(src, store) {
					return true, store
				}
			}
			return false, ""
		}},
	{ID: "directory-weakened", Level: LevelHigh, Category: CategoryPrivilege, Description: "weakening an identity directory: its administrator's password set by hand, every user let in, TLS or brute-force protection off, the directory destroyed",
		Suggestions: []string{"Let the directory's administrators change its policies"},
		names: names("kdb5_util", "ipa-server-install", "kcadm.sh", "kcadm", "samba-tool", "ipa", "realm", "set-adaccountcontrol", "set-aduser",
			"set-adcomputer", "set-lapsadreadpasswordpermission", "set-admpwdreadpasswordpermission", "import-gpo", "uninstall-adcscertificationauthority", "certutil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			switch c.name {
			case "set-adaccountcontrol", "set-aduser", "set-adcomputer":
				// Kerberos pre-authentication off (its hash can be cracked
				// offline), no password needed, reversible passwords,
				// delegation to any service or to the ones named
				w := wargs(c)
				if hasSw(w, "whatif") {
					return false, ""
				}
				for _, sw := range [...]string{"doesnotrequirepreauth", "passwordnotrequired", "allowreversiblepasswordencryption", "trustedfordelegation", "trustedtoauthfordelegation"} {
					if v, ok := swVal(w, sw); ok && (v == "$true" || v == "true" || v == "1") {
						return true, c.base + " -" + sw + " " + v
					}
				}
				if _, ok := swVal(w, "principalsallowedtodelegatetoaccount"); ok {
					return true, c.base + " -PrincipalsAllowedToDelegateToAccount (impersonation of any user to it)"
				}
				if strings.Contains(strings.Join(w, " "), "msds-allowedtodelegateto") {
					return true, c.base + " msDS-AllowedToDelegateTo (delegation to the services named)"
				}
				return false, ""
			case "set-lapsadreadpasswordpermission", "set-admpwdreadpasswordpermission":
				// the machines' administrator passwords readable by everyone
				if v, ok := swVal(wargs(c), "allowedprincipals"); ok && hasAny(v, "everyone", "domain users", "authenticated users", "domain computers", `\users`) {
					return true, "LAPS passwords readable by " + v
				}
				return false, ""
			case "import-gpo":
				// a backup imported over a live policy
				if v, ok := swVal(wargs(c), "targetname"); ok && !hasSw(wargs(c), "whatif") && !testName(v) && !scratchName(v) {
					return true, "Import-GPO over " + v
				}
				return false, ""
			case "uninstall-adcscertificationauthority":
				return !hasSw(wargs(c), "whatif"), "the certification authority removed"
			case "certutil":
				// the CA's private key exported, the enterprise's trust of
				// its CA removed, a certificate revoked for good
				w := wargs(c)
				for i, x := range w {
					switch x {
					case "-backupkey", "/backupkey":
						return true, "certutil -backupkey (the CA's private key exported)"
					case "-delstore", "/delstore":
						if i+1 < len(w) && strings.Trim(w[i+1], `"'`) == "ntauth" {
							return true, "certutil -delstore NTAuth (certificate logon fails domain-wide)"
						}
					case "-revoke", "/revoke":
						return true, "certutil -revoke"
					}
				}
				return false, ""
			}
			args := c.args()
			ops := c.operands()
			j := strings.Join(c.lowerArgs(), " ")
			switch c.name {
			case "kdb5_util":
				if hasWord(ops, "destroy") {
					return true, "kdb5_util destroy (the Kerberos database)"
				}
			case "ipa-server-install":
				if hasWord(args, "--uninstall") {
					return true, "ipa-server-install --uninstall"
				}
			case "kcadm.sh", "kcadm":
				if src := a.srcLow(); strings.Contains(src, "--server http://localhost") || strings.Contains(src, "--server http://127.") {
					return false, "" // a Keycloak on this machine, for development
				}
				if len(ops) > 1 && (ops[0].s == "update" || ops[0].s == "create") &&
					hasAny(j, "sslrequired=none", "bruteforceprotected=false", "registrationallowed=true", "verifyemail=false") {
					return true, "kcadm " + ops[0].s + " " + ops[1].s
				}
				if len(ops) > 1 && ops[0].s == "delete" && (strings.HasPrefix(ops[1].s, "users/") || strings.HasPrefix(ops[1].s, "clients/") || strings.HasPrefix(ops[1].s, "groups/")) {
					if r, _ := optValue(args, "-r", "target-realm"); !scratchName(r) {
						return true, "kcadm delete " + ops[1].s
					}
				}
			case "samba-tool":
				if len(ops) > 2 && ops[0].s == "user" && ops[1].s == "setpassword" && (lower(ops[2].s) == "administrator" || lower(ops[2].s) == "admin") {
					return true, "samba-tool user setpassword " + ops[2].s
				}
			case "ipa":
				if len(ops) > 1 && ops[0].s == "hbacrule-enable" && ops[1].s == "allow_all" {
					return true, "ipa hbacrule-enable allow_all"
				}
			case "realm":
				if len(ops) > 0 && ops[0].s == "permit" && hasWord(args, "--all") {
					return true, "realm permit --all"
				}
			}
			return false, ""
		}},
	{ID: "private-key-printed", Level: LevelHigh, Category: CategoryExfiltration, Description: "printing a private key into the transcript",
		Suggestions: []string{"Print the public half (openssl pkey -pubout, wg pubkey)", "Check the key with -check -noout"},
		names:       names("openssl", "wg"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if a.wantOut > 0 || !shownOnTerminal(c) {
				return false, ""
			}
			for _, r := range c.redirs {
				if r.isOutput() {
					return false, ""
				}
			}
			switch c.name {
			case "wg":
				ops := c.operands()
				if len(ops) > 2 && ops[0].s == "show" && ops[2].s == "private-key" {
					return true, "wg show " + ops[1].s + " private-key"
				}
				if len(ops) > 1 && ops[0].s == "showconf" {
					return true, "wg showconf " + ops[1].s // the interface's settings, its private key among them
				}
				if len(ops) > 2 && ops[0].s == "show" && ops[len(ops)-1].s == "dump" {
					return true, "wg show " + ops[1].s + " dump" // each interface's line starts with its private key
				}
			case "openssl":
				ops := c.operands()
				if len(ops) == 0 || ops[0].s != "rsa" && ops[0].s != "pkey" && ops[0].s != "ec" {
					return false, ""
				}
				in, _ := optValue(args, "-in", "")
				if in == "" || hasWord(args, "-pubout") || hasWord(args, "-out") {
					return false, ""
				}
				if hasWord(args, "-noout") && !hasWord(args, "-text") {
					return false, "" // -check -noout prints no key
				}
				// a key file by its name: server.key, private/tls.pem
				if p := lower(in); (strings.Contains(p, "private") || strings.Contains(p, "/etc/ssl") || strings.Contains(p, ".ssh/") || strings.HasSuffix(p, ".key")) && !scratchName(p) {
					return true, "openssl " + ops[0].s + " -in " + in
				}
			}
			return false, ""
		}},
	{ID: "etcd-cluster-weakened", Level: LevelHigh, Category: CategorySystem, Description: "switching off a remote etcd cluster's authentication, replacing its root password or removing one of its members",
		Suggestions: []string{"Change the cluster's membership and access through its operators", "Try it on a local etcd first"},
		names:       names("etcdctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			// (--endpoints URL, --user U: options' values, not operands)
			ops := posArgs(c.args(), optSpec{long: []string{"endpoints", "cacert", "cert", "key", "user", "password", "dial-timeout", "command-timeout", "discovery-srv", "write-out", "w"}})
			if len(ops) < 2 || !a.etcdRemote(c) || hasWord(c.args(), "--help") {
				return false, ""
			}
			switch {
			case ops[0].s == "auth" && ops[1].s == "disable":
				return true, "etcdctl auth disable"
			case ops[0].s == "member" && (ops[1].s == "remove" || ops[1].s == "rm") && len(ops) > 2:
				return true, "etcdctl member remove " + ops[2].s
			case ops[0].s == "user" && ops[1].s == "passwd" && len(ops) > 2 && ops[2].s == "root":
				// root's password replaced: its operators locked out
				return true, "etcdctl user passwd root"
			}
			return false, ""
		}},
	{ID: "etcd-secrets-printed", Level: LevelHigh, Category: CategoryExfiltration, Description: "printing the secret values kept in a remote etcd cluster",
		Suggestions: []string{"List the keys only (--keys-only)", "Read one non-secret key"},
		names:       names("etcdctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			// (--endpoints URL, --cacert F: options' values, not the key)
			ops := posArgs(args, optSpec{long: []string{"endpoints", "cacert", "cert", "key", "user", "password", "dial-timeout", "command-timeout", "discovery-srv", "write-out", "w"}})
			if len(ops) < 2 || ops[0].s != "get" || hasWord(args, "--keys-only") || hasWord(args, "--count-only") {
				return false, ""
			}
			// /registry/secrets: a Kubernetes cluster's Secret objects,
			// whichever endpoint serves them
			if strings.HasPrefix(ops[1].s, "/registry/secrets") {
				return true, "etcdctl get " + ops[1].s
			}
			if !a.etcdRemote(c) {
				return false, ""
			}
			for _, k := range ops[1:] {
				if l := lower(k.s); hasAny(l, "secret", "password", "credential", "token", "private") {
					return true, "etcdctl get " + k.s
				}
			}
			return false, ""
		}},
}

// optOrEnv returns a client's long option's value (--endpoints), else the
// variable that stands for it, set on the command or earlier on the line.
func (a *analysis) optOrEnv(c *cmd, opt, env string) (string, bool) {
	if v, ok := optValue(c.args(), "", opt); ok {
		return v, true
	}
	return a.envOf(c, env)
}

// etcdRemote reports an etcdctl talking to a cluster on another machine:
// its --endpoints (or ETCDCTL_ENDPOINTS) name a host that is not this one.
func (a *analysis) etcdRemote(c *cmd) bool {
	eps, ok := a.optOrEnv(c, "endpoints", "ETCDCTL_ENDPOINTS")
	if !ok {
		return false // the default, this machine's 127.0.0.1:2379
	}
	for ep := range strings.SplitSeq(eps, ",") {
		h := hostOf(ep)
		if h == "" {
			h, _, _ = strings.Cut(ep, ":")
		}
		if h != "" && !isLocalHost(lower(h)) && !strings.HasPrefix(h, "$") {
			return true
		}
	}
	return false
}

func init() { ruleSets = append(ruleSets, dataStoreRules, searchClusterRules) }

// searchClusterRules judge Elasticsearch's and OpenSearch's REST API
// called with an HTTP client: the calls that lose an index without a
// DELETE, or take the cluster's safeguards and access control away.
var searchClusterRules = []*rule{
	// (no names: a program with rules of its own loses the generic
	// clients' reading of production, which rpk's deletions need)
	{ID: "kafka-acl-all", Level: LevelHigh, Category: CategoryPrivilege, Description: "granting a principal every operation on a whole Kafka or Redpanda cluster",
		Suggestions: []string{"Grant the operations on the topics the principal needs"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.name != "rpk" {
				return false, ""
			}
			// rpk acl create --allow-principal U --operation all --cluster
			sub := clientSubWords(c).list()
			if len(sub) < 2 || sub[0] != "acl" || sub[1] != "create" {
				return false, ""
			}
			args := c.args()
			op, _ := optValue(args, "", "operation")
			j := joinWords(args)
			if strings.EqualFold(op, "all") && (hasWord(args, "--cluster") || strings.Contains(j, "--topic *")) {
				p, _ := optValue(args, "", "allow-principal")
				return true, "rpk acl create --allow-principal " + p + " --operation all"
			}
			return false, ""
		}},
	{ID: "search-index-removed", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "removing a search index through an alias action (the index and its documents are deleted)",
		Suggestions: []string{"Move the alias with remove and add actions; delete old indices by name after a snapshot"},
		names:       names("curl", "http", "https", "xh", "wget", "invoke-restmethod", "invoke-webrequest"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if !strings.Contains(a.src, "remove_index") {
				return false, ""
			}
			if u := searchAPIPath(c, "/_aliases"); u != "" && !scratchName(strings.ReplaceAll(lower(u), "example.", "")) {
				return true, "remove_index on " + u
			}
			return false, ""
		}},
	{ID: "search-cluster-unguarded", Level: LevelHigh, Category: CategoryPermission, Description: "switching off a search cluster's safeguard or access control (wildcard deletes allowed, every user mapped to the admin role), or closing a production index",
		Suggestions: []string{"Keep action.destructive_requires_name on", "Map named roles to named users"},
		names:       names("curl", "http", "https", "xh", "wget", "invoke-restmethod", "invoke-webrequest"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := c.argsText()
			if u := searchAPIPath(c, "/_cluster/settings"); u != "" && strings.Contains(j, "destructive_requires_name") && strings.Contains(j, "false") {
				return true, "action.destructive_requires_name false"
			}
			if u := searchAPIPath(c, "/rolesmapping/all_access"); u != "" && (strings.Contains(j, `["*"]`) || strings.Contains(j, `[\"*\"]`)) {
				return true, "every user mapped to all_access"
			}
			if u := searchAPIPath(c, "/rolesmapping/all_access"); u != "" && !isLocalHost(hostOf(u)) && hasAny(j, `"users"`, `"backend_roles"`) && !hasAny(lower(j), " get ", "-x get") {
				return true, "users mapped to the admin role (all_access) on " + u
			}
			if u := searchAPIPath(c, "/_close"); u != "" && prodMarker(u) {
				return true, "closing " + u
			}
			// shards no longer placed, or every replica removed, on a
			// production cluster
			if u := searchAPIPath(c, "/_cluster/settings"); u != "" && prodMarker(u) && (strings.Contains(j, "allocation.enable") && strings.Contains(j, "none") || strings.Contains(j, "allocation.exclude.") && strings.Contains(j, "*")) {
				return true, "shard allocation switched off on " + u
			}
			if u := searchAPIPath(c, "/_settings"); u != "" && prodMarker(u) && (strings.Contains(j, `"number_of_replicas":0`) || strings.Contains(j, `"number_of_replicas": 0`) || strings.Contains(j, `number_of_replicas=0`)) {
				return true, "every replica removed on " + u
			}
			return false, ""
		}},
}

// searchAPIPath returns the first argument of an HTTP client that is a
// URL (with or without its scheme) whose path holds part, or "".
func searchAPIPath(c *cmd, part string) string {
	for _, w := range c.args() {
		if strings.HasPrefix(w.s, "-") || !strings.Contains(w.s, part) {
			continue
		}
		if i := strings.IndexByte(w.s, '/'); i > 0 && (strings.Contains(w.s[:i], ".") || strings.Contains(w.s[:i], ":") || strings.HasPrefix(w.s, "http")) {
			return strings.Trim(w.s, `"'`)
		}
	}
	return ""
}

// scratchTarget reports a database client whose words name a test,
// preview or throwaway target.
func scratchTarget(c *cmd) bool {
	for _, w := range c.args() {
		if scratchName(w.s) {
			return true
		}
	}
	return false
}

// privateIface reports an interface only this machine or its own
// network reaches (loopback, containers' bridges, VPN tunnels); "" is
// none named.
func privateIface(n string) bool {
	for _, p := range [...]string{"lo", "docker", "br-", "virbr", "cni", "wg", "tailscale", "tun", "veth"} {
		if n != "" && strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// openedPortRisky reports a port that should not be opened to every
// address: a database's or an administration service's (sensitivePorts),
// or any other than the web's and the usual development servers' (4444,
// a remote desktop, a debugger: a listener someone is meant to reach).
func openedPortRisky(p string) bool {
	if sensitivePorts(p) {
		return true
	}
	for _, part := range strings.Split(strings.Trim(p, `"' `), ",") {
		part = strings.TrimSpace(part)
		if lo, hi, ok := strings.Cut(strings.ReplaceAll(part, "-", ":"), ":"); ok {
			// 8000:9000: a range of ports, whatever listens there
			l, err1 := strconv.Atoi(lo)
			h, err2 := strconv.Atoi(hi)
			if err1 == nil && err2 == nil && h > l {
				return true
			}
		}
		n, err := strconv.Atoi(part)
		if err != nil {
			continue
		}
		switch n {
		case 22, 53, 80, 123, 443, 3000, 4200, 5000, 5173, 8000, 8080, 8443, 8888, 25, 465, 587, 993, 995, 51820, 1194:
		default:
			return true
		}
	}
	return false
}
