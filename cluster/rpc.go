package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// Codes of the errors an RPC answers with. A handler may use others.
const (
	// RPCCodeBusy: the node has MaxInFlight requests under way.
	RPCCodeBusy = "busy"
	// RPCCodeInternal: the handler failed with an error that was not
	// an *RPCError, or panicked.
	RPCCodeInternal = "internal"
	// RPCCodeBadRequest is for handlers to answer a body they cannot
	// read.
	RPCCodeBadRequest = "bad_request"
	// RPCCodeUnknownVerb is for handlers to answer a verb they lack.
	RPCCodeUnknownVerb = "unknown_verb"
	// RPCCodeStopped: the node stopped serving while the request ran.
	RPCCodeStopped = "stopped"
)

// ErrRPCBusy matches (errors.Is) the error of a call the node refused for
// having too many under way; the caller may retry later or elsewhere.
var ErrRPCBusy = &RPCError{Code: RPCCodeBusy}

// headerTimeout carries the caller's remaining time, in milliseconds, so
// the handler's context ends when the caller stops waiting. A duration
// rather than a deadline, since the nodes' clocks may disagree.
const headerTimeout = "Hotplex-Timeout-Ms"

// DefaultRPCMaxInFlight is how many requests a node handles at once
// unless told otherwise.
const DefaultRPCMaxInFlight = 64

// RPCError is an error a node answered a call with.
type RPCError struct {
	Code    string
	Message string
}

func (e *RPCError) Error() string {
	if e.Message == "" {
		return "rpc: " + e.Code
	}
	return "rpc: " + e.Code + ": " + e.Message
}

// Is matches an *RPCError with the same code (and the same message, if
// target has one), so errors.Is(err, ErrRPCBusy) works.
func (e *RPCError) Is(target error) bool {
	t, ok := target.(*RPCError)
	return ok && t.Code == e.Code && (t.Message == "" || t.Message == e.Message)
}

// RPCHandler answers one request (or notification) for a verb. body is
// the JSON the caller sent; the answer must be JSON too (nil is none).
// An error that is (or wraps) an *RPCError reaches the caller with its
// code; any other becomes RPCCodeInternal with its text. ctx ends when
// the caller stops waiting or the server stops.
type RPCHandler func(ctx context.Context, verb string, body []byte) ([]byte, error)

// rpcReply is the envelope of every answer.
type rpcReply struct {
	OK    bool            `json:"ok"`
	Body  json.RawMessage `json:"body,omitempty"`
	Error string          `json:"error,omitempty"`
	Code  string          `json:"code,omitempty"`
}

// rpcSubject is the subject of verb on nodeID; verb "" gives the prefix.
func rpcSubject(nodeID, verb string) (string, error) {
	key, err := ownerKey(nodeID)
	if err != nil {
		return "", fmt.Errorf("cluster: node ID: %w", err)
	}
	return "hotplex.node." + key + ".rpc." + verb, nil
}

// checkVerb keeps a verb to subject tokens: letters, digits, "_", "-",
// and dots between non-empty parts (a dotted verb is several tokens).
func checkVerb(verb string) error {
	if verb == "" {
		return errors.New("cluster: empty RPC verb")
	}
	for part := range strings.SplitSeq(verb, ".") {
		if part == "" {
			return fmt.Errorf("cluster: RPC verb %q has an empty part", verb)
		}
		for _, c := range part {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
				return fmt.Errorf("cluster: RPC verb %q holds %q", verb, c)
			}
		}
	}
	return nil
}

// RPCServer serves one node's requests. The zero value is ready to use;
// ServeRPC is Serve on it.
type RPCServer struct {
	// MaxInFlight is how many requests run at once; more are answered
	// at once with RPCCodeBusy rather than queued, so a caller learns
	// that a node is overloaded instead of timing out on it. Zero means
	// DefaultRPCMaxInFlight.
	MaxInFlight int
	// Logger receives panics and dropped notifications; nil discards.
	Logger *slog.Logger
}

