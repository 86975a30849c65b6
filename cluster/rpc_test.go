package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hotplex/hotplex/internal/natstest"
	"github.com/nats-io/nats.go"
	"go.uber.org/goleak"
)

func rpcConn(t testing.TB, url, id string) *nats.Conn {
	t.Helper()
	nc, err := Connect(url, ConnOptions{NodeID: id})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

type greetReq struct {
	Name string `json:"name"`
}

type greetResp struct {
	Greeting string `json:"greeting"`
	Node     string `json:"node"`
}

// greeter answers "greet", fails "fail" with a typed error and anything
// else with a plain one.
func greeter(node string) RPCHandler {
	return func(ctx context.Context, verb string, body []byte) ([]byte, error) {
		switch verb {
		case "greet":
			var r greetReq
			if err := json.Unmarshal(body, &r); err != nil {
				return nil, &RPCError{Code: RPCCodeBadRequest, Message: err.Error()}
			}
			return json.Marshal(greetResp{Greeting: "hello " + r.Name, Node: node})
		case "session.fail":
			return nil, fmt.Errorf("looking it up: %w", &RPCError{Code: "not_found", Message: "no session s1"})
		case "panic":
			panic("boom")
		case "nojson":
			return []byte("not json"), nil
		default:
			return nil, errors.New("disk on fire")
		}
	}
}

// TestRPCRoundTrip: each call reaches the node it names, with its answer
// decoded; remote errors keep their code and message.
func TestRPCRoundTrip(t *testing.T) {
	ns := natstest.Start(t)
	for _, id := range []string{"node-a", "node.b~1"} {
		stop, err := ServeRPC(rpcConn(t, ns.URL(), id), id, greeter(id))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
	}
	caller := rpcConn(t, ns.URL(), "caller")
	ctx := context.Background()
	for _, id := range []string{"node-a", "node.b~1"} {
		var resp greetResp
		if err := CallRPC(ctx, caller, id, "greet", greetReq{Name: "ann"}, &resp); err != nil {
			t.Fatal(err)
		}
		if resp != (greetResp{Greeting: "hello ann", Node: id}) {
			t.Fatalf("answer from %s: %+v", id, resp)
		}
	}

	err := CallRPC(ctx, caller, "node-a", "session.fail", nil, nil)
	var re *RPCError
	if !errors.As(err, &re) || re.Code != "not_found" || re.Message != "no session s1" {
		t.Fatalf("typed error: %v", err)
	}
	if !errors.Is(err, &RPCError{Code: "not_found"}) || errors.Is(err, ErrRPCBusy) {
		t.Fatalf("errors.Is by code: %v", err)
	}
	for verb, code := range map[string]string{"other": RPCCodeInternal, "panic": RPCCodeInternal, "nojson": RPCCodeInternal} {
		err := CallRPC(ctx, caller, "node-a", verb, nil, nil)
		if !errors.As(err, &re) || re.Code != code {
			t.Fatalf("%s: %v, want code %s", verb, err, code)
		}
	}
	// The node survived the panic.
	if err := CallRPC(ctx, caller, "node-a", "greet", greetReq{}, nil); err != nil {
		t.Fatalf("after a panic: %v", err)
	}
	for _, verb := range []string{"", "a b", "a..b", "a.*", ">"} {
		if err := CallRPC(ctx, caller, "node-a", verb, nil, nil); err == nil || errors.As(err, &re) {
			t.Fatalf("verb %q: %v", verb, err)
		}
	}
}

// TestRPCToAbsentNode: a node that never served and one that stopped
// both answer at once with no responders, not after the caller's
// timeout.
func TestRPCToAbsentNode(t *testing.T) {
	ns := natstest.Start(t)
	caller := rpcConn(t, ns.URL(), "caller")
	stop, err := ServeRPC(rpcConn(t, ns.URL(), "node-a"), "node-a", greeter("node-a"))
	if err != nil {
		t.Fatal(err)
	}
	if err := CallRPC(context.Background(), caller, "node-a", "greet", greetReq{}, nil); err != nil {
		t.Fatal(err)
	}
	stop()
	for _, id := range []string{"never", "node-a"} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		err := CallRPC(ctx, caller, id, "greet", greetReq{}, nil)
		cancel()
		if !errors.Is(err, nats.ErrNoResponders) {
			t.Fatalf("call to %s: %v", id, err)
		}
	}
}

// TestRPCBusy: requests past MaxInFlight are refused at once with
// ErrRPCBusy while the others run; once they finish, calls go through.
func TestRPCBusy(t *testing.T) {
	ns := natstest.Start(t)
	release := make(chan struct{})
	var entered atomic.Int32
	srv := RPCServer{MaxInFlight: 2}
	stop, err := srv.Serve(rpcConn(t, ns.URL(), "n"), "n", func(ctx context.Context, verb string, body []byte) ([]byte, error) {
		if verb == "slow" {
			entered.Add(1)
			<-release
		}
		return []byte(`"done"`), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	caller := rpcConn(t, ns.URL(), "caller")
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			var s string
			if err := CallRPC(context.Background(), caller, "n", "slow", nil, &s); err != nil || s != "done" {
				t.Errorf("slow call: %q, %v", s, err)
			}
		})
	}
	eventually(t, "two calls under way", func() bool { return entered.Load() == 2 })
	err = CallRPC(context.Background(), caller, "n", "fast", nil, nil)
	if !errors.Is(err, ErrRPCBusy) {
		t.Fatalf("third call: %v", err)
	}
	close(release)
	wg.Wait()
	if err := CallRPC(context.Background(), caller, "n", "fast", nil, nil); err != nil {
		t.Fatalf("after the slow calls: %v", err)
	}
}

