package guard

import (
	"regexp"
	"strings"
)

// Routers, switches and firewalls driven from a workstation: the lines of
// their own command languages (Cisco IOS and NX-OS, ASA, Junos, Arista
// EOS, MikroTik RouterOS, VyOS, FRR's vtysh, BIRD's birdc) sent as an
// ssh or plink remote command, through the device shells' -c options, or
// from Python automation (netmiko, NAPALM, Nornir, PyEZ) and Ansible's
// network modules. Each line is judged by what it does to the device: a
// wiped or replaced configuration, routing or filtering removed, access
// opened, secrets shown, the configuration sent to another host.
var netDeviceRules = []*rule{
	{ID: "netdev-config-destroyed", Level: LevelCritical, Category: CategorySystem, Description: "erasing or replacing a network device's configuration, its storage, its routing or its filters (the device, and what depends on it, goes down)",
		Suggestions: []string{"Show the change first (show archive config differences, commit check, compare)", "Schedule a rollback before changing a live device (reload in 10, commit confirmed)"},
		names:       netDeviceNames,
		match:       netDeviceMatch(netDestroy)},
	{ID: "netdev-access-weakened", Level: LevelHigh, Category: CategoryPermission, Description: "opening a network device: an administrator account added, authentication or encryption switched off, telnet or a writable SNMP community allowed",
		Suggestions: []string{"Add accounts through the central authentication server (TACACS+, RADIUS)", "Keep SSH-only access with AAA on"},
		names:       netDeviceNames,
		match:       netDeviceMatch(netWeaken)},
	{ID: "netdev-secrets-shown", Level: LevelHigh, Category: CategoryExfiltration, Description: "printing a network device's secrets (passwords, keys, SNMP communities) from its configuration",
		Suggestions: []string{"Show the configuration with its secrets masked", "Read the secrets from the team's vault when they are needed"},
		names:       netDeviceNames,
		match:       netDeviceMatch(netExpose)},
	{ID: "netdev-config-sent-out", Level: LevelCritical, Category: CategoryExfiltration, Description: "sending a network device's whole configuration (with its secrets) to a host outside the network",
		Suggestions: []string{"Back configurations up to the team's own archive server (RANCID, Oxidized)", "Copy to an internal TFTP or SCP server"},
		names:       netDeviceNames,
		match:       netDeviceMatch(netSendOut)},
	{ID: "netdev-routing-disrupted", Level: LevelHigh, Category: CategorySystem, Description: "dropping a router's routing sessions (every BGP session reset or disabled)",
		Suggestions: []string{"Reset one neighbour softly: clear ip bgp NEIGHBOR soft", "Drain the router first"},
		names:       netDeviceNames,
		match:       netDeviceMatch(netDisrupt)},
}

func init() { ruleSets = append(ruleSets, netDeviceRules) }

var netDeviceNames = names("ssh", "plink", "vtysh", "birdc", "birdc6", "cli", "clish", "vbash", "python", "python3", "py", "ansible", "snmpset",
	"gnmic", "gnmic.exe", "invoke-sshcommand", "gobgp", "clogin", "jlogin", "hlogin", "flogin", "alogin", "nlogin", "netmiko-cfg")

// netKind is what a device's command line does.
type netKind int

const (
	netNone netKind = iota
	netDestroy
	netWeaken
	netExpose
	netSendOut
	netDisrupt
)

