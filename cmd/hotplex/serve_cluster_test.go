package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/natstest"
	"github.com/hotplex/hotplex/internal/pgtest"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/testkit"
)

// clusterOfThree runs three `hotplex serve` nodes with the real claude
// CLI against the scripted model, on one PostgreSQL database and a
// nats-server process. The nodes share the tree of work directories, as
// nodes mounting one volume do; each has a data directory and a HOME of
// its own, so a conversation reaches another node only through the
// cluster.
type clusterOfThree struct {
	t     *testing.T
	model *scriptedmodel.Server
	args  []string
	env   []string
	data  [3]string
	home  [3]string
	nodes [3]*daemonProc
	key   string
}

func startClusterOfThree(t *testing.T) *clusterOfThree {
	t.Helper()
	pg, err := pgtest.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pg.Stop() })
	nats := natstest.StartProcess(t)
	model, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("STEERED", scriptedmodel.Text("Steered answer.")),
		scriptedmodel.Then("take your time", scriptedmodel.Bash("sleep 4"), scriptedmodel.Text("Unsteered answer.")),
		scriptedmodel.Then("afterwards", scriptedmodel.Text("Queued answer.")),
		scriptedmodel.Then("remember", scriptedmodel.Text("Noted.")),
		scriptedmodel.Then("what did I say", scriptedmodel.Text("You said something earlier.")),
		scriptedmodel.Then("slowly", scriptedmodel.Reply{Text: []string{"Too late."}, Delay: time.Minute}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = model.Close() })
	c := &clusterOfThree{t: t, model: model,
		env: []string{"ANTHROPIC_BASE_URL=" + model.URL(), "ANTHROPIC_API_KEY=sk-hotplex-test", "DISABLE_TELEMETRY=1",
			"DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "HOTPLEX_LOG_LEVEL=info"},
		args: []string{"--offline", "never", "--postgres", pg.NewDatabase(t), "--nats", nats.URL(),
			"--work-dir-root", t.TempDir(), "--lease-ttl", "3s", "--rate-limit", "0"},
	}
	for i := range c.nodes {
		c.data[i], c.home[i] = t.TempDir(), t.TempDir()
		c.start(i)
		if i == 0 {
			c.key = c.nodes[0].key // printed by the node that made the store
		}
	}
	return c
}

func (c *clusterOfThree) start(i int) {
	c.t.Helper()
	args := append([]string{"--node-id", "n" + strconv.Itoa(i+1)}, c.args...)
	c.nodes[i] = startServeWith(c.t, c.data[i], testkit.ClaudePath(c.t), c.home[i], c.key, c.env, args...)
}

// stop ends node i with SIGTERM, as a rolling restart does.
func (c *clusterOfThree) stop(i int) {
	c.t.Helper()
	d := c.nodes[i]
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		c.t.Fatal(err)
	}
	select {
	case <-d.exited:
	case <-time.After(90 * time.Second):
		c.t.Fatalf("node %d did not stop on SIGTERM", i+1)
	}
}

// call makes a request, without failing the test: nodes come and go.
func (c *clusterOfThree) call(ctx context.Context, url, method, path string, body any) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	return http.DefaultClient.Do(req)
}

// turn runs a turn through node i and returns its events.
func (c *clusterOfThree) turn(i int, id, prompt string) []sse {
	c.t.Helper()
	resp, err := c.call(context.Background(), c.nodes[i].url, "POST", "/v1/sessions/"+id+"/messages", map[string]string{"prompt": prompt})
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		c.t.Fatalf("turn on node %d: %d %s", i+1, resp.StatusCode, b)
	}
	evs := readEvents(resp.Body, nil)
	if len(evs) == 0 || evs[len(evs)-1].Type != event.TypeResult {
		c.t.Fatalf("turn on node %d: %v", i+1, evs)
	}
	return evs
}

func (c *clusterOfThree) session(i int, id string) map[string]any {
	c.t.Helper()
	resp, err := c.call(context.Background(), c.nodes[i].url, "GET", "/v1/sessions/"+id, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&v)
	return v
}

