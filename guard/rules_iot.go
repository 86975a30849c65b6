package guard

import (
	"strings"
)

// Devices in the field (the boards on the bench are rules_devices.go's):
// the boot chain overwritten or told to start a shell, routers opened to
// the internet, PLCs and their registers written or stopped, an MQTT
// broker's retained state deleted or its access opened. Reading a
// router's settings, checking an image, reading registers, writing to a
// simulator on this machine and a broker on this machine pass.
var iotRules = []*rule{
	{ID: "boot-chain-overwritten", Level: LevelCritical, Category: CategorySystem, Description: "overwriting a device's bootloader or partitions, forcing an unchecked image, or telling it to boot into a root shell",
		Suggestions: []string{"Flash images through the vendor's checked upgrade, without -F", "Keep the bootloader; recover through the serial console only with a backup"},
		names:       names("mtd", "sysupgrade", "fw_setenv", "rauc", "flash_erase", "flashcp"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			ops := plainWords(low)
			switch c.name {
			case "mtd":
				// mtd [-r] write IMAGE PARTITION, mtd erase PARTITION
				if len(ops) > 1 && (ops[0] == "write" && bootPartition(ops[len(ops)-1]) || ops[0] == "erase") {
					return true, "mtd " + ops[0] + " " + ops[len(ops)-1]
				}
			case "flash_erase", "flashcp":
				for _, v := range ops {
					if strings.HasPrefix(v, "/dev/mtd") {
						return true, c.name + " " + v
					}
				}
			case "sysupgrade":
				if optGiven(low, "-f") || optGiven(low, "--force") {
					return true, "sysupgrade -F (an image the device's checks refused)"
				}
			case "fw_setenv":
				if j := strings.Join(low, " "); strings.Contains(j, "init=/bin/sh") || strings.Contains(j, "init=/bin/bash") || strings.Contains(j, "single") && strings.Contains(j, "bootargs") {
					return true, "the device booting into a root shell without a password"
				}
			case "rauc":
				if len(ops) > 1 && ops[0] == "status" && ops[1] == "mark-bad" {
					return true, "a boot slot marked bad"
				}
			}
			return false, ""
		}},
	{ID: "router-opened", Level: LevelHigh, Category: CategoryPermission, Description: "opening a router to the internet: its firewall accepting the WAN, root logging in with a password, a wireless network without encryption",
		Suggestions: []string{"Forward the one port a service needs, from the addresses that need it", "Keep root's password login off; use keys on the LAN"},
		names:       names("uci"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := plainWords(c.lowerArgs())
			if len(ops) < 2 || ops[0] != "set" {
				return false, ""
			}
			kv := strings.ReplaceAll(strings.ReplaceAll(ops[1], "'", ""), `"`, "")
			k, v, _ := strings.Cut(kv, "=")
			switch {
			case strings.HasPrefix(k, "firewall.") && (strings.HasSuffix(k, ".input") || strings.HasSuffix(k, ".forward")) && v == "accept" &&
				(strings.Contains(k, "@zone[1]") || strings.Contains(k, "wan")):
				return true, "the WAN zone accepting every connection (" + ops[1] + ")"
			case strings.HasPrefix(k, "firewall.") && strings.HasSuffix(k, ".src") && v == "wan" && hasAnyFold(a.src, "target='accept'", "target=accept", `target="accept"`):
				return true, "a rule accepting connections from the WAN"
			case strings.HasPrefix(k, "dropbear.") && (strings.HasSuffix(k, ".rootpasswordauth") || strings.HasSuffix(k, ".passwordauth")) && (v == "on" || v == "1"):
				return true, "SSH logins by password (" + ops[1] + ")"
			case strings.HasPrefix(k, "wireless.") && strings.HasSuffix(k, ".encryption") && v == "none":
				return true, "a wireless network without encryption"
			}
			return false, ""
		}},
	{ID: "industrial-control-write", Level: LevelCritical, Category: CategorySystem, Description: "writing a PLC's registers or coils, or stopping it (machines and processes it controls act on it at once)",
		Suggestions: []string{"Change setpoints through the plant's HMI under its procedures", "Write to a simulator on this machine first"},
		names:       names("python", "python3", "py", "mbpoll", "modpoll", "modbus", "bacwp", "bacwpm", "bacrd", "bacdcc", "bacrr", "uawrite", "uacall"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "bacwp", "bacwpm", "bacrd", "bacdcc", "bacrr":
				// BACnet's write-property, reinitialize-device and
				// device-communication-control: the building's controller
				// acts on them (bacrp reads)
				if len(c.operands()) > 1 {
					return true, c.name + " to device " + c.operands()[0].s
				}
			case "uawrite", "uacall":
				// an OPC UA server's node written or method called
				if u, ok := optValue(args, "-u", "url"); ok && !loopback(hostOf(u)) {
					return true, c.name + " on " + hostOf(u)
				}
			case "modpoll":
				ops := posArgs(args, optSpec{short: "mabtrcpidPslo"})
				if len(ops) > 1 && !loopback(ops[0].s) && ops[0].s != "localhost" {
					return true, "modpoll writing to " + ops[0].s
				}
			case "mbpoll":
				// mbpoll [options] HOST [values...]: values after the host
				// are written
				ops := posArgs(args, optSpec{short: "mabtrcpidPslo"}) // (-1, -0, -B, -R are flags)
				if len(ops) > 1 && !loopback(ops[0].s) && ops[0].s != "localhost" {
					return true, "mbpoll writing to " + ops[0].s
				}
			case "modbus":
				if ops := plainWords(c.lowerArgs()); len(ops) > 1 && ops[0] == "write" {
					return true, "modbus write"
				}
			default:
				code, ok := optValue(args, "-c", "")
				if !ok || !hasAny(code, "pymodbus", "snap7", "pycomm3", "opcua", "asyncua", "pylogix", "BAC0", "c104", "cpppo", "minimalmodbus", "pyModbusTCP") {
					return false, ""
				}
				if hasAny(code, "127.0.0.1", "'localhost'", `"localhost"`, "opc.tcp://localhost") {
					return false, "" // a simulator on this machine
				}
				for _, w := range [...]string{".write_register", ".write_coil", ".plc_stop(", ".db_write(", ".write_area(", ".set_value(", ".write((",
					".delete(", ".download(", "Services.reset", ".write_value(", "delete_nodes(", ".call_method(", ".transmit(", ".write(", ".Write("} {
					if strings.Contains(code, w) {
						return true, strings.Trim(w, ".(") + " on a controller"
					}
				}
			}
			return false, ""
		}},
	{ID: "mqtt-broker-changed", Level: LevelHigh, Category: CategorySystem, Description: "deleting a broker's retained messages, opening its default access, deleting its clients, or giving its administrator a guessable password",
		Suggestions: []string{"Clear the one retained topic you mean", "Keep the default ACL denying; grant roles to named clients"},
		names:       names("mosquitto_sub", "mosquitto_ctrl", "mosquitto_passwd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			low := c.lowerArgs()
			switch c.name {
			case "mosquitto_sub":
				if optGiven(low, "--remove-retained") {
					// (without -h: the broker on this machine)
					if h, _ := optValue(args, "-h", "host"); h != "" && !isLocalHost(h) {
						return true, "retained messages deleted on " + h
					}
				}
			case "mosquitto_ctrl":
				ops := plainWords(low)
				for i, v := range ops {
					if v != "dynsec" || i+1 >= len(ops) {
						continue
					}
					switch verb := ops[i+1]; {
					case verb == "setdefaultaclaccess" && slicesContains(ops[i+2:], "allow"):
						return true, "the broker's default access opened"
					case verb == "deleteclient" || verb == "deleterole" || verb == "deletegroup":
						return true, "dynsec " + verb
					}
				}
			case "mosquitto_passwd":
				ops := c.operands()
				if hasWord(args, "-D") && len(ops) >= 2 && !strings.HasPrefix(ops[0].s, "/tmp") {
					return true, "the broker's client " + ops[len(ops)-1].s + " deleted"
				}
				if optGiven(low, "-b") && len(ops) >= 3 && guessablePassword(ops[len(ops)-2].s, ops[len(ops)-1].s) {
					return true, "a guessable password for " + ops[len(ops)-2].s
				}
			}
			return false, ""
		}},
	{ID: "device-console-command", Level: LevelCritical, Category: CategorySystem, Description: "typing a destructive command into a device's serial console (its bootloader or shell runs it as if someone at the console had)",
		Suggestions: []string{"Open the console interactively and type the command yourself", "Back the device's flash up first"},
		names:       names("printf", "echo", "python", "python3"),
		match: func(a *analysis, c *cmd) (bool, string) {
			text := ""
			switch c.name {
			case "python", "python3":
				code, ok := optValue(c.args(), "-c", "")
				if !ok || !strings.Contains(code, "serial.Serial(") || !strings.Contains(code, ".write(") {
					return false, ""
				}
				text = code[strings.Index(code, ".write("):]
			default:
				for _, r := range c.redirs {
					if r.isOutput() && serialDevice(r.w.s) {
						text = joinWords(c.args())
					}
				}
			}
			if text == "" {
				return false, ""
			}
			l := strings.ToLower(text)
			for _, w := range [...]string{"rm -rf", "rm -r ", "fs rm ", "mmc erase", "nand erase", "sf erase", "mtd erase", "erase ", "env default", "factory", "format", "flash_erase", "dd if="} {
				if strings.Contains(l, w) {
					return true, strings.TrimSpace(w) + " sent to a device's console"
				}
			}
			return false, ""
		}},
	{ID: "device-fleet-changed", Level: LevelHigh, Category: CategorySystem, Description: "changing a device fleet through its cloud: every certificate revoked, auditing switched off, a device's private key printed, a safety interlock switched off, a production fleet pushed to or opened to the internet",
		Suggestions: []string{"Change one device, named, through the fleet's reviewed rollout", "Keep interlocks and audits on; write keys to files only the device reads"},
		names:       names("aws", "az", "balena", "particle"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			ops := plainWords(low)
			j := strings.Join(ops, " ")
			all := strings.Join(low, " ")
			switch c.name {
			case "aws":
				switch {
				case strings.HasPrefix(j, "iot update-certificate") && (c.xargs || c.pipe != nil && c.stage > 0) && hasAny(all, "revoked", "inactive"):
					return true, "every listed device certificate revoked"
				case strings.HasPrefix(j, "iot update-account-audit-configuration") && strings.Contains(strings.ReplaceAll(all, " ", ""), `"enabled":false`):
					return true, "IoT audit checks switched off"
				case strings.HasPrefix(j, "iot create-keys-and-certificate") && !optGiven(low, "--private-key-outfile") && !outputRedirected(c):
					return true, "a device's private key printed"
				case strings.HasPrefix(j, "iot-data update-thing-shadow") && interlockOff(all):
					return true, "a device's safety interlock switched off"
				}
			case "az":
				if strings.HasPrefix(j, "iot hub invoke-device-method") && (interlockOff(all) || hasAny(all, "override", "emergency")) {
					return true, "a direct method overriding a device's safety"
				}
			case "balena":
				switch {
				case len(ops) > 1 && ops[0] == "push" && isProdName(ops[1]):
					return true, "balena push to " + ops[1]
				case strings.HasPrefix(j, "device public-url") && optGiven(low, "--enable"):
					return true, "a device opened to the internet (public URL)"
				case strings.HasPrefix(j, "tunnel") && strings.Contains(all, "0.0.0.0"):
					return true, "a device's port tunnelled to every address"
				case strings.HasPrefix(j, "envs") && optGiven(low, "--json") && shownOnTerminal(c):
					return true, "a fleet's variables with their values printed"
				}
			case "particle":
				if strings.HasPrefix(j, "token create") && optGiven(low, "--never-expires") {
					return true, "an access token that never expires"
				}
			}
			return false, ""
		}},
}

