// Package fakeprovider is an in-memory provider.Provider for tests of the
// engine and of what sits on it: its processes start, answer, stall and
// die on the test's word, with no operating-system process behind them,
// so a test of admission, hibernation or the event path runs in
// microseconds and waits on gates instead of sleeping.
//
// A turn's prompt scripts it with directives before the text, as the
// fake agent's do:
//
//	wait:NAME  stop at the gate Gate(NAME) until the test opens it (or the
//	           turn is interrupted, which ends it with an interrupted result)
//	blocks:N   answer in N blocks, "part 1" … "part N"
//	tool:NAME  ask permission for the tool NAME and report its use
//	crash      the process dies during the turn (provider.ErrSessionDead)
//	fail       the turn ends with an error result
//	history    answer with the conversation's earlier prompts, " | "-joined
//	sysprompt  answer with the process's system prompt
//
// Otherwise the answer is "echo: " and the prompt. Conversations outlive
// their processes, per provider session ID, so a resume finds its history.
package fakeprovider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
)

// firstPID is above any PID Linux hands out (pid_max is at most 2^22), so
// a fake process is never mistaken for a real one.
const firstPID = 1 << 23

// CostPerTurn is what every turn reports it cost.
const CostPerTurn = 0.001

// Provider is the fake provider. Create it with New.
type Provider struct {
	name string

	mu            sync.Mutex
	pid           int
	spares        int
	conversations map[string][]string // prompts per provider session ID
	procs         []*Process
	starts        []provider.StartOptions
	gates         map[string]*Gate
	startGate     *Gate
	closeGate     *Gate
	startErr      error
	overlaps      []string
}

// New returns a provider called name.
func New(name string) *Provider {
	return &Provider{name: name, pid: firstPID, conversations: map[string][]string{}, gates: map[string]*Gate{}}
}

// Name implements provider.Provider.
func (p *Provider) Name() string { return p.name }

// Gate returns the gate called name, making it closed on first use.
func (p *Provider) Gate(name string) *Gate {
	p.mu.Lock()
	defer p.mu.Unlock()
	g, ok := p.gates[name]
	if !ok {
		g = NewGate()
		p.gates[name] = g
	}
	return g
}

// HoldStarts makes every start (and prewarm) wait at g before it is
// ready; nil lets them through again.
func (p *Provider) HoldStarts(g *Gate) {
	p.mu.Lock()
	p.startGate = g
	p.mu.Unlock()
}

// HoldCloses makes every end of a process wait at g, as a CLI that takes
// its time to exit does; nil lets them through again.
func (p *Provider) HoldCloses(g *Gate) {
	p.mu.Lock()
	p.closeGate = g
	p.mu.Unlock()
}

// Overlaps lists the conversations a process was started for while
// another process of the same conversation was still running: two writers
// of one transcript, which the engine must never allow.
func (p *Provider) Overlaps() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.overlaps)
}

// FailStarts makes every start fail with err (wrapped in
// provider.ErrStartFailed); nil lets them succeed again.
func (p *Provider) FailStarts(err error) {
	p.mu.Lock()
	p.startErr = err
	p.mu.Unlock()
}

// Starts returns the options of every start so far, in order (claims of
// spares included, prewarms not).
func (p *Provider) Starts() []provider.StartOptions {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.starts)
}

// Processes returns every process started so far, in order.
func (p *Provider) Processes() []*Process {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.procs)
}

// Process returns the last process started for the session, or nil.
func (p *Provider) Process(sessionID string) *Process {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.procs) - 1; i >= 0; i-- {
		if p.procs[i].opts.SessionID == sessionID {
			return p.procs[i]
		}
	}
	return nil
}

// Live returns how many processes and spares are running.
func (p *Provider) Live() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.spares
	for _, pr := range p.procs {
		if pr.Alive() {
			n++
		}
	}
	return n
}

// Conversation returns the prompts the conversation has seen.
func (p *Provider) Conversation(providerSessionID string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.conversations[providerSessionID])
}

// hold waits at the start gate, if there is one, and reports the start
// failure the test asked for.
func (p *Provider) hold(ctx context.Context) error {
	p.mu.Lock()
	g, err := p.startGate, p.startErr
	p.mu.Unlock()
	if g != nil {
		if werr := g.Wait(ctx); werr != nil {
			return fmt.Errorf("%w: %w", provider.ErrStartFailed, werr)
		}
	}
	if err != nil {
		return fmt.Errorf("%w: %w", provider.ErrStartFailed, err)
	}
	return nil
}

// Start implements provider.Provider.
func (p *Provider) Start(ctx context.Context, opts provider.StartOptions) (provider.Process, error) {
	if err := p.hold(ctx); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	info := provider.Info{PID: p.nextPIDLocked(), ProviderSessionID: opts.ProviderSessionID, Model: "fake-model"}
	// As Claude Code's provider does: a conversation that exists is
	// resumed, whether or not the engine believed so.
	_, exists := p.conversations[opts.ProviderSessionID]
	switch {
	case exists:
		info.Resumed = true
	case opts.Resume:
		info.Fallback = "no saved conversation to resume; started a new one"
		p.conversations[opts.ProviderSessionID] = nil
	default:
		p.conversations[opts.ProviderSessionID] = nil
	}
	return p.addLocked(opts, info), nil
}

