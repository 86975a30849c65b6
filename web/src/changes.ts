// The Changes tab: the files a session changed (GET /v1/sessions/{id}/diff)
// and each file's diff, unified or side by side. It is refreshed after each
// turn by the conversation view.

import { api, type SessionChanges, type FileChange } from "./api";
import { h } from "./html";
import { splitRows, unifiedRows } from "./diff";
import { wrapped } from "./wrap";

type Layout = "unified" | "split";

export class ChangesView {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private readonly detail: HTMLElement;
  private readonly summary: HTMLElement;
  private changes: SessionChanges | null = null;
  private selected = "";
  private layout: Layout = "unified";
  private loading: Promise<void> | null = null;

  constructor(private readonly sessionID: string) {
    this.summary = h("p", { class: "muted small changes-summary", "aria-live": "polite" }, "Loading changes…");
    this.list = h("ul", { class: "plain file-list", role: "listbox", "aria-label": "Changed files" });
    this.detail = h("div", { class: "file-diff" });
    const layoutBtn = (layout: Layout, label: string) =>
      h(
        "button",
        {
          type: "button",
          class: "link layout-" + layout,
          "aria-pressed": layout === this.layout ? "true" : "false",
          onclick: () => {
            this.layout = layout;
            for (const b of this.el.querySelectorAll<HTMLButtonElement>(".layout-toggle button")) b.setAttribute("aria-pressed", String(b.classList.contains("layout-" + layout)));
            this.renderDetail();
          },
        },
        label,
      );
    this.el = h(
      "section",
      { class: "changes", "aria-label": "Changes" },
      h(
        "div",
        { class: "changes-head" },
        this.summary,
        h("div", { class: "layout-toggle", role: "group", "aria-label": "Diff layout" }, layoutBtn("unified", "Unified"), layoutBtn("split", "Side by side")),
        h("button", { type: "button", class: "link", onclick: () => void this.refresh() }, "Refresh"),
      ),
      h("div", { class: "changes-body" }, this.list, this.detail),
    );
  }

  // refresh fetches the diff again; calls made while one runs share it.
  refresh(): Promise<void> {
    if (this.loading) return this.loading;
    this.loading = api
      .diff(this.sessionID)
      .then((c) => {
        this.changes = c;
        this.render();
      })
      .catch((e: unknown) => {
        this.summary.textContent = "Cannot read the changes: " + (e instanceof Error ? e.message : String(e));
      })
      .finally(() => (this.loading = null));
    return this.loading;
  }

  private render(): void {
    const c = this.changes;
    if (!c) return;
    const base = c.branch ? `${c.branch} since ${c.base_branch || c.base.slice(0, 10)}` : c.base === "snapshot" ? "since the session started" : "since " + c.base.slice(0, 10);
    this.summary.textContent =
      (c.files.length === 0 ? "No changes " : `${c.files.length} file${c.files.length === 1 ? "" : "s"} changed `) + base + (c.truncated ? " (some diffs left out: too large)" : "");
    if (!c.files.some((f) => f.path === this.selected)) this.selected = c.files[0]?.path ?? "";
    this.list.replaceChildren(
      ...c.files.map((f) =>
        h(
          "li",
          {},
          h(
            "button",
            {
              type: "button",
              class: "file-item",
              role: "option",
              "aria-selected": f.path === this.selected ? "true" : "false",
              "data-path": f.path,
              "data-status": f.status,
              onclick: () => {
                this.selected = f.path;
                this.render();
              },
            },
            h("span", { class: "file-status " + f.status }, f.status[0].toUpperCase()),
            h("span", { class: "file-path" }, wrapped(f.path)),
            h("span", { class: "file-counts small" }, h("span", { class: "adds" }, "+" + f.additions), " ", h("span", { class: "dels" }, "−" + f.deletions)),
          ),
        ),
      ),
    );
    this.renderDetail();
  }

  private renderDetail(): void {
    const f = this.changes?.files.find((x) => x.path === this.selected);
    if (!f) {
      this.detail.replaceChildren(h("p", { class: "muted" }, this.changes ? "Nothing to show." : ""));
      return;
    }
    this.detail.replaceChildren(h("h3", { class: "file-title" }, wrapped(f.path)), this.body(f));
  }

  private body(f: FileChange): Node {
    if (f.binary) return h("p", { class: "muted" }, "Binary file " + f.status + ".");
    if (!f.patch) return h("p", { class: "muted" }, f.truncated ? "The diff of this file is too large to show." : "No textual change.");
    if (this.layout === "split") {
      const num = (n: number | undefined) => h("td", { class: "ln" }, n ? String(n) : "");
      const rows = splitRows(f.patch).map((r) =>
        r.kind !== "line"
          ? h("tr", { class: "hunk" }, h("td", { colspan: 4 }, r.text ?? ""))
          : h(
              "tr",
              {},
              num(r.left?.no),
              h("td", { class: "code " + (r.left?.kind ?? "empty") }, r.left?.text ?? ""),
              num(r.right?.no),
              h("td", { class: "code " + (r.right?.kind ?? "empty") }, r.right?.text ?? ""),
            ),
      );
      return h("table", { class: "diff split", "aria-label": "Side-by-side diff of " + f.path }, h("tbody", {}, ...rows));
    }
    const rows = unifiedRows(f.patch).map((r) =>
      h(
        "tr",
        { class: r.kind },
        h("td", { class: "ln" }, r.oldNo ? String(r.oldNo) : ""),
        h("td", { class: "ln" }, r.newNo ? String(r.newNo) : ""),
        h("td", { class: "code " + r.kind }, (r.kind === "add" ? "+" : r.kind === "del" ? "-" : r.kind === "ctx" ? " " : "") + r.text),
      ),
    );
    return h("table", { class: "diff unified", "aria-label": "Unified diff of " + f.path }, h("tbody", {}, ...rows));
  }
}
