// Package guard is HotPlex's danger firewall. It judges what an agent is
// about to do — a shell command, a file it is about to write, the prompt it
// was given — before it happens. Commands are parsed into a shell syntax
// tree (mvdan.cc/sh/v3/syntax) and every simple command in it is judged
// after wrappers (sudo, env, xargs, timeout, ...) are unwrapped, nested
// shells (bash -c, eval) re-parsed, and quoting resolved; text that only
// mentions a command (echo "rm -rf /") is not a command.
package guard

import (
	"fmt"
	"regexp"
	"strings"
)

// DangerLevel is how bad a blocked action would be.
type DangerLevel int

// Danger levels, from least to most severe. The zero value means safe.
const (
	LevelSafe DangerLevel = iota
	LevelModerate
	LevelHigh
	LevelCritical
)

var levelNames = [...]string{"safe", "moderate", "high", "critical"}

// String returns the level's name: "safe", "moderate", "high" or "critical".
func (l DangerLevel) String() string {
	if l < 0 || int(l) >= len(levelNames) {
		return fmt.Sprintf("level(%d)", int(l))
	}
	return levelNames[l]
}

// MarshalText writes the level's name, so JSON shows "critical", not 3.
func (l DangerLevel) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText reads a level's name.
func (l *DangerLevel) UnmarshalText(b []byte) error {
	lv, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = lv
	return nil
}

// ParseLevel reads a level's name.
func ParseLevel(s string) (DangerLevel, error) {
	for i, n := range levelNames {
		if strings.EqualFold(s, n) {
			return DangerLevel(i), nil
		}
	}
	return LevelSafe, fmt.Errorf("guard: unknown danger level %q", s)
}

// Categories of danger.
const (
	CategoryFileDelete       = "file_delete"
	CategoryDiskWipe         = "disk_wipe"
	CategoryPermission       = "permission"
	CategorySystem           = "system"
	CategoryForkBomb         = "fork_bomb"
	CategoryRemoteExec       = "remote_exec"
	CategoryExfiltration     = "exfiltration"
	CategoryReverseShell     = "reverse_shell"
	CategoryPrivilege        = "privilege"
	CategoryPersistence      = "persistence"
	CategoryDatabaseDestroy  = "database_destroy"
	CategoryGitDestroy       = "git_destroy"
	CategoryContainerDestroy = "container_destroy"
	CategoryCloudDestroy     = "cloud_destroy"
	CategoryHistoryTamper    = "history_tamper"
	// CategoryUnresolved marks what could not be analysed (a variable as
	// the command name, decoded payloads piped into a shell, unparsable
	// text); the Unresolved policy decides it.
	CategoryUnresolved = "unresolved"
	// CategoryFileAccess marks a file tool reaching outside the work dir.
	CategoryFileAccess = "file_access"
)

// Categories lists every danger category a rule can report.
var Categories = []string{
	CategoryFileDelete, CategoryDiskWipe, CategoryPermission, CategorySystem, CategoryForkBomb,
	CategoryRemoteExec, CategoryExfiltration, CategoryReverseShell, CategoryPrivilege,
	CategoryPersistence, CategoryDatabaseDestroy, CategoryGitDestroy, CategoryContainerDestroy,
	CategoryCloudDestroy, CategoryHistoryTamper,
}

// DangerPattern is a user-supplied rule: a regular expression matched
// against each simple command after analysis, written as its words joined
// by single spaces with wrappers removed (so "sudo env X=1 rm -rf /" is
// matched as "rm -rf /"). Anchor patterns with ^ to match command names.
type DangerPattern struct {
	Pattern     *regexp.Regexp // The compiled regex identifying the dangerous sequence
	Description string         // Human-readable explanation of why this pattern is blocked
	Level       DangerLevel    // Severity used for logging and alerting
	Category    string         // Functional category (e.g., "file_delete", "network", "system")
	// Suggestions are safe alternatives shown with a block.
	Suggestions []string
}

// DangerBlockEvent reports something the firewall stopped.
type DangerBlockEvent struct {
	Operation      string      `json:"operation"`             // The specific command line that triggered the block
	Reason         string      `json:"reason"`                // Description of the threat
	PatternMatched string      `json:"pattern_matched"`       // The specific signature that matched the input
	Level          DangerLevel `json:"level"`                 // Severity level
	Category       string      `json:"category"`              // Category classification
	BypassAllowed  bool        `json:"bypass_allowed"`        // Whether the user has administrative privileges to bypass this block
	Suggestions    []string    `json:"suggestions,omitempty"` // Safe alternatives to the blocked command
}

// Action is what to do with something the analysis cannot resolve.
type Action int

// Actions for unresolved input.
const (
	// Block stops it (the default).
	Block Action = iota
	// Ask sends it to a person: the permission request is left to the
	// CLI's own approval flow and reported, rather than denied outright.
	Ask
	// Allow lets it run.
	Allow
)

// String returns "block", "ask" or "allow".
func (a Action) String() string {
	switch a {
	case Ask:
		return "ask"
	case Allow:
		return "allow"
	}
	return "block"
}

// ParseAction reads "block", "ask" or "allow".
func ParseAction(s string) (Action, error) {
	switch strings.ToLower(s) {
	case "block", "":
		return Block, nil
	case "ask":
		return Ask, nil
	case "allow":
		return Allow, nil
	}
	return Block, fmt.Errorf("guard: unknown action %q (block, ask, allow)", s)
}

// Verdict is the firewall's judgement of one input.
type Verdict struct {
	// Blocked is true when the input must not run.
	Blocked bool
	// Ask is true when a person should decide (an unresolved input under
	// the Ask policy). Blocked is false then.
	Ask bool
	// Level, Category, Reason, Pattern and Suggestions describe the most
	// severe finding; they are empty for a safe input.
	Level       DangerLevel
	Category    string
	Reason      string
	Pattern     string
	Suggestions []string
	// Operation is the part of the input that was judged dangerous: the
	// simple command after unwrapping, or the file path.
	Operation string
}

// Event turns a blocking verdict into the event reported to callers.
func (v Verdict) Event(bypassAllowed bool) DangerBlockEvent {
	return DangerBlockEvent{
		Operation: v.Operation, Reason: v.Reason, PatternMatched: v.Pattern, Level: v.Level,
		Category: v.Category, BypassAllowed: bypassAllowed, Suggestions: v.Suggestions,
	}
}

// Context is what a judgement depends on besides the input.
type Context struct {
	// WorkDir is the session's work directory. Deleting or writing outside
	// it is dangerous; inside it, ordinary. Empty means unknown, which
	// makes every path outside $HOME's subfolders suspect.
	WorkDir string
	// Home is the user's home directory ("~" and $HOME expand to it).
	Home string
	// ProtectedPaths are absolute paths (or "~/..." ones) that no command
	// may delete, move, truncate, write into or change the owner or mode
	// of: what the host program owns, such as its data directory, its
	// database, other sessions' work directories and their common root.
	// They are protected wherever they live, /tmp included, and so is
	// every directory that contains one. The session's own work directory
	// and what is below it stay ordinary even when it lies inside one.
	ProtectedPaths []string
	// Shell is the dialect commands are written in: "powershell" (or
	// "pwsh"), "cmd", "gitbash", "bash" (any POSIX shell); empty detects
	// it from the command (see NormalizeShell).
	Shell string
}
