import { defineConfig } from "vite";

// The unit tests of the UI's pure modules (Markdown, SSE parsing, metrics,
// identifier wrapping, notices, permission cards)
// bundled for Node's own test runner: `node --test .test-build/`.
export default defineConfig({
  build: {
    ssr: true,
    outDir: ".test-build",
    emptyOutDir: true,
    target: "node20",
    rollupOptions: {
      input: {
        markdown: "test/markdown.test.ts",
        sse: "test/sse.test.ts",
        metrics: "test/metrics.test.ts",
        format: "test/format.test.ts",
        wrap: "test/wrap.test.ts",
        diff: "test/diff.test.ts",
        notify: "test/notify.test.ts",
        permission: "test/permission.test.ts",
      },
      output: { format: "es", entryFileNames: "[name].test.mjs" },
    },
  },
});
