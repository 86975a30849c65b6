package gateway

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestUsageReaderAnySplit: usage is read the same whichever way the
// network cuts the stream, CRLF lines included, and a stripped stream
// loses exactly the usage-only chunk.
func TestUsageReaderAnySplit(t *testing.T) {
	cases := []struct {
		name  string
		d     dialect
		strip bool
		in    string
		want  Usage
		model string
		out   string // strip mode: what is forwarded
	}{
		{name: "messages", d: messages, in: "event: message_start\r\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"claude-x\",\"usage\":{\"input_tokens\":5,\"cache_creation_input_tokens\":2,\"cache_read_input_tokens\":3,\"output_tokens\":1}}}\r\n\r\n" +
			"event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"the word usage in text\"}}\r\n\r\n" +
			"event: message_delta\r\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":9}}\r\n\r\n",
			want: Usage{InputTokens: 5, OutputTokens: 9, CacheReadTokens: 3, CacheWriteTokens: 2}, model: "claude-x"},
		{name: "chat stripped", d: chat, strip: true, in: "data: {\"model\":\"gpt-x\",\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n" +
			"data: {\"model\":\"gpt-x\",\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":4,\"prompt_tokens_details\":{\"cached_tokens\":6}}}\n\n" +
			"data: [DONE]\n\n",
			want: Usage{InputTokens: 4, OutputTokens: 4, CacheReadTokens: 6}, model: "gpt-x",
			out: "data: {\"model\":\"gpt-x\",\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n"},
		{name: "responses", d: responses, in: "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"usage\":null}}\n\n" +
			"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"model\":\"gpt-r\",\"usage\":{\"input_tokens\":20,\"output_tokens\":3,\"input_tokens_details\":{\"cached_tokens\":5}}}}\n\n",
			want: Usage{InputTokens: 15, OutputTokens: 3, CacheReadTokens: 5}, model: "gpt-r"},
		{name: "gemini", d: generate, in: "data: {\"candidates\":[],\"usageMetadata\":{\"promptTokenCount\":7,\"candidatesTokenCount\":1}}\r\n\r\n" +
			"data: {\"candidates\":[],\"modelVersion\":\"gem-x\",\"usageMetadata\":{\"promptTokenCount\":7,\"candidatesTokenCount\":5,\"thoughtsTokenCount\":2,\"cachedContentTokenCount\":3}}\r\n\r\n",
			want: Usage{InputTokens: 4, OutputTokens: 7, CacheReadTokens: 3}, model: "gem-x"},
	}
	for _, c := range cases {
		for _, size := range []int{1, 2, 7, 64, len(c.in)} {
			u := &usageReader{d: c.d, sse: true, strip: c.strip}
			var out strings.Builder
			for i := 0; i < len(c.in); i += size {
				chunk := []byte(c.in[i:min(i+size, len(c.in))])
				if f := u.feed(chunk); c.strip {
					out.Write(f)
				}
			}
			u.finish()
			if u.usage != c.want || u.model != c.model || !u.found {
				t.Errorf("%s in chunks of %d: %+v %q, want %+v %q", c.name, size, u.usage, u.model, c.want, c.model)
			}
			if c.strip && out.String() != c.out {
				t.Errorf("%s in chunks of %d forwarded %q, want %q", c.name, size, out.String(), c.out)
			}
		}
	}
}

// TestChatBodyAsksForUsage: a streamed Chat Completions body gets
// stream_options.include_usage (merged into options already there), and
// is otherwise left as the agent wrote it; other bodies go through as
// they came.
func TestChatBodyAsksForUsage(t *testing.T) {
	cases := []struct {
		in, want string
		strip    bool
	}{
		{`{"model":"m","stream":true,"messages":[{"role":"user","content":"a } \" {"}]}`, `{"model":"m","stream":true,"messages":[{"role":"user","content":"a } \" {"}],"stream_options":{"include_usage":true}}`, true},
		{"{\"stream\": true }\n", "{\"stream\": true ,\"stream_options\":{\"include_usage\":true}}\n", true},
		{`{"stream":true,"stream_options":{"include_obfuscation":false}}`, `{"stream":true,"stream_options":{"include_obfuscation":false,"include_usage":true}}`, true},
		{`{"stream":true,"stream_options":{"include_usage":true}}`, `{"stream":true,"stream_options":{"include_usage":true}}`, false},
		{`{"stream":false,"messages":[]}`, `{"stream":false,"messages":[]}`, false},
		{`{"messages":[{"stream":true}]}`, `{"messages":[{"stream":true}]}`, false},
		{`{"stream":true} trailing`, `{"stream":true} trailing`, false},
		{`not json`, `not json`, false},
	}
	g := New(Options{})
	for _, c := range cases {
		r := httptest.NewRequest("POST", "/openai/v1/chat/completions", strings.NewReader(c.in))
		body, strip, err := g.requestBody(r, chat)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(body)
		if string(got) != c.want || strip != c.strip {
			t.Errorf("%s\n got %s (strip %v)\nwant %s (strip %v)", c.in, got, strip, c.want, c.strip)
		}
		if c.strip && !json.Valid(got) {
			t.Errorf("%s: rewritten body is not JSON: %s", c.in, got)
		}
	}
}
