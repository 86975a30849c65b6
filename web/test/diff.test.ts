import { test } from "node:test";
import assert from "node:assert/strict";
import { splitRows, unifiedRows } from "../src/diff";

const patch = [
  "diff --git a/f.txt b/f.txt",
  "index 1..2 100644",
  "--- a/f.txt",
  "+++ b/f.txt",
  "@@ -1,4 +1,4 @@",
  " one",
  "-two",
  "+TWO",
  " three",
  "-four",
  "+four!",
  "+five",
  "\\ No newline at end of file",
  "",
].join("\n");

test("a unified view numbers each side's lines and leaves the headers out", () => {
  const rows = unifiedRows(patch);
  assert.deepEqual(
    rows.map((r) => [r.kind, r.text, r.oldNo, r.newNo]),
    [
      ["hunk", "@@ -1,4 +1,4 @@", 0, 0],
      ["ctx", "one", 1, 1],
      ["del", "two", 2, 0],
      ["add", "TWO", 0, 2],
      ["ctx", "three", 3, 3],
      ["del", "four", 4, 0],
      ["add", "four!", 0, 4],
      ["add", "five", 0, 5],
      ["note", "\\ No newline at end of file", 0, 0],
    ],
  );
});

test("a side-by-side view puts a changed line beside its replacement", () => {
  const rows = splitRows(patch).filter((r) => r.kind === "line");
  assert.deepEqual(
    rows.map((r) => [r.left?.text ?? null, r.right?.text ?? null]),
    [
      ["one", "one"],
      ["two", "TWO"],
      ["three", "three"],
      ["four", "four!"],
      [null, "five"],
    ],
  );
  assert.equal(rows[1].left?.kind, "del");
  assert.equal(rows[1].right?.kind, "add");
});

test("a new file is all additions; an empty patch has no rows", () => {
  const added = "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n";
  assert.deepEqual(
    splitRows(added).filter((r) => r.kind === "line").map((r) => [r.left, r.right?.no]),
    [
      [null, 1],
      [null, 2],
    ],
  );
  assert.deepEqual(unifiedRows(""), []);
});
