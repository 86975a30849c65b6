package gateway

import (
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
