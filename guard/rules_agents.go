package guard

import (
	"path"
	"strings"
)

// Coding agents driven from the command line: one started with its
// approvals and sandbox off, its settings widened to let every command
// through, or its model API pointed at a stranger's host (which then
// receives the API key with every prompt and all the code in them).
var agentRules = []*rule{
	{ID: "agent-approvals-off", Level: LevelHigh, Category: CategorySystem, Description: "starting a coding agent with its approvals and sandbox switched off (every command it decides to run runs unchecked)",
		Suggestions: []string{"Run the agent with its default approvals, or in plan or read-only mode", "Allow the few commands it needs by name"},
		names:       names(append(agentCLIs(), "alias")...),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "alias" {
				// alias --save codex 'codex --dangerously-bypass-...': every
				// later run of the agent unchecked
				for _, w := range args {
					if f := agentUncheckedFlag(strings.Fields(strings.ReplaceAll(w.s, "=", " "))); f != "" {
						return true, "alias " + truncate(w.s, 60)
					}
				}
				return false, ""
			}
			words := make([]string, 1, len(args)+1)
			words[0] = c.name
			for _, w := range args {
				words = append(words, w.s)
			}
			if f := agentUncheckedFlag(words); f != "" {
				return true, c.name + " " + f
			}
			return false, ""
		}},
	{ID: "model-api-redirected", Level: LevelCritical, Category: CategoryExfiltration, Description: "pointing a model API's address at an unknown host (it receives the API key with every request, and every prompt and file sent)",
		Suggestions: []string{"Use the provider's own API address, or a gateway of the organisation by its internal name", "Set the address for a local model server (localhost)"},
		names:       names(append(agentCLIs(), "export", "setx", "set", "cmd:set", "launchctl", "python", "python3", "node", "npx", "uv", "uvx")...),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			check := func(k, v string) string {
				if modelAPIVar(k) {
					if h := strangerModelHost(v); h != "" {
						return strings.ToUpper(k) + " → " + h
					}
				}
				return ""
			}
			switch c.name {
			case "export", "cmd:set":
				for _, w := range args {
					if k, v, ok := strings.Cut(strings.Trim(w.s, `"`), "="); ok {
						if s := check(k, v); s != "" {
							return true, s
						}
					}
				}
				return false, ""
			case "setx", "set", "launchctl":
				ops := c.operands()
				if c.name == "launchctl" && len(ops) > 0 && ops[0].s == "setenv" {
					ops = ops[1:]
				}
				if len(ops) > 1 {
					if s := check(ops[0].s, ops[1].s); s != "" {
						return true, s
					}
				}
				for _, as := range c.assigns {
					if s := check(as.name, as.val.s); s != "" {
						return true, s
					}
				}
				return false, ""
			}
			for _, k := range modelAPIVars {
				if v, ok := a.envOf(c, k); ok {
					if s := check(k, v); s != "" {
						return true, s
					}
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, agentRules) }

// agentCLIs are the coding agents' command-line programs.
func agentCLIs() []string {
	return []string{"claude", "codex", "gemini", "qwen", "cursor-agent", "opencode", "amp", "goose", "crush", "copilot", "aider", "kiro-cli", "q"}
}

// agentUncheckedFlag returns the option of an agent's command line (its
// words, the program first) that switches its approvals or sandbox off,
// or "".
func agentUncheckedFlag(words []string) string {
	if len(words) == 0 {
		return ""
	}
	prog := strings.TrimSuffix(strings.ToLower(path.Base(strings.ReplaceAll(words[0], `\`, "/"))), ".exe")
	for i, w := range words[1:] {
		i++
		l := strings.ToLower(strings.Trim(w, `"'`))
		next := ""
		if i+1 < len(words) {
			next = strings.ToLower(strings.Trim(words[i+1], `"'`))
		}
		if v, ok := strings.CutPrefix(l, "--permission-mode="); ok {
			l, next = "--permission-mode", v
		}
		if v, ok := strings.CutPrefix(l, "--approval-mode="); ok {
			l, next = "--approval-mode", v
		}
		if v, ok := strings.CutPrefix(l, "--sandbox="); ok {
			l, next = "--sandbox", v
		}
		switch {
		case l == "--dangerously-skip-permissions", l == "--dangerously-bypass-approvals-and-sandbox", l == "--yolo",
			l == "--allow-all-tools", l == "--trust-all-tools":
			return w
		case l == "-y" && (prog == "gemini" || prog == "qwen"):
			return w // Gemini's and Qwen's short --yolo
		case l == "--permission-mode" && next == "bypasspermissions", l == "--approval-mode" && next == "yolo",
			(l == "--sandbox" || l == "-s") && next == "danger-full-access":
			return w + " " + next
		case (l == "-c" || l == "--config") && strings.Contains(next, "danger-full-access"):
			return w + " " + next
		}
	}
	return ""
}

// settingsCompactor drops a settings text's spaces and unescapes its quotes,
// so that one search finds "key": "value" however it is spaced.
var settingsCompactor = strings.NewReplacer(" ", "", `\"`, `"`)

// agentSettingsWidened returns what in a line's lower-cased text lets an
// agent run every command unchecked ("defaultMode": "bypassPermissions",
// Codex's danger-full-access sandbox, Gemini's and Qwen's yolo approval
// mode, every shell command allowed), or adds a tool server fetched from
// a repository or a URL, or "".
func agentSettingsWidened(src string) string {
	compact := settingsCompactor.Replace(src)
	switch {
	case strings.Contains(compact, "bypasspermissions"), strings.Contains(compact, "skipdangerousmodepermissionprompt"):
		return "permission checks off"
	case strings.Contains(compact, "danger-full-access"):
		return "the sandbox switched off"
	case strings.Contains(compact, `approval_policy="never"`), strings.Contains(compact, `"approval_policy":"never"`):
		return "approvals switched off"
	case strings.Contains(compact, `"bash(*)"`), strings.Contains(compact, `"bash"`) && strings.Contains(compact, "allow"),
		strings.Contains(compact, `"shell(*)"`), strings.Contains(compact, `"run_shell_command"`) && strings.Contains(compact, "autoaccept"):
		return "every shell command allowed"
	case strings.Contains(compact, "yolo") && strings.Contains(compact, "approval"), strings.Contains(compact, `"autoaccept":true`):
		return "every action approved"
	case strings.Contains(compact, "mcpservers") || strings.Contains(compact, `"servers"`):
		for _, k := range [...]string{`"github:`, `"git+https://`, `"git+ssh://`, `"https://`, `"http://`} {
			if i := strings.Index(compact, k); i >= 0 && !strings.Contains(compact, `"url":`+k) && !strings.Contains(compact, `"serverurl":`+k) {
				return "a tool server fetched from " + strings.Trim(k, `"`)
			}
		}
	}
	return ""
}

// modelAPIVars are the environment variables naming a model API's
// address, as the providers' clients and the agents read them.
var modelAPIVars = [...]string{"ANTHROPIC_BASE_URL", "ANTHROPIC_API_URL", "OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_API_HOST",
	"GOOGLE_GEMINI_BASE_URL", "GEMINI_BASE_URL", "MISTRAL_API_URL", "AZURE_OPENAI_ENDPOINT", "OPENAI_PROXY_URL"}

func modelAPIVar(k string) bool {
	k = strings.ToUpper(strings.TrimPrefix(k, "$env:"))
	for _, v := range modelAPIVars {
		if k == v {
			return true
		}
	}
	return false
}

// modelProviders are the domains of the model providers and the known
// gateways; an address under one of them is the provider's own.
var modelProviders = [...]string{"openai.com", "anthropic.com", "googleapis.com", "azure.com", "mistral.ai", "openrouter.ai", "groq.com",
	"together.xyz", "together.ai", "deepseek.com", "fireworks.ai", "amazonaws.com", "x.ai", "cohere.ai", "cohere.com", "perplexity.ai",
	"aliyuncs.com", "huggingface.co", "replicate.com", "cerebras.ai", "portkey.ai", "helicone.ai", "cloudflare.com", "vercel.sh"}

// strangerModelHost returns the host of a model API address that is
// neither a provider's, this machine's, nor an internal one, or "".
func strangerModelHost(v string) string {
	h := strangerProxy(v)
	if h == "" {
		return ""
	}
	for _, d := range modelProviders {
		if h == d || strings.HasSuffix(h, "."+d) {
			return ""
		}
	}
	return h
}
