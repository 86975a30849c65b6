package main

import "github.com/hotplex/hotplex/gateway"

// upstreamsFor completes the configured upstreams from the daemon's
// environment (getenv): an API the configuration leaves out goes to
// offlineURL, the built-in model, when it is set, and otherwise to the
// ANTHROPIC_*, OPENAI_* or GEMINI_* variables' endpoint and key.
func upstreamsFor(configured map[gateway.API]gateway.Upstream, offlineURL string, getenv func(string) string) map[gateway.API]gateway.Upstream {
	first := func(keys ...string) string {
		for _, k := range keys {
			if v := getenv(k); v != "" {
				return v
			}
		}
		return ""
	}
	fromEnv := map[gateway.API]gateway.Upstream{
		gateway.Anthropic: {BaseURL: getenv("ANTHROPIC_BASE_URL"), APIKey: getenv("ANTHROPIC_API_KEY")},
		gateway.OpenAI:    {BaseURL: first("OPENAI_BASE_URL", "OPENAI_API_BASE"), APIKey: getenv("OPENAI_API_KEY")},
		gateway.Gemini:    {BaseURL: first("GOOGLE_GEMINI_BASE_URL", "GEMINI_BASE_URL"), APIKey: first("GEMINI_API_KEY", "GOOGLE_API_KEY")},
	}
	if offlineURL != "" {
		fromEnv = map[gateway.API]gateway.Upstream{
			gateway.Anthropic: {BaseURL: offlineURL}, gateway.OpenAI: {BaseURL: offlineURL + "/v1"}, gateway.Gemini: {BaseURL: offlineURL},
		}
	}
	out := map[gateway.API]gateway.Upstream{}
	for _, a := range gateway.APIs {
		up, ok := configured[a]
		if !ok {
			up = fromEnv[a]
		}
		out[a] = up
	}
	return out
}
