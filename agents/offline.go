package agents

// ModelEnv returns the environment variables that point every known agent
// at one model server speaking all the dialects (such as the built-in
// offline model at baseURL), with placeholder keys. Agents that need more
// than variables (a config file, say) set that up in their provider.
func ModelEnv(baseURL string) []string {
	return []string{
		// Claude Code and api-anthropic.
		"ANTHROPIC_BASE_URL=" + baseURL, "ANTHROPIC_API_KEY=sk-hotplex-offline",
		// api-openai and OpenAI-compatible CLIs.
		"OPENAI_BASE_URL=" + baseURL + "/v1", "OPENAI_API_KEY=sk-hotplex-offline",
		// Further agents' variables, one line each:
		"GEMINI_API_KEY=sk-hotplex-offline", "GOOGLE_GEMINI_BASE_URL=" + baseURL, // Gemini CLI
	}
}
