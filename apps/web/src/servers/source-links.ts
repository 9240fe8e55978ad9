// Where a guest lives in its source's own web UI (docs/behaviour.md §9.42). Every builder answers
// null rather than a link that could open the wrong machine: a base address that is not https, or
// an id that is missing or not of the source's shape.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUIDS_IN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const MOREF = /^vm-\d+$/;
const VCD_VM_URN = /^urn:vcloud:vm:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The connection's address as the root of its UI: https only, without credentials, query or
 * fragment, and without a trailing slash (a path, as behind a reverse proxy, is kept).
 */
export function uiRoot(baseUrl: string | null | undefined): string | null {
  if (!baseUrl) return null;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return null;
  }
  if (url.protocol !== "https:") return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** Proxmox VE: the guest selected in the resource tree, `#v1:0:=qemu/101` (or `=lxc/101`). */
export function proxmoxGuestUrl(
  baseUrl: string | null | undefined,
  guestType: string | null | undefined,
  vmid: number | null | undefined,
): string | null {
  const root = uiRoot(baseUrl);
  if (root === null || (guestType !== "qemu" && guestType !== "lxc")) return null;
  if (typeof vmid !== "number" || !Number.isSafeInteger(vmid) || vmid < 1) return null;
  return `${root}/#v1:0:=${guestType}/${vmid}`;
}

/**
 * vSphere Client: the VM's summary, `…/ui/app/vm;nav=h/urn:vmomi:VirtualMachine:<moref>:<vCenter
 * instance UUID>/summary`. Without the vCenter's instance UUID (Hyperlens does not read it), the
 * client's search for the VM's name; without a name either, nothing.
 */
export function vsphereVmUrl(
  baseUrl: string | null | undefined,
  moref: string | null | undefined,
  vcenterInstanceUuid: string | null | undefined,
  name: string | null | undefined,
): string | null {
  const root = uiRoot(baseUrl);
  if (root === null) return null;
  if (moref && MOREF.test(moref) && vcenterInstanceUuid && UUID.test(vcenterInstanceUuid)) {
    return `${root}/ui/app/vm;nav=h/urn:vmomi:VirtualMachine:${moref}:${vcenterInstanceUuid.toLowerCase()}/summary`;
  }
  if (!name) return null;
  return `${root}/ui/#?extensionId=vsphere.core.search.domainView&query=${encodeURIComponent(name)}`;
}

/**
 * Cloud Director tenant portal: `…/tenant/<org>/vdcs/<VDC UUID>/vm/<VM URN>/general`. The VDC's
 * UUID is the last one in the VDC href Director gave with the VM.
 */
export function directorVmUrl(
  baseUrl: string | null | undefined,
  orgName: string | null | undefined,
  vdcHref: string | null | undefined,
  urn: string | null | undefined,
): string | null {
  const root = uiRoot(baseUrl);
  const vdcId = vdcHref?.match(UUIDS_IN)?.at(-1);
  if (root === null || !orgName || !vdcId || !urn || !VCD_VM_URN.test(urn)) return null;
  return `${root}/tenant/${encodeURIComponent(orgName)}/vdcs/${vdcId.toLowerCase()}/vm/${urn.toLowerCase()}/general`;
}
