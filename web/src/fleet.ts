// The fleet page: what the daemon's /metrics says about every session at
// once — pool occupancy, cold and warm starts, firewall blocks by
// category, turn latency percentiles.

import { api } from "./api";
import { h } from "./html";
import { byLabel, parseMetrics, quantile, value, type Sample } from "./metrics";
import { displayStatus, ms, tokens, usd } from "./format";

export class FleetView {
  readonly el: HTMLElement;
  private readonly body: HTMLElement;
  private timer = 0;

  constructor() {
    this.body = h("div", { class: "fleet-grid" }, h("p", { class: "muted" }, "Loading metrics…"));
    this.el = h("section", { class: "fleet", "aria-label": "Fleet" }, h("header", { class: "page-head" }, h("h1", {}, "Fleet")), this.body);
    void this.refresh();
    this.timer = window.setInterval(() => void this.refresh(), 3000);
  }

  destroy(): void {
    clearInterval(this.timer);
  }

  private async refresh(): Promise<void> {
    try {
      this.draw(parseMetrics(await api.metrics()));
    } catch (e) {
      this.body.replaceChildren(h("p", { class: "form-error", role: "alert" }, "Cannot read metrics: " + (e instanceof Error ? e.message : String(e))));
    }
  }

  private draw(m: Sample[]): void {
    const pool = byLabel(m, "hotplex_sessions", "status");
    const starts = byLabel(m, "hotplex_turn_starts_total", "start");
    const blocks = byLabel(m, "hotplex_danger_blocks_total", "category");
    const hist = "hotplex_turn_duration_seconds";
    const pct = (name: string, q: number) => {
      const v = quantile(m, hist, q);
      return kv(name, Number.isNaN(v) ? "—" : ms(v * 1000), Number.isNaN(v) ? undefined : v);
    };
    const turns = value(m, "hotplex_turns_total");
    const tokenDir = byLabel(m, "hotplex_tokens_total", "direction");
    this.body.replaceChildren(
      card(
        "Pool occupancy",
        "pool",
        bars([...pool].map(([k, v]) => [displayStatus(k), v])),
        h("p", { class: "muted small" }, `${sum(pool)} sessions in the pool`),
      ),
      card("Starts", "starts", bars([["cold", starts.get("cold") ?? 0], ["warm", starts.get("warm") ?? 0]]), h("p", { class: "muted small" }, `${value(m, "hotplex_process_restarts_total")} restarts to resume`)),
      card(
        "Danger blocks by category",
        "blocks",
        blocks.size === 0 ? h("p", { class: "muted" }, "No blocks.") : bars([...blocks].sort((a, b) => b[1] - a[1])),
      ),
      card(
        "Turn latency",
        "latency",
        h(
          "dl",
          { class: "stats-grid" },
          pct("p50", 0.5),
          pct("p90", 0.9),
          pct("p99", 0.99),
          kv("turns", String(turns)),
          kv("errors", String(value(m, "hotplex_turn_errors_total"))),
          kv("mean", turns > 0 ? ms((value(m, hist + "_sum") / Math.max(value(m, hist + "_count"), 1)) * 1000) : "—"),
        ),
      ),
      card(
        "Usage",
        "usage",
        h(
          "dl",
          { class: "stats-grid" },
          kv("input tokens", tokens(tokenDir.get("input"))),
          kv("output tokens", tokens(tokenDir.get("output"))),
          kv("cost", usd(value(m, "hotplex_cost_usd_total"))),
          kv("events", String(value(m, "hotplex_events_total"))),
        ),
      ),
    );
  }
}

function sum(m: Map<string, number>): number {
  let n = 0;
  for (const v of m.values()) n += v;
  return n;
}

function card(title: string, id: string, ...body: Node[]): HTMLElement {
  return h("article", { class: "card", "aria-labelledby": "fleet-" + id }, h("h2", { id: "fleet-" + id }, title), ...body);
}

// kv is a figure; raw, when given, is its exact value (data-value).
function kv(k: string, v: string, raw?: number): HTMLElement {
  return h("div", { class: "kv", "data-name": k }, h("dt", {}, k), h("dd", { "data-value": raw }, v));
}

// bars draws a labelled horizontal bar per entry, scaled to the largest.
function bars(entries: [string, number][]): HTMLElement {
  const max = Math.max(1, ...entries.map(([, v]) => v));
  return h(
    "ul",
    { class: "bars" },
    ...entries.map(([k, v]) => {
      const bar = h("span", { class: "bar-fill" });
      bar.style.width = ((100 * v) / max).toFixed(1) + "%";
      return h("li", { "data-key": k }, h("span", { class: "bar-label", title: k }, k), h("span", { class: "bar-track", "aria-hidden": "true" }, bar), h("span", { class: "bar-value" }, String(v)));
    }),
  );
}
