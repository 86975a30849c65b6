// The per-session statistics panel: tokens, cost, where the time went,
// files modified, tools used, and a chart of each turn's latency and cost.

import type { SessionStats } from "./api";
import { h } from "./html";
import { ms, tokens, usd } from "./format";
import { wrapped } from "./wrap";

export interface TurnPoint {
  latencyMs: number;
  costUSD: number;
  interrupted: boolean;
}

// openChanges, when given, makes the "Files modified" heading a link to
// the session's Changes tab.
export function renderStats(el: HTMLElement, stats: SessionStats | undefined, turns: TurnPoint[], openChanges?: () => void): void {
  const s = stats;
  const row = (label: string, v: string | Node) => h("div", { class: "kv" }, h("dt", {}, label), h("dd", {}, v));
  const list = (items: string[] | null | undefined, empty: string) =>
    items && items.length > 0 ? h("ul", { class: "plain" }, ...items.map((i) => h("li", {}, h("code", {}, wrapped(i))))) : h("p", { class: "muted" }, empty);
  el.replaceChildren(
    h("h2", {}, "Statistics"),
    h(
      "dl",
      { class: "stats-grid" },
      row("Input tokens", tokens(s?.input_tokens)),
      row("Output tokens", tokens(s?.output_tokens)),
      row("Cache read", tokens(s?.cache_read_tokens)),
      row("Cache write", tokens(s?.cache_write_tokens)),
      row("Cost", usd(s?.total_cost_usd)),
      row("Turns", String(s?.turns ?? 0)),
      row("Total time", ms(s?.total_duration_ms)),
      row("Thinking", ms(s?.thinking_duration_ms)),
      row("Tools", ms(s?.tool_duration_ms)),
      row("Generation", ms(s?.generation_duration_ms)),
      row("Tool calls", String(s?.tool_call_count ?? 0)),
      row("Model", s?.model_used ? wrapped(s.model_used) : "—"),
    ),
    h("h3", {}, "Turn latency and cost"),
    chart(turns),
    h(
      "h3",
      {},
      openChanges
        ? h("a", { href: "#", class: "files-link", "aria-label": "Files modified: show the changes", onclick: ((e: Event) => (e.preventDefault(), openChanges())) as EventListener }, "Files modified (" + (s?.files_modified ?? 0) + ")")
        : "Files modified",
    ),
    list(s?.file_paths, "None yet."),
    h("h3", {}, "Tools used"),
    list(s?.tools_used, "None yet."),
  );
}

const svgNS = "http://www.w3.org/2000/svg";

function svg(tag: string, attrs: Record<string, string | number>, ...children: (Node | string)[]): SVGElement {
  const el = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

// chart draws latency as bars and cost as a line over the turns (the
// latest 40).
function chart(all: TurnPoint[]): Node {
  const turns = all.slice(-40);
  if (turns.length === 0) return h("p", { class: "muted" }, "No turns yet.");
  const W = 280;
  const H = 110;
  const pad = 4;
  const maxLat = Math.max(...turns.map((t) => t.latencyMs), 1);
  const maxCost = Math.max(...turns.map((t) => t.costUSD), 0);
  const bw = (W - 2 * pad) / turns.length;
  const y = (v: number, max: number) => H - pad - ((H - 2 * pad) * v) / max;
  const bars = turns.map((t, i) =>
    svg(
      "rect",
      {
        x: (pad + i * bw + bw * 0.15).toFixed(1),
        y: y(t.latencyMs, maxLat).toFixed(1),
        width: Math.max(bw * 0.7, 1).toFixed(1),
        height: Math.max(H - pad - y(t.latencyMs, maxLat), 1).toFixed(1),
        class: t.interrupted ? "bar interrupted" : "bar",
      },
      svg("title", {}, `Turn ${all.length - turns.length + i + 1}: ${ms(t.latencyMs)}, ${usd(t.costUSD)}`),
    ),
  );
  const parts: Node[] = [...bars];
  if (maxCost > 0) {
    const pts = turns.map((t, i) => `${(pad + i * bw + bw / 2).toFixed(1)},${y(t.costUSD, maxCost).toFixed(1)}`).join(" ");
    parts.push(svg("polyline", { points: pts, class: "cost-line", fill: "none" }));
  }
  const label = `Latency of the last ${turns.length} turns, up to ${ms(maxLat)}; cost per turn up to ${usd(maxCost)}`;
  const fig = h("figure", { class: "chart" });
  fig.append(
    svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, class: "turn-chart" }, ...parts),
    h("figcaption", {}, h("span", { class: "swatch bar-swatch" }), " latency (max " + ms(maxLat) + ")  ", h("span", { class: "swatch cost-swatch" }), " cost (max " + usd(maxCost) + ")"),
  );
  return fig;
}
