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

// displayStatus names a session's state for people: the engine's "ready"
// is idle, "busy" running, "dead" stopped (its next turn starts it again).
// An interrupted last turn is not an error: a person stopped it.
export function failed(stats: { is_error: boolean; error_message?: string } | undefined): boolean {
  return !!stats?.is_error && !/interrupted/i.test(stats.error_message ?? "");
}

export function displayStatus(status: string, isError = false): string {
  switch (status) {
    case "ready":
      return isError ? "error" : "idle";
    case "busy":
      return "running";
    case "dead":
      return isError ? "error" : "stopped";
    case "starting":
    case "exited":
    case "error":
      return status;
  }
  return status || "stopped";
}
