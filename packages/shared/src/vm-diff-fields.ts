// The fields of a guest a change records (vm_events.changes), shared by the sync that diffs them
// and the web that names them (docs/behaviour.md §9.51).
import { NAMED_LOCATION_FIELDS } from "./inventory.ts";

/** Where a guest is: a change to one of these is a move. */
export const VM_LOCATION_FIELDS = ["listKey", ...NAMED_LOCATION_FIELDS, "vappName"] as const;

/** Everything else a person compares between two versions of a guest. */
export const VM_OTHER_FIELDS = [
  "name",
  "kind",
  "state",
  "cpuCount",
  "memoryBytes",
  "diskTotalBytes",
  "guestOs",
  "guestOsCode",
  "biosUuid",
  "instanceUuid",
  "isTemplate",
  "tags",
  "backing",
  "nics",
  "ips",
  "primaryAddress",
  "disks",
] as const;

/** A guest field a change records by name (a source's own fields come as "details.<key>"). */
export type VmDiffField = (typeof VM_LOCATION_FIELDS)[number] | (typeof VM_OTHER_FIELDS)[number];
