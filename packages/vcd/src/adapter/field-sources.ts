// Where each field of a Cloud Director VM comes from (rendered into docs/inventory.md).
import { addressRuleFieldSources, type FieldSource } from "@hyperlens/shared";

const QUERY = "`GET /api/query?type=vm` (adminVM for providers)";
const NICS = "`GET {vm}/networkConnectionSection/`";
const DISKS = "`GET {vm}/virtualHardwareSection/disks`";

/** Cloud Director: one row per field the adapter fills. */
export const VCD_FIELD_SOURCES: readonly FieldSource[] = [
  { field: "externalId", from: `${QUERY} → the VM's URN (\`urn:vcloud:vm:…\`)` },
  { field: "name", from: `${QUERY} → \`name\`` },
  { field: "kind", from: "always VM" },
  {
    field: "state",
    from: `${QUERY} → \`status\` (POWERED_ON, POWERED_OFF, SUSPENDED, …)`,
    missingWhen: "UNKNOWN for any other status",
  },
  { field: "cpuCount", from: `${QUERY} → \`numberOfCpus\``, missingWhen: "not in the record" },
  { field: "memoryBytes", from: `${QUERY} → \`memoryMB\``, missingWhen: "not in the record" },
  {
    field: "diskTotalBytes",
    from: `sum of ${DISKS} → \`capacity\``,
    missingWhen: "no disk states a capacity",
  },
  { field: "guestOs", from: `${QUERY} → \`guestOs\``, missingWhen: "not in the record" },
  { field: "isTemplate", from: "always false: VMs of vApp templates are catalog items, left out" },
  {
    field: "tags",
    from: "not read: Director keeps labels as metadata, which is not read",
    missingWhen: "always",
    isNeverFilled: true,
  },
  {
    field: "location.orgName",
    from: `${QUERY} → \`orgName\`; for a tenant session, the session's org; for a provider, the \`org\` link's name from \`GET /cloudapi/1.0.0/orgs\``,
    missingWhen: "a provider sync whose org list could not be read",
  },
  { field: "location.vdcName", from: `${QUERY} → \`vdcName\``, missingWhen: "not in the record" },
  {
    field: "location.vappName",
    from: `${QUERY} → \`containerName\``,
    missingWhen: "not in the record",
  },
  { field: "nics[].key", from: `${NICS} → \`NetworkConnectionIndex\`, as \`nic0\`…` },
  { field: "nics[].mac", from: "`MACAddress`", missingWhen: "not assigned yet" },
  {
    field: "nics[].network",
    from: "the connection's `network` attribute",
    missingWhen: "`none` (not attached)",
  },
  {
    field: "nics[].model",
    from: "`NetworkAdapterType`",
    missingWhen: "not reported (older API versions)",
  },
  { field: "nics[].isConnected", from: "`IsConnected`", missingWhen: "not reported" },
  {
    field: "reportedAddresses",
    from: `${NICS} → \`IpAddress\` and secondary addresses per connection, as Director allocated them (POOL, MANUAL) or saw leased (DHCP); \`ExternalIpAddress\` (NAT) stays in details`,
    missingWhen: "NICs with allocation mode NONE, or a DHCP lease Director has not seen",
  },
  ...addressRuleFieldSources(
    "NICs with allocation mode NONE, or a DHCP lease Director has not seen",
  ),
  {
    field: "guestReport.code",
    from: "always NOT_OFFERED_BY_SOURCE: Director reports no guest agent values (docs/behaviour.md §10.11)",
  },
  { field: "disks[].key", from: `${DISKS} → \`InstanceID\`` },
  {
    field: "disks[].label",
    from: 'the disk\'s `name` ("Hard disk 1")',
    missingWhen: "not reported",
  },
  {
    field: "disks[].capacityBytes",
    from: "`capacity` (MiB)",
    missingWhen: "not reported",
  },
  {
    field: "disks[].busType",
    from: "`busType` code (5 ide, 6 scsi, 20 sata, 21 nvme)",
    missingWhen: "not reported",
  },
  {
    field: "backing.vcenterId",
    from: `${QUERY} → \`vc\` (the vCenter's href, its UUID)`,
    missingWhen: "tenant sessions (provider-only attribute)",
  },
  { field: "backing.moref", from: `${QUERY} → \`moref\``, missingWhen: "tenant sessions" },
  {
    field: "backing.vcenterHost",
    from: "`GET /cloudapi/1.0.0/virtualCenters` → the vCenter's `url` host",
    missingWhen: "tenant sessions, or the vCenter list could not be read",
  },
];
