/// <reference types="vitest/config" />
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", sourcemap: true },
  server: { proxy: { "/graphql": { target: "http://localhost:4000", ws: true } } },
  test: { environment: "node" },
});
