// Building DOM safely: text is always escaped, elements made with h().

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHTML(s: string): string {
  return s.replace(/[&<>"']/g, (c) => escapes[c]);
}

type Child = Node | string | null | undefined | false;

// h makes an element: attributes (on* keys become listeners) and children.
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | EventListener | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = String(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, ...children);
  return el;
}

export function append(el: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
}

// html makes an element whose content is HTML this module's callers built
// from escaped text (the Markdown renderer, the highlighter).
export function html<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, inner: string): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  el.className = className;
  el.innerHTML = inner;
  return el;
}
