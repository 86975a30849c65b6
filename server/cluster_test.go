package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	hpdaemon "github.com/hotplex/hotplex/daemon"
	"github.com/hotplex/hotplex/internal/natstest"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/testkit"
)

// startCluster starts n nodes on one PostgreSQL database and one NATS
// server. They share the tree of work directories, as nodes mounting one
// volume do, and each has a HOME of its own.
func startCluster(t *testing.T, n int) []*daemon {
	nodes, _ := startClusterWithNATS(t, n)
	return nodes
}

func startClusterWithNATS(t *testing.T, n int) ([]*daemon, *natstest.Server) {
	return startClusterWith(t, n, nil)
}

// testLeaseTTL is the nodes' lease in these tests: long enough that a
// node starved of the CPU for a few seconds (the race detector, every
// package's tests at once) keeps its sessions; no test waits for one to
// expire, since a stopped node gives its leases back.
const testLeaseTTL = 8 * time.Second

// startClusterWith is startClusterWithNATS with each node's server
// options changed by change (given the node's index), when not nil.
func startClusterWith(t *testing.T, n int, change func(i int, so *server.Options)) ([]*daemon, *natstest.Server) {
	t.Helper()
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	ns := natstest.Start(t)
	url := ns.URL()
	db := pg.NewDatabase(t)
	root := t.TempDir()
	var nodes []*daemon
	for i := range n {
		id := "n" + string(rune('1'+i))
		o := testkit.DaemonOptions{Root: root, Postgres: db,
			Cluster: &hpdaemon.ClusterConfig{NodeID: id, NATS: url, LeaseTTL: testLeaseTTL}}
		if change != nil {
			o.Server = func(so *server.Options) { change(i, so) }
		}
		nodes = append(nodes, startDaemonOn(t, t.TempDir(), o))
	}
	return nodes, ns
}

