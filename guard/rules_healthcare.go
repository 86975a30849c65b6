package guard

import (
	"path"
	"regexp"
	"strings"
)

// mumpsKill matches M's KILL (or K) of a global: kill ^DPT.
var mumpsKill = regexp.MustCompile(`(?i)(^|[\s"';])k(ill)?\s+\^`)

// Hospital systems' interfaces and stores: HL7 v2 messages sent to a live
// interface engine or laboratory system (they change patients' records:
// a merge, a result), DICOM images sent to a host outside the hospital,
// an archive's images rewritten in place without a backup, a PACS told to
// run a script, MUMPS globals (VistA's patient file) killed. Messages sent
// to this machine, images changed in the project's own copies and reads
// pass.
var healthcareRules = []*rule{
	{ID: "clinical-interface-write", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "sending HL7 messages to a live interface engine or laboratory system (patients merged, results filed: in the real records)",
		Suggestions: []string{"Send test messages to the test interface (its own port or host)", "Replay through the interface engine's test channel"},
		names:       names("nc", "ncat", "netcat", "mllp_send", "hl7-send"),
		partial:     true,
		match: func(a *analysis, c *cmd) (bool, string) {
			host := ""
			switch c.name {
			case "mllp_send", "hl7-send":
				ops := posArgs(c.args(), optSpec{short: "pfd", long: []string{"port", "file"}})
				if len(ops) == 0 {
					return false, ""
				}
				host = ops[len(ops)-1].s
			default:
				if !hl7Fed(c) {
					return false, ""
				}
				ops := posArgs(c.args(), optSpec{short: "pqwsi"})
				if len(ops) == 0 {
					return false, ""
				}
				host = ops[0].s
			}
			if thisMachine(host) || scratchName(host) {
				return false, ""
			}
			return true, "HL7 messages sent to " + host
		}},
	{ID: "medical-images-sent-out", Level: LevelCritical, Category: CategoryExfiltration, Description: "sending DICOM images (patients' scans, with their names and ids) to a host outside the hospital's network",
		Suggestions: []string{"De-identify the studies first and send them through the approved gateway", "Check the receiving party's agreement"},
		names:       names("dcmsend", "storescu", "storescu.exe", "dcmsend.exe"),
		match: func(a *analysis, c *cmd) (bool, string) {
			var host string
			for i, w := range c.args() {
				if strings.HasPrefix(w.s, "-") || strings.HasPrefix(w.s, "+") {
					continue
				}
				if i > 0 && (c.args()[i-1].s == "-aet" || c.args()[i-1].s == "-aec" || c.args()[i-1].s == "-aem") {
					continue
				}
				host = w.s
				break
			}
			if host == "" || isLocalHost(host) || localOnlyName(host) || strings.HasSuffix(host, ".internal") {
				return false, ""
			}
			return true, "DICOM images sent to " + host
		}},
	{ID: "medical-archive-rewritten", Level: LevelCritical, Category: CategoryFileDelete, Description: "rewriting an image archive's DICOM files in place without a backup (dcmodify -nb) outside the project",
		Suggestions: []string{"Copy the files into the project and change the copies", "Keep the backup (drop -nb)"},
		names:       names("dcmodify"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if !hasWord(c.args(), "-nb") && !hasWord(c.args(), "--no-backup") {
				return false, ""
			}
			for _, w := range c.operands() {
				if !strings.HasSuffix(lower(w.s), ".dcm") && !strings.Contains(w.s, "/") {
					continue
				}
				if p := a.absPath(w.s, c.cwd); p != "" && !a.inWork(p) && !strings.HasPrefix(p, "/tmp/") {
					return true, "dcmodify -nb " + w.s
				}
			}
			return false, ""
		}},
	{ID: "mumps-globals-killed", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "killing a MUMPS database's globals (VistA's patient file ^DPT and the like) or switching its journal off",
		Suggestions: []string{"Work on a copy of the database", "Kill single nodes after a backup, with the application's own tools"},
		names:       names("mumps", "gtm", "ydb", "yottadb", "mupip", "csession", "iris"),
		match: func(a *analysis, c *cmd) (bool, string) {
			j := c.argsText()
			if c.name == "mupip" {
				if strings.Contains(lower(j), "-journal=off") || strings.Contains(lower(j), "-nojournal") {
					return true, "mupip set -journal=off"
				}
				return false, ""
			}
			if mumpsKill.MatchString(j) {
				return true, "a MUMPS global killed"
			}
			return false, ""
		}},
}

// hl7Fed reports a command whose standard input is HL7 v2: a literal
// message (MSH|...), or an HL7 file (.hl7, .oru, .adt) piped in.
func hl7Fed(c *cmd) bool {
	if c.in.kind == flowText && strings.Contains(c.in.text, "MSH|") {
		return true
	}
	if c.pipe == nil || c.stage == 0 || c.pipe[c.stage-1] == nil {
		return false
	}
	for _, w := range c.pipe[c.stage-1].operands() {
		switch strings.ToLower(path.Ext(w.s)) {
		case ".hl7", ".oru", ".adt", ".orm":
			return true
		}
	}
	return false
}

func init() { ruleSets = append(ruleSets, healthcareRules) }
