package cluster

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// DefaultNodesBucket is the key-value bucket that lists live nodes.
const DefaultNodesBucket = "hotplex_nodes"

// DefaultNodeTTL is how long a node's entry outlives its last renewal.
const DefaultNodeTTL = 10 * time.Second

// ErrNodeExists is what JoinNodes's *NodeExistsError matches: a live
// entry with this node's ID was written by another process.
var ErrNodeExists = errors.New("a live node has this ID")

// ErrLeft answers Membership calls after Leave.
var ErrLeft = errors.New("node left the cluster")

// NodesConfig describes the nodes bucket. The zero value is the default
// bucket with the default TTL on one replica.
type NodesConfig struct {
	// Name of the bucket; empty means DefaultNodesBucket.
	Name string
	// TTL is how long after its last renewal a node's entry disappears;
	// zero means DefaultNodeTTL. Every node must use the same value.
	TTL time.Duration
	// Replicas of the bucket's stream on a clustered NATS; zero means 1.
	Replicas int
}

// NodesBucket creates the nodes bucket, or binds to it when another node
// created it already. As for OwnersBucket, the bucket's TTL is what
// expires an entry, on the NATS server's clock, so a node whose process
// died leaves the list a TTL after its last renewal whatever the other
// nodes' clocks say.
func NodesBucket(ctx context.Context, js jetstream.JetStream, c NodesConfig) (jetstream.KeyValue, error) {
	return ttlBucket(ctx, js, ttlBucketSpec{
		name:        cmp.Or(c.Name, DefaultNodesBucket),
		kind:        "nodes",
		entries:     "node entries",
		description: "HotPlex nodes: which nodes are alive, where, and how loaded",
		ttl:         cmp.Or(c.TTL, DefaultNodeTTL),
		replicas:    cmp.Or(c.Replicas, 1),
		// A listing watches the last value of every key; with one value
		// kept, a renewal landing while it starts removes the value it
		// was about to deliver, and the node would be missing from the
		// list. With two, the older value is still there to deliver
		// unless the node renewed twice meanwhile, a second apart.
		history: 2,
	})
}

// Load is how busy a node is, as it last reported.
type Load struct {
	// Resident is the number of sessions with a process on the node.
	Resident int `json:"resident"`
	// MaxResident is how many it keeps at most.
	MaxResident int `json:"max_resident"`
	// RunningTurns is the number of turns under way.
	RunningTurns int `json:"running_turns"`
	// Leases is the number of session leases the node holds.
	Leases int `json:"leases"`
	// Draining is set while the node takes no new sessions.
	Draining bool `json:"draining,omitempty"`
}

// Headroom is how many more sessions the node can keep resident.
func (l Load) Headroom() int { return l.MaxResident - l.Resident }

// NodeInfo is one node's entry.
type NodeInfo struct {
	ID string `json:"id"`
	// URL is the node's advertised HTTP address, where other nodes and
	// a load balancer reach it.
	URL     string    `json:"url"`
	Started time.Time `json:"started"`
	Version string    `json:"version,omitempty"`
	Load    Load      `json:"load"`
	// Updated is when the server stored the entry (its clock), read by
	// Nodes; the entry disappears a TTL after it.
	Updated time.Time `json:"-"`
	// Instance tells this process's entries from those of another
	// process with the same ID (an earlier run, a misconfigured twin);
	// JoinNodes sets it.
	Instance string `json:"instance"`
}

// NodeExistsError is JoinNodes's answer when another process keeps a live
// entry under this node's ID.
type NodeExistsError struct{ Node NodeInfo }

func (e *NodeExistsError) Error() string {
	return fmt.Sprintf("node %q is already in the cluster (at %s, started %s)", e.Node.ID, e.Node.URL, e.Node.Started.Format(time.RFC3339))
}

// Is makes errors.Is(err, ErrNodeExists) true.
func (e *NodeExistsError) Is(target error) bool { return target == ErrNodeExists }

// NodesOptions configures a node's membership.
type NodesOptions struct {
	// Interval between renewals of the entry; zero means a third of the
	// bucket's TTL, so two renewals can fail before the entry is at risk.
	Interval time.Duration
	// Clock paces renewals; nil means the system clock.
	Clock Clock
	// Logger receives failed renewals; nil discards them.
	Logger *slog.Logger
	// Load reports the node's load for each renewal; nil reports none.
	Load func() Load
}

