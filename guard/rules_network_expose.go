package guard

import (
	"path"
	"strings"
)

// Internal services put on every address of the machine: a cluster's
// service forwarded to all interfaces, an SSH tunnel or SOCKS proxy
// others on the network can use, the container runtime's socket relayed
// to a TCP port, an SSH server told to take root or password logins.
var networkExposeRules = []*rule{
	{ID: "traffic-through-stranger", Level: LevelHigh, Category: CategoryExfiltration, Description: "sending the machine's or a tool's traffic through a proxy, tunnel or VPN peer on an unknown host (it sees and can change everything that passes)",
		Suggestions: []string{"Use the organisation's proxy or VPN, by its internal name", "Set a proxy for one command only, to a host you trust"},
		names:       names("setx", "git", "npm", "pnpm", "yarn", "pip", "pip3", "sshuttle", "wg", "openvpn"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "setx":
				// setx HTTPS_PROXY http://203.0.113.9:8080: every later
				// session's (a shell's own export ends with it); with /M,
				// every account's, whatever the proxy (an intercepting
				// one on this machine included)
				machine := hasWord(args, "/M") || hasWord(args, "/m") || hasWord(args, "-m")
				for i, w := range args {
					k, v, ok := strings.Cut(w.s, "=")
					if !ok && i+1 < len(args) && !strings.HasPrefix(w.s, "-") && !strings.HasPrefix(w.s, "/") {
						k, v, ok = w.s, args[i+1].s, true
					}
					if ok && proxyVar(k) {
						if h := strangerProxy(v); h != "" {
							return true, k + " → " + h
						}
						if machine && strings.Trim(v, `"'`) != "" {
							return true, k + " for every account of the machine"
						}
					}
				}
			case "git", "npm", "pnpm", "yarn", "pip", "pip3":
				// git config --global http.proxy URL, npm config set proxy URL
				if !hasWord(args, "config") {
					return false, ""
				}
				for i, w := range ops {
					l := lower(w.s)
					if (strings.HasSuffix(l, "proxy") || strings.HasSuffix(l, "proxy-server")) && i+1 < len(ops) {
						if h := strangerProxy(ops[i+1].s); h != "" {
							return true, c.name + " " + w.s + " → " + h
						}
					}
					if k, v, ok := strings.Cut(l, "="); ok && strings.HasSuffix(k, "proxy") {
						if h := strangerProxy(v); h != "" {
							return true, c.name + " " + w.s
						}
					}
				}
			case "sshuttle":
				// sshuttle -r user@HOST 0/0: every connection through HOST
				r, _ := optValue(args, "-r", "remote")
				_, host, _ := strings.Cut(r, "@")
				if host == "" {
					host = r
				}
				host, _, _ = strings.Cut(host, ":")
				all := false
				for _, w := range ops {
					if w.s == "0/0" || w.s == "0.0.0.0/0" || w.s == "::/0" {
						all = true
					}
				}
				if all && isPublicIP(host) {
					return true, "every connection through " + host
				}
			case "wg":
				// wg set wg0 peer KEY allowed-ips 0.0.0.0/0 endpoint IP
				if len(ops) > 0 && ops[0].s == "set" {
					ips, _ := optWordAfter(ops, "allowed-ips")
					ep, _ := optWordAfter(ops, "endpoint")
					host, _, _ := strings.Cut(ep, ":")
					if strings.Contains(ips, "0.0.0.0/0") && isPublicIP(host) {
						return true, "every connection to peer " + ep
					}
				}
			case "openvpn":
				// a profile from the network (or a download), whose
				// up/down scripts run as root with --script-security 2
				cfg, ok := optValue(args, "", "config")
				if !ok {
					return false, ""
				}
				for _, w := range args {
					if w.s == cfg && w.flow != nil && w.flow.kind == flowRemote {
						return true, "a profile from " + w.flow.what
					}
				}
				if a.isDownloaded(cfg, c.cwd) {
					return true, "a profile downloaded moments ago: " + cfg
				}
			}
			return false, ""
		}},
	{ID: "proxy-settings-stranger", Level: LevelHigh, Category: CategoryExfiltration, Description: "writing a proxy on an unknown host into a tool's settings (every later request passes through it)",
		Suggestions: []string{"Use the organisation's proxy, by its internal name"}, writes: true,
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, t := range a.writeTargets(c) {
				if t.content.kind != flowText || t.path == "" {
					continue
				}
				base := path.Base(t.path)
				if base != ".curlrc" && base != ".wgetrc" && base != "config.json" && base != "environment" && !strings.Contains(t.path, "/apt.conf") && base != ".npmrc" && base != "pip.conf" {
					continue
				}
				if base == "config.json" && !strings.Contains(t.path, "/.docker/") {
					continue
				}
				for _, line := range strings.Split(t.content.text, "\n") {
					l := lower(line)
					if !strings.Contains(l, "proxy") {
						continue
					}
					for _, f := range strings.FieldsFunc(line, func(r rune) bool {
						return r == '"' || r == '\'' || r == ' ' || r == '=' || r == ',' || r == ';' || r == '{' || r == '}'
					}) {
						if strings.Contains(f, "://") || strings.Count(f, ".") == 3 {
							if h := strangerProxy(f); h != "" {
								return true, t.raw + ": proxy " + h
							}
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "browser-profile-debug-port", Level: LevelHigh, Category: CategoryExfiltration, Description: "a browser started with its debugging port on the user's own profile (any program that reaches the port drives the browser with every session, cookie and saved password it holds)",
		Suggestions: []string{"Give the automation a profile of its own (--user-data-dir=/tmp/profile)", "Use Playwright's or Puppeteer's bundled browser"},
		names:       names("chrome", "google-chrome", "google-chrome-stable", "chromium", "chromium-browser", "msedge", "microsoft-edge", "brave", "brave-browser"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if browserDebugsOwnProfile(c) {
				return true, c.name + " --remote-debugging-port with the user's own profile"
			}
			return false, ""
		}},
	{ID: "debugger-on-every-address", Level: LevelCritical, Category: CategoryRemoteExec, Description: "opening a debugger or inspector port on every address of the machine (whoever reaches it runs code in the program)",
		Suggestions: []string{"Bind the debugger to 127.0.0.1 and reach it through an SSH tunnel"},
		match: func(a *analysis, c *cmd) (bool, string) {
			// node --inspect=0.0.0.0:9229, NODE_OPTIONS=--inspect=0.0.0.0,
			// java -agentlib:jdwp=...,address=*:5005, chrome
			// --remote-debugging-address=0.0.0.0
			if len(c.assigns) == 0 && len(a.vars) == 0 && len(c.words) < 2 {
				return false, ""
			}
			for _, as := range c.assigns {
				if (as.name == "NODE_OPTIONS" || as.name == "JAVA_TOOL_OPTIONS" || as.name == "JDK_JAVA_OPTIONS" || as.name == "_JAVA_OPTIONS") && debuggerEverywhere(as.val.s) {
					return true, as.name + "=" + as.val.s
				}
			}
			if v, ok := a.vars["NODE_OPTIONS"]; ok && (c.name == "node" || c.name == "npm" || c.name == "npx" || c.name == "yarn" || c.name == "pnpm") && debuggerEverywhere(v.s) {
				return true, "NODE_OPTIONS=" + v.s
			}
			for _, w := range c.args() {
				if (strings.HasPrefix(w.s, "--inspect") || strings.HasPrefix(w.s, "--remote-debugging-address") || strings.HasPrefix(w.s, "-agentlib:jdwp") || strings.HasPrefix(w.s, "-Xrunjdwp")) && debuggerEverywhere(w.s) {
					return true, c.name + " " + w.s
				}
				// mvn spring-boot:run -Dspring-boot.run.jvmArguments="-agentlib:jdwp=...":
				// the JVM's options handed through a build property
				if _, v, ok := strings.Cut(w.s, "="); ok && strings.HasPrefix(w.s, "-D") && (strings.Contains(v, "-agentlib:jdwp") || strings.Contains(v, "-Xrunjdwp")) && debuggerEverywhere(v) {
					return true, c.name + " " + w.s
				}
			}
			if lower(c.name) == "msvsmon" && (hasFoldWord(c.args(), "/noauth") || hasFoldWord(c.args(), "-noauth")) {
				// Visual Studio's remote debugger with no authentication:
				// anyone on the network attaches to any process
				return true, "msvsmon /noauth"
			}
			if c.name == "dlv" && hasWord(c.args(), "--headless") {
				// dlv debug --headless --listen=:2345: Delve's API on every
				// address (no host is every host)
				if v, ok := optValue(c.args(), "-l", "listen"); ok {
					host, _, _ := strings.Cut(v, ":")
					if strings.HasPrefix(v, "[") {
						host, _, _ = strings.Cut(v[1:], "]")
						host = "[" + host + "]"
					}
					if host == "" || host == "0.0.0.0" || host == "[::]" {
						return true, "dlv --headless --listen=" + v
					}
				}
			}
			return false, ""
		}},
	{ID: "passwordless-database-published", Level: LevelHigh, Category: CategorySystem, Description: "running a database that takes anyone without a password, published on every address of the machine",
		Suggestions: []string{"Publish it on 127.0.0.1 only (-p 127.0.0.1:5432:5432)", "Give it a password"},
		names:       names("docker", "podman", "nerdctl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			if len(ops) == 0 || ops[0].s != "run" && !(ops[0].s == "container" && len(ops) > 1 && ops[1].s == "run") {
				return false, ""
			}
			open := ""
			for _, w := range args {
				switch l := lower(w.s); {
				case strings.HasPrefix(l, "postgres_host_auth_method=trust"), strings.HasPrefix(l, "mysql_allow_empty_password="),
					strings.HasPrefix(l, "mariadb_allow_empty_root_password="), strings.HasPrefix(l, "allow_empty_password=yes"),
					strings.HasPrefix(l, "xpack.security.enabled=false"):
					open = w.s
				}
			}
			if open == "" {
				return false, ""
			}
			specs, all := containerPublished(args)
			if all {
				return true, open + " published on every address"
			}
			for _, p := range specs {
				if !strings.HasPrefix(p, "127.") && !strings.HasPrefix(p, "localhost:") && !strings.HasPrefix(p, "[::1]") {
					return true, open + " published as " + p
				}
			}
			return false, ""
		}},
	{ID: "forward-on-every-address", Level: LevelHigh, Category: CategorySystem, Description: "forwarding an internal service or a tunnel to every address of the machine",
		Suggestions: []string{"Bind forwards and tunnels to 127.0.0.1 (the default)"},
		names:       names("kubectl", "oc", "ssh", "autossh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "kubectl", "oc":
				if len(c.operands()) == 0 || !hasWord(args, "port-forward") {
					return false, ""
				}
				if v, ok := optValue(args, "", "address"); ok {
					for a := range strings.SplitSeq(v, ",") {
						if everyAddress(a) {
							return true, c.name + " port-forward --address " + v
						}
					}
				}
			default:
				for i, w := range args {
					switch {
					case w.s == "-g" || len(w.s) > 2 && w.s[0] == '-' && w.s[1] != '-' && strings.Contains(w.s, "g") && strings.Trim(w.s[1:], "fNTCqnvg") == "":
						if hasWord(args, "-L") || hasWord(args, "-D") {
							return true, c.name + " -g"
						}
					case (w.s == "-D" || w.s == "-L" || w.s == "-R") && i+1 < len(args):
						bind, _, _ := strings.Cut(args[i+1].s, ":")
						if w.s != "-R" && everyAddress(bind) && strings.Contains(args[i+1].s, ":") {
							return true, c.name + " " + w.s + " " + args[i+1].s
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "code-server-on-every-address", Level: LevelHigh, Category: CategorySystem, Description: "serving a notebook or code server (it runs any code it is sent) on every address of the machine",
		Suggestions: []string{"Keep it on 127.0.0.1 and reach it through an SSH tunnel"},
		names:       names("jupyter", "jupyter-lab", "jupyter-notebook", "code-server", "marimo"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			v, ok := optValue(args, "", "ip", "ServerApp.ip", "NotebookApp.ip", "host", "bind-addr")
			if !ok {
				return false, ""
			}
			if host, _, _ := strings.Cut(strings.Trim(v, `"'`), ":"); everyAddress(host) || host == "*" || host == "" && strings.HasPrefix(v, ":") {
				return true, c.name + " on " + v
			}
			return false, ""
		}},
	{ID: "listener-on-every-address", Level: LevelHigh, Category: CategorySystem, Description: "starting a program that listens on every address of the machine (anyone on the network reaches it)",
		Suggestions: []string{"Listen on 127.0.0.1 (the default of most tools)", "Reach it from elsewhere through an SSH tunnel"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if appServers[c.name] && !debuggerOn(c) || len(c.words) < 2 {
				return false, "" // the project's own app, served for a browser or a container's port
			}
			args := c.args()
			switch lower(c.name) { // (JLinkGDBServerCL, Xvnc: written with capitals)
			case "gost":
				// gost -L socks5://:1080: a proxy on every address (no host)
				for i, w := range args {
					if w.s == "-L" && i+1 < len(args) {
						if _, rest, ok := strings.Cut(args[i+1].s, "://"); ok && (strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "0.0.0.0:") || strings.Contains(rest, "@:")) {
							return true, "gost -L " + args[i+1].s
						}
					}
				}
				return false, ""
			case "microsocks":
				// a SOCKS proxy, on every address unless -i says otherwise
				if v, ok := optValue(args, "-i", ""); !ok || v == "0.0.0.0" || v == "::" {
					return true, "microsocks on every address"
				}
				return false, ""
			case "vncserver", "xvnc", "tigervncserver", "x11vnc":
				// vncserver -SecurityTypes None -localhost no: the desktop for
				// anyone who connects, without a password (x11vnc -nopw)
				low := c.lowerArgs()
				noAuth, localOnly := false, false
				for i, w := range low {
					next := ""
					if i+1 < len(low) {
						next = low[i+1]
					}
					switch w {
					case "-securitytypes", "--securitytypes":
						noAuth = noAuth || strings.Contains(next, "none")
					case "-nopw":
						noAuth = true
					case "-localhost", "--localhost":
						localOnly = next != "no" && next != "0"
					}
				}
				if noAuth && !localOnly {
					return true, c.name + " without a password"
				}
				return false, ""
			case "openocd":
				// openocd -c "bindto 0.0.0.0": its GDB, telnet and Tcl ports
				// (memory and flash of the board, and commands) for anyone
				for _, w := range args {
					if f := strings.Fields(strings.Trim(w.s, `"'`)); len(f) > 1 && f[0] == "bindto" && (f[1] == "0.0.0.0" || f[1] == "::") {
						return true, "openocd bindto " + f[1]
					}
				}
				return false, ""
			case "jlinkgdbserver", "jlinkgdbservercl", "jlinkgdbserverclexe", "jlinkremoteserver", "jlinkremoteservercl":
				if hasWord(args, "-nolocalhostonly") || hasWord(args, "-LocalhostOnly") && hasWord(args, "0") {
					return true, c.base + " -nolocalhostonly"
				}
				return false, ""
			case "ffmpeg":
				// ffmpeg ... -listen 1 rtmp://0.0.0.0:1935/live/x: the stream
				// served to anyone who connects
				if !hasWord(args, "-listen") {
					return false, ""
				}
				for _, w := range args {
					if l := lower(w.s); strings.Contains(l, "://0.0.0.0:") || strings.Contains(l, "://[::]:") {
						return true, "ffmpeg -listen " + w.s
					}
				}
				return false, ""
			case "socat":
				// socat TCP-LISTEN:4000,fork FILE:/dev/ttyUSB0: a device
				// or a shell on a port of every address (no bind=); a PLC's
				// Modbus port relayed there is the plant's controller for
				// anyone
				if ops := c.operands(); len(ops) == 2 {
					l, r := lower(ops[0].s), lower(ops[1].s)
					if (strings.HasPrefix(l, "tcp-listen:") || strings.HasPrefix(l, "tcp4-listen:") || strings.HasPrefix(l, "tcp6-listen:")) && !strings.Contains(l, "bind=") && !strings.Contains(l, "range=") &&
						(strings.Contains(r, "/dev/") || strings.HasPrefix(r, "exec:") || strings.HasPrefix(r, "system:") || strings.HasPrefix(r, "tcp:") && (strings.HasSuffix(r, ":502") || strings.HasSuffix(r, ":102") || strings.HasSuffix(r, ":44818"))) {
						return true, "socat " + ops[0].s + " " + ops[1].s
					}
				}
				return false, ""
			case "ser2net":
				// ser2net -C '0.0.0.0,2000:telnet:...': a serial port on
				// every address
				if v, ok := optValue(args, "-C", ""); ok && (strings.HasPrefix(v, "0.0.0.0,") || strings.HasPrefix(v, "::,") || strings.HasPrefix(v, ",") || !strings.Contains(v, ",") && len(v) > 0 && v[0] >= '0' && v[0] <= '9' && !strings.HasPrefix(v, "127.")) {
					return true, "ser2net -C " + v
				}
				return false, ""
			case "rclone":
				// rclone serve webdav / --addr :8443: a folder (the root,
				// the home) served to the network
				if len(args) > 2 && args[0].s == "serve" {
					v, ok := optValue(args, "", "addr")
					host, _, _ := strings.Cut(v, ":")
					if ok && (host == "" || everyAddress(host)) {
						if ops := positional(args[2:]); len(ops) > 0 {
							switch a.classifyUnder(ops[0], c.cwd, false) {
							case pcRoot, pcHome, pcSystemCrit, pcSecretsHome, pcHomeConfig, pcHomeSub, pcOutside, pcDBData, pcSystemSub:
								// (a shared data folder outside the project
								// too: the project's own build output passes)
								return true, "rclone serve " + args[1].s + " " + ops[0].s + " on " + v
							}
						}
					}
				}
				return false, ""
			case "ollama":
				// OLLAMA_HOST=0.0.0.0 ollama serve: the model server and its
				// API (pull, delete, create) for anyone
				if ops := c.operands(); len(ops) > 0 && ops[0].s == "serve" {
					if v, ok := a.envOf(c, "OLLAMA_HOST"); ok {
						if h, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(v, "http://"), "https://"), ":"); h == "0.0.0.0" || h == "" && strings.HasPrefix(v, ":") || h == "[::]" {
							return true, "OLLAMA_HOST=" + v + " ollama serve"
						}
					}
				}
				return false, ""
			}
			if a.loopbackNet > 0 || (c.name == "docker" || c.name == "podman" || c.name == "nerdctl") && loopbackPublishOnly(args) {
				// --http.addr 0.0.0.0 inside a container whose ports reach
				// this machine's loopback only
				return false, ""
			}
			for i, w := range args {
				if !strings.HasPrefix(w.s, "-") {
					continue
				}
				opt, v, eq := strings.Cut(strings.TrimLeft(w.s, "-"), "=")
				if !listenOption(opt) {
					continue
				}
				if !eq {
					if i+1 >= len(args) {
						continue
					}
					v = args[i+1].s
				}
				v = strings.Trim(v, `"'`)
				v = strings.TrimPrefix(strings.TrimPrefix(v, "tcp://"), "http://")
				host := v
				if strings.HasPrefix(v, "[") {
					host, _, _ = strings.Cut(v[1:], "]")
				} else if strings.Count(v, ":") == 1 {
					host, _, _ = strings.Cut(v, ":")
				}
				if host == "0.0.0.0" || host == "::" || host == "*" && strings.Contains(opt, "listen") {
					return true, c.name + " " + w.s
				}
			}
			return false, ""
		}},
	{ID: "mesh-routes-advertised", Level: LevelHigh, Category: CategorySystem, Description: "offering the machine as a VPN mesh's exit node or router into its networks (every peer reaches them through it)",
		Suggestions: []string{"Share the one service a peer needs (tailscale serve)", "Let the network's administrator approve routes"},
		names:       names("tailscale", "headscale", "netbird", "zerotier-cli"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if hasPrefixWord(c.args(), "--authkey") || hasPrefixWord(c.args(), "--auth-key") {
				return false, "" // joined by a key: tailnet-join-by-key's
			}
			for _, w := range c.args() {
				switch {
				case w.s == "--advertise-exit-node" || w.s == "--advertise-exit-node=true":
					return true, c.name + " " + w.s
				case strings.HasPrefix(w.s, "--advertise-routes="):
					if v := strings.TrimPrefix(w.s, "--advertise-routes="); v != "" {
						return true, c.name + " " + w.s
					}
				}
			}
			return false, ""
		}},
	{ID: "runtime-socket-relayed", Level: LevelCritical, Category: CategorySystem, Description: "relaying the container runtime's socket to a network port (root on the machine for anyone who reaches it)",
		Suggestions: []string{"Use the socket locally, or a TLS-protected remote context"},
		names:       names("socat", "ncat", "nc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := lower(c.argsText())
			if !strings.Contains(j, "docker.sock") && !strings.Contains(j, "containerd.sock") && !strings.Contains(j, "podman.sock") {
				return false, ""
			}
			if strings.Contains(j, "tcp-listen:") || strings.Contains(j, "tcp4-listen:") || strings.Contains(j, "tcp6-listen:") || strings.Contains(j, " -l") {
				return true, "runtime socket on a TCP port"
			}
			return false, ""
		}},
	{ID: "local-service-relayed", Level: LevelHigh, Category: CategorySystem, Description: "relaying a local socket, or an administration or database port, to every address",
		Suggestions: []string{"Add bind=127.0.0.1 to the listening address", "Reach the service through an SSH tunnel"},
		names:       names("socat"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) < 2 {
				return false, ""
			}
			listen, target := lower(ops[0].s), lower(ops[1].s)
			if !socatListener(listen) {
				listen, target = target, listen
				if !socatListener(listen) {
					return false, ""
				}
			}
			if strings.Contains(listen, "bind=127.") || strings.Contains(listen, "bind=localhost") || strings.Contains(listen, "bind=[::1]") || strings.Contains(listen, "bind=::1") || strings.Contains(listen, "range=127.") {
				return false, ""
			}
			kind, addr, _ := strings.Cut(target, ":")
			host, port, _ := strings.Cut(addr, ":")
			if i := strings.IndexByte(port, ','); i >= 0 {
				port = port[:i]
			}
			switch {
			case strings.HasPrefix(kind, "unix"):
				return true, "a local socket on every address"
			case strings.HasPrefix(kind, "tcp") && port != "0" && port != "*" && sensitivePorts(port):
				// a development server relayed (TCP:localhost:3000) is
				// how a container or a phone reaches it
				return true, "port " + port + " of " + host + " on every address"
			}
			return false, ""
		}},
	{ID: "remote-login-enabled", Level: LevelHigh, Category: CategorySystem, Description: "turning on a remote login or remote desktop server on this machine (SSH, RDP, VNC, telnet) for good",
		Suggestions: []string{"Let the owner decide to open the machine to remote logins", "Reach the machine through an existing, reviewed channel"},
		names:       names("systemctl", "rc-update", "update-rc.d", "chkconfig"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) < 2 || hasWord(c.args(), "--user") {
				return false, ""
			}
			verb, svcs := ops[0].s, ops[1:]
			if c.name == "update-rc.d" || c.name == "chkconfig" {
				verb, svcs = ops[len(ops)-1].s, ops[:1]
			}
			if c.name == "rc-update" {
				svcs = ops[1:2]
			}
			for _, sv := range svcs {
				n := strings.TrimSuffix(strings.TrimSuffix(lower(sv.s), ".service"), ".socket")
				remote := n == "ssh" || n == "sshd" || n == "openssh" || n == "openssh-server" || n == "dropbear"
				desktop := n == "xrdp" || strings.HasPrefix(n, "vncserver") || n == "x11vnc" || strings.HasPrefix(n, "telnet") || n == "inetd" || n == "xinetd"
				if (verb == "enable" || verb == "add" || verb == "on" || verb == "defaults") && (remote || desktop) || verb == "start" && desktop {
					return true, verb + " " + sv.s
				}
			}
			return false, ""
		}},
	{ID: "sshd-root-or-password-login", Level: LevelHigh, Category: CategorySystem, Description: "letting the SSH server take root or password logins",
		Suggestions: []string{"Log in with keys as an ordinary user and use sudo"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 2 || c.name == "grep" || c.name == "rg" || c.name == "cat" || c.name == "less" || c.name == "sshd" && hasWord(c.args(), "-T") {
				return false, ""
			}
			seen := false
			for _, w := range c.words[1:] {
				if strings.Contains(w.s, "ootLogin") || strings.Contains(w.s, "ootlogin") || strings.Contains(w.s, "uthentication") || strings.Contains(w.s, "mptyPasswords") {
					seen = true
					break
				}
			}
			if !seen {
				return false, ""
			}
			j := strings.ReplaceAll(lower(c.argsText()), "=", " ")
			for _, s := range [...]string{"permitrootlogin yes", "passwordauthentication yes", "permitemptypasswords yes"} {
				if strings.Contains(j, s) {
					if c.name == "ssh" || c.name == "scp" || c.name == "sftp" {
						return false, "" // a client option
					}
					return true, s
				}
			}
			return false, ""
		}},
	{ID: "chart-auth-off", Level: LevelHigh, Category: CategorySystem, Description: "deploying a chart with its login switched off or anonymous users let in",
		Suggestions: []string{"Keep the chart's authentication on and give users accounts", "Try the setting on a local or preview release"},
		names:       names("helm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) == 0 || ops[0].s != "install" && ops[0].s != "upgrade" {
				return false, ""
			}
			for _, v := range helmSetValues(c.args()) {
				key, val, _ := strings.Cut(strings.ToLower(strings.ReplaceAll(v, `\`, "")), "=")
				// a cache's or a database's password dropped matters where
				// others use it: production's release, not a local one
				authOff := (strings.HasSuffix(key, "auth.enabled") || strings.HasSuffix(key, "authentication.enabled") || strings.HasSuffix(key, "security.enabled")) &&
					val == "false" && touchesProduction(c)
				switch {
				case strings.Contains(key, "anonymous") && strings.HasSuffix(key, "enabled") && val == "true", authOff:
					if len(ops) > 1 && throwawayName(ops[1].s) {
						return false, "" // a preview's or a test's own release
					}
					return true, v
				}
			}
			return false, ""
		}},
	{ID: "chart-production-down", Level: LevelHigh, Category: CategorySystem, Description: "a production release's replicas set to zero or its alerting or protection switched off",
		Suggestions: []string{"Change production through the reviewed values files and the pipeline", "Try the values on a staging release first"},
		names:       names("helm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			if len(ops) == 0 || ops[0].s != "install" && ops[0].s != "upgrade" || !touchesProduction(c) && a.prodTarget == 0 {
				return false, ""
			}
			if hasWord(c.args(), "--dry-run") || hasPrefixWord(c.args(), "--dry-run=") {
				return false, ""
			}
			for _, v := range helmSetValues(c.args()) {
				key, val, _ := strings.Cut(strings.ToLower(strings.ReplaceAll(v, `\`, "")), "=")
				last := key[strings.LastIndexByte(key, '.')+1:]
				switch {
				case (last == "replicacount" || last == "replicas" || last == "minreplicas") && val == "0":
					return true, v // every pod of the release stopped
				case last == "enabled" && val == "false":
					for _, part := range strings.Split(key, ".") {
						switch part {
						case "alertmanager", "alerting", "networkpolicy", "podsecuritypolicy", "tls", "waf", "ratelimit", "pdb", "poddisruptionbudget", "backup", "backups":
							return true, v
						}
					}
				}
			}
			return false, ""
		}},
	// Grafana (or Kibana) giving every visitor administrator rights,
	// through its settings file or a container's environment.
	{ID: "dashboard-anonymous-admin", Level: LevelHigh, Category: CategoryPermission, Description: "giving every anonymous visitor of a dashboard administrator rights (its data sources' credentials and queries with them)",
		Suggestions: []string{"Keep anonymous access off, or give it the Viewer role on a dashboard made public for it", "Log in through the organisation's single sign-on"},
		names:       names("docker", "podman", "nerdctl", "crudini", "helm", "kubectl"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := lower(c.argsText())
			if !strings.Contains(j, "anonymous") {
				return false, ""
			}
			if strings.Contains(j, "gf_auth_anonymous_org_role=admin") || strings.Contains(j, "auth.anonymous.org_role=admin") ||
				c.name == "crudini" && strings.Contains(j, "auth.anonymous org_role admin") {
				return true, "anonymous visitors made Grafana administrators"
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, networkExposeRules) }

// helmSetValues returns the key=value pairs of helm's --set options.
func helmSetValues(args []word) []string {
	var out []string
	for i, w := range args {
		v := ""
		switch {
		case (w.s == "--set" || w.s == "--set-string") && i+1 < len(args):
			v = args[i+1].s
		case strings.HasPrefix(w.s, "--set="), strings.HasPrefix(w.s, "--set-string="):
			_, v, _ = strings.Cut(w.s, "=")
		default:
			continue
		}
		out = append(out, strings.Split(v, ",")...)
	}
	return out
}

func everyAddress(s string) bool {
	s = strings.Trim(s, "[]\"' ")
	return s == "0.0.0.0" || s == "*" || s == "::" || s == ""
}

// socatListener reports a socat address that listens for TCP.
func socatListener(s string) bool {
	return strings.HasPrefix(s, "tcp-listen:") || strings.HasPrefix(s, "tcp4-listen:") || strings.HasPrefix(s, "tcp6-listen:") ||
		strings.HasPrefix(s, "tcp-l:") || strings.HasPrefix(s, "tcp4-l:")
}

// listenOption reports an option that names the address a program
// listens on: --listen, --bind, --host, --ip, --address, --addr and their
// compounds (--listen-address, --http-addr, --bind-host).
func listenOption(opt string) bool {
	switch opt {
	case "listen", "bind", "host", "ip", "address", "addr":
		return true
	}
	if strings.Contains(opt, "listen") || strings.Contains(opt, "bind") {
		return true
	}
	// --http-addr, --web.host, --metrics-address: a server's own
	// endpoint (not --start-ip-address, a firewall range's end)
	for _, suf := range [...]string{"-address", "-addr", "-host", "-ip", ".address", ".addr", ".host"} {
		if pre, ok := strings.CutSuffix(opt, suf); ok {
			switch pre {
			case "http", "https", "web", "grpc", "api", "admin", "server", "metrics", "rpc", "ui", "dashboard", "debug", "pprof", "console", "http.server", "web.server":
				return true
			}
		}
	}
	return false
}

// appServers are the servers and build tools a project serves its own
// app with (for a browser in a VM or a container's published port).
var appServers = map[string]bool{
	"gunicorn": true, "uvicorn": true, "hypercorn": true, "daphne": true, "waitress-serve": true, "puma": true, "rails": true, "bin/rails": true,
	"flask": true, "vite": true, "next": true, "nuxt": true, "nuxi": true, "astro": true, "webpack": true, "webpack-dev-server": true, "ng": true,
	"hugo": true, "jekyll": true, "mkdocs": true, "npm": true, "pnpm": true, "yarn": true, "bun": true, "deno": true, "dotnet": true, "php": true,
	"artisan": true, "manage.py": true, "remix": true, "svelte-kit": true, "storybook": true, "start-storybook": true, "expo": true, "react-scripts": true,
	"docusaurus": true, "eleventy": true, "gatsby": true, "sphinx-autobuild": true, "bundle": true, "air": true, "wrangler": true, "vercel": true, "netlify": true,
}

// debuggerOn reports an app server run with its interactive debugger
// (flask --debug, FLASK_DEBUG=1, werkzeug's): whoever reaches it runs
// code.
func debuggerOn(c *cmd) bool {
	if c.name != "flask" && c.name != "python" && c.name != "python3" {
		return false
	}
	for _, as := range c.assigns {
		if as.name == "FLASK_DEBUG" && as.val.s == "1" {
			return true
		}
	}
	return hasWord(c.args(), "--debug") || hasWord(c.args(), "--debugger")
}

// debuggerEverywhere reports an inspector or debugger option (or a
// variable's options) listening on every address.
func debuggerEverywhere(s string) bool {
	for _, f := range strings.Fields(strings.Trim(s, `"'`)) {
		l := lower(strings.Trim(f, `"'`))
		var v string
		switch {
		case strings.HasPrefix(l, "--inspect=") || strings.HasPrefix(l, "--inspect-brk=") || strings.HasPrefix(l, "--inspect-wait="):
			_, v, _ = strings.Cut(l, "=")
		case strings.HasPrefix(l, "-agentlib:jdwp=") || strings.HasPrefix(l, "-xrunjdwp:"):
			for _, kv := range strings.Split(l[strings.IndexAny(l, "=:")+1:], ",") {
				if a, ok := strings.CutPrefix(kv, "address="); ok {
					v = a
				}
			}
		case strings.HasPrefix(l, "--remote-debugging-address="):
			_, v, _ = strings.Cut(l, "=")
		default:
			continue
		}
		host := v
		if i := strings.LastIndexByte(v, ':'); i >= 0 {
			host = v[:i]
		}
		if host == "0.0.0.0" || host == "*" || host == "[::]" || host == "::" {
			return true
		}
	}
	return false
}

// proxyVar reports an environment variable naming a proxy.
func proxyVar(k string) bool {
	switch strings.ToUpper(k) {
	case "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "FTP_PROXY", "RSYNC_PROXY", "SOCKS_PROXY", "GIT_PROXY_COMMAND":
		return true
	}
	return false
}

// strangerProxy returns the host of a proxy address outside this machine,
// the local network and the organisation's internal names, or "".
func strangerProxy(v string) string {
	v = strings.Trim(v, `"'`)
	if v == "" || strings.ContainsAny(v, "$%{") {
		return ""
	}
	u := v
	if !strings.Contains(u, "://") {
		u = "http://" + u
	}
	h := lower(hostOf(u))
	if h == "" || isLocalHost(h) || internalHost(h) || localOnlyName(h) {
		return ""
	}
	for _, suf := range [...]string{".svc", ".cluster.local", ".local"} {
		if strings.HasSuffix(h, suf) {
			return ""
		}
	}
	if isPublicIP(h) || strings.Contains(h, ".") {
		return h
	}
	return ""
}

// browserDebugsOwnProfile reports a Chromium browser started with its
// debugging port on the user's own profile (--user-data-dir naming the
// browser's default folder) rather than a profile made for the task.
func browserDebugsOwnProfile(c *cmd) bool {
	args := c.args()
	if !hasPrefixWord(args, "--remote-debugging-port") {
		return false
	}
	dir, ok := optValue(args, "", "user-data-dir")
	if !ok {
		return false
	}
	d := strings.ToLower(strings.ReplaceAll(dir, `\`, "/"))
	return strings.HasSuffix(strings.TrimSuffix(d, "/"), "/user data") || strings.Contains(d, ".config/google-chrome") || strings.Contains(d, ".config/chromium") ||
		strings.Contains(d, "application support/google/chrome") || strings.Contains(d, ".config/microsoft-edge")
}

// loopbackPublishOnly reports docker run (or create) on the default
// network whose every published port is bound to the loopback address:
// what listens on every address inside the container is reached from
// this machine only.
func loopbackPublishOnly(args []word) bool {
	run := false
	for i, w := range args {
		l := lower(w.s)
		switch {
		case l == "run" || l == "create":
			run = true
		case l == "--network=host" || l == "--net=host" || (l == "--network" || l == "--net") && i+1 < len(args) && lower(args[i+1].s) == "host":
			return false
		case l == "-p" || l == "--publish":
			if i+1 >= len(args) {
				return false
			}
			v := args[i+1].s
			if !strings.HasPrefix(v, "127.0.0.1:") && !strings.HasPrefix(v, "localhost:") && !strings.HasPrefix(v, "[::1]:") {
				return false
			}
		case strings.HasPrefix(l, "--publish=") || strings.HasPrefix(l, "-p") && len(l) > 2 && l[2] != '-':
			v := strings.TrimPrefix(strings.TrimPrefix(w.s, "--publish="), "-p")
			if !strings.HasPrefix(v, "127.0.0.1:") && !strings.HasPrefix(v, "localhost:") && !strings.HasPrefix(v, "[::1]:") {
				return false
			}
		case l == "--publish-all" || l == "-p=true":
			return false
		}
	}
	return run
}