// ServeRPC serves nodeID's requests with h with the default limits; see
// RPCServer.Serve.
func ServeRPC(nc *nats.Conn, nodeID string, h RPCHandler) (stop func(), err error) {
	var s RPCServer
	return s.Serve(nc, nodeID, h)
}

// Serve subscribes to nodeID's requests and calls h for each in a
// goroutine of its own. There is no queue group: a node ID names one
// node, and two nodes serving one ID would both act on every request.
//
// stop unsubscribes, cancels the contexts of requests under way and waits
// for their handlers to return (their answers are still sent). It is
// safe to call more than once; handlers must not call it.
func (s *RPCServer) Serve(nc *nats.Conn, nodeID string, h RPCHandler) (stop func(), err error) {
	prefix, err := rpcSubject(nodeID, "")
	if err != nil {
		return nil, err
	}
	limit := s.MaxInFlight
	if limit <= 0 {
		limit = DefaultRPCMaxInFlight
	}
	log := s.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv := &rpcServing{
		h:      h,
		prefix: prefix,
		slots:  make(chan struct{}, limit),
		ctx:    ctx,
		log:    log.With("node", nodeID),
	}
	sub, err := nc.Subscribe(prefix+">", srv.receive)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("cluster: serve RPC of node %q: %w", nodeID, err)
	}
	// The subscription is known to the server once Flush returns, so a
	// call made after Serve returns finds it.
	if err := nc.Flush(); err != nil {
		_ = sub.Unsubscribe()
		cancel()
		return nil, fmt.Errorf("cluster: serve RPC of node %q: %w", nodeID, err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			_ = sub.Unsubscribe()
			// Once the server has the unsubscription, a call made after
			// stop returns is told at once that nobody answers, rather
			// than waiting out its deadline for a reply that never comes.
			_ = nc.FlushTimeout(time.Second)
			srv.mu.Lock()
			srv.stopped = true
			srv.mu.Unlock()
			cancel()
			srv.wg.Wait()
		})
	}, nil
}

// rpcServing is one Serve's state.
type rpcServing struct {
	h      RPCHandler
	prefix string
	slots  chan struct{} // one per request under way
	ctx    context.Context
	log    *slog.Logger

	mu      sync.Mutex
	stopped bool
	wg      sync.WaitGroup // one per request under way
}

// receive runs on the subscription's goroutine: it only admits a request
// and hands it to a goroutine of its own.
func (s *rpcServing) receive(m *nats.Msg) {
	verb := strings.TrimPrefix(m.Subject, s.prefix)
	select {
	case s.slots <- struct{}{}:
	default:
		if m.Reply == "" {
			s.log.Warn("notification dropped: too many requests under way", "verb", verb)
			return
		}
		s.reply(m, nil, &RPCError{Code: RPCCodeBusy, Message: fmt.Sprintf("%d requests under way", cap(s.slots))})
		return
	}
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		<-s.slots
		s.reply(m, nil, &RPCError{Code: RPCCodeStopped})
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		defer func() { <-s.slots }()
		s.handle(m, verb)
	}()
}

func (s *rpcServing) handle(m *nats.Msg, verb string) {
	ctx := s.ctx
	if ms, err := strconv.ParseInt(m.Header.Get(headerTimeout), 10, 64); err == nil && ms > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(ms)*time.Millisecond)
		defer cancel()
	}
	body, err := s.call(ctx, verb, m.Data)
	if m.Reply == "" {
		if err != nil {
			s.log.Debug("notification failed", "verb", verb, "err", err)
		}
		return
	}
	if ctx.Err() != nil && s.ctx.Err() == nil {
		// The caller's time is up: it stopped waiting, and an answer
		// would only race its own deadline error with a less clear one.
		return
	}
	if err == nil && body != nil && !json.Valid(body) {
		err = fmt.Errorf("handler of %q answered with invalid JSON", verb)
	}
	if err != nil && s.ctx.Err() != nil {
		var re *RPCError
		if !errors.As(err, &re) {
			err = &RPCError{Code: RPCCodeStopped, Message: err.Error()}
		}
	}
	s.reply(m, body, err)
}

