import type { AllowedWrite } from "@hyperlens/hyper-http";

/** The only non-GET call the Proxmox client sends: the password login. Tokens need no login, tickets no logout. */
export const PROXMOX_ALLOWED_WRITES: readonly AllowedWrite[] = [
  { method: "POST", pathPattern: /^\/api2\/json\/access\/ticket$/ },
];
