import { test } from "node:test";
import assert from "node:assert/strict";
import { settledText } from "../src/permission";

test("a settled request names who answered and from which client", () => {
  assert.equal(settledText({ decision: "allow", by: "alice", channel: "ws" }), "Allowed by alice from a WebSocket client");
  assert.equal(settledText({ decision: "deny", by: "bob", channel: "acp", reason: "not now" }), "Denied by bob from an editor (ACP) — not now");
  assert.equal(settledText({ decision: "allow", by: "alice", channel: "carrier" }), "Allowed by alice from carrier");
});

test("the timeout and the turn's end say nobody answered", () => {
  assert.equal(settledText({ decision: "deny", by: "timeout", channel: "timeout", reason: "Nobody answered this permission request within 5m0s, so it was denied." }), "Denied by the timeout: nobody answered in time");
  assert.equal(settledText({ decision: "allow", by: "timeout" }), "Allowed by the timeout: nobody answered in time");
  assert.equal(settledText({ decision: "deny", by: "turn_ended" }), "Denied: the turn ended first");
});

test("a decision without an answerer (the firewall's, a policy's) keeps its reason", () => {
  assert.equal(settledText({ decision: "deny", reason: "blocked" }), "Denied — blocked");
  assert.equal(settledText({ decision: "allow" }), "Allowed");
});
