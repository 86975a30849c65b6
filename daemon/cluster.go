package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/hotplex/hotplex/cluster"
	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/server"
)

// ClusterConfig makes the daemon one node of a cluster: the nodes share
// the store (PostgreSQL), and NATS JetStream decides which node runs each
// session (a lease), carries work to that node, and fans every session's
// events out to every node.
type ClusterConfig struct {
	// NodeID names this node; unique in the cluster.
	NodeID string
	// NATS is the NATS server's URL (JetStream enabled).
	NATS string
	// LeaseTTL is how long a dead node's sessions stay its own (0:
	// cluster.DefaultLeaseTTL); every node must use the same.
	LeaseTTL time.Duration
	// CallTimeout bounds a call to another node that is not a turn's
	// wait (0: 10s).
	CallTimeout time.Duration
}

// node is the daemon's part in a cluster.
type node struct {
	cfg    ClusterConfig
	log    *slog.Logger
	nc     *nats.Conn
	leases *cluster.Leases
	events *cluster.Events

	stopFollow func()
	sub        *nats.Subscription
	handler    func(ctx context.Context, verb string, body []byte) (any, error)

	ctx    context.Context
	cancel context.CancelFunc
	calls  sync.WaitGroup
}

// joinCluster connects to NATS and binds the owners bucket and the event
// stream. Wiring to the engine, the recorder and the server follows (see
// New).
func joinCluster(ctx context.Context, c ClusterConfig, log *slog.Logger) (*node, error) {
	if c.NodeID == "" {
		return nil, errors.New("daemon: a cluster node needs a node ID")
	}
	if strings.ContainsAny(c.NodeID, ".*> \t") {
		return nil, fmt.Errorf("daemon: node ID %q may not contain dots, spaces or wildcards", c.NodeID)
	}
	if c.CallTimeout <= 0 {
		c.CallTimeout = 10 * time.Second
	}
	log = log.With("node", c.NodeID)
	nc, err := cluster.Connect(c.NATS, cluster.ConnOptions{NodeID: c.NodeID, Logger: log})
	if err != nil {
		return nil, err
	}
	n := &node{cfg: c, log: log, nc: nc}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	fail := func(err error) (*node, error) {
		n.close(context.Background())
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return fail(fmt.Errorf("daemon: jetstream: %w", err))
	}
	kv, err := cluster.OwnersBucket(ctx, js, cluster.BucketConfig{LeaseTTL: c.LeaseTTL})
	if err != nil {
		return fail(err)
	}
	if n.leases, err = cluster.NewLeases(ctx, kv, cluster.LeaseOptions{NodeID: c.NodeID, Logger: log}); err != nil {
		return fail(err)
	}
	if n.events, err = cluster.EventsStream(ctx, js, cluster.EventsConfig{}); err != nil {
		return fail(err)
	}
	return n, nil
}

// follow feeds the events of sessions run on other nodes into this
// node's hub, so its clients follow any session as if it ran here.
func (n *node) follow(ctx context.Context, h *hub.Hub) error {
	stop, err := n.events.Follow(ctx, func(e cluster.Event) {
		if e.Origin == n.cfg.NodeID {
			return // published to the hub here already
		}
		var ev event.EventWithMeta
		if err := json.Unmarshal(e.Data, &ev); err != nil {
			n.log.Warn("an event from another node does not decode", "session", e.SessionID, "seq", e.Seq, "err", err)
			return
		}
		h.PublishJSON(&ev, e.Data)
	})
	if err != nil {
		return err
	}
	n.stopFollow = stop
	return nil
}

// forward publishes a batch of events this node stored.
func (n *node) forward(batch []server.Recorded) {
	for _, r := range batch {
		ctx, cancel := context.WithTimeout(n.ctx, 5*time.Second)
		err := n.events.Publish(ctx, r.Event.SessionID, r.Event.Seq, n.cfg.NodeID, r.Data)
		cancel()
		if err != nil {
			// Stored all the same: followers elsewhere get it from the
			// store when they reconnect or replay.
			n.log.Warn("publishing an event to the cluster", "session", r.Event.SessionID, "seq", r.Event.Seq, "err", err)
		}
	}
}

