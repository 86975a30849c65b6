package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/internal/claudecli"
	"github.com/hotplex/hotplex/internal/jsonl"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
)

var _ provider.Prewarmer = (*Provider)(nil)

// Prewarm starts a parked spare: the CLI with --await-claim in the neutral
// directory opts.WorkDir, initialized and waiting for claim_session to bind
// it to a conversation's work directory. Nothing that belongs to one
// conversation (its ID, work directory, task instructions) is fixed yet.
func (p *Provider) Prewarm(ctx context.Context, o provider.StartOptions) (provider.Spare, error) {
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	o.ProviderSessionID, o.SystemPrompt = "", ""
	env := childEnv(o)
	argv := append(args(o, false, p.opts.PartialMessages), "--await-claim")
	argv = append(argv, p.opts.ExtraArgs...)
	cp, err := proc.Start(proc.Spec{
		Path: p.opts.Path, Args: argv, Dir: o.WorkDir, Env: env,
		Marker: uuid.NewString(), CgroupRoot: o.CgroupRoot,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", provider.ErrStartFailed, p.opts.Path, err)
	}
	c := newProcess(cp, &p.opts, log.With("pid", cp.PID(), "spare", true), "")
	if err := c.initialize(ctx); err != nil {
		closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if cerr := c.Close(closeCtx); cerr != nil && !errors.Is(cerr, context.DeadlineExceeded) {
			c.log.Debug("closing a failed spare", "err", cerr)
		}
		return nil, err
	}
	return &spare{c: c, env: env}, nil
}

// spare is a parked CLI process.
type spare struct {
	c   *process
	env []string
}

func (s *spare) PID() int                        { return s.c.cp.PID() }
func (s *spare) Alive() bool                     { return s.c.Alive() }
func (s *spare) Close(ctx context.Context) error { return s.c.Close(ctx) }

// Claim binds the spare to a new conversation. A conversation the CLI
// already keeps on disk is not claimable: it must be resumed by a start
// with --resume, which a spare cannot do; nor is one with MCP servers of
// its own, which --mcp-config gives at the start. One only believed to exist
// (Resume) but missing from disk would start afresh anyway, so a spare
// serves it.
func (s *spare) Claim(ctx context.Context, o provider.StartOptions) (provider.Process, error) {
	if len(o.MCPServers) > 0 {
		return nil, fmt.Errorf("%w: the CLI takes MCP servers only when it starts", provider.ErrNotClaimable)
	}
	if o.ProviderSessionID != "" {
		tp := claudecli.TranscriptPath(s.env, o.WorkDir, o.ProviderSessionID)
		if tp == "" && o.Resume {
			return nil, fmt.Errorf("%w: the conversation is to be resumed and its transcript cannot be looked for", provider.ErrNotClaimable)
		}
		if tp != "" {
			if _, err := os.Stat(tp); err == nil {
				return nil, fmt.Errorf("%w: conversation %s exists in this work directory", provider.ErrNotClaimable, o.ProviderSessionID)
			}
		}
	}
	body := map[string]any{"cwd": o.WorkDir}
	if o.SystemPrompt != "" {
		body["append_system_prompt"] = o.SystemPrompt
	}
	raw, err := s.c.control(ctx, "claim_session", body)
	if err != nil {
		return nil, err
	}
	var resp struct {
		SessionID string `json:"session_id"`
		ParkedMs  int64  `json:"parked_ms"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil || resp.SessionID == "" {
		return nil, fmt.Errorf("%w: claim_session answered without a session ID: %s", provider.ErrStartFailed, raw)
	}
	s.c.infoMu.Lock()
	s.c.info.ProviderSessionID = resp.SessionID
	s.c.infoMu.Unlock()
	s.c.log = s.c.log.With("session", o.SessionID, "provider_session_id", resp.SessionID)
	s.c.log.Debug("spare claimed", "parked_ms", resp.ParkedMs)
	return s.c, nil
}

// control sends a control request outside a turn and returns the body of
// its success response.
func (c *process) control(ctx context.Context, subtype string, body map[string]any) (json.RawMessage, error) {
	c.readMu.Lock()
	defer c.readMu.Unlock()
	if err := c.dropStale(); err != nil {
		return nil, err
	}
	id, err := c.request(subtype, body)
	if err != nil {
		return nil, c.startErr(err)
	}
	unwatch := c.watch(ctx)
	defer unwatch()
	for {
		line, err := c.next()
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			if ctx.Err() != nil {
				return nil, context.Cause(ctx)
			}
			continue
		case errors.Is(err, jsonl.ErrLineTooLong):
			continue
		case err != nil:
			return nil, c.startErr(fmt.Errorf("exited before answering %s", subtype))
		}
		m := parse(line)
		if m.Type != "control_response" || m.Response == nil || m.Response.RequestID != id {
			continue
		}
		if m.Response.Subtype == "error" {
			return nil, fmt.Errorf("%w: %s refused: %s", provider.ErrStartFailed, subtype, m.Response.Error)
		}
		return m.Response.Response, nil
	}
}
