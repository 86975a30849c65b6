package scriptedmodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

type geminiPart struct {
	Text             string          `json:"text"`
	Thought          bool            `json:"thought"`
	FunctionCall     json.RawMessage `json:"functionCall"`
	FunctionResponse *struct {
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

type geminiContent struct {
	Role  string       `json:"role"`
	Parts []geminiPart `json:"parts"`
}

type geminiRequest struct {
	Contents          []geminiContent `json:"contents"`
	SystemInstruction *geminiContent  `json:"systemInstruction"`
	Tools             []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType string `json:"responseMimeType"`
	} `json:"generationConfig"`
}

// responseText reads a functionResponse's payload: its "output" string when
// there is one (as the Gemini CLI sends), else its "error", else the JSON.
func responseText(raw json.RawMessage) string {
	var r struct {
		Output string `json:"output"`
		Error  string `json:"error"`
	}
	if json.Unmarshal(raw, &r) == nil {
		if r.Output != "" {
			return r.Output
		}
		if r.Error != "" {
			return r.Error
		}
	}
	return string(raw)
}

func parseGemini(model string, body []byte) (geminiRequest, Request, string, error) {
	var gr geminiRequest
	if err := json.Unmarshal(body, &gr); err != nil {
		return gr, Request{}, "", fmt.Errorf("invalid JSON body: %w", err)
	}
	req := Request{Flavor: Gemini, Model: model}
	if gr.SystemInstruction != nil {
		for _, p := range gr.SystemInstruction.Parts {
			req.System += p.Text + "\n"
		}
	}
	for _, t := range gr.Tools {
		for _, d := range t.FunctionDeclarations {
			req.Tools = append(req.Tools, d.Name)
		}
	}
	req.HasTools = len(req.Tools) > 0
	promptAt, lastResult := -1, ""
	for i, c := range gr.Contents {
		var texts []string
		for _, p := range c.Parts {
			switch {
			case p.FunctionResponse != nil:
				t := responseText(p.FunctionResponse.Response)
				lastResult = t
				req.Texts = append(req.Texts, t)
			case p.Text != "" && !p.Thought:
				req.Texts = append(req.Texts, p.Text)
				if typedByUser(p.Text) {
					texts = append(texts, p.Text)
				}
			}
		}
		if c.Role == "user" && len(texts) > 0 {
			promptAt, req.Prompt = i, strings.Join(texts, "\n")
		}
	}
	var roles []bool
	for _, c := range gr.Contents[promptAt+1:] {
		roles = append(roles, c.Role == "model")
	}
	req.Step = stepsAfter(roles)
	return gr, req, lastResult, nil
}

// handleGemini serves models/{model}:generateContent,
// :streamGenerateContent (SSE with alt=sse) and :countTokens.
func (s *Server) handleGemini(w http.ResponseWriter, r *http.Request) {
	model, method, ok := strings.Cut(r.PathValue("call"), ":")
	if !ok {
		writeGeminiError(w, http.StatusNotFound, "not_found", "no method in "+r.URL.Path)
		return
	}
	body, err := readBody(r)
	if err != nil {
		writeGeminiError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	switch method {
	case "countTokens":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"totalTokens":%d}`, len(body)/4+1)
		return
	case "generateContent", "streamGenerateContent":
	default:
		writeGeminiError(w, http.StatusNotFound, "not_found", "unknown method "+method)
		return
	}
	gr, req, lastResult, err := parseGemini(model, body)
	if err != nil {
		writeGeminiError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	req.Stream = method == "streamGenerateContent"
	reply, at, ok := s.answer(w, r, req, writeGeminiError)
	if !ok {
		return
	}
	if !req.HasTools && gr.GenerationConfig.ResponseMimeType == "application/json" {
		// The CLI's JSON side questions (who speaks next, which model to
		// route to, is this a loop) get one object answering all of them.
		reply = Text(`{"reasoning":"The answer is complete.","next_speaker":"user","model_choice":"flash","is_loop":false}`)
	}
	c := s.concrete(req, reply, lastResult, len(body), "gemini-fake", "fc_fake")
	s.noteUsage(at, c.usage())
	usage := map[string]any{
		"promptTokenCount": c.inputTokens, "candidatesTokenCount": c.outputTokens,
		"totalTokenCount":         c.inputTokens + c.outputTokens,
		"cachedContentTokenCount": c.cacheReadTokens,
	}
	if c.thinking != "" {
		usage["thoughtsTokenCount"] = len(c.thinking)/4 + 1
	}
	respID := fmt.Sprintf("fake%08d", c.seq)
	candidate := func(parts []any, finish string) map[string]any {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		if finish != "" {
			cand["finishReason"] = finish
		}
		return cand
	}
	var callParts []any
	for _, tc := range c.calls {
		callParts = append(callParts, map[string]any{"functionCall": map[string]any{"name": tc.name, "args": tc.args, "id": tc.id}})
	}
	if !req.Stream {
		var parts []any
		if c.thinking != "" {
			parts = append(parts, map[string]any{"text": c.thinking, "thought": true})
		}
		for _, t := range c.texts {
			parts = append(parts, map[string]any{"text": t})
		}
		parts = append(parts, callParts...)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"candidates": []any{candidate(parts, "STOP")}, "usageMetadata": usage,
			"modelVersion": c.model, "responseId": respID,
		})
		return
	}
	out := startSSE(w, r, c.chunkDelay)
	out.crlf = true
	chunk := func(parts []any, finish string, withUsage bool) map[string]any {
		m := map[string]any{"candidates": []any{candidate(parts, finish)}, "modelVersion": c.model, "responseId": respID}
		if withUsage {
			m["usageMetadata"] = usage
		}
		return m
	}
	if c.thinking != "" {
		for _, p := range chunks(c.thinking) {
			if !out.send("", chunk([]any{map[string]any{"text": p, "thought": true}}, "", false)) {
				return
			}
		}
	}
	for _, t := range c.texts {
		for _, p := range chunks(t) {
			if !out.send("", chunk([]any{map[string]any{"text": p}}, "", false)) {
				return
			}
		}
	}
	// Function calls arrive whole, in the final chunk, as the real API sends them.
	last := callParts
	if last == nil {
		last = []any{map[string]any{"text": ""}}
	}
	out.send("", chunk(last, "STOP", true))
}

// handleGeminiModels lists one model.
func (s *Server) handleGeminiModels(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"models": []any{map[string]any{
		"name": "models/gemini-fake", "displayName": "Fake Gemini",
		"supportedGenerationMethods": []any{"generateContent", "streamGenerateContent", "countTokens"},
	}}})
}
