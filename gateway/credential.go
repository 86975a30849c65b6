package gateway

import (
	"slices"
	"strings"
)

// AgentEnv returns the environment of one agent process of sessionID,
// owned by owner: base with every operator secret removed (see Scrub), and
// in their place the gateway's base URLs and a new token for this process
// alone. bind moves the token to another session (a prewarmed process
// issued with an empty session, claimed later); revoke ends it, and the
// engine calls it when the process ends. It makes *Gateway an
// engine.Credentials.
func (g *Gateway) AgentEnv(sessionID, owner string, base []string) (env []string, bind func(sessionID, owner string), revoke func(), err error) {
	tok, gr := g.tokens.issue(sessionID, owner)
	env = append(Scrub(base), ModelEnv(g.URL(), tok)...)
	bind = func(sessionID, owner string) {
		gr.mu.Lock()
		gr.sessionID, gr.owner = sessionID, owner
		gr.mu.Unlock()
	}
	return env, bind, func() { g.tokens.revoke(gr) }, nil
}

// ModelEnv points every known agent at the gateway at baseURL with token,
// in each agent's own variables.
func ModelEnv(baseURL, token string) []string {
	return []string{
		"ANTHROPIC_BASE_URL=" + baseURL + Anthropic.mount(), "ANTHROPIC_API_KEY=" + token,
		"OPENAI_BASE_URL=" + baseURL + OpenAI.mount(), "OPENAI_API_KEY=" + token,
		"GOOGLE_GEMINI_BASE_URL=" + baseURL + Gemini.mount(), "GEMINI_API_KEY=" + token,
	}
}

// scrubbed are variables that hold a model credential or send an agent
// around the gateway (to a cloud provider's endpoint, say).
var scrubbed = []string{
	"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "CLAUDE_CODE_OAUTH_TOKEN",
	"CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "ANTHROPIC_BEDROCK_BASE_URL", "ANTHROPIC_VERTEX_BASE_URL",
	"OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID",
	"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL", "GEMINI_BASE_URL",
	"GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_APPLICATION_CREDENTIALS",
}

// secretSuffixes mark a variable as a secret by its name's convention.
var secretSuffixes = []string{
	"_API_KEY", "_APIKEY", "_AUTH_TOKEN", "_OAUTH_TOKEN", "_ACCESS_TOKEN", "_SESSION_TOKEN", "_BEARER_TOKEN",
	"_SECRET", "_SECRET_KEY", "_SECRET_ACCESS_KEY", "_PASSWORD", "_ADMIN_TOKEN", "_ADMIN_KEY",
}

// Secret reports whether the variable name holds an operator secret that
// must not reach an agent: a model credential, a variable routing around
// the gateway, anything of HotPlex's own (HOTPLEX_*: admin tokens, keys,
// paths to key files), or any name that by convention holds a secret.
func Secret(name string) bool {
	up := strings.ToUpper(name)
	if slices.Contains(scrubbed, up) || strings.HasPrefix(up, "HOTPLEX_") {
		return true
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(up, s) {
			return true
		}
	}
	return false
}

// Scrub returns env without the variables Secret names.
func Scrub(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !Secret(name) {
			out = append(out, kv)
		}
	}
	return out
}
