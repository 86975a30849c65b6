package guard

import (
	"regexp"
	"strings"
)

// Mainframes and midrange systems, reached from a workstation: z/OS
// through the Zowe CLI (TSO and RACF commands, operator commands, IDCAMS
// statements, JCL submitted from the line, DB2 and CICS), ZOAU's tools
// over ssh, and IBM i's CL commands (system over ssh, rmtcmd, QCMDEXC
// through SQL, RCMD through FTP). What they delete, switch off or grant
// is judged by the names they act on: a production data set or library,
// the system's own, a security setting. Listings, displays and the
// developer's own data sets pass.
var mainframeRules = []*rule{
	{ID: "mainframe-data-destroyed", Level: LevelCritical, Category: CategoryFileDelete, Description: "deleting, emptying or writing over a mainframe's production data sets, catalogs, libraries or files (z/OS, IBM i), or its recovery history",
		Suggestions: []string{"List what the name matches first (LISTCAT, dls, DSPLIB) and act on one named data set after a second look", "Let the storage administrators expire or migrate production data"},
		names:       names("zowe", "drm", "mrm", "system", "rmtcmd", "rmtcmd.exe", "opercmd", "mvscmd", "mvscmdauth", "isql", "db2", "curl", "lftp", "ssh"),
		partial:     true, // the SQL and file rules judge the rest of what these delete
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, m := range mainframeActions(a, c) {
				if m.destroy {
					return true, m.what
				}
			}
			return false, ""
		}},
	{ID: "mainframe-security-weakened", Level: LevelCritical, Category: CategorySystem, Description: "switching a mainframe's security off or weakening it (RACF classes, protect-all, password rules, IBM i's security level), or taking the system or its regions down",
		Suggestions: []string{"Ask the security administrators: these settings are theirs, and audited", "Stop one test region, not production's"},
		names:       names("zowe", "system", "rmtcmd", "rmtcmd.exe", "opercmd", "isql", "db2", "curl", "ssh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, m := range mainframeActions(a, c) {
				if m.weaken {
					return true, m.what
				}
			}
			return false, ""
		}},
	{ID: "mainframe-authority-granted", Level: LevelHigh, Category: CategoryPrivilege, Description: "granting mainframe authority (RACF SPECIAL or OPERATIONS, universal access, APF authorisation, IBM i *ALLOBJ or *PUBLIC *ALL), creating privileged users or deleting them, or scheduling work on production",
		Suggestions: []string{"Request the access through the security administrators", "Grant one user the one access needed, for a bounded time"},
		names:       names("zowe", "system", "rmtcmd", "rmtcmd.exe", "opercmd", "isql", "db2", "curl", "ssh", "extattr"),
		match: func(a *analysis, c *cmd) (bool, string) {
			for _, m := range mainframeActions(a, c) {
				if m.grant {
					return true, m.what
				}
			}
			return false, ""
		}},
}

// mfAction is what one mainframe command does that is dangerous.
type mfAction struct {
	what                   string
	destroy, weaken, grant bool
}

