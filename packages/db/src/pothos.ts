// Types for the Pothos Prisma plugin, kept apart from the runtime entry point.

export type { default as PothosPrismaTypes } from "./generated/pothos-types.ts";
export { getDatamodel } from "./generated/pothos-types.ts";
export type { Capability } from "./generated/prisma/client.ts";