// call runs the handler, turning a panic into an internal error so that
// one bad request does not take the node down.
func (s *rpcServing) call(ctx context.Context, verb string, body []byte) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("RPC handler panicked", "verb", verb, "panic", p)
			out, err = nil, &RPCError{Code: RPCCodeInternal, Message: fmt.Sprintf("handler of %q panicked", verb)}
		}
	}()
	return s.h(ctx, verb, body)
}

func (s *rpcServing) reply(m *nats.Msg, body []byte, err error) {
	r := rpcReply{OK: err == nil, Body: body}
	if err != nil {
		r.Body = nil
		var re *RPCError
		if errors.As(err, &re) {
			r.Code, r.Error = re.Code, re.Message
		} else {
			r.Code, r.Error = RPCCodeInternal, err.Error()
		}
	}
	b, merr := json.Marshal(r)
	if merr != nil {
		b, _ = json.Marshal(rpcReply{Code: RPCCodeInternal, Error: merr.Error()})
	}
	if err := m.Respond(b); err != nil {
		s.log.Debug("RPC answer not sent", "subject", m.Subject, "err", err)
	}
}

// CallRPC sends req (as JSON) to verb on nodeID and waits for the answer,
// until ctx is done, decoding it into resp (which may be nil). A remote
// error comes back as an *RPCError; a node that does not serve (never
// did, stopped, or its process died) gives an error matching
// nats.ErrNoResponders at once rather than a timeout.
//
// A call that timed out may still have run on the node, or still be
// running: verbs that change state must be safe to repeat.
func CallRPC(ctx context.Context, nc *nats.Conn, nodeID, verb string, req, resp any) error {
	if err := checkVerb(verb); err != nil {
		return err
	}
	subject, err := rpcSubject(nodeID, verb)
	if err != nil {
		return err
	}
	data, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("cluster: call %s on node %q: %w", verb, nodeID, err)
	}
	msg := nats.NewMsg(subject)
	msg.Data = data
	if d, ok := ctx.Deadline(); ok {
		msg.Header.Set(headerTimeout, strconv.FormatInt(max(time.Until(d).Milliseconds(), 1), 10))
	}
	m, err := nc.RequestMsgWithContext(ctx, msg)
	if err != nil {
		return fmt.Errorf("cluster: call %s on node %q: %w", verb, nodeID, err)
	}
	var r rpcReply
	if err := json.Unmarshal(m.Data, &r); err != nil {
		return fmt.Errorf("cluster: call %s on node %q: unreadable answer: %w", verb, nodeID, err)
	}
	if !r.OK {
		return fmt.Errorf("cluster: call %s on node %q: %w", verb, nodeID, &RPCError{Code: r.Code, Message: r.Error})
	}
	if resp != nil && len(r.Body) > 0 {
		if err := json.Unmarshal(r.Body, resp); err != nil {
			return fmt.Errorf("cluster: call %s on node %q: answer: %w", verb, nodeID, err)
		}
	}
	return nil
}

// Notify sends body (as JSON) to verb on nodeID without waiting for an
// answer: the node's handler runs and its answer is dropped. Nothing says
// whether the node got it (it may be down, or busy and drop it); use it
// for hints whose loss is harmless, such as "your cache of X is stale".
func Notify(nc *nats.Conn, nodeID, verb string, body any) error {
	if err := checkVerb(verb); err != nil {
		return err
	}
	subject, err := rpcSubject(nodeID, verb)
	if err != nil {
		return err
	}
	data, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("cluster: notify %s to node %q: %w", verb, nodeID, err)
	}
	if err := nc.Publish(subject, data); err != nil {
		return fmt.Errorf("cluster: notify %s to node %q: %w", verb, nodeID, err)
	}
	return nil
}