// mainframeActions reads the mainframe commands c carries, from its
// arguments, its input or a file written earlier on the line, and judges
// each.
func mainframeActions(a *analysis, c *cmd) []mfAction {
	args := c.args()
	var out []mfAction
	switch c.name {
	case "zowe":
		return zoweActions(a, c)
	case "drm", "mrm":
		// ZOAU: drm deletes data sets, mrm members
		for _, w := range c.operands() {
			if ds := mfDataset(w.s); ds != "" && mfProdDataset(ds) {
				return []mfAction{{what: c.name + " " + ds, destroy: true}}
			}
		}
	case "ssh":
		// ssh HOST system "CL (PARMS)": the words the remote shell is
		// given, before it would read the parentheses as its own
		ops := c.operands()
		for i, w := range ops {
			if i > 0 && w.s == "system" && i+1 < len(ops) {
				return judgeCL(joinWords(ops[i+1:]))
			}
		}
	case "extattr":
		// z/OS UNIX: extattr +a marks a program APF-authorised
		if hasWord(args, "+a") {
			return []mfAction{{what: "extattr +a (an APF-authorised program)", grant: true}}
		}
	case "system":
		// IBM i PASE: system 'CL COMMAND'
		if len(args) > 0 && !strings.HasPrefix(args[0].s, "-") {
			out = append(out, judgeCL(joinWords(args))...)
		}
	case "rmtcmd", "rmtcmd.exe":
		// IBM i Access: rmtcmd CL //SYSTEM
		var cl []string
		for _, w := range args {
			if !strings.HasPrefix(w.s, "//") {
				cl = append(cl, w.s)
			}
		}
		out = append(out, judgeCL(strings.Join(cl, " "))...)
	case "opercmd":
		if len(args) > 0 {
			out = append(out, judgeConsole(joinWords(args))...)
		}
	case "mvscmd", "mvscmdauth":
		// ZOAU: mvscmd --pgm=IDCAMS --sysin=stdin, the statements on its
		// input
		if c.in.kind == flowText {
			pgm, _ := optValue(args, "", "pgm")
			out = append(out, judgeUtility(strings.ToUpper(pgm), c.in.text, joinWords(args))...)
		}
	case "isql", "db2":
		// CALL QSYS2.QCMDEXC('CL'): a CL command run through SQL
		if text, _ := a.sqlOf(c); text != "" {
			for _, m := range qcmdexc.FindAllStringSubmatch(text, -1) {
				out = append(out, judgeCL(strings.ReplaceAll(m[1], "''", "'"))...)
			}
		}
	case "curl":
		// curl ftp://host -Q 'DELE X' / -Q 'RCMD CL': raw FTP commands
		for i, w := range args {
			if (w.s == "-Q" || w.s == "--quote") && i+1 < len(args) {
				out = append(out, judgeFTPRaw(args[i+1].s)...)
			}
		}
	case "lftp":
		for _, o := range [...]string{"-e", "-c"} {
			if v, ok := optValue(args, o, ""); ok {
				for _, line := range strings.Split(v, ";") {
					f := strings.Fields(line)
					if len(f) > 1 && f[0] == "quote" {
						out = append(out, judgeFTPRaw(strings.Join(f[1:], " "))...)
					}
				}
			}
		}
	}
	return out
}

var qcmdexc = regexp.MustCompile(`(?i)QCMDEXC\s*\(\s*'((?:[^']|'')*)'`)

// zoweGroups are the Zowe CLI's command groups by their aliases.
var zoweGroups = map[string]string{"zos-files": "files", "files": "files", "zos-jobs": "jobs", "jobs": "jobs", "zos-tso": "tso", "tso": "tso",
	"zos-console": "console", "console": "console", "zos-uss": "uss", "uss": "uss", "db2": "db2", "cics": "cics", "ims": "ims"}

