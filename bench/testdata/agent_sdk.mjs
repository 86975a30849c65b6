// Drives the Claude Code CLI through the official TypeScript Agent SDK and
// prints, as the last line of stdout, one JSON object of figures that
// bench/capacity_test.go sets beside HotPlex's own:
//
//   node agent_sdk.mjs <sdk module> <claude executable> <work dir> <samples>
//
// The model server and the CLI's home come from the environment.
const [sdkModule, cli, dir, samplesArg] = process.argv.slice(2);
const samples = Number(samplesArg) || 5;
const { query, prewarm } = await import(sdkModule);

const base = { pathToClaudeCodeExecutable: cli, cwd: dir, env: { ...process.env } };

// until consumes a query until its next result message.
async function until(it) {
  for (;;) {
    const { value, done } = await it.next();
    if (done) throw new Error('the query ended before a result');
    if (value.type === 'result') return value;
  }
}

// A cold query: a new process for a one-shot prompt, timed to its result.
const coldQueryMs = [];
for (let i = 0; i < samples; i++) {
  const t0 = performance.now();
  const q = query({ prompt: `hello ${i}`, options: base });
  await until(q[Symbol.asyncIterator]());
  coldQueryMs.push(performance.now() - t0);
  q.close?.();
}

// Warm turns: one streaming-input session, a prompt at a time.
const warmTurnMs = [];
{
  let push;
  const inbox = [];
  const prompts = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (inbox.length) yield inbox.shift();
        await new Promise((r) => (push = r));
      }
    },
  };
  const send = (text) => {
    inbox.push({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, session_id: '' });
    if (push) { const p = push; push = undefined; p(); }
  };
  const q = query({ prompt: prompts, options: base });
  const it = q[Symbol.asyncIterator]();
  send('warm up');
  await until(it);
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    send(`again ${i}`);
    await until(it);
    warmTurnMs.push(performance.now() - t0);
  }
  q.close?.();
}

// New conversations on a prewarmed spare: prewarm, let it park, then time
// the claim to the first result.
const spareFirstMs = [];
for (let i = 0; i < samples; i++) {
  const spare = await prewarm({ options: { pathToClaudeCodeExecutable: cli, env: { ...process.env } } });
  await new Promise((r) => setTimeout(r, 200));
  const t0 = performance.now();
  const q = spare.claim({ prompt: `new conversation ${i}`, options: { cwd: dir } });
  await until(q[Symbol.asyncIterator]());
  spareFirstMs.push(performance.now() - t0);
  q.close?.();
  spare.close();
}

const mem = process.memoryUsage();
console.log(JSON.stringify({
  cold_query_ms: coldQueryMs,
  warm_turn_ms: warmTurnMs,
  spare_first_reply_ms: spareFirstMs,
  wrapper_rss_mib: mem.rss / 1048576,
  wrapper_heap_mib: mem.heapUsed / 1048576,
}));
process.exit(0);