// rpcSubject is where a node answers the others' calls.
func rpcSubject(node, verb string) string { return "hotplex.node." + node + ".rpc." + verb }

// rpcReply is a call's answer on the wire.
type rpcReply struct {
	Body  json.RawMessage `json:"body,omitempty"`
	Error *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code       string `json:"code"`
	Message    string `json:"message"`
	RetryAfter int64  `json:"retry_after_ms,omitempty"`
}

// serve answers the other nodes' calls with h, each on its own goroutine
// (a turn's wait lasts as long as the turn).
func (n *node) serve(h func(ctx context.Context, verb string, body []byte) (any, error)) error {
	n.handler = h
	prefix := rpcSubject(n.cfg.NodeID, "")
	sub, err := n.nc.Subscribe(prefix+">", func(m *nats.Msg) {
		verb := strings.TrimPrefix(m.Subject, prefix)
		n.calls.Add(1)
		go func() {
			defer n.calls.Done()
			var reply rpcReply
			out, err := h(n.ctx, verb, m.Data)
			if err == nil {
				reply.Body, err = json.Marshal(out)
			}
			if err != nil {
				var ce *server.CallError
				if errors.As(err, &ce) {
					reply.Error = &rpcError{Code: ce.Code, Message: ce.Message, RetryAfter: ce.RetryAfter}
				} else {
					reply.Error = &rpcError{Code: "error", Message: err.Error()}
				}
			}
			data, _ := json.Marshal(reply)
			if err := m.Respond(data); err != nil {
				n.log.Debug("answering a call", "verb", verb, "err", err)
			}
		}()
	})
	if err != nil {
		return fmt.Errorf("daemon: serving calls: %w", err)
	}
	n.sub = sub
	return nil
}

// NodeID implements server.Cluster.
func (n *node) NodeID() string { return n.cfg.NodeID }

// Owner implements server.Cluster.
func (n *node) Owner(ctx context.Context, sessionID string) (string, error) {
	o, err := n.leases.Owner(ctx, sessionID)
	if errors.Is(err, cluster.ErrNotOwned) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return o.Node, nil
}

// Call implements server.Cluster.
func (n *node) Call(ctx context.Context, node, verb string, req, resp any) error {
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	if _, ok := ctx.Deadline(); !ok && verb != "turn.wait" {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, n.cfg.CallTimeout)
		defer cancel()
	}
	m, err := n.nc.RequestWithContext(ctx, rpcSubject(node, verb), body)
	if err != nil {
		if errors.Is(err, nats.ErrNoResponders) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) {
			return fmt.Errorf("%w: %s: %w", server.ErrNodeUnreachable, node, err)
		}
		return fmt.Errorf("calling node %s: %w", node, err)
	}
	var reply rpcReply
	if err := json.Unmarshal(m.Data, &reply); err != nil {
		return fmt.Errorf("node %s answered %s with %q: %w", node, verb, m.Data, err)
	}
	if reply.Error != nil {
		return &server.CallError{Code: reply.Error.Code, Message: reply.Error.Message, RetryAfter: reply.Error.RetryAfter}
	}
	if resp == nil || len(reply.Body) == 0 {
		return nil
	}
	return json.Unmarshal(reply.Body, resp)
}

// Claim implements engine.Ownership with the session's lease.
func (n *node) Claim(ctx context.Context, sessionID string) (engine.Claim, error) {
	l, err := n.leases.Acquire(ctx, sessionID)
	if errors.Is(err, cluster.ErrHeld) {
		return nil, fmt.Errorf("%w: %w", engine.ErrNotOwner, err)
	}
	if err != nil {
		return nil, err
	}
	return l, nil
}

// close leaves the cluster: calls are no longer answered, the leases
// still held are released (their processes have ended by now), and the
// connection closes.
func (n *node) close(ctx context.Context) {
	if n.sub != nil {
		_ = n.sub.Unsubscribe()
	}
	n.cancel()
	n.calls.Wait()
	if n.stopFollow != nil {
		n.stopFollow()
	}
	if n.leases != nil {
		if err := n.leases.Close(ctx); err != nil {
			n.log.Warn("releasing leases", "err", err)
		}
	}
	n.nc.Close()
}
