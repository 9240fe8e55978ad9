import { createHash } from "node:crypto";
import type { NeutralVm } from "@hyperlens/shared";
import { canonicalJson } from "./canonical-json.ts";

// Bump when the stored mapping changes, so every row is rewritten once by the next sync.
const FINGERPRINT_VERSION = 2;

/** SHA-256 (hex) of the canonical JSON of any JSON-safe record. */
export function fingerprintOf(record: unknown): string {
  return createHash("sha256")
    .update(canonicalJson({ v: FINGERPRINT_VERSION, record }))
    .digest("hex");
}

/**
 * The fingerprint of a normalized VM in the list it was read from. It covers everything the
 * source reported (the list too: a guest that moved must be rewritten), so equal fingerprints
 * mean the stored row is already right and nothing is written. It leaves out what the address
 * rules make of the report (docs/behaviour.md §10.9): a rules change judges the stored report
 * again itself, and a re-sync after it still writes nothing.
 */
export function fingerprintVm(vm: NeutralVm, listKey: string): string {
  const { ips: _, primaryAddress: __, ...reported } = vm;
  return fingerprintOf({ listKey, vm: reported });
}