// A session created on one node runs its turns on whichever node first
// starts it; a turn sent to another node runs there all the same, its
// events streaming back to the caller, and a follower on a third node
// gets the history and then the live events, none missed or repeated.
func TestClusterRoutesTurnsAndEvents(t *testing.T) {
	nodes := startCluster(t, 3)
	n1, n2, n3 := nodes[0], nodes[1], nodes[2]

	n1.Create(t, n1.alice, map[string]any{"id": "c1"})
	first := n2.turn(t, n2.alice, "c1", "remember the heron")
	if last := first[len(first)-1]; last.Type != "result" {
		t.Fatalf("first turn on node 2: %v", types(first))
	}
	view := testkit.Decode[map[string]any](t, n3.Do(t, "GET", "/v1/sessions/c1", n3.alice, nil))
	if view["node"] != "n2" || view["status"] != "idle" || view["pid"].(float64) == 0 {
		t.Fatalf("the session seen from node 3: %v", view)
	}

	// A follower on node 3 from the start: the first turn's events come
	// from the store, the next turn's live.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", n3.url+"/v1/sessions/c1/events", nil)
	req.Header.Set("Authorization", "Bearer "+n3.alice)
	req.Header.Set("Last-Event-ID", "0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	followed := make(chan []sseEvent, 1)
	results := 0
	go func() {
		followed <- readSSE(t, resp.Body, func(e sseEvent) bool {
			if e.Type == "result" {
				results++
			}
			return results == 2
		})
	}()

	// The next turn arrives at node 1, which does not run the session:
	// it goes to node 2, and its events come back to the caller.
	second := n1.turn(t, n1.alice, "c1", "history")
	answer := ""
	for _, e := range second {
		if e.Type == "answer" {
			answer += string(e.Data)
		}
	}
	if !strings.Contains(answer, "remember the heron") {
		t.Fatalf("the routed turn lost the conversation: %v %s", types(second), answer)
	}
	if second[0].ID != first[len(first)-1].ID+1 {
		t.Fatalf("the routed turn's events start at %d, after %d", second[0].ID, first[len(first)-1].ID)
	}
	if n := len(n1.Engine.ListActiveSessions()); n != 0 {
		if s, ok := n1.Engine.GetSession("c1~"); ok && s.PID != 0 {
			t.Fatalf("node 1 started a process: %+v", s)
		}
	}

	var got []sseEvent
	select {
	case got = <-followed:
	case <-time.After(30 * time.Second):
		t.Fatal("the follower on node 3 did not get both turns")
	}
	want := append(append([]sseEvent{}, first...), second...)
	if len(got) != len(want) {
		t.Fatalf("follower got %d events, want %d: %v / %v", len(got), len(want), types(got), types(want))
	}
	for i := range want {
		if got[i].ID != want[i].ID || got[i].Type != want[i].Type {
			t.Fatalf("event %d: followed %d %s, sent %d %s", i, got[i].ID, got[i].Type, want[i].ID, want[i].Type)
		}
	}

	// Node 3's engine never had the session: the turn still runs on node
	// 2 and streams back whole.
	third := n3.turn(t, n3.alice, "c1", "from node three")
	if third[0].ID != second[len(second)-1].ID+1 || third[len(third)-1].Type != "result" {
		t.Fatalf("the turn sent to node 3: %v", types(third))
	}

	// Deleted on node 1 while node 3 follows it: node 3's follower is
	// told the session is gone.
	resp3 := n3.Do(t, "GET", "/v1/sessions/c1/events?after="+fmt.Sprint(third[len(third)-1].ID), n3.alice, nil)
	closed := make(chan []sseEvent, 1)
	go func() { closed <- readSSE(t, resp3.Body, nil) }()
	time.Sleep(200 * time.Millisecond) // the follower is subscribed
	if resp := n1.Do(t, "DELETE", "/v1/sessions/c1", n1.alice, nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete on node 1: %d", resp.StatusCode)
	}
	select {
	case evs := <-closed:
		if len(evs) == 0 || evs[len(evs)-1].Type != "session_closed" {
			t.Fatalf("node 3's follower of a deleted session got %v", types(evs))
		}
	case <-time.After(15 * time.Second):
		t.Fatal("node 3's follower was not told the session was deleted")
	}
}

// An interrupt and a deletion sent to a node that does not run the
// session reach the one that does.
func TestClusterRoutesInterruptAndDelete(t *testing.T) {
	nodes := startCluster(t, 2)
	n1, n2 := nodes[0], nodes[1]
	n1.Create(t, n1.alice, map[string]any{"id": "c2"})
	n1.turn(t, n1.alice, "c2", "hello")

	resp := n1.Do(t, "POST", "/v1/sessions/c2/messages", n1.alice, map[string]string{"prompt": "sleep:20000"})
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("turn: %d %s", resp.StatusCode, b)
	}
	events := make(chan []sseEvent, 1)
	go func() { events <- readSSE(t, resp.Body, nil) }()
	for {
		r := testkit.Decode[map[string]any](t, n2.Do(t, "POST", "/v1/sessions/c2/interrupt", n2.alice, nil))
		if r["interrupted"] == true {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case evs := <-events:
		if len(evs) == 0 || evs[len(evs)-1].Type != "turn_error" && evs[len(evs)-1].Type != "result" {
			t.Fatalf("interrupted turn ended with %v", types(evs))
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the interrupt sent to node 2 did not end the turn on node 1")
	}

	// The interrupt ends the turn's process and node 1 starts the
	// session's next one; until it runs the session has no pid, so node
	// 2 (which asks node 1) sees it shortly after, not necessarily at
	// once.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		pid, _ := testkit.Decode[map[string]any](t, n2.Do(t, "GET", "/v1/sessions/c2", n2.alice, nil))["pid"].(float64)
		if pid != 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no process seen from node 2")
		}
	}
	if resp := n2.Do(t, "DELETE", "/v1/sessions/c2", n2.alice, nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete on node 2: %d", resp.StatusCode)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, ok := n1.Engine.GetSession(n1ID(t, n1)); !ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("node 1 kept the deleted session")
		}
	}
}

