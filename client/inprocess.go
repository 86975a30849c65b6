package client

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// handlerTransport is an http.RoundTripper that serves each request with
// a handler in this process: the protocol servers inside the daemon (and
// those of `hotplex mcp` and `hotplex acp` with a daemon of their own)
// call the /v1 API through the very handler that serves it on the
// network, authentication, tenancy and rate limits included, without a
// loopback socket.
//
// The response is streamed: RoundTrip returns once the handler wrote its
// headers (or returned), and the body is a pipe the handler writes into,
// so a turn's Server-Sent Events arrive as the turn produces them.
// Closing the body cancels the handler's context, as a client hanging up
// would, and waits for the handler to return, so no goroutine outlives
// the exchange.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	sreq := req.Clone(ctx)
	sreq.RequestURI = req.URL.RequestURI()
	sreq.RemoteAddr = "in-process"
	if sreq.Body == nil {
		sreq.Body = http.NoBody
	}
	pr, pw := io.Pipe()
	w := &pipeResponse{header: http.Header{}, body: bufio.NewWriterSize(pw, 16<<10), ctx: ctx, ready: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		var err error
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("in-process handler panicked: %v", p)
				if !w.started() {
					w.WriteHeader(http.StatusInternalServerError)
				}
			}
			if err == nil {
				err = context.Cause(ctx) // nil unless the caller hung up
			}
			w.start(http.StatusOK)
			// What the handler wrote last goes out before the end, or the
			// cut (the flush fails at once if the caller closed the body).
			if ferr := w.body.Flush(); err == nil {
				err = ferr
			}
			_ = pw.CloseWithError(err) // nil: io.EOF for the reader
		}()
		t.h.ServeHTTP(w, sreq)
	}()
	<-w.ready
	body := &pipeBody{r: pr, cancel: cancel, done: done}
	return &http.Response{
		Status: fmt.Sprintf("%d %s", w.code, http.StatusText(w.code)), StatusCode: w.code,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: w.sent, Body: body, ContentLength: -1, Request: req,
	}, nil
}

// pipeResponse is the handler's side: headers go out with the first
// WriteHeader or Write, the body through the pipe when the handler
// flushes or returns (each write to the pipe waits for the reader: a
// stream of events flushed in bursts crosses it once per burst).
type pipeResponse struct {
	header, sent http.Header
	body         *bufio.Writer
	ctx          context.Context // the handler's: ends when the caller hangs up
	code         int
	once         sync.Once
	ready        chan struct{}
}

func (w *pipeResponse) Header() http.Header { return w.header }

func (w *pipeResponse) start(code int) {
	w.once.Do(func() {
		w.code, w.sent = code, w.header.Clone()
		close(w.ready)
	})
}

func (w *pipeResponse) started() bool {
	select {
	case <-w.ready:
		return true
	default:
		return false
	}
}

func (w *pipeResponse) WriteHeader(code int) {
	if code >= 100 && code < 200 {
		return // informational: the final status follows
	}
	w.start(code)
}

func (w *pipeResponse) Write(p []byte) (int, error) {
	w.start(http.StatusOK)
	if err := w.ctx.Err(); err != nil {
		return 0, err // the caller hung up: nobody will read it
	}
	return w.body.Write(p)
}

// FlushError hands what was written to the reader; it fails once the
// caller closed the body.
func (w *pipeResponse) FlushError() error {
	w.start(http.StatusOK)
	return w.body.Flush()
}

func (w *pipeResponse) Flush() { _ = w.FlushError() }

// pipeBody is the caller's side of the response body.
type pipeBody struct {
	r      *io.PipeReader
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
}

func (b *pipeBody) Read(p []byte) (int, error) { return b.r.Read(p) }

// errHungUp is what a handler's writes fail with once the caller closed
// the body.
var errHungUp = errors.New("in-process client closed the response body")

func (b *pipeBody) Close() error {
	b.once.Do(func() {
		b.cancel()
		_ = b.r.CloseWithError(errHungUp)
		<-b.done
	})
	return nil
}
