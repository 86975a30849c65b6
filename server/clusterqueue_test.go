package server_test

import (
	"bufio"
	"bytes"
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	hpdaemon "github.com/hotplex/hotplex/daemon"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/natstest"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/testkit"
)

// startLong starts a long turn of session id on d and returns its stream
// once the turn has begun.
func startLong(t *testing.T, d *daemon, id string) *http.Response {
	t.Helper()
	resp := d.post(t, d.alice, id, "sleep:20000 long", "")
	readSSE(t, resp.Body, func(e sseEvent) bool { return e.Type == event.TypeSessionStart })
	return resp
}

// On a cluster, prompts sent to any node while the session's turn runs on
// another are queued on the session's owner, in the order they came, and
// each caller streams its own turn when it runs.
func TestClusterQueuesPromptsOnTheOwner(t *testing.T) {
	nodes := startCluster(t, 3)
	n1, n2, n3 := nodes[0], nodes[1], nodes[2]
	n1.Create(t, n1.alice, map[string]any{"id": "q"})
	first := startLong(t, n1, "q")
	if v := testkit.Decode[map[string]any](t, n2.Do(t, "GET", "/v1/sessions/q", n2.alice, nil)); v["node"] != "n1" {
		t.Fatalf("owner: %v", v)
	}

	second := n2.post(t, n2.alice, "q", "second", "queue")
	if n := queuedNotice(t, second.Body); n["position"] != float64(1) {
		t.Fatalf("second prompt's notice on node 2: %v", n)
	}
	third := n3.post(t, n3.alice, "q", "third", "")
	if n := queuedNotice(t, third.Body); n["position"] != float64(2) {
		t.Fatalf("third prompt's notice on node 3: %v", n)
	}
	if v := testkit.Decode[map[string]any](t, n3.Do(t, "GET", "/v1/sessions/q", n3.alice, nil)); v["queued"] != float64(2) {
		t.Fatalf("node 3 shows %v queued, want 2", v["queued"])
	}

	ir := testkit.Decode[map[string]any](t, n2.Do(t, "POST", "/v1/sessions/q/interrupt", n2.alice, nil))
	if ir["interrupted"] != true || ir["queued"] != float64(2) {
		t.Fatalf("interrupt on node 2: %v", ir)
	}
	// Each caller streams its own turn, wherever it sent the prompt.
	queuedThenRan(t, first.Body, second.Body, third.Body)
	if v := testkit.Decode[map[string]any](t, n1.Do(t, "GET", "/v1/sessions/q", n1.alice, nil)); v["queued"] != float64(0) || v["node"] != "n1" {
		t.Fatalf("after the queue ran: %v", v)
	}

	// An interrupt that drops the queue, sent to a third node, ends the
	// wait of a caller on another.
	long := startLong(t, n1, "q")
	fourth := n2.post(t, n2.alice, "q", "fourth", "queue")
	queuedNotice(t, fourth.Body)
	ir = testkit.Decode[map[string]any](t, n3.Do(t, "POST", "/v1/sessions/q/interrupt?drop_queued=true", n3.alice, nil))
	if ir["dropped"] != float64(1) {
		t.Fatalf("interrupt with drop_queued on node 3: %v", ir)
	}
	s4 := readSSE(t, fourth.Body, nil)
	if len(s4) == 0 || s4[0].Type != "queue_dropped" || answers(s4) != nil {
		t.Fatalf("the dropped prompt's stream on node 2: %v", types(s4))
	}
	readSSE(t, long.Body, nil)
}

// A prompt queued on a node that then stops is run from the node its
// caller reached, once the stopped node's lease is gone.
func TestClusterQueuedPromptOutlivesItsNode(t *testing.T) {
	nodes := startCluster(t, 2)
	n1, n2 := nodes[0], nodes[1]
	n1.Create(t, n1.alice, map[string]any{"id": "q2"})
	long := startLong(t, n1, "q2")
	defer long.Body.Close()
	waiting := n2.post(t, n2.alice, "q2", "after the node left", "queue")
	queuedNotice(t, waiting.Body)
	stopped := time.Now()
	n1.stop()
	evs := readSSE(t, waiting.Body, nil)
	// The caller's stream ends with its prompt's result. When node 1
	// began the prompt in the moment between closing its connections and
	// stopping, the stream first shows that attempt cut off (an error and
	// its result), and the answer of the run on node 2 may reach the
	// caller only in the result: what must hold is that the prompt ran,
	// once, to its answer.
	if len(evs) == 0 {
		t.Fatal("the queued prompt's stream on node 2 ended empty after node 1 stopped")
	}
	last := evs[len(evs)-1]
	a := answers(evs)
	if last.Type != event.TypeResult || !strings.Contains(string(last.Data), `"result":"echo: after the node left"`) ||
		len(a) > 1 || len(a) == 1 && a[0] != "echo: after the node left" {
		t.Fatalf("the queued prompt's stream on node 2 after node 1 stopped: %v %v %s", types(evs), a, last.Data)
	}
	if types(evs)[0] == "error" {
		t.Logf("node 1 had begun the prompt as it stopped: %v", types(evs))
	}
	t.Logf("the queued prompt ran %s after its node stopped", time.Since(stopped).Round(time.Millisecond))
	if v := testkit.Decode[map[string]any](t, n2.Do(t, "GET", "/v1/sessions/q2", n2.alice, nil)); v["node"] != "n2" || v["queued"] != float64(0) {
		t.Fatalf("after: %v", v)
	}
}

