/// <reference types="vitest/config" />
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist",
    sourcemap: true,
    // GraphiQL is a page of its own (/graphiql/), so the web app's bundle stays as small as it was.
    rollupOptions: {
      input: { app: "index.html", graphiql: "graphiql/index.html" },
      onLog(level, log, handler) {
        // GraphiQL's packages mark modules "use no memo" for the React compiler; bundling drops it.
        if (log.code === "MODULE_LEVEL_DIRECTIVE") return;
        handler(level, log);
      },
    },
    // GraphiQL's editor (Monaco) is one chunk of about 2.8 MB, loaded on /graphiql/ only.
    chunkSizeWarningLimit: 3000,
  },
  server: { proxy: { "/graphql": { target: "http://localhost:4000", ws: true } } },
  test: { environment: "node" },
});
