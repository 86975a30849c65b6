import { test } from "node:test";
import assert from "node:assert/strict";
import { segments } from "../src/wrap";

test("identifiers break after their separators only", () => {
  assert.deepEqual(segments("claude-sonnet-4-5-20250929"), ["claude-", "sonnet-", "4-", "5-", "20250929"]);
  assert.deepEqual(segments("/work/dir/web_1"), ["/", "work/", "dir/", "web_", "1"]);
  assert.deepEqual(segments("us.anthropic.claude:0"), ["us.", "anthropic.", "claude:", "0"]);
});

test("a word without separators stays whole", () => {
  assert.deepEqual(segments("Supercalifragilistic"), ["Supercalifragilistic"]);
  assert.deepEqual(segments(""), [""]);
  assert.deepEqual(segments("a--b"), ["a-", "-", "b"]);
});

test("the segments are the text", () => {
  for (const s of ["claude-opus-4-1", "x", "-lead", "trail-", "a/b/c.d_e@f+g"]) assert.equal(segments(s).join(""), s);
});
