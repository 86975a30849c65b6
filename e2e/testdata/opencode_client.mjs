// An OpenCode SDK client against HotPlex's OpenCode-compatible API.
//
//   node opencode_client.mjs SDK_DIR BASE_URL API_KEY ASYNC_PROMPT SYNC_PROMPT
//
// It creates a session, follows the event stream, sends ASYNC_PROMPT with
// promptAsync and collects the streamed parts until the session is idle,
// then sends SYNC_PROMPT with prompt and lists the messages. It prints one
// JSON object with what it saw.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [sdkDir, baseUrl, apiKey, asyncPrompt, syncPrompt] = process.argv.slice(2);
const pkg = JSON.parse(readFileSync(join(sdkDir, "package.json"), "utf8"));
const { createOpencodeClient } = await import(pathToFileURL(join(sdkDir, pkg.exports["."].import)).href);

const client = createOpencodeClient({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });

function must(res, what) {
  if (res.error || res.data === undefined) {
    throw new Error(`${what}: ${res.response?.status} ${JSON.stringify(res.error)}`);
  }
  return res.data;
}

const providers = must(await client.config.providers(), "config.providers");
const session = must(await client.session.create({ body: { title: "from the OpenCode SDK" } }), "session.create");

const abort = new AbortController();
const events = await client.event.subscribe({ signal: abort.signal, sseMaxRetryAttempts: 1 });
const iterator = events.stream[Symbol.asyncIterator]();
const next = async () => {
  const r = await iterator.next();
  if (r.done) throw new Error("the event stream ended");
  return r.value;
};
const first = await next();
if (first.type !== "server.connected") throw new Error(`first event ${JSON.stringify(first)}`);

must(await client.session.promptAsync({ path: { id: session.id }, body: { parts: [{ type: "text", text: asyncPrompt }] } }), "session.promptAsync");

const types = [];
const parts = new Map(); // the newest state of each part, by ID
let assistant;
for (;;) {
  const ev = await next();
  types.push(ev.type);
  const p = ev.properties ?? {};
  if (ev.type === "message.part.updated" && p.part.sessionID === session.id) {
    parts.set(p.part.id, p.part);
  }
  if (ev.type === "message.updated" && p.info.sessionID === session.id && p.info.role === "assistant") {
    assistant = p.info;
  }
  if (ev.type === "session.idle" && p.sessionID === session.id) break;
}

const reply = must(await client.session.prompt({ path: { id: session.id }, body: { parts: [{ type: "text", text: syncPrompt }] } }), "session.prompt");
const messages = must(await client.session.messages({ path: { id: session.id } }), "session.messages");
abort.abort();

const replyParts = [...parts.values()].filter((p) => p.messageID === assistant?.id);
console.log(JSON.stringify({
  providers: providers.providers.map((p) => p.id),
  session: session.id,
  types,
  assistant,
  tool: replyParts.find((p) => p.type === "tool"),
  text: replyParts.filter((p) => p.type === "text").map((p) => p.text).join(""),
  syncReply: { role: reply.info.role, text: reply.parts.filter((p) => p.type === "text").map((p) => p.text).join("") },
  messages: messages.map((m) => ({ role: m.info.role, text: m.parts.filter((p) => p.type === "text").map((p) => p.text).join("") })),
}));
process.exit(0);
