// The official MCP TypeScript SDK's client against HotPlex's MCP server:
// it lists and calls every tool and reads a session's resource, then
// prints what it saw as one JSON object.
//
// node mcp_client.mjs SDK_DIR stdio COMMAND ARGS_JSON
// node mcp_client.mjs SDK_DIR http URL KEY
import path from "node:path";

const [sdkDir, mode, a, b] = process.argv.slice(2);
const esm = (p) => import(path.join(sdkDir, "dist", "esm", p));
const { Client } = await esm("client/index.js");
const { ProgressNotificationSchema } = await esm("types.js");

let transport;
if (mode === "stdio") {
  const { StdioClientTransport } = await esm("client/stdio.js");
  transport = new StdioClientTransport({ command: a, args: JSON.parse(b), stderr: "ignore" });
} else {
  const { StreamableHTTPClientTransport } = await esm("client/streamableHttp.js");
  transport = new StreamableHTTPClientTransport(new URL(a), {
    requestInit: { headers: { Authorization: `Bearer ${b}` } },
  });
}
const client = new Client({ name: "hotplex-ts-test", version: "1.0.0" });
await client.connect(transport);

const out = { mode };
const call = (name, args, opts) => client.callTool({ name, arguments: args }, undefined, opts);
const id = `ts-${mode}`;

out.tools = (await client.listTools()).tools.map((t) => t.name).sort();
out.started = (await call("start_session", { session_id: id, title: "from TypeScript" })).structuredContent;
// The progress of send_prompt, by its token. The SDK's own onprogress
// option drops notifications that arrive in the same read as the call's
// response (it handles notifications a microtask later, and forgets the
// token as soon as the response is read), so the test keeps its own
// handler: what it checks is what the server sent.
const progress = [];
const token = `progress-${mode}`;
client.setNotificationHandler(ProgressNotificationSchema, (n) => {
  if (n.params.progressToken === token) progress.push(n.params.message);
});
out.turn = (await client.callTool({
  name: "send_prompt",
  arguments: { session_id: id, prompt: "hello from typescript" },
  _meta: { progressToken: token },
})).structuredContent;
await new Promise((resolve) => setImmediate(resolve));
out.progress = progress;
out.events = (await call("get_events", { session_id: id })).structuredContent;
out.list = (await call("list_sessions", {})).structuredContent;
const res = await client.readResource({ uri: `hotplex://sessions/${id}` });
out.resource = JSON.parse(res.contents[0].text);
const idle = await call("interrupt", { session_id: id });
out.interruptIdle = { isError: idle.isError, text: idle.content[0]?.text };
out.closed = (await call("close_session", { session_id: id })).structuredContent;
const after = await call("send_prompt", { session_id: id, prompt: "again" });
out.afterClose = { isError: after.isError, text: after.content[0]?.text };
try {
  await call("no_such_tool", {});
  out.unknownTool = "no error";
} catch (e) {
  out.unknownTool = e.code;
}
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
