// The official ACP TypeScript SDK's client driving `hotplex acp` over
// stdio, as an editor does: a new session, a turn with a shell tool whose
// permission it grants, a turn it cancels, the session list, a load that
// replays the history, and a project outside the key's tree. It prints what it saw as one JSON object.
//
// node acp_client.mjs SDK_DIR CWD TOOL_PROMPT SLOW_PROMPT COMMAND ARGS...
//
// SLOW_PROMPT must make the agent think or answer at once and then take
// its time.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import path from "node:path";

const [sdkDir, cwd, toolPrompt, slowPrompt, command, ...args] = process.argv.slice(2);
const acp = await import(path.join(sdkDir, "dist", "v1", "stable", "acp.js"));

const agent = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const stream = acp.ndJsonStream(Writable.toWeb(agent.stdin), Readable.toWeb(agent.stdout));

const out = { updates: [], permissions: [] };
let onUpdate = () => {};
const app = acp
  .client({ name: "hotplex-ts-test" })
  .onRequest("session/request_permission", ({ params }) => {
    out.permissions.push({ title: params.toolCall.title, options: params.options.map((o) => o.optionId) });
    return { outcome: { outcome: "selected", optionId: "allow" } };
  })
  .onNotification("session/update", ({ params }) => {
    const u = params.update;
    out.updates.push(u.sessionUpdate + (u.status ? ":" + u.status : ""));
    onUpdate(u);
  });

await app.connectWith(stream, async (ctx) => {
  out.initialize = await ctx.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await ctx.request("session/new", { cwd, mcpServers: [] });
  out.sessionId = sessionId;
  const text = (t) => [{ type: "text", text: t }];

  out.toolTurn = await ctx.request("session/prompt", { sessionId, prompt: text(toolPrompt) });

  const started = new Promise((resolve) => {
    onUpdate = (u) => (u.sessionUpdate === "agent_thought_chunk" || u.sessionUpdate === "agent_message_chunk") && resolve();
  });
  const cancelled = ctx.request("session/prompt", { sessionId, prompt: text(slowPrompt) });
  await started;
  await ctx.notify("session/cancel", { sessionId });
  out.cancelledTurn = await cancelled;
  onUpdate = () => {};

  out.list = await ctx.request("session/list", { cwd });
  out.updates.push("--load--");
  await ctx.request("session/load", { sessionId, cwd, mcpServers: [] });
  try {
    await ctx.request("session/new", { cwd: "/", mcpServers: [] });
  } catch (e) {
    out.outsideCwd = e.code;
  }
  try {
    await ctx.request("session/prompt", { sessionId: "no-such-session", prompt: text("hi") });
  } catch (e) {
    out.unknownSession = e.code;
  }
});
agent.stdin.end();
await new Promise((resolve) => agent.on("close", resolve));
process.stdout.write(JSON.stringify(out));