// A wait for a turn's end on the session's node that goes unanswered
// (the node busy, or slow under load) is asked again while that node
// still holds the session: the caller's stream ends with the turn's
// result, not with an error.
func TestClusterTurnOutlivesAnUnansweredWait(t *testing.T) {
	var dropped atomic.Int32
	nodes, _ := startClusterWith(t, 2, func(i int, so *server.Options) {
		if i == 1 {
			so.Cluster = &unansweredWaits{Cluster: so.Cluster, drop: 3, dropped: &dropped}
		}
	})
	n1, n2 := nodes[0], nodes[1]
	n1.Create(t, n1.alice, map[string]any{"id": "w"})
	n1.turn(t, n1.alice, "w", "hello")
	evs := n2.turn(t, n2.alice, "w", "sleep:300 then answer")
	if len(evs) == 0 || evs[len(evs)-1].Type != "result" {
		t.Fatalf("the turn through node 2 ended with %v: %s", types(evs), evs[len(evs)-1].Data)
	}
	if n := dropped.Load(); n != 3 {
		t.Fatalf("%d waits went unanswered, want 3", n)
	}
	if v := n2.view(t, "w"); v["node"] != "n1" {
		t.Fatalf("the session moved: %v", v)
	}
}

// unansweredWaits fails a node's first drop waits for a turn's end as
// an unanswering node would.
type unansweredWaits struct {
	server.Cluster
	drop    int32
	dropped *atomic.Int32
}

func (u *unansweredWaits) Call(ctx context.Context, node, verb string, req, resp any) error {
	if verb == "turn.wait" && u.dropped.Load() < u.drop {
		u.dropped.Add(1)
		return fmt.Errorf("%w: %s: no answer in time", server.ErrNodeUnreachable, node)
	}
	return u.Cluster.Call(ctx, node, verb, req, resp)
}

// n1ID is the store key of alice's session c2 as node 1's engine knows it.
func n1ID(t *testing.T, d *daemon) string {
	t.Helper()
	for _, s := range d.Engine.ListActiveSessions() {
		if strings.HasPrefix(s.ID, "c2") {
			return s.ID
		}
	}
	return "none"
}

// When the node that runs a session stops, the session's next turn, sent
// to another node, runs there.
func TestClusterTakesOverFromAStoppedNode(t *testing.T) {
	nodes := startCluster(t, 2)
	n1, n2 := nodes[0], nodes[1]
	n1.Create(t, n1.alice, map[string]any{"id": "c3"})
	n1.turn(t, n1.alice, "c3", "on node one")
	if v := testkit.Decode[map[string]any](t, n2.Do(t, "GET", "/v1/sessions/c3", n2.alice, nil)); v["node"] != "n1" {
		t.Fatalf("owner before: %v", v)
	}
	n1.stop()
	evs := n2.turn(t, n2.alice, "c3", "on node two")
	if evs[len(evs)-1].Type != "result" {
		t.Fatalf("turn after node 1 stopped: %v", types(evs))
	}
	if v := testkit.Decode[map[string]any](t, n2.Do(t, "GET", "/v1/sessions/c3", n2.alice, nil)); v["node"] != "n2" {
		t.Fatalf("owner after: %v", v)
	}
}

// New sessions start on the node with the most room, wherever they were
// sent; GET /v1/cluster (admins only) shows each node's load.
func TestClusterPlacesNewSessions(t *testing.T) {
	nodes := startCluster(t, 3)
	n1 := nodes[0]
	type status struct {
		Clustered bool
		Node      string
		Nodes     []struct {
			ID       string
			Resident int
			Leases   int
			Self     bool
		}
	}
	resident := func() map[string]int {
		st := testkit.Decode[status](t, n1.Do(t, "GET", "/v1/cluster", n1.admin, nil))
		if !st.Clustered || st.Node != "n1" || len(st.Nodes) != 3 {
			t.Fatalf("cluster status: %+v", st)
		}
		out := map[string]int{}
		for _, n := range st.Nodes {
			out[n.ID] = n.Resident
		}
		return out
	}
	for i := range 6 {
		id := "p" + string(rune('a'+i))
		n1.Create(t, n1.alice, map[string]any{"id": id})
		n1.turn(t, n1.alice, id, "hello")
		// Each node's load as the others see it is renewed every second.
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			sum := 0
			for _, r := range resident() {
				sum += r
			}
			if sum == i+1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("after %d sessions the nodes report %v", i+1, resident())
			}
		}
	}
	if got := resident(); got["n1"] != 2 || got["n2"] != 2 || got["n3"] != 2 {
		t.Fatalf("six new sessions sent to node 1 were placed %v", got)
	}
}

