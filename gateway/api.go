package gateway

import (
	"encoding/json"
	"net/http"
	"strings"
)

// API names a model API family the gateway forwards. One upstream (base URL
// and key) serves each.
type API string

// The APIs agents speak.
const (
	// Anthropic is the Messages API (Claude Code, OpenCode's Anthropic
	// provider, the api-anthropic agent).
	Anthropic API = "anthropic"
	// OpenAI is Chat Completions and Responses (Codex, Qwen Code, the
	// api-openai agent).
	OpenAI API = "openai"
	// Gemini is generateContent and streamGenerateContent (Gemini CLI).
	Gemini API = "gemini"
)

// APIs lists every API the gateway forwards.
var APIs = []API{Anthropic, OpenAI, Gemini}

// mount is the path under the gateway that stands for an API's base URL,
// in the convention of the variable agents read it from: OPENAI_BASE_URL
// ends in /v1, ANTHROPIC_BASE_URL and GOOGLE_GEMINI_BASE_URL do not.
func (a API) mount() string {
	if a == OpenAI {
		return "/openai/v1"
	}
	return "/" + string(a)
}

// defaultBaseURL is the public endpoint of an API, in the same convention.
func (a API) defaultBaseURL() string {
	switch a {
	case Anthropic:
		return "https://api.anthropic.com"
	case OpenAI:
		return "https://api.openai.com/v1"
	case Gemini:
		return "https://generativelanguage.googleapis.com"
	}
	return ""
}

// dialect is the wire format of one endpoint, which decides how usage is
// read from its responses.
type dialect int

const (
	unmetered dialect = iota
	messages          // Anthropic Messages
	chat              // OpenAI Chat Completions
	responses         // OpenAI Responses
	generate          // Gemini generateContent / streamGenerateContent
)

// route splits a request path into its API and the path to append to the
// upstream's base URL.
func route(path string) (API, string, bool) {
	for _, a := range APIs {
		m := a.mount()
		if rest, ok := strings.CutPrefix(path, m); ok && (rest == "" || rest[0] == '/') {
			return a, rest, true
		}
	}
	return "", "", false
}

// dialectOf says which endpoint rest (the path after the API's mount) is.
// Endpoints that cost nothing (count_tokens, model lists) are not metered.
func dialectOf(a API, rest string) dialect {
	switch a {
	case Anthropic:
		if rest == "/v1/messages" {
			return messages
		}
	case OpenAI:
		switch rest {
		case "/chat/completions":
			return chat
		case "/responses":
			return responses
		}
	case Gemini:
		if strings.HasSuffix(rest, ":generateContent") || strings.HasSuffix(rest, ":streamGenerateContent") {
			return generate
		}
	}
	return unmetered
}

// credentialHeaders are every place an agent may put its key. All of them
// are removed before the request goes upstream, whatever the API.
var credentialHeaders = []string{"Authorization", "X-Api-Key", "X-Goog-Api-Key", "Api-Key"}

// tokenOf finds the token an agent presented: SDKs send the configured key
// as x-api-key (Anthropic), a bearer token (OpenAI, ANTHROPIC_AUTH_TOKEN),
// x-goog-api-key or a ?key= parameter (Gemini).
func tokenOf(r *http.Request) string {
	if v := r.Header.Get("X-Api-Key"); v != "" {
		return v
	}
	if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return strings.TrimSpace(v)
	}
	if v := r.Header.Get("X-Goog-Api-Key"); v != "" {
		return v
	}
	if v := r.Header.Get("Api-Key"); v != "" {
		return v
	}
	return r.URL.Query().Get("key")
}

// setCredential puts the upstream key where the API expects it.
func setCredential(a API, h http.Header, key string) {
	if key == "" {
		return
	}
	switch a {
	case Anthropic:
		h.Set("X-Api-Key", key)
	case OpenAI:
		h.Set("Authorization", "Bearer "+key)
	case Gemini:
		h.Set("X-Goog-Api-Key", key)
	}
}

// writeError answers in the API's own error shape, so that the agent's SDK
// parses it and the CLI shows the message.
func writeError(w http.ResponseWriter, a API, status int, code, msg string) {
	var body any
	switch a {
	case OpenAI:
		body = map[string]any{"error": map[string]any{"message": msg, "type": code, "param": nil, "code": code}}
	case Gemini:
		body = map[string]any{"error": map[string]any{"code": status, "message": msg, "status": googleStatus(status)}}
	default:
		body = map[string]any{"type": "error", "error": map[string]any{"type": code, "message": msg}}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

func googleStatus(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case http.StatusPaymentRequired, http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusBadRequest:
		return "INVALID_ARGUMENT"
	}
	return "UNAVAILABLE"
}
