package testkit

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// WSClient is a client of the daemon's /v1/ws protocol.
type WSClient struct {
	c *websocket.Conn
}

// WSMessage is one message from the daemon.
type WSMessage struct {
	RequestID string          `json:"request_id"`
	Type      string          `json:"type"`
	SessionID string          `json:"session_id"`
	ID        uint64          `json:"id"`
	Event     string          `json:"event"`
	Data      json.RawMessage `json:"data"`
	Error     *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	// Received is when the client read the message.
	Received time.Time `json:"-"`
}

// DialWS connects to a daemon's WebSocket API with an API key.
func DialWS(ctx context.Context, baseURL, key string) (*WSClient, error) {
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(baseURL, "http")+"/v1/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": []string{"Bearer " + key}},
	})
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(16 << 20)
	return &WSClient{c: c}, nil
}

// Close ends the connection.
func (w *WSClient) Close() error { return w.c.CloseNow() }

// Send writes one request.
func (w *WSClient) Send(ctx context.Context, req map[string]any) error {
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	return w.c.Write(ctx, websocket.MessageText, b)
}

// Read reads one message.
func (w *WSClient) Read(ctx context.Context) (WSMessage, error) {
	_, b, err := w.c.Read(ctx)
	if err != nil {
		return WSMessage{}, err
	}
	var m WSMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("server sent %.200q: %w", b, err)
	}
	m.Received = time.Now()
	return m, nil
}

// Execute runs one turn and returns its events, ending at the request's
// done (or error) message.
func (w *WSClient) Execute(ctx context.Context, requestID, session, prompt string) ([]WSMessage, error) {
	if err := w.Send(ctx, map[string]any{"request_id": requestID, "type": "execute", "session_id": session, "prompt": prompt}); err != nil {
		return nil, err
	}
	var events []WSMessage
	for {
		m, err := w.Read(ctx)
		if err != nil {
			return events, err
		}
		if m.RequestID != requestID {
			return events, fmt.Errorf("message for request %q while waiting for %q", m.RequestID, requestID)
		}
		switch m.Type {
		case "event":
			events = append(events, m)
		case "done":
			if m.Error != nil {
				return events, fmt.Errorf("turn failed: %s: %s", m.Error.Code, m.Error.Message)
			}
			return events, nil
		case "error":
			return events, fmt.Errorf("%s: %s", m.Error.Code, m.Error.Message)
		}
	}
}
