// How a permission card tells who settled its request: any client of the
// session's owner may answer, and the first answer wins.

// Settled is a permission_decision's permission.
export interface Settled {
  decision?: string;
  reason?: string;
  by?: string; // the answering key's ID, "timeout" or "turn_ended"
  channel?: string; // "http", "web", "ws", "opencode", "acp", "mcp"
  at?: string;
}

const channels: Record<string, string> = {
  http: "the API",
  web: "the web UI",
  ws: "a WebSocket client",
  opencode: "an OpenCode client",
  acp: "an editor (ACP)",
  mcp: "an MCP client",
};

// settledText is the card's last word on its request.
export function settledText(p: Settled): string {
  const verb = p.decision === "allow" ? "Allowed" : "Denied";
  switch (p.by) {
    case "timeout":
      return verb + " by the timeout: nobody answered in time";
    case "turn_ended":
      return verb + ": the turn ended first";
    case undefined:
    case "":
      return verb + (p.reason ? " — " + p.reason : "");
  }
  const from = p.channel ? " from " + (channels[p.channel] || p.channel) : "";
  return verb + " by " + p.by + from + (p.decision !== "allow" && p.reason ? " — " + p.reason : "");
}
