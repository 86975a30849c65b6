// A small syntax highlighter for code blocks: comments, strings, numbers
// and keywords of the languages agents write most, enough to read code at
// a glance. It returns escaped HTML.

import { escapeHTML } from "./html";

const keywords = new Set(
  (
    "break case catch class const continue def default defer do elif else enum export extends false finally fn for from func function go " +
    "if impl import in interface let match mod nil None null package pub return select self struct switch this throw true True False try " +
    "type typeof use var void while with yield async await lambda pass raise fi then done esac local echo"
  ).split(" "),
);

// One pattern, tried at every position: comment, string, number, word.
const token =
  /(\/\/[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/)|("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|(\b\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?\b|\b0x[\da-f]+\b)|([A-Za-z_$][\w$]*)/gi;

// hashComments says whether "#" starts a comment in lang.
function hashComments(lang: string): boolean {
  return /^(sh|bash|shell|zsh|console|py|python|rb|ruby|yaml|yml|toml|dockerfile|make|makefile|r|perl)$/i.test(lang);
}

export function highlight(code: string, lang: string): string {
  const hash = hashComments(lang);
  let out = "";
  let last = 0;
  token.lastIndex = 0;
  for (let m = token.exec(code); m; m = token.exec(code)) {
    const [text, comment, str, num, word] = m;
    let cls = "";
    if (comment !== undefined) {
      if (comment.startsWith("#") && !hash) {
        // Not a comment in this language: step past the "#" only.
        token.lastIndex = m.index + 1;
        continue;
      }
      cls = "c";
    } else if (str !== undefined) cls = "s";
    else if (num !== undefined) cls = "n";
    else if (word !== undefined && keywords.has(word)) cls = "k";
    out += escapeHTML(code.slice(last, m.index));
    out += cls ? `<span class="hl-${cls}">${escapeHTML(text)}</span>` : escapeHTML(text);
    last = m.index + text.length;
  }
  return out + escapeHTML(code.slice(last));
}
