import type { VcdNic, VcdVm, VmPlacement } from "./model.ts";
import { NS, type Prefixes, qualify, rootDeclarations } from "./namespaces.ts";
import { vmHref } from "./render-query.ts";
import { attributes, escapeXml, XML_DECLARATION } from "./xml.ts";

/** Director's numeric VM status codes in the entity (the query service names them instead). */
const STATUS_CODE: Record<VcdVm["status"], number> = {
  POWERED_ON: 4,
  POWERED_OFF: 8,
  SUSPENDED: 3,
};

const NETWORK_SECTION_TYPE = "application/vnd.vmware.vcloud.networkConnectionSection+xml";
const RASD_LIST_TYPE = "application/vnd.vmware.vcloud.rasdItemsList+xml";

/** The element children of `NetworkConnectionSection`, indented by `indent`. */
function networkSectionBody(vm: VcdVm, href: string, p: Prefixes, indent: string): string {
  const v = (name: string) => qualify(p.vcloud, name);
  const lines = [
    `<${p.ovf}:Info>Specifies the available VM network connections</${p.ovf}:Info>`,
    `<${v("PrimaryNetworkConnectionIndex")}>${vm.primaryNicIndex}</${v("PrimaryNetworkConnectionIndex")}>`,
    ...vm.nics.flatMap((nic) => networkConnection(nic, p)),
    `<${v("Link")} ${attributes({ rel: "edit", href, type: NETWORK_SECTION_TYPE })}/>`,
  ];
  return lines.map((line) => `${indent}${line}\n`).join("");
}

function networkConnection(nic: VcdNic, p: Prefixes): string[] {
  const v = (name: string) => qualify(p.vcloud, name);
  const field = (name: string, value: string | number | boolean | undefined) =>
    value === undefined ? [] : [`    <${v(name)}>${escapeXml(String(value))}</${v(name)}>`];
  return [
    `<${v("NetworkConnection")} ${attributes({ needsCustomization: "false", network: nic.network })}>`,
    ...field("NetworkConnectionIndex", nic.index),
    ...field("IpAddress", nic.ipAddress),
    ...field("ExternalIpAddress", nic.externalIpAddress),
    ...field("IsConnected", nic.connected),
    ...field("MACAddress", nic.mac),
    ...field("IpAddressAllocationMode", nic.allocationMode),
    ...field("NetworkAdapterType", nic.adapterType),
    `</${v("NetworkConnection")}>`,
  ];
}

/** `GET {vm}/networkConnectionSection/` (the href keeps Director's trailing slash). */
export function networkConnectionSectionXml(
  base: string,
  vm: VcdVm,
  template: boolean,
  p: Prefixes,
): string {
  const href = `${vmHref(base, vm, template)}/networkConnectionSection/`;
  const root = qualify(p.vcloud, "NetworkConnectionSection");
  const head = `${rootDeclarations(p)} ${attributes({ href, type: NETWORK_SECTION_TYPE })} ${p.ovf}:required="false"`;
  return `${XML_DECLARATION}\n<${root} ${head}>\n${networkSectionBody(vm, href, p, "    ")}</${root}>\n`;
}

/** One `<rasd:…>` child: a value, or `xsi:nil` as Director writes every unset field. */
function rasd(p: Prefixes, name: string, value: string | undefined): string {
  const tag = `${p.rasd}:${name}`;
  return value === undefined
    ? `<${tag} xmlns:xsi="${NS.xsi}" xsi:nil="true"/>`
    : `<${tag}>${escapeXml(value)}</${tag}>`;
}

interface RasdItem {
  Address?: string;
  AddressOnParent?: string;
  Description: string;
  ElementName: string;
  /** Pre-rendered HostResource element (disks only). */
  hostResource?: string;
  InstanceID: string;
  Parent?: string;
  ResourceSubType?: string;
  ResourceType: string;
  VirtualQuantity?: string;
  VirtualQuantityUnits?: string;
}

function rasdItem(p: Prefixes, item: RasdItem): string {
  const fields: string[] = [
    rasd(p, "Address", item.Address),
    rasd(p, "AddressOnParent", item.AddressOnParent),
    ...["AllocationUnits", "AutomaticAllocation", "AutomaticDeallocation", "Caption"].map((n) =>
      rasd(p, n, undefined),
    ),
    ...["ChangeableType", "ConfigurationName", "ConsumerVisibility"].map((n) =>
      rasd(p, n, undefined),
    ),
    rasd(p, "Description", item.Description),
    rasd(p, "ElementName", item.ElementName),
    rasd(p, "Generation", undefined),
    ...(item.hostResource === undefined ? [] : [item.hostResource]),
    rasd(p, "InstanceID", item.InstanceID),
    ...["Limit", "MappingBehavior", "OtherResourceType"].map((n) => rasd(p, n, undefined)),
    rasd(p, "Parent", item.Parent),
    rasd(p, "PoolID", undefined),
    rasd(p, "Reservation", undefined),
    rasd(p, "ResourceSubType", item.ResourceSubType),
    rasd(p, "ResourceType", item.ResourceType),
    rasd(p, "VirtualQuantity", item.VirtualQuantity),
    rasd(p, "VirtualQuantityUnits", item.VirtualQuantityUnits),
    rasd(p, "Weight", undefined),
  ];
  const item_ = qualify(p.vcloud, "Item");
  return `    <${item_}>\n${fields.map((f) => `        ${f}\n`).join("")}    </${item_}>\n`;
}

