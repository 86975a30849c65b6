package gateway

import (
	"bytes"
	"encoding/json"
)

// Bounds on what the usage reader keeps while a response passes through:
// one SSE line (a Responses API response.completed event repeats the whole
// output), and a whole non-streamed body. Beyond them the call is counted
// as unmetered rather than held in memory.
const (
	maxEventLine = 16 << 20
	maxJSONBody  = 64 << 20
)

// usageReader reads a response's usage as the response passes through to
// the agent, without holding the stream back: each chunk is looked at and
// forwarded. Only lines that can carry usage are decoded.
type usageReader struct {
	d   dialect
	sse bool
	// strip drops the usage-only chunk of a Chat Completions stream, which
	// the gateway asked for on the agent's behalf (stream_options.include_usage)
	// and the agent did not expect.
	strip bool

	line      []byte // the current SSE line, when it spans chunks
	overlong  bool
	event     string
	skipBlank bool
	out       []byte // strip mode: what to forward of the current chunk
	body      []byte // non-streamed body
	tooBig    bool

	usage Usage
	model string
	found bool
}

// feed looks at one chunk of the response and returns what to forward.
func (u *usageReader) feed(p []byte) []byte {
	if !u.sse {
		if !u.tooBig {
			if len(u.body)+len(p) > maxJSONBody {
				u.tooBig, u.body = true, nil
			} else {
				u.body = append(u.body, p...)
			}
		}
		return p
	}
	u.out = u.out[:0]
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			u.keep(p)
			break
		}
		line := p[:i]
		if len(u.line) > 0 || u.overlong {
			u.keep(line)
			line = u.line
		}
		if !u.overlong {
			u.handle(line)
		} else if u.strip {
			u.out = append(u.out, '\n')
		}
		u.line, u.overlong = u.line[:0], false
		p = p[i+1:]
	}
	if u.strip {
		return u.out
	}
	return nil // the caller forwards the chunk as it came
}

// keep holds the start of a line that continues in the next chunk.
func (u *usageReader) keep(p []byte) {
	if u.overlong {
		if u.strip {
			u.out = append(u.out, p...)
		}
		return
	}
	if len(u.line)+len(p) > maxEventLine {
		// Too long to decode: forward what was held and let it go by.
		if u.strip {
			u.out = append(u.out, u.line...)
			u.out = append(u.out, p...)
		}
		u.line, u.overlong = u.line[:0], true
		return
	}
	u.line = append(u.line, p...)
}

// handle takes one complete SSE line (without its "\n").
func (u *usageReader) handle(raw []byte) {
	line := bytes.TrimSuffix(raw, []byte{'\r'})
	forward := true
	switch {
	case len(line) == 0:
		u.event = ""
		if u.skipBlank {
			u.skipBlank, forward = false, false
		}
	case bytes.HasPrefix(line, []byte("event:")):
		u.event = string(bytes.TrimSpace(line[len("event:"):]))
	case bytes.HasPrefix(line, []byte("data:")):
		if u.data(bytes.TrimSpace(line[len("data:"):])) {
			forward, u.skipBlank = false, true
		}
	}
	if u.strip && forward {
		u.out = append(u.out, raw...)
		u.out = append(u.out, '\n')
	}
}

// data reads one event's data; it reports whether the event is to be dropped.
func (u *usageReader) data(d []byte) (drop bool) {
	switch u.d {
	case messages:
		if !bytes.Contains(d, []byte(`"usage"`)) {
			return false
		}
		var f struct {
			Message *struct {
				Model string          `json:"model"`
				Usage *anthropicUsage `json:"usage"`
			} `json:"message"`
			Usage *anthropicUsage `json:"usage"`
		}
		if json.Unmarshal(d, &f) != nil {
			return false
		}
		if f.Message != nil {
			u.setModel(f.Message.Model)
			u.anthropic(f.Message.Usage)
		}
		u.anthropic(f.Usage)
	case chat:
		if !bytes.Contains(d, []byte(`"usage"`)) {
			return false
		}
		var f struct {
			Model   string            `json:"model"`
			Usage   *chatUsage        `json:"usage"`
			Choices []json.RawMessage `json:"choices"`
		}
		if json.Unmarshal(d, &f) != nil || f.Usage == nil {
			return false
		}
		u.setModel(f.Model)
		u.chat(f.Usage)
		return u.strip && len(f.Choices) == 0
	case responses:
		if !bytes.Contains(d, []byte(`"usage"`)) {
			return false
		}
		var f struct {
			Type     string        `json:"type"`
			Response responsesBody `json:"response"`
		}
		if json.Unmarshal(d, &f) != nil {
			return false
		}
		switch f.Type {
		case "response.completed", "response.incomplete", "response.failed":
			u.responses(f.Response)
		}
	case generate:
		u.gemini(d)
	}
	return false
}

