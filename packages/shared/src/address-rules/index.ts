export * from "./apply.ts";
export * from "./ip-math.ts";
export * from "./rules.ts";
