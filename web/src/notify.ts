// Browser notifications: when a session this tab shows needs a person (a
// tool use waiting for an answer) or finishes a turn while the tab is
// hidden, the browser says so. The page asks for the permission only when
// the user clicks "Notify me" (browsers refuse a request that no gesture
// made), and notifies only of live events, never of history replayed
// when the page opens.

import type { AgentEvent } from "./api";

export interface Notice {
  title: string;
  body: string;
  // tag lets a newer notice of the same session replace an older one.
  tag: string;
}

// summaryKeys are the tool arguments that say most about a tool use.
const summaryKeys = ["command", "file_path", "path", "url", "pattern", "query", "description"];

function summary(input: Record<string, unknown> | undefined): string {
  for (const k of summaryKeys) {
    const v = input?.[k];
    if (typeof v === "string" && v !== "") return v.length > 120 ? v.slice(0, 120) + "…" : v;
  }
  return "";
}

// noticeFor is what to tell of ev, an event of session: a permission
// request (which the caller shows only if it still waits for a person)
// or a turn's end; nothing for other events.
export function noticeFor(ev: AgentEvent, session: string): Notice | null {
  switch (ev.event_type) {
    case "permission_request": {
      const tool = ev.permission?.tool_name || ev.meta?.tool_name || "a tool";
      const what = summary(ev.input);
      return { title: session + " needs you", body: "May it use " + tool + (what ? ": " + what : "") + "?", tag: "hotplex:" + session };
    }
    case "result": {
      const t = ev.turn;
      const word = t?.interrupted ? "was interrupted" : t?.is_error ? "failed" : "finished";
      const body = t?.is_error && !t.interrupted ? ev.meta?.error_msg || t.result || "" : t?.result || ev.event_data || "";
      return { title: session + ": the turn " + word, body: body.length > 160 ? body.slice(0, 160) + "…" : body, tag: "hotplex:" + session };
    }
  }
  return null;
}

// The parts of the browser the notices need, so tests can stand in for it.
export interface NoticeHost {
  hidden(): boolean;
  permission(): NotificationPermission | "unsupported";
  show(n: Notice): void;
}

export const browserHost: NoticeHost = {
  hidden: () => document.hidden,
  permission: () => (typeof Notification === "undefined" ? "unsupported" : Notification.permission),
  show: (n) => {
    const note = new Notification(n.title, { body: n.body, tag: n.tag });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  },
};

// notify shows the notice of ev when the tab is hidden and the user
// allowed notifications; waiting reports whether a permission request
// still waits for a person (it may have been decided without one).
export async function notify(host: NoticeHost, ev: AgentEvent, session: string, waiting: (requestID: string) => Promise<boolean>): Promise<boolean> {
  if (!host.hidden() || host.permission() !== "granted") return false;
  const n = noticeFor(ev, session);
  if (!n) return false;
  if (ev.event_type === "permission_request") {
    const id = ev.permission?.request_id;
    if (!id || !(await waiting(id).catch(() => false))) return false;
  }
  host.show(n);
  return true;
}

// canAsk reports whether the browser can still be asked (the user has
// neither allowed nor refused notifications): the "Notify me" button shows
// only then.
export function canAsk(): boolean {
  return typeof Notification !== "undefined" && Notification.permission === "default";
}
