// The conversation view: a session's events, replayed from its first and
// then followed live, rendered as prompts, answers, tool cards, firewall
// blocks and permission requests.
//
// Events come from one place only, the session's follow stream
// (GET /v1/sessions/{id}/events). It is resumed after a disconnect with
// Last-Event-ID set to the newest event rendered, and events at or below
// that number are dropped, so nothing is lost or shown twice. The stream
// a turn's POST answers with carries the same events and is read only for
// the turn's own notices (turn_error).
//
// Rendering is batched per animation frame into a fragment, and blocks
// off screen skip layout (content-visibility), so a long transcript
// appears at once.

import { api, APIError, type AgentEvent, type Session, type SessionStats } from "./api";
import { append, h, html } from "./html";
import { renderMarkdown } from "./markdown";
import { renderStats, type TurnPoint } from "./stats";
import { displayStatus, ms, tokens, usd } from "./format";
import type { SSEMessage } from "./sse";
import { wrapped } from "./wrap";
import { ChangesView } from "./changes";
import { browserHost, canAsk, notify } from "./notify";
import { settledText, type Settled } from "./permission";

interface ToolCard {
  el: HTMLDetailsElement;
  status: HTMLElement;
  duration: HTMLElement;
  body: HTMLElement;
}

interface PermissionCard {
  el: HTMLElement;
  state: HTMLElement;
  buttons: HTMLElement;
  decided: boolean;
}

export class ConversationView {
  readonly el: HTMLElement;
  private readonly log: HTMLElement;
  private readonly statsEl: HTMLElement;
  private readonly statusEl: HTMLElement;
  private readonly connEl: HTMLElement;
  private readonly banner: HTMLElement;
  private readonly emptyHint: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly interruptBtn: HTMLButtonElement;
  private readonly steerBtn: HTMLButtonElement;
  private readonly sendBtn: HTMLButtonElement;

  private readonly abort = new AbortController();
  private lastSeq = 0;
  private targetSeq = 0;
  private replayed = false;
  private running = false;
  private queue: AgentEvent[] = [];
  private frame = 0;
  private tools = new Map<string, ToolCard>();
  private permissions = new Map<string, PermissionCard>();
  private answer: { el: HTMLElement; text: string; delta: boolean } | null = null;
  private dirtyAnswer = false;
  private stats: SessionStats | undefined;
  private turns: TurnPoint[] = [];
  private statsDirty = false;
  private closed = false;
  private readonly changes: ChangesView;
  private readonly convPanel: HTMLElement;
  private readonly tabs: HTMLButtonElement[];

  constructor(private readonly session: Session) {
    this.stats = session.stats;
    this.targetSeq = session.last_event_id;
    this.log = h("div", { class: "log", role: "log", "aria-label": "Conversation", "aria-live": "polite", tabindex: 0 });
    this.statsEl = h("aside", { class: "stats", "aria-label": "Session statistics" });
    this.statusEl = h("span", { class: "status", "data-status": displayStatus(session.status) }, displayStatus(session.status));
    this.connEl = h("span", { class: "conn muted", "aria-live": "polite" }, "connecting…");
    this.banner = h("div", { class: "banner", role: "status", hidden: true });
    this.emptyHint = h(
      "div",
      { class: "empty-hint" },
      h("p", {}, h("strong", {}, "No messages yet.")),
      h("p", {}, "Write a prompt in the box below and press Enter to start a turn (Shift+Enter for a new line, Esc interrupts)."),
      h("p", { class: "muted" }, "The agent (" + session.provider + ") works in ", wrapped(session.work_dir), ". Its answers, tool calls and permission requests appear here."),
    );
    this.input = h("textarea", {
      id: "prompt",
      rows: 2,
      placeholder: "Ask the agent… (Enter sends, queued while a turn runs; Ctrl+Enter steers the running turn; Shift+Enter for a new line, Esc interrupts)",
      "aria-label": "Prompt",
      onkeydown: ((e: KeyboardEvent) => this.onKey(e)) as EventListener,
    });
    this.sendBtn = h("button", { type: "submit", class: "primary", "aria-label": "Send prompt" }, "Send");
    this.interruptBtn = h(
      "button",
      { type: "button", class: "danger", "aria-label": "Interrupt the running turn", hidden: true, onclick: () => void this.interrupt() },
      "Interrupt",
    );
    this.steerBtn = h(
      "button",
      { type: "button", "aria-label": "Steer the running turn with this prompt", hidden: true, onclick: () => void this.send("steer") },
      "Steer",
    );
    const form = h(
      "form",
      {
        class: "composer",
        onsubmit: ((e: Event) => {
          e.preventDefault();
          void this.send();
        }) as EventListener,
      },
      this.input,
      h("div", { class: "composer-actions" }, this.interruptBtn, this.steerBtn, this.sendBtn),
    );
    this.changes = new ChangesView(session.id);
    this.changes.el.hidden = true;
    this.convPanel = h("div", { class: "conv-panel", role: "tabpanel", "aria-label": "Conversation" }, this.banner, this.log, form);
    const tab = (label: string, changes: boolean) =>
      h("button", { type: "button", role: "tab", class: "tab", "aria-selected": changes ? "false" : "true", onclick: () => this.showTab(changes) }, label);
    this.tabs = [tab("Conversation", false), tab("Changes", true)];
    const title = session.title || session.id;
    this.el = h(
      "section",
      { class: "conversation", "aria-label": "Session " + title },
      h(
        "header",
        { class: "conv-head" },
        h("a", { href: "#/sessions", class: "back", "aria-label": "Back to sessions" }, "←"),
        h("h1", {}, wrapped(title)),
        this.statusEl,
        h("span", { class: "muted small" }, session.provider + " · ", wrapped(session.work_dir)),
        this.connEl,
        notifyButton(),
      ),
      h(
        "div",
        { class: "conv-body" },
        h("div", { class: "conv-main" }, h("div", { class: "tabs", role: "tablist", "aria-label": "Session views" }, ...this.tabs), this.convPanel, this.changes.el),
        this.statsEl,
      ),
    );
    renderStats(this.statsEl, this.stats, this.turns, this.openChanges);
    document.addEventListener("keydown", this.onGlobalKey);
    if (this.targetSeq === 0) this.markReplayed();
    void this.followLoop();
  }

