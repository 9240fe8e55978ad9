// The Servers table's columns: what each shows, how it sorts on the server, how wide it is.
import type { SchemaType } from "../graphql/graphql.ts";
import type { MessageKey } from "../i18n/i18n.ts";
import { locationText } from "./location-text.ts";
import type { VmRow } from "./vm-row.ts";

type OrderField = SchemaType<"VirtualMachineOrderField">;

/** A column id. */
export type ColumnId =
  | "name"
  | "source"
  | "state"
  | "location"
  | "ips"
  | "cpu"
  | "memory"
  | "disk"
  | "connection"
  | "lastSeen";

/** One column of the table. */
export interface Column {
  id: ColumnId;
  label: MessageKey;
  width: string;
  /** How the server sorts by it (docs/behaviour.md §9.44); every column has one. */
  sortField: OrderField;
  isNumeric?: boolean;
  /** The raw value for CSV export: plain text or a number, never formatted. */
  csvValue: (row: VmRow) => string | number | null;
}

/** Every column, in display order. */
export const COLUMNS: readonly Column[] = [
  {
    id: "name",
    label: "servers.column.name",
    width: "minmax(10rem, 2fr)",
    sortField: "NAME",
    csvValue: (r) => r.name,
  },
  {
    id: "source",
    label: "servers.column.source",
    width: "7.5rem",
    sortField: "SOURCE",
    csvValue: (r) => r.source,
  },
  {
    id: "state",
    label: "servers.column.state",
    width: "7rem",
    sortField: "STATE",
    csvValue: (r) => r.state,
  },
  {
    id: "location",
    label: "servers.column.location",
    width: "minmax(9rem, 1.5fr)",
    sortField: "LOCATION",
    // As the page shows it, so a vCenter VM reads datacenter / cluster / host in both.
    csvValue: (r) => locationText(r.location),
  },
  {
    id: "ips",
    label: "servers.column.ips",
    width: "minmax(8rem, 1.5fr)",
    sortField: "ADDRESS",
    csvValue: (r) => r.ipAddresses.map((ip) => ip.address).join(" "),
  },
  {
    id: "cpu",
    label: "servers.column.cpu",
    width: "4.5rem",
    sortField: "CPU",
    isNumeric: true,
    csvValue: (r) => r.cpuCount,
  },
  {
    id: "memory",
    label: "servers.column.memory",
    width: "6rem",
    sortField: "MEMORY",
    isNumeric: true,
    csvValue: (r) => r.memoryBytes,
  },
  {
    id: "disk",
    label: "servers.column.disk",
    width: "6rem",
    sortField: "DISK",
    isNumeric: true,
    csvValue: (r) => r.diskTotalBytes,
  },
  {
    id: "connection",
    label: "servers.column.connection",
    width: "minmax(8rem, 1fr)",
    sortField: "CONNECTION",
    csvValue: (r) => r.connection.name,
  },
  {
    id: "lastSeen",
    label: "servers.column.lastSeen",
    width: "9rem",
    sortField: "LAST_SEEN",
    csvValue: (r) => r.lastSeenAt,
  },
];

/** Columns shown until the user chooses otherwise. */
export const DEFAULT_VISIBLE: readonly ColumnId[] = COLUMNS.map((c) => c.id);

const STORAGE_KEY = "hyperlens.columns";

/**
 * The columns a comma-separated list names, in its order, each once; unknown ids are left out and
 * the name column is always shown (first when the list leaves it out).
 */
export function columnsFromList(list: string): ColumnId[] {
  const known = new Set<string>(COLUMNS.map((c) => c.id));
  const ids = [...new Set(list.split(",").map((id) => id.trim()))].filter((id): id is ColumnId =>
    known.has(id),
  );
  return ids.includes("name") ? ids : ["name", ...ids];
}

/** The saved column choice, in its order; the name column is always shown. */
export function loadVisibleColumns(saved: string | null | undefined): ColumnId[] {
  if (!saved) return [...DEFAULT_VISIBLE];
  return columnsFromList(saved);
}

/** Remembers the column choice in this browser. */
export function saveVisibleColumns(ids: readonly ColumnId[]) {
  globalThis.localStorage?.setItem(STORAGE_KEY, ids.join(","));
}

/** Reads the remembered column choice. */
export function readVisibleColumns(): ColumnId[] {
  return loadVisibleColumns(globalThis.localStorage?.getItem(STORAGE_KEY));
}
