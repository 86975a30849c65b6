import { test } from "node:test";
import assert from "node:assert/strict";
import type { AgentEvent } from "../src/api";
import { noticeFor, notify, type Notice, type NoticeHost } from "../src/notify";

function ev(fields: Partial<AgentEvent>): AgentEvent {
  return { event_type: "answer", event_data: "", meta: null, seq: 1, time: "2026-01-01T00:00:00Z", ...fields };
}

function host(hidden: boolean, permission: NotificationPermission): NoticeHost & { shown: Notice[] } {
  const shown: Notice[] = [];
  return { shown, hidden: () => hidden, permission: () => permission, show: (n) => shown.push(n) };
}

const ask = ev({
  event_type: "permission_request",
  permission: { request_id: "r1", tool_name: "Bash" },
  input: { command: "make deploy", description: "ship it" },
});
const done = ev({ event_type: "result", event_data: "All done.", turn: { subtype: "success", is_error: false, result: "All done." } as AgentEvent["turn"] });
const failed = ev({
  event_type: "result",
  meta: { error_msg: "budget_exceeded: spent" } as AgentEvent["meta"],
  turn: { subtype: "error", is_error: true, result: "" } as AgentEvent["turn"],
});

test("a tool use waiting for a person and a turn's end are worth a notice; other events are not", () => {
  assert.deepEqual(noticeFor(ask, "s1"), { title: "s1 needs you", body: "May it use Bash: make deploy?", tag: "hotplex:s1" });
  assert.equal(noticeFor(done, "s1")?.title, "s1: the turn finished");
  assert.equal(noticeFor(done, "s1")?.body, "All done.");
  assert.equal(noticeFor(failed, "s1")?.title, "s1: the turn failed");
  assert.equal(noticeFor(failed, "s1")?.body, "budget_exceeded: spent");
  assert.equal(noticeFor(ev({ event_type: "answer", event_data: "hi" }), "s1"), null);
  assert.equal(noticeFor(ev({ event_type: "tool_use" }), "s1"), null);
});

test("notices show only while the tab is hidden and notifications are allowed", async () => {
  const yes = async () => true;
  for (const [hidden, perm, want] of [
    [true, "granted", 1],
    [false, "granted", 0],
    [true, "default", 0],
    [true, "denied", 0],
  ] as const) {
    const h = host(hidden, perm);
    await notify(h, done, "s1", yes);
    assert.equal(h.shown.length, want, `hidden=${hidden} permission=${perm}`);
  }
});

test("a permission request decided without a person is not notified", async () => {
  const h = host(true, "granted");
  const asked: string[] = [];
  assert.equal(await notify(h, ask, "s1", async (id) => (asked.push(id), false)), false);
  assert.equal(await notify(h, ask, "s1", async () => Promise.reject(new Error("offline"))), false);
  assert.equal(await notify(h, ask, "s1", async () => true), true);
  assert.deepEqual(asked, ["r1"]);
  assert.equal(h.shown.length, 1);
});