/**
 * `GET {vm}/virtualHardwareSection/disks`: SCSI controllers (ResourceType 6), disks
 * (ResourceType 17, capacity in MB on `HostResource` in the vCloud namespace) and the IDE
 * controller every VM has (ResourceType 5) — a client must keep only the 17s.
 */
export function disksXml(base: string, vm: VcdVm, template: boolean, p: Prefixes): string {
  const href = `${vmHref(base, vm, template)}/virtualHardwareSection/disks`;
  const controllers = [...new Set(vm.disks.map((d) => d.controller ?? "lsilogicsas"))];
  const controllerIds = new Map(controllers.map((sub, i) => [sub, i]));
  let items = controllers
    .map((sub, i) =>
      rasdItem(p, {
        Address: String(i),
        Description: "SCSI Controller",
        ElementName: `SCSI Controller ${i}`,
        InstanceID: String(2 + i),
        ResourceSubType: sub,
        ResourceType: "6",
      }),
    )
    .join("");
  const perController = new Map<string, number>();
  vm.disks.forEach((disk, i) => {
    const sub = disk.controller ?? "lsilogicsas";
    const unit = perController.get(sub) ?? 0;
    perController.set(sub, unit + 1);
    const hr = p.hostResource;
    const declaration = p.hostResourceDeclaredLocally ? ` xmlns:${hr}="${NS.vcloud}"` : "";
    const capacity = `${hr}:busType="6" ${hr}:busSubType="${escapeXml(sub)}" ${hr}:capacity="${disk.sizeMb}"`;
    items += rasdItem(p, {
      AddressOnParent: String(unit),
      Description: "Hard disk",
      ElementName: `Hard disk ${i + 1}`,
      hostResource: `<${p.rasd}:HostResource${declaration} ${capacity}></${p.rasd}:HostResource>`,
      InstanceID: String(2000 + (controllerIds.get(sub) ?? 0) * 16 + unit),
      Parent: String(2 + (controllerIds.get(sub) ?? 0)),
      ResourceType: "17",
      VirtualQuantity: String(disk.sizeMb * 1024 * 1024),
      VirtualQuantityUnits: "byte",
    });
  });
  items += rasdItem(p, {
    Address: "0",
    Description: "IDE Controller",
    ElementName: "IDE Controller 0",
    InstanceID: String(2 + controllers.length),
    ResourceType: "5",
  });
  const root = qualify(p.vcloud, "RasdItemsList");
  const link = `    <${qualify(p.vcloud, "Link")} ${attributes({ rel: "edit", href, type: RASD_LIST_TYPE })}/>\n`;
  return `${XML_DECLARATION}\n<${root} ${rootDeclarations(p)} ${attributes({ href, type: RASD_LIST_TYPE })}>\n${link}${items}</${root}>\n`;
}

/** `GET /api/vApp/vm-{uuid}`: the entity with its OS and network sections (no hardware section). */
export function vmXml(base: string, vm: VcdVm, where: VmPlacement, p: Prefixes): string {
  const template = where.vapp.template;
  const href = vmHref(base, vm, template);
  const v = (name: string) => qualify(p.vcloud, name);
  const root = attributes({
    needsCustomization: "false",
    nestedHypervisorEnabled: "false",
    deployed: String(!template && vm.status !== "POWERED_OFF"),
    status: STATUS_CODE[vm.status],
    name: vm.name,
    id: `urn:vcloud:vm:${vm.id}`,
    href,
    type: "application/vnd.vmware.vcloud.vm+xml",
  });
  const up = template
    ? `${base}/api/vAppTemplate/vappTemplate-${where.vapp.id}`
    : `${base}/api/vApp/vapp-${where.vapp.id}`;
  const sectionHref = `${href}/networkConnectionSection/`;
  const lines = [
    `    <${v("Link")} ${attributes({ rel: "up", href: up, type: template ? "application/vnd.vmware.vcloud.vAppTemplate+xml" : "application/vnd.vmware.vcloud.vApp+xml" })}/>\n`,
    `    <${v("Description")}/>\n`,
    `    <${p.ovf}:OperatingSystemSection ${p.ovf}:id="1" ${p.ovf}:required="false">\n`,
    `        <${p.ovf}:Info>Specifies the operating system installed</${p.ovf}:Info>\n`,
    `        <${p.ovf}:Description>${escapeXml(vm.guestOs)}</${p.ovf}:Description>\n`,
    `    </${p.ovf}:OperatingSystemSection>\n`,
    `    <${v("NetworkConnectionSection")} ${attributes({ href: sectionHref, type: NETWORK_SECTION_TYPE })} ${p.ovf}:required="false">\n`,
    networkSectionBody(vm, sectionHref, p, "        "),
    `    </${v("NetworkConnectionSection")}>\n`,
    `    <${v("DateCreated")}>${escapeXml(vm.dateCreated)}</${v("DateCreated")}>\n`,
    `    <${v("StorageProfile")} ${attributes({ name: vm.storageProfileName, type: "application/vnd.vmware.vcloud.vdcStorageProfile+xml" })}/>\n`,
  ];
  return `${XML_DECLARATION}\n<${v("Vm")} ${rootDeclarations(p)} ${root}>\n${lines.join("")}</${v("Vm")}>\n`;
}