// TestRPCContexts: the handler's context ends with the caller's deadline,
// and stop cancels handlers under way and waits for them.
func TestRPCContexts(t *testing.T) {
	ns := natstest.Start(t)
	sawDeadline := make(chan bool, 1)
	var running, returned atomic.Int32
	stop, err := ServeRPC(rpcConn(t, ns.URL(), "n"), "n", func(ctx context.Context, verb string, body []byte) ([]byte, error) {
		if verb == "deadline" {
			_, ok := ctx.Deadline()
			sawDeadline <- ok
			return nil, nil
		}
		running.Add(1)
		<-ctx.Done()
		returned.Add(1)
		return nil, ctx.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	caller := rpcConn(t, ns.URL(), "caller")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := CallRPC(ctx, caller, "n", "deadline", nil, nil); err != nil {
		t.Fatal(err)
	}
	if !<-sawDeadline {
		t.Fatal("the handler's context has no deadline")
	}

	short, cancelShort := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancelShort()
	if err := CallRPC(short, caller, "n", "wait", nil, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("call past its deadline: %v", err)
	}
	eventually(t, "the handler to see the caller's deadline", func() bool { return returned.Load() == 1 })

	done := make(chan error, 1)
	go func() { done <- CallRPC(context.Background(), caller, "n", "wait", nil, nil) }()
	eventually(t, "the second wait to run", func() bool { return running.Load() == 2 })
	stop()
	if returned.Load() != 2 {
		t.Fatal("stop returned before the handler")
	}
	if err := <-done; !errors.Is(err, &RPCError{Code: RPCCodeStopped}) {
		t.Fatalf("call cut by stop: %v", err)
	}
	stop()
}

// TestNotify: a notification runs the handler with its verb and body.
func TestNotify(t *testing.T) {
	ns := natstest.Start(t)
	got := make(chan string, 1)
	stop, err := ServeRPC(rpcConn(t, ns.URL(), "n"), "n", func(ctx context.Context, verb string, body []byte) ([]byte, error) {
		got <- verb + " " + string(body)
		return []byte(`"ignored"`), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if err := Notify(rpcConn(t, ns.URL(), "caller"), "n", "cache.stale", map[string]string{"session": "s1"}); err != nil {
		t.Fatal(err)
	}
	if g := <-got; g != `cache.stale {"session":"s1"}` {
		t.Fatalf("handler got %q", g)
	}
	if err := Notify(rpcConn(t, ns.URL(), "caller"), "n", "", nil); err == nil {
		t.Fatal("notified an empty verb")
	}
}

// TestRPCStopLeavesNoGoroutine: serving and calling, with requests under
// way at stop, leaves nothing running. The server is a process of its
// own, so that every goroutine here is the client's.
func TestRPCStopLeavesNoGoroutine(t *testing.T) {
	ns := natstest.StartProcess(t)
	nc := rpcConn(t, ns.URL(), "n")
	caller := rpcConn(t, ns.URL(), "caller")
	// The first request of a connection starts its reply subscription,
	// which lives as long as the connection.
	if err := CallRPC(context.Background(), caller, "nobody", "warm", nil, nil); !errors.Is(err, nats.ErrNoResponders) {
		t.Fatal(err)
	}
	before := goleak.IgnoreCurrent()

	var running atomic.Int32
	stop, err := ServeRPC(nc, "n", func(ctx context.Context, verb string, body []byte) ([]byte, error) {
		running.Add(1)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() { _ = CallRPC(context.Background(), caller, "n", "wait", nil, nil) })
	}
	eventually(t, "five requests under way", func() bool { return running.Load() == 5 })
	stop()
	wg.Wait()
	goleak.VerifyNone(t, before)
}

// TestRPCAcrossNATSRestart: a node's service comes back with its
// connection after the server restarts, with no new Serve.
func TestRPCAcrossNATSRestart(t *testing.T) {
	ns := natstest.Start(t)
	nc, err := Connect(ns.URL(), ConnOptions{NodeID: "n", ReconnectWait: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	stop, err := ServeRPC(nc, "n", greeter("n"))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	caller, err := Connect(ns.URL(), ConnOptions{NodeID: "caller", ReconnectWait: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(caller.Close)
	ns.Restart()
	eventually(t, "a call after the restart", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		var resp greetResp
		err := CallRPC(ctx, caller, "n", "greet", greetReq{Name: "bob"}, &resp)
		return err == nil && resp.Greeting == "hello bob"
	})
	if nc.Stats().Reconnects == 0 {
		t.Fatal("the serving node never lost the server")
	}
}
