export * from "./capabilities.ts";
export * from "./error-codes.ts";
export * from "./guest-address.ts";
export * from "./host-address.ts";
export * from "./inventory.ts";
export * from "./mac.ts";
export * from "./map-with-limit.ts";
export * from "./semaphore.ts";