// A new session goes to another node when the one it was placed on has
// no room; only when every node is full is it refused, with 429 and a
// Retry-After.
func TestClusterRefusesOnlyWhenEveryNodeIsFull(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	ns := natstest.Start(t)
	db := pg.NewDatabase(t)
	root := t.TempDir()
	var nodes []*daemon
	for _, id := range []string{"n1", "n2"} {
		o := testkit.DaemonOptions{Root: root, Postgres: db,
			MaxResident: 1, StartQueueTimeout: 300 * time.Millisecond,
			Cluster: &hpdaemon.ClusterConfig{NodeID: id, NATS: ns.URL(), LeaseTTL: testLeaseTTL}}
		if id == "n1" {
			// Node 1 places new sessions on itself first, full or not,
			// as a node whose view of the others' load is stale would.
			o.Server = func(so *server.Options) { so.Cluster = placeFirst{Cluster: so.Cluster, node: "n1"} }
		}
		nodes = append(nodes, startDaemonOn(t, t.TempDir(), o))
	}
	n1, n2 := nodes[0], nodes[1]
	// One busy session on each node.
	n1.Create(t, n1.alice, map[string]any{"id": "a"})
	n1.Create(t, n1.alice, map[string]any{"id": "b"})
	busyA := startLong(t, n1, "a")
	defer busyA.Body.Close()
	busyB := startLong(t, n2, "b")
	if va, vb := n1.view(t, "a"), n1.view(t, "b"); va["node"] == vb["node"] {
		t.Fatalf("the two busy sessions share node %v", va["node"])
	}

	n1.Create(t, n1.alice, map[string]any{"id": "c"})
	resp := n1.Do(t, "POST", "/v1/sessions/c/messages", n1.alice, map[string]string{"prompt": "hello"})
	body := testkit.Decode[map[string]map[string]any](t, resp)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || body["error"]["code"] != "overloaded" {
		t.Fatalf("a new session with every node full: %d Retry-After %q %v", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}

	// The node running b has room once b's turn ends (its idle process
	// can be hibernated): c starts there, wherever it was sent.
	bNode := n1.view(t, "b")["node"]
	if r := testkit.Decode[map[string]any](t, n1.Do(t, "POST", "/v1/sessions/b/interrupt", n1.alice, nil)); r["interrupted"] != true {
		t.Fatalf("interrupt b: %v", r)
	}
	readSSE(t, busyB.Body, nil)
	evs := n1.turn(t, n1.alice, "c", "hello again")
	if evs[len(evs)-1].Type != event.TypeResult {
		t.Fatalf("c with room on one node: %v", types(evs))
	}
	if v := n1.view(t, "c"); v["node"] != bNode {
		t.Fatalf("c runs on %v, the node with room was %v", v["node"], bNode)
	}
}

// placeFirst places every session on node unless it is excluded.
type placeFirst struct {
	server.Cluster
	node string
}

func (p placeFirst) Place(ctx context.Context, exclude ...string) (string, error) {
	if !slices.Contains(exclude, p.node) {
		return p.node, nil
	}
	return p.Cluster.Place(ctx, exclude...)
}

// view is GET /v1/sessions/{id} as alice.
func (d *daemon) view(t *testing.T, id string) map[string]any {
	t.Helper()
	return testkit.Decode[map[string]any](t, d.Do(t, "GET", "/v1/sessions/"+id, d.alice, nil))
}

// OpenCode's event bus on any node carries the turns its key's sessions
// run on other nodes.
func TestClusterOpenCodeBusOnEveryNode(t *testing.T) {
	nodes := startCluster(t, 2)
	n1, n2 := nodes[0], nodes[1]
	n1.Create(t, n1.alice, map[string]any{"id": "bus"})
	bus := streamGet(t, n2, "/event", n2.alice, nil)
	sc := bufio.NewScanner(bus.Body)
	for sc.Scan() && !bytes.Contains(sc.Bytes(), []byte("server.connected")) {
	}
	if evs := n1.turn(t, n1.alice, "bus", "hello bus"); evs[len(evs)-1].Type != event.TypeResult {
		t.Fatalf("turn on node 1: %v", types(evs))
	}
	if v := n2.view(t, "bus"); v["node"] != "n1" {
		t.Fatalf("the session runs on %v", v["node"])
	}
	for sc.Scan() {
		if bytes.Contains(sc.Bytes(), []byte("echo: hello bus")) {
			return
		}
	}
	t.Fatalf("node 2's OpenCode bus never carried the answer of the turn on node 1: %v", sc.Err())
}