// zoweActions judges a Zowe CLI command: zowe GROUP ACTION OBJECT ARGS.
func zoweActions(a *analysis, c *cmd) []mfAction {
	args := c.args()
	var pos []string
	for _, w := range args {
		if strings.HasPrefix(w.s, "-") {
			if len(pos) == 3 && (strings.EqualFold(pos[2], "command") || strings.EqualFold(pos[2], "cmd")) {
				pos = append(pos, w.s) // zowe console issue cmd "-DB2P STOP ..."
			}
			break
		}
		pos = append(pos, w.s)
	}
	if len(pos) < 2 {
		return nil
	}
	group, action := zoweGroups[strings.ToLower(pos[0])], strings.ToLower(pos[1])
	object := ""
	if len(pos) > 2 {
		object = strings.ToLower(pos[2])
	}
	rest := pos[min(3, len(pos)):]
	first := ""
	if len(rest) > 0 {
		first = rest[0]
	}
	switch {
	case group == "files" && action == "delete":
		if ds := mfDataset(first); ds != "" && mfProdDataset(ds) {
			return []mfAction{{what: "zowe files delete " + ds, destroy: true}}
		}
	case group == "files" && action == "invoke" && (object == "ams-statements" || object == "as"):
		return judgeIDCAMS(first)
	case group == "files" && action == "upload":
		// the last operand is the data set written
		if len(rest) > 0 {
			if ds := mfDataset(rest[len(rest)-1]); ds != "" && (mfProdDataset(ds) || mfSystemDataset(ds)) {
				return []mfAction{{what: "zowe files upload over " + ds, destroy: true}}
			}
		}
	case group == "jobs" && action == "submit":
		var jcl string
		switch object {
		case "stdin", "in":
			if c.in.kind == flowText {
				jcl = c.in.text
			}
		case "local-file", "lf":
			if t, ok := a.writtenText(first, c.cwd); ok {
				jcl = t
			}
		}
		return judgeJCL(jcl)
	case group == "tso" && action == "issue":
		return judgeTSO(first)
	case group == "console" && action == "issue":
		return judgeConsole(first)
	case group == "db2" && action == "execute":
		if q, ok := optValue(args, "-q", "query"); ok {
			return judgeDB2SQL(q)
		}
	case group == "cics" && (action == "discard" || action == "delete"):
		if r, ok := optValue(args, "", "region-name", "rn"); ok && isProdName(r) {
			return []mfAction{{what: "zowe cics " + action + " " + object + " " + first + " in " + r, weaken: true}}
		}
	}
	return nil
}

// expandZoweUSS judges what zowe uss issue ssh runs in z/OS UNIX.
func (a *analysis) expandZoweUSS(c *cmd) {
	var pos []word
	for _, w := range c.args() {
		if strings.HasPrefix(w.s, "-") {
			break
		}
		pos = append(pos, w)
	}
	if len(pos) < 4 || zoweGroups[strings.ToLower(pos[0].s)] != "uss" || !strings.EqualFold(pos[1].s, "issue") || !strings.EqualFold(pos[2].s, "ssh") {
		return
	}
	a.remoteCommand(c, pos[3:4], "zowe uss command")
}

// mfDataset returns a z/OS data set name (upper case, without quotes or
// member), or "" when s is not one.
func mfDataset(s string) string {
	s = strings.Trim(strings.TrimSpace(s), `'"`)
	if i := strings.IndexByte(s, '('); i > 0 {
		s = s[:i]
	}
	if !strings.Contains(s, ".") || strings.ContainsAny(s, "/\\ :") {
		return ""
	}
	return strings.ToUpper(s)
}

// mfProdDataset reports a data set of production's, or a catalog: its
// qualifiers say production as any name does (PROD, PRD01, CICSPRD), or
// its high-level qualifier begins with PRD (PRDX), or it is a catalog or
// the system's own.
func mfProdDataset(ds string) bool {
	if isProdName(ds) || strings.HasPrefix(ds, "PRD") || mfSystemDataset(ds) {
		return true
	}
	for _, q := range strings.Split(ds, ".") {
		if q == "UCAT" || q == "USERCATALOG" || q == "MCAT" {
			return true
		}
	}
	return false
}

// mfSystemDataset reports the system's own data sets (SYS1.PARMLIB).
func mfSystemDataset(ds string) bool {
	return strings.HasPrefix(ds, "SYS1.") || strings.HasPrefix(ds, "SYS2.") || strings.HasPrefix(ds, "CATALOG.")
}

// judgeIDCAMS judges IDCAMS statements: DELETE of production's data
// sets, catalogs and GDGs.
func judgeIDCAMS(stmts string) []mfAction {
	var out []mfAction
	for _, line := range strings.Split(stmts, "\n") {
		f := strings.Fields(strings.ToUpper(line))
		if len(f) < 2 || f[0] != "DELETE" && f[0] != "DEL" {
			continue
		}
		ds := mfDataset(strings.TrimPrefix(f[1], "("))
		if ds == "" {
			continue
		}
		if mfProdDataset(ds) || containsWord(f, "USERCATALOG") || containsWord(f, "FORCE") && containsWord(f, "GDG") {
			out = append(out, mfAction{what: "IDCAMS " + strings.Join(f, " "), destroy: true})
		}
	}
	return out
}

