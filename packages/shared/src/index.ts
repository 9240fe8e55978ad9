export * from "./capabilities.ts";
export * from "./error-codes.ts";
export * from "./inventory.ts";
export * from "./map-with-limit.ts";
