import { z } from "zod";
import { vmUrnFromHref } from "../href.ts";
import { optionalAttr, repeated, toBool, toInt } from "./fields.ts";
import { malformed, parseWith } from "./malformed.ts";
import { parseXmlRoot } from "./xml.ts";

/** One VM of the query service (`VMRecord`, or `AdminVMRecord` for provider sessions). */
export interface VcdVmRecord {
  href: string;
  /** `urn:vcloud:vm:<uuid>`: the record's `id` when given, else derived from the href. */
  urn: string;
  name: string;
  /** As Director reports it: POWERED_ON, POWERED_OFF, SUSPENDED, … */
  status: string | null;
  cpuCount: number | null;
  memoryMiB: number | null;
  guestOs: string | null;
  vappName: string | null;
  vappHref: string | null;
  vdcName: string | null;
  vdcHref: string | null;
  orgName: string | null;
  orgHref: string | null;
  isDeployed: boolean | null;
  /** The primary IP the query service shows (newer API versions; absent without an IP). */
  ipAddress: string | null;
  /** AdminVMRecord: the vCenter (vimServer href) backing the VM. */
  vcenterHref: string | null;
  vcenterName: string | null;
  /** AdminVMRecord: the vCenter managed-object reference ("vm-123"). */
  moref: string | null;
  hostName: string | null;
  datastoreName: string | null;
  networkName: string | null;
  hardwareVersion: string | null;
  storageProfileName: string | null;
  totalStorageAllocatedMb: number | null;
}

/** One page of `GET /api/query?type=vm|adminVM&format=records`. */
export interface VmQueryPage {
  page: number | null;
  /** The page size Director actually used (it silently caps what was asked). */
  pageSize: number | null;
  /** All records the query matches, on every page, templates included. */
  total: number | null;
  /** Records that arrived on this page, templates included: what counts toward `total`. */
  recordCount: number;
  /** The href of every record that arrived, templates included (to spot repeats across pages). */
  recordHrefs: string[];
  /** The VMs of this page, templates left out. */
  vms: VcdVmRecord[];
  hasNextPage: boolean;
}

const record = z.looseObject({
  "@href": z.string().min(1),
  "@name": z.string(),
  "@id": optionalAttr,
  "@status": optionalAttr,
  "@numberOfCpus": optionalAttr,
  "@memoryMB": optionalAttr,
  "@guestOs": optionalAttr,
  "@container": optionalAttr,
  "@containerName": optionalAttr,
  "@vdc": optionalAttr,
  "@vdcName": optionalAttr,
  "@org": optionalAttr,
  "@orgName": optionalAttr,
  "@isDeployed": optionalAttr,
  "@isVAppTemplate": optionalAttr,
  "@ipAddress": optionalAttr,
  "@vc": optionalAttr,
  "@vcenter": optionalAttr,
  "@vcName": optionalAttr,
  "@moref": optionalAttr,
  "@hostName": optionalAttr,
  "@datastoreName": optionalAttr,
  "@networkName": optionalAttr,
  "@hardwareVersion": optionalAttr,
  "@storageProfileName": optionalAttr,
  "@totalStorageAllocatedMb": optionalAttr,
});

const link = z.looseObject({ "@rel": optionalAttr, "@href": optionalAttr });

// TRAP: docs/behaviour.md §4 — a record without href or name fails the page; dropping it would let the sync remove the VM.
const page = z.looseObject({
  "@page": optionalAttr,
  "@pageSize": optionalAttr,
  "@total": optionalAttr,
  Link: repeated(link),
  VMRecord: repeated(record),
  AdminVMRecord: repeated(record),
});

/** Parses one page of the VM query (either record type), leaving templates out of `vms`. */
export function parseVmQueryPage(text: string, call: string): VmQueryPage {
  const root = parseWith(page, parseXmlRoot(text, "QueryResultRecords", call), call, "records");
  const records = [...root.VMRecord, ...root.AdminVMRecord];
  const vms: VcdVmRecord[] = [];
  for (const r of records) {
    // Templates are catalog items, not running inventory; they still count toward `total`.
    if (toBool(r["@isVAppTemplate"]) === true) continue;
    vms.push(toVmRecord(r, call));
  }
  return {
    page: toInt(root["@page"]),
    pageSize: toInt(root["@pageSize"]),
    total: toInt(root["@total"]),
    recordCount: records.length,
    recordHrefs: records.map((r) => r["@href"]),
    vms,
    hasNextPage: root.Link.some((l) => l["@rel"] === "nextPage"),
  };
}

function toVmRecord(r: z.output<typeof record>, call: string): VcdVmRecord {
  const id = r["@id"];
  const urn = id?.startsWith("urn:vcloud:vm:") ? id.toLowerCase() : vmUrnFromHref(r["@href"]);
  if (urn === null) {
    throw malformed(call, `VM "${r["@name"]}" has an href without a VM id: ${r["@href"]}`);
  }
  const s = (v: string | undefined) => (v === undefined || v === "" ? null : v);
  return {
    href: r["@href"],
    urn,
    name: r["@name"],
    status: s(r["@status"]),
    cpuCount: toInt(r["@numberOfCpus"]),
    memoryMiB: toInt(r["@memoryMB"]),
    guestOs: s(r["@guestOs"]),
    vappName: s(r["@containerName"]),
    vappHref: s(r["@container"]),
    vdcName: s(r["@vdcName"]),
    vdcHref: s(r["@vdc"]),
    orgName: s(r["@orgName"]),
    orgHref: s(r["@org"]),
    isDeployed: toBool(r["@isDeployed"]),
    ipAddress: s(r["@ipAddress"]),
    vcenterHref: s(r["@vc"] ?? r["@vcenter"]),
    vcenterName: s(r["@vcName"]),
    moref: s(r["@moref"]),
    hostName: s(r["@hostName"]),
    datastoreName: s(r["@datastoreName"]),
    networkName: s(r["@networkName"]),
    hardwareVersion: s(r["@hardwareVersion"]),
    storageProfileName: s(r["@storageProfileName"]),
    totalStorageAllocatedMb: toInt(r["@totalStorageAllocatedMb"]),
  };
}
