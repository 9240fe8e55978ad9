// Where each field of a vCenter VM comes from (rendered into docs/inventory.md).
import { addressRuleFieldSources, type FieldSource } from "@hyperlens/shared";

const VM_INFO = "`GET /api/vcenter/vm/{vm}`";

/** vCenter: one row per field the adapter fills. */
export const VCENTER_FIELD_SOURCES: readonly FieldSource[] = [
  { field: "externalId", from: "`GET /api/vcenter/vm` → `vm` (the MoRef, `vm-1049`)" },
  { field: "name", from: `${VM_INFO} → \`name\`` },
  { field: "kind", from: "always VM" },
  {
    field: "state",
    from: `${VM_INFO} → \`power_state\` (POWERED_ON, POWERED_OFF, SUSPENDED)`,
    missingWhen: "UNKNOWN for any other state",
  },
  {
    field: "cpuCount",
    from: `${VM_INFO} → \`cpu.count\`, else the list's \`cpu_count\``,
    missingWhen: "neither has it",
  },
  {
    field: "memoryBytes",
    from: `${VM_INFO} → \`memory.size_MiB\`, else the list's \`memory_size_MiB\``,
    missingWhen: "neither has it",
  },
  {
    field: "diskTotalBytes",
    from: "sum of the disks' `capacity`",
    missingWhen: "no disk states a capacity",
  },
  {
    field: "guestOs",
    from: `${VM_INFO} → \`guest_OS\`, named as the vSphere Client names it ("Red Hat Enterprise Linux 9 (64-bit)"); an id the table lacks stays as sent`,
    missingWhen: "not set on the VM",
  },
  {
    field: "guestOsCode",
    from: `${VM_INFO} → \`guest_OS\`, as sent`,
    missingWhen: "not set on the VM",
  },
  {
    field: "biosUuid",
    from: `${VM_INFO} → \`identity.bios_uuid\`, lower-cased`,
    missingWhen: "not reported",
  },
  {
    field: "instanceUuid",
    from: `${VM_INFO} → \`identity.instance_uuid\`, lower-cased`,
    missingWhen: "not reported",
  },
  { field: "isTemplate", from: "always false: the VM list does not return templates" },
  {
    field: "tags",
    from: "not read: vSphere tags live in the CIS tagging API",
    missingWhen: "always",
    isNeverFilled: true,
  },
  {
    field: "location.datacenterName",
    from: "`GET /api/vcenter/datacenter` → `name` of the datacenter the VM was listed under",
    missingWhen: "the VM was found by a folder split only",
  },
  {
    field: "location.clusterName",
    from: "`GET /api/vcenter/cluster` → `name` of the host's cluster",
    missingWhen: "a standalone host",
  },
  {
    field: "location.hostName",
    from: "`GET /api/vcenter/host` → `name` of the host the VM was listed under",
    missingWhen: "the VM was found by a folder split only",
  },
  { field: "nics[].key", from: `${VM_INFO} → \`nics\` object keys (device keys, \`4000\`)` },
  {
    field: "nics[].label",
    from: '`nics.{key}.label` ("Network adapter 1")',
    missingWhen: "not reported",
  },
  {
    field: "nics[].mac",
    from: "`nics.{key}.mac_address`",
    missingWhen: "no MAC generated yet",
  },
  {
    field: "nics[].network",
    from: "`nics.{key}.backing.network_name`, else `backing.network`",
    missingWhen: "no backing network",
  },
  { field: "nics[].model", from: "`nics.{key}.type` (vmxnet3, e1000e…)", missingWhen: "unset" },
  {
    field: "nics[].isConnected",
    from: "`nics.{key}.state` = CONNECTED",
    missingWhen: "no state reported",
  },
  {
    field: "reportedAddresses",
    from: "`GET /api/vcenter/vm/{vm}/guest/networking/interfaces` → `ip.ip_addresses[]` with each interface's MAC and the NIC that backs it (`nic`)",
    missingWhen: "VM powered off, VMware Tools not running (503), or the user lacks the privilege",
  },
  ...addressRuleFieldSources(
    "VM powered off, VMware Tools not running (503), or the user lacks the privilege",
  ),
  {
    field: "guestValues.HOSTNAME",
    from: "`GET /api/vcenter/vm/{vm}/guest/identity` → `host_name`",
    missingWhen:
      "asked only when guest networking answered; kept as last known while Tools are silent (docs/behaviour.md §10.10)",
  },
  {
    field: "guestValues.OS_NAME",
    from: "`guest/identity` → `full_name.default_message`",
    missingWhen: "as the hostname",
  },
  {
    field: "guestReport.code",
    from: "how the Tools calls fared: reported, VM not powered on, Tools not running, permission missing, read failed (docs/behaviour.md §10.11)",
  },
  { field: "disks[].key", from: `${VM_INFO} → \`disks\` object keys (device keys, \`2000\`)` },
  {
    field: "disks[].label",
    from: '`disks.{key}.label` ("Hard disk 1")',
    missingWhen: "not reported",
  },
  {
    field: "disks[].capacityBytes",
    from: "`disks.{key}.capacity`",
    missingWhen: "not reported",
  },
  {
    field: "disks[].storage",
    from: "the datastore in `disks.{key}.backing.vmdk_file` (`[datastore1] …`)",
    missingWhen: "not a VMDK-backed disk",
  },
  {
    field: "disks[].busType",
    from: "`disks.{key}.type` (scsi, sata, nvme, ide)",
    missingWhen: "unset",
  },
];