func (p *Provider) nextPIDLocked() int {
	p.pid++
	return p.pid
}

func (p *Provider) addLocked(opts provider.StartOptions, info provider.Info) *Process {
	for _, old := range p.procs {
		if old.info.ProviderSessionID == info.ProviderSessionID && old.Alive() {
			p.overlaps = append(p.overlaps, info.ProviderSessionID)
		}
	}
	pr := &Process{prov: p, opts: opts, info: info, alive: true}
	p.procs = append(p.procs, pr)
	p.starts = append(p.starts, opts)
	return pr
}

// WithSpares returns the provider as a provider.Prewarmer: its spares are
// fake processes parked until a conversation claims them.
func (p *Provider) WithSpares() *Prewarming { return &Prewarming{p} }

// Prewarming is a Provider that prewarms spares.
type Prewarming struct{ *Provider }

// Prewarm implements provider.Prewarmer.
func (w *Prewarming) Prewarm(ctx context.Context, opts provider.StartOptions) (provider.Spare, error) {
	p := w.Provider
	if err := p.hold(ctx); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.spares++
	return &Spare{prov: p, pid: p.nextPIDLocked(), alive: true, opts: opts}, nil
}

// Spare is a parked fake process.
type Spare struct {
	prov *Provider
	pid  int
	opts provider.StartOptions

	mu    sync.Mutex
	alive bool
}

// PID implements provider.Spare.
func (s *Spare) PID() int { return s.pid }

// Alive implements provider.Spare.
func (s *Spare) Alive() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.alive
}