// A draining node hands its idle sessions over: their next turns run on
// another node, with their conversations, and nothing runs on it after.
func TestClusterDrainHandsSessionsOver(t *testing.T) {
	nodes := startCluster(t, 2)
	n1, n2 := nodes[0], nodes[1]
	for _, id := range []string{"d1", "d2"} {
		n1.Create(t, n1.alice, map[string]any{"id": id})
	}
	// Both on node 1: each goes there as the node with the most room
	// or as the one that already has it.
	n1.turn(t, n1.alice, "d1", "remember the kestrel")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := n1.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if ps := n1.Engine.PoolStats(); ps.Resident != 0 {
		t.Fatalf("node 1 still runs %d sessions after draining", ps.Resident)
	}
	// Sent to the draining node, the turns run on node 2, and d1 keeps
	// its context though node 2 has a HOME of its own.
	evs := n1.turn(t, n1.alice, "d1", "history")
	answer := ""
	for _, e := range evs {
		if e.Type == "answer" {
			answer += string(e.Data)
		}
	}
	if !strings.Contains(answer, "remember the kestrel") {
		t.Fatalf("d1 lost its conversation moving to node 2: %s", answer)
	}
	n1.turn(t, n1.alice, "d2", "hello")
	for _, id := range []string{"d1", "d2"} {
		if v := testkit.Decode[map[string]any](t, n2.Do(t, "GET", "/v1/sessions/"+id, n2.alice, nil)); v["node"] != "n2" {
			t.Fatalf("%s after the drain: %v", id, v)
		}
	}
	if ps := n1.Engine.PoolStats(); ps.Resident != 0 {
		t.Fatalf("the drained node started %d sessions", ps.Resident)
	}
}

// A NATS restart is ridden out: the nodes reconnect, the session stays
// with its node, turns sent to another node still reach it, and a
// follower on a third node misses nothing. /metrics on each node labels
// its series with the node.
func TestClusterRidesOutANATSRestart(t *testing.T) {
	nodes, ns := startClusterWithNATS(t, 3)
	n1, n2, n3 := nodes[0], nodes[1], nodes[2]
	n1.Create(t, n1.alice, map[string]any{"id": "nr"})
	first := n1.turn(t, n1.alice, "nr", "before the restart")
	owner := testkit.Decode[map[string]any](t, n3.Do(t, "GET", "/v1/sessions/nr", n3.alice, nil))["node"]

	ns.Restart()
	var second []sseEvent
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		resp := n2.Do(t, "POST", "/v1/sessions/nr/messages", n2.alice, map[string]string{"prompt": "after the restart"})
		if resp.StatusCode == http.StatusOK {
			second = readSSE(t, resp.Body, nil)
			if len(second) > 0 && second[len(second)-1].Type == "result" {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no turn ran after the NATS restart: %d %v", resp.StatusCode, types(second))
		}
	}
	if second[0].ID != first[len(first)-1].ID+1 {
		t.Fatalf("the turn after the restart starts at event %d, after %d", second[0].ID, first[len(first)-1].ID)
	}
	// Node 3 may still be reconnecting to NATS (it took no part in the
	// turn); until it has, it cannot read the lease and names no node.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		v := testkit.Decode[map[string]any](t, n3.Do(t, "GET", "/v1/sessions/nr", n3.alice, nil))
		if v["node"] == owner {
			break
		}
		if v["node"] != nil || time.Now().After(deadline) {
			t.Fatalf("the session moved from %v to %v across the NATS restart", owner, v["node"])
		}
	}
	// Node 3 follows from the start: both turns, once each.
	resp := n3.Do(t, "GET", "/v1/sessions/nr/events?after=0", n3.alice, nil)
	got := readSSE(t, resp.Body, func(e sseEvent) bool { return e.ID == second[len(second)-1].ID })
	if want := len(first) + len(second); len(got) != want {
		t.Fatalf("node 3 followed %d events, want %d", len(got), want)
	}
	for i, node := range []*daemon{n1, n2, n3} {
		resp := node.Do(t, "GET", "/metrics", node.admin, nil)
		body, _ := io.ReadAll(resp.Body)
		if want := `node="n` + string(rune('1'+i)) + `"`; !strings.Contains(string(body), "hotplex_") || !strings.Contains(string(body), want) {
			t.Fatalf("node %d's /metrics has no %s label", i+1, want)
		}
	}
}
