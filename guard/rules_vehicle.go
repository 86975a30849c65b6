package guard

import "strings"

// A vehicle's or machine's CAN bus from a workstation (can-utils):
// diagnostic requests that erase, reflash, reset or silence its control
// units, the bus flooded, CANopen nodes stopped. The same on a virtual
// bus (vcan), and reads, pass.

func init() { ruleSets = append(ruleSets, []*rule{vehicleBusCommand}) }

// udsServices are the UDS (ISO 14229) requests that change an ECU or what
// it does, by their first byte.
var udsServices = map[string]string{
	"11": "an ECU reset", "28": "communication control (ECUs silenced)", "85": "fault recording switched off",
	"2e": "data written by identifier", "34": "a download to the ECU (reflash)", "36": "data transferred to the ECU (reflash)",
	"3d": "memory written", "14": "fault memory cleared", "31": "a routine run (erase, check, reset)",
}

var vehicleBusCommand = &rule{ID: "vehicle-bus-command", Level: LevelHigh, Category: CategorySystem, Description: "sending a vehicle's or machine's control units commands on a real CAN bus: diagnostic requests that erase, reflash, reset or silence them, the bus flooded, CANopen nodes stopped",
	Suggestions: []string{"Try it on a virtual bus (vcan0) or the bench's own ECU first", "Use the manufacturer's diagnostic tool under its procedure"},
	names:       names("isotpsend", "cansend", "cangen"),
	match: func(a *analysis, c *cmd) (bool, string) {
		ops := c.operands()
		iface := ""
		switch c.name {
		case "isotpsend":
			if len(ops) > 0 {
				iface = ops[len(ops)-1].s
			}
		case "cansend", "cangen":
			if len(ops) > 0 {
				iface = ops[0].s
			}
		}
		if iface == "" || strings.HasPrefix(iface, "vcan") || strings.HasPrefix(iface, "vxcan") || strings.Contains(iface, "virtual") {
			return false, ""
		}
		switch c.name {
		case "cangen":
			// -g 0: no gap between frames
			if g, ok := optValue(c.args(), "-g", ""); ok && (g == "0" || g == "0.0") {
				return true, "cangen flooding " + iface
			}
		case "cansend":
			// ID#DATA: CANopen's NMT (ID 000) stop, pre-operational or reset
			if len(ops) > 1 {
				id, data, _ := strings.Cut(lower(ops[1].s), "#")
				if strings.Trim(id, "0") == "" && len(data) >= 2 {
					switch data[:2] {
					case "02", "80", "81", "82":
						return true, "CANopen NMT command " + data[:2] + " to every node on " + iface
					}
				}
			}
		case "isotpsend":
			if c.in.kind != flowText {
				return false, ""
			}
			f := strings.Fields(lower(c.in.text))
			if len(f) == 0 {
				return false, ""
			}
			if what, ok := udsServices[f[0]]; ok {
				if f[0] == "31" && !(len(f) > 3 && f[1] == "01" && f[2] == "ff" && (f[3] == "00" || f[3] == "01")) {
					return false, "" // other routines: checks and self-tests
				}
				return true, "UDS " + what + " on " + iface
			}
		}
		return false, ""
	}}