// judgeJCL judges a job's statements: the utilities its steps run on the
// statements they read (IDCAMS, ADRDSSU, DSNUPROC, DBRC, ICKDSF).
func judgeJCL(jcl string) []mfAction {
	if jcl == "" {
		return nil
	}
	pgm := ""
	var out []mfAction
	var sysin strings.Builder
	flush := func() {
		if sysin.Len() > 0 {
			out = append(out, judgeUtility(pgm, sysin.String(), jcl)...)
			sysin.Reset()
		}
	}
	for _, line := range strings.Split(jcl, "\n") {
		u := strings.ToUpper(strings.TrimSpace(line))
		switch {
		case strings.HasPrefix(u, "//"):
			flush()
			if i := strings.Index(u, " EXEC "); i > 0 {
				p := strings.TrimSpace(u[i+6:])
				p = strings.TrimPrefix(p, "PGM=")
				if j := strings.IndexAny(p, ", "); j > 0 {
					p = p[:j]
				}
				pgm = p
			}
		case strings.HasPrefix(u, "/*"):
			flush()
		default:
			sysin.WriteString(u)
			sysin.WriteByte('\n')
		}
	}
	flush()
	return out
}

// judgeUtility judges a z/OS utility's control statements; context is
// the rest of the job or command (its DD statements, options).
func judgeUtility(pgm, stmts, context string) []mfAction {
	u := strings.ToUpper(stmts)
	f := strings.Fields(u)
	switch {
	case pgm == "IDCAMS":
		return judgeIDCAMS(stmts)
	case pgm == "ADRDSSU" && len(f) > 0 && f[0] == "RESTORE":
		return []mfAction{{what: "ADRDSSU RESTORE over volumes", destroy: true}}
	case pgm == "ICKDSF" && len(f) > 0 && (f[0] == "INIT" || f[0] == "INSTALL" || f[0] == "TRKFMT"):
		return []mfAction{{what: "ICKDSF " + f[0] + " (a volume initialised)", destroy: true}}
	case strings.Contains(u, "MODIFY RECOVERY") && strings.Contains(u, "DELETE"):
		return []mfAction{{what: "DB2 MODIFY RECOVERY DELETE (recovery history deleted)", destroy: true}}
	case strings.HasPrefix(strings.TrimSpace(u), "DELETE.DB") || strings.Contains(u, "\nDELETE.DB"):
		return []mfAction{{what: "DBRC DELETE.DB", destroy: true}}
	case pgm == "DFHCSDUP" && len(f) > 0 && (f[0] == "INITIALIZE" || f[0] == "DELETE"):
		return []mfAction{{what: "DFHCSDUP " + f[0] + " (CICS definitions wiped)", destroy: true}}
	}
	return nil
}

// mfParam returns the value of a keyword parameter KEY(VALUE) in an upper
// case command.
func mfParam(u, key string) string {
	i := strings.Index(u, key+"(")
	for i > 0 && (u[i-1] >= 'A' && u[i-1] <= 'Z') {
		j := strings.Index(u[i+1:], key+"(")
		if j < 0 {
			return ""
		}
		i += 1 + j
	}
	if i < 0 {
		return ""
	}
	v := u[i+len(key)+1:]
	depth := 1
	for k := 0; k < len(v); k++ {
		switch v[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return v[:k]
			}
		}
	}
	return v
}

