// Where each field of a Proxmox VE guest comes from (rendered into docs/inventory.md).
import { addressRuleFieldSources, type FieldSource } from "@hyperlens/shared";

const QEMU_CONFIG = "`GET /nodes/{node}/qemu/{vmid}/config`";
const LXC_CONFIG = "`GET /nodes/{node}/lxc/{vmid}/config`";
const LISTS = "`GET /nodes/{node}/qemu` and `/lxc`";

/** Proxmox VE: one row per field the adapter fills. */
export const PROXMOX_FIELD_SOURCES: readonly FieldSource[] = [
  { field: "externalId", from: `${LISTS} → \`vmid\`, as text` },
  {
    field: "name",
    from: `${QEMU_CONFIG} → \`name\`; ${LXC_CONFIG} → \`hostname\`; else the list's \`name\``,
  },
  { field: "kind", from: "which list held it: `qemu` → VM, `lxc` → CONTAINER" },
  {
    field: "state",
    from: `${LISTS} → \`status\` (running, stopped, paused, suspended/prelaunch)`,
    missingWhen: "UNKNOWN for any other status",
  },
  {
    field: "cpuCount",
    from: `${QEMU_CONFIG} → \`sockets\` × \`cores\` (1 each when unset); ${LXC_CONFIG} → \`cores\`, else the list's \`cpus\``,
    missingWhen: "a container without a core limit whose list row has no `cpus`",
  },
  { field: "memoryBytes", from: "config `memory` (MiB; 512 when unset)" },
  {
    field: "diskTotalBytes",
    from: "sum of the disks' `size=`",
    missingWhen: "no disk line states a size",
  },
  {
    field: "guestOs",
    from: "config `ostype` (`l26`, `win11`, `debian`…) as a readable name",
    missingWhen: "`ostype` unset or unknown",
  },
  {
    field: "guestOsCode",
    from: "config `ostype`, as written",
    missingWhen: "`ostype` unset",
  },
  {
    field: "biosUuid",
    from: "QEMU config `smbios1: uuid=…`, lower-cased",
    missingWhen: "containers, or a VM without `smbios1`",
  },
  { field: "isTemplate", from: "config `template: 1`, or the list's `template`" },
  { field: "tags", from: "config `tags` (split on `;`, `,` and space), else the list's `tags`" },
  { field: "location.nodeName", from: "the node whose list held it" },
  {
    field: "location.clusterName",
    from: "`GET /cluster/status` → the `type: cluster` entry's `name`",
    missingWhen: "a node that is in no cluster",
  },
  { field: "nics[].key", from: "config key: `net0`, `net1`…" },
  {
    field: "nics[].mac",
    from: "QEMU `netN: <model>=<MAC>` (or `macaddr=`); container `hwaddr=`",
    missingWhen: "the line names no MAC",
  },
  { field: "nics[].network", from: "`bridge=`", missingWhen: "no bridge on the line" },
  {
    field: "nics[].model",
    from: "QEMU: the model before `=` (virtio, e1000…); containers: `veth`",
  },
  {
    field: "nics[].isConnected",
    from: "QEMU `link_down=1` → false",
    missingWhen: "containers (no such setting)",
  },
  { field: "nics[].vlan", from: "`tag=`", missingWhen: "untagged" },
  {
    field: "reportedAddresses",
    from: "QEMU: `GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces` → `result[].ip-addresses[]` with each interface's name and MAC; containers: config `ipN`/`ip6` static addresses and `GET /nodes/{node}/lxc/{vmid}/interfaces`",
    missingWhen:
      "VM stopped, guest agent not configured or not running, the token lacks the agent privilege (`VM.Monitor` before 9, `VM.GuestAgent.Audit` from 9); container stopped with DHCP addressing",
  },
  ...addressRuleFieldSources(
    "VM stopped, guest agent not configured or not running, the token lacks the agent privilege (`VM.Monitor` before 9, `VM.GuestAgent.Audit` from 9); container stopped with DHCP addressing",
  ),
  {
    field: "guestValues.HOSTNAME",
    from: "QEMU: `GET /nodes/{node}/qemu/{vmid}/agent/get-host-name` → `result.host-name`; containers: config `hostname`",
    missingWhen:
      "QEMU: asked only when `network-get-interfaces` answered; kept as last known while the agent is silent (docs/behaviour.md §10.10)",
  },
  {
    field: "guestValues.OS_NAME",
    from: "`GET /nodes/{node}/qemu/{vmid}/agent/get-osinfo` → `result.pretty-name`, else `name`",
    missingWhen: "as the hostname; containers (the host reports no OS name)",
  },
  {
    field: "guestValues.OS_VERSION",
    from: "`get-osinfo` → `result.version`, else `version-id`",
    missingWhen: "as the OS name",
  },
  {
    field: "guestValues.KERNEL",
    from: "`get-osinfo` → `result.kernel-release`",
    missingWhen: "as the OS name",
  },
  {
    field: "guestReport.code",
    from: "how the agent calls fared: reported, VM not running, agent not configured or not running, permission missing, read failed (docs/behaviour.md §10.11)",
  },
  {
    field: "disks[].key",
    from: "config key: `scsi0`, `virtio1`, `sata0`, `ide2`; containers `rootfs`, `mpN`",
  },
  { field: "disks[].capacityBytes", from: "`size=` (K, M, G, T)", missingWhen: "no `size=`" },
  {
    field: "disks[].storage",
    from: "the volume's storage before `:` (`local-lvm:vm-100-disk-0`)",
    missingWhen: "a pass-through device or a path without a storage",
  },
  { field: "disks[].busType", from: "the key's bus: scsi, virtio, sata, ide, rootfs, mp" },
];
