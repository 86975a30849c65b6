package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/hotplex/hotplex/cluster"
	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/provider"
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
	// URL is where other nodes, a load balancer and `hotplex cluster
	// status` reach this node's API (shown in the node list).
	URL string
	// Version is the program's version, shown in the node list.
	Version string
}

// node is the daemon's part in a cluster.
type node struct {
	cfg    ClusterConfig
	log    *slog.Logger
	nc     *nats.Conn
	leases *cluster.Leases
	events *cluster.Events
	nodes  jetstream.KeyValue
	files  *cluster.Files
	member *cluster.Membership
	load   func() cluster.Load // this node's, now

	stopFollow func()
	stopServe  func()

	ctx    context.Context
	cancel context.CancelFunc
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
	if n.nodes, err = cluster.NodesBucket(ctx, js, cluster.NodesConfig{}); err != nil {
		return fail(err)
	}
	if n.files, err = cluster.OpenFiles(ctx, js, cluster.FilesConfig{Logger: log}); err != nil {
		return fail(err)
	}
	return n, nil
}

// conversations keeps agents' conversation files in the cluster's object
// store (engine.Conversations).
type conversations struct{ files *cluster.Files }

func (c conversations) Save(ctx context.Context, sessionID string, token uint64, files []provider.ConversationFile) error {
	out := make([]cluster.File, len(files))
	for i, f := range files {
		out[i] = cluster.File{Path: f.Path, Mode: 0o600, Data: f.Data}
	}
	return c.files.SaveFiles(ctx, sessionID, token, out)
}

func (c conversations) Load(ctx context.Context, sessionID string) ([]provider.ConversationFile, error) {
	files, _, err := c.files.LoadFiles(ctx, sessionID)
	if errors.Is(err, cluster.ErrNotFound) {
		return nil, engine.ErrNoConversation
	}
	if err != nil {
		return nil, err
	}
	out := make([]provider.ConversationFile, len(files))
	for i, f := range files {
		out[i] = provider.ConversationFile{Path: f.Path, Data: f.Data}
	}
	return out, nil
}

func (c conversations) Delete(ctx context.Context, sessionID string) error {
	return c.files.DeleteFiles(ctx, sessionID)
}

// join enters the node list, reporting the engine's load at every renewal.
func (n *node) join(ctx context.Context, eng *engine.Engine) error {
	load := func() cluster.Load {
		ps := eng.PoolStats()
		max := ps.MaxResident
		if max <= 0 {
			// Unbounded: headroom then compares what nodes hold.
			max = unboundedResident
		}
		return cluster.Load{Resident: ps.Resident, MaxResident: max, RunningTurns: ps.Busy, Leases: n.leases.Held()}
	}
	m, err := cluster.JoinNodes(ctx, n.nodes, cluster.NodeInfo{ID: n.cfg.NodeID, URL: n.cfg.URL, Version: n.cfg.Version, Started: time.Now()},
		cluster.NodesOptions{Logger: n.log, Load: load, Interval: time.Second})
	if err != nil {
		return err
	}
	n.member = m
	n.load = func() cluster.Load {
		l := load()
		l.Draining = n.member.Info().Load.Draining
		return l
	}
	return nil
}

// unboundedResident stands for "no limit" in a node's reported load.
const unboundedResident = 1 << 20

// Nodes implements server.Cluster.
func (n *node) Nodes(ctx context.Context) ([]server.NodeStatus, error) {
	list, err := cluster.Nodes(ctx, n.nodes)
	if err != nil {
		return nil, err
	}
	out := make([]server.NodeStatus, 0, len(list))
	for _, ni := range list {
		max := ni.Load.MaxResident
		if max == unboundedResident {
			max = 0
		}
		out = append(out, server.NodeStatus{ID: ni.ID, URL: ni.URL, Version: ni.Version, Started: ni.Started, Updated: ni.Updated,
			Resident: ni.Load.Resident, MaxResident: max, RunningTurns: ni.Load.RunningTurns, Leases: ni.Load.Leases,
			Draining: ni.Load.Draining, Self: ni.ID == n.cfg.NodeID})
	}
	return out, nil
}

