package claude

// AskEveryCommand returns the permission rules, for the "permissions" key of
// a Claude Code settings document (its --settings flag), that ask before
// every Bash command. Without them Claude Code runs the commands its own
// rules know to be read-only (ls, cat, ...) without asking, and a front end
// that only sees its questions (its terminal UI, the ACP adapter) never
// gets to put them to the firewall.
func AskEveryCommand() map[string]any {
	return map[string]any{"ask": []any{"Bash"}}
}
