// A small Markdown renderer for prompts and answers: headings, paragraphs,
// emphasis, inline code, fenced code (highlighted when its language is
// named), lists, quotes, links and rules. Every piece of text is escaped; raw HTML in the source
// shows as text. Links open only http(s) and mailto targets.

import { escapeHTML } from "./html";
import { highlight } from "./highlight";

const plainText = /^(text|txt|plain|plaintext|output|console-output|log)$/i;

export function renderMarkdown(src: string): string {
  const lines = src.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const fence = /^\s*(```+|~~~+)\s*([\w+#.-]*)/.exec(line);
    if (fence) {
      const close = fence[1];
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(close); i++) body.push(lines[i]);
      i++; // the closing fence (or the end)
      const lang = fence[2] || "";
      // Without a language, or with a plain-text one, guessing would colour
      // output and prose as if they were code: it stays plain.
      const code = lang && !plainText.test(lang) ? highlight(body.join("\n"), lang) : escapeHTML(body.join("\n"));
      out.push(`<pre class="code"${lang ? ` data-lang="${escapeHTML(lang)}"` : ""}><code>${code}</code></pre>`);
      continue;
    }
    if (line.trim() === "") {
      i++;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min(heading[1].length + 2, 6); // inside a message: h3 and smaller
      out.push(`<h${level}>${inline(heading[2])}</h${level}>`);
      i++;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push("<hr>");
      i++;
      continue;
    }
    if (/^\s*>/.test(line)) {
      const body: string[] = [];
      for (; i < lines.length && /^\s*>/.test(lines[i]); i++) body.push(lines[i].replace(/^\s*>\s?/, ""));
      out.push(`<blockquote>${renderMarkdown(body.join("\n"))}</blockquote>`);
      continue;
    }
    const item = /^\s*([-*+]|\d+[.)])\s+/;
    if (item.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: string[] = [];
      for (; i < lines.length; i++) {
        const l = lines[i];
        if (item.test(l)) items.push(l.replace(item, ""));
        else if (l.trim() !== "" && /^\s+/.test(l) && items.length > 0) items[items.length - 1] += " " + l.trim();
        else break;
      }
      const tag = ordered ? "ol" : "ul";
      out.push(`<${tag}>${items.map((t) => `<li>${inline(t)}</li>`).join("")}</${tag}>`);
      continue;
    }
    const para: string[] = [];
    for (; i < lines.length; i++) {
      const l = lines[i];
      if (l.trim() === "" || /^\s*(```|~~~|#{1,6}\s|>|[-*+]\s|\d+[.)]\s)/.test(l)) break;
      para.push(l);
    }
    out.push(`<p>${para.map(inline).join("<br>")}</p>`);
  }
  return out.join("");
}

// inline renders code spans, links, bold and italics within one block.
function inline(text: string): string {
  // Code spans first: their content is literal.
  const parts = text.split(/(`+[^`]*?`+)/);
  return parts
    .map((part) => {
      const code = /^(`+)([^`]*?)\1$/.exec(part);
      if (code) return `<code>${escapeHTML(code[2])}</code>`;
      return emphasis(part);
    })
    .join("");
}

function emphasis(text: string): string {
  let s = escapeHTML(text);
  s = s.replace(/\[([^\]]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)/g, (_m, label: string, href: string) => {
    const raw = href.replace(/&amp;/g, "&");
    if (!/^(https?:|mailto:)/i.test(raw)) return label;
    return `<a href="${href}" target="_blank" rel="noopener noreferrer">${label}</a>`;
  });
  s = s.replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, "<strong>$1</strong>");
  s = s.replace(/__(?=\S)([\s\S]*?\S)__/g, "<strong>$1</strong>");
  s = s.replace(/(^|[^*\w])\*(?=\S)([^*]*?\S)\*(?!\*)/g, "$1<em>$2</em>");
  s = s.replace(/(^|[^_\w])_(?=\S)([^_]*?\S)_(?!\w)/g, "$1<em>$2</em>");
  s = s.replace(/~~(?=\S)([\s\S]*?\S)~~/g, "<del>$1</del>");
  return s;
}