// netLines are the device command lines of each kind, matched on a
// line in lower case with its blanks collapsed.
var netLines = []struct {
	kind netKind
	re   *regexp.Regexp
}{
	{netDestroy, regexp.MustCompile(`^(wr|write) erase\b|^erase (startup-config|nvram:|flash:|bootflash:|/all|/noconfirm)|^delete (/(force|recursive|f|r|noconfirm) )*(flash|bootflash|nvram|disk0|slot0|usb0|sup-bootflash|logflash):`)},
	{netDestroy, regexp.MustCompile(`^clear (configure|config|configuration) (all|primary|secondary)\b|^configure replace \S+|^/system reset-configuration\b|^request system zeroize\b|^request system software add .*\bno-validate\b`)},
	{netDestroy, regexp.MustCompile(`^no router (bgp|ospf|ospfv3|isis|eigrp|rip)\b|^no vlan \d|^no (ip |ipv6 |mac )?access-list\b|^no system control-plane\b|^clear configure access-list\b`)},
	{netDestroy, regexp.MustCompile(`^/(ip|ipv6) (firewall (filter|nat|mangle|raw)|address|route) remove\b|^/interface (\S+ )?(disable|remove)\b|^delete (firewall|interfaces|protocols|policy|nat|vpn|security|routing-options|snmp)\b|^run bash .*\brm -[a-z]*[rf]`)},
	{netWeaken, regexp.MustCompile(`^no aaa new-model\b|\btransport input (telnet|all)\b|^no service password-encryption\b|^no logging\b|^snmp-server community \S+ rw\b|^no enable secret\b|^ip http server\b`)},
	{netWeaken, regexp.MustCompile(`^username \S+ .*\bprivilege 15\b|^username \S+ .*\brole network-admin\b|^/user add .*\bgroup=full\b|^delete service ssh disable-password-authentication\b|^set service ssh listen-address 0\.0\.0\.0\b|^set system services (telnet|ftp)\b`)},
	{netExpose, regexp.MustCompile(`^(show|sh) (running-config|run|startup-config|start|configuration)\b.*\|\s*(include|inc|i|match|grep|section)\b.*\b(secret|password|community|key|pre-shared)|^more system:running-config\b|^/export\b.*\bshow-sensitive\b`)},
	{netSendOut, regexp.MustCompile(`^copy (running-config|startup-config|run|start|system:running-config|nvram:startup-config) (tftp|ftp|scp|sftp|http|https)://(\S+)|^/tool fetch\b.*\bupload=yes\b`)},
	{netDisrupt, regexp.MustCompile(`^clear (ip )?bgp (\*|all)( |$)|^(disable|down) all$|^restart all$`)},
	// a route server's or edge router's BGP policy: export filters
	// removed (the whole table leaked to upstreams), a default route
	// announced or blackholed, every session shut
	{netDestroy, regexp.MustCompile(`^no neighbor \S+ (route-map|prefix-list|filter-list|distribute-list) \S+ out\b|^network 0\.0\.0\.0/0\b|^ip route 0\.0\.0\.0/0 null0\b|^clear configuration commits\b|^format (flash|bootflash|disk0|nvram|slot0|usb0):|^/file remove\b|^(run )?bash .*\brm -[a-z]*[rf]|^start shell .*\brm -[a-z]*[rf]?`)},
	{netWeaken, regexp.MustCompile(`^no rpki\b|^no neighbor \S+ password\b|^no bgp (bestpath|reject-as-sets)|^/ip dns set .*\ballow-remote-requests=yes\b|^protocol http$|^no ip (ssh|http) (authentication|secure-server)\b`)},
	{netDestroy, regexp.MustCompile(`^gobgp global policy export (del\b|set default accept\b)|^gobgp global rib del -a\b`)},
	// a voice gateway's dial peers removed (its calls stop)
	{netDestroy, regexp.MustCompile(`^no dial-peer voice\b`)},
	{netDisrupt, regexp.MustCompile(`^gobgp neighbor del\b|^clear (ip )?bgp (ipv4 |ipv6 |vpnv4 |l2vpn evpn )?(unicast )?(\*|all)( |$)|^neighbor \S+ shutdown\b|^request system (reboot|halt|power-off)\b|^reload( in \d+)?$|^config wlan disable\b|^shutdown all\b`)},
}

// deviceShellPrefix is a device shell's own -c option at a line's start
// (cli -c "...", Cli -p 15 -c "...", vbash -c "..."): the rest is the
// device's command.
var deviceShellPrefix = regexp.MustCompile(`^((cli|clish|vbash|vtysh|imish)( -p \d+)? -c\s*|birdc6? )`)

