import type { VmRow } from "./vm-row.ts";

type VmLocation = VmRow["location"];

/** Where a guest runs, in one line: node · cluster, org / VDC / vApp, or datacenter / cluster / host. */
export function locationText(location: VmLocation): string {
  const director = [location.orgName, location.vdcName, location.vappName].filter(Boolean);
  if (director.length > 0) return director.join(" / ");
  const vcenter = [location.datacenterName, location.clusterName, location.hostName].filter(
    Boolean,
  );
  if (location.hostName || location.datacenterName) return vcenter.join(" / ");
  return [location.nodeName, location.clusterName].filter(Boolean).join(" · ");
}
