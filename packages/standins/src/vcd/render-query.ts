import type { VcdEdgeGateway, VcdVcenter, VcdVm, VmPlacement } from "./model.ts";
import { NS, type Prefixes, qualify } from "./namespaces.ts";
import type { PageWindow } from "./paging.ts";
import { attributes, XML_DECLARATION } from "./xml.ts";

/** Attribute values of one query record, in Director's order; undefined ones are left out. */
export type QueryRecord = Record<string, string | undefined>;

const RECORDS_TYPE = "application/vnd.vmware.vcloud.query.records+xml";

/** Hrefs of a VM and its container (templates live under `/api/vAppTemplate/`). */
export function vmHref(base: string, vm: VcdVm, template: boolean): string {
  return `${base}/api/${template ? "vAppTemplate" : "vApp"}/vm-${vm.id}`;
}

/** A `VMRecord` (tenant) or `AdminVMRecord` (provider, with vCenter placement). */
export function vmRecord(
  base: string,
  vm: VcdVm,
  where: VmPlacement,
  admin: Pick<VcdVcenter, "id" | "name"> | undefined,
): QueryRecord {
  const template = where.vapp.template;
  const primary = vm.nics.find((nic) => nic.index === vm.primaryNicIndex) ?? vm.nics[0];
  const record: QueryRecord = {
    catalogName: template ? (where.vapp.catalogName ?? "Templates") : undefined,
    container: template
      ? `${base}/api/vAppTemplate/vappTemplate-${where.vapp.id}`
      : `${base}/api/vApp/vapp-${where.vapp.id}`,
    containerName: where.vapp.name,
    guestOs: vm.guestOs,
    hardwareVersion: String(vm.hardwareVersion),
    ipAddress: primary?.ipAddress,
    isBusy: "false",
    isDeleted: "false",
    isDeployed: String(!template && vm.status !== "POWERED_OFF"),
    isInMaintenanceMode: "false",
    isPublished: "false",
    isVAppTemplate: String(template),
    isVdcEnabled: "true",
    memoryMB: String(vm.memoryMb),
    name: vm.name,
    numberOfCpus: String(vm.cpus),
    status: vm.status,
    storageProfileName: vm.storageProfileName,
    totalStorageAllocatedMb: String(vm.disks.reduce((sum, disk) => sum + disk.sizeMb, 0)),
    vdc: `${base}/api/vdc/${where.vdc.id}`,
    vdcName: where.vdc.name,
    href: vmHref(base, vm, template),
    vmToolsVersion: vm.vmToolsVersion,
    networkName: primary?.network,
    dateCreated: vm.dateCreated,
  };
  if (!admin) return record;
  return {
    ...record,
    org: `${base}/api/org/${where.org.id}`,
    moref: vm.moref,
    vc: `${base}/api/admin/extension/vimServer/${admin.id}`,
    vcName: admin.name,
    hostName: vm.hostName,
    datastoreName: vm.datastoreName,
  };
}

/** A legacy `EdgeGatewayRecord`; a VDC group's edge names the group's first VDC. */
export function edgeGatewayRecord(base: string, edge: VcdEdgeGateway, vdcId: string): QueryRecord {
  return {
    gatewayStatus: "READY",
    haStatus: "UP",
    isBusy: "false",
    name: edge.name,
    numberOfExtNetworks: "1",
    numberOfOrgNetworks: String(edge.orgVdcNetworkCount),
    vdc: `${base}/api/vdc/${vdcId}`,
    href: `${base}/api/admin/edgeGateway/${edge.id}`,
    isSyslogServerSettingInSync: "true",
  };
}

/** What {@link queryResultRecords} renders. */
export interface QueryPage {
  base: string;
  /** Query type, e.g. `vm`, `adminVM`, `edgeGateway`. */
  type: string;
  /** Record element name, e.g. `VMRecord`. */
  recordName: string;
  /** Records of this page only. */
  records: QueryRecord[];
  window: PageWindow;
  total: number;
  pageCount: number;
  /** Filter to echo into every link. */
  filter: string | null;
  prefixes: Prefixes;
}

/**
 * `QueryResultRecords` as the query service sends it: two `alternate` links, then
 * `nextPage`/`lastPage` while pages remain and `previousPage`/`firstPage` after the first.
 */
export function queryResultRecords(q: QueryPage): string {
  const p = q.prefixes;
  const link = (page: number, format = "records") => {
    const params = new URLSearchParams({
      type: q.type,
      page: String(page),
      pageSize: String(q.window.pageSize),
      format,
    });
    if (q.filter !== null) params.set("filter", q.filter);
    return `${q.base}/api/query?${params.toString()}`;
  };
  const el = (name: string) => qualify(p.vcloud, name);
  const links: string[] = [
    `<${el("Link")} ${attributes({ rel: "alternate", href: link(q.window.page, "references"), type: "application/vnd.vmware.vcloud.query.references+xml" })}/>`,
    `<${el("Link")} ${attributes({ rel: "alternate", href: link(q.window.page, "idrecords"), type: "application/vnd.vmware.vcloud.query.idrecords+xml" })}/>`,
  ];
  if (q.window.page < q.pageCount) {
    links.push(
      `<${el("Link")} ${attributes({ rel: "nextPage", href: link(q.window.page + 1), type: RECORDS_TYPE })}/>`,
      `<${el("Link")} ${attributes({ rel: "lastPage", href: link(q.pageCount), type: RECORDS_TYPE })}/>`,
    );
  }
  if (q.window.page > 1) {
    links.push(
      `<${el("Link")} ${attributes({ rel: "previousPage", href: link(Math.min(q.window.page - 1, Math.max(q.pageCount, 1))), type: RECORDS_TYPE })}/>`,
      `<${el("Link")} ${attributes({ rel: "firstPage", href: link(1), type: RECORDS_TYPE })}/>`,
    );
  }
  const records = q.records.map((r) => `<${el(q.recordName)} ${attributes(r)}/>`);
  const xmlns = p.vcloud === "" ? "xmlns" : `xmlns:${p.vcloud}`;
  const root = attributes({
    name: q.type,
    page: q.window.page,
    pageSize: q.window.pageSize,
    total: q.total,
    href: link(q.window.page),
    type: RECORDS_TYPE,
  });
  const body = [...links, ...records].map((line) => `    ${line}\n`).join("");
  return `${XML_DECLARATION}\n<${el("QueryResultRecords")} ${xmlns}="${NS.vcloud}" ${root} xmlns:xsi="${NS.xsi}">\n${body}</${el("QueryResultRecords")}>\n`;
}

/**
 * Keep records matching a query filter. Only the conjunctive `attr==value;attr==value` form
 * (optionally in parentheses) is understood; anything else is a string for a 400 answer.
 */
export function applyFilter(records: QueryRecord[], filter: string | null): QueryRecord[] | string {
  if (filter === null || filter === "") return records;
  const terms: Array<[string, string]> = [];
  for (const raw of filter.replace(/^\((.*)\)$/, "$1").split(";")) {
    const match = /^\(?([A-Za-z]+)==([^(),;]*)\)?$/.exec(raw.trim());
    if (!match?.[1] || match[2] === undefined) return `Bad filter expression: ${filter}`;
    terms.push([match[1], match[2]]);
  }
  return records.filter((record) =>
    terms.every(([name, value]) => {
      const actual = record[name];
      if (actual === undefined) return false;
      if (!value.includes("*")) return actual === value;
      const pattern = value
        .split("*")
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*");
      return new RegExp(`^${pattern}$`).test(actual);
    }),
  );
}