func startOf(t *testing.T, evs []sse) *event.EventWithMeta {
	t.Helper()
	var ev event.EventWithMeta
	if len(evs) == 0 || json.Unmarshal(evs[0].Data, &ev) != nil || ev.SessionStart == nil {
		t.Fatalf("the turn did not open with session_start: %v", evs)
	}
	return &ev
}

// A cluster of three nodes acts as one service: a session created on one
// node runs on another and is followed from the third; when the node that
// runs it is killed, its next turn, sent to a survivor, resumes the
// conversation there; and a rolling restart of every node under a steady
// load loses and repeats no event.
func TestServeClusterOfThree(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	c := startClusterOfThree(t)

	if resp, err := c.call(context.Background(), c.nodes[0].url, "POST", "/v1/sessions", map[string]string{"id": "tulips"}); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("create on node 1: %v %v", resp, err)
	}
	first := c.turn(1, "tulips", "remember the tulips")
	if v := c.session(2, "tulips"); v["node"] != "n2" {
		t.Fatalf("seen from node 3 after a turn on node 2: %v", v)
	}

	// Followed from node 3 from the start: history, then live events.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := c.call(ctx, c.nodes[2].url, "GET", "/v1/sessions/tulips/events?after=0", nil)
	if err != nil {
		t.Fatal(err)
	}
	followed := make(chan []sse, 1)
	go func() {
		defer resp.Body.Close()
		results := 0
		followed <- readEvents(resp.Body, func(e sse) bool {
			if e.Type == event.TypeResult {
				results++
			}
			return results == 2
		})
	}()
	second := c.turn(0, "tulips", "what did I say")
	reqs := c.model.TurnRequests()
	if last := reqs[len(reqs)-1]; !last.Saw("remember the tulips") {
		t.Fatalf("the turn sent to node 1 did not run in the conversation: %q", last.Texts)
	}
	select {
	case got := <-followed:
		want := append(append([]sse{}, first...), second...)
		if len(got) != len(want) {
			t.Fatalf("node 3's follower got %d events, the turns had %d", len(got), len(want))
		}
		for i := range want {
			if got[i].ID != want[i].ID || got[i].Type != want[i].Type {
				t.Fatalf("followed event %d: %d %s, sent %d %s", i, got[i].ID, got[i].Type, want[i].ID, want[i].Type)
			}
		}
	case <-time.After(60 * time.Second):
		t.Fatal("node 3's follower did not get both turns")
	}

	lastID := steerAndQueue(t, c)

	// kill -9 of the node that runs the session, while a turn sent to
	// node 3 runs there: the turn fails with a clear error, and what it
	// had delivered stays.
	slow, err := c.call(context.Background(), c.nodes[2].url, "POST", "/v1/sessions/tulips/messages", map[string]string{"prompt": "answer slowly"})
	if err != nil || slow.StatusCode != http.StatusOK {
		t.Fatalf("slow turn: %v %v", slow, err)
	}
	slowEvents := make(chan []sse, 1)
	started := make(chan struct{})
	go func() {
		defer slow.Body.Close()
		var once sync.Once
		slowEvents <- readEvents(slow.Body, func(e sse) bool {
			if e.Type == event.TypeSessionStart {
				once.Do(func() { close(started) })
			}
			return false
		})
	}()
	select {
	case <-started:
	case <-time.After(60 * time.Second):
		t.Fatal("the slow turn did not start")
	}
	if err := c.nodes[1].cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-c.nodes[1].exited
	select {
	case evs := <-slowEvents:
		last := evs[len(evs)-1]
		if last.Type != "turn_error" || !strings.Contains(string(last.Data), "agent_died") || !strings.Contains(string(last.Data), "n2") {
			t.Fatalf("the turn whose node died ended with %s %s", last.Type, last.Data)
		}
		if evs[0].Type != event.TypeSessionStart || evs[0].ID != lastID+1 {
			t.Fatalf("the interrupted turn's stream: %v", evs)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the turn whose node died did not end")
	}
	began := time.Now()
	third := c.turn(2, "tulips", "what did I say before")
	failover := time.Since(began)
	if st := startOf(t, third); !st.Resumed {
		t.Fatalf("after node 2 died the conversation did not resume: %+v", st.SessionStart)
	}
	reqs = c.model.TurnRequests()
	if last := reqs[len(reqs)-1]; !last.Saw("remember the tulips") {
		t.Fatalf("the conversation lost its first turn moving off the dead node: %q", last.Texts)
	}
	if v := c.session(0, "tulips"); v["node"] == "n2" || v["node"] == "" {
		t.Fatalf("after the failover: %v", v)
	}
	t.Logf("failover after kill -9: the next turn ended %s after it was sent (lease TTL 3s)", failover.Round(time.Millisecond))
	c.start(1)

	rollingRestart(t, c)
}

