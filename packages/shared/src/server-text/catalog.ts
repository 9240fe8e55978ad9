// The server's words for people (docs/behaviour.md §11.4): every code the server can send beside
// an English message, with its English text in ICU MessageFormat. This is the one source of the
// English; the web's locales/*.json carry the same codes under "serverText" (en.json word for word,
// which a test holds), and `sample` names every parameter the server fills.
import type { ServerTextParams } from "./server-text.ts";

/** One code's English text and a sample of every parameter the server sends with it. */
export interface ServerTextEntry {
  en: string;
  sample: ServerTextParams;
}

/** Every code the server can send, with its English text and parameters. */
export const SERVER_TEXT = {
  // Skip reasons: why a list was not read (docs/behaviour.md §10).
  nodeNotOnline: {
    en: "node {node} is {status, select, offline {offline} other {in an unknown state}}",
    sample: { node: "pve4", status: "offline" },
  },
  // Sync summaries: sync_runs.message, one sentence per code.
  syncSummary: {
    en: "{seen, plural, one {# guest} other {# guests}} seen: {dryRun, select, true {would be } other {}}{added} added, {changed} changed, {restored} restored, {removed} removed, {unchanged} unchanged.",
    sample: {
      seen: 5,
      dryRun: "false",
      added: 1,
      changed: 1,
      restored: 0,
      removed: 1,
      unchanged: 2,
    },
  },
  lightPollSummary: {
    en: "Light poll: {listed, plural, one {# guest} other {# guests}} listed, {read} read: {added} added, {changed} changed, {restored} restored, {removed} removed.",
    sample: { listed: 12, read: 2, added: 1, changed: 1, restored: 0, removed: 0 },
  },
  syncListSkipped: {
    en: "Skipped {list} ({status, select, node_offline {node offline} other {list failed}}: {reason}).",
    sample: { list: "pve4/qemu", status: "node_offline", reason: "node pve4 is offline" },
  },
  syncListUnreported: {
    en: "List {list} was not reported; {kept, plural, one {its # guest was} other {its # guests were}} kept.",
    sample: { list: "pve2/lxc", kept: 3 },
  },
  syncGuardFired: {
    en: "Removal suppressed: only {present} of {known} known {subject, select, guests {guests} nodes {nodes} edge_gateways {edge gateways} other {{subject}}} in the lists that came back were present (fewer than half).",
    sample: { present: 1, known: 10, subject: "guests" },
  },
  syncEdgeGatewaysKept: {
    en: "Edge gateways not removed: {reason}.",
    sample: { reason: "the list was not read completely" },
  },
  // Connection Test results.
  connectionTestProxmox: {
    en: "Connected: {version, select, unknown {} other {Proxmox VE {version}, }}{nodes, plural, one {# node} other {# nodes}}, {online} online.",
    sample: { version: "9.1.1", nodes: 3, online: 2 },
  },
  connectionTestVcd: {
    en: "Connected to Cloud Director (API {apiVersion}) as {role, select, provider {provider administrator} other {organization {org}}}; {vms, plural, one {# VM} other {# VMs}} visible.",
    sample: { apiVersion: "38.0", role: "organization", org: "acme", vms: 12 },
  },
  connectionTestVcenter: {
    en: "Connected to vCenter as {user}; {hosts, plural, one {# host} other {# hosts}} visible, {connected} connected.",
    sample: { user: "reader@vsphere.local", hosts: 4, connected: 3 },
  },
  connectionTestWarning: {
    en: "{summary} Warning: {warning}",
    sample: { summary: "Connected: 3 nodes, 2 online.", warning: "These credentials can do more." },
  },
  // Failed calls to a hypervisor: our frame around the server's own words (`http`, `reason`), which
  // stay as they came.
  hyperUnreachable: {
    en: "Could not reach the {source} server: {reason}{attempts, plural, =1 {} other { (# attempts)}}",
    sample: { source: "Proxmox", reason: "connection refused by pve1:8006", attempts: 3 },
  },
  hyperTlsRejected: {
    en: "The {source} server's TLS certificate was not accepted: {reason}{attempts, plural, =1 {} other { (# attempts)}}. Hint: {hint}",
    sample: {
      source: "vCenter",
      reason: "the certificate is self-signed",
      attempts: 1,
      hint: "add the server's CA certificate",
    },
  },
  hyperLoginRefused: {
    en: "The {source} server did not accept the login ({http}); check the user name and the secret",
    sample: { source: "Proxmox", http: "HTTP 401: authentication failure" },
  },
  hyperCallForbidden: {
    en: "The {source} server refused {call} ({http}); the account lacks the permission to read it",
    sample: {
      source: "Proxmox",
      call: "GET /api2/json/nodes",
      http: "HTTP 403: Permission check failed",
    },
  },
  hyperCallNotOffered: {
    en: "The {source} server does not offer {call} ({http})",
    sample: { source: "vCenter", call: "GET /api/vcenter/vm", http: "HTTP 404" },
  },
  hyperRedirectRefused: {
    en: "The {source} server answered {call} with a redirect{target, select, none {} other { to {target}}} ({http}), which Hyperlens does not follow; check the address",
    sample: {
      source: "Cloud Director",
      call: "GET /api/versions",
      target: "https://vcd.example.com/login",
      http: "HTTP 302",
    },
  },
  hyperServerFailing: {
    en: "The {source} server failed to answer {call} ({http}){attempts, plural, =1 {} other { after # attempts}}",
    sample: { source: "Proxmox", call: "GET /api2/json/nodes", http: "HTTP 500", attempts: 3 },
  },
  hyperCallRejected: {
    en: "The {source} server rejected {call} ({http})",
    sample: { source: "Proxmox", call: "GET /api2/json/nodes", http: "HTTP 400: bad parameter" },
  },
  hyperRefusedToCall: {
    en: "Refused to call the {source} server: {reason}",
    sample: { source: "Proxmox", reason: "only https:// addresses are allowed" },
  },
  hyperRefusedToConnect: {
    en: "Refused to connect to the {source} server: {reason}",
    sample: { source: "vCenter", reason: "127.0.0.1 is a loopback address" },
  },
  hyperAnswerTooLarge: {
    en: "The {source} server sent an answer larger than {size} to {call}; refused to read it",
    sample: { source: "vCenter", size: "64 MiB", call: "GET /api/vcenter/vm" },
  },
  hyperAnswerEmpty: {
    en: "The {source} server's answer to {call} is empty ({http}), not JSON",
    sample: { source: "Proxmox", call: "GET /api2/json/nodes", http: "HTTP 200" },
  },
  hyperAnswerHtml: {
    en: "The {source} server's answer to {call} is an HTML page, not JSON ({http}, {length} characters); is a proxy or a login page in front of the server?",
    sample: { source: "Proxmox", call: "GET /api2/json/nodes", http: "HTTP 200", length: 5120 },
  },
  hyperAnswerNotJson: {
    en: "The {source} server's answer to {call} is not valid JSON ({http}, {length} characters)",
    sample: { source: "Proxmox", call: "GET /api2/json/nodes", http: "HTTP 200", length: 17 },
  },
  hyperSendFailed: {
    en: "Could not send {call} to the {source} server{code, select, none {} other { ({code})}}",
    sample: { source: "Proxmox", call: "GET /api2/json/nodes", code: "ERR_INVALID_CHAR" },
  },
  // Our words inside those frames, where we have codes for them: why a network call failed, and
  // what to do about a certificate.
  netRefused: { en: "connection refused by {hostPort}", sample: { hostPort: "pve1:8006" } },
  netUnresolved: { en: "could not resolve host {host}", sample: { host: "pve1.example.com" } },
  netDeadline: {
    en: "no complete answer from {hostPort} within {seconds} s",
    sample: { hostPort: "pve1:8006", seconds: 120 },
  },
  netTlsSelfSigned: { en: "the certificate is self-signed", sample: {} },
  netTlsUntrustedCa: { en: "the certificate was issued by a CA that is not trusted", sample: {} },
  netTlsExpired: { en: "the certificate has expired", sample: {} },
  netTlsOtherHost: { en: "the certificate was issued for a different host name", sample: {} },
  netHintAddCa: {
    en: "add the server's CA certificate or turn off verification for this connection",
    sample: {},
  },
  hyperFailureHint: {
    en: "{failure} ({hint})",
    sample: {
      failure: "The Proxmox server did not accept the login (HTTP 401)",
      hint: "user names end in a realm",
    },
  },
  // Why What changed lists a guest as removed (a REMOVED event's reason).
  removalNotInList: { en: "not in list {list}", sample: { list: "pve1/qemu" } },
  // A manual sync answered with the last run within the cool-down (docs/behaviour.md §7.4).
  manualSyncCooldown: {
    en: "Synced {seconds} s ago; the next manual sync of this connection is possible at {at}. This is the last run.",
    sample: { seconds: 12, at: "2026-01-01T00:01:00.000Z" },
  },
  // Failures a connector words itself, and its advice after a refused login.
  hyperAnswerMalformed: {
    en: "The {source} server's answer to {call} has an unexpected shape ({detail})",
    sample: { source: "vCenter", call: "GET /api/vcenter/vm", detail: "value.0.vm: Required" },
  },
  hyperNoSession: {
    en: "No {source} session is open for GET {path}; log in first (withSession)",
    sample: { source: "vCenter", path: "/api/vcenter/vm" },
  },
  proxmoxTokenIdShape: {
    en: 'The Proxmox token id "{tokenId}" is not of the form user@realm!tokenname',
    sample: { tokenId: "root@pam" },
  },
  proxmoxTokenSecretInvalid: {
    en: "The Proxmox token secret is empty or contains spaces",
    sample: {},
  },
  proxmoxNeedsTfa: {
    en: "The Proxmox account needs a second factor (TFA) to log in; use an API token for Hyperlens instead",
    sample: {},
  },
  vcenterLoginHint: {
    en: "vCenter user names include the identity source, e.g. hyperlens@vsphere.local or DOMAIN\\user",
    sample: {},
  },
  vcdLoginNameNoOrg: {
    en: "Cloud Director user names are user@org (provider administrators: user@System); the organization is missing",
    sample: {},
  },
  vcdLoginHintProvider: { en: "provider administrators log in as user@System", sample: {} },
  vcdLoginHintTenant: {
    en: "Director user names are user@org, with the organization's name (provider administrators: user@System)",
    sample: {},
  },
  vcdNoAccessToken: {
    en: "The Cloud Director server accepted the login at POST {path} but sent no X-VMWARE-VCLOUD-ACCESS-TOKEN header; Hyperlens needs Cloud Director 10.4 or later (API {minApi}+)",
    sample: { path: "/cloudapi/1.0.0/sessions", minApi: "37" },
  },
  vcdNoApiVersion: {
    en: "The Cloud Director server does not offer API {asked} nor any version from {minApi}.0 to {maxApi}.x (it offers: {offered, select, none {none} other {{offered}}}); Hyperlens needs Cloud Director 10.4 to 10.6",
    sample: { asked: "38.0", minApi: "37", maxApi: "39", offered: "33.0, 34.0" },
  },
  vcdHrefRefused: {
    en: "The Cloud Director server sent a link Hyperlens will not follow ({why, select, not_absolute {not an absolute URL} other {not below /api/}}): {href}",
    sample: { why: "not_absolute", href: "vApp/vm-1" },
  },
  // Address rejection reasons (docs/behaviour.md §10.9): "{label}: why".
  addressLabelNic: { en: "NIC {nic}", sample: { nic: "net0" } },
  addressLabelMac: { en: "interface with MAC {mac}", sample: { mac: "bc:24:11:00:00:01" } },
  addressLabelNoMac: { en: "interface without a MAC", sample: {} },
  addressInvalid: {
    en: "{label}: {address} is not an IPv4 or IPv6 address",
    sample: { label: "eth0", address: "10.0.0.300" },
  },
  addressLoopbackInterface: { en: "{label}: loopback interface", sample: { label: "lo" } },
  addressLoopback: { en: "{label}: loopback address", sample: { label: "eth0" } },
  addressIgnoredInterface: {
    en: "{label}: interface name matches the ignored pattern {pattern}",
    sample: { label: "docker0", pattern: "docker*" },
  },
  addressUnbacked: {
    en: "{label}: not backed by a virtual NIC of this VM (a guest-internal interface such as docker0)",
    sample: { label: "docker0" },
  },
  addressDeviceNotNic: {
    en: "{label}: device {device} is not a NIC of this VM",
    sample: { label: "eth1", device: "4001" },
  },
  addressNoMacForNic: {
    en: "{label}: reports no MAC address, so it cannot be matched to NIC {nic}",
    sample: { label: "eth0", nic: "4000" },
  },
  addressNoMac: {
    en: "{label}: reports no MAC address, so it cannot be matched to a NIC of this VM",
    sample: { label: "eth0" },
  },
  addressMacNotNics: {
    en: "{label}: MAC is not the one of NIC {nic} ({nicMac})",
    sample: { label: "eth0", nic: "4000", nicMac: "00:50:56:00:00:01" },
  },
  addressMacUnknown: {
    en: "{label}: MAC {mac} is not a NIC of this VM",
    sample: { label: "eth0", mac: "02:42:ac:11:00:02" },
  },
  addressLinkLocal: {
    en: "{label}: link-local address{zone, select, none {} other { (scoped to {zone})}}",
    sample: { label: "eth0", zone: "eth0" },
  },
  addressIgnoredSubnet: {
    en: "{label}: in ignored subnet {subnet}",
    sample: { label: "eth0", subnet: "172.17.0.0/16" },
  },
  addressNotPermitted: {
    en: "{label}: outside the permitted subnets ({subnets})",
    sample: { label: "eth0", subnets: "10.0.0.0/8, 192.168.0.0/16" },
  },
} as const satisfies Record<string, ServerTextEntry>;

/** A code the server can send. */
export type ServerTextCode = keyof typeof SERVER_TEXT;
