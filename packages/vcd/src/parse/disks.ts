import { z } from "zod";
import { optionalAttr, optionalText, repeated, toInt } from "./fields.ts";
import { parseWith } from "./malformed.ts";
import { isRecord, parseXmlRoot } from "./xml.ts";

/** One virtual disk (RASD ResourceType 17) of `GET {vm}/virtualHardwareSection/disks`. */
export interface VcdDisk {
  /** RASD InstanceID ("2000"), unique per VM. */
  instanceId: string;
  /** "Hard disk 1". */
  name: string | null;
  capacityMiB: number | null;
  /** Director bus type code: "6" SCSI, "5" IDE, "20" SATA, "21" NVMe. */
  busType: string | null;
  /** "lsilogicsas", "VirtualSCSI", … */
  busSubType: string | null;
  /** Parent controller's InstanceID. */
  parent: string | null;
}

const DISK_RESOURCE_TYPE = "17";

// The capacity attributes are namespaced (`vcloud:capacity`, `ns13:capacity`); read by local name.
const hostResource = z.preprocess(
  (v) => (isRecord(v) ? v : {}),
  z.looseObject({
    "@capacity": optionalAttr,
    "@busType": optionalAttr,
    "@busSubType": optionalAttr,
  }),
);

const item = z.looseObject({
  ResourceType: optionalText,
  InstanceID: optionalText,
  ElementName: optionalText,
  Parent: optionalText,
  HostResource: hostResource,
  VirtualQuantity: optionalText,
  VirtualQuantityUnits: optionalText,
});

const list = z.looseObject({ Item: repeated(item) });

const MIB = 1024 * 1024;

/** Parses a RasdItemsList and keeps the disks; controllers (types 5, 6, 20) are left out. */
export function parseDisks(text: string, call: string): VcdDisk[] {
  const root = parseWith(list, parseXmlRoot(text, "RasdItemsList", call), call, "RasdItemsList");
  return root.Item.filter((i) => i.ResourceType?.trim() === DISK_RESOURCE_TYPE).map(
    (i, position): VcdDisk => {
      const bytes = toInt(i.VirtualQuantity);
      const unit = i.VirtualQuantityUnits?.toLowerCase();
      const fromBytes = bytes !== null && unit === "byte" ? bytes / MIB : null;
      return {
        instanceId: i.InstanceID ?? `disk${position}`,
        name: i.ElementName ?? null,
        capacityMiB: toInt(i.HostResource["@capacity"]) ?? fromBytes,
        busType: i.HostResource["@busType"] ?? null,
        busSubType: i.HostResource["@busSubType"] ?? null,
        parent: i.Parent ?? null,
      };
    },
  );
}
