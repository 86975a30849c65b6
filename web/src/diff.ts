// Unified diffs read into rows, for the Changes tab's unified and
// side-by-side views. Pure: no DOM, unit-tested on Node.

export type RowKind = "hunk" | "ctx" | "add" | "del" | "note";

// UnifiedRow is one line of a unified view, with its numbers in the old
// and new file (0 where it has none).
export interface UnifiedRow {
  kind: RowKind;
  text: string;
  oldNo: number;
  newNo: number;
}

// SplitRow is one line of a side-by-side view: the old file's line on the
// left, the new file's on the right (null where a side has none).
export interface SplitRow {
  kind: "hunk" | "line" | "note";
  text?: string;
  left: { no: number; text: string; kind: "ctx" | "del" } | null;
  right: { no: number; text: string; kind: "ctx" | "add" } | null;
}

const hunkHead = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

// unifiedRows reads a patch's hunks; its header lines (diff --git, index,
// ---, +++) are left out.
export function unifiedRows(patch: string): UnifiedRow[] {
  const rows: UnifiedRow[] = [];
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  const lines = patch.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  for (const line of lines) {
    const m = hunkHead.exec(line);
    if (m) {
      oldNo = Number(m[1]);
      newNo = Number(m[2]);
      inHunk = true;
      rows.push({ kind: "hunk", text: line, oldNo: 0, newNo: 0 });
      continue;
    }
    if (!inHunk) continue;
    if (line.startsWith("\\")) {
      rows.push({ kind: "note", text: line, oldNo: 0, newNo: 0 });
    } else if (line.startsWith("+")) {
      rows.push({ kind: "add", text: line.slice(1), oldNo: 0, newNo: newNo++ });
    } else if (line.startsWith("-")) {
      rows.push({ kind: "del", text: line.slice(1), oldNo: oldNo++, newNo: 0 });
    } else {
      rows.push({ kind: "ctx", text: line.slice(1), oldNo: oldNo++, newNo: newNo++ });
    }
  }
  return rows;
}

// splitRows pairs a hunk's deleted lines with the added lines that follow
// them, so that a changed line sits beside what replaced it.
export function splitRows(patch: string): SplitRow[] {
  const out: SplitRow[] = [];
  let dels: UnifiedRow[] = [];
  let adds: UnifiedRow[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) {
      const d = dels[i];
      const a = adds[i];
      out.push({
        kind: "line",
        left: d ? { no: d.oldNo, text: d.text, kind: "del" } : null,
        right: a ? { no: a.newNo, text: a.text, kind: "add" } : null,
      });
    }
    dels = [];
    adds = [];
  };
  for (const r of unifiedRows(patch)) {
    switch (r.kind) {
      case "del":
        if (adds.length > 0) flush();
        dels.push(r);
        break;
      case "add":
        adds.push(r);
        break;
      case "ctx":
        flush();
        out.push({ kind: "line", left: { no: r.oldNo, text: r.text, kind: "ctx" }, right: { no: r.newNo, text: r.text, kind: "ctx" } });
        break;
      default:
        flush();
        out.push({ kind: r.kind === "hunk" ? "hunk" : "note", text: r.text, left: null, right: null });
    }
  }
  flush();
  return out;
}