// finish reads a non-streamed body once it is complete.
func (u *usageReader) finish() {
	if u.sse || u.tooBig || len(u.body) == 0 {
		return
	}
	b := u.body
	switch u.d {
	case messages:
		var f struct {
			Model string          `json:"model"`
			Usage *anthropicUsage `json:"usage"`
		}
		if json.Unmarshal(b, &f) == nil {
			u.setModel(f.Model)
			u.anthropic(f.Usage)
		}
	case chat:
		var f struct {
			Model string     `json:"model"`
			Usage *chatUsage `json:"usage"`
		}
		if json.Unmarshal(b, &f) == nil && f.Usage != nil {
			u.setModel(f.Model)
			u.chat(f.Usage)
		}
	case responses:
		var f responsesBody
		if json.Unmarshal(b, &f) == nil {
			u.responses(f)
		}
	case generate:
		// streamGenerateContent without alt=sse answers a JSON array of
		// the chunks the SSE form would send.
		if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
			var chunks []json.RawMessage
			if json.Unmarshal(t, &chunks) == nil {
				for _, c := range chunks {
					u.gemini(c)
				}
			}
			return
		}
		u.gemini(b)
	}
	u.body = nil
}

func (u *usageReader) setModel(m string) {
	if m != "" {
		u.model = m
	}
}

// anthropicUsage holds pointers: message_delta repeats only the counts
// that changed (output_tokens, cumulative), and a missing count must not
// erase the one message_start gave.
type anthropicUsage struct {
	Input      *int64 `json:"input_tokens"`
	Output     *int64 `json:"output_tokens"`
	CacheWrite *int64 `json:"cache_creation_input_tokens"`
	CacheRead  *int64 `json:"cache_read_input_tokens"`
}

func (u *usageReader) anthropic(a *anthropicUsage) {
	if a == nil {
		return
	}
	u.found = true
	for _, f := range []struct {
		src *int64
		dst *int64
	}{{a.Input, &u.usage.InputTokens}, {a.Output, &u.usage.OutputTokens}, {a.CacheWrite, &u.usage.CacheWriteTokens}, {a.CacheRead, &u.usage.CacheReadTokens}} {
		if f.src != nil {
			*f.dst = *f.src
		}
	}
}

type chatUsage struct {
	Prompt     int64 `json:"prompt_tokens"`
	Completion int64 `json:"completion_tokens"`
	Details    *struct {
		Cached int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

func (u *usageReader) chat(c *chatUsage) {
	var cached int64
	if c.Details != nil {
		cached = c.Details.Cached
	}
	u.found = true
	u.usage = Usage{InputTokens: max(c.Prompt-cached, 0), OutputTokens: c.Completion, CacheReadTokens: cached}
}

type responsesBody struct {
	Model string `json:"model"`
	Usage *struct {
		Input   int64 `json:"input_tokens"`
		Output  int64 `json:"output_tokens"`
		Details *struct {
			Cached int64 `json:"cached_tokens"`
		} `json:"input_tokens_details"`
	} `json:"usage"`
}

func (u *usageReader) responses(r responsesBody) {
	u.setModel(r.Model)
	if r.Usage == nil {
		return
	}
	var cached int64
	if r.Usage.Details != nil {
		cached = r.Usage.Details.Cached
	}
	u.found = true
	u.usage = Usage{InputTokens: max(r.Usage.Input-cached, 0), OutputTokens: r.Usage.Output, CacheReadTokens: cached}
}

// gemini reads one generateContent response or stream chunk; each chunk's
// usageMetadata is the total so far, so the last one wins.
func (u *usageReader) gemini(d []byte) {
	if !bytes.Contains(d, []byte(`"usageMetadata"`)) {
		return
	}
	var f struct {
		ModelVersion string `json:"modelVersion"`
		Usage        *struct {
			Prompt     int64 `json:"promptTokenCount"`
			Candidates int64 `json:"candidatesTokenCount"`
			Cached     int64 `json:"cachedContentTokenCount"`
			Thoughts   int64 `json:"thoughtsTokenCount"`
		} `json:"usageMetadata"`
	}
	if json.Unmarshal(d, &f) != nil || f.Usage == nil {
		return
	}
	u.setModel(f.ModelVersion)
	u.found = true
	// Thinking is billed as output.
	u.usage = Usage{InputTokens: max(f.Usage.Prompt-f.Usage.Cached, 0), OutputTokens: f.Usage.Candidates + f.Usage.Thoughts, CacheReadTokens: f.Usage.Cached}
}
