import type { ReactNode } from "react";
import { useQuery } from "urql";
import { rejectRuleText } from "../address-rules/rules-text.ts";
import { graphql, type ResultOf } from "../graphql/graphql.ts";
import { formatBytes, formatDateTime } from "../i18n/format.ts";
import { currentLanguage, type MessageKey, t } from "../i18n/i18n.ts";
import { serverMessageText } from "../i18n/server-text.ts";
import { Badge, SourceBadge } from "../ui/badge.tsx";
import { CopyButton } from "../ui/copy-button.tsx";
import { Isolated } from "../ui/cut-text.tsx";
import { Drawer } from "../ui/drawer.tsx";
import { powerTone } from "../ui/tone.ts";
import { type CrossSourceFields, crossSourceText } from "./cross-source-text.ts";
import { GuestValues, GuestValuesFields } from "./guest-values.tsx";
import { locationText } from "./location-text.ts";
import { directorVmUrl, proxmoxGuestUrl, vsphereVmUrl } from "./source-links.ts";
import { VmRowFields } from "./vm-row.ts";

const VmDetailFields = graphql(
  `
  fragment VmDetailFields on VirtualMachine {
    ...VmRowFields
    ...GuestValuesFields
    guestOs guestOsCode biosUuid instanceUuid primaryAddress
    isTemplate tags firstSeenAt changedAt removedAt removedReason details
    nics { key label mac network model isConnected vlan }
    disks { key label capacityBytes storage busType }
    allIps: ipAddresses(includeRejected: true) {
      address prefixLength origin interfaceName nicKey isAccepted rejectRule rejectReason
      rejectReasonText { code params message }
      lastConfirmedAt
    }
    history(first: 50) { at type changes }
    connection { url }
    ... on ProxmoxGuest { vmid guestType }
    ... on VcdVm { urn backingVm { id name connection { name } } }
    ... on VcenterVm { moref backedDirectorVm { id name connection { name } } }
  }
`,
  [VmRowFields, GuestValuesFields],
);

const VM_DETAIL = graphql(
  `
  query VmDetail($id: ID!) { node(id: $id) { ...VmDetailFields } }
`,
  [VmDetailFields],
);

type VmDetail = ResultOf<typeof VmDetailFields>;

function Facts(props: { vm: VmDetail }) {
  const { vm } = props;
  const locale = currentLanguage();
  const rows: [MessageKey, ReactNode][] = [
    ["servers.column.source", <SourceBadge key="s" source={vm.source} />],
    [
      "servers.column.state",
      <Badge key="b" tone={powerTone(vm.state)}>
        {t(`state.${vm.state}`)}
      </Badge>,
    ],
    ["servers.column.location", <Isolated key="l">{locationText(vm.location) || "—"}</Isolated>],
    ["servers.column.connection", <bdi key="c">{vm.connection.name}</bdi>],
    ["detail.guestOs", <GuestOs key="os" name={vm.guestOs} code={vm.guestOsCode} />],
    ["servers.column.cpu", vm.cpuCount ?? "—"],
    ["servers.column.memory", formatBytes(locale, vm.memoryBytes)],
    ["servers.column.disk", formatBytes(locale, vm.diskTotalBytes)],
    ["detail.tags", vm.tags.join(", ") || "—"],
    ...idRows(vm),
    ["detail.confirmation", t(`confirmation.${vm.confirmation}` as MessageKey)],
    ["detail.firstSeen", formatDateTime(locale, vm.firstSeenAt)],
    ["servers.column.lastSeen", formatDateTime(locale, vm.lastSeenAt)],
  ];
  return (
    <dl className="facts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{t(label)}</dt>
          <dd>{value}</dd>
        </div>
      ))}
      {vm.removedAt && (
        <div>
          <dt>{t("detail.removed")}</dt>
          <dd>
            {formatDateTime(locale, vm.removedAt)} {vm.removedReason}
          </dd>
        </div>
      )}
    </dl>
  );
}

/** The readable OS name with the source's own code beside it when they differ (docs/behaviour.md §6.3). */
function GuestOs(props: { name: string | null; code: string | null }) {
  if (props.name === null) return <>—</>;
  return (
    <>
      {props.name}
      {props.code && props.code !== props.name && (
        <>
          {" "}
          <Isolated className="mono muted">{props.code}</Isolated>
        </>
      )}
    </>
  );
}

