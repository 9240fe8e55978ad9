// The small inventory lists used for locations and nodes: hosts, clusters, datacenters, folders.
import { z } from "zod";
import { moref, optionalBoolean, optionalString } from "./fields.ts";
import { parseWith } from "./malformed.ts";

/** One row of `GET /api/vcenter/host`. */
export interface VcenterHostSummary {
  /** `host-1013`. */
  host: string;
  name: string;
  /** CONNECTED, DISCONNECTED or NOT_RESPONDING. */
  connectionState: string;
  /** Present only while the host is CONNECTED. */
  powerState: string | null;
}

/** One row of `GET /api/vcenter/cluster`. */
export interface VcenterClusterSummary {
  /** `domain-c1006`. */
  cluster: string;
  name: string;
  haEnabled: boolean | null;
  drsEnabled: boolean | null;
}

/** One row of `GET /api/vcenter/datacenter`. */
export interface VcenterDatacenterSummary {
  /** `datacenter-3`. */
  datacenter: string;
  name: string;
}

/** One row of `GET /api/vcenter/folder`. */
export interface VcenterFolderSummary {
  /** `group-v22`. */
  folder: string;
  name: string;
  type: string | null;
}

const host = z.object({
  host: moref,
  name: z.string(),
  connection_state: z.string(),
  power_state: optionalString,
});

/** Parses `GET /api/vcenter/host`. */
export function parseHostList(value: unknown, call: string): VcenterHostSummary[] {
  return parseWith(z.array(host), value, call, "hosts").map((h) => ({
    host: h.host,
    name: h.name,
    connectionState: h.connection_state,
    powerState: h.power_state ?? null,
  }));
}

const cluster = z.object({
  cluster: moref,
  name: z.string(),
  ha_enabled: optionalBoolean,
  drs_enabled: optionalBoolean,
});

/** Parses `GET /api/vcenter/cluster`. */
export function parseClusterList(value: unknown, call: string): VcenterClusterSummary[] {
  return parseWith(z.array(cluster), value, call, "clusters").map((c) => ({
    cluster: c.cluster,
    name: c.name,
    haEnabled: c.ha_enabled ?? null,
    drsEnabled: c.drs_enabled ?? null,
  }));
}

/** Parses `GET /api/vcenter/datacenter`. */
export function parseDatacenterList(value: unknown, call: string): VcenterDatacenterSummary[] {
  return parseWith(
    z.array(z.object({ datacenter: moref, name: z.string() })),
    value,
    call,
    "datacenters",
  );
}

/** Parses `GET /api/vcenter/folder`. */
export function parseFolderList(value: unknown, call: string): VcenterFolderSummary[] {
  return parseWith(
    z.array(z.object({ folder: moref, name: z.string(), type: optionalString })),
    value,
    call,
    "folders",
  ).map((f) => ({ folder: f.folder, name: f.name, type: f.type ?? null }));
}
