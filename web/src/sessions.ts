// The sessions page: a live list with filter and search, a form that
// creates a session, and terminate buttons.

import { api, APIError, type Session } from "./api";
import { h } from "./html";
import { ago, displayStatus, failed, statuses, tokens, usd } from "./format";
import { wrapped } from "./wrap";

const filters = ["all", ...statuses];

export class SessionsView {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private readonly search: HTMLInputElement;
  private readonly statusFilter: HTMLSelectElement;
  private readonly msg: HTMLElement;
  private sessions: Session[] = [];
  private timer = 0;
  private armed = "";

  constructor(private readonly go: (hash: string) => void) {
    this.search = h("input", { type: "search", placeholder: "Search id, title, work dir, provider", "aria-label": "Search sessions", oninput: () => this.draw() });
    this.statusFilter = h("select", { "aria-label": "Filter by status", onchange: () => this.draw() }, ...filters.map((s) => h("option", { value: s }, s)));
    this.list = h("div", { class: "session-list", role: "list", "aria-label": "Sessions" });
    this.msg = h("p", { class: "muted", role: "status" });
    this.el = h(
      "section",
      { class: "sessions", "aria-label": "Sessions" },
      h("header", { class: "page-head" }, h("h1", {}, "Sessions"), h("div", { class: "filters" }, this.search, this.statusFilter)),
      this.createForm(),
      this.msg,
      this.list,
    );
    void this.refresh();
    this.timer = window.setInterval(() => void this.refresh(), 2000);
  }

  destroy(): void {
    clearInterval(this.timer);
  }

  private async refresh(): Promise<void> {
    try {
      this.sessions = await api.sessions();
      this.draw();
    } catch (e) {
      this.msg.textContent = "Cannot list sessions: " + (e instanceof Error ? e.message : String(e));
    }
  }

  private draw(): void {
    const q = this.search.value.trim().toLowerCase();
    const want = this.statusFilter.value;
    const now = Date.now();
    const shown = this.sessions.filter((s) => {
      const st = displayStatus(s.status, failed(s.stats));
      if (want !== "all" && st !== want) return false;
      if (!q) return true;
      return [s.id, s.title ?? "", s.work_dir, s.provider].some((v) => v.toLowerCase().includes(q));
    });
    this.msg.textContent = this.sessions.length === 0 ? "No sessions yet: create one above." : shown.length === 0 ? "No session matches." : "";
    this.list.replaceChildren(
      ...shown.map((s) => {
        const st = displayStatus(s.status, failed(s.stats));
        const name = s.title || s.id;
        const del = h(
          "button",
          {
            type: "button",
            class: "danger small-btn",
            "aria-label": (this.armed === s.id ? "Confirm terminating " : "Terminate ") + name,
            onclick: () => void this.terminate(s.id),
          },
          this.armed === s.id ? "Confirm" : "Terminate",
        );
        return h(
          "div",
          { class: "session-row", role: "listitem", "data-id": s.id, "data-status": st },
          h("span", { class: "status", "data-status": st }, st),
          h("a", { class: "session-name", href: "#/s/" + encodeURIComponent(s.id) }, wrapped(name)),
          h("span", { class: "cell", title: "Provider" }, s.provider),
          h("span", { class: "cell workdir", title: s.work_dir }, s.work_dir),
          h("span", { class: "cell", title: "Age" }, "age " + ago(s.created_at, now)),
          h("span", { class: "cell", title: "Last activity" }, "active " + ago(s.updated_at, now) + " ago"),
          h("span", { class: "cell", title: "Tokens" }, tokens(s.stats?.total_tokens) + " tok"),
          h("span", { class: "cell", title: "Cost" }, usd(s.stats?.total_cost_usd)),
          del,
        );
      }),
    );
  }

  private async terminate(id: string): Promise<void> {
    if (this.armed !== id) {
      this.armed = id;
      this.draw();
      return;
    }
    this.armed = "";
    try {
      await api.deleteSession(id);
    } catch (e) {
      this.msg.textContent = "Cannot terminate: " + (e instanceof Error ? e.message : String(e));
    }
    await this.refresh();
  }

  private createForm(): HTMLElement {
    const provider = h("select", { id: "new-provider", name: "provider" });
    const id = h("input", { id: "new-id", name: "id", placeholder: "optional" });
    const workDir = h("input", { id: "new-workdir", name: "work_dir", placeholder: "default: <root>/<id>" });
    const repo = h("input", { id: "new-repo", name: "repo", placeholder: "optional: a git repository in your tree" });
    const instructions = h("textarea", { id: "new-instructions", name: "task_instructions", rows: 2, placeholder: "optional" });
    const approval = h("select", { id: "new-approval", name: "approval" }, h("option", { value: "auto" }, "automatic (firewall and policy)"), h("option", { value: "ask" }, "ask me for every tool use"));
    const err = h("p", { class: "form-error", role: "alert" });
    void api
      .providers()
      .then((ps) => provider.replaceChildren(...ps.map((p) => h("option", { value: p }, p))))
      .catch(() => provider.replaceChildren(h("option", { value: "" }, "default")));
    const field = (label: string, control: HTMLElement) => h("label", { class: "field" }, h("span", {}, label), control);
    const form = h(
      "form",
      {
        class: "create",
        "aria-label": "Create a session",
        onsubmit: ((e: Event) => {
          e.preventDefault();
          err.textContent = "";
          api
            .createSession({
              id: id.value.trim() || undefined,
              provider: provider.value || undefined,
              work_dir: workDir.value.trim() || undefined,
              // A repository gives the session a worktree of its own.
              repo: repo.value.trim() || undefined,
              worktree: repo.value.trim() ? true : undefined,
              task_instructions: instructions.value.trim() || undefined,
              approval: approval.value,
            })
            .then((s) => this.go("#/s/" + encodeURIComponent(s.id)))
            .catch((e: unknown) => {
              err.textContent = e instanceof APIError ? e.message : String(e);
            });
        }) as EventListener,
      },
      field("Session ID", id),
      field("Provider", provider),
      field("Work directory", workDir),
      field("Own worktree of", repo),
      field("Approval", approval),
      field("Task instructions", instructions),
      h("div", { class: "form-actions" }, h("button", { type: "submit", class: "primary", id: "create-session" }, "Create session")),
      err,
    );
    return h("details", { class: "create-box" }, h("summary", {}, "New session"), form);
  }
}
