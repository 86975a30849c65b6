package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/clocktest"
	"github.com/hotplex/hotplex/testkit"
)

// issuer is a Credentials that records what it issued and revoked.
type issuer struct {
	mu      sync.Mutex
	n       int
	holder  map[string]string // token -> "session/owner"
	revoked []string
}

func (c *issuer) AgentEnv(sessionID, owner string, base []string) ([]string, func(string, string), func(), error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	tok := fmt.Sprintf("token-%d", c.n)
	if c.holder == nil {
		c.holder = map[string]string{}
	}
	c.holder[tok] = sessionID + "/" + owner
	var env []string
	for _, kv := range base {
		if !strings.HasPrefix(kv, "ANTHROPIC_API_KEY=") {
			env = append(env, kv)
		}
	}
	bind := func(s, o string) { c.mu.Lock(); c.holder[tok] = s + "/" + o; c.mu.Unlock() }
	revoke := func() { c.mu.Lock(); c.revoked = append(c.revoked, tok); c.mu.Unlock() }
	return append(env, "ANTHROPIC_API_KEY="+tok), bind, revoke, nil
}

func (c *issuer) state() (map[string]string, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h := map[string]string{}
	for k, v := range c.holder {
		h[k] = v
	}
	return h, slices.Clone(c.revoked)
}

// environ reads a live process's environment from /proc.
func environ(t *testing.T, pid int) []string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
}

// TestCredentialsPerProcess: each process starts with its own credentials
// and not the operator's key; they are revoked when the process ends,
// whether its session is terminated or hibernated, and a resumed process
// gets new ones.
func TestCredentialsPerProcess(t *testing.T) {
	const operatorKey = "sk-operator-key-never-in-an-agent"
	iss := &issuer{}
	f := newFixture(t, engine.EngineOptions{Credentials: iss, MaxResident: 1, Env: append(os.Environ(), "HOME="+t.TempDir(), "ANTHROPIC_API_KEY="+operatorKey)})
	r := f.mustRun(t, "a", "hello")
	pid := r.First(event.TypeSessionStart).PID
	env := environ(t, pid)
	if strings.Contains(strings.Join(env, "\n"), operatorKey) {
		t.Fatal("the operator's key is in the agent's environment")
	}
	if got := testkit.EnvValue(env, "ANTHROPIC_API_KEY"); got != "token-1" {
		t.Fatalf("agent's key %q, want its own token", got)
	}
	// Starting b hibernates a (one resident process): a's token goes
	// with its process, which a's next start waits for.
	f.mustRun(t, "b", "hello")
	r = f.mustRun(t, "a", "again")
	if _, rev := iss.state(); !slices.Contains(rev, "token-1") {
		t.Fatalf("a's token was not revoked with its process: revoked %v", rev)
	}
	if got := testkit.EnvValue(environ(t, r.First(event.TypeSessionStart).PID), "ANTHROPIC_API_KEY"); got != "token-3" {
		t.Errorf("resumed process's key %q, want a new token", got)
	}
	if err := f.eng.TerminateSession("a"); err != nil {
		t.Fatal(err)
	}
	holders, rev := iss.state()
	if !slices.Contains(rev, "token-3") || slices.Contains(rev, "token-4") {
		t.Errorf("revoked %v after terminating a", rev)
	}
	if holders["token-1"] != "a/" || holders["token-2"] != "b/" {
		t.Errorf("holders %v", holders)
	}
}

// TestSpareCredentialsFollowTheClaim: a spare starts with credentials of
// no session, which become its session's when it is claimed.
func TestSpareCredentialsFollowTheClaim(t *testing.T) {
	iss := &issuer{}
	clock := clocktest.New() // the spare refill arms it after each round
	f := newFixture(t, engine.EngineOptions{Credentials: iss, Spares: 1, Clock: clock})
	untilClock(t, clock, "a spare", func() bool { return f.eng.PoolStats().Spares == 1 })
	if h, _ := iss.state(); h["token-1"] != "/" {
		t.Fatalf("spare issued to %q", h["token-1"])
	}
	ctx := context.Background()
	r := &testkit.Recorder{}
	if err := f.eng.Execute(ctx, &engine.Config{SessionID: "s", WorkDir: f.dir, Owner: "alice"}, "hi", r.Callback); err != nil {
		t.Fatal(err)
	}
	st := r.First(event.TypeSessionStart)
	if !st.Spare {
		t.Fatal("the spare was not claimed")
	}
	if got := testkit.EnvValue(environ(t, st.PID), "ANTHROPIC_API_KEY"); got != "token-1" {
		t.Errorf("claimed spare's key %q", got)
	}
	if h, _ := iss.state(); h["token-1"] != "s/alice" {
		t.Errorf("spare's token held by %q after the claim, want s/alice", h["token-1"])
	}
	_ = f.eng.Close()
	h, rev := iss.state()
	for tok := range h {
		if !slices.Contains(rev, tok) {
			t.Errorf("%s not revoked at Close", tok)
		}
	}
}

// TestEndTurnWithCause: a turn ended with a cause reports it in its error
// event and to Execute's caller.
func TestEndTurnWithCause(t *testing.T) {
	f := newFake(t, engine.EngineOptions{}, nil)
	cause := errors.New("budget_exceeded: session e has spent $1 of its $1 budget")
	if f.eng.EndTurn("e", cause) {
		t.Fatal("EndTurn on no session reported a turn")
	}
	tr := f.goRun(t, "", "e", "wait:never")
	arrivals(t, f.prov.Gate("never"), 1)
	if !f.eng.EndTurn("e", cause) {
		t.Fatal("EndTurn found no turn running")
	}
	if err := tr.wait(t); !errors.Is(err, cause) {
		t.Fatalf("Execute returned %v, want the cause", err)
	}
	if ev := tr.rec.First(event.TypeError); ev == nil || !strings.Contains(ev.Meta.ErrorMsg, "budget_exceeded") {
		t.Errorf("error event %+v", ev)
	}
}
