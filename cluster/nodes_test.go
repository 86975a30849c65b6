package cluster

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hotplex/hotplex/internal/natstest"
	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/goleak"
)

// nodesBucket connects as one node and binds the nodes bucket.
func nodesBucket(t testing.TB, ns *natstest.Server, id string, ttl time.Duration) jetstream.KeyValue {
	t.Helper()
	nc, err := Connect(ns.URL(), ConnOptions{NodeID: id, ReconnectWait: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := NodesBucket(context.Background(), js, NodesConfig{TTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	return kv
}

func join(t testing.TB, kv jetstream.KeyValue, info NodeInfo, o NodesOptions) *Membership {
	t.Helper()
	m, err := JoinNodes(context.Background(), kv, info, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Leave(context.Background()) })
	return m
}

func listNodes(t testing.TB, kv jetstream.KeyValue) map[string]NodeInfo {
	t.Helper()
	nodes, err := Nodes(context.Background(), kv)
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[string]NodeInfo)
	for i, n := range nodes {
		if i > 0 && nodes[i-1].ID >= n.ID {
			t.Fatalf("nodes not sorted by ID: %v", nodes)
		}
		m[n.ID] = n
	}
	return m
}

// TestNodesReportLoadAndDraining: joined nodes are listed with what they
// advertise; each renewal carries a fresh load, SetDraining shows at once,
// PickNode follows, and Leave removes a node at once.
func TestNodesReportLoadAndDraining(t *testing.T) {
	ns := natstest.Start(t)
	const ttl = 2 * time.Second
	kvA := nodesBucket(t, ns, "node-a", ttl)
	kvB := nodesBucket(t, ns, "node-b", ttl)
	var residentA atomic.Int64
	clockA := newFakeClock()
	started := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a := join(t, kvA, NodeInfo{ID: "node-a", URL: "http://10.0.0.1:8080", Version: "v1", Started: started}, NodesOptions{
		Clock: clockA,
		Load: func() Load {
			return Load{Resident: int(residentA.Load()), MaxResident: 10, RunningTurns: 1, Leases: int(residentA.Load())}
		},
	})
	b := join(t, kvB, NodeInfo{ID: "node-b", URL: "http://10.0.0.2:8080"}, NodesOptions{
		Load: func() Load { return Load{Resident: 5, MaxResident: 10} },
	})

	nodes := listNodes(t, kvB)
	na := nodes["node-a"]
	if len(nodes) != 2 || na.URL != "http://10.0.0.1:8080" || na.Version != "v1" || !na.Started.Equal(started) ||
		na.Load.MaxResident != 10 || na.Updated.IsZero() {
		t.Fatalf("nodes = %+v", nodes)
	}
	if got, _ := PickNode(mapValues(nodes)); got.ID != "node-a" {
		t.Fatalf("picked %s, want node-a with 10 free", got.ID)
	}

	residentA.Store(8)
	// the heartbeat must be waiting on the clock before it is advanced,
	// or the advance passes before its wait begins
	eventually(t, "node-a's heartbeat to sleep", func() bool { return clockA.afterCalls() > 0 })
	clockA.Advance(time.Second) // one renewal of node-a
	eventually(t, "node-a's new load", func() bool { return listNodes(t, kvB)["node-a"].Load.Resident == 8 })
	if got, _ := PickNode(mapValues(listNodes(t, kvB))); got.ID != "node-b" {
		t.Fatalf("picked %s, want node-b with 5 free against 2", got.ID)
	}

	b.SetDraining(true)
	eventually(t, "node-b draining", func() bool { return listNodes(t, kvA)["node-b"].Load.Draining })
	if !b.Info().Load.Draining {
		t.Fatal("Info does not show draining")
	}
	if got, _ := PickNode(mapValues(listNodes(t, kvA))); got.ID != "node-a" {
		t.Fatalf("picked %s, a draining node's peer was due", got.ID)
	}
	b.SetDraining(false)
	eventually(t, "node-b back", func() bool { return !listNodes(t, kvA)["node-b"].Load.Draining })

	if err := b.Leave(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := b.Leave(context.Background()); err != nil {
		t.Fatalf("second leave: %v", err)
	}
	if nodes := listNodes(t, kvA); len(nodes) != 1 || nodes["node-a"].ID == "" {
		t.Fatalf("after leave nodes = %+v", nodes)
	}
	_ = a
}

func mapValues(m map[string]NodeInfo) []NodeInfo {
	var s []NodeInfo
	for _, v := range m {
		s = append(s, v)
	}
	return s
}

// TestDeadNodeDisappearsAfterTTL: a node that stops renewing (its clock
// stands still, as a dead process's would) leaves the list once the
// server's TTL passes, while a renewing node stays; when it renews again
// (NATS was only unreachable) it is listed again.
func TestDeadNodeDisappearsAfterTTL(t *testing.T) {
	ns := natstest.Start(t)
	const ttl = time.Second
	kvA := nodesBucket(t, ns, "node-a", ttl)
	kvB := nodesBucket(t, ns, "node-b", ttl)
	clockA := newFakeClock()
	join(t, kvA, NodeInfo{ID: "node-a"}, NodesOptions{Clock: clockA})
	join(t, kvB, NodeInfo{ID: "node-b"}, NodesOptions{Interval: ttl / 4})

	joined := time.Now()
	if n := listNodes(t, kvB); len(n) != 2 {
		t.Fatalf("nodes = %+v", n)
	}
	eventually(t, "node-a to expire", func() bool { _, ok := listNodes(t, kvB)["node-a"]; return !ok })
	if time.Since(joined) < ttl {
		t.Fatalf("node-a gone %s after its last renewal, before the %s TTL", time.Since(joined), ttl)
	}
	if _, ok := listNodes(t, kvB)["node-b"]; !ok {
		t.Fatal("the renewing node expired too")
	}
	eventually(t, "node-a's heartbeat to sleep", func() bool { return clockA.afterCalls() > 0 })
	clockA.Advance(ttl)
	eventually(t, "node-a back", func() bool { _, ok := listNodes(t, kvB)["node-a"]; return ok })
}

// TestJoinWaitsForTwin: a second process joining under a live node's ID
// is refused with the live node's details; one joining after a crashed
// run of the same ID gets in once the crashed run's entry expires.
func TestJoinWaitsForTwin(t *testing.T) {
	ns := natstest.Start(t)
	const ttl = time.Second
	kv := nodesBucket(t, ns, "n", ttl)
	first := join(t, kv, NodeInfo{ID: "n", URL: "http://first"}, NodesOptions{Interval: ttl / 4})

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := JoinNodes(ctx, kv, NodeInfo{ID: "n", URL: "http://second"}, NodesOptions{})
	var exists *NodeExistsError
	if !errors.Is(err, ErrNodeExists) || !errors.As(err, &exists) || exists.Node.URL != "http://first" {
		t.Fatalf("twin join: %v", err)
	}
	if listNodes(t, kv)["n"].URL != "http://first" {
		t.Fatal("the twin overwrote the live node")
	}

	// The first run crashes: it renews no more (its context is gone,
	// the entry stays until the TTL).
	first.stop()
	<-first.done
	second, err := JoinNodes(context.Background(), kv, NodeInfo{ID: "n", URL: "http://second"}, NodesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Leave(context.Background())
	if got := listNodes(t, kv)["n"]; got.URL != "http://second" {
		t.Fatalf("after the crash the entry is %+v", got)
	}
	// The crashed run's Leave must not delete its successor's entry.
	if err := first.Leave(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := listNodes(t, kv)["n"]; got.URL != "http://second" {
		t.Fatalf("a stale Leave removed the successor: %+v", got)
	}
}

func TestPickNode(t *testing.T) {
	n := func(id string, resident, max, turns int, draining bool) NodeInfo {
		return NodeInfo{ID: id, Load: Load{Resident: resident, MaxResident: max, RunningTurns: turns, Draining: draining}}
	}
	for _, c := range []struct {
		name    string
		nodes   []NodeInfo
		exclude []string
		want    string
	}{
		{"most headroom", []NodeInfo{n("a", 5, 10, 0, false), n("b", 1, 4, 0, false), n("c", 2, 10, 0, false)}, nil, "c"},
		{"draining passed over", []NodeInfo{n("a", 0, 10, 0, true), n("b", 5, 10, 0, false)}, nil, "b"},
		{"excluded passed over", []NodeInfo{n("a", 0, 10, 0, false), n("b", 5, 10, 0, false)}, []string{"a"}, "b"},
		{"tie: fewer turns", []NodeInfo{n("a", 2, 10, 3, false), n("b", 2, 10, 1, false)}, nil, "b"},
		{"tie: lower ID", []NodeInfo{n("b", 2, 10, 1, false), n("a", 2, 10, 1, false)}, nil, "a"},
		{"full nodes still candidates", []NodeInfo{n("a", 12, 10, 0, false), n("b", 10, 10, 0, false)}, nil, "b"},
		{"none", []NodeInfo{n("a", 0, 10, 0, true)}, nil, ""},
		{"empty", nil, nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := PickNode(c.nodes, c.exclude...)
			if ok != (c.want != "") || got.ID != c.want {
				t.Fatalf("PickNode = %q, %v; want %q", got.ID, ok, c.want)
			}
		})
	}
}

func TestJoinNodesRefusesBadInput(t *testing.T) {
	ns := natstest.Start(t)
	kv := nodesBucket(t, ns, "n", time.Second)
	ctx := context.Background()
	if _, err := JoinNodes(ctx, kv, NodeInfo{}, NodesOptions{}); err == nil {
		t.Fatal("joined without an ID")
	}
	if _, err := JoinNodes(ctx, kv, NodeInfo{ID: "x"}, NodesOptions{Interval: time.Second}); err == nil {
		t.Fatal("joined renewing no sooner than the TTL")
	}
	nc, err := Connect(ns.URL(), ConnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	if _, err := NodesBucket(ctx, js, NodesConfig{TTL: 3 * time.Second}); err == nil {
		t.Fatal("bound the nodes bucket with another TTL")
	}
}

// TestMembershipLeavesNoGoroutine: joining, listing and leaving leave
// nothing running. The server is a process of its own, so that every
// goroutine here is the client's.
func TestMembershipLeavesNoGoroutine(t *testing.T) {
	p := natstest.StartProcess(t)
	nc, err := Connect(p.URL(), ConnOptions{NodeID: "n"})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	kv, err := NodesBucket(ctx, js, NodesConfig{TTL: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	before := goleak.IgnoreCurrent()
	m, err := JoinNodes(ctx, kv, NodeInfo{ID: "n"}, NodesOptions{Interval: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	m.SetDraining(true)
	eventually(t, "draining listed", func() bool {
		nodes, err := Nodes(ctx, kv)
		return err == nil && len(nodes) == 1 && nodes[0].Load.Draining
	})
	if err := m.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	if nodes, err := Nodes(ctx, kv); err != nil || len(nodes) != 0 {
		t.Fatalf("after leave: %v, %v", nodes, err)
	}
	goleak.VerifyNone(t, before)
}
