// The daemon's public API, called with the API key the user logged in
// with. The key lives in sessionStorage: it is gone when the tab closes.

import { readSSE, type SSEMessage } from "./sse";

const keyName = "hotplex.apiKey";

export function apiKey(): string {
  return sessionStorage.getItem(keyName) ?? "";
}

export function setAPIKey(key: string): void {
  if (key) sessionStorage.setItem(keyName, key);
  else sessionStorage.removeItem(keyName);
}

export class APIError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface SessionStats {
  input_tokens: number;
  output_tokens: number;
  cache_write_tokens: number;
  cache_read_tokens: number;
  total_tokens: number;
  total_duration_ms: number;
  thinking_duration_ms: number;
  tool_duration_ms: number;
  generation_duration_ms: number;
  tool_call_count: number;
  tools_used: string[] | null;
  files_modified: number;
  file_paths: string[] | null;
  total_cost_usd: number;
  model_used: string;
  turns: number;
  is_error: boolean;
  error_message?: string;
}

export interface Session {
  id: string;
  title?: string;
  provider: string;
  work_dir: string;
  status: string;
  pid: number;
  created_at: string;
  updated_at: string;
  last_event_id: number;
  task_instructions?: string;
  approval?: string;
  stats?: SessionStats;
  worktree?: { repo: string; path: string; branch: string; base_branch?: string };
}

// FileChange is one file of a session's changes (GET /v1/sessions/{id}/diff).
export interface FileChange {
  path: string;
  status: "added" | "modified" | "deleted";
  additions: number;
  deletions: number;
  binary?: boolean;
  patch?: string;
  truncated?: boolean;
}

export interface SessionChanges {
  base: string;
  branch?: string;
  base_branch?: string;
  files: FileChange[];
  truncated: boolean;
}

export interface EventMeta {
  duration_ms: number;
  total_duration_ms: number;
  tool_name: string;
  tool_id: string;
  status: string;
  error_msg: string;
  input_summary: string;
  output_summary: string;
  input_tokens: number;
  output_tokens: number;
}

export interface DangerBlock {
  operation: string;
  reason: string;
  pattern_matched: string;
  level: string;
  category: string;
  bypass_allowed: boolean;
  suggestions?: string[];
}

export interface TurnResult {
  subtype: string;
  is_error: boolean;
  result: string;
  duration_ms: number;
  total_cost_usd: number;
  input_tokens: number;
  output_tokens: number;
  cache_write_tokens: number;
  cache_read_tokens: number;
  interrupted?: boolean;
}

// AgentEvent is an EventWithMeta as the daemon sends it.
export interface AgentEvent {
  event_type: string;
  event_data: string;
  meta: EventMeta | null;
  session_id?: string;
  seq: number;
  time: string;
  // session_start fields, inlined
  pid?: number;
  provider?: string;
  cold_start?: boolean;
  resumed?: boolean;
  fallback?: string;
  startup_ms?: number;
  prompt?: string;
  input?: Record<string, unknown>;
  turn?: TurnResult;
  stats?: SessionStats;
  permission?: { request_id: string; tool_name: string; tool_use_id?: string; decision?: string; reason?: string; by?: string; channel?: string; at?: string };
  danger?: DangerBlock;
  // prompt_queued and prompt_steered
  queue?: { mode: string; id?: string; position?: number; steer_fallback?: string };
}

async function request(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { Authorization: "Bearer " + apiKey() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const resp = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  if (!resp.ok) {
    let code = "error";
    let message = resp.statusText;
    try {
      const e = (await resp.json()) as { error?: { code: string; message: string } };
      if (e.error) ({ code, message } = e.error);
    } catch {
      // not JSON: keep the status text
    }
    if (resp.status === 401) onUnauthorized();
    throw new APIError(resp.status, code, message);
  }
  return resp;
}

let onUnauthorized: () => void = () => {};

// whenUnauthorized sets what happens when the key is refused.
export function whenUnauthorized(f: () => void): void {
  onUnauthorized = f;
}

async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  const resp = await request(method, path, body);
  if (resp.status === 204) return undefined as T;
  return (await resp.json()) as T;
}

const enc = encodeURIComponent;

export const api = {
  sessions: () => json<{ sessions: Session[] }>("GET", "/v1/sessions").then((r) => r.sessions),
  session: (id: string) => json<Session>("GET", "/v1/sessions/" + enc(id)),
  providers: () => json<{ providers: string[] }>("GET", "/v1/providers").then((r) => r.providers),
  createSession: (req: { id?: string; title?: string; provider?: string; work_dir?: string; repo?: string; worktree?: boolean; task_instructions?: string; approval?: string }) =>
    json<Session>("POST", "/v1/sessions", req),
  deleteSession: (id: string) => json<void>("DELETE", "/v1/sessions/" + enc(id)),
  interrupt: (id: string) => json<{ interrupted: boolean }>("POST", "/v1/sessions/" + enc(id) + "/interrupt"),
  answerPermission: (id: string, requestID: string, decision: "allow" | "deny") =>
    json<{ status: string }>("POST", "/v1/sessions/" + enc(id) + "/permissions/" + enc(requestID), { decision, channel: "web" }),
  pendingPermissions: (id: string) =>
    json<{ permissions: { request_id: string }[] }>("GET", "/v1/sessions/" + enc(id) + "/permissions").then((r) => r.permissions),
  diff: (id: string) => json<SessionChanges>("GET", "/v1/sessions/" + enc(id) + "/diff"),
  metrics: async () => (await request("GET", "/metrics")).text(),

  // send runs a turn. Its events arrive on the session's follow stream;
  // this stream is read for the notices only it carries (turn_error,
  // queued, steered).
  // mode "steer" delivers the prompt into the running turn where the
  // agent can take it; "queue" (the default) runs it after that turn.
  async send(id: string, prompt: string, mode: "queue" | "steer", onNotice: (m: SSEMessage) => void): Promise<void> {
    const resp = await request("POST", "/v1/sessions/" + enc(id) + "/messages", { prompt, mode });
    if (!resp.body) return;
    try {
      await readSSE(resp.body, (m) => !m.id && onNotice(m));
    } catch {
      // The turn was accepted and runs on without this stream; its events
      // arrive on the follow stream, which reconnects by itself.
    }
  },

  // follow streams a session's events after lastEventID until signal
  // aborts or the stream ends.
  async follow(id: string, lastEventID: number, signal: AbortSignal, onMessage: (m: SSEMessage) => void): Promise<void> {
    const resp = await fetch("/v1/sessions/" + enc(id) + "/events", {
      headers: { Authorization: "Bearer " + apiKey(), "Last-Event-ID": String(lastEventID) },
      signal,
    });
    if (!resp.ok || !resp.body) {
      if (resp.status === 401) onUnauthorized();
      throw new APIError(resp.status, "follow_failed", "cannot follow the session (HTTP " + resp.status + ")");
    }
    await readSSE(resp.body, onMessage);
  },
};
