package guard

import (
	"regexp"
	"strings"
)

// Secrets taken in transit or from memory rather than from a file: the
// machine's physical memory copied, every shell's typed lines or every
// TLS write traced, cleartext logins picked out of captured traffic,
// another machine's traffic redirected through this one.
var captureRules = []*rule{
	{ID: "secrets-captured-in-transit", Level: LevelCritical, Category: CategoryExfiltration, Description: "capturing secrets as they pass: physical memory copied, typed commands or TLS plaintext traced, passwords picked out of network traffic, another host's traffic redirected through this one",
		Suggestions: []string{"Trace the project's own process, with its own test credentials", "Capture to a file limited to the traffic being debugged, and leave secrets out of it"},
		names:       names("dd", "bpftrace", "sslsniff", "sslsniff-bpfcc", "perf", "tcpdump", "tshark", "arpspoof", "ettercap", "bettercap"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "dd":
				for _, w := range args {
					if v, ok := strings.CutPrefix(w.s, "if="); ok && (v == "/dev/mem" || v == "/dev/kmem" || v == "/proc/kcore") {
						return true, "the machine's memory copied (" + v + ")"
					}
				}
			case "bpftrace":
				prog, _ := optValue(args, "-e", "")
				if captureProbe.MatchString(prog) {
					return true, "bpftrace on " + captureProbe.FindString(prog)
				}
			case "sslsniff", "sslsniff-bpfcc":
				return true, "every process's TLS plaintext"
			case "perf":
				if len(args) > 0 && (args[0].s == "probe" || args[0].s == "record" || args[0].s == "trace") && captureProbe.MatchString(c.argsText()) {
					return true, "perf probe on " + captureProbe.FindString(c.argsText())
				}
			case "tcpdump":
				next := nextStage(c)
				if next != nil && (next.name == "grep" || next.name == "egrep" || next.name == "rg") && credentialPattern.MatchString(lower(next.argsText())) {
					return true, "captured traffic searched for logins"
				}
				if w, _ := optValue(args, "-w", ""); w == "-" && next != nil {
					// tcpdump -w - | ssh host 'cat > x.pcap': the capture
					// streamed to another machine
					switch next.name {
					case "ssh", "nc", "ncat", "socat", "curl":
						for _, x := range next.args() {
							if h := hostOf(x.s); h != "" && !isLocalHost(h) && (isPublicIP(h) || strings.Count(h, ".") > 1) {
								return true, "the capture streamed to " + h
							}
						}
					}
				}
			case "tshark":
				for _, v := range optValues(args, optTable{"-Y": "", "-e": "", "-R": ""}) {
					if credentialField.MatchString(lower(v.val)) {
						return true, "tshark extracting " + v.val
					}
				}
			case "arpspoof", "ettercap", "bettercap":
				if c.name != "ettercap" || hasWord(args, "-M") || hasPrefixWord(args, "--mitm") {
					return true, c.name + " redirecting another host's traffic"
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, captureRules) }

// captureProbe names what a tracer attached to reads secrets: the
// shell's line editor, TLS libraries' plaintext calls.
var captureProbe = regexp.MustCompile(`\b(readline|SSL_write|SSL_read|SSL_write_ex|SSL_read_ex|gnutls_record_send|gnutls_record_recv|PR_Write|PR_Read)\b`)

// credentialPattern is a search for logins in captured text.
var credentialPattern = regexp.MustCompile(`pass|pwd|user|login|authorization|cookie|token|secret`)

// credentialField names Wireshark's fields that hold credentials.
var credentialField = regexp.MustCompile(`password|passwd|authorization|\.auth\b|ftp\.request\.arg|cookie|credentials`)