/** The source's own id (VMID, MoRef, URN) and the BIOS and instance UUIDs it reported, each with Copy. */
function idRows(vm: VmDetail): [MessageKey, ReactNode][] {
  const ids: [MessageKey, string | number | null | undefined][] = [
    [
      "detail.sourceId",
      "vmid" in vm ? vm.vmid : "moref" in vm ? vm.moref : "urn" in vm ? vm.urn : null,
    ],
    ["detail.biosUuid", vm.biosUuid],
    ["detail.instanceUuid", vm.instanceUuid],
  ];
  return ids.flatMap(([label, id]): [MessageKey, ReactNode][] =>
    id === null || id === undefined || id === ""
      ? []
      : [
          [
            label,
            <CopyableValue
              key={label}
              value={String(id)}
              label={t("detail.copyId", { value: id })}
            />,
          ],
        ],
  );
}

/** A value in monospace with its Copy button. */
function CopyableValue(props: { value: string; label: string }) {
  return (
    <>
      <Isolated className="mono">{props.value}</Isolated>{" "}
      <CopyButton value={props.value} label={props.label} />
    </>
  );
}

/**
 * "Open in Proxmox VE / vSphere Client / Cloud Director" (docs/behaviour.md §9.42): only for those
 * shown the connection's address (§7.2), and only when the ids make a sure link.
 */
function SourceLink(props: { vm: VmDetail }) {
  const { vm } = props;
  const base = vm.connection.url;
  const vdcHref = vcdDetail(vm.details, "vdcHref");
  const [ui, href] =
    "vmid" in vm
      ? ["Proxmox VE", proxmoxGuestUrl(base, vm.guestType, vm.vmid)]
      : "moref" in vm
        ? ["vSphere Client", vsphereVmUrl(base, vm.moref, null, vm.name)]
        : "urn" in vm
          ? ["Cloud Director", directorVmUrl(base, vm.location.orgName, vdcHref, vm.urn)]
          : [null, null];
  if (ui === null || href === null) return null;
  return (
    <p>
      <a href={href} target="_blank" rel="noopener noreferrer">
        {t("detail.openIn", { ui })}
      </a>
    </p>
  );
}

/** A string the Director adapter keeps under `details.vcd`, or null. */
function vcdDetail(details: unknown, key: string): string | null {
  const vcd = (details as { vcd?: Record<string, unknown> } | null)?.vcd;
  const value = vcd?.[key];
  return typeof value === "string" ? value : null;
}

function CrossSource(props: { vm: CrossSourceFields }) {
  const text = crossSourceText(props.vm);
  return text === null ? null : <p>{text}</p>;
}

function Nics(props: { vm: VmDetail }) {
  const locale = currentLanguage();
  const unattached = props.vm.allIps.filter(
    (ip) => !props.vm.nics.some((n) => n.key === ip.nicKey),
  );
  const ipLine = (ip: VmDetail["allIps"][number]) => (
    <li
      key={`${ip.address}-${ip.interfaceName}`}
      className={ip.isAccepted ? undefined : "rejected"}
    >
      <Isolated className="mono">
        {ip.address}
        {ip.prefixLength !== null ? `/${ip.prefixLength}` : ""}
      </Isolated>{" "}
      <CopyButton value={ip.address} label={t("detail.copyAddress", { value: ip.address })} />{" "}
      {ip.isAccepted && ip.address === props.vm.primaryAddress && (
        <>
          <Badge tone="ok">{t("detail.primary")}</Badge>{" "}
        </>
      )}
      <span className="muted">
        {t(`ipOrigin.${ip.origin}` as MessageKey)} ·{" "}
        {t("detail.confirmedAt", { time: formatDateTime(locale, ip.lastConfirmedAt) })}
      </span>
      {!ip.isAccepted && (
        <div>
          <Badge tone="warn">{t("detail.rejected")}</Badge>{" "}
          {ip.rejectRule && <strong>{rejectRuleText(ip.rejectRule)}</strong>}
          {ip.rejectRule && ip.rejectReason && ": "}
          {ip.rejectReasonText ? serverMessageText(ip.rejectReasonText) : ip.rejectReason}
        </div>
      )}
    </li>
  );
  return (
    <section>
      <h3>{t("detail.nics")}</h3>
      {props.vm.nics.length === 0 && <p className="muted">{t("detail.none")}</p>}
      {props.vm.nics.map((nic) => (
        <div key={nic.key} className="nic">
          <div>
            <strong>{nic.label ?? nic.key}</strong>{" "}
            {nic.mac ? (
              <CopyableValue value={nic.mac} label={t("detail.copyMac", { value: nic.mac })} />
            ) : (
              "—"
            )}{" "}
            <span className="muted">
              {[nic.network, nic.model, nic.vlan !== null ? `VLAN ${nic.vlan}` : null]
                .filter(Boolean)
                .join(" · ")}
            </span>{" "}
            {nic.isConnected === false && <Badge tone="neutral">{t("detail.disconnected")}</Badge>}
          </div>
          <ul className="nic-ips">
            {props.vm.allIps.filter((ip) => ip.nicKey === nic.key).map(ipLine)}
          </ul>
        </div>
      ))}
      {unattached.length > 0 && (
        <div className="nic">
          <strong>{t("detail.otherAddresses")}</strong>
          <ul className="nic-ips">{unattached.map(ipLine)}</ul>
        </div>
      )}
    </section>
  );
}