// Membership is this node's entry in the nodes bucket, renewed in the
// background until Leave.
//
// A process that dies stops renewing and its entry disappears one TTL
// later. A node cut off from NATS for longer than the TTL disappears too
// and comes back at its next renewal after NATS is reachable again; other
// nodes must not take its absence from the list as proof that it stopped
// acting (leases and their fencing tokens decide that), only as a hint
// not to route work to it.
type Membership struct {
	kv       jetstream.KeyValue
	key      string
	interval time.Duration
	clock    Clock
	log      *slog.Logger
	load     func() Load

	stop      context.CancelFunc
	ctx       context.Context
	nudge     chan struct{} // a renewal now, for SetDraining
	done      chan struct{} // closed when the heartbeat returned
	leaveOnce sync.Once
	leaveErr  error

	mu       sync.Mutex
	info     NodeInfo
	draining bool
	rev      uint64 // owned by the heartbeat while it runs, then by Leave
}

// JoinNodes writes this node's entry and renews it every Interval with a
// fresh Load until Leave. When a live entry with the same ID was written
// by another process, JoinNodes waits for it to go (a crashed earlier run
// of this node expires after one TTL) until ctx is done, then fails with
// a *NodeExistsError.
func JoinNodes(ctx context.Context, kv jetstream.KeyValue, info NodeInfo, o NodesOptions) (*Membership, error) {
	if info.ID == "" {
		return nil, errors.New("cluster: a node needs an ID")
	}
	key, err := ownerKey(info.ID)
	if err != nil {
		return nil, err
	}
	st, err := kv.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("cluster: nodes bucket: %w", err)
	}
	ttl := st.TTL()
	if ttl <= 0 {
		return nil, fmt.Errorf("cluster: nodes bucket %s has no TTL, so a dead node would stay listed", st.Bucket())
	}
	interval := cmp.Or(o.Interval, ttl/3)
	if interval <= 0 || interval >= ttl {
		return nil, fmt.Errorf("cluster: renewing every %s does not keep a node listed for %s", interval, ttl)
	}
	if info.Started.IsZero() {
		info.Started = time.Now()
	}
	info.Instance = rand.Text()
	info.Updated = time.Time{}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	hctx, cancel := context.WithCancel(context.Background())
	m := &Membership{
		kv:       kv,
		key:      key,
		interval: interval,
		clock:    cmp.Or[Clock](o.Clock, systemClock{}),
		log:      log.With("node", info.ID),
		load:     o.Load,
		ctx:      hctx,
		stop:     cancel,
		nudge:    make(chan struct{}, 1),
		done:     make(chan struct{}),
		info:     info,
	}
	for {
		rev, err := kv.Create(ctx, key, m.value())
		if err == nil {
			m.rev = rev
			break
		}
		if !isConflict(err) {
			cancel()
			return nil, fmt.Errorf("cluster: join as node %q: %w", info.ID, err)
		}
		e, gerr := kv.Get(ctx, key)
		if errors.Is(gerr, jetstream.ErrKeyNotFound) {
			continue
		}
		var other NodeInfo
		if gerr == nil {
			_ = json.Unmarshal(e.Value(), &other)
		}
		select {
		case <-ctx.Done():
			cancel()
			other.ID = info.ID
			return nil, fmt.Errorf("cluster: join: %w", &NodeExistsError{Node: other})
		case <-time.After(min(interval, 250*time.Millisecond)):
		}
	}
	go m.heartbeat()
	return m, nil
}

// value is the entry as the next renewal writes it, with a fresh load.
func (m *Membership) value() []byte {
	var load Load
	if m.load != nil {
		load = m.load()
	}
	m.mu.Lock()
	load.Draining = load.Draining || m.draining
	m.info.Load = load
	b, _ := json.Marshal(m.info)
	m.mu.Unlock()
	return b
}

// Info is this node's entry as last written.
func (m *Membership) Info() NodeInfo {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.info
}

// SetDraining marks the node as taking no new sessions (PickNode passes it
// over) or as taking them again. The entry is rewritten at once rather
// than at the next renewal, so that other nodes stop routing to a
// draining node as soon as they can.
func (m *Membership) SetDraining(draining bool) {
	m.mu.Lock()
	m.draining = draining
	m.mu.Unlock()
	select {
	case m.nudge <- struct{}{}:
	default:
	}
}

// heartbeat renews the entry every interval, and at once when nudged.
func (m *Membership) heartbeat() {
	defer close(m.done)
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-m.nudge:
		case <-m.clock.After(m.interval):
		}
		m.renew()
	}
}

