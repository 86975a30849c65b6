package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/daemon"
	"github.com/hotplex/hotplex/internal/natstest"
	"github.com/hotplex/hotplex/internal/pgtest"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

// BenchmarkCluster: three nodes on one PostgreSQL database and one NATS
// server, 1,000 conversations over fake agents, 200 WebSocket clients
// spread over the nodes, beside a single node on the same database in the
// same run. It prints turns per second; event delivery (from the owner's
// engine reading the event to the client reading it) for clients on the
// session's own node and on the others, in a closed loop and paced at a
// quarter of the closed loop's rate; the time a turn routed through
// another node adds to a local one; and the failover time after kill -9
// of a node.
func BenchmarkCluster(b *testing.B) {
	const turnsPerConversation = 2
	conversations, clients := benchConversations(), benchClients()
	agent := testkit.BuildFakeAgent(b, b.TempDir())
	pg, err := pgtest.Start(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = pg.Stop() })
	nats := natstest.Start(b)

	node := func(id, db, root string) *testkit.Daemon {
		o := testkit.DaemonOptions{
			Provider: claude.New(claude.Options{Path: agent, Name: "fakeagent"}),
			Env:      append(os.Environ(), "HOME="+b.TempDir()), Root: root, Postgres: db, MaxResident: 400,
		}
		if id != "" {
			o.Cluster = &daemon.ClusterConfig{NodeID: id, NATS: nats.URL()}
		}
		return testkit.StartDaemon(b, o)
	}
	single := node("", pg.NewDatabase(b), b.TempDir())
	db, root := pg.NewDatabase(b), b.TempDir()
	nodes := []*testkit.Daemon{node("n1", db, root), node("n2", db, root), node("n3", db, root)}

	b.ResetTimer()
	one := runLoad(b, []*testkit.Daemon{single}, conversations, clients, turnsPerConversation)
	three := runLoad(b, nodes, conversations, clients, turnsPerConversation)
	fmt.Printf("%-34s %d conversations × %d turns, %d WebSocket clients, closed loop: single node %.0f turns/s, three nodes %.0f turns/s (%.2f×)\n",
		"cluster load", conversations, turnsPerConversation, clients, one.tps, three.tps, three.tps/one.tps)
	fmt.Printf("%-34s closed loop delivery p50/p99: single node %s/%s | cluster, client on the owner %s/%s, on another node %s/%s\n",
		"cluster load", pct(one.local, 0.5), pct(one.local, 0.99), pct(three.local, 0.5), pct(three.local, 0.99),
		pct(three.remote, 0.5), pct(three.remote, 0.99))

	pacedOne := pacedCluster(b, []*testkit.Daemon{single}, one.ids, clients, one.tps/4)
	pacedThree := pacedCluster(b, nodes, three.ids, clients, three.tps/4)
	fmt.Printf("%-34s paced at ¼ of capacity, delivery p50/p99: single node %s/%s | cluster, client on the owner %s/%s, on another node %s/%s (target p99 ≤ 10ms)\n",
		"cluster load", pct(pacedOne.local, 0.5), pct(pacedOne.local, 0.99), pct(pacedThree.local, 0.5), pct(pacedThree.local, 0.99),
		pct(pacedThree.remote, 0.5), pct(pacedThree.remote, 0.99))

	local, routed := routedOverhead(b, nodes)
	fmt.Printf("%-34s warm turn sent to the session's node p50 %s p99 %s | through another node p50 %s p99 %s | added p50 %s (target ≤ 2ms)\n",
		"cluster routed turn", pct(local, 0.5), pct(local, 0.99), pct(routed, 0.5), pct(routed, 0.99), pct(routed, 0.5)-pct(local, 0.5))

	// On a NATS server of its own: its lease TTL is shorter.
	failover := clusterFailover(b, agent, pg, natstest.Start(b))
	fmt.Printf("%-34s kill -9 of the session's node → the next turn, sent to the other node, answered: %s (lease TTL 2s, %d runs: %v)\n",
		"cluster failover", pct(failover, 0.5), len(failover), failover)
	b.ReportMetric(three.tps, "cluster-turns/s")
	b.ReportMetric(float64(pct(pacedThree.remote, 0.99).Microseconds()), "cross-node-delivery-p99-µs")
}

// loadResult is what a closed-loop run measured.
type loadResult struct {
	tps           float64
	local, remote []time.Duration // delivery to clients on the owner, on another node
	ids           []string
}