  destroy(): void {
    this.closed = true;
    this.abort.abort();
    cancelAnimationFrame(this.frame);
    document.removeEventListener("keydown", this.onGlobalKey);
  }

  focus(): void {
    this.input.focus();
  }

  private openChanges = () => this.showTab(true);

  // showTab shows the conversation or the Changes tab, whose diff is
  // read afresh each time it is shown.
  private showTab(changes: boolean): void {
    this.tabs[0].setAttribute("aria-selected", String(!changes));
    this.tabs[1].setAttribute("aria-selected", String(changes));
    this.convPanel.hidden = changes;
    this.changes.el.hidden = !changes;
    if (changes) void this.changes.refresh();
  }

  private onGlobalKey = (e: KeyboardEvent) => {
    if (e.key === "Escape" && this.running) {
      e.preventDefault();
      void this.interrupt();
    }
  };

  private onKey(e: KeyboardEvent): void {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void this.send(e.ctrlKey || e.metaKey ? "steer" : "queue");
    }
  }

  private async followLoop(): Promise<void> {
    let backoff = 250;
    while (!this.closed) {
      try {
        this.setConn("live");
        await api.follow(this.session.id, this.lastSeq, this.abort.signal, (m) => this.onMessage(m));
        backoff = 250;
      } catch (e) {
        if (this.closed) return;
        if (e instanceof APIError && e.status === 404) {
          this.showBanner("This session no longer exists.");
          this.setConn("gone");
          return;
        }
      }
      if (this.closed) return;
      this.setConn("reconnecting…");
      await new Promise((r) => setTimeout(r, backoff));
      backoff = Math.min(backoff * 2, 5000);
    }
  }

  private setConn(text: string): void {
    this.connEl.textContent = text;
    this.connEl.dataset.state = text.replace(/…/, "");
  }

  private onMessage(m: SSEMessage): void {
    if (!m.id) {
      if (m.event === "resync") this.showBanner("Some older events are no longer stored; the conversation above has a gap.");
      if (m.event === "permission_pending") this.pendingAgain(m.data);
      return;
    }
    const seq = Number(m.id);
    if (!Number.isFinite(seq) || seq <= this.lastSeq) return;
    this.lastSeq = seq;
    let ev: AgentEvent;
    try {
      ev = JSON.parse(m.data) as AgentEvent;
    } catch {
      return;
    }
    ev.seq = seq;
    // Live events only (history ends at targetSeq), and here rather than
    // when rendering: a hidden tab gets no animation frames.
    if (seq > this.targetSeq) {
      const id = this.session.id;
      void notify(browserHost, ev, this.session.title || id, (req) => api.pendingPermissions(id).then((ps) => ps.some((p) => p.request_id === req)));
    }
    this.queue.push(ev);
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
  }

  private flush(): void {
    this.frame = 0;
    const batch = this.queue;
    this.queue = [];
    const stick = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 80;
    const frag = document.createDocumentFragment();
    if (batch.length > 0) this.emptyHint.remove();
    for (const ev of batch) this.render(ev, frag);
    this.log.appendChild(frag);
    if (this.dirtyAnswer && this.answer) {
      this.answer.el.innerHTML = renderMarkdown(this.answer.text);
      this.dirtyAnswer = false;
    }
    if (this.statsDirty) {
      renderStats(this.statsEl, this.stats, this.turns, this.openChanges);
      this.statsDirty = false;
    }
    this.setRunning(this.running);
    if (stick || !this.replayed) this.log.scrollTop = this.log.scrollHeight;
    if (!this.replayed && this.lastSeq >= this.targetSeq) this.markReplayed();
  }

  private markReplayed(): void {
    this.replayed = true;
    this.log.dataset.replayed = "true";
    if (this.lastSeq === 0) this.log.append(this.emptyHint);
    performance.mark("hotplex:replayed");
    // Blocks laid out late (content-visibility) change the height: settle
    // at the bottom once more.
    requestAnimationFrame(() => (this.log.scrollTop = this.log.scrollHeight));
  }

  private setRunning(running: boolean): void {
    this.running = running;
    this.interruptBtn.hidden = !running;
    this.steerBtn.hidden = !running;
    const st = running ? "running" : this.lastSeq > 0 ? "idle" : displayStatus(this.session.status);
    this.statusEl.textContent = st;
    this.statusEl.dataset.status = st;
  }

  private render(ev: AgentEvent, out: Node): void {
    const meta = ev.meta;
    switch (ev.event_type) {
      case "session_start": {
        this.running = true;
        this.answer = null;
        if (ev.prompt) {
          append(out, item("user", "You", html("div", "md", renderMarkdown(ev.prompt))));
        }
        const how = ev.cold_start ? `cold start (${ms(ev.startup_ms)})${ev.resumed ? ", resumed" : ""}` : "warm";
        append(out, h("div", { class: "turn-start muted small" }, `Turn · ${how}${ev.fallback ? " · " + ev.fallback : ""}`));
        break;
      }
      case "thinking":
        append(out, h("details", { class: "item thinking" }, h("summary", {}, "Thinking"), h("div", { class: "pre" }, ev.event_data)));
        break;
      case "answer": {
        const delta = meta?.status === "delta";
        if (delta && this.answer?.delta) {
          this.answer.text += ev.event_data;
          this.dirtyAnswer = true;
          break;
        }
        if (!delta && this.answer?.delta && ev.event_data.startsWith(this.answer.text)) {
          // The whole block after its deltas: it replaces them.
          this.answer.text = ev.event_data;
          this.answer.delta = false;
          this.dirtyAnswer = true;
          break;
        }
        const body = html("div", "md", renderMarkdown(ev.event_data));
        this.answer = { el: body, text: ev.event_data, delta };
        append(out, item("agent", "Agent", body));
        break;
      }
      case "tool_use":
        this.answer = null;
        append(out, this.toolCard(meta?.tool_id || "seq" + ev.seq, meta?.tool_name || "tool", meta?.input_summary || "", ev.input).el);
        break;
      case "tool_result": {
        let card = this.tools.get(meta?.tool_id || "");
        if (!card) {
          card = this.toolCard(meta?.tool_id || "seq" + ev.seq, meta?.tool_name || "tool", "", undefined);
          append(out, card.el);
        }
        const ok = meta?.status !== "error";
        card.el.dataset.status = ok ? "success" : "error";
        card.status.textContent = ok ? "✓ success" : "✗ error";
        card.status.className = "tool-status " + (ok ? "ok" : "err");
        card.duration.textContent = meta?.duration_ms ? ms(meta.duration_ms) : "";
        append(card.body, h("div", { class: "label" }, "Output"), h("pre", { class: "tool-output" }, ev.event_data || meta?.output_summary || "(no output)"));
        break;
      }
      case "permission_request": {
        // The question comes before the tool it is about, which the agent
        // announced first.
        const card = this.permissionCard(ev);
        const tool = this.tools.get(ev.permission?.tool_use_id || meta?.tool_id || "");
        if (tool?.el.parentNode) tool.el.before(card);
        else append(out, card);
        break;
      }
      case "permission_decision": {
        const card = this.permissions.get(ev.permission?.request_id || "");
        if (card && ev.permission) this.decide(card, ev.permission);
        break;
      }
      case "danger_block":
      case "danger_bypass":
        this.answer = null;
        append(out, dangerCard(ev));
        break;
      case "prompt_steered":
        this.answer = null;
        append(out, item("user", "You, steering this turn", html("div", "md", renderMarkdown(ev.event_data))));
        break;
      case "prompt_queued":
        append(
          out,
          h("div", { class: "turn-start muted small", "data-queued": ev.queue?.id ?? "" }, `Queued as turn ${ev.queue?.position ?? "?"} after this one: ${ev.event_data}`),
        );
        break;
      case "error":
        append(out, h("div", { class: "item error-card", role: "alert" }, h("strong", {}, "Error: "), ev.event_data || meta?.error_msg || "unknown error"));
        break;
      case "session_stats":
        if (ev.stats) {
          this.stats = ev.stats;
          this.statsDirty = true;
        }
        break;
      case "result": {
        this.running = false;
        this.answer = null;
        const t = ev.turn;
        if (ev.stats) this.stats = ev.stats;
        const latency = meta?.duration_ms || t?.duration_ms || 0;
        this.turns.push({ latencyMs: latency, costUSD: t?.total_cost_usd ?? 0, interrupted: !!t?.interrupted });
        // What the turn changed shows in the Changes tab when it is open.
        if (!this.changes.el.hidden) void this.changes.refresh();
        this.statsDirty = true;
        for (const card of this.permissions.values()) if (!card.decided) this.decide(card, { decision: "deny", by: "turn_ended" });
        for (const card of this.tools.values()) {
          if (card.el.dataset.status !== "running") continue;
          // The turn ended before the tool reported back.
          card.el.dataset.status = "stopped";
          card.status.textContent = t?.interrupted ? "■ interrupted" : "■ no result";
          card.status.className = "tool-status err";
        }
        const parts = [t?.interrupted ? "Interrupted" : t?.is_error ? "Turn failed" : "Turn finished", "in " + ms(latency)];
        if (t) parts.push(usd(t.total_cost_usd), tokens(t.input_tokens) + " in / " + tokens(t.output_tokens) + " out");
        append(
          out,
          h("div", { class: "turn-end small" + (t?.interrupted ? " interrupted" : "") + (t?.is_error && !t.interrupted ? " failed" : ""), "data-interrupted": t?.interrupted ? "true" : undefined }, parts.join(" · ")),
        );
        break;
      }
    }
  }

  private toolCard(id: string, name: string, summary: string, input: Record<string, unknown> | undefined): ToolCard {
    const status = h("span", { class: "tool-status run" }, "… running");
    const duration = h("span", { class: "tool-duration muted" });
    const body = h("div", { class: "tool-body" });
    if (input && Object.keys(input).length > 0) {
      append(body, h("div", { class: "label" }, "Input"), h("pre", { class: "tool-input" }, JSON.stringify(input, null, 2)));
    }
    const el = h(
      "details",
      { class: "item tool", "data-tool": name, "data-status": "running" },
      h("summary", { "aria-label": `Tool call ${name}: ${summary}` }, h("span", { class: "tool-name" }, name), h("span", { class: "tool-summary" }, summary), status, duration),
      body,
    );
    const card = { el, status, duration, body };
    this.tools.set(id, card);
    return card;
  }

  private permissionCard(ev: AgentEvent): HTMLElement {
    const p = ev.permission;
    const id = p?.request_id || "";
    const tool = p?.tool_name || ev.meta?.tool_name || "a tool";
    const summary = ev.meta?.input_summary || (ev.input ? JSON.stringify(ev.input) : "");
    const state = h("span", { class: "perm-state" }, "Waiting for your decision");
    const buttons = h("div", { class: "perm-buttons" });
    const el = h(
      "div",
      { class: "item permission", role: "group", "aria-label": "Permission request for " + tool, "data-request": id },
      h("div", {}, h("strong", {}, "Permission: "), "the agent wants to use ", h("code", {}, tool)),
      summary ? h("pre", { class: "tool-input" }, summary) : null,
      buttons,
      state,
    );
    const card: PermissionCard = { el, state, buttons, decided: false };
    const answer = async (decision: "allow" | "deny") => {
      for (const b of buttons.querySelectorAll("button")) b.disabled = true;
      try {
        await api.answerPermission(this.session.id, id, decision);
        state.textContent = decision === "allow" ? "Allowed" : "Denied";
      } catch (e) {
        if (e instanceof APIError && e.code === "already_answered") {
          // Another client came first; its permission_decision closes the card.
          state.textContent = "Answered already: " + e.message;
          return;
        }
        state.textContent = e instanceof APIError && e.status === 404 ? "No longer waiting" : "Could not answer: " + String(e);
        for (const b of buttons.querySelectorAll("button")) b.disabled = false;
      }
    };
    append(
      buttons,
      h("button", { type: "button", class: "primary", "aria-label": "Allow " + tool, onclick: () => void answer("allow") }, "Allow"),
      h("button", { type: "button", class: "danger", "aria-label": "Deny " + tool, onclick: () => void answer("deny") }, "Deny"),
    );
    if (id) this.permissions.set(id, card);
    return el;
  }

  // decide closes a card, whichever client (this one, another, or the
  // timeout) settled its request.
  private decide(card: PermissionCard, p: Settled): void {
    card.decided = true;
    card.buttons.remove();
    card.el.querySelector(".tool-input")?.remove(); // the tool card shows it
    card.el.dataset.decision = p.decision === "allow" ? "allow" : "deny";
    card.state.textContent = settledText(p);
  }

  // pendingAgain shows a request still waiting for a person that the
  // stream re-sent (permission_pending) when its event was not replayed.
  private pendingAgain(data: string): void {
    let p: { request_id: string; tool_name: string; tool_use_id?: string; input?: Record<string, unknown>; since?: string };
    try {
      p = JSON.parse(data);
    } catch {
      return;
    }
    if (!p.request_id || this.permissions.has(p.request_id)) return;
    this.queue.push({
      event_type: "permission_request", event_data: p.tool_name, meta: null, seq: this.lastSeq, time: p.since || "",
      input: p.input, permission: { request_id: p.request_id, tool_name: p.tool_name, tool_use_id: p.tool_use_id },
    } as AgentEvent);
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
  }

  private async send(mode: "queue" | "steer" = "queue"): Promise<void> {
    const prompt = this.input.value.trim();
    if (!prompt) return;
    this.input.value = "";
    this.hideBanner();
    try {
      await api.send(this.session.id, prompt, mode, (n) => {
        if (n.event === "queued" && mode === "steer") {
          try {
            const d = JSON.parse(n.data) as { steer_fallback?: string };
            if (d.steer_fallback) this.showBanner("Not steered (" + d.steer_fallback + "): queued as the next turn.");
          } catch {
            // the event itself shows the prompt queued
          }
        }
        if (n.event === "turn_error") {
          try {
            const d = JSON.parse(n.data) as { error: string; message: string };
            if (d.error !== "interrupted") this.showBanner("The turn failed: " + d.message);
          } catch {
            this.showBanner("The turn failed.");
          }
        }
      });
    } catch (e) {
      if (this.closed) return;
      this.showBanner("Could not send: " + (e instanceof Error ? e.message : String(e)));
      if (!this.input.value) this.input.value = prompt;
    }
  }

  private async interrupt(): Promise<void> {
    try {
      await api.interrupt(this.session.id);
    } catch (e) {
      this.showBanner("Could not interrupt: " + (e instanceof Error ? e.message : String(e)));
    }
  }

  private showBanner(text: string): void {
    this.banner.textContent = text;
    this.banner.hidden = false;
  }

  private hideBanner(): void {
    this.banner.hidden = true;
  }
}