// renew writes the entry at the revision it last wrote. An entry that
// expired meanwhile (NATS was unreachable for a TTL) is created again;
// one that another process wrote under this ID is left to it.
func (m *Membership) renew() {
	ctx, cancel := context.WithTimeout(m.ctx, m.interval)
	defer cancel()
	value := m.value()
	rev, err := m.kv.Update(ctx, m.key, value, m.rev)
	if err == nil {
		m.setRev(rev)
		return
	}
	if m.ctx.Err() != nil {
		return
	}
	if isConflict(err) {
		e, gerr := m.kv.Get(ctx, m.key)
		switch {
		case errors.Is(gerr, jetstream.ErrKeyNotFound):
			if rev, err = m.kv.Create(ctx, m.key, value); err == nil {
				m.log.Info("node entry written again after it expired")
				m.setRev(rev)
				return
			}
		case gerr == nil && m.ours(e):
			// A renewal applied though its reply was lost.
			m.setRev(e.Revision())
			return
		case gerr == nil:
			m.log.Error("another process renews this node's entry; two nodes share an ID")
			return
		default:
			err = gerr
		}
	}
	m.log.Warn("node entry not renewed", "err", err)
}

func (m *Membership) setRev(rev uint64) {
	m.mu.Lock()
	m.rev = rev
	m.mu.Unlock()
}

func (m *Membership) ours(e jetstream.KeyValueEntry) bool {
	var n NodeInfo
	return json.Unmarshal(e.Value(), &n) == nil && n.Instance == m.info.Instance
}

// Leave stops renewing and deletes the entry if it is still this
// process's, so other nodes stop routing here at once rather than after a
// TTL. Calling it again returns the first answer.
func (m *Membership) Leave(ctx context.Context) error {
	m.leaveOnce.Do(func() {
		m.stop()
		<-m.done
		m.mu.Lock()
		rev := m.rev
		m.mu.Unlock()
		err := m.kv.Delete(ctx, m.key, jetstream.LastRevision(rev))
		if err != nil && isConflict(err) {
			// Expired, or renewed by a lost-reply write: delete only
			// what is ours.
			e, gerr := m.kv.Get(ctx, m.key)
			switch {
			case errors.Is(gerr, jetstream.ErrKeyNotFound):
				err = nil
			case gerr == nil && m.ours(e):
				err = m.kv.Delete(ctx, m.key, jetstream.LastRevision(e.Revision()))
			case gerr == nil:
				err = nil // another process's entry
			default:
				err = gerr
			}
		}
		if err != nil {
			m.leaveErr = fmt.Errorf("cluster: leave: %w", err)
		}
	})
	return m.leaveErr
}

// Nodes lists the live nodes, by ID. An entry that cannot be read is
// skipped rather than failing the list.
func Nodes(ctx context.Context, kv jetstream.KeyValue) ([]NodeInfo, error) {
	w, err := kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("cluster: list nodes: %w", err)
	}
	defer w.Stop()
	var nodes []NodeInfo
	at := map[string]int{}      // index in nodes by ID
	revs := map[string]uint64{} // revision of the value listed
	for {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("cluster: list nodes: %w", ctx.Err())
		case e, ok := <-w.Updates():
			if !ok {
				return nil, errors.New("cluster: list nodes: watch ended")
			}
			if e == nil { // all current entries were delivered
				slices.SortFunc(nodes, func(a, b NodeInfo) int { return cmp.Compare(a.ID, b.ID) })
				return nodes, nil
			}
			var n NodeInfo
			if json.Unmarshal(e.Value(), &n) != nil || n.ID == "" {
				continue
			}
			n.Updated = e.Created()
			// Two values of one key may come (the bucket keeps two):
			// the newer one stands.
			if i, seen := at[n.ID]; seen {
				if e.Revision() > revs[n.ID] {
					nodes[i], revs[n.ID] = n, e.Revision()
				}
				continue
			}
			at[n.ID], revs[n.ID] = len(nodes), e.Revision()
			nodes = append(nodes, n)
		}
	}
}

// PickNode chooses where a new session should go: the node with the most
// headroom (MaxResident - Resident) that is not draining nor excluded,
// ties going to fewer running turns, then to the lower ID, so that nodes
// choosing from the same list agree. It reports false when no node is a
// candidate. A node with no headroom left is still a candidate: its pool
// makes room by evicting an idle session.
func PickNode(nodes []NodeInfo, exclude ...string) (NodeInfo, bool) {
	var best NodeInfo
	found := false
	for _, n := range nodes {
		if n.Load.Draining || slices.Contains(exclude, n.ID) {
			continue
		}
		if !found || better(n, best) {
			best, found = n, true
		}
	}
	return best, found
}

func better(a, b NodeInfo) bool {
	if ha, hb := a.Load.Headroom(), b.Load.Headroom(); ha != hb {
		return ha > hb
	}
	if a.Load.RunningTurns != b.Load.RunningTurns {
		return a.Load.RunningTurns < b.Load.RunningTurns
	}
	return a.ID < b.ID
}
