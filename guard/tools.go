package guard

import (
	"path"
	"strings"
)

// CheckFile judges a file tool (Write, Edit, MultiEdit, NotebookEdit, ...)
// writing to path: outside the work directory, or to a system location or
// a shell start-up file, it is blocked.
//
// Relative paths are resolved against Context.WorkDir and ".." is
// resolved lexically (symbolic links are not followed). System locations,
// start-up files and credentials are critical; any other path outside the
// work directory is high (category "file_access"), except temporary
// directories. With an empty WorkDir only the system checks apply.
func (d *Detector) CheckFile(tool, file string, c Context) Verdict {
	if d == nil || file == "" {
		return Verdict{}
	}
	a := d.newAnalysis(c)
	defer a.release()
	f := a.fileFinding(tool, file)
	if f == nil {
		return Verdict{}
	}
	v := f.verdict()
	v.Blocked = f.level >= d.opts.MinLevel
	return v
}

// fileFinding judges a file tool's target.
func (a *analysis) fileFinding(tool, file string) *finding {
	p := file
	if strings.HasPrefix(p, "file://") {
		p = p[len("file://"):]
	}
	abs := a.absPath(p, a.workDir)
	if abs == "" {
		// relative path with an unknown work directory
		rel := path.Clean(p)
		if rel == ".." || strings.HasPrefix(rel, "../") {
			return &finding{id: "file-outside-workdir", level: LevelHigh, category: CategoryFileAccess,
				reason: "file outside the work directory: " + file, op: tool + " " + file,
				suggestions: []string{"Write files inside the project directory"}}
		}
		return nil
	}
	op := strings.TrimSpace(tool + " " + file)
	mk := func(id, cat, reason string, sugg ...string) *finding {
		return &finding{id: id, level: LevelCritical, category: cat, reason: reason + ": " + abs, op: op, suggestions: sugg}
	}
	switch a.classifyWrite(abs) {
	case wProtected:
		return mk("file-protected", CategoryFileDelete, "modifying what HotPlex owns (its data, its database, other sessions' files)", "Write files inside this session's work directory")
	case wDBData:
		return mk("file-database-data", CategoryDatabaseDestroy, "modifying a database's data files", "Change data through the database")
	case wBlockDev:
		return mk("file-block-device", CategoryDiskWipe, "writing to a disk device", "Write to a regular file inside the project")
	case wPasswd, wSudoers, wPam, wSSHDConfig:
		return mk("file-privilege", CategoryPrivilege, "modifying accounts, sudo or authentication configuration", "Let an administrator change system accounts and sudo rules")
	case wLdPreload, wShellRC, wCron, wService, wAuthKeys, wSSHConfig, wGitHook, wPathShadow:
		return mk("file-persistence", CategoryPersistence, "modifying a start-up file, schedule, service or SSH access", "Show the change and let the user apply it", "Use project-local configuration instead")
	case wHistory, wLogs:
		return mk("file-history", CategoryHistoryTamper, "modifying shell history or system logs", "Leave history and logs untouched")
	case wSysrq, wDevMem, wBoot, wSysBin, wEtc, wProcSys:
		return mk("file-system", CategorySystem, "modifying a system location", "Write files inside the project directory", "Let an administrator change system files")
	}
	if d, _ := a.sensitive(abs, a.workDir); d != "" {
		if rel, _, ok := a.homeRel(abs); ok && rel != "" && !a.inWork(abs) {
			return mk("file-credentials", CategoryPersistence, "modifying credentials", "Let the user manage their credentials")
		}
	}
	switch abs {
	case "/", "/root", "/home", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/var", "/opt", "/srv", "/dev", "/proc", "/sys":
		return mk("file-system", CategorySystem, "modifying a system location", "Write files inside the project directory")
	}
	if strings.HasPrefix(abs, "/usr/") || strings.HasPrefix(abs, "/bin/") || strings.HasPrefix(abs, "/sbin/") || strings.HasPrefix(abs, "/lib") ||
		strings.HasPrefix(abs, "/boot/") || strings.HasPrefix(abs, "/etc/") || strings.HasPrefix(abs, "/root/") || strings.HasPrefix(abs, "/dev/") ||
		strings.HasPrefix(abs, "/proc/") || strings.HasPrefix(abs, "/sys/") || strings.HasPrefix(abs, "/System/") {
		if !strings.HasPrefix(abs, "/usr/local/") && !strings.HasPrefix(abs, "/dev/shm/") && abs != "/dev/null" {
			return mk("file-system", CategorySystem, "modifying a system location", "Write files inside the project directory")
		}
	}
	if a.workDir == "" || a.inWork(abs) || isTempRoot(abs) || underTemp(abs) || abs == "/dev/null" {
		return nil
	}
	return &finding{id: "file-outside-workdir", level: LevelHigh, category: CategoryFileAccess,
		reason: "file outside the work directory (" + a.workDir + "): " + abs, op: op,
		suggestions: []string{"Write files inside the project directory", "Ask the user before touching files elsewhere"}}
}

