export * from "./apply.ts";
export * from "./ip-math.ts";
export * from "./reported.ts";
export * from "./rules.ts";
