package guard

import (
	"strconv"
	"strings"
)

// openServerNoAuth reports a server bound to every interface whose token,
// password or authentication is switched off: --ip=0.0.0.0 with
// --token=” (Jupyter), --host 0.0.0.0 --no-auth, --allow-anonymous.
func openServerNoAuth(c *cmd) string {
	args, low := c.args(), c.lowerArgs()
	if d := dockerAPIPublished(c); d != "" {
		return d
	}
	all, noAuth := false, ""
	for i := range args {
		l := low[i]
		if !strings.HasPrefix(l, "-") {
			continue
		}
		name, val, eq := strings.Cut(l, "=")
		if !eq && i+1 < len(args) && !strings.HasPrefix(args[i+1].s, "-") {
			val = low[i+1]
		}
		val = strings.Trim(val, `"'`)
		switch {
		case (strings.HasSuffix(name, "ip") || strings.HasSuffix(name, "host") || strings.HasSuffix(name, "bind") || strings.HasSuffix(name, "listen") ||
			strings.HasSuffix(name, "address") || strings.HasSuffix(name, "addr")) && everyInterface(val):
			all = true
		case name == "--bind_all" || name == "--bind-all":
			all = true
		case name == "--no-auth" || name == "--disable-auth" || name == "--allow-anonymous" || name == "--anonymous" || name == "--auth=none" || l == "--auth=none" ||
			name == "--without-connection-token" || name == "--auth" && val == "none":
			noAuth = name
		case eq && val == "" && (strings.HasSuffix(name, "token") || strings.HasSuffix(name, "password")):
			noAuth = name + "=''"
		}
	}
	if noAuth == "" && all && authlessServer(c) {
		// a server with no login at all (MLflow's UI, TensorBoard, Ray's
		// dashboard, Flower) on every interface
		return c.base + " on every interface, with no login"
	}
	if noAuth == "" {
		return ""
	}
	if all || strings.Contains(noAuth, "anonymous") {
		return c.base + " " + noAuth
	}
	return ""
}

// authlessServer reports a server that has no login of its own: its
// runs, models, logs and artifacts (and, for Ray, jobs that run code)
// are open to whoever reaches the port.
func authlessServer(c *cmd) bool {
	args := c.args()
	switch c.name {
	case "tensorboard", "flower":
		return true
	case "mlflow":
		return len(args) > 0 && (args[0].s == "ui" || args[0].s == "server")
	case "ray":
		return len(args) > 0 && args[0].s == "start"
	case "celery":
		return hasWord(args, "flower")
	}
	return false
}

// everyInterface reports a listening address on every interface, with
// or without a port: 0.0.0.0, ::, *, 0.0.0.0:8080, [::]:8080.
func everyInterface(v string) bool {
	if strings.Count(v, ":") == 1 {
		v, _, _ = strings.Cut(v, ":")
	} else if strings.HasPrefix(v, "[::]:") {
		v = "[::]"
	}
	return v == "0.0.0.0" || v == "::" || v == "*" || v == "[::]"
}

// shareSessionTools share the terminal they are started in with whoever
// holds the link.
var shareSessionTools = map[string]bool{"tmate": true, "upterm": true, "sshx": true, "teleconsole": true, "tty-share": true, "gotty": true}

// publicTunnel reports a port or terminal put on the internet: a
// funnel or tunnel subcommand, a client forwarding a local port --to a
// relay, or a terminal-sharing program.
func publicTunnel(c *cmd) string {
	d := tunnelPublished(c)
	if d != "" {
		if args := c.args(); hasWord(args, "--help") || hasWord(args, "-h") || hasWord(args, "-V") || hasWord(args, "--version") {
			return "" // only prints usage
		}
	}
	return d
}

