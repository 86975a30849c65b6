import { test } from "node:test";
import assert from "node:assert/strict";
import { SSEParser, type SSEMessage } from "../src/sse";

function parse(...chunks: string[]): SSEMessage[] {
  const out: SSEMessage[] = [];
  const p = new SSEParser((m) => out.push(m));
  for (const c of chunks) p.feed(c);
  return out;
}

test("messages with id, event and data", () => {
  assert.deepEqual(parse("id: 7\nevent: answer\ndata: {\"a\":1}\n\n"), [{ id: "7", event: "answer", data: `{"a":1}` }]);
});

test("chunks split anywhere", () => {
  const text = "id: 1\nevent: a\ndata: x\n\nid: 2\r\nevent: b\r\ndata: y\r\n\r\n";
  const whole = parse(text);
  assert.equal(whole.length, 2);
  for (let i = 1; i < text.length; i++) {
    assert.deepEqual(parse(text.slice(0, i), text.slice(i)), whole, "split at " + i);
  }
  assert.deepEqual(parse(...text.split("")), whole);
});

test("comments, multi-line data, notices without id", () => {
  assert.deepEqual(parse(": keep-alive\n\nevent: resync\ndata: a\ndata: b\n\n"), [{ id: "", event: "resync", data: "a\nb" }]);
  // No data: nothing to deliver. A field without a space keeps its value.
  assert.deepEqual(parse("event: x\n\nid:3\ndata:z\n\n"), [{ id: "3", event: "message", data: "z" }]);
});
