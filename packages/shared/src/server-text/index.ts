export * from "./catalog.ts";
export * from "./server-text.ts";