// netLineKind classifies one device command line.
func netLineKind(line string) (netKind, string) {
	l := strings.Join(strings.Fields(strings.ToLower(line)), " ")
	for {
		m := deviceShellPrefix.FindString(l)
		if m == "" {
			break
		}
		l = l[len(m):]
	}
	l = strings.Trim(l, `"' `)
	if l == "" {
		return netNone, ""
	}
	for _, x := range netLines {
		if m := x.re.FindStringSubmatch(l); m != nil {
			if x.kind == netSendOut && strings.HasPrefix(l, "copy ") {
				host, _, _ := strings.Cut(m[3], "/")
				if _, h, ok := strings.Cut(host, "@"); ok {
					host = h
				}
				if _, ip := parseIP(host); ip && !isPublicIP(host) || !ip && !strings.Contains(host, ".") {
					continue // a private address or a bare name: the network's own server
				}
			}
			return x.kind, l
		}
	}
	return netNone, ""
}

// netDeviceText splits a device command text into its lines: at line
// breaks (real or written \n), and at ';' between commands.
func netDeviceText(text string) []string {
	text = strings.ReplaceAll(text, `\n`, "\n")
	var out []string
	for _, ln := range strings.Split(text, "\n") {
		for _, part := range strings.Split(ln, ";") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// netAutomation recognises the Python libraries that drive devices.
var netAutomation = regexp.MustCompile(`\b(netmiko|ConnectHandler|napalm|nornir|jnpr\.junos|scrapli|ncclient)\b`)

// netStrings are the quoted strings of a Python one-liner.
var netStrings = regexp.MustCompile(`'([^'\\]|\\.)*'|"([^"\\]|\\.)*"`)

// netDeviceLines returns the device command lines a command sends, and
// the device they go to ("" when unnamed).
func netDeviceLines(c *cmd) (lines []string, special netKind, note string) {
	args := c.args()
	switch c.name {
	case "ssh", "plink":
		var i int
		if c.name == "ssh" {
			i = skipOpts(args, 0, optSpec{short: "BbcDEeFIiJLlmOoPpQRSWw"})
		} else {
			for i < len(args) && strings.HasPrefix(args[i].s, "-") {
				if plinkValued[args[i].s] {
					i++
				}
				i++
			}
			if _, saved := optValue(args, "-load", ""); saved && i == len(args)-1 {
				// plink -load SESSION 'reload in 1': the saved session
				// names the host; what is left is the command
				return netDeviceText(args[i].s), netNone, ""
			}
		}
		if i >= len(args) {
			return nil, netNone, ""
		}
		host := args[i].s
		if _, h, ok := strings.Cut(host, "@"); ok {
			host = h
		}
		if ip, ok := parseIP(host); host == "localhost" || ok && ip.IsLoopback() {
			return nil, netNone, "" // a lab device forwarded to this machine
		}
		rest := args[i+1:]
		for len(rest) > 0 && strings.HasPrefix(rest[0].s, "-") {
			rest = rest[1:]
		}
		return netDeviceText(joinWords(rest)), netNone, ""
	case "vtysh", "cli", "clish", "vbash":
		for _, v := range optValues(args, optTable{"-c": ""}) {
			lines = append(lines, netDeviceText(v.val)...)
		}
		return lines, netNone, ""
	case "birdc", "birdc6":
		return []string{joinWords(args[skipOpts(args, 0, optSpec{short: "s"}):])}, netNone, ""
	case "clogin", "jlogin", "hlogin", "flogin", "alogin", "nlogin":
		// RANCID's login scripts: -c 'cmd;cmd' runs on each device named
		// (a lab's devices, containerlab's clab- nodes, are the test's)
		if v, ok := optValue(args, "-c", ""); ok && !labDevices(args) {
			return netDeviceText(v), netNone, ""
		}
		return nil, netNone, ""
	case "netmiko-cfg":
		if v, ok := optValue(args, "", "cmd"); ok && !labDevices(args) {
			return netDeviceText(v), netNone, ""
		}
		return nil, netNone, ""
	case "python", "python3", "py":
		code, ok := optValue(args, "-c", "")
		if !ok || !netAutomation.MatchString(code) {
			return nil, netNone, ""
		}
		for _, q := range netStrings.FindAllString(code, -1) {
			lines = append(lines, netDeviceText(q[1:len(q)-1])...)
		}
		switch {
		case strings.Contains(code, "edit_config(") && strings.Contains(strings.ReplaceAll(code, `"`, "'"), "default_operation='replace'") &&
			(strings.Contains(code, "<config/>") || strings.Contains(code, "<config></config>")):
			return lines, netDestroy, "a device's configuration replaced with an empty one (NETCONF)"
		case strings.Contains(code, "load_replace_candidate(") && strings.Contains(code, "commit_config("):
			return lines, netDestroy, "a device's whole configuration replaced and committed (NAPALM)"
		case strings.Contains(code, "replace=True") && strings.Contains(code, "dry_run=False"):
			return lines, netDestroy, "a device's whole configuration replaced for real (NAPALM, dry_run=False)"
		case strings.Contains(code, "nventory") && (strings.Contains(code, ".password") || strings.Contains(code, "'password'")) && strings.Contains(code, "print("):
			return lines, netExpose, "the automation inventory's passwords printed"
		}
		return lines, netNone, ""
	case "ansible":
		mod, _ := optValue(args, "-m", "module-name")
		if !netModule.MatchString(mod) {
			return nil, netNone, ""
		}
		v, _ := optValue(args, "-a", "args")
		for _, q := range netStrings.FindAllString(v, -1) {
			lines = append(lines, netDeviceText(q[1:len(q)-1])...)
		}
		return lines, netNone, ""
	case "invoke-sshcommand":
		// Posh-SSH: Invoke-SSHCommand -SessionId 0 -Command 'format flash:'
		if v, ok := swVal(c.lowerArgs(), "command"); ok {
			return netDeviceText(v), netNone, ""
		}
	case "gobgp":
		// GoBGP's own client: its words are the daemon's command
		return []string{"gobgp " + joinWords(args)}, netNone, ""
	case "gnmic", "gnmic.exe":
		k, note := gnmiSet(args)
		return nil, k, note
	case "snmpset":
		for i, w := range args {
			if w.s == "localhost" || strings.HasPrefix(w.s, "127.") || strings.HasPrefix(w.s, "udp:127.") || strings.HasPrefix(w.s, "udp:localhost") {
				return nil, netNone, "" // a simulator on this machine
			}
			// ifAdminStatus set to down(2): the port shut; Cisco's
			// tsMsgSend set to reload(2)
			o := strings.TrimPrefix(strings.TrimPrefix(w.s, "IF-MIB::"), ".")
			if (strings.HasPrefix(o, "ifAdminStatus.") || strings.HasPrefix(o, "1.3.6.1.2.1.2.2.1.7.") || o == "1.3.6.1.4.1.9.2.9.9.0") &&
				i+2 < len(args) && args[i+1].s == "i" && args[i+2].s == "2" {
				return nil, netDisrupt, "snmpset " + w.s + " i 2 (a port shut or the device reloaded)"
			}
			// ccCopyServerAddress: the configuration copied to that host
			if strings.HasPrefix(o, "1.3.6.1.4.1.9.9.96.1.1.1.1.5.") && i+2 < len(args) && isPublicIP(args[i+2].s) {
				return nil, netSendOut, "configuration copied by SNMP to " + args[i+2].s
			}
		}
		// Cisco's writeNet and ccCopy objects: the device copies its
		// configuration to the host the request names
		for _, w := range args {
			if strings.HasPrefix(w.s, "1.3.6.1.4.1.9.2.1.55.") || strings.HasPrefix(w.s, ".1.3.6.1.4.1.9.2.1.55.") {
				host := strings.TrimPrefix(strings.TrimPrefix(w.s, "."), "1.3.6.1.4.1.9.2.1.55.")
				if isPublicIP(host) {
					return nil, netSendOut, "configuration copied by SNMP to " + host
				}
			}
		}
	}
	return nil, netNone, ""
}

// labDevices reports a device list naming a lab's device: containerlab's
// clab- nodes, a name with lab in it, this machine.
func labDevices(args []word) bool {
	for _, w := range args {
		l := lower(w.s)
		if strings.HasPrefix(l, "-") || strings.ContainsAny(l, " ;'\"") {
			continue
		}
		if strings.HasPrefix(l, "clab-") || strings.Contains(l, "lab") || l == "localhost" || strings.HasPrefix(l, "127.") {
			return true
		}
	}
	return false
}

// gnmiSet judges gnmic set: a path deleted (a protocol, an ACL, a
// server group) destroys that part of the configuration; an admin state
// set to disable shuts the interface. A lab's device (localhost,
// containerlab's clab- nodes) passes.
func gnmiSet(args []word) (netKind, string) {
	if len(args) == 0 || !hasWord(args, "set") {
		return netNone, ""
	}
	if t, ok := optValue(args, "-a", "address"); ok {
		h := t
		if i := strings.LastIndexByte(h, ':'); i > 0 {
			h = h[:i]
		}
		if thisMachine(h) || strings.HasPrefix(h, "clab-") {
			return netNone, ""
		}
	}
	if d, ok := optValue(args, "", "delete"); ok {
		return netDestroy, "gnmic set --delete " + d
	}
	p, _ := optValue(args, "", "update-path")
	v, _ := optValue(args, "", "update-value")
	if (strings.HasSuffix(p, "admin-state") || strings.HasSuffix(p, "/enabled")) && (v == "disable" || v == "false" || v == "DISABLE") {
		return netDisrupt, "gnmic set " + p + " " + v
	}
	return netNone, ""
}

// netModule names Ansible's network modules that send command lines.
var netModule = regexp.MustCompile(`(^|\.)(ios|nxos|eos|junos|vyos|routeros|asa|iosxr|frr|icx|aruba)_(command|config)$`)

// netVerdicts holds what a command's device lines do, kind by kind: the
// five device rules ask the same command, and each split and classified
// its lines again. It is kept while the command's name and arguments are
// those it was found for.
type netVerdicts struct {
	done bool
	name string
	gen  uint32
	// hit[k] and note[k]: a line (or the command as a whole) of kind k
	hit  [netDisrupt + 1]bool
	note [netDisrupt + 1]string
}

// netDeviceVerdicts returns c's device verdicts, found once per command.
func netDeviceVerdicts(c *cmd) *netVerdicts {
	c.lowerArgs() // brings argCase.gen up to date
	v := &c.netdev
	if v.done && v.name == c.name && v.gen == c.argCase.gen {
		return v
	}
	*v = netVerdicts{done: true, name: c.name, gen: c.argCase.gen}
	lines, special, note := netDeviceLines(c)
	if special != netNone {
		v.hit[special], v.note[special] = true, note
	}
	for _, ln := range lines {
		if k, l := netLineKind(ln); k != netNone && !v.hit[k] {
			v.hit[k], v.note[k] = true, truncate(l, 80)
		}
	}
	return v
}

// netDeviceMatch returns the match of the rule for one kind of line.
func netDeviceMatch(kind netKind) func(a *analysis, c *cmd) (bool, string) {
	return func(a *analysis, c *cmd) (bool, string) {
		if a.testTarget > 0 {
			return false, "" // a lab's router (docker exec clab-lab-r1 vtysh ...)
		}
		v := netDeviceVerdicts(c)
		return v.hit[kind], v.note[kind]
	}
}