function item(kind: "user" | "agent", who: string, body: HTMLElement): HTMLElement {
  return h("article", { class: "item msg " + kind, "aria-label": who }, h("div", { class: "who" }, who), body);
}

function dangerCard(ev: AgentEvent): HTMLElement {
  const d = ev.danger;
  const bypass = ev.event_type === "danger_bypass";
  const title = bypass ? "Allowed by an admin bypass" : "Blocked by the firewall";
  return h(
    "div",
    { class: "item danger-card" + (bypass ? " bypass" : ""), role: "alert", "data-category": d?.category || "", "data-level": d?.level || "" },
    h("div", { class: "danger-title" }, h("strong", {}, title), " ", h("span", { class: "pill" }, d?.level || "?"), " ", h("span", { class: "pill" }, d?.category || "?")),
    h("p", { class: "danger-reason" }, d?.reason || ev.event_data),
    d?.operation ? h("pre", { class: "danger-op" }, d.operation) : null,
    d?.suggestions && d.suggestions.length > 0
      ? h("div", {}, h("div", { class: "label" }, "Instead"), h("ul", {}, ...d.suggestions.map((s) => h("li", {}, s))))
      : null,
  );
}

// notifyButton asks the browser for leave to notify, while it may still
// be asked: a page must ask from a click.
function notifyButton(): HTMLElement | string {
  if (!canAsk()) return "";
  const btn = h(
    "button",
    {
      type: "button",
      class: "link small notify-me",
      title: "Be told when this session needs you or finishes a turn while the tab is hidden",
      onclick: () => void Notification.requestPermission().then(() => (btn.hidden = !canAsk())),
    },
    "Notify me",
  );
  return btn;
}
