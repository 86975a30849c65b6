package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// hopHeaders belong to one connection and are not forwarded (RFC 9110 §7.6.1).
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authenticate", "Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// ServeHTTP forwards one model call: it checks the token and the budgets,
// swaps the token for the upstream key, streams the response back chunk by
// chunk (flushing each), and meters the usage the response reports.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	api, rest, ok := route(r.URL.Path)
	if !ok {
		writeError(w, Anthropic, http.StatusNotFound, "not_found_error", "no model API at "+r.URL.Path+" (the gateway serves /anthropic, /openai/v1 and /gemini)")
		return
	}
	gr := g.tokens.lookup(tokenOf(r))
	if gr == nil {
		writeError(w, api, http.StatusUnauthorized, "authentication_error", "invalid or revoked HotPlex gateway token")
		return
	}
	sessionID, owner, _ := gr.who()
	d := dialectOf(api, rest)
	if d != unmetered {
		sessionUSD, ownerUSD := g.meter.spent(sessionID, owner)
		if e := g.overBudget(sessionID, owner, sessionUSD, ownerUSD); e != nil {
			g.meter.record(call{sessionID: sessionID, owner: owner, rejected: true})
			g.wake()
			g.exceeded(e)
			// 402, not 429: SDKs retry 429 with backoff, which would
			// stall the turn for minutes; a spent budget is not transient.
			writeError(w, api, http.StatusPaymentRequired, "budget_exceeded", e.Error())
			return
		}
	}

	up := g.upstream(api, owner)
	body, strip, err := g.requestBody(r, d)
	if err != nil {
		writeError(w, api, http.StatusBadRequest, "invalid_request_error", "reading the request: "+err.Error())
		return
	}
	target := strings.TrimSuffix(up.BaseURL, "/") + rest
	if q := stripKeyParam(r.URL.Query()); q != "" {
		target += "?" + q
	}
	if body == r.Body {
		// The upstream request reads the agent's body while this handler
		// writes the answer. Without full duplex the server, at the first
		// write, drains and closes whatever of the body the transport has
		// not yet read to its end; the transport's last read then fails,
		// and it closes the upstream connection under the stream being
		// copied (seen under load: a stream cut after its first events,
		// metered short).
		_ = http.NewResponseController(w).EnableFullDuplex()
	}
	out, err := http.NewRequestWithContext(r.Context(), r.Method, target, body)
	if err != nil {
		writeError(w, api, http.StatusBadGateway, "api_error", "bad upstream URL for "+string(api))
		return
	}
	if body == r.Body {
		out.ContentLength = r.ContentLength
	}
	copyHeader(out.Header, r.Header)
	for _, h := range credentialHeaders {
		out.Header.Del(h)
	}
	out.Header.Del("Accept-Encoding")
	out.Header.Del("Content-Length")
	setCredential(api, out.Header, up.APIKey)

	begin := time.Now()
	resp, err := g.client.Do(out)
	if err != nil {
		if r.Context().Err() == nil {
			g.log.Warn("gateway upstream call failed", "api", api, "session", sessionID, "err", redactURLError(err))
			writeError(w, api, http.StatusBadGateway, "api_error", "upstream "+string(api)+" API unreachable")
		}
		return
	}
	defer resp.Body.Close()

	copyHeader(w.Header(), resp.Header)
	metered := d != unmetered && resp.StatusCode/100 == 2
	var ur *usageReader
	if metered {
		ur = &usageReader{d: d, sse: strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream"), strip: strip}
		// Sent chunked, a response ends only when this handler returns,
		// after its usage is counted: the agent's next call (or a test)
		// never sees totals that lack the call it just finished.
		w.Header().Del("Content-Length")
	}
	w.WriteHeader(resp.StatusCode)
	copyErr := g.pass(w, resp.Body, ur)

	if d == unmetered {
		return
	}
	c := call{sessionID: sessionID, owner: owner}
	if metered {
		ur.finish()
		c.model, c.usage, c.metered = ur.model, ur.usage, ur.found
		if pr, ok := g.prices.Lookup(c.model); ok {
			c.cost, c.priced = pr.Cost(c.usage), true
		}
	} else {
		c.metered = true // an error answer costs nothing
	}
	sessionUSD, ownerUSD, unpriced := g.meter.record(c)
	g.wake()
	if unpriced {
		g.log.Warn("model not in the price table; its calls are counted at no cost", "model", c.model)
	}
	if metered && !c.metered {
		g.log.Warn("model call without usage; its tokens are not counted", "api", api, "session", sessionID, "status", resp.StatusCode, "err", copyErr)
	}
	g.log.Debug("model call", "api", api, "path", rest, "session", sessionID, "owner", owner, "status", resp.StatusCode,
		"model", c.model, "input", c.usage.InputTokens, "output", c.usage.OutputTokens, "cache_read", c.usage.CacheReadTokens,
		"cache_write", c.usage.CacheWriteTokens, "cost_usd", c.cost, "ms", time.Since(begin).Milliseconds())
	if c.cost > 0 {
		// The call that crossed the line went through; the turn ends now
		// rather than at the next call.
		if e := g.overBudget(sessionID, owner, sessionUSD, ownerUSD); e != nil && crossed(g, sessionID, owner, sessionUSD, ownerUSD, c.cost) {
			g.exceeded(e)
		}
	}
}