// runLoad creates conversations sessions on nodes (round robin) and has
// clients, client i on node i mod len(nodes), run turns over their share
// of them in a closed loop.
func runLoad(b *testing.B, nodes []*testkit.Daemon, conversations, clients, turns int) loadResult {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	var res loadResult
	for i := range conversations {
		id := fmt.Sprintf("c%d", i)
		d := nodes[i%len(nodes)]
		body, _ := json.Marshal(map[string]string{"id": id})
		req, _ := http.NewRequest("POST", d.URL+"/v1/sessions", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+d.Alice)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusCreated {
			b.Fatalf("create: %v %v", err, resp)
		}
		resp.Body.Close()
		res.ids = append(res.ids, id)
	}
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	nodeOf := nodeIndex(nodes)
	start := time.Now()
	for c := range clients {
		wg.Go(func() {
			d := nodes[c%len(nodes)]
			ws, err := testkit.DialWS(ctx, d.URL, d.Alice)
			if err != nil {
				b.Error(err)
				return
			}
			defer ws.Close()
			var local, remote []time.Duration
			for turn := range turns {
				for i := c; i < conversations; i += clients {
					evs, err := ws.Execute(ctx, fmt.Sprintf("t%d-%d", turn, i), res.ids[i], "blocks:2 ping")
					if err != nil {
						b.Error(err)
						return
					}
					local, remote = delivery(evs, ownerOf(evs, nodeOf) == c%len(nodes), local, remote)
				}
			}
			mu.Lock()
			res.local = append(res.local, local...)
			res.remote = append(res.remote, remote...)
			mu.Unlock()
		})
	}
	wg.Wait()
	res.tps = float64(conversations*turns) / time.Since(start).Seconds()
	if len(res.local) == 0 || (len(nodes) > 1 && len(res.remote) == 0) {
		b.Fatalf("no events measured: %d local, %d remote", len(res.local), len(res.remote))
	}
	return res
}

// nodeIndex maps a node's name (n1, n2, ...) to its index in nodes.
func nodeIndex(nodes []*testkit.Daemon) func(string) int {
	byID := map[string]int{}
	for i := range nodes {
		byID[fmt.Sprintf("n%d", i+1)] = i
	}
	return func(node string) int {
		if i, ok := byID[node]; ok {
			return i
		}
		return 0 // a single node
	}
}

// ownerOf reads the node that ran a turn from its session_start event.
func ownerOf(evs []testkit.WSMessage, nodeOf func(string) int) int {
	for _, e := range evs {
		var ev struct {
			Node string `json:"node"`
		}
		if json.Unmarshal(e.Data, &ev) == nil && ev.Node != "" {
			return nodeOf(ev.Node)
		}
	}
	return nodeOf("")
}

// delivery adds each event's delivery time (from its stamp on the node
// that ran it to its arrival) to local, when the client is on that node,
// or to remote.
func delivery(evs []testkit.WSMessage, onOwner bool, local, remote []time.Duration) ([]time.Duration, []time.Duration) {
	for _, e := range evs {
		at := eventTime(e.Data)
		switch {
		case at.IsZero():
		case onOwner:
			local = append(local, e.Received.Sub(at))
		default:
			remote = append(remote, e.Received.Sub(at))
		}
	}
	return local, remote
}

func eventTime(data []byte) time.Time {
	var ev struct {
		Time time.Time `json:"time"`
	}
	_ = json.Unmarshal(data, &ev)
	return ev.Time
}