// shellTools are tool names that run a shell command.
var shellTools = map[string]bool{
	"bash": true, "shell": true, "run_shell_command": true, "execute_command": true, "exec_command": true,
	"run_command": true, "local_shell": true, "shell_command": true, "terminal": true,
}

// fileTools are tool names that write a file.
var fileTools = map[string]bool{
	"write": true, "edit": true, "multiedit": true, "notebookedit": true, "write_file": true, "edit_file": true,
	"replace": true, "create_file": true, "str_replace_editor": true, "str_replace_based_edit_tool": true,
}

// CheckToolUse judges an agent's tool call by its name and input: Bash
// (and other shell tools: shell, run_shell_command, execute_command) by
// their "command" or "cmd" input — a string, or an argument vector that is
// quoted and joined; a shell tool whose command cannot be read is judged
// as input that cannot be analysed (Options.Unresolved) — and file tools (Write, Edit, MultiEdit,
// NotebookEdit, write_file, edit_file, replace) by their "file_path",
// "notebook_path" or "path" input; other tools are safe.
func (d *Detector) CheckToolUse(tool string, input map[string]any, c Context) Verdict {
	if d == nil {
		return Verdict{}
	}
	t := strings.ToLower(tool)
	if d := toolDialect(t); d != "" && c.Shell == "" {
		c.Shell = d
	}
	if shellTools[t] || toolDialect(t) != "" {
		for _, k := range [...]string{"command", "cmd"} {
			v, ok := input[k]
			if !ok {
				continue
			}
			switch v := v.(type) {
			case string:
				return d.CheckCommand(v, c)
			case []any:
				var parts []string
				for _, x := range v {
					s, ok := x.(string)
					if !ok {
						return d.unreadable(tool, c)
					}
					parts = append(parts, shellQuote(s))
				}
				return d.CheckCommand(strings.Join(parts, " "), c)
			case []string:
				parts := make([]string, len(v))
				for i, s := range v {
					parts[i] = shellQuote(s)
				}
				return d.CheckCommand(strings.Join(parts, " "), c)
			}
		}
		return d.unreadable(tool, c)
	}
	if fileTools[t] {
		for _, k := range [...]string{"file_path", "notebook_path", "path", "filePath", "filename"} {
			if s, ok := input[k].(string); ok && s != "" {
				return d.CheckFile(tool, s, c)
			}
		}
	}
	return Verdict{}
}

// unreadable judges a shell tool call whose command is missing or not
// text: nothing about it can be checked, so Options.Unresolved decides.
func (d *Detector) unreadable(tool string, c Context) Verdict {
	a := d.newAnalysis(c)
	defer a.release()
	a.unresolved(nil, "the command of "+tool+" could not be read", tool)
	return d.decide(a)
}