// crossed reports whether the last call's cost is what took the session or
// owner over (so the hook fires once per crossing, not per later call).
func crossed(g *Gateway, sessionID, owner string, sessionUSD, ownerUSD, cost float64) bool {
	return g.overBudget(sessionID, owner, sessionUSD-cost, ownerUSD-cost) == nil
}

// pass copies the response to the agent, flushing after every chunk so
// that a stream's events arrive as the model sends them, and lets ur read
// usage on the way.
func (g *Gateway) pass(w http.ResponseWriter, body io.Reader, ur *usageReader) error {
	fl, _ := w.(http.Flusher)
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	buf := *bp
	for {
		n, err := body.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			if ur != nil {
				if filtered := ur.feed(chunk); ur.strip {
					chunk = filtered
				}
			}
			if len(chunk) > 0 {
				if _, werr := w.Write(chunk); werr != nil {
					return werr
				}
				if fl != nil {
					fl.Flush()
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// requestBody returns the body to send upstream. Chat Completions streams
// report usage only when asked (stream_options.include_usage): the gateway
// asks, and strip says to drop the extra chunk the agent did not ask for.
// Every other body goes through untouched, unread.
func (g *Gateway) requestBody(r *http.Request, d dialect) (io.Reader, bool, error) {
	if d != chat || r.Body == nil {
		return r.Body, false, nil
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBody+1))
	if err != nil {
		return nil, false, err
	}
	if len(b) > maxJSONBody {
		return nil, false, errors.New("body over 64 MiB")
	}
	top, ok := topLevel(b, "stream", "stream_options")
	if !ok || string(top["stream"]) != "true" {
		return bytes.NewReader(b), false, nil
	}
	streamOptions := top["stream_options"]
	if streamOptions == nil {
		// The usual case: add the option at the end of the object rather
		// than decode and re-encode a body of the whole conversation.
		end := bytes.LastIndexByte(b, '}')
		sep := ","
		if bytes.TrimSpace(b[:end])[len(bytes.TrimSpace(b[:end]))-1] == '{' {
			sep = ""
		}
		nb := make([]byte, 0, len(b)+48)
		nb = append(nb, b[:end]...)
		nb = append(nb, sep+`"stream_options":{"include_usage":true}`...)
		nb = append(nb, b[end:]...)
		return bytes.NewReader(nb), true, nil
	}
	opts := map[string]json.RawMessage{}
	if json.Unmarshal(streamOptions, &opts) != nil {
		return bytes.NewReader(b), false, nil
	}
	if v, ok := opts["include_usage"]; ok && string(bytes.TrimSpace(v)) == "true" {
		return bytes.NewReader(b), false, nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return bytes.NewReader(b), false, nil
	}
	opts["include_usage"] = json.RawMessage("true")
	m["stream_options"], _ = json.Marshal(opts)
	nb, err := json.Marshal(m)
	if err != nil {
		return bytes.NewReader(b), false, nil
	}
	return bytes.NewReader(nb), true, nil
}

// stripKeyParam removes a Gemini ?key= (the agent's token) from the query.
func stripKeyParam(q map[string][]string) string {
	if len(q) == 0 {
		return ""
	}
	delete(q, "key")
	return url.Values(q).Encode()
}

func copyHeader(dst, src http.Header) {
	for k, vs := range src {
		dst[k] = append([]string(nil), vs...)
	}
	for _, h := range hopHeaders {
		dst.Del(h)
	}
}

// redactURLError drops the URL from a transport error: a Gemini URL may
// carry a key.
func redactURLError(err error) error {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			return inner
		}
	}
	return err
}
