import { defineConfig } from "vite";

// The daemon serves the built files itself (embedded in its binary): at
// "/" the page, under "/assets/" everything it loads. Nothing comes from
// elsewhere, so the UI works offline.
export default defineConfig({
  base: "/",
  build: {
    outDir: "dist",
    assetsDir: "assets",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    modulePreload: { polyfill: false },
  },
});
