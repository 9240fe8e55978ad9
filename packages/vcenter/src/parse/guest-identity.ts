import { z } from "zod";
import { optionalString } from "./fields.ts";
import { parseWith } from "./malformed.ts";

/** What `GET /api/vcenter/vm/{vm}/guest/identity` says, as VMware Tools report it. */
export interface VcenterGuestIdentity {
  /** The guest's own hostname ("web-01.example.com"). */
  hostName: string | null;
  /** The readable OS name: full_name.default_message ("Red Hat Fedora (64-bit)"). */
  fullName: string | null;
  /** The guest OS code Tools detected ("FEDORA_64"). */
  osCode: string | null;
  /** LINUX, WINDOWS, … */
  family: string | null;
}

const nonBlank = (value: string | undefined) => value?.trim() || null;

const schema = z.object({
  host_name: optionalString,
  name: optionalString,
  family: optionalString,
  full_name: z.object({ default_message: optionalString }).optional().catch(undefined),
});

/** Parses Guest.Identity.Info (fixtures/vsphere/vcenter_vm_guest_identity). */
export function parseGuestIdentity(value: unknown, call: string): VcenterGuestIdentity {
  const identity = parseWith(schema, value, call, "identity");
  return {
    hostName: nonBlank(identity.host_name),
    fullName: nonBlank(identity.full_name?.default_message),
    osCode: nonBlank(identity.name),
    family: nonBlank(identity.family),
  };
}
