import type { VcdVcenter } from "./model.ts";

/**
 * One `VirtualCenter` of `GET /cloudapi/1.0.0/virtualCenters`, with the fields Director 10.x
 * sends (the password is always null in a read).
 */
export function virtualCenterJson(vcenter: VcdVcenter): Record<string, unknown> {
  return {
    vcId: `urn:vcloud:vimserver:${vcenter.id}`,
    name: vcenter.name,
    description: "",
    username: "administrator@vsphere.local",
    password: null,
    url: vcenter.url,
    isEnabled: vcenter.isEnabled ?? true,
    vsphereWebClientServerUrl: null,
    hasProxy: false,
    rootFolder: null,
    vcNoneNetwork: null,
    vcNoneNetworkMoref: null,
    tenantVisibleName: vcenter.name,
    isConnected: vcenter.isConnected ?? true,
    mode: "IAAS",
    listenerState: vcenter.isConnected === false ? "DISCONNECTED" : "CONNECTED",
    clusterHealthStatus: "GREEN",
    vcVersion: vcenter.version ?? "8.0.2",
    buildNumber: "22617221",
    uuid: vcenter.instanceUuid ?? instanceUuidOf(vcenter.id),
    nsxVManager: null,
    proxyConfigurationUrn: null,
  };
}

// A stable instance UUID distinct from the vimServer id, as on a real install.
function instanceUuidOf(id: string): string {
  const hex = [...id.replace(/-/g, "")].reverse().join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
