package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hotplex/hotplex/client"
)

// HTTPOptions configure Handler.
type HTTPOptions struct {
	Options
	// SessionTimeout ends an MCP session no request came for in this long
	// (0: 30 minutes), so that clients that vanish leave nothing behind.
	SessionTimeout time.Duration
}

// Handler is the MCP server over Streamable HTTP, as the daemon serves it
// at /mcp. Every request needs an API key (Authorization: Bearer), the
// same keys as /v1; the tools call the API with the key of the request
// that called them, and an MCP session stays with the key that opened
// it.
type Handler struct {
	srv   *sdk.Server
	next  http.Handler
	close context.CancelFunc
}

// NewHandler returns the MCP server over HTTP whose tools call api.
func NewHandler(api *client.API, o HTTPOptions) *Handler {
	if o.SessionTimeout <= 0 {
		o.SessionTimeout = 30 * time.Minute
	}
	o.Key = "" // each request brings its own
	closing, close := context.WithCancel(context.Background())
	srv := newServer(api, o.Options, closing)
	sh := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{
		Logger: o.Logger, SessionTimeout: o.SessionTimeout, PropagateRequestCancellation: true,
	})
	verify := func(ctx context.Context, key string, r *http.Request) (*auth.TokenInfo, error) {
		c, ok := ctx.Value(checkedKey{}).(checked)
		if !ok || c.key != key {
			c.err = api.Check(ctx, key)
		}
		err := c.err
		if err != nil {
			var ae *client.APIError
			if errors.As(err, &ae) && ae.Status == http.StatusUnauthorized {
				return nil, fmt.Errorf("%w: %s", auth.ErrInvalidToken, ae.Message)
			}
			return nil, err
		}
		// The user is the key, by a digest of it: the SDK then refuses an
		// MCP session to any other key than the one that opened it.
		sum := sha256.Sum256([]byte(key))
		return &auth.TokenInfo{UserID: hex.EncodeToString(sum[:16]), Extra: map[string]any{tokenKey: key, tokenDone: r.Context()}}, nil
	}
	authed := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(parseErrors(sh))
	return &Handler{srv: srv, next: passRefusals(api, authed), close: close}
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.next.ServeHTTP(w, r) }

// Close ends every MCP session; their running tool calls are cancelled
// first, which interrupts the turns they wait for (closing a session
// waits for its calls). Sessions opened after Close are not closed.
func (h *Handler) Close() {
	h.close()
	for ss := range h.srv.Sessions() {
		_ = ss.Close()
	}
}

// checked is the API's answer to a key, asked once per request.
type checked struct {
	key string
	err error
}

type checkedKey struct{}

// passRefusals checks the request's key with the API and answers a
// refusal other than 401 as the API did (429 with its Retry-After, say):
// the SDK's bearer middleware knows only invalid tokens, and would turn
// the rest into 500s. The answer is kept for the middleware's verifier.
func passRefusals(api *client.API, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, key, ok := strings.Cut(r.Header.Get("Authorization"), " ")
		key = strings.TrimSpace(key)
		if !ok || !strings.EqualFold(scheme, "Bearer") || key == "" {
			next.ServeHTTP(w, r)
			return
		}
		err := api.Check(r.Context(), key)
		var ae *client.APIError
		if errors.As(err, &ae) && ae.Status != http.StatusUnauthorized {
			if ae.RetryAfter != "" {
				w.Header().Set("Retry-After", ae.RetryAfter)
			}
			http.Error(w, ae.Error(), ae.Status)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), checkedKey{}, checked{key, err})))
	})
}

// parseErrors answers a POST whose body is not JSON with JSON-RPC's parse
// error (-32700), in the body of the 400 the transport requires, where
// the SDK would answer in plain text: a client learns what went wrong in
// the protocol's own terms.
func parseErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		b, err := io.ReadAll(io.LimitReader(r.Body, sdk.DefaultMaxRequestBodyBytes+1))
		if err != nil {
			http.Error(w, "reading the request: "+err.Error(), http.StatusBadRequest)
			return
		}
		if len(b) <= sdk.DefaultMaxRequestBodyBytes && len(bytes.TrimSpace(b)) > 0 && !json.Valid(b) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: the request body is not JSON"}}`))
			return
		}
		r.Body = readCloser{io.MultiReader(bytes.NewReader(b), r.Body), r.Body}
		next.ServeHTTP(w, r)
	})
}

type readCloser struct {
	io.Reader
	io.Closer
}