// Place implements server.Cluster: the live node with the most headroom,
// this one on a tie, none of exclude.
func (n *node) Place(ctx context.Context, exclude ...string) (string, error) {
	list, err := cluster.Nodes(ctx, n.nodes)
	if err != nil {
		return "", err
	}
	for i := range list {
		if list[i].ID == n.cfg.NodeID && n.load != nil {
			// This node's own load is known now, not a renewal ago.
			list[i].Load = n.load()
		}
	}
	best, ok := cluster.PickNode(list, exclude...)
	if !ok {
		return "", nil
	}
	for _, ni := range list {
		if ni.ID == n.cfg.NodeID && !ni.Load.Draining && !slices.Contains(exclude, ni.ID) && ni.Load.Headroom() >= best.Load.Headroom() {
			return n.cfg.NodeID, nil
		}
	}
	return best.ID, nil
}

// SetDraining implements server.Cluster.
func (n *node) SetDraining(draining bool) {
	if n.member != nil {
		n.member.SetDraining(draining)
	}
}

// follow feeds the events of sessions run on other nodes into this
// node's hub, so its clients follow any session as if it ran here, for
// as long as the node lives: not only as long as the context New was
// given (`hotplex serve` cancels that one on SIGTERM, when a draining
// node still streams turns that run elsewhere).
func (n *node) follow(h *hub.Hub) error {
	stop, err := n.events.Follow(n.ctx, func(e cluster.Event) {
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

// forward publishes a batch of events this node stored, in one round
// trip. A batch that fails is retried once (the server drops what it
// stored already), then left: the events are stored, and followers
// elsewhere complete a turn from the store.
func (n *node) forward(batch []server.Recorded) {
	out := make([]cluster.Event, len(batch))
	for i, r := range batch {
		out[i] = cluster.Event{SessionID: r.Event.SessionID, Seq: r.Event.Seq, Data: r.Data}
	}
	var err error
	for range 2 {
		ctx, cancel := context.WithTimeout(n.ctx, 5*time.Second)
		err = n.events.PublishBatch(ctx, n.cfg.NodeID, out)
		cancel()
		if err == nil {
			return
		}
	}
	n.log.Warn("publishing events to the cluster", "events", len(out), "err", err)
}

// serve answers the other nodes' calls with h. A turn's wait lasts as
// long as the turn, so many calls may be under way at once.
func (n *node) serve(h func(ctx context.Context, verb string, body []byte) (any, error)) error {
	rs := cluster.RPCServer{MaxInFlight: 8192, Logger: n.log}
	stop, err := rs.Serve(n.nc, n.cfg.NodeID, func(ctx context.Context, verb string, body []byte) ([]byte, error) {
		out, err := h(ctx, verb, body)
		if err != nil {
			var ce *server.CallError
			if errors.As(err, &ce) {
				// The retry hint rides in the message's JSON.
				msg, _ := json.Marshal(ce)
				return nil, &cluster.RPCError{Code: ce.Code, Message: string(msg)}
			}
			return nil, err
		}
		return json.Marshal(out)
	})
	if err != nil {
		return fmt.Errorf("daemon: serving calls: %w", err)
	}
	n.stopServe = stop
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
	if _, ok := ctx.Deadline(); !ok && verb != "turn.wait" {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, n.cfg.CallTimeout)
		defer cancel()
	}
	err := cluster.CallRPC(ctx, n.nc, node, verb, req, resp)
	var re *cluster.RPCError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &re):
		var ce server.CallError
		if json.Unmarshal([]byte(re.Message), &ce) == nil && ce.Code != "" {
			return &ce
		}
		if re.Code == cluster.RPCCodeStopped || re.Code == cluster.RPCCodeBusy {
			return fmt.Errorf("%w: %s: %w", server.ErrNodeUnreachable, node, err)
		}
		return &server.CallError{Code: re.Code, Message: re.Message}
	case errors.Is(err, nats.ErrNoResponders), errors.Is(err, context.DeadlineExceeded), errors.Is(err, nats.ErrTimeout):
		return fmt.Errorf("%w: %s: %w", server.ErrNodeUnreachable, node, err)
	}
	return err
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
	if n.stopServe != nil {
		n.stopServe()
	}
	n.cancel()
	if n.stopFollow != nil {
		n.stopFollow()
	}
	if n.member != nil {
		if err := n.member.Leave(ctx); err != nil {
			n.log.Warn("leaving the node list", "err", err)
		}
	}
	if n.leases != nil {
		if err := n.leases.Close(ctx); err != nil {
			n.log.Warn("releasing leases", "err", err)
		}
	}
	n.nc.Close()
}

// nodeID is the cluster node's name, "" on a single node.
func nodeID(c *ClusterConfig) string {
	if c == nil {
		return ""
	}
	return c.NodeID
}