function Disks(props: { vm: VmDetail }) {
  const locale = currentLanguage();
  return (
    <section>
      <h3>{t("detail.disks")}</h3>
      {props.vm.disks.length === 0 && <p className="muted">{t("detail.none")}</p>}
      <ul>
        {props.vm.disks.map((disk) => (
          <li key={disk.key}>
            <strong>{disk.label ?? disk.key}</strong> {formatBytes(locale, disk.capacityBytes)}{" "}
            <Isolated className="muted">
              {[disk.storage, disk.busType].filter(Boolean).join(" · ")}
            </Isolated>
          </li>
        ))}
      </ul>
    </section>
  );
}

function History(props: { vm: VmDetail }) {
  const locale = currentLanguage();
  return (
    <section>
      <h3>{t("detail.history")}</h3>
      <ol className="timeline">
        {props.vm.history.map((event) => (
          <li key={`${event.at}-${event.type}`}>
            <time dateTime={event.at}>{formatDateTime(locale, event.at)}</time>{" "}
            <strong>{t(`event.${event.type}` as MessageKey)}</strong>
            {event.type === "CHANGED" && event.changes && typeof event.changes === "object" && (
              <span className="muted"> {Object.keys(event.changes).join(", ")}</span>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The detail drawer of one guest: facts, NICs with MACs and IPs (the primary one marked, rejected
 * ones with the rule and reason: docs/behaviour.md §9.41, §10.1), disks, history, raw fields.
 * It loads the guest by its id, so a link to it works whether or not the guest is on the loaded
 * pages (§9.48); `name` titles it until then.
 */
export function VmDetailDrawer(props: {
  id: string;
  name?: string | undefined;
  onClose: () => void;
}) {
  const [{ data, error, fetching }] = useQuery({
    query: VM_DETAIL,
    variables: { id: props.id },
    requestPolicy: "network-only",
  });
  // The schema allows any Node type here; an id of another type is as good as no guest.
  const node = data?.node;
  const vm = node && "source" in node ? node : undefined;
  // TRAP: docs/behaviour.md §9.48 — a hidden guest, a deleted one and a malformed id answer alike, or the message tells which exist.
  const isMalformedId =
    error?.graphQLErrors.some((e) => e.extensions.code === "BAD_USER_INPUT") ?? false;
  const isMissing = !fetching && vm === undefined && (isMalformedId || (data && !error));
  const title =
    vm?.name ?? props.name ?? (isMissing ? t("detail.notFoundTitle") : t("common.loading"));
  return (
    <Drawer title={title} onClose={props.onClose}>
      {vm?.isTemplate && <Badge tone="neutral">{t("detail.template")}</Badge>}
      {fetching && <p>{t("common.loading")}</p>}
      {isMissing && <p role="alert">{t("detail.notFound")}</p>}
      {error && !isMissing && <p role="alert">{error.message}</p>}
      {vm && (
        <>
          <SourceLink vm={vm} />
          <Facts vm={vm} />
          <CrossSource vm={vm} />
          <GuestValues vm={vm} />
          <Nics vm={vm} />
          <Disks vm={vm} />
          <History vm={vm} />
          <section>
            <h3>{t("detail.raw")}</h3>
            <details>
              <summary>{t("detail.showRaw")}</summary>
              <pre className="raw">{JSON.stringify(vm.details, null, 2)}</pre>
            </details>
          </section>
        </>
      )}
    </Drawer>
  );
}