// judgeTSO judges a TSO command: RACF's, and DELETE.
func judgeTSO(cmdline string) []mfAction {
	u := strings.ToUpper(strings.TrimSpace(cmdline))
	f := strings.Fields(u)
	if len(f) == 0 {
		return nil
	}
	what := "TSO " + u
	switch f[0] {
	case "DELETE", "DEL":
		if len(f) > 1 {
			if ds := mfDataset(f[1]); ds != "" && mfProdDataset(ds) {
				return []mfAction{{what: what, destroy: true}}
			}
		}
	case "SETROPTS", "SETR":
		// NOCLASSACT, NOPROTECTALL, NOERASE, NOAUDIT, NOGENERIC,
		// password rules loosened
		for _, w := range f[1:] {
			if strings.HasPrefix(w, "NOCLASSACT") || strings.HasPrefix(w, "NOPROTECTALL") || strings.HasPrefix(w, "NOERASE") || strings.HasPrefix(w, "NOAUDIT") ||
				strings.HasPrefix(w, "NOGENERIC") || strings.HasPrefix(w, "NOSAUDIT") || strings.HasPrefix(w, "NOOPERAUDIT") || strings.HasPrefix(w, "NOLOGOPTIONS") ||
				strings.HasPrefix(w, "PASSWORD(") && (strings.Contains(u, "NOHISTORY") || strings.Contains(u, "NOREVOKE")) {
				return []mfAction{{what: what, weaken: true}}
			}
		}
	case "ALTUSER", "ALU", "ADDUSER", "AU":
		for _, w := range f[2:] {
			if w == "SPECIAL" || w == "OPERATIONS" || w == "AUDITOR" || strings.HasPrefix(w, "OMVS(") && strings.Contains(u, "UID(0)") {
				if f[0] == "ADDUSER" || f[0] == "AU" {
					return []mfAction{{what: what, weaken: true}}
				}
				return []mfAction{{what: what, grant: true}}
			}
		}
		if strings.Contains(u, " UID(0)") {
			return []mfAction{{what: what, weaken: true}}
		}
	case "PERMIT", "PE":
		acc := mfParam(u, "ACCESS")
		if acc == "ALTER" || acc == "CONTROL" || acc == "UPDATE" || strings.Contains(u, "BPX.SUPERUSER") || mfParam(u, "ID") == "*" {
			if strings.Contains(u, "SYS1.") || mfParam(u, "ID") == "*" {
				return []mfAction{{what: what, weaken: true}}
			}
			return []mfAction{{what: what, grant: true}}
		}
	case "RALTER", "RALT", "RDEFINE", "RDEF", "ALTDSD", "ADDSD":
		if acc := mfParam(u, "UACC"); acc != "" && acc != "NONE" {
			if strings.Contains(u, "BPX.") || strings.Contains(u, "SYS1.") || strings.Contains(u, "IRR.") {
				return []mfAction{{what: what, weaken: true}}
			}
			return []mfAction{{what: what, grant: true}}
		}
	case "DELUSER", "DELDSD", "DD", "RDELETE", "RDEL", "DELGROUP", "DG":
		return []mfAction{{what: what, weaken: true}}
	case "RACDCERT":
		switch {
		case strings.Contains(u, " EXPORT(") || strings.Contains(u, " DELETE(") || strings.Contains(u, " DELRING("):
			return []mfAction{{what: what, weaken: true}}
		case strings.Contains(u, " CONNECT(") && strings.Contains(u, "CERTAUTH"):
			return []mfAction{{what: what, grant: true}}
		}
	}
	return nil
}

