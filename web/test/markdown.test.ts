import { test } from "node:test";
import assert from "node:assert/strict";
import { renderMarkdown } from "../src/markdown";

test("markup in the source is text", () => {
  const out = renderMarkdown(`<img src=x onerror="alert(1)"> <script>x</script>`);
  assert.ok(!out.includes("<img") && !out.includes("<script"), out);
  assert.ok(out.includes("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"), out);
});

test("links open only the web and mail", () => {
  assert.equal(renderMarkdown("[a](javascript:alert(1))"), "<p>a</p>");
  assert.ok(renderMarkdown("[w](https://en.wikipedia.org/wiki/Go_(language)) after").includes(`href="https://en.wikipedia.org/wiki/Go_(language)"`));
  assert.equal(
    renderMarkdown("[docs](https://example.com/a?b=1&c=2)"),
    `<p><a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">docs</a></p>`,
  );
});

test("emphasis, code spans and breaks", () => {
  assert.equal(renderMarkdown("**bold** and *it* and `a<b>` and ~~gone~~"), "<p><strong>bold</strong> and <em>it</em> and <code>a&lt;b&gt;</code> and <del>gone</del></p>");
  assert.equal(renderMarkdown("one\ntwo"), "<p>one<br>two</p>");
  assert.equal(renderMarkdown("`**not bold**`"), "<p><code>**not bold**</code></p>");
  assert.equal(renderMarkdown("2 * 3 * 4"), "<p>2 * 3 * 4</p>");
  assert.equal(renderMarkdown("snake_case_name"), "<p>snake_case_name</p>");
});

test("fenced code is highlighted and escaped", () => {
  const out = renderMarkdown("```go\nfunc main() { s := \"<x>\" } // done\n```");
  assert.ok(out.startsWith(`<pre class="code" data-lang="go"><code>`), out);
  assert.ok(out.includes(`<span class="hl-k">func</span>`), out);
  assert.ok(out.includes(`<span class="hl-s">&quot;&lt;x&gt;&quot;</span>`), out);
  assert.ok(out.includes(`<span class="hl-c">// done</span>`), out);
  // "#" starts a comment in shell, not in Go.
  assert.ok(renderMarkdown("```sh\nls # list\n```").includes(`<span class="hl-c"># list</span>`));
  assert.ok(!renderMarkdown("```go\nx := a#b\n```").includes("hl-c"));
  // An unclosed fence runs to the end.
  assert.ok(renderMarkdown("```\nopen").includes("<code>open</code>"));
});

test("blocks: headings, lists, quotes, rules", () => {
  assert.equal(renderMarkdown("# Title"), "<h3>Title</h3>");
  assert.equal(renderMarkdown("- a\n- b *c*"), "<ul><li>a</li><li>b <em>c</em></li></ul>");
  assert.equal(renderMarkdown("1. one\n2. two"), "<ol><li>one</li><li>two</li></ol>");
  assert.equal(renderMarkdown("> quoted"), "<blockquote><p>quoted</p></blockquote>");
  assert.equal(renderMarkdown("a\n\n---\n\nb"), "<p>a</p><hr><p>b</p>");
});

test("code without a language is plain text, escaped", () => {
  const out = renderMarkdown("```\nif x > 1 { return \"y\" } // not code we know\n```");
  assert.equal(out, `<pre class="code"><code>if x &gt; 1 { return &quot;y&quot; } // not code we know</code></pre>`);
  assert.ok(!renderMarkdown("```text\nfunc main() {}\n```").includes("hl-"));
});
