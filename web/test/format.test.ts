import { test } from "node:test";
import assert from "node:assert/strict";
import { displayStatus, statuses } from "../src/format";

test("the UI shows the engine's state words, hibernated among them", () => {
  assert.deepEqual(statuses, ["new", "starting", "idle", "running", "hibernated", "error", "closed"]);
  for (const s of statuses) assert.equal(displayStatus(s), s);
});

test("older daemons' words read as today's", () => {
  assert.equal(displayStatus("ready"), "idle");
  assert.equal(displayStatus("busy"), "running");
  assert.equal(displayStatus("dead"), "hibernated");
  assert.equal(displayStatus("stopped"), "hibernated");
  assert.equal(displayStatus("exited"), "closed");
  assert.equal(displayStatus("idle", true), "error");
});
