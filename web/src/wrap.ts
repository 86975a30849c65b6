// Long identifiers (model names, session IDs, paths) wrap only where
// their own separators are, never inside a word: the separator stays at
// the end of the line, as in "claude-sonnet-4-5-" / "20250929".

import { h } from "./html";

const separator = /([-_./:@+])/;

// segments splits text after each separator; joined they are text again.
export function segments(text: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (const part of text.split(separator)) {
    cur += part;
    if (separator.test(part)) {
      out.push(cur);
      cur = "";
    }
  }
  if (cur !== "" || out.length === 0) out.push(cur);
  return out;
}

// wrapped is text in a span that may break after its separators (<wbr>)
// and nowhere else; its title holds the whole text.
export function wrapped(text: string, className = "ident"): HTMLElement {
  const el = h("span", { class: className, title: text });
  segments(text).forEach((s, i) => {
    if (i > 0) el.append(document.createElement("wbr"));
    el.append(s);
  });
  return el;
}
