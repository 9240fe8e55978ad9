import { z } from "zod";
import { optionalAttr, optionalText, repeated, toBool, toInt } from "./fields.ts";
import { malformed, parseWith } from "./malformed.ts";
import { parseXmlRoot } from "./xml.ts";

/** One NIC of a VM's `NetworkConnectionSection`. */
export interface VcdNetworkConnection {
  index: number;
  /** The network name, "none" for a disconnected template NIC. */
  network: string | null;
  /** Lower-case, as Director reports it (already colon-separated). */
  mac: string | null;
  ipAddress: string | null;
  /** IPv6 (or second stack) address, API 37.1+. */
  secondaryIpAddresses: string[];
  /** The NAT address on the edge gateway, not an address inside the guest. */
  externalIpAddress: string | null;
  isConnected: boolean | null;
  /** POOL, DHCP, MANUAL or NONE. */
  allocationMode: string | null;
  /** VMXNET3, E1000, PCNet32, … (API 5.5+). */
  adapterType: string | null;
}

/** A VM's `GET {vm}/networkConnectionSection/`. */
export interface VcdNetworkConnectionSection {
  primaryIndex: number | null;
  connections: VcdNetworkConnection[];
}

const connection = z.looseObject({
  "@network": optionalAttr,
  NetworkConnectionIndex: optionalText,
  IpAddress: optionalText,
  SecondaryIpAddress: z.array(z.unknown()).optional().default([]),
  ExternalIpAddress: optionalText,
  IsConnected: optionalText,
  MACAddress: optionalText,
  IpAddressAllocationMode: optionalText,
  NetworkAdapterType: optionalText,
});

const section = z.looseObject({
  PrimaryNetworkConnectionIndex: optionalText,
  NetworkConnection: repeated(connection),
});

/** Parses a NetworkConnectionSection; a NIC without an index fails the answer (its key would be made up). */
export function parseNetworkConnectionSection(
  text: string,
  call: string,
): VcdNetworkConnectionSection {
  const root = parseWith(
    section,
    parseXmlRoot(text, "NetworkConnectionSection", call),
    call,
    "NetworkConnectionSection",
  );
  const connections = root.NetworkConnection.map((c, position): VcdNetworkConnection => {
    const index = toInt(c.NetworkConnectionIndex);
    if (index === null) {
      throw malformed(call, `NetworkConnection ${position + 1} has no NetworkConnectionIndex`);
    }
    return {
      index,
      network: c["@network"] ?? null,
      mac: c.MACAddress ? c.MACAddress.trim().toLowerCase() : null,
      ipAddress: c.IpAddress ?? null,
      secondaryIpAddresses: c.SecondaryIpAddress.flatMap((v) => {
        const t = optionalText.safeParse(v);
        return t.success && t.data ? [t.data] : [];
      }),
      externalIpAddress: c.ExternalIpAddress ?? null,
      isConnected: toBool(c.IsConnected),
      allocationMode: c.IpAddressAllocationMode ?? null,
      adapterType: c.NetworkAdapterType ?? null,
    };
  });
  return { primaryIndex: toInt(root.PrimaryNetworkConnectionIndex), connections };
}