// interlockOff reports a payload switching a safety interlock off.
func interlockOff(s string) bool {
	s = strings.ReplaceAll(s, " ", "")
	return hasAny(s, `interlock":false`, `interlocks":true`, `interlock":0`, "disableinterlock", `safety":false`, `safety_enabled":false`)
}

// serialDevice reports a serial port: /dev/ttyUSB0, /dev/ttyACM1,
// /dev/ttyS2, /dev/ttyAMA0, Windows' COM4.
func serialDevice(p string) bool {
	for _, pre := range [...]string{"/dev/ttyusb", "/dev/ttyacm", "/dev/ttys", "/dev/ttyama", "/dev/serial/", "/dev/cu."} {
		if strings.HasPrefix(strings.ToLower(p), pre) {
			return true
		}
	}
	u := strings.ToUpper(p)
	return len(u) > 3 && strings.HasPrefix(u, "COM") && strings.Trim(u[3:], "0123456789") == ""
}

// bootPartition reports an MTD partition holding the boot chain or the
// device's calibration (u-boot, bootloader, the Atheros ART).
func bootPartition(p string) bool {
	switch strings.TrimPrefix(p, "/dev/") {
	case "u-boot", "uboot", "bootloader", "boot", "u-boot-env", "factory", "art", "spl", "preloader":
		return true
	}
	return false
}

func init() { ruleSets = append(ruleSets, iotRules) }
