// How numbers, times and statuses read in the UI.

export function ago(iso: string | number, now = Date.now()): string {
  const t = typeof iso === "number" ? iso : Date.parse(iso);
  if (!Number.isFinite(t) || t <= 0) return "—";
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return s + "s";
  if (s < 3600) return Math.floor(s / 60) + "m";
  if (s < 86400) return Math.floor(s / 3600) + "h";
  return Math.floor(s / 86400) + "d";
}

export function ms(n: number | undefined): string {
  if (!n) return "0 ms";
  if (n < 1000) return Math.round(n) + " ms";
  if (n < 60000) return (n / 1000).toFixed(n < 10000 ? 2 : 1) + " s";
  return Math.floor(n / 60000) + " m " + Math.round((n % 60000) / 1000) + " s";
}

export function tokens(n: number | undefined): string {
  if (!n) return "0";
  if (n < 1000) return String(n);
  if (n < 1e6) return (n / 1000).toFixed(1) + "k";
  return (n / 1e6).toFixed(2) + "M";
}

export function usd(n: number | undefined): string {
  if (!n) return "$0";
  return n < 0.01 ? "$" + n.toFixed(4) : "$" + n.toFixed(2);
}

// An interrupted last turn is not an error: a person stopped it.
export function failed(stats: { is_error: boolean; error_message?: string } | undefined): boolean {
  return !!stats?.is_error && !/interrupted/i.test(stats.error_message ?? "");
}

// statuses are the session states, in the order of a session's life: the
// engine's words, which the API, the metrics and the backend package use
// too (see ARCHITECTURE.md).
export const statuses = ["new", "starting", "idle", "running", "hibernated", "error", "closed"];

// legacy maps the words older daemons stored to today's.
const legacy: Record<string, string> = { ready: "idle", busy: "running", dead: "hibernated", stopped: "hibernated", exited: "closed" };

// displayStatus names a session's state: the engine's word as it is, an
// older record's word translated. A session idle after a failed turn
// reads "error" when isError is set.
export function displayStatus(status: string, isError = false): string {
  const st = legacy[status] ?? status;
  if (st === "idle" && isError) return "error";
  return st || "new";
}
