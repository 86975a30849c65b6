package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hotplex/hotplex/internal/jsonl"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
)

// process is one running CLI.
//
// It has no reader goroutine of its own: whoever holds readMu reads stdout
// directly — the start-up handshake, then each turn on its caller's
// goroutine. A dedicated reader handing frames to the turn cost about 15µs
// of scheduling per frame, which was most of HotPlex's overhead on a warm
// turn, and a goroutine stack per idle session. Between turns nothing
// reads: output that arrives then is stale (the tail of a turn whose caller
// gave up, a background task's notice) and the next turn drops it first.
// Reads are unblocked for cancellation with a read deadline.
type process struct {
	cp     *proc.Process
	stdout *os.File
	cfg    *Options
	log    *slog.Logger
	reqSeq atomic.Int64

	info   provider.Info
	infoMu sync.Mutex

	writeMu sync.Mutex

	// readMu is held by whoever reads stdout: initialize, or a turn. It
	// also keeps turns one at a time.
	readMu sync.Mutex
	out    *jsonl.Reader
	dec    *decoder
	// eof is set once stdout has ended: the process is gone.
	eof atomic.Bool

	// cancelTurn ends the wait of the turn in progress (nil between
	// turns), so that Close can interrupt a turn blocked on a permission
	// question.
	cancelMu   sync.Mutex
	cancelTurn context.CancelCauseFunc
}

func newProcess(cp *proc.Process, cfg *Options, log *slog.Logger, providerSessionID string) *process {
	return &process{
		cp: cp, stdout: cp.Stdout(), cfg: cfg, log: log,
		info: provider.Info{PID: cp.PID(), ProviderSessionID: providerSessionID},
		out:  jsonl.NewReader(cp.Stdout(), cfg.maxLine()),
		dec:  newDecoder(time.Now),
	}
}

func (c *process) Info() provider.Info {
	c.infoMu.Lock()
	defer c.infoMu.Unlock()
	return c.info
}

func (c *process) Alive() bool {
	return !c.eof.Load() && !c.cp.Ending()
}

func (c *process) StderrTail() string { return c.cp.StderrTail() }

func (c *process) noteModel(model string) {
	if model == "" {
		return
	}
	c.infoMu.Lock()
	c.info.Model = model
	c.infoMu.Unlock()
}

// past is a read deadline that has always passed.
var past = time.Unix(1, 0)

// watch makes reads return os.ErrDeadlineExceeded once ctx ends. The
// returned function undoes it, waiting for a deadline being set at that
// moment, so that none leaks into the next reader's reads.
func (c *process) watch(ctx context.Context) (unwatch func()) {
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(fired)
		_ = c.stdout.SetReadDeadline(past)
	})
	return func() {
		if !stop() {
			<-fired
		}
		_ = c.stdout.SetReadDeadline(time.Time{})
	}
}

// next reads the next line. A read deadline surfaces as
// os.ErrDeadlineExceeded; the end of output as io.EOF (and eof is set).
func (c *process) next() ([]byte, error) {
	line, err := c.out.Next()
	if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) && !errors.Is(err, jsonl.ErrLineTooLong) {
		c.eof.Store(true)
	}
	return line, err
}

func (c *process) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode frame: %w", err)
	}
	b = append(b, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := c.cp.Stdin().Write(b); err != nil {
		return fmt.Errorf("write to agent stdin: %w", err)
	}
	return nil
}

// request sends a control request and returns its ID.
func (c *process) request(subtype string, body map[string]any) (string, error) {
	id := "hotplex-" + subtype + "-" + strconv.FormatInt(c.reqSeq.Add(1), 10)
	req := map[string]any{"subtype": subtype}
	for k, v := range body {
		req[k] = v
	}
	return id, c.write(map[string]any{"type": "control_request", "request_id": id, "request": req})
}

func (c *process) respond(requestID string, response any) error {
	return c.write(map[string]any{"type": "control_response", "response": map[string]any{
		"subtype": "success", "request_id": requestID, "response": response,
	}})
}

const preToolUseHook = "hotplex_pre_tool_use"

// initialize performs the control handshake. Its answer is the CLI's
// ready signal: system/init only follows the first prompt.
func (c *process) initialize(ctx context.Context) error {
	ctx, cancel := context.WithTimeoutCause(ctx, c.cfg.Start(), fmt.Errorf("no answer to initialize within %s", c.cfg.Start()))
	defer cancel()
	c.readMu.Lock()
	defer c.readMu.Unlock()
	id, err := c.request("initialize", map[string]any{
		// A PreToolUse hook for every tool: the CLI asks can_use_tool only
		// for tools its own rules do not allow, so read-only commands would
		// otherwise run unseen. The hook shows us each one before it runs.
		"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "", "hookCallbackIds": []string{preToolUseHook}}}},
	})
	if err != nil {
		return c.startErr(err)
	}
	unwatch := c.watch(ctx)
	defer unwatch()
	for {
		line, err := c.next()
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			continue
		case errors.Is(err, jsonl.ErrLineTooLong):
			continue
		case err != nil:
			return c.startErr(errors.New("exited before it was ready"))
		}
		m := parse(line)
		if m.Type != "control_response" || m.Response == nil || m.Response.RequestID != id {
			continue // nothing else is expected before the handshake
		}
		if m.Response.Subtype == "error" {
			return fmt.Errorf("%w: initialize refused: %s", provider.ErrStartFailed, m.Response.Error)
		}
		return nil
	}
}

func (c *process) startErr(err error) error {
	return fmt.Errorf("%w: %s", provider.ErrStartFailed, c.cp.Explain(err.Error(), 2*time.Second))
}

// deadErr describes a process that stopped answering.
func (c *process) deadErr(what string) error {
	return fmt.Errorf("%w: %s", provider.ErrSessionDead, c.cp.Explain(what, 2*time.Second))
}

var errProcessClosed = fmt.Errorf("%w: the session was terminated", provider.ErrSessionDead)

// Close ends the process tree: stdin EOF, grace, SIGTERM, grace, SIGKILL.
func (c *process) Close(ctx context.Context) error {
	// From here on the process takes no new turn.
	c.cp.Retire()
	// A turn may be waiting on a permission question; end its wait so it
	// can see the end of output.
	c.cancelMu.Lock()
	if c.cancelTurn != nil {
		c.cancelTurn(errProcessClosed)
	}
	c.cancelMu.Unlock()
	err := c.cp.Terminate(ctx, c.cfg.Terminate())
	// The tree is gone, so stdout is at EOF unless something escaped with
	// the pipe; closing our end makes sure a reader ends either way.
	_ = c.stdout.Close()
	c.eof.Store(true)
	return err
}