// judgeConsole judges an operator command (MVS, JES2, DB2, CICS through
// MODIFY, IMS).
func judgeConsole(cmdline string) []mfAction {
	u := strings.ToUpper(strings.TrimSpace(cmdline))
	f := strings.Fields(u)
	if len(f) == 0 {
		return nil
	}
	what := "operator command " + u
	weaken := []mfAction{{what: what, weaken: true}}
	switch {
	case u == "Z EOD" || strings.HasPrefix(u, "HALT EOD") || strings.HasPrefix(u, "Z EOD"):
		return weaken
	case f[0] == "SETPROG" && strings.Contains(u, "APF,ADD"):
		return []mfAction{{what: what, grant: true}}
	case (f[0] == "P" || f[0] == "STOP" || f[0] == "C" || f[0] == "CANCEL" || f[0] == "FORCE") && len(f) > 1 && isProdName(f[1]):
		return weaken
	case (f[0] == "F" || f[0] == "MODIFY") && len(f) > 1 && isProdName(f[1]) &&
		(strings.Contains(u, "SHUTDOWN") || strings.Contains(u, "DISABLED") || strings.Contains(u, "CLOSED") || strings.Contains(u, "DISCARD")):
		return weaken
	case (f[0] == "V" || f[0] == "VARY") && strings.Contains(u, "OFFLINE") && strings.Contains(u, "FORCE"):
		return weaken
	case strings.HasPrefix(f[0], "$P") && len(f[0]) > 2 && (f[0][2] == 'J' || f[0][2] == 'Q' || f[0][2] == 'O' || f[0][2] == 'S' || f[0][2] == 'T'):
		// $PJ1-99999, $PQ,ALL: jobs and their output purged
		return []mfAction{{what: what, destroy: true}}
	case strings.HasPrefix(f[0], "-") && strings.Contains(u, "ACCESS(FORCE)"):
		return []mfAction{{what: what, destroy: true}}
	case strings.HasPrefix(f[0], "-") && len(f) > 1 && f[1] == "STOP" && (strings.Contains(u, "DATABASE(") || strings.Contains(u, " DB2") || strings.Contains(u, "MODE(FORCE)")):
		return weaken
	case (f[0] == "#CHE" || f[0] == "/CHE" || f[0] == "/CHECKPOINT" || f[0] == "#CHECKPOINT") && (strings.Contains(u, "FREEZE") || strings.Contains(u, "PURGE") || strings.Contains(u, "DUMPQ")):
		return weaken
	case f[0] == "/DBR" || f[0] == "#DBR" || f[0] == "/DBRECOVERY":
		return weaken
	}
	return nil
}

// judgeDB2SQL judges SQL sent to DB2 for z/OS: DROP, DELETE without WHERE,
// TRUNCATE, grants to PUBLIC, row access control switched off.
func judgeDB2SQL(q string) []mfAction {
	u := strings.ToUpper(q)
	f := strings.Fields(u)
	if len(f) < 2 {
		return nil
	}
	what := "DB2 " + truncate(strings.Join(f, " "), 80)
	switch {
	case f[0] == "DROP" || f[0] == "TRUNCATE" || f[0] == "DELETE" && !strings.Contains(u, " WHERE "):
		return []mfAction{{what: what, destroy: true}}
	case f[0] == "GRANT" && strings.Contains(u, " TO PUBLIC"):
		return []mfAction{{what: what, grant: true}}
	case f[0] == "ALTER" && strings.Contains(u, "DEACTIVATE ROW ACCESS CONTROL") || strings.Contains(u, "DEACTIVATE COLUMN ACCESS CONTROL"):
		return []mfAction{{what: what, weaken: true}}
	}
	return nil
}

