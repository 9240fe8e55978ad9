import { parsePropertyString } from "./property-string.ts";
import { parseSizeToBytes } from "./size.ts";

/** A disk or container volume from a config line. */
export interface GuestDisk {
  /** Config key: "scsi0", "virtio1", "sata0", "ide0", "rootfs", "mp3". */
  key: string;
  /** scsi, virtio, sata, ide, rootfs or mp. */
  bus: string;
  /** Volume id ("local-lvm:vm-100-disk-0") or, for a bind mount, the host path. */
  volume: string;
  /** Storage name before ":" (null for bind mounts and bare paths). */
  storage: string | null;
  /** Size in bytes, null when the line states none (bind mounts, some imported disks). */
  sizeBytes: number | null;
  /** For container volumes: where it is mounted inside ("/" for rootfs). */
  mountPoint: string | null;
}

const QEMU_DISK_KEY = /^(scsi|virtio|sata|ide)(\d+)$/;
const LXC_VOLUME_KEY = /^(rootfs|mp(\d+))$/;

/** Parses a QEMU disk line (`scsi0: local-lvm:vm-100-disk-0,size=32G`); null for CD-ROMs, `none` and non-disk keys. */
export function parseQemuDisk(key: string, value: string): GuestDisk | null {
  const match = QEMU_DISK_KEY.exec(key);
  if (!match?.[1]) return null;
  const { items, values } = parsePropertyString(value);
  const volume = values.get("file") ?? (items[0]?.[0] === "" ? items[0][1] : undefined);
  if (volume === undefined || volume === "none") return null;
  if (values.get("media") === "cdrom") return null;
  return {
    key,
    bus: match[1],
    volume,
    storage: storageOf(volume),
    sizeBytes: parseSizeToBytes(values.get("size")),
    mountPoint: null,
  };
}

/** Parses a container volume line (`rootfs: local-lvm:vm-100-disk-0,size=8G`, `mp0: /host/path,mp=/data`). */
export function parseLxcVolume(key: string, value: string): GuestDisk | null {
  const match = LXC_VOLUME_KEY.exec(key);
  if (!match) return null;
  const { items, values } = parsePropertyString(value);
  const volume = values.get("volume") ?? (items[0]?.[0] === "" ? items[0][1] : undefined);
  if (volume === undefined) return null;
  return {
    key,
    bus: key === "rootfs" ? "rootfs" : "mp",
    volume,
    storage: storageOf(volume),
    sizeBytes: parseSizeToBytes(values.get("size")),
    mountPoint: key === "rootfs" ? "/" : (values.get("mp") ?? null),
  };
}

function storageOf(volume: string): string | null {
  if (volume.startsWith("/")) return null;
  const at = volume.indexOf(":");
  return at > 0 ? volume.slice(0, at) : null;
}
