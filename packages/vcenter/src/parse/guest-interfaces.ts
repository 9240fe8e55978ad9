import { z } from "zod";
import { optionalCount, optionalString } from "./fields.ts";
import { parseWith } from "./malformed.ts";

/** One address VMware Tools reported on a guest interface. */
export interface VcenterGuestAddress {
  address: string;
  prefixLength: number | null;
  /** OTHER, MANUAL, DHCP, LINKLAYER, RANDOM; absent on some interfaces. */
  origin: string | null;
  /** PREFERRED, DEPRECATED, INVALID, DUPLICATE, UNKNOWN… */
  state: string | null;
}

/** One guest interface of `GET /api/vcenter/vm/{vm}/guest/networking/interfaces`. */
export interface VcenterGuestInterface {
  /** Device key of the virtual NIC behind it; absent for docker0, bridges, lo. */
  nic: string | null;
  /** As the guest reported it, any case. */
  macAddress: string | null;
  addresses: VcenterGuestAddress[];
}

const address = z.object({
  ip_address: z.string().min(1),
  prefix_length: optionalCount,
  origin: optionalString,
  state: optionalString,
});

const iface = z.object({
  nic: optionalString,
  mac_address: optionalString,
  ip: z
    .object({ ip_addresses: z.array(address).optional().catch(undefined) })
    .optional()
    .catch(undefined),
});

/** Parses the guest networking interfaces (a plain array). */
export function parseGuestInterfaces(value: unknown, call: string): VcenterGuestInterface[] {
  return parseWith(z.array(iface), value, call, "interfaces").map((i) => ({
    nic: i.nic ?? null,
    macAddress: i.mac_address ?? null,
    addresses: (i.ip?.ip_addresses ?? []).map((a) => ({
      address: a.ip_address,
      prefixLength: a.prefix_length ?? null,
      origin: a.origin ?? null,
      state: a.state ?? null,
    })),
  }));
}