// judgeCL judges an IBM i CL command.
func judgeCL(cl string) []mfAction {
	u := strings.ToUpper(strings.Trim(strings.TrimSpace(cl), `'"`))
	f := strings.Fields(u)
	if len(f) == 0 {
		return nil
	}
	what := "CL " + truncate(u, 100)
	verb := f[0]
	if i := strings.IndexByte(verb, '/'); i >= 0 {
		verb = verb[i+1:] // QSYS/CLRLIB
	}
	lib := mfParam(u, "LIB")
	if file := mfParam(u, "FILE"); lib == "" && file != "" {
		lib, _, _ = strings.Cut(file, "/")
	}
	if obj := mfParam(u, "OBJ"); lib == "" && obj != "" {
		lib, _, _ = strings.Cut(obj, "/")
	}
	devLib := lib != "" && (strings.Contains(lib, "DEV") || strings.Contains(lib, "TEST") || strings.Contains(lib, "TST") || strings.Contains(lib, "CIBLD") ||
		strings.HasPrefix(lib, "QTEMP") || strings.Contains(lib, "SCRATCH"))
	switch verb {
	case "CLRLIB", "DLTLIB", "DLTF", "CLRPFM", "RMVM", "CLRSAVF", "DLTJRNRCV", "DLTOBJ", "DLTPGM":
		if !devLib {
			return []mfAction{{what: what, destroy: true}}
		}
	case "INZTAP", "INZOPT":
		return []mfAction{{what: what, destroy: true}}
	case "RSTLIB", "RSTOBJ":
		if !devLib && (strings.Contains(u, "ALWOBJDIF") || strings.Contains(u, "MBROPT(*ALL)") || strings.Contains(u, "RSTLIB(")) {
			return []mfAction{{what: what, destroy: true}}
		}
	case "CPYF":
		to := mfParam(u, "TOFILE")
		if strings.Contains(u, "MBROPT(*REPLACE)") && to != "" && !strings.Contains(to, "DEV") && !strings.Contains(to, "TEST") && !strings.HasPrefix(to, "QTEMP") {
			return []mfAction{{what: what, destroy: true}}
		}
	case "PWRDWNSYS", "ENDSYS":
		return []mfAction{{what: what, weaken: true}}
	case "ENDSBS":
		if strings.Contains(u, "*ALL") || strings.Contains(u, "SBS(QBATCH)") || strings.Contains(u, "QINTER") {
			return []mfAction{{what: what, weaken: true}}
		}
	case "ENDJRNPF", "ENDJRN", "ENDJRNAP", "ENDJRNOBJ":
		return []mfAction{{what: what, weaken: true}}
	case "CHGSYSVAL":
		switch mfParam(u, "SYSVAL") {
		case "QSECURITY", "QPWDMINLEN", "QPWDEXPITV", "QPWDLVL", "QAUDCTL", "QAUDLVL", "QMAXSIGN", "QMAXSGNACN", "QPWDRQDDIF", "QRETSVRSEC",
			"QALWOBJRST", "QVFYOBJRST", "QCRTAUT", "QLMTSECOFR", "QINACTITV", "QPWDRULES", "QALWUSRDMN":
			return []mfAction{{what: what, weaken: true}}
		}
	case "CRTUSRPRF", "CHGUSRPRF":
		usr := mfParam(u, "USRPRF")
		if strings.Contains(u, "*ALLOBJ") || strings.Contains(u, "*SECADM") || strings.Contains(u, "USRCLS(*SECOFR)") {
			if verb == "CRTUSRPRF" || usr == "QSECOFR" {
				return []mfAction{{what: what, weaken: true}}
			}
			return []mfAction{{what: what, grant: true}}
		}
		if (usr == "QSECOFR" || strings.HasPrefix(usr, "Q")) && strings.Contains(u, "PASSWORD(") {
			return []mfAction{{what: what, weaken: true}}
		}
	case "DLTUSRPRF":
		return []mfAction{{what: what, weaken: true}}
	case "GRTOBJAUT":
		if strings.Contains(u, "USER(*PUBLIC)") && (strings.Contains(u, "AUT(*ALL)") || strings.Contains(u, "AUT(*CHANGE)")) || strings.Contains(u, "AUT(*ALL)") && !devLib {
			return []mfAction{{what: what, grant: true}}
		}
	case "ADDJOBSCDE", "ADDEXITPGM", "ADDAJE", "ADDRPYLE":
		if !devLib {
			return []mfAction{{what: what, grant: true}}
		}
	}
	return nil
}

// judgeFTPRaw judges a raw FTP command (curl -Q, lftp quote): DELE of a
// production data set, RCMD running an IBM i CL command on the server.
func judgeFTPRaw(raw string) []mfAction {
	raw = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(raw, "-"), "+"))
	f := strings.Fields(raw)
	if len(f) < 2 {
		return nil
	}
	switch strings.ToUpper(f[0]) {
	case "DELE", "RMD", "XRMD":
		// (a production data set's delete; the others are
		// server-files-deleted's)
		if ds := mfDataset(strings.Join(f[1:], " ")); ds != "" && mfProdDataset(ds) {
			return []mfAction{{what: "FTP " + raw + " (deleted on the server)", destroy: true}}
		}
	case "RCMD":
		return judgeCL(strings.Join(f[1:], " "))
	case "SITE":
		if len(f) > 2 && strings.EqualFold(f[1], "RCMD") {
			return judgeCL(strings.Join(f[2:], " "))
		}
	}
	return nil
}

func init() { ruleSets = append(ruleSets, mainframeRules) }