// steerAndQueue sends, while a turn of the session runs on node 2, a
// prompt to queue through node 1 and one to steer into it through node
// 3: Claude Code takes the steered one within the running turn, whose one
// result answers it, and the queued one runs as the next turn, each
// caller streaming what became of its prompt.
func steerAndQueue(t *testing.T, c *clusterOfThree) (lastID uint64) {
	t.Helper()
	post := func(i int, prompt, mode string) *http.Response {
		resp, err := c.call(context.Background(), c.nodes[i].url, "POST", "/v1/sessions/tulips/messages", map[string]string{"prompt": prompt, "mode": mode})
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s through node %d: %v %v", mode, i+1, resp, err)
		}
		return resp
	}
	running := post(0, "take your time", "")
	defer running.Body.Close()
	readEvents(running.Body, func(e sse) bool { return e.Type == event.TypeToolUse })
	// The tool runs for seconds: both prompts come while it does.
	queue := post(0, "and afterwards, this", "queue")
	defer queue.Body.Close()
	steer := post(2, "STEERED: say it differently", "steer")
	defer steer.Body.Close()

	kinds := func(evs []sse) []string {
		var out []string
		for _, e := range evs {
			out = append(out, e.Type)
		}
		return out
	}
	answer := func(evs []sse) (string, int) {
		text, results := "", 0
		for _, e := range evs {
			var ev event.EventWithMeta
			_ = json.Unmarshal(e.Data, &ev)
			switch e.Type {
			case event.TypeAnswer:
				text += ev.EventData
			case event.TypeResult:
				results++
			}
		}
		return text, results
	}
	steered := readEvents(steer.Body, nil)
	if len(steered) == 0 || steered[0].Type != "steered" {
		first := ""
		if len(steered) > 0 {
			first = string(steered[0].Data)
		}
		t.Fatalf("the steered prompt's stream through node 3: %v %s", kinds(steered), first)
	}
	rest := readEvents(running.Body, nil)
	if a, n := answer(rest); n != 1 || !strings.Contains(a, "Steered answer.") {
		t.Fatalf("the running turn on node 2 ended with %d results answering %q: %v; steered stream %v", n, a, kinds(rest), kinds(steered))
	}
	if a, n := answer(steered); n != 1 || !strings.Contains(a, "Steered answer.") || steered[len(steered)-1].Type != event.TypeResult {
		t.Fatalf("the steered prompt's stream through node 3 ended with %d results answering %q", n, a)
	}
	queued := readEvents(queue.Body, nil)
	if len(queued) == 0 || queued[0].Type != "queued" {
		t.Fatalf("the queued prompt's stream through node 1: %v", kinds(queued))
	}
	if a, n := answer(queued); n != 1 || a != "Queued answer." {
		t.Fatalf("the queued prompt's turn, streamed through node 1: %d results answering %q", n, a)
	}
	if v := c.session(1, "tulips"); v["node"] != "n2" || v["queued"] != float64(0) {
		t.Fatalf("after steering and queueing: %v", v)
	}
	return queued[len(queued)-1].ID
}