// Claim implements provider.Spare: a conversation that exists is refused
// with provider.ErrNotClaimable; a new one gets the spare, under a
// provider session ID the spare chose.
func (s *Spare) Claim(_ context.Context, opts provider.StartOptions) (provider.Process, error) {
	p := s.prov
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.conversations[opts.ProviderSessionID]; ok && opts.ProviderSessionID != "" {
		return nil, fmt.Errorf("%w: conversation %s exists", provider.ErrNotClaimable, opts.ProviderSessionID)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.alive {
		return nil, fmt.Errorf("%w: the spare is gone", provider.ErrSessionDead)
	}
	s.alive = false
	p.spares--
	opts.ProviderSessionID = "spare-" + strconv.Itoa(s.pid)
	p.conversations[opts.ProviderSessionID] = nil
	return p.addLocked(opts, provider.Info{PID: s.pid, ProviderSessionID: opts.ProviderSessionID, Model: "fake-model"}), nil
}

// Close implements provider.Spare.
func (s *Spare) Close(context.Context) error {
	s.mu.Lock()
	was := s.alive
	s.alive = false
	s.mu.Unlock()
	if was {
		s.prov.mu.Lock()
		s.prov.spares--
		s.prov.mu.Unlock()
	}
	return nil
}

// Process is a fake agent process.
type Process struct {
	prov *Provider
	opts provider.StartOptions
	info provider.Info

	mu     sync.Mutex
	alive  bool
	closed bool
	stderr string
	turns  int
}

// Options returns what the process was started with.
func (pr *Process) Options() provider.StartOptions { return pr.opts }

// Info implements provider.Process.
func (pr *Process) Info() provider.Info { return pr.info }

// Alive implements provider.Process.
func (pr *Process) Alive() bool {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	return pr.alive
}

// Closed reports whether the engine ended the process.
func (pr *Process) Closed() bool {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	return pr.closed
}

// Turns returns how many turns the process ran.
func (pr *Process) Turns() int {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	return pr.turns
}

// Kill makes the process die, as a signal from outside would.
func (pr *Process) Kill() {
	pr.mu.Lock()
	pr.alive = false
	pr.stderr = "killed"
	pr.mu.Unlock()
}

// StderrTail implements provider.Process.
func (pr *Process) StderrTail() string {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	return pr.stderr
}

// Close implements provider.Process: the process is gone when it
// returns (after the close gate, if one is set).
func (pr *Process) Close(ctx context.Context) error {
	pr.prov.mu.Lock()
	g := pr.prov.closeGate
	pr.prov.mu.Unlock()
	if g != nil {
		_ = g.Wait(ctx) // ended regardless, as a kill would
	}
	pr.mu.Lock()
	pr.alive, pr.closed = false, true
	pr.mu.Unlock()
	return nil
}

// errClosed is a turn on a process that was ended.
var errClosed = fmt.Errorf("%w: the process was ended", provider.ErrSessionDead)

// Turn implements provider.Process, following the prompt's directives.
func (pr *Process) Turn(ctx context.Context, prompt string, ask provider.PermissionFunc, emit provider.Emit) (*event.TurnResult, error) {
	pr.mu.Lock()
	if !pr.alive {
		pr.mu.Unlock()
		return nil, errClosed
	}
	pr.turns++
	pr.mu.Unlock()
	p := pr.prov
	psid := pr.info.ProviderSessionID
	p.mu.Lock()
	history := slices.Clone(p.conversations[psid])
	p.conversations[psid] = append(p.conversations[psid], prompt)
	p.mu.Unlock()

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	deliver := provider.Deliverer(ctx, emit, cancel)
	answers := []string{"echo: " + prompt}
	text := prompt
	for {
		word, rest, _ := strings.Cut(text, " ")
		name, arg, _ := strings.Cut(word, ":")
		switch name {
		case "wait":
			if err := p.Gate(arg).Wait(ctx); err != nil {
				return &event.TurnResult{Subtype: "error_during_execution", Interrupted: true}, err
			}
		case "blocks":
			n, _ := strconv.Atoi(arg)
			answers = answers[:0]
			for i := range n {
				answers = append(answers, "part "+strconv.Itoa(i+1))
			}
		case "tool":
			pr.tool(ctx, arg, ask, deliver)
		case "crash":
			pr.mu.Lock()
			pr.alive, pr.stderr = false, "crashing on purpose"
			pr.mu.Unlock()
			return nil, fmt.Errorf("%w: exited during the turn: crashing on purpose", provider.ErrSessionDead)
		case "fail":
			return &event.TurnResult{Subtype: "error_during_execution", IsError: true, Result: "failed on purpose", NumTurns: 1, CostUSD: CostPerTurn}, nil
		case "history":
			answers = []string{strings.Join(history, " | ")}
		case "sysprompt":
			answers = []string{"system prompt: |" + pr.opts.SystemPrompt}
		default:
			goto answer
		}
		if rest == "" {
			break
		}
		text = rest
	}
answer:
	for _, a := range answers {
		if err := deliver(event.NewEventWithMeta(event.TypeAnswer, a, nil)); err != nil {
			return &event.TurnResult{Subtype: "error_during_execution", Interrupted: true}, err
		}
	}
	if ctx.Err() != nil {
		return &event.TurnResult{Subtype: "error_during_execution", Interrupted: true}, context.Cause(ctx)
	}
	return &event.TurnResult{
		Subtype: "success", Result: strings.Join(answers, "\n\n"), NumTurns: 1, CostUSD: CostPerTurn,
		Model: pr.info.Model, InputTokens: 10, OutputTokens: 5,
	}, nil
}

// tool asks for the tool and reports its use and result as the decision
// says.
func (pr *Process) tool(ctx context.Context, name string, ask provider.PermissionFunc, deliver func(*event.EventWithMeta) error) {
	id := "toolu_" + strconv.Itoa(pr.info.PID) + "_" + strconv.Itoa(pr.Turns())
	input := map[string]any{"tool": name}
	use := event.NewEventWithMeta(event.TypeToolUse, name, &event.EventMeta{ToolName: name, ToolID: id, Status: "running"})
	use.Input = input
	_ = deliver(use)
	d := ask(ctx, provider.ToolRequest{Kind: provider.CanUseTool, RequestID: "req_" + id, ToolName: name, ToolUseID: id, Input: input})
	res := event.NewEventWithMeta(event.TypeToolResult, "ran "+name, &event.EventMeta{ToolName: name, ToolID: id, Status: "success"})
	if d.Behavior != provider.Allow {
		res = event.NewEventWithMeta(event.TypeToolResult, d.Message, &event.EventMeta{ToolName: name, ToolID: id, Status: "error"})
	}
	_ = deliver(res)
}

// Gate holds turns (or starts) until the test opens it.
type Gate struct {
	mu      sync.Mutex
	arrived int
	changed chan struct{} // closed and replaced at each arrival
	open    chan struct{}
	once    sync.Once
}

// NewGate returns a closed gate.
func NewGate() *Gate {
	return &Gate{changed: make(chan struct{}), open: make(chan struct{})}
}

// Wait counts an arrival and waits until the gate opens or ctx ends.
func (g *Gate) Wait(ctx context.Context) error {
	g.mu.Lock()
	g.arrived++
	close(g.changed)
	g.changed = make(chan struct{})
	g.mu.Unlock()
	select {
	case <-g.open:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// Open lets every waiter (and every later one) through.
func (g *Gate) Open() { g.once.Do(func() { close(g.open) }) }

// Arrived returns how many have come to the gate.
func (g *Gate) Arrived() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.arrived
}

// WaitArrivals waits until n have come to the gate, or ctx ends.
func (g *Gate) WaitArrivals(ctx context.Context, n int) error {
	for {
		g.mu.Lock()
		have, changed := g.arrived, g.changed
		g.mu.Unlock()
		if have >= n {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return errors.Join(fmt.Errorf("fakeprovider: %d arrived at the gate, waiting for %d", have, n), context.Cause(ctx))
		}
	}
}