// pacedCluster runs 3 turns per client on the hot sessions, each client
// (client i on node i mod len(nodes), on the session ids[i]) sending at
// a steady pace, together rate turns per second.
func pacedCluster(b *testing.B, nodes []*testkit.Daemon, ids []string, clients int, rate float64) loadResult {
	const turns = 3
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	interval := time.Duration(float64(clients) / rate * float64(time.Second))
	nodeOf := nodeIndex(nodes)
	var (
		mu  sync.Mutex
		res loadResult
		wg  sync.WaitGroup
	)
	begin := time.Now().Add(200 * time.Millisecond)
	for c := range clients {
		wg.Go(func() {
			d := nodes[c%len(nodes)]
			ws, err := testkit.DialWS(ctx, d.URL, d.Alice)
			if err != nil {
				b.Error(err)
				return
			}
			defer ws.Close()
			offset := interval * time.Duration(c) / time.Duration(clients)
			var local, remote []time.Duration
			for turn := range turns {
				time.Sleep(time.Until(begin.Add(offset + time.Duration(turn)*interval)))
				evs, err := ws.Execute(ctx, fmt.Sprintf("p%d", turn), ids[c], "blocks:2 ping")
				if err != nil {
					b.Error(err)
					return
				}
				local, remote = delivery(evs, ownerOf(evs, nodeOf) == c%len(nodes), local, remote)
			}
			mu.Lock()
			res.local = append(res.local, local...)
			res.remote = append(res.remote, remote...)
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(res.local) == 0 || (len(nodes) > 1 && len(res.remote) == 0) {
		b.Fatalf("paced: no events measured: %d local, %d remote", len(res.local), len(res.remote))
	}
	return res
}

// routedOverhead times warm turns on one session sent alternately to its
// own node and to another node, 200 of each.
func routedOverhead(b *testing.B, nodes []*testkit.Daemon) (local, routed []time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	home := nodes[0]
	body, _ := json.Marshal(map[string]string{"id": "routed"})
	req, _ := http.NewRequest("POST", home.URL+"/v1/sessions", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+home.Alice)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusCreated {
		b.Fatalf("create: %v %v", err, resp)
	}
	resp.Body.Close()
	var owner *testkit.Daemon
	other := nodes[1]
	wsOn := map[*testkit.Daemon]*testkit.WSClient{}
	for _, d := range nodes {
		ws, err := testkit.DialWS(ctx, d.URL, d.Alice)
		if err != nil {
			b.Fatal(err)
		}
		defer ws.Close()
		wsOn[d] = ws
	}
	evs, err := wsOn[home].Execute(ctx, "first", "routed", "ping")
	if err != nil {
		b.Fatal(err)
	}
	nodeOf := nodeIndex(nodes)
	owner = nodes[ownerOf(evs, nodeOf)]
	for _, d := range nodes {
		if d != owner {
			other = d
			break
		}
	}
	for i := range 400 {
		d := owner
		if i%2 == 1 {
			d = other
		}
		began := time.Now()
		if _, err := wsOn[d].Execute(ctx, fmt.Sprintf("w%d", i), "routed", "ping"); err != nil {
			b.Fatal(err)
		}
		if took := time.Since(began); d == owner {
			local = append(local, took)
		} else {
			routed = append(routed, took)
		}
	}
	return local, routed
}

// clusterFailover runs two `hotplex serve` processes as a cluster with the
// fake agent, kills the one running a session with SIGKILL and times the
// next turn sent to the other, three times.
func clusterFailover(b *testing.B, agent string, pg *pgtest.Server, nats *natstest.Server) []time.Duration {
	bin := filepath.Join(b.TempDir(), "hotplex")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/hotplex/hotplex/cmd/hotplex").CombinedOutput(); err != nil {
		b.Fatalf("building hotplex: %v\n%s", err, out)
	}
	db, root, keyFile := pg.NewDatabase(b), b.TempDir(), filepath.Join(b.TempDir(), "admin.key")
	start := func(id string) *servedNode {
		return serveNode(b, bin, keyFile, "--node-id", id, "--postgres", db, "--nats", nats.URL(), "--lease-ttl", "2s",
			"--work-dir-root", root, "--admin-key-file", keyFile, "--cli-path", agent, "--offline", "never", "--rate-limit", "0")
	}
	a, c := start("f1"), start("f2")
	key := a.key
	var out []time.Duration
	for run := range 3 {
		id := fmt.Sprintf("f%d", run)
		if code := a.post(b, key, "/v1/sessions", `{"id":"`+id+`"}`); code != http.StatusCreated {
			b.Fatalf("create: %d", code)
		}
		if code := a.post(b, key, "/v1/sessions/"+id+"/messages", `{"prompt":"remember"}`); code != http.StatusOK {
			b.Fatalf("turn: %d", code)
		}
		// The survivor and the victim: whichever does not run it.
		victim, survivor := a, c
		if !strings.Contains(a.get(b, key, "/v1/sessions/"+id), `"node":"`+a.id+`"`) {
			victim, survivor = c, a
		}
		victim.kill()
		began := time.Now()
		if code := survivor.post(b, key, "/v1/sessions/"+id+"/messages", `{"prompt":"history"}`); code != http.StatusOK {
			b.Fatalf("turn after the kill: %d", code)
		}
		out = append(out, time.Since(began))
		if victim == a {
			a = start("f1")
		} else {
			c = start("f2")
		}
	}
	a.stop()
	c.stop()
	return out
}

// servedNode is a `hotplex serve` process.
type servedNode struct {
	id, url, key string
	cmd          *exec.Cmd
	done         chan struct{}
}

func serveNode(b *testing.B, bin, keyFile string, args ...string) *servedNode {
	b.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--listen", "127.0.0.1:0", "--data-dir", b.TempDir()}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+b.TempDir(), "HOTPLEX_LOG_LEVEL=error")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	n := &servedNode{id: args[1], cmd: cmd, done: make(chan struct{})}
	sc := bufio.NewScanner(stdout)
	for n.url == "" && sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "hps_") {
			n.key = strings.TrimSpace(line)
		}
		if u, ok := strings.CutPrefix(line, "HotPlex is serving on "); ok {
			n.url = strings.Fields(u)[0]
		}
	}
	if n.url == "" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		b.Fatalf("a node did not start: %s", stderr.String())
	}
	go func() {
		_, _ = io.Copy(io.Discard, stdout)
		_ = cmd.Wait()
		close(n.done)
	}()
	b.Cleanup(n.kill)
	if data, err := os.ReadFile(keyFile); err == nil {
		n.key = strings.TrimSpace(string(data))
	}
	return n
}

func (n *servedNode) kill() {
	_ = n.cmd.Process.Kill()
	<-n.done
}

func (n *servedNode) stop() {
	_ = n.cmd.Process.Signal(os.Interrupt)
	<-n.done
}

func (n *servedNode) post(b *testing.B, key, path, body string) int {
	req, _ := http.NewRequest("POST", n.url+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

func (n *servedNode) get(b *testing.B, key, path string) string {
	req, _ := http.NewRequest("GET", n.url+path, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return string(data)
}

// benchConversations is 1,000, or HOTPLEX_BENCH_CONVERSATIONS.
func benchConversations() int {
	var n int
	if _, err := fmt.Sscan(os.Getenv("HOTPLEX_BENCH_CONVERSATIONS"), &n); err == nil && n > 0 {
		return n
	}
	return 1000
}