// rollingRestart restarts every node in turn while clients keep running
// turns on three sessions and a follower per session reconnects to
// another node whenever its node goes: every client sees each event of
// each session exactly once, in order, and the store has them all.
func rollingRestart(t *testing.T, c *clusterOfThree) {
	ids := []string{"r1", "r2", "r3"}
	for _, id := range ids {
		if resp, err := c.call(context.Background(), c.nodes[0].url, "POST", "/v1/sessions", map[string]string{"id": id}); err != nil || resp.StatusCode != http.StatusCreated {
			t.Fatalf("create %s: %v %v", id, resp, err)
		}
	}
	var mu sync.Mutex
	urls := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return []string{c.nodes[0].url, c.nodes[1].url, c.nodes[2].url}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	type outcome struct {
		turns, retries int
		seen           []uint64 // event IDs the turns streamed
		followed       []uint64 // event IDs the follower got
	}
	results := make([]outcome, len(ids))
	for k, id := range ids {
		// A client running turns one after another on any node.
		wg.Go(func() {
			o := &results[k]
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				prompt := fmt.Sprintf("remember turn %d", n)
				for attempt := 0; ; attempt++ {
					u := urls()[(n+attempt+k)%3]
					resp, err := c.call(context.Background(), u, "POST", "/v1/sessions/"+id+"/messages", map[string]string{"prompt": prompt})
					if err != nil || resp.StatusCode != http.StatusOK {
						// The node is going or gone; the turn never
						// started there. Another node takes it.
						if resp != nil {
							resp.Body.Close()
						}
						o.retries++
						time.Sleep(100 * time.Millisecond)
						continue
					}
					evs := readEvents(resp.Body, nil)
					resp.Body.Close()
					if len(evs) == 0 || evs[len(evs)-1].Type != event.TypeResult {
						var kinds []string
						for _, e := range evs {
							kinds = append(kinds, e.Type)
						}
						last := ""
						if len(evs) > 0 {
							last = string(evs[len(evs)-1].Data)
						}
						t.Errorf("%s turn %d on %s ended with %v: %s", id, n, u, kinds, last)
						return
					}
					for _, e := range evs {
						o.seen = append(o.seen, e.ID)
					}
					o.turns++
					break
				}
			}
		})
		// A follower that moves to another node when its node goes.
		wg.Go(func() {
			o := &results[k]
			var last uint64
			for attempt := 0; ; attempt++ {
				select {
				case <-stop:
					return
				default:
				}
				ctx, cancel := context.WithCancel(context.Background())
				go func() {
					select {
					case <-stop:
					case <-ctx.Done():
					}
					cancel()
				}()
				resp, err := c.call(ctx, urls()[attempt%3], "GET", "/v1/sessions/"+id+"/events?after="+strconv.FormatUint(last, 10), nil)
				if err == nil && resp.StatusCode == http.StatusOK {
					readEvents(resp.Body, func(e sse) bool {
						if e.ID == 0 {
							return false // a notice, not an event
						}
						o.followed = append(o.followed, e.ID)
						last = e.ID
						return false
					})
					resp.Body.Close()
				} else if resp != nil {
					resp.Body.Close()
				}
				cancel()
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
	// Each node in turn: SIGTERM (it drains and hands its sessions
	// over), then started again.
	for i := range c.nodes {
		time.Sleep(2 * time.Second)
		c.stop(i)
		mu.Lock()
		c.start(i)
		mu.Unlock()
	}
	time.Sleep(2 * time.Second)
	close(stop)
	wg.Wait()

	for k, id := range ids {
		o := results[k]
		v := c.session(0, id)
		lastID := uint64(v["last_event_id"].(float64))
		if o.turns < 3 || lastID == 0 {
			t.Fatalf("%s: %d turns ran during the restart, last event %d", id, o.turns, lastID)
		}
		// The turns' events, and the follower's, are 1..N without a
		// gap or a repeat (the follower may have stopped short of the
		// last turn's end).
		for name, got := range map[string][]uint64{"turns": o.seen, "follower": o.followed} {
			for i, seq := range got {
				if seq != uint64(i+1) {
					t.Fatalf("%s: the %s saw event %d where %d was due (%d retries): %v", id, name, seq, i+1, o.retries, got)
				}
			}
		}
		if uint64(len(o.seen)) != lastID {
			t.Fatalf("%s: the turns streamed %d events, the store has %d", id, len(o.seen), lastID)
		}
		t.Logf("%s: %d turns, %d events, %d retries on a node going away, follower got %d", id, o.turns, lastID, o.retries, len(o.followed))
	}
}
