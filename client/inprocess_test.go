package client

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The in-process transport streams: the caller reads what the handler
// flushed while the handler still runs, and closing the body ends the
// handler's request as a client hanging up would, before Close returns.
func TestHandlerTransportStreamsAndHangsUp(t *testing.T) {
	ended := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, "first\n")
		http.NewResponseController(w).Flush()
		<-r.Context().Done()
		_, err := io.WriteString(w, "after the hang-up\n")
		ended <- err
	})
	c := &http.Client{Transport: handlerTransport{h}}
	resp, err := c.Get("http://in-process/stream")
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusAccepted || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || line != "first\n" {
		t.Fatalf("%q %v", line, err)
	}
	_ = resp.Body.Close()
	select {
	case err := <-ended:
		if err == nil {
			t.Error("a write after the hang-up succeeded")
		}
	default:
		t.Fatal("Close returned before the handler did")
	}
}

// A request whose context ends mid-stream ends the handler's, and the
// reader learns the stream was cut rather than seeing a clean end.
func TestHandlerTransportCallerContext(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "x")
		<-r.Context().Done()
	})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://in-process/", nil)
	resp, err := handlerTransport{h}.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	cancel()
	b, err := io.ReadAll(resp.Body)
	if string(b) != "x" || !errors.Is(err, context.Canceled) {
		t.Fatalf("%q %v", b, err)
	}
}

// A handler that panics answers 500 with the panic as the body's error,
// and the process goes on.
func TestHandlerTransportPanic(t *testing.T) {
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })
	resp, err := handlerTransport{h}.RoundTrip(httptestRequest())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, err = io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusInternalServerError || err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("%d %v", resp.StatusCode, err)
	}
}

func httptestRequest() *http.Request {
	req, _ := http.NewRequest("POST", "http://in-process/", strings.NewReader("{}"))
	return req
}