// tunnelPublished is publicTunnel before the usage-only check.
func tunnelPublished(c *cmd) string {
	args := c.args()
	if shareSessionTools[c.name] {
		if len(args) > 0 && (args[0].s == "version" || args[0].s == "help" || args[0].s == "-k") {
			return ""
		}
		return c.name + " (a shared terminal session)"
	}
	low := c.lowerArgs()
	if (c.name == "ssh" || c.name == "autossh") && hasPrefixWord(args, "-R") {
		// ssh -R 80:localhost:3000 serveo.net: a tunnel service that
		// gives the port a public address
		for _, l := range low {
			h := l
			if i := strings.LastIndexByte(h, '@'); i >= 0 {
				h = h[i+1:]
			}
			if publicTunnelHosts[h] {
				return "ssh -R through " + h
			}
		}
	}
	if s, _ := optValue(args, "-s", ""); c.name == "adb" && hasAnyWord(low, "tcpip") && !strings.HasPrefix(s, "emulator-") {
		// (an emulator's adbd listens on this machine only)
		return "adb tcpip (the phone's debug shell on its network)"
	}
	var sub []string
	for i, w := range args {
		if i > 3 {
			break
		}
		if !strings.HasPrefix(w.s, "-") {
			sub = append(sub, low[i])
		}
	}
	if len(sub) == 0 {
		return ""
	}
	switch sub[0] {
	case "funnel":
		if len(sub) > 1 && (sub[1] == "status" || sub[1] == "reset" || sub[1] == "off") || hasWord(args, "off") {
			return ""
		}
		if len(sub) == 2 && devServerPort(sub[1]) && !hasWord(args, "--tcp") && !hasWord(args, "--tls-terminated-tcp") {
			// tailscale funnel --bg 8787: a development server's HTTP
			// port, as ngrok http 3000 is (what the port serves is judged
			// where it is started)
			return ""
		}
		return c.name + " funnel"
	case "tunnel":
		if c.name == "code" || c.name == "code-insiders" || c.name == "cursor" {
			if len(sub) > 1 && (sub[1] == "status" || sub[1] == "kill" || sub[1] == "prune" || sub[1] == "unregister" || sub[1] == "user") {
				return ""
			}
			return c.name + " tunnel"
		}
	case "local":
		if to, ok := optValue(args, "-t", "to"); ok && !isLocalHost(hostOf("x://"+to)) {
			return c.name + " local --to " + to
		}
	}
	return ""
}

// devServerPort reports a port number a development server listens on:
// unprivileged, and not an administration or database port.
func devServerPort(s string) bool {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1024 || n > 65535 || sensitivePorts(s) {
		return false
	}
	switch n {
	case 7681, 4200, 6080, 8888, 9090, 10000, 2019:
		return false // a web terminal's, a notebook's or an admin console's (ttyd, shellinabox, noVNC, Jupyter, Cockpit, Webmin, Caddy)
	case 9229, 9222, 5005, 2345, 5678:
		return false // a debugger's (Node's inspector, Chrome's DevTools, JDWP, Delve, debugpy): whoever reaches it runs code
	}
	return true
}

// publicTunnelHosts are services that give a port forwarded to them over
// ssh -R a public address.
var publicTunnelHosts = map[string]bool{"serveo.net": true, "localhost.run": true, "nokey@localhost.run": true, "a.pinggy.io": true,
	"pinggy.io": true, "ssh.localhost.run": true, "tuns.sh": true, "srv.us": true}

// dockerAPIPublished reports a container that publishes, on every
// interface, a port whose service takes orders without a login: the
// Docker daemon's plain API (2375: whoever reaches it is root on the
// host), etcd's client port without TLS (2379), the kubelet's (10250).
// docker run -p 2375:2375 docker:dind.
func dockerAPIPublished(c *cmd) string {
	switch c.name {
	case "docker", "podman", "nerdctl":
	default:
		return ""
	}
	args := c.args()
	if len(args) == 0 || args[0].s != "run" && args[0].s != "create" && !(args[0].s == "container" && len(args) > 1 && args[1].s == "run") {
		return ""
	}
	specs, _ := containerPublished(args)
	for _, v := range specs {
		parts := strings.Split(v, ":")
		if len(parts) == 3 && !everyInterface(parts[0]) {
			continue // 127.0.0.1:2375:2375: this machine only
		}
		switch strings.TrimSuffix(parts[len(parts)-1], "/tcp") {
		case "2375", "2379", "10250":
			return c.base + " -p " + v + " (a control API without a login, on every interface)"
		}
	}
	return ""
}

// containerPublished lists the ports a container run publishes (-p,
// --publish, as written: 8080:80, 127.0.0.1:5432:5432) and reports
// -P/--publish-all.
func containerPublished(args []word) (specs []string, all bool) {
	for i, w := range args {
		switch {
		case (w.s == "-p" || w.s == "--publish") && i+1 < len(args):
			specs = append(specs, args[i+1].s)
		case strings.HasPrefix(w.s, "--publish="):
			specs = append(specs, w.s[len("--publish="):])
		case strings.HasPrefix(w.s, "-p") && len(w.s) > 2:
			specs = append(specs, w.s[2:])
		case w.s == "-P" || w.s == "--publish-all":
			all = true
		}
	}
	return specs, all
}
